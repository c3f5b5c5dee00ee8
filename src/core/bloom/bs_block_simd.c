/*
 * bs_block_simd.c — a blocked value's bits in one 512-bit vector operation.
 *
 * A blocked value with k <= 7 bits sets or tests bits 9i..9i+8 of b (its
 * chunks, bs_probe.h) in one 512-bit block.  The scalar path spends a shift,
 * a mask, a load and an OR or AND per bit, each on its own word; here the k
 * bits become a mask of the whole block in registers (lane j of the mask
 * holds the bits that fall in word j; bs_block_mask512 in the header) and the
 * block is read and written once; a test reads it once and permutes its
 * words to the chunks that name them (bs_block_test512).  The bits are the
 * same.
 *
 * About 25 instructions fewer per value, which shows where many values are
 * in flight (the batch calls and bloom_agg's ring; bench/README.md, "Core:
 * throughput against the hardware's floor"); a lone value mostly waits for
 * its line.
 * Compiled for AVX-512F alone, chosen at run time: probes use it only where
 * the processor has it (bs_block_simd_usable).
 */
#include "bloom/bs_block_simd.h"

#if BS_BLOCK_SIMD_BUILT

__attribute__((target("avx512f")))
void
bs_block_set_simd(uint64_t *block, uint64_t b, uint32_t hashes)
{
	bs_block_set512(block, b, hashes);
}

__attribute__((target("avx512f")))
bool
bs_block_test_simd(const uint64_t *block, uint64_t b, uint32_t hashes)
{
	return bs_block_test512(block, b, hashes);
}

bool
bs_block_simd_usable(void)
{
	static int	usable = -1;

	if (usable < 0)
	{
		__builtin_cpu_init();
		usable = __builtin_cpu_supports("avx512f") ? 1 : 0;
	}
	return usable > 0;
}

#else							/* not x86-64 with GCC or Clang */

#include <stdlib.h>

/* Never called: bs_block_simd_usable is false, so no probe chooses them. */
void
bs_block_set_simd(uint64_t *block, uint64_t b, uint32_t hashes)
{
	(void) block;
	(void) b;
	(void) hashes;
	abort();
}

bool
bs_block_test_simd(const uint64_t *block, uint64_t b, uint32_t hashes)
{
	(void) block;
	(void) b;
	(void) hashes;
	abort();
}

bool
bs_block_simd_usable(void)
{
	return false;
}

#endif
