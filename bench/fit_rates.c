/*
 * fit_rates.c — the size table and rate promise of self-sized filters
 * (docs/fit.md): `make -C bench fit-rates` (N_MAX=... to change the
 * largest n, default 10^6).
 *
 * For each rate (1e-2, 1e-4, 1e-6) and n = 1, 10 .. N_MAX, groups of n
 * distinct integers (each group its own seeded range) are sized as
 * bloom_fit_agg's final function sizes them from a hash list: the smallest
 * power of two whose expected rate for n meets the rate (bs_fit_size), the
 * same m for every group of that n.  The promise is that expected rate, so
 * the rate is measured over many groups: up to GROUPS_MAX of them, fewer
 * for large n (at most VALUES_PER_CELL values built per cell; the own rate
 * of a large group varies little), each probed with fresh integers (a
 * range no member is in), enough in all that the rate asked for would give
 * 400 false positives (at least 10^5, at most 2·10^8).  Printed: m, m
 * against the smallest filter of any scheme for n (bs_fit_reference_bits),
 * the expected rate at m (bs_fit_expected_rate), the mean of the groups'
 * own rates (what bloom_fpr reports for each), the measured rate with its
 * exact two-sided 99.9% (Clopper-Pearson) interval, and whether
 *   - m is at most 2.2 times the smallest filter,
 *   - the count is within the one-sided 99.9% bound of the rate asked for
 *     (the promise), and
 *   - the mean own rate is within the measured interval (bloom_fpr neither
 *     under- nor overstates the rate of the filters probed).
 * The exit status is 1 if any cell fails.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bloom/bs_fit.h"
#include "bloom/bs_fit_state.h"
#include "bloom/bs_probe.h"

/* The most groups per cell, and the most values built per cell. */
#define GROUPS_MAX 1000
#define VALUES_PER_CELL 2000000

/* The filter of the n integers from `from` at m bits, as the final function builds it. */
static uint64_t *
build(uint64_t from, uint64_t n, uint32_t k, uint64_t bits)
{
	uint64_t   *pairs = malloc(2 * n * sizeof(uint64_t));
	uint64_t   *words = calloc(bs_bloom_word_count(bits), sizeof(uint64_t));

	for (uint64_t i = 0; i < n; i++)
	{
		uint64_t	v = from + i;
		XXH128_hash_t h = bs_hash128(&v, sizeof(v), 0);

		pairs[2 * i] = h.low64;
		pairs[2 * i + 1] = h.high64;
	}
	bs_fit_set_pairs(words, bits, k, pairs, n);
	free(pairs);
	return words;
}

static double
log_binomial_pmf(uint64_t trials, uint64_t c, double p)
{
	return lgamma((double) trials + 1) - lgamma((double) c + 1) -
		lgamma((double) (trials - c) + 1) + (double) c * log(p) +
		(double) (trials - c) * log1p(-p);
}

/* Pr[Binomial(trials, p) >= c] (c > trials * p: summed from c up until negligible). */
static double
upper_tail(uint64_t trials, double p, uint64_t c)
{
	double		tail = 0;

	for (uint64_t j = c; j <= trials; j++)
	{
		double		term = exp(log_binomial_pmf(trials, j, p));

		tail += term;
		if (term < tail * 1e-12 && (double) j > trials * p)
			break;
	}
	return tail;
}

/* Pr[Binomial(trials, p) <= c]. */
static double
lower_tail(uint64_t trials, double p, uint64_t c)
{
	double		tail = 0;

	for (uint64_t j = c + 1; j-- > 0;)
	{
		double		term = exp(log_binomial_pmf(trials, j, p));

		tail += term;
		if (term < tail * 1e-12 && (double) j < trials * p)
			break;
	}
	return tail;
}

/* The exact (Clopper-Pearson) two-sided 99.9% interval of a rate from c in trials. */
static void
rate_interval(uint64_t trials, uint64_t c, double *low, double *high)
{
	double		lo = 0,
				hi = 1;

	/* high: the p with Pr[Bin <= c] = 0.0005; low: the p with Pr[Bin >= c] = 0.0005 */
	for (int i = 0; i < 200; i++)
	{
		double		mid = (lo + hi) / 2;

		if (lower_tail(trials, mid, c) > 0.0005)
			lo = mid;
		else
			hi = mid;
	}
	*high = hi;
	*low = 0;
	if (c == 0)
		return;
	lo = 0;
	hi = *high;
	for (int i = 0; i < 200; i++)
	{
		double		mid = (lo + hi) / 2;

		if (upper_tail(trials, mid, c) < 0.0005)
			lo = mid;
		else
			hi = mid;
	}
	*low = lo;
}

static bool
print_cell(double fpr, uint64_t n, int cell)
{
	uint32_t	k = bs_fit_hashes(fpr);
	bool		met;
	uint64_t	bits = bs_fit_size(n, k, fpr, BS_FIT_MAX_BITS, &met);
	uint64_t	groups = n * GROUPS_MAX <= VALUES_PER_CELL ? GROUPS_MAX : (VALUES_PER_CELL + n - 1) / n;
	double		want = 400 / fpr;
	uint64_t	wanted = want < 1e5 ? 100000 : want > 2e8 ? 200000000 : (uint64_t) want;
	uint64_t	per_group = (wanted + groups - 1) / groups;
	uint64_t	probes = per_group * groups;
	uint64_t	positives = 0;
	double		own = 0;
	double		ratio = (double) bits / bs_fit_reference_bits(n, fpr);
	double		low,
				high;
	bool		within_promise,
				own_consistent,
				ok;

	for (uint64_t g = 0; g < groups; g++)
	{
		/* members from `base`, then the group's probes: a range of its own */
		uint64_t	base = ((uint64_t) (cell + 1) << 44) + g * (n + per_group);
		uint64_t   *words = build(base, n, k, bits);

		own += bs_fit_rate(words, bits, k);
		for (uint64_t i = 0; i < per_group; i++)
		{
			uint64_t	v = base + n + i;
			XXH128_hash_t h = bs_hash128(&v, sizeof(v), 0);

			positives += bs_fit_test(words, bits, k, h.low64, h.high64);
		}
		free(words);
	}
	own /= (double) groups;
	rate_interval(probes, positives, &low, &high);
	/* the count is not significantly above fpr: Pr[Bin(probes, fpr) >= count] > 0.0005 */
	within_promise = met && (positives == 0 || upper_tail(probes, fpr, positives) > 0.0005 ||
							 (double) positives <= probes * fpr);
	own_consistent = low <= own && own <= high;
	ok = ratio <= 2.2 && within_promise && own_consistent;
	printf("| %g | %" PRIu64 " | %" PRIu64 " | %.2f | %.3g | %.3g | %.3g [%.3g, %.3g] | %" PRIu64
		   " | %" PRIu64 " | %s |\n",
		   fpr, n, bits, ratio, bs_fit_expected_rate(bits, n, k), own,
		   (double) positives / (double) probes, low, high, groups, probes, ok ? "yes" : "NO");
	fflush(stdout);
	return ok;
}

int
main(int argc, char **argv)
{
	static const double rates[] = {1e-2, 1e-4, 1e-6};
	uint64_t	n_max = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	int			failures = 0;
	int			cell = 0;

	printf("| rate | n | m | m / smallest | expected rate | mean own rate | measured [99.9%%] | groups | probes | ok |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		for (uint64_t n = 1; n <= n_max; n *= 10)
			failures += !print_cell(rates[r], n, cell++);
	return failures > 0;
}
