/*
 * cmsketch_io.c — text and binary I/O of cmsketch, and the bytea casts.
 *
 * All three ways in (text, binary receive, bytea) run the core validator
 * (bs_cms_codec.h) on the header before they allocate anything sized by the
 * input, and again on the counters.
 */
#include "cmsketch.h"

#include "libpq/pqformat.h"
#include "utils/memutils.h"

/* A zeroed value of the size the checked params call for. */
static bs_cms *
cms_alloc_for_params(const bs_cms_params *params)
{
	uint64		size = bs_cms_params_total_bytes(params);
	bs_cms	   *cms;

	/* the validator keeps sizes below BS_CMS_MAX_BYTES, well under 1 GB */
	if (size > MaxAllocSize)
		elog(ERROR, "cmsketch of %llu bytes exceeds the allocation limit",
			 (unsigned long long) size);
	cms = palloc0((Size) size);
	SET_VARSIZE(cms, size);
	return cms;
}

/* Build a sketch from its serialized bytes, as recv and the bytea cast do. */
static bs_cms *
cms_from_serialized(const uint8 *data, size_t length)
{
	bs_error	err;
	bs_cms_params params;
	bs_cms	   *cms;

	if (bs_cms_decode_header(data, length, &params, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	cms = cms_alloc_for_params(&params);
	if (bs_cms_load_serialized(cms, &params, data, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	return cms;
}

/* The serialized bytes of a sketch, as a bytea. */
static bytea *
cms_to_serialized(const bs_cms *cms)
{
	bs_cms_params params;
	uint64		length;
	bytea	   *result;

	bs_cms_get_params(cms, &params);
	length = bs_cms_serial_bytes(&params);
	if (VARHDRSZ + length > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cmsketch is too large for its serialized form"),
				 errdetail("The serialized form would take %llu bytes.",
						   (unsigned long long) length)));
	result = palloc(VARHDRSZ + length);
	SET_VARSIZE(result, VARHDRSZ + length);
	bs_cms_serialize(cms, (uint8 *) VARDATA(result));
	return result;
}

PG_FUNCTION_INFO_V1(cmsketch_in);
/* Text input: cms:v1:<family>:w=..:d=..:copies=..:seed=..:total=..:<base64> */
Datum
cmsketch_in(PG_FUNCTION_ARGS)
{
	const char *text = PG_GETARG_CSTRING(0);
	size_t		length = strlen(text);
	bs_error	err;
	bs_cms_params params;
	size_t		payload;
	bs_cms	   *cms;

	if (bs_cms_parse_text_header(text, length, &params, &payload, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	cms = cms_alloc_for_params(&params);
	if (bs_cms_load_text(cms, &params, text + payload, length - payload, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	PG_RETURN_POINTER(cms);
}

PG_FUNCTION_INFO_V1(cmsketch_out);
/* Text output, the exact inverse of cmsketch_in. */
Datum
cmsketch_out(PG_FUNCTION_ARGS)
{
	bs_cms	   *cms = ((bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
	uint64		length;
	char	   *text;

	bs_cms_check_shape_or_error(cms);
	length = bs_cms_text_length(cms);
	if (length + 1 > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("cmsketch is too large for its text form"),
				 errdetail("The text form would take %llu bytes.", (unsigned long long) length)));
	text = palloc(length + 1);
	bs_cms_format_text(cms, text);
	PG_RETURN_CSTRING(text);
}

PG_FUNCTION_INFO_V1(cmsketch_recv);
/* Binary input: the serialized bytes, little-endian, validated. */
Datum
cmsketch_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	size_t		length = (size_t) (buf->len - buf->cursor);
	bs_cms	   *cms;

	cms = cms_from_serialized((const uint8 *) buf->data + buf->cursor, length);
	buf->cursor = buf->len;
	PG_RETURN_POINTER(cms);
}

PG_FUNCTION_INFO_V1(cmsketch_send);
/* Binary output: the serialized bytes, little-endian. */
Datum
cmsketch_send(PG_FUNCTION_ARGS)
{
	bs_cms	   *cms = ((bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));

	bs_cms_check_shape_or_error(cms);
	PG_RETURN_BYTEA_P(cms_to_serialized(cms));
}

PG_FUNCTION_INFO_V1(cmsketch_to_bytea);
/* Cast to bytea: the serialized bytes. */
Datum
cmsketch_to_bytea(PG_FUNCTION_ARGS)
{
	bs_cms	   *cms = ((bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));

	bs_cms_check_shape_or_error(cms);
	PG_RETURN_BYTEA_P(cms_to_serialized(cms));
}

PG_FUNCTION_INFO_V1(cmsketch_from_bytea);
/* Cast from bytea: validated like binary input. */
Datum
cmsketch_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *bytes = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_POINTER(cms_from_serialized((const uint8 *) VARDATA_ANY(bytes),
										  VARSIZE_ANY_EXHDR(bytes)));
}
