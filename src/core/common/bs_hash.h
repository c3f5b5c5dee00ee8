/*
 * bs_hash.h — hashing a value's bytes, inline: XXH3's 128-bit hash (the
 * two 64-bit halves every type's probing starts from), and the unbiased
 * mapping of a hash onto a range.
 */
#ifndef BS_HASH_H
#define BS_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* Added to the seed to draw a fresh hash after a rejected one (see below). */
#define BS_RESEED_STEP UINT64_C(0x9E3779B97F4A7C15)

#if defined(__GNUC__) || defined(__clang__)
#define BS_FLATTEN __attribute__((flatten))
#define BS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define BS_FLATTEN
#define BS_ALWAYS_INLINE inline
#endif

/*
 * XXH3_128bits_withSeed of an 8-byte value (the integer, float, date and
 * timestamp families) with every call inlined: the constant length folds
 * the length dispatch away, leaving a few multiplications.
 */
static inline BS_FLATTEN XXH128_hash_t
bs_hash128_8(const void *data, uint64_t seed)
{
	return XXH3_128bits_withSeed(data, 8, seed);
}

/* XXH3_128bits_withSeed, with the 8-byte case of bs_hash128_8. */
static inline XXH128_hash_t
bs_hash128(const void *data, size_t length, uint64_t seed)
{
	if (length == 8)
		return bs_hash128_8(data, seed);
	return XXH3_128bits_withSeed(data, length, seed);
}

/*
 * Map a uniform 64-bit x onto a uniform value in [0, n) without modulo bias:
 * floor(x * n / 2^64), rejecting the 2^64 mod n values of x whose low product
 * half falls below that count (Lemire's multiply-shift with rejection).  Each
 * result then has exactly floor(2^64 / n) accepted preimages.
 */
static inline bool
bs_map_uniform(uint64_t x, uint64_t n, uint64_t reject_below, uint64_t *out)
{
	unsigned __int128 product = (unsigned __int128) x * n;

	if ((uint64_t) product < reject_below)
		return false;
	*out = (uint64_t) (product >> 64);
	return true;
}

/*
 * A fixed mixer of 64 bits (splitmix64's finaliser): the blocked scheme
 * draws a fresh word of bit positions from the last one with it
 * (bs_probe.h), the fit scheme its positions, and topk's reduction its
 * salted tie-breaks.
 */
static inline uint64_t
bs_block_remix(uint64_t x)
{
	x += UINT64_C(0x9E3779B97F4A7C15);
	x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
	return x ^ (x >> 31);
}

#endif							/* BS_HASH_H */
