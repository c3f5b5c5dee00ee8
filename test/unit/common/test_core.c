/*
 * test_core.c — unit tests of bloomsketch's pure C core (src/core).
 *
 * A self-contained runner: every check is silent when it passes; a failing
 * check prints file:line, the expression and, where useful, the case that
 * failed.  The last line is "core: N checks, M failed" and the exit status is
 * non-zero when M > 0.  Everything pseudo-random comes from fixed seeds, so a
 * run is fully deterministic.
 *
 * This file holds the runner, the helpers that make keys and filters, and
 * main(), which runs the groups of checks of the test_core_*.c files (one
 * area of the core each; test_core.h lists them).
 */
#include "bytes.h"
#include "test_core.h"

/* the runner (check.h) */
unsigned long checks_run;
unsigned long checks_failed;

/* ------------------------------------------------------------------------ */
/* helpers                                                                  */
/* ------------------------------------------------------------------------ */

/* A bijection of uint64 (splitmix64's finalizer): distinct i give distinct keys. */
static uint64_t
mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
	return x ^ (x >> 31);
}

/* The 8-byte key of number i: mix64(i), little-endian. */
void
key_of(uint64_t i, uint8_t key[8])
{
	put_le64(key, mix64(i));
}

bs_bloom *
new_filter(uint64_t m, uint32_t k, uint64_t seed)
{
	bs_bloom   *f = xcalloc((size_t) bs_bloom_total_bytes(m));

	bs_bloom_init(f, m, k, seed);
	return f;
}

/* Add keys first .. first+count-1 and give the filter a family. */
void
add_keys(bs_bloom *f, uint64_t first, uint64_t count, uint8_t family,
		 uint32_t type_tag)
{
	bs_probe	probe;
	uint8_t		key[8];

	bs_probe_init(&probe, f->bits, f->hashes, f->seed);
	for (uint64_t i = first; i < first + count; i++)
	{
		key_of(i, key);
		bs_bloom_add(f, &probe, key, sizeof(key));
	}
	f->family = family;
	f->type_tag = type_tag;
}

/* ------------------------------------------------------------------------ */

int
main(void)
{
	test_error();
	test_primes();
	test_base64();
	test_interrupts();
	test_probing();
	test_add_and_test();
	test_sizing();
	test_serialized();
	test_text();
	test_merge();
	test_versions();
	test_shape();
	test_schemes();
	test_bounds_few_items();
	test_block_simd();
	test_batch();

	printf("core: %lu checks, %lu failed\n", checks_run, checks_failed);
	return checks_failed > 0 ? 1 : 0;
}
