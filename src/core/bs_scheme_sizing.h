/*
 * bs_scheme_sizing.h — the shape of a new filter of any probing scheme.
 */
#ifndef BS_SCHEME_SIZING_H
#define BS_SCHEME_SIZING_H

#include "bs_bloom.h"

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

#endif							/* BS_SCHEME_SIZING_H */
