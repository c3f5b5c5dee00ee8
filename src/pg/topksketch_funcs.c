/*
 * topksketch_funcs.c — topksketch functions: the listed values with their
 * bounds, the total, topk_info, and the equality, ordering and hashing
 * behind GROUP BY, DISTINCT and UNION.
 */
#include "topksketch.h"

#include "access/htup_details.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"
#include "utils/json.h"
#include "utils/jsonb.h"

/* ---- topk_items ---- */

/* The listed values of one call, best first. */
typedef struct ItemList
{
	const bs_topk *topk;
	bs_topk_entry *entries;
	uint32		count;
} ItemList;

/* Comparisons made by compare_items, so that a long sort polls now and then. */
static uint64 item_comparisons = 0;

/*
 * Best first: the larger lower bound, then the larger count, then by key.
 * Sorting 10^6 entries takes about 2*10^7 comparisons: it polls for
 * interrupts once per BS_POLL_STRIDE of them (pg_qsort allocates nothing
 * that a cancel could leak).
 */
static int
compare_items(const void *a, const void *b)
{
	const bs_topk_entry *x = a;
	const bs_topk_entry *y = b;

	bs_poll_at(++item_comparisons);

	if (x->lower != y->lower)
		return x->lower > y->lower ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return bs_topk_key_compare(x->key, x->key_length, y->key, y->key_length);
}

/* The entries of a summary, sorted best first, in the SRF's memory. */
static ItemList *
item_list(FunctionCallInfo fcinfo)
{
	ItemList   *list = palloc0(sizeof(ItemList));
	uint64		offset = 0;

	list->topk = bs_topk_stored_arg(fcinfo, 0);
	list->count = list->topk->entries;
	list->entries = palloc(sizeof(bs_topk_entry) * Max(list->count, 1));
	for (uint32 i = 0; i < list->count; i++)
	{
		bs_poll_at(i);
		bs_topk_read_entry(list->topk, &offset, &list->entries[i]);
	}
	qsort(list->entries, list->count, sizeof(bs_topk_entry), compare_items);
	return list;
}

PG_FUNCTION_INFO_V1(topk_items);
/* topk_items(summary): the listed values, best first, with their counts and bounds. */
Datum
topk_items(PG_FUNCTION_ARGS)
{
	FuncCallContext *call;
	ItemList   *list;
	Datum		values[4];
	bool		nulls[4] = {false};
	const bs_topk_entry *entry;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext old;
		TupleDesc	desc;

		call = SRF_FIRSTCALL_INIT();
		old = MemoryContextSwitchTo(call->multi_call_memory_ctx);
		if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "topk_items must be declared to return a table");
		call->tuple_desc = BlessTupleDesc(desc);
		call->user_fctx = item_list(fcinfo);
		MemoryContextSwitchTo(old);
	}
	call = SRF_PERCALL_SETUP();
	list = call->user_fctx;
	if (call->call_cntr >= list->count)
		SRF_RETURN_DONE(call);
	/* one row per call: the caller may not check between rows */
	bs_poll_interrupts();
	entry = &list->entries[call->call_cntr];
	values[0] = bs_topk_entry_text(list->topk, entry);
	/* the counts of a valid summary are at most its total, a bigint */
	values[1] = Int64GetDatum((int64) entry->lower);
	values[2] = Int64GetDatum((int64) entry->lower);
	values[3] = Int64GetDatum((int64) bs_topk_upper_bound(list->topk, entry));
	SRF_RETURN_NEXT(call, HeapTupleGetDatum(heap_form_tuple(call->tuple_desc, values, nulls)));
}

PG_FUNCTION_INFO_V1(topksketch_to_jsonb);
/*
 * topksketch_to_jsonb(summary), also the cast to jsonb: the listed values as
 * an object of text keys and their counts, the form postgresql-topn keeps,
 * so that its functions (topn(jsonb, n)) read a summary.  Built as JSON text
 * and read by jsonb's own input, whose limits apply.
 */
Datum
topksketch_to_jsonb(PG_FUNCTION_ARGS)
{
	ItemList   *list = item_list(fcinfo);
	StringInfoData json;

	initStringInfo(&json);
	appendStringInfoChar(&json, '{');
	for (uint32 i = 0; i < list->count; i++)
	{
		const bs_topk_entry *entry = &list->entries[i];

		bs_poll_at(i);
		if (i > 0)
			appendStringInfoString(&json, ", ");
		escape_json(&json, TextDatumGetCString(bs_topk_entry_text(list->topk, entry)));
		appendStringInfo(&json, ": %lld", (long long) entry->lower);
	}
	appendStringInfoChar(&json, '}');
	PG_RETURN_DATUM(DirectFunctionCall1(jsonb_in, CStringGetDatum(json.data)));
}

/* ---- totals and parameters ---- */

PG_FUNCTION_INFO_V1(topk_total);
/* topk_total(summary): the number of values counted (N). */
Datum
topk_total(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT64((int64) bs_topk_stored_arg(fcinfo, 0)->total);
}

PG_FUNCTION_INFO_V1(topk_info);
/* topk_info(summary): parameters, error bound and size of a summary, as one record. */
Datum
topk_info(PG_FUNCTION_ARGS)
{
	const bs_topk *topk = bs_topk_stored_arg(fcinfo, 0);
	TupleDesc	desc;
	Datum		values[8];
	bool		nulls[8] = {false};
	char		family[32];

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "topk_info must be declared to return a record");
	bs_family_token(topk->family, topk->type_tag, family, sizeof(family));
	values[0] = Int32GetDatum((int32) topk->counters);
	values[1] = Int32GetDatum((int32) topk->entries);
	values[2] = Int64GetDatum((int64) topk->total);
	values[3] = Int64GetDatum((int64) topk->error);
	values[4] = Float8GetDatum((double) topk->total / ((double) topk->counters + 1.0));
	values[5] = CStringGetTextDatum(family);
	values[6] = Int64GetDatum((int64) VARSIZE(topk));
	values[7] = Int32GetDatum(topk->version);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(BlessTupleDesc(desc), values, nulls)));
}

/* ---- equality, ordering, hashing ---- */

/* The btree order of two summaries (header fields, then entries). */
static int
compare_summaries(const struct varlena *a, const struct varlena *b)
{
	bs_error	err;

	if (bs_topk_check_shape((const bs_topk *) a, VARSIZE(a), &err) != BS_OK ||
		bs_topk_check_shape((const bs_topk *) b, VARSIZE(b), &err) != BS_OK)
		bs_report_corrupt(&err);
	return bs_topk_compare((const bs_topk *) a, (const bs_topk *) b);
}

/* Compare the two summary arguments (sketch_compare.c). */
static int
compare_args(FunctionCallInfo fcinfo)
{
	return bs_compare_args(fcinfo, compare_summaries);
}

PG_FUNCTION_INFO_V1(topksketch_eq);
/* a = b: the same parameters, values, counts and texts. */
Datum
topksketch_eq(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) == 0);
}

PG_FUNCTION_INFO_V1(topksketch_ne);
/* a <> b */
Datum
topksketch_ne(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) != 0);
}

PG_FUNCTION_INFO_V1(topksketch_lt);
/* a < b in the btree order (header fields, then entries): only for sorting. */
Datum
topksketch_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) < 0);
}

PG_FUNCTION_INFO_V1(topksketch_le);
/* a <= b in the btree order. */
Datum
topksketch_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) <= 0);
}

PG_FUNCTION_INFO_V1(topksketch_gt);
/* a > b in the btree order. */
Datum
topksketch_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) > 0);
}

PG_FUNCTION_INFO_V1(topksketch_ge);
/* a >= b in the btree order. */
Datum
topksketch_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(compare_args(fcinfo) >= 0);
}

PG_FUNCTION_INFO_V1(topksketch_cmp);
/* btree support: -1, 0 or 1. */
Datum
topksketch_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(compare_args(fcinfo));
}

PG_FUNCTION_INFO_V1(topksketch_hash);
/* hash support: a hash of the whole value. */
Datum
topksketch_hash(PG_FUNCTION_ARGS)
{
	return bs_hash_arg(fcinfo);
}

PG_FUNCTION_INFO_V1(topksketch_hash_extended);
/* hash support with a seed (hash partitioning). */
Datum
topksketch_hash_extended(PG_FUNCTION_ARGS)
{
	return bs_hash_extended_arg(fcinfo);
}
