/*
 * fuzz_cms_bytes.c — libFuzzer target: a cmsketch from raw serialized bytes
 * (what binary receive and the bytea cast get).
 *
 * Checks: a refusal carries an input-error status; an accepted value
 * serializes back to the identical bytes, its text form reads back to the
 * same value, and estimates, totals and additions on it keep the invariants
 * of fuzz_exercise.c.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bs_cms	   *cms = fuzz_cms_from_bytes(data, size);
	bs_cms	   *again;
	uint8_t    *bytes;
	char	   *text;
	size_t		length;

	if (cms == NULL)
		return 0;

	bytes = fuzz_cms_bytes(cms, &length);
	FUZZ_CHECK(length == size && memcmp(bytes, data, size) == 0);
	free(bytes);

	text = fuzz_cms_text(cms, &length);
	again = fuzz_cms_from_text(text, length);
	FUZZ_CHECK(again != NULL && bs_cms_compare(cms, again) == 0);
	free(again);
	free(text);

	fuzz_cms_exercise(cms, data + size / 2, size - size / 2 < 16 ? size - size / 2 : 16);
	free(cms);
	return 0;
}
