/*
 * sketch_batch.c — reading the array argument of an element-wise function
 * and building its result array.
 *
 * The array is read once, as PostgreSQL hands it over: a stored or flat
 * array is detoasted (PG_GETARG_ANY_ARRAY_P) and its elements read in
 * storage order with PostgreSQL's array iterator, which hands out each
 * element in place; an expanded array (a PL/pgSQL variable, say) that holds
 * its elements as Datums is read from them, without flattening it on every
 * call.  Either way a multi-dimensional array is read as unnest reads it,
 * and its lower bounds play no part.  The non-NULL elements of a chunk of
 * BS_BATCH_CHUNK become canonical bytes (sketch_value.h) in a memory context
 * reset for every chunk, so that whatever their canonical forms allocate
 * stays bounded by one chunk however long the array; the core then hashes,
 * prefetches and probes the chunk (bs_batch.h).  Results of a fixed-size
 * element type are written straight into one array allocated at its final
 * size, without a Datum per element.
 */
#include "sketch_batch.h"

#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"

const BatchKind *
bs_batch_kind(FunctionCallInfo fcinfo, int arg, BatchKind **cache)
{
	Oid			array_type = get_fn_expr_argtype(fcinfo->flinfo, arg);
	BatchKind  *kind = *cache;
	Oid			element;

	if (kind != NULL && kind->array_type == array_type && OidIsValid(array_type))
		return kind;
	if (kind == NULL)
		kind = *cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(BatchKind));
	element = OidIsValid(array_type) ? get_base_element_type(array_type) : InvalidOid;
	if (!OidIsValid(element))
		ereport(ERROR,
				(errcode(ERRCODE_INDETERMINATE_DATATYPE),
				 errmsg("could not determine the element type of the values"),
				 errhint("Pass a typed array, for example ARRAY[1, 2, 3]::bigint[].")));
	/* the element's kind: the same refusals (citext, enums) as a single value */
	bs_value_kind_init(&kind->kind, element, PG_GET_COLLATION(), fcinfo->flinfo->fn_mcxt);
	get_typlenbyvalalign(element, &kind->element_length, &kind->element_byval,
						 &kind->element_align);
	kind->array_type = array_type;
	return kind;
}

/* How many of an expanded array's elements are NULL, from its flags. */
static int
count_null_flags(const bool *flags, int elements)
{
	int			nulls = 0;

	if (flags == NULL)
		return 0;
	for (int i = 0; i < elements; i++)
		nulls += flags[i];
	return nulls;
}

/* How many elements of the array are NULL, from its bitmap. */
static int
count_nulls(ArrayType *array, int elements)
{
	bits8	   *bitmap = ARR_NULLBITMAP(array);
	int			nulls = 0;

	if (bitmap == NULL)
		return 0;
	for (int i = 0; i < elements; i++)
		nulls += (bitmap[i / 8] & (1 << (i % 8))) == 0;
	return nulls;
}

/*
 * Families whose canonical form is 8 bytes made from the Datum alone
 * (canonical_bytes, bloomsketch.h), whose values have one family and tag.
 */
static bool
direct_family(const ValueKind *kind)
{
	return kind->family == BS_FAMILY_INTEGER || kind->family == BS_FAMILY_DATE ||
		kind->family == BS_FAMILY_TIMESTAMP || kind->family == BS_FAMILY_TIMESTAMPTZ;
}

/*
 * Point the reader at its array: the Datums of an expanded array that has
 * them, otherwise a flat array (an expanded array's own flat copy, or the
 * argument detoasted).
 */
static void
open_array(BatchReader *reader, FunctionCallInfo fcinfo, int arg)
{
	AnyArrayType *any = PG_GETARG_ANY_ARRAY_P(arg);

	reader->datums = NULL;
	reader->datum_nulls = NULL;
	reader->array = NULL;
	if (VARATT_IS_EXPANDED_HEADER(any) && any->xpn.dvalues != NULL)
	{
		reader->datums = any->xpn.dvalues;
		reader->datum_nulls = any->xpn.dnulls;
		reader->elements = any->xpn.nelems;
		reader->nulls = count_null_flags(reader->datum_nulls, reader->elements);
		reader->element_type = any->xpn.element_type;
		return;
	}
	reader->array = VARATT_IS_EXPANDED_HEADER(any) ? any->xpn.fvalue : &any->flt;
	reader->elements = ArrayGetNItems(ARR_NDIM(reader->array), ARR_DIMS(reader->array));
	reader->nulls = count_nulls(reader->array, reader->elements);
	reader->element_type = ARR_ELEMTYPE(reader->array);
}

void
bs_batch_reader_init(BatchReader *reader, FunctionCallInfo fcinfo, int arg,
					 const BatchKind *kind, BatchFamilyCheck check, void *target)
{
	open_array(reader, fcinfo, arg);
	reader->read = 0;
	reader->kind = &kind->kind;
	reader->check = check;
	reader->target = target;
	reader->chunk = palloc(sizeof(BatchChunk));
	reader->chunk_context = AllocSetContextCreate(CurrentMemoryContext, "bloomsketch batch chunk",
												  ALLOCSET_DEFAULT_SIZES);
	reader->direct = direct_family(&kind->kind) && kind->element_byval &&
		(kind->element_length == 8 || kind->element_length == 4 || kind->element_length == 2);
	reader->element_length = kind->element_length;
	reader->iterator = NULL;
	reader->data = NULL;
	reader->bitmap = NULL;
	if (reader->array == NULL)
		return;
	reader->data = ARR_DATA_PTR(reader->array);
	reader->bitmap = ARR_NULLBITMAP(reader->array);
	if (!reader->direct)
	{
		/* the element type's storage, so that the iterator looks nothing up */
		ArrayMetaState *meta = palloc0(sizeof(ArrayMetaState));

		meta->element_type = reader->element_type;
		meta->typlen = kind->element_length;
		meta->typbyval = kind->element_byval;
		meta->typalign = kind->element_align;
		reader->iterator = array_create_iterator(reader->array, 0, meta);
	}
}

/*
 * The element at index (the next one in storage order), into *value; true
 * when it is NULL.  Reads the expanded array's Datums, or a flat array's
 * data directly for the direct kinds, or through the iterator.
 */
static inline bool
next_element(BatchReader *reader, int index, Datum *value)
{
	bool		isnull;

	if (reader->datums != NULL)
	{
		*value = reader->datums[index];
		return reader->datum_nulls != NULL && reader->datum_nulls[index];
	}
	if (!reader->direct)
	{
		if (!array_iterate(reader->iterator, value, &isnull))
			elog(ERROR, "array has fewer elements than its dimensions say");
		return isnull;
	}
	if (reader->bitmap != NULL && (reader->bitmap[index / 8] & (1 << (index % 8))) == 0)
		return true;
	*value = reader->element_length == 8 ? Int64GetDatum(*(const int64 *) reader->data) :
		reader->element_length == 4 ? Int32GetDatum(*(const int32 *) reader->data) :
		Int16GetDatum(*(const int16 *) reader->data);
	reader->data += reader->element_length;
	return false;
}

/*
 * read_direct for the commonest array, bigint without NULL elements: a
 * bigint's canonical bytes are its value little-endian (canonical_bytes),
 * so one pass copies the chunk's values and lays out their keys.
 */
static void
read_bigints(BatchReader *reader, int count)
{
	BatchChunk *chunk = reader->chunk;
	const char *data = reader->data;

	for (int i = 0; i < count; i++)
	{
		int64		value;

		memcpy(&value, data + 8 * i, sizeof(value));
		chunk->values[i] = Int64GetDatum(value);
		store_le64(chunk->fixed[i], (uint64) value);
		chunk->key[i].data = chunk->fixed[i];
		chunk->key[i].length = 8;
	}
	memset(chunk->isnull, 0, count * sizeof(bool));
	reader->data += 8 * count;
	chunk->count = count;
	chunk->keys = count;
	chunk->fixed_keys = true;
	if (count > 0 && reader->check != NULL)
		reader->check(reader->target, reader->kind);
}

/*
 * The direct path of bs_batch_next_chunk: a pass-by-value element of 2, 4
 * or 8 bytes, whose 8 canonical bytes are made from the Datum alone and
 * laid end to end in chunk->fixed, where the core's loops for keys of one
 * width (bs_bloom_test_batch, bs_bloom_add_batch) read them.  The family is checked once a chunk: these kinds
 * have no row types.
 */
static void
read_direct(BatchReader *reader)
{
	BatchChunk *chunk = reader->chunk;
	int			count = Min(BS_BATCH_CHUNK, reader->elements - reader->read);

	if (reader->datums == NULL && reader->bitmap == NULL && reader->element_length == 8 &&
		reader->kind->family == BS_FAMILY_INTEGER)
	{
		read_bigints(reader, count);
		return;
	}

	for (int i = 0; i < count; i++)
	{
		CanonicalBytes bytes;
		Datum		value = (Datum) 0;

		chunk->isnull[i] = next_element(reader, reader->read + i, &value);
		if (chunk->isnull[i])
			continue;
		chunk->values[i] = value;
		canonical_bytes(reader->kind, value, &bytes);
		memcpy(chunk->fixed[chunk->keys], bytes.data, 8);
		chunk->key[chunk->keys].data = chunk->fixed[chunk->keys];
		chunk->key[chunk->keys].length = 8;
		chunk->keys++;
	}
	chunk->count = count;
	chunk->fixed_keys = true;
	if (chunk->keys > 0 && reader->check != NULL)
		reader->check(reader->target, reader->kind);
}

bool
bs_batch_next_chunk(BatchReader *reader)
{
	BatchChunk *chunk = reader->chunk;
	MemoryContext caller;
	Datum		value;
	bool		isnull;

	chunk->count = 0;
	chunk->keys = 0;
	chunk->fixed_keys = false;
	if (reader->read >= reader->elements)
		return false;
	if (reader->direct)
		read_direct(reader);
	else
	{
		MemoryContextReset(reader->chunk_context);
		caller = MemoryContextSwitchTo(reader->chunk_context);
		while (chunk->count < BS_BATCH_CHUNK && reader->read + chunk->count < reader->elements)
		{
			value = (Datum) 0;
			isnull = next_element(reader, reader->read + chunk->count, &value);
			chunk->isnull[chunk->count] = isnull;
			chunk->values[chunk->count] = value;
			chunk->count++;
			if (isnull)
				continue;
			canonical_bytes(reader->kind, value, &chunk->bytes[chunk->keys]);
			chunk->key[chunk->keys].data = chunk->bytes[chunk->keys].data;
			chunk->key[chunk->keys].length = chunk->bytes[chunk->keys].length;
			if (reader->check != NULL)
				reader->check(reader->target, reader->kind);
			chunk->keys++;
		}
		MemoryContextSwitchTo(caller);
	}
	reader->read += chunk->count;
	CHECK_FOR_INTERRUPTS();
	return chunk->count > 0;
}

void
bs_batch_result_init(BatchResult *result, int elements, int nulls, Oid element_type,
					 int element_size, const char *function)
{
	Size		overhead = nulls > 0 ? ARR_OVERHEAD_WITHNULLS(1, elements) : ARR_OVERHEAD_NONULLS(1);
	uint64		bytes = (uint64) overhead + (uint64) (elements - nulls) * (uint64) element_size;
	ArrayType  *array;

	result->next = 0;
	result->element_size = element_size;
	result->null_bitmap = NULL;
	if (elements == 0)
	{
		/* PostgreSQL's empty array has no dimensions */
		result->array = construct_empty_array(element_type);
		result->data = NULL;
		return;
	}
	if (!AllocSizeIsValid(bytes))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s result would be too large", function),
				 errdetail("The %d values would need an array of %llu bytes; the largest value is 1 GB.",
						   elements, (unsigned long long) bytes),
				 errhint("Pass the values in several smaller arrays.")));
	array = (ArrayType *) palloc0((Size) bytes);
	SET_VARSIZE(array, bytes);
	array->ndim = 1;
	array->dataoffset = nulls > 0 ? (int32) overhead : 0;
	array->elemtype = element_type;
	ARR_DIMS(array)[0] = elements;
	ARR_LBOUND(array)[0] = 1;
	result->array = array;
	result->data = ARR_DATA_PTR(array);
	if (nulls > 0)
		result->null_bitmap = ARR_NULLBITMAP(array);	/* zeroed: all NULL until put */
}

void
bs_batch_result_null(BatchResult *result)
{
	result->next++;				/* its bit stays 0 and it takes no data */
}

Tuplestorestate *
bs_batch_rows_init(FunctionCallInfo fcinfo, TupleDesc desc)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	MemoryContext caller;
	Tuplestorestate *rows;

	if (rsinfo == NULL || !IsA(rsinfo, ReturnSetInfo) ||
		(rsinfo->allowedModes & SFRM_Materialize) == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("set-valued function called in context that cannot accept a set")));
	caller = MemoryContextSwitchTo(rsinfo->econtext->ecxt_per_query_memory);
	desc = CreateTupleDescCopy(desc);
	rows = tuplestore_begin_heap((rsinfo->allowedModes & SFRM_Materialize_Random) != 0, false,
								 work_mem);
	MemoryContextSwitchTo(caller);
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = rows;
	rsinfo->setDesc = desc;
	return rows;
}
