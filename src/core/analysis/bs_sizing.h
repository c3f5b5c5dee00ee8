/*
 * bs_sizing.h — sizing new filters with the exact false-positive rate.
 */
#ifndef BS_SIZING_H
#define BS_SIZING_H

#include <stdint.h>

#include "common/bs_error.h"

/*
 * The smallest filter for `capacity` items at false-positive rate `fpr`:
 * m is the smallest prime at or above the smallest m for which some k reaches
 * an exact rate <= fpr (Burns eq. (60), the "classic" construction, which is
 * how these filters probe: k distinct positions per value), and k is the
 * exact optimum for that m.  On BS_ERR_TOO_LARGE the message names the
 * largest capacity that fits at that rate.
 */
bs_status	bs_bloom_size_exact(int64_t capacity, double fpr, uint64_t *bits,
								uint32_t *hashes, bs_error *err);

#endif							/* BS_SIZING_H */
