/*
 * bs_double_hash_filter_rate.c — the false-positive rate of one given filter of the
 * double-hashing or partition schemes, counted exactly: the share of all
 * hash pairs (a, b) whose k positions are all set in this filter.
 *
 * Under ideal hashing a non-member's pair is uniform on the scheme's pairs
 * (bs_probe.h maps the hash onto them without bias), so this share is the
 * probability that the next non-member is a false positive.  It differs
 * from filter to filter: two filters with the same share of set bits differ
 * in how many pairs their members nearly repeat, which is Kirsch and
 * Mitzenmacher's Theta(1/n) term (KM 2008, section 5).  A fill-based
 * estimate sees only the share; the count sees the term itself, and its mean
 * over filters is the expected rate exactly.
 *
 * For a fixed b, the pairs (a, b) with every position set are the a where
 * all k rotations of the probed region, each by the offset of its probe
 * (i b + f(i) mod m), have a set bit: k word-wide ANDs over the region.
 * Each region is kept twice in a row, so that a rotation by any offset is a
 * window of consecutive bits.  Work: (number of b) k ceil(m' / 64) words.
 *
 * Terms: KM is Kirsch and Mitzenmacher (2008); a pair (a, b) is a value's
 * two hashes, from which its k positions follow.
 */
#include "analysis/bs_double_hash_rate.h"

#include <math.h>
#include <string.h>

#include "analysis/bs_analysis.h"
#include "bloom/bs_bloom.h"
#include "analysis/bs_shifted_and.h"

/* A few milliseconds of word operations (1.5 ns each, unvectorized). */
#define FILTER_MAX_WORK 3e6

typedef struct probed_regions
{
	uint64_t	size;			/* bits per region: m, or m' for partition */
	uint64_t	words;			/* ceil(size / 64) */
	uint32_t	regions;		/* 1, or k for partition */
	uint64_t   *twice;			/* each region's bits twice in a row, plus a word */
} probed_regions;

static uint64_t
bit_at(const bs_bloom *filter, uint64_t position)
{
	return (filter->words[position / 64] >> (position % 64)) & 1;
}

/* Lay out every region twice: bit j of copy r is region bit j mod size. */
static void
copy_regions(const bs_bloom *filter, probed_regions *r)
{
	uint64_t	stride = 2 * r->words + 1;

	memset(r->twice, 0, (size_t) r->regions * stride * sizeof(uint64_t));
	for (uint32_t region = 0; region < r->regions; region++)
	{
		uint64_t   *copy = r->twice + region * stride;

		for (uint64_t j = 0; j < 2 * r->size; j++)
			copy[j / 64] |= bit_at(filter, region * r->size + j % r->size) << (j % 64);
	}
}

static uint64_t
probe_offset(uint8_t scheme, uint64_t i, uint64_t b, uint64_t m)
{
	uint64_t	offset = i * b % m;

	if (scheme == BS_SCHEME_DOUBLE_SQUARE)
		offset += i * i % m;
	else if (scheme == BS_SCHEME_DOUBLE_CUBE)
		offset += (i * i % m) * i % m;
	return offset % m;
}

/* The number of a in [0, size) whose k positions with step b are all set. */
static uint64_t
all_set_for_step(const bs_bloom *filter, const probed_regions *r, uint64_t b, uint64_t *acc)
{
	uint64_t	stride = 2 * r->words + 1;
	uint64_t	count = 0;

	for (uint64_t w = 0; w < r->words; w++)
		acc[w] = ~UINT64_C(0);
	for (uint32_t i = 0; i < filter->hashes; i++)
	{
		const uint64_t *copy = r->twice + (r->regions == 1 ? 0 : i) * stride;

		bs_and_window(acc, r->words, copy, probe_offset(filter->scheme, i, b, r->size));
	}
	if (r->size % 64 != 0)
		acc[r->words - 1] &= (UINT64_C(1) << (r->size % 64)) - 1;
	for (uint64_t w = 0; w < r->words; w++)
		count += (uint64_t) __builtin_popcountll(acc[w]);
	return count;
}

/* bs_analysis_free, which may be pfree, takes no NULL */
static void
release(void *pointer)
{
	if (pointer != NULL)
		bs_analysis_free(pointer);
}

double
bs_km_filter_fpr(const bs_bloom *filter)
{
	probed_regions r;
	uint64_t	first_step = filter->scheme == BS_SCHEME_DOUBLE ? 1 : 0;
	uint64_t   *acc;
	uint64_t	hits = 0;
	double		pairs;

	if (!bs_km_models(filter->scheme) || filter->hashes < 1)
		return NAN;
	r.regions = filter->scheme == BS_SCHEME_PARTITION ? filter->hashes : 1;
	r.size = filter->bits / r.regions;
	r.words = (r.size + 63) / 64;
	if (r.size < 2 || (double) r.size * filter->hashes * r.words > FILTER_MAX_WORK)
		return NAN;
	r.twice = bs_analysis_alloc((size_t) r.regions * (2 * r.words + 1) * sizeof(uint64_t));
	acc = bs_analysis_alloc(r.words * sizeof(uint64_t));
	if (r.twice == NULL || acc == NULL)
	{
		release(r.twice);
		release(acc);
		return NAN;
	}
	copy_regions(filter, &r);
	for (uint64_t b = first_step; b < r.size; b++)
		hits += all_set_for_step(filter, &r, b, acc);
	release(r.twice);
	release(acc);
	pairs = (double) r.size * (double) (r.size - first_step);
	return (double) hits / pairs;
}
