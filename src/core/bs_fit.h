/*
 * bs_fit.h — self-sized filters (bloom_fit_agg): the fit probing scheme,
 * folding and tiling between its sizes, its own false-positive rate, and
 * the choice of size from a whole group.
 *
 * The fit scheme is enhanced double hashing (Dillinger and Manolios) on a
 * power-of-two m:
 *
 *     a = h1,  b = h2 | 1                     (64-bit halves of XXH3-128)
 *     x_i = a + i b + (i^3 - i) / 6   mod 2^64,   i = 0 .. k-1
 *     position_i = x_i & (m - 1)
 *
 * x_i does not depend on m, so a value's positions at m / 2 are its
 * positions at m with the top bit dropped: the filter of a set at m / 2 is
 * the OR of the two halves of its filter at m (folding), exactly, and a
 * filter at m copied twice side by side (tiling) holds every member of it
 * at 2 m.  Those two operations let a filter be built once and sized
 * afterwards, and filters of different sizes be combined.
 *
 * KM 2008 (section 5.2, equation (1)) require the probe offsets to avoid
 * short cycles: b odd makes i b run through all residues mod 2^j, and the
 * cubic term breaks the linear progressions that make plain double
 * hashing on a power of two overshoot its rate at small n (section 6's
 * Theta(1/n) term); bs_fit_rate counts that term exactly on small filters.
 */
#ifndef BS_FIT_H
#define BS_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bs_bloom.h"

/* The smallest fit filter: one 64-bit word. */
#define BS_FIT_MIN_BITS UINT64_C(64)
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
	uint64_t	x = h1;
	uint64_t	y = h2 | 1;

	for (uint32_t i = 0; i < hashes && i < 16; i++)
	{
		__builtin_prefetch(&words[(x & (bits - 1)) >> 6], 1, 3);
		x += y;
		y += (uint64_t) i + 1;
	}
}

/* Fold m bits (m >= 128) in place onto their lower half: word i |= word i + m/128. */
void		bs_fit_fold(uint64_t *words, uint64_t bits);

/* OR (or AND) the filter of small_bits, repeated, into that of large_bits. */
void		bs_fit_tile_into(uint64_t *large, uint64_t large_bits, const uint64_t *small,
							 uint64_t small_bits, bool intersect);

/*
 * The false-positive rate of this filter: the share of hash pairs whose k
 * positions are all set.  Counted exactly over every (a mod m, odd b mod
 * m) where that takes at most BS_FIT_EXACT_WORK word operations (m up to
 * 2048 at k = 7, about 0.3 ms); above, the rate from the fill, (set / m)^k, plus
 * Kirsch and Mitzenmacher's term as below.
 */
double		bs_fit_rate(const uint64_t *words, uint64_t bits, uint32_t hashes);

/* The exact count alone (for tests and the rate study): NAN above max_work. */
double		bs_fit_exact_rate(const uint64_t *words, uint64_t bits, uint32_t hashes,
							  double max_work);

#define BS_FIT_EXACT_WORK 5e5
/* The largest m the exact count can reach within that work (at k = 1). */
#define BS_FIT_EXACT_MAX_BITS 16384
/*
 * Above the exact count, the rate is the fill's plus BS_FIT_TERM_FACTOR
 * times 2 n / m^2, the chance that a non-member's pair coincides with a
 * member's: the exact count exceeds the fill's rate by 0.8 to 1.26 times
 * that term at m = 512 .. 16384 and rates 0.01 to 10^-6 (docs/fit.md).
 */
#define BS_FIT_TERM_FACTOR 1.5

/* A fit filter's rate (bloom_fpr): bs_fit_rate of its bits. */
double		bs_fit_filter_rate(const bs_bloom *filter);

/*
 * result (zeroed, of max(a.bits, b.bits) bits, header filled by the caller)
 * = a tiled OR (or AND) b tiled: the union or intersection of fit filters
 * of different sizes, which loses no member of either.
 */
void		bs_fit_combine_words(uint64_t *result, uint64_t bits, const bs_bloom *a,
								 const bs_bloom *b, bool intersect);

/*
 * The size of a group's filter, from its bits at `bits` (a power of two):
 * folds words in place down the ladder while the folded filter's rate
 * (bs_fit_rate) stays within fpr, and returns the size reached.  *met is
 * false when not even the filter at `bits` meets fpr (it is then kept).
 */
uint64_t	bs_fit_fold_to_rate(uint64_t *words, uint64_t bits, uint32_t hashes,
								double fpr, bool *met);

/*
 * The size to build a group of n distinct hashes at before folding: a
 * power of two at least twice the standard model's size for n at fpr
 * with k hashes, within [BS_FIT_MIN_BITS, ceiling].
 */
uint64_t	bs_fit_start_bits(uint64_t n, uint32_t hashes, double fpr, uint64_t ceiling);

#endif							/* BS_FIT_H */
