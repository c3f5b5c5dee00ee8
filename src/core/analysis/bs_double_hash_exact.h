/*
 * bs_double_hash_exact.h — the false-positive rate of small filters of the
 * double-hashing schemes counted exactly, Kirsch and Mitzenmacher's term
 * included (bs_double_hash_exact.c), and the steps at which an item's
 * probes meet, which that count and the model of bs_double_hash_rate.h
 * share.
 *
 * Terms: KM is Kirsch and Mitzenmacher (2008); their Theta(1/n) term is the
 * share of false positives caused by one member repeating most positions.
 */
#ifndef BS_DOUBLE_HASH_EXACT_H
#define BS_DOUBLE_HASH_EXACT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The exact rate of a filter of double, double_square or double_cube under
 * ideal hashing where counting it takes at most max_work
 * steps, and k <= 16; NAN elsewhere.  Its work is m k^2 + 12 2^k steps per
 * non-member counted: one for double, m for the extended schemes.  A step
 * is a few nanoseconds.
 */
double		bs_km_exact_fpr(uint8_t scheme, uint64_t bits, uint32_t hashes, double items,
							double max_work);

/*
 * bs_km_exact_fpr for double_square and double_cube with the non-members
 * sampled: those whose probes meet counted exactly, 16 others at an even
 * stride for the rest (within 0.5% of the exact rate wherever that was
 * compared, 5 to 100 items).  It counts 2k - 3 + 16 non-members for
 * double_square, k (k - 1) / 2 + 16 for double_cube; NAN past max_work or
 * for other schemes.
 */
double		bs_km_sampled_fpr(uint8_t scheme, uint64_t bits, uint32_t hashes, double items,
							  double max_work);

/*
 * The steps b at which two probes of a double_square or double_cube item
 * meet (b = -(i + j) for i^2, -(i^2 + ij + j^2) for i^3): an item then has
 * fewer distinct positions, and a non-member such a rate up to 20 times
 * that of the others.  At most k (k - 1) / 2 of them, into steps.
 */
size_t		bs_km_meeting_steps(uint8_t scheme, uint64_t m, uint32_t k, uint64_t *steps);

/*
 * The work limits of the exact count: sizing, which may try several shapes,
 * allows about 5 ms per shape; bloom_expected_fpr, called once, about 0.1 s.
 */
#define BS_KM_SIZING_WORK 1e6
#define BS_KM_REPORT_WORK 2e7

#endif							/* BS_DOUBLE_HASH_EXACT_H */
