/*
 * bloomfilter_estimate.c — item counts, similarity and the current
 * false-positive rate, estimated from a filter's set bits (src/core/bloom/bs_estimate.c
 * holds the math and its references to Burns' paper).
 */
#include "bloomsketch.h"

#include <math.h>

#include "access/htup_details.h"
#include "funcapi.h"

#include "../core/bloom/bs_fit.h"
#include "../core/bloom/bs_scheme.h"

static bs_bloom *
filter_arg(FunctionCallInfo fcinfo, int arg)
{
	return bs_bloom_arg(fcinfo, arg);
}

bool
bs_bloom_estimable(const bs_bloom *filter)
{
	return !(filter->scheme == BS_SCHEME_FIT && (filter->reserved8 & BS_FIT_MIXED_SIZES) != 0);
}

/*
 * A filter argument whose bits follow its size's occupancy model: not a
 * union or intersection of fit filters of different sizes, whose tiled
 * smaller side repeats its bits (100 values tiled into 100,000 look like
 * 100 times as many), so no count estimate from them is honest.
 */
static bs_bloom *
estimable_arg(FunctionCallInfo fcinfo, int arg)
{
	bs_bloom   *filter = filter_arg(fcinfo, arg);

	if (!bs_bloom_estimable(filter))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("cannot estimate counts from a union or intersection of self-sized filters of different sizes"),
				 errdetail("The smaller filter was tiled up to the larger size, so its bits count once per copy."),
				 errhint("Estimate from each filter alone, or build one filter over all the values with bloom_fit_agg.")));
	return filter;
}

/* The occupancy model of the filter's scheme and shape. */
static void
model_of(const bs_bloom *filter, bs_occupancy *model)
{
	bs_scheme_occupancy(filter->scheme, filter->bits, filter->hashes, model);
}

double
bs_bloom_estimated_items(const bs_bloom *filter)
{
	bs_occupancy model;

	model_of(filter, &model);
	return bs_model_estimate_items(&model, bs_bloom_count_set(filter));
}

/* Estimates for a, b and a | b of two compatible filters. */
static void
pair_estimates(FunctionCallInfo fcinfo, double *na, double *nb, double *nunion)
{
	bs_bloom   *a = estimable_arg(fcinfo, 0);
	bs_bloom   *b = estimable_arg(fcinfo, 1);
	bs_bloom	header;
	bs_error	err;
	bs_occupancy model;

	/* the checks read the header alone (bs_align_hash_version) */
	memcpy(&header, a, sizeof(header));
	(void) bs_align_hash_version(&header.version, header.family, b->version, b->family);
	if (bs_bloom_check_compatible(&header, b, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
	*na = bs_bloom_estimated_items(a);
	*nb = bs_bloom_estimated_items(b);
	model_of(a, &model);
	*nunion = bs_model_estimate_items(&model, bs_bloom_count_union(a, b));
}

/*
 * n(A) + n(B) - n(A | B), clamped to [0, min(n(A), n(B))]; false when the
 * union is full, where nothing bounds the overlap.
 */
static bool
intersection_estimate(double na, double nb, double nunion, double *result)
{
	double		overlap;

	if (isinf(nunion))
		return false;
	overlap = na + nb - nunion;
	if (overlap < 0)
		overlap = 0;
	if (overlap > fmin(na, nb))
		overlap = fmin(na, nb);
	*result = overlap;
	return true;
}

PG_FUNCTION_INFO_V1(bloom_cardinality);
/* bloom_cardinality(f): estimated number of distinct values added (Burns eq. (46)). */
Datum
bloom_cardinality(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(bs_bloom_estimated_items(estimable_arg(fcinfo, 0)));
}

PG_FUNCTION_INFO_V1(bloom_cardinality_bounds);
/* bloom_cardinality_bounds(f, confidence): (lower, upper) interval for the count. */
Datum
bloom_cardinality_bounds(PG_FUNCTION_ARGS)
{
	bs_bloom   *filter = estimable_arg(fcinfo, 0);
	double		confidence = PG_GETARG_FLOAT8(1);
	double		lower;
	double		upper;
	bs_occupancy model;
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	if (!(confidence > 0 && confidence < 1))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("confidence must be greater than 0 and less than 1"),
				 errdetail("The confidence given was %g.", confidence)));
	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "bloom_cardinality_bounds must be declared to return a record");

	model_of(filter, &model);
	bs_model_estimate_bounds(&model, bs_bloom_count_set(filter), confidence,
							 &lower, &upper);
	values[0] = Float8GetDatum(lower);
	values[1] = Float8GetDatum(upper);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

PG_FUNCTION_INFO_V1(bloom_union_cardinality);
/* bloom_union_cardinality(a, b): estimated distinct values in either filter. */
Datum
bloom_union_cardinality(PG_FUNCTION_ARGS)
{
	double		na;
	double		nb;
	double		nunion;

	pair_estimates(fcinfo, &na, &nb, &nunion);
	PG_RETURN_FLOAT8(nunion);
}

PG_FUNCTION_INFO_V1(bloom_intersection_cardinality);
/* bloom_intersection_cardinality(a, b): estimated distinct values in both; NULL if the union is full. */
Datum
bloom_intersection_cardinality(PG_FUNCTION_ARGS)
{
	double		na;
	double		nb;
	double		nunion;
	double		overlap;

	pair_estimates(fcinfo, &na, &nb, &nunion);
	if (!intersection_estimate(na, nb, nunion, &overlap))
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(overlap);
}

PG_FUNCTION_INFO_V1(bloom_jaccard);
/* bloom_jaccard(a, b): estimated |A and B| / |A or B|; NULL when undefined. */
Datum
bloom_jaccard(PG_FUNCTION_ARGS)
{
	double		na;
	double		nb;
	double		nunion;
	double		overlap;

	pair_estimates(fcinfo, &na, &nb, &nunion);
	if (nunion <= 0 || !intersection_estimate(na, nb, nunion, &overlap))
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(overlap / nunion);
}

PG_FUNCTION_INFO_V1(bloom_fpr);
/* bloom_fpr(f): the false-positive rate of the filter as it is now. */
Datum
bloom_fpr(PG_FUNCTION_ARGS)
{
	PG_RETURN_FLOAT8(bs_bloom_current_fpr(filter_arg(fcinfo, 0)));
}
