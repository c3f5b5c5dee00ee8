/*
 * fuzz_bloom_bytes.c — libFuzzer target: a bloomfilter from raw serialized
 * bytes (what binary receive and the bytea cast get).
 *
 * Checks: a refusal carries an input-error status; an accepted value
 * serializes back to the identical bytes, its text form reads back to the
 * same value, and probing, adding, counting and estimating on it keep the
 * invariants of fuzz_exercise.c.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bs_bloom   *filter = fuzz_bloom_from_bytes(data, size);
	bs_bloom   *again;
	uint8_t    *bytes;
	char	   *text;
	size_t		length;

	if (filter == NULL)
		return 0;

	bytes = fuzz_bloom_bytes(filter, &length);
	FUZZ_CHECK(length == size && memcmp(bytes, data, size) == 0);
	free(bytes);

	text = fuzz_bloom_text(filter, &length);
	again = fuzz_bloom_from_text(text, length);
	FUZZ_CHECK(again != NULL && bs_bloom_compare(filter, again) == 0);
	free(again);
	free(text);

	fuzz_bloom_exercise(filter, data + size / 2, size - size / 2 < 16 ? size - size / 2 : 16);
	free(filter);
	return 0;
}
