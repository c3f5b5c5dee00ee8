/*
 * bs_bloom_merge.c — combining filters built with the same parameters.
 */
#include "bloom/bs_bloom.h"

#include <inttypes.h>
#include <string.h>

#include "common/bs_combine.h"
#include "bloom/bs_fit.h"

#define TYPE_NAME "bloomfilter"
#define NOUN "filter"

/* The schemes must be equal; a self-sized filter names the way out. */
static bs_status
check_schemes(const bs_bloom *a, const bs_bloom *b, bs_error *err)
{
	if (a->scheme == BS_SCHEME_FIT_PARTIAL || b->scheme == BS_SCHEME_FIT_PARTIAL)
	{
		bs_fail(err, BS_ERR_PARAM, "bloomfilter is an unfinished bloom_fit_agg state",
				"Only bloom_fit_agg combines its partial states.");
		return bs_hint(err, BS_ERR_PARAM, "Use the result of bloom_fit_agg, not its partial state.");
	}
	if (a->scheme == b->scheme)
		return BS_OK;
	if (a->scheme == BS_SCHEME_FIT || b->scheme == BS_SCHEME_FIT)
	{
		bs_fail(err, BS_ERR_MISMATCH, "cannot combine a self-sized bloomfilter with a capacity-sized one",
				"One filter was sized by bloom_fit_agg (scheme \"fit\"), the other has scheme \"%s\"; their bits do not mean the same positions.",
				bs_scheme_name(a->scheme == BS_SCHEME_FIT ? b->scheme : a->scheme));
		return bs_hint(err, BS_ERR_MISMATCH, "Build both filters with bloom_fit_agg at the same rate, or both with bloom_agg or bloom_create at the same capacity and rate.");
	}
	return bs_fail(err, BS_ERR_MISMATCH, "bloomfilter probing schemes differ",
				   "One filter uses scheme \"%s\", the other \"%s\".",
				   bs_scheme_name(a->scheme), bs_scheme_name(b->scheme));
}

static bs_status
check_combine(const bs_bloom *a, const bs_bloom *b, bool sizes_may_differ, bs_error *err)
{
	bs_status	status;

	if ((status = bs_check_versions_combine(TYPE_NAME, NOUN, a->version, a->family,
											b->version, b->family, err)) != BS_OK)
		return status;
	if ((status = check_schemes(a, b, err)) != BS_OK)
		return status;
	if (a->bits != b->bits && !(sizes_may_differ && a->scheme == BS_SCHEME_FIT))
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

bs_status
bs_bloom_check_compatible(const bs_bloom *a, const bs_bloom *b, bs_error *err)
{
	return check_combine(a, b, false, err);
}

bs_status
bs_bloom_check_combinable(const bs_bloom *a, const bs_bloom *b, bs_error *err)
{
	return check_combine(a, b, true, err);
}

void
bs_bloom_combine_sizes(bs_bloom *result, const bs_bloom *a, const bs_bloom *b,
					   bool intersect)
{
	const bs_bloom *large = a->bits >= b->bits ? a : b;
	int32_t		length_word = result->length_word;

	memcpy(result, a, sizeof(bs_bloom));
	result->length_word = length_word;
	result->bits = large->bits;
	bs_fit_combine_words(result->words, large->bits, a, b, intersect);
	if (intersect)
		result->items = a->items < b->items ? a->items : b->items;
	else
		result->items = a->items > UINT64_MAX - b->items ? UINT64_MAX : a->items + b->items;
	result->reserved8 |= b->reserved8;
	bs_adopt_combined_family(&result->version, &result->family, &result->type_tag,
							 b->version, b->family, b->type_tag);
}

void
bs_bloom_union_into(bs_bloom *a, const bs_bloom *b)
{
	uint64_t	words = bs_bloom_word_count(a->bits);
	uint64_t   *restrict dst = a->words;
	const uint64_t *restrict src = b->words;

	for (uint64_t i = 0; i < words;)
		for (uint64_t end = bs_poll_stretch(i, words); i < end; i++)
			dst[i] |= src[i];
	a->items = a->items > UINT64_MAX - b->items ? UINT64_MAX : a->items + b->items;
	a->reserved8 |= b->reserved8;	/* fit: over its ceiling if either was */
	bs_adopt_combined_family(&a->version, &a->family, &a->type_tag, b->version, b->family,
							 b->type_tag);
}

void
bs_bloom_intersect_into(bs_bloom *a, const bs_bloom *b)
{
	uint64_t	words = bs_bloom_word_count(a->bits);
	uint64_t   *restrict dst = a->words;
	const uint64_t *restrict src = b->words;

	for (uint64_t i = 0; i < words;)
		for (uint64_t end = bs_poll_stretch(i, words); i < end; i++)
			dst[i] &= src[i];
	/* an intersection holds at most as many values as either side */
	if (b->items < a->items)
		a->items = b->items;
	a->reserved8 |= b->reserved8;
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
	{
		bs_poll_at(i);
		COMPARE_FIELD(a->words[i], b->words[i]);
	}
	return 0;
}
