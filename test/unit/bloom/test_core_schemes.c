/*
 * test_core_schemes.c — unit tests of the probing schemes: each scheme's
 * positions against its formula, the 512-bit path of a blocked value
 * against the scalar one, and the batch calls of src/core/bloom/bs_batch.c against
 * the value-by-value calls.
 */
#include "../common/test_core.h"

/* ------------------------------------------------------------------------ */
/* probing schemes                                                          */
/* ------------------------------------------------------------------------ */

/* floor(x * n / 2^64), and whether the mapping would reject x */
static unsigned long model_polls;

static void
count_model_poll(void)
{
	model_polls++;
}

static uint64_t
scaled(uint64_t x, uint64_t n, bool *rejected)
{
	unsigned __int128 product = (unsigned __int128) x * n;

	if ((uint64_t) product < (0 - n) % n)
		*rejected = true;
	return (uint64_t) (product >> 64);
}

/*
 * The positions each scheme's formula gives for a value, computed here from
 * h1 and h2 with 128-bit arithmetic, independently of bs_probe.h's
 * incremental loops.  False when a hash would be rejected (then skip it).
 */
static bool
formula_positions(uint8_t scheme, uint64_t m, uint32_t k, uint64_t seed,
				  const void *data, size_t length, uint64_t *out)
{
	XXH128_hash_t h = XXH3_128bits_withSeed(data, length, seed);
	bool		rejected = false;

	if (scheme == BS_SCHEME_INDEPENDENT)
	{
		for (uint32_t i = 0; i < k; i++)
			out[i] = scaled(XXH3_64bits_withSeed(data, length,
												 seed + (uint64_t) (i + 1) * UINT64_C(0xD1B54A32D192ED03)),
							m, &rejected);
		return !rejected;
	}
	if (scheme == BS_SCHEME_BLOCKED)
	{
		uint64_t	block = scaled(h.low64, m / 512, &rejected);
		uint64_t	word = h.high64;

		for (uint32_t i = 0; i < k; i++)
		{
			if (i > 0 && i % 7 == 0)
				word = bs_block_remix(word);
			out[i] = block * 512 + ((word >> (9 * (i % 7))) & 511);
		}
		return !rejected;
	}
	if (scheme == BS_SCHEME_PARTITION)
	{
		uint64_t	width = m / k;
		uint64_t	a = scaled(h.low64, width, &rejected);
		uint64_t	b = scaled(h.high64, width, &rejected);

		for (uint32_t i = 0; i < k; i++)
			out[i] = i * width + (uint64_t) (((unsigned __int128) a + (unsigned __int128) i * b) % width);
		return !rejected;
	}
	{
		uint64_t	a = scaled(h.low64, m, &rejected);
		uint64_t	b = scheme == BS_SCHEME_DOUBLE ? 1 + scaled(h.high64, m - 1, &rejected)
			: scaled(h.high64, m, &rejected);

		for (uint32_t i = 0; i < k; i++)
		{
			unsigned __int128 extra = scheme == BS_SCHEME_DOUBLE_SQUARE ? (unsigned __int128) i * i
				: scheme == BS_SCHEME_DOUBLE_CUBE ? (unsigned __int128) i * i * i : 0;

			out[i] = (uint64_t) (((unsigned __int128) a + (unsigned __int128) i * b + extra) % m);
		}
		return !rejected;
	}
}

/* A valid shape of each scheme near the requested m, for k hashes. */
static uint64_t
shape_near(uint8_t scheme, uint64_t m, uint32_t k)
{
	switch (scheme)
	{
		case BS_SCHEME_PARTITION:
			return k * bs_next_prime(m / k);
		case BS_SCHEME_BLOCKED:
			return (m + 511) / 512 * 512;
		case BS_SCHEME_INDEPENDENT:
			return m;
		case BS_SCHEME_FIT:
			return 65536;		/* a power of two */
		default:
			return bs_next_prime(m);
	}
}

/*
 * The 512-bit path of a blocked value (bs_block_simd.c) against the scalar
 * one: the same bits set and the same answers, for k = 1..7, on blocks empty,
 * sparse and dense, at a line boundary and 8 bytes past one.  Says so and
 * checks nothing more where the processor lacks AVX-512F.
 */
void
test_block_simd(void)
{
	uint64_t	storage[3 * BS_BLOCK_WORDS];
	uint64_t	state = 2024;
	uint64_t	*lines = (uint64_t *) (((uintptr_t) storage + 63) & ~(uintptr_t) 63);
	long		compared = 0;

	if (!bs_block_simd_usable())
	{
		printf("  (no AVX-512F here: the scalar path alone is in use and tested)\n");
		return;
	}
	for (int offset = 0; offset <= 1; offset++)
		for (uint32_t k = 1; k <= BS_BLOCK_CHUNKS; k++)
			for (int round = 0; round < 3000; round++)
			{
				uint64_t   *block = lines + offset;
				uint64_t	scalar[BS_BLOCK_WORDS];
				uint64_t	b = splitmix64(&state);
				int			density = round % 3;	/* empty, sparse, dense */

				for (int w = 0; w < BS_BLOCK_WORDS; w++)
				{
					uint64_t	x = splitmix64(&state);

					block[w] = density == 0 ? 0 : density == 1 ? x & splitmix64(&state) &
						splitmix64(&state) : x | splitmix64(&state);
				}
				memcpy(scalar, block, sizeof(scalar));
				CHECKF(bs_block_test_simd(block, b, k) == bs_block_test_short(scalar, b, k),
					   "test of k %u differs at round %d", k, round);
				bs_block_set_simd(block, b, k);
				bs_block_set_short(scalar, b, k);
				CHECKF(memcmp(block, scalar, sizeof(scalar)) == 0,
					   "set of k %u differs at round %d", k, round);
				CHECKF(bs_block_test_simd(block, b, k), "k %u not found after set", k);
				compared++;
			}
	CHECK(compared == 2 * BS_BLOCK_CHUNKS * 3000);
}

/*
 * bs_bloom_add_batch and bs_bloom_test_batch, and their bs_key versions
 * bs_bloom_add_keys and bs_bloom_test_keys (here with keys of lengths 0 to
 * 40 bytes), against bs_bloom_add and bs_bloom_test value by value on the
 * scalar path: the same bytes and the same answers, for every scheme a
 * finished filter can have (fit included), keys of 8, 32 and 5 bytes,
 * batches shorter than, equal to and longer than the rings (16 and 64
 * values) and than a chunk (BS_BATCH_CHUNK), and blocked values both on the
 * 512-bit path (k = 6, where the processor has AVX-512F) and off it (k = 6
 * forced scalar, k = 11).
 */
/*
 * The bs_key calls on count values of lengths 0 to 40 (cut from keys) and
 * count more: the bits and answers of bs_bloom_add and bs_bloom_test.
 */
static void
check_key_lists(const bs_probe *probe, const bs_probe *scalar, const uint8_t *keys, size_t count)
{
	size_t		size = bs_bloom_total_bytes(probe->bits);
	bs_bloom   *one = xcalloc(size);
	bs_bloom   *batch = xcalloc(size);
	bs_key	   *list = xcalloc((2 * count + 1) * sizeof(bs_key));
	bool	   *maybe = xcalloc(2 * count + 1);
	size_t		hits = 0;

	for (size_t j = 0; j < 2 * count; j++)
	{
		list[j].data = keys + j;
		list[j].length = j % 41;
	}
	bs_bloom_init_scheme(one, probe->scheme, probe->bits, probe->hashes, probe->seed);
	bs_bloom_init_scheme(batch, probe->scheme, probe->bits, probe->hashes, probe->seed);
	for (size_t j = 0; j < count; j++)
		bs_bloom_add(one, scalar, list[j].data, list[j].length);
	bs_bloom_add_keys(batch, probe, list, count);
	CHECKF(memcmp(one, batch, size) == 0, "%s k %u count %zu: key list bits differ",
		   bs_scheme_name(probe->scheme), probe->hashes, count);
	for (size_t j = 0; j < 2 * count; j++)
		hits += bs_bloom_test(one, scalar, list[j].data, list[j].length);
	CHECK(bs_bloom_test_keys(batch, probe, list, 2 * count, maybe) == hits);
	for (size_t j = 0; j < 2 * count; j++)
		CHECKF(maybe[j] == bs_bloom_test(one, scalar, list[j].data, list[j].length),
			   "%s: key list answer %zu of %zu differs", bs_scheme_name(probe->scheme), j,
			   2 * count);
	free(one);
	free(batch);
	free(list);
	free(maybe);
}

void
test_batch(void)
{
	static const size_t widths[] = {8, 32, 5};
	static const size_t counts[] = {0, 1, 15, 16, 17, 63, 64, 65, 3000};
	enum {LAST_SCHEME = BS_SCHEME_FIT};
	static const uint32_t ks[] = {6, 11};
	enum {MAX_COUNT = 3000};
	uint8_t    *keys = xcalloc(2 * MAX_COUNT * 32);
	bool	   *maybe = xcalloc(2 * MAX_COUNT);
	uint64_t	state = 4242;
	long		compared = 0;

	for (uint8_t scheme = 1; scheme <= LAST_SCHEME; scheme++)
		for (size_t ki = 0; ki < sizeof(ks) / sizeof(ks[0]); ki++)
			for (int simd = 0; simd <= 1; simd++)
			{
				uint32_t	k = ks[ki];
				uint64_t	m = shape_near(scheme, 40000, k);
				bs_probe	probe;
				bs_probe	scalar;

				bs_probe_init_scheme(&probe, scheme, m, k, 31 + scheme);
				if (simd && !probe.block_simd)
					continue;	/* that path is not this processor's, or not this k's */
				probe.block_simd = simd;
				scalar = probe;
				scalar.block_simd = false;
				for (size_t wi = 0; wi < sizeof(widths) / sizeof(widths[0]); wi++)
					for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++)
					{
						size_t		width = widths[wi];
						size_t		count = counts[ci];
						size_t		size = bs_bloom_total_bytes(m);
						bs_bloom   *one = xcalloc(size);
						bs_bloom   *batch = xcalloc(size);
						size_t		hits = 0;
						size_t		batch_hits;

						for (size_t j = 0; j < 2 * count * width; j++)
							keys[j] = (uint8_t) splitmix64(&state);
						bs_bloom_init_scheme(one, scheme, m, k, 31 + scheme);
						bs_bloom_init_scheme(batch, scheme, m, k, 31 + scheme);
						/* add the first count keys; query them and count more */
						for (size_t j = 0; j < count; j++)
							bs_bloom_add(one, &scalar, keys + j * width, width);
						bs_bloom_add_batch(batch, &probe, keys, width, count);
						CHECKF(memcmp(one, batch, size) == 0,
							   "%s k %u simd %d width %zu count %zu: bits differ",
							   bs_scheme_name(scheme), k, simd, width, count);
						batch_hits = bs_bloom_test_batch(batch, &probe, keys, width, 2 * count, maybe);
						for (size_t j = 0; j < 2 * count; j++)
						{
							bool		answer = bs_bloom_test(one, &scalar, keys + j * width, width);

							hits += answer;
							CHECKF(maybe[j] == answer, "%s k %u simd %d width %zu: answer %zu of %zu differs",
								   bs_scheme_name(scheme), k, simd, width, j, 2 * count);
							CHECK(j >= count || answer);	/* no false negatives */
						}
						CHECK(batch_hits == hits);
						CHECK(bs_bloom_test_batch(batch, &probe, keys, width, 2 * count, NULL) == hits);
						check_key_lists(&probe, &scalar, keys, count);
						compared++;
						free(one);
						free(batch);
					}
			}
	/* every scheme at k = 6 and 11, one path each, plus blocked k = 6 on AVX-512F */
	CHECK(compared == (long) (sizeof(widths) / sizeof(widths[0]) * sizeof(counts) / sizeof(counts[0])) *
		  (2 * LAST_SCHEME + (bs_block_simd_usable() ? 1 : 0)));
	free(keys);
	free(maybe);
}

void
test_schemes(void)
{
	static const uint32_t ks[] = {1, 2, 7, 8, 15, 64};
	static const uint64_t sizes[] = {97, 10007, 1000003, 5999999999};
	uint64_t	expect[1024];
	uint64_t	got[1024];
	bs_error	err;

	/* 1. positions follow each scheme's formula (sizes up to the largest m) */
	for (uint8_t scheme = 1; scheme <= BS_SCHEME_LAST; scheme++)
		for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
			for (size_t ki = 0; ki < sizeof(ks) / sizeof(ks[0]); ki++)
			{
				uint32_t	k = ks[ki];
				uint64_t	m = shape_near(scheme, sizes[si], k);
				bs_probe	probe;

				if (m > BS_BLOOM_MAX_BITS || !bs_scheme_shape_ok(scheme, m, k))
					continue;
				bs_probe_init_scheme(&probe, scheme, m, k, 12345 + si);
				for (uint64_t v = 0; v < 200; v++)
				{
					if (!formula_positions(scheme, m, k, 12345 + si, &v, sizeof(v), expect))
						continue;
					bs_bloom_positions(&probe, &v, sizeof(v), got);
					CHECKF(memcmp(expect, got, k * sizeof(uint64_t)) == 0,
						   "scheme %s m %" PRIu64 " k %u value %" PRIu64,
						   bs_scheme_name(scheme), m, k, v);
				}
			}

	/*
	 * 1b. the bits bs_bloom_add sets are exactly those positions (blocked:
	 * the short path for k <= 7 and the remixing one above), and
	 * bs_bloom_test finds a value only while all of its bits are set
	 */
	for (uint8_t scheme = 1; scheme <= BS_SCHEME_LAST; scheme++)
		for (uint32_t k = 1; k <= 16; k++)
		{
			uint64_t	m = shape_near(scheme, 10007, k);
			bs_bloom   *f;
			bs_probe	probe;
			bool		exact = true;

			if (!bs_scheme_shape_ok(scheme, m, k))
				continue;
			f = xcalloc((size_t) bs_bloom_total_bytes(m));
			bs_bloom_init_scheme(f, scheme, m, k, 99);
			bs_probe_init_scheme(&probe, scheme, m, k, 99);
			for (uint64_t v = 0; v < 100; v++)
			{
				uint64_t	set = 0;

				/* the second half of the values: the scalar path for all k */
				if (v == 50)
					probe.block_simd = false;
				memset(f->words, 0, (size_t) ((m + 63) / 64) * 8);
				bs_bloom_add(f, &probe, &v, sizeof(v));
				bs_bloom_positions(&probe, &v, sizeof(v), expect);
				for (uint64_t w = 0; w < (m + 63) / 64; w++)
					set += (uint64_t) __builtin_popcountll(f->words[w]);
				for (uint32_t i = 0; i < k; i++)
				{
					exact &= (f->words[expect[i] >> 6] >> (expect[i] & 63)) & 1;
					/* standard-construction schemes may repeat a position */
					for (uint32_t j = 0; j < i; j++)
						set += expect[j] == expect[i];
				}
				exact &= set == k && bs_bloom_test(f, &probe, &v, sizeof(v));
				/* clear one of its bits: the value is no longer found */
				f->words[expect[v % k] >> 6] &= ~(UINT64_C(1) << (expect[v % k] & 63));
				exact &= !bs_bloom_test(f, &probe, &v, sizeof(v));
			}
			CHECKF(exact, "scheme %s m %" PRIu64 " k %u: set bits or test differ from the positions",
				   bs_scheme_name(scheme), m, k);
			free(f);
		}

	/* 2. shapes each scheme accepts and refuses */
	CHECK(bs_scheme_shape_ok(BS_SCHEME_DOUBLE, 97, 7));
	CHECK(!bs_scheme_shape_ok(BS_SCHEME_DOUBLE, 98, 7));
	CHECK(bs_scheme_shape_ok(BS_SCHEME_DOUBLE_CUBE, 97, 97));
	CHECK(!bs_scheme_shape_ok(BS_SCHEME_DOUBLE_SQUARE, 97, 98));
	CHECK(bs_scheme_shape_ok(BS_SCHEME_PARTITION, 7 * 101, 7));
	CHECK(!bs_scheme_shape_ok(BS_SCHEME_PARTITION, 7 * 100, 7));
	CHECK(!bs_scheme_shape_ok(BS_SCHEME_PARTITION, 7 * 101 + 1, 7));
	CHECK(bs_scheme_shape_ok(BS_SCHEME_BLOCKED, 1024, 64));
	CHECK(!bs_scheme_shape_ok(BS_SCHEME_BLOCKED, 1024, 65));
	CHECK(!bs_scheme_shape_ok(BS_SCHEME_BLOCKED, 1000, 7));
	CHECK(!bs_scheme_shape_ok(BS_SCHEME_BLOCKED, 0, 1));
	CHECK(bs_scheme_shape_ok(BS_SCHEME_INDEPENDENT, 100, 7));
	CHECK(!bs_scheme_shape_ok(BS_SCHEME_INDEPENDENT, 1, 1));
	CHECK(!bs_scheme_shape_ok(0, 97, 7) && !bs_scheme_shape_ok(BS_SCHEME_LAST + 1, 97, 7));
	CHECK(bs_scheme_check_shape(BS_SCHEME_PARTITION, 700, 7, &err) == BS_ERR_PARAM);

	/*
	 * The exact count of bs_double_hash_exact.c: with k = 1 a non-member is covered
	 * exactly when a member has its position, 1 - (1 - 1/m)^n; past its
	 * work limit it declines (NAN); and where both exist the model agrees
	 * with it within the accuracy docs/schemes.md states (7% from 300 items).
	 */
	for (uint8_t scheme = BS_SCHEME_DOUBLE; scheme <= BS_SCHEME_DOUBLE_CUBE; scheme++)
	{
		double		one = bs_km_exact_fpr(scheme, 101, 1, 30, BS_KM_REPORT_WORK);

		CHECKF(fabs(one - -expm1(30 * log1p(-1.0 / 101))) < 1e-12, "%s k = 1: %g",
			   bs_scheme_name(scheme), one);
		CHECK(isnan(bs_km_exact_fpr(scheme, 1000003, 10, 1000, BS_KM_REPORT_WORK)));
	}
	{
		double		exact = bs_km_exact_fpr(BS_SCHEME_DOUBLE, 4801, 7, 500, BS_KM_SIZING_WORK);
		double		model = bs_km_fpr(BS_SCHEME_DOUBLE, 4801, 7, 500, -1);

		CHECKF(fabs(model / exact - 1) < 0.07, "double m 4801 k 7 n 500: model %g exact %g",
			   model, exact);
	}

	/*
	 * The sampled count (the z whose probes meet exactly, 16 others for the
	 * rest) against the full one, within 1%; it declines double.
	 */
	{
		static const struct
		{
			uint8_t		scheme;
			uint64_t	m;
			uint32_t	k;
			double		n;
		}			shapes[] = {
			{BS_SCHEME_DOUBLE_SQUARE, 67, 6, 5}, {BS_SCHEME_DOUBLE_SQUARE, 521, 10, 30},
			{BS_SCHEME_DOUBLE_CUBE, 163, 10, 10}, {BS_SCHEME_DOUBLE_CUBE, 487, 7, 50},
		};

		for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		{
			double		exact = bs_km_exact_fpr(shapes[i].scheme, shapes[i].m, shapes[i].k,
												shapes[i].n, 1e9);
			double		sampled = bs_km_sampled_fpr(shapes[i].scheme, shapes[i].m, shapes[i].k,
													shapes[i].n, 1e9);

			CHECKF(fabs(sampled / exact - 1) < 0.01, "%s m %" PRIu64 ": sampled %g, exact %g",
				   bs_scheme_name(shapes[i].scheme), shapes[i].m, sampled, exact);
		}
		CHECK(isnan(bs_km_sampled_fpr(BS_SCHEME_DOUBLE, 101, 7, 10, 1e9)));
	}

	/*
	 * The rate of one given filter (bs_double_hash_filter_rate.c) is the share of
	 * hash pairs whose positions are all set: count them one by one through
	 * the probing code itself, at odd sizes (m % 64 != 0) and loads from
	 * empty to full, and past the work limit it declines.
	 */
	for (uint8_t scheme = BS_SCHEME_DOUBLE; scheme <= BS_SCHEME_PARTITION; scheme++)
	{
		static const uint64_t loads[] = {0, 3, 25, 200};
		uint32_t	k = scheme == BS_SCHEME_PARTITION ? 5 : 6;
		uint64_t	m = scheme == BS_SCHEME_PARTITION ? 5 * 67 : 131;
		bs_bloom   *f = calloc(1, bs_bloom_total_bytes(m));
		bs_probe	probe;

		for (size_t li = 0; li < sizeof(loads) / sizeof(loads[0]); li++)
		{
			uint64_t	hits = 0;
			uint64_t	range;
			uint64_t	first_step = scheme == BS_SCHEME_DOUBLE ? 1 : 0;
			double		pairs;

			bs_bloom_init_scheme(f, scheme, m, k, 5 + li);
			bs_probe_for(&probe, f);
			for (uint64_t v = 0; v < loads[li]; v++)
				bs_bloom_add(f, &probe, &v, sizeof(v));
			range = probe.first_range;
			for (uint64_t a = 0; a < range; a++)
				for (uint64_t b = first_step; b < range; b++)
					hits += bs_probe_test(f, &probe, a, b);
			pairs = (double) range * (double) (range - first_step);
			CHECKF(bs_km_filter_fpr(f) == (double) hits / pairs,
				   "%s, %" PRIu64 " items: counted %g, by pairs %g", bs_scheme_name(scheme),
				   loads[li], bs_km_filter_fpr(f), (double) hits / pairs);
		}
		free(f);
		f = calloc(1, bs_bloom_total_bytes(1000003));
		bs_bloom_init_scheme(f, scheme == BS_SCHEME_PARTITION ? BS_SCHEME_DOUBLE : scheme, 1000003, 7, 1);
		CHECK(isnan(bs_km_filter_fpr(f)));
		free(f);
	}

	/*
	 * 3. sizing: the model meets the rate (within the 2% that Kirsch and
	 * Mitzenmacher's term may add to an unchanged shape), and one step
	 * smaller does not; the schemes with that term refuse a rate they could
	 * only reach at many times the usual size (22023).
	 */
	for (uint8_t scheme = 1; scheme <= BS_SCHEME_LAST; scheme++)
	{
		static const double fprs[] = {0.3, 0.01, 1e-4};
		static const int64_t ns[] = {1, 1000, 1000000};

		for (size_t fi = 0; fi < 3; fi++)
			for (size_t ni = 0; ni < 3; ni++)
			{
				uint64_t	m;
				uint32_t	k;
				double		rate;
				bool		refusable = bs_km_models(scheme) && ns[ni] == 1 && fprs[fi] < 0.01;
				bs_status	sized = bs_bloom_size_scheme(scheme, ns[ni], fprs[fi], &m, &k, &err);

				CHECKF(sized == (refusable ? BS_ERR_PARAM : BS_OK), "sizing %s n %lld fpr %g: %s",
					   bs_scheme_name(scheme), (long long) ns[ni], fprs[fi],
					   sized == BS_OK ? "sized" : err.message);
				if (sized != BS_OK)
				{
					CHECK(refusable && err.hint[0] != '\0');
					continue;
				}
				CHECK(bs_scheme_shape_ok(scheme, m, k));
				CHECK(bs_scheme_expected_fpr(scheme, (int64_t) m, ns[ni], k, &rate, &err) == BS_OK);
				CHECKF(rate <= fprs[fi] * 1.02, "%s n %lld fpr %g: m %" PRIu64 " k %u rate %g",
					   bs_scheme_name(scheme), (long long) ns[ni], fprs[fi], m, k, rate);
				if (scheme == BS_SCHEME_PARTITION && m / k > 2)
				{
					uint64_t	smaller = k * bs_prev_prime(m / k - 1);

					CHECK(bs_partition_fpr(smaller, (double) ns[ni], k) > fprs[fi] ||
						  bs_km_fpr(scheme, smaller, k, (double) ns[ni], -1) > fprs[fi]);
				}
				if (scheme == BS_SCHEME_BLOCKED && m > 512)
					CHECK(bs_blocked_fpr((double) ns[ni], m / 512 - 1, k) > fprs[fi]);
			}
	}
	CHECK(bs_bloom_size_scheme(BS_SCHEME_BLOCKED, 2000000000, 0.01, &(uint64_t) {0},
							   &(uint32_t) {0}, &err) == BS_ERR_TOO_LARGE);
	CHECK(bs_bloom_size_scheme(BS_SCHEME_PARTITION, 10, 0, &(uint64_t) {0},
							   &(uint32_t) {0}, &err) == BS_ERR_PARAM);

	/*
	 * 4. the blocked model with one block is the standard construction on
	 * 512 bits, whose exact rate bs_analysis computes another way
	 */
	for (int64_t n = 0; n <= 400; n += 25)
		for (uint32_t k = 1; k <= 16; k += 5)
		{
			double		standard;
			double		blocked = bs_blocked_fpr((double) n, 1, k);

			CHECK(bs_fpr_exact(512, n, k, BS_CONSTRUCTION_STANDARD, &standard, &err) == BS_OK);
			CHECKF(fabs(blocked - standard) <= 1e-9 * standard,
				   "n %lld k %u: blocked %.17g standard %.17g", (long long) n, k, blocked, standard);
		}

	/* 5. no false negatives; estimates and current rates near the truth */
	for (uint8_t scheme = 1; scheme <= BS_SCHEME_LAST; scheme++)
	{
		uint64_t	m;
		uint32_t	k;
		bs_probe	probe;
		bs_bloom   *f;
		bs_occupancy model;
		uint64_t	misses = 0;
		uint64_t	false_positives = 0;
		double		expected;
		double		estimate;

		CHECK(bs_bloom_size_scheme(scheme, 20000, 0.02, &m, &k, &err) == BS_OK);
		f = calloc(1, bs_bloom_total_bytes(m));
		bs_bloom_init_scheme(f, scheme, m, k, 77);
		bs_probe_for(&probe, f);
		for (uint64_t v = 0; v < 20000; v++)
			bs_bloom_add(f, &probe, &v, sizeof(v));
		for (uint64_t v = 0; v < 20000; v++)
			misses += !bs_bloom_test(f, &probe, &v, sizeof(v));
		for (uint64_t v = 1000000; v < 1100000; v++)
			false_positives += bs_bloom_test(f, &probe, &v, sizeof(v));
		CHECKF(misses == 0, "%s: %" PRIu64 " false negatives", bs_scheme_name(scheme), misses);
		bs_scheme_occupancy(scheme, m, k, &model);
		estimate = bs_model_estimate_items(&model, bs_bloom_count_set(f));
		CHECKF(fabs(estimate - 20000) < 4 * sqrt(bs_model_variance(&model, 20000)) /
			   (-model.log_miss * ((double) m - bs_model_mean(&model, 20000))),
			   "%s: estimate %.1f", bs_scheme_name(scheme), estimate);
		/* 99.9% binomial interval around the model's rate, 100,000 queries */
		CHECK(bs_scheme_expected_fpr(scheme, (int64_t) m, 20000, k, &expected, &err) == BS_OK);
		CHECKF(fabs((double) false_positives - 1e5 * expected) <= 3.2905 * sqrt(1e5 * expected * (1 - expected)),
			   "%s: %" PRIu64 " false positives, expected %.1f", bs_scheme_name(scheme),
			   false_positives, 1e5 * expected);
		CHECKF(fabs(bs_bloom_current_fpr(f) - expected) < 0.05 * expected,
			   "%s: current rate %g, expected %g", bs_scheme_name(scheme), bs_bloom_current_fpr(f), expected);
		free(f);
	}

	/*
	 * 6. every scheme's expected rate is a probability, in [0, 1], also at
	 * extreme inputs: very overfull filters, k = 64, huge n.  The blocked
	 * model gave 1.0000000000004 for m = 512e6, n = 1e9, k = 64 (its
	 * binomial weights, summed from logarithms, add up to a little over 1).
	 */
	for (uint8_t scheme = 1; scheme <= BS_SCHEME_LAST; scheme++)
	{
		static const int64_t bitss[] = {512, 4096, 1048576, 512000000, INT64_C(1) << 33};
		static const int64_t itemss[] = {0, 1, 100, 100000, 10000000, 1000000000,
		INT64_C(100000000000)};
		static const int64_t hashess[] = {1, 7, 63, 64};

		for (size_t bi = 0; bi < sizeof(bitss) / sizeof(bitss[0]); bi++)
			for (size_t ni = 0; ni < sizeof(itemss) / sizeof(itemss[0]); ni++)
				for (size_t ki = 0; ki < sizeof(hashess) / sizeof(hashess[0]); ki++)
				{
					int64_t		k = hashess[ki];
					int64_t		m = bitss[bi];
					double		rate = -1;
					bs_status	s;

					if (scheme == BS_SCHEME_PARTITION)
						m -= m % k;
					s = bs_scheme_expected_fpr(scheme, m, itemss[ni], k, &rate, &err);
					/* an exact rate may be refused as too long a computation */
					CHECKF(s == BS_OK || s == BS_ERR_TOO_LARGE, "%s m %lld n %lld k %lld: status %d",
						   bs_scheme_name(scheme), (long long) m, (long long) itemss[ni],
						   (long long) k, (int) s);
					if (s == BS_OK)
						CHECKF(rate >= 0 && rate <= 1, "%s m %lld n %lld k %lld: rate %.17g",
							   bs_scheme_name(scheme), (long long) m, (long long) itemss[ni],
							   (long long) k, rate);
				}
	}
	/*
	 * 6b. the KM model's sum over the members that cover two or more of a
	 * non-member's positions ends once what is left cannot move the rate:
	 * at m = 512e6, n = 1e7, k = 64 that share is 3e-11 a member, and the
	 * sum used to run on to j = n (1e7 steps, 40 s) because 1 minus the
	 * weights summed so far stops falling at the rounding of 1.  It polls
	 * for interrupts every 4,096 steps, so the polls count its steps.
	 */
	{
		double		rate = -1;

		model_polls = 0;
		bs_interrupt_check = count_model_poll;
		CHECK(bs_scheme_expected_fpr(BS_SCHEME_DOUBLE_SQUARE, 512000000, 10000000, 64, &rate, &err) == BS_OK);
		bs_interrupt_check = NULL;
		CHECKF(model_polls < 4, "the model's sum polled %lu times (4,096 steps each)", model_polls);
		CHECKF(rate > 0 && rate < 1e-9, "double_square m 512e6 n 1e7 k 64: rate %.17g", rate);
	}
	{
		double		rate = -1;

		CHECK(bs_scheme_expected_fpr(BS_SCHEME_BLOCKED, 512000000, 1000000000, 64, &rate, &err) == BS_OK);
		CHECKF(rate >= 0 && rate <= 1, "blocked m 512e6 n 1e9 k 64: rate %.17g", rate);
		for (uint64_t blocks = 1; blocks <= 1000000; blocks *= 10)
			for (uint32_t k = 1; k <= 64; k += 9)
				for (double n = 1; n <= 1e10; n *= 7)
				{
					double		r = bs_blocked_fpr(n, blocks, k);

					CHECKF(r >= 0 && r <= 1, "blocked B %" PRIu64 " n %g k %u: rate %.17g",
						   blocks, n, k, r);
				}
	}
}
