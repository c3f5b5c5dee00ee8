/*
 * bs_topk_select.c — which slots a heavy-hitters reduction keeps: the k best
 * of a table's slots by lower bound or by counter, ties broken by a salted
 * hash (bs_topk_select.h).
 */
#include "topk/bs_topk_select.h"

#include <string.h>

#include "common/bs_error.h"			/* bs_poll_at */
#include "common/bs_hash.h"			/* bs_block_remix */

/*
 * The order of two slots' keys, for ties: by hash, under a salt, then by key.
 * The salt (a reduction's, from the table's total) reorders the hashes from
 * one reduction to the next, so that among values tied on their counts the
 * ones that stay are not the same few wherever a stream is split: partial
 * summaries that all kept the values of the smallest hashes would merge into
 * a summary of those values, not of the most frequent.
 */
static inline bool
key_before(const bs_topk_slot *a, const bs_topk_slot *b, uint64_t salt)
{
	if (a->hash != b->hash)
		return (a->hash ^ salt) < (b->hash ^ salt);
	return bs_topk_key_compare(bs_topk_slot_key(a), a->key_length, bs_topk_slot_key(b),
							   b->key_length) < 0;
}

/*
 * The two orders a reduction keeps slots in, best first.  Both are total
 * and do not depend on where the slots lie, so a + b gives the bytes of
 * b + a.  by_lower: the larger lower bound (the occurrences surely
 * counted), then the larger counter; otherwise Misra–Gries': the larger
 * counter, then the larger lower bound.
 */
static inline bool
ranks_before(const bs_topk_slot *a, const bs_topk_slot *b, bool by_lower, uint64_t salt)
{
	uint64_t	a1 = by_lower ? a->lower : a->count;
	uint64_t	b1 = by_lower ? b->lower : b->count;
	uint64_t	a2 = by_lower ? a->count : a->lower;
	uint64_t	b2 = by_lower ? b->count : b->lower;

	if (a1 != b1)
		return a1 > b1;
	if (a2 != b2)
		return a2 > b2;
	return key_before(a, b, salt);
}


/* The salt of the table's next reduction: its total, mixed. */
static inline uint64_t
table_salt(const bs_topk_table *table)
{
	return bs_block_remix(table->total);
}

/*
 * Reorder order[0..n), positions of slots in s, so that its first k are
 * those of the k best slots by ranks_before: a quickselect with a
 * median-of-three pivot, moving 4-byte positions instead of slots.  Keys are
 * distinct, so no two slots tie.  k <= n.
 */
static void
select_positions(const bs_topk_slot *s, uint32_t *order, uint32_t n, uint32_t k, bool by_lower,
				 uint64_t salt)
{
	uint32_t	low = 0;
	uint32_t	high = n;		/* [low, high) holds position k */

#define BEFORE(x, y) ranks_before(&s[order[x]], &s[order[y]], by_lower, salt)
#define SWAP(x, y) do { uint32_t t_ = order[x]; order[x] = order[y]; order[y] = t_; } while (0)
	while (high - low > 1)
	{
		uint32_t	mid = low + (high - low) / 2;
		uint32_t	last = high - 1;
		uint32_t	store = low;

		/* the median of order[low], order[mid], order[last] to order[last], as the pivot */
		if (BEFORE(mid, low))
			SWAP(mid, low);
		if (BEFORE(last, low))
			SWAP(last, low);
		if (BEFORE(mid, last))
			SWAP(mid, last);
		for (uint32_t j = low; j < last; j++)
		{
			bs_poll_at(j);
			if (BEFORE(j, last))
			{
				SWAP(store, j);
				store++;
			}
		}
		SWAP(store, last);
		if (k == store)
			break;
		if (k < store)
			high = store;
		else
			low = store + 1;
	}
#undef BEFORE
#undef SWAP
}

/*
 * Reorder s[0..n), slots of the table, so that its first k are the k best
 * by ranks_before under the table's salt, for any keys.  The selection runs on positions
 * in the scratch space; then each chosen slot beyond k trades places with an
 * unchosen one before it, so that a slot moves at most once.  k <= n.
 */
static void
select_by_position(bs_topk_table *table, bs_topk_slot *s, uint32_t n, uint32_t k, bool by_lower)
{
	uint32_t   *order = (uint32_t *) table->scratch;
	uint8_t    *chosen = (uint8_t *) (order + n);	/* 4n + n bytes of the 8n */
	uint32_t	j = k;

	for (uint32_t i = 0; i < n; i++)
	{
		order[i] = i;
		chosen[i] = 0;
	}
	select_positions(s, order, n, k, by_lower, table_salt(table));
	for (uint32_t i = 0; i < k; i++)
		chosen[order[i]] = 1;
	for (uint32_t i = 0; i < k; i++)
	{
		if (chosen[i])
			continue;
		while (!chosen[j])
			j++;
		bs_topk_swap_slots(&s[i], &s[j++]);
	}
}

/* The smallest and largest of w[0..n) (n >= 1). */
static void
range_of(const uint64_t *w, uint32_t n, uint64_t *low, uint64_t *high)
{
	uint64_t	lo = w[0];
	uint64_t	hi = w[0];

	for (uint32_t i = 1; i < n; i++)
	{
		bs_poll_at(i);
		lo = w[i] < lo ? w[i] : lo;
		hi = w[i] > hi ? w[i] : hi;
	}
	*low = lo;
	*high = hi;
}

/*
 * The k-th largest of w[0..n) (1 <= k <= n), whose values lie from low to
 * high, overwriting w; *equal is how many of them equal it.  A radix
 * selection over eight bits at a time, from the highest bit in which the
 * values differ: each round counts the values per digit and keeps only
 * those of the digit that holds the k-th.  So a round takes two passes
 * without a branch that depends on the data, where a quickselect
 * mispredicts one comparison in two, and values that differ in their top
 * bits (a reduction's rank words, whose salted hashes spread them) mostly
 * take one round, whose digit holds a value or two.
 */
static uint64_t
kth_largest_in(uint64_t *w, uint32_t n, uint32_t k, uint64_t low, uint64_t high,
			   uint32_t *equal)
{
	uint32_t	buckets[256];

	while (low != high)
	{
		uint32_t	top = (uint32_t) (63 - __builtin_clzll(low ^ high));
		uint32_t	shift = top < 7 ? 0 : top - 7;
		uint32_t	digit = 256;
		uint32_t	above = 0;
		uint32_t	kept = 0;

		memset(buckets, 0, sizeof(buckets));
		for (uint32_t i = 0; i < n; i++)
		{
			bs_poll_at(i);
			buckets[(w[i] >> shift) & 255]++;
		}
		do
			above += buckets[--digit];
		while (above < k);
		above -= buckets[digit];
		for (uint32_t i = 0; i < n; i++)
		{
			bs_poll_at(i);
			w[kept] = w[i];
			kept += ((w[i] >> shift) & 255) == digit;
		}
		n = kept;
		k -= above;
		range_of(w, n, &low, &high);
	}
	*equal = n;
	return low;
}

/* The k-th largest of w[0..n) (1 <= k <= n), overwriting w. */
static uint64_t
kth_largest(uint64_t *w, uint32_t n, uint32_t k)
{
	uint64_t	low;
	uint64_t	high;
	uint32_t	equal;

	range_of(w, n, &low, &high);
	return kth_largest_in(w, n, k, low, high, &equal);
}

uint64_t
bs_topk_kth_largest_count(bs_topk_table *table, uint32_t k)
{
	for (uint32_t i = 0; i < table->used; i++)
		table->scratch[i] = table->slots[i].count;
	return kth_largest(table->scratch, table->used, k);
}

/* A slot's rank keys: the first and second (larger first) and the salted hash (smaller first). */
#define RANK_FIRST(slot) (by_lower ? (slot)->lower : (slot)->count)
#define RANK_SECOND(slot) (by_lower ? (slot)->count : (slot)->lower)

/*
 * bs_topk_select_best in one selection, when both keys of every slot fit in
 * 16 bits (lower bounds and counters of a column of distinct values, or of
 * a table that has not counted 2^16 of one value) and the k-th best rank
 * word (bs_topk_select.h) is no other slot's: then the words above it are
 * the k - 1 best slots, by ranks_before too.  The words are written to the
 * first n words of the scratch space, and reordered with the slots; the
 * selection works on a copy in the next n.  false, with the slots unmoved,
 * otherwise.
 */
static bool
select_packed(bs_topk_table *table, bs_topk_slot *s, uint32_t n, uint32_t k, bool by_lower,
			  uint64_t salt)
{
	uint64_t   *words = table->scratch;
	uint64_t   *w = table->scratch + n;
	uint64_t	wide = 0;
	uint64_t	low = UINT64_MAX;
	uint64_t	high = 0;
	uint64_t	threshold;
	uint32_t	equal;
	uint32_t   *out;
	uint32_t   *in;
	uint32_t	unchosen = 0;
	uint32_t	chosen = 0;

	for (uint32_t i = 0; i < n; i++)
	{
		uint64_t	x = BS_TOPK_RANK_WORD(RANK_FIRST(&s[i]), RANK_SECOND(&s[i]), s[i].hash ^ salt);

		bs_poll_at(i);
		wide |= RANK_FIRST(&s[i]) | RANK_SECOND(&s[i]);
		words[i] = x;
		w[i] = x;
		low = x < low ? x : low;
		high = x > high ? x : high;
	}
	if (wide >> 16 != 0)
		return false;
	threshold = kth_largest_in(w, n, k, low, high, &equal);
	if (equal > 1)
		return false;
	/*
	 * The unchosen among the first k and the chosen past them, listed
	 * without a branch (the copy's room is free again), then paired off.
	 */
	out = (uint32_t *) w;
	for (uint32_t i = 0; i < k; i++)
	{
		out[unchosen] = i;
		unchosen += words[i] < threshold;
	}
	in = out + unchosen;
	for (uint32_t i = k; i < n; i++)
	{
		in[chosen] = i;
		chosen += words[i] >= threshold;
	}
	for (uint32_t i = 0; i < unchosen; i++)
	{
		uint64_t	t = words[out[i]];

		bs_poll_at(i);
		bs_topk_swap_slots(&s[out[i]], &s[in[i]]);
		words[out[i]] = words[in[i]];
		words[in[i]] = t;
	}
	return true;
}

/*
 * Reorder s[0..n), slots of the table, so that its first k are the k best
 * by ranks_before under the table's salt: in one selection when
 * select_packed can, else as follows.  The threshold of each rank key
 * is found in turn by a selection over that key alone, copied into the
 * table's scratch space (the second among the slots tied on the first, the
 * salted hash among those tied on both), which is what makes a reduction
 * cheap; then each chosen slot beyond k trades places with an unchosen one
 * before it.  Two keys with one hash, where the order of their bytes would
 * decide, go to the slower selection over positions.  k <= n.
 */
bool
bs_topk_select_best(bs_topk_table *table, bs_topk_slot *s, uint32_t n, uint32_t k, bool by_lower)
{
	uint64_t   *w = table->scratch;
	uint64_t	salt = table_salt(table);
	uint64_t	first;
	uint64_t	second;
	uint64_t	hashed;
	uint32_t	m = 0;
	uint32_t	need = k;
	uint32_t	ties = 0;
	uint32_t	j = k;

	if (k == 0 || k == n)
		return false;
	if (select_packed(table, s, n, k, by_lower, salt))
		return true;
	for (uint32_t i = 0; i < n; i++)
		w[i] = RANK_FIRST(&s[i]);
	first = kth_largest(w, n, k);
	for (uint32_t i = 0; i < n; i++)
	{
		need -= RANK_FIRST(&s[i]) > first;
		if (RANK_FIRST(&s[i]) == first)
			w[m++] = RANK_SECOND(&s[i]);
	}
	second = kth_largest(w, m, need);
	m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (RANK_FIRST(&s[i]) == first)
		{
			need -= RANK_SECOND(&s[i]) > second;
			if (RANK_SECOND(&s[i]) == second)
				w[m++] = ~(s[i].hash ^ salt);	/* the smallest salted hash is the largest */
		}
	hashed = ~kth_largest(w, m, need);
	for (uint32_t i = 0; i < n; i++)
		ties += RANK_FIRST(&s[i]) == first && RANK_SECOND(&s[i]) == second &&
			(s[i].hash ^ salt) == hashed;
	if (ties > 1)
	{
		select_by_position(table, s, n, k, by_lower);
		return false;
	}
#define CHOSEN(slot) (RANK_FIRST(slot) > first || (RANK_FIRST(slot) == first && \
	(RANK_SECOND(slot) > second || (RANK_SECOND(slot) == second && ((slot)->hash ^ salt) <= hashed))))
	for (uint32_t i = 0; i < k; i++)
	{
		if (CHOSEN(&s[i]))
			continue;
		while (!CHOSEN(&s[j]))
			j++;
		bs_topk_swap_slots(&s[i], &s[j++]);
	}
#undef CHOSEN
	return false;
}
#undef RANK_FIRST
#undef RANK_SECOND
