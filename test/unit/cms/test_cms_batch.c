/*
 * test_cms_batch.c — the batch calls of bs_cms_batch.h on sketches against the
 * per-value inline calls: the same counters, totals and estimates for one
 * copy (the ring) and several (the per-value path), batches shorter and
 * longer than the ring and than a chunk, keys of lengths 0 to 40, and the
 * index of the first value refused when a counter would wrap.
 */
#include "test_cms.h"

#include "cms/bs_cms_batch.h"

/* count keys of lengths j % 41 cut from bytes */
static bs_key *
key_list(const uint8_t *bytes, size_t count)
{
	bs_key	   *keys = calloc(count + 1, sizeof(bs_key));

	for (size_t j = 0; j < count; j++)
	{
		keys[j].data = bytes + j;
		keys[j].length = j % 41;
	}
	return keys;
}

static void
compare_batch(uint32_t copies, size_t count, const uint8_t *bytes)
{
	bs_cms	   *one = new_sketch(211, 5, copies, 17);
	bs_cms	   *batch = clone_sketch(one);
	bs_key	   *keys = key_list(bytes, 2 * count);
	uint64_t   *estimates = calloc(2 * count + 1, sizeof(uint64_t));
	bs_cms_probe probe;

	bs_cms_probe_init(&probe, one->width, one->depth, one->copies, one->seed);
	for (size_t j = 0; j < count; j++)
		CHECK(bs_cms_add_inline(one, &probe, keys[j].data, keys[j].length, 3 + j % 5));
	/* counts 3..7 in turn, as the loop above: one call per count */
	for (uint64_t c = 3; c <= 7; c++)
	{
		size_t		n = 0;
		bs_key	   *some = calloc(count + 1, sizeof(bs_key));

		for (size_t j = 0; j < count; j++)
			if (3 + j % 5 == c)
				some[n++] = keys[j];
		CHECK(bs_cms_add_keys(batch, &probe, some, n, c) == n);
		free(some);
	}
	CHECKF(memcmp(one, batch, bytes_of(one)) == 0, "copies %u count %zu: counters differ",
		   copies, count);
	bs_cms_estimate_keys(batch, &probe, keys, 2 * count, estimates);
	for (size_t j = 0; j < 2 * count; j++)
		CHECKF(estimates[j] == bs_cms_estimate_inline(one, &probe, keys[j].data, keys[j].length),
			   "copies %u: estimate %zu of %zu differs", copies, j, 2 * count);
	free(one);
	free(batch);
	free(keys);
	free(estimates);
}

/* A counter one short of wrapping: the batch stops at the value that would wrap it. */
static void
check_refusal(uint32_t copies)
{
	uint8_t		bytes[64] = {0};
	bs_cms	   *cms = new_sketch(211, 5, copies, 23);
	bs_key	   *keys = key_list(bytes, 40);
	bs_cms_probe probe;
	bs_cms	   *before;
	uint64_t	column;
	uint64_t	step;
	size_t		victim = 30;
	size_t		refused;

	for (size_t j = 0; j < sizeof(bytes); j++)
		bytes[j] = (uint8_t) (j * 37 + 1);
	bs_cms_probe_init(&probe, cms->width, cms->depth, cms->copies, cms->seed);
	/* the first counter of key 30 holds 2^64 - 2: adding 2 wraps it */
	bs_cms_locate(&probe, 0, keys[victim].data, keys[victim].length, &column, &step);
	cms->counters[column] = UINT64_MAX - 1;
	before = clone_sketch(cms);
	/* the value refused first one at a time: key 30, or an earlier one sharing its counter */
	for (refused = 0; refused < 40; refused++)
		if (!bs_cms_add_inline(before, &probe, keys[refused].data, keys[refused].length, 2))
			break;
	CHECK(refused <= victim);
	CHECKF(bs_cms_add_keys(cms, &probe, keys, 40, 2) == refused,
		   "copies %u: the refused value's index", copies);
	CHECKF(memcmp(cms, before, bytes_of(cms)) == 0,
		   "copies %u: the sketch holds exactly the values before the refused one", copies);
	free(cms);
	free(before);
	free(keys);
}

void
test_batch(void)
{
	static const size_t counts[] = {0, 1, 15, 16, 17, 1023, 1024, 1025, 3000};
	uint8_t    *bytes = malloc(2 * 3000 + 64);
	uint64_t	state = 99;

	for (size_t j = 0; j < 2 * 3000 + 64; j++)
	{
		state = state * UINT64_C(6364136223846793005) + 1442695040888963407;
		bytes[j] = (uint8_t) (state >> 56);
	}
	for (uint32_t copies = 1; copies <= 2; copies++)
	{
		for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
			compare_batch(copies, counts[i], bytes);
		check_refusal(copies);
	}
	free(bytes);
}
