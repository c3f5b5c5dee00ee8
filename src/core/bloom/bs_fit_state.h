/*
 * bs_fit_state.h — the partial state of bloom_fit_agg, a bloomfilter of
 * scheme fit_partial (docs/design.md decision 1: partial states are
 * bloomfilter values), and the hash lists it keeps while a group is small.
 *
 * Header: the usual 36 bytes, with k the fit k of the rate, m = 64 times
 * the number of payload words and items the values added (repeats
 * included); the reserved fields are 0.  Payload words:
 *
 *   0          the rate asked for, as the bits of an IEEE 754 binary64
 *   1          the ceiling: a power of two of bits
 *   form 0     the group's distinct 128-bit hashes (h1, h2), two words
 *   (hashes)   each, in ascending order of h1, then h2, no repeats; at
 *              most ceiling / 256 of them (half the bytes of the bit array)
 *   form 1     the group's filter at the ceiling (bs_fit.h), once the
 *   (bits)     group has more distinct hashes than that
 *
 * The length tells the forms apart: ceiling / 64 payload words after the
 * prefix are the bits form, since a hash list that long (ceiling / 128
 * hashes) would be past the threshold.
 *
 * Both forms are functions of the set of hashes alone (the form too: it
 * is bits exactly when the set is larger than ceiling / 256), so a state's
 * bytes do not depend on the order or the split of the rows.
 */
#ifndef BS_FIT_STATE_H
#define BS_FIT_STATE_H

#include <string.h>

#include "bloom/bs_bloom.h"
#include "bloom/bs_fit.h"

#define BS_FIT_FORM_HASHES 0
#define BS_FIT_FORM_BITS 1
/* payload words before the hashes or bits: the rate and the ceiling */
#define BS_FIT_PREFIX_WORDS 2

static inline double
bs_fit_state_fpr(const bs_bloom *state)
{
	double		fpr;

	memcpy(&fpr, &state->words[0], sizeof(fpr));
	return fpr;
}

static inline uint64_t
bs_fit_state_ceiling(const bs_bloom *state)
{
	return state->words[1];
}

/*
 * The most hashes a state keeps before it turns into bits: half the bytes
 * of the bit array, so that the list and the copy a merge needs stay
 * within the array's size.
 */
static inline uint64_t
bs_fit_threshold(uint64_t ceiling)
{
	return ceiling / 256;
}

/* m of a state of the hashes form holding count hashes. */
static inline uint64_t
bs_fit_hashes_state_bits(uint64_t count)
{
	return 64 * (BS_FIT_PREFIX_WORDS + 2 * count);
}

/* m of a state of the bits form. */
static inline uint64_t
bs_fit_bits_state_bits(uint64_t ceiling)
{
	return 64 * BS_FIT_PREFIX_WORDS + ceiling;
}

/* The form of a state: bits when its payload is the ceiling's bit array. */
static inline uint8_t
bs_fit_state_form(const bs_bloom *state)
{
	return state->bits == bs_fit_bits_state_bits(bs_fit_state_ceiling(state))
		? BS_FIT_FORM_BITS : BS_FIT_FORM_HASHES;
}

/* The number of hashes in a state of the hashes form. */
static inline uint64_t
bs_fit_state_count(const bs_bloom *state)
{
	return (state->bits / 64 - BS_FIT_PREFIX_WORDS) / 2;
}

/*
 * Fill the header and the prefix words of a zeroed state of m bits (one of
 * the two functions above, which sets its form); family, tag and items are
 * the caller's.
 */
void		bs_fit_state_init(bs_bloom *state, uint64_t bits, double fpr, uint64_t ceiling,
							  uint64_t seed);

/* Sort count hash pairs and drop repeats; returns the number left. */
uint64_t	bs_fit_sort_unique(uint64_t *pairs, uint64_t count);

/*
 * The same with scratch room for count pairs: a radix sort on h1, several
 * times faster than a comparison sort on the long lists of the aggregate.
 */
uint64_t	bs_fit_sort_unique_scratch(uint64_t *pairs, uint64_t count, uint64_t *scratch);

/*
 * Merge two sorted lists of unique pairs into out (room for na + nb pairs,
 * not overlapping either), without repeats; returns the number written.
 */
uint64_t	bs_fit_merge_unique(const uint64_t *a, uint64_t na, const uint64_t *b,
								uint64_t nb, uint64_t *out);

/*
 * Drop from count sorted unique pairs those also among `known` sorted
 * pairs, in place, by one walk through both; returns the number left.
 */
uint64_t	bs_fit_drop_known(const uint64_t *known, uint64_t known_count, uint64_t *pairs,
							  uint64_t count);

/*
 * Merge `tail` sorted pairs (not among the first `sorted` of pairs, nor in
 * pairs' storage) into the sorted pairs, in place from the back; pairs has
 * room for sorted + tail.
 */
void		bs_fit_merge_back(uint64_t *pairs, uint64_t sorted, const uint64_t *tail,
							  uint64_t count);

/* True when (h1, h2) is among count sorted pairs; *at is where it is or would go. */
bool		bs_fit_find(const uint64_t *pairs, uint64_t count, uint64_t h1, uint64_t h2,
						uint64_t *at);

/* Set the bits of count pairs in a filter of m bits (bs_fit_set). */
void		bs_fit_set_pairs(uint64_t *words, uint64_t bits, uint32_t hashes,
							 const uint64_t *pairs, uint64_t count);

/* The validator's checks of a fit_partial header (bs_bloom_check_params). */
bs_status	bs_fit_state_check_params(const bs_bloom_params *params, bs_error *err);

/* ... and of its payload (bs_bloom_check_words). */
bs_status	bs_fit_state_check_words(const bs_bloom *state, bs_error *err);

/* The validator's checks of a fit filter's header beyond its shape. */
bs_status	bs_fit_check_params(const bs_bloom_params *params, bs_error *err);

#endif							/* BS_FIT_STATE_H */
