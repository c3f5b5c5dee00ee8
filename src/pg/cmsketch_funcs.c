/*
 * cmsketch_funcs.c — cmsketch functions: creating, adding, point queries,
 * totals, inner products, cms_info, merge and intersection, and the
 * equality, ordering and hashing behind GROUP BY, DISTINCT and UNION.
 *
 * Counts are bigint in SQL: every count the SQL layer adds keeps a sketch's
 * total within bigint (22003 otherwise), so its totals and estimates can be
 * returned as bigint.
 */
#include "cmsketch.h"
#include "sketch_stored_cache.h"

#include <math.h>

#include "access/detoast.h"
#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

#ifndef M_E
#define M_E 2.71828182845904523536
#endif

/* ---- per-call-site cache: value kind, probing constants, detoasted sketches ---- */

typedef struct CmsCache
{
	bool		kind_ready;
	ValueKind	kind;
	bool		probe_ready;
	bs_cms_probe probe;
	StoredCache *stored;		/* detoasted stored sketches (sketch_stored_cache.c) */
} CmsCache;

/*
 * The call site's cache.  The value argument's type is fixed for a call site
 * (its expression does not change), so it is looked up on the first call only.
 */
static inline CmsCache *
cms_cache(FunctionCallInfo fcinfo, int value_arg)
{
	CmsCache   *cache = (CmsCache *) fcinfo->flinfo->fn_extra;

	if (unlikely(cache == NULL))
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(CmsCache));
		fcinfo->flinfo->fn_extra = cache;
	}
	if (unlikely(!cache->kind_ready))
	{
		bs_value_kind_for_arg(&cache->kind, fcinfo, value_arg);
		cache->kind_ready = true;
	}
	return cache;
}

static void
check_stored_shape(const struct varlena *value)
{
	bs_cms_check_shape_or_error((const bs_cms *) value);
}

/* ---- creating ---- */

PG_FUNCTION_INFO_V1(cms_create);
/* cms_create(epsilon, delta, seed): an empty sketch sized by Theorem 9.1. */
Datum
cms_create(PG_FUNCTION_ARGS)
{
	double		epsilon = PG_GETARG_FLOAT8(0);
	double		delta = PG_GETARG_FLOAT8(1);
	int64		seed = PG_GETARG_INT64(2);
	uint32		width;
	uint32		depth;
	uint32		copies;

	bs_cms_size_or_error(epsilon, delta, &width, &depth, &copies);
	PG_RETURN_POINTER(bs_cms_alloc(CurrentMemoryContext, width, depth, copies, (uint64) seed));
}

PG_FUNCTION_INFO_V1(cms_create_dims);
/* cms_create_dims(width, depth, seed): an empty sketch, width rounded up to a prime. */
Datum
cms_create_dims(PG_FUNCTION_ARGS)
{
	int32		width_in = PG_GETARG_INT32(0);
	int32		depth_in = PG_GETARG_INT32(1);
	int64		seed = PG_GETARG_INT64(2);
	uint32		width;
	uint32		depth;
	uint32		copies;
	bs_error	err;

	if (bs_cms_size_dims(width_in, depth_in, 1, &width, &depth, &copies, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	PG_RETURN_POINTER(bs_cms_alloc(CurrentMemoryContext, width, depth, copies, (uint64) seed));
}

/* ---- adding and querying ---- */

PG_FUNCTION_INFO_V1(cms_add);
/* cms_add(sketch, value, count): a copy with count occurrences added; NULL value or count adds nothing. */
Datum
cms_add(PG_FUNCTION_ARGS)
{
	CmsCache   *cache;
	bs_cms	   *cms;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	cache = cms_cache(fcinfo, 1);
	cms = ((bs_cms *) bs_detoast_copy(PG_GETARG_DATUM(0)));
	bs_cms_check_shape_or_error(cms);
	cms_add_value(cms, cms_probe_for(&cache->probe, &cache->probe_ready, cms),
				  &cache->kind, PG_GETARG_DATUM(1), PG_GETARG_INT64(2), false);
	PG_RETURN_POINTER(cms);
}

PG_FUNCTION_INFO_V1(cms_estimate);
/* cms_estimate(sketch, value): an estimate of the value's count, never below it. */
Datum
cms_estimate(PG_FUNCTION_ARGS)
{
	CmsCache   *cache = cms_cache(fcinfo, 1);
	const bs_cms *cms = (const bs_cms *) bs_stored_value_arg(fcinfo, 0, &cache->stored,
															 check_stored_shape);
	CanonicalBytes bytes;
	uint64		estimate;

	canonical_bytes(&cache->kind, PG_GETARG_DATUM(1), &bytes);
	if (unlikely(cms->family == BS_FAMILY_NONE))
	{
		canonical_release(&bytes);
		PG_RETURN_INT64(0);		/* nothing was ever added */
	}
	cms_check_family(cms, &cache->kind);
	estimate = bs_cms_estimate_inline(cms, cms_probe_for(&cache->probe, &cache->probe_ready, cms),
									  bytes.data, bytes.length);
	canonical_release(&bytes);
	PG_RETURN_INT64(bs_cms_count_to_int64(estimate, "estimate"));
}

PG_FUNCTION_INFO_V1(cms_total);
/* cms_total(sketch): the total count added (||a||_1). */
Datum
cms_total(PG_FUNCTION_ARGS)
{
	bs_cms	   *cms = ((bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));

	bs_cms_check_shape_or_error(cms);
	PG_RETURN_INT64(bs_cms_count_to_int64(cms->total, "total"));
}

PG_FUNCTION_INFO_V1(cms_inner_product);
/* cms_inner_product(a, b): an estimate of sum_i a_i b_i, never below it. */
Datum
cms_inner_product(PG_FUNCTION_ARGS)
{
	bs_cms	   *a = ((bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
	bs_cms	   *b = ((bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(1)));
	uint8		version = a->version;
	uint64_t	product;
	bs_error	err;

	bs_cms_check_shape_or_error(a);
	bs_cms_check_shape_or_error(b);
	if (bs_align_hash_version(&version, a->family, b->version, b->family) != 0)
	{
		a = (bs_cms *) bs_detoast_copy(PG_GETARG_DATUM(0));
		a->version = version;
	}
	if (bs_cms_inner_product(a, b, &product, &err) != BS_OK)
		bs_report_arith(&err);
	PG_RETURN_INT64(bs_cms_count_to_int64(product, "inner product"));
}

PG_FUNCTION_INFO_V1(cms_info);
/* cms_info(sketch): parameters, error bounds and size of a sketch, as one record. */
Datum
cms_info(PG_FUNCTION_ARGS)
{
	bs_cms	   *cms = ((bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
	TupleDesc	desc;
	Datum		values[10];
	bool		nulls[10] = {false};
	char		family[32];
	double		epsilon;
	double		bound;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "cms_info must be declared to return a record");
	bs_cms_check_shape_or_error(cms);
	bs_family_token(cms->family, cms->type_tag, family, sizeof(family));

	/* the epsilon this width guarantees (w >= 2e/epsilon), and Theorem 9.1's delta */
	epsilon = 2.0 * M_E / (double) cms->width;
	if (epsilon > 1.0)
		epsilon = 1.0;
	bound = bs_cms_failure_bound(epsilon, cms->width, cms->depth);
	if (bound > 1.0)
		bound = 1.0;

	values[0] = Int32GetDatum((int32) cms->width);
	values[1] = Int32GetDatum(cms->depth);
	values[2] = Int32GetDatum(cms->copies);
	values[3] = Float8GetDatum(epsilon);
	values[4] = Float8GetDatum(pow(bound, (double) cms->copies));
	values[5] = Int64GetDatum((int64) cms->seed);
	values[6] = CStringGetTextDatum(family);
	values[7] = Int64GetDatum(bs_cms_count_to_int64(cms->total, "total"));
	values[8] = Int64GetDatum((int64) VARSIZE(cms));
	values[9] = Int32GetDatum(cms->version);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/* ---- merge and intersection ---- */

typedef bs_status (*CmsMergeInto) (bs_cms *into, const bs_cms *other, bs_error *err);

/* Merge two sketches into a fresh copy of the first. */
static Datum
merge_copy(FunctionCallInfo fcinfo, CmsMergeInto merge)
{
	bs_cms	   *result = ((bs_cms *) bs_detoast_copy(PG_GETARG_DATUM(0)));
	bs_cms	   *other = ((bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(1)));
	bs_error	err;
	uint8		version;

	bs_cms_check_shape_or_error(result);
	bs_cms_check_shape_or_error(other);
	version = bs_align_hash_version(&result->version, result->family, other->version,
									other->family);
	if (merge(result, other, &err) != BS_OK)
		bs_report_arith(&err);
	if (version != 0)
		result->version = version;
	(void) bs_cms_count_to_int64(result->total, "total");
	PG_RETURN_POINTER(result);
}

PG_FUNCTION_INFO_V1(cms_merge);
/* cms_merge(a, b): the sketch of both streams (counter-wise sum); also operator +. */
Datum
cms_merge(PG_FUNCTION_ARGS)
{
	return merge_copy(fcinfo, bs_cms_merge_into);
}

PG_FUNCTION_INFO_V1(cms_intersect);
/* cms_intersect(a, b): the counter-wise minimum, estimates >= min(a_i, b_i). */
Datum
cms_intersect(PG_FUNCTION_ARGS)
{
	return merge_copy(fcinfo, bs_cms_intersect_into);
}

/* ---- equality, ordering, hashing ---- */

/* The btree order of two sketches (header fields, then counters). */
static int
compare_sketches(const struct varlena *a, const struct varlena *b)
{
	/* the shape check makes equal dimensions mean equal sizes */
	bs_cms_check_shape_or_error((const bs_cms *) a);
	bs_cms_check_shape_or_error((const bs_cms *) b);
	return bs_cms_compare((const bs_cms *) a, (const bs_cms *) b);
}

/* Compare the two sketch arguments (sketch_compare.c). */
static int
compare_args(FunctionCallInfo fcinfo)
{
	return bs_compare_args(fcinfo, compare_sketches);
}

PG_FUNCTION_INFO_V1(cmsketch_eq);
/* a = b: same parameters and the same counters. */
Datum
cmsketch_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) == 0);
}

PG_FUNCTION_INFO_V1(cmsketch_ne);
/* a <> b */
Datum
cmsketch_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) != 0);
}

PG_FUNCTION_INFO_V1(cmsketch_lt);
/* a < b in the btree order (header fields, then counters): only for sorting. */
Datum
cmsketch_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) < 0);
}

PG_FUNCTION_INFO_V1(cmsketch_le);
/* a <= b in the btree order. */
Datum
cmsketch_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) <= 0);
}

PG_FUNCTION_INFO_V1(cmsketch_gt);
/* a > b in the btree order. */
Datum
cmsketch_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) > 0);
}

PG_FUNCTION_INFO_V1(cmsketch_ge);
/* a >= b in the btree order. */
Datum
cmsketch_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) >= 0);
}

PG_FUNCTION_INFO_V1(cmsketch_cmp);
/* btree support: -1, 0 or 1. */
Datum
cmsketch_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(compare_args(fcinfo));
}

PG_FUNCTION_INFO_V1(cmsketch_hash);
/* hash support: a hash of the whole value. */
Datum
cmsketch_hash(PG_FUNCTION_ARGS)
{
	return bs_hash_arg(fcinfo);
}

PG_FUNCTION_INFO_V1(cmsketch_hash_extended);
/* hash support with a seed (hash partitioning). */
Datum
cmsketch_hash_extended(PG_FUNCTION_ARGS)
{
	return bs_hash_extended_arg(fcinfo);
}
