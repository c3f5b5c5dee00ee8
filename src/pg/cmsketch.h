/*
 * cmsketch.h — declarations shared by the PostgreSQL layer of cmsketch.
 */
#ifndef CMSKETCH_H
#define CMSKETCH_H

#include "bloomsketch.h"

#include "../core/cms/bs_cms.h"
#include "../core/cms/bs_cms_codec.h"
#include "../core/cms/bs_cms_probe.h"

#define DatumGetCmsP(d) ((bs_cms *) DatumGetPointer(d))

/* The fixed seed and error bounds of aggregate-built sketches (docs/design.md decision 2). */
#define CMS_AGG_SEED 0
#define CMS_DEFAULT_EPSILON 0.001
#define CMS_DEFAULT_DELTA 0.001

/* A zeroed, empty sketch of these (checked) dimensions in the given context. */
bs_cms	   *bs_cms_alloc(MemoryContext context, uint32 width, uint32 depth,
						 uint32 copies, uint64 seed);

/* Size a sketch for (epsilon, delta), raising 22023 or 54000. */
void		bs_cms_size_or_error(double epsilon, double delta, uint32 *width,
								 uint32 *depth, uint32 *copies);

/* A uint64 count (what: "estimate", "total") as bigint, or 22003. */
int64		bs_cms_count_to_int64(uint64 count, const char *what);

/* The O(1) shape check of a stored sketch: XX001 when it is corrupt. */
void		bs_cms_check_shape_or_error(const bs_cms *cms);

/* Error (22023, with a hint) unless the sketch accepts values of this kind. */
static inline void
cms_check_family(const bs_cms *cms, const ValueKind *kind)
{
	bs_check_value_family("cmsketch", "sketch", BS_CMS_FORMAT_VERSION, cms->version,
						  cms->family, cms->type_tag, kind);
}

/* Give an empty sketch this kind's family, or check it as cms_check_family does. */
static inline void
cms_adopt_family(bs_cms *cms, const ValueKind *kind)
{
	bs_adopt_value_family("cmsketch", "sketch", BS_CMS_FORMAT_VERSION, &cms->version,
						  &cms->family, &cms->type_tag, kind);
}

/* Probing constants of a sketch, recomputed only when its shape changes. */
static inline const bs_cms_probe *
cms_probe_for(bs_cms_probe *probe, bool *ready, const bs_cms *cms)
{
	if (!*ready || probe->width != cms->width || probe->depth != cms->depth ||
		probe->copies != cms->copies || probe->seed != cms->seed)
	{
		bs_cms_probe_init(probe, cms->width, cms->depth, cms->copies, cms->seed);
		*ready = true;
	}
	return probe;
}

/* The errors of cms_add_value, out of line (cmsketch.c). */
pg_noreturn void bs_cms_negative_count_error(int64 count);
pg_noreturn void bs_cms_total_range_error(uint64 total, uint64 more);
pg_noreturn void bs_cms_add_error(bs_cms *cms, const bs_cms_probe *probe,
										   const void *data, size_t length, int64 count);

/*
 * Add count occurrences of one value in place: 22023 for a negative count
 * or a value of another family, 22003 when the total would pass bigint or a
 * counter would pass 2^64 - 1 (the sketch is then left unchanged).  Inline,
 * with the update of bs_cms_probe.h: it runs once per row in cms_agg.
 * additive says that the sketch was built by additions alone, so that no
 * counter exceeds the total (bs_cms_add_additive_inline): the bigint check
 * of the total then covers every counter.
 */
static pg_attribute_always_inline void
cms_add_value(bs_cms *cms, const bs_cms_probe *probe, const ValueKind *kind,
			  Datum value, int64 count, bool additive)
{
	CanonicalBytes bytes;

	if (unlikely(count < 0))
		bs_cms_negative_count_error(count);
	/* count <= PG_INT64_MAX, so the subtraction cannot wrap */
	if (unlikely(cms->total > (uint64) PG_INT64_MAX - (uint64) count))
		bs_cms_total_range_error(cms->total, (uint64) count);
	canonical_bytes(kind, value, &bytes);
	cms_adopt_family(cms, kind);
	if (additive)
		(void) bs_cms_add_additive_inline(cms, probe, bytes.data, bytes.length, (uint64) count);
	else if (unlikely(!bs_cms_add_inline(cms, probe, bytes.data, bytes.length, (uint64) count)))
		bs_cms_add_error(cms, probe, bytes.data, bytes.length, count);
	canonical_release(&bytes);
}

#endif							/* CMSKETCH_H */
