/*
 * sketch_batch.h — the arrays of the element-wise functions (bloom_*_each,
 * cms_*_each, topk_*_each, bloom_members): their elements read chunk by
 * chunk as canonical bytes, and their result arrays built once
 * (sketch_batch.c).
 */
#ifndef SKETCH_BATCH_H
#define SKETCH_BATCH_H

#include "bloomsketch.h"

#include "funcapi.h"
#include "utils/array.h"
#include "utils/tuplestore.h"

#include "../core/bloom/bs_batch.h"
#include "../core/cms/bs_cms_batch.h"

/*
 * Checks that the value the chunk reader has just made canonical fits the
 * filter, sketch or summary (22023 otherwise); called once per non-NULL
 * element, after its bytes, so that anonymous records are checked by their
 * own row type.
 */
typedef void (*BatchFamilyCheck) (void *target, const ValueKind *kind);

/* The element kind of an array argument, per call site. */
typedef struct BatchKind
{
	Oid			array_type;		/* InvalidOid until the first call */
	ValueKind	kind;			/* of the element type */
	int16		element_length;
	bool		element_byval;
	char		element_align;
} BatchKind;

/* One chunk of an array's elements: the non-NULL ones as canonical bytes. */
typedef struct BatchChunk
{
	int			count;			/* elements read, NULL ones included */
	int			keys;			/* of them non-NULL: keys[0 .. keys - 1] */
	bool		fixed_keys;		/* their bytes also lie end to end in fixed, 8 each */
	bool		isnull[BS_BATCH_CHUNK];
	Datum		values[BS_BATCH_CHUNK]; /* the elements (valid while the array is) */
	bs_key		key[BS_BATCH_CHUNK];
	uint8		fixed[BS_BATCH_CHUNK][8];	/* the bytes of 8-byte canonical forms */
	CanonicalBytes bytes[BS_BATCH_CHUNK];	/* the others' */
} BatchChunk;

/* An array argument read chunk by chunk. */
typedef struct BatchReader
{
	ArrayType  *array;			/* detoasted once; NULL when datums are read */
	ArrayIterator iterator;		/* over array, for the kinds not read directly */
	Datum	   *datums;			/* an expanded array's elements, or NULL */
	bool	   *datum_nulls;		/* their NULL flags, or NULL when none is */
	Oid			element_type;
	int			elements;		/* all of them, in storage order */
	int			nulls;			/* how many are NULL */
	int			read;			/* elements read so far */
	const ValueKind *kind;
	BatchFamilyCheck check;
	void	   *target;
	BatchChunk *chunk;
	MemoryContext chunk_context;	/* the chunk's canonical forms, reset per chunk */
	/* integers, dates and timestamps: read straight from the array's data or Datums */
	bool		direct;
	const char *data;			/* the next element's bytes */
	bits8	   *bitmap;			/* the array's NULL bitmap, or NULL */
	int16		element_length;
} BatchReader;

/*
 * The element kind of argument arg (an anyarray), looked up once per call
 * site in *cache; refuses element types that anyelement refuses (citext,
 * enums) with the same errors.
 */
const BatchKind *bs_batch_kind(FunctionCallInfo fcinfo, int arg, BatchKind **cache);

/* Start reading argument arg's elements; check (may be NULL) runs on each. */
void		bs_batch_reader_init(BatchReader *reader, FunctionCallInfo fcinfo, int arg,
								 const BatchKind *kind, BatchFamilyCheck check, void *target);

/* Read the next chunk into reader->chunk; false when no element is left. */
bool		bs_batch_next_chunk(BatchReader *reader);

/*
 * The rows of a set-returning function, returned all at once in a
 * tuplestore of the given columns (which spills to disk past work_mem);
 * 0A000 where the caller cannot take a set.
 */
Tuplestorestate *bs_batch_rows_init(FunctionCallInfo fcinfo, TupleDesc desc);

/* A one-dimensional result array of n elements of a fixed-size type, filled in order. */
typedef struct BatchResult
{
	ArrayType  *array;
	char	   *data;			/* where the next non-NULL element goes */
	bits8	   *null_bitmap;	/* NULL when there are no NULL elements */
	int			next;			/* elements put so far */
	int			element_size;
} BatchResult;

/*
 * An array of elements (lower bound 1) of type element_type, element_size
 * bytes each (1 for boolean, 8 for bigint), nulls of them NULL; 54000 when
 * it would pass PostgreSQL's 1 GB limit.  function names the caller.
 */
void		bs_batch_result_init(BatchResult *result, int elements, int nulls,
								 Oid element_type, int element_size, const char *function);

/* Put the next element: a NULL, a boolean or a bigint. */
void		bs_batch_result_null(BatchResult *result);

static inline void
bs_batch_result_bool(BatchResult *result, bool value)
{
	*result->data = (char) value;
	result->data += 1;
	if (result->null_bitmap != NULL)
		result->null_bitmap[result->next / 8] |= (bits8) (1 << (result->next % 8));
	result->next++;
}

/*
 * Room for the next n elements, all non-NULL booleans, which the caller
 * writes there in order; only for a result without NULL elements.
 */
static inline bool *
bs_batch_result_bools(BatchResult *result, int n)
{
	bool	   *at = (bool *) result->data;

	Assert(result->null_bitmap == NULL);
	result->data += n;
	result->next += n;
	return at;
}

static inline void
bs_batch_result_int64(BatchResult *result, int64 value)
{
	memcpy(result->data, &value, sizeof(value));
	result->data += sizeof(value);
	if (result->null_bitmap != NULL)
		result->null_bitmap[result->next / 8] |= (bits8) (1 << (result->next % 8));
	result->next++;
}

#endif							/* SKETCH_BATCH_H */
