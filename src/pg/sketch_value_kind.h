/*
 * sketch_value_kind.h — the kind of an SQL type's values: the family whose
 * canonical bytes they take and, for arrays, ranges and composites, the kinds
 * of what they hold (sketch_value_kind.c).  Resolved once per call site.
 */
#ifndef SKETCH_VALUE_KIND_H
#define SKETCH_VALUE_KIND_H

#include "postgres.h"
#include "pg_compat.h"

#include "access/tupdesc.h"
#include "fmgr.h"

#include "../core/bloom/bs_bloom.h"

/* Which canonical form a value of family BS_FAMILY_OTHER takes. */
typedef enum OtherForm
{
	OTHER_NONE = 0,
	OTHER_ARRAY,
	OTHER_RANGE,
	OTHER_RECORD,
	OTHER_JSONB,
	OTHER_TIME,
	OTHER_TIMETZ,
	OTHER_INTERVAL,
	OTHER_INET,
	OTHER_MACADDR
} OtherForm;

struct TypeCacheEntry;

/* How values of one SQL type become canonical bytes. */
typedef struct ValueKind
{
	Oid			typid;			/* the argument's type */
	uint8		family;			/* bs_family */
	uint32		type_tag;		/* BS_FAMILY_OTHER: hash of the signature */
	bool		is_bpchar;		/* text family: ignore trailing blanks */
	bool		is_name;		/* text family: fixed-size NUL-padded name */
	bool		is_char;		/* text family: the one-byte "char" type */
	bool		bytes_as_stored;	/* text or bytea hashed as its varlena's bytes */
	bool		to_utf8;		/* text family: convert from the database encoding */
	int16		int_width;		/* integer family: 2, 4 or 8 */
	bool		is_float4;		/* float family: widen from float4 */
	uint8		other;			/* BS_FAMILY_OTHER: OtherForm */
	/* arrays and ranges: the element's kind and storage */
	struct ValueKind *element;
	int16		element_length;
	bool		element_byval;
	char		element_align;
	struct TypeCacheEntry *range_type;
	/* records: the row type's column kinds, resolved per row type */
	struct RecordKind *record;
	MemoryContext context;
} ValueKind;

/* The column kinds of one row type, resolved from the first row of that type. */
typedef struct RecordKind
{
	Oid			row_type;		/* the row type resolved, InvalidOid before */
	int32		row_typmod;
	TupleDesc	tupdesc;		/* a copy */
	ValueKind  *columns;		/* per attribute; dropped ones unused */
	Datum	   *values;
	bool	   *nulls;
	char	   *signature;		/* "record(integer,text)" */
	uint32		tag;			/* its hash */
} RecordKind;

/*
 * The kind of values of type typid compared under collation, or an error
 * (0A000) for a type that has no canonical form.
 */
void		bs_value_kind_init(ValueKind *kind, Oid typid, Oid collation, MemoryContext context);

/* The kind of a function's argument argnum, in the function's memory context. */
void		bs_value_kind_for_arg(ValueKind *kind, FunctionCallInfo fcinfo, int argnum);

/*
 * The kind of an aggregate transition function's value argument (argument
 * 1).  Through a concrete overload (bloom_agg(text, ...)) the value may have
 * arrived by an implicit cast (citext, name and "char" to text): refused
 * unless the cast values hash as the uncast ones.
 */
void		bs_value_kind_for_agg_value(ValueKind *kind, FunctionCallInfo fcinfo);

/* The family signature behind a kind's type tag, e.g. "array(integer)". */
char	   *bs_value_kind_signature(const ValueKind *kind);

/*
 * Resolve a record kind for this row type (a no-op when it is the one seen
 * last): anonymous records learn their columns from their values.
 */
void		bs_record_resolve(const ValueKind *kind, Oid row_type, int32 row_typmod);

/* An anonymous record's tag: that of the row type hashed last. */
uint32		bs_record_kind_tag(const struct RecordKind *record);

/* The type tag to store and compare. */
static inline uint32
value_kind_tag(const ValueKind *kind)
{
	return likely(kind->record == NULL) ? kind->type_tag : bs_record_kind_tag(kind->record);
}

#endif							/* SKETCH_VALUE_KIND_H */
