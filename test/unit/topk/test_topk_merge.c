/*
 * test_topk_merge.c — the heavy-hitters guarantees after a stream is split
 * into parts, summarized part by part and merged: in pairs, as folds of
 * pairwise merges, as one table that folds every part (as an aggregate
 * does), and at random, over random and consecutive splits.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "topk_helpers.h"

/* The parts' summaries merged in one of several orders. */
static bs_topk *
merge_in_order(bs_topk **parts, uint32_t count, int order, uint64_t *seed)
{
	bs_topk   **work;
	uint32_t	left = count;

	/* 4: one table, as an aggregate folds */
	if (order == 4)
		return fold_all((const bs_topk *const *) parts, count);
	work = xcalloc(sizeof(bs_topk *) * count);
	for (uint32_t i = 0; i < count; i++)
	{
		work[i] = xcalloc((size_t) parts[i]->length_word);
		memcpy(work[i], parts[i], (size_t) parts[i]->length_word);
	}
	while (left > 1)
	{
		/* 0: left fold, 1: right fold, 2: pairs (a tree), 3: random pairs */
		uint32_t	a = order == 1 ? left - 2 : 0;
		uint32_t	b = order == 1 ? left - 1 : 1;
		bs_topk    *merged;

		if (order == 3)
		{
			a = (uint32_t) (splitmix64(seed) % left);
			b = (uint32_t) (splitmix64(seed) % (left - 1));
			b += b >= a;
		}
		merged = order == 2 ? NULL : merge_two(work[a], work[b]);
		if (order == 2)
		{
			uint32_t	half = 0;

			for (uint32_t i = 0; i + 1 < left; i += 2)
			{
				bs_topk    *m = merge_two(work[i], work[i + 1]);

				free(work[i]);
				free(work[i + 1]);
				work[half++] = m;
			}
			if (left % 2 == 1)
				work[half++] = work[left - 1];
			left = half;
			continue;
		}
		free(work[a]);
		free(work[b]);
		work[a < b ? a : b] = merged;
		work[a < b ? b : a] = work[left - 1];
		if ((a < b ? b : a) == left - 1)
			work[a < b ? b : a] = NULL;
		left--;
	}
	{
		bs_topk    *result = work[0];

		free(work);
		return result;
	}
}

/*
 * Guarantees after splitting a stream into parts, at random or into
 * consecutive runs, and merging them in five orders.
 */
static void
check_merged(const int64_t *stream, size_t n, uint32_t domain, uint32_t counters,
			 uint32_t part_count, bool consecutive, uint64_t seed, const char *name)
{
	uint64_t   *exact = exact_counts(stream, n, domain);
	uint32_t   *part = xcalloc(sizeof(uint32_t) * n);
	bs_topk   **parts = xcalloc(sizeof(bs_topk *) * part_count);
	char		what[160];

	for (size_t i = 0; i < n; i++)
		part[i] = consecutive ? (uint32_t) (i * part_count / n) :
			(uint32_t) (splitmix64(&seed) % part_count);
	for (uint32_t p = 0; p < part_count; p++)
	{
		split		s = {part, p};

		parts[p] = summarize(stream, n, counters, p % 2 == 0, in_part, &s);
	}
	for (int order = 0; order < 5; order++)
	{
		bs_topk    *merged = merge_in_order(parts, part_count, order, &seed);

		snprintf(what, sizeof(what), "%s, c = %u, %u %s parts merged in order %d", name,
				 counters, part_count, consecutive ? "consecutive" : "random", order);
		check_guarantees(merged, exact, domain, n, what);
		free(merged);
	}
	for (uint32_t p = 0; p < part_count; p++)
		free(parts[p]);
	free(parts);
	free(part);
	free(exact);
}

static int
compare_int64(const void *a, const void *b)
{
	int64_t		x = *(const int64_t *) a;
	int64_t		y = *(const int64_t *) b;

	return x < y ? -1 : x > y;
}

/* The order of values by their exact counts, then by value: rare first. */
static const uint64_t *rare_first_counts;

static int
compare_rare_first(const void *a, const void *b)
{
	int64_t		x = *(const int64_t *) a;
	int64_t		y = *(const int64_t *) b;
	uint64_t	fx = rare_first_counts[x];
	uint64_t	fy = rare_first_counts[y];

	if (fx != fy)
		return fx < fy ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * A flat stream with ten planted heavy values, rare values first: every
 * part of a random split then ends with the heavy values, whose large
 * counts a fold merges after its table is full and its error is close to
 * its bound N / (c + 1), the case where a reduction in the middle of one
 * summary's entries spent the room its remaining counts needed.
 */
static int64_t *
planted_rare_first(size_t n, uint32_t domain, uint64_t seed)
{
	int64_t    *stream = zipf_stream(n, domain, 0.0, seed);
	uint64_t   *exact;
	size_t		at = 0;

	/* keys ending in 0xff: last in a summary's order, so merged last */
	for (uint32_t j = 1; j <= 10; j++)
		for (size_t r = 0; r < n / 500 * j; r++)
			stream[at++] = (int64_t) (256 * j + 255) % domain;
	exact = exact_counts(stream, n, domain);
	rare_first_counts = exact;
	qsort(stream, n, sizeof(int64_t), compare_rare_first);
	free(exact);
	return stream;
}

void
test_guarantees_merged(void)
{
	uint32_t	domain = 5000;
	size_t		n = 60000;
	int64_t    *zipf = zipf_stream(n, domain, 1.1, 21);
	int64_t    *flat = zipf_stream(n, domain, 0.0, 22);
	int64_t    *planted = planted_rare_first(100000, 10000, 23);
	int64_t    *sorted = xcalloc(sizeof(int64_t) * n);

	/* sorted and cut into runs, each part sees values of its own */
	memcpy(sorted, zipf, sizeof(int64_t) * n);
	qsort(sorted, n, sizeof(int64_t), compare_int64);
	for (uint32_t parts = 2; parts <= 16; parts *= 2)
		for (uint32_t c = 1; c <= 64; c *= 4)
		{
			check_merged(zipf, n, domain, c, parts, false, 100 + parts + c, "Zipf(1.1)");
			check_merged(zipf, n, domain, c, parts, true, 150 + parts + c, "Zipf(1.1)");
			check_merged(flat, n, domain, c, parts, false, 200 + parts + c, "uniform");
			check_merged(sorted, n, domain, c, parts, true, 300 + parts + c, "sorted Zipf(1.1)");
		}
	/* sizes where a reduction in the middle of a fold's merge broke the bound */
	for (uint32_t parts = 8; parts <= 16; parts *= 2)
		for (uint32_t c = 32; c <= 64; c *= 2)
			check_merged(planted, 100000, 10000, c, parts, false, 400 + parts + c,
						 "flat, ten planted, rare first");
	free(planted);
	free(zipf);
	free(flat);
	free(sorted);
}
