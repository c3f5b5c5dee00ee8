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
 * Chunk i of b as a 512-bit mask: the 9-bit field c = b >> 9i & 511 lands in
 * lane c >> 6 at bit c & 63.  Lane j holds j in bits 6..8 of its tag (tag =
 * 64 j), so c ^ tag is c & 63 in lane c >> 6 and at least 64 in every other
 * lane, and VPSLLVQ shifts 1 by at least 64 to 0: one shift, one ternary
 * logic op (the mask and the tag) and one variable shift per chunk, all of
 * them within lanes.
 */
#define BS_BLOCK_CHUNK512(b_lanes, i, tags, low9) \
	_mm512_sllv_epi64(_mm512_set1_epi64(1), \
					  _mm512_ternarylogic_epi64(_mm512_srli_epi64((b_lanes), 9 * (i)), (low9), (tags), \
												0x6a))	/* (A & B) ^ C */

/*
 * The 512-bit mask of chunks 0..hashes-1 (1 <= hashes <= 7) of b.  Inline
 * for callers compiled for AVX-512F (src/core/bloom/bs_batch.c, bloom_agg's fast
 * path), which choose it at run time as bs_block_simd_usable says.
 */
__attribute__((target("avx512f")))
static inline __m512i
bs_block_mask512(uint64_t b, uint32_t hashes)
{
	const __m512i tags = _mm512_set_epi64(448, 384, 320, 256, 192, 128, 64, 0);
	const __m512i low9 = _mm512_set1_epi64(511);
	const __m512i b_lanes = _mm512_set1_epi64((long long) b);
	__m512i		mask = BS_BLOCK_CHUNK512(b_lanes, 0, tags, low9);

	/* unrolled, so that every shift is a constant */
#pragma GCC unroll 7
	for (uint32_t i = 1; i < 7; i++)
		if (i < hashes)
			mask = _mm512_or_si512(mask, BS_BLOCK_CHUNK512(b_lanes, i, tags, low9));
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

/*
 * True when the block holds chunks 0..hashes-1 of b.  A test needs no mask
 * of the block: lane i takes chunk i (b >> 9i), fetches the word that chunk
 * names with one permutation of the loaded block (VPERMQ reads only the low
 * 3 bits of each index, here bits 6..8 of the chunk) and tests its bit.
 * 17 instructions where building the mask took 45: the core's batch query
 * of 32-byte keys at 10^8 went from 11.1 to 10.3-10.7 ns (one at a time,
 * where a query waits for its line, it stays at about 60).
 */
__attribute__((target("avx512f")))
static inline bool
bs_block_test512(const uint64_t *block, uint64_t b, uint32_t hashes)
{
	const __m512i chunk_shifts = _mm512_set_epi64(0, 54, 45, 36, 27, 18, 9, 0);
	const __m512i chunks = _mm512_srlv_epi64(_mm512_set1_epi64((long long) b), chunk_shifts);
	const __m512i bits = _mm512_sllv_epi64(_mm512_set1_epi64(1),
										   _mm512_and_si512(chunks, _mm512_set1_epi64(63)));
	const __m512i words = _mm512_permutexvar_epi64(_mm512_srli_epi64(chunks, 6),
												   _mm512_loadu_si512(block));
	const __mmask8 lanes = (__mmask8) ((1u << hashes) - 1);

	return _mm512_mask_testn_epi64_mask(lanes, words, bits) == 0;
}
#endif

/* True when this processor runs the two functions below. */
bool		bs_block_simd_usable(void);

/*
 * Set, or test, chunks 0..hashes-1 (1 <= hashes <= 7) of b in the 512-bit block:
 * the same bits as bs_block_set_short and bs_block_test_short.
 */
void		bs_block_set_simd(uint64_t *block, uint64_t b, uint32_t hashes);
bool		bs_block_test_simd(const uint64_t *block, uint64_t b, uint32_t hashes);

#endif							/* BS_BLOCK_SIMD_H */
