/*
 * topksketch_batch.c — a heavy-hitters summary and many values in one call: the
 * estimate of each element of an array (topk_estimate_each, an array like
 * cms_estimate_each's) and the bounds of each (topk_bounds_each, a row per
 * element with the value, as topk_items lists them).
 *
 * Element by element they answer as topk_estimate and topk_bounds, with the
 * same errors.  A summary is a sorted list small enough to stay in the
 * caches, so the elements are looked up one by one, chunk by chunk (the
 * chunk reader bounds the memory of their canonical forms).
 */
#include "sketch_batch.h"
#include "topksketch.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"

/* The family check of topk_estimate, for each element. */
static void
check_element(void *target, const ValueKind *kind)
{
	const bs_topk *topk = (const bs_topk *) target;

	bs_check_value_family("topksketch", "summary", BS_TOPK_FORMAT_VERSION, topk->version,
						  topk->family, topk->type_tag, kind);
}

/* The summary argument and a reader of the array argument. */
static const bs_topk *
start_lookup(FunctionCallInfo fcinfo, BatchReader *reader)
{
	const BatchKind *kind = bs_batch_kind(fcinfo, 1, (BatchKind **) &fcinfo->flinfo->fn_extra);
	const bs_topk *topk = bs_topk_stored_arg(fcinfo, 0);

	bs_batch_reader_init(reader, fcinfo, 1, kind, check_element, (void *) topk);
	return topk;
}

/* The summary's entry for non-NULL element `key` of the chunk; false when unlisted. */
static bool
find_key(const bs_topk *topk, const BatchChunk *chunk, int key, bs_topk_entry *entry)
{
	return bs_topk_find(topk, chunk->key[key].data, (uint32) chunk->key[key].length, entry);
}

PG_FUNCTION_INFO_V1(topk_estimate_each);
/* topk_estimate_each(summary, values): topk_estimate of each element, in order; NULL for NULL. */
Datum
topk_estimate_each(PG_FUNCTION_ARGS)
{
	BatchReader reader;
	BatchResult result;
	const bs_topk *topk = start_lookup(fcinfo, &reader);

	bs_batch_result_init(&result, reader.elements, reader.nulls, INT8OID, 8,
						 "topk_estimate_each");
	while (bs_batch_next_chunk(&reader))
	{
		const BatchChunk *chunk = reader.chunk;
		int			key = 0;

		for (int i = 0; i < chunk->count; i++)
		{
			bs_topk_entry entry;

			if (chunk->isnull[i])
				bs_batch_result_null(&result);
			else
				/* at most the total of a valid summary, a bigint */
				bs_batch_result_int64(&result, find_key(topk, chunk, key++, &entry) ?
									  (int64) entry.lower : 0);
		}
	}
	PG_RETURN_ARRAYTYPE_P(result.array);
}

PG_FUNCTION_INFO_V1(topk_bounds_each);
/*
 * topk_bounds_each(summary, values): a row (value, lower, upper) per element,
 * in order: topk_bounds of the value, (0, max_error) when unlisted, and
 * (NULL, NULL, NULL) for a NULL element.
 */
Datum
topk_bounds_each(PG_FUNCTION_ARGS)
{
	BatchReader reader;
	const bs_topk *topk = start_lookup(fcinfo, &reader);
	TupleDesc	desc;
	Tuplestorestate *rows;

	if (get_call_result_type(fcinfo, NULL, &desc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "topk_bounds_each must be declared to return a record");
	rows = bs_batch_rows_init(fcinfo, desc);
	while (bs_batch_next_chunk(&reader))
	{
		const BatchChunk *chunk = reader.chunk;
		int			key = 0;

		for (int i = 0; i < chunk->count; i++)
		{
			Datum		values[3] = {chunk->values[i], Int64GetDatum(0),
			Int64GetDatum((int64) topk->error)};
			bool		nulls[3] = {false, false, false};
			bs_topk_entry entry;

			if (chunk->isnull[i])
				nulls[0] = nulls[1] = nulls[2] = true;
			else if (find_key(topk, chunk, key++, &entry))
			{
				values[1] = Int64GetDatum((int64) entry.lower);
				values[2] = Int64GetDatum((int64) bs_topk_upper_bound(topk, &entry));
			}
			tuplestore_putvalues(rows, desc, values, nulls);
		}
	}
	return (Datum) 0;
}
