/*
 * bs_block_simd.h — blocked values set and tested with 512-bit vectors, where
 * the processor has AVX-512F (bs_block_simd.c).
 */
#ifndef BS_BLOCK_SIMD_H
#define BS_BLOCK_SIMD_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BS_BLOCK_SIMD_BUILT 1
#else
#define BS_BLOCK_SIMD_BUILT 0
#endif

/* True when this processor runs the two functions below. */
bool		bs_block_simd_usable(void);

/*
 * Set, or test, chunks 0..hashes-1 (hashes <= 7) of b in the 512-bit block:
 * the same bits as bs_block_set_short and bs_block_test_short.
 */
void		bs_block_set_simd(uint64_t *block, uint64_t b, uint32_t hashes);
bool		bs_block_test_simd(const uint64_t *block, uint64_t b, uint32_t hashes);

#endif							/* BS_BLOCK_SIMD_H */
