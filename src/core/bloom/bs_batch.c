/*
 * bs_batch.c — many values against one filter, with their cache misses
 * overlapped.
 *
 * One value at a time, a value's k cache misses overlap those of the next
 * values only as far as the processor's instruction window reaches, a few
 * values.  A caller that holds many values can do better: locate value j,
 * prefetch its lines, and only then set (or test) the bits of value
 * j - depth, whose lines have arrived meanwhile.  That is bloom_agg's ring
 * (bloomfilter_agg.c), here with the depth each scheme needs beyond the
 * caches (measured by bench/core_throughput.c's ring sweep on a filter of
 * 10^8 items): double hashing touches k lines a value and saturates the
 * memory system at 16 values in flight; a blocked value is one line and
 * keeps gaining up to 64.  Where the processor has AVX-512F, blocked values
 * with k <= 7 set and test their block with the vector mask of
 * bs_block_simd.h inlined into the loop: a loop compiled for AVX-512F,
 * chosen at run time by probe->block_simd.
 *
 * The bits and answers are those of bs_bloom_add and bs_bloom_test, value by
 * value (test_core checks it for every scheme); only the order in which the
 * bits are set differs, and OR does not care.  The values come either laid
 * end to end at one width (the benchmarks' keys) or as a list of bs_key
 * (the SQL layer's canonical bytes); the loops are written once and
 * expanded for each, the constant list pointer folding the choice away.
 * Work goes in chunks of BS_BATCH_CHUNK values with an interrupt poll before
 * each; the ring drains at the end of a chunk, which costs a few percent.
 */
#include "bloom/bs_batch.h"

#include "bloom/bs_block_simd.h"
#include "bloom/bs_probe.h"

#define RING_MAX 64				/* the deepest ring; a power of two */
#define RING_DOUBLE 16			/* double hashing's ring (and the others') */

/* Values in flight: located, their lines prefetched, their bits not yet used. */
typedef struct ring
{
	uint64_t	first[RING_MAX];
	uint64_t	step[RING_MAX];
} ring;

static uint32_t
ring_depth(const bs_probe *probe)
{
	return probe->scheme == BS_SCHEME_BLOCKED ? RING_MAX : RING_DOUBLE;
}

/* items += n, saturating as bs_bloom_add does. */
static void
count_items(bs_bloom *filter, size_t n)
{
	filter->items = (uint64_t) n > UINT64_MAX - filter->items ? UINT64_MAX : filter->items + n;
}

/* Count a test's answer and keep it in maybe[index] when the caller asked. */
static BS_ALWAYS_INLINE void
note_answer(bool answer, size_t index, size_t *hits, bool *maybe)
{
	*hits += answer;
	if (maybe != NULL)
		maybe[index] = answer;
}

/*
 * Value j's bytes: keys[j] of a list, or else the j-th width bytes from
 * keys.  Always inlined with a constant list (NULL or not) and, for 8-byte
 * keys, a constant width, so that each loop keeps only its own access.
 */
static BS_ALWAYS_INLINE void
key_at(const void *keys, const bs_key *list, size_t width, size_t j,
	   const void **data, size_t *length)
{
	if (list != NULL)
	{
		*data = list[j].data;
		*length = list[j].length;
	}
	else
	{
		*data = (const uint8_t *) keys + j * width;
		*length = width;
	}
}

static BS_ALWAYS_INLINE void
locate_key(const bs_probe *probe, const void *keys, const bs_key *list, size_t width,
		   size_t j, uint64_t *first, uint64_t *step)
{
	const void *data;
	size_t		length;

	key_at(keys, list, width, j, &data, &length);
	bs_probe_locate(probe, data, length, first, step);
}

/*
 * The loop of every call, expanded into each variant below with its own
 * SET_OR_TEST(index, first, step), which sets or tests value `index`.
 */
#define BATCH_LOOP(SET_OR_TEST) \
	do { \
		ring		pending; \
		size_t		j; \
		for (j = 0; j < n; j++) \
		{ \
			uint32_t	slot = (uint32_t) j & (depth - 1); \
			uint64_t	first; \
			uint64_t	step; \
			locate_key(probe, keys, list, width, j, &first, &step); \
			bs_probe_prefetch(filter, probe, first, step); \
			if (j >= depth) \
				SET_OR_TEST(j - depth, pending.first[slot], pending.step[slot]); \
			pending.first[slot] = first; \
			pending.step[slot] = step; \
		} \
		for (j = n > depth ? n - depth : 0; j < n; j++) \
			SET_OR_TEST(j, pending.first[j & (depth - 1)], pending.step[j & (depth - 1)]); \
	} while (0)

static BS_ALWAYS_INLINE void
add_loop(bs_bloom *filter, const bs_probe *probe, const void *keys, const bs_key *list,
		 size_t width, size_t n, uint32_t depth)
{
#define ADD_ONE(index, first, step) bs_probe_set(filter, probe, first, step)
	BATCH_LOOP(ADD_ONE);
#undef ADD_ONE
}

static BS_ALWAYS_INLINE size_t
test_loop(const bs_bloom *filter, const bs_probe *probe, const void *keys,
		  const bs_key *list, size_t width, size_t n, uint32_t depth, bool *maybe)
{
	size_t		hits = 0;

#define TEST_ONE(index, first, step) \
	note_answer(bs_probe_test(filter, probe, first, step), index, &hits, maybe)
	BATCH_LOOP(TEST_ONE);
#undef TEST_ONE
	return hits;
}

/*
 * Each variant expands its loop three times: for a list of keys, for 8-byte
 * keys laid end to end, whose constant length folds the hash's length
 * dispatch away (0.2-0.6 ns a value), and for any other width.
 */
static void
add_plain(bs_bloom *filter, const bs_probe *probe, const void *keys, const bs_key *list,
		  size_t width, size_t n)
{
	if (list != NULL)
		add_loop(filter, probe, NULL, list, 0, n, ring_depth(probe));
	else if (width == 8)
		add_loop(filter, probe, keys, NULL, 8, n, ring_depth(probe));
	else
		add_loop(filter, probe, keys, NULL, width, n, ring_depth(probe));
}

static size_t
test_plain(const bs_bloom *filter, const bs_probe *probe, const void *keys,
		   const bs_key *list, size_t width, size_t n, bool *maybe)
{
	if (list != NULL)
		return test_loop(filter, probe, NULL, list, 0, n, ring_depth(probe), maybe);
	return width == 8 ? test_loop(filter, probe, keys, NULL, 8, n, ring_depth(probe), maybe) :
		test_loop(filter, probe, keys, NULL, width, n, ring_depth(probe), maybe);
}

#if BS_BLOCK_SIMD_BUILT

/*
 * Blocked values with k <= 7 on AVX-512F: the same loop with the block's
 * vector mask inlined (bs_probe_set would call out to bs_block_simd.c).
 */
__attribute__((target("avx512f")))
static BS_ALWAYS_INLINE void
add_blocked_loop(bs_bloom *filter, const bs_probe *probe, const void *keys,
				 const bs_key *list, size_t width, size_t n)
{
	const uint32_t depth = RING_MAX;
	uint64_t   *words = filter->words;
	uint32_t	hashes = probe->hashes;

#define ADD_BLOCK(index, first, step) \
	bs_block_set512(words + (first) * BS_BLOCK_WORDS, step, hashes)
	BATCH_LOOP(ADD_BLOCK);
#undef ADD_BLOCK
}

__attribute__((target("avx512f")))
static BS_ALWAYS_INLINE size_t
test_blocked_loop(const bs_bloom *filter, const bs_probe *probe, const void *keys,
				  const bs_key *list, size_t width, size_t n, bool *maybe)
{
	const uint32_t depth = RING_MAX;
	const uint64_t *words = filter->words;
	uint32_t	hashes = probe->hashes;
	size_t		hits = 0;

#define TEST_BLOCK(index, first, step) \
	note_answer(bs_block_test512(words + (first) * BS_BLOCK_WORDS, step, hashes), \
				index, &hits, maybe)
	BATCH_LOOP(TEST_BLOCK);
#undef TEST_BLOCK
	return hits;
}

__attribute__((target("avx512f")))
static void
add_blocked(bs_bloom *filter, const bs_probe *probe, const void *keys, const bs_key *list,
			size_t width, size_t n)
{
	if (list != NULL)
		add_blocked_loop(filter, probe, NULL, list, 0, n);
	else if (width == 8)
		add_blocked_loop(filter, probe, keys, NULL, 8, n);
	else
		add_blocked_loop(filter, probe, keys, NULL, width, n);
}

__attribute__((target("avx512f")))
static size_t
test_blocked(const bs_bloom *filter, const bs_probe *probe, const void *keys,
			 const bs_key *list, size_t width, size_t n, bool *maybe)
{
	if (list != NULL)
		return test_blocked_loop(filter, probe, NULL, list, 0, n, maybe);
	return width == 8 ? test_blocked_loop(filter, probe, keys, NULL, 8, n, maybe) :
		test_blocked_loop(filter, probe, keys, NULL, width, n, maybe);
}
#endif

/* One chunk of values added: the ring, or one value at a time where nothing can be located ahead. */
static void
add_chunk(bs_bloom *filter, const bs_probe *probe, const void *keys, const bs_key *list,
		  size_t width, size_t n)
{
	if (!bs_probe_locatable(probe))
	{
		/* the independent scheme hashes k times: nothing to locate ahead */
		for (size_t j = 0; j < n; j++)
		{
			const void *data;
			size_t		length;

			key_at(keys, list, width, j, &data, &length);
			bs_bloom_add(filter, probe, data, length);
		}
		return;
	}
#if BS_BLOCK_SIMD_BUILT
	if (probe->block_simd)
		add_blocked(filter, probe, keys, list, width, n);
	else
#endif
		add_plain(filter, probe, keys, list, width, n);
	count_items(filter, n);
}

static size_t
test_chunk(const bs_bloom *filter, const bs_probe *probe, const void *keys,
		   const bs_key *list, size_t width, size_t n, bool *maybe)
{
	size_t		hits = 0;

	if (!bs_probe_locatable(probe))
	{
		for (size_t j = 0; j < n; j++)
		{
			const void *data;
			size_t		length;

			key_at(keys, list, width, j, &data, &length);
			note_answer(bs_bloom_test(filter, probe, data, length), j, &hits, maybe);
		}
		return hits;
	}
#if BS_BLOCK_SIMD_BUILT
	if (probe->block_simd)
		return test_blocked(filter, probe, keys, list, width, n, maybe);
#endif
	return test_plain(filter, probe, keys, list, width, n, maybe);
}

/* The values of chunk `from` onwards: how many, after an interrupt poll. */
static size_t
next_chunk(size_t from, size_t n)
{
	bs_poll_interrupts();
	return n - from > BS_BATCH_CHUNK ? BS_BATCH_CHUNK : n - from;
}

void
bs_bloom_add_batch(bs_bloom *filter, const bs_probe *probe, const void *keys,
				   size_t width, size_t n)
{
	for (size_t from = 0, count; from < n; from += count)
	{
		count = next_chunk(from, n);
		add_chunk(filter, probe, (const uint8_t *) keys + from * width, NULL, width, count);
	}
}

size_t
bs_bloom_test_batch(const bs_bloom *filter, const bs_probe *probe, const void *keys,
					size_t width, size_t n, bool *maybe)
{
	size_t		hits = 0;

	for (size_t from = 0, count; from < n; from += count)
	{
		count = next_chunk(from, n);
		hits += test_chunk(filter, probe, (const uint8_t *) keys + from * width, NULL, width,
						   count, maybe != NULL ? maybe + from : NULL);
	}
	return hits;
}

void
bs_bloom_add_keys(bs_bloom *filter, const bs_probe *probe, const bs_key *keys, size_t n)
{
	for (size_t from = 0, count; from < n; from += count)
	{
		count = next_chunk(from, n);
		add_chunk(filter, probe, NULL, keys + from, 0, count);
	}
}

size_t
bs_bloom_test_keys(const bs_bloom *filter, const bs_probe *probe, const bs_key *keys,
				   size_t n, bool *maybe)
{
	size_t		hits = 0;

	for (size_t from = 0, count; from < n; from += count)
	{
		count = next_chunk(from, n);
		hits += test_chunk(filter, probe, NULL, keys + from, 0, count,
						   maybe != NULL ? maybe + from : NULL);
	}
	return hits;
}
