/*
 * cmsketch_batch.c — a count-min sketch and many values in one call: the
 * estimate of each element of an array (cms_estimate_each) and a sketch
 * with every element counted (cms_add_each).
 *
 * Element by element they answer and count as cms_estimate and cms_add,
 * with the same errors, through the core's batch calls (bs_cms_batch.h).  NULL
 * elements are no values: their estimate is NULL and they count nothing.
 */
#include "sketch_batch.h"
#include "cmsketch.h"
#include "sketch_stored_cache.h"

#include "catalog/pg_type.h"

typedef struct CmsBatchCache
{
	BatchKind  *kind;
	StoredCache *stored;		/* detoasted stored sketches, as cms_estimate keeps them */
	bool		probe_ready;
	bs_cms_probe probe;
} CmsBatchCache;

static CmsBatchCache *
cms_batch_cache(FunctionCallInfo fcinfo)
{
	if (fcinfo->flinfo->fn_extra == NULL)
		fcinfo->flinfo->fn_extra = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt,
														  sizeof(CmsBatchCache));
	return (CmsBatchCache *) fcinfo->flinfo->fn_extra;
}

static void
check_stored_shape(const struct varlena *value)
{
	bs_cms_check_shape_or_error((const bs_cms *) value);
}

/* The family check of cms_estimate, for each element. */
static void
check_element(void *target, const ValueKind *kind)
{
	cms_check_family((const bs_cms *) target, kind);
}

/* The family adoption of cms_add, for each element. */
static void
adopt_element(void *target, const ValueKind *kind)
{
	cms_adopt_family((bs_cms *) target, kind);
}

PG_FUNCTION_INFO_V1(cms_estimate_each);
/* cms_estimate_each(sketch, values): cms_estimate of each element, in order; NULL for NULL. */
Datum
cms_estimate_each(PG_FUNCTION_ARGS)
{
	CmsBatchCache *cache = cms_batch_cache(fcinfo);
	const BatchKind *kind = bs_batch_kind(fcinfo, 1, &cache->kind);
	const bs_cms *cms = (const bs_cms *) bs_stored_value_arg(fcinfo, 0, &cache->stored,
															 check_stored_shape);
	bool		empty = cms->family == BS_FAMILY_NONE;
	const bs_cms_probe *probe = cms_probe_for(&cache->probe, &cache->probe_ready, cms);
	uint64	   *estimates = palloc0(BS_BATCH_CHUNK * sizeof(uint64));
	BatchReader reader;
	BatchResult result;

	/* an empty sketch estimates 0 for every value and checks no family, as cms_estimate */
	bs_batch_reader_init(&reader, fcinfo, 1, kind, empty ? NULL : check_element, (void *) cms);
	bs_batch_result_init(&result, reader.elements, reader.nulls, INT8OID, 8,
						 "cms_estimate_each");
	while (bs_batch_next_chunk(&reader))
	{
		const BatchChunk *chunk = reader.chunk;
		int			key = 0;

		if (!empty)
			bs_cms_estimate_keys(cms, probe, chunk->key, chunk->keys, estimates);
		for (int i = 0; i < chunk->count; i++)
		{
			if (chunk->isnull[i])
				bs_batch_result_null(&result);
			else
				bs_batch_result_int64(&result,
									  bs_cms_count_to_int64(estimates[key++], "estimate"));
		}
	}
	PG_RETURN_ARRAYTYPE_P(result.array);
}

/*
 * 22003 as cms_add raises it, for the first of `values` additions of count
 * that would take the total past bigint, if one would.
 */
static void
check_total(const bs_cms *cms, int values, int64 count)
{
	uint64		fitting;

	if (cms->total > (uint64) PG_INT64_MAX)
		bs_cms_total_range_error(cms->total, (uint64) count);
	if (count == 0)
		return;
	fitting = ((uint64) PG_INT64_MAX - cms->total) / (uint64) count;
	if (fitting < (uint64) values)
		bs_cms_total_range_error(cms->total + fitting * (uint64) count, (uint64) count);
}

PG_FUNCTION_INFO_V1(cms_add_each);
/*
 * cms_add_each(sketch, values, count): a copy with count occurrences of every
 * non-NULL element added; a NULL array or count adds nothing.
 */
Datum
cms_add_each(PG_FUNCTION_ARGS)
{
	CmsBatchCache *cache;
	const BatchKind *kind;
	BatchReader reader;
	bs_cms	   *cms;
	const bs_cms_probe *probe;
	int64		count;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1) || PG_ARGISNULL(2))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));
	count = PG_GETARG_INT64(2);
	cache = cms_batch_cache(fcinfo);
	kind = bs_batch_kind(fcinfo, 1, &cache->kind);
	cms = (bs_cms *) bs_detoast_copy(PG_GETARG_DATUM(0));
	bs_cms_check_shape_or_error(cms);
	probe = cms_probe_for(&cache->probe, &cache->probe_ready, cms);
	bs_batch_reader_init(&reader, fcinfo, 1, kind, adopt_element, cms);
	/* cms_add's checks, before any value is counted: the count, then the total */
	if (reader.elements > reader.nulls)
	{
		if (count < 0)
			bs_cms_negative_count_error(count);
		check_total(cms, reader.elements - reader.nulls, count);
	}
	while (bs_batch_next_chunk(&reader))
	{
		const BatchChunk *chunk = reader.chunk;
		size_t		added = bs_cms_add_keys(cms, probe, chunk->key, chunk->keys, (uint64) count);

		/* a counter would pass 2^64 - 1: cms_add's error for that value */
		if (added < (size_t) chunk->keys)
			bs_cms_add_error(cms, probe, chunk->key[added].data, chunk->key[added].length,
							 count);
	}
	PG_RETURN_POINTER(cms);
}
