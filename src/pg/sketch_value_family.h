/*
 * sketch_value_family.h — the canonical bytes of the scalar families
 * (sketch_value_family.c explains them), with their inline fast path, and
 * the checks that a sketch accepts values of a family.
 */
#ifndef SKETCH_VALUE_FAMILY_H
#define SKETCH_VALUE_FAMILY_H

#include "sketch_value_kind.h"

#include "port/pg_bswap.h"

/* The canonical bytes of one value; free with canonical_release. */
typedef struct CanonicalBytes
{
	const void *data;
	size_t		length;
	uint8		buffer[16];
	void	   *allocated;
} CanonicalBytes;

/* The canonical bytes of the scalar families that live in a varlena or need work. */
void		bs_canonical_bytes_general(const ValueKind *kind, Datum value, CanonicalBytes *out);

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
 * The canonical bytes of one value of a scalar family (not an array, range,
 * composite or jsonb); free with canonical_release.  Inline for the
 * fixed-size families and plain text, which are the common case on the
 * per-row paths.
 */
static pg_attribute_always_inline void
canonical_scalar_bytes(const ValueKind *kind, Datum value, CanonicalBytes *out)
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

#endif							/* SKETCH_VALUE_FAMILY_H */
