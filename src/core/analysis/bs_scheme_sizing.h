/*
 * bs_scheme_sizing.h — the expected false-positive rate of each probing
 * scheme, and the shape of a new filter of any scheme.
 */
#ifndef BS_SCHEME_SIZING_H
#define BS_SCHEME_SIZING_H

#include "bloom/bs_bloom.h"

/*
 * The smallest filter of the scheme that holds `capacity` items at a
 * false-positive rate of at most `fpr`, under the scheme's own model:
 *   double                      the classic exact sizing (bs_sizing.h);
 *   double_square, double_cube  the standard exact sizing, m rounded up to a
 *                               prime and k re-optimised for it;
 *   independent                 the standard exact sizing;
 *   partition                   k subarrays of the smallest prime m' with
 *                               (1 - (1 - 1/m')^n)^k <= fpr, for the k that
 *                               makes k m' smallest;
 *   blocked                     bs_blocked_size.
 * 22023 for bad arguments; 54000, naming the largest capacity that fits,
 * when the filter would exceed BS_BLOOM_MAX_BITS.
 */
bs_status	bs_bloom_size_scheme(uint8_t scheme, int64_t capacity, double fpr,
								 uint64_t *bits, uint32_t *hashes, bs_error *err);

/* The rate of a partitioned filter: (1 - (1 - 1/m')^n)^k with m' = m / k. */
double		bs_partition_fpr(uint64_t bits, double items, uint32_t hashes);

/*
 * The expected false-positive rate of a filter of the scheme with m bits,
 * k hashes and n distinct items, under ideal hashing: the classic exact rate
 * (Burns eq. (60)) for double; the standard exact rate (Theorem 22) for
 * double_square, double_cube and independent; bs_partition_fpr;
 * bs_blocked_fpr.  22023 when m and k do not suit the scheme (m need not be
 * prime here, but partition needs k | m and blocked 512 | m).
 */
bs_status	bs_scheme_expected_fpr(uint8_t scheme, int64_t bits, int64_t items,
								   int64_t hashes, double *rate, bs_error *err);

#endif							/* BS_SCHEME_SIZING_H */
