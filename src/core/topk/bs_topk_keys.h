/*
 * bs_topk_keys.h — where the heavy-hitters table keeps its keys
 * (bs_topk_keys.c): in the slot, in the arena, or in an allocation of
 * their own.
 */
#ifndef BS_TOPK_KEYS_H
#define BS_TOPK_KEYS_H

#include "topk/bs_topk_slots.h"

/*
 * Store a slot's key: in the slot, the arena or an allocation of its own.
 * BS_ERR_TOO_LARGE when the allocator gives NULL.
 */
bs_status	bs_topk_store_key(bs_topk_table *table, bs_topk_slot *slot, const void *key,
							  uint32_t length, bs_error *err);

/* Free a key stored apart; nothing for the others. */
void		bs_topk_release_key(bs_topk_table *table, bs_topk_slot *slot);

/*
 * Rewrite the arena with the keys of the used slots only, with room for
 * `extra` more bytes; nothing changes when the allocator gives NULL
 *.
 */
bs_status	bs_topk_compact_keys(bs_topk_table *table, uint64_t extra, bs_error *err);

#endif							/* BS_TOPK_KEYS_H */
