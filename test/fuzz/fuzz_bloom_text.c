/*
 * fuzz_bloom_text.c — libFuzzer target: a bloomfilter from its text form
 * (bloom:v1:<scheme>:<family>:k=..:m=..:seed=..:items=..:<base64 bits>).
 *
 * Checks: a refusal carries an input-error status; an accepted text is the
 * one spelling of its value (text -> value -> text is the identity), its
 * serialized bytes read back to the same value, and probing, adding,
 * counting and estimating keep the invariants of fuzz_exercise.c.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bs_bloom   *filter = fuzz_bloom_from_text((const char *) data, size);
	bs_bloom   *again;
	uint8_t    *bytes;
	char	   *text;
	size_t		length;

	if (filter == NULL)
		return 0;

	text = fuzz_bloom_text(filter, &length);
	FUZZ_CHECK(length == size && memcmp(text, data, size) == 0);
	free(text);

	bytes = fuzz_bloom_bytes(filter, &length);
	again = fuzz_bloom_from_bytes(bytes, length);
	FUZZ_CHECK(again != NULL && bs_bloom_compare(filter, again) == 0);
	free(again);
	free(bytes);

	fuzz_bloom_exercise(filter, data, size < 16 ? size : 16);
	free(filter);
	return 0;
}
