/*
 * test_core_interrupts.c — every long loop of the core polls for interrupts
 * (bs_error.h): a counting bs_interrupt_check hook must see at least one
 * call per BS_POLL_STRIDE items a loop works through, so that a cancel
 * lands within a bounded amount of work whatever the size.  And a request
 * refused by the space lower bound is refused before any search: the hook
 * sees no call at all.
 */
#include "test_core.h"

#include "bloom/bs_batch.h"
#include "cms/bs_cms_batch.h"
#include "cms/bs_cms_probe.h"
#include "cms/bs_cms.h"
#include "cms/bs_cms_codec.h"
#include "bloom/bs_fit_state.h"
#include "analysis/bs_sizing.h"
#include "topk/bs_topk_codec.h"
#include "topk/bs_topk_table.h"

static long polls;

static void
count_poll(void)
{
	polls++;
}

/* Reset the count; polls_since() then says how many calls came since. */
static void
start_counting(void)
{
	polls = 0;
	bs_interrupt_check = count_poll;
}

/* Stop counting; true when at least one call per stride of `items`. */
static bool
polled_enough(uint64_t items)
{
	bs_interrupt_check = NULL;
	return (uint64_t) polls >= items / BS_POLL_STRIDE;
}

/* items enough for 16 strides: a loop polling less than once a stride fails */
#define ITEMS (16 * BS_POLL_STRIDE)

static uint64_t
mix(uint64_t x)
{
	x ^= x >> 33;
	x *= UINT64_C(0xff51afd7ed558ccd);
	x ^= x >> 33;
	return x;
}

/* count ascending, distinct hash pairs, 2 apart in h1 (room for others between) */
static uint64_t *
sorted_pairs(uint64_t count, uint64_t first)
{
	uint64_t   *pairs = xcalloc(2 * count * sizeof(uint64_t));

	for (uint64_t i = 0; i < count; i++)
	{
		pairs[2 * i] = first + 2 * i;
		pairs[2 * i + 1] = mix(i);
	}
	return pairs;
}

static void
test_fit_state_loops(void)
{
	uint64_t   *pairs = xcalloc(2 * ITEMS * sizeof(uint64_t));
	uint64_t   *scratch = xcalloc(2 * ITEMS * sizeof(uint64_t));
	uint64_t   *a = sorted_pairs(ITEMS / 2, 0);
	uint64_t   *b = sorted_pairs(ITEMS / 2, 1);
	uint64_t   *merged = xcalloc(2 * ITEMS * sizeof(uint64_t));
	uint64_t   *words = xcalloc(ITEMS * sizeof(uint64_t));
	uint64_t	tail[2] = {0, 0};
	uint64_t	count;

	for (uint64_t i = 0; i < ITEMS; i++)
	{
		pairs[2 * i] = mix(2 * i + 1);
		pairs[2 * i + 1] = mix(2 * i + 2);
	}
	start_counting();
	count = bs_fit_sort_unique_scratch(pairs, ITEMS, scratch);
	/* eight radix passes over the list, then the ties and the repeats */
	CHECKF(polled_enough(10 * ITEMS) && count == ITEMS,
		  "fit: sort of %d hash pairs polled %ld times", (int) ITEMS, polls);

	start_counting();
	count = bs_fit_merge_unique(a, ITEMS / 2, b, ITEMS / 2, merged);
	CHECKF(polled_enough(ITEMS) && count == ITEMS, "fit: merge of two lists polled %ld times",
		  polls);

	/* one pair past all known ones: the walk goes through the whole known list */
	merged[0] = UINT64_MAX;
	start_counting();
	count = bs_fit_drop_known(a, ITEMS / 2, merged, 1);
	CHECKF(polled_enough(ITEMS / 2) && count == 1, "fit: drop of known pairs polled %ld times",
		  polls);

	/* a tail pair before all sorted ones: the merge moves every sorted pair */
	memcpy(merged, b, ITEMS / 2 * 2 * sizeof(uint64_t));
	start_counting();
	bs_fit_merge_back(merged, ITEMS / 2, tail, 1);
	CHECKF(polled_enough(ITEMS / 2) && merged[0] == 0 && merged[2] == 1,
		  "fit: merge of the tail polled %ld times", polls);

	start_counting();
	bs_fit_set_pairs(words, 64 * ITEMS, 4, pairs, ITEMS);
	CHECKF(polled_enough(ITEMS), "fit: setting the bits of a list polled %ld times", polls);

	start_counting();
	(void) bs_fit_rate(words, 64 * ITEMS, 4);
	CHECKF(polled_enough(ITEMS), "fit: rate of a large filter polled %ld times", polls);

	start_counting();
	bs_fit_fold(words, 64 * ITEMS);
	CHECKF(polled_enough(ITEMS / 2), "fit: fold polled %ld times", polls);

	start_counting();
	bs_fit_tile_into(words, 64 * ITEMS, pairs, 1024, false);
	CHECKF(polled_enough(ITEMS), "fit: tiling polled %ld times", polls);

	free(pairs);
	free(scratch);
	free(a);
	free(b);
	free(merged);
	free(words);
}

/* A fit_partial state of the bits form at a ceiling of 64 ITEMS bits. */
static void
test_fit_state_check(void)
{
	uint64_t	ceiling = 64 * ITEMS;
	uint64_t	bits = bs_fit_bits_state_bits(ceiling);
	bs_bloom   *state = xcalloc((size_t) bs_bloom_total_bytes(bits));
	bs_error	err;

	bs_fit_state_init(state, bits, 0.01, ceiling, 1);
	state->family = BS_FAMILY_INTEGER;
	state->items = bs_fit_threshold(ceiling) + 1;
	state->words[BS_FIT_PREFIX_WORDS] = 1;
	start_counting();
	CHECKF(bs_fit_state_check_words(state, &err) == BS_OK && polled_enough(ITEMS),
		  "fit: check of a state's bits polled %ld times (%s)", polls, err.message);
	free(state);
}

static void
test_bloom_loops(void)
{
	uint64_t	m = 64 * ITEMS;
	bs_bloom   *x = new_filter(m, 3, 1);
	bs_bloom   *y = new_filter(m, 3, 1);
	bs_bloom   *blocked = xcalloc((size_t) bs_bloom_total_bytes(m));

	start_counting();
	(void) bs_bloom_count_set(x);
	CHECKF(polled_enough(ITEMS), "bloom: count of set bits polled %ld times", polls);
	start_counting();
	(void) bs_bloom_count_union(x, y);
	CHECKF(polled_enough(ITEMS), "bloom: count of a union polled %ld times", polls);
	start_counting();
	(void) bs_bloom_count_range(x, 3, m - 3);
	CHECKF(polled_enough(ITEMS - 1), "bloom: count of a range polled %ld times", polls);
	start_counting();
	bs_bloom_union_into(x, y);
	CHECKF(polled_enough(ITEMS), "bloom: union polled %ld times", polls);
	start_counting();
	bs_bloom_intersect_into(x, y);
	CHECKF(polled_enough(ITEMS), "bloom: intersection polled %ld times", polls);
	start_counting();
	CHECKF(bs_bloom_compare(x, y) == 0 && polled_enough(ITEMS),
		  "bloom: comparison polled %ld times", polls);

	bs_bloom_init_scheme(blocked, BS_SCHEME_BLOCKED, m, 8, 1);
	blocked->items = 1;
	start_counting();
	(void) bs_bloom_current_fpr(blocked);
	CHECKF(polled_enough(ITEMS), "bloom: rate of a blocked filter polled %ld times", polls);

	free(x);
	free(y);
	free(blocked);
}

static bs_cms *
new_sketch(uint32_t width, uint32_t depth)
{
	uint64_t	bytes;
	bs_cms	   *cms;

	if (bs_cms_total_bytes(width, depth, 1, &bytes, NULL) != BS_OK)
		return NULL;
	cms = xcalloc((size_t) bytes);
	bs_cms_init(cms, width, depth, 1, 7);
	return cms;
}

static void
test_cms_loops(void)
{
	/* ITEMS counters: four rows of ITEMS / 4 */
	bs_cms	   *a = new_sketch(ITEMS / 4, 4);
	bs_cms	   *b = new_sketch(ITEMS / 4, 4);
	bs_error	err;
	uint64_t	product;

	CHECKF(a != NULL && b != NULL, "cms: sketches of %d counters", (int) ITEMS);
	if (a == NULL || b == NULL)
		return;
	start_counting();
	CHECKF(bs_cms_merge_into(a, b, &err) == BS_OK && polled_enough(2 * ITEMS),
		  "cms: merge polled %ld times", polls);
	start_counting();
	CHECKF(bs_cms_intersect_into(a, b, &err) == BS_OK && polled_enough(ITEMS),
		  "cms: intersection polled %ld times", polls);
	start_counting();
	CHECKF(bs_cms_inner_product(a, b, &product, &err) == BS_OK && polled_enough(ITEMS),
		  "cms: inner product polled %ld times", polls);
	start_counting();
	CHECKF(bs_cms_compare(a, b) == 0 && polled_enough(ITEMS), "cms: comparison polled %ld times",
		  polls);
	start_counting();
	CHECKF(bs_cms_check_counters(a, &err) == BS_OK && polled_enough(ITEMS),
		  "cms: check of the counters polled %ld times (%s)", polls, err.message);
	free(a);
	free(b);
}

/* values for 16 chunks of the batch calls, each chunk polling once */
#define BATCH_VALUES (16 * BS_BATCH_CHUNK)

/* Stop counting; true when the batch call polled once per chunk of its values. */
static bool
polled_per_chunk(void)
{
	bs_interrupt_check = NULL;
	return polls >= BATCH_VALUES / BS_BATCH_CHUNK;
}

/*
 * The batch calls of bs_batch.h poll once per BS_BATCH_CHUNK values, for
 * every scheme of a finished filter (the located and the independent paths).
 */
static void
test_batch_loops(void)
{
	uint64_t   *values = xcalloc(BATCH_VALUES * sizeof(uint64_t));
	bs_key	   *keys = xcalloc(BATCH_VALUES * sizeof(bs_key));
	uint64_t   *estimates = xcalloc(BATCH_VALUES * sizeof(uint64_t));
	bs_cms	   *cms = new_sketch(1021, 5);

	for (size_t j = 0; j < BATCH_VALUES; j++)
	{
		values[j] = mix(j + 1);
		keys[j].data = &values[j];
		keys[j].length = sizeof(uint64_t);
	}
	for (uint8_t scheme = 1; scheme <= BS_SCHEME_FIT; scheme++)
	{
		uint64_t	m = scheme == BS_SCHEME_PARTITION ? 4 * bs_next_prime(65521) :
			scheme == BS_SCHEME_BLOCKED || scheme == BS_SCHEME_FIT || scheme == BS_SCHEME_INDEPENDENT ?
			262144 : bs_next_prime(262139);
		bs_bloom   *filter = xcalloc((size_t) bs_bloom_total_bytes(m));
		bs_probe	probe;

		bs_bloom_init_scheme(filter, scheme, m, 4, 3);
		bs_probe_init_scheme(&probe, scheme, m, 4, 3);
		start_counting();
		bs_bloom_add_batch(filter, &probe, values, sizeof(uint64_t), BATCH_VALUES);
		CHECKF(polled_per_chunk(), "%s: batch add polled %ld times", bs_scheme_name(scheme), polls);
		start_counting();
		bs_bloom_add_keys(filter, &probe, keys, BATCH_VALUES);
		CHECKF(polled_per_chunk(), "%s: key list add polled %ld times", bs_scheme_name(scheme), polls);
		start_counting();
		CHECKF(bs_bloom_test_batch(filter, &probe, values, sizeof(uint64_t), BATCH_VALUES, NULL) ==
			   BATCH_VALUES && polled_per_chunk(), "%s: batch test polled %ld times",
			   bs_scheme_name(scheme), polls);
		start_counting();
		CHECKF(bs_bloom_test_keys(filter, &probe, keys, BATCH_VALUES, NULL) == BATCH_VALUES &&
			   polled_per_chunk(), "%s: key list test polled %ld times", bs_scheme_name(scheme), polls);
		free(filter);
	}
	if (cms != NULL)
	{
		bs_cms_probe probe;

		bs_cms_probe_init(&probe, cms->width, cms->depth, cms->copies, cms->seed);
		start_counting();
		CHECKF(bs_cms_add_keys(cms, &probe, keys, BATCH_VALUES, 2) == BATCH_VALUES &&
			   polled_per_chunk(), "cms: batch add polled %ld times", polls);
		start_counting();
		bs_cms_estimate_keys(cms, &probe, keys, BATCH_VALUES, estimates);
		CHECKF(polled_per_chunk() && estimates[BATCH_VALUES - 1] >= 2,
			   "cms: batch estimates polled %ld times", polls);
	}
	free(cms);
	free(values);
	free(keys);
	free(estimates);
}

static void
test_base64_loops(void)
{
	size_t		n = 8 * ITEMS;
	uint8_t    *bytes = xcalloc(n);
	char	   *text = xcalloc(bs_base64_encoded_length(n) + 1);
	size_t		bad;

	start_counting();
	bs_base64_encode(bytes, n, text);
	/* an item of base64 is a group of 3 bytes */
	CHECKF(polled_enough(n / 3), "base64: encoding polled %ld times", polls);
	start_counting();
	CHECKF(bs_base64_decode(text, bs_base64_encoded_length(n), bytes, n, &bad) &&
		  polled_enough(n / 3), "base64: decoding polled %ld times", polls);
	free(bytes);
	free(text);
}

/* Copies and zeroing of values (a filter of hundreds of MB) poll per stretch. */
static void
test_copy_loops(void)
{
	size_t		n = 8 * ITEMS;
	uint8_t    *from = xcalloc(n);
	uint8_t    *to = xcalloc(n);

	from[n - 1] = 7;
	start_counting();
	bs_copy_polled(to, from, n);
	CHECKF(polled_enough(ITEMS) && to[n - 1] == 7, "copy of a value polled %ld times", polls);
	start_counting();
	bs_copy_polled(to, NULL, n);
	CHECKF(polled_enough(ITEMS) && to[n - 1] == 0, "zeroing of a value polled %ld times", polls);
	free(from);
	free(to);
}

static const bs_topk_allocator topk_memory = {bs_topk_malloc_alloc, bs_topk_malloc_free,
NULL, NULL};

/*
 * Writing a summary of n values sorts them by key, then writes them: the
 * sort's runs and each of its log2(n / stride) merge passes move all n, and
 * each must poll once per stride as the writing does.
 */
static void
test_topk_write(void)
{
	const uint32_t n = 8 * BS_POLL_STRIDE;
	bs_topk_table table;
	bs_topk    *flat;
	bs_error	err;
	uint64_t	bytes;
	bool		inserted;
	bool		all_counted = true;

	CHECK(bs_topk_table_init(&table, n, &topk_memory, &err) == BS_OK);
	table.family = BS_FAMILY_INTEGER;
	for (uint32_t i = 0; i < n; i++)
	{
		uint8_t		key[8];
		bs_topk_slot *slot;

		/* keys in no order, so that the sort has work to do */
		bs_store_le64(key, mix(i));
		slot = bs_topk_table_count(&table, key, 8, bs_topk_hash(key, 8), &inserted, &err);
		all_counted &= slot != NULL && inserted;
		if (slot != NULL)
			slot->text_kind = BS_TOPK_TEXT_KEY;
	}
	CHECKF(all_counted, "topk: %u distinct values counted", n);
	CHECK(bs_topk_table_flat_bytes(&table, &bytes, &err) == BS_OK);
	flat = xcalloc(bytes);
	flat->length_word = (int32_t) bytes;
	start_counting();
	CHECK(bs_topk_table_write(&table, flat, &err) == BS_OK);
	/* runs, 3 merge passes, writing */
	CHECKF(polled_enough((uint64_t) n * 5), "topk: writing %u values polled %ld times", n, polls);
	CHECK_STATUS(bs_topk_validate(flat, bytes, &err), BS_OK, &err);
	free(flat);
	bs_topk_table_destroy(&table);
}

/*
 * A request beyond the space lower bound, n log2(1/fpr) bits, is refused
 * before any search: no poll at all, in every scheme and in the exact and
 * textbook sizings.
 */
static void
test_hopeless_sizing(void)
{
	uint64_t	bits;
	uint32_t	hashes;
	bs_error	err;

	for (uint8_t scheme = BS_SCHEME_DOUBLE; scheme <= BS_SCHEME_BLOCKED; scheme++)
	{
		start_counting();
		CHECKF(bs_bloom_size_scheme(scheme, INT64_MAX, 1e-300, &bits, &hashes, &err) ==
			  BS_ERR_TOO_LARGE && polls == 0,
			  "%s: hopeless sizing refused after %ld polls (%s)", bs_scheme_name(scheme),
			  polls, err.message);
		bs_interrupt_check = NULL;
	}
	start_counting();
	CHECKF(bs_bloom_size_exact(INT64_MAX, 1e-300, &bits, &hashes, &err) == BS_ERR_TOO_LARGE &&
		  polls == 0, "exact: hopeless sizing refused after %ld polls", polls);
	bs_interrupt_check = NULL;
	CHECKF(strstr(err.detail, "bits per item") != NULL,
		  "the refusal names the bound: %s", err.detail);
	start_counting();
	for (int c = 0; c < 2; c++)
	{
		int64_t		m;

		CHECKF(bs_optimal_bits(INT64_MAX, 1e-300, c ? BS_CONSTRUCTION_CLASSIC : BS_CONSTRUCTION_STANDARD,
							   &m, &err) == BS_ERR_TOO_LARGE,
			   "optimal_bits of a hopeless request: %s", err.message);
	}
	CHECKF(polls == 0, "optimal_bits: hopeless requests refused after %ld polls", polls);
	bs_interrupt_check = NULL;
}

void
test_interrupts(void)
{
	unsigned long before = checks_run;

	test_fit_state_loops();
	test_fit_state_check();
	test_bloom_loops();
	test_cms_loops();
	test_batch_loops();
	test_base64_loops();
	test_copy_loops();
	test_topk_write();
	test_hopeless_sizing();
	printf("interrupt polls: %lu checks\n", checks_run - before);
}
