/*
 * cmsketch_io.c — text and binary I/O of cmsketch, and the bytea casts.
 *
 * All three ways in (text, binary receive, bytea) run the core validator
 * (bs_cms_codec.h) on the header before they allocate anything sized by the
 * input, and again on the counters.
 */
#include "cmsketch.h"

#include "libpq/pqformat.h"

#define TYPE_NAME "cmsketch"

/* Build a sketch from its serialized bytes, as recv and the bytea cast do. */
static bs_cms *
cms_from_serialized(const uint8 *data, size_t length)
{
	bs_error	err;
	bs_cms_params params;
	bs_cms	   *cms;

	if (bs_cms_decode_header(data, length, &params, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	cms = bs_alloc_value(CurrentMemoryContext, bs_cms_params_total_bytes(&params), TYPE_NAME);
	if (bs_cms_load_serialized(cms, &params, data, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	return cms;
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
	cms = bs_alloc_value(CurrentMemoryContext, bs_cms_params_total_bytes(&params), TYPE_NAME);
	if (bs_cms_load_text(cms, &params, text + payload, length - payload, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	PG_RETURN_POINTER(cms);
}

PG_FUNCTION_INFO_V1(cmsketch_out);
/* Text output, the exact inverse of cmsketch_in. */
Datum
cmsketch_out(PG_FUNCTION_ARGS)
{
	bs_cms	   *cms = (bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	char	   *text;

	bs_cms_check_shape_or_error(cms);
	text = bs_text_form_buffer(TYPE_NAME, bs_cms_text_length(cms));
	bs_cms_format_text(cms, text);
	PG_RETURN_CSTRING(text);
}

PG_FUNCTION_INFO_V1(cmsketch_recv);
/* Binary input: the serialized bytes, little-endian, validated. */
Datum
cmsketch_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			length = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, length);

	PG_RETURN_POINTER(cms_from_serialized((const uint8 *) data, (size_t) length));
}

PG_FUNCTION_INFO_V1(cmsketch_send);
/* Binary output: the serialized bytes, little-endian; also the cast to bytea. */
Datum
cmsketch_send(PG_FUNCTION_ARGS)
{
	bs_cms	   *cms = (bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	bs_cms_params params;
	bytea	   *result;

	bs_cms_check_shape_or_error(cms);
	bs_cms_get_params(cms, &params);
	result = bs_serialized_form_buffer(TYPE_NAME, bs_cms_serial_bytes(&params));
	bs_cms_serialize(cms, (uint8 *) VARDATA(result));
	PG_RETURN_BYTEA_P(result);
}

PG_FUNCTION_INFO_V1(cmsketch_to_bytea);
/* Cast to bytea: the serialized bytes. */
Datum
cmsketch_to_bytea(PG_FUNCTION_ARGS)
{
	return cmsketch_send(fcinfo);
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
