/*
 * test_cms_layout.c — unit tests of a count-min sketch's layout: its
 * sizing from epsilon and delta, and the positions of a key's counters.
 */
#include "test_cms.h"

/* ---- sizing ---- */

static uint32_t
closed_form_depth(double epsilon)
{
	double		d = ceil(log(1.0 / (epsilon * (1.0 - 1.0 / (2.0 * M_E * M_E)))));

	return d < 1 ? 1 : (uint32_t) d;
}

void
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

void
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
