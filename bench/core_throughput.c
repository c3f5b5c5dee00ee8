/*
 * core_throughput.c — insert and query throughput of every probing scheme on
 * the pure C core, against the floor the hardware sets for the same work.
 *
 * For n = 10^6, 10^7 and 10^8 items at fpr 0.01 (bs_bloom_size_scheme: about
 * 1.2 MB, 12 MB and 120 MB of bits: about L2, meant to be inside L3, far
 * beyond it), with 8-byte keys and with 32-character strings, it times in ns
 * per operation:
 *
 *   insert            one value at a time: bs_probe_locate + bs_probe_set and
 *                     items++ (bs_bloom_add for the independent scheme), the
 *                     steps of the server's unpipelined path;
 *   pipelined insert  bloom_agg's pipeline (src/pg/bloomfilter_agg.c): locate
 *                     a value, count it, bs_probe_prefetch its lines, set the
 *                     bits of the value located PIPELINE_DEPTH = 16 values
 *                     earlier (a ring of 16; the rest set at the end, timed);
 *   query             bs_probe_locate + bs_probe_test, one at a time, on
 *                     members (drawn from the inserted keys) and non-members
 *                     (never inserted) in random order, half and half.
 *
 * The floor, next to each in the same binary: a bare loop over keys of the
 * same kind that calls the same XXH3_128bits_withSeed (bs_hash128) with the same seed,
 * maps h1 and h2 with the same multiply-shift (without the rejection test,
 * which in practice never fires), walks the same k positions with the same
 * arithmetic and ORs (insert) or tests (query) the same words.  The shape
 * (m, k, ...) is in locals, the scheme fixed at compile time (one loop per
 * scheme: no dispatch), no item count, no function call but the hash.  At
 * start-up the floor's positions are checked against bs_bloom_positions, so
 * "the same words" is verified, not assumed.  Per scheme the walk is:
 *   double               p = a; then p += b, p -= m if p >= m (a + i b mod m);
 *   double_square/cube   the same plus 2i + 1 or 3i^2 + 3i + 1 (both < m);
 *   partition            i m' plus the offset a + i b mod m';
 *   blocked              block a, the bits 9-bit chunks of h2 (remixed past
 *                        the seventh, as bs_probe.h does);
 *   independent          k XXH3_64bits_withSeed calls, multiply-shift each.
 * The floor's query stops at the first clear bit, as any query does.  The
 * pipelined floor has the same ring of 16 and prefetches the lines of all k
 * positions of every scheme (blocked: the block's first and last word, i.e.
 * every line it spans); the library prefetches for double and blocked only.
 * "Hash alone" is that call (bs_hash128) by itself.
 *
 * Timing.  The machine may be shared, so the library and its floor run
 * paired: a run is CHUNKS chunks of CHUNK keys for each, interleaved chunk by
 * chunk (the library on the even chunks of keys, the floor on the odd ones,
 * so that neither finds the other's lines in the cache; which goes first
 * alternates from run to run), each chunk timed on its own, its keys made
 * untimed just before.  A run's figure is the median over its chunks (a chunk
 * during which the process was descheduled does not count); a table figure is
 * the median of RUNS runs after WARMUP; × is the ratio of the two medians.
 * "Disturbance" at the end says how far a run's mean over its chunks exceeds
 * its median: large values mean other processes were taking the CPUs.
 *
 * Keys: 8-byte keys are the integers 1, 2, ...; strings are 32 hex digits of
 * a 128-bit mix of the index (like md5(id)).  Inserts write the same 2 OPS
 * keys in every run (OPS each side); before the queries the filter is topped
 * up with random bits to the fill that n items leave, 1 - e^(-kn/m) (10^8
 * real inserts per row would take minutes), so that non-members exit early
 * as often as in a full filter: the FP column, the measured false-positive
 * rate of the queries, should be near 0.01.
 *
 * Memory.  A filter is allocated as the server does its state (madvise
 * MADV_HUGEPAGE, zeroed) with the bs_bloom header on a 64-byte boundary, so
 * the words start 40 bytes into a line and a blocked filter's 64-byte blocks
 * straddle two lines; rows "..., aligned words" shift the header by 24 bytes
 * so that each block is one line.  The line "Memory under each size" gives
 * the latency of a random read at that size and its cost when many overlap:
 * what the hardware allows, to read the filters' figures against.
 *
 * Rows "..., prefetch kept" use bench/probe_variants.h, a prototype of a
 * change to bs_probe.h (see bench/README.md) measured in the same loops.
 *
 * The second target (blocked at n = 10^8 at most half double's time) is
 * measured on its own with the two filters side by side in the same passes,
 * on the same keys, their words on a cache line: the library one at a time
 * (insert, query) and pipelined (insert, and queries pipelined the same way)
 * with rings of 8, 16, 32 and 64 values; the targets compare each scheme at
 * its fastest ring.
 *
 * Output: markdown on stdout, to paste into bench/README.md; progress on stderr.
 * About 2 minutes (n = 10^8 dominates).
 * Usage: core_throughput [-w 8|32] [-n 6|7|8] [-s scheme]  (a subset, e.g. to
 * profile); CT_DEBUG=1 in the environment prints every run's figures.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bs_batch.h"
#include "bs_bloom.h"
#include "bs_probe.h"
#include "bs_scheme_sizing.h"
#include "probe_variants.h"

#define CHUNK 4096				/* keys made at a time, untimed; timed at a time */
#define CHUNKS 32
#define OPS (CHUNKS * CHUNK)	/* operations per timed run: 131,072 */
#define RUNS 5					/* counted runs per figure */
#define WARMUP 1				/* runs not counted, first */
#define DEPTH 16				/* bloom_agg's PIPELINE_DEPTH */
#define MAX_DEPTH 64			/* the deepest ring of the depth sweep */
#define MAX_WIDTH 32
#define FPR 0.01
#define SEED 0					/* bloom_agg's seed */
#define NONMEMBER_BASE (UINT64_C(1) << 40)	/* key indexes never inserted */
#define INDEPENDENT_SEED_STEP UINT64_C(0xD1B54A32D192ED03)	/* bs_probe_other.c */
#define HUGE_PAGE (2 * 1024 * 1024)

/* ---- timing and statistics ---- */

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int
compare_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

/* Median, minimum and maximum of RUNS figures. */
typedef struct Stat
{
	double		median;
	double		min;
	double		max;
} Stat;

static Stat
stat_of(const double *figures)
{
	double		v[RUNS];
	Stat		s;

	memcpy(v, figures, sizeof(v));
	qsort(v, RUNS, sizeof(double), compare_double);
	s.median = v[RUNS / 2];
	s.min = v[0];
	s.max = v[RUNS - 1];
	return s;
}

/* ---- keys ---- */

static uint64_t
mix64(uint64_t x)
{
	x += UINT64_C(0x9E3779B97F4A7C15);
	x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
	return x ^ (x >> 31);
}

/* Key number `index`: the integer index + 1, or 32 hex digits (an md5 look). */
static void
make_key(uint8_t *out, int width, uint64_t index)
{
	static const char hex[] = "0123456789abcdef";

	if (width == 8)
	{
		uint64_t	v = index + 1;

		memcpy(out, &v, 8);
		return;
	}
	for (int half = 0; half < 2; half++)
	{
		uint64_t	x = mix64(index * 2 + half);

		for (int d = 0; d < 16; d++, x >>= 4)
			out[half * 16 + d] = (uint8_t) hex[x & 15];
	}
}

/* ---- the state of one measurement ---- */

/* A filter's shape, as the floor loops hold it. */
typedef struct Shape
{
	uint64_t   *words;
	uint64_t	bits;			/* m */
	uint64_t	range;			/* m, m' (partition) or blocks (blocked) */
	uint32_t	hashes;			/* k */
	bool		block_simd;		/* blocked k <= 7 bits in 512-bit vectors */
	uint64_t	seed;
} Shape;

typedef struct Run
{
	bs_bloom   *filter;
	bs_probe	probe;
	Shape		shape;
	int			width;			/* key bytes */
	uint64_t	pushed;			/* values entered into the ring this run */
	uint32_t	depth;			/* values in flight: DEPTH, or the sweep's */
	uint64_t	ring_first[MAX_DEPTH];
	uint64_t	ring_step[MAX_DEPTH];
	uint64_t	hits;			/* queries answered "maybe" */
	uint64_t	sink;			/* keeps the hash-alone loop alive */
} Run;

typedef void (*Kernel) (Run *run, const uint8_t *keys, uint32_t count);
typedef void (*Flush) (Run *run);

static inline uint64_t
mulhi(uint64_t x, uint64_t n)
{
	return (uint64_t) (((unsigned __int128) x * n) >> 64);
}

/* ---- the library's paths, as the server calls them ---- */

static void
lib_insert(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	bs_bloom   *filter = run->filter;
	int			width = run->width;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;

		bs_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		bs_probe_set(filter, probe, first, step);
		filter->items++;
	}
}

/* The independent scheme: bs_bloom_add, as bloom_agg_trans calls it. */
static void
lib_insert_independent(Run *run, const uint8_t *keys, uint32_t count)
{
	for (uint32_t j = 0; j < count; j++)
		bs_bloom_add(run->filter, &run->probe, keys + (size_t) j * run->width,
					 run->width);
}

static void
lib_insert_pipelined(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	bs_bloom   *filter = run->filter;
	int			width = run->width;
	uint64_t	pushed = run->pushed;
	uint32_t	depth = run->depth;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;
		uint32_t	slot = pushed & (depth - 1);

		bs_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		filter->items++;
		bs_probe_prefetch(filter, probe, first, step);
		if (pushed >= depth)
			bs_probe_set(filter, probe, run->ring_first[slot], run->ring_step[slot]);
		run->ring_first[slot] = first;
		run->ring_step[slot] = step;
		pushed++;
	}
	run->pushed = pushed;
}

static void
lib_flush(Run *run)
{
	uint64_t	depth = run->depth;
	uint64_t	from = run->pushed > depth ? run->pushed - depth : 0;

	for (uint64_t i = from; i < run->pushed; i++)
		bs_probe_set(run->filter, &run->probe, run->ring_first[i & (depth - 1)],
					 run->ring_step[i & (depth - 1)]);
	run->pushed = 0;
}

static void
lib_query(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	const bs_bloom *filter = run->filter;
	int			width = run->width;
	uint64_t	hits = 0;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;

		bs_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		hits += bs_probe_test(filter, probe, first, step);
	}
	run->hits += hits;
}

static void
lib_query_independent(Run *run, const uint8_t *keys, uint32_t count)
{
	uint64_t	hits = 0;

	for (uint32_t j = 0; j < count; j++)
		hits += bs_bloom_test(run->filter, &run->probe,
							  keys + (size_t) j * run->width, run->width);
	run->hits += hits;
}

/*
 * Queries pipelined as bloom_agg pipelines inserts: locate and prefetch a
 * value, test the one located run->depth values earlier.  The server has no
 * such path (bloom_contains answers row by row): this is the core's throughput
 * for a caller that has many values to test.
 */
static void
lib_query_pipelined(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	const bs_bloom *filter = run->filter;
	int			width = run->width;
	uint64_t	pushed = run->pushed;
	uint32_t	depth = run->depth;
	uint64_t	hits = 0;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;
		uint32_t	slot = pushed & (depth - 1);

		bs_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		bs_probe_prefetch(filter, probe, first, step);
		if (pushed >= depth)
			hits += bs_probe_test(filter, probe, run->ring_first[slot], run->ring_step[slot]);
		run->ring_first[slot] = first;
		run->ring_step[slot] = step;
		pushed++;
	}
	run->pushed = pushed;
	run->hits += hits;
}

static void
lib_query_flush(Run *run)
{
	uint64_t	depth = run->depth;
	uint64_t	from = run->pushed > depth ? run->pushed - depth : 0;

	for (uint64_t i = from; i < run->pushed; i++)
		run->hits += bs_probe_test(run->filter, &run->probe, run->ring_first[i & (depth - 1)],
								   run->ring_step[i & (depth - 1)]);
	run->pushed = 0;
}

/* The core's batch calls: a chunk of keys in one call, each ring drained at its end. */
static void
lib_insert_batch(Run *run, const uint8_t *keys, uint32_t count)
{
	bs_bloom_add_batch(run->filter, &run->probe, keys, run->width, count);
}

static void
lib_query_batch(Run *run, const uint8_t *keys, uint32_t count)
{
	run->hits += bs_bloom_test_batch(run->filter, &run->probe, keys, run->width, count, NULL);
}

static void
hash_alone(Run *run, const uint8_t *keys, uint32_t count)
{
	uint64_t	sink = run->sink;
	int			width = run->width;

	for (uint32_t j = 0; j < count; j++)
	{
		XXH128_hash_t h = bs_hash128(keys + (size_t) j * width, width, SEED);

		sink ^= h.low64 ^ h.high64;
	}
	run->sink = sink;
}

/* ---- the prototype of bench/probe_variants.h, same loops ---- */

static void
variant_insert(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	bs_bloom   *filter = run->filter;
	int			width = run->width;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;

		pv_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		pv_probe_set(filter, probe, first, step);
		filter->items++;
	}
}

static void
variant_insert_pipelined(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	bs_bloom   *filter = run->filter;
	int			width = run->width;
	uint64_t	pushed = run->pushed;
	uint32_t	depth = run->depth;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;
		uint32_t	slot = pushed & (depth - 1);

		pv_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		filter->items++;
		pv_probe_prefetch(filter, probe, first, step);
		if (pushed >= depth)
			pv_probe_set(filter, probe, run->ring_first[slot], run->ring_step[slot]);
		run->ring_first[slot] = first;
		run->ring_step[slot] = step;
		pushed++;
	}
	run->pushed = pushed;
}

static void
variant_flush(Run *run)
{
	uint64_t	depth = run->depth;
	uint64_t	from = run->pushed > depth ? run->pushed - depth : 0;

	for (uint64_t i = from; i < run->pushed; i++)
		pv_probe_set(run->filter, &run->probe, run->ring_first[i & (depth - 1)],
					 run->ring_step[i & (depth - 1)]);
	run->pushed = 0;
}

static void
variant_query(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	const bs_bloom *filter = run->filter;
	int			width = run->width;
	uint64_t	hits = 0;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;

		pv_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		hits += pv_probe_test(filter, probe, first, step);
	}
	run->hits += hits;
}

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
static void
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

/* ---- what is measured ---- */

typedef struct SchemeKernels
{
	Kernel		insert;
	Kernel		pipelined;		/* NULL: not pipelined (independent) */
	Flush		flush;
	Kernel		query;
} SchemeKernels;

static const SchemeKernels lib_kernels[BS_SCHEME_LAST + 1] = {
	[BS_SCHEME_DOUBLE] = {lib_insert, lib_insert_pipelined, lib_flush, lib_query},
	[BS_SCHEME_DOUBLE_SQUARE] = {lib_insert, lib_insert_pipelined, lib_flush, lib_query},
	[BS_SCHEME_DOUBLE_CUBE] = {lib_insert, lib_insert_pipelined, lib_flush, lib_query},
	[BS_SCHEME_PARTITION] = {lib_insert, lib_insert_pipelined, lib_flush, lib_query},
	[BS_SCHEME_INDEPENDENT] = {lib_insert_independent, NULL, NULL, lib_query_independent},
	[BS_SCHEME_BLOCKED] = {lib_insert, lib_insert_pipelined, lib_flush, lib_query},
};

static const SchemeKernels variant_kernels = {
	variant_insert, variant_insert_pipelined, variant_flush, variant_query
};

static const SchemeKernels floor_kernels[BS_SCHEME_LAST + 1] = {
	[BS_SCHEME_DOUBLE] = {floor_insert_double, floor_pipelined_double, floor_flush_double, floor_query_double},
	[BS_SCHEME_DOUBLE_SQUARE] = {floor_insert_square, floor_pipelined_square, floor_flush_square, floor_query_square},
	[BS_SCHEME_DOUBLE_CUBE] = {floor_insert_cube, floor_pipelined_cube, floor_flush_cube, floor_query_cube},
	[BS_SCHEME_PARTITION] = {floor_insert_partition, floor_pipelined_partition, floor_flush_partition, floor_query_partition},
	[BS_SCHEME_INDEPENDENT] = {floor_insert_independent, NULL, NULL, floor_query_independent},
	[BS_SCHEME_BLOCKED] = {floor_insert_blocked, floor_pipelined_blocked, floor_flush_blocked, floor_query_blocked},
};

enum
{
	M_INSERT, M_INSERT_FLOOR, M_PIPE, M_PIPE_FLOOR, M_QUERY, M_QUERY_FLOOR,
	M_COUNT
};

/* One row of the table. */
typedef struct Row
{
	const char *label;
	uint8_t		scheme;
	int64_t		n;
	uint64_t	bits;
	uint32_t	hashes;
	double		ns[M_COUNT][RUNS];	/* per run, ns per operation */
	bool		measured[M_COUNT];
	double		fp_rate;
} Row;

static uint8_t *key_buffer;

/*
 * Keys of chunk `chunk` of a pass: for inserts the keys chunk * CHUNK + j
 * (the same in every pass); for queries each key is at random a member (one
 * of the first `inserted` keys, all inserted) or a non-member (a key never
 * inserted), half and half; *members counts the members.
 */
static void
make_chunk(int width, bool query, uint64_t pass, uint64_t chunk, uint64_t inserted,
		   uint64_t *members)
{
	uint64_t	rng = mix64(pass * 1000003 + chunk);

	for (uint32_t j = 0; j < CHUNK; j++)
	{
		uint64_t	index = chunk * CHUNK + j;

		if (query)
		{
			rng = mix64(rng);
			if (rng & 1)
			{
				index = mulhi(rng, inserted);
				(*members)++;
			}
			else
				index += NONMEMBER_BASE + pass * 2 * OPS;
		}
		make_key(key_buffer + (size_t) j * width, width, index);
	}
}

/* How much a pass's mean over its chunks exceeds its median (disturbance). */
static double disturbance[8192];
static int	disturbance_count;

static double
chunk_median(double *chunk_ns)
{
	double		total = 0;
	double		median;

	for (int c = 0; c < CHUNKS; c++)
		total += chunk_ns[c];
	qsort(chunk_ns, CHUNKS, sizeof(double), compare_double);
	median = chunk_ns[CHUNKS / 2];
	if (disturbance_count < (int) (sizeof(disturbance) / sizeof(double)))
		disturbance[disturbance_count++] = total / CHUNKS / median - 1;
	return median;
}

/* One side of a paired pass: the library's path or its floor. */
typedef struct Side
{
	Run		   *run;
	Kernel		kernel;
	Flush		flush;
	double		ns;				/* out: ns per operation */
	uint64_t	hits;			/* out: queries answered "maybe" */
	uint64_t	members;		/* out: member keys queried */
} Side;

/*
 * One paired pass: OPS operations of each side, interleaved CHUNK by CHUNK,
 * each chunk timed on its own and its keys made untimed just before.  Sides
 * that share a filter (the library and its floor) take other keys (side i
 * chunk 2c + i), so that neither finds the other's lines in the cache;
 * sides with filters of their own take the same keys (chunk c).  Which side
 * goes first alternates from pass to pass.  A side's figure for the pass is
 * the median over its chunks, so that a chunk during which the process was
 * descheduled (the machine is shared) does not count, and pairing chunk by
 * chunk means both sides see the same machine.
 */
static void
paired_pass(Side *sides, int side_count, bool query, uint64_t pass, bool same_keys)
{
	double		chunk_ns[2][CHUNKS];

	for (int i = 0; i < side_count; i++)
	{
		sides[i].hits = sides[i].run->hits;
		sides[i].members = 0;
	}
	for (int c = 0; c < CHUNKS; c++)
	{
		for (int o = 0; o < side_count; o++)
		{
			int			i = (pass & 1) ? side_count - 1 - o : o;
			Side	   *side = &sides[i];
			double		t0;

			if (same_keys)
				make_chunk(side->run->width, query, pass, c, OPS, &side->members);
			else
				make_chunk(side->run->width, query, pass, (uint64_t) c * 2 + i, 2 * OPS,
						   &side->members);
			t0 = now_ns();
			side->kernel(side->run, key_buffer, CHUNK);
			if (side->flush != NULL && c == CHUNKS - 1)
				side->flush(side->run);
			chunk_ns[i][c] = (now_ns() - t0) / CHUNK;
		}
	}
	for (int i = 0; i < side_count; i++)
	{
		sides[i].ns = chunk_median(chunk_ns[i]);
		sides[i].hits = sides[i].run->hits - sides[i].hits;
	}
}

/* Random bits at density q in the filter's m bits (q's first 16 binary digits). */
static void
or_random_bits(bs_bloom *filter, double q, uint64_t state)
{
	uint64_t	words = bs_bloom_word_count(filter->bits);
	uint32_t	q16 = (uint32_t) lround(q * 65536.0);

	if (q16 == 0)
		return;
	for (uint64_t i = 0; i < words; i++)
	{
		uint64_t	x = 0;

		/* x = r OR x for a 1 digit, r AND x for a 0, from the last digit up */
		for (int d = 0; d < 16; d++)
		{
			state = mix64(state);
			x = ((q16 >> d) & 1) ? (state | x) : (state & x);
		}
		if (q16 == 65536)
			x = ~UINT64_C(0);
		filter->words[i] |= x;
	}
	if (filter->bits % 64 != 0)
		filter->words[words - 1] &= (UINT64_C(1) << (filter->bits % 64)) - 1;
}

/*
 * Bring a filter holding `inserted` keys to the fill of n keys: those set
 * about 1 - e^(-k inserted/m) of the bits, n keys 1 - e^(-kn/m).
 */
static void
top_up(bs_bloom *filter, int64_t n, uint64_t inserted)
{
	double		k = filter->hashes;
	double		m = (double) filter->bits;
	double		density = 1 - exp(-k * n / m);
	double		added = 1 - (1 - density) / exp(-k * inserted / m);

	if (added > 0)
		or_random_bits(filter, added, filter->bits ^ filter->scheme);
}

/*
 * Zeroed memory on transparent huge pages (madvise(MADV_HUGEPAGE)) for the
 * whole block, 2 MB aligned, so that TLB misses do not blur the comparison.
 */
static void *
alloc_huge(size_t size)
{
	void	   *base;

	size = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	base = aligned_alloc(HUGE_PAGE, size);
	if (base == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	if (size >= 2 * HUGE_PAGE)
		(void) madvise(base, size, MADV_HUGEPAGE);
	memset(base, 0, size);
	return base;
}

/* A filter's memory, the header `offset` bytes past a 2 MB boundary. */
static bs_bloom *
alloc_filter(uint64_t bits, size_t offset, void **base)
{
	*base = alloc_huge(bs_bloom_total_bytes(bits) + offset);
	return (bs_bloom *) ((char *) *base + offset);
}

/* Check that the floor's positions are the library's, on a few keys. */
static void
check_floor(const Run *run, uint8_t scheme)
{
	uint64_t	lib[BS_BLOCKED_MAX_HASHES];
	uint64_t	mine[BS_BLOCKED_MAX_HASHES];
	uint8_t		key[MAX_WIDTH];

	for (uint64_t index = 0; index < 1000; index++)
	{
		make_key(key, run->width, index * 7919);
		bs_bloom_positions(&run->probe, key, run->width, lib);
		floor_positions(scheme, &run->shape, key, run->width, mine);
		for (uint32_t i = 0; i < run->shape.hashes; i++)
			if (lib[i] != mine[i])
			{
				fprintf(stderr, "floor of %s differs from the library at key %llu, probe %u\n",
						bs_scheme_name(scheme), (unsigned long long) index, i);
				exit(1);
			}
	}
}

/* An empty filter of the shape and what the loops need to probe it. */
static void *
setup_run(Run *run, uint8_t scheme, uint64_t bits, uint32_t hashes, int width,
		  size_t offset)
{
	void	   *base;

	run->width = width;
	run->depth = DEPTH;
	run->filter = alloc_filter(bits, offset, &base);
	bs_bloom_init_scheme(run->filter, (bs_scheme) scheme, bits, hashes, SEED);
	bs_probe_init_scheme(&run->probe, (bs_scheme) scheme, bits, hashes, SEED);
	run->shape.words = run->filter->words;
	run->shape.bits = bits;
	run->shape.range = run->probe.first_range;
	run->shape.hashes = hashes;
	run->shape.block_simd = run->probe.block_simd;
	run->shape.seed = SEED;
	return base;
}

/*
 * Measure one row: the inserts (one at a time and pipelined, each paired with
 * its floor), then top up the filter to n items' fill and measure the
 * queries the same way.
 */
static void
measure_row(Row *row, int width, size_t offset, bool variant)
{
	const SchemeKernels *lib = variant ? &variant_kernels : &lib_kernels[row->scheme];
	const SchemeKernels *flo = &floor_kernels[row->scheme];
	Run		   *runs = calloc(2, sizeof(Run));
	void	   *base;
	uint64_t	pass = 0;
	uint64_t	members = 0;
	uint64_t	hits = 0;
	uint64_t	queries = 0;

	base = setup_run(&runs[0], row->scheme, row->bits, row->hashes, width, offset);
	runs[1] = runs[0];
	check_floor(&runs[0], row->scheme);

	for (int r = -WARMUP; r < RUNS; r++)
	{
		Side		one[2] = {
			{.run = &runs[0],.kernel = lib->insert},
			{.run = &runs[1],.kernel = flo->insert},
		};
		Side		pipe[2] = {
			{.run = &runs[0],.kernel = lib->pipelined,.flush = lib->flush},
			{.run = &runs[1],.kernel = flo->pipelined,.flush = flo->flush},
		};

		pass++;
		paired_pass(one, 2, false, pass, false);
		if (lib->pipelined != NULL)
			paired_pass(pipe, 2, false, pass, false);
		if (r < 0)
			continue;
		row->ns[M_INSERT][r] = one[0].ns;
		row->ns[M_INSERT_FLOOR][r] = one[1].ns;
		row->measured[M_INSERT] = row->measured[M_INSERT_FLOOR] = true;
		if (lib->pipelined != NULL)
		{
			row->ns[M_PIPE][r] = pipe[0].ns;
			row->ns[M_PIPE_FLOOR][r] = pipe[1].ns;
			row->measured[M_PIPE] = row->measured[M_PIPE_FLOOR] = true;
		}
	}

	top_up(runs[0].filter, row->n, 2 * OPS);

	for (int r = -WARMUP; r < RUNS; r++)
	{
		Side		query[2] = {
			{.run = &runs[0],.kernel = lib->query},
			{.run = &runs[1],.kernel = flo->query},
		};

		paired_pass(query, 2, true, ++pass, false);
		if (r < 0)
			continue;
		row->ns[M_QUERY][r] = query[0].ns;
		row->ns[M_QUERY_FLOOR][r] = query[1].ns;
		for (int i = 0; i < 2; i++)
		{
			members += query[i].members;
			hits += query[i].hits;
			queries += OPS;
		}
	}
	row->measured[M_QUERY] = row->measured[M_QUERY_FLOOR] = true;
	row->fp_rate = (double) (hits - members) / (queries - members);
	if (getenv("CT_DEBUG"))
		for (int m = 0; m < M_COUNT; m++)
		{
			fprintf(stderr, "%s %d:", row->label, m);
			for (int r = 0; r < RUNS; r++)
				fprintf(stderr, " %.1f", row->ns[m][r]);
			fprintf(stderr, "\n");
		}
	free(base);
	free(runs);
}

static void
hash_alone_ns(int width, double *per_run)
{
	Run		   *run = calloc(1, sizeof(Run));

	run->width = width;
	for (int r = -WARMUP; r < RUNS; r++)
	{
		Side		side = {.run = run,.kernel = hash_alone};

		paired_pass(&side, 1, false, r + WARMUP, true);
		if (r >= 0)
			per_run[r] = side.ns;
	}
	if (run->sink == 42)
		putchar(' ');
	free(run);
}

/*
 * The second target: blocked against double at one size, the two filters
 * side by side in the same paired passes (same keys, chunk by chunk), so
 * that the ratio holds while the machine's speed drifts.  Both filters have
 * their words on a cache line, so that a block is one line.  Measured: the
 * library one at a time (insert, query), and pipelined (insert, and queries
 * pipelined the same way) with rings of 8 (bloom_agg's) to 64 values.  How
 * deep a ring must be is latency / time per value: bloom_agg's rows cost
 * some 45 ns of executor work each, so 8 cover a miss, while the core alone
 * spends 10-30 ns a value and needs more in flight.
 */
static const uint32_t sweep_depths[] = {8, 16, 32, 64};
#define SWEEP_COUNT ((int) (sizeof(sweep_depths) / sizeof(sweep_depths[0])))

enum
{
	V_INSERT, V_QUERY, V_PIPE, V_QUERY_PIPE, V_BATCH, V_QUERY_BATCH, V_COUNT
};

typedef struct Versus
{
	bool		measured;
	int64_t		n;
	/* [measure][depth index (0 one at a time)][double, blocked][run] */
	double		ns[V_COUNT][SWEEP_COUNT][2][RUNS];
} Versus;

/* One paired pass of the two runs under kernel (and flush) per scheme. */
static void
versus_pass(Run *runs, const uint8_t *schemes, int measure, bool query,
			uint64_t pass, int depth_index, Versus *v, int r)
{
	Side		sides[2];

	for (int i = 0; i < 2; i++)
	{
		const SchemeKernels *lib = &lib_kernels[schemes[i]];

		runs[i].depth = measure == V_PIPE || measure == V_QUERY_PIPE ?
			sweep_depths[depth_index] : DEPTH;
		if (measure == V_INSERT)
			sides[i] = (Side) {.run = &runs[i],.kernel = lib->insert};
		else if (measure == V_PIPE)
			sides[i] = (Side) {.run = &runs[i],.kernel = lib->pipelined,.flush = lib->flush};
		else if (measure == V_QUERY)
			sides[i] = (Side) {.run = &runs[i],.kernel = lib->query};
		else if (measure == V_BATCH)
			sides[i] = (Side) {.run = &runs[i],.kernel = lib_insert_batch};
		else if (measure == V_QUERY_BATCH)
			sides[i] = (Side) {.run = &runs[i],.kernel = lib_query_batch};
		else
			sides[i] = (Side) {.run = &runs[i],.kernel = lib_query_pipelined,
				.flush = lib_query_flush};
	}
	paired_pass(sides, 2, query, pass, true);
	for (int i = 0; r >= 0 && i < 2; i++)
		v->ns[measure][depth_index][i][r] = sides[i].ns;
}

static void
measure_versus(Versus *v, int width, int64_t n)
{
	static const uint8_t schemes[2] = {BS_SCHEME_DOUBLE, BS_SCHEME_BLOCKED};
	Run		   *runs = calloc(2, sizeof(Run));
	void	   *base[2];
	uint64_t	pass = 0;

	for (int i = 0; i < 2; i++)
	{
		uint64_t	bits;
		uint32_t	hashes;

		if (bs_bloom_size_scheme(schemes[i], n, FPR, &bits, &hashes, NULL) != BS_OK)
			exit(1);
		/* the header 24 bytes past a line, so the words start on the next */
		base[i] = setup_run(&runs[i], schemes[i], bits, hashes, width, 24);
	}
	for (int r = -WARMUP; r < RUNS; r++)
	{
		pass++;
		versus_pass(runs, schemes, V_INSERT, false, pass, 0, v, r);
		for (int d = 0; d < SWEEP_COUNT; d++)
			versus_pass(runs, schemes, V_PIPE, false, pass, d, v, r);
		versus_pass(runs, schemes, V_BATCH, false, pass, 0, v, r);
	}
	for (int i = 0; i < 2; i++)
		top_up(runs[i].filter, n, OPS);
	for (int r = -WARMUP; r < RUNS; r++)
	{
		pass++;
		versus_pass(runs, schemes, V_QUERY, true, pass, 0, v, r);
		for (int d = 0; d < SWEEP_COUNT; d++)
			versus_pass(runs, schemes, V_QUERY_PIPE, true, pass, d, v, r);
		versus_pass(runs, schemes, V_QUERY_BATCH, true, pass, 0, v, r);
	}
	v->measured = true;
	v->n = n;
	for (int i = 0; i < 2; i++)
		free(base[i]);
	free(runs);
}

/* ---- report ---- */

/* A cache's size as sysfs gives it ("1024K"), in KB; 0 if unknown. */
static long
cache_kb(int index)
{
	char		path[128];
	FILE	   *f;
	long		kb = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
	f = fopen(path, "r");
	if (f != NULL)
	{
		if (fscanf(f, "%ld", &kb) != 1)
			kb = 0;
		fclose(f);
	}
	return kb;
}

static void
machine_line(void)
{
	FILE	   *f = fopen("/proc/cpuinfo", "r");
	char		line[512];
	char		model[256] = "unknown CPU";
	int			family = -1;
	int			cpu_model = -1;
	double		load[3] = {0, 0, 0};
	time_t		t = time(NULL);
	char		date[64];

	if (f != NULL)
	{
		while (fgets(line, sizeof(line), f))
		{
			char	   *colon = strchr(line, ':');

			if (colon == NULL)
				continue;
			if (strncmp(line, "model name", 10) == 0 && strcmp(model, "unknown CPU") == 0)
			{
				snprintf(model, sizeof(model), "%s", colon + 2);
				model[strcspn(model, "\n")] = '\0';
			}
			else if (strncmp(line, "cpu family", 10) == 0 && family < 0)
				family = atoi(colon + 1);
			else if (strncmp(line, "model\t", 6) == 0 && cpu_model < 0)
				cpu_model = atoi(colon + 1);
		}
		fclose(f);
	}
	getloadavg(load, 3);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&t));
	printf("%s (family %d, model %d), %ld CPUs, L2 %ld KB per core, L3 %ld KB; %s; load average %.2f at start\n\n",
		   model, family, cpu_model, sysconf(_SC_NPROCESSORS_ONLN),
		   cache_kb(2), cache_kb(3),
		   date, load[0]);
}

static void
print_cell(const Row *row, int m)
{
	if (row->measured[m])
		printf(" %.1f |", stat_of(row->ns[m]).median);
	else
		printf(" — |");
}

static void
print_ratio(const Row *row, int m)
{
	if (row->measured[m])
		printf(" %.2f |", stat_of(row->ns[m]).median / stat_of(row->ns[m + 1]).median);
	else
		printf(" — |");
}

/* Noise: the widest (max - min) / median of the row's figures, in percent. */
static double
row_noise(const Row *row)
{
	double		worst = 0;

	for (int m = 0; m < M_COUNT; m++)
		if (row->measured[m])
		{
			Stat		s = stat_of(row->ns[m]);

			if ((s.max - s.min) / s.median > worst)
				worst = (s.max - s.min) / s.median;
		}
	return 100 * worst;
}

static void
print_row(const Row *row)
{
	printf("| %s | 10^%d | %.1f | %u |", row->label, (int) lround(log10((double) row->n)),
		   bs_bloom_total_bytes(row->bits) / 1e6, row->hashes);
	print_cell(row, M_INSERT);
	print_cell(row, M_INSERT_FLOOR);
	print_ratio(row, M_INSERT);
	print_cell(row, M_PIPE);
	print_cell(row, M_PIPE_FLOOR);
	print_ratio(row, M_PIPE);
	print_cell(row, M_QUERY);
	print_cell(row, M_QUERY_FLOOR);
	print_ratio(row, M_QUERY);
	printf(" %.4f | %.0f%% |\n", row->fp_rate, row_noise(row));
}

/* The range of the per-run ratios scheme / floor (runs are paired). */
static void
ratio_range(const Row *row, int m, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (int r = 0; r < RUNS; r++)
	{
		double		x = row->ns[m][r] / row->ns[m + 1][r];

		*lo = fmin(*lo, x);
		*hi = fmax(*hi, x);
	}
}

/*
 * The memory under a filter of `bytes`: the latency of one random line read
 * (a pointer chase) and the cost per line of independent random reads (the
 * most the memory system gives when many misses overlap).  Medians of RUNS.
 */
static void
measure_memory(size_t bytes, double *latency, double *independent)
{
	size_t		lines = bytes / 64;
	uint64_t   *buffer = alloc_huge(bytes);
	uint32_t   *order = malloc(lines * sizeof(uint32_t));
	double		chase[RUNS];
	double		loads[RUNS];
	uint64_t	state = 7;
	uint64_t	sink = 0;

	/* one cycle through all lines in random order */
	for (size_t i = 0; i < lines; i++)
		order[i] = (uint32_t) i;
	for (size_t i = lines - 1; i > 0; i--)
	{
		size_t		j;
		uint32_t	t;

		state = mix64(state);
		j = state % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		buffer[(size_t) order[i] * 8] = (uint64_t) order[(i + 1) % lines] * 8;
	for (int r = -WARMUP; r < RUNS; r++)
	{
		const int	steps = 200000;
		uint64_t	p = 0;
		double		t0 = now_ns();

		for (int i = 0; i < steps; i++)
			p = buffer[p];
		if (r >= 0)
			chase[r] = (now_ns() - t0) / steps;
		sink += p;
		t0 = now_ns();
		for (int i = 0; i < 4 * steps; i++)
		{
			state = mix64(state);
			sink += buffer[mulhi(state, lines) * 8];
		}
		if (r >= 0)
			loads[r] = (now_ns() - t0) / (4 * steps);
	}
	*latency = stat_of(chase).median;
	*independent = stat_of(loads).median;
	if (sink == 42)
		putchar(' ');
	free(order);
	free(buffer);
}

/* What to run (options narrow it down, for profiling). */
typedef struct Options
{
	int			width;			/* 0: both */
	int			exponent;		/* 0: 6, 7 and 8 */
	int			scheme;			/* 0: all */
} Options;

static void
usage(void)
{
	fprintf(stderr,
			"usage: core_throughput [-w 8|32] [-n 6|7|8] [-s scheme]\n"
			"  without options: both key widths, n = 10^6, 10^7, 10^8, every scheme\n");
	exit(2);
}

static void
parse_options(int argc, char **argv, Options *options)
{
	memset(options, 0, sizeof(*options));
	for (int i = 1; i < argc; i++)
	{
		if (i + 1 >= argc)
			usage();
		if (strcmp(argv[i], "-w") == 0)
			options->width = atoi(argv[++i]);
		else if (strcmp(argv[i], "-n") == 0)
			options->exponent = atoi(argv[++i]);
		else if (strcmp(argv[i], "-s") == 0)
		{
			uint8_t		code;

			if (!bs_scheme_parse(argv[++i], &code))
				usage();
			options->scheme = code;
		}
		else
			usage();
	}
	if ((options->width != 0 && options->width != 8 && options->width != 32) ||
		(options->exponent != 0 && (options->exponent < 6 || options->exponent > 8)))
		usage();
}

#define MAX_ROWS 64

/* Add a row for the scheme at size n, sized by bs_bloom_size_scheme. */
static Row *
new_row(Row *rows, int *count, uint8_t scheme, int64_t n, const char *label)
{
	Row		   *row = &rows[(*count)++];
	bs_error	err;

	memset(row, 0, sizeof(*row));
	row->scheme = scheme;
	row->label = label;
	row->n = n;
	if (bs_bloom_size_scheme(scheme, n, FPR, &row->bits, &row->hashes, &err) != BS_OK)
	{
		fprintf(stderr, "sizing failed: %s\n", err.message);
		exit(1);
	}
	return row;
}

static const Row *
find_row(const Row *rows, int count, const char *label, int64_t n)
{
	for (int i = 0; i < count; i++)
		if (rows[i].n == n && strcmp(rows[i].label, label) == 0)
			return &rows[i];
	return NULL;
}

static const char *
operation_name(int m)
{
	return m == M_INSERT ? "insert" : m == M_PIPE ? "pipelined insert" : "query";
}

/* The range of the per-run ratios blocked / double of a Versus measure. */
/* blocked / double for one measure, at given depth indexes; per-run pairs. */
static Stat
versus_ratio(const Versus *v, int m, int double_depth, int blocked_depth)
{
	double		ratios[RUNS];
	Stat		s;

	for (int r = 0; r < RUNS; r++)
		ratios[r] = v->ns[m][blocked_depth][1][r] / v->ns[m][double_depth][0][r];
	s = stat_of(ratios);
	s.median = stat_of(v->ns[m][blocked_depth][1]).median /
		stat_of(v->ns[m][double_depth][0]).median;
	return s;
}

/* The depth index at which a scheme's pipelined measure is fastest. */
static int
versus_best_depth(const Versus *v, int m, int scheme_index)
{
	int			best = 0;

	for (int d = 1; d < SWEEP_COUNT; d++)
		if (stat_of(v->ns[m][d][scheme_index]).median <
			stat_of(v->ns[m][best][scheme_index]).median)
			best = d;
	return best;
}

/* The target line for one measure: PASS or MISS and the ratio. */
static void
versus_target(const Versus *v, int width, int m, const char *name)
{
	bool		pipelined = m == V_PIPE || m == V_QUERY_PIPE;
	int			dd = pipelined ? versus_best_depth(v, m, 0) : 0;
	int			bd = pipelined ? versus_best_depth(v, m, 1) : 0;
	Stat		ratio = versus_ratio(v, m, dd, bd);

	printf("- %s: blocked ≤ 0.5 × double, %d-byte keys, n = 10^8, %s", ratio.median <= 0.5 ? "PASS" : "MISS",
		   width, name);
	if (pipelined)
		printf(" (each at its fastest ring: double %u, blocked %u)", sweep_depths[dd], sweep_depths[bd]);
	printf(": %.2f (per-run pairs %.2f–%.2f)\n", ratio.median, ratio.min, ratio.max);
}

int
main(int argc, char **argv)
{
	static const uint8_t schemes[] = {
		BS_SCHEME_DOUBLE, BS_SCHEME_DOUBLE_SQUARE, BS_SCHEME_DOUBLE_CUBE,
		BS_SCHEME_PARTITION, BS_SCHEME_INDEPENDENT, BS_SCHEME_BLOCKED
	};
	static const int widths[] = {8, 32};
	static const int64_t sizes[] = {1000000, 10000000, 100000000};
	static const char *const versus_names[V_COUNT] = {
		"insert, one at a time", "query, one at a time", "pipelined insert", "pipelined query",
		"batch insert (bs_bloom_add_batch)", "batch query (bs_bloom_test_batch)"
	};
	static Row	rows[2][MAX_ROWS];
	static Versus versus[2];
	static double sorted[sizeof(disturbance) / sizeof(double)];
	int			row_count[2] = {0, 0};
	double		hash_runs[2][RUNS];
	double		latency[3];
	double		independent[3];
	double		started = now_ns();
	double		load[3] = {0, 0, 0};
	Options		options;

	parse_options(argc, argv, &options);
	key_buffer = malloc((size_t) CHUNK * MAX_WIDTH);

	printf("## Core throughput: insert and query against the hardware's floor\n\n");
	machine_line();

	/* the memory under each size, with double's filter size */
	for (int z = 0; z < 3; z++)
	{
		uint64_t	bits;
		uint32_t	hashes;

		if (options.exponent != 0 && options.exponent != z + 6)
			continue;
		bs_bloom_size_scheme(BS_SCHEME_DOUBLE, sizes[z], FPR, &bits, &hashes, NULL);
		measure_memory(bs_bloom_total_bytes(bits), &latency[z], &independent[z]);
	}

	for (int w = 0; w < 2; w++)
	{
		if (options.width != 0 && options.width != widths[w])
			continue;
		hash_alone_ns(widths[w], hash_runs[w]);
		for (int z = 0; z < 3; z++)
		{
			if (options.exponent != 0 && options.exponent != z + 6)
				continue;
			for (size_t s = 0; s < sizeof(schemes); s++)
			{
				Row		   *row;

				if (options.scheme != 0 && options.scheme != schemes[s])
					continue;
				row = new_row(rows[w], &row_count[w], schemes[s], sizes[z],
							  bs_scheme_name(schemes[s]));
				measure_row(row, widths[w], 0, false);
				fprintf(stderr, "%d-byte keys, n = %lld, %s: done at %.0f s\n", widths[w],
						(long long) row->n, row->label, (now_ns() - started) / 1e9);
			}
			if (options.scheme == 0 || options.scheme == BS_SCHEME_DOUBLE)
				measure_row(new_row(rows[w], &row_count[w], BS_SCHEME_DOUBLE, sizes[z],
									"double, " PV_VARIANT_NAME), widths[w], 0, true);
			if (options.scheme == 0 || options.scheme == BS_SCHEME_BLOCKED)
			{
				measure_row(new_row(rows[w], &row_count[w], BS_SCHEME_BLOCKED, sizes[z],
									"blocked, " PV_VARIANT_NAME), widths[w], 0, true);
				/* and with its blocks on cache lines */
				measure_row(new_row(rows[w], &row_count[w], BS_SCHEME_BLOCKED, sizes[z],
									"blocked, " PV_VARIANT_NAME ", aligned words"),
							widths[w], 24, true);
			}
			if (z == 2 && options.scheme == 0)
				measure_versus(&versus[w], widths[w], sizes[z]);
			fprintf(stderr, "%d-byte keys, n = %lld: done at %.0f s\n", widths[w],
					(long long) sizes[z], (now_ns() - started) / 1e9);
		}
	}

	printf("Each figure: ns per operation, the median of %d runs of %d operations after %d warm-up run "
		   "(a run's figure: the median over its chunks of %d operations, interleaved chunk by chunk with its floor's); "
		   "fpr %.2f, m and k from bs_bloom_size_scheme; × = scheme / floor (ratio of medians). "
		   "Queries: half members, half non-members, in random order. "
		   "Noise: the widest (max − min) / median among the row's figures. "
		   "\"%s\": bench/probe_variants.h.\n\n",
		   RUNS, OPS, WARMUP, CHUNK, FPR, PV_VARIANT_NAME);
	printf("Memory under each size (random 64-byte reads): ");
	for (int z = 0; z < 3; z++)
		if (options.exponent == 0 || options.exponent == z + 6)
			printf("%sn = 10^%d: %.1f ns latency, %.1f ns per read when reads overlap",
				   (options.exponent == 0 && z > 0) ? "; " : "", z + 6, latency[z], independent[z]);
	printf(".\n\n");

	for (int w = 0; w < 2; w++)
	{
		Stat		h;

		if (row_count[w] == 0)
			continue;
		h = stat_of(hash_runs[w]);
		printf("### %s\n\n", widths[w] == 8 ? "8-byte keys (bigint)" : "32-byte strings (md5 hex)");
		printf("Hash alone (XXH3_128bits_withSeed as bs_hash128 calls it): %.1f ns (runs %.1f–%.1f).\n\n",
			   h.median, h.min, h.max);
		printf("| scheme | n | MB | k | insert | floor | × | pipelined insert | floor | × | query | floor | × | FP rate | noise |\n");
		printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
		for (int i = 0; i < row_count[w]; i++)
			print_row(&rows[w][i]);
		printf("\n");
	}

	if (versus[0].measured || versus[1].measured)
	{
		printf("### Blocked against double at n = 10^8, side by side\n\n");
		printf("The two filters in the same passes, chunk by chunk, on the same keys, their words on a cache line "
			   "as the server allocates them. Pipelined: a value is located and its lines prefetched, and the "
			   "value located `ring` values earlier is set (insert, as bloom_agg does with a ring of 16) or "
			   "tested (query: a path for callers with many values; the server answers bloom_contains row "
			   "by row). Batch: calls for many values at once (bench/bs_batch.c), a chunk of "
			   "4,096 keys a call, with each scheme's own ring (double 16, blocked 64) and, for blocked on "
			   "AVX-512F, the block's vector mask inlined in the loop.\n\n");
		printf("| keys | operation | ring | double | blocked | blocked / double | per-run pairs |\n");
		printf("|---|---|---:|---:|---:|---:|---:|\n");
		for (int w = 0; w < 2; w++)
			for (int m = 0; versus[w].measured && m < V_COUNT; m++)
			{
				bool		pipelined = m == V_PIPE || m == V_QUERY_PIPE;

				for (int d = 0; d < (pipelined ? SWEEP_COUNT : 1); d++)
				{
					Stat		ratio = versus_ratio(&versus[w], m, d, d);
					char		ring[16] = "—";

					if (pipelined)
						snprintf(ring, sizeof(ring), "%u", sweep_depths[d]);
					printf("| %d-byte | %s | %s | %.1f | %.1f | %.2f | %.2f–%.2f |\n", widths[w],
						   versus_names[m], ring, stat_of(versus[w].ns[m][d][0]).median,
						   stat_of(versus[w].ns[m][d][1]).median, ratio.median, ratio.min, ratio.max);
				}
			}
		printf("\n");
	}

	printf("### Targets\n\n");
	for (int w = 0; w < 2; w++)
		for (int z = 0; z < 3; z++)
		{
			const Row  *row = find_row(rows[w], row_count[w], "double", sizes[z]);
			const Row  *variant = find_row(rows[w], row_count[w],
										   "double, " PV_VARIANT_NAME, sizes[z]);

			if (row == NULL)
				continue;
			for (int m = M_INSERT; m <= M_QUERY; m += 2)
			{
				double		ratio = stat_of(row->ns[m]).median / stat_of(row->ns[m + 1]).median;
				double		lo;
				double		hi;

				ratio_range(row, m, &lo, &hi);
				printf("- %s: double ≤ 1.25 × floor, %d-byte keys, n = 10^%d, %s: %.2f (per-run pairs %.2f–%.2f)",
					   ratio <= 1.25 ? "PASS" : "MISS", widths[w], z + 6,
					   operation_name(m), ratio, lo, hi);
				if (variant != NULL && m == M_PIPE)
					printf("; %s: %.2f", PV_VARIANT_NAME,
						   stat_of(variant->ns[m]).median / stat_of(variant->ns[m + 1]).median);
				printf("\n");
			}
		}
	for (int w = 0; w < 2; w++)
		for (int m = 0; versus[w].measured && m < V_COUNT; m++)
			versus_target(&versus[w], widths[w], m, versus_names[m]);

	memcpy(sorted, disturbance, sizeof(double) * disturbance_count);
	qsort(sorted, disturbance_count, sizeof(double), compare_double);
	getloadavg(load, 3);
	printf("\nDisturbance: a run's mean over its chunks exceeds its median by %.0f%% at the median run, %.0f%% at the 90th percentile "
		   "(near 0 on a quiet machine). Load average %.2f at the end; the run took %.0f s.\n",
		   100 * sorted[disturbance_count / 2], 100 * sorted[disturbance_count * 9 / 10],
		   load[0], (now_ns() - started) / 1e9);
	return 0;
}
