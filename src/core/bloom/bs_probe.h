/*
 * bs_probe.h — the hot path of probing, inline: hash a value to its k
 * positions, prefetch their cache lines, set or test the bits.  The SQL
 * layer's per-row functions include it so that nothing on the path is a
 * function call.
 */
#ifndef BS_PROBE_H
#define BS_PROBE_H

#include "bloom/bs_block_simd.h"
#include "bloom/bs_bloom.h"
#include "bloom/bs_probe_other.h"

#include "common/bs_batch_key.h"	/* BS_PREFETCH_LIMIT */
#include "common/bs_hash.h"

/* Constants for probing filters with these parameters. */
void		bs_probe_init_scheme(bs_probe *probe, bs_scheme scheme, uint64_t bits,
								 uint32_t hashes, uint64_t seed);

/* The same for double hashing, and for the shape of a given filter. */
void		bs_probe_init(bs_probe *probe, uint64_t bits, uint32_t hashes,
						  uint64_t seed);
void		bs_probe_for(bs_probe *probe, const bs_bloom *filter);

/*
 * Set the k bits of one value's canonical bytes; counts it in items.  (The
 * same steps, inline and one at a time, are in bs_probe.h.)
 */
void		bs_bloom_add(bs_bloom *filter, const bs_probe *probe,
						 const void *data, size_t length);

/* True when all k bits of the value's canonical bytes are set. */
bool		bs_bloom_test(const bs_bloom *filter, const bs_probe *probe,
						  const void *data, size_t length);

/* The k positions of a value, in probe order (for tests and tools). */
void		bs_bloom_positions(const bs_probe *probe, const void *data,
							   size_t length, uint64_t *positions);

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
 *
 * The other schemes map the same two hashes differently:
 *   double_square, double_cube: a and b uniform on [0, m) (b = 0 allowed:
 *     f(i) = i^2 or i^3 still spreads the probes, KM section 5.2);
 *   partition: a and b uniform on [0, m'), probe i at i*m' + (a + i b mod m')
 *     (KM section 3: k subarrays of prime size m');
 *   blocked: a uniform on [0, blocks), b = h2 itself, whose 9-bit chunks
 *     pick the k bits inside block a;
 *   fit: a = h1 and b = h2 unmapped, masked to m = 2^j per position (bs_fit.h);
 *   independent: k separate hashes, so there is nothing to locate up front
 *     (bs_probe_locatable is false; use bs_bloom_add / bs_bloom_test).
 */
static inline void
bs_probe_locate(const bs_probe *probe, const void *data, size_t length,
				uint64_t *first, uint64_t *step)
{
	uint64_t	seed = probe->seed;

	for (;;)
	{
		XXH128_hash_t h = bs_hash128(data, length, seed);
		uint64_t	offset;

		if (probe->scheme == BS_SCHEME_FIT)
		{
			/* the halves themselves: m is a power of two (bs_fit.h) */
			*first = h.low64;
			*step = h.high64;
			return;
		}
		if (probe->scheme == BS_SCHEME_BLOCKED)
		{
			if (bs_map_uniform(h.low64, probe->first_range, probe->reject_below_first, first))
			{
				*step = h.high64;
				return;
			}
		}
		else if (bs_map_uniform(h.low64, probe->first_range, probe->reject_below_first, first) &&
				 bs_map_uniform(h.high64, probe->step_range, probe->reject_below_step, &offset))
		{
			*step = probe->scheme == BS_SCHEME_DOUBLE ? offset + 1 : offset;
			return;
		}
		seed += BS_RESEED_STEP;
	}
}

/* False for the independent scheme, whose k positions need k hashes (and for partial states). */
static inline bool
bs_probe_locatable(const bs_probe *probe)
{
	return probe->scheme != BS_SCHEME_INDEPENDENT && probe->scheme != BS_SCHEME_FIT_PARTIAL;
}

/*
 * Blocked scheme: bit j of the value inside its block is the j-th 9-bit
 * chunk of b; seven chunks fit in 64 bits, so every seventh bit draws a fresh
 * 64-bit word from a fixed mixer (bs_block_remix, splitmix64's finaliser) of
 * the last one.  The chunks of a uniform b are uniform and independent, so
 * the k bits are k independent uniform positions in the block (Putze,
 * Sanders and Singler's blocked filter with the standard construction inside
 * each block).
 */
/* 9-bit chunks in one 64-bit word: the bits of a blocked value per draw. */
#define BS_BLOCK_CHUNKS 7

/* Where a blocked value's bits come from: the current word and what is left. */
typedef struct bs_block_bits
{
	uint64_t	word;			/* b, then its remixes */
	uint64_t	rest;			/* the unused chunks of word */
	unsigned	chunks;			/* how many are left */
} bs_block_bits;

static inline void
bs_block_bits_init(bs_block_bits *source, uint64_t b)
{
	source->word = b;
	source->rest = b;
	source->chunks = BS_BLOCK_CHUNKS;
}

/* The next bit (0..511) of a blocked value. */
static inline unsigned
bs_block_next_bit(bs_block_bits *source)
{
	unsigned	bit;

	if (source->chunks == 0)
	{
		source->word = bs_block_remix(source->word);
		source->rest = source->word;
		source->chunks = BS_BLOCK_CHUNKS;
	}
	bit = (unsigned) (source->rest & (BS_BLOCK_BITS - 1));
	source->rest >>= 9;
	source->chunks--;
	return bit;
}

/*
 * Values with k <= 7 (the usual k of a blocked filter, 6 at 1%) take all
 * their bits from b itself: chunk i is bits 9i..9i+8 of b, its top 3 bits
 * the word of the block and its low 6 the bit in that word.  These are the
 * bits bs_block_next_bit gives for the first seven, taken without a loop
 * (the switch falls through from chunk k - 1 down to chunk 0), so a bit costs
 * a shift, a mask and one OR (or AND): about half the instructions of the
 * loop over the chunk source, which matters because a one-at-a-time insert
 * or query overlaps its cache miss with those of the next few values only
 * as far as their instructions fit in the processor's window.  Where the
 * processor has AVX-512F, probe->block_simd sends these values to
 * bs_block_simd.c instead, which sets the same bits with one read and write
 * of the block; these scalar steps remain the fallback and the reference its
 * test compares against.
 */
static inline uint64_t
bs_block_bit_word(uint64_t chunk)
{
	return (chunk >> 6) & (BS_BLOCK_WORDS - 1);
}

/* Apply STEP(shift) to chunks k - 1 .. 0 of b, shift = 9 * chunk. */
#define BS_BLOCK_EACH_CHUNK(hashes, STEP) \
	switch (hashes) \
	{ \
		case 7: STEP(54); /* FALLTHROUGH */ \
		case 6: STEP(45); /* FALLTHROUGH */ \
		case 5: STEP(36); /* FALLTHROUGH */ \
		case 4: STEP(27); /* FALLTHROUGH */ \
		case 3: STEP(18); /* FALLTHROUGH */ \
		case 2: STEP(9); /* FALLTHROUGH */ \
		default: STEP(0); \
	}

/* Set the k <= 7 bits of a blocked value in its block. */
static BS_ALWAYS_INLINE void
bs_block_set_short(uint64_t *block, uint64_t b, uint32_t hashes)
{
#define BS_BLOCK_SET_CHUNK(shift) \
	block[bs_block_bit_word(b >> (shift))] |= UINT64_C(1) << ((b >> (shift)) & 63)
	BS_BLOCK_EACH_CHUNK(hashes, BS_BLOCK_SET_CHUNK);
#undef BS_BLOCK_SET_CHUNK
}

/* True when the k <= 7 bits of a blocked value are all set in its block. */
static BS_ALWAYS_INLINE bool
bs_block_test_short(const uint64_t *block, uint64_t b, uint32_t hashes)
{
	uint64_t	missing = 0;

#define BS_BLOCK_TEST_CHUNK(shift) \
	missing |= ~block[bs_block_bit_word(b >> (shift))] >> ((b >> (shift)) & 63)
	BS_BLOCK_EACH_CHUNK(hashes, BS_BLOCK_TEST_CHUNK);
#undef BS_BLOCK_TEST_CHUNK
	return (missing & 1) == 0;
}

/*
 * Prefetch, for writing, the cache lines of a located value's bits.  Always
 * inlined: GCC otherwise judges a function made of prefetches "pure" and
 * drops the calls it does not inline, which silently disabled bloom_agg's
 * prefetch pipeline.  A block is one cache line when the bit array is
 * line-aligned (bs_bloom_alloc_aligned), two otherwise (the header is 40
 * bytes), and then both are fetched.
 */
static BS_ALWAYS_INLINE void
bs_probe_prefetch(const bs_bloom *filter, const bs_probe *probe, uint64_t first,
				  uint64_t step)
{
	uint64_t	position = first;
	uint32_t	count = probe->hashes < BS_PREFETCH_LIMIT ? probe->hashes : BS_PREFETCH_LIMIT;

	if (probe->scheme == BS_SCHEME_BLOCKED)
	{
		const uint64_t *block = &filter->words[first * BS_BLOCK_WORDS];

		__builtin_prefetch(block, 1, 3);
		if (((uintptr_t) block & 63) != 0)
			__builtin_prefetch(block + BS_BLOCK_WORDS - 1, 1, 3);
		return;
	}
	if (probe->scheme != BS_SCHEME_DOUBLE)
		return;					/* not worth it for the experimental schemes */
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

	if (probe->scheme == BS_SCHEME_BLOCKED)
	{
		uint64_t   *block = words + first * BS_BLOCK_WORDS;
		bs_block_bits source;

		if (probe->block_simd)
		{
			bs_block_set_simd(block, step, probe->hashes);
			return;
		}
		if (probe->hashes <= BS_BLOCK_CHUNKS)
		{
			bs_block_set_short(block, step, probe->hashes);
			return;
		}
		bs_block_bits_init(&source, step);
		for (uint32_t i = 0; i < probe->hashes; i++)
		{
			unsigned	bit = bs_block_next_bit(&source);

			block[bit >> 6] |= UINT64_C(1) << (bit & 63);
		}
		return;
	}
	if (probe->scheme != BS_SCHEME_DOUBLE)
	{
		bs_probe_set_other(filter, probe, first, step);
		return;
	}
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

	if (probe->scheme == BS_SCHEME_BLOCKED)
	{
		const uint64_t *block = words + first * BS_BLOCK_WORDS;
		bs_block_bits source;

		if (probe->block_simd)
			return bs_block_test_simd(block, step, probe->hashes);
		if (probe->hashes <= BS_BLOCK_CHUNKS)
			return bs_block_test_short(block, step, probe->hashes);
		bs_block_bits_init(&source, step);
		for (uint32_t i = 0; i < probe->hashes; i++)
		{
			unsigned	bit = bs_block_next_bit(&source);

			if ((block[bit >> 6] & (UINT64_C(1) << (bit & 63))) == 0)
				return false;
		}
		return true;
	}
	if (probe->scheme != BS_SCHEME_DOUBLE)
		return bs_probe_test_other(filter, probe, first, step);
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

/*
 * bs_probe_test for one query at a time (bloom_contains: one per executor
 * row): the k loads of the default scheme are all issued, without a branch
 * between them, so their cache misses overlap and a query costs about one
 * memory latency instead of up to k in a row, and no early exit mispredicts
 * (measured in the server: 10% faster with a 120 kB filter, 20% with 12 MB).
 * In a loop of queries the early exit of bs_probe_test is faster: fewer
 * loads, and the out-of-order core overlaps consecutive queries.
 */
static inline bool
bs_probe_test_overlapped(const bs_bloom *filter, const bs_probe *probe,
						 uint64_t first, uint64_t step)
{
	uint64_t	position = first;
	uint64_t	bits = probe->bits;
	const uint64_t *words = filter->words;
	uint64_t	all = 1;

	if (probe->scheme != BS_SCHEME_DOUBLE || probe->hashes > BS_PREFETCH_LIMIT)
		return bs_probe_test(filter, probe, first, step);
	for (uint32_t i = 0; i < probe->hashes; i++)
	{
		all &= words[position >> 6] >> (position & 63);
		position += step;
		if (position >= bits)
			position -= bits;
	}
	return (all & 1) != 0;
}

#endif							/* BS_PROBE_H */
