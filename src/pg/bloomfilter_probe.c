/*
 * bloomfilter_probe.c — bloom_contains, its operators, and bloom_add.
 *
 * bloom_contains is called once per row, often with the same stored filter
 * on every row; sketch_stored_cache.c keeps its detoasted copy for the call site.
 * Plain values are used in place after an O(1) shape check.
 */
#include "bloomsketch.h"
#include "sketch_stored_cache.h"

#include "../core/bloom/bs_probe.h"

typedef struct ProbeCache
{
	Oid			value_type;		/* InvalidOid until the first call */
	ValueKind	kind;
	StoredCache *stored;		/* detoasted stored filters */
	/* probing constants for the filter seen last */
	bool		probe_ready;
	bs_probe	probe;
} ProbeCache;

static ProbeCache *
probe_cache(FunctionCallInfo fcinfo, int value_arg)
{
	ProbeCache *cache = (ProbeCache *) fcinfo->flinfo->fn_extra;
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, value_arg);

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(ProbeCache));
		fcinfo->flinfo->fn_extra = cache;
	}
	if (cache->value_type != type || type == InvalidOid)
	{
		bs_value_kind_for_arg(&cache->kind, fcinfo, value_arg);
		cache->value_type = type;
	}
	return cache;
}

static void
check_shape_or_error(const struct varlena *value)
{
	const bs_bloom *filter = (const bs_bloom *) value;
	bs_error	err;

	if (bs_bloom_check_shape(filter, VARSIZE(filter), &err) != BS_OK)
		bs_report_corrupt(&err);
}

/* Probing constants for this filter, recomputed only when its shape changes. */
static const bs_probe *
cached_probe(ProbeCache *cache, const bs_bloom *filter)
{
	if (!cache->probe_ready || cache->probe.bits != filter->bits ||
		cache->probe.hashes != filter->hashes || cache->probe.seed != filter->seed ||
		cache->probe.scheme != filter->scheme)
	{
		bs_probe_for(&cache->probe, filter);
		cache->probe_ready = true;
	}
	return &cache->probe;
}

static bool
filter_contains(FunctionCallInfo fcinfo, int filter_arg, int value_arg)
{
	ProbeCache *cache = probe_cache(fcinfo, value_arg);
	const bs_bloom *filter;
	CanonicalBytes bytes;
	const bs_probe *probe;
	uint64		first;
	uint64		step;

	filter = (const bs_bloom *) bs_stored_value_arg(fcinfo, filter_arg, &cache->stored,
													check_shape_or_error);
	canonical_bytes(&cache->kind, PG_GETARG_DATUM(value_arg), &bytes);
	if (filter->family == BS_FAMILY_NONE)
	{
		canonical_release(&bytes);
		return false;			/* nothing was ever added */
	}
	check_family(filter, &cache->kind);
	probe = cached_probe(cache, filter);
	if (unlikely(!bs_probe_locatable(probe)))
	{
		bool		found = bs_bloom_test(filter, probe, bytes.data, bytes.length);

		canonical_release(&bytes);
		return found;
	}
	bs_probe_locate(probe, bytes.data, bytes.length, &first, &step);
	canonical_release(&bytes);
	/* one query per row: overlapped loads beat an early exit (bs_probe.h) */
	return bs_probe_test_overlapped(filter, probe, first, step);
}

PG_FUNCTION_INFO_V1(bloom_contains);
/* bloom_contains(filter, value): false means surely absent, true probably present. */
Datum
bloom_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(filter_contains(fcinfo, 0, 1));
}

PG_FUNCTION_INFO_V1(bloom_contained_in);
/* bloom_contained_in(value, filter): bloom_contains with the arguments swapped, for <@. */
Datum
bloom_contained_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(filter_contains(fcinfo, 1, 0));
}

PG_FUNCTION_INFO_V1(bloom_add);
/* bloom_add(filter, value): a copy of the filter with the value added; NULL values add nothing. */
Datum
bloom_add(PG_FUNCTION_ARGS)
{
	ProbeCache *cache;
	bs_bloom   *filter;
	CanonicalBytes bytes;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	cache = probe_cache(fcinfo, 1);
	filter = ((bs_bloom *) bs_detoast_copy(PG_GETARG_DATUM(0)));
	check_shape_or_error((struct varlena *) filter);
	canonical_bytes(&cache->kind, PG_GETARG_DATUM(1), &bytes);
	adopt_family(filter, &cache->kind);
	bs_bloom_add(filter, cached_probe(cache, filter), bytes.data, bytes.length);
	canonical_release(&bytes);
	PG_RETURN_POINTER(filter);
}
