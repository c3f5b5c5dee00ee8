/*
 * fuzz_setops.c — libFuzzer target: combining two decoded values.
 *
 * Input: bit 0 of byte 0 picks the type (0: bloomfilter, 1: cmsketch),
 * bytes 1-2 are the little-endian length of the first value's serialized
 * bytes, which follow; the rest is the second value.  When bit 1 of byte 0
 * is set, the rest is instead the payload of a second value that shares the
 * first one's header (fixed up to be valid), so most pairs are compatible.
 *
 * Checks, for any two values: compare is antisymmetric and 0 exactly when
 * the serialized bytes are equal; compatibility is symmetric.  For
 * compatible Bloom filters: a | b and a & b are valid, commutative,
 * a, b within a | b, a & b within a and b, count_union = popcount(a | b),
 * popcount(a | b) + popcount(a & b) = popcount(a) + popcount(b), a key
 * present in a is present in a | b and one present in a & b is in b.  For compatible sketches: merge and
 * intersect are valid and commutative (a failed merge leaves a unchanged),
 * merged estimates are at least the sum, intersected estimates are exactly
 * the minimum, and the inner product is symmetric and at least
 * estimate_a * estimate_b for every key.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "bloom/bs_bloom_codec.h"
#include "cms/bs_cms_codec.h"

static const uint8_t int42[8] = {42};

static int
sign(int x)
{
	return (x > 0) - (x < 0);
}

/* True when two filters serialize to the same bytes. */
static bool
bloom_same_bytes(const bs_bloom *a, const bs_bloom *b)
{
	size_t		na, nb;
	uint8_t    *ab = fuzz_bloom_bytes(a, &na);
	uint8_t    *bb = fuzz_bloom_bytes(b, &nb);
	bool		same = na == nb && memcmp(ab, bb, na) == 0;

	free(ab);
	free(bb);
	return same;
}

static bool
cms_same_bytes(const bs_cms *a, const bs_cms *b)
{
	size_t		na, nb;
	uint8_t    *ab = fuzz_cms_bytes(a, &na);
	uint8_t    *bb = fuzz_cms_bytes(b, &nb);
	bool		same = na == nb && memcmp(ab, bb, na) == 0;

	free(ab);
	free(bb);
	return same;
}

static void
bloom_pair(const bs_bloom *a, const bs_bloom *b)
{
	bs_error	err;
	bs_status	status = bs_bloom_check_compatible(a, b, &err);
	bs_bloom   *u, *u2, *i, *i2;
	uint64_t	ca = bs_bloom_count_set(a);
	uint64_t	cb = bs_bloom_count_set(b);
	uint64_t	words = bs_bloom_word_count(a->bits);
	bs_probe	probe;

	FUZZ_CHECK(sign(bs_bloom_compare(a, b)) == -sign(bs_bloom_compare(b, a)));
	FUZZ_CHECK((bs_bloom_compare(a, b) == 0) == bloom_same_bytes(a, b));
	FUZZ_CHECK(bs_bloom_check_compatible(b, a, &err) == status);
	if (status != BS_OK)
	{
		FUZZ_CHECK(status == BS_ERR_MISMATCH);
		return;
	}

	u = fuzz_bloom_copy(a);
	bs_bloom_union_into(u, b);
	u2 = fuzz_bloom_copy(b);
	bs_bloom_union_into(u2, a);
	i = fuzz_bloom_copy(a);
	bs_bloom_intersect_into(i, b);
	i2 = fuzz_bloom_copy(b);
	bs_bloom_intersect_into(i2, a);

	fuzz_bloom_check_valid(u);
	fuzz_bloom_check_valid(i);
	FUZZ_CHECK(bs_bloom_compare(u, u2) == 0);
	FUZZ_CHECK(bs_bloom_compare(i, i2) == 0);
	for (uint64_t w = 0; w < words; w++)
	{
		FUZZ_CHECK((a->words[w] & ~u->words[w]) == 0);
		FUZZ_CHECK((b->words[w] & ~u->words[w]) == 0);
		FUZZ_CHECK((i->words[w] & ~a->words[w]) == 0);
		FUZZ_CHECK((i->words[w] & ~b->words[w]) == 0);
	}
	FUZZ_CHECK(bs_bloom_count_union(a, b) == bs_bloom_count_set(u));
	FUZZ_CHECK(bs_bloom_count_set(u) >= (ca > cb ? ca : cb));
	FUZZ_CHECK(bs_bloom_count_set(u) + bs_bloom_count_set(i) == ca + cb);

	bs_probe_for(&probe, a);
	if (bs_bloom_test(a, &probe, int42, sizeof(int42)))
		FUZZ_CHECK(bs_bloom_test(u, &probe, int42, sizeof(int42)));
	if (bs_bloom_test(i, &probe, int42, sizeof(int42)))
		FUZZ_CHECK(bs_bloom_test(b, &probe, int42, sizeof(int42)));
	fuzz_bloom_exercise(u, int42, sizeof(int42));
	fuzz_bloom_exercise(i, int42, sizeof(int42));
	free(u);
	free(u2);
	free(i);
	free(i2);
}

static void
cms_pair(const bs_cms *a, const bs_cms *b)
{
	bs_error	err;
	bs_status	status = bs_cms_check_compatible(a, b, &err);
	bs_status	merged;
	bs_cms	   *m, *m2, *i, *i2;
	uint64_t	ip = 0, ip2 = 0;
	bs_cms_probe probe;
	uint64_t	ea, eb, ei;

	FUZZ_CHECK(sign(bs_cms_compare(a, b)) == -sign(bs_cms_compare(b, a)));
	FUZZ_CHECK((bs_cms_compare(a, b) == 0) == cms_same_bytes(a, b));
	FUZZ_CHECK(bs_cms_check_compatible(b, a, &err) == status);
	if (status != BS_OK)
	{
		FUZZ_CHECK(status == BS_ERR_MISMATCH);
		FUZZ_CHECK(bs_cms_inner_product(a, b, &ip, &err) == BS_ERR_MISMATCH);
		return;
	}
	bs_cms_probe_init(&probe, a->width, a->depth, a->copies, a->seed);
	ea = bs_cms_estimate(a, &probe, int42, sizeof(int42));
	eb = bs_cms_estimate(b, &probe, int42, sizeof(int42));

	m = fuzz_cms_copy(a);
	m2 = fuzz_cms_copy(b);
	merged = bs_cms_merge_into(m, b, &err);
	FUZZ_CHECK(bs_cms_merge_into(m2, a, &err) == merged);
	if (merged == BS_OK)
	{
		fuzz_cms_check_valid(m);
		FUZZ_CHECK(bs_cms_compare(m, m2) == 0);
		FUZZ_CHECK((unsigned __int128) m->total >= (unsigned __int128) a->total + b->total);
		FUZZ_CHECK((unsigned __int128) bs_cms_estimate(m, &probe, int42, sizeof(int42)) >=
				   (unsigned __int128) ea + eb);
	}
	else
	{
		FUZZ_CHECK(merged == BS_ERR_TOO_LARGE);
		FUZZ_CHECK(bs_cms_compare(m, a) == 0);
	}

	i = fuzz_cms_copy(a);
	i2 = fuzz_cms_copy(b);
	FUZZ_CHECK(bs_cms_intersect_into(i, b, &err) == BS_OK);
	FUZZ_CHECK(bs_cms_intersect_into(i2, a, &err) == BS_OK);
	fuzz_cms_check_valid(i);
	FUZZ_CHECK(bs_cms_compare(i, i2) == 0);
	ei = bs_cms_estimate(i, &probe, int42, sizeof(int42));
	FUZZ_CHECK(ei == (ea < eb ? ea : eb));
	FUZZ_CHECK(i->total <= a->total && i->total <= b->total);

	status = bs_cms_inner_product(a, b, &ip, &err);
	FUZZ_CHECK(bs_cms_inner_product(b, a, &ip2, &err) == status);
	if (status == BS_OK)
	{
		FUZZ_CHECK(ip == ip2);
		FUZZ_CHECK((unsigned __int128) ip >= (unsigned __int128) ea * eb);
	}
	else
		FUZZ_CHECK(status == BS_ERR_TOO_LARGE);

	if (merged == BS_OK)
		fuzz_cms_exercise(m, int42, sizeof(int42));
	fuzz_cms_exercise(i, int42, sizeof(int42));
	free(m);
	free(m2);
	free(i);
	free(i2);
}

/* Fill words with bytes, cycled; leaves them as they are when there are none. */
static void
fill_cycled(uint64_t *words, uint64_t count, const uint8_t *bytes, size_t n)
{
	uint8_t    *out = (uint8_t *) words;

	for (uint64_t i = 0; n > 0 && i < 8 * count; i++)
		out[i] = bytes[i % n];
}

/* A filter with a's header and the given bits, padding cleared, items raised to fit. */
static bs_bloom *
bloom_derive(const bs_bloom *a, const uint8_t *bytes, size_t n)
{
	bs_bloom   *b = fuzz_bloom_copy(a);
	uint64_t	words = bs_bloom_word_count(b->bits);
	uint64_t	set;

	fill_cycled(b->words, words, bytes, n);
	if (b->bits % 64 != 0)
		b->words[words - 1] &= (UINT64_C(1) << (b->bits % 64)) - 1;
	set = bs_bloom_count_set(b);
	if (set > 0 && b->family == BS_FAMILY_NONE)
		b->family = BS_FAMILY_INTEGER;
	if ((unsigned __int128) b->hashes * b->items < set)
		b->items = (set + b->hashes - 1) / b->hashes;
	fuzz_bloom_check_valid(b);
	return b;
}

/* A sketch with a's header and the given counters, total set to the smallest row sum. */
static bs_cms *
cms_derive(const bs_cms *a, const uint8_t *bytes, size_t n)
{
	bs_cms	   *b = fuzz_cms_copy(a);
	uint64_t	rows = (uint64_t) b->copies * b->depth;
	unsigned __int128 smallest = ~(unsigned __int128) 0;

	if (b->family == BS_FAMILY_NONE)
		b->family = BS_FAMILY_INTEGER;
	fill_cycled(b->counters, rows * b->width, bytes, n);
	for (uint64_t r = 0; r < rows; r++)
	{
		unsigned __int128 sum = 0;

		for (uint64_t k = 0; k < b->width; k++)
			sum += b->counters[r * b->width + k];
		if (sum < smallest)
			smallest = sum;
	}
	if (smallest > UINT64_MAX)
	{
		free(b);
		return NULL;
	}
	b->total = (uint64_t) smallest;
	fuzz_cms_check_valid(b);
	return b;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t		na;
	const uint8_t *ab;
	const uint8_t *bb;
	size_t		nb;

	if (size < 3)
		return 0;
	na = (size_t) data[1] | ((size_t) data[2] << 8);
	if (na > size - 3)
		return 0;
	ab = data + 3;
	bb = ab + na;
	nb = size - 3 - na;

	if ((data[0] & 1) == 0)
	{
		bs_bloom   *a = fuzz_bloom_from_bytes(ab, na);
		bs_bloom   *b = NULL;

		if (a && (data[0] & 2))
			b = bloom_derive(a, bb, nb);
		else if (a)
			b = fuzz_bloom_from_bytes(bb, nb);
		if (a && b)
			bloom_pair(a, b);
		free(a);
		free(b);
	}
	else
	{
		bs_cms	   *a = fuzz_cms_from_bytes(ab, na);
		bs_cms	   *b = NULL;

		if (a && (data[0] & 2))
			b = cms_derive(a, bb, nb);
		else if (a)
			b = fuzz_cms_from_bytes(bb, nb);
		if (a && b)
			cms_pair(a, b);
		free(a);
		free(b);
	}
	return 0;
}
