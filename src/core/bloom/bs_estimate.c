/*
 * bs_estimate.c — item-count estimates and current false-positive rates.
 */
#include "bloom/bs_estimate.h"

#include <math.h>

void
bs_occupancy_classic(uint64_t m, uint32_t k, bs_occupancy *model)
{
	double		dm = (double) m;
	double		dk = (double) k;

	model->bits = m;
	model->hashes = k;
	/* an item misses a given bit with probability 1 - k/m (eq. (42)) */
	model->log_miss = log1p(-dk / dm);
	model->same_pairs = dm * (dm - 1);
	/* and both bits of a pair with (m-k)(m-k-1) / (m(m-1)) = u1^2 (1 - k/((m-1)(m-k))) */
	model->log_pair_excess_same = log1p(-dk / ((dm - 1) * (dm - dk)));
	model->other_pairs = 0;
	model->log_pair_excess_other = 0;
}

double
bs_model_mean(const bs_occupancy *model, double n)
{
	/* mu = m (1 - u1^n), eq. (42) for the classic model */
	return -(double) model->bits * expm1(n * model->log_miss);
}

/*
 * Lemma 16 (eq. (43)) in general form, with a = u1^n the chance a bit stays
 * clear and b = u2^n the chance two given bits both do:
 *   Var X = m a (1 - a) + sum over ordered pairs (b - a^2).
 * b - a^2 cancels badly for large m, so it is evaluated as
 *   a^2 expm1(n ln(u2 / u1^2)).
 */
double
bs_model_variance(const bs_occupancy *model, double n)
{
	double		m = (double) model->bits;
	double		a;
	double		variance;

	if (model->bits < 2 || !(model->log_miss > -INFINITY) || n <= 0)
		return 0.0;
	a = exp(n * model->log_miss);
	variance = m * a * (1 - a) +
		model->same_pairs * a * a * expm1(n * model->log_pair_excess_same) +
		model->other_pairs * a * a * expm1(n * model->log_pair_excess_other);
	return variance > 0 ? variance : 0.0;
}

double
bs_model_estimate_items(const bs_occupancy *model, uint64_t x)
{
	if (x == 0)
		return 0.0;
	if (x >= model->bits || !(model->log_miss > -INFINITY) || model->log_miss == 0)
		return INFINITY;
	/* n = ln(1 - X/m) / ln u1, eq. (46) for the classic model */
	return log1p(-(double) x / (double) model->bits) / model->log_miss;
}

/* mean + z * sd at n items: the edge of the central range on one side */
static double
range_edge(const bs_occupancy *model, double n, double z)
{
	return bs_model_mean(model, n) + z * sqrt(bs_model_variance(model, n));
}

/*
 * The n in [low, high] where range_edge crosses x, by bisection.  range_edge
 * grows with n over the range searched (the mean rises by about k(1 - X/m)
 * per item while the standard deviation changes far more slowly).
 */
static double
solve_edge(const bs_occupancy *model, double x, double z, double low, double high)
{
	for (int i = 0; i < 200 && high - low > 1e-9 * (1 + high); i++)
	{
		double		mid = 0.5 * (low + high);

		if (range_edge(model, mid, z) < x)
			low = mid;
		else
			high = mid;
	}
	return 0.5 * (low + high);
}

/*
 * The interval of integer item counts n whose distribution of X puts the
 * observed x inside its central `confidence` region.  Both X (bits set) and
 * n are integers, which matters for a few items, where X takes few values
 * and its distribution moves by about k per item: the earlier interval, the
 * real n where mean +- z sd crosses x, could miss every integer (14 values,
 * 96 bits of 9601 with k = 7 gave [13.71, 13.97]; coverage fell to 88-92%
 * near n = 7 and 15).  So:
 *  - the central region of the integer X is taken with the continuity
 *    correction, [mean - z sd - 1/2, mean + z sd + 1/2] (normal, with the
 *    mean of eq. (42) and the variance of Lemma 16 as before): x is inside
 *    it for n from the crossing of mean + z sd with x - 1/2 to that of
 *    mean - z sd with x + 1/2, both edges growing with n (solve_edge);
 *  - the interval is that of the integers n between them: each end is
 *    rounded to the integer that is (lower: smallest, upper: largest)
 *    inside, decided on range_edge at the integers themselves, not on the
 *    bisection's rounding;
 *  - and n >= ceil(X/k): an integer count of items, each setting at most k
 *    bits.
 * For large n the corrections change the bounds by about one item.
 */
static double
integer_lower(const bs_occupancy *model, double edge, double z, double n)
{
	double		i = ceil(n);

	/* smallest integer i with mean + z sd >= edge at i */
	while (i > 0 && range_edge(model, i - 1, z) >= edge)
		i--;
	while (range_edge(model, i, z) < edge)
		i++;
	return i;
}

static double
integer_upper(const bs_occupancy *model, double edge, double z, double n)
{
	double		i = floor(n);

	/* largest integer i with mean - z sd <= edge at i */
	while (range_edge(model, i + 1, z) <= edge)
		i++;
	while (i > 0 && range_edge(model, i, z) > edge)
		i--;
	return i;
}

void
bs_model_estimate_bounds(const bs_occupancy *model, uint64_t x, double confidence,
						 double *lower, double *upper)
{
	double		z = bs_normal_quantile(0.5 + confidence / 2);
	double		estimate = bs_model_estimate_items(model, x);
	double		dx = (double) x;
	double		m = (double) model->bits;
	double		least = ceil(dx / model->hashes);
	double		high;

	if (x == 0)
	{
		/* every item sets at least one bit: an empty filter holds nothing */
		*lower = *upper = 0.0;
		return;
	}
	if (isinf(estimate))
		*lower = solve_edge(model, dx - 0.5, z, 0, 1e6 + 64.0 * m);
	else
		*lower = solve_edge(model, dx - 0.5, z, 0, estimate);
	*lower = integer_lower(model, dx - 0.5, z, *lower);

	/* and no fewer than X / k items can have set X bits */
	if (*lower < least)
		*lower = least;

	if (isinf(estimate))
	{
		*upper = INFINITY;
		return;
	}
	/* bracket the upper end: mean - z sd - 1/2 must exceed x there */
	high = estimate > 1 ? 2 * estimate : 2;
	while (range_edge(model, high, -z) <= dx + 0.5)
	{
		if (bs_model_mean(model, high) >= m - 0.5)
		{
			*upper = INFINITY;	/* consistent with an (almost) full filter */
			return;
		}
		high *= 2;
	}
	*upper = integer_upper(model, dx + 0.5, -z,
						   solve_edge(model, dx + 0.5, -z, estimate, high));
	if (*upper < *lower)
		*upper = *lower;		/* the X / k floor can pass a small estimate */
}

double
bs_occupancy_mean(uint64_t m, uint32_t k, double n)
{
	bs_occupancy model;

	bs_occupancy_classic(m, k, &model);
	return bs_model_mean(&model, n);
}

double
bs_occupancy_variance(uint64_t m, uint32_t k, double n)
{
	bs_occupancy model;

	if (k >= m)
		return 0.0;
	bs_occupancy_classic(m, k, &model);
	return bs_model_variance(&model, n);
}

double
bs_estimate_items(uint64_t m, uint32_t k, uint64_t x)
{
	bs_occupancy model;

	if (k >= m)
		return x == 0 ? 0.0 : INFINITY;
	bs_occupancy_classic(m, k, &model);
	return bs_model_estimate_items(&model, x);
}

void
bs_estimate_items_bounds(uint64_t m, uint32_t k, uint64_t x, double confidence,
						 double *lower, double *upper)
{
	bs_occupancy model;

	bs_occupancy_classic(m, k, &model);
	bs_model_estimate_bounds(&model, x, confidence, lower, upper);
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
