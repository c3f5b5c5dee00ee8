/*
 * bs_double_hash_rate.h — the false-positive rate of the double-hashing schemes and
 * of the partition scheme with Kirsch and Mitzenmacher's Theta(1/n) term:
 * a non-member whose positions largely coincide with one member's.
 *
 * Terms: KM is Kirsch and Mitzenmacher (2008); their Theta(1/n) term is the
 * share of false positives caused by one member repeating most positions.
 */
#ifndef BS_DOUBLE_HASH_RATE_H
#define BS_DOUBLE_HASH_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/bs_double_hash_exact.h"	/* the exact count and its limits */

/*
 * Whether bs_km_fpr models the scheme: double, double_square, double_cube
 * and partition (the others place the positions of one item independently,
 * and their rates have no such term).
 */
bool		bs_km_models(uint8_t scheme);

/*
 * The rate of a filter of the scheme with m bits and k hashes after n
 * distinct items, under ideal hashing of the pair (a, b) (bs_probe.h).
 * With fill < 0 the chance that one position of a non-member is set by
 * some member is the model's own; with fill in [0, 1] it is that observed
 * share of set bits (bs_bloom_current_fpr).  m must suit the scheme: prime
 * for the double schemes, k times a prime for partition.
 */
double		bs_km_fpr(uint8_t scheme, uint64_t bits, uint32_t hashes, double items,
					  double fill);

/*
 * The rate of one given filter of these schemes: the share of hash pairs
 * whose k positions are all set in it (bs_double_hash_filter_rate.c), where counting
 * them takes at most 3e6 word operations (m' k ceil(m' / 64), m' the bits a
 * probe ranges over), a few milliseconds; NAN elsewhere.
 */
struct bs_bloom;
double		bs_km_filter_fpr(const struct bs_bloom *filter);

/* The rate sizing uses: exact where it takes at most max_work, else the model. */
double		bs_km_rate(uint8_t scheme, uint64_t bits, uint32_t hashes, double items,
					   double max_work);

/*
 * The rate bloom_expected_fpr reports: exact within BS_KM_REPORT_WORK, else
 * sampled within it, else the model.
 */
double		bs_km_report_rate(uint8_t scheme, uint64_t bits, uint32_t hashes, double items);

/*
 * bs_km_fpr with fill < 0 over the same model without the term: the factor
 * by which the term multiplies the rate (1 when it adds nothing).
 */
double		bs_km_term_factor(uint8_t scheme, uint64_t bits, uint32_t hashes, double items);

/*
 * The smallest filter of the scheme whose bs_km_fpr at n items is at most
 * fpr: its m (prime, or k times a prime) and k.  False when none fits in
 * max_bits.  start_bits and start_hashes, the sizing without the term, are
 * where the search begins; they are kept when the term adds less than 2%
 * to their rate.
 */
bool		bs_km_size(uint8_t scheme, int64_t capacity, double fpr, uint64_t max_bits,
					   uint64_t start_bits, uint32_t start_hashes,
					   uint64_t *bits, uint32_t *hashes);

#endif							/* BS_DOUBLE_HASH_RATE_H */
