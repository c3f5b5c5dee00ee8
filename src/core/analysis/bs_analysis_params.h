/*
 * bs_analysis_params.h — the parameters of the exact analysis: the two
 * constructions of a Bloom filter it knows, standard (k probes, repeats
 * allowed) and classic (k distinct bits per item), and the ranges of k and
 * m it accepts.
 */
#ifndef BS_ANALYSIS_PARAMS_H
#define BS_ANALYSIS_PARAMS_H

#include <stdint.h>

typedef enum bs_construction
{
	BS_CONSTRUCTION_STANDARD = 0,
	BS_CONSTRUCTION_CLASSIC = 1
} bs_construction;

/*
 * The largest k accepted.  Filters of the extension have k <= 1024
 * (BS_BLOOM_MAX_HASHES), which is also the range bs_optimal_k searches; the
 * rates are computed for larger k too, which covers every m <= 5000 with
 * nk <= 50000, but the work grows like k min(k, m), and a computation of more
 * than 2 * 10^9 elementary steps (a few seconds) is refused with BS_ERR_TOO_LARGE.
 */
#define BS_ANALYSIS_MAX_HASHES 65536
#define BS_ANALYSIS_SEARCH_HASHES 1024

/* The largest m that bs_optimal_bits returns (2^36 bits = 8 GiB). */
#define BS_ANALYSIS_MAX_BITS (INT64_C(1) << 36)

#endif							/* BS_ANALYSIS_PARAMS_H */
