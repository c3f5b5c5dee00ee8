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
 * the executor one row's misses cannot overlap the next row's.  So a large
 * state pipelines: the transition function hashes the value, prefetches the
 * lines its bits live on, and sets the bits of the value that arrived
 * PIPELINE_DEPTH rows earlier, whose lines have arrived by then.
 *
 * The values in flight must reach the bits before anyone reads the state, and
 * not everyone who reads it calls our final function: a partial aggregation
 * (parallel workers) ships the state as it is, and a distributed engine's
 * worker wrapper (Citus) prints it with the type's output function.  So a
 * large state is a PostgreSQL "expanded object" of type bloomfilter
 * (utils/expandeddatum.h): the flat filter plus its ring of pending values.
 * PostgreSQL keeps it as the aggregate's state without copying it (its
 * memory context is a child of the aggregate context), and whatever needs the
 * value's bytes (a tuple, a copy, detoasting for the output function) asks
 * the object to flatten itself, which first sets the pending bits.  The ring
 * thus lives and dies with the state: a reset or an error frees both.
 *
 * The flat filter inside the object has its bit array on a cache-line
 * boundary (a block of the blocked scheme is then one line) and, when large,
 * on 2 MB huge pages from the first touch.  Small filters (below
 * PIPELINE_MIN_BYTES) are plain flat states; when many of them alternate in
 * a GROUP BY, their rows wait behind prefetches at the call site instead
 * (AggCache.deferred), where that is safe, and when one of them comes back
 * row after row it takes a fast path of its own (fast_path_add_flat).
 */
#include "bloomsketch.h"

#include "../core/bs_probe.h"

#include "executor/nodeAgg.h"
#include "nodes/execnodes.h"
#include "utils/expandeddatum.h"
#include "utils/memutils.h"

/* The fixed seed of aggregate-built filters: equal SQL gives equal filters. */
#define BLOOM_AGG_SEED 0
#define BLOOM_AGG_DEFAULT_FPR 0.01
/*
 * Rows in flight, a power of two.  16 rather than 8: in a parallel plan the
 * processes' filters compete for DRAM and a line takes longer to arrive (A/B,
 * 11 rounds: the default scheme's parallel bloom_agg over 10M rows 361.6 ->
 * 327.7 ms, serially 544.7 / 551.7, within the noise); 32 was no better.
 */
#define PIPELINE_DEPTH 16
/* Filters at least this large pipeline (smaller ones stay in the caches). */
#define PIPELINE_MIN_BYTES (1024 * 1024)

/*
 * Located values whose lines are being prefetched, waiting to set their bits:
 * a large state's own queue (one target) and the call site's queue of small
 * states (several targets, AggCache.deferred) are both one of these.
 */
typedef struct PendingRing
{
	bs_bloom   *target[PIPELINE_DEPTH];	/* the oldest at head */
	uint64		first[PIPELINE_DEPTH];
	uint64		step[PIPELINE_DEPTH];
	uint32		head;
	uint32		count;
	bs_probe	probe;			/* the shape of every pending value */
} PendingRing;

struct AggCache;

/* A large bloom_agg state: an expanded object holding the flat filter. */
typedef struct PipelinedState
{
	ExpandedObjectHeader header;
	bs_bloom   *filter;			/* the flat value (bs_bloom_alloc_aligned) */
	PendingRing ring;			/* its values in flight */
	struct AggCache *armed_by;	/* the call site whose fast path it is, or NULL */
	MemoryContextCallback disarm;	/* on its context: the fast path forgets it */
} PipelinedState;

/*
 * What the transition function remembers between calls of one call site.
 *
 * Its ring `deferred` serves small states, which gain from looking ahead
 * when the rows of a GROUP BY alternate between groups (1,000 groups of 12
 * kB filters do not stay in the caches): a row's lines are prefetched and
 * its bits set PIPELINE_DEPTH calls later, or by the final function.  Unlike
 * a large state's queue, these pending values belong to the call site, not
 * to a state (they may target several), so they are used only where our
 * final function surely runs before anything reads the states: when nodeAgg
 * calls us directly, not for a partial aggregation, and every aggregate
 * sharing the state finishes with bloom_agg_final (deferral_allowed).  A
 * reset callback on the states' context forgets the pending values if the
 * context is reset first (a rescan, an error, the next group of a sorted
 * aggregation).
 */
typedef struct AggCache
{
	int8		defer;			/* deferral allowed: -1 not decided yet, 0, 1 */
	MemoryContext watched;		/* its reset forgets `deferred` and a flat fast_datum */
	MemoryContextCallback forget;
	PendingRing deferred;		/* small states' values in flight */
	ValueKind	kind;
	/* the sizing of the (capacity, fpr, scheme) seen last */
	bool		sized;
	int64		capacity;
	double		fpr;
	uint8		scheme;
	char		scheme_name[NAMEDATALEN];	/* as given, for a cheap check */
	int8		scheme_stable;	/* the scheme argument is a constant: -1 unknown */
	Datum		scheme_datum;	/* the scheme argument of the previous call */
	bs_probe	probe;
	/*
	 * The fast path (bloom_agg_trans): the state of the previous call, large
	 * (fast_state) or flat (fast_state NULL).  Whatever frees that state
	 * first disarms it: the reset of a large state's own context, or of the
	 * watched context that holds a flat one.
	 */
	int8		params_stable;	/* capacity, fpr and scheme fixed: -1 unknown */
	Datum		fast_datum;		/* its datum, or 0 */
	PipelinedState *fast_state;
} AggCache;

static AggCache *
agg_cache(FunctionCallInfo fcinfo)
{
	AggCache   *cache = (AggCache *) fcinfo->flinfo->fn_extra;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(AggCache));
		cache->defer = -1;
		cache->scheme_stable = -1;
		cache->params_stable = -1;
		value_kind_init(&cache->kind, get_fn_expr_argtype(fcinfo->flinfo, 1),
						fcinfo->flinfo->fn_mcxt);
		fcinfo->flinfo->fn_extra = cache;
	}
	return cache;
}

/*
 * Is the aggregate's argument argnum (0-based: the value is 0, so it is the
 * transition function's argument argnum + 1) a constant or an external
 * parameter, fixed for the whole query?
 * get_fn_expr_arg_stable cannot tell from inside a transition function:
 * nodeAgg.c gives the transition function an expression whose arguments are
 * placeholder Params; the aggregate's own expressions are in its Aggref.
 * False where there is no Aggref (a window aggregate).
 */
static bool
agg_arg_stable(FunctionCallInfo fcinfo, int argnum)
{
	Aggref	   *aggref = AggGetAggref(fcinfo);
	Node	   *arg;

	if (aggref == NULL || argnum < 0 || argnum >= list_length(aggref->args))
		return false;
	arg = (Node *) list_nth_node(TargetEntry, aggref->args, argnum)->expr;
	return IsA(arg, Const) ||
		(IsA(arg, Param) && ((Param *) arg)->paramkind == PARAM_EXTERN);
}

/*
 * The scheme argument, parsed only when it differs from the last one.  A
 * constant (or query parameter) keeps one address for the whole query, so
 * for those the address alone says that the name is the same, and a row
 * costs neither a detoast nor a comparison of the name.
 */
static uint8
agg_scheme(FunctionCallInfo fcinfo, AggCache *cache)
{
	Datum		datum = PG_GETARG_DATUM(4);
	text	   *name;
	Size		length;

	if (cache->scheme_stable < 0)
		cache->scheme_stable = agg_arg_stable(fcinfo, 3) ? 1 : 0;
	if (cache->sized && cache->scheme_stable > 0 && cache->scheme_datum == datum)
		return cache->scheme;
	cache->scheme_datum = datum;
	name = PG_GETARG_TEXT_PP(4);
	length = VARSIZE_ANY_EXHDR(name);

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

/* ---- values in flight ---- */

/* Set the bits of every value still in flight. */
static void
ring_flush(PendingRing *ring)
{
	for (; ring->count > 0; ring->count--)
	{
		uint32		h = ring->head;

		bs_probe_set(ring->target[h], &ring->probe, ring->first[h], ring->step[h]);
		ring->head = (h + 1) & (PIPELINE_DEPTH - 1);
	}
}

/*
 * Make the ring hold values of this shape: if it holds another, set their
 * bits first.  (A large state's ring has one shape for life.)
 */
static inline void
ring_adopt_shape(PendingRing *ring, const bs_probe *probe)
{
	if (ring->count > 0 && (ring->probe.bits != probe->bits ||
							ring->probe.hashes != probe->hashes ||
							ring->probe.scheme != probe->scheme))
		ring_flush(ring);
	if (ring->count == 0)
		ring->probe = *probe;
}

/*
 * A full ring's step: the new value takes the slot of the oldest, which is
 * handed back for its bits to be set.
 */
static pg_attribute_always_inline void
ring_replace_oldest(PendingRing *ring, bs_bloom *target, uint64 first, uint64 step,
					bs_bloom **oldest_target, uint64 *oldest_first, uint64 *oldest_step)
{
	uint32		h = ring->head;

	*oldest_target = ring->target[h];
	*oldest_first = ring->first[h];
	*oldest_step = ring->step[h];
	ring->target[h] = target;
	ring->first[h] = first;
	ring->step[h] = step;
	ring->head = (h + 1) & (PIPELINE_DEPTH - 1);
}

/*
 * Queue a located value of the ring's shape behind the prefetch of its
 * lines; set the bits of the oldest one once the ring is full.
 */
static inline void
ring_push(PendingRing *ring, bs_bloom *target, uint64 first, uint64 step)
{
	uint32		slot;

	bs_probe_prefetch(target, &ring->probe, first, step);
	if (ring->count == PIPELINE_DEPTH)
	{
		bs_bloom   *oldest;
		uint64		oldest_first;
		uint64		oldest_step;

		ring_replace_oldest(ring, target, first, step, &oldest, &oldest_first, &oldest_step);
		bs_probe_set(oldest, &ring->probe, oldest_first, oldest_step);
		return;
	}
	slot = (ring->head + ring->count) & (PIPELINE_DEPTH - 1);
	ring->target[slot] = target;
	ring->first[slot] = first;
	ring->step[slot] = step;
	ring->count++;
}

/* ---- the pipelined state ---- */

/* Expanded-object method: the flat size, once the pending bits are set. */
static Size
pipelined_flat_size(ExpandedObjectHeader *header)
{
	PipelinedState *state = (PipelinedState *) header;

	ring_flush(&state->ring);
	return VARSIZE(state->filter);
}

/* Expanded-object method: the flat bytes, once the pending bits are set. */
static void
pipelined_flatten_into(ExpandedObjectHeader *header, void *result, Size allocated_size)
{
	PipelinedState *state = (PipelinedState *) header;

	ring_flush(&state->ring);
	if (allocated_size != VARSIZE(state->filter))
		elog(ERROR, "bloom_agg state flattened into %zu bytes instead of %u",
			 allocated_size, VARSIZE(state->filter));
	/*
	 * A large result is mostly fresh memory: a few faults map it, not one per
	 * 4 kB.  That holds where the caller has not touched it yet (detoasting,
	 * datumCopy); heap_form_tuple and heap_form_minimal_tuple zero their
	 * tuple first, so a partial state sent to the leader is mapped 4 kB at a
	 * time before this runs.
	 */
	bs_copy_to_fresh(result, state->filter, allocated_size);
}

static const ExpandedObjectMethods pipelined_methods = {
	pipelined_flat_size,
	pipelined_flatten_into
};

/*
 * Our pipelined state behind a read-write datum, or NULL for a flat value, a
 * read-only pointer (which must not be changed in place) or a foreign one.
 */
static PipelinedState *
pipelined_state(Datum datum)
{
	ExpandedObjectHeader *header;

	if (!VARATT_IS_EXTERNAL_EXPANDED_RW(DatumGetPointer(datum)))
		return NULL;
	header = DatumGetEOHP(datum);
	return header->eoh_methods == &pipelined_methods ? (PipelinedState *) header : NULL;
}

/*
 * A new, empty pipelined state in its own context under the aggregate's,
 * where PostgreSQL adopts it as the group's state without copying it.
 */
static PipelinedState *
pipelined_create(MemoryContext aggcontext, const bs_probe *probe)
{
	MemoryContext context = AllocSetContextCreate(aggcontext, "bloom_agg state",
												  ALLOCSET_SMALL_SIZES);
	PipelinedState *state = MemoryContextAllocZero(context, sizeof(PipelinedState));

	EOH_init_header(&state->header, &pipelined_methods, context);
	state->filter = bs_bloom_alloc_aligned(context, probe->scheme, probe->bits,
										   probe->hashes, BLOOM_AGG_SEED);
	state->ring.probe = *probe;
	return state;
}

/* True when filters of this shape are worth pipelining. */
static bool
pipeline_worthwhile(const bs_probe *probe)
{
	return (probe->scheme == BS_SCHEME_DOUBLE || probe->scheme == BS_SCHEME_BLOCKED) &&
		bs_bloom_total_bytes(probe->bits) >= PIPELINE_MIN_BYTES;
}

/* ---- the deferred bit set of small states ---- */

Datum		bloom_agg_final(PG_FUNCTION_ARGS);	/* recognised in deferral_allowed */

/*
 * Reset callback of the watched context: its states are gone, with any
 * values in flight for them and the flat state of the fast path.
 */
static void
watched_forget(void *arg)
{
	AggCache   *cache = (AggCache *) arg;

	cache->deferred.count = 0;
	cache->watched = NULL;
	if (cache->fast_state == NULL)
		cache->fast_datum = (Datum) 0;
}

/*
 * Watch the aggregate's context (from the first call that asks): true when
 * the states of this call live in the watched context, whose reset the call
 * site hears of.  States of another context (grouping sets) are not watched.
 */
static bool
watch_context(AggCache *cache, MemoryContext aggcontext)
{
	if (cache->watched == NULL)
	{
		cache->forget.func = watched_forget;
		cache->forget.arg = cache;
		MemoryContextRegisterResetCallback(aggcontext, &cache->forget);
		cache->watched = aggcontext;
	}
	return cache->watched == aggcontext;
}

/*
 * True when nodeAgg calls this transition function directly, for a plain
 * (not partial) aggregation, and every aggregate that shares its state
 * finishes with bloom_agg_final, which sets a pending value's bits.
 */
static bool
deferral_allowed(FunctionCallInfo fcinfo)
{
	AggState   *aggstate = (AggState *) fcinfo->context;
	int			transno = -1;
	int			finishers = 0;

	if (aggstate == NULL || !IsA(aggstate, AggState) ||
		DO_AGGSPLIT_SKIPFINAL(aggstate->aggsplit))
		return false;
	for (int i = 0; i < aggstate->numtrans; i++)
		if (&aggstate->pertrans[i].transfn == fcinfo->flinfo)
			transno = i;
	if (transno < 0)
		return false;
	for (int i = 0; i < aggstate->numaggs; i++)
	{
		AggStatePerAgg peragg = &aggstate->peragg[i];

		if (peragg->transno != transno)
			continue;
		if (!OidIsValid(peragg->finalfn_oid) || peragg->finalfn.fn_addr != bloom_agg_final)
			return false;
		finishers++;
	}
	return finishers > 0;
}

/*
 * Whether this row's bits may wait for the next call: deferral is allowed
 * and the state lives in the watched context (watched from the first such
 * row on; states of another context, as in grouping sets, are set at once).
 */
static bool
may_defer(FunctionCallInfo fcinfo, AggCache *cache, MemoryContext aggcontext)
{
	if (cache->defer < 0)
		cache->defer = deferral_allowed(fcinfo) ? 1 : 0;
	if (cache->defer == 0)
		return false;
	return watch_context(cache, aggcontext);
}

pg_attribute_noreturn() static void
shape_mismatch_error(const bs_bloom *state, const AggCache *cache, const bs_probe *probe)
{
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

/* True when capacity, fpr and scheme are constants (or query parameters). */
static bool
params_stable(FunctionCallInfo fcinfo, AggCache *cache)
{
	if (cache->params_stable < 0)
	{
		cache->params_stable = 1;
		for (int argnum = 1; argnum < PG_NARGS() - 1; argnum++)
			if (!agg_arg_stable(fcinfo, argnum))
				cache->params_stable = 0;
	}
	return cache->params_stable > 0;
}

/* Reset callback of a large state's context: a fast path armed on it forgets it. */
static void
pipelined_disarm(void *arg)
{
	PipelinedState *pipelined = (PipelinedState *) arg;
	AggCache   *cache = pipelined->armed_by;

	if (cache->fast_state == pipelined)
	{
		cache->fast_datum = (Datum) 0;
		cache->fast_state = NULL;
	}
}

/*
 * Arm the fast path for this large state when the parameters are stable:
 * then a later call that passes this very state again, as every row of one
 * group does, has nothing left to check.  The state's context tells the call
 * site when it goes (the next group of a sorted aggregation, a rescan), so
 * that no later value at the same address, such as a user aggregate's initial
 * value, is ever taken for it.
 */
static void
fast_path_arm(FunctionCallInfo fcinfo, AggCache *cache, PipelinedState *pipelined)
{
	cache->fast_datum = (Datum) 0;
	if (!params_stable(fcinfo, cache))
		return;
	if (pipelined->armed_by == NULL)
	{
		pipelined->armed_by = cache;
		pipelined->disarm.func = pipelined_disarm;
		pipelined->disarm.arg = pipelined;
		MemoryContextRegisterResetCallback(pipelined->header.eoh_context, &pipelined->disarm);
	}
	if (pipelined->armed_by != cache)
		return;
	cache->fast_datum = EOHPGetRWDatum(&pipelined->header);
	cache->fast_state = pipelined;
}

/*
 * Arm the fast path for a flat state updated in place (a small filter), when
 * the parameters are stable and the state lives in the watched context,
 * whose reset disarms it; disarm it when `state` is 0 (a new state, which
 * PostgreSQL is about to copy elsewhere).
 */
static void
fast_path_arm_flat(FunctionCallInfo fcinfo, AggCache *cache, MemoryContext aggcontext,
				   Datum state)
{
	cache->fast_datum = (Datum) 0;
	cache->fast_state = NULL;
	if (state != (Datum) 0 && params_stable(fcinfo, cache) && watch_context(cache, aggcontext))
		cache->fast_datum = state;
}

/*
 * Locate a value of the call site's type under probe (a locatable scheme)
 * and count it in the filter; its bits are the caller's to set.
 */
static pg_attribute_always_inline void
locate_and_count(const AggCache *cache, const bs_probe *probe, bs_bloom *state,
				 Datum value, uint64 *first, uint64 *step)
{
	CanonicalBytes bytes;

	canonical_bytes(&cache->kind, value, &bytes);
	bs_probe_locate(probe, bytes.data, bytes.length, first, step);
	canonical_release(&bytes);
	if (state->items < PG_UINT64_MAX)
		state->items++;
}

/*
 * The fast path: the value goes into the large state that the previous call
 * at this call site returned, under the same constant parameters.  Nothing
 * needs checking again: that state is ours (it was built by the slow path
 * below, which checked its shape and family, and only this function and
 * PostgreSQL's own reads of it, which flatten it in place, have touched it
 * since), the parameters are the constants it was sized for, and the value's
 * type is the call site's.  A new group's state arrives as NULL, and a
 * different state (groups that alternate) takes the slow path, which re-arms.
 * Out of line, like the other paths, so that bloom_agg_trans is only a
 * dispatch that jumps on without a frame of its own (measured: the blocked
 * bloom_agg over 10M rows 446 -> 428 ms once the dispatch lost its frame).
 */
static pg_noinline Datum
fast_path_add(FunctionCallInfo fcinfo, AggCache *cache)
{
	PipelinedState *pipelined = cache->fast_state;
	uint64		first;
	uint64		step;

	locate_and_count(cache, &pipelined->ring.probe, pipelined->filter,
					 PG_GETARG_DATUM(1), &first, &step);
	ring_push(&pipelined->ring, pipelined->filter, first, step);
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

/*
 * The fast path of a flat state (a filter below PIPELINE_MIN_BYTES, which
 * stays in the caches): the same state again, checked when the fast path was
 * armed on it, so the value's bits are set at once.
 */
static pg_noinline Datum
fast_path_add_flat(FunctionCallInfo fcinfo, AggCache *cache)
{
	bs_bloom   *state = DatumGetBloomP(PG_GETARG_DATUM(0));
	uint64		first;
	uint64		step;

	locate_and_count(cache, &cache->probe, state, PG_GETARG_DATUM(1), &first, &step);
	bs_probe_set(state, &cache->probe, first, step);
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}

#if BS_BLOCK_SIMD_BUILT
/*
 * The fast path of a large blocked state whose values take the 512-bit path
 * (probe.block_simd: k <= 7 on AVX-512F), compiled for AVX-512F so that the
 * block's vector mask is inlined (bs_probe_set would call out for it).  Once
 * the ring is full, as for all but a state's first PIPELINE_DEPTH rows, the
 * new value takes the slot of the one whose bits it sets.
 */
__attribute__((target("avx512f")))
static pg_noinline Datum
fast_path_add_blocked512(FunctionCallInfo fcinfo, AggCache *cache)
{
	PipelinedState *pipelined = cache->fast_state;
	PendingRing *ring = &pipelined->ring;
	bs_bloom   *filter = pipelined->filter;
	uint64		first;
	uint64		step;

	locate_and_count(cache, &ring->probe, filter, PG_GETARG_DATUM(1), &first, &step);
	if (likely(ring->count == PIPELINE_DEPTH))
	{
		bs_bloom   *oldest;
		uint64		oldest_first;
		uint64		oldest_step;

		bs_probe_prefetch(filter, &ring->probe, first, step);
		ring_replace_oldest(ring, filter, first, step, &oldest, &oldest_first, &oldest_step);
		bs_block_set512(&oldest->words[oldest_first * BS_BLOCK_WORDS], oldest_step,
						ring->probe.hashes);
	}
	else
		ring_push(ring, filter, first, step);
	PG_RETURN_DATUM(PG_GETARG_DATUM(0));
}
#endif

/*
 * Everything but the fast path, out of line so that the fast path's calls
 * do not pay for this function's register saves.
 */
static pg_noinline Datum
agg_trans_checked(FunctionCallInfo fcinfo)
{
	MemoryContext aggcontext;
	AggCache   *cache;
	const bs_probe *probe;
	PipelinedState *pipelined = NULL;
	bool		in_place = false;	/* a flat state that stays at its address */
	bs_bloom   *state;
	Datum		result;
	double		fpr = BLOOM_AGG_DEFAULT_FPR;
	uint8		scheme = BS_SCHEME_DOUBLE;
	uint64		first;
	uint64		step;

	/* AggCheckCallContext, inline for the common case of an Agg node */
	if (likely(fcinfo->context != NULL && IsA(fcinfo->context, AggState)))
		aggcontext = ((AggState *) fcinfo->context)->curaggcontext->ecxt_per_tuple_memory;
	else if (!AggCheckCallContext(fcinfo, &aggcontext))
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
		scheme = agg_scheme(fcinfo, cache);
	probe = agg_probe(cache, PG_GETARG_INT64(2), fpr, scheme);

	if (PG_ARGISNULL(0))
	{
		if (pipeline_worthwhile(probe))
		{
			pipelined = pipelined_create(aggcontext, probe);
			state = pipelined->filter;
			result = EOHPGetRWDatum(&pipelined->header);
		}
		else
		{
			/*
			 * A small state: PostgreSQL copies whatever the first call
			 * returns into the aggregate context, so build it in the per-row
			 * context, which is reset after the copy.
			 */
			state = bs_bloom_alloc(CurrentMemoryContext, probe->scheme, probe->bits,
								   probe->hashes, BLOOM_AGG_SEED);
			result = PointerGetDatum(state);
		}
	}
	else if ((pipelined = pipelined_state(PG_GETARG_DATUM(0))) != NULL)
	{
		state = pipelined->filter;
		result = PG_GETARG_DATUM(0);
	}
	else
	{
		/*
		 * A flat state, updated in place; a TOASTed or foreign expanded one
		 * (never passed by PostgreSQL itself) is detoasted into a copy, which
		 * the caller then keeps.
		 */
		state = DatumGetBloomP(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
		result = PointerGetDatum(state);
		in_place = result == PG_GETARG_DATUM(0);
	}
	if (state->bits != probe->bits || state->hashes != probe->hashes ||
		state->scheme != probe->scheme)
		shape_mismatch_error(state, cache, probe);

	adopt_family(state, &cache->kind);
	if (unlikely(!bs_probe_locatable(probe)))
	{
		/* the independent scheme hashes k times: nothing to pipeline */
		CanonicalBytes bytes;

		canonical_bytes(&cache->kind, PG_GETARG_DATUM(1), &bytes);
		bs_bloom_add(state, probe, bytes.data, bytes.length);
		canonical_release(&bytes);
		PG_RETURN_DATUM(result);
	}
	locate_and_count(cache, probe, state, PG_GETARG_DATUM(1), &first, &step);
	if (pipelined != NULL)
	{
		ring_push(&pipelined->ring, state, first, step);
		fast_path_arm(fcinfo, cache, pipelined);
	}
	else if (in_place && may_defer(fcinfo, cache, aggcontext))
	{
		ring_adopt_shape(&cache->deferred, probe);
		ring_push(&cache->deferred, state, first, step);
	}
	else
		bs_probe_set(state, probe, first, step);
	if (pipelined == NULL)
		fast_path_arm_flat(fcinfo, cache, aggcontext, in_place ? result : (Datum) 0);
	PG_RETURN_DATUM(result);
}

PG_FUNCTION_INFO_V1(bloom_agg_trans);
/* bloom_agg transition: add one value to the group's filter, in place. */
Datum
bloom_agg_trans(PG_FUNCTION_ARGS)
{
	AggCache   *cache = (AggCache *) fcinfo->flinfo->fn_extra;

	if (likely(cache != NULL && cache->fast_datum != (Datum) 0 &&
			   PG_GETARG_DATUM(0) == cache->fast_datum &&
			   !PG_ARGISNULL(0) && !PG_ARGISNULL(1)))
	{
		if (cache->fast_state == NULL)
			return fast_path_add_flat(fcinfo, cache);
#if BS_BLOCK_SIMD_BUILT
		if (cache->fast_state->ring.probe.block_simd)
			return fast_path_add_blocked512(fcinfo, cache);
#endif
		return fast_path_add(fcinfo, cache);
	}
	return agg_trans_checked(fcinfo);
}

PG_FUNCTION_INFO_V1(bloom_agg_final);
/* bloom_agg final: the filter, flat, with the bits still in flight set. */
Datum
bloom_agg_final(PG_FUNCTION_ARGS)
{
	AggState   *aggstate = (AggState *) fcinfo->context;

	/* small states' values in flight (see AggCache.deferred) */
	if (aggstate != NULL && IsA(aggstate, AggState))
	{
		for (int i = 0; i < aggstate->numtrans; i++)
		{
			FmgrInfo   *transfn = &aggstate->pertrans[i].transfn;

			if (transfn->fn_addr == bloom_agg_trans && transfn->fn_extra != NULL)
				ring_flush(&((AggCache *) transfn->fn_extra)->deferred);
		}
	}
	/*
	 * A flat state is copied here rather than by PostgreSQL (finalize_aggregate
	 * copies a result that is not in the current context), so that a large
	 * one lands on huge pages: a few faults, not one per 4 kB.  Detoasting
	 * flattens a pipelined state (pipelined_flatten_into) the same way.
	 */
	if (!VARATT_IS_EXTENDED(PG_GETARG_POINTER(0)))
		PG_RETURN_POINTER(bs_copy_plain_varlena((struct varlena *) PG_GETARG_POINTER(0)));
	PG_RETURN_POINTER(PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
}
