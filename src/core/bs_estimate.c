/*
 * bs_estimate.c — item-count estimates and current false-positive rates.
 */
#include "bs_estimate.h"

#include <math.h>

/* ln(1 - k/m): the log-probability that one item misses a given bit. */
static double
log_miss(uint64_t m, uint32_t k)
{
	return log1p(-(double) k / (double) m);
}

double
bs_occupancy_mean(uint64_t m, uint32_t k, double n)
{
	/* mu = m (1 - (1 - k/m)^n), eq. (42) */
	return -(double) m * expm1(n * log_miss(m, k));
}

/*
 * Lemma 16 (eq. (43)) with a = (1 - k/m)^n, the chance a bit stays clear,
 * and b = ((m-k)(m-k-1) / (m(m-1)))^n, the chance two given bits both do:
 *   Var X = m a (1 - a) + m (m - 1) (b - a^2).
 * b - a^2 cancels badly for large m, so it is rewritten exactly as
 *   b - a^2 = a^2 ((1 - k / ((m-1)(m-k)))^n - 1),
 * evaluated with log1p/expm1.
 */
double
bs_occupancy_variance(uint64_t m, uint32_t k, double n)
{
	double		dm = (double) m;
	double		a;
	double		pair;
	double		variance;

	if (m < 2 || k >= m || n <= 0)
		return 0.0;
	a = exp(n * log_miss(m, k));
	pair = expm1(n * log1p(-(double) k / ((dm - 1) * (dm - (double) k))));
	variance = dm * a * (1 - a) + dm * (dm - 1) * a * a * pair;
	return variance > 0 ? variance : 0.0;
}

double
bs_estimate_items(uint64_t m, uint32_t k, uint64_t x)
{
	if (x == 0)
		return 0.0;
	if (x >= m || k >= m)
		return INFINITY;
	/* n = ln(1 - X/m) / ln(1 - k/m), eq. (46) */
	return log1p(-(double) x / (double) m) / log_miss(m, k);
}

/* mean + z * sd at n items: the edge of the central range on one side */
static double
range_edge(uint64_t m, uint32_t k, double n, double z)
{
	return bs_occupancy_mean(m, k, n) + z * sqrt(bs_occupancy_variance(m, k, n));
}

/*
 * The n in [low, high] where range_edge crosses x, by bisection.  range_edge
 * grows with n over the range searched (the mean rises by about k(1 - X/m)
 * per item while the standard deviation changes far more slowly).
 */
static double
solve_edge(uint64_t m, uint32_t k, double x, double z, double low, double high)
{
	for (int i = 0; i < 200 && high - low > 1e-9 * (1 + high); i++)
	{
		double		mid = 0.5 * (low + high);

		if (range_edge(m, k, mid, z) < x)
			low = mid;
		else
			high = mid;
	}
	return 0.5 * (low + high);
}

void
bs_estimate_items_bounds(uint64_t m, uint32_t k, uint64_t x, double confidence,
						 double *lower, double *upper)
{
	double		z = bs_normal_quantile(0.5 + confidence / 2);
	double		estimate = bs_estimate_items(m, k, x);
	double		dx = (double) x;
	double		high;

	if (x == 0)
	{
		/* every item sets k bits: an empty filter holds exactly nothing */
		*lower = *upper = 0.0;
		return;
	}
	if (isinf(estimate))
		*lower = solve_edge(m, k, dx - 0.5, z, 0, 1e6 + 64.0 * (double) m);
	else
		*lower = solve_edge(m, k, dx, z, 0, estimate);

	/* and no fewer than X / k items can have set X bits */
	if (*lower < dx / k)
		*lower = dx / k;

	if (isinf(estimate))
	{
		*upper = INFINITY;
		return;
	}
	/* bracket the upper end: mean - z sd must exceed x there */
	high = estimate > 1 ? 2 * estimate : 2;
	while (range_edge(m, k, high, -z) <= dx)
	{
		if (bs_occupancy_mean(m, k, high) >= (double) m - 0.5)
		{
			*upper = INFINITY;	/* consistent with an (almost) full filter */
			return;
		}
		high *= 2;
	}
	*upper = solve_edge(m, k, dx, -z, estimate, high);
}

double
bs_current_fpr(uint64_t m, uint32_t k, uint64_t x)
{
	double		rate = 1.0;

	if (x < k)
		return 0.0;
	for (uint32_t i = 0; i < k; i++)
		rate *= (double) (x - i) / (double) (m - i);
	return rate;
}

/*
 * Solve Phi(z) = p with Phi(z) = erfc(-z / sqrt 2) / 2: Newton steps from 0,
 * kept inside a shrinking bracket so that it always converges.
 */
double
bs_normal_quantile(double p)
{
	double		low = -40;
	double		high = 40;
	double		z = 0;

	for (int i = 0; i < 100; i++)
	{
		double		cdf = 0.5 * erfc(-z / M_SQRT2);
		double		density = exp(-0.5 * z * z) / sqrt(2 * M_PI);
		double		next;

		if (cdf < p)
			low = z;
		else
			high = z;
		next = density > 0 ? z - (cdf - p) / density : 0.5 * (low + high);
		if (!(next > low && next < high))
			next = 0.5 * (low + high);
		if (fabs(next - z) < 1e-15 * (1 + fabs(z)))
			return next;
		z = next;
	}
	return z;
}
