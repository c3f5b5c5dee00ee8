/*
 * bs_topk_keys.c — where the heavy-hitters table keeps its keys
 * (bs_topk_keys.h): in the slot up to BS_TOPK_INLINE_KEY bytes, in the
 * table's arena up to BS_TOPK_ARENA_KEY, in an allocation of their own
 * beyond.  A column of distinct strings makes every row a new key and every
 * c rows a reduction that drops most of them, so the arena takes a new key
 * with a copy and forgets the dropped ones all at once, when a reduction
 * rewrites it with the keys still used.
 */
#include "topk/bs_topk_keys.h"
#include "topk/bs_topk_memory.h"

/* The arena's first size. */
#define FIRST_ARENA_BYTES 4096

bs_status
bs_topk_compact_keys(bs_topk_table *table, uint64_t extra, bs_error *err)
{
	uint64_t	live = 0;
	uint64_t	size = FIRST_ARENA_BYTES;
	uint64_t	used = 0;
	uint8_t    *arena;

	for (uint32_t i = 0; i < table->used; i++)
		if (table->slots[i].key_in_arena)
			live += table->slots[i].key_length;
	while (size < 2 * (live + extra))
		size *= 2;
	if ((arena = bs_topk_alloc(table, (size_t) size)) == NULL)
		return bs_topk_out_of_memory(err, size);
	for (uint32_t i = 0; i < table->used; i++)
	{
		bs_topk_slot *slot = &table->slots[i];

		if (!slot->key_in_arena)
			continue;
		memcpy(arena + used, slot->key_heap, slot->key_length);
		slot->key_heap = arena + used;
		used += slot->key_length;
	}
	bs_topk_free(table, table->arena);
	table->arena = arena;
	table->arena_used = used;
	table->arena_size = size;
	return BS_OK;
}

bs_status
bs_topk_store_key(bs_topk_table *table, bs_topk_slot *slot, const void *key,
				  uint32_t length, bs_error *err)
{
	bs_status	status;

	slot->key_length = length;
	slot->key_in_arena = 0;
	slot->key_heap = NULL;
	if (length <= BS_TOPK_INLINE_KEY)
	{
		if (length > 0)
			memcpy(slot->key_inline, key, length);
		return BS_OK;
	}
	if (length > BS_TOPK_ARENA_KEY)
	{
		if ((slot->key_heap = bs_topk_alloc(table, length)) == NULL)
			return bs_topk_out_of_memory(err, length);
		memcpy(slot->key_heap, key, length);
		return BS_OK;
	}
	if (table->arena_used + length > table->arena_size &&
		(status = bs_topk_compact_keys(table, length, err)) != BS_OK)
		return status;
	slot->key_heap = table->arena + table->arena_used;
	slot->key_in_arena = 1;
	memcpy(slot->key_heap, key, length);
	table->arena_used += length;
	return BS_OK;
}

void
bs_topk_release_key(bs_topk_table *table, bs_topk_slot *slot)
{
	if (slot->key_length > BS_TOPK_ARENA_KEY)
		bs_topk_free(table, slot->key_heap);
	slot->key_heap = NULL;
}
