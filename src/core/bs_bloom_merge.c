/*
 * bs_bloom_merge.c — combining filters built with the same parameters.
 */
#include "bs_bloom.h"

#include <inttypes.h>

bs_status
bs_bloom_check_compatible(const bs_bloom *a, const bs_bloom *b, bs_error *err)
{
	if (!bs_versions_combine(a->version, a->family, b->version, b->family))
		return bs_fail(err, BS_ERR_MISMATCH, "bloomfilter format versions differ",
					   "One filter has format version %u, the other %u, and their value family hashes differently in the two.",
					   a->version, b->version);
	if (a->scheme != b->scheme)
		return bs_fail(err, BS_ERR_MISMATCH, "bloomfilter probing schemes differ",
					   "One filter uses scheme \"%s\", the other \"%s\".",
					   bs_scheme_name(a->scheme), bs_scheme_name(b->scheme));
	if (a->bits != b->bits)
		return bs_fail(err, BS_ERR_MISMATCH, "bloomfilter sizes differ",
					   "One filter has m = %" PRIu64 " bits, the other m = %" PRIu64 ".", a->bits, b->bits);
	if (a->hashes != b->hashes)
		return bs_fail(err, BS_ERR_MISMATCH, "bloomfilter numbers of hash functions differ",
					   "One filter has k = %u, the other k = %u.", a->hashes, b->hashes);
	if (a->seed != b->seed)
		return bs_fail(err, BS_ERR_MISMATCH, "bloomfilter seeds differ",
					   "One filter has seed %" PRId64 ", the other seed %" PRId64 ".",
					   (int64_t) a->seed, (int64_t) b->seed);
	if (a->family != BS_FAMILY_NONE && b->family != BS_FAMILY_NONE &&
		(a->family != b->family || a->type_tag != b->type_tag))
	{
		char		family_a[32];
		char		family_b[32];

		bs_family_token(a->family, a->type_tag, family_a, sizeof(family_a));
		bs_family_token(b->family, b->type_tag, family_b, sizeof(family_b));
		return bs_fail(err, BS_ERR_MISMATCH, "bloomfilter value families differ",
					   "One filter holds family \"%s\", the other \"%s\".",
					   family_a, family_b);
	}
	return BS_OK;
}

void
bs_bloom_union_into(bs_bloom *a, const bs_bloom *b)
{
	uint64_t	words = bs_bloom_word_count(a->bits);
	uint64_t   *restrict dst = a->words;
	const uint64_t *restrict src = b->words;

	for (uint64_t i = 0; i < words; i++)
		dst[i] |= src[i];
	a->items = a->items > UINT64_MAX - b->items ? UINT64_MAX : a->items + b->items;
	a->version = bs_combined_version(a->version, a->family, b->version, b->family);
	if (a->family == BS_FAMILY_NONE)
	{
		a->family = b->family;
		a->type_tag = b->type_tag;
	}
}

void
bs_bloom_intersect_into(bs_bloom *a, const bs_bloom *b)
{
	uint64_t	words = bs_bloom_word_count(a->bits);
	uint64_t   *restrict dst = a->words;
	const uint64_t *restrict src = b->words;

	for (uint64_t i = 0; i < words; i++)
		dst[i] &= src[i];
	/* an intersection holds at most as many values as either side */
	if (b->items < a->items)
		a->items = b->items;
	a->version = bs_combined_version(a->version, a->family, b->version, b->family);
	if (a->family == BS_FAMILY_NONE)
	{
		a->family = b->family;
		a->type_tag = b->type_tag;
	}
}

#define COMPARE_FIELD(x, y) do { if ((x) != (y)) return (x) < (y) ? -1 : 1; } while (0)

int
bs_bloom_compare(const bs_bloom *a, const bs_bloom *b)
{
	uint64_t	words;

	COMPARE_FIELD(a->version, b->version);
	COMPARE_FIELD(a->scheme, b->scheme);
	COMPARE_FIELD(a->family, b->family);
	COMPARE_FIELD(a->type_tag, b->type_tag);
	COMPARE_FIELD(a->hashes, b->hashes);
	COMPARE_FIELD(a->bits, b->bits);
	COMPARE_FIELD(a->seed, b->seed);
	COMPARE_FIELD(a->items, b->items);
	words = bs_bloom_word_count(a->bits);
	for (uint64_t i = 0; i < words; i++)
		COMPARE_FIELD(a->words[i], b->words[i]);
	return 0;
}
