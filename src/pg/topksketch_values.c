/*
 * topksketch_values.c — one value at a time: an empty summary
 * (topk_create), a summary with a value counted into it (topk_add), and a
 * summary's estimate and bounds for one value (topk_estimate, topk_bounds),
 * the words cmsketch and bloomfilter use for the same operations.
 *
 * topk_add counts into a copy by the aggregate's own code (the core's
 * weighted count, bs_topk_table.h), so that the guarantees of bs_topk.h
 * hold for any mix of adds, aggregates and merges, and the texts of numeric
 * and family other are written under the same fixed settings.
 */
#include "topksketch.h"

#include "access/htup_details.h"
#include "funcapi.h"

/* The type of the value argument (argument 1), per call site. */
static const TopkValueType *
value_type(FunctionCallInfo fcinfo)
{
	TopkValueType *type = (TopkValueType *) fcinfo->flinfo->fn_extra;

	if (unlikely(type == NULL))
	{
		type = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(TopkValueType));
		bs_topk_value_type_init(type, fcinfo);
		fcinfo->flinfo->fn_extra = type;
	}
	return type;
}

/* An empty summary of the counters topk_agg sizes for these arguments. */
static Datum
create_summary(int32 k, double epsilon, bool with_epsilon)
{
	uint32		counters;
	bs_error	err;

	if (bs_topk_size(k, epsilon, with_epsilon, &counters, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	PG_RETURN_POINTER(bs_topk_state_finish(bs_topk_state_create(CurrentMemoryContext,
																counters)));
}

PG_FUNCTION_INFO_V1(topk_create);
/* topk_create(k [, epsilon]): an empty summary that merges with topk_agg(value, k [, epsilon]). */
Datum
topk_create(PG_FUNCTION_ARGS)
{
	bool		with_epsilon = PG_NARGS() > 1;

	return create_summary(PG_GETARG_INT32(0), with_epsilon ? PG_GETARG_FLOAT8(1) : 0,
						  with_epsilon);
}

PG_FUNCTION_INFO_V1(topk_add);
/*
 * topk_add(summary, value, count): a copy with count occurrences of value
 * counted; a NULL value or count counts nothing, a NULL summary gives NULL.
 */
Datum
topk_add(PG_FUNCTION_ARGS)
{
	const TopkValueType *type;
	const bs_topk *summary;
	TopkState  *state;
	int64		count;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	count = PG_GETARG_INT64(2);
	if (count < 0)
		bs_topk_negative_count_error(count);
	type = value_type(fcinfo);
	summary = bs_topk_stored_arg(fcinfo, 0);
	if (count == 0)
	{
		CanonicalBytes bytes;

		/* the summary unchanged, but a value of another family is refused all the same */
		canonical_bytes(&type->kind, PG_GETARG_DATUM(1), &bytes);
		bs_check_value_family("topksketch", "summary", BS_TOPK_FORMAT_VERSION,
							  summary->version, summary->family, summary->type_tag,
							  &type->kind);
		canonical_release(&bytes);
		PG_RETURN_POINTER(summary);
	}
	state = bs_topk_state_from_flat(CurrentMemoryContext, summary);
	bs_topk_state_count(state, type, PG_GETARG_DATUM(1), (uint64) count);
	PG_RETURN_POINTER(bs_topk_state_finish(state));
}

/*
 * The summary's entry for the value argument, if listed: false for an
 * unlisted value, and for any value of an empty summary.  22023 for a value
 * of another family.
 */
static bool
find_value(FunctionCallInfo fcinfo, const bs_topk **summary, bs_topk_entry *entry)
{
	const TopkValueType *type = value_type(fcinfo);
	const bs_topk *topk = bs_topk_stored_arg(fcinfo, 0);
	CanonicalBytes bytes;
	bool		found;

	*summary = topk;
	canonical_bytes(&type->kind, PG_GETARG_DATUM(1), &bytes);
	bs_check_value_family("topksketch", "summary", BS_TOPK_FORMAT_VERSION, topk->version,
						  topk->family, topk->type_tag, &type->kind);
	found = bs_topk_find(topk, bytes.data, (uint32) bytes.length, entry);
	canonical_release(&bytes);
	return found;
}

PG_FUNCTION_INFO_V1(topk_estimate);
/* topk_estimate(summary, value): the occurrences counted (topk_items' count), 0 when unlisted. */
Datum
topk_estimate(PG_FUNCTION_ARGS)
{
	const bs_topk *topk;
	bs_topk_entry entry;

	if (!find_value(fcinfo, &topk, &entry))
		PG_RETURN_INT64(0);
	/* at most the total of a valid summary, a bigint */
	PG_RETURN_INT64((int64) entry.lower);
}

PG_FUNCTION_INFO_V1(topk_bounds);
/*
 * topk_bounds(summary, value): the value's lower and upper bound, as
 * topk_items gives them; (0, max_error) for an unlisted value.
 */
Datum
topk_bounds(PG_FUNCTION_ARGS)
{
	const bs_topk *topk;
	bs_topk_entry entry;
	TupleDesc	desc;
	Datum		values[2];
	bool		nulls[2] = {false};

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "topk_bounds must be declared to return a record");
	if (find_value(fcinfo, &topk, &entry))
	{
		values[0] = Int64GetDatum((int64) entry.lower);
		values[1] = Int64GetDatum((int64) bs_topk_upper_bound(topk, &entry));
	}
	else
	{
		/* f(x) <= error for every value not listed (bs_topk.h) */
		values[0] = Int64GetDatum(0);
		values[1] = Int64GetDatum((int64) topk->error);
	}
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}
