/*
 * test_cms.c — unit tests of the count-min sketch core (src/core/bs_cms*).
 *
 *   gcc -std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I src/core \
 *       test/test_cms.c src/core/\*.c -lm
 *
 * A self-contained runner in the style of test_core.c: passing checks are
 * silent, a failing one prints file:line, the expression and the case.  The
 * last line is "cms: N checks, M failed"; the exit status is non-zero when
 * M > 0.  Everything pseudo-random comes from fixed seeds.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bs_cms.h"
#include "bs_cms_codec.h"
#include "bs_error.h"
#include "bs_primes.h"
#include "bs_cms_probe.h"		/* bs_cms_add_inline */
#include "bs_probe.h"			/* bs_map_uniform and xxhash, to recompute positions */
#include "check.h"

/* ---- the runner (check.h) ---- */

unsigned long checks_run;
unsigned long checks_failed;

/* ---- helpers ---- */

static void
put_le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static uint64_t
get_le64(const uint8_t *p)
{
	uint64_t	v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static void
put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static void
put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t) v;
	p[1] = (uint8_t) (v >> 8);
}

/* Integer-family canonical bytes: little-endian 64-bit. */
static void
key_of(uint64_t i, uint8_t key[8])
{
	put_le64(key, i);
}

static uint64_t
bytes_of(const bs_cms *cms)
{
	return sizeof(bs_cms) + 8 * bs_cms_counter_count(cms);
}

static bs_cms *
new_sketch(uint32_t w, uint32_t d, uint32_t copies, uint64_t seed)
{
	uint64_t	bytes;
	bs_cms	   *cms;

	if (bs_cms_total_bytes(w, d, copies, &bytes, NULL) != BS_OK)
	{
		fprintf(stderr, "test_cms: bad dimensions %u %u %u\n", w, d, copies);
		exit(2);
	}
	cms = xcalloc((size_t) bytes);
	bs_cms_init(cms, w, d, copies, seed);
	return cms;
}

static bs_cms *
clone_sketch(const bs_cms *cms)
{
	bs_cms	   *copy = xcalloc((size_t) bytes_of(cms));

	memcpy(copy, cms, (size_t) bytes_of(cms));
	return copy;
}

static void
add_key(bs_cms *cms, uint64_t i, int64_t count)
{
	bs_cms_probe probe;
	uint8_t		key[8];
	bs_error	err;

	bs_cms_probe_init(&probe, cms->width, cms->depth, cms->copies, cms->seed);
	key_of(i, key);
	if (bs_cms_add(cms, &probe, key, 8, count, &err) != BS_OK)
	{
		fprintf(stderr, "test_cms: add failed: %s\n", err.message);
		exit(2);
	}
	cms->family = BS_FAMILY_INTEGER;
}

static uint64_t
estimate_key(const bs_cms *cms, uint64_t i)
{
	bs_cms_probe probe;
	uint8_t		key[8];

	bs_cms_probe_init(&probe, cms->width, cms->depth, cms->copies, cms->seed);
	key_of(i, key);
	return bs_cms_estimate(cms, &probe, key, 8);
}

static bool
validates(const bs_cms *cms)
{
	return bs_cms_validate(cms, bytes_of(cms), NULL) == BS_OK;
}

/* ---- sizing ---- */

static uint32_t
closed_form_depth(double epsilon)
{
	double		d = ceil(log(1.0 / (epsilon * (1.0 - 1.0 / (2.0 * M_E * M_E)))));

	return d < 1 ? 1 : (uint32_t) d;
}

static void
test_sizing(void)
{
	bs_error	err;
	uint32_t	w,
				d,
				c;
	uint64_t	bytes;

	/* epsilon = 0.01: 2e/epsilon = 543.66, so w = 547 (544..546 composite) */
	CHECK_STATUS(bs_cms_size_error(0.01, 0.05, &w, &d, &c, &err), BS_OK, &err);
	CHECK(w == 547 && d == 5 && c == 1);
	CHECK_STATUS(bs_cms_size_error(0.01, 0.01, &w, &d, &c, &err), BS_OK, &err);
	CHECK(c == 1);				/* delta == epsilon: one copy suffices */
	CHECK_STATUS(bs_cms_size_error(0.01, 1e-4, &w, &d, &c, &err), BS_OK, &err);
	CHECK(w == 547 && d == 5 && c == 2);
	CHECK_STATUS(bs_cms_size_error(0.01, 1e-6, &w, &d, &c, &err), BS_OK, &err);
	CHECK(c == 3);
	CHECK_STATUS(bs_cms_size_error(0.01, 0.009, &w, &d, &c, &err), BS_OK, &err);
	CHECK(c == 2);
	CHECK_STATUS(bs_cms_size_error(0.001, 1e-9, &w, &d, &c, &err), BS_OK, &err);
	CHECK(w == 5437 && d == 7 && c == 3);	/* 5437 is prime; ln(1000/0.9323) = 6.98 */
	CHECK_STATUS(bs_cms_size_error(0.5, 0.5, &w, &d, &c, &err), BS_OK, &err);
	CHECK(w == 11 && d == 1 && c == 1);
	CHECK_STATUS(bs_cms_size_error(0.1, 0.001, &w, &d, &c, &err), BS_OK, &err);
	CHECK(w == 59 && d == 3 && c == 3);

	/* over a sweep of epsilon: the Theorem 9.1 shape, and the bound holds */
	for (double eps = 0.9; eps > 1e-6; eps *= 0.83)
	{
		uint32_t	closed = closed_form_depth(eps);

		CHECKF(bs_cms_size_error(eps, 0.5, &w, &d, &c, &err) == BS_OK, "epsilon %g", eps);
		CHECKF(bs_is_prime(w) && w >= 2 * M_E / eps && bs_next_prime((uint64_t) ceil(2 * M_E / eps)) == w,
			   "epsilon %g: w %u", eps, w);
		CHECKF(d >= closed && (d == closed || bs_cms_failure_bound(eps, w, d - 1) > eps),
			   "epsilon %g: d %u, closed form %u", eps, d, closed);
		CHECKF(bs_cms_failure_bound(eps, w, d) <= eps, "epsilon %g: bound %g", eps,
			   bs_cms_failure_bound(eps, w, d));
		CHECKF(eps > 0.5 || c == 1, "epsilon %g: copies %u", eps, c);
		for (double delta = eps / 3; delta > 1e-30 && eps > 1e-4; delta /= 1000)
		{
			double		need = log(1 / delta) / log(1 / eps);

			CHECKF(bs_cms_size_error(eps, delta, &w, &d, &c, &err) == BS_OK,
				   "epsilon %g delta %g", eps, delta);
			CHECKF(c >= need * (1 - 1e-12) && c < need + 1, "epsilon %g delta %g copies %u",
				   eps, delta, c);
			CHECKF(pow(bs_cms_failure_bound(eps, w, d), c) <= delta * (1 + 1e-9),
				   "epsilon %g delta %g copies %u", eps, delta, c);
		}
	}

	CHECK_STATUS(bs_cms_size_error(0.0, 0.1, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_error(1.0, 0.1, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_error(-0.1, 0.1, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_error(NAN, 0.1, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_error(0.1, 0.0, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_error(0.1, 1.0, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_error(0.1, NAN, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_error(1e-9, 0.1, &w, &d, &c, &err), BS_ERR_TOO_LARGE, &err);
	CHECK_STATUS(bs_cms_size_error(1e-12, 0.1, &w, &d, &c, &err), BS_ERR_TOO_LARGE, &err);
	CHECK_STATUS(bs_cms_size_error(0.999, 1e-300, &w, &d, &c, &err), BS_ERR_TOO_LARGE, &err);
	/* epsilon 1e-6: w = 5,436,571-ish, d = 14, 609 MB; 5e-7: w 10.9M, d = 15, 1.3 GB */
	CHECK_STATUS(bs_cms_size_error(1e-6, 0.5, &w, &d, &c, &err), BS_OK, &err);
	CHECK(d == 14 && w > 5436563 && (uint64_t) w * d * 8 + 40 <= BS_CMS_MAX_BYTES);
	CHECK_STATUS(bs_cms_size_error(5e-7, 0.5, &w, &d, &c, &err), BS_ERR_TOO_LARGE, &err);
	CHECK_STATUS(bs_cms_size_error(1e-6, 1e-7, &w, &d, &c, &err), BS_ERR_TOO_LARGE, &err);

	CHECK_STATUS(bs_cms_size_dims(100, 5, 1, &w, &d, &c, &err), BS_OK, &err);
	CHECK(w == 101 && d == 5 && c == 1);
	CHECK_STATUS(bs_cms_size_dims(101, 101, 2, &w, &d, &c, &err), BS_OK, &err);
	CHECK(w == 101 && d == 101 && c == 2);
	CHECK_STATUS(bs_cms_size_dims(1, 1, 1, &w, &d, &c, &err), BS_OK, &err);
	CHECK(w == 2 && d == 1 && c == 1);
	CHECK_STATUS(bs_cms_size_dims(2, 3, 1, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_dims(0, 1, 1, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_dims(-5, 1, 1, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_dims(100, 0, 1, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_dims(100, 1, 0, &w, &d, &c, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_size_dims(100000000, 1, 1, &w, &d, &c, &err), BS_ERR_TOO_LARGE, &err);
	CHECK_STATUS(bs_cms_size_dims(INT64_MAX, 1, 1, &w, &d, &c, &err), BS_ERR_TOO_LARGE, &err);
	CHECK_STATUS(bs_cms_size_dims(100000, 70000, 1, &w, &d, &c, &err), BS_ERR_TOO_LARGE, &err);
	CHECK_STATUS(bs_cms_size_dims(100, 1, 70000, &w, &d, &c, &err), BS_ERR_TOO_LARGE, &err);
	{
		uint64_t	largest = bs_prev_prime((BS_CMS_MAX_BYTES - 40) / 8);

		CHECK_STATUS(bs_cms_size_dims((int64_t) largest, 1, 1, &w, &d, &c, &err), BS_OK, &err);
		CHECK(w == largest);
		CHECK_STATUS(bs_cms_size_dims((int64_t) largest + 1, 1, 1, &w, &d, &c, &err), BS_ERR_TOO_LARGE, &err);
	}

	CHECK_STATUS(bs_cms_total_bytes(101, 5, 2, &bytes, &err), BS_OK, &err);
	CHECK(bytes == sizeof(bs_cms) + 8 * 101 * 5 * 2);
	CHECK(sizeof(bs_cms) == 40);
	CHECK_STATUS(bs_cms_total_bytes(UINT32_MAX, 65535, 65535, &bytes, &err), BS_ERR_TOO_LARGE, &err);
	CHECK_STATUS(bs_cms_total_bytes(UINT64_MAX, UINT64_MAX, UINT64_MAX, &bytes, &err), BS_ERR_TOO_LARGE, &err);
	CHECK_STATUS(bs_cms_total_bytes(0, 1, 1, &bytes, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_total_bytes((BS_CMS_MAX_BYTES - 40) / 8, 1, 1, &bytes, &err), BS_OK, &err);
	CHECK(bytes == BS_CMS_MAX_BYTES);
	CHECK_STATUS(bs_cms_total_bytes((BS_CMS_MAX_BYTES - 40) / 8 + 1, 1, 1, &bytes, &err), BS_ERR_TOO_LARGE, &err);
}

/* ---- positions ---- */

static void
test_positions(void)
{
	const uint32_t widths[] = {2, 3, 11, 101, 547, 1000003};
	uint64_t	state = 42;

	for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++)
	{
		uint32_t	w = widths[wi];
		uint32_t	d = w < 7 ? w : 7;
		uint32_t	copies = 3;
		uint64_t	seed = splitmix64(&state);
		bs_cms_probe probe;
		uint64_t	columns[21];
		uint64_t	distinct_pairs = 0;

		bs_cms_probe_init(&probe, w, d, copies, seed);
		for (uint64_t i = 0; i < 2000; i++)
		{
			uint8_t		key[8];
			uint64_t	first[3],
						step[3];

			key_of(i, key);
			bs_cms_positions(&probe, key, 8, columns);
			for (uint32_t c = 0; c < copies; c++)
			{
				bs_cms_locate(&probe, c, key, 8, &first[c], &step[c]);
				CHECKF(first[c] < w && step[c] >= 1 && step[c] <= w - 1,
					   "w %u key %" PRIu64 " copy %u: a %" PRIu64 " b %" PRIu64, w, i, c, first[c], step[c]);
				for (uint32_t j = 0; j < d; j++)
				{
					uint64_t	col = columns[c * d + j];

					CHECKF(col < w && col == (first[c] + (uint64_t) j * step[c]) % w,
						   "w %u key %" PRIu64 " copy %u row %u", w, i, c, j);
					/* b != 0 and d <= w prime: a value's d columns are distinct */
					for (uint32_t k = 0; k < j; k++)
						CHECKF(columns[c * d + k] != col, "w %u key %" PRIu64 " rows %u %u", w, i, k, j);
				}
			}
			if (first[0] != first[1] || step[0] != step[1])
				distinct_pairs++;

			/* a and b are exactly the rejection mapping of one XXH3 call per copy */
			if (w == 1000003)
			{
				for (uint32_t c = 0; c < copies; c++)
				{
					XXH128_hash_t h = XXH3_128bits_withSeed(key, 8, seed + c * BS_CMS_COPY_SEED_STEP);
					uint64_t	a,
								b;

					CHECK(bs_map_uniform(h.low64, w, probe.reject_below_w, &a) && a == first[c]);
					CHECK(bs_map_uniform(h.high64, w - 1, probe.reject_below_step, &b) && b + 1 == step[c]);
				}
			}
		}
		if (w > 100)
			CHECKF(distinct_pairs > 1900, "w %u: copies 0 and 1 agree too often (%" PRIu64 " differ)", w, distinct_pairs);
	}

	/* two values with different (a, b) share a column in at most one row (w prime, d = w) */
	{
		bs_cms_probe probe;
		uint64_t	x[11],
					y[11];
		uint64_t	shared_somewhere = 0;

		bs_cms_probe_init(&probe, 11, 11, 1, 7);
		for (uint64_t i = 0; i < 300; i++)
		{
			uint8_t		key[8];
			uint64_t	ax,
						bx;

			key_of(i, key);
			bs_cms_positions(&probe, key, 8, x);
			bs_cms_locate(&probe, 0, key, 8, &ax, &bx);
			for (uint64_t k = i + 1; k < 300; k++)
			{
				uint64_t	ay,
							by;
				int			same = 0;

				key_of(k, key);
				bs_cms_positions(&probe, key, 8, y);
				bs_cms_locate(&probe, 0, key, 8, &ay, &by);
				for (int j = 0; j < 11; j++)
					same += x[j] == y[j];
				if (ax == ay && bx == by)
					CHECK(same == 11);
				else
				{
					CHECKF(same <= 1, "keys %" PRIu64 " %" PRIu64 ": %d shared rows", i, k, same);
					shared_somewhere += same;
				}
			}
		}
		CHECK(shared_somewhere > 0);
	}

	/* a is close to uniform: 101 bins, 202,000 keys, every bin within 6 sigma */
	{
		bs_cms_probe probe;
		uint64_t	bins[101] = {0};
		uint64_t	steps[101] = {0};

		bs_cms_probe_init(&probe, 101, 1, 1, 99);
		for (uint64_t i = 0; i < 202000; i++)
		{
			uint8_t		key[8];
			uint64_t	a,
						b;

			key_of(i, key);
			bs_cms_locate(&probe, 0, key, 8, &a, &b);
			bins[a]++;
			steps[b]++;
		}
		CHECK(steps[0] == 0);
		for (int k = 0; k < 101; k++)
		{
			CHECKF(fabs((double) bins[k] - 2000.0) < 6 * sqrt(2000.0), "bin %d: %" PRIu64, k, bins[k]);
			if (k > 0)
				CHECKF(fabs((double) steps[k] - 2020.0) < 6 * sqrt(2020.0), "step %d: %" PRIu64, k, steps[k]);
		}
	}
}

/* ---- updates, estimates, the Zipf stream, merge of halves ---- */

#define ZIPF_ITEMS 100000
#define ZIPF_UPDATES 1000000

static uint32_t
zipf_draw(const double *cdf, uint64_t *state)
{
	double		u = (double) (splitmix64(state) >> 11) * 0x1.0p-53;
	uint32_t	lo = 0,
				hi = ZIPF_ITEMS - 1;

	while (lo < hi)
	{
		uint32_t	mid = lo + (hi - lo) / 2;

		if (cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static void
run_zipf(double epsilon, double delta, const uint32_t *stream, const uint64_t *truth)
{
	uint32_t	w,
				d,
				c;
	bs_error	err;
	bs_cms	   *whole,
			   *first,
			   *second;
	bs_cms_probe probe;
	uint64_t	exceeded = 0;
	uint64_t	below = 0;
	double		threshold = epsilon * ZIPF_UPDATES;
	double		bound;
	uint64_t	product;
	unsigned __int128 true_self = 0;

	if (!CHECK(bs_cms_size_error(epsilon, delta, &w, &d, &c, &err) == BS_OK))
		return;
	whole = new_sketch(w, d, c, UINT64_C(0x5eed));
	first = new_sketch(w, d, c, UINT64_C(0x5eed));
	second = new_sketch(w, d, c, UINT64_C(0x5eed));
	bs_cms_probe_init(&probe, w, d, c, UINT64_C(0x5eed));
	for (uint64_t t = 0; t < ZIPF_UPDATES; t++)
	{
		uint8_t		key[8];

		key_of(stream[t], key);
		CHECK(bs_cms_add(whole, &probe, key, 8, 1, NULL) == BS_OK);
		CHECK(bs_cms_add(t < ZIPF_UPDATES / 2 ? first : second, &probe, key, 8, 1, NULL) == BS_OK);
	}
	whole->family = first->family = second->family = BS_FAMILY_INTEGER;
	CHECK(whole->total == ZIPF_UPDATES);
	CHECK(validates(whole) && validates(first) && validates(second));

	for (uint64_t i = 0; i < ZIPF_ITEMS; i++)
	{
		uint8_t		key[8];
		uint64_t	est;

		key_of(i, key);
		est = bs_cms_estimate(whole, &probe, key, 8);
		if (est < truth[i])
			below++;
		if ((double) est > (double) truth[i] + threshold)
			exceeded++;
		true_self += (unsigned __int128) truth[i] * truth[i];
	}
	bound = pow(bs_cms_failure_bound(epsilon, w, d), c);
	CHECKF(below == 0, "epsilon %g: %" PRIu64 " estimates below the truth", epsilon, below);
	CHECKF((double) exceeded / ZIPF_ITEMS <= bound,
		   "epsilon %g delta %g: %" PRIu64 " of %d items exceed epsilon ||a||_1; Theorem 9.1 bound %g",
		   epsilon, delta, exceeded, ZIPF_ITEMS, bound);
	printf("cms: zipf(1.1) epsilon %g delta %g: w %u d %u copies %u, %" PRIu64 " of %d items off by more than %g (bound %.3g)\n",
		   epsilon, delta, w, d, c, exceeded, ZIPF_ITEMS, threshold, bound);

	/* merging the sketches of the two halves gives the sketch of the whole */
	CHECK_STATUS(bs_cms_merge_into(first, second, &err), BS_OK, &err);
	CHECK(memcmp(first, whole, (size_t) bytes_of(whole)) == 0);
	CHECK(bs_cms_compare(first, whole) == 0);

	/* self inner product: never below sum a_i^2, within epsilon ||a||_1^2 */
	CHECK_STATUS(bs_cms_inner_product(whole, whole, &product, &err), BS_OK, &err);
	CHECK((unsigned __int128) product >= true_self);
	CHECK((double) product <= (double) true_self + epsilon * (double) ZIPF_UPDATES * ZIPF_UPDATES);

	/* intersecting with itself changes nothing */
	CHECK_STATUS(bs_cms_intersect_into(first, whole, &err), BS_OK, &err);
	CHECK(memcmp(first, whole, (size_t) bytes_of(whole)) == 0);

	free(whole);
	free(first);
	free(second);
}

static void
test_zipf(void)
{
	double	   *cdf = xcalloc(sizeof(double) * ZIPF_ITEMS);
	uint32_t   *stream = xcalloc(sizeof(uint32_t) * ZIPF_UPDATES);
	uint64_t   *truth = xcalloc(sizeof(uint64_t) * ZIPF_ITEMS);
	double		sum = 0;
	uint64_t	state = 20240501;

	for (uint32_t i = 0; i < ZIPF_ITEMS; i++)
	{
		sum += pow((double) (i + 1), -1.1);
		cdf[i] = sum;
	}
	for (uint32_t i = 0; i < ZIPF_ITEMS; i++)
		cdf[i] /= sum;
	for (uint64_t t = 0; t < ZIPF_UPDATES; t++)
	{
		stream[t] = zipf_draw(cdf, &state);
		truth[stream[t]]++;
	}
	CHECK(truth[0] > truth[1] && truth[1] > truth[10]);

	run_zipf(0.01, 0.05, stream, truth);
	run_zipf(0.01, 1e-4, stream, truth);
	run_zipf(0.001, 0.01, stream, truth);

	free(cdf);
	free(stream);
	free(truth);
}

static void
test_add(void)
{
	bs_error	err;
	bs_cms	   *cms = new_sketch(101, 4, 2, 1);
	bs_cms	   *before;
	bs_cms_probe probe;
	uint8_t		key[8];

	bs_cms_probe_init(&probe, 101, 4, 2, 1);
	CHECK(validates(cms));
	CHECK(estimate_key(cms, 5) == 0);
	key_of(5, key);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, 7, &err), BS_OK, &err);
	cms->family = BS_FAMILY_INTEGER;
	CHECK(estimate_key(cms, 5) == 7 && cms->total == 7);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, 0, &err), BS_OK, &err);
	CHECK(cms->total == 7);
	CHECK(validates(cms));

	/* a negative count is refused and changes nothing */
	before = clone_sketch(cms);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, -1, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, INT64_MIN, &err), BS_ERR_PARAM, &err);
	CHECK(memcmp(before, cms, (size_t) bytes_of(cms)) == 0);

	/* up to 2^64 - 1 in total, then overflow is refused with nothing changed */
	/* 7 + (2^63 - 1) fits; adding 2^63 - 1 again would reach 2^64 + 5 */
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, INT64_MAX, &err), BS_OK, &err);
	free(before);
	before = clone_sketch(cms);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, INT64_MAX, &err), BS_ERR_TOO_LARGE, &err);
	CHECK(memcmp(before, cms, (size_t) bytes_of(cms)) == 0);
	free(before);
	free(cms);

	cms = new_sketch(101, 4, 2, 1);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, INT64_MAX, &err), BS_OK, &err);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, INT64_MAX, &err), BS_OK, &err);
	cms->family = BS_FAMILY_INTEGER;
	CHECK(cms->total == UINT64_MAX - 1);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, 1, &err), BS_OK, &err);
	CHECK(cms->total == UINT64_MAX && estimate_key(cms, 5) == UINT64_MAX);
	CHECK(validates(cms));
	before = clone_sketch(cms);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, 1, &err), BS_ERR_TOO_LARGE, &err);
	CHECK(memcmp(before, cms, (size_t) bytes_of(cms)) == 0);
	key_of(6, key);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, 1, &err), BS_ERR_TOO_LARGE, &err);
	CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, 0, &err), BS_OK, &err);
	CHECK(memcmp(before, cms, (size_t) bytes_of(cms)) == 0);
	free(before);
	free(cms);

	/*
	 * A counter can overflow before the total only in an intersection-shaped
	 * sketch (rows summing to more than total).  Build one: copy 1 row 2 has a
	 * huge counter in the key's column; the add must fail and be undone across
	 * all rows and copies already touched.
	 */
	{
		uint64_t	columns[8];

		cms = new_sketch(11, 4, 2, 3);
		bs_cms_probe_init(&probe, 11, 4, 2, 3);
		key_of(12345, key);
		bs_cms_positions(&probe, key, 8, columns);
		cms->family = BS_FAMILY_INTEGER;
		cms->counters[bs_cms_index(cms, 1, 2, columns[1 * 4 + 2])] = UINT64_MAX - 3;
		CHECK_STATUS(bs_cms_validate(cms, bytes_of(cms), &err), BS_OK, &err);
		CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, 3, &err), BS_OK, &err);
		before = clone_sketch(cms);
		CHECK_STATUS(bs_cms_add(cms, &probe, key, 8, 1, &err), BS_ERR_TOO_LARGE, &err);
		CHECK(strstr(err.detail, "copy 1, row 2") != NULL);
		CHECK(memcmp(before, cms, (size_t) bytes_of(cms)) == 0);
		CHECK(cms->total == 3 && estimate_key(cms, 12345) == 3);
		/* the inline fast path refuses alike and also leaves every byte as it was */
		CHECK(!bs_cms_add_inline(cms, &probe, key, 8, 1));
		CHECK(memcmp(before, cms, (size_t) bytes_of(cms)) == 0);
		CHECK(!bs_cms_add_inline(cms, &probe, key, 8, UINT64_MAX - 2));
		CHECK(memcmp(before, cms, (size_t) bytes_of(cms)) == 0);
		CHECK(validates(cms));
		free(before);
		free(cms);
	}
}

/*
 * cms_agg's unchecked additions (bs_cms_add_additive_inline) give the bytes
 * of the checked ones on sketches built by additions, over random values,
 * counts, widths, depths and copies; they refuse a total that would pass
 * 2^64 - 1 and leave the sketch as it was.
 */
static void
test_add_additive(void)
{
	static const uint32_t shapes[][3] = {{2, 1, 1}, {3, 2, 1}, {101, 4, 2}, {5437, 7, 1}, {1009, 9, 3}};
	uint64_t	rng = 77;

	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
	{
		uint32_t	width = shapes[s][0];
		uint32_t	depth = shapes[s][1];
		uint32_t	copies = shapes[s][2];
		bs_cms	   *checked = new_sketch(width, depth, copies, s);
		bs_cms	   *unchecked = new_sketch(width, depth, copies, s);
		bs_cms	   *before;
		bs_cms_probe probe;
		uint8_t		key[8];
		bool		same = true;

		bs_cms_probe_init(&probe, width, depth, copies, s);
		for (int i = 0; i < 20000; i++)
		{
			uint64_t	n = splitmix64(&rng) % 4 == 0 ? splitmix64(&rng) >> 40 : 1;

			key_of(splitmix64(&rng) % 5000, key);
			same &= bs_cms_add_inline(checked, &probe, key, 8, n);
			same &= bs_cms_add_additive_inline(unchecked, &probe, key, 8, n);
		}
		CHECK(same);
		CHECK(memcmp(checked, unchecked, (size_t) bytes_of(checked)) == 0);
		checked->family = BS_FAMILY_INTEGER;
		CHECK(validates(checked));

		/* the total's check: up to 2^64 - 1, not one more */
		key_of(1, key);
		CHECK(bs_cms_add_additive_inline(unchecked, &probe, key, 8, UINT64_MAX - unchecked->total));
		CHECK(unchecked->total == UINT64_MAX);
		before = clone_sketch(unchecked);
		CHECK(!bs_cms_add_additive_inline(unchecked, &probe, key, 8, 1));
		CHECK(memcmp(before, unchecked, (size_t) bytes_of(unchecked)) == 0);
		free(before);
		free(checked);
		free(unchecked);
	}
}

/* ---- merge, intersect, inner product ---- */

static void
test_combine(void)
{
	bs_error	err;
	bs_cms	   *a = new_sketch(101, 5, 2, 9);
	bs_cms	   *b = new_sketch(101, 5, 2, 9);
	bs_cms	   *x;
	bs_cms	   *before;
	uint64_t	product;

	/* mismatches, each naming the parameter and both values */
	x = new_sketch(103, 5, 2, 9);
	CHECK_STATUS(bs_cms_check_compatible(a, x, &err), BS_ERR_MISMATCH, &err);
	CHECK(strstr(err.message, "width") != NULL && strstr(err.detail, "101") && strstr(err.detail, "103"));
	CHECK_STATUS(bs_cms_merge_into(a, x, &err), BS_ERR_MISMATCH, &err);
	CHECK_STATUS(bs_cms_intersect_into(a, x, &err), BS_ERR_MISMATCH, &err);
	CHECK_STATUS(bs_cms_inner_product(a, x, &product, &err), BS_ERR_MISMATCH, &err);
	free(x);
	x = new_sketch(101, 4, 2, 9);
	CHECK_STATUS(bs_cms_check_compatible(a, x, &err), BS_ERR_MISMATCH, &err);
	CHECK(strstr(err.message, "depth") != NULL && strstr(err.detail, "d = 5") && strstr(err.detail, "d = 4"));
	free(x);
	x = new_sketch(101, 5, 3, 9);
	CHECK_STATUS(bs_cms_check_compatible(a, x, &err), BS_ERR_MISMATCH, &err);
	CHECK(strstr(err.message, "copies") != NULL && strstr(err.detail, "2 copies") && strstr(err.detail, "3."));
	free(x);
	x = new_sketch(101, 5, 2, (uint64_t) -9);
	CHECK_STATUS(bs_cms_check_compatible(a, x, &err), BS_ERR_MISMATCH, &err);
	CHECK(strstr(err.message, "seed") != NULL && strstr(err.detail, "seed 9") && strstr(err.detail, "seed -9"));
	x->seed = 9;
	/* versions: one whose family hashes differently in the two (see test_versions) */
	CHECK(a->version == BS_CMS_FORMAT_VERSION && x->version == BS_CMS_FORMAT_VERSION);
	x->version = 1;
	a->family = x->family = BS_FAMILY_TEXT;
	CHECK_STATUS(bs_cms_check_compatible(a, x, &err), BS_ERR_MISMATCH, &err);
	CHECK(strstr(err.message, "format versions") != NULL && strstr(err.detail, "version 2") &&
		  strstr(err.detail, "other 1"));
	CHECK_STATUS(bs_cms_check_compatible(x, a, &err), BS_ERR_MISMATCH, &err);
	x->version = BS_CMS_FORMAT_VERSION;
	a->family = BS_FAMILY_INTEGER;
	x->family = BS_FAMILY_TEXT;
	CHECK_STATUS(bs_cms_check_compatible(a, x, &err), BS_ERR_MISMATCH, &err);
	CHECK(strstr(err.detail, "\"integer\"") && strstr(err.detail, "\"text\""));
	x->family = BS_FAMILY_OTHER;
	x->type_tag = 0xabc;
	a->family = BS_FAMILY_OTHER;
	a->type_tag = 0xdef;
	CHECK_STATUS(bs_cms_check_compatible(a, x, &err), BS_ERR_MISMATCH, &err);
	CHECK(strstr(err.detail, "other-00000abc") && strstr(err.detail, "other-00000def"));
	a->family = BS_FAMILY_NONE;
	a->type_tag = 0;
	CHECK_STATUS(bs_cms_check_compatible(a, x, &err), BS_OK, &err);
	free(x);

	/* an empty sketch takes the other's family when merged */
	add_key(b, 1, 10);
	add_key(b, 2, 20);
	CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
	CHECK(a->family == BS_FAMILY_INTEGER && a->total == 30 && memcmp(a, b, (size_t) bytes_of(a)) == 0);
	CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
	CHECK(a->total == 60 && estimate_key(a, 1) >= 20 && estimate_key(a, 2) >= 40);
	CHECK(validates(a));

	/* inner product: a = 2b pointwise */
	CHECK_STATUS(bs_cms_inner_product(a, b, &product, &err), BS_OK, &err);
	CHECK(product >= 2 * (10 * 10 + 20 * 20));

	/* intersection: estimates are the minimum, total the smallest row sum */
	{
		bs_cms	   *c = new_sketch(101, 5, 2, 9);

		add_key(c, 1, 5);
		add_key(c, 3, 50);
		CHECK_STATUS(bs_cms_intersect_into(a, c, &err), BS_OK, &err);
		CHECK(estimate_key(a, 1) >= 5 && estimate_key(a, 1) <= 5 + 0);
		CHECK(estimate_key(a, 3) <= 50);
		CHECK(a->total <= 55 && a->total >= 5);
		CHECK_STATUS(bs_cms_validate(a, bytes_of(a), &err), BS_OK, &err);
		free(c);
	}

	/* merging two intersections keeps total = smallest row sum */
	{
		bs_cms	   *p = new_sketch(3, 2, 1, 0);
		bs_cms	   *q = new_sketch(3, 2, 1, 0);

		p->family = q->family = BS_FAMILY_INTEGER;
		p->counters[0] = 5;		/* row 0 sums to 5 */
		p->counters[3] = 7;		/* row 1 sums to 7 */
		p->total = 5;
		q->counters[0] = 7;
		q->counters[4] = 5;
		q->total = 5;
		CHECK(validates(p) && validates(q));
		CHECK_STATUS(bs_cms_merge_into(p, q, &err), BS_OK, &err);
		CHECK(p->total == 12 && validates(p));
		free(p);
		free(q);
	}

	/* overflow in merge: refused, nothing changed */
	{
		bs_cms	   *p = new_sketch(3, 1, 1, 0);
		bs_cms	   *q = new_sketch(3, 1, 1, 0);

		p->family = q->family = BS_FAMILY_INTEGER;
		p->counters[0] = UINT64_MAX - 1;
		p->total = UINT64_MAX - 1;
		q->counters[1] = 2;
		q->total = 2;
		CHECK(validates(p) && validates(q));
		before = clone_sketch(p);
		CHECK_STATUS(bs_cms_merge_into(p, q, &err), BS_ERR_TOO_LARGE, &err);	/* total */
		CHECK(memcmp(before, p, (size_t) bytes_of(p)) == 0);
		q->counters[1] = 0;
		q->counters[0] = 2;
		CHECK_STATUS(bs_cms_merge_into(p, q, &err), BS_ERR_TOO_LARGE, &err);	/* counter */
		CHECK(memcmp(before, p, (size_t) bytes_of(p)) == 0);
		q->counters[0] = 1;
		q->total = 1;
		CHECK_STATUS(bs_cms_merge_into(p, q, &err), BS_OK, &err);
		CHECK(p->total == UINT64_MAX && validates(p));

		/* inner product beyond 2^64 - 1 is refused; below it is exact here */
		CHECK_STATUS(bs_cms_inner_product(p, p, &product, &err), BS_ERR_TOO_LARGE, &err);
		q->counters[0] = 0;
		q->counters[2] = 1;
		CHECK_STATUS(bs_cms_inner_product(p, q, &product, &err), BS_OK, &err);
		CHECK(product == 0);
		free(before);
		free(p);
		free(q);
	}
	free(a);
	free(b);
}

/* ---- serialized and text forms ---- */

static bs_cms *
sample_sketch(uint8_t family, uint32_t type_tag, uint64_t seed)
{
	bs_cms	   *cms = new_sketch(101, 5, 2, seed);
	uint64_t	state = seed;

	for (int i = 0; i < 500; i++)
	{
		uint64_t	key = splitmix64(&state) % 1000;

		add_key(cms, key, (int64_t) (splitmix64(&state) % 100));
	}
	add_key(cms, 7, INT64_MAX / 2);
	cms->family = family;
	cms->type_tag = type_tag;
	return cms;
}

static bs_status
decode_bytes(const uint8_t *in, size_t length, bs_cms **out, bs_error *err)
{
	bs_cms_params p;
	bs_status	status;
	bs_cms	   *cms;

	*out = NULL;
	if ((status = bs_cms_decode_header(in, length, &p, err)) != BS_OK)
		return status;
	cms = xcalloc((size_t) bs_cms_params_total_bytes(&p));
	if ((status = bs_cms_load_serialized(cms, &p, in, err)) != BS_OK)
	{
		free(cms);
		return status;
	}
	*out = cms;
	return BS_OK;
}

static bs_status
decode_text(const char *text, bs_cms **out, bs_error *err)
{
	bs_cms_params p;
	bs_status	status;
	bs_cms	   *cms;
	size_t		offset;
	size_t		length = strlen(text);

	*out = NULL;
	if ((status = bs_cms_parse_text_header(text, length, &p, &offset, err)) != BS_OK)
		return status;
	cms = xcalloc((size_t) bs_cms_params_total_bytes(&p));
	if ((status = bs_cms_load_text(cms, &p, text + offset, length - offset, err)) != BS_OK)
	{
		free(cms);
		return status;
	}
	*out = cms;
	return BS_OK;
}

static char *
to_text(const bs_cms *cms)
{
	char	   *text = xcalloc((size_t) bs_cms_text_length(cms) + 1);

	bs_cms_format_text(cms, text);
	return text;
}

static void
test_serialized(void)
{
	bs_error	err;
	bs_cms	   *cms = sample_sketch(BS_FAMILY_INTEGER, 0, 77);
	bs_cms_params p;
	uint64_t	n;
	uint8_t    *buf;
	uint8_t    *bad;
	bs_cms	   *back;
	uint64_t	first_nonzero = 0;
	uint64_t	last_nonzero = 0;

	bs_cms_get_params(cms, &p);
	n = bs_cms_serial_bytes(&p);
	CHECK(n == 32 + 8 * 101 * 5 * 2);
	buf = xcalloc((size_t) n + 1);
	bs_cms_serialize(cms, buf);
	CHECK(BS_CMS_FORMAT_VERSION == 2 && BS_CMS_OLDEST_VERSION == 1 && cms->version == 2);
	CHECK(buf[0] == 2 && buf[1] == BS_FAMILY_INTEGER && buf[8] == 101 && buf[12] == 5 && buf[14] == 2);
	CHECK(buf[16] == 77);

	CHECK_STATUS(decode_bytes(buf, (size_t) n, &back, &err), BS_OK, &err);
	if (back != NULL)
	{
		uint8_t    *again = xcalloc((size_t) n);

		CHECK(memcmp(back, cms, (size_t) bytes_of(cms)) == 0);
		bs_cms_serialize(back, again);
		CHECK(memcmp(again, buf, (size_t) n) == 0);
		free(again);
		free(back);
	}

	for (uint64_t off = 32; off < n; off += 8)
		if (get_le64(buf + off) != 0)
		{
			if (first_nonzero == 0)
				first_nonzero = off;
			last_nonzero = off;
		}
	CHECK(first_nonzero != 0 && last_nonzero > first_nonzero);
	bad = xcalloc((size_t) n + 1);
#define VARIANT(length, want, what, mutate) \
	do { \
		memcpy(bad, buf, (size_t) n); \
		mutate; \
		CHECK_STATUS_WHAT(decode_bytes(bad, (length), &back, &err), (want), &err, (what)); \
		free(back); \
	} while (0)

	VARIANT(0, BS_ERR_FORMAT, "empty", (void) 0);
	VARIANT(31, BS_ERR_FORMAT, "header truncated", (void) 0);
	VARIANT((size_t) n - 1, BS_ERR_FORMAT, "truncated", (void) 0);
	VARIANT(32, BS_ERR_FORMAT, "header only", (void) 0);
	VARIANT((size_t) n + 1, BS_ERR_FORMAT, "trailing byte", bad[n] = 0);
	VARIANT((size_t) n, BS_OK, "version 1 (still read)", bad[0] = 1);
	VARIANT((size_t) n, BS_ERR_FORMAT, "version 3", bad[0] = 3);
	VARIANT((size_t) n, BS_ERR_FORMAT, "version 4", bad[0] = 4);
	VARIANT((size_t) n, BS_ERR_FORMAT, "version 255", bad[0] = 255);
	VARIANT((size_t) n, BS_ERR_FORMAT, "version 0", bad[0] = 0);
	VARIANT((size_t) n, BS_ERR_FORMAT, "version 1, reserved low", (bad[0] = 1, bad[2] = 1));
	VARIANT((size_t) n, BS_ERR_PARAM, "version 1, w not prime", (bad[0] = 1, put_le32(bad + 8, 100)));
	VARIANT((size_t) n - 1, BS_ERR_FORMAT, "version 1, truncated", bad[0] = 1);
	VARIANT((size_t) n, BS_ERR_FORMAT, "reserved low", bad[2] = 1);
	VARIANT((size_t) n, BS_ERR_FORMAT, "reserved high", bad[3] = 0x80);
	VARIANT((size_t) n, BS_ERR_FORMAT, "family 12", bad[1] = 12);
	VARIANT((size_t) n, BS_ERR_FORMAT, "family 255", bad[1] = 255);
	VARIANT((size_t) n, BS_ERR_FORMAT, "type tag on integer", bad[4] = 1);
	VARIANT((size_t) n, BS_ERR_FORMAT, "no family with a total", bad[1] = 0);
	VARIANT((size_t) n, BS_ERR_PARAM, "w not prime", put_le32(bad + 8, 100));
	VARIANT((size_t) n, BS_ERR_PARAM, "w = 1", put_le32(bad + 8, 1));
	VARIANT((size_t) n, BS_ERR_PARAM, "w = 0", put_le32(bad + 8, 0));
	VARIANT((size_t) n, BS_ERR_PARAM, "d = 0", put_le16(bad + 12, 0));
	VARIANT((size_t) n, BS_ERR_PARAM, "copies = 0", put_le16(bad + 14, 0));
	VARIANT((size_t) n, BS_ERR_PARAM, "d > w", put_le32(bad + 8, 3));
	VARIANT((size_t) n, BS_ERR_TOO_LARGE, "w huge", put_le32(bad + 8, 4294967291u));
	VARIANT((size_t) n, BS_ERR_TOO_LARGE, "everything huge",
			(put_le32(bad + 8, 4294967291u), put_le16(bad + 12, 65535), put_le16(bad + 14, 65535)));
	VARIANT((size_t) n, BS_ERR_TOO_LARGE, "w just too large", put_le32(bad + 8, 93750011));
	VARIANT((size_t) n, BS_ERR_FORMAT, "other w, same length", put_le32(bad + 8, 103));
	/*
	 * A counter lowered takes its row below total.  (A counter raised leaves
	 * the smallest row sum at total: the validator cannot tell it from an
	 * intersection, whose rows sum to different values; see bs_cms.h.)
	 */
	VARIANT((size_t) n, BS_ERR_FORMAT, "first nonzero counter lowered",
			put_le64(bad + first_nonzero, get_le64(bad + first_nonzero) - 1));
	VARIANT((size_t) n, BS_ERR_FORMAT, "last nonzero counter lowered",
			put_le64(bad + last_nonzero, get_le64(bad + last_nonzero) - 1));
	VARIANT((size_t) n, BS_OK, "one counter raised (intersection-shaped)",
			put_le64(bad + first_nonzero, get_le64(bad + first_nonzero) + 1));
	VARIANT((size_t) n, BS_ERR_FORMAT, "total changed", bad[24] ^= 1);
	VARIANT((size_t) n, BS_ERR_FORMAT, "total zero", put_le64(bad + 24, 0));
	/* every row raised alike: rows agree, but not with total */
	VARIANT((size_t) n, BS_ERR_FORMAT, "all rows off by one",
			for (uint64_t r = 0; r < 10; r++)
				put_le64(bad + 32 + 8 * 101 * r, get_le64(bad + 32 + 8 * 101 * r) + 1));
	VARIANT((size_t) n, BS_ERR_FORMAT, "all rows off by one, total too",
			(put_le64(bad + 24, get_le64(bad + 24) + 2),
			 ({ for (uint64_t r = 0; r < 10; r++)
				 put_le64(bad + 32 + 8 * 101 * r, get_le64(bad + 32 + 8 * 101 * r) + 1); })));
	VARIANT((size_t) n, BS_OK, "all rows and total raised alike",
			(put_le64(bad + 24, get_le64(bad + 24) + 1),
			 ({ for (uint64_t r = 0; r < 10; r++)
				 put_le64(bad + 32 + 8 * 101 * r, get_le64(bad + 32 + 8 * 101 * r) + 1); })));
	/* a family-less sketch with counts, total 0 via an empty row */
	{
		bs_cms	   *e = new_sketch(3, 2, 1, 0);
		uint8_t		ebuf[32 + 48];

		e->counters[0] = 4;
		bs_cms_serialize(e, ebuf);
		CHECK_STATUS(decode_bytes(ebuf, sizeof(ebuf), &back, &err), BS_ERR_FORMAT, &err);
		free(back);
		e->family = BS_FAMILY_INTEGER;
		bs_cms_serialize(e, ebuf);
		CHECK_STATUS(decode_bytes(ebuf, sizeof(ebuf), &back, &err), BS_OK, &err);	/* intersection-shaped */
		free(back);
		e->total = 4;
		bs_cms_serialize(e, ebuf);
		CHECK_STATUS(decode_bytes(ebuf, sizeof(ebuf), &back, &err), BS_ERR_FORMAT, &err);
		free(back);
		free(e);
	}
#undef VARIANT

	/*
	 * version 1 is still read: it loads as version 1 (not relabelled), with
	 * the same counters, and serializes back to the same bytes
	 */
	{
		uint8_t    *old = xcalloc((size_t) n);
		uint8_t    *again = xcalloc((size_t) n);

		memcpy(old, buf, (size_t) n);
		old[0] = 1;
		CHECK_STATUS(bs_cms_decode_header(old, (size_t) n, &p, &err), BS_OK, &err);
		CHECK(p.version == 1 && p.family == BS_FAMILY_INTEGER && p.width == 101);
		CHECK_STATUS(decode_bytes(old, (size_t) n, &back, &err), BS_OK, &err);
		if (back != NULL)
		{
			CHECK(back->version == 1);
			CHECK(back->total == cms->total && back->family == cms->family &&
				  memcmp(back->counters, cms->counters, 8 * bs_cms_counter_count(cms)) == 0);
			CHECK_STATUS(bs_cms_validate(back, bytes_of(back), &err), BS_OK, &err);
			bs_cms_serialize(back, again);
			CHECK(again[0] == 1 && memcmp(again, old, (size_t) n) == 0);
			free(back);
		}
		free(again);
		free(old);
	}

	/* "other" with a type tag round-trips */
	{
		bs_cms	   *o = sample_sketch(BS_FAMILY_OTHER, 0xdeadbeef, 5);

		bs_cms_serialize(o, buf);
		CHECK_STATUS(decode_bytes(buf, (size_t) n, &back, &err), BS_OK, &err);
		if (back != NULL)
			CHECK(memcmp(back, o, (size_t) bytes_of(o)) == 0);
		free(back);
		free(o);
	}

	/* in-memory validation: padding and exact size */
	CHECK_STATUS(bs_cms_validate(cms, bytes_of(cms), &err), BS_OK, &err);
	CHECK_STATUS(bs_cms_validate(cms, bytes_of(cms) + 8, &err), BS_ERR_FORMAT, &err);
	CHECK_STATUS(bs_cms_validate(cms, bytes_of(cms) - 8, &err), BS_ERR_FORMAT, &err);
	cms->padding = 1;
	CHECK_STATUS(bs_cms_validate(cms, bytes_of(cms), &err), BS_ERR_FORMAT, &err);
	cms->padding = 0;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_OK, &err);
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms) - 1, &err), BS_ERR_FORMAT, &err);
	CHECK(cms->version == 2);
	cms->version = 1;			/* still read */
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_OK, &err);
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms) - 8, &err), BS_ERR_FORMAT, &err);
	cms->version = 0;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_ERR_FORMAT, &err);
	cms->version = 3;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_ERR_FORMAT, &err);
	cms->version = 255;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_ERR_FORMAT, &err);
	cms->version = 2;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_OK, &err);
	cms->depth = 0;
	CHECK_STATUS(bs_cms_check_shape(cms, 40, &err), BS_ERR_FORMAT, &err);
	cms->depth = 5;
	cms->width = 4;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_ERR_FORMAT, &err);
	cms->width = 101;

	free(bad);
	free(buf);
	free(cms);
}

static void
test_text(void)
{
	bs_error	err;
	bs_cms	   *cms = sample_sketch(BS_FAMILY_TEXT, 0, (uint64_t) -12345);
	char	   *text = to_text(cms);
	bs_cms	   *back;
	char	   *bad;
	size_t		length = strlen(text);
	char		expected_prefix[200];

	snprintf(expected_prefix, sizeof(expected_prefix),
			 "cms:v2:text:w=101:d=5:copies=2:seed=-12345:total=%" PRIu64 ":", cms->total);
	CHECK(strncmp(text, expected_prefix, strlen(expected_prefix)) == 0);
	CHECK(length == bs_cms_text_length(cms));
	CHECK(length == strlen(expected_prefix) + 4 * ((8 * 1010 + 2) / 3));

	CHECK_STATUS(decode_text(text, &back, &err), BS_OK, &err);
	if (back != NULL)
	{
		char	   *again = to_text(back);

		CHECK(memcmp(back, cms, (size_t) bytes_of(cms)) == 0);
		CHECK(strcmp(again, text) == 0);
		free(again);
		free(back);
	}

	/* a version 1 sketch is written with its own version, and reads back as one */
	{
		bs_cms	   *old = clone_sketch(cms);
		char	   *t;

		old->version = 1;
		t = to_text(old);
		CHECK(strncmp(t, "cms:v1:text:w=101:", 18) == 0 && strcmp(t + 7, text + 7) == 0);
		CHECK_STATUS(decode_text(t, &back, &err), BS_OK, &err);
		if (back != NULL)
		{
			char	   *again = to_text(back);

			CHECK(back->version == 1 && memcmp(back, old, (size_t) bytes_of(old)) == 0);
			CHECK(strcmp(again, t) == 0);
			free(again);
		}
		free(back);
		free(t);
		free(old);
	}

	/* the empty sketch and an "other" family */
	{
		bs_cms	   *e = new_sketch(2, 1, 1, 0);
		char	   *t = to_text(e);

		CHECK(strcmp(t, "cms:v2:none:w=2:d=1:copies=1:seed=0:total=0:AAAAAAAAAAAAAAAAAAAAAA==") == 0);
		CHECK_STATUS(decode_text(t, &back, &err), BS_OK, &err);
		if (back != NULL)
			CHECK(memcmp(back, e, (size_t) bytes_of(e)) == 0);
		free(back);
		free(t);
		e->family = BS_FAMILY_OTHER;
		e->type_tag = 0x00c0ffee;
		t = to_text(e);
		CHECK(strncmp(t, "cms:v2:other-00c0ffee:w=2:", 26) == 0);
		CHECK_STATUS(decode_text(t, &back, &err), BS_OK, &err);
		if (back != NULL)
			CHECK(memcmp(back, e, (size_t) bytes_of(e)) == 0);
		free(back);
		free(t);
		free(e);
	}

	bad = xcalloc(length + 64);
#define REPLACE(from, to, want) \
	do { \
		const char *at_ = strstr(text, (from)); \
		if (CHECK(at_ != NULL)) \
		{ \
			size_t		head_ = (size_t) (at_ - text); \
			memcpy(bad, text, head_); \
			strcpy(bad + head_, (to)); \
			strcat(bad, at_ + strlen(from)); \
			CHECK_STATUS_WHAT(decode_text(bad, &back, &err), (want), &err, (from " -> " to)); \
			free(back); \
		} \
	} while (0)

	REPLACE("cms:", "CMS:", BS_ERR_FORMAT);
	REPLACE("cms:", "bloom:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v1:", BS_OK);	/* version 1 is still read */
	REPLACE(":v2:", ":v3:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v4:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v0:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v255:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v256:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v258:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v02:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v01:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":V2:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":2:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":1:", BS_ERR_FORMAT);
	REPLACE(":v2:text:", ":v1:txt:", BS_ERR_FORMAT);	/* no pass for version 1 on the other fields */
	REPLACE(":v2:text:w=101:", ":v1:text:w=100:", BS_ERR_PARAM);
	REPLACE(":v2:text:", ":v1:none:", BS_ERR_FORMAT);
	REPLACE(":text:", ":txt:", BS_ERR_FORMAT);
	REPLACE(":text:", ":Text:", BS_ERR_FORMAT);
	REPLACE(":text:", ":integer:", BS_OK);	/* another family is a valid value */
	REPLACE(":text:", ":none:", BS_ERR_FORMAT);	/* no family, but a total */
	REPLACE(":text:", ":other-0000000g:", BS_ERR_FORMAT);
	REPLACE(":text:", ":other-0000000A:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":w=0101:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":w=+101:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":w= 101:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":W=101:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":w=100:", BS_ERR_PARAM);
	REPLACE(":w=101:", ":w=4294967291:", BS_ERR_TOO_LARGE);
	REPLACE(":w=101:", ":w=4294967296:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":w=103:", BS_ERR_FORMAT);	/* payload length no longer fits */
	REPLACE(":d=5:", ":d=0:", BS_ERR_PARAM);
	REPLACE(":d=5:", ":d=05:", BS_ERR_FORMAT);
	REPLACE(":d=5:", ":d=65536:", BS_ERR_FORMAT);
	REPLACE(":d=5:", ":d=102:", BS_ERR_PARAM);
	REPLACE(":copies=2:", ":copies=0:", BS_ERR_PARAM);
	REPLACE(":copies=2:", ":copies=2.0:", BS_ERR_FORMAT);
	REPLACE(":copies=2:", ":c=2:", BS_ERR_FORMAT);
	REPLACE(":seed=-12345:", ":seed=-012345:", BS_ERR_FORMAT);
	REPLACE(":seed=-12345:", ":seed=18446744073709539271:", BS_ERR_FORMAT);	/* unsigned spelling */
	REPLACE(":seed=-12345:", ":seed=-12346:", BS_OK);	/* another seed is a valid value */
	REPLACE(":total=", ":total=0", BS_ERR_FORMAT);
	REPLACE(":total=", ":total=-", BS_ERR_FORMAT);
	REPLACE(":total=", ":total=1", BS_ERR_FORMAT);	/* row sums no longer match */
	REPLACE(":total=", ":", BS_ERR_FORMAT);

	/* the payload: length, alphabet, padding, canonical last symbol, counters */
	strcpy(bad, text);
	bad[length - 1] = '\0';
	CHECK_STATUS(decode_text(bad, &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	strcpy(bad, text);
	strcat(bad, "A");
	CHECK_STATUS(decode_text(bad, &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	strcpy(bad, text);
	strcat(bad, "\n");
	CHECK_STATUS(decode_text(bad, &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	strcpy(bad, text);
	bad[strlen(expected_prefix)] = '*';
	CHECK_STATUS(decode_text(bad, &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	strcpy(bad, text);
	/* 8080 bytes = 3 * 2693 + 1: "xy==" at the end, y has 4 unused low bits */
	if (CHECK(bad[length - 1] == '=' && bad[length - 2] == '=' && bad[length - 3] != '='))
	{
		static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
		int			v = (int) (strchr(alphabet, bad[length - 3]) - alphabet);

		bad[length - 3] = alphabet[v ^ 1];
		CHECK_STATUS(decode_text(bad, &back, &err), BS_ERR_FORMAT, &err);
		free(back);
	}
	/* a counter lowered inside the payload: its row no longer sums to total */
	{
		bs_cms	   *lowered = clone_sketch(cms);
		char	   *t;
		uint64_t	i = 0;

		while (lowered->counters[i] == 0)
			i++;
		lowered->counters[i]--;
		t = to_text(lowered);
		CHECK(strncmp(t, text, strlen(expected_prefix)) == 0);
		CHECK_STATUS(decode_text(t, &back, &err), BS_ERR_FORMAT, &err);
		CHECK(strstr(err.message, "row sums") != NULL);
		free(back);
		free(t);
		free(lowered);
	}
	CHECK_STATUS(decode_text("cms:v2:none:w=2:d=1:copies=1:seed=0:total=0", &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	CHECK_STATUS(decode_text("cms:v1:none:w=2:d=1:copies=1:seed=0:total=0", &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	/* the empty sketch in version 1 text */
	CHECK_STATUS(decode_text("cms:v1:none:w=2:d=1:copies=1:seed=0:total=0:AAAAAAAAAAAAAAAAAAAAAA==", &back, &err), BS_OK, &err);
	if (back != NULL)
		CHECK(back->version == 1 && back->family == BS_FAMILY_NONE && back->total == 0);
	free(back);
	CHECK_STATUS(decode_text("", &back, &err), BS_ERR_FORMAT, &err);
	free(back);
#undef REPLACE

	free(bad);
	free(text);
	free(cms);
}

/* ---- format versions 1 and 2 combined ---- */

/* A w = 13, d = 3, 2-copy sketch of the given version counting `count` keys as `family` (none: empty). */
static bs_cms *
versioned_sketch(uint8_t version, uint8_t family, uint64_t first, uint64_t count)
{
	bs_cms	   *cms = new_sketch(13, 3, 2, 9);

	for (uint64_t i = first; i < first + count; i++)
		add_key(cms, i, (int64_t) (i + 1));
	cms->family = family;
	cms->type_tag = family == BS_FAMILY_OTHER ? 0x1234 : 0;
	cms->version = version;
	return cms;
}

/* The sketch's serialized form reads back, with its version in byte 0. */
static bool
cms_serializes_as_version(const bs_cms *cms, uint8_t version)
{
	bs_cms_params p;
	uint8_t    *buf;
	bs_cms	   *back = NULL;
	bool		ok;

	bs_cms_get_params(cms, &p);
	buf = xcalloc((size_t) bs_cms_serial_bytes(&p));
	bs_cms_serialize(cms, buf);
	ok = buf[0] == version && decode_bytes(buf, (size_t) bs_cms_serial_bytes(&p), &back, NULL) == BS_OK &&
		back != NULL && back->version == version &&
		memcmp(back, cms, (size_t) bytes_of(cms)) == 0;
	free(back);
	free(buf);
	return ok;
}

static void
test_versions(void)
{
	bs_error	err;
	uint64_t	product;

	/*
	 * Every pair of families, version 1 (fa) against version 2 (fb), in both
	 * orders: combinable when either is empty or the older (version 1)
	 * side's family hashes alike in both, and the families agree; the
	 * result has the version of the side with values, else 2.
	 */
	for (uint8_t fa = 0; fa <= BS_FAMILY_LAST; fa++)
		for (uint8_t fb = 0; fb <= BS_FAMILY_LAST; fb++)
		{
			bs_cms	   *a = versioned_sketch(1, fa, 0, fa != BS_FAMILY_NONE ? 4 : 0);
			bs_cms	   *b = versioned_sketch(2, fb, 2, fb != BS_FAMILY_NONE ? 4 : 0);
			bool		versions_ok = fa == BS_FAMILY_NONE || fb == BS_FAMILY_NONE ||
				(fa != BS_FAMILY_TEXT && fa != BS_FAMILY_OTHER);
			bool		families_ok = fa == BS_FAMILY_NONE || fb == BS_FAMILY_NONE || fa == fb;
			bs_status	want = versions_ok && families_ok ? BS_OK : BS_ERR_MISMATCH;
			uint8_t		want_version = fa != BS_FAMILY_NONE && fb == BS_FAMILY_NONE ? 1 : 2;
			uint8_t		want_family = fa != BS_FAMILY_NONE ? fa : fb;
			char		what[64];

			snprintf(what, sizeof(what), "v1 %s, v2 %s", bs_family_name(fa), bs_family_name(fb));
			CHECK(validates(a) && validates(b));
			CHECK_STATUS_WHAT(bs_cms_check_compatible(a, b, &err), want, &err, what);
			if (!versions_ok)
				CHECK(strcmp(err.message, "cmsketch format versions differ") == 0 &&
					  strstr(err.detail, "format version 1, the other 2") != NULL);
			else if (!families_ok)
				CHECK(strcmp(err.message, "cmsketch value families differ") == 0);
			CHECK_STATUS_WHAT(bs_cms_check_compatible(b, a, &err), want, &err, what);
			if (!versions_ok)
				CHECK(strcmp(err.message, "cmsketch format versions differ") == 0 &&
					  strstr(err.detail, "format version 2, the other 1") != NULL);

			if (want != BS_OK)
			{
				bs_cms	   *before = clone_sketch(a);

				/* merge, intersection and inner product all refuse, leaving a as it was */
				CHECK_STATUS_WHAT(bs_cms_merge_into(a, b, &err), BS_ERR_MISMATCH, &err, what);
				CHECK_STATUS_WHAT(bs_cms_intersect_into(a, b, &err), BS_ERR_MISMATCH, &err, what);
				CHECK_STATUS_WHAT(bs_cms_inner_product(a, b, &product, &err), BS_ERR_MISMATCH, &err, what);
				CHECK_STATUS_WHAT(bs_cms_merge_into(b, a, &err), BS_ERR_MISMATCH, &err, what);
				CHECK(memcmp(before, a, (size_t) bytes_of(a)) == 0);
				free(before);
			}
			else
			{
				bs_cms	   *m1 = clone_sketch(a);
				bs_cms	   *m2 = clone_sketch(b);
				bs_cms	   *i1 = clone_sketch(a);
				bs_cms	   *i2 = clone_sketch(b);
				bool		counters_ok = true;

				CHECK_STATUS_WHAT(bs_cms_merge_into(m1, b, &err), BS_OK, &err, what);
				CHECK_STATUS_WHAT(bs_cms_merge_into(m2, a, &err), BS_OK, &err, what);
				CHECK_STATUS_WHAT(bs_cms_intersect_into(i1, b, &err), BS_OK, &err, what);
				CHECK_STATUS_WHAT(bs_cms_intersect_into(i2, a, &err), BS_OK, &err, what);
				CHECK_STATUS_WHAT(bs_cms_inner_product(a, b, &product, &err), BS_OK, &err, what);
				for (uint64_t k = 0; k < bs_cms_counter_count(a); k++)
					if (m1->counters[k] != a->counters[k] + b->counters[k] ||
						i1->counters[k] != (a->counters[k] < b->counters[k] ? a->counters[k] : b->counters[k]))
						counters_ok = false;
				CHECK(counters_ok);
				CHECK(m1->total == a->total + b->total);
				CHECK(m1->version == want_version && m2->version == want_version &&
					  i1->version == want_version && i2->version == want_version);
				CHECK(m1->family == want_family && m2->family == want_family &&
					  i1->family == want_family && i2->family == want_family);
				/* the same result in either order */
				CHECK(bs_cms_compare(m1, m2) == 0 && bs_cms_compare(i1, i2) == 0);
				/* a valid value, written with that version */
				CHECK(cms_serializes_as_version(m1, want_version));
				CHECK(cms_serializes_as_version(i1, want_version));
				free(m1);
				free(m2);
				free(i1);
				free(i2);
			}
			free(a);
			free(b);
		}

	/* the same version combines in every family, and keeps its version */
	for (uint8_t v = 1; v <= 2; v++)
		for (uint8_t fam = 1; fam <= BS_FAMILY_LAST; fam++)
		{
			bs_cms	   *a = versioned_sketch(v, fam, 0, 4);
			bs_cms	   *b = versioned_sketch(v, fam, 2, 4);

			CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_OK, &err);
			CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
			CHECK(a->version == v && a->family == fam);
			CHECK_STATUS(bs_cms_intersect_into(a, b, &err), BS_OK, &err);
			CHECK(a->version == v && a->family == fam);
			free(a);
			free(b);
		}

	/* the cases by name */
	{
		bs_cms	   *a;
		bs_cms	   *b;
		char	   *text;

		/* v1 integer + v2 integer: merged, written as version 2 */
		a = versioned_sketch(1, BS_FAMILY_INTEGER, 0, 4);
		b = versioned_sketch(2, BS_FAMILY_INTEGER, 2, 4);
		CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_OK, &err);
		CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
		CHECK(a->version == 2 && a->family == BS_FAMILY_INTEGER && validates(a));
		CHECK(estimate_key(a, 2) >= 6 && estimate_key(a, 0) >= 1);
		text = to_text(a);
		CHECK(strncmp(text, "cms:v2:integer:", 15) == 0);
		free(text);
		free(a);
		free(b);

		/* v1 text + v2 text, v1 other + v2 other (same tag): refused */
		a = versioned_sketch(1, BS_FAMILY_TEXT, 0, 4);
		b = versioned_sketch(2, BS_FAMILY_TEXT, 0, 4);
		CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
		CHECK(strcmp(err.message, "cmsketch format versions differ") == 0);
		CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_ERR_MISMATCH, &err);
		CHECK_STATUS(bs_cms_merge_into(b, a, &err), BS_ERR_MISMATCH, &err);
		CHECK(bs_cms_check_compatible(a, b, NULL) == BS_ERR_MISMATCH);
		free(a);
		free(b);
		a = versioned_sketch(1, BS_FAMILY_OTHER, 0, 4);
		b = versioned_sketch(2, BS_FAMILY_OTHER, 0, 4);
		CHECK(a->type_tag == b->type_tag);
		CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
		CHECK(strcmp(err.message, "cmsketch format versions differ") == 0);
		CHECK_STATUS(bs_cms_merge_into(b, a, &err), BS_ERR_MISMATCH, &err);
		free(a);
		free(b);

		/* v1 text + v2 empty: merged, and stays version 1 (either order) */
		a = versioned_sketch(1, BS_FAMILY_TEXT, 0, 4);
		b = versioned_sketch(2, BS_FAMILY_NONE, 0, 0);
		CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_OK, &err);
		CHECK_STATUS(bs_cms_merge_into(b, a, &err), BS_OK, &err);
		CHECK(b->version == 1 && b->family == BS_FAMILY_TEXT && memcmp(a, b, (size_t) bytes_of(a)) == 0);
		text = to_text(b);
		CHECK(strncmp(text, "cms:v1:text:", 12) == 0);
		free(text);
		/* being version 1 text, it no longer merges with version 2 text */
		{
			bs_cms	   *c = versioned_sketch(2, BS_FAMILY_TEXT, 5, 4);

			CHECK_STATUS(bs_cms_merge_into(b, c, &err), BS_ERR_MISMATCH, &err);
			free(c);
		}
		free(b);
		b = versioned_sketch(2, BS_FAMILY_NONE, 0, 0);
		CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
		CHECK(a->version == 1 && a->family == BS_FAMILY_TEXT);
		free(a);
		free(b);

		/* v1 empty + v2 text: merged, version 2 (either order) */
		a = versioned_sketch(1, BS_FAMILY_NONE, 0, 0);
		b = versioned_sketch(2, BS_FAMILY_TEXT, 0, 4);
		CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_OK, &err);
		CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
		CHECK(a->version == 2 && a->family == BS_FAMILY_TEXT && memcmp(a, b, (size_t) bytes_of(a)) == 0);
		free(a);
		a = versioned_sketch(1, BS_FAMILY_NONE, 0, 0);
		CHECK_STATUS(bs_cms_merge_into(b, a, &err), BS_OK, &err);
		CHECK(b->version == 2 && b->family == BS_FAMILY_TEXT);
		free(a);
		free(b);

		/* two empty sketches: the newer version */
		a = versioned_sketch(1, BS_FAMILY_NONE, 0, 0);
		b = versioned_sketch(2, BS_FAMILY_NONE, 0, 0);
		CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
		CHECK(a->version == 2 && a->family == BS_FAMILY_NONE);
		free(a);
		free(b);
	}
}

int
main(void)
{
	test_sizing();
	test_positions();
	test_add();
	test_add_additive();
	test_combine();
	test_versions();
	test_serialized();
	test_text();
	test_zipf();

	printf("cms: %lu checks, %lu failed\n", checks_run, checks_failed);
	return checks_failed > 0 ? 1 : 0;
}
