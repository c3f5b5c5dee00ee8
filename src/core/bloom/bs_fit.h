/*
 * bs_fit.h — self-sized filters (bloom_fit_agg): the fit probing scheme,
 * folding and tiling between its sizes, its own false-positive rate, and
 * the choice of size from a whole group.
 *
 * The fit scheme draws each position from a strong mix of the 128-bit
 * hash, as many positions as k, two per mixed word, on a power-of-two m:
 *
 *     a = h1,  b = h2 | 1                     (64-bit halves of XXH3-128)
 *     w_j = remix(a + j b)                    (splitmix64's finaliser, bs_probe.h)
 *     X_(2j) = w_j mod 2^32,   X_(2j+1) = w_j >> 32
 *     position_i = X_i & (m - 1),             i = 0 .. k-1
 *
 * X_i does not depend on m, so a value's positions at m / 2 are its
 * positions at m with the top bit dropped: the filter of a set at m / 2 is
 * the OR of the two halves of its filter at m (folding), exactly, and a
 * filter at m copied twice side by side (tiling) holds every member of it
 * at 2 m.  Those two operations let a filter be built once and sized
 * afterwards, and filters of different sizes be combined.
 *
 * The mix makes the k positions of a value independent uniform draws in
 * the standard model (b odd keeps the inputs a + j b distinct), so the
 * rate of a given filter with s of its m bits set is (s / m)^k, with no
 * Theta(1/n) term: double hashing's k positions come from two numbers mod
 * m, m^2 / 2 sequences in all (KM 2008, section 6), which forced strict
 * rates to large m; here a non-member shares all its positions with a
 * member's only by chance of the fill.
 */
#ifndef BS_FIT_H
#define BS_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bloom/bs_bloom.h"
#include "common/bs_hash.h"			/* bs_block_remix */

/* The smallest fit filter: 8 bits (stored in one word, the rest zero). */
#define BS_FIT_MIN_BITS UINT64_C(8)
/* The largest: the largest power of two within BS_BLOOM_MAX_BITS (512 MB). */
#define BS_FIT_MAX_BITS (UINT64_C(1) << 32)
/* The smallest ceiling bloom_fit_agg accepts (its hash list holds 8 hashes). */
#define BS_FIT_MIN_CEILING UINT64_C(1024)
/* The default ceiling: 2^27 bits (16 MB), about 10^7 values at 1%. */
#define BS_FIT_DEFAULT_CEILING (UINT64_C(1) << 27)

/* reserved8 of a fit filter: set when its values exceeded its ceiling. */
#define BS_FIT_OVER_CEILING 1
/* reserved8: set when it combines filters of different sizes (no estimates). */
#define BS_FIT_MIXED_SIZES 2

static inline bool
bs_fit_power_of_two(uint64_t x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

/*
 * k of a fit filter at rate fpr: round(log2(1 / fpr)), the optimal k of the
 * standard model, between 1 and BS_BLOOM_MAX_HASHES.  Depends on fpr only,
 * so that filters of every size at one rate combine.
 */
uint32_t	bs_fit_hashes(double fpr);

/* The largest power of two not above max_bits, within the fit limits; 0 if below BS_FIT_MIN_CEILING. */
uint64_t	bs_fit_ceiling(uint64_t max_bits);

/* The smallest size a fit filter of k hashes may have: a power of two >= BS_FIT_MIN_BITS and >= k. */
uint64_t	bs_fit_min_bits(uint32_t hashes);

/*
 * Run BODY for each of the k positions of the pair (h1, h2) in m bits, with
 * `position` and the probe's index `i_` in scope (the rule: this file's
 * header comment).
 */
#define BS_FIT_WALK(bits, hashes, h1, h2, BODY) \
	do { \
		uint64_t	mask_ = (bits) - 1; \
		uint64_t	input_ = (h1); \
		uint64_t	step_ = (h2) | 1; \
		uint64_t	word_ = 0; \
		for (uint32_t i_ = 0; i_ < (hashes); i_++) \
		{ \
			uint64_t	position; \
			if ((i_ & 1) == 0) \
			{ \
				word_ = bs_block_remix(input_); \
				input_ += step_; \
				position = word_ & mask_; \
			} \
			else \
				position = (word_ >> 32) & mask_; \
			BODY; \
		} \
	} while (0)

/* Set (or test) the k positions of the hash pair (h1, h2) in m bits. */
void		bs_fit_set(uint64_t *words, uint64_t bits, uint32_t hashes, uint64_t h1,
					   uint64_t h2);
bool		bs_fit_test(const uint64_t *words, uint64_t bits, uint32_t hashes,
						uint64_t h1, uint64_t h2);
void		bs_fit_positions(uint64_t bits, uint32_t hashes, uint64_t h1, uint64_t h2,
							 uint64_t *positions);

/*
 * Prefetch, for writing, the lines of the first 16 positions of a pair: a
 * filter larger than the caches then takes one memory latency per few
 * values instead of k per value, when the caller sets the bits of a value
 * some values later (bs_fit_set_pairs, the aggregate's bits form).
 */
static inline void
bs_fit_prefetch(const uint64_t *words, uint64_t bits, uint32_t hashes, uint64_t h1,
				uint64_t h2)
{
	uint32_t	first = hashes < 16 ? hashes : 16;

	BS_FIT_WALK(bits, first, h1, h2, __builtin_prefetch(&words[position >> 6], 1, 3));
}

/* Fold m bits (m >= 16) in place onto their lower half: bit p |= bit p + m/2. */
void		bs_fit_fold(uint64_t *words, uint64_t bits);

/* OR (or AND) the filter of small_bits, repeated, into that of large_bits. */
void		bs_fit_tile_into(uint64_t *large, uint64_t large_bits, const uint64_t *small,
							 uint64_t small_bits, bool intersect);

/*
 * The false-positive rate of a fit filter of m bits and k hashes with s of
 * them set: (s / m)^k, the chance that k independent uniform positions
 * are all set (exact in the model of the header comment; 1 when full).
 */
double		bs_fit_fill_rate(uint64_t set, uint64_t bits, uint32_t hashes);

/* The rate of this filter's bits (bs_fit_fill_rate of its set bits). */
double		bs_fit_rate(const uint64_t *words, uint64_t bits, uint32_t hashes);

/* A fit filter's rate (bloom_fpr): bs_fit_rate of its bits. */
double		bs_fit_filter_rate(const bs_bloom *filter);

/*
 * result (zeroed, of max(a.bits, b.bits) bits, header filled by the caller)
 * = a tiled OR (or AND) b tiled: the union or intersection of fit filters
 * of different sizes, which loses no member of either.
 */
void		bs_fit_combine_words(uint64_t *result, uint64_t bits, const bs_bloom *a,
								 const bs_bloom *b, bool intersect);

/* Fold m bits in place down to target bits (both powers of two, target <= m). */
void		bs_fit_fold_down(uint64_t *words, uint64_t bits, uint64_t target);

/* The number of set bits among the first m. */
uint64_t	bs_fit_count_set(const uint64_t *words, uint64_t bits);

/*
 * The sizing of bloom_fit_agg's final function (bs_fit_size.c): a group's
 * filter has the smallest power of two of bits, at least
 * bs_fit_min_bits(k), whose EXPECTED false-positive rate for the group's n
 * distinct values is at most fpr, as every capacity-sized filter is sized.
 * The size is then a function of n (and k, fpr, the ceiling) alone; the
 * rate of one filter's own bits (bs_fit_rate, what bloom_fpr reports) may
 * be above fpr, as a bloom_agg filter's may at its capacity.
 *
 * The expected rate: a fit filter's positions are k independent uniform
 * draws per value (this file's header comment), so it is the standard
 * filter's exact rate f_S(m, n, k) (bs_analysis.h, Burns eq. (56)), the
 * rate bs_bloom_size_scheme sizes the independent scheme by.
 */
double		bs_fit_expected_rate(uint64_t bits, uint64_t items, uint32_t hashes);

/*
 * The size for n distinct values: the smallest power of two m in
 * [bs_fit_min_bits(k), ceiling] with bs_fit_expected_rate(m, n, k) <= fpr;
 * the ceiling with *met false when even the ceiling does not meet fpr.
 */
uint64_t	bs_fit_size(uint64_t items, uint32_t hashes, double fpr, uint64_t ceiling,
						bool *met);

/*
 * The number of distinct values in a filter of m bits with s set, when it
 * is not known (the state has become the ceiling's bit array): Swamidass
 * and Baldi's estimate ln(1 - s/m) / (k ln(1 - 1/m)), the one
 * bloom_cardinality gives for the fit scheme, rounded to the nearest
 * integer (halves up); UINT64_MAX for a full filter.
 */
uint64_t	bs_fit_estimate_items(uint64_t set, uint64_t bits, uint32_t hashes);

/* The size of a group whose state is its filter at the ceiling: bs_fit_size at its estimated n. */
uint64_t	bs_fit_size_of_bits(const uint64_t *words, uint64_t ceiling, uint32_t hashes,
								double fpr, bool *met);

/*
 * The smallest filter of any capacity-sized scheme (bloom_create's sizings,
 * bs_bloom_size_scheme) for n values at fpr, in bits: what a fit filter's
 * size is measured against (docs/fit.md); infinite if none fits.
 */
double		bs_fit_reference_bits(uint64_t n, double fpr);

#endif							/* BS_FIT_H */
