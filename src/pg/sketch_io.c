/*
 * sketch_io.c — memory for values and their forms, alike for both types:
 * sizes are checked against PostgreSQL's allocation limit before anything
 * is allocated.
 */
#include "bloomsketch.h"

#include "utils/memutils.h"

void *
bs_alloc_value(MemoryContext context, uint64 size, const char *type_name)
{
	struct varlena *value;

	/* the validators and sizing functions keep values well under 1 GB */
	if (size > MaxAllocSize)
		elog(ERROR, "%s of %llu bytes exceeds the allocation limit", type_name,
			 (unsigned long long) size);
	value = MemoryContextAllocZero(context, (Size) size);
	SET_VARSIZE(value, size);
	return value;
}

char *
bs_text_form_buffer(const char *type_name, uint64 length)
{
	if (length + 1 > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s is too large for its text form", type_name),
				 errdetail("The text form would take %llu bytes.", (unsigned long long) length)));
	return palloc(length + 1);
}

bytea *
bs_serialized_form_buffer(const char *type_name, uint64 length)
{
	bytea	   *result;

	if (VARHDRSZ + length > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s is too large for its serialized form", type_name),
				 errdetail("The serialized form would take %llu bytes.",
						   (unsigned long long) length)));
	result = palloc(VARHDRSZ + length);
	SET_VARSIZE(result, VARHDRSZ + length);
	return result;
}
