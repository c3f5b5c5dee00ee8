/*
 * cmsketch_io.c — text and binary I/O of cmsketch, and the bytea casts (the
 * forms are read and written by sketch_io.c).
 *
 * All three ways in (text, binary receive, bytea) run the core validator
 * (bs_cms_codec.h) on the header before they allocate anything sized by the
 * input, and again on the counters.  A stored sketch's shape is checked
 * before its forms are written, so that a corrupt header cannot make them
 * read past its counters.
 */
#include "cmsketch.h"

#include "libpq/pqformat.h"

/* A stored sketch argument, detoasted and its shape checked. */
static const bs_cms *
stored_sketch_arg(FunctionCallInfo fcinfo)
{
	const bs_cms *cms = (bs_cms *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0));

	bs_cms_check_shape_or_error(cms);
	return cms;
}

PG_FUNCTION_INFO_V1(cmsketch_in);
/* Text input: cms:v1:<family>:w=..:d=..:copies=..:seed=..:total=..:<base64> */
Datum
cmsketch_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(bs_value_from_text(&bs_cms_form, PG_GETARG_CSTRING(0)));
}

PG_FUNCTION_INFO_V1(cmsketch_out);
/* Text output, the exact inverse of cmsketch_in. */
Datum
cmsketch_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(bs_value_to_text(&bs_cms_form, stored_sketch_arg(fcinfo)));
}

PG_FUNCTION_INFO_V1(cmsketch_recv);
/* Binary input: the serialized bytes, little-endian, validated. */
Datum
cmsketch_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			length = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, length);

	PG_RETURN_POINTER(bs_value_from_serialized(&bs_cms_form, (const uint8 *) data,
											   (size_t) length));
}

PG_FUNCTION_INFO_V1(cmsketch_send);
/* Binary output: the serialized bytes, little-endian. */
Datum
cmsketch_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(bs_value_to_bytea(&bs_cms_form, stored_sketch_arg(fcinfo)));
}

PG_FUNCTION_INFO_V1(cmsketch_to_bytea);
/* Cast to bytea: the serialized bytes, as cmsketch_send. */
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

	PG_RETURN_POINTER(bs_value_from_serialized(&bs_cms_form, (const uint8 *) VARDATA_ANY(bytes),
											   VARSIZE_ANY_EXHDR(bytes)));
}
