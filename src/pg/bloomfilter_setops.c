/*
 * bloomfilter_setops.c — union and intersection: functions, operators and
 * aggregates (the comparison and hash functions are in bloomfilter_funcs.c).
 */
#include "bloomsketch.h"

#include "../core/bloom/bs_fit.h"

typedef void (*MergeInto) (bs_bloom *into, const bs_bloom *other);

/*
 * Error unless the filters combine (self-sized ones of different sizes do);
 * the version the result takes when it is not the core's choice, else 0
 * (bs_align_hash_version: owned is a copy or the aggregate's state).
 */
static uint8
check_combinable_or_error(bs_bloom *owned, const bs_bloom *other)
{
	bs_error	err;
	uint8		version = bs_align_hash_version(&owned->version, owned->family,
												other->version, other->family);

	if (bs_bloom_check_combinable(owned, other, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	return version;
}

/*
 * Self-sized filters of different sizes: a new value of the larger size,
 * the smaller one tiled up to it (bs_bloom_combine_sizes).
 */
static bs_bloom *
combine_sizes(const bs_bloom *a, const bs_bloom *b, MergeInto merge)
{
	bs_bloom   *result = bs_bloom_alloc(CurrentMemoryContext, BS_SCHEME_FIT,
										Max(a->bits, b->bits), a->hashes, a->seed);

	bs_bloom_combine_sizes(result, a, b, merge == bs_bloom_intersect_into);
	/* the tiled filter's bits no longer follow one size's occupancy model */
	result->reserved8 |= BS_FIT_MIXED_SIZES;
	return result;
}

/* A merge of two filters into a fresh copy of the first. */
static Datum
merge_copy(FunctionCallInfo fcinfo, MergeInto merge)
{
	bs_bloom   *result = ((bs_bloom *) bs_detoast_copy(PG_GETARG_DATUM(0)));
	bs_bloom   *other = ((bs_bloom *) PG_DETOAST_DATUM(PG_GETARG_DATUM(1)));

	uint8		version = check_combinable_or_error(result, other);

	if (result->bits != other->bits)
		PG_RETURN_POINTER(combine_sizes(result, other, merge));
	merge(result, other);
	if (version != 0)
		result->version = version;
	PG_RETURN_POINTER(result);
}

/*
 * An aggregate step: merge the input into the state in place (sketch_agg.c),
 * or, for a larger self-sized input, return a new state of its size, which
 * PostgreSQL keeps in place of the old one.
 */
static Datum
merge_in_place(FunctionCallInfo fcinfo, MergeInto merge)
{
	bs_bloom   *other;
	bs_bloom   *state;
	uint8		version;

	/* NULL filters are skipped; the first one, read, becomes the state */
	if (PG_ARGISNULL(1))
	{
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	if (PG_ARGISNULL(0))
	{
		/* PostgreSQL copies what this first call returns into the aggregate's memory */
		PG_RETURN_POINTER(bs_bloom_arg(fcinfo, 1));
	}
	other = (bs_bloom *) PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	state = (bs_bloom *) bs_merge_state_arg(fcinfo);

	version = check_combinable_or_error(state, other);
	if (state->bits != other->bits)
		PG_RETURN_POINTER(combine_sizes(state, other, merge));
	merge(state, other);
	if (version != 0)
		state->version = version;
	PG_RETURN_POINTER(state);
}

PG_FUNCTION_INFO_V1(bloom_union);
/* bloom_union(a, b): the filter of the union (bitwise OR); also operator |. */
Datum
bloom_union(PG_FUNCTION_ARGS)
{
	return merge_copy(fcinfo, bs_bloom_union_into);
}

PG_FUNCTION_INFO_V1(bloom_intersect);
/* bloom_intersect(a, b): the bitwise AND of two filters; also operator &. */
Datum
bloom_intersect(PG_FUNCTION_ARGS)
{
	return merge_copy(fcinfo, bs_bloom_intersect_into);
}

PG_FUNCTION_INFO_V1(bloom_union_trans);
/* Transition and combine function of bloom_union_agg and bloom_agg: OR in place. */
Datum
bloom_union_trans(PG_FUNCTION_ARGS)
{
	return merge_in_place(fcinfo, bs_bloom_union_into);
}

PG_FUNCTION_INFO_V1(bloom_intersect_trans);
/* Transition and combine function of bloom_intersect_agg: AND in place. */
Datum
bloom_intersect_trans(PG_FUNCTION_ARGS)
{
	return merge_in_place(fcinfo, bs_bloom_intersect_into);
}
