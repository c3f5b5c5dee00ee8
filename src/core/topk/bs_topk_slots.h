/*
 * bs_topk_slots.h — the layout of the working form of a heavy-hitters
 * summary (bs_topk_table.h): its slots, where their keys live, the caller's
 * allocator, and the hash that places a key in the index.
 */
#ifndef BS_TOPK_SLOTS_H
#define BS_TOPK_SLOTS_H

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

#endif							/* BS_TOPK_SLOTS_H */
