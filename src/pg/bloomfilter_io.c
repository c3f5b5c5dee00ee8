/*
 * bloomfilter_io.c — text and binary I/O of bloomfilter, and the bytea casts
 * (the forms are read and written by sketch_io.c).
 *
 * All three ways in (text, binary receive, bytea) run the core validator
 * before they allocate anything sized by the input, and again on the bits.
 */
#include "bloomsketch.h"

#include "libpq/pqformat.h"

PG_FUNCTION_INFO_V1(bloomfilter_in);
/* Text input: bloom:v1:<scheme>:<family>:k=..:m=..:seed=..:items=..:<base64> */
Datum
bloomfilter_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(bs_value_from_text(&bs_bloom_form, PG_GETARG_CSTRING(0)));
}

PG_FUNCTION_INFO_V1(bloomfilter_out);
/* Text output, the exact inverse of bloomfilter_in. */
Datum
bloomfilter_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(bs_value_to_text(&bs_bloom_form, PG_DETOAST_DATUM(PG_GETARG_DATUM(0))));
}

PG_FUNCTION_INFO_V1(bloomfilter_recv);
/* Binary input: the serialized bytes, little-endian. */
Datum
bloomfilter_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			length = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, length);

	PG_RETURN_POINTER(bs_value_from_serialized(&bs_bloom_form, (const uint8 *) data,
											   (size_t) length));
}

PG_FUNCTION_INFO_V1(bloomfilter_send);
/* Binary output: the serialized bytes, little-endian. */
Datum
bloomfilter_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(bs_value_to_bytea(&bs_bloom_form, PG_DETOAST_DATUM(PG_GETARG_DATUM(0))));
}

PG_FUNCTION_INFO_V1(bloomfilter_to_bytea);
/* Cast to bytea: the serialized bytes of a finished filter, as bloomfilter_send. */
Datum
bloomfilter_to_bytea(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(bs_value_to_bytea(&bs_bloom_form, bs_bloom_arg(fcinfo, 0)));
}

PG_FUNCTION_INFO_V1(bloomfilter_from_bytea);
/*
 * Cast from bytea: validated like binary input, and a finished filter (the
 * casts are for filters; partial states travel through the type's I/O).
 */
Datum
bloomfilter_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *bytes = PG_GETARG_BYTEA_PP(0);
	bs_bloom   *filter = bs_value_from_serialized(&bs_bloom_form,
												  (const uint8 *) VARDATA_ANY(bytes),
												  VARSIZE_ANY_EXHDR(bytes));

	bs_bloom_refuse_partial(filter);
	PG_RETURN_POINTER(filter);
}
