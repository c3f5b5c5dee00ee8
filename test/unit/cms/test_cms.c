/*
 * test_cms.c — unit tests of the count-min sketch core (src/core/cms/).
 *
 *   gcc -std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -I src/core \
 *       test/test_cms*.c src/core/\*.c -lm
 *
 * A self-contained runner in the style of test_core.c: passing checks are
 * silent, a failing one prints file:line, the expression and the case.  The
 * last line is "cms: N checks, M failed"; the exit status is non-zero when
 * M > 0.  Everything pseudo-random comes from fixed seeds.
 *
 * This file holds the runner, the helpers that make and query sketches,
 * and main(), which runs the groups of checks of the test_cms_*.c files
 * (one area of the sketch each; test_cms.h lists them).
 */
#include "bytes.h"
#include "test_cms.h"

/* ---- the runner (check.h) ---- */

unsigned long checks_run;
unsigned long checks_failed;

/* ---- helpers ---- */

/* Integer-family canonical bytes: little-endian 64-bit. */
void
key_of(uint64_t i, uint8_t key[8])
{
	put_le64(key, i);
}

uint64_t
bytes_of(const bs_cms *cms)
{
	return sizeof(bs_cms) + 8 * bs_cms_counter_count(cms);
}

bs_cms *
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

bs_cms *
clone_sketch(const bs_cms *cms)
{
	bs_cms	   *copy = xcalloc((size_t) bytes_of(cms));

	memcpy(copy, cms, (size_t) bytes_of(cms));
	return copy;
}

void
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

uint64_t
estimate_key(const bs_cms *cms, uint64_t i)
{
	bs_cms_probe probe;
	uint8_t		key[8];

	bs_cms_probe_init(&probe, cms->width, cms->depth, cms->copies, cms->seed);
	key_of(i, key);
	return bs_cms_estimate(cms, &probe, key, 8);
}

bool
validates(const bs_cms *cms)
{
	return bs_cms_validate(cms, bytes_of(cms), NULL) == BS_OK;
}

int
main(void)
{
	test_sizing();
	test_positions();
	test_add();
	test_add_additive();
	test_combine();
	test_batch();
	test_versions();
	test_serialized();
	test_text();
	test_zipf();

	printf("cms: %lu checks, %lu failed\n", checks_run, checks_failed);
	return checks_failed > 0 ? 1 : 0;
}
