/*
 * bloomfilter_agg.c — bloom_agg: the transition and final functions.
 *
 * The state is the bloomfilter itself (docs/design.md decision 1): allocated in
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
 * Small filters (below PIPELINE_MIN_BYTES) stay in the caches and are plain
 * flat states.
 */
#include "bloomsketch.h"

#include "../core/bloom/bs_probe.h"

#include "utils/expandeddatum.h"
#include "utils/memutils.h"

/* The fixed seed of aggregate-built filters: equal SQL gives equal filters. */
#define BLOOM_AGG_SEED 0
#define BLOOM_AGG_DEFAULT_FPR 0.01
/*
 * Rows in flight, a power of two.  16 rather than 8: in a parallel plan the
 * processes' filters compete for DRAM and a line takes longer to arrive.
 */
#define PIPELINE_DEPTH 16
/* Filters at least this large pipeline (smaller ones stay in the caches). */
#define PIPELINE_MIN_BYTES (1024 * 1024)

/* Located values whose lines are being prefetched, waiting to set their bits. */
typedef struct PendingRing
{
	uint64		first[PIPELINE_DEPTH];	/* the oldest at head */
	uint64		step[PIPELINE_DEPTH];
	uint32		head;
	uint32		count;
} PendingRing;

/* A large bloom_agg state: an expanded object holding the flat filter. */
typedef struct PipelinedState
{
	ExpandedObjectHeader header;
	bs_bloom   *filter;			/* the flat value */
	bs_probe	probe;			/* its shape */
	PendingRing ring;			/* its values in flight */
} PipelinedState;

/* What the transition function remembers between calls of one call site. */
typedef struct AggCache
{
	ValueKind	kind;
	/* the sizing of the (capacity, fpr, scheme) seen last */
	bool		sized;
	int64		capacity;
	double		fpr;
	uint8		scheme;
	char		scheme_name[NAMEDATALEN];	/* as given, for a cheap check */
	bs_probe	probe;
} AggCache;

static AggCache *
agg_cache(FunctionCallInfo fcinfo)
{
	AggCache   *cache = (AggCache *) fcinfo->flinfo->fn_extra;

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(AggCache));
		bs_value_kind_for_agg_value(&cache->kind, fcinfo);
		fcinfo->flinfo->fn_extra = cache;
	}
	return cache;
}

/* The scheme argument, parsed only when its spelling differs from the last one. */
static uint8
agg_scheme(FunctionCallInfo fcinfo, AggCache *cache)
{
	text	   *name = PG_GETARG_TEXT_PP(4);
	Size		length = VARSIZE_ANY_EXHDR(name);
	uint8		scheme;

	if (cache->sized && length < NAMEDATALEN && cache->scheme_name[length] == '\0' &&
		memcmp(cache->scheme_name, VARDATA_ANY(name), length) == 0)
		return cache->scheme;
	scheme = bs_scheme_or_error(name);
	if (length < NAMEDATALEN)
	{
		memcpy(cache->scheme_name, VARDATA_ANY(name), length);
		cache->scheme_name[length] = '\0';
	}
	else
		cache->scheme_name[0] = '\0';
	cache->sized = false;		/* size again for this scheme */
	return scheme;
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
ring_flush(PipelinedState *state)
{
	PendingRing *ring = &state->ring;

	for (; ring->count > 0; ring->count--)
	{
		uint32		h = ring->head;

		bs_probe_set(state->filter, &state->probe, ring->first[h], ring->step[h]);
		ring->head = (h + 1) & (PIPELINE_DEPTH - 1);
	}
}

/*
 * Queue a located value behind the prefetch of its lines; once the ring is
 * full, the new value takes the slot of the oldest, whose bits are set.
 */
static inline void
ring_push(PipelinedState *state, uint64 first, uint64 step)
{
	PendingRing *ring = &state->ring;
	uint32		slot;

	bs_probe_prefetch(state->filter, &state->probe, first, step);
	if (ring->count == PIPELINE_DEPTH)
	{
		uint32		h = ring->head;

		bs_probe_set(state->filter, &state->probe, ring->first[h], ring->step[h]);
		ring->first[h] = first;
		ring->step[h] = step;
		ring->head = (h + 1) & (PIPELINE_DEPTH - 1);
		return;
	}
	slot = (ring->head + ring->count) & (PIPELINE_DEPTH - 1);
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

	ring_flush(state);
	return VARSIZE(state->filter);
}

/* Expanded-object method: the flat bytes, once the pending bits are set. */
static void
pipelined_flatten_into(ExpandedObjectHeader *header, void *result, Size allocated_size)
{
	PipelinedState *state = (PipelinedState *) header;

	ring_flush(state);
	if (allocated_size != VARSIZE(state->filter))
		elog(ERROR, "bloom_agg state flattened into %zu bytes instead of %u",
			 allocated_size, VARSIZE(state->filter));
	/* fresh memory (the final function's copy): mapped in 2 MB faults, not 4 kB */
	bs_advise_huge_pages(result, allocated_size);
	bs_copy_polled(result, state->filter, allocated_size);
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
	state->filter = bs_bloom_alloc_line_aligned(context, probe->scheme, probe->bits,
												probe->hashes, BLOOM_AGG_SEED);
	state->probe = *probe;
	return state;
}

/* True when filters of this shape are worth pipelining. */
static bool
pipeline_worthwhile(const bs_probe *probe)
{
	return (probe->scheme == BS_SCHEME_DOUBLE || probe->scheme == BS_SCHEME_BLOCKED) &&
		bs_bloom_total_bytes(probe->bits) >= PIPELINE_MIN_BYTES;
}

pg_noreturn static void
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

/* The sizing of this row's capacity, rate and scheme arguments. */
static const bs_probe *
row_probe(FunctionCallInfo fcinfo, AggCache *cache)
{
	double		fpr = BLOOM_AGG_DEFAULT_FPR;
	uint8		scheme = BS_SCHEME_DOUBLE;

	if (PG_ARGISNULL(2) || (PG_NARGS() > 3 && PG_ARGISNULL(3)) ||
		(PG_NARGS() > 4 && PG_ARGISNULL(4)))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("bloom_agg capacity, false-positive rate and scheme must not be null")));
	if (PG_NARGS() > 3)
		fpr = PG_GETARG_FLOAT8(3);
	if (PG_NARGS() > 4)
		scheme = agg_scheme(fcinfo, cache);
	return agg_probe(cache, PG_GETARG_INT64(2), fpr, scheme);
}

PG_FUNCTION_INFO_V1(bloom_agg_trans);
/* bloom_agg transition: add one value to the group's filter, in place. */
Datum
bloom_agg_trans(PG_FUNCTION_ARGS)
{
	MemoryContext aggcontext;
	AggCache   *cache;
	const bs_probe *probe;
	PipelinedState *pipelined = NULL;
	bs_bloom   *state;
	Datum		result;
	CanonicalBytes bytes;
	uint64		first;
	uint64		step;

	if (!AggCheckCallContext(fcinfo, &aggcontext))
		bs_not_in_aggregate_error("bloom_agg_trans", "bloom_add(filter, value)");
	if (PG_ARGISNULL(1))
	{
		/* NULL values are skipped, as sum() skips them */
		if (PG_ARGISNULL(0))
			PG_RETURN_NULL();
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	}
	cache = agg_cache(fcinfo);
	probe = row_probe(fcinfo, cache);

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
		 * A flat state in the aggregate's memory, updated in place; a TOASTed
		 * or foreign expanded one (an INITCOND, say) is detoasted into a
		 * copy, which the caller then keeps.
		 */
		state = ((bs_bloom *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
		bs_bloom_refuse_partial(state);
		result = PointerGetDatum(state);
	}
	if (state->bits != probe->bits || state->hashes != probe->hashes ||
		state->scheme != probe->scheme)
		shape_mismatch_error(state, cache, probe);

	canonical_bytes(&cache->kind, PG_GETARG_DATUM(1), &bytes);
	adopt_family(state, &cache->kind);
	if (unlikely(!bs_probe_locatable(probe)))
	{
		/* the independent scheme hashes k times: nothing to pipeline */
		bs_bloom_add(state, probe, bytes.data, bytes.length);
		canonical_release(&bytes);
		PG_RETURN_DATUM(result);
	}
	bs_probe_locate(probe, bytes.data, bytes.length, &first, &step);
	canonical_release(&bytes);
	if (state->items < PG_UINT64_MAX)
		state->items++;
	if (pipelined != NULL)
		ring_push(pipelined, first, step);
	else
		bs_probe_set(state, probe, first, step);
	PG_RETURN_DATUM(result);
}

PG_FUNCTION_INFO_V1(bloom_agg_final);
/* bloom_agg final: the filter, flat, with the bits still in flight set. */
Datum
bloom_agg_final(PG_FUNCTION_ARGS)
{
	/* detoasting flattens a pipelined state (pipelined_flatten_into) */
	bs_bloom   *filter = (bs_bloom *) bs_detoast_copy(PG_GETARG_DATUM(0));

	bs_bloom_refuse_partial(filter);
	PG_RETURN_POINTER(filter);
}
