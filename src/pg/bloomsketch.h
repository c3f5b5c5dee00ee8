/*
 * bloomsketch.h — declarations shared by the PostgreSQL layer.
 */
#ifndef BLOOMSKETCH_H
#define BLOOMSKETCH_H

#include "postgres.h"

#include "fmgr.h"
#include "port/pg_bswap.h"

#include "../core/bs_bloom.h"
#include "../core/bs_bloom_codec.h"

/* Where untrusted bytes came from: decides the SQLSTATE of a format error. */
typedef enum BsSource
{
	BS_SOURCE_TEXT,				/* 22P02 */
	BS_SOURCE_BINARY			/* 22P03 */
} BsSource;

/* Raise the error a core function reported. */
pg_attribute_noreturn() void bs_report(const bs_error *err, BsSource source);

/* A zeroed, empty filter of the scheme, m bits and k hashes in the given context. */
bs_bloom   *bs_bloom_alloc(MemoryContext context, uint8 scheme, uint64 bits,
						   uint32 hashes, uint64 seed);
/* The same with the bit array cache-line (large: 2 MB) aligned; not to be pfree'd. */
bs_bloom   *bs_bloom_alloc_aligned(MemoryContext context, uint8 scheme, uint64 bits,
								   uint32 hashes, uint64 seed);
/* Room for a filter of size bytes, aligned the same way, to fill; pfree *chunk. */
bs_bloom   *bs_bloom_room_aligned(MemoryContext context, Size size, void **chunk);
/* A copy of a filter, aligned the same way; pfree *chunk, not the copy. */
bs_bloom   *bs_bloom_copy_aligned(MemoryContext context, const bs_bloom *filter,
								  void **chunk);

/*
 * How many bytes of detoasted stored values one call site of a probing
 * function may keep for the rest of the query: 64 MB, or work_mem if larger.
 */
Size		bs_stored_cache_budget(void);

/* Copy into fresh memory, asking for huge pages (when large) before touching it. */
void		bs_copy_to_fresh(void *dest, const void *src, Size size);

/* A copy of a plain varlena in the current context, on huge pages when large. */
struct varlena *bs_copy_plain_varlena(const struct varlena *value);

/* Size a filter of the scheme for capacity/fpr (bs_scheme_sizing.h), raising 22023 or 54000. */
void		bs_size_or_error(uint8 scheme, int64 capacity, double fpr, uint64 *bits,
							 uint32 *hashes);

/* The scheme code of a scheme name, raising 22023 for an unknown name. */
uint8		bs_scheme_or_error(text *name);

#define DatumGetBloomP(d) ((bs_bloom *) DatumGetPointer(d))

/* Estimates from the filter's set bits (bloomfilter_estimate.c). */
double		bs_bloom_estimated_items(const bs_bloom *filter);

/* ---- value families (value_family.c) ---- */

/* How values of one SQL type become canonical bytes. */
typedef struct ValueKind
{
	Oid			typid;			/* the argument's type */
	uint8		family;			/* bs_family */
	uint32		type_tag;		/* for BS_FAMILY_OTHER */
	bool		is_bpchar;		/* text family: ignore trailing blanks */
	bool		is_name;		/* text family: fixed-size NUL-padded name */
	int16		int_width;		/* integer family: 2, 4 or 8 */
	bool		is_float4;		/* float family: widen from float4 */
	FmgrInfo	send;			/* BS_FAMILY_OTHER: the type's send function */
} ValueKind;

/* The canonical bytes of one value; free with canonical_release. */
typedef struct CanonicalBytes
{
	const void *data;
	size_t		length;
	uint8		buffer[16];
	void	   *allocated;
} CanonicalBytes;

void		value_kind_init(ValueKind *kind, Oid typid, MemoryContext context);

/* canonical_bytes for the families whose bytes live in a varlena or need work. */
void		canonical_bytes_general(const ValueKind *kind, Datum value, CanonicalBytes *out);

/* The 22023 error, with a hint, for a value of the wrong family. */
pg_attribute_noreturn() void family_mismatch_error(const char *type_name,
													const char *noun, uint8 family,
													uint32 type_tag,
													const ValueKind *kind);

/* One 8-byte little-endian store (read back by the hash without a stall). */
static inline void
store_le64(uint8 *out, uint64 v)
{
#ifdef WORDS_BIGENDIAN
	v = pg_bswap64(v);
#endif
	memcpy(out, &v, sizeof(v));
}

/*
 * The canonical bytes of one value (value_family.c explains them); free with
 * canonical_release.  Inline for the fixed-size families, which are the
 * common case on the per-row paths.
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

				/* text or bytea stored plainly: its bytes, in place */
				if (!kind->is_bpchar && !kind->is_name &&
					(VARATT_IS_SHORT(v) || !VARATT_IS_EXTENDED(v)))
				{
					out->data = VARDATA_ANY(v);
					out->length = VARSIZE_ANY_EXHDR(v);
					return;
				}
				canonical_bytes_general(kind, value, out);
				return;
			}
		default:
			canonical_bytes_general(kind, value, out);
	}
}

static inline void
canonical_release(CanonicalBytes *bytes)
{
	if (bytes->allocated != NULL)
		pfree(bytes->allocated);
}

/* Error (22023, with a hint) unless the filter accepts values of this kind. */
static inline void
check_family(const bs_bloom *filter, const ValueKind *kind)
{
	if (unlikely(filter->family != kind->family || filter->type_tag != kind->type_tag) &&
		filter->family != BS_FAMILY_NONE)
		family_mismatch_error("bloomfilter", "filter", filter->family, filter->type_tag, kind);
}

/* Give an empty filter this kind's family, or check it as check_family does. */
static inline void
adopt_family(bs_bloom *filter, const ValueKind *kind)
{
	if (unlikely(filter->family == BS_FAMILY_NONE))
	{
		filter->family = kind->family;
		filter->type_tag = kind->type_tag;
	}
	else
		check_family(filter, kind);
}

#endif							/* BLOOMSKETCH_H */
