/*
 * sketch_io.c — reading and writing the forms of any type (the core's
 * bs_form), and memory for values: sizes are checked against PostgreSQL's
 * allocation limit before anything is allocated.
 */
#include "cmsketch.h"

#include "utils/memutils.h"

#include "../core/topk/bs_topk.h"

/* Room for the params of any type. */
typedef union AnyParams
{
	bs_bloom_params bloom;
	bs_cms_params cms;
	bs_topk_params topk;
} AnyParams;

void *
bs_alloc_value(MemoryContext context, uint64 size, const char *type_name)
{
	struct varlena *value;

	/* the validators and sizing functions keep values well under 1 GB */
	if (size > MaxAllocSize)
		elog(ERROR, "%s of %llu bytes exceeds the allocation limit", type_name,
			 (unsigned long long) size);
	value = MemoryContextAlloc(context, (Size) size);
	bs_advise_huge_pages(value, (Size) size);
	bs_copy_polled(value, NULL, (Size) size);
	SET_VARSIZE(value, size);
	return value;
}

struct varlena *
bs_detoast_copy(Datum value)
{
	struct varlena *given = (struct varlena *) DatumGetPointer(value);
	struct varlena *plain = pg_detoast_datum(given);
	struct varlena *copy;

	/* a value that was TOASTed is already a fresh copy */
	if (plain != given)
		return plain;
	copy = palloc(VARSIZE(plain));
	bs_copy_polled(copy, plain, VARSIZE(plain));
	return copy;
}

void *
bs_value_from_serialized(const bs_form *form, const uint8 *data, size_t length)
{
	bs_error	err;
	AnyParams	params;
	void	   *value;

	if (bs_form_decode_header(form, data, length, &params, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	value = bs_alloc_value(CurrentMemoryContext, bs_form_value_bytes(form, &params),
						   form->type_name);
	if (bs_form_load_serialized(form, value, &params, data, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	return value;
}

void *
bs_value_from_text(const bs_form *form, const char *text)
{
	size_t		length = strlen(text);
	bs_error	err;
	AnyParams	params;
	size_t		payload;
	void	   *value;

	if (bs_form_parse_text_header(form, text, length, &params, &payload, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	value = bs_alloc_value(CurrentMemoryContext, bs_form_value_bytes(form, &params),
						   form->type_name);
	if (bs_form_load_text(form, value, &params, text + payload, length - payload,
						  &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	return value;
}

char *
bs_value_to_text(const bs_form *form, const void *value)
{
	uint64		length = bs_form_text_length(form, value);
	char	   *text;

	if (length + 1 > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s is too large for its text form", form->type_name),
				 errdetail("The text form would take %llu bytes.", (unsigned long long) length)));
	text = palloc(length + 1);
	bs_form_format_text(form, value, text);
	return text;
}

bytea *
bs_value_to_bytea(const bs_form *form, const void *value)
{
	uint64		length = bs_form_serial_bytes(form, value);
	bytea	   *result;

	if (VARHDRSZ + length > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s is too large for its serialized form", form->type_name),
				 errdetail("The serialized form would take %llu bytes.",
						   (unsigned long long) length)));
	result = palloc(VARHDRSZ + length);
	SET_VARSIZE(result, VARHDRSZ + length);
	bs_form_serialize(form, value, (uint8 *) VARDATA(result));
	return result;
}
