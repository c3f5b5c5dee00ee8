/*
 * fuzz_topk_bytes.c — libFuzzer target: a topksketch from its raw serialized
 * bytes (what binary receive and the bytea cast get).
 *
 * Checks: a refusal carries an input-error status; an accepted value
 * serializes back to the identical bytes, its text form reads back to the
 * same value, and counting and merging keep it valid (fuzz_topk.c).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bs_topk    *topk = fuzz_topk_from_bytes(data, size);
	bs_topk    *again;
	uint8_t    *bytes;
	char	   *text;
	size_t		length;

	if (topk == NULL)
		return 0;

	bytes = fuzz_topk_bytes(topk, &length);
	FUZZ_CHECK(length == size && memcmp(bytes, data, size) == 0);
	free(bytes);

	text = fuzz_topk_text(topk, &length);
	again = fuzz_topk_from_text(text, length);
	FUZZ_CHECK(again != NULL && bs_topk_compare(topk, again) == 0);
	free(again);
	free(text);

	fuzz_topk_exercise(topk, data + size / 2, size - size / 2 < 16 ? size - size / 2 : 16);
	free(topk);
	return 0;
}
