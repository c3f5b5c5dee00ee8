/*
 * bs_topk_table.c — counting, reducing, merging and writing out the working
 * form of a heavy-hitters summary (bs_topk_table.h).
 */
#include "topk/bs_topk_table.h"

#include <inttypes.h>
#include <stdlib.h>

#include "common/bs_combine.h"
#include "topk/bs_topk_keys.h"
#include "topk/bs_topk_memory.h"
#include "topk/bs_topk_select.h"

/* Slots a new table allocates; it doubles from there up to its capacity. */
#define FIRST_SLOTS 8
/* Words of scratch space per slot: a selection's rank words and a copy. */
#define SCRATCH_WORDS 2

void *
bs_topk_malloc_alloc(void *context, size_t size)
{
	(void) context;
	return malloc(size);
}

void
bs_topk_malloc_free(void *context, void *pointer)
{
	(void) context;
	free(pointer);
}

const bs_topk_allocator bs_topk_malloc = {bs_topk_malloc_alloc, bs_topk_malloc_free, NULL, NULL};

/* The smallest power of two >= 2 * slots, and at least 16. */
static uint32_t
index_size_for(uint32_t slots)
{
	uint32_t	size = 16;

	while (size < 2 * (uint64_t) slots)
		size *= 2;
	return size;
}

/*
 * A counter after a reduction's cut: counters at least the cut lose it, the
 * others (a value kept for its lower bound) keep what they have.
 */
static inline uint64_t
counter_after_cut(uint64_t count, uint64_t cut)
{
	return count >= cut ? count - cut : count;
}

/*
 * Place every used slot in a cleared index, first cutting their counters
 * (counter_after_cut; a reduction's last step).  No poll for interrupts:
 * an error part way would leave the error grown and the counters, and the
 * index, only partly rebuilt; the loop is as long as the table.
 */
static void
rebuild_index_cutting(bs_topk_table *table, uint64_t cut)
{
	bs_topk_slot *s = table->slots;
	uint32_t   *index = table->index;
	uint32_t	mask = table->index_mask;

	memset(index, 0, sizeof(uint32_t) * ((size_t) mask + 1));
	for (uint32_t i = 0; i < table->used; i++)
	{
		uint32_t	place = (uint32_t) s[i].hash & mask;

		s[i].count = counter_after_cut(s[i].count, cut);
		while (index[place] != 0)
			place = (place + 1) & mask;
		index[place] = i + 1;
	}
}

static void
rebuild_index(bs_topk_table *table)
{
	rebuild_index_cutting(table, 0);
}

/* Allocate room for `slots` slots and their index, keeping the used ones. */
static bs_status
resize(bs_topk_table *table, uint32_t slots, bs_error *err)
{
	uint32_t	index_size = index_size_for(slots);
	bs_topk_slot *new_slots = bs_topk_alloc(table, sizeof(bs_topk_slot) * (size_t) slots);
	uint32_t   *new_index = new_slots == NULL ? NULL :
		bs_topk_alloc(table, sizeof(uint32_t) * (size_t) index_size);
	uint64_t   *new_scratch = new_index == NULL ? NULL :
		bs_topk_alloc(table, SCRATCH_WORDS * sizeof(uint64_t) * (size_t) slots);

	if (new_scratch == NULL)
	{
		bs_topk_free(table, new_slots);
		bs_topk_free(table, new_index);
		return bs_topk_out_of_memory(err, (sizeof(bs_topk_slot) + SCRATCH_WORDS * sizeof(uint64_t)) *
									 (uint64_t) slots + sizeof(uint32_t) * (uint64_t) index_size);
	}
	if (table->used > 0)
		memcpy(new_slots, table->slots, sizeof(bs_topk_slot) * (size_t) table->used);
	bs_topk_free(table, table->slots);
	bs_topk_free(table, table->index);
	/* scratch space follows the slots, so that a reduction never allocates */
	bs_topk_free(table, table->scratch);
	table->scratch = new_scratch;
	table->slots = new_slots;
	table->index = new_index;
	table->allocated = slots;
	table->index_mask = index_size - 1;
	rebuild_index(table);
	return BS_OK;
}

bs_status
bs_topk_table_init(bs_topk_table *table, uint32_t counters,
				   const bs_topk_allocator *memory, bs_error *err)
{
	memset(table, 0, sizeof(*table));
	table->memory = *memory;
	table->counters = counters;
	table->capacity = BS_TOPK_HELD_PER_COUNTER * counters;
	table->keep = BS_TOPK_KEPT_PER_COUNTER * counters;
	table->version = BS_TOPK_FORMAT_VERSION;
	table->family = BS_FAMILY_NONE;
	return resize(table, table->capacity < FIRST_SLOTS ? table->capacity : FIRST_SLOTS, err);
}

/* Free what a slot holds; its key and text are gone afterwards. */
static inline void
clear_slot(bs_topk_table *table, bs_topk_slot *slot)
{
	if (slot->text_kind == BS_TOPK_TEXT_PENDING)
	{
		if (table->memory.release != NULL)
			table->memory.release(table->memory.context, slot->label.token);
	}
	else if (slot->text_kind == BS_TOPK_TEXT_KNOWN)
		bs_topk_free(table, slot->label.text);
	if (slot->key_length > BS_TOPK_INLINE_KEY)
		bs_topk_release_key(table, slot);
}

void
bs_topk_table_destroy(bs_topk_table *table)
{
	for (uint32_t i = 0; i < table->used; i++)
		clear_slot(table, &table->slots[i]);
	bs_topk_free(table, table->slots);
	bs_topk_free(table, table->index);
	bs_topk_free(table, table->scratch);
	bs_topk_free(table, table->arena);
	table->slots = NULL;
	table->index = NULL;
	table->scratch = NULL;
	table->arena = NULL;
	table->used = 0;
}

/* SCRATCH_WORDS words of scratch space per allocated slot (allocated with the slots). */
static uint64_t *
scratch(bs_topk_table *table)
{
	return table->scratch;
}

/* The largest counter among the slots s[from..to), 0 when none. */
static uint64_t
largest_count(const bs_topk_slot *s, uint32_t from, uint32_t to)
{
	uint64_t	largest = 0;

	for (uint32_t i = from; i < to; i++)
	{
		bs_poll_at(i);
		largest = s[i].count > largest ? s[i].count : largest;
	}
	return largest;
}

/*
 * Whether counters that sum to sum once cut keep sum of counters +
 * (c + 1) * error <= N with the error grown by cut.  Checked as error + cut
 * <= (N - sum) / (c + 1) so that nothing overflows.
 */
static bool
budget_allows(const bs_topk_table *table, uint64_t sum, uint64_t cut)
{
	uint64_t	room;

	if (sum > table->total)
		return false;
	room = (table->total - sum) / ((uint64_t) table->counters + 1);
	return table->error <= room && cut <= room - table->error;
}

/*
 * Whether keeping the first keep slots, cutting their counters by cut (those
 * at least cut), keeps the invariant (budget_allows).
 */
static bool
cut_within_budget(const bs_topk_table *table, uint32_t keep, uint64_t cut)
{
	const bs_topk_slot *s = table->slots;
	uint64_t	sum = 0;

	for (uint32_t i = 0; i < keep; i++)
		sum += counter_after_cut(s[i].count, cut);
	return budget_allows(table, sum, cut);
}

/*
 * cut_within_budget when bs_topk_select_best by lower bound has left the
 * slots' rank words in the scratch space: the counters are read there, from
 * words packed one after the other, not from the slots.  *cut is the
 * largest counter dropped.
 */
static bool
packed_cut_within_budget(const bs_topk_table *table, uint32_t keep, uint64_t *cut)
{
	const uint64_t *words = table->scratch;
	uint64_t	largest = 0;
	uint64_t	sum = 0;

	for (uint32_t i = keep; i < table->used; i++)
	{
		uint64_t	count = bs_topk_rank_word_second(words[i]);

		largest = count > largest ? count : largest;
	}
	for (uint32_t i = 0; i < keep; i++)
		sum += counter_after_cut(bs_topk_rank_word_second(words[i]), largest);
	*cut = largest;
	return budget_allows(table, sum, largest);
}

/*
 * Reorder the slots so that those whose counters exceed limit come first,
 * followed by the others that rank best by lower bound, keep in all; returns
 * the largest counter of the slots past keep.  At most keep counters may
 * exceed limit.
 */
static uint64_t
arrange_keeping_above(bs_topk_table *table, uint32_t keep, uint64_t limit)
{
	bs_topk_slot *s = table->slots;
	uint32_t	above = 0;

	for (uint32_t i = 0; i < table->used; i++)
		if (s[i].count > limit)
			bs_topk_swap_slots(&s[above++], &s[i]);
	bs_topk_select_best(table, s + above, table->used - above, keep - above, true);
	return largest_count(s, keep, table->used);
}

/*
 * Reorder the slots so that the first keep rank as close to the best by
 * lower bound as the invariant allows, returning the cut: the values whose
 * counters exceed some limit stay, then the best by lower bound.  With
 * Misra and Gries' own limit, the (c + 1)-th largest counter, the
 * invariant always holds (at most c counters exceed it, and at least c + 1
 * are at least the cut); with no limit at all it did not.  Between the two,
 * a bisection finds a limit as high as the invariant allows, so that as few
 * values as possible are kept for their counters alone.  keep >= c.
 */
static uint64_t
arrange_within_budget(bs_topk_table *table, uint32_t keep)
{
	uint64_t	low;
	uint64_t	high;
	uint64_t	cut = 0;
	bool		arranged = false;	/* the slots lie as arrange_keeping_above(low) leaves them */

	low = bs_topk_kth_largest_count(table, table->counters + 1);
	high = largest_count(table->slots, 0, table->used);
	while (high - low > 1)
	{
		uint64_t	middle = low + (high - low) / 2;
		uint64_t	middle_cut = arrange_keeping_above(table, keep, middle);

		arranged = cut_within_budget(table, keep, middle_cut);
		if (arranged)
		{
			low = middle;
			cut = middle_cut;
		}
		else
			high = middle;
	}
	return arranged ? cut : arrange_keeping_above(table, keep, low);
}

/*
 * Whether keeping the best by lower bound can keep the invariant, judged in
 * one pass without choosing: the counters kept sum to 0 at least, and when
 * more than keep counters are positive one of them is dropped, so that C is
 * 1 at least.  Where every reduction needs the fallback (a column of
 * distinct values, whose error grows by about N / c), this spares the
 * attempt.
 */
static bool
lower_choice_may_fit(const bs_topk_table *table, uint32_t keep)
{
	uint32_t	positive = 0;
	uint64_t	room = table->total / ((uint64_t) table->counters + 1);

	if (table->error != room)
		return table->error < room;
	for (uint32_t i = 0; i < table->used; i++)
		positive += table->slots[i].count > 0;
	return positive <= keep;
}

/*
 * Reduce to keep slots (keep >= c).  A generalization of Misra and Gries'
 * step that Agarwal et al.'s proof (section 3.1) covers: subtract some C
 * from every counter that is at least C, drop slots whose counters are at
 * most C, and add C to the error.  A dropped value x then has f(x) <=
 * counter + old error <= new error, and a kept one keeps f(x) <= counter +
 * error, whatever C is.  What bounds the error is the invariant
 * sum of counters + (c + 1) * error <= N, which counting and merging keep
 * (both sides grow by as much) and which gives error <= N / (c + 1).
 *
 * So which slots stay is free as long as that invariant holds afterwards.
 * The slots with the largest lower bounds (the occurrences surely counted)
 * stay, as postgresql-topn keeps the largest counts since entry, with C
 * the largest counter dropped: at most the smallest lower bound kept, since
 * a counter never exceeds its lower bound.  Unlike Misra and Gries'
 * counters, lower bounds do not depend on how many reductions a value has
 * been through, so a fold of many summaries into one ranks the values of
 * the first parts as fairly as those of the last.  When that choice would
 * break the invariant, the values with the largest counters stay first, as
 * few of them as the invariant allows (at most those Misra and Gries' own
 * step keeps, for which it always holds), and then the rest by lower bound.
 */
void
bs_topk_table_reduce(bs_topk_table *table, uint32_t keep)
{
	bs_topk_slot *s = table->slots;
	uint64_t	cut = 0;
	bool		by_lower;

	if (table->used <= keep)
		return;
	by_lower = lower_choice_may_fit(table, keep);
	if (by_lower && bs_topk_select_best(table, s, table->used, keep, true))
		by_lower = packed_cut_within_budget(table, keep, &cut);
	else if (by_lower)
	{
		cut = largest_count(s, keep, table->used);
		by_lower = cut_within_budget(table, keep, cut);
	}
	if (!by_lower)
		cut = arrange_within_budget(table, keep);
	for (uint32_t i = keep; i < table->used; i++)
	{
		bs_poll_at(i);
		clear_slot(table, &s[i]);
	}
	table->used = keep;
	table->error += cut;
	rebuild_index_cutting(table, cut);
	/* the dropped keys' room in the arena; kept as it is if that fails */
	if (table->arena_used > 0)
		(void) bs_topk_compact_keys(table, 0, NULL);
}

bs_topk_slot *
bs_topk_table_insert(bs_topk_table *table, const void *key, uint32_t length, uint64_t hash,
					 bs_error *err)
{
	bs_topk_slot *slot;
	uint32_t	place;

	while (table->used == table->allocated)
	{
		if (table->allocated < table->capacity)
		{
			uint64_t	doubled = 2 * (uint64_t) table->allocated;

			if (resize(table, doubled < table->capacity ? (uint32_t) doubled : table->capacity,
					   err) != BS_OK)
				return NULL;
		}
		else
			bs_topk_table_reduce(table, table->keep);
	}
	slot = &table->slots[table->used];
	memset(slot, 0, sizeof(*slot));
	if (bs_topk_store_key(table, slot, key, length, err) != BS_OK)
		return NULL;
	slot->hash = hash;
	slot->text_kind = BS_TOPK_TEXT_PENDING;
	place = (uint32_t) hash & table->index_mask;
	while (table->index[place] != 0)
		place = (place + 1) & table->index_mask;
	table->index[place] = ++table->used;
	return slot;
}

/* The slot of a key, or NULL. */
static bs_topk_slot *
find(const bs_topk_table *table, const uint8_t *key, uint32_t length, uint64_t hash)
{
	uint32_t	place = (uint32_t) hash & table->index_mask;
	uint32_t	ref;

	while ((ref = table->index[place]) != 0)
	{
		bs_topk_slot *slot = &table->slots[ref - 1];

		if (slot->hash == hash && slot->key_length == length &&
			memcmp(bs_topk_slot_key(slot), key, length) == 0)
			return slot;
		place = (place + 1) & table->index_mask;
	}
	return NULL;
}

/* A slot's text as bytes (its key's when so stored), for comparing texts. */
static const uint8_t *
slot_text(const bs_topk_slot *slot, uint32_t *length)
{
	if (slot->text_kind == BS_TOPK_TEXT_KEY)
	{
		*length = slot->key_length;
		return bs_topk_slot_key(slot);
	}
	*length = slot->text_length;
	return slot->label.text;
}

bs_status
bs_topk_table_set_text(bs_topk_table *table, bs_topk_slot *slot, const uint8_t *text,
					   uint32_t length, bs_error *err)
{
	uint8_t    *copy = NULL;

	if (length != slot->key_length || memcmp(text, bs_topk_slot_key(slot), length) != 0)
	{
		/* one byte more, so that an empty text still has an address */
		if ((copy = bs_topk_alloc(table, (size_t) length + 1)) == NULL)
			return bs_topk_out_of_memory(err, (uint64_t) length + 1);
		memcpy(copy, text, length);
	}
	if (slot->text_kind == BS_TOPK_TEXT_PENDING)
	{
		if (table->memory.release != NULL)
			table->memory.release(table->memory.context, slot->label.token);
	}
	else if (slot->text_kind == BS_TOPK_TEXT_KNOWN)
		bs_topk_free(table, slot->label.text);
	slot->text_kind = copy == NULL ? BS_TOPK_TEXT_KEY : BS_TOPK_TEXT_KNOWN;
	slot->label.text = copy;
	slot->text_length = copy == NULL ? 0 : length;
	return BS_OK;
}

/* Add one entry of a merged summary. */
static bs_status
merge_entry(bs_topk_table *table, const bs_topk_entry *entry, bs_error *err)
{
	uint64_t	hash = bs_topk_hash(entry->key, entry->key_length);
	bs_topk_slot *slot = find(table, entry->key, entry->key_length, hash);
	const uint8_t *text;
	uint32_t	text_length;

	if (slot == NULL)
	{
		if ((slot = bs_topk_table_insert(table, entry->key, entry->key_length, hash, err)) == NULL)
			return BS_ERR_TOO_LARGE;
		slot->count = entry->count;
		slot->lower = entry->lower;
		return bs_topk_table_set_text(table, slot, entry->text, entry->text_length, err);
	}
	slot->count += entry->count;
	slot->lower += entry->lower;
	if (slot->text_kind == BS_TOPK_TEXT_PENDING)
		return BS_OK;
	text = slot_text(slot, &text_length);
	if (bs_topk_key_compare(entry->text, entry->text_length, text, text_length) < 0)
		return bs_topk_table_set_text(table, slot, entry->text, entry->text_length, err);
	return BS_OK;
}

/*
 * Whether more than room of a validated summary's values are not in the
 * table; the scan stops at the first value past room, so that a merge that
 * needs room anyway (a fold of summaries of values of their own) pays for
 * few lookups.
 */
static bool
lacks_room_for(const bs_topk_table *table, const bs_topk *other, uint32_t room)
{
	uint64_t	offset = 0;
	uint32_t	missing = 0;

	for (uint32_t i = 0; i < other->entries; i++)
	{
		bs_topk_entry entry;

		bs_poll_at(i);
		bs_topk_read_entry(other, &offset, &entry);
		missing += find(table, entry.key, entry.key_length,
						bs_topk_hash(entry.key, entry.key_length)) == NULL;
		if (missing > room)
			return true;
	}
	return false;
}

bs_status
bs_topk_table_merge(bs_topk_table *table, const bs_topk *other, bs_error *err)
{
	uint64_t	offset = 0;
	bs_status	status;

	if ((status = bs_topk_check_compatible(table->counters, table->version, table->family,
										   table->type_tag, other, err)) != BS_OK)
		return status;
	if (other->total > BS_TOPK_MAX_TOTAL - table->total)
		return bs_hint(err, bs_fail(err, BS_ERR_TOO_LARGE, "topksketch total is out of range",
									"The merged summary would count more values than the largest bigint."),
					   "Merge fewer summaries into one.");
	bs_adopt_combined_family(&table->version, &table->family, &table->type_tag,
							 other->version, other->family, other->type_tag);
	/*
	 * Room for the other's values that the table lacks, before any is added:
	 * a reduction in the middle of the merge would weigh its cut against a
	 * total that already holds the other's whole stream but only part of its
	 * counters, spend room that the rest of them need, and so break
	 * sum of counters + (c + 1) * error <= N once they are added.  Reducing
	 * to 3c minus the other's entries (at most c) leaves room for all of them
	 * whatever the reduction drops.
	 */
	if (table->used + other->entries > table->capacity &&
		lacks_room_for(table, other, table->capacity - table->used))
		bs_topk_table_reduce(table, table->capacity - other->entries);
	/*
	 * Agarwal et al., section 3.1: the counters of both sides are added, and
	 * the errors; the table is reduced (to its working size) only between
	 * merges as above, and to c only when it is written out, so that a fold
	 * of many summaries into one state reduces as rarely as a tree of
	 * pairwise merges does.
	 */
	table->total += other->total;
	table->error += other->error;
	for (uint32_t i = 0; i < other->entries; i++)
	{
		bs_topk_entry entry;

		bs_poll_at(i);
		bs_topk_read_entry(other, &offset, &entry);
		if ((status = merge_entry(table, &entry, err)) != BS_OK)
			return status;
	}
	return BS_OK;
}

bs_status
bs_topk_table_flat_bytes(const bs_topk_table *table, uint64_t *bytes, bs_error *err)
{
	uint64_t	payload = 0;

	for (uint32_t i = 0; i < table->used; i++)
	{
		const bs_topk_slot *slot = &table->slots[i];

		payload += bs_topk_entry_bytes(table->family, slot->count, slot->lower, slot->key_length,
									   slot->text_length, slot->text_kind != BS_TOPK_TEXT_KNOWN);
	}
	if (payload > BS_TOPK_MAX_BYTES - sizeof(bs_topk))
		return bs_hint(err, bs_fail(err, BS_ERR_TOO_LARGE, "topksketch is too large",
									"Its %u values and their texts take %" PRIu64 " bytes; a summary takes at most %" PRIu64 ".",
									table->used, payload, BS_TOPK_MAX_BYTES),
					   "Use fewer counters, or count shorter values.");
	*bytes = bs_topk_value_bytes(payload);
	return BS_OK;
}

/* qsort order of slot pointers: by key. */
static int
compare_slot_keys(const void *a, const void *b)
{
	const bs_topk_slot *x = *(const bs_topk_slot *const *) a;
	const bs_topk_slot *y = *(const bs_topk_slot *const *) b;

	return bs_topk_key_compare(bs_topk_slot_key(x), x->key_length, bs_topk_slot_key(y),
							   y->key_length);
}

/* Merge the sorted runs from[lo, mid) and from[mid, hi) into to[lo, hi). */
static void
merge_runs(const bs_topk_slot **from, const bs_topk_slot **to, size_t lo, size_t mid,
		   size_t hi)
{
	size_t		i = lo;
	size_t		j = mid;

	for (size_t k = lo; k < hi; k++)
	{
		bs_poll_at(k);
		if (j >= hi || (i < mid && compare_slot_keys(&from[i], &from[j]) < 0))
			to[k] = from[i++];
		else
			to[k] = from[j++];
	}
}

/*
 * Sort slot pointers by key, polling for interrupts: qsort cannot poll (a
 * poll that longjmps out of it would leak the buffer glibc's qsort may
 * malloc), so it sorts runs of BS_POLL_STRIDE pointers, and merge passes
 * that poll per stride join them.  Keys are distinct, so the order is the
 * one a single qsort gives.
 */
static bs_status
sort_by_key(bs_topk_table *table, const bs_topk_slot **order, size_t count, bs_error *err)
{
	const bs_topk_slot **from = order;
	const bs_topk_slot **to;
	const bs_topk_slot **spare;

	for (size_t lo = 0; lo < count; lo += BS_POLL_STRIDE)
	{
		bs_poll_interrupts();
		qsort(order + lo, count - lo < BS_POLL_STRIDE ? count - lo : BS_POLL_STRIDE,
			  sizeof(order[0]), compare_slot_keys);
	}
	if (count <= BS_POLL_STRIDE)
		return BS_OK;
	spare = bs_topk_alloc(table, sizeof(order[0]) * count);
	if (spare == NULL)
		return bs_topk_out_of_memory(err, sizeof(order[0]) * (uint64_t) count);
	to = spare;
	for (size_t width = BS_POLL_STRIDE; width < count; width *= 2)
	{
		const bs_topk_slot **done = to;

		for (size_t lo = 0; lo < count; lo += 2 * width)
			merge_runs(from, to, lo, count - lo < width ? count : lo + width,
					   count - lo < 2 * width ? count : lo + 2 * width);
		to = from;
		from = done;
	}
	if (from != order)
		bs_copy_polled(order, from, sizeof(order[0]) * count);
	bs_topk_free(table, spare);
	return BS_OK;
}

bs_status
bs_topk_table_write(bs_topk_table *table, bs_topk *out, bs_error *err)
{
	const bs_topk_slot **order = (const bs_topk_slot **) scratch(table);
	uint64_t	offset = 0;
	bs_status	status;

	_Static_assert(sizeof(bs_topk_slot *) <= sizeof(uint64_t), "scratch holds slot pointers");
	if (order == NULL)
		return bs_topk_out_of_memory(err, sizeof(uint64_t) * (uint64_t) table->allocated);
	for (uint32_t i = 0; i < table->used; i++)
		order[i] = &table->slots[i];
	status = sort_by_key(table, order, table->used, err);
	if (status != BS_OK)
		return status;
	out->version = table->version;
	out->family = table->family;
	out->type_tag = table->type_tag;
	out->counters = table->counters;
	out->entries = table->used;
	out->total = table->total;
	out->error = table->error;
	for (uint32_t i = 0; i < table->used; i++)
	{
		const bs_topk_slot *slot = order[i];
		bool		text_is_key = slot->text_kind != BS_TOPK_TEXT_KNOWN;

		bs_poll_at(i);
		offset += bs_topk_write_entry(out->payload + offset, table->family, slot->count,
									  slot->lower, bs_topk_slot_key(slot), slot->key_length,
									  slot->label.text, slot->text_length, text_is_key);
	}
	out->payload_bytes = offset;
	return BS_OK;
}
