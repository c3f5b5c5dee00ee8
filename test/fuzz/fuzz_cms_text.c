/*
 * fuzz_cms_text.c — libFuzzer target: a cmsketch from its text form
 * (cms:v1:<family>:w=..:d=..:copies=..:seed=..:total=..:<base64 counters>).
 *
 * Checks: a refusal carries an input-error status; an accepted text is the
 * one spelling of its value (text -> value -> text is the identity), its
 * serialized bytes read back to the same value, and estimates, totals and
 * additions keep the invariants of fuzz_exercise.c.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bs_cms	   *cms = fuzz_cms_from_text((const char *) data, size);
	bs_cms	   *again;
	uint8_t    *bytes;
	char	   *text;
	size_t		length;

	if (cms == NULL)
		return 0;

	text = fuzz_cms_text(cms, &length);
	FUZZ_CHECK(length == size && memcmp(text, data, size) == 0);
	free(text);

	bytes = fuzz_cms_bytes(cms, &length);
	again = fuzz_cms_from_bytes(bytes, length);
	FUZZ_CHECK(again != NULL && bs_cms_compare(cms, again) == 0);
	free(again);
	free(bytes);

	fuzz_cms_exercise(cms, data, size < 16 ? size : 16);
	free(cms);
	return 0;
}
