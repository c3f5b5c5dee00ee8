/*
 * bloomfilter_batch.c — a filter and many values in one call: the membership of
 * each element of an array (bloom_contains_each), of all or any of them
 * (bloom_contains_all, bloom_contains_any), the elements that may be members
 * (bloom_members, the semi-join helper) and a filter with every element
 * added (bloom_add_each).
 *
 * Each answers, element by element, what bloom_contains and bloom_add
 * answer for one value, with the same errors (a value of another family is
 * refused with 22023, a partial state of bloom_fit_agg too); the work goes
 * chunk by chunk through the core's batch calls (bs_batch.h), which overlap
 * the cache misses of many values.  NULL elements are no values: their
 * answer is NULL, and they are neither members nor added.
 */
#include "sketch_batch.h"
#include "sketch_stored_cache.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"

typedef struct BloomBatchCache
{
	BatchKind  *kind;
	StoredCache *stored;		/* detoasted stored filters, as bloom_contains keeps them */
} BloomBatchCache;

static BloomBatchCache *
bloom_batch_cache(FunctionCallInfo fcinfo)
{
	if (fcinfo->flinfo->fn_extra == NULL)
		fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
														  sizeof(BloomBatchCache));
	return (BloomBatchCache *) fcinfo->flinfo->fn_extra;
}

static void
check_shape_or_error(const struct varlena *value)
{
	bs_error	err;

	if (bs_bloom_check_shape((const bs_bloom *) value, VARSIZE(value), &err) != BS_OK)
		bs_report_corrupt(&err);
}

/* The family check of bloom_contains, for each element. */
static void
check_element(void *target, const ValueKind *kind)
{
	check_family((const bs_bloom *) target, kind);
}

/* The family adoption of bloom_add, for each element. */
static void
adopt_element(void *target, const ValueKind *kind)
{
	adopt_family((bs_bloom *) target, kind);
}

/*
 * A filter to probe with the values of argument 1: the filter argument,
 * detoasted through the call site's cache, and a reader of the array.
 * An empty filter (no family yet) answers false for every value and checks
 * no family, as bloom_contains does.
 */
static const bs_bloom *
start_probe(FunctionCallInfo fcinfo, BatchReader *reader, bs_probe *probe)
{
	BloomBatchCache *cache = bloom_batch_cache(fcinfo);
	const BatchKind *kind = bs_batch_kind(fcinfo, 1, &cache->kind);
	const bs_bloom *filter;

	filter = (const bs_bloom *) bs_stored_value_arg(fcinfo, 0, &cache->stored,
													check_shape_or_error);
	bs_batch_reader_init(reader, fcinfo, 1, kind,
						 filter->family == BS_FAMILY_NONE ? NULL : check_element,
						 (void *) filter);
	bs_probe_for(probe, filter);
	return filter;
}

/* The answers for the chunk's non-NULL elements (in answers[0 .. keys - 1] unless NULL); returns the hits. */
static size_t
probe_chunk(const bs_bloom *filter, const bs_probe *probe, const BatchChunk *chunk,
			bool *answers)
{
	if (filter->family == BS_FAMILY_NONE)
	{
		if (answers != NULL)
			memset(answers, 0, chunk->keys * sizeof(bool));
		return 0;
	}
	if (chunk->fixed_keys)
		return bs_bloom_test_batch(filter, probe, chunk->fixed, 8, chunk->keys, answers);
	return bs_bloom_test_keys(filter, probe, chunk->key, chunk->keys, answers);
}

PG_FUNCTION_INFO_V1(bloom_contains_each);
/* bloom_contains_each(filter, values): bloom_contains of each element, in order; NULL for NULL. */
Datum
bloom_contains_each(PG_FUNCTION_ARGS)
{
	BatchReader reader;
	BatchResult result;
	bs_probe	probe;
	const bs_bloom *filter = start_probe(fcinfo, &reader, &probe);
	bool	   *answers = palloc(BS_BATCH_CHUNK * sizeof(bool));

	bs_batch_result_init(&result, reader.elements, reader.nulls, BOOLOID, 1,
						 "bloom_contains_each");
	while (bs_batch_next_chunk(&reader))
	{
		const BatchChunk *chunk = reader.chunk;
		int			key = 0;

		/* without NULL elements the answers go straight into the result */
		if (result.null_bitmap == NULL)
		{
			probe_chunk(filter, &probe, chunk, bs_batch_result_bools(&result, chunk->count));
			continue;
		}
		probe_chunk(filter, &probe, chunk, answers);
		for (int i = 0; i < chunk->count; i++)
		{
			if (chunk->isnull[i])
				bs_batch_result_null(&result);
			else
				bs_batch_result_bool(&result, answers[key++]);
		}
	}
	PG_RETURN_ARRAYTYPE_P(result.array);
}

/*
 * Whether every non-NULL element (want_all) or some non-NULL element may be
 * a member; stops at the first chunk that decides.
 */
static bool
contains_all_or_any(FunctionCallInfo fcinfo, bool want_all)
{
	BatchReader reader;
	bs_probe	probe;
	const bs_bloom *filter = start_probe(fcinfo, &reader, &probe);

	while (bs_batch_next_chunk(&reader))
	{
		size_t		hits = probe_chunk(filter, &probe, reader.chunk, NULL);

		if (want_all && hits < (size_t) reader.chunk->keys)
			return false;
		if (!want_all && hits > 0)
			return true;
	}
	return want_all;
}

PG_FUNCTION_INFO_V1(bloom_contains_all);
/* bloom_contains_all(filter, values): true when every non-NULL element may be a member. */
Datum
bloom_contains_all(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(contains_all_or_any(fcinfo, true));
}

PG_FUNCTION_INFO_V1(bloom_contains_any);
/* bloom_contains_any(filter, values): true when some non-NULL element may be a member. */
Datum
bloom_contains_any(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(contains_all_or_any(fcinfo, false));
}

/*
 * The rows of bloom_members: one column of the element type, or, for a
 * composite element, its columns, as a function returning SETOF that type
 * returns them (the executor's description of them when it gives one).
 */
static TupleDesc
members_desc(FunctionCallInfo fcinfo, Oid element, bool *composite)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	desc;

	*composite = type_is_rowtype(element);
	if (*composite)
	{
		if (rsinfo != NULL && IsA(rsinfo, ReturnSetInfo) && rsinfo->expectedDesc != NULL)
			return rsinfo->expectedDesc;
		return lookup_rowtype_tupdesc_copy(element, -1);
	}
	desc = CreateTemplateTupleDesc(1);
	TupleDescInitEntry(desc, (AttrNumber) 1, "value", element, -1, 0);
	return desc;
}

/* Add an element to the rows: as one column, or as the columns of a composite. */
static void
put_member(Tuplestorestate *rows, TupleDesc desc, bool composite, Datum value)
{
	bool		isnull = false;

	if (composite)
	{
		HeapTupleHeader header = DatumGetHeapTupleHeader(value);
		HeapTupleData tuple;

		tuple.t_len = HeapTupleHeaderGetDatumLength(header);
		ItemPointerSetInvalid(&tuple.t_self);
		tuple.t_tableOid = InvalidOid;
		tuple.t_data = header;
		tuplestore_puttuple(rows, &tuple);
	}
	else
		tuplestore_putvalues(rows, desc, &value, &isnull);
}

PG_FUNCTION_INFO_V1(bloom_members);
/* bloom_members(filter, values): the elements that may be members, in order, as rows. */
Datum
bloom_members(PG_FUNCTION_ARGS)
{
	BatchReader reader;
	bs_probe	probe;
	const bs_bloom *filter = start_probe(fcinfo, &reader, &probe);
	bool	   *answers = palloc(BS_BATCH_CHUNK * sizeof(bool));
	bool		composite;
	TupleDesc	desc = members_desc(fcinfo, reader.element_type, &composite);
	Tuplestorestate *rows = bs_batch_rows_init(fcinfo, desc);

	while (bs_batch_next_chunk(&reader))
	{
		const BatchChunk *chunk = reader.chunk;
		int			key = 0;

		probe_chunk(filter, &probe, chunk, answers);
		for (int i = 0; i < chunk->count; i++)
			if (!chunk->isnull[i] && answers[key++])
				put_member(rows, desc, composite, chunk->values[i]);
	}
	return (Datum) 0;
}

PG_FUNCTION_INFO_V1(bloom_add_each);
/* bloom_add_each(filter, values): a copy of the filter with every non-NULL element added. */
Datum
bloom_add_each(PG_FUNCTION_ARGS)
{
	BloomBatchCache *cache;
	const BatchKind *kind;
	BatchReader reader;
	bs_bloom   *filter;
	bs_probe	probe;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	cache = bloom_batch_cache(fcinfo);
	kind = bs_batch_kind(fcinfo, 1, &cache->kind);
	filter = (bs_bloom *) bs_detoast_copy(PG_GETARG_DATUM(0));
	check_shape_or_error((struct varlena *) filter);
	bs_probe_for(&probe, filter);
	bs_batch_reader_init(&reader, fcinfo, 1, kind, adopt_element, filter);
	while (bs_batch_next_chunk(&reader))
	{
		const BatchChunk *chunk = reader.chunk;

		if (chunk->fixed_keys)
			bs_bloom_add_batch(filter, &probe, chunk->fixed, 8, chunk->keys);
		else
			bs_bloom_add_keys(filter, &probe, chunk->key, chunk->keys);
	}
	PG_RETURN_POINTER(filter);
}
