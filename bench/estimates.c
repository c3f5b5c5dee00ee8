/*
 * estimates.c — accuracy of the item-count estimates, on the pure C core.
 *
 * 1. bloom_cardinality and its 95% bounds: 1,000 trials per fill level on a
 *    filter of about 2^20 bits (the prime 1,048,573, k = 7), fills 5%..90%.
 *    Reports the mean relative error and how often the bounds cover the truth.
 * 2. bloom_intersection_cardinality: two sets of 100,000 values at 10 bits per
 *    item with true overlaps of 1%, 10% and 50%; reports the mean absolute
 *    error relative to the union size.
 * Fixed seeds: the same figures on every run.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bloom/bs_bloom.h"
#include "bloom/bs_probe.h"
#include "bloom/bs_estimate.h"
#include "common/bs_primes.h"

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static bs_bloom *
new_filter(uint64_t bits, uint32_t hashes, uint64_t seed)
{
	bs_bloom   *f = calloc(1, bs_bloom_total_bytes(bits));

	if (f == NULL)
		abort();
	bs_bloom_init(f, bits, hashes, seed);
	f->family = BS_FAMILY_INTEGER;
	return f;
}

static void
add_key(bs_bloom *f, const bs_probe *probe, uint64_t key)
{
	bs_bloom_add(f, probe, &key, sizeof(key));
}

static void
cardinality_accuracy(void)
{
	const uint64_t m = bs_prev_prime(UINT64_C(1) << 20);
	const uint32_t k = 7;
	const double fills[] = {0.05, 0.10, 0.25, 0.50, 0.75, 0.90};
	const int	trials = 1000;
	bs_probe	probe;

	printf("## bloom_cardinality on m = %llu bits, k = %u, %d trials per fill\n\n",
		   (unsigned long long) m, k, trials);
	printf("| fill | items n | mean relative error | RMS relative error | 95%% bounds cover | mean bound width / n |\n");
	printf("|---:|---:|---:|---:|---:|---:|\n");
	for (size_t f = 0; f < sizeof(fills) / sizeof(fills[0]); f++)
	{
		uint64_t	n = (uint64_t) llround(log1p(-fills[f]) / log1p(-(double) k / m));
		double		sum_err = 0;
		double		sum_sq = 0;
		double		sum_width = 0;
		int			covered = 0;

		for (int t = 0; t < trials; t++)
		{
			uint64_t	rng = UINT64_C(1000003) * (uint64_t) (t + 1) + f;
			bs_bloom   *filter = new_filter(m, k, (uint64_t) t);
			double		estimate;
			double		lower;
			double		upper;
			uint64_t	x;

			bs_probe_init(&probe, m, k, (uint64_t) t);
			for (uint64_t i = 0; i < n; i++)
				add_key(filter, &probe, splitmix64(&rng));
			x = bs_bloom_count_set(filter);
			estimate = bs_estimate_items(m, k, x);
			bs_estimate_items_bounds(m, k, x, 0.95, &lower, &upper);
			sum_err += estimate / n - 1;
			sum_sq += (estimate / n - 1) * (estimate / n - 1);
			sum_width += (upper - lower) / n;
			covered += lower <= n && n <= upper;
			free(filter);
		}
		printf("| %.0f%% | %llu | %+.4f%% | %.4f%% | %.1f%% | %.4f |\n",
			   100 * fills[f], (unsigned long long) n, 100 * sum_err / trials,
			   100 * sqrt(sum_sq / trials), 100.0 * covered / trials, sum_width / trials);
	}
	printf("\n");
}

static void
intersection_accuracy(void)
{
	const uint64_t n = 100000;
	const double overlaps[] = {0.01, 0.10, 0.50};
	const int	trials = 200;
	uint64_t	m = bs_next_prime(10 * n);
	uint32_t	k = 7;			/* round(10 ln 2) */
	bs_probe	probe;

	printf("## bloom_intersection_cardinality: two sets of %llu values, m = %llu bits (10 per item), k = %u, %d trials\n\n",
		   (unsigned long long) n, (unsigned long long) m, k, trials);
	printf("| true overlap | union size | mean estimate | mean abs error / union | mean signed error / union | max abs error / union |\n");
	printf("|---:|---:|---:|---:|---:|---:|\n");
	bs_probe_init(&probe, m, k, 0);
	for (size_t o = 0; o < sizeof(overlaps) / sizeof(overlaps[0]); o++)
	{
		uint64_t	shared = (uint64_t) llround(overlaps[o] * n);
		double		union_size = (double) (2 * n - shared);
		double		sum_abs = 0;
		double		sum_signed = 0;
		double		sum_est = 0;
		double		max_abs = 0;

		for (int t = 0; t < trials; t++)
		{
			bs_bloom   *a = new_filter(m, k, 0);
			bs_bloom   *b = new_filter(m, k, 0);
			uint64_t	base = UINT64_C(1) << 40 | (uint64_t) t << 24;
			double		na;
			double		nb;
			double		nu;
			double		overlap;

			/* A = base + [0, n), B = base + [n - shared, 2n - shared) */
			for (uint64_t i = 0; i < n; i++)
				add_key(a, &probe, base + i);
			for (uint64_t i = n - shared; i < 2 * n - shared; i++)
				add_key(b, &probe, base + i);
			na = bs_estimate_items(m, k, bs_bloom_count_set(a));
			nb = bs_estimate_items(m, k, bs_bloom_count_set(b));
			nu = bs_estimate_items(m, k, bs_bloom_count_union(a, b));
			overlap = fmin(fmax(na + nb - nu, 0), fmin(na, nb));
			sum_est += overlap;
			sum_signed += (overlap - shared) / union_size;
			sum_abs += fabs(overlap - shared) / union_size;
			if (fabs(overlap - shared) / union_size > max_abs)
				max_abs = fabs(overlap - shared) / union_size;
			free(a);
			free(b);
		}
		printf("| %llu (%.0f%%) | %.0f | %.1f | %.3f%% | %+.3f%% | %.3f%% |\n",
			   (unsigned long long) shared, 100 * overlaps[o], union_size, sum_est / trials,
			   100 * sum_abs / trials, 100 * sum_signed / trials, 100 * max_abs);
	}
	printf("\n");
}

int
main(void)
{
	cardinality_accuracy();
	intersection_accuracy();
	return 0;
}
