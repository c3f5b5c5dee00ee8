/*
 * bloom_scheme_rates.c — the expected false-positive rate of each probing
 * scheme as an SQL function (the models are in src/core/analysis/bs_scheme_sizing.c).
 */
#include "bloomsketch.h"

#include "utils/builtins.h"

#include "../core/analysis/bs_scheme_sizing.h"

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
