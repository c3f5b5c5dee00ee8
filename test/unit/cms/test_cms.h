/*
 * test_cms.h — what the files of test_cms share: the core's headers, the
 * helpers of test_cms.c that make and query sketches, and the groups of
 * checks that main() in test_cms.c runs, one area of the sketch each.
 */
#ifndef BS_TEST_CMS_H
#define BS_TEST_CMS_H

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cms/bs_cms.h"
#include "cms/bs_cms_codec.h"
#include "common/bs_error.h"
#include "common/bs_primes.h"
#include "cms/bs_cms_probe.h"		/* bs_cms_add_inline */
#include "bloom/bs_probe.h"			/* bs_map_uniform and xxhash, to recompute positions */
#include "check.h"

/* helpers (test_cms.c) */
void		key_of(uint64_t i, uint8_t key[8]);
uint64_t	bytes_of(const bs_cms *cms);
bs_cms	   *new_sketch(uint32_t w, uint32_t d, uint32_t copies, uint64_t seed);
bs_cms	   *clone_sketch(const bs_cms *cms);
void		add_key(bs_cms *cms, uint64_t i, int64_t count);
uint64_t	estimate_key(const bs_cms *cms, uint64_t i);
bool		validates(const bs_cms *cms);

/* test_cms_layout.c: sizing and positions */
void		test_sizing(void);
void		test_positions(void);

/* test_cms_update.c: updates, estimates, the Zipf stream; merge, intersect, inner product */
void		test_zipf(void);
void		test_add(void);
void		test_add_additive(void);
void		test_combine(void);

/* test_cms_batch.c: the batch calls against the per-value ones */
void		test_batch(void);

/* test_cms_codec.c: the serialized and text forms */
bs_status	decode_bytes(const uint8_t *in, size_t length, bs_cms **out, bs_error *err);
char	   *to_text(const bs_cms *cms);
void		test_serialized(void);
void		test_text(void);

/* test_cms_versions.c: format versions 1 and 2 combined */
void		test_versions(void);

#endif							/* BS_TEST_CMS_H */
