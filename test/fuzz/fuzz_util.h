/*
 * fuzz_util.h — shared by the libFuzzer targets of test/fuzz.
 *
 * Decoding untrusted input exactly as the SQL layer does (check the header,
 * allocate what it asks for, load and check the payload), the invariants
 * every accepted value must keep, and FUZZ_CHECK, which aborts so that
 * libFuzzer reports the input that broke an invariant.
 */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "bloom/bs_bloom.h"
#include "bloom/bs_probe.h"
#include "cms/bs_cms.h"
#include "cms/bs_cms_probe.h"
#include "topk/bs_topk.h"

#define FUZZ_CHECK(cond) \
	do { \
		if (!(cond)) \
			fuzz_fail(#cond, __FILE__, __LINE__); \
	} while (0)

void		fuzz_fail(const char *what, const char *file, int line)
			__attribute__((noreturn));

/* Refusals must carry an input-error status (22P02/22P03, 22023, 54000). */
void		fuzz_check_refusal(bs_status status, const bs_error *err);

/* Decode a value; NULL when the validator refuses the input. */
bs_bloom   *fuzz_bloom_from_bytes(const uint8_t *data, size_t size);
bs_bloom   *fuzz_bloom_from_text(const char *text, size_t size);
bs_cms	   *fuzz_cms_from_bytes(const uint8_t *data, size_t size);
bs_cms	   *fuzz_cms_from_text(const char *text, size_t size);

/* The serialized and text forms of a value (malloc'd; *size set). */
uint8_t    *fuzz_bloom_bytes(const bs_bloom *filter, size_t *size);
char	   *fuzz_bloom_text(const bs_bloom *filter, size_t *size);
uint8_t    *fuzz_cms_bytes(const bs_cms *cms, size_t *size);
char	   *fuzz_cms_text(const bs_cms *cms, size_t *size);

/* A malloc'd copy of a value. */
bs_bloom   *fuzz_bloom_copy(const bs_bloom *filter);
bs_cms	   *fuzz_cms_copy(const bs_cms *cms);

/* The validator must accept a value that an operation produced. */
void		fuzz_bloom_check_valid(const bs_bloom *filter);
void		fuzz_cms_check_valid(const bs_cms *cms);

/*
 * Probe, add to a copy, count and estimate, checking what must hold: no
 * false negatives, k distinct in-range positions, consistent counts and
 * estimates, a valid value after every update.
 */
void		fuzz_bloom_exercise(const bs_bloom *filter, const uint8_t *key,
								size_t key_length);
void		fuzz_cms_exercise(const bs_cms *cms, const uint8_t *key,
							  size_t key_length);

/* The same for heavy-hitters summaries (fuzz_topk.c). */
bs_topk    *fuzz_topk_from_bytes(const uint8_t *data, size_t size);
bs_topk    *fuzz_topk_from_text(const char *text, size_t size);
uint8_t    *fuzz_topk_bytes(const bs_topk *topk, size_t *size);
char	   *fuzz_topk_text(const bs_topk *topk, size_t *size);

/*
 * Load into a working table and write back (the identical bytes), count a
 * key made from data into it and merge it with itself, checking that every
 * result is valid and counts what it should.
 */
void		fuzz_topk_exercise(const bs_topk *topk, const uint8_t *data, size_t size);

#endif							/* FUZZ_UTIL_H */
