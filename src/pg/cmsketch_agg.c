/*
 * cmsketch_agg.c — cms_agg's transition function and the in-place merge
 * that is cms_agg's combine function and cms_merge_agg's transition.
 *
 * The state is the cmsketch itself (docs/design.md decision 1): built on the
 * first non-NULL value, then updated in place, so a row costs one hash per
 * copy and d counter increments, never a copy of the sketch.  Merging is a
 * counter-wise sum, which is order-independent, so partial aggregation
 * (parallel workers, a distributed coordinator) gives the same bytes as one
 * pass over all rows.
 *
 * Unlike bloom_agg, cms_agg adds each value at once instead of queueing it
 * behind a prefetch of its cache lines (which would need a final function to
 * drain the queue): tried on the 10M-row benchmark, with the default 304 kB
 * sketch and with 1,000 groups of them, the queue brought no gain that
 * stood out from the run-to-run noise.
 */
#include "cmsketch.h"

#include "nodes/execnodes.h"

typedef struct CmsAggCache
{
	ValueKind	kind;
	bool		additive;		/* every state here starts empty (below) */
	/* the sizing of the (epsilon, delta) pair seen last */
	bool		sized;
	bool		default_bounds;	/* sized for CMS_DEFAULT_EPSILON and _DELTA */
	double		epsilon;
	double		delta;
	uint32		width;
	uint32		depth;
	uint32		copies;
	bs_cms_probe probe;
} CmsAggCache;

/* Size the cache for (epsilon, delta) and precompute the probing constants. */
static void
agg_cache_size(CmsAggCache *cache, double epsilon, double delta)
{
	bs_cms_size_or_error(epsilon, delta, &cache->width, &cache->depth, &cache->copies);
	bs_cms_probe_init(&cache->probe, cache->width, cache->depth, cache->copies,
					  CMS_AGG_SEED);
	cache->epsilon = epsilon;
	cache->delta = delta;
	cache->sized = true;
	cache->default_bounds = epsilon == CMS_DEFAULT_EPSILON && delta == CMS_DEFAULT_DELTA;
}

/*
 * The call site's cache, created on the first call that adds a value.
 *
 * Every state of a call site starts from the aggregate's initial value:
 * ours have none, so each group's state is NULL until this function builds
 * it from an empty sketch, and from then on only our additions (and, after
 * the transition phase, the combine function's merges) change it.  Such a
 * state is additive: no counter exceeds its total, and the total's bigint
 * check covers every counter (bs_cms_add_additive_inline).  A state that is
 * not NULL on the first call comes from an initial value (an aggregate
 * someone declared over cms_agg_trans with an INITCOND), which may be any
 * sketch, an intersection included: then every addition checks each counter.
 */
static CmsAggCache *
agg_cache_create(FunctionCallInfo fcinfo)
{
	CmsAggCache *cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(CmsAggCache));

	cache->additive = PG_ARGISNULL(0);

	bs_value_kind_for_agg_value(&cache->kind, fcinfo);
	fcinfo->flinfo->fn_extra = cache;
	return cache;
}

pg_noreturn static void
bounds_mismatch_error(const bs_cms *state, const CmsAggCache *cache)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("cms_agg epsilon and delta must be the same on every row of a group"),
			 errdetail("The group's sketch has w = %u, d = %u and %u copies; epsilon %g and delta %g ask for w = %u, d = %u and %u copies.",
					   state->width, state->depth, state->copies,
					   cache->epsilon, cache->delta,
					   cache->width, cache->depth, cache->copies),
			 errhint("Pass constants, not columns, as epsilon and delta.")));
}

PG_FUNCTION_INFO_V1(cms_agg_trans);
/*
 * cms_agg transition: add one value (with a count, in the weighted forms) to
 * the group's sketch in place.  Arguments: state, value, then count (3 or 5
 * arguments) and epsilon, delta (4 or 5 arguments).
 *
 * This runs once per row, so nothing on the way is a function call but the
 * hash of values longer than 8 bytes: the check for an aggregate context,
 * the sizing (cached per call site, redone only when epsilon or delta
 * change), the canonical bytes and the update (cms_add_value and
 * bs_cms_probe.h: one hash per copy, d counter additions) are inline.
 */
Datum
cms_agg_trans(PG_FUNCTION_ARGS)
{
	CmsAggCache *cache = (CmsAggCache *) fcinfo->flinfo->fn_extra;
	bs_cms	   *state;
	int			nargs = PG_NARGS();
	bool		weighted = nargs == 3 || nargs == 5;
	int64		count = 1;

	/* AggCheckCallContext, inline for the common case of an Agg node */
	if (unlikely(!AggCheckCallContext(fcinfo, NULL)))
		bs_not_in_aggregate_error("cms_agg_trans", "cms_add(sketch, value, count)");

	if (PG_ARGISNULL(1) || (weighted && PG_ARGISNULL(2)))
	{
		/* NULL values (and NULL counts) are skipped, as sum() skips them */
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	if (unlikely(cache == NULL))
		cache = agg_cache_create(fcinfo);
	if (nargs >= 4)
	{
		int			bounds_arg = weighted ? 3 : 2;
		double		epsilon;
		double		delta;

		if (PG_ARGISNULL(bounds_arg) || PG_ARGISNULL(bounds_arg + 1))
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("cms_agg epsilon and delta must not be null")));
		epsilon = PG_GETARG_FLOAT8(bounds_arg);
		delta = PG_GETARG_FLOAT8(bounds_arg + 1);
		if (unlikely(!cache->sized || cache->epsilon != epsilon || cache->delta != delta))
			agg_cache_size(cache, epsilon, delta);
	}
	else if (unlikely(!cache->default_bounds))
		agg_cache_size(cache, CMS_DEFAULT_EPSILON, CMS_DEFAULT_DELTA);
	if (weighted)
		count = PG_GETARG_INT64(2);

	if (unlikely(PG_ARGISNULL(0)))
	{
		/*
		 * A new state: PostgreSQL copies whatever the first call returns into
		 * the aggregate context, so build it in the per-row context.
		 */
		state = bs_cms_alloc(CurrentMemoryContext, cache->width, cache->depth,
							 cache->copies, CMS_AGG_SEED);
	}
	else
	{
		state = DatumGetCmsP(PG_GETARG_DATUM(0));
		if (unlikely(state->width != cache->width || state->depth != cache->depth ||
					 state->copies != cache->copies))
			bounds_mismatch_error(state, cache);
	}
	cms_add_value(state, &cache->probe, &cache->kind, PG_GETARG_DATUM(1), count,
				  cache->additive);
	PG_RETURN_POINTER(state);
}

PG_FUNCTION_INFO_V1(cms_merge_trans);
/*
 * Transition and combine function of cms_merge_agg, combine function of
 * cms_agg: add a sketch's counters into the state in place (the state as
 * sketch_agg.c keeps it).
 */
Datum
cms_merge_trans(PG_FUNCTION_ARGS)
{
	bs_cms	   *other = (bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	bs_cms	   *state = (bs_cms *) bs_merge_state_arg(fcinfo);
	bs_error	err;
	uint8		version;

	bs_cms_check_shape_or_error(state);
	bs_cms_check_shape_or_error(other);
	version = bs_align_hash_version(&state->version, state->family, other->version,
									other->family);
	if (bs_cms_merge_into(state, other, &err) != BS_OK)
		bs_report_arith(&err);
	if (version != 0)
		state->version = version;
	if (state->total > (uint64) PG_INT64_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("cmsketch total count is out of range"),
				 errdetail("The merged sketch would count %llu, more than the largest bigint.",
						   (unsigned long long) state->total)));
	PG_RETURN_POINTER(state);
}
