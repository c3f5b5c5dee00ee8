/*
 * bs_probe.h — the hot path of probing, inline: hash a value to its k
 * positions, prefetch their cache lines, set or test the bits.  The SQL
 * layer's per-row functions include it so that nothing on the path is a
 * function call.
 */
#ifndef BS_PROBE_H
#define BS_PROBE_H

#include "bs_bloom.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

/* Added to the seed to draw a fresh hash after a rejected one (see below). */
#define BS_RESEED_STEP UINT64_C(0x9E3779B97F4A7C15)

/* At most this many lines are prefetched per value (k can reach 1024). */
#define BS_PREFETCH_LIMIT 16

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
 * Kirsch–Mitzenmacher double hashing (KM 2008, section 5.2): one
 * XXH3_128bits_withSeed call gives h1 (low 64 bits) and h2 (high 64 bits);
 * the positions are g_i = a + i*b (mod m), i = 0..k-1, with
 *   a = h1 mapped uniformly onto [0, m),
 *   b = 1 + h2 mapped uniformly onto [0, m - 1), i.e. b in [1, m - 1].
 * Because m is prime (the validator insists) and b is never 0 mod m, i*b
 * takes k distinct values mod m for any k <= m: the probe sequence cannot
 * cycle early, so every value sets exactly k distinct bits (Burns' "classic"
 * construction).  KM let h2 range over all of [m]; b = 0 would put all k
 * probes on one bit, the degenerate case their analysis tolerates and this
 * filter excludes.  A rejected hash (probability below m / 2^63, about 6.5e-10
 * at the largest m) is replaced by a fresh one from a seed advanced by a
 * fixed step, which keeps the mapping deterministic and exactly uniform.
 * All arithmetic stays below 2m <= 1.2e10, far from 64-bit overflow.
 */
static inline void
bs_probe_locate(const bs_probe *probe, const void *data, size_t length,
				uint64_t *first, uint64_t *step)
{
	uint64_t	seed = probe->seed;

	for (;;)
	{
		XXH128_hash_t h = XXH3_128bits_withSeed(data, length, seed);
		uint64_t	offset;

		if (bs_map_uniform(h.low64, probe->bits, probe->reject_below_m, first) &&
			bs_map_uniform(h.high64, probe->bits - 1, probe->reject_below_step, &offset))
		{
			*step = offset + 1;
			return;
		}
		seed += BS_RESEED_STEP;
	}
}

/* Prefetch, for writing, the cache lines of a located value's bits. */
static inline void
bs_probe_prefetch(const bs_bloom *filter, const bs_probe *probe, uint64_t first,
				  uint64_t step)
{
	uint64_t	position = first;
	uint32_t	count = probe->hashes < BS_PREFETCH_LIMIT ? probe->hashes : BS_PREFETCH_LIMIT;

	for (uint32_t i = 0; i < count; i++)
	{
		__builtin_prefetch(&filter->words[position >> 6], 1, 3);
		position += step;
		if (position >= probe->bits)
			position -= probe->bits;
	}
}

/* Set the k bits of a located value (the item count is the caller's). */
static inline void
bs_probe_set(bs_bloom *filter, const bs_probe *probe, uint64_t first, uint64_t step)
{
	uint64_t	position = first;
	uint64_t	bits = probe->bits;
	uint64_t   *words = filter->words;

	for (uint32_t i = 0; i < probe->hashes; i++)
	{
		words[position >> 6] |= UINT64_C(1) << (position & 63);
		position += step;
		if (position >= bits)
			position -= bits;
	}
}

/* True when all k bits of a located value are set. */
static inline bool
bs_probe_test(const bs_bloom *filter, const bs_probe *probe, uint64_t first,
			  uint64_t step)
{
	uint64_t	position = first;
	uint64_t	bits = probe->bits;
	const uint64_t *words = filter->words;

	for (uint32_t i = 0; i < probe->hashes; i++)
	{
		if ((words[position >> 6] & (UINT64_C(1) << (position & 63))) == 0)
			return false;
		position += step;
		if (position >= bits)
			position -= bits;
	}
	return true;
}

#endif							/* BS_PROBE_H */
