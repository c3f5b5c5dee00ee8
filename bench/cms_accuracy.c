/*
 * cms_accuracy.c — accuracy and update speed of the count-min sketch on a
 * Zipf(1.1) stream, on the pure C core: the two-hash sketch of Kirsch and
 * Mitzenmacher (what cmsketch is) next to a sketch of equal memory whose rows
 * each use their own independently seeded hash (the classic count-min
 * construction of Cormode and Muthukrishnan).
 *
 *   make -C bench cms_accuracy && ./bench/cms_accuracy
 *
 * The stream: 1,000,000 updates, each an item drawn from ranks 1..100,000
 * with Pr(r) proportional to r^-1.1 (inverse transform sampling: a uniform
 * double from a fixed-seed splitmix64 generator, binary-searched in the
 * cumulative distribution).  Items are 8-byte little-endian integers, the
 * canonical bytes of the SQL integer family, so the two-hash sketch built
 * here is byte for byte what cms_agg(item, epsilon, delta) builds.
 *
 * For every (epsilon, delta) both variants get the same w, d and copies
 * (bs_cms_size_error, i.e. Theorem 9.1 sizing) and so the same memory.  The
 * error of item i is estimate_i - a_i over all 100,000 ranks (those never
 * drawn included: a_i = 0 is a point query too); the table gives its maximum,
 * its mean and the fraction of items with error > epsilon * ||a||_1, next to
 * the bound on that probability:
 *   two-hash (Theorem 9.1, with the step drawn from [1, w - 1], see bs_cms.c):
 *     (2/(epsilon w (w - 1)) + (2/(epsilon w))^d)^copies;
 *   d-hash: each row's error is at least epsilon ||a||_1 with probability at
 *     most 1/(epsilon w) (Markov, E[error] <= ||a||_1 / w), independently
 *     over the d * copies rows: (1/(epsilon w))^(d * copies).
 * The time per update is the best of 9 builds of the whole stream (one hash
 * call per copy for the two-hash sketch, one per row for the d-hash one; both
 * with the same overflow checks), on a sketch small enough to stay in cache
 * except at the smallest epsilon.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cms/bs_cms.h"
#include "cms/bs_cms_probe.h"

#define UPDATES 1000000
#define ITEMS 100000
#define ZIPF_S 1.1
#define STREAM_SEED UINT64_C(20061101)
#define ROW_SEED UINT64_C(0x5EEDC0FFEE123457)
#define TIMING_RUNS 9

typedef struct Config
{
	double		epsilon;
	double		delta;
} Config;

static const Config configs[] = {
	{0.1, 0.1},
	{0.01, 0.01},
	{0.01, 0.0001},
	{0.001, 0.01},
	{0.001, 0.001},
	{0.0001, 0.001},
};

/* ---- the stream ---- */

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* A uniform double in [0, 1) with 53 random bits. */
static double
uniform(uint64_t *state)
{
	return (double) (splitmix64(state) >> 11) * 0x1.0p-53;
}

/* The smallest rank r with cdf[r] > u (cdf[ITEMS] is 1 exactly). */
static uint32_t
zipf_rank(const double *cdf, double u)
{
	uint32_t	low = 1;
	uint32_t	high = ITEMS;

	while (low < high)
	{
		uint32_t	mid = low + (high - low) / 2;

		if (cdf[mid] > u)
			high = mid;
		else
			low = mid + 1;
	}
	return low;
}

static void
key_of(uint64_t item, uint8_t key[8])
{
	for (int i = 0; i < 8; i++)
		key[i] = (uint8_t) (item >> (8 * i));
}

/* ---- the d-hash sketch: same counters, one independent hash per row ---- */

typedef struct DHash
{
	uint64_t	width;
	uint32_t	rows;			/* d * copies */
	uint64_t	reject_below;	/* 2^64 mod w */
	uint64_t	total;
	uint64_t   *seeds;			/* one per row */
	uint64_t   *counters;		/* rows * width */
} DHash;

static void
dhash_init(DHash *s, uint32_t width, uint32_t depth, uint32_t copies)
{
	uint64_t	state = ROW_SEED;

	s->width = width;
	s->rows = depth * copies;
	s->reject_below = (0 - (uint64_t) width) % width;
	s->total = 0;
	s->seeds = malloc(sizeof(uint64_t) * s->rows);
	s->counters = calloc((size_t) s->rows * width, sizeof(uint64_t));
	if (s->seeds == NULL || s->counters == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	for (uint32_t r = 0; r < s->rows; r++)
		s->seeds[r] = splitmix64(&state);
}

/* Row r's column: the row's own XXH3 hash, mapped without bias as in bs_probe.h. */
static inline uint64_t
dhash_column(const DHash *s, uint32_t row, const uint8_t *key)
{
	uint64_t	seed = s->seeds[row];
	uint64_t	column;

	while (!bs_map_uniform(XXH3_64bits_withSeed(key, 8, seed), s->width, s->reject_below, &column))
		seed += BS_RESEED_STEP;
	return column;
}

/* Add n, with the same refusals as bs_cms_add (false: nothing changed). */
static __attribute__((noinline)) bool
dhash_add(DHash *s, const uint8_t *key, uint64_t n)
{
	uint64_t	wrapped = 0;

	if (s->total > UINT64_MAX - n)
		return false;
	for (uint32_t r = 0; r < s->rows; r++)
	{
		uint64_t   *counter = &s->counters[r * s->width + dhash_column(s, r, key)];
		uint64_t	value = *counter + n;

		wrapped |= value < n;
		*counter = value;
	}
	if (wrapped)
	{
		for (uint32_t r = 0; r < s->rows; r++)
			s->counters[r * s->width + dhash_column(s, r, key)] -= n;
		return false;
	}
	s->total += n;
	return true;
}

static uint64_t
dhash_estimate(const DHash *s, const uint8_t *key)
{
	uint64_t	estimate = UINT64_MAX;

	for (uint32_t r = 0; r < s->rows; r++)
	{
		uint64_t	value = s->counters[r * s->width + dhash_column(s, r, key)];

		if (value < estimate)
			estimate = value;
	}
	return estimate;
}

/* ---- measuring ---- */

typedef struct Result
{
	uint64_t	max_error;
	double		mean_error;
	uint64_t	beyond;			/* items with error > epsilon * total */
	double		ns_per_update;
} Result;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
tally(Result *result, uint64_t estimate, uint64_t exact, double threshold,
	  double *sum)
{
	uint64_t	error;

	if (estimate < exact)
	{
		fprintf(stderr, "an estimate fell below the exact count: the sketch is broken\n");
		exit(1);
	}
	error = estimate - exact;
	if (error > result->max_error)
		result->max_error = error;
	if ((double) error > threshold)
		result->beyond++;
	*sum += (double) error;
}

static Result
measure_two_hash(const uint8_t (*keys)[8], const uint32_t *counts, double epsilon,
				 uint32_t w, uint32_t d, uint32_t copies)
{
	Result		result = {0};
	uint64_t	bytes;
	bs_cms	   *cms;
	bs_cms_probe probe;
	bs_error	err;
	double		best = INFINITY;
	double		sum = 0;

	if (bs_cms_total_bytes(w, d, copies, &bytes, &err) != BS_OK ||
		(cms = calloc(1, bytes)) == NULL)
	{
		fprintf(stderr, "cannot allocate a sketch of w = %u, d = %u, copies = %u\n", w, d, copies);
		exit(1);
	}
	bs_cms_probe_init(&probe, w, d, copies, 0);
	for (int run = 0; run < TIMING_RUNS; run++)
	{
		double		start;

		memset(cms, 0, bytes);
		bs_cms_init(cms, w, d, copies, 0);
		cms->family = BS_FAMILY_INTEGER;
		start = now();
		for (uint32_t i = 0; i < UPDATES; i++)
			if (bs_cms_add(cms, &probe, keys[i], 8, 1, &err) != BS_OK)
			{
				fprintf(stderr, "update failed: %s\n", err.message);
				exit(1);
			}
		start = now() - start;
		if (start < best)
			best = start;
	}
	result.ns_per_update = best * 1e9 / UPDATES;
	for (uint32_t item = 1; item <= ITEMS; item++)
	{
		uint8_t		key[8];

		key_of(item, key);
		tally(&result, bs_cms_estimate(cms, &probe, key, 8), counts[item],
			  epsilon * (double) cms->total, &sum);
	}
	result.mean_error = sum / ITEMS;
	free(cms);
	return result;
}

static Result
measure_d_hash(const uint8_t (*keys)[8], const uint32_t *counts, double epsilon,
			   uint32_t w, uint32_t d, uint32_t copies)
{
	Result		result = {0};
	DHash		s;
	double		best = INFINITY;
	double		sum = 0;

	dhash_init(&s, w, d, copies);
	for (int run = 0; run < TIMING_RUNS; run++)
	{
		double		start;

		memset(s.counters, 0, sizeof(uint64_t) * s.rows * s.width);
		s.total = 0;
		start = now();
		for (uint32_t i = 0; i < UPDATES; i++)
			if (!dhash_add(&s, keys[i], 1))
			{
				fprintf(stderr, "update failed\n");
				exit(1);
			}
		start = now() - start;
		if (start < best)
			best = start;
	}
	result.ns_per_update = best * 1e9 / UPDATES;
	for (uint32_t item = 1; item <= ITEMS; item++)
	{
		uint8_t		key[8];

		key_of(item, key);
		tally(&result, dhash_estimate(&s, key), counts[item],
			  epsilon * (double) s.total, &sum);
	}
	result.mean_error = sum / ITEMS;
	free(s.seeds);
	free(s.counters);
	return result;
}

static void
print_row(const Config *config, const char *variant, uint32_t w, uint32_t d,
		  uint32_t copies, const Result *r, double bound)
{
	printf("| %g | %g | %s | %u | %u | %u | %" PRIu64 " | %" PRIu64 " | %.2f | %.6f (%" PRIu64 ") | %.3g | %.1f |\n",
		   config->epsilon, config->delta, variant, w, d, copies,
		   (uint64_t) 8 * w * d * copies, r->max_error, r->mean_error,
		   (double) r->beyond / ITEMS, r->beyond, bound, r->ns_per_update);
}

int
main(void)
{
	double	   *cdf = malloc(sizeof(double) * (ITEMS + 1));
	uint32_t   *counts = calloc(ITEMS + 1, sizeof(uint32_t));
	uint8_t		(*keys)[8] = malloc((size_t) 8 * UPDATES);
	uint64_t	state = STREAM_SEED;
	double		h = 0;
	uint32_t	distinct = 0;
	uint32_t	top = 0;

	if (cdf == NULL || counts == NULL || keys == NULL)
	{
		fprintf(stderr, "out of memory\n");
		return 1;
	}

	/* the cumulative distribution, summed from the small terms up */
	for (uint32_t r = ITEMS; r >= 1; r--)
		h += pow((double) r, -ZIPF_S);
	cdf[0] = 0;
	{
		double		partial = 0;

		for (uint32_t r = 1; r <= ITEMS; r++)
		{
			partial += pow((double) r, -ZIPF_S);
			cdf[r] = partial / h;
		}
		cdf[ITEMS] = 1.0;
	}
	for (uint32_t i = 0; i < UPDATES; i++)
	{
		uint32_t	item = zipf_rank(cdf, uniform(&state));

		key_of(item, keys[i]);
		counts[item]++;
	}
	for (uint32_t r = 1; r <= ITEMS; r++)
	{
		distinct += counts[r] > 0;
		if (counts[r] > top)
			top = counts[r];
	}

	printf("Zipf(%.1f) stream: %d updates over ranks 1..%d (%u distinct drawn; the most frequent %u times), seed %" PRIu64 ".\n",
		   ZIPF_S, UPDATES, ITEMS, distinct, top, STREAM_SEED);
	printf("Errors over all %d ranks; time per update: best of %d builds.\n\n", ITEMS, TIMING_RUNS);
	printf("| ε | δ | variant | w | d | copies | counter bytes | max error | mean error | fraction > ε‖a‖₁ (items) | bound | ns/update |\n");
	printf("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
	for (size_t c = 0; c < sizeof(configs) / sizeof(configs[0]); c++)
	{
		const Config *config = &configs[c];
		uint32_t	w;
		uint32_t	d;
		uint32_t	copies;
		bs_error	err;
		Result		two;
		Result		indep;

		if (bs_cms_size_error(config->epsilon, config->delta, &w, &d, &copies, &err) != BS_OK)
		{
			fprintf(stderr, "sizing failed: %s\n", err.message);
			return 1;
		}
		two = measure_two_hash((const uint8_t (*)[8]) keys, counts, config->epsilon, w, d, copies);
		indep = measure_d_hash((const uint8_t (*)[8]) keys, counts, config->epsilon, w, d, copies);
		print_row(config, "two-hash (KM)", w, d, copies, &two,
				  pow(bs_cms_failure_bound(config->epsilon, w, d), copies));
		print_row(config, "d-hash", w, d, copies, &indep,
				  pow(1.0 / (config->epsilon * w), (double) d * copies));
	}
	free(cdf);
	free(counts);
	free(keys);
	return 0;
}
