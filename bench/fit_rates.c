/*
 * fit_rates.c — the size table and rate promise of self-sized filters
 * (docs/fit.md): `make -C bench fit-rates` (N_MAX=... to change the
 * largest n, default 10^6).
 *
 * For each rate (1e-2, 1e-4, 1e-6) and n = 1, 10 .. N_MAX, one group of n
 * distinct integers is sized as bloom_fit_agg's final function sizes it
 * (built at bs_fit_start_bits, then folded while the rate holds), and
 * probed with fresh integers (a seeded range no member is in): enough of
 * them that the rate asked for would give 400 false positives (at least
 * 10^5, at most 4·10^7).  Printed: m, m against the smallest filter of any
 * scheme for n (bs_fit_reference_bits), the filter's own rate (what
 * bloom_fpr reports), the measured rate with its exact two-sided 99.9%
 * binomial interval, and whether
 *   - m is at most 2.2 times the smallest filter,
 *   - the count is within the one-sided 99.9% bound of the rate asked for
 *     (the promise), and
 *   - the count is within the two-sided 99.9% interval of the own rate
 *     (bloom_fpr neither under- nor overstates it).
 * The exit status is 1 if any cell fails.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bs_fit.h"
#include "bs_fit_state.h"
#include "bs_probe.h"

static uint64_t *
build(uint64_t n, uint32_t k, double fpr, uint64_t *bits_out, bool *met)
{
	uint64_t   *pairs = malloc(2 * n * sizeof(uint64_t));

	for (uint64_t i = 0; i < n; i++)
	{
		XXH128_hash_t h = bs_hash128(&i, sizeof(i), 0);

		pairs[2 * i] = h.low64;
		pairs[2 * i + 1] = h.high64;
	}
	*bits_out = bs_fit_size(n, k, fpr, BS_FIT_MAX_BITS, met);
	{
		uint64_t   *words = calloc(bs_bloom_word_count(*bits_out), sizeof(uint64_t));

		bs_fit_set_pairs(words, *bits_out, k, pairs, n);
		free(pairs);
		return words;
	}
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
print_cell(double fpr, uint64_t n)
{
	uint32_t	k = bs_fit_hashes(fpr);
	uint64_t	bits;
	bool		met;
	uint64_t   *words = build(n, k, fpr, &bits, &met);
	double		want = 400 / fpr;
	uint64_t	probes = want < 1e5 ? 100000 : want > 4e7 ? 40000000 : (uint64_t) want;
	uint64_t	positives = 0;
	double		own = bs_fit_rate(words, bits, k);
	double		ratio = (double) bits / bs_fit_reference_bits(n, fpr);
	double		low,
				high;
	bool		within_promise,
				own_consistent,
				ok;

	for (uint64_t i = 0; i < probes; i++)
	{
		uint64_t	v = (UINT64_C(1) << 40) + i;
		XXH128_hash_t h = bs_hash128(&v, sizeof(v), 0);

		positives += bs_fit_test(words, bits, k, h.low64, h.high64);
	}
	rate_interval(probes, positives, &low, &high);
	/* the count is not significantly above fpr: Pr[Bin(probes, fpr) >= count] > 0.0005 */
	within_promise = met && (positives == 0 || upper_tail(probes, fpr, positives) > 0.0005 ||
							 (double) positives <= probes * fpr);
	own_consistent = low <= own && own <= high;
	ok = ratio <= 2.2 && within_promise && own_consistent;
	printf("| %g | %" PRIu64 " | %" PRIu64 " | %.2f | %.3g | %.3g [%.3g, %.3g] | %" PRIu64 " | %s |\n",
		   fpr, n, bits, ratio, own, (double) positives / (double) probes, low, high, probes,
		   ok ? "yes" : "NO");
	fflush(stdout);
	free(words);
	return ok;
}

int
main(int argc, char **argv)
{
	static const double rates[] = {1e-2, 1e-4, 1e-6};
	uint64_t	n_max = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
	int			failures = 0;

	printf("| rate | n | m | m / smallest | own rate | measured [99.9%%] | probes | ok |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		for (uint64_t n = 1; n <= n_max; n *= 10)
			failures += !print_cell(rates[r], n);
	return failures > 0;
}
