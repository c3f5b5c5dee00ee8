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

#if BS_BLOCK_SIMD_BUILT
#include <immintrin.h>

/*
 * The 512-bit mask of chunks 0..hashes-1 (hashes <= 7) of b: chunk c, the
 * 9-bit field 9i..9i+8, lands in lane c >> 6 at bit c & 63, which is 1 in
 * lane j shifted left by c - 64 j; a lane whose count c - 64 j is outside
 * 0..63 (as an unsigned number: at least 64) shifts its 1 out, and VPSLLVQ
 * gives 0 for such counts.  All chunks are cut out of b at once (lane i of
 * `chunks`, one variable shift), then each is spread over the 8 lanes with
 * a lane permutation.  Inline for callers compiled for AVX-512F
 * (bs_batch.c), which choose it at run time as bs_block_simd_usable says.
 */
__attribute__((target("avx512f")))
static inline __m512i
bs_block_mask512(uint64_t b, uint32_t hashes)
{
	const __m512i lane_offsets = _mm512_set_epi64(448, 384, 320, 256, 192, 128, 64, 0);
	const __m512i shifts = _mm512_set_epi64(63, 54, 45, 36, 27, 18, 9, 0);
	const __m512i one = _mm512_set1_epi64(1);
	/* lane i: chunk i (lane 7 is not a chunk: k <= 7) */
	__m512i		chunks = _mm512_and_si512(_mm512_srlv_epi64(_mm512_set1_epi64((long long) b), shifts),
										  _mm512_set1_epi64(511));
	__m512i		mask = _mm512_setzero_si512();

	for (uint32_t i = 0; i < hashes; i++)
	{
		__m512i		chunk = _mm512_permutexvar_epi64(_mm512_set1_epi64(i), chunks);

		mask = _mm512_or_si512(mask, _mm512_sllv_epi64(one, _mm512_sub_epi64(chunk, lane_offsets)));
	}
	return mask;
}

/* OR the mask of b into the block: one read and one write of 64 bytes. */
__attribute__((target("avx512f")))
static inline void
bs_block_set512(uint64_t *block, uint64_t b, uint32_t hashes)
{
	__m512i		words = _mm512_loadu_si512(block);

	_mm512_storeu_si512(block, _mm512_or_si512(words, bs_block_mask512(b, hashes)));
}

/* True when every lane of the block holds all of its mask bits. */
__attribute__((target("avx512f")))
static inline bool
bs_block_test512(const uint64_t *block, uint64_t b, uint32_t hashes)
{
	__m512i		mask = bs_block_mask512(b, hashes);
	__m512i		words = _mm512_loadu_si512(block);

	return _mm512_cmpneq_epi64_mask(_mm512_and_si512(words, mask), mask) == 0;
}
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
