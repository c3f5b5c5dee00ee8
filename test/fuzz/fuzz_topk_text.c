/*
 * fuzz_topk_text.c — libFuzzer target: a topksketch from its text form
 * (topk:v1:<family>:counters=..:entries=..:total=..:error=..:bytes=..:<base64>).
 *
 * Checks: a refusal carries an input-error status; an accepted value is the
 * one spelling of its value (text -> value -> text is the identity), its
 * serialized bytes read back to the same value, and counting and merging
 * keep it valid (fuzz_topk.c).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bs_topk    *topk = fuzz_topk_from_text((const char *) data, size);
	bs_topk    *again;
	uint8_t    *bytes;
	char	   *text;
	size_t		length;

	if (topk == NULL)
		return 0;

	text = fuzz_topk_text(topk, &length);
	FUZZ_CHECK(length == size && memcmp(text, data, size) == 0);
	free(text);

	bytes = fuzz_topk_bytes(topk, &length);
	again = fuzz_topk_from_bytes(bytes, length);
	FUZZ_CHECK(again != NULL && bs_topk_compare(topk, again) == 0);
	free(again);
	free(bytes);

	fuzz_topk_exercise(topk, data, size < 16 ? size : 16);
	free(topk);
	return 0;
}
