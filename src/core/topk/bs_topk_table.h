/*
 * bs_topk_table.h — the working form of a heavy-hitters summary, in which
 * values are counted and summaries merged (bs_topk.h has the algorithm and
 * its guarantees; this is how it runs).
 *
 * The table holds up to 3c slots, c being the summary's counters, found by
 * an open-addressing index over the hash of their keys.  Counting a value
 * adds 1 to its slot or takes a free one; only when all 3c slots are taken
 * is the table reduced, to 2c (bs_topk_table_reduce), so that a
 * reduction's O(c) work is shared by c new values and the stream is
 * summarized with 2c counters, more than the summary keeps.  Merging adds
 * another summary's entries the same way, except that any room it needs is
 * made before the first of them goes in.  Written out
 * (bs_topk_table_write) the table is reduced to c first, so a stored
 * summary never lists more than c values, and its error absorbs that last
 * reduction.  Memory is bounded by the counters (3c slots, as topn's 3k),
 * never by the number of values counted.
 *
 * A slot's text, the value's text form, is either known (copied into the
 * table), the key's own bytes (also for the families that store no text,
 * bs_topk_text.h), or pending: a token of the caller's (the SQL
 * layer keeps the value itself there and calls the type's output function
 * only for the values that survive to be written, not for every value that
 * enters and leaves the table).  Memory comes from the caller's allocator,
 * so that the SQL layer can place a table in a memory context.
 */
#ifndef BS_TOPK_TABLE_H
#define BS_TOPK_TABLE_H

#include <string.h>

#include "topk/bs_topk_slots.h"

/*
 * An empty table of `counters` counters (checked by bs_topk_size or the
 * validator), family none; BS_ERR_TOO_LARGE when the allocator gives NULL.
 */
bs_status	bs_topk_table_init(bs_topk_table *table, uint32_t counters,
							   const bs_topk_allocator *memory, bs_error *err);

/* Free everything the table holds (releasing pending tokens). */
void		bs_topk_table_destroy(bs_topk_table *table);

/*
 * Take a free slot for a key that is not in the table, with count 0, after
 * growing the table or reducing it to c when all slots are taken.  NULL
 * (BS_ERR_TOO_LARGE) when the allocator gives NULL.
 */
bs_topk_slot *bs_topk_table_insert(bs_topk_table *table, const void *key, uint32_t length,
								   uint64_t hash, bs_error *err);

/*
 * Count one occurrence of a key (the caller has checked that total stays
 * within BS_TOPK_MAX_TOTAL).  Returns its slot; *inserted says that the
 * key was new, and the caller must then set the slot's text: text_kind is
 * BS_TOPK_TEXT_PENDING with token 0 until it does.  NULL as
 * bs_topk_table_insert.  A new short key with a free slot takes the place
 * its search ended on, without a call: the common case of every row of a
 * column of distinct integers.
 */
static inline bs_topk_slot *
bs_topk_table_count(bs_topk_table *table, const void *key, uint32_t length, uint64_t hash,
					bool *inserted, bs_error *err)
{
	uint32_t	place = (uint32_t) hash & table->index_mask;
	uint32_t	ref;
	bs_topk_slot *slot;

	while ((ref = table->index[place]) != 0)
	{
		slot = &table->slots[ref - 1];
		if (slot->hash == hash && slot->key_length == length &&
			memcmp(bs_topk_slot_key(slot), key, length) == 0)
		{
			slot->count++;
			slot->lower++;
			table->total++;
			*inserted = false;
			return slot;
		}
		place = (place + 1) & table->index_mask;
	}
	if (table->used < table->allocated && length <= BS_TOPK_INLINE_KEY)
	{
		slot = &table->slots[table->used];
		slot->hash = hash;
		slot->key_length = length;
		slot->key_heap = NULL;
		slot->key_in_arena = 0;
		if (length == 8)
			memcpy(slot->key_inline, key, 8);
		else if (length > 0)
			memcpy(slot->key_inline, key, length);
		table->index[place] = ++table->used;
	}
	else if ((slot = bs_topk_table_insert(table, key, length, hash, err)) == NULL)
		return NULL;
	slot->count = 1;
	slot->lower = 1;
	slot->text_kind = BS_TOPK_TEXT_PENDING;
	slot->label.token = 0;
	slot->text_length = 0;
	table->total++;
	*inserted = true;
	return slot;
}

/*
 * Count `weight` (>= 1) occurrences of a key at once, as bs_topk_table_count
 * (the caller has checked that total + weight stays within
 * BS_TOPK_MAX_TOTAL).  The same as weight single counts in a row: only the
 * first can take a slot (and so reduce the table), the others add 1 to it,
 * so every guarantee of bs_topk.h holds as it does for single counts.
 */
static inline bs_topk_slot *
bs_topk_table_count_many(bs_topk_table *table, const void *key, uint32_t length,
						 uint64_t hash, uint64_t weight, bool *inserted, bs_error *err)
{
	bs_topk_slot *slot = bs_topk_table_count(table, key, length, hash, inserted, err);

	if (slot != NULL && weight > 1)
	{
		slot->count += weight - 1;
		slot->lower += weight - 1;
		table->total += weight - 1;
	}
	return slot;
}

/*
 * Keep the keep slots with the largest lower bounds, or, when that would
 * let the error outgrow N / (c + 1), those Misra and Gries' step must keep
 * and then the largest lower bounds; subtract the largest counter dropped
 * from every counter at least that large and add it to the error (the
 * reasoning is at the function).  Nothing when at most keep slots are
 * used.  keep >= c.
 */
void		bs_topk_table_reduce(bs_topk_table *table, uint32_t keep);

/*
 * Merge a validated summary into the table by Agarwal et al.'s rule: the
 * other's counts, lower bounds, total and error added, the table first
 * reduced (to at least 2c) when the other's values it lacks would not all
 * fit, so that no reduction falls in the middle of a merge (to c only when
 * written).  A value listed on both sides keeps the
 * smaller of its two texts as bytes (a pending one is kept), so that
 * merging a and b gives what merging b and a gives.  BS_ERR_MISMATCH for
 * another number of counters or family; BS_ERR_TOO_LARGE when the total
 * would pass BS_TOPK_MAX_TOTAL (the table is then unchanged) or the
 * allocator gives NULL.
 */
bs_status	bs_topk_table_merge(bs_topk_table *table, const bs_topk *other, bs_error *err);

/*
 * Give a slot its text: stored as the key when equal to its bytes, else
 * copied.  A pending token is released first.  BS_ERR_TOO_LARGE when the
 * allocator gives NULL.
 */
bs_status	bs_topk_table_set_text(bs_topk_table *table, bs_topk_slot *slot,
								   const uint8_t *text, uint32_t length, bs_error *err);

/*
 * The bytes of the value bs_topk_table_write writes, once the table is
 * reduced to c and no text is pending; BS_ERR_TOO_LARGE beyond
 * BS_TOPK_MAX_BYTES.
 */
bs_status	bs_topk_table_flat_bytes(const bs_topk_table *table, uint64_t *bytes,
									 bs_error *err);

/*
 * Write the stored form (sorted by key) into a zeroed value of
 * bs_topk_table_flat_bytes bytes; the length word is the caller's.
 * BS_ERR_TOO_LARGE when the allocator gives NULL.
 */
bs_status	bs_topk_table_write(bs_topk_table *table, bs_topk *out, bs_error *err);

#endif							/* BS_TOPK_TABLE_H */
