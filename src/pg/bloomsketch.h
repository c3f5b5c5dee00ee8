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
#include "sketch_value.h"

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
