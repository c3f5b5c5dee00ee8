/*
 * bs_scheme.h — what each probing scheme allows and what its bits mean:
 * the filter shapes it accepts, the occupancy model its estimators use and
 * the false-positive rate of a filter as it is now.
 */
#ifndef BS_SCHEME_H
#define BS_SCHEME_H

#include "bloom/bs_bloom.h"
#include "bloom/bs_estimate.h"

/* BS_ERR_PARAM unless m and k suit the scheme (m <= BS_BLOOM_MAX_BITS is checked elsewhere). */
bs_status	bs_scheme_check_shape(uint8_t scheme, uint64_t bits, uint32_t hashes,
								  bs_error *err);

/* The same check as a yes/no answer. */
bool		bs_scheme_shape_ok(uint8_t scheme, uint64_t bits, uint32_t hashes);

/*
 * The part of that check that probing needs to stay inside the bit array,
 * without the primality tests: O(1), for values that passed the full check
 * when they were read and are now checked again on every use.
 */
bool		bs_scheme_shape_safe(uint8_t scheme, uint64_t bits, uint32_t hashes);

/* The occupancy model of the bits of a filter of this scheme and shape. */
void		bs_scheme_occupancy(uint8_t scheme, uint64_t bits, uint32_t hashes,
								bs_occupancy *model);

/*
 * The chance that a value not in the filter is reported present, given the
 * filter's bits as they are now (exact under ideal hashing for each scheme).
 */
double		bs_bloom_current_fpr(const bs_bloom *filter);

#endif							/* BS_SCHEME_H */
