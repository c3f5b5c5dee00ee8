/*
 * bloomfilter_funcs.c — bloom_create and bloom_info, and the comparison
 * and hash functions of the operator classes.
 */
#include "bloomsketch.h"

#include "../core/bloom/bs_fit.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "../core/bloom/bs_scheme.h"

/*
 * The C symbol is not "bloom_create": the server exports a bloom_create of
 * its own (src/backend/lib/bloomfilter.c), and PostgreSQL's JIT, looking for
 * the body of a C function by its symbol's name to inline it, found that one
 * and inlined it in place of ours: the backend crashed in LLVM whenever a
 * query costly enough to JIT called bloom_create with a non-constant
 * argument.  scripts/test.sh checks that no symbol of ours is the server's.
 */
PG_FUNCTION_INFO_V1(bloomfilter_create);
/* bloom_create(capacity, fpr, seed, scheme): an empty filter sized for capacity items at fpr. */
Datum
bloomfilter_create(PG_FUNCTION_ARGS)
{
	int64		capacity = PG_GETARG_INT64(0);
	double		fpr = PG_GETARG_FLOAT8(1);
	int64		seed = PG_GETARG_INT64(2);
	uint8		scheme;
	uint64		bits;
	uint32		hashes;

	/* (an install script older than the library declares three arguments) */
	scheme = PG_NARGS() > 3 ? bs_scheme_or_error(PG_GETARG_TEXT_PP(3)) : BS_SCHEME_DOUBLE;

	bs_size_or_error(scheme, capacity, fpr, &bits, &hashes);
	PG_RETURN_POINTER(bs_bloom_alloc(CurrentMemoryContext, scheme, bits, hashes,
									 (uint64) seed));
}

PG_FUNCTION_INFO_V1(bloom_info);
/* bloom_info(filter): the parameters, fill and estimates of a filter, as one record. */
Datum
bloom_info(PG_FUNCTION_ARGS)
{
	bs_bloom   *filter = ((bs_bloom *) PG_DETOAST_DATUM(PG_GETARG_DATUM(0)));
	TupleDesc	desc;
	Datum		values[12];
	bool		nulls[12] = {false};
	uint64		set;
	char		family[32];
	bs_error	err;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "bloom_info must be declared to return a record");
	if (bs_bloom_check_shape(filter, VARSIZE(filter), &err) != BS_OK)
		bs_report_corrupt(&err);

	bs_family_token(filter->family, filter->type_tag, family, sizeof(family));

	values[0] = Int64GetDatum((int64) filter->bits);
	values[1] = Int32GetDatum(filter->hashes);
	values[2] = Int64GetDatum((int64) filter->seed);
	values[3] = CStringGetTextDatum(bs_scheme_name(filter->scheme));
	values[4] = CStringGetTextDatum(family);
	set = bs_bloom_count_set(filter);
	values[5] = Int64GetDatum((int64) set);
	values[6] = Int64GetDatum(filter->items > (uint64) PG_INT64_MAX ? PG_INT64_MAX
							  : (int64) filter->items);
	values[7] = Int64GetDatum((int64) VARSIZE(filter));
	values[8] = Int32GetDatum(filter->version);
	/* NULL where no honest estimate exists (bloom_cardinality refuses) */
	if (bs_bloom_estimable(filter))
		values[9] = Float8GetDatum(bs_bloom_estimated_items(filter));
	else
		nulls[9] = true;
	values[10] = Float8GetDatum(bs_bloom_current_fpr(filter));
	/* over_ceiling: 0.1.0's declaration lacks it, and heap_form_tuple reads only its columns */
	values[11] = BoolGetDatum(filter->scheme == BS_SCHEME_FIT &&
							  (filter->reserved8 & BS_FIT_OVER_CEILING) != 0);
	/* a mixed filter's flags byte is 2 or 3: only the over-ceiling bit is reported */
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/* The btree order of two filters (header fields, then bits). */
static int
compare_filters(const struct varlena *a, const struct varlena *b)
{
	return bs_bloom_compare((const bs_bloom *) a, (const bs_bloom *) b);
}

/* Compare the two filter arguments (sketch_compare.c). */
static int
compare_args(FunctionCallInfo fcinfo)
{
	bs_bloom_refuse_partial_args(fcinfo, 2);
	return bs_compare_args(fcinfo, compare_filters);
}

PG_FUNCTION_INFO_V1(bloomfilter_eq);
/* a = b: same parameters and the same bits. */
Datum
bloomfilter_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) == 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_ne);
/* a <> b */
Datum
bloomfilter_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) != 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_lt);
/* a < b in the btree order (header fields, then bits): only for sorting. */
Datum
bloomfilter_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) < 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_le);
/* a <= b in the btree order. */
Datum
bloomfilter_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) <= 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_gt);
/* a > b in the btree order. */
Datum
bloomfilter_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) > 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_ge);
/* a >= b in the btree order. */
Datum
bloomfilter_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) >= 0);
}

PG_FUNCTION_INFO_V1(bloomfilter_cmp);
/* btree support: -1, 0 or 1. */
Datum
bloomfilter_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(compare_args(fcinfo));
}

PG_FUNCTION_INFO_V1(bloomfilter_hash);
/* hash support: a hash of the whole value. */
Datum
bloomfilter_hash(PG_FUNCTION_ARGS)
{
	bs_bloom_refuse_partial_args(fcinfo, 1);
	return bs_hash_arg(fcinfo);
}

PG_FUNCTION_INFO_V1(bloomfilter_hash_extended);
/* hash support with a seed (hash partitioning). */
Datum
bloomfilter_hash_extended(PG_FUNCTION_ARGS)
{
	bs_bloom_refuse_partial_args(fcinfo, 1);
	return bs_hash_extended_arg(fcinfo);
}
