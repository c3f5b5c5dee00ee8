/*
 * topksketch_io.c — text and binary I/O of topksketch, the bytea casts, and
 * reading stored summaries (the forms are read and written by sketch_io.c).
 *
 * All three ways in (text, binary receive, bytea) run the core validator
 * (bs_topk_codec.h) on the header before they allocate anything sized by the
 * input, then on the entries (which keep their texts in UTF-8 in every
 * database, whatever its encoding).  A stored summary is validated in full
 * before its entries are read, which costs no more than reading them.
 */
#include "topksketch.h"

#include "libpq/pqformat.h"

/* A summary from untrusted serialized bytes. */
static bs_topk *
from_serialized(const uint8 *data, size_t length)
{
	return bs_value_from_serialized(&bs_topk_form, data, length);
}

const bs_topk *
bs_topk_stored_arg(FunctionCallInfo fcinfo, int argnum)
{
	const bs_topk *topk = (const bs_topk *) PG_DETOAST_DATUM(PG_GETARG_DATUM(argnum));
	bs_error	err;

	if (bs_topk_check_shape(topk, VARSIZE(topk), &err) != BS_OK ||
		bs_topk_validate(topk, VARSIZE(topk), &err) != BS_OK)
		bs_report_corrupt(&err);
	return topk;
}

PG_FUNCTION_INFO_V1(topksketch_in);
/* Text input: topk:v1:<family>:counters=..:entries=..:total=..:error=..:bytes=..:<base64> */
Datum
topksketch_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(bs_value_from_text(&bs_topk_form, PG_GETARG_CSTRING(0)));
}

PG_FUNCTION_INFO_V1(topksketch_out);
/* Text output, the exact inverse of topksketch_in. */
Datum
topksketch_out(PG_FUNCTION_ARGS)
{
	PG_RETURN_CSTRING(bs_value_to_text(&bs_topk_form, bs_topk_stored_arg(fcinfo, 0)));
}

PG_FUNCTION_INFO_V1(topksketch_recv);
/* Binary input: the serialized bytes, little-endian, validated. */
Datum
topksketch_recv(PG_FUNCTION_ARGS)
{
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0);
	int			length = buf->len - buf->cursor;
	const char *data = pq_getmsgbytes(buf, length);

	PG_RETURN_POINTER(from_serialized((const uint8 *) data, (size_t) length));
}

PG_FUNCTION_INFO_V1(topksketch_send);
/* Binary output: the serialized bytes, little-endian. */
Datum
topksketch_send(PG_FUNCTION_ARGS)
{
	PG_RETURN_BYTEA_P(bs_value_to_bytea(&bs_topk_form, bs_topk_stored_arg(fcinfo, 0)));
}

PG_FUNCTION_INFO_V1(topksketch_to_bytea);
/* Cast to bytea: the serialized bytes, as topksketch_send. */
Datum
topksketch_to_bytea(PG_FUNCTION_ARGS)
{
	return topksketch_send(fcinfo);
}

PG_FUNCTION_INFO_V1(topksketch_from_bytea);
/* Cast from bytea: validated like binary input. */
Datum
topksketch_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *bytes = PG_GETARG_BYTEA_PP(0);

	PG_RETURN_POINTER(from_serialized((const uint8 *) VARDATA_ANY(bytes),
									  VARSIZE_ANY_EXHDR(bytes)));
}
