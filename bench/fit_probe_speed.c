/*
 * fit_probe_speed.c — the cost of the fit scheme's mixed positions against
 * the enhanced double hashing they replaced (docs/fit.md, "Cost"):
 * `make -C bench fit-probes`.
 *
 * Both walks set the k = 7 positions of n pairs (1% filters of 10^2, 10^4
 * and 10^6 values, in and out of the caches) and test as many non-members;
 * the old walk is kept here as the reference (x += y; y += i + 1).  Each
 * round times both in turn on the process's CPU clock; printed are the
 * median ns per value of each and the median of the 15 paired ratios
 * new / old, with the range of the middle 11.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bloom/bs_fit.h"

#define ROUNDS 15

/* The enhanced double hashing walk of the earlier fit scheme. */
static void
old_set(uint64_t *words, uint64_t bits, uint32_t hashes, uint64_t h1, uint64_t h2)
{
	uint64_t	x = h1,
				y = h2 | 1;

	for (uint32_t i = 0; i < hashes; i++)
	{
		uint64_t	p = x & (bits - 1);

		words[p >> 6] |= UINT64_C(1) << (p & 63);
		x += y;
		y += (uint64_t) i + 1;
	}
}

static bool
old_test(const uint64_t *words, uint64_t bits, uint32_t hashes, uint64_t h1, uint64_t h2)
{
	uint64_t	x = h1,
				y = h2 | 1;

	for (uint32_t i = 0; i < hashes; i++)
	{
		uint64_t	p = x & (bits - 1);

		if ((words[p >> 6] & (UINT64_C(1) << (p & 63))) == 0)
			return false;
		x += y;
		y += (uint64_t) i + 1;
	}
	return true;
}

static double
cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double) t.tv_sec + (double) t.tv_nsec * 1e-9;
}

/* ns per value to set n pairs and test n others, with the old or new walk. */
static double
time_walk(bool new_walk, uint64_t *words, uint64_t bits, const uint64_t *pairs, uint64_t n,
		  uint64_t *hits)
{
	double		start = cpu_seconds();

	memset(words, 0, 8 * bs_bloom_word_count(bits));
	for (uint64_t i = 0; i < n; i++)
	{
		if (new_walk)
			bs_fit_set(words, bits, 7, pairs[2 * i], pairs[2 * i + 1]);
		else
			old_set(words, bits, 7, pairs[2 * i], pairs[2 * i + 1]);
	}
	for (uint64_t i = n; i < 2 * n; i++)
		*hits += new_walk ? bs_fit_test(words, bits, 7, pairs[2 * i], pairs[2 * i + 1]) :
			old_test(words, bits, 7, pairs[2 * i], pairs[2 * i + 1]);
	return (cpu_seconds() - start) * 1e9 / (double) (2 * n);
}

static int
compare_doubles(const void *a, const void *b)
{
	double		x = *(const double *) a,
				y = *(const double *) b;

	return x < y ? -1 : x > y;
}

int
main(void)
{
	static const uint64_t ns[] = {100, 10000, 1000000};

	printf("| n | m | old ns/value | new ns/value | new / old (median) | middle 11 of %d |\n", ROUNDS);
	printf("|---:|---:|---:|---:|---:|---|\n");
	for (size_t c = 0; c < sizeof(ns) / sizeof(ns[0]); c++)
	{
		uint64_t	n = ns[c];
		bool		met;
		uint64_t	bits = bs_fit_size(n, 7, 0.01, BS_FIT_MAX_BITS, &met);
		/* repeat small groups so that each timing runs about 10^6 values */
		uint64_t	repeat = n < 1000000 ? 1000000 / n : 1;
		uint64_t   *pairs = malloc(4 * n * sizeof(uint64_t));
		uint64_t   *words = malloc(8 * bs_bloom_word_count(bits));
		double		old_ns[ROUNDS],
					new_ns[ROUNDS],
					ratio[ROUNDS];
		uint64_t	hits = 0;

		for (uint64_t i = 0; i < 2 * n; i++)
		{
			XXH128_hash_t h = bs_hash128(&i, sizeof(i), 0);

			pairs[2 * i] = h.low64;
			pairs[2 * i + 1] = h.high64;
		}
		for (int r = 0; r < ROUNDS; r++)
		{
			old_ns[r] = new_ns[r] = 0;
			for (uint64_t j = 0; j < repeat; j++)
			{
				/* alternate which walk goes first */
				if (r % 2 == 0)
					old_ns[r] += time_walk(false, words, bits, pairs, n, &hits);
				new_ns[r] += time_walk(true, words, bits, pairs, n, &hits);
				if (r % 2 == 1)
					old_ns[r] += time_walk(false, words, bits, pairs, n, &hits);
			}
			ratio[r] = new_ns[r] / old_ns[r];
		}
		qsort(old_ns, ROUNDS, sizeof(double), compare_doubles);
		qsort(new_ns, ROUNDS, sizeof(double), compare_doubles);
		qsort(ratio, ROUNDS, sizeof(double), compare_doubles);
		printf("| %" PRIu64 " | %" PRIu64 " | %.1f | %.1f | %.2f | %.2f .. %.2f |\n", n, bits,
			   old_ns[ROUNDS / 2] / repeat, new_ns[ROUNDS / 2] / repeat, ratio[ROUNDS / 2],
			   ratio[2], ratio[ROUNDS - 3]);
		fflush(stdout);
		if (hits == UINT64_MAX)
			printf("(unreachable: keeps the tests from being optimised away)\n");
		free(pairs);
		free(words);
	}
	return 0;
}
