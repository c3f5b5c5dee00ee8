/*
 * bs_blocked_rate.h — the false-positive rate of blocked filters and their
 * sizing.
 *
 * A blocked filter (Putze, Sanders and Singler, "Cache-, hash- and
 * space-efficient Bloom filters", 2007) has B blocks of s = 512 bits; a value
 * picks one block uniformly and sets k independent uniform bits inside it.
 * A value not in the filter is a false positive when its k bits are set in
 * its block, whose load is the number J ~ Binomial(n, 1/B) of items that
 * chose it:
 *   rate(n, B, k) = sum_j Pr[J = j] r_j,  r_j = E[(X_j / s)^k],
 * where X_j is the number of set bits after j k balls in s urns.  Both the
 * weights and the r_j are computed exactly (to rounding), so the rate is
 * exact under ideal hashing, like the exact rates of bs_analysis.h.
 */
#ifndef BS_BLOCKED_RATE_H
#define BS_BLOCKED_RATE_H

#include <stdint.h>

#include "common/bs_error.h"

/* rate(n, B, k) as above; 0 for n = 0. */
double		bs_blocked_fpr(double items, uint64_t blocks, uint32_t hashes);

/*
 * The smallest blocked filter for `capacity` items at rate <= fpr: the
 * number of blocks found by bisection for each k tried, keeping the k that
 * needs the fewest (ties to the smaller k).  k is searched from -log2(fpr)
 * in both directions until two k in a row do no better.  BS_ERR_TOO_LARGE
 * when no filter up to BS_BLOOM_MAX_BITS reaches the rate.
 */
bs_status	bs_blocked_size(int64_t capacity, double fpr, uint64_t *bits,
							uint32_t *hashes, bs_error *err);

#endif							/* BS_BLOCKED_RATE_H */
