/*
 * fit_rates.c — the rate promise of self-sized filters (docs/fit.md) from 1
 * to 10^7 values: `make -C bench fit-rates` (N_MAX=... to stop earlier).
 *
 * For each rate and n, one group of n distinct integers is sized as
 * bloom_fit_agg's final function sizes it (built at bs_fit_start_bits, then
 * folded while the rate holds), and probed with fresh integers: enough of
 * them that the rate asked for would give 400 false positives (at least
 * 10^5, at most 4·10^7).  Printed: the size, its bytes against
 * bloom_create's double-hashing filter for n, the filter's own rate, the
 * measured rate and the one-sided 99.9% binomial bound of the rate asked
 * for (normal approximation, 3.09 sigma, plus one); the exit status is 1 if
 * a count exceeds its bound.  With n up to 10^7 it takes about 10 minutes
 * of CPU and 400 MB.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bs_fit.h"
#include "bs_fit_state.h"
#include "bs_probe.h"
#include "bs_scheme_sizing.h"

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
	for (uint64_t bits = bs_fit_start_bits(n, k, fpr, BS_FIT_MAX_BITS);; bits *= 2)
	{
		uint64_t   *words = calloc(bits / 64, sizeof(uint64_t));

		bs_fit_set_pairs(words, bits, k, pairs, n);
		*bits_out = bs_fit_fold_to_rate(words, bits, k, fpr, met);
		if (*met || bits >= BS_FIT_MAX_BITS)
		{
			free(pairs);
			return words;
		}
		free(words);
	}
}

int
main(int argc, char **argv)
{
	static const double rates[] = {0.01, 0.001, 1e-4, 1e-6};
	uint64_t	n_max = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
	int			failures = 0;

	printf("| rate | n | m | bytes / bloom_create's | own rate | measured | probes | bound | ok |\n");
	printf("|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		for (uint64_t n = 1; n <= n_max; n *= 10)
		{
			double		fpr = rates[r];
			uint32_t	k = bs_fit_hashes(fpr);
			uint64_t	bits,
						capacity_bits;
			uint32_t	capacity_k;
			bool		met;
			uint64_t   *words = build(n, k, fpr, &bits, &met);
			double		want = 400 / fpr;
			uint64_t	probes = want < 1e5 ? 100000 : want > 4e7 ? 40000000 : (uint64_t) want;
			uint64_t	positives = 0;
			double		bound = probes * fpr + 3.0902 * sqrt(probes * fpr * (1 - fpr)) + 1;
			bs_error	err;
			char		ratio[32] = "-";

			for (uint64_t i = 0; i < probes; i++)
			{
				uint64_t	v = (UINT64_C(1) << 40) + i;
				XXH128_hash_t h = bs_hash128(&v, sizeof(v), 0);

				positives += bs_fit_test(words, bits, k, h.low64, h.high64);
			}
			if (bs_bloom_size_scheme(BS_SCHEME_DOUBLE, (int64_t) n, fpr, &capacity_bits,
									 &capacity_k, &err) == BS_OK)
				snprintf(ratio, sizeof(ratio), "%.2f",
						 (double) bs_bloom_total_bytes(bits) / (double) bs_bloom_total_bytes(capacity_bits));
			failures += positives > bound || !met;
			printf("| %g | %" PRIu64 " | %" PRIu64 " | %s | %.3g | %.3g | %" PRIu64 " | %.0f | %s |\n",
				   fpr, n, bits, ratio, bs_fit_rate(words, bits, k),
				   (double) positives / (double) probes, probes, bound,
				   positives <= bound && met ? "yes" : "NO");
			fflush(stdout);
			free(words);
		}
	return failures > 0;
}
