/*
 * bloomfilter_agg.c — bloom_agg: the transition and final functions.
 *
 * The state is the bloomfilter itself (design.md decision 1): allocated in
 * the aggregate's memory context on the first non-NULL value, then updated in
 * place, so a row costs one hash and k bit sets, never a copy of the filter.
 * The combine function is bloom_union_trans (bloomfilter_setops.c), which ORs
 * partial states in place: what parallel workers and a distributed
 * coordinator need.  The result is byte-identical to the filter built on all
 * rows in one pass, because OR is order-independent and item counts add up.
 *
 * Setting k bits of a large filter costs k cache misses per row, and inside
 * the executor one row's misses cannot overlap the next row's.  So in a plain
 * (non-partial) aggregation the transition function pipelines: it hashes the
 * value, prefetches the lines its bits live on, and sets the bits of the
 * value that arrived PIPELINE_DEPTH rows earlier, whose lines have arrived by
 * then.  The final function sets the bits still in flight.  (The pipeline
 * starts on the second row: the first row's result is copied by PostgreSQL,
 * so only from then on does the state stay at one address.)  Partial
 * aggregation (parallel workers) and window aggregation hand the state on
 * without a final function, so there every value is applied at once.  A
 * memory-context callback forgets pending values if the state's context is
 * reset first (a rescan or an error), so they are never written to freed
 * memory.
 */
#include "bloomsketch.h"

#include "../core/bs_probe.h"

#include "executor/nodeAgg.h"
#include "nodes/execnodes.h"
#include "utils/memutils.h"

/* The fixed seed of aggregate-built filters: equal SQL gives equal filters. */
#define BLOOM_AGG_SEED 0
#define BLOOM_AGG_DEFAULT_FPR 0.01
#define PIPELINE_DEPTH 8			/* a power of two */

typedef struct PendingValue
{
	uint64		first;
	uint64		step;
} PendingValue;

/* Values located and prefetched, waiting to set their bits in `target`. */
typedef struct AddPipeline
{
	bs_bloom   *target;			/* NULL when nothing is pending */
	MemoryContext context;		/* where target lives */
	bs_probe	probe;			/* target's probing constants */
	uint32		head;			/* index of the oldest pending value */
	uint32		count;
	PendingValue ring[PIPELINE_DEPTH];
} AddPipeline;

/* Registered in the state's context: forget pending values if it is reset. */
typedef struct PipelineGuard
{
	MemoryContextCallback callback;
	AddPipeline *pipeline;
	MemoryContext context;
} PipelineGuard;

/*
 * Large states already moved to huge pages (bs_collapse_huge_pages), so that
 * each is moved once even when the rows of several groups alternate.
 */
#define COLLAPSED_STATES 64
#define COLLAPSE_THRESHOLD (4 * 1024 * 1024)

typedef struct AggCache
{
	const void *collapsed[COLLAPSED_STATES];
	int			ncollapsed;
	const bs_bloom *last_state;	/* the state of the previous call */
	ValueKind	kind;
	/* the sizing of the (capacity, fpr, scheme) seen last */
	bool		sized;
	int64		capacity;
	double		fpr;
	uint8		scheme;
	char		scheme_name[NAMEDATALEN];	/* as given, for a cheap check */
	bs_probe	probe;
	AddPipeline pipeline;
} AggCache;

static AggCache *
agg_cache(FunctionCallInfo fcinfo)
{
	AggCache   *cache = (AggCache *) fcinfo->flinfo->fn_extra;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(AggCache));
		value_kind_init(&cache->kind, get_fn_expr_argtype(fcinfo->flinfo, 1),
						fcinfo->flinfo->fn_mcxt);
		fcinfo->flinfo->fn_extra = cache;
	}
	return cache;
}

/* The scheme argument, parsed only when it differs from the last one. */
static uint8
agg_scheme(AggCache *cache, text *name)
{
	Size		length = VARSIZE_ANY_EXHDR(name);

	if (!cache->sized || length >= NAMEDATALEN || cache->scheme_name[length] != '\0' ||
		memcmp(cache->scheme_name, VARDATA_ANY(name), length) != 0)
	{
		uint8		scheme = bs_scheme_or_error(name);

		memcpy(cache->scheme_name, VARDATA_ANY(name), length);
		cache->scheme_name[length] = '\0';
		cache->sized = false;	/* size again for this scheme */
		return scheme;
	}
	return cache->scheme;
}

/* Size for (capacity, fpr, scheme) unless that was sized on the previous call. */
static const bs_probe *
agg_probe(AggCache *cache, int64 capacity, double fpr, uint8 scheme)
{
	if (!cache->sized || cache->capacity != capacity || cache->fpr != fpr ||
		cache->scheme != scheme)
	{
		uint64		bits;
		uint32		hashes;

		bs_size_or_error(scheme, capacity, fpr, &bits, &hashes);
		bs_probe_init_scheme(&cache->probe, (bs_scheme) scheme, bits, hashes,
							 BLOOM_AGG_SEED);
		cache->capacity = capacity;
		cache->fpr = fpr;
		cache->scheme = scheme;
		cache->sized = true;
	}
	return &cache->probe;
}

/*
 * PostgreSQL copies the state the first call returns into plain 4 kB pages;
 * a large one is moved to huge pages the first time it is seen again.
 */
static void
collapse_once(AggCache *cache, bs_bloom *state)
{
	if (VARSIZE(state) < COLLAPSE_THRESHOLD || cache->ncollapsed == COLLAPSED_STATES)
		return;
	for (int i = 0; i < cache->ncollapsed; i++)
		if (cache->collapsed[i] == state)
			return;
	cache->collapsed[cache->ncollapsed++] = state;
	bs_collapse_huge_pages(state, VARSIZE(state));
}

/* ---- the pipeline ---- */

static void
pipeline_flush(AddPipeline *pipeline)
{
	for (; pipeline->count > 0; pipeline->count--)
	{
		PendingValue *v = &pipeline->ring[pipeline->head];

		bs_probe_set(pipeline->target, &pipeline->probe, v->first, v->step);
		pipeline->head = (pipeline->head + 1) & (PIPELINE_DEPTH - 1);
	}
}

static void
pipeline_forget(void *arg)
{
	PipelineGuard *guard = (PipelineGuard *) arg;

	if (guard->pipeline->context == guard->context)
	{
		guard->pipeline->target = NULL;
		guard->pipeline->context = NULL;
		guard->pipeline->count = 0;
	}
}

/* Direct the pipeline at `state`, first setting the bits pending for another. */
static void
pipeline_bind(AddPipeline *pipeline, bs_bloom *state, MemoryContext context,
			  const bs_probe *probe)
{
	if (pipeline->target == state)
		return;
	if (pipeline->target != NULL)
		pipeline_flush(pipeline);
	if (pipeline->context != context)
	{
		PipelineGuard *guard = MemoryContextAlloc(context, sizeof(PipelineGuard));

		guard->pipeline = pipeline;
		guard->context = context;
		guard->callback.func = pipeline_forget;
		guard->callback.arg = guard;
		MemoryContextRegisterResetCallback(context, &guard->callback);
		pipeline->context = context;
	}
	pipeline->target = state;
	pipeline->probe = *probe;
	pipeline->head = 0;
	pipeline->count = 0;
}

/* Queue a located value; set the bits of the oldest one once the ring is full. */
static void
pipeline_push(AddPipeline *pipeline, uint64 first, uint64 step)
{
	uint32		slot;

	bs_probe_prefetch(pipeline->target, &pipeline->probe, first, step);
	if (pipeline->count == PIPELINE_DEPTH)
	{
		PendingValue *oldest = &pipeline->ring[pipeline->head];

		bs_probe_set(pipeline->target, &pipeline->probe, oldest->first, oldest->step);
		pipeline->head = (pipeline->head + 1) & (PIPELINE_DEPTH - 1);
		pipeline->count--;
	}
	slot = (pipeline->head + pipeline->count) & (PIPELINE_DEPTH - 1);
	pipeline->ring[slot].first = first;
	pipeline->ring[slot].step = step;
	pipeline->count++;
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
	uint8		scheme = BS_SCHEME_DOUBLE;
	uint64		first;
	uint64		step;
	bool		pipelined;

	/* AggCheckCallContext, inline for the common case of an Agg node */
	if (likely(fcinfo->context != NULL && IsA(fcinfo->context, AggState)))
	{
		AggState   *aggstate = (AggState *) fcinfo->context;

		aggcontext = aggstate->curaggcontext->ecxt_per_tuple_memory;
		pipelined = !DO_AGGSPLIT_SKIPFINAL(aggstate->aggsplit);
	}
	else if (AggCheckCallContext(fcinfo, &aggcontext))
		pipelined = false;		/* a window aggregate: no final function */
	else
		elog(ERROR, "bloom_agg_trans called in non-aggregate context");

	if (PG_ARGISNULL(1))
	{
		/* NULL values are skipped, as sum() skips them */
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	if (PG_ARGISNULL(2) || (PG_NARGS() > 3 && PG_ARGISNULL(3)) ||
		(PG_NARGS() > 4 && PG_ARGISNULL(4)))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_agg capacity, false-positive rate and scheme must not be null")));
	if (PG_NARGS() > 3)
		fpr = PG_GETARG_FLOAT8(3);

	cache = agg_cache(fcinfo);
	if (PG_NARGS() > 4)
		scheme = agg_scheme(cache, PG_GETARG_TEXT_PP(4));
	probe = agg_probe(cache, PG_GETARG_INT64(2), fpr, scheme);

	if (PG_ARGISNULL(0))
	{
		/*
		 * A new state: PostgreSQL copies whatever the first call returns into
		 * the aggregate context (the pointer differs from the NULL it had),
		 * so build it in the per-row context, which is reset after the copy,
		 * and set its first value's bits at once.
		 */
		state = bs_bloom_alloc(CurrentMemoryContext, probe->scheme, probe->bits,
							   probe->hashes, BLOOM_AGG_SEED);
		adopt_family(state, &cache->kind);
		canonical_bytes(&cache->kind, PG_GETARG_DATUM(1), &bytes);
		bs_bloom_add(state, probe, bytes.data, bytes.length);
		canonical_release(&bytes);
		PG_RETURN_POINTER(state);
	}
	else
	{
		state = DatumGetBloomP(PG_GETARG_DATUM(0));
		if (state->bits != probe->bits || state->hashes != probe->hashes ||
			state->scheme != probe->scheme)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("bloom_agg capacity, false-positive rate and scheme must be the same on every row of a group"),
					 errdetail("The group's filter is %s with m = %llu bits and k = %u; capacity %lld at rate %g asks for %s with m = %llu and k = %u.",
							   bs_scheme_name(state->scheme),
							   (unsigned long long) state->bits, state->hashes,
							   (long long) cache->capacity, cache->fpr,
							   bs_scheme_name(probe->scheme),
							   (unsigned long long) probe->bits, probe->hashes),
					 errhint("Pass constants, not columns, as capacity, rate and scheme.")));
	}

	adopt_family(state, &cache->kind);
	canonical_bytes(&cache->kind, PG_GETARG_DATUM(1), &bytes);
	if (unlikely(!bs_probe_locatable(probe)))
	{
		/* the independent scheme hashes k times: nothing to pipeline */
		bs_bloom_add(state, probe, bytes.data, bytes.length);
		canonical_release(&bytes);
		PG_RETURN_POINTER(state);
	}
	bs_probe_locate(probe, bytes.data, bytes.length, &first, &step);
	canonical_release(&bytes);
	if (state->items < PG_UINT64_MAX)
		state->items++;

	if (unlikely(state != cache->last_state))
	{
		collapse_once(cache, state);
		cache->last_state = state;
	}
	if (pipelined)
	{
		pipeline_bind(&cache->pipeline, state, aggcontext, probe);
		pipeline_push(&cache->pipeline, first, step);
	}
	else
		bs_probe_set(state, probe, first, step);
	PG_RETURN_POINTER(state);
}

PG_FUNCTION_INFO_V1(bloom_agg_final);
/* bloom_agg final: set the bits still pending in the pipeline; returns the filter. */
Datum
bloom_agg_final(PG_FUNCTION_ARGS)
{
	bs_bloom   *state = DatumGetBloomP(PG_GETARG_DATUM(0));
	AggState   *aggstate = (AggState *) fcinfo->context;

	if (aggstate != NULL && IsA(aggstate, AggState))
	{
		for (int i = 0; i < aggstate->numtrans; i++)
		{
			FmgrInfo   *transfn = &aggstate->pertrans[i].transfn;
			AggCache   *cache = (AggCache *) transfn->fn_extra;

			if (transfn->fn_addr == bloom_agg_trans && cache != NULL &&
				cache->pipeline.target == state)
				pipeline_flush(&cache->pipeline);
		}
	}
	PG_RETURN_POINTER(state);
}
