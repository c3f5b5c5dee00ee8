/*
 * bs_block_simd.c — a blocked value's bits in one 512-bit vector operation.
 *
 * A blocked value with k <= 7 bits sets or tests bits 9i..9i+8 of b (its
 * chunks, bs_probe.h) in one 512-bit block.  The scalar path spends a shift,
 * a mask, a load and an OR or AND per bit, each on its own word; here the k
 * bits become a mask of the whole block in registers (lane j of the mask
 * holds the bits that fall in word j) and the block is read, or read and
 * written, once.  The bits are the same: chunk c lands in word c / 64 at bit
 * c % 64, which is lane c >> 6 shifted by c - 64 (c >> 6); a lane whose
 * offset c - 64 j is outside 0..63 (as unsigned: at least 64) shifts its 1
 * out, and VPSLLVQ gives 0 for such counts.
 *
 * About 25 instructions fewer per value, which matters because a stream of
 * probes overlaps its cache misses only as far as their instructions fit in
 * the processor's window (README.md, "The core against the hardware's
 * floor").  Compiled for AVX-512F alone, chosen at run time: probes use it
 * only where the processor has it (bs_block_simd_usable).
 */
#include "bs_block_simd.h"

#if BS_BLOCK_SIMD_BUILT

#include <immintrin.h>

/* The block mask of chunks 0..hashes-1 of b (hashes <= 7). */
__attribute__((target("avx512f")))
static inline __m512i
block_mask(uint64_t b, uint32_t hashes)
{
	const __m512i lane_offsets = _mm512_set_epi64(448, 384, 320, 256, 192, 128, 64, 0);
	const __m512i one = _mm512_set1_epi64(1);
	__m512i		mask = _mm512_setzero_si512();

	for (uint32_t i = 0; i < hashes; i++)
	{
		__m512i		chunk = _mm512_set1_epi64((long long) ((b >> (9 * i)) & 511));

		mask = _mm512_or_si512(mask, _mm512_sllv_epi64(one, _mm512_sub_epi64(chunk, lane_offsets)));
	}
	return mask;
}

__attribute__((target("avx512f")))
void
bs_block_set_simd(uint64_t *block, uint64_t b, uint32_t hashes)
{
	__m512i		words = _mm512_loadu_si512(block);

	_mm512_storeu_si512(block, _mm512_or_si512(words, block_mask(b, hashes)));
}

__attribute__((target("avx512f")))
bool
bs_block_test_simd(const uint64_t *block, uint64_t b, uint32_t hashes)
{
	__m512i		mask = block_mask(b, hashes);
	__m512i		words = _mm512_loadu_si512(block);

	/* every lane holds all of its mask bits */
	return _mm512_cmpneq_epi64_mask(_mm512_and_si512(words, mask), mask) == 0;
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
