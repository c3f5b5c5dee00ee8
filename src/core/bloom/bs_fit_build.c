/*
 * bs_fit_build.c — bloom_fit_agg's state machine (bs_fit_build.h).
 *
 * A group past BS_FIT_FLAT_MAX_HASHES distinct values keeps its hashes in a
 * list whose first `sorted` pairs are sorted and unique and the rest an
 * unsorted tail of arriving pairs, so that a row costs an append, and the
 * tail is sorted and merged in (repeats dropped) when the list is full:
 * O(log n) a row, amortized.  Past the threshold (bs_fit_threshold: half
 * the bytes of the ceiling's bit array) the list becomes the group's filter
 * at the ceiling.  Flattening merges the tail first, so the bytes are the
 * canonical fit_partial value (bs_fit_state.h).
 */
#include "bloom/bs_fit_build.h"

#include <inttypes.h>
#include <string.h>

#include "common/bs_combine.h"

static bs_status
out_of_memory(bs_error *err, uint64_t bytes)
{
	return bs_fail(err, BS_ERR_TOO_LARGE, "out of memory for a bloom_fit_agg state",
				   "Allocating %" PRIu64 " bytes failed.", bytes);
}

static uint64_t
threshold(const bs_fit_build *build)
{
	return bs_fit_threshold(build->ceiling);
}

/* Set the bits of the pairs still in flight. */
static void
ring_flush(bs_fit_build *build)
{
	for (; build->ring_count > 0; build->ring_count--)
	{
		uint32_t	h = build->ring_head;

		bs_fit_set(build->bits, build->ceiling, build->head.hashes, build->ring[2 * h],
				   build->ring[2 * h + 1]);
		build->ring_head = (h + 1) & (BS_FIT_RING_DEPTH - 1);
	}
}

/*
 * Bits form: prefetch the new pair's lines and set the bits of the pair
 * BS_FIT_RING_DEPTH rows older, whose lines have arrived by now (a row's k
 * cache misses cannot overlap the next row's otherwise; bloomfilter_agg.c).
 */
static void
ring_push(bs_fit_build *build, uint64_t h1, uint64_t h2)
{
	uint32_t	slot;

	bs_fit_prefetch(build->bits, build->ceiling, build->head.hashes, h1, h2);
	if (build->ring_count == BS_FIT_RING_DEPTH)
	{
		slot = build->ring_head;
		bs_fit_set(build->bits, build->ceiling, build->head.hashes, build->ring[2 * slot],
				   build->ring[2 * slot + 1]);
		build->ring_head = (slot + 1) & (BS_FIT_RING_DEPTH - 1);
	}
	else
		slot = (build->ring_head + build->ring_count++) & (BS_FIT_RING_DEPTH - 1);
	build->ring[2 * slot] = h1;
	build->ring[2 * slot + 1] = h2;
}

bs_status
bs_fit_build_merge_tail(bs_fit_build *build, bs_error *err)
{
	uint64_t   *tail = build->pairs + 2 * build->sorted;
	uint64_t	count;
	uint64_t   *copy;
	size_t		bytes = build->tail * 2 * sizeof(uint64_t);

	if (build->bits != NULL)
		ring_flush(build);
	if (build->tail == 0)
		return BS_OK;
	if ((copy = build->memory.alloc(build->memory.context, bytes)) == NULL)
		return out_of_memory(err, bytes);
	count = bs_fit_sort_unique_scratch(tail, build->tail, copy);
	count = bs_fit_drop_known(build->pairs, build->sorted, tail, count);
	memcpy(copy, tail, count * 2 * sizeof(uint64_t));
	bs_fit_merge_back(build->pairs, build->sorted, copy, count);
	build->memory.free(build->memory.context, copy);
	build->sorted += count;
	build->tail = 0;
	return BS_OK;
}

/* The group has outgrown its list: its filter at the ceiling from now on. */
static bs_status
switch_to_bits(bs_fit_build *build, bs_error *err)
{
	if (bs_fit_build_merge_tail(build, err) != BS_OK)
		return BS_ERR_TOO_LARGE;
	if ((build->bits = build->memory.alloc(build->memory.context, build->ceiling / 8)) == NULL)
		return out_of_memory(err, build->ceiling / 8);
	bs_copy_polled(build->bits, NULL, build->ceiling / 8);
	bs_fit_set_pairs(build->bits, build->ceiling, build->head.hashes, build->pairs,
					 build->sorted);
	build->memory.free(build->memory.context, build->pairs);
	build->pairs = NULL;
	build->sorted = build->capacity = 0;
	return BS_OK;
}

/* A full list: merge the tail, grow the list, or switch to the bits (*done). */
static bs_status
make_room(bs_fit_build *build, uint64_t h1, uint64_t h2, bool *done, bs_error *err)
{
	uint64_t	at;

	*done = false;
	if (bs_fit_build_merge_tail(build, err) != BS_OK)
		return BS_ERR_TOO_LARGE;
	if (build->capacity < threshold(build) &&
		build->capacity - build->sorted < build->capacity / 4)
	{
		uint64_t	capacity = 2 * build->capacity < threshold(build)
			? 2 * build->capacity : threshold(build);
		uint64_t   *pairs = build->memory.grow(build->memory.context, build->pairs,
											   capacity * 2 * sizeof(uint64_t));

		if (pairs == NULL)
			return out_of_memory(err, capacity * 2 * sizeof(uint64_t));
		build->pairs = pairs;
		build->capacity = capacity;
	}
	if (build->sorted == build->capacity)
	{
		*done = true;
		if (bs_fit_find(build->pairs, build->sorted, h1, h2, &at))
			return BS_OK;
		/* threshold + 1 distinct values: the bits from now on */
		if (switch_to_bits(build, err) != BS_OK)
			return BS_ERR_TOO_LARGE;
		bs_fit_set(build->bits, build->ceiling, build->head.hashes, h1, h2);
	}
	return BS_OK;
}

bs_status
bs_fit_build_add_pair(bs_fit_build *build, uint64_t h1, uint64_t h2, bs_error *err)
{
	uint64_t	at;

	if (build->bits != NULL)
	{
		ring_push(build, h1, h2);
		return BS_OK;
	}
	/*
	 * Repeats go into the tail like new values and vanish when it is
	 * merged, except near the threshold, where the tail is short and a
	 * merge per few repeats would cost O(n) each: there a repeat of a
	 * sorted value is found first.
	 */
	if (build->capacity == threshold(build) &&
		build->capacity - build->sorted < build->capacity / 8 &&
		bs_fit_find(build->pairs, build->sorted, h1, h2, &at))
		return BS_OK;
	if (build->sorted + build->tail == build->capacity)
	{
		bool		done;

		if (make_room(build, h1, h2, &done, err) != BS_OK)
			return BS_ERR_TOO_LARGE;
		if (done)
			return BS_OK;
	}
	build->pairs[2 * (build->sorted + build->tail)] = h1;
	build->pairs[2 * (build->sorted + build->tail) + 1] = h2;
	build->tail++;
	return BS_OK;
}

bs_status
bs_fit_build_add_state(bs_fit_build *build, const bs_bloom *flat, bs_error *err)
{
	const uint64_t *payload = flat->words + BS_FIT_PREFIX_WORDS;

	build->head.items = build->head.items > UINT64_MAX - flat->items ? UINT64_MAX
		: build->head.items + flat->items;
	bs_adopt_combined_family(&build->head.version, &build->head.family,
							 &build->head.type_tag, flat->version, flat->family,
							 flat->type_tag);
	if (bs_fit_state_form(flat) == BS_FIT_FORM_HASHES)
	{
		uint64_t	count = bs_fit_state_count(flat);

		for (uint64_t i = 0; i < count; i++)
		{
			bs_poll_at(i);
			if (bs_fit_build_add_pair(build, payload[2 * i], payload[2 * i + 1], err) != BS_OK)
				return BS_ERR_TOO_LARGE;
		}
		return BS_OK;
	}
	if (build->bits == NULL && switch_to_bits(build, err) != BS_OK)
		return BS_ERR_TOO_LARGE;
	for (uint64_t i = 0; i < build->ceiling / 64;)
		for (uint64_t end = bs_poll_stretch(i, build->ceiling / 64); i < end; i++)
			build->bits[i] |= payload[i];
	return BS_OK;
}

bs_status
bs_fit_build_init(bs_fit_build *build, const bs_bloom *flat, bs_error *err)
{
	const uint64_t *payload = flat->words + BS_FIT_PREFIX_WORDS;
	size_t		bytes;

	memcpy(&build->head, flat, sizeof(bs_bloom));
	build->fpr = bs_fit_state_fpr(flat);
	build->ceiling = bs_fit_state_ceiling(flat);
	if (bs_fit_state_form(flat) == BS_FIT_FORM_BITS)
	{
		if ((build->bits = build->memory.alloc(build->memory.context, build->ceiling / 8)) == NULL)
			return out_of_memory(err, build->ceiling / 8);
		bs_copy_polled(build->bits, payload, build->ceiling / 8);
		return BS_OK;
	}
	build->sorted = bs_fit_state_count(flat);
	build->capacity = 2 * build->sorted > 2 * BS_FIT_FLAT_MAX_HASHES
		? 2 * build->sorted : 2 * BS_FIT_FLAT_MAX_HASHES;
	if (build->capacity > threshold(build))
		build->capacity = threshold(build);
	bytes = build->capacity * 2 * sizeof(uint64_t);
	if ((build->pairs = build->memory.alloc(build->memory.context, bytes)) == NULL)
		return out_of_memory(err, bytes);
	memcpy(build->pairs, payload, build->sorted * 2 * sizeof(uint64_t));
	return BS_OK;
}

bs_status
bs_fit_build_flat_bits(bs_fit_build *build, uint64_t *bits, bs_error *err)
{
	if (bs_fit_build_merge_tail(build, err) != BS_OK)
		return BS_ERR_TOO_LARGE;
	*bits = build->bits != NULL ? bs_fit_bits_state_bits(build->ceiling)
		: bs_fit_hashes_state_bits(build->sorted);
	return BS_OK;
}

void
bs_fit_build_flatten(const bs_fit_build *build, bs_bloom *flat, uint64_t bits)
{
	memcpy(flat, &build->head, sizeof(bs_bloom));
	flat->bits = bits;
	memcpy(&flat->words[0], &build->fpr, sizeof(double));
	flat->words[1] = build->ceiling;
	if (build->bits != NULL)
		bs_copy_polled(flat->words + BS_FIT_PREFIX_WORDS, build->bits, build->ceiling / 8);
	else
		memcpy(flat->words + BS_FIT_PREFIX_WORDS, build->pairs,
			   build->sorted * 2 * sizeof(uint64_t));
}

bs_fit_flat_step
bs_fit_flat_add_step(const bs_bloom *state, uint64_t h1, uint64_t h2, uint64_t *at)
{
	uint64_t	count = bs_fit_state_count(state);

	if (bs_fit_state_form(state) != BS_FIT_FORM_HASHES)
		return BS_FIT_FLAT_BUILD;
	if (bs_fit_find(state->words + BS_FIT_PREFIX_WORDS, count, h1, h2, at))
		return BS_FIT_FLAT_KNOWN;
	if (count < BS_FIT_FLAT_MAX_HASHES && count < bs_fit_threshold(bs_fit_state_ceiling(state)))
		return BS_FIT_FLAT_GROW;
	return BS_FIT_FLAT_BUILD;
}

void
bs_fit_flat_count_item(bs_bloom *state)
{
	if (state->items < UINT64_MAX)
		state->items++;
}

void
bs_fit_flat_insert(const bs_bloom *state, bs_bloom *grown, uint64_t at, uint64_t h1,
				   uint64_t h2)
{
	uint64_t	count = bs_fit_state_count(state);
	const uint64_t *pairs = state->words + BS_FIT_PREFIX_WORDS;

	memcpy(grown->words + BS_FIT_PREFIX_WORDS, pairs, at * 2 * sizeof(uint64_t));
	grown->words[BS_FIT_PREFIX_WORDS + 2 * at] = h1;
	grown->words[BS_FIT_PREFIX_WORDS + 2 * at + 1] = h2;
	memcpy(grown->words + BS_FIT_PREFIX_WORDS + 2 * (at + 1), pairs + 2 * at,
		   (count - at) * 2 * sizeof(uint64_t));
	bs_fit_flat_count_item(grown);
}

bool
bs_fit_flat_combine_fits(const bs_bloom *a, const bs_bloom *b)
{
	uint64_t	count = bs_fit_state_count(a) + bs_fit_state_count(b);

	return bs_fit_state_form(a) == BS_FIT_FORM_HASHES &&
		bs_fit_state_form(b) == BS_FIT_FORM_HASHES &&
		count <= BS_FIT_FLAT_MAX_HASHES && count <= bs_fit_threshold(bs_fit_state_ceiling(a));
}

void
bs_fit_flat_combine_head(bs_bloom *result, const bs_bloom *a, const bs_bloom *b)
{
	result->items = a->items > UINT64_MAX - b->items ? UINT64_MAX : a->items + b->items;
	bs_adopt_combined_family(&result->version, &result->family, &result->type_tag,
							 b->version, b->family, b->type_tag);
}
