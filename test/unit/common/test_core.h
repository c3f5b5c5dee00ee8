/*
 * test_core.h — what the files of test_core share: the core's headers, the
 * helpers of test_core.c that make keys and filters, and the groups of
 * checks that main() in test_core.c runs, one area of the core each.
 */
#ifndef BS_TEST_CORE_H
#define BS_TEST_CORE_H

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bs_base64.h"
#include "bloom/bs_batch.h"
#include "cms/bs_cms_batch.h"
#include "bloom/bs_block_simd.h"
#include "bloom/bs_bloom.h"
#include "bloom/bs_bloom_codec.h"
#include "common/bs_error.h"
#include "common/bs_primes.h"
#include "analysis/bs_analysis.h"
#include "analysis/bs_blocked_rate.h"
#include "bloom/bs_probe.h"
#include "analysis/bs_double_hash_rate.h"
#include "bloom/bs_scheme.h"
#include "analysis/bs_scheme_sizing.h"
#include "check.h"

/* helpers (test_core.c) */
void		key_of(uint64_t i, uint8_t key[8]);
bs_bloom   *new_filter(uint64_t m, uint32_t k, uint64_t seed);
void		add_keys(bs_bloom *f, uint64_t first, uint64_t count, uint8_t family,
					 uint32_t type_tag);

/* test_core_primitives.c: bs_error, primes, base64 */
uint64_t	slow_next_prime(uint64_t n);
void		test_error(void);
void		test_primes(void);
void		test_base64(void);

/* test_core_filter.c: probing, add and test, sizing, bounds for few items */
void		test_probing(void);
void		test_add_and_test(void);
void		test_sizing(void);
void		test_bounds_few_items(void);

/* test_core_serial.c: the serialized form */
bs_status	decode_and_load(const uint8_t *in, size_t length, bs_bloom **out, bs_error *err);
uint8_t    *serialize(const bs_bloom *f, size_t *length);
void		test_serialized(void);

/* test_core_text.c: the text form */
char	   *format_text(const bs_bloom *f);
void		test_text(void);

/* test_core_compat.c: compatibility and union, format versions, shape */
void		test_merge(void);
void		test_versions(void);
void		test_shape(void);

/* test_core_schemes.c: the probing schemes, the 512-bit path, the batch calls */
void		test_block_simd(void);
void		test_batch(void);
void		test_schemes(void);

/* test_core_interrupts.c: every long loop polls; hopeless sizings refused at once */
void		test_interrupts(void);

#endif							/* BS_TEST_CORE_H */
