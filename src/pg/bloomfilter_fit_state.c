/*
 * bloomfilter_fit_state.c — bloom_fit_agg's expanded state
 * (bloomfilter_fit_state.h): the core's state machine (bs_fit_build.c) in
 * an expanded object, with its memory in the object's context and its
 * errors reported.  PostgreSQL keeps the object as the aggregate's state
 * without copying it and asks it to flatten whenever it needs the bytes;
 * flattening merges the tail first, so the bytes are the canonical
 * fit_partial value (bs_fit_state.h).
 */
#include "bloomfilter_fit_state.h"

#include "utils/memutils.h"

static Size fit_flat_size(ExpandedObjectHeader *header);
static void fit_flatten_into(ExpandedObjectHeader *header, void *result, Size allocated_size);

static const ExpandedObjectMethods fit_methods = {
	fit_flat_size,
	fit_flatten_into
};

FitExpanded *
bs_fit_expanded(Datum datum)
{
	ExpandedObjectHeader *header;

	if (!VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(datum)))
		return NULL;
	header = DatumGetEOHP(datum);
	return header->eoh_methods == &fit_methods ? (FitExpanded *) header : NULL;
}

/* The build's memory: the object's context (palloc raises when out of memory). */
static void *
context_alloc(void *context, size_t size)
{
	return MemoryContextAlloc((MemoryContext) context, size);
}

static void *
context_grow(void *context pg_attribute_unused(), void *pointer, size_t size)
{
	return repalloc(pointer, size);
}

static void
context_free(void *context pg_attribute_unused(), void *pointer)
{
	pfree(pointer);
}

void
bs_fit_merge_tail(FitExpanded *state)
{
	bs_error	err;

	if (bs_fit_build_merge_tail(&state->build, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
}

void
bs_fit_add_pair(FitExpanded *state, uint64 h1, uint64 h2)
{
	bs_error	err;

	if (bs_fit_build_add_pair(&state->build, h1, h2, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
}

void
bs_fit_add_state(FitExpanded *state, const bs_bloom *flat)
{
	bs_error	err;

	if (bs_fit_build_add_state(&state->build, flat, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
}

FitExpanded *
bs_fit_expand(MemoryContext parent, const bs_bloom *flat)
{
	MemoryContext context = AllocSetContextCreate(parent, "bloom_fit_agg state",
												  ALLOCSET_SMALL_SIZES);
	FitExpanded *state = MemoryContextAllocZero(context, sizeof(FitExpanded));
	bs_error	err;

	EOH_init_header(&state->header, &fit_methods, context);
	state->build.memory.context = context;
	state->build.memory.alloc = context_alloc;
	state->build.memory.grow = context_grow;
	state->build.memory.free = context_free;
	if (bs_fit_build_init(&state->build, flat, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	return state;
}

bs_bloom *
bs_fit_flat_alloc(MemoryContext context, const bs_bloom *like, uint64 count)
{
	uint64		bits = bs_fit_hashes_state_bits(count);
	bs_bloom   *flat = bs_alloc_value(context, bs_bloom_total_bytes(bits), "bloomfilter");
	int32		length_word = flat->length_word;

	memcpy(flat, like, sizeof(bs_bloom) + BS_FIT_PREFIX_WORDS * sizeof(uint64));
	flat->length_word = length_word;
	flat->bits = bits;
	return flat;
}

/* m of the flat value, once the tail is merged. */
static uint64
flat_bits(FitExpanded *state)
{
	uint64		bits;
	bs_error	err;

	if (bs_fit_build_flat_bits(&state->build, &bits, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	return bits;
}

/* Expanded-object method: the size of the canonical flat value. */
static Size
fit_flat_size(ExpandedObjectHeader *header)
{
	return (Size) bs_bloom_total_bytes(flat_bits((FitExpanded *) header));
}

/* Expanded-object method: the canonical flat value. */
static void
fit_flatten_into(ExpandedObjectHeader *header, void *result, Size allocated_size)
{
	FitExpanded *state = (FitExpanded *) header;
	uint64		bits = flat_bits(state);

	if (allocated_size != bs_bloom_total_bytes(bits))
		elog(ERROR, "bloom_fit_agg state flattened into %zu bytes instead of %llu",
			 allocated_size, (unsigned long long) bs_bloom_total_bytes(bits));
	memset(result, 0, allocated_size);
	bs_fit_build_flatten(&state->build, result, bits);
	SET_VARSIZE(result, allocated_size);
}
