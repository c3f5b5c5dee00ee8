/*
 * fuzz_topk.c — the topksketch half of fuzz_util.h: untrusted bytes and text
 * into summaries the way src/pg/topksketch_io.c does it (through the core's
 * bs_form), their forms back, and the operations that must keep a valid
 * summary valid.
 *
 * Exercise: loading a summary into a working table and writing it out gives
 * its bytes back (a load is a merge into an empty table, which reduces
 * nothing); counting a key into it, then merging it with itself, gives
 * summaries the validator accepts, whose totals and the key's bounds are
 * what counting and merging promise.
 */
#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bs_base64.h"
#include "topk/bs_topk_codec.h"
#include "topk/bs_topk_table.h"

static void *
zalloc(uint64_t size)
{
	void	   *p = calloc(1, (size_t) size);

	FUZZ_CHECK(p != NULL);
	return p;
}

bs_topk *
fuzz_topk_from_bytes(const uint8_t *data, size_t size)
{
	bs_topk_params params;
	bs_error	err;
	bs_status	status;
	bs_topk    *topk;
	uint64_t	bytes;

	if ((status = bs_form_decode_header(&bs_topk_form, data, size, &params, &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		return NULL;
	}
	/* the length is checked before anything sized by the input is allocated */
	FUZZ_CHECK(BS_TOPK_SERIAL_HEADER_BYTES + params.payload_bytes == size);
	bytes = bs_form_value_bytes(&bs_topk_form, &params);
	topk = zalloc(bytes);
	topk->length_word = (int32_t) bytes;
	if ((status = bs_form_load_serialized(&bs_topk_form, topk, &params, data, &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		free(topk);
		return NULL;
	}
	return topk;
}

bs_topk *
fuzz_topk_from_text(const char *text, size_t size)
{
	bs_topk_params params;
	bs_error	err;
	bs_status	status;
	size_t		payload;
	bs_topk    *topk;
	uint64_t	bytes;

	if ((status = bs_form_parse_text_header(&bs_topk_form, text, size, &params, &payload,
											&err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		return NULL;
	}
	FUZZ_CHECK(payload <= size);
	FUZZ_CHECK(size - payload == bs_base64_encoded_length(params.payload_bytes));
	bytes = bs_form_value_bytes(&bs_topk_form, &params);
	topk = zalloc(bytes);
	topk->length_word = (int32_t) bytes;
	if ((status = bs_form_load_text(&bs_topk_form, topk, &params, text + payload,
									size - payload, &err)) != BS_OK)
	{
		fuzz_check_refusal(status, &err);
		free(topk);
		return NULL;
	}
	return topk;
}

uint8_t *
fuzz_topk_bytes(const bs_topk *topk, size_t *size)
{
	uint8_t    *out;

	*size = (size_t) bs_form_serial_bytes(&bs_topk_form, topk);
	out = zalloc(*size);
	bs_form_serialize(&bs_topk_form, topk, out);
	return out;
}

char *
fuzz_topk_text(const bs_topk *topk, size_t *size)
{
	char	   *out;

	*size = (size_t) bs_form_text_length(&bs_topk_form, topk);
	out = zalloc(*size + 1);
	bs_form_format_text(&bs_topk_form, topk, out);
	FUZZ_CHECK(strlen(out) == *size);
	return out;
}

/* ---- exercising a valid summary ---- */

/* The stored form of a table, which the validator must accept. */
static bs_topk *
written(bs_topk_table *table)
{
	uint64_t	bytes;
	bs_error	err;
	bs_topk    *out;

	bs_topk_table_reduce(table, table->counters);
	FUZZ_CHECK(bs_topk_table_flat_bytes(table, &bytes, &err) == BS_OK);
	out = zalloc(bytes);
	out->length_word = (int32_t) bytes;
	FUZZ_CHECK(bs_topk_table_write(table, out, &err) == BS_OK);
	FUZZ_CHECK(bs_topk_validate(out, bytes, &err) == BS_OK);
	return out;
}

/* The entry of a key in a summary: its count and lower bound, or 0 and 0. */
static void
find_entry(const bs_topk *topk, const uint8_t *key, size_t length, uint64_t *count,
		   uint64_t *lower)
{
	uint64_t	offset = 0;

	*count = *lower = 0;
	for (uint32_t i = 0; i < topk->entries; i++)
	{
		bs_topk_entry e;

		bs_topk_read_entry(topk, &offset, &e);
		if (e.key_length == length && memcmp(e.key, key, length) == 0)
		{
			*count = e.count;
			*lower = e.lower;
		}
	}
}

/*
 * A key of the summary's family made from the fuzzer's bytes, in the shape
 * the SQL layer gives its keys (the validator checks it): into key, of at
 * most 24 bytes; its length.
 */
static size_t
canonical_key(uint8_t family, const uint8_t *data, size_t size, uint8_t *key)
{
	uint8_t		raw[16] = {0};
	uint64_t	v;

	memcpy(raw, data, size < 16 ? size : 16);
	v = bs_load_le64(raw);
	switch (family)
	{
		case BS_FAMILY_INTEGER:
		case BS_FAMILY_TIMESTAMP:
		case BS_FAMILY_TIMESTAMPTZ:
			bs_store_le64(key, v);
			return 8;
		case BS_FAMILY_DATE:
			bs_store_le64(key, (uint64_t) (int64_t) (int32_t) v);
			return 8;
		case BS_FAMILY_FLOAT:
			/* a finite value: the exponent below all ones, never -0 */
			bs_store_le64(key, (v & UINT64_C(0x3fffffffffffffff)) | 1);
			return 8;
		case BS_FAMILY_BOOL:
			key[0] = raw[0] & 1;
			return 1;
		case BS_FAMILY_UUID:
			memcpy(key, raw, 16);
			return 16;
		case BS_FAMILY_NUMERIC:
			return (size_t) snprintf((char *) key, 24, "%u", (unsigned) (v % 1000000));
		case BS_FAMILY_TEXT:
			/* UTF-8 without NUL: ASCII */
			for (size_t i = 0; i < size && i < 16; i++)
				key[i] = raw[i] % 128 == 0 ? 'x' : raw[i] % 128;
			return size < 16 ? size : 16;
		default:
			/* bytea, other: the bytes */
			memcpy(key, raw, size < 16 ? size : 16);
			return size < 16 ? size : 16;
	}
}

void
fuzz_topk_exercise(const bs_topk *topk, const uint8_t *data, size_t size)
{
	bs_topk_table table;
	bs_error	err;
	bs_topk    *out;
	uint64_t	count_before, lower_before, count_after, lower_after;
	uint8_t		key[24];
	size_t		key_length = canonical_key(topk->family, data, size, key);

	FUZZ_CHECK(bs_topk_table_init(&table, topk->counters, &bs_topk_malloc, &err) == BS_OK);
	FUZZ_CHECK(bs_topk_table_merge(&table, topk, &err) == BS_OK);
	out = written(&table);
	FUZZ_CHECK(out->length_word == topk->length_word &&
			   memcmp(out, topk, (size_t) topk->length_word) == 0);
	free(out);

	/* counting a key: the total grows by one, the key's bounds still hold it */
	find_entry(topk, key, key_length, &count_before, &lower_before);
	if (topk->total < BS_TOPK_MAX_TOTAL && topk->family != BS_FAMILY_NONE)
	{
		bool		inserted;
		bs_topk_slot *slot = bs_topk_table_count(&table, key, (uint32_t) key_length,
												 bs_topk_hash(key, key_length),
												 &inserted, &err);

		FUZZ_CHECK(slot != NULL);
		/* no text where the key determines it; numeric's key spells it */
		if (inserted && topk->family == BS_FAMILY_OTHER)
			FUZZ_CHECK(bs_topk_table_set_text(&table, slot, (const uint8_t *) "fuzz", 4,
											  &err) == BS_OK);
		else if (inserted)
			FUZZ_CHECK(bs_topk_table_set_text(&table, slot, key, (uint32_t) key_length,
											  &err) == BS_OK);
		out = written(&table);
		FUZZ_CHECK(out->total == topk->total + 1);
		find_entry(out, key, key_length, &count_after, &lower_after);
		/* listed before: counted; either way never above its upper bound */
		FUZZ_CHECK(count_before == 0 || lower_after == 0 || lower_after == lower_before + 1);
		FUZZ_CHECK(lower_after <= lower_before + 1);
		FUZZ_CHECK(out->error >= topk->error);
		free(out);
	}

	/* merging with itself: the totals add up, or it is refused as too large */
	if (bs_topk_table_merge(&table, topk, &err) == BS_OK)
	{
		out = written(&table);
		FUZZ_CHECK(out->total >= 2 * topk->total);
		free(out);
	}
	else
		FUZZ_CHECK(err.status == BS_ERR_TOO_LARGE);
	bs_topk_table_destroy(&table);
}
