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
 * another summary's entries the same way.  Written out
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

#include "topk/bs_topk.h"

#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <xxhash.h>

/* Slots a table holds per counter at most, and keeps per counter when it reduces. */
#define BS_TOPK_HELD_PER_COUNTER 3
#define BS_TOPK_KEPT_PER_COUNTER 2

/* Keys up to this many bytes live in the slot itself ... */
#define BS_TOPK_INLINE_KEY 16
/* ... longer ones up to this many in the table's key arena, the rest apart. */
#define BS_TOPK_ARENA_KEY 256

typedef enum bs_topk_text_kind
{
	BS_TOPK_TEXT_PENDING = 0,	/* token: the caller's, turned into text later */
	BS_TOPK_TEXT_KNOWN,			/* text: owned by the table */
	BS_TOPK_TEXT_KEY			/* the key's bytes */
} bs_topk_text_kind;

typedef struct bs_topk_slot
{
	uint64_t	count;
	uint64_t	lower;
	uint64_t	hash;			/* of the key, bs_topk_hash */
	uint8_t    *key_heap;		/* the key, when longer than BS_TOPK_INLINE_KEY:
								 * in the arena or allocated apart */
	union
	{
		uint8_t    *text;		/* BS_TOPK_TEXT_KNOWN */
		uint64_t	token;		/* BS_TOPK_TEXT_PENDING */
	}			label;
	uint32_t	key_length;
	uint32_t	text_length;	/* BS_TOPK_TEXT_KNOWN */
	uint8_t		text_kind;		/* bs_topk_text_kind */
	uint8_t		key_in_arena;	/* key_heap points into the table's arena */
	uint8_t		key_inline[BS_TOPK_INLINE_KEY];
} bs_topk_slot;

/*
 * Where a table's memory comes from.  alloc may fail only by not returning
 * (the SQL layer's palloc) or by returning NULL (malloc), which the table
 * reports as BS_ERR_TOO_LARGE where it can.  release, when not NULL, is
 * called for the token of every pending slot that leaves the table.
 */
typedef struct bs_topk_allocator
{
	void	   *(*alloc) (void *context, size_t size);
	void		(*free) (void *context, void *pointer);
	void		(*release) (void *context, uint64_t token);
	void	   *context;
} bs_topk_allocator;

/*
 * malloc and free, for tables outside PostgreSQL (tests, fuzzers, tools);
 * bs_topk_malloc has no release function.
 */
void	   *bs_topk_malloc_alloc(void *context, size_t size);
void		bs_topk_malloc_free(void *context, void *pointer);
extern const bs_topk_allocator bs_topk_malloc;

typedef struct bs_topk_table
{
	bs_topk_allocator memory;
	uint32_t	counters;		/* c */
	uint32_t	capacity;		/* 3c: the most slots ever held */
	uint32_t	keep;			/* 2c: the slots a full table is reduced to */
	uint32_t	allocated;		/* slots allocated so far (doubling up to capacity) */
	uint32_t	used;
	uint32_t	index_mask;		/* index size - 1 (a power of two >= 2 * allocated) */
	uint32_t   *index;			/* slot number + 1, or 0 for a free place */
	bs_topk_slot *slots;
	uint64_t   *scratch;		/* a word per allocated slot for selection and sorting, or NULL */
	/*
	 * The keys of up to BS_TOPK_ARENA_KEY bytes that do not fit in a slot,
	 * one after the other; rewritten with only the used slots' keys when a
	 * reduction has dropped some, or when it is full (bs_topk_keys.c), so
	 * that a new key costs a copy, not an allocation.
	 */
	uint8_t    *arena;
	uint64_t	arena_used;
	uint64_t	arena_size;
	uint64_t	total;			/* N */
	uint64_t	error;			/* Delta */
	uint8_t		version;
	uint8_t		family;
	uint32_t	type_tag;
} bs_topk_table;

/*
 * The hash that places keys in the index (in memory only: nothing stored
 * depends on it).  An 8-byte key (integers, dates, timestamps, floats) is
 * mixed by one 128-bit multiplication, whose folded halves have well mixed
 * low bits; other keys go through XXH3.
 */
static inline uint64_t
bs_topk_hash(const void *key, size_t length)
{
	if (length == 8)
	{
		uint64_t	k;
		unsigned __int128 p;

		memcpy(&k, key, 8);
		p = (unsigned __int128) (k ^ UINT64_C(0x9E3779B97F4A7C15)) * UINT64_C(0xD1B54A32D192ED03);
		return (uint64_t) p ^ (uint64_t) (p >> 64);
	}
	return XXH3_64bits(key, length);
}

static inline const uint8_t *
bs_topk_slot_key(const bs_topk_slot *slot)
{
	return slot->key_length <= BS_TOPK_INLINE_KEY ? slot->key_inline : slot->key_heap;
}

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
 * Store a slot's key: in the slot, the arena or an allocation of its own.
 * BS_ERR_TOO_LARGE when the allocator gives NULL (bs_topk_keys.c).
 */
bs_status	bs_topk_store_key(bs_topk_table *table, bs_topk_slot *slot, const void *key,
							  uint32_t length, bs_error *err);

/* Free a key stored apart; nothing for the others (bs_topk_keys.c). */
void		bs_topk_release_key(bs_topk_table *table, bs_topk_slot *slot);

/*
 * Rewrite the arena with the keys of the used slots only, with room for
 * `extra` more bytes; nothing changes when the allocator gives NULL
 * (bs_topk_keys.c).
 */
bs_status	bs_topk_compact_keys(bs_topk_table *table, uint64_t extra, bs_error *err);

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
 * other's counts, lower bounds, total and error added, the table reducing
 * itself to 2c whenever it fills up on the way (to c only when written).  A value listed on both sides keeps the
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
