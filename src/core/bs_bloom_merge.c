/*
 * bs_bloom_merge.c — combining filters built with the same parameters.
 */
#include "bs_bloom.h"

#include <inttypes.h>

#include "bs_combine.h"

#define TYPE_NAME "bloomfilter"
#define NOUN "filter"

bs_status
bs_bloom_check_compatible(const bs_bloom *a, const bs_bloom *b, bs_error *err)
{
	bs_status	status;

	if ((status = bs_check_versions_combine(TYPE_NAME, NOUN, a->version, a->family,
											b->version, b->family, err)) != BS_OK)
		return status;
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
	if ((status = bs_check_same_seed(TYPE_NAME, NOUN, a->seed, b->seed, err)) != BS_OK)
		return status;
	return bs_check_same_family(TYPE_NAME, NOUN, a->family, a->type_tag, b->family,
								b->type_tag, err);
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
	bs_adopt_combined_family(&a->version, &a->family, &a->type_tag, b->version, b->family,
							 b->type_tag);
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
	bs_adopt_combined_family(&a->version, &a->family, &a->type_tag, b->version, b->family,
							 b->type_tag);
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
