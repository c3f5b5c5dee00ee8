/*
 * setops_speed.c — union and intersection of two 100 MB filters against
 * memcpy of the same 100 MB, on the pure C core.  Medians of 9 runs.
 *
 * A union reads both operands and writes the first in place; memcpy reads
 * one buffer and writes another (with the write-allocate read, also three
 * streams).  "At memory speed" means a time / memcpy ratio near or below 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bloom/bs_bloom.h"
#include "common/bs_primes.h"

#define RUNS 9

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int
compare_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

static double
median(double *v)
{
	qsort(v, RUNS, sizeof(double), compare_double);
	return v[RUNS / 2];
}

int
main(void)
{
	uint64_t	bits = bs_prev_prime(UINT64_C(800000000));	/* 100 MB of bits */
	size_t		bytes = bs_bloom_total_bytes(bits);
	bs_bloom   *a = aligned_alloc(64, (bytes + 63) / 64 * 64);
	bs_bloom   *b = aligned_alloc(64, (bytes + 63) / 64 * 64);
	char	   *copy = aligned_alloc(64, (bytes + 63) / 64 * 64);
	double		t_union[RUNS];
	double		t_intersect[RUNS];
	double		t_memcpy[RUNS];
	uint64_t	words = bs_bloom_word_count(bits);
	uint64_t	state = 42;
	uint64_t	sink = 0;

	if (!a || !b || !copy)
		return 1;
	memset(a, 0, bytes);
	memset(b, 0, bytes);
	memset(copy, 0, bytes);
	bs_bloom_init(a, bits, 7, 0);
	bs_bloom_init(b, bits, 7, 0);
	for (uint64_t i = 0; i + 1 < words; i++)
	{
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		a->words[i] = state;
		b->words[i] = state >> 7 | state << 57;
	}

	for (int r = 0; r < RUNS; r++)
	{
		double		t0 = now();

		memcpy(copy, a, bytes);
		t_memcpy[r] = now() - t0;
		sink += (uint64_t) copy[r * 4096];

		t0 = now();
		bs_bloom_union_into(a, b);
		t_union[r] = now() - t0;

		t0 = now();
		bs_bloom_intersect_into(a, b);
		t_intersect[r] = now() - t0;
		sink += a->words[r];
	}

	{
		double		mc = median(t_memcpy);
		double		un = median(t_union);
		double		in = median(t_intersect);
		double		mb = bytes / 1e6;

		printf("## Union and intersection of two %.0f MB filters (m = %llu bits), medians of %d runs\n\n",
			   mb, (unsigned long long) bits, RUNS);
		printf("| operation | median ms | MB of filter per s | time / memcpy |\n");
		printf("|---|---:|---:|---:|\n");
		printf("| memcpy of one filter | %.2f | %.0f | 1.00 |\n", mc * 1e3, mb / mc);
		printf("| union, in place | %.2f | %.0f | %.2f |\n", un * 1e3, mb / un, un / mc);
		printf("| intersection, in place | %.2f | %.0f | %.2f |\n", in * 1e3, mb / in, in / mc);
		printf("\n(checksum %llu)\n", (unsigned long long) (sink & 1));
	}
	return 0;
}
