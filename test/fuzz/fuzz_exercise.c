/*
 * fuzz_exercise.c — the probing half of fuzz_util.h: run the query and
 * update functions of the core on a decoded value and check what must hold
 * for every valid value, whatever its bits or counters.
 *
 * Bloom filter: a key has k positions below m, placed as its scheme
 * promises; bs_bloom_test is true exactly when they are all set; after
 * adding the key to a copy it is present, exactly the previously clear
 * positions became set, items counted it, and the validator accepts the
 * copy.  Estimates are never NaN or negative, the bounds are ordered and the
 * false-positive rate is in [0, 1].
 *
 * Count-min sketch: copies * d columns below w, d distinct ones per copy;
 * the estimate is the minimum of those counters and at most the total;
 * adding 3 raises the estimate and the total by exactly 3 (or fails with
 * BS_ERR_TOO_LARGE leaving the sketch unchanged); a negative count is
 * refused; the validator accepts the result.
 */
#include "fuzz_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bloom/bs_bloom_codec.h"
#include "bloom/bs_fit_state.h"
#include "bloom/bs_scheme.h"

static int
compare_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a;
	uint64_t	y = *(const uint64_t *) b;

	return x < y ? -1 : x > y;
}

/* True when the n values are pairwise distinct (sorts them). */
static int
all_distinct(uint64_t *values, size_t n)
{
	qsort(values, n, sizeof(uint64_t), compare_u64);
	for (size_t i = 1; i < n; i++)
		if (values[i] == values[i - 1])
			return 0;
	return 1;
}

static int
bit_is_set(const bs_bloom *filter, uint64_t position)
{
	return (filter->words[position / 64] >> (position % 64)) & 1;
}

static void
bloom_check_estimates(const bs_bloom *filter, uint64_t x)
{
	bs_occupancy model;
	double		n;
	double		fpr = bs_bloom_current_fpr(filter);
	double		lower;
	double		upper;

	bs_scheme_occupancy(filter->scheme, filter->bits, filter->hashes, &model);
	n = bs_model_estimate_items(&model, x);
	FUZZ_CHECK(!isnan(n) && n >= 0);
	FUZZ_CHECK(x != 0 || n == 0);
	FUZZ_CHECK(x != filter->bits || isinf(n));
	bs_model_estimate_bounds(&model, x, 0.95, &lower, &upper);
	FUZZ_CHECK(!isnan(lower) && !isnan(upper) && lower >= 0);
#ifdef FUZZ_SKIP_KNOWN_BOUNDS_ORDER
	/* regressions/fuzz_bloom_text/bounds_order_x_below_k: lower > upper */
	if (x >= filter->hashes)
#endif
		FUZZ_CHECK(lower <= upper);
	FUZZ_CHECK(fpr >= 0 && fpr <= 1);
}

/*
 * What the scheme promises about a key's positions (sorted): double hashing
 * gives k distinct ones, the partition scheme one in each subarray of m / k
 * bits, the blocked scheme all in one 512-bit block.
 */
static void
bloom_check_positions(const bs_bloom *filter, const uint64_t *sorted)
{
	uint32_t	k = filter->hashes;

	for (uint32_t i = 0; i < k; i++)
	{
		FUZZ_CHECK(sorted[i] < filter->bits);
		if (filter->scheme == BS_SCHEME_DOUBLE)
			FUZZ_CHECK(i == 0 || sorted[i] != sorted[i - 1]);
		else if (filter->scheme == BS_SCHEME_PARTITION)
			FUZZ_CHECK(sorted[i] / (filter->bits / k) == i);
		else if (filter->scheme == BS_SCHEME_BLOCKED)
			FUZZ_CHECK(sorted[i] / BS_BLOCK_BITS == sorted[0] / BS_BLOCK_BITS);
	}
}

static void
bloom_probe_key(const bs_bloom *filter, const bs_probe *probe, uint64_t set,
				const void *key, size_t key_length)
{
	uint64_t	positions[BS_BLOOM_MAX_HASHES];
	uint32_t	k = filter->hashes;
	uint64_t	clear = 0;
	bs_bloom   *copy;

	bs_bloom_positions(probe, key, key_length, positions);
	qsort(positions, k, sizeof(uint64_t), compare_u64);
	bloom_check_positions(filter, positions);
	for (uint32_t i = 0; i < k; i++)
		if (i == 0 || positions[i] != positions[i - 1])
			clear += !bit_is_set(filter, positions[i]);
	FUZZ_CHECK(bs_bloom_test(filter, probe, key, key_length) == (clear == 0));

#ifdef FUZZ_SKIP_KNOWN_ITEMS_WRAP
	/* regressions/fuzz_bloom_text/add_items_wrap: bs_bloom_add wraps items */
	if (filter->items == UINT64_MAX)
		return;
#endif
	/* add it to a copy, adopting a family first as the SQL layer does */
	copy = fuzz_bloom_copy(filter);
	if (copy->family == BS_FAMILY_NONE)
		copy->family = BS_FAMILY_INTEGER;
	bs_bloom_add(copy, probe, key, key_length);
	FUZZ_CHECK(bs_bloom_test(copy, probe, key, key_length));
	FUZZ_CHECK(bs_bloom_count_set(copy) == set + clear);
	FUZZ_CHECK(copy->items > filter->items || copy->items == UINT64_MAX);
	fuzz_bloom_check_valid(copy);
	free(copy);
}

/*
 * A bloom_fit_agg partial state: refused where a filter is used; the filter
 * its final function makes holds every hash of its list (or every bit of its
 * array, folded), at the smallest size whose expected rate meets the rate
 * for its n (counted, or estimated from the array), or at the ceiling.
 */
static void
fit_state_exercise(const bs_bloom *state)
{
	double		fpr = bs_fit_state_fpr(state);
	uint64_t	ceiling = bs_fit_state_ceiling(state);
	uint32_t	k = state->hashes;
	const uint64_t *payload = state->words + BS_FIT_PREFIX_WORDS;
	uint64_t   *words;
	uint64_t	bits;
	uint64_t	items;
	bool		met;
	bs_error	err;

	FUZZ_CHECK(bs_bloom_check_shape(state, bs_bloom_total_bytes(state->bits), &err) == BS_ERR_PARAM);
	if (bs_fit_state_form(state) == BS_FIT_FORM_BITS)
	{
		words = malloc(ceiling / 8);
		memcpy(words, payload, ceiling / 8);
		items = bs_fit_estimate_items(bs_fit_count_set(words, ceiling), ceiling, k);
		bits = bs_fit_size_of_bits(words, ceiling, k, fpr, &met);
		bs_fit_fold_down(words, ceiling, bits);
		/* bit p at the ceiling is bit p mod m of the folded filter */
		for (uint64_t p = 0; p < ceiling; p++)
			if ((payload[p / 64] >> (p % 64)) & 1)
				FUZZ_CHECK((words[(p & (bits - 1)) / 64] >> ((p & (bits - 1)) % 64)) & 1);
	}
	else
	{
		uint64_t	count = bs_fit_state_count(state);

		items = count;
		bits = bs_fit_size(count, k, fpr, ceiling, &met);
		words = calloc(bs_bloom_word_count(bits), sizeof(uint64_t));
		bs_fit_set_pairs(words, bits, k, payload, count);
		for (uint64_t i = 0; i < count; i++)
			FUZZ_CHECK(bs_fit_test(words, bits, k, payload[2 * i], payload[2 * i + 1]));
	}
	FUZZ_CHECK(bs_fit_power_of_two(bits) && bits >= BS_FIT_MIN_BITS && bits <= ceiling);
	/* the size meets the expected rate, and the ceiling only when that fails */
	FUZZ_CHECK(met ? bs_fit_expected_rate(bits, items, k) <= fpr &&
			   (bits == bs_fit_min_bits(k) || bs_fit_expected_rate(bits / 2, items, k) > fpr)
			   : bits == ceiling);
	free(words);
}

void
fuzz_bloom_exercise(const bs_bloom *filter, const uint8_t *key, size_t key_length)
{
	static const uint8_t int42[8] = {42};
	bs_probe	probe;
	uint64_t	set;

	if (filter->scheme == BS_SCHEME_FIT_PARTIAL)
	{
		fit_state_exercise(filter);
		return;
	}
	set = bs_bloom_count_set(filter);

	FUZZ_CHECK(set <= filter->bits);
	/*
	 * A union of fit filters tiles the smaller one up to the larger size,
	 * so its bits may outnumber k per item; the validator accepts that for
	 * the fit scheme (docs/fit.md) and so must this check.
	 */
	FUZZ_CHECK(filter->scheme == BS_SCHEME_FIT ||
			   (unsigned __int128) set <= (unsigned __int128) filter->hashes * filter->items);
	FUZZ_CHECK(bs_bloom_compare(filter, filter) == 0);
	bloom_check_estimates(filter, set);

	bs_probe_for(&probe, filter);
	bloom_probe_key(filter, &probe, set, "", 0);
	bloom_probe_key(filter, &probe, set, int42, sizeof(int42));
	bloom_probe_key(filter, &probe, set, key, key_length);
}

static void
cms_probe_key(const bs_cms *cms, const bs_cms_probe *probe, const void *key,
			  size_t key_length)
{
	uint64_t	count = (uint64_t) cms->copies * cms->depth;
	uint64_t   *columns = malloc(count * sizeof(uint64_t));
	uint64_t	smallest = UINT64_MAX;
	uint64_t	estimate;
	bs_cms	   *copy;
	bs_error	err;
	bs_status	status;

	FUZZ_CHECK(columns != NULL);
	bs_cms_positions(probe, key, key_length, columns);
	for (uint32_t c = 0; c < cms->copies; c++)
	{
		for (uint32_t j = 0; j < cms->depth; j++)
		{
			uint64_t	column = columns[(uint64_t) c * cms->depth + j];
			uint64_t	value;

			FUZZ_CHECK(column < cms->width);
			value = cms->counters[bs_cms_index(cms, c, j, column)];
			if (value < smallest)
				smallest = value;
		}
		FUZZ_CHECK(all_distinct(columns + (uint64_t) c * cms->depth, cms->depth));
	}
	free(columns);
	estimate = bs_cms_estimate(cms, probe, key, key_length);
	FUZZ_CHECK(estimate == smallest);
	FUZZ_CHECK(estimate <= cms->total);

	copy = fuzz_cms_copy(cms);
	if (copy->family == BS_FAMILY_NONE)
		copy->family = BS_FAMILY_INTEGER;
	status = bs_cms_add(copy, probe, key, key_length, 3, &err);
	if (status == BS_OK)
	{
		FUZZ_CHECK(bs_cms_estimate(copy, probe, key, key_length) == estimate + 3);
		FUZZ_CHECK(copy->total == cms->total + 3);
		fuzz_cms_check_valid(copy);
	}
	else
	{
		FUZZ_CHECK(status == BS_ERR_TOO_LARGE);
		copy->family = cms->family;
		FUZZ_CHECK(bs_cms_compare(copy, cms) == 0);
	}
	FUZZ_CHECK(bs_cms_add(copy, probe, key, key_length, -1, &err) == BS_ERR_PARAM);
	free(copy);
}

void
fuzz_cms_exercise(const bs_cms *cms, const uint8_t *key, size_t key_length)
{
	static const uint8_t int42[8] = {42};
	bs_cms_probe probe;

	FUZZ_CHECK(bs_cms_compare(cms, cms) == 0);
	bs_cms_probe_init(&probe, cms->width, cms->depth, cms->copies, cms->seed);
	cms_probe_key(cms, &probe, "", 0);
	cms_probe_key(cms, &probe, int42, sizeof(int42));
	cms_probe_key(cms, &probe, key, key_length);
}
