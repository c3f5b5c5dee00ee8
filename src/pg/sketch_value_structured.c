/*
 * sketch_value_structured.c — canonical bytes of arrays, ranges, composites and
 * jsonb, element by element.
 *
 * SQL compares these types element by element with each element type's own
 * equality, so they are hashed the same way: each element becomes its
 * canonical bytes under the rules of sketch_value_family.c, length-prefixed so that
 * the whole form is self-delimiting.  What SQL equality ignores stays out:
 * the null bitmap of an array that holds no NULL, a composite's type OID,
 * the scale of a numeric, the encoding of a string, the order in which a
 * jsonb object's keys were sorted in another encoding.
 *
 *   array    'A', ndim (u32), then per dimension its length and lower bound
 *            (u32, i32), then per element a flag byte (0 NULL, 1 value) and
 *            the element's form
 *   range    'R', the range's flags byte, the lower bound's form if it has
 *            one, the upper bound's form if it has one
 *   record   'C', the number of live columns (u32), then per column a flag
 *            byte and the column's form
 *   jsonb    'n' null, 'f'/'t' boolean, 'N' number (normalized numeric),
 *            'S' string (UTF-8), 'A' array (count, elements; 'a' for the
 *            array that wraps a scalar document), 'O' object (count, then
 *            its key/value pairs' forms sorted bytewise)
 *   a scalar element: its canonical bytes' length (u32) and the bytes
 * All integers little-endian.  The type tag hashes the family signature, as
 * "array(integer)", "range(numeric)", "record(integer,text)" or "jsonb".
 */
#include "sketch_value_structured.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "funcapi.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/arrayaccess.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/rangetypes.h"
#include "utils/typcache.h"

static void
append_u32(StringInfo out, uint32 v)
{
	uint8		b[4] = {v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24};

	appendBinaryStringInfo(out, (const char *) b, 4);
}
/* A scalar element's canonical bytes, length-prefixed. */
static void
append_scalar(const ValueKind *kind, Datum value, StringInfo out)
{
	CanonicalBytes bytes;

	canonical_scalar_bytes(kind, value, &bytes);
	append_u32(out, (uint32) bytes.length);
	appendBinaryStringInfo(out, bytes.data, (int) bytes.length);
	canonical_release(&bytes);
}

static void
append_array(const ValueKind *kind, Datum value, StringInfo out)
{
	AnyArrayType *array = DatumGetAnyArrayP(value);
	int			ndim = AARR_NDIM(array);
	int		   *dims = AARR_DIMS(array);
	int		   *lbounds = AARR_LBOUND(array);
	array_iter	iter;
	int			count = ArrayGetNItems(ndim, dims);

	appendStringInfoChar(out, 'A');
	append_u32(out, (uint32) ndim);
	for (int i = 0; i < ndim; i++)
	{
		append_u32(out, (uint32) dims[i]);
		append_u32(out, (uint32) lbounds[i]);
	}
	array_iter_setup(&iter, array);
	for (int i = 0; i < count; i++)
	{
		bool		isnull;
		Datum		element;

		if ((i & 4095) == 4095)
			CHECK_FOR_INTERRUPTS();
		element = array_iter_next(&iter, &isnull, i, kind->element_length,
								  kind->element_byval, kind->element_align);

		appendStringInfoChar(out, isnull ? 0 : 1);
		if (!isnull)
			bs_canonical_append(kind->element, element, out);
	}
}

static void
append_range(const ValueKind *kind, Datum value, StringInfo out)
{
	RangeType  *range = DatumGetRangeTypeP(value);
	RangeBound	lower;
	RangeBound	upper;
	bool		empty;

	range_deserialize(kind->range_type, range, &lower, &upper, &empty);
	appendStringInfoChar(out, 'R');
	/* which bounds exist and are inclusive; GiST's internal flags left out */
	appendStringInfoChar(out, (char) (range_get_flags(range) &
									  (RANGE_EMPTY | RANGE_LB_INC | RANGE_UB_INC |
									   RANGE_LB_INF | RANGE_UB_INF)));
	if (!empty && !lower.infinite)
		bs_canonical_append(kind->element, lower.val, out);
	if (!empty && !upper.infinite)
		bs_canonical_append(kind->element, upper.val, out);
}

static void
append_record(const ValueKind *kind, Datum value, StringInfo out)
{
	HeapTupleHeader header = DatumGetHeapTupleHeader(value);
	RecordKind *record = kind->record;
	HeapTupleData tuple;
	uint32		live = 0;

	bs_record_resolve(kind, HeapTupleHeaderGetTypeId(header), HeapTupleHeaderGetTypMod(header));
	tuple.t_len = HeapTupleHeaderGetDatumLength(header);
	ItemPointerSetInvalid(&tuple.t_self);
	tuple.t_tableOid = InvalidOid;
	tuple.t_data = header;
	heap_deform_tuple(&tuple, record->tupdesc, record->values, record->nulls);
	for (int i = 0; i < record->tupdesc->natts; i++)
		if (!TupleDescAttr(record->tupdesc, i)->attisdropped)
			live++;
	appendStringInfoChar(out, 'C');
	append_u32(out, live);
	for (int i = 0; i < record->tupdesc->natts; i++)
	{
		if (TupleDescAttr(record->tupdesc, i)->attisdropped)
			continue;
		appendStringInfoChar(out, record->nulls[i] ? 0 : 1);
		if (!record->nulls[i])
			bs_canonical_append(&record->columns[i], record->values[i], out);
	}
}

static void append_jsonb_container(JsonbContainer *container, StringInfo out);

/* A jsonb string as UTF-8, length-prefixed. */
static void
append_jsonb_string(const char *data, int length, StringInfo out)
{
	char	   *utf8 = pg_server_to_any(data, length, PG_UTF8);

	if (utf8 != data)
		length = strlen(utf8);
	appendStringInfoChar(out, 'S');
	append_u32(out, (uint32) length);
	appendBinaryStringInfo(out, utf8, length);
	if (utf8 != data)
		pfree(utf8);
}

static void
append_jsonb_value(const JsonbValue *v, StringInfo out)
{
	switch (v->type)
	{
		case jbvNull:
			appendStringInfoChar(out, 'n');
			break;
		case jbvBool:
			appendStringInfoChar(out, v->val.boolean ? 't' : 'f');
			break;
		case jbvNumeric:
			{
				char	   *s = numeric_normalize(v->val.numeric);

				appendStringInfoChar(out, 'N');
				append_u32(out, (uint32) strlen(s));
				appendStringInfoString(out, s);
				pfree(s);
				break;
			}
		case jbvString:
			append_jsonb_string(v->val.string.val, v->val.string.len, out);
			break;
		case jbvBinary:
			append_jsonb_container(v->val.binary.data, out);
			break;
		default:
			elog(ERROR, "unexpected jsonb value type %d", (int) v->type);
	}
}

static int
compare_pair_forms(const void *a, const void *b)
{
	const StringInfoData *x = (const StringInfoData *) a;
	const StringInfoData *y = (const StringInfoData *) b;
	int			c = memcmp(x->data, y->data, Min(x->len, y->len));

	return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

/* A jsonb array or object; an object's pairs in bytewise order of their forms. */
static void
append_jsonb_container(JsonbContainer *container, StringInfo out)
{
	JsonbIterator *it;
	JsonbValue	v;
	JsonbIteratorToken token;

	check_stack_depth();		/* a document nests as deep as its input did */
	CHECK_FOR_INTERRUPTS();
	it = JsonbIteratorInit(container);
	token = JsonbIteratorNext(&it, &v, true);

	if (token == WJB_BEGIN_ARRAY)
	{
		appendStringInfoChar(out, v.val.array.rawScalar ? 'a' : 'A');
		append_u32(out, (uint32) v.val.array.nElems);
		while ((token = JsonbIteratorNext(&it, &v, true)) == WJB_ELEM)
			append_jsonb_value(&v, out);
	}
	else if (token == WJB_BEGIN_OBJECT)
	{
		int			count = v.val.object.nPairs;
		StringInfoData *pairs = palloc(sizeof(StringInfoData) * Max(count, 1));
		int			used = 0;

		while ((token = JsonbIteratorNext(&it, &v, true)) == WJB_KEY && used < count)
		{
			initStringInfo(&pairs[used]);
			append_jsonb_value(&v, &pairs[used]);
			if (JsonbIteratorNext(&it, &v, true) != WJB_VALUE)
				elog(ERROR, "jsonb object key without a value");
			append_jsonb_value(&v, &pairs[used]);
			used++;
		}
		qsort(pairs, used, sizeof(StringInfoData), compare_pair_forms);
		appendStringInfoChar(out, 'O');
		append_u32(out, (uint32) used);
		for (int i = 0; i < used; i++)
		{
			appendBinaryStringInfo(out, pairs[i].data, pairs[i].len);
			pfree(pairs[i].data);
		}
		pfree(pairs);
	}
	else
		elog(ERROR, "unexpected jsonb iterator token %d", (int) token);
}

void
bs_canonical_append(const ValueKind *kind, Datum value, StringInfo out)
{
	check_stack_depth();		/* values nest: arrays of records of arrays */
	if (!value_kind_is_structured(kind))
	{
		append_scalar(kind, value, out);
		return;
	}
	switch (kind->other)
	{
		case OTHER_ARRAY:
			append_array(kind, value, out);
			break;
		case OTHER_RANGE:
			append_range(kind, value, out);
			break;
		case OTHER_RECORD:
			append_record(kind, value, out);
			break;
		case OTHER_JSONB:
			append_jsonb_container(&DatumGetJsonbP(value)->root, out);
			break;
		default:
			elog(ERROR, "unexpected bloomsketch value form %u", kind->other);
	}
}

void
bs_structured_canonical(const ValueKind *kind, Datum value, CanonicalBytes *out)
{
	StringInfoData buffer;

	initStringInfo(&buffer);
	bs_canonical_append(kind, value, &buffer);
	out->allocated = buffer.data;
	out->data = buffer.data;
	out->length = buffer.len;
}
