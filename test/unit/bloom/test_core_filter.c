/*
 * test_core_filter.c — unit tests of a filter at work: the probe positions,
 * adding and testing values on a real filter, the sizing of a filter for a
 * capacity and rate, and the cardinality bounds for few items.
 */
#include "../common/test_core.h"

static bool
bit_is_set(const bs_bloom *f, uint64_t position)
{
	return (f->words[position / 64] >> (position % 64)) & 1;
}

/* ------------------------------------------------------------------------ */
/* probing                                                                  */
/* ------------------------------------------------------------------------ */

void
test_probing(void)
{
	uint64_t	primes[] = {2, 3, 5, 97, 9587, 1000003, 0};
	const uint64_t seeds[] = {0, UINT64_C(0xDEADBEEFCAFEF00D)};
	uint64_t	positions[1025];
	uint64_t	full[65];

	primes[6] = bs_prev_prime(BS_BLOOM_MAX_BITS);
	CHECK(primes[6] == UINT64_C(5999999989));

	for (size_t mi = 0; mi < sizeof(primes) / sizeof(primes[0]); mi++)
	{
		uint64_t	m = primes[mi];
		uint32_t	kmax = m < 64 ? (uint32_t) m : 64;

		for (size_t si = 0; si < sizeof(seeds) / sizeof(seeds[0]); si++)
			for (uint64_t j = 0; j < 8; j++)
			{
				bs_probe	probe;
				uint8_t		key[8];

				key_of(j, key);
				bs_probe_init(&probe, m, kmax, seeds[si]);
				bs_bloom_positions(&probe, key, sizeof(key), full);

				for (uint32_t k = 1; k <= kmax; k++)
				{
					bool		in_range = true;
					bool		distinct = true;
					bool		arithmetic = true;
					bool		prefix = true;
					uint64_t	step = 0;

					bs_probe_init(&probe, m, k, seeds[si]);
					positions[k] = UINT64_C(0x5E5E5E5E5E5E5E5E);
					bs_bloom_positions(&probe, key, sizeof(key), positions);

					for (uint32_t i = 0; i < k; i++)
					{
						if (positions[i] >= m)
							in_range = false;
						for (uint32_t h = 0; h < i; h++)
							if (positions[h] == positions[i])
								distinct = false;
						if (positions[i] != full[i])
							prefix = false;
					}
					if (k >= 2 && in_range)
					{
						step = (positions[1] + m - positions[0]) % m;
						if (step == 0)
							arithmetic = false;
						for (uint32_t i = 1; i + 1 < k; i++)
							if ((positions[i + 1] + m - positions[i]) % m != step)
								arithmetic = false;
					}
					CHECKF(in_range, "m = %" PRIu64 ", k = %u, key %" PRIu64, m, k, j);
					CHECKF(distinct, "m = %" PRIu64 ", k = %u, key %" PRIu64, m, k, j);
					CHECKF(arithmetic, "m = %" PRIu64 ", k = %u, key %" PRIu64 ", step %" PRIu64,
						   m, k, j, step);
					CHECKF(prefix, "m = %" PRIu64 ", k = %u, key %" PRIu64
						   ": not a prefix of the k = %u positions", m, k, j, kmax);
					CHECKF(positions[k] == UINT64_C(0x5E5E5E5E5E5E5E5E),
						   "m = %" PRIu64 ", k = %u: wrote more than k positions", m, k);
				}
			}
	}

	/* k = m = 97: a full cycle through every position */
	for (uint64_t j = 0; j < 16; j++)
	{
		bs_probe	probe;
		uint8_t		key[8];
		bool		seen[97] = {false};
		unsigned	covered = 0;

		key_of(j, key);
		bs_probe_init(&probe, 97, 97, 42);
		bs_bloom_positions(&probe, key, sizeof(key), positions);
		for (int i = 0; i < 97; i++)
			if (positions[i] < 97 && !seen[positions[i]])
			{
				seen[positions[i]] = true;
				covered++;
			}
		CHECKF(covered == 97, "key %" PRIu64 ": %u distinct positions", j, covered);
	}

	/* the largest k, on a large m */
	{
		bs_probe	probe;
		uint8_t		key[8];
		bool		ok = true;

		key_of(7, key);
		bs_probe_init(&probe, 1000003, BS_BLOOM_MAX_HASHES, 7);
		bs_bloom_positions(&probe, key, sizeof(key), positions);
		for (int i = 1; i + 1 < BS_BLOOM_MAX_HASHES; i++)
			if ((positions[i + 1] + 1000003 - positions[i]) % 1000003 !=
				(positions[1] + 1000003 - positions[0]) % 1000003 || positions[i] >= 1000003)
				ok = false;
		CHECK(ok);
	}

	/* the seed and the key matter */
	{
		bs_probe	p1,
					p2;
		uint8_t		key[8];
		uint64_t	other[8];

		key_of(3, key);
		bs_probe_init(&p1, 1000003, 8, 1);
		bs_probe_init(&p2, 1000003, 8, 2);
		bs_bloom_positions(&p1, key, sizeof(key), positions);
		bs_bloom_positions(&p2, key, sizeof(key), other);
		CHECK(memcmp(positions, other, sizeof(other)) != 0);
		key_of(4, key);
		bs_bloom_positions(&p1, key, sizeof(key), other);
		CHECK(memcmp(positions, other, sizeof(other)) != 0);
		/* and the length: a 7-byte prefix of the key is a different value */
		bs_bloom_positions(&p1, key, 7, positions);
		CHECK(memcmp(positions, other, sizeof(other)) != 0);
		/* the empty value has positions too */
		bs_bloom_positions(&p1, "", 0, positions);
		CHECK(positions[0] < 1000003 && positions[7] < 1000003);
	}

	/*
	 * Uniformity on m = 97: the start a over 97 values and the step b over
	 * 1..96 (never 0), 97,000 keys, each count within 1000 +- 200 (over 6
	 * standard deviations; the seed is fixed, so this is deterministic).
	 */
	{
		unsigned	start_count[97] = {0};
		unsigned	step_count[97] = {0};
		bs_probe	probe;
		uint8_t		key[8];
		unsigned	start_off = 0,
					step_off = 0;

		bs_probe_init(&probe, 97, 2, 99);
		for (uint64_t j = 0; j < 97000; j++)
		{
			key_of(j + 1000000, key);
			bs_bloom_positions(&probe, key, sizeof(key), positions);
			if (positions[0] < 97 && positions[1] < 97)
			{
				start_count[positions[0]]++;
				step_count[(positions[1] + 97 - positions[0]) % 97]++;
			}
		}
		for (int v = 0; v < 97; v++)
		{
			if (start_count[v] < 800 || start_count[v] > 1200)
				start_off++;
			if (v > 0 && (step_count[v] < 810 || step_count[v] > 1210))
				step_off++;
		}
		CHECK(step_count[0] == 0);
		CHECKF(start_off == 0, "%u of 97 start positions far from 1000", start_off);
		CHECKF(step_off == 0, "%u of 96 steps far from 1010", step_off);
	}

	/* add sets exactly the k positions; test agrees */
	{
		bs_bloom   *f = new_filter(97, 5, 1234);
		bs_probe	probe;
		uint8_t		key[8];
		bool		all_set = true;

		bs_probe_init(&probe, 97, 5, 1234);
		key_of(11, key);
		CHECK(!bs_bloom_test(f, &probe, key, sizeof(key)));
		bs_bloom_add(f, &probe, key, sizeof(key));
		bs_bloom_positions(&probe, key, sizeof(key), positions);
		for (int i = 0; i < 5; i++)
			if (!bit_is_set(f, positions[i]))
				all_set = false;
		CHECK(all_set);
		CHECK(bs_bloom_count_set(f) == 5);
		CHECK(f->items == 1);
		CHECK(bs_bloom_test(f, &probe, key, sizeof(key)));
		/* clearing any one of the bits makes the test fail */
		for (int i = 0; i < 5; i++)
		{
			f->words[positions[i] / 64] &= ~(UINT64_C(1) << (positions[i] % 64));
			CHECKF(!bs_bloom_test(f, &probe, key, sizeof(key)), "bit %d cleared", i);
			f->words[positions[i] / 64] |= UINT64_C(1) << (positions[i] % 64);
		}
		bs_bloom_add(f, &probe, key, sizeof(key));
		CHECK(bs_bloom_count_set(f) == 5);
		CHECK(f->items == 2);
		free(f);
	}
}

/* ------------------------------------------------------------------------ */
/* add and test on a real filter                                            */
/* ------------------------------------------------------------------------ */

void
test_add_and_test(void)
{
	const uint64_t n = 10000;
	const uint64_t others = 100000;
	uint64_t	m = 0;
	uint32_t	k = 0;
	bs_error	err;
	bs_bloom   *f;
	bs_probe	probe;
	uint8_t		key[8];
	uint64_t	false_negatives = 0;
	uint64_t	false_positives = 0;
	uint64_t	set;

	CHECK_STATUS(bs_bloom_size_textbook((int64_t) n, 0.01, &m, &k, &err), BS_OK, &err);
	CHECK(bs_is_prime(m));		/* the sizing rule itself is checked in test_sizing */
	if (m < 2 || k < 1)
		return;

	f = new_filter(m, k, UINT64_C(0x0123456789ABCDEF));
	bs_probe_init(&probe, m, k, f->seed);

	/* nothing is in an empty filter */
	{
		uint64_t	hits = 0;

		for (uint64_t i = 0; i < 1000; i++)
		{
			key_of(i, key);
			hits += bs_bloom_test(f, &probe, key, sizeof(key));
		}
		CHECK(hits == 0);
		CHECK(bs_bloom_count_set(f) == 0);
	}

	add_keys(f, 0, n, BS_FAMILY_INTEGER, 0);
	for (uint64_t i = 0; i < n; i++)
	{
		key_of(i, key);
		false_negatives += !bs_bloom_test(f, &probe, key, sizeof(key));
	}
	CHECKF(false_negatives == 0, "%" PRIu64 " false negatives", false_negatives);
	CHECK(f->items == n);
	set = bs_bloom_count_set(f);
	CHECKF(set <= (uint64_t) k * n, "%" PRIu64 " bits set", set);
	CHECK_STATUS(bs_bloom_check_words(f, &err), BS_OK, &err);

	/*
	 * Each value sets k distinct bits, each bit with probability k/m, so a bit
	 * stays clear with probability (1 - k/m)^n.  Within 5 standard deviations.
	 */
	{
		double		clear = pow(1.0 - (double) k / (double) m, (double) n);
		double		expected = (double) m * (1.0 - clear);
		double		sd = sqrt((double) m * clear * (1.0 - clear));

		CHECKF(fabs((double) set - expected) <= 5 * sd,
			   "%" PRIu64 " bits set, expected %.1f +- %.1f", set, expected, 5 * sd);
	}

	for (uint64_t i = n; i < n + others; i++)
	{
		key_of(i, key);
		false_positives += bs_bloom_test(f, &probe, key, sizeof(key));
	}

	{
		double		p = pow(1.0 - exp(-(double) k * (double) n / (double) m), (double) k);
		double		half = 3.2905 * sqrt(p * (1.0 - p) / (double) others);
		double		rate = (double) false_positives / (double) others;

		CHECKF(fabs(rate - p) <= half,
			   "false-positive rate %.5f (%" PRIu64 " of %" PRIu64 "), expected %.5f +- %.5f (m = %"
			   PRIu64 ", k = %u)", rate, false_positives, others, p, half, m, k);
		CHECK(rate < 0.02);
	}
	free(f);
}

/* ------------------------------------------------------------------------ */
/* sizing                                                                   */
/* ------------------------------------------------------------------------ */

/*
 * The capacity the error names as the largest that fits: the first number
 * after "largest capacity" in the message or else the detail; -1 if none.
 */
static long long
named_largest_capacity(const bs_error *err)
{
	const char *sources[2] = {err->message, err->detail};

	for (int i = 0; i < 2; i++)
	{
		const char *at = strstr(sources[i], "largest capacity");

		if (at == NULL)
			continue;
		while (*at != '\0' && !(*at >= '0' && *at <= '9'))
			at++;
		if (*at != '\0')
			return strtoll(at, NULL, 10);
	}
	return -1;
}

static void
check_too_large_boundary(int64_t capacity, double fpr)
{
	bs_error	err;
	uint64_t	m = 0;
	uint32_t	k = 0;
	long long	largest;
	char		what[160];

	snprintf(what, sizeof(what), "capacity %lld at %.17g", (long long) capacity, fpr);
	CHECK_STATUS_WHAT(bs_bloom_size_textbook(capacity, fpr, &m, &k, &err), BS_ERR_TOO_LARGE,
					  &err, what);
	if (err.status != BS_ERR_TOO_LARGE)
		return;
	largest = named_largest_capacity(&err);
	CHECKF(largest > 0 && largest < capacity,
		   "%s: the error names capacity %lld (\"%s\" / \"%s\")", what, largest,
		   err.message, err.detail);
	if (largest <= 0)
		return;
	snprintf(what, sizeof(what), "the named largest capacity %lld at %.17g", largest, fpr);
	m = 0;
	if (CHECK_STATUS_WHAT(bs_bloom_size_textbook((int64_t) largest, fpr, &m, &k, &err), BS_OK,
						  &err, what))
		CHECKF(m <= BS_BLOOM_MAX_BITS && bs_is_prime(m), "%s: m = %" PRIu64, what, m);
	if (largest < INT64_MAX)
	{
		snprintf(what, sizeof(what), "one more than the named capacity, %lld at %.17g",
				 largest + 1, fpr);
		CHECK_STATUS_WHAT(bs_bloom_size_textbook((int64_t) largest + 1, fpr, &m, &k, &err),
						  BS_ERR_TOO_LARGE, &err, what);
	}
}

void
test_sizing(void)
{
	bs_error	err;
	uint64_t	m = 0;
	uint32_t	k = 0;

	/* (1000, 0.01): m = next prime >= ceil(-n ln p / ln^2 2), k = round(m/n ln 2) */
	{
		double		raw = ceil(-1000.0 * log(0.01) / (log(2.0) * log(2.0)));
		uint64_t	want_m = slow_next_prime((uint64_t) raw);
		uint32_t	want_k = (uint32_t) lround((double) want_m / 1000.0 * log(2.0));

		CHECK(raw == 9586.0);
		CHECK(want_m == 9587 && want_k == 7);
		CHECK_STATUS(bs_bloom_size_textbook(1000, 0.01, &m, &k, &err), BS_OK, &err);
		CHECKF(m == want_m, "m = %" PRIu64 ", want %" PRIu64, m, want_m);
		CHECKF(k == want_k, "k = %u, want %u", k, want_k);
	}

	/* the same rule over a grid of capacities and rates */
	{
		static const int64_t capacities[] = {1, 2, 3, 10, 77, 1000, 10000, 123457, 1000000, 50000000};
		static const double rates[] = {1e-9, 1e-4, 0.001, 0.01, 0.05, 0.1, 0.3, 0.5, 0.9, 0.999};
		unsigned	wrong = 0;
		char		first[200] = "";

		for (size_t c = 0; c < sizeof(capacities) / sizeof(capacities[0]); c++)
			for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
			{
				double		n = (double) capacities[c];
				double		raw = ceil(-n * log(rates[r]) / (log(2.0) * log(2.0)));
				uint64_t	want_m = bs_next_prime(raw < 2 ? 2 : (uint64_t) raw);
				double		want_k = round((double) want_m / n * log(2.0));
				bs_status	s;

				if (want_k < 1)
					want_k = 1;
				if (want_k > BS_BLOOM_MAX_HASHES)
					want_k = BS_BLOOM_MAX_HASHES;
				m = 0;
				k = 0;
				s = bs_bloom_size_textbook(capacities[c], rates[r], &m, &k, &err);
				if ((s != BS_OK || m != want_m || k != (uint32_t) want_k || !bs_is_prime(m) ||
					 k > m) && wrong++ == 0)
					snprintf(first, sizeof(first), "(%lld, %g): status %s, m = %" PRIu64 ", k = %u;"
							 " want m = %" PRIu64 ", k = %.0f", (long long) capacities[c], rates[r],
							 status_name(s), m, k, want_m, want_k);
			}
		CHECKF(wrong == 0, "%u wrong sizes, first %s", wrong, first);
	}

	/* the smallest positive rate asks for about 1076 hash functions: k is capped */
	CHECK_STATUS(bs_bloom_size_textbook(1, 5e-324, &m, &k, &err), BS_OK, &err);
	CHECK(m == 1553);
	CHECK(k == BS_BLOOM_MAX_HASHES);
	CHECK_STATUS(bs_bloom_size_textbook(1, 1e-300, &m, &k, &err), BS_OK, &err);
	CHECK(m == 1439 && k == 997);

	/* parameters out of range */
	CHECK_STATUS(bs_bloom_size_textbook(0, 0.01, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_bloom_size_textbook(-1, 0.01, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_bloom_size_textbook(INT64_MIN, 0.01, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_bloom_size_textbook(1000, 0.0, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_bloom_size_textbook(1000, -0.0, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_bloom_size_textbook(1000, 1.0, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_bloom_size_textbook(1000, NAN, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_bloom_size_textbook(1000, -0.5, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_bloom_size_textbook(1000, 1.5, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_bloom_size_textbook(1000, INFINITY, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_bloom_size_textbook(1000, -INFINITY, &m, &k, &err), BS_ERR_PARAM, &err);
	CHECK(bs_bloom_size_textbook(0, 0.01, &m, &k, NULL) == BS_ERR_PARAM);
	CHECK(bs_bloom_size_textbook(1000, NAN, &m, &k, NULL) == BS_ERR_PARAM);
	CHECK_STATUS(bs_check_capacity(1, &err), BS_OK, &err);
	CHECK_STATUS(bs_check_capacity(0, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_check_fpr(0.5, &err), BS_OK, &err);
	CHECK_STATUS(bs_check_fpr(1.0, &err), BS_ERR_PARAM, &err);
	CHECK_STATUS(bs_check_fpr(NAN, &err), BS_ERR_PARAM, &err);

	/* too large: the detail names the largest capacity C that fits (C works, C + 1 does not) */
	check_too_large_boundary(INT64_C(1) << 62, 0.01);
	check_too_large_boundary(INT64_C(700000000), 0.01);
	check_too_large_boundary(INT64_C(1) << 40, 0.001);
	check_too_large_boundary(INT64_C(1) << 40, 0.5);
	check_too_large_boundary(INT64_C(1) << 40, 1e-100);
	check_too_large_boundary(INT64_MAX, 0.999);
	check_too_large_boundary(INT64_MAX, 1.0 - 1e-6);
	/*
	 * A rate so close to 1 that the largest capacity lies just below
	 * INT64_MAX: -ln(p) = 3.2e-10 gives 6.66e-10 bits per item, so about
	 * 9.0e18 items fit in the largest filter, fewer than INT64_MAX.
	 */
	check_too_large_boundary(INT64_MAX, exp(-3.2e-10));
	check_too_large_boundary(INT64_MAX, exp(-3.15e-10));
}

/* ------------------------------------------------------------------------ */
/* cardinality bounds for few items                                         */
/* ------------------------------------------------------------------------ */

/*
 * bs_model_estimate_bounds at small n, where X (bits set) and n are both
 * small integers.  The 95% bounds must cover the true count at 95%: for
 * each n = 1..30, FILTERS filters (fixed seeds, the core's own hashing) of
 * a filter sized for 1000 items at 1% (m = 9601, k = 7) hold n distinct
 * values, and the share whose bounds contain n must not fall below the
 * lower end of the 99.9% binomial interval around 0.95,
 * 0.95 - z sqrt(0.95 0.05 / FILTERS), z = Phi^-1(0.9995) = 3.2905 (from
 * bs_normal_quantile).  Only the lower end per n: where X takes very few
 * values (n of a few, almost no collisions) every interval of integers
 * that covers at 95% covers at 100%.  Over all n together, the share must
 * be within the two-sided 99.9% interval around 0.95 computed for the
 * pooled count, or above it (the same reason).  Before the fix it was
 * 91.8% near n = 15: 14 values, 96 bits set, gave [13.71, 13.97].
 */
#define BOUNDS_FILTERS 2000

void
test_bounds_few_items(void)
{
	uint64_t	m;
	uint32_t	k;
	bs_error	err;
	bs_occupancy model;
	double		z = bs_normal_quantile(0.9995);
	double		per_n = 0.95 - z * sqrt(0.95 * 0.05 / BOUNDS_FILTERS);
	long		covered_all = 0;
	long		total = 0;
	bs_bloom   *f;

	CHECK(bs_bloom_size_scheme(BS_SCHEME_DOUBLE, 1000, 0.01, &m, &k, &err) == BS_OK);
	bs_scheme_occupancy(BS_SCHEME_DOUBLE, m, k, &model);
	f = malloc(bs_bloom_total_bytes(m));
	for (uint64_t n = 1; n <= 30; n++)
	{
		long		covered = 0;

		for (uint64_t t = 0; t < BOUNDS_FILTERS; t++)
		{
			bs_probe	probe;
			double		lower;
			double		upper;

			memset(f, 0, bs_bloom_total_bytes(m));
			bs_bloom_init_scheme(f, BS_SCHEME_DOUBLE, m, k, 1000003 * n + t);
			bs_probe_for(&probe, f);
			for (uint64_t v = 0; v < n; v++)
			{
				uint64_t	value = (t << 8) | v;

				bs_bloom_add(f, &probe, &value, sizeof(value));
			}
			bs_model_estimate_bounds(&model, bs_bloom_count_set(f), 0.95, &lower, &upper);
			covered += lower <= (double) n && (double) n <= upper;
		}
		CHECKF((double) covered / BOUNDS_FILTERS >= per_n,
			   "n %" PRIu64 ": 95%% bounds cover %.2f%% of %d filters (at least %.2f%%)",
			   n, 100.0 * covered / BOUNDS_FILTERS, BOUNDS_FILTERS, 100 * per_n);
		covered_all += covered;
		total += BOUNDS_FILTERS;
	}
	CHECKF((double) covered_all / total >= 0.95 - z * sqrt(0.95 * 0.05 / total),
		   "n 1..30: 95%% bounds cover %.2f%% in all", 100.0 * covered_all / total);
	free(f);

	/* the reported case: 14 values, 96 bits set (k = 7, m = 9601) */
	{
		double		lower;
		double		upper;

		bs_occupancy_classic(9601, 7, &model);
		bs_model_estimate_bounds(&model, 96, 0.95, &lower, &upper);
		CHECKF(lower <= 14 && 14 <= upper, "96 bits of 9601, k 7: [%.17g, %.17g]", lower, upper);
		/* at least X/k = 13.7 items, and a count is an integer */
		CHECKF(lower == 14 && upper == floor(upper), "96 bits: [%.17g, %.17g]", lower, upper);
	}
}
