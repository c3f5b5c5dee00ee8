/*
 * bloomsketch.h — declarations shared by the PostgreSQL layer.
 */
#ifndef BLOOMSKETCH_H
#define BLOOMSKETCH_H

#include "postgres.h"

#include "fmgr.h"

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

/* A zeroed, empty filter of m bits and k hashes in the given context. */
bs_bloom   *bs_bloom_alloc(MemoryContext context, uint64 bits, uint32 hashes,
						   uint64 seed);

/* Size a filter for capacity/fpr, raising 22023 or 54000 on bad arguments. */
void		bs_size_or_error(int64 capacity, double fpr, uint64 *bits,
							 uint32 *hashes);

#define DatumGetBloomP(d) ((bs_bloom *) DatumGetPointer(d))

/* Estimates from the filter's set bits (bloomfilter_estimate.c). */
double		bs_bloom_estimated_items(const bs_bloom *filter);
double		bs_bloom_current_fpr(const bs_bloom *filter);

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
void		canonical_bytes(const ValueKind *kind, Datum value, CanonicalBytes *out);
void		canonical_release(CanonicalBytes *bytes);

/* Error (22023, with a hint) unless the filter accepts values of this kind. */
void		check_family(const bs_bloom *filter, const ValueKind *kind);

/* Give an empty filter this kind's family, or check it as check_family does. */
void		adopt_family(bs_bloom *filter, const ValueKind *kind);

#endif							/* BLOOMSKETCH_H */
