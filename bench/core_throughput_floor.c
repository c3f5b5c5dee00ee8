/*
 * core_throughput_floor.c — the floor core_throughput measures the library
 * against: for each scheme a bare loop that hashes, maps and walks the same
 * positions and sets or tests the same words, the scheme a compile-time
 * constant (see core_throughput.c for what it leaves out and why).
 */
#include "core_throughput.h"

/* ---- the floor: one loop per scheme, the scheme a compile-time constant ---- */

#define ALWAYS_INLINE inline __attribute__((always_inline))
#define pg_attribute_unused __attribute__((unused))	/* as in c.h */

/* h1, h2 onto a, b: multiply-shift, no rejection test. */
static ALWAYS_INLINE void
floor_locate(int scheme, const Shape *s, XXH128_hash_t h, uint64_t *first,
			 uint64_t *step)
{
	*first = mulhi(h.low64, s->range);
	if (scheme == BS_SCHEME_DOUBLE)
		*step = 1 + mulhi(h.high64, s->bits - 1);
	else if (scheme == BS_SCHEME_BLOCKED)
		*step = h.high64;
	else
		*step = mulhi(h.high64, s->range);
}

/* Where the k positions of a located value come from. */
typedef struct Walk
{
	uint64_t	current;		/* g_i, or the offset in subarray i */
	uint64_t	base;			/* partition: i m'; blocked: a * 512 */
	uint64_t	step;
	uint64_t	word;			/* blocked: the chunk source */
	uint64_t	rest;
	uint32_t	chunks;			/* blocked: chunks left in rest */
	uint32_t	index;
} Walk;

static ALWAYS_INLINE void
walk_start(int scheme, Walk *w, uint64_t first, uint64_t step)
{
	w->index = 0;
	w->step = step;
	w->current = first;
	if (scheme == BS_SCHEME_BLOCKED)
	{
		w->base = first * BS_BLOCK_BITS;
		w->word = step;
		w->rest = step;
		w->chunks = 7;
	}
	else
		w->base = 0;
}

/* The next position; m > 3k^2 + 3k + 1, so one subtraction reduces. */
static ALWAYS_INLINE uint64_t
walk_next(int scheme, const Shape *s, Walk *w)
{
	uint64_t	position;
	uint64_t	i = w->index++;

	if (scheme == BS_SCHEME_BLOCKED)
	{
		if (w->chunks == 0)
		{
			w->word = bs_block_remix(w->word);
			w->rest = w->word;
			w->chunks = 7;
		}
		position = w->base + (w->rest & (BS_BLOCK_BITS - 1));
		w->rest >>= 9;
		w->chunks--;
		return position;
	}
	position = w->base + w->current;
	w->current += w->step;
	if (w->current >= s->range)
		w->current -= s->range;
	if (scheme == BS_SCHEME_DOUBLE_SQUARE || scheme == BS_SCHEME_DOUBLE_CUBE)
	{
		w->current += scheme == BS_SCHEME_DOUBLE_SQUARE ? 2 * i + 1 : 3 * i * i + 3 * i + 1;
		if (w->current >= s->range)
			w->current -= s->range;
	}
	else if (scheme == BS_SCHEME_PARTITION)
		w->base += s->range;
	return position;
}

static ALWAYS_INLINE uint64_t
independent_hash(const Shape *s, const uint8_t *key, int width, uint32_t i)
{
	return mulhi(XXH3_64bits_withSeed(key, width,
									  s->seed + (uint64_t) (i + 1) * INDEPENDENT_SEED_STEP),
				 s->bits);
}

static ALWAYS_INLINE void
floor_set(int scheme, const Shape *s, uint64_t *words, uint64_t first, uint64_t step)
{
	Walk		w;

	if (scheme == BS_SCHEME_BLOCKED && s->hashes <= BS_BLOCK_CHUNKS)
	{
		/* k <= 7: the same word operations as the library */
		if (s->block_simd)
			bs_block_set_simd(words + first * BS_BLOCK_WORDS, step, s->hashes);
		else
			bs_block_set_short(words + first * BS_BLOCK_WORDS, step, s->hashes);
		return;
	}
	walk_start(scheme, &w, first, step);
	for (uint32_t i = 0; i < s->hashes; i++)
	{
		uint64_t	p = walk_next(scheme, s, &w);

		words[p >> 6] |= UINT64_C(1) << (p & 63);
	}
}

static ALWAYS_INLINE void
floor_prefetch(int scheme, const Shape *s, uint64_t *words, uint64_t first,
			   uint64_t step)
{
	Walk		w;

	if (scheme == BS_SCHEME_BLOCKED)
	{
		__builtin_prefetch(&words[first * BS_BLOCK_WORDS], 1, 3);
		__builtin_prefetch(&words[first * BS_BLOCK_WORDS + BS_BLOCK_WORDS - 1], 1, 3);
		return;
	}
	walk_start(scheme, &w, first, step);
	for (uint32_t i = 0; i < s->hashes; i++)
		__builtin_prefetch(&words[walk_next(scheme, s, &w) >> 6], 1, 3);
}

static ALWAYS_INLINE bool
floor_test(int scheme, const Shape *s, const uint64_t *words, uint64_t first,
		   uint64_t step)
{
	Walk		w;

	if (scheme == BS_SCHEME_BLOCKED && s->hashes <= BS_BLOCK_CHUNKS)
		return s->block_simd ?
			bs_block_test_simd(words + first * BS_BLOCK_WORDS, step, s->hashes) :
			bs_block_test_short(words + first * BS_BLOCK_WORDS, step, s->hashes);
	walk_start(scheme, &w, first, step);
	for (uint32_t i = 0; i < s->hashes; i++)
	{
		uint64_t	p = walk_next(scheme, s, &w);

		if ((words[p >> 6] & (UINT64_C(1) << (p & 63))) == 0)
			return false;
	}
	return true;
}

static ALWAYS_INLINE void
floor_insert_loop(int scheme, Run *run, const uint8_t *keys, uint32_t count)
{
	Shape		s = run->shape;
	uint64_t   *words = s.words;
	int			width = run->width;

	for (uint32_t j = 0; j < count; j++)
	{
		const uint8_t *key = keys + (size_t) j * width;

		if (scheme == BS_SCHEME_INDEPENDENT)
		{
			for (uint32_t i = 0; i < s.hashes; i++)
			{
				uint64_t	p = independent_hash(&s, key, width, i);

				words[p >> 6] |= UINT64_C(1) << (p & 63);
			}
		}
		else
		{
			uint64_t	first;
			uint64_t	step;

			floor_locate(scheme, &s, bs_hash128(key, width, s.seed),
						 &first, &step);
			floor_set(scheme, &s, words, first, step);
		}
	}
}

static ALWAYS_INLINE void
floor_pipelined_loop(int scheme, Run *run, const uint8_t *keys, uint32_t count)
{
	Shape		s = run->shape;
	uint64_t   *words = s.words;
	int			width = run->width;
	uint64_t	pushed = run->pushed;
	uint32_t	depth = run->depth;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;
		uint32_t	slot = pushed & (depth - 1);

		floor_locate(scheme, &s,
					 bs_hash128(keys + (size_t) j * width, width, s.seed),
					 &first, &step);
		floor_prefetch(scheme, &s, words, first, step);
		if (pushed >= depth)
			floor_set(scheme, &s, words, run->ring_first[slot], run->ring_step[slot]);
		run->ring_first[slot] = first;
		run->ring_step[slot] = step;
		pushed++;
	}
	run->pushed = pushed;
}

static ALWAYS_INLINE void
floor_flush_loop(int scheme, Run *run)
{
	uint64_t	depth = run->depth;
	uint64_t	from = run->pushed > depth ? run->pushed - depth : 0;

	for (uint64_t i = from; i < run->pushed; i++)
		floor_set(scheme, &run->shape, run->shape.words,
				  run->ring_first[i & (depth - 1)], run->ring_step[i & (depth - 1)]);
	run->pushed = 0;
}

static ALWAYS_INLINE void
floor_query_loop(int scheme, Run *run, const uint8_t *keys, uint32_t count)
{
	Shape		s = run->shape;
	const uint64_t *words = s.words;
	int			width = run->width;
	uint64_t	hits = 0;

	for (uint32_t j = 0; j < count; j++)
	{
		const uint8_t *key = keys + (size_t) j * width;

		if (scheme == BS_SCHEME_INDEPENDENT)
		{
			bool		all = true;

			for (uint32_t i = 0; i < s.hashes && all; i++)
			{
				uint64_t	p = independent_hash(&s, key, width, i);

				all = (words[p >> 6] & (UINT64_C(1) << (p & 63))) != 0;
			}
			hits += all;
		}
		else
		{
			uint64_t	first;
			uint64_t	step;

			floor_locate(scheme, &s, bs_hash128(key, width, s.seed),
						 &first, &step);
			hits += floor_test(scheme, &s, words, first, step);
		}
	}
	run->hits += hits;
}

#define FLOOR_KERNELS(name, scheme) \
static void \
floor_insert_##name(Run *run, const uint8_t *keys, uint32_t count) \
{ \
	floor_insert_loop(scheme, run, keys, count); \
} \
static void pg_attribute_unused \
floor_pipelined_##name(Run *run, const uint8_t *keys, uint32_t count) \
{ \
	floor_pipelined_loop(scheme, run, keys, count); \
} \
static void pg_attribute_unused \
floor_flush_##name(Run *run) \
{ \
	floor_flush_loop(scheme, run); \
} \
static void \
floor_query_##name(Run *run, const uint8_t *keys, uint32_t count) \
{ \
	floor_query_loop(scheme, run, keys, count); \
}

FLOOR_KERNELS(double, BS_SCHEME_DOUBLE)
FLOOR_KERNELS(square, BS_SCHEME_DOUBLE_SQUARE)
FLOOR_KERNELS(cube, BS_SCHEME_DOUBLE_CUBE)
FLOOR_KERNELS(partition, BS_SCHEME_PARTITION)
FLOOR_KERNELS(blocked, BS_SCHEME_BLOCKED)
FLOOR_KERNELS(independent, BS_SCHEME_INDEPENDENT)

/* The floor's positions of one key, for the start-up check. */
void
floor_positions(int scheme, const Shape *s, const uint8_t *key, int width,
				uint64_t *positions)
{
	uint64_t	first;
	uint64_t	step;
	Walk		w;

	if (scheme == BS_SCHEME_INDEPENDENT)
	{
		for (uint32_t i = 0; i < s->hashes; i++)
			positions[i] = independent_hash(s, key, width, i);
		return;
	}
	floor_locate(scheme, s, bs_hash128(key, width, s->seed), &first, &step);
	walk_start(scheme, &w, first, step);
	for (uint32_t i = 0; i < s->hashes; i++)
	{
		/* walk_next wants a constant scheme; a switch gives it one */
		switch (scheme)
		{
			case BS_SCHEME_DOUBLE:
				positions[i] = walk_next(BS_SCHEME_DOUBLE, s, &w);
				break;
			case BS_SCHEME_DOUBLE_SQUARE:
				positions[i] = walk_next(BS_SCHEME_DOUBLE_SQUARE, s, &w);
				break;
			case BS_SCHEME_DOUBLE_CUBE:
				positions[i] = walk_next(BS_SCHEME_DOUBLE_CUBE, s, &w);
				break;
			case BS_SCHEME_PARTITION:
				positions[i] = walk_next(BS_SCHEME_PARTITION, s, &w);
				break;
			default:
				positions[i] = walk_next(BS_SCHEME_BLOCKED, s, &w);
				break;
		}
	}
}

/* ---- the table of the floor's loops ---- */

const SchemeKernels floor_kernels[BS_SCHEME_LAST + 1] = {
	[BS_SCHEME_DOUBLE] = {floor_insert_double, floor_pipelined_double, floor_flush_double, floor_query_double},
	[BS_SCHEME_DOUBLE_SQUARE] = {floor_insert_square, floor_pipelined_square, floor_flush_square, floor_query_square},
	[BS_SCHEME_DOUBLE_CUBE] = {floor_insert_cube, floor_pipelined_cube, floor_flush_cube, floor_query_cube},
	[BS_SCHEME_PARTITION] = {floor_insert_partition, floor_pipelined_partition, floor_flush_partition, floor_query_partition},
	[BS_SCHEME_INDEPENDENT] = {floor_insert_independent, NULL, NULL, floor_query_independent},
	[BS_SCHEME_BLOCKED] = {floor_insert_blocked, floor_pipelined_blocked, floor_flush_blocked, floor_query_blocked},
};
