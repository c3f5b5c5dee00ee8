/*
 * bloomfilter_io.c — text and binary I/O of bloomfilter, and the bytea casts.
 *
 * All three ways in (text, binary receive, bytea) run the core validator
 * before they allocate anything sized by the input, and again on the bits.
 */
#include "bloomsketch.h"

#include "libpq/pqformat.h"

#define TYPE_NAME "bloomfilter"

/* Build a filter from its serialized bytes, as recv and the bytea cast do. */
static bs_bloom *
bloom_from_serialized(const uint8 *data, size_t length)
{
	bs_error	err;
	bs_bloom_params params;
	bs_bloom   *filter;

	if (bs_bloom_decode_header(data, length, &params, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	filter = bs_bloom_alloc(CurrentMemoryContext, params.scheme, params.bits,
							params.hashes, params.seed);
	if (bs_bloom_load_serialized(filter, &params, data, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	return filter;
}

PG_FUNCTION_INFO_V1(bloomfilter_in);
/* Text input: bloom:v1:<scheme>:<family>:k=..:m=..:seed=..:items=..:<base64> */
Datum
bloomfilter_in(PG_FUNCTION_ARGS)
{
	const char *text = PG_GETARG_CSTRING(0);
	size_t		length = strlen(text);
	bs_error	err;
	bs_bloom_params params;
	size_t		payload;
	bs_bloom   *filter;

	if (bs_bloom_parse_text_header(text, length, &params, &payload, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	filter = bs_bloom_alloc(CurrentMemoryContext, params.scheme, params.bits,
							params.hashes, params.seed);
	if (bs_bloom_load_text(filter, &params, text + payload, length - payload, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	PG_RETURN_POINTER(filter);
}

PG_FUNCTION_INFO_V1(bloomfilter_out);
/* Text output, the exact inverse of bloomfilter_in. */
Datum
bloomfilter_out(PG_FUNCTION_ARGS)
{
	bs_bloom   *filter = (bs_bloom *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	char	   *text = bs_text_form_buffer(TYPE_NAME, bs_bloom_text_length(filter));

	bs_bloom_format_text(filter, text);
	PG_RETURN_CSTRING(text);
}

PG_FUNCTION_INFO_V1(bloomfilter_recv);
/* Binary input: the serialized bytes, little-endian. */
Datum
bloomfilter_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			length = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, length);

	PG_RETURN_POINTER(bloom_from_serialized((const uint8 *) data, (size_t) length));
}

PG_FUNCTION_INFO_V1(bloomfilter_send);
/* Binary output: the serialized bytes, little-endian; also the cast to bytea. */
Datum
bloomfilter_send(PG_FUNCTION_ARGS)
{
	bs_bloom   *filter = (bs_bloom *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	bytea	   *result = bs_serialized_form_buffer(TYPE_NAME,
												   bs_bloom_serial_bytes(filter->bits));

	bs_bloom_serialize(filter, (uint8 *) VARDATA(result));
	PG_RETURN_BYTEA_P(result);
}

PG_FUNCTION_INFO_V1(bloomfilter_to_bytea);
/* Cast to bytea: the serialized bytes. */
Datum
bloomfilter_to_bytea(PG_FUNCTION_ARGS)
{
	return bloomfilter_send(fcinfo);
}

PG_FUNCTION_INFO_V1(bloomfilter_from_bytea);
/* Cast from bytea: validated like binary input. */
Datum
bloomfilter_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *bytes = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_POINTER(bloom_from_serialized((const uint8 *) VARDATA_ANY(bytes),
											VARSIZE_ANY_EXHDR(bytes)));
}
