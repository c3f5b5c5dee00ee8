/*
 * bloomsketch.h — declarations shared by the PostgreSQL layer.
 */
#ifndef BLOOMSKETCH_H
#define BLOOMSKETCH_H

#include "postgres.h"
#include "pg_compat.h"

#include "fmgr.h"
#include "lib/stringinfo.h"
#include "port/pg_bswap.h"

#include "../core/bloom/bs_bloom.h"
#include "../core/bloom/bs_bloom_codec.h"
#include "../core/bloom/bs_probe.h"

/* Where untrusted bytes came from: decides the SQLSTATE of a format error. */
typedef enum BsSource
{
	BS_SOURCE_TEXT,				/* 22P02 */
	BS_SOURCE_BINARY			/* 22P03 */
} BsSource;

/* 0A000 for a transition function called outside an aggregate. */
pg_noreturn void bs_not_in_aggregate_error(const char *function,
													 const char *instead);

/* Raise the error a core function reported. */
pg_noreturn void bs_report(const bs_error *err, BsSource source);

/*
 * Raise the failure of an update or merge of counts: 22003 for a count out
 * of range (BS_ERR_TOO_LARGE), else as bs_report does for binary input.
 */
pg_noreturn void bs_report_arith(const bs_error *err);

/* XX001 for a stored value whose header does not match its size. */
pg_noreturn void bs_report_corrupt(const bs_error *err);

/* ---- what the types share (sketch_io.c, sketch_compare.c, sketch_agg.c) ---- */

/*
 * A zeroed value of `size` bytes, its length word set, in the given context;
 * type_name names it in the can't-happen error beyond the allocation limit.
 */
void	   *bs_alloc_value(MemoryContext context, uint64 size, const char *type_name);

/*
 * A private, writable copy of a sketch argument (PG_DETOAST_DATUM_COPY), whose
 * copy of a plain value polls for interrupts: filters reach hundreds of MB.
 */
struct varlena *bs_detoast_copy(Datum value);

/* Transparent huge pages for a large value not yet touched (sketch_huge_pages.c). */
void		bs_advise_huge_pages(void *start, Size size);

/*
 * A value of the form's type from untrusted serialized bytes or text: the
 * core validator checks the header before anything sized by it is
 * allocated, and the words once loaded (22P03 for bytes, 22P02 for text).
 */
void	   *bs_value_from_serialized(const bs_form *form, const uint8 *data, size_t length);
void	   *bs_value_from_text(const bs_form *form, const char *text);

/* The text and serialized forms of a value (54000 beyond the allocation limit). */
char	   *bs_value_to_text(const bs_form *form, const void *value);
bytea	   *bs_value_to_bytea(const bs_form *form, const void *value);

/* Orders two detoasted values of one type (btree order, -1, 0 or 1). */
typedef int (*BsCompare) (const struct varlena *a, const struct varlena *b);

/*
 * Compare arguments 0 and 1: values with equal bytes are equal without
 * calling compare; detoasted copies are freed.
 */
int			bs_compare_args(FunctionCallInfo fcinfo, BsCompare compare);

/* hash and hash_extended support: a hash of argument 0's bytes. */
Datum		bs_hash_arg(FunctionCallInfo fcinfo);
Datum		bs_hash_extended_arg(FunctionCallInfo fcinfo);

/*
 * The state (argument 0) of a strict transition or combine function that
 * merges its input into it in place: a copy outside an aggregate.
 */
struct varlena *bs_merge_state_arg(FunctionCallInfo fcinfo);

/* ---- filters ---- */

/* A zeroed, empty filter of the scheme, m bits and k hashes in the given context. */
bs_bloom   *bs_bloom_alloc(MemoryContext context, uint8 scheme, uint64 bits,
						   uint32 hashes, uint64 seed);
/*
 * The same, with its bit array on a cache-line boundary inside a larger
 * chunk: never pfree it, its context frees it.
 */
bs_bloom   *bs_bloom_alloc_line_aligned(MemoryContext context, uint8 scheme, uint64 bits,
										uint32 hashes, uint64 seed);
/* Size a filter of the scheme for capacity/fpr (bs_scheme_sizing.h), raising 22023 or 54000. */
void		bs_size_or_error(uint8 scheme, int64 capacity, double fpr, uint64 *bits,
							 uint32 *hashes);

/* The scheme code of a scheme name, raising 22023 for an unknown name. */
uint8		bs_scheme_or_error(text *name);

#define DatumGetBloomP(d) ((bs_bloom *) DatumGetPointer(d))

/* 22023 when the filter is a partial state of bloom_fit_agg (bloomfilter_finished.c). */
void		bs_bloom_refuse_partial(const bs_bloom *filter);
/* Argument arg, detoasted, refusing a partial state of bloom_fit_agg. */
bs_bloom   *bs_bloom_arg(FunctionCallInfo fcinfo, int arg);
/* Refuse a partial state among the first count arguments, reading their headers only. */
void		bs_bloom_refuse_partial_args(FunctionCallInfo fcinfo, int count);

/* Estimates from the filter's set bits (bloomfilter_estimate.c). */
double		bs_bloom_estimated_items(const bs_bloom *filter);
/* False for a fit filter combined from different sizes, whose counts cannot be estimated. */
bool		bs_bloom_estimable(const bs_bloom *filter);

/* ---- value families (sketch_value_family.c, sketch_value_structured.c) ---- */

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

struct RecordKind;
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

/* The canonical bytes of one value; free with canonical_release. */
typedef struct CanonicalBytes
{
	const void *data;
	size_t		length;
	uint8		buffer[16];
	void	   *allocated;
} CanonicalBytes;

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

/* An anonymous record's tag: that of the row type hashed last. */
uint32		bs_record_kind_tag(const struct RecordKind *record);

/* The type tag to store and compare. */
static inline uint32
value_kind_tag(const ValueKind *kind)
{
	return likely(kind->record == NULL) ? kind->type_tag : bs_record_kind_tag(kind->record);
}

/* canonical_bytes for the families whose bytes live in a varlena or need work. */
void		bs_canonical_bytes_general(const ValueKind *kind, Datum value, CanonicalBytes *out);

/* Structured values (sketch_value_structured.c): kinds and canonical forms. */
bool		bs_structured_kind_init(ValueKind *kind, Oid base, Oid collation);
void		bs_structured_canonical(const ValueKind *kind, Datum value, CanonicalBytes *out);
char	   *bs_structured_signature(const ValueKind *kind);
/* Append a nested value's self-delimiting canonical form. */
void		bs_canonical_append(const ValueKind *kind, Datum value, StringInfo out);

/* The 22023 error, with a hint, for a value of the wrong family. */
pg_noreturn void bs_family_mismatch_error(const char *type_name,
													const char *noun, uint8 family,
													uint32 type_tag,
													const ValueKind *kind);

/*
 * Error unless a value of this format version hashes its family as this
 * version does (out of line: only older values reach it).
 */
void		bs_check_hash_rules(const char *type_name, uint8 version, uint8 family);

/*
 * Two values whose versions the core refuses to combine although both hash
 * their family here as the current version does (version 1 text in a UTF-8
 * or SQL_ASCII database, which the core cannot see): give the owned operand
 * the other's version, so that the core's checks pass, and return the
 * version the result takes, the newer one.  0, changing nothing, otherwise.
 */
uint8		bs_align_hash_version(uint8 *owned_version, uint8 owned_family,
								  uint8 other_version, uint8 other_family);

/* One 8-byte little-endian store (read back by the hash without a stall). */
static inline void
store_le64(uint8 *out, uint64 v)
{
#ifdef WORDS_BIGENDIAN
	v = pg_bswap64(v);
#endif
	memcpy(out, &v, sizeof(v));
}

/* A varlena whose bytes lie in place: neither compressed nor out of line. */
static inline bool
varlena_is_plain(const struct varlena *v)
{
	return !VARATT_IS_EXTERNAL(v) && !VARATT_IS_COMPRESSED(v);
}

/*
 * The canonical bytes of one value (sketch_value_family.c explains them); free with
 * canonical_release.  Inline for the fixed-size families and plain text,
 * which are the common case on the per-row paths.
 */
static pg_attribute_always_inline void
canonical_bytes(const ValueKind *kind, Datum value, CanonicalBytes *out)
{
	out->allocated = NULL;
	out->data = out->buffer;
	out->length = 8;
	switch (kind->family)
	{
		case BS_FAMILY_INTEGER:
			store_le64(out->buffer, (uint64) (kind->int_width == 8 ? DatumGetInt64(value) :
											  kind->int_width == 4 ? (int64) DatumGetInt32(value) :
											  (int64) DatumGetInt16(value)));
			return;
		case BS_FAMILY_DATE:
			store_le64(out->buffer, (uint64) (int64) DatumGetInt32(value));
			return;
		case BS_FAMILY_TIMESTAMP:
		case BS_FAMILY_TIMESTAMPTZ:
			store_le64(out->buffer, (uint64) DatumGetInt64(value));
			return;
		case BS_FAMILY_TEXT:
		case BS_FAMILY_BYTEA:
			{
				struct varlena *v = (struct varlena *) DatumGetPointer(value);

				/* text or bytea stored plainly, needing no conversion: in place */
				if (kind->bytes_as_stored && varlena_is_plain(v))
				{
					out->data = VARDATA_ANY(v);
					out->length = VARSIZE_ANY_EXHDR(v);
					return;
				}
				bs_canonical_bytes_general(kind, value, out);
				return;
			}
		default:
			bs_canonical_bytes_general(kind, value, out);
	}
}

static inline void
canonical_release(CanonicalBytes *bytes)
{
	if (bytes->allocated != NULL)
		pfree(bytes->allocated);
}

/*
 * Error (22023, with a hint) unless a value with these header fields accepts
 * values of this kind; the value's canonical bytes must have been taken first
 * (an anonymous record's tag comes from its row type).  type_name and noun
 * name the type in messages; current_version is its newest format version.
 */
static inline void
bs_check_value_family(const char *type_name, const char *noun, uint8 current_version,
					  uint8 version, uint8 family, uint32 type_tag, const ValueKind *kind)
{
	if (unlikely(version != current_version))
		bs_check_hash_rules(type_name, version, family);
	if (unlikely(family != kind->family || type_tag != value_kind_tag(kind)) &&
		family != BS_FAMILY_NONE)
		bs_family_mismatch_error(type_name, noun, family, type_tag, kind);
}

/*
 * Give a value that has no family yet this kind's family (its values then
 * hash as the current version says), or check it as bs_check_value_family.
 */
static inline void
bs_adopt_value_family(const char *type_name, const char *noun, uint8 current_version,
					  uint8 *version, uint8 *family, uint32 *type_tag,
					  const ValueKind *kind)
{
	if (unlikely(*family == BS_FAMILY_NONE))
	{
		*version = current_version;
		*family = kind->family;
		*type_tag = value_kind_tag(kind);
	}
	else
		bs_check_value_family(type_name, noun, current_version, *version, *family,
							  *type_tag, kind);
}

/* Error (22023, with a hint) unless the filter accepts values of this kind. */
static inline void
check_family(const bs_bloom *filter, const ValueKind *kind)
{
	bs_check_value_family("bloomfilter", "filter", BS_BLOOM_FORMAT_VERSION, filter->version,
						  filter->family, filter->type_tag, kind);
}

/* Give an empty filter this kind's family, or check it as check_family does. */
static inline void
adopt_family(bs_bloom *filter, const ValueKind *kind)
{
	bs_adopt_value_family("bloomfilter", "filter", BS_BLOOM_FORMAT_VERSION, &filter->version,
						  &filter->family, &filter->type_tag, kind);
}

#endif							/* BLOOMSKETCH_H */
