/*
 * fuzz_codec.c — the decoding half of fuzz_util.h: untrusted bytes and text
 * into values the way src/pg/bloomfilter_io.c and cmsketch_io.c do it, the
 * serialized and text forms back, copies, and the validator's re-check.
 */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bs_base64.h"
#include "bloom/bs_bloom_codec.h"
#include "cms/bs_cms_codec.h"

void
fuzz_fail(const char *what, const char *file, int line)
{
	fprintf(stderr, "invariant violated at %s:%d: %s\n", file, line, what);
	abort();
}

void
fuzz_check_refusal(bs_status status, const bs_error *err)
{
	/* 22000 (mismatch) or an unknown status is never right for bad input */
	FUZZ_CHECK(status == BS_ERR_FORMAT || status == BS_ERR_PARAM ||
			   status == BS_ERR_TOO_LARGE);
	FUZZ_CHECK(err->status == status);
	FUZZ_CHECK(err->message[0] != '\0');
}

static void *
zalloc(uint64_t size)
{
	void	   *p = calloc(1, (size_t) size);

	FUZZ_CHECK(p != NULL);
	return p;
}

/* ---- Bloom filters ---- */

bs_bloom *
fuzz_bloom_from_bytes(const uint8_t *data, size_t size)
{
	bs_bloom_params params;
	bs_error	err;
	bs_status	status;
	bs_bloom   *filter;

	if ((status = bs_bloom_decode_header(data, size, &params, &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		return NULL;
	}
	/* the length is checked before anything sized by the input is allocated */
	FUZZ_CHECK(bs_bloom_serial_bytes(params.bits) == size);
	filter = zalloc(bs_bloom_total_bytes(params.bits));
	filter->length_word = (int32_t) bs_bloom_total_bytes(params.bits);
	if ((status = bs_bloom_load_serialized(filter, &params, data, &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		free(filter);
		return NULL;
	}
	return filter;
}

bs_bloom *
fuzz_bloom_from_text(const char *text, size_t size)
{
	bs_bloom_params params;
	bs_error	err;
	bs_status	status;
	size_t		payload;
	bs_bloom   *filter;

	if ((status = bs_bloom_parse_text_header(text, size, &params, &payload, &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		return NULL;
	}
	FUZZ_CHECK(payload <= size);
	FUZZ_CHECK(size - payload ==
			   bs_base64_encoded_length(8 * bs_bloom_word_count(params.bits)));
	filter = zalloc(bs_bloom_total_bytes(params.bits));
	filter->length_word = (int32_t) bs_bloom_total_bytes(params.bits);
	if ((status = bs_bloom_load_text(filter, &params, text + payload, size - payload,
									 &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		free(filter);
		return NULL;
	}
	return filter;
}

uint8_t *
fuzz_bloom_bytes(const bs_bloom *filter, size_t *size)
{
	uint8_t    *out;

	*size = (size_t) bs_bloom_serial_bytes(filter->bits);
	out = zalloc(*size);
	bs_bloom_serialize(filter, out);
	return out;
}

char *
fuzz_bloom_text(const bs_bloom *filter, size_t *size)
{
	char	   *out;

	*size = (size_t) bs_bloom_text_length(filter);
	out = zalloc(*size + 1);
	bs_bloom_format_text(filter, out);
	FUZZ_CHECK(strlen(out) == *size);
	return out;
}

bs_bloom *
fuzz_bloom_copy(const bs_bloom *filter)
{
	uint64_t	size = bs_bloom_total_bytes(filter->bits);
	bs_bloom   *copy = zalloc(size);

	memcpy(copy, filter, (size_t) size);
	return copy;
}

void
fuzz_bloom_check_valid(const bs_bloom *filter)
{
	bs_bloom_params params;
	bs_error	err;

	bs_bloom_get_params(filter, &params);
	FUZZ_CHECK(bs_bloom_check_params(&params, &err) == BS_OK);
	FUZZ_CHECK(bs_bloom_check_words(filter, &err) == BS_OK);
	FUZZ_CHECK(bs_bloom_check_shape(filter, bs_bloom_total_bytes(filter->bits),
									&err) == BS_OK);
}

/* ---- count-min sketches ---- */

bs_cms *
fuzz_cms_from_bytes(const uint8_t *data, size_t size)
{
	bs_cms_params params;
	bs_error	err;
	bs_status	status;
	bs_cms	   *cms;

	if ((status = bs_cms_decode_header(data, size, &params, &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		return NULL;
	}
	FUZZ_CHECK(bs_cms_serial_bytes(&params) == size);
	cms = zalloc(bs_cms_params_total_bytes(&params));
	cms->length_word = (int32_t) bs_cms_params_total_bytes(&params);
	if ((status = bs_cms_load_serialized(cms, &params, data, &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		free(cms);
		return NULL;
	}
	return cms;
}

bs_cms *
fuzz_cms_from_text(const char *text, size_t size)
{
	bs_cms_params params;
	bs_error	err;
	bs_status	status;
	size_t		payload;
	bs_cms	   *cms;

	if ((status = bs_cms_parse_text_header(text, size, &params, &payload, &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		return NULL;
	}
	FUZZ_CHECK(payload <= size);
	FUZZ_CHECK(size - payload ==
			   bs_base64_encoded_length(8 * bs_cms_params_counter_count(&params)));
	cms = zalloc(bs_cms_params_total_bytes(&params));
	cms->length_word = (int32_t) bs_cms_params_total_bytes(&params);
	if ((status = bs_cms_load_text(cms, &params, text + payload, size - payload,
								   &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		free(cms);
		return NULL;
	}
	return cms;
}

uint8_t *
fuzz_cms_bytes(const bs_cms *cms, size_t *size)
{
	bs_cms_params params;
	uint8_t    *out;

	bs_cms_get_params(cms, &params);
	*size = (size_t) bs_cms_serial_bytes(&params);
	out = zalloc(*size);
	bs_cms_serialize(cms, out);
	return out;
}

char *
fuzz_cms_text(const bs_cms *cms, size_t *size)
{
	char	   *out;

	*size = (size_t) bs_cms_text_length(cms);
	out = zalloc(*size + 1);
	bs_cms_format_text(cms, out);
	FUZZ_CHECK(strlen(out) == *size);
	return out;
}

bs_cms *
fuzz_cms_copy(const bs_cms *cms)
{
	uint64_t	size = sizeof(bs_cms) + 8 * bs_cms_counter_count(cms);
	bs_cms	   *copy = zalloc(size);

	memcpy(copy, cms, (size_t) size);
	return copy;
}

void
fuzz_cms_check_valid(const bs_cms *cms)
{
	bs_error	err;
	uint64_t	size = sizeof(bs_cms) + 8 * bs_cms_counter_count(cms);

	FUZZ_CHECK(bs_cms_validate(cms, size, &err) == BS_OK);
	FUZZ_CHECK(bs_cms_check_shape(cms, size, &err) == BS_OK);
}
