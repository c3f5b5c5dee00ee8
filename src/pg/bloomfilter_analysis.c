/*
 * bloomfilter_analysis.c — the exact false-positive analysis as SQL
 * functions (the math is in src/core/analysis/bs_analysis.c, with its
 * references to Burns' paper and the lecture notes), and the expected rate
 * of each probing scheme under its own model
 * (src/core/analysis/bs_scheme_sizing.c).
 */
#include "bloomsketch.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "utils/builtins.h"

#include "../core/analysis/bs_analysis.h"
#include "../core/analysis/bs_scheme_sizing.h"

/* 'standard' (k independent positions) or 'classic' (k distinct positions). */
static bs_construction
construction_arg(FunctionCallInfo fcinfo, int arg)
{
	char	   *name = text_to_cstring(PG_GETARG_TEXT_PP(arg));

	if (strcmp(name, "standard") == 0)
		return BS_CONSTRUCTION_STANDARD;
	if (strcmp(name, "classic") == 0)
		return BS_CONSTRUCTION_CLASSIC;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("unknown Bloom filter construction \"%s\"", name),
			 errhint("Use 'standard' (k independent positions per item) or 'classic' (k distinct positions per item).")));
	pg_unreachable();
}

static void
check(bs_status status, const bs_error *err)
{
	if (status != BS_OK)
		bs_report(err, BS_SOURCE_TEXT);
}

/* The first argument of the rate functions: m, a bigint. */
#define ARG_BITS PG_GETARG_INT64(0)

PG_FUNCTION_INFO_V1(bloom_fpr_exact);
/* bloom_fpr_exact(bits, items, hashes, construction): the exact expected false-positive rate. */
Datum
bloom_fpr_exact(PG_FUNCTION_ARGS)
{
	bs_error	err;
	double		rate;

	check(bs_fpr_exact(ARG_BITS, PG_GETARG_INT64(1), PG_GETARG_INT32(2),
					   construction_arg(fcinfo, 3), &rate, &err), &err);
	PG_RETURN_FLOAT8(rate);
}

PG_FUNCTION_INFO_V1(bloom_fpr_approx);
/* bloom_fpr_approx(bits, items, hashes): the textbook (1 - e^{-kn/m})^k. */
Datum
bloom_fpr_approx(PG_FUNCTION_ARGS)
{
	bs_error	err;
	double		rate;

	check(bs_fpr_approx(ARG_BITS, PG_GETARG_INT64(1), PG_GETARG_INT32(2), &rate, &err), &err);
	PG_RETURN_FLOAT8(rate);
}

PG_FUNCTION_INFO_V1(bloom_fpr_bounds);
/* bloom_fpr_bounds(bits, items, hashes): (lower, upper) bounds of Corollary 23. */
Datum
bloom_fpr_bounds(PG_FUNCTION_ARGS)
{
	bs_error	err;
	double		lower;
	double		upper;
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "bloom_fpr_bounds must be declared to return a record");
	check(bs_fpr_bounds(ARG_BITS, PG_GETARG_INT64(1), PG_GETARG_INT32(2),
						&lower, &upper, &err), &err);
	values[0] = Float8GetDatum(lower);
	values[1] = Float8GetDatum(upper);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

PG_FUNCTION_INFO_V1(bloom_optimal_k);
/* bloom_optimal_k(bits, items, construction): the k minimising the exact rate. */
Datum
bloom_optimal_k(PG_FUNCTION_ARGS)
{
	bs_error	err;
	int64		k;

	check(bs_optimal_k(ARG_BITS, PG_GETARG_INT64(1), construction_arg(fcinfo, 2), &k, &err), &err);
	PG_RETURN_INT32((int32) k);
}

PG_FUNCTION_INFO_V1(bloom_optimal_bits);
/* bloom_optimal_bits(items, fpr, construction): the smallest m reaching fpr. */
Datum
bloom_optimal_bits(PG_FUNCTION_ARGS)
{
	bs_error	err;
	int64		m;

	check(bs_optimal_bits(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1),
						  construction_arg(fcinfo, 2), &m, &err), &err);
	PG_RETURN_INT64(m);
}

PG_FUNCTION_INFO_V1(bloom_efficiency);
/* bloom_efficiency(bits, items, hashes, construction): n log2(1/p) / m. */
Datum
bloom_efficiency(PG_FUNCTION_ARGS)
{
	bs_error	err;
	double		efficiency;

	check(bs_efficiency(ARG_BITS, PG_GETARG_INT64(1), PG_GETARG_INT32(2),
						construction_arg(fcinfo, 3), &efficiency, &err), &err);
	PG_RETURN_FLOAT8(efficiency);
}

PG_FUNCTION_INFO_V1(bloom_space_lower_bound);
/* bloom_space_lower_bound(items, fpr): n log2(1/fpr) bits. */
Datum
bloom_space_lower_bound(PG_FUNCTION_ARGS)
{
	bs_error	err;
	double		bits;

	check(bs_space_lower_bound(PG_GETARG_INT64(0), PG_GETARG_FLOAT8(1), &bits, &err), &err);
	PG_RETURN_FLOAT8(bits);
}

PG_FUNCTION_INFO_V1(bloom_expected_fpr);
/* bloom_expected_fpr(bits, items, hashes, scheme): the rate under the scheme's own model. */
Datum
bloom_expected_fpr(PG_FUNCTION_ARGS)
{
	uint8		scheme = bs_scheme_or_error(PG_GETARG_TEXT_PP(3));
	bs_error	err;
	double		rate;

	if (bs_scheme_expected_fpr(scheme, PG_GETARG_INT64(0), PG_GETARG_INT64(1),
							   PG_GETARG_INT32(2), &rate, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	PG_RETURN_FLOAT8(rate);
}
