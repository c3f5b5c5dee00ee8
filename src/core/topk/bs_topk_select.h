/*
 * bs_topk_select.h — the choice a heavy-hitters reduction makes
 * (bs_topk_table.c): the k best of a table's slots, by lower bound or by
 * counter first, ties broken by the other of the two and then by the keys'
 * hashes under a salt drawn from the table's total.
 */
#ifndef BS_TOPK_SELECT_H
#define BS_TOPK_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "topk/bs_topk_slots.h"

/*
 * A slot's rank in one word, larger first, for slots whose first and second
 * rank keys are below 2^16: those keys, then the top half of the salted
 * hash, inverted (the smaller hash ranks first).  Where two words differ,
 * they order their slots as bs_topk_select_best does.
 */
#define BS_TOPK_RANK_WORD(first, second, salted_hash) \
	(((uint64_t) (first) << 48) | ((uint64_t) (second) << 32) | (~(uint64_t) (salted_hash) >> 32))

/* The second rank key of a rank word: the counter, by lower bound. */
static inline uint64_t
bs_topk_rank_word_second(uint64_t word)
{
	return (word >> 32) & 0xffff;
}

/*
 * Reorder s[0..n), slots of the table, so that its first k are the k best:
 * by_lower, the larger lower bound, then the larger counter; otherwise the
 * larger counter, then the larger lower bound; then the smaller salted hash,
 * then the smaller key.  Uses the table's scratch space, two words per slot.
 * k <= n.  true when it leaves the slots' rank words in the first n words of
 * the scratch space, in the slots' new order.
 */
bool		bs_topk_select_best(bs_topk_table *table, bs_topk_slot *s, uint32_t n, uint32_t k,
								bool by_lower);

/*
 * The k-th largest counter of the table's slots (1 <= k <= used), read
 * without moving them.  Uses the table's scratch space.
 */
uint64_t	bs_topk_kth_largest_count(bs_topk_table *table, uint32_t k);

static inline void
bs_topk_swap_slots(bs_topk_slot *a, bs_topk_slot *b)
{
	bs_topk_slot t = *a;

	*a = *b;
	*b = t;
}

#endif							/* BS_TOPK_SELECT_H */
