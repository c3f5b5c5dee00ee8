/*
 * bloomfilter_fit_state.c — bloom_fit_agg's expanded state (bloomfilter_fit_state.h).
 *
 * A group past FIT_FLAT_MAX_HASHES distinct values keeps its hashes in a
 * list whose first `sorted` pairs are sorted and unique and the rest an
 * unsorted tail of arriving pairs, so that a row costs an append, and the
 * tail is sorted and merged in (repeats dropped) when the list is full:
 * O(log n) a row, amortized.  Past the threshold
 * (bs_fit_threshold: half the bytes of the ceiling's bit array) the list
 * becomes the group's filter at the ceiling.  PostgreSQL keeps the object
 * as the aggregate's state without copying it and asks it to flatten
 * whenever it needs the bytes; flattening merges the tail first, so the
 * bytes are the canonical fit_partial value (bs_fit_state.h).
 */
#include "bloomfilter_fit_state.h"

#include "../core/common/bs_combine.h"

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

static uint64
threshold(const FitExpanded *state)
{
	return bs_fit_threshold(state->ceiling);
}

/* Set the bits of the pairs still in flight. */
static void
ring_flush(FitExpanded *state)
{
	for (; state->ring_count > 0; state->ring_count--)
	{
		uint32		h = state->ring_head;

		bs_fit_set(state->bits, state->ceiling, state->head.hashes, state->ring[2 * h],
				   state->ring[2 * h + 1]);
		state->ring_head = (h + 1) & (FIT_RING_DEPTH - 1);
	}
}

/*
 * Bits form: prefetch the new pair's lines and set the bits of the pair
 * FIT_RING_DEPTH rows older, whose lines have arrived by now (a row's k
 * cache misses cannot overlap the next row's otherwise; bloomfilter_agg.c).
 */
static void
ring_push(FitExpanded *state, uint64 h1, uint64 h2)
{
	uint32		slot;

	bs_fit_prefetch(state->bits, state->ceiling, state->head.hashes, h1, h2);
	if (state->ring_count == FIT_RING_DEPTH)
	{
		slot = state->ring_head;
		bs_fit_set(state->bits, state->ceiling, state->head.hashes, state->ring[2 * slot],
				   state->ring[2 * slot + 1]);
		state->ring_head = (slot + 1) & (FIT_RING_DEPTH - 1);
	}
	else
		slot = (state->ring_head + state->ring_count++) & (FIT_RING_DEPTH - 1);
	state->ring[2 * slot] = h1;
	state->ring[2 * slot + 1] = h2;
}

void
bs_fit_merge_tail(FitExpanded *state)
{
	uint64	   *tail = state->pairs + 2 * state->sorted;
	uint64		count;
	uint64	   *copy;

	if (state->bits != NULL)
		ring_flush(state);
	if (state->tail == 0)
		return;
	copy = MemoryContextAlloc(state->header.eoh_context, state->tail * 2 * sizeof(uint64));
	count = bs_fit_sort_unique_scratch(tail, state->tail, copy);
	count = bs_fit_drop_known(state->pairs, state->sorted, tail, count);
	memcpy(copy, tail, count * 2 * sizeof(uint64));
	bs_fit_merge_back(state->pairs, state->sorted, copy, count);
	pfree(copy);
	state->sorted += count;
	state->tail = 0;
}

/* The group has outgrown its list: its filter at the ceiling from now on. */
static void
switch_to_bits(FitExpanded *state)
{
	bs_fit_merge_tail(state);
	state->bits = MemoryContextAlloc(state->header.eoh_context, state->ceiling / 8);
	bs_copy_polled(state->bits, NULL, state->ceiling / 8);
	bs_fit_set_pairs(state->bits, state->ceiling, state->head.hashes, state->pairs,
					 state->sorted);
	pfree(state->pairs);
	state->pairs = NULL;
	state->sorted = state->capacity = 0;
}

void
bs_fit_add_pair(FitExpanded *state, uint64 h1, uint64 h2)
{
	uint64		at;

	if (state->bits != NULL)
	{
		ring_push(state, h1, h2);
		return;
	}
	/*
	 * Repeats go into the tail like new values and vanish when it is
	 * merged, except near the threshold, where the tail is short and a
	 * merge per few repeats would cost O(n) each: there a repeat of a
	 * sorted value is found first.
	 */
	if (state->capacity == threshold(state) &&
		state->capacity - state->sorted < state->capacity / 8 &&
		bs_fit_find(state->pairs, state->sorted, h1, h2, &at))
		return;
	if (state->sorted + state->tail == state->capacity)
	{
		bs_fit_merge_tail(state);
		if (state->capacity < threshold(state) &&
			state->capacity - state->sorted < state->capacity / 4)
		{
			state->capacity = Min(2 * state->capacity, threshold(state));
			state->pairs = repalloc(state->pairs, state->capacity * 2 * sizeof(uint64));
		}
		if (state->sorted == state->capacity)
		{
			if (bs_fit_find(state->pairs, state->sorted, h1, h2, &at))
				return;
			/* threshold + 1 distinct values: the bits from now on */
			switch_to_bits(state);
			bs_fit_set(state->bits, state->ceiling, state->head.hashes, h1, h2);
			return;
		}
	}
	state->pairs[2 * (state->sorted + state->tail)] = h1;
	state->pairs[2 * (state->sorted + state->tail) + 1] = h2;
	state->tail++;
}

void
bs_fit_add_state(FitExpanded *state, const bs_bloom *flat)
{
	const uint64 *payload = flat->words + BS_FIT_PREFIX_WORDS;

	state->head.items = state->head.items > PG_UINT64_MAX - flat->items ? PG_UINT64_MAX
		: state->head.items + flat->items;
	bs_adopt_combined_family(&state->head.version, &state->head.family,
							 &state->head.type_tag, flat->version, flat->family,
							 flat->type_tag);
	if (bs_fit_state_form(flat) == BS_FIT_FORM_HASHES)
	{
		uint64		count = bs_fit_state_count(flat);

		for (uint64 i = 0; i < count; i++)
		{
			bs_poll_at(i);
			bs_fit_add_pair(state, payload[2 * i], payload[2 * i + 1]);
		}
		return;
	}
	if (state->bits == NULL)
		switch_to_bits(state);
	for (uint64 i = 0; i < state->ceiling / 64;)
		for (uint64 end = bs_poll_stretch(i, state->ceiling / 64); i < end; i++)
			state->bits[i] |= payload[i];
}

FitExpanded *
bs_fit_expand(MemoryContext parent, const bs_bloom *flat)
{
	MemoryContext context = AllocSetContextCreate(parent, "bloom_fit_agg state",
												  ALLOCSET_SMALL_SIZES);
	FitExpanded *state = MemoryContextAllocZero(context, sizeof(FitExpanded));
	const uint64 *payload = flat->words + BS_FIT_PREFIX_WORDS;

	EOH_init_header(&state->header, &fit_methods, context);
	memcpy(&state->head, flat, sizeof(bs_bloom));
	state->fpr = bs_fit_state_fpr(flat);
	state->ceiling = bs_fit_state_ceiling(flat);
	if (bs_fit_state_form(flat) == BS_FIT_FORM_BITS)
	{
		state->bits = MemoryContextAlloc(context, state->ceiling / 8);
		bs_copy_polled(state->bits, payload, state->ceiling / 8);
		return state;
	}
	state->sorted = bs_fit_state_count(flat);
	state->capacity = Min(Max(2 * state->sorted, 2 * FIT_FLAT_MAX_HASHES), threshold(state));
	state->pairs = MemoryContextAlloc(context, state->capacity * 2 * sizeof(uint64));
	memcpy(state->pairs, payload, state->sorted * 2 * sizeof(uint64));
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
	bs_fit_merge_tail(state);
	return state->bits != NULL ? bs_fit_bits_state_bits(state->ceiling)
		: bs_fit_hashes_state_bits(state->sorted);
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
	bs_bloom   *flat = result;
	uint64		bits = flat_bits(state);

	if (allocated_size != bs_bloom_total_bytes(bits))
		elog(ERROR, "bloom_fit_agg state flattened into %zu bytes instead of %llu",
			 allocated_size, (unsigned long long) bs_bloom_total_bytes(bits));
	memset(result, 0, allocated_size);
	memcpy(flat, &state->head, sizeof(bs_bloom));
	SET_VARSIZE(flat, allocated_size);
	flat->bits = bits;
	memcpy(&flat->words[0], &state->fpr, sizeof(double));
	flat->words[1] = state->ceiling;
	if (state->bits != NULL)
		bs_copy_polled(flat->words + BS_FIT_PREFIX_WORDS, state->bits, state->ceiling / 8);
	else
		memcpy(flat->words + BS_FIT_PREFIX_WORDS, state->pairs,
			   state->sorted * 2 * sizeof(uint64));
}
