/*
 * analysis.h — the entry to src/core/analysis: exact false-positive rates
 * of Bloom filters and the sizing of new ones.
 *
 *	bs_analysis.h		exact rates of standard and classic filters, their
 *						bounds and efficiency, the optimal k and m
 *	bs_sizing.h			the smallest standard filter that reaches a rate
 *	bs_scheme_sizing.h	expected rates and new shapes of every probing scheme
 *	bs_blocked_rate.h	rates and sizing of blocked filters
 *	bs_double_hash_rate.h	rates of the double-hashing and partition schemes
 *						with Kirsch and Mitzenmacher's Theta(1/n) term
 *						(bs_double_hash_exact.h: the exact count for small m)
 *	bs_analysis_memory.h	allocation hooks and what a sizing remembers
 *	bs_analysis_params.h	the constructions and the ranges accepted
 *
 * The files behind bs_analysis.h share bs_analysis_internal.h, which lists
 * them; bs_rate_chain_step.h and bs_shifted_and.h are inner loops.
 */
#ifndef BS_ANALYSIS_INDEX_H
#define BS_ANALYSIS_INDEX_H

#include "analysis/bs_analysis.h"
#include "analysis/bs_blocked_rate.h"
#include "analysis/bs_double_hash_rate.h"
#include "analysis/bs_scheme_sizing.h"
#include "analysis/bs_sizing.h"

#endif							/* BS_ANALYSIS_INDEX_H */
