/*
 * test_cms_update.c — unit tests of counting with a count-min sketch:
 * updates and estimates, the error bound on a Zipf stream, the merge of
 * halves, and the merge, intersection and inner product of two sketches.
 */
#include "test_cms.h"

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

void
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

void
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
void
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

void
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
