/*
 * sketch_compare.c — the equality, ordering and hashing behind GROUP BY,
 * DISTINCT and UNION, alike for the three types: each type supplies only how two
 * values are ordered.
 */
#include "bloomsketch.h"

#include "common/hashfn.h"

int
bs_compare_args(FunctionCallInfo fcinfo, BsCompare compare)
{
	struct varlena *a = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	struct varlena *b = PG_DETOAST_DATUM(PG_GETARG_DATUM(1));
	int			result;

	if (VARSIZE(a) == VARSIZE(b) && memcmp(a, b, VARSIZE(a)) == 0)
		result = 0;
	else
		result = compare(a, b);
	PG_FREE_IF_COPY(a, 0);
	PG_FREE_IF_COPY(b, 1);
	return result;
}

Datum
bs_hash_arg(FunctionCallInfo fcinfo)
{
	struct varlena *value = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	Datum		result = hash_any((unsigned char *) VARDATA(value), VARSIZE(value) - VARHDRSZ);

	PG_FREE_IF_COPY(value, 0);
	return result;
}

Datum
bs_hash_extended_arg(FunctionCallInfo fcinfo)
{
	struct varlena *value = PG_DETOAST_DATUM(PG_GETARG_DATUM(0));
	Datum		result = hash_any_extended((unsigned char *) VARDATA(value),
										   VARSIZE(value) - VARHDRSZ, PG_GETARG_INT64(1));

	PG_FREE_IF_COPY(value, 0);
	return result;
}
