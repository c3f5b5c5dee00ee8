/*
 * bs_rate_chain_step.h — the inner step of the exact-analysis chain
 * (bs_analysis.c, method (b)), vectorised where the CPU allows it.
 *
 * Terms: a chain step turns the chain's vector for a hitting items into the
 * one for a + 1 (bs_rate_chain.c).
 */
#ifndef BS_RATE_CHAIN_STEP_H
#define BS_RATE_CHAIN_STEP_H

#include <stddef.h>

/* outputs computed together by one call of the inner loop */
#define BS_CHAIN_BLOCK 16

/*
 * next[t] = scale * sum_{j=0..J} v[t+j] diag[j*length + t + j] for t = lo,
 * lo + 1, ... in blocks of BS_CHAIN_BLOCK, up to the first block end past
 * hi; returns that end (the first t not written).  The caller pads v and
 * diag so that every read of the last block is in bounds.
 *
 * Each output adds its J + 1 products in the order of j, one rounding per
 * multiplication and per addition (never a fused multiply-add on x86-64),
 * so every x86-64 CPU gives the same bits: two servers size a filter the
 * same way.
 */
int			bs_chain_step(const double *v, const double *diag, size_t length,
						  int lo, int hi, int J, double scale, double *next);

#endif							/* BS_RATE_CHAIN_STEP_H */
