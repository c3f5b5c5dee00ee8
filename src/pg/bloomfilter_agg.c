/*
 * bloomfilter_agg.c — bloom_agg: the transition and combine functions.
 *
 * The state is the bloomfilter itself (design.md decision 1): allocated in
 * the aggregate's memory context on the first non-NULL value, then updated in
 * place, so a row costs one hash and k bit sets, never a copy of the filter.
 * The combine function is bloom_union_trans (bloomfilter_setops.c), which ORs
 * partial states in place: what parallel workers and a distributed
 * coordinator need.  The result is byte-identical to the filter built on all
 * rows in one pass, because OR is order-independent and item counts add up.
 */
#include "bloomsketch.h"

#include "utils/memutils.h"

/* The fixed seed of aggregate-built filters: equal SQL gives equal filters. */
#define BLOOM_AGG_SEED 0
#define BLOOM_AGG_DEFAULT_FPR 0.01

typedef struct AggCache
{
	Oid			value_type;
	ValueKind	kind;
	/* the sizing of the (capacity, fpr) pair seen last */
	bool		sized;
	int64		capacity;
	double		fpr;
	bs_probe	probe;
} AggCache;

static AggCache *
agg_cache(FunctionCallInfo fcinfo)
{
	AggCache   *cache = (AggCache *) fcinfo->flinfo->fn_extra;

	if (cache == NULL)
	{
		Oid			type = get_fn_expr_argtype(fcinfo->flinfo, 1);

		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(AggCache));
		value_kind_init(&cache->kind, type, fcinfo->flinfo->fn_mcxt);
		cache->value_type = type;
		fcinfo->flinfo->fn_extra = cache;
	}
	return cache;
}

/* Size for (capacity, fpr) unless that pair was sized on the previous call. */
static const bs_probe *
agg_probe(AggCache *cache, int64 capacity, double fpr)
{
	if (!cache->sized || cache->capacity != capacity || cache->fpr != fpr)
	{
		uint64		bits;
		uint32		hashes;

		bs_size_or_error(capacity, fpr, &bits, &hashes);
		bs_probe_init(&cache->probe, bits, hashes, BLOOM_AGG_SEED);
		cache->capacity = capacity;
		cache->fpr = fpr;
		cache->sized = true;
	}
	return &cache->probe;
}

PG_FUNCTION_INFO_V1(bloom_agg_trans);
/* bloom_agg transition: add one value to the group's filter, in place. */
Datum
bloom_agg_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext;
	AggCache   *cache;
	const bs_probe *probe;
	bs_bloom   *state;
	CanonicalBytes bytes;
	double		fpr = BLOOM_AGG_DEFAULT_FPR;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		elog(ERROR, "bloom_agg_trans called in non-aggregate context");

	if (PG_ARGISNULL(1))
	{
		/* NULL values are skipped, as sum() skips them */
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	if (PG_ARGISNULL(2) || (PG_NARGS() > 3 && PG_ARGISNULL(3)))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_agg capacity and false-positive rate must not be null")));
	if (PG_NARGS() > 3)
		fpr = PG_GETARG_FLOAT8(3);

	cache = agg_cache(fcinfo);
	probe = agg_probe(cache, PG_GETARG_INT64(2), fpr);

	if (PG_ARGISNULL(0))
		state = bs_bloom_alloc(aggcontext, probe->bits, probe->hashes, BLOOM_AGG_SEED);
	else
	{
		state = DatumGetBloomP(PG_GETARG_DATUM(0));
		if (state->bits != probe->bits || state->hashes != probe->hashes)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("bloom_agg capacity and false-positive rate must be the same on every row of a group"),
					 errdetail("The group's filter has m = %llu bits and k = %u; capacity %lld at rate %g asks for m = %llu and k = %u.",
							   (unsigned long long) state->bits, state->hashes,
							   (long long) cache->capacity, cache->fpr,
							   (unsigned long long) probe->bits, probe->hashes),
					 errhint("Pass constants, not columns, as capacity and rate.")));
	}

	adopt_family(state, &cache->kind);
	canonical_bytes(&cache->kind, PG_GETARG_DATUM(1), &bytes);
	bs_bloom_add(state, probe, bytes.data, bytes.length);
	canonical_release(&bytes);
	PG_RETURN_POINTER(state);
}
