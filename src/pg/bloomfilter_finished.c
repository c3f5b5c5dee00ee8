/*
 * bloomfilter_finished.c — the filter arguments of every function but
 * bloom_fit_agg's own: a partial state of that aggregate (scheme
 * fit_partial) is refused with 22023, so that no function answers from the
 * hashes or bits of a group not yet sized (docs/fit.md).
 */
#include "bloomsketch.h"

void
bs_bloom_refuse_partial(const bs_bloom *filter)
{
	bs_error	err;

	if (bs_bloom_check_finished(filter, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_BINARY);
}

bs_bloom *
bs_bloom_arg(FunctionCallInfo fcinfo, int arg)
{
	bs_bloom   *filter = (bs_bloom *) PG_DETOAST_DATUM(PG_GETARG_DATUM(arg));

	bs_bloom_refuse_partial(filter);
	return filter;
}

void
bs_bloom_refuse_partial_args(FunctionCallInfo fcinfo, int count)
{
	for (int arg = 0; arg < count; arg++)
	{
		Datum		datum = PG_GETARG_DATUM(arg);
		const bs_bloom *head = (const bs_bloom *) DatumGetPointer(datum);

		/* a stored value's header alone, without detoasting its bits */
		if (VARATT_IS_EXTENDED(head))
			head = (const bs_bloom *) PG_DETOAST_DATUM_SLICE(datum, 0,
															 offsetof(bs_bloom, words) - VARHDRSZ);
		bs_bloom_refuse_partial(head);
	}
}
