/*
 * bs_cms_probe.h — the hot path of the count-min sketch, inline: hash a value
 * to its columns, add to its counters, read its estimate.  The SQL layer's
 * per-row functions (cms_agg's transition, cms_estimate) include it so that
 * nothing on the path is a function call; bs_cms_probe.c builds its checked
 * functions on the same code, so both give the same bytes.
 */
#ifndef BS_CMS_PROBE_H
#define BS_CMS_PROBE_H

#include "cms/bs_cms.h"
#include "common/bs_hash.h"			/* bs_hash128, bs_map_uniform, BS_RESEED_STEP */

/* Constants for probing sketches with these parameters. */
void		bs_cms_probe_init(bs_cms_probe *probe, uint32_t width, uint32_t depth,
							  uint32_t copies, uint64_t seed);

/*
 * The column of row 0 (first = a) and the step (b, 1 <= b <= w - 1) of one
 * value in one copy: row j uses column (a + j*b) mod w.
 */
void		bs_cms_locate(const bs_cms_probe *probe, uint32_t copy,
						  const void *data, size_t length,
						  uint64_t *first, uint64_t *step);

/* The copies * d columns of a value, copy-major (for tests and tools). */
void		bs_cms_positions(const bs_cms_probe *probe, const void *data,
							 size_t length, uint64_t *columns);

/*
 * Add `count` occurrences of one value's canonical bytes.  BS_ERR_PARAM when
 * count is negative; BS_ERR_TOO_LARGE when total or one of the value's
 * counters would pass 2^64 - 1, in which case the sketch is left unchanged.
 * The value family is the caller's (the SQL layer sets it).
 */
bs_status	bs_cms_add(bs_cms *cms, const bs_cms_probe *probe, const void *data,
					   size_t length, int64_t count, bs_error *err);

/*
 * Point query: the minimum of the value's counters over all rows of all
 * copies.  Never below the true count; Theorem 9.1 bounds how often it is
 * more than epsilon * total above it (see bs_cms_failure_bound).
 */
uint64_t	bs_cms_estimate(const bs_cms *cms, const bs_cms_probe *probe,
							const void *data, size_t length);

/* The hash seed of copy c (see BS_CMS_COPY_SEED_STEP). */
static inline uint64_t
bs_cms_copy_seed(const bs_cms_probe *probe, uint32_t copy)
{
	return probe->seed + (uint64_t) copy * BS_CMS_COPY_SEED_STEP;
}

/*
 * Row j of a copy counts value x in column g_j(x) = a + j*b (mod w), where one
 * XXH3_128bits_withSeed call (seed of the copy) gives h1 (low 64 bits) and h2
 * (high 64 bits), and
 *   a = h1 mapped uniformly onto [0, w),
 *   b = 1 + (h2 mapped uniformly onto [0, w - 1)), so 1 <= b <= w - 1,
 * with the rejection mapping of bs_probe.h (exactly uniform; a rejected hash
 * is replaced by one from the seed advanced by BS_RESEED_STEP).  bs_cms.c
 * explains why b is never 0 and what that does to Theorem 9.1.
 */
static inline void
bs_cms_locate_inline(const bs_cms_probe *probe, uint32_t copy, const void *data,
					 size_t length, uint64_t *first, uint64_t *step)
{
	uint64_t	seed = bs_cms_copy_seed(probe, copy);

	for (;;)
	{
		XXH128_hash_t h = bs_hash128(data, length, seed);
		uint64_t	offset;

		if (bs_map_uniform(h.low64, probe->width, probe->reject_below_w, first) &&
			bs_map_uniform(h.high64, probe->width - 1, probe->reject_below_step, &offset))
		{
			*step = offset + 1;
			return;
		}
		seed += BS_RESEED_STEP;
	}
}

/*
 * Add n, modulo 2^64, to the d counters of one copy's rows (counters points
 * at the copy's first row); column is the value's column in row 0 and step
 * its step.  With check, returns non-zero when a counter wrapped around;
 * without, each addition is a single add to memory and 0 is returned, for
 * the sketches where no counter can wrap (bs_cms_add_additive_inline).
 * Adding 2^64 - n (the same call with -n) afterwards restores every counter
 * exactly.  All arithmetic on columns stays below 2w < 2^33.  check is a
 * constant at every call and the function always inlined, so each use
 * compiles to its own loop.
 */
static BS_ALWAYS_INLINE uint64_t
bs_cms_add_rows(uint64_t *restrict counters, uint64_t width, uint32_t depth,
				uint64_t column, uint64_t step, uint64_t n, bool check)
{
	uint64_t	wrapped = 0;

	for (uint32_t j = 0; j < depth; j++)
	{
		if (check)
		{
			uint64_t	value = counters[column] + n;

			wrapped |= value < n;
			counters[column] = value;
		}
		else
			counters[column] += n;
		counters += width;
		column += step;
		column = column >= width ? column - width : column;
	}
	return wrapped;
}

/*
 * Subtract n, modulo 2^64, from each of a value's counters (bs_cms.c): undoes
 * the additions of bs_cms_add_rows exactly, wrapped counters included (a
 * copy's d rows hold d distinct counters).  Leaves the total alone.
 */
void		bs_cms_undo_add(bs_cms *cms, const bs_cms_probe *probe,
							const void *data, size_t length, uint64_t n);

/*
 * Add n to a value's counters in every copy, checking each counter for
 * wrapping or not (bs_cms_add_rows); leaves the total alone.
 */
static BS_ALWAYS_INLINE uint64_t
bs_cms_add_copies(bs_cms *cms, const bs_cms_probe *probe, const void *data,
				  size_t length, uint64_t n, bool check)
{
	uint64_t	copy_size = (uint64_t) probe->width * probe->depth;
	uint64_t	wrapped = 0;

	for (uint32_t c = 0; c < probe->copies; c++)
	{
		uint64_t	column;
		uint64_t	step;

		bs_cms_locate_inline(probe, c, data, length, &column, &step);
		wrapped |= bs_cms_add_rows(cms->counters + c * copy_size, probe->width,
								   probe->depth, column, step, n, check);
	}
	return wrapped;
}

/*
 * Add n occurrences of one value's canonical bytes: the fast path of
 * bs_cms_add.  Returns false, with the sketch unchanged, when the total or
 * one of the value's counters would pass 2^64 - 1; the caller then calls
 * bs_cms_add for the error.  probe must match the sketch.
 */
static inline bool
bs_cms_add_inline(bs_cms *cms, const bs_cms_probe *probe, const void *data,
				  size_t length, uint64_t n)
{
	if (cms->total > UINT64_MAX - n)
		return false;
	if (bs_cms_add_copies(cms, probe, data, length, n, true) != 0)
	{
		/* rare: undo the whole addition, out of line */
		bs_cms_undo_add(cms, probe, data, length, n);
		return false;
	}
	cms->total += n;
	return true;
}

/*
 * bs_cms_add_inline for an additive sketch: one built from an empty sketch
 * by additions (and merges of such sketches) alone, as cms_agg builds its
 * states.  In such a sketch every row sums to exactly the total, so, the
 * counters being non-negative, no counter exceeds the total; once the total
 * is checked to take n more, no counter can wrap, and the per-counter check
 * of bs_cms_add_inline (a third of the update's instructions) is not needed.
 * A sketch whose rows sum to more than its total (an intersection, or a
 * crafted value) must take bs_cms_add_inline instead.  Returns false, with
 * the sketch unchanged, when the total would pass 2^64 - 1.
 */
static inline bool
bs_cms_add_additive_inline(bs_cms *cms, const bs_cms_probe *probe, const void *data,
						   size_t length, uint64_t n)
{
	if (cms->total > UINT64_MAX - n)
		return false;
	(void) bs_cms_add_copies(cms, probe, data, length, n, false);
	cms->total += n;
	return true;
}

/*
 * The smaller of estimate and the d counters of one copy's rows (counters
 * points at the copy's first row; column and step as in bs_cms_add_rows).
 */
static BS_ALWAYS_INLINE uint64_t
bs_cms_min_rows(const uint64_t *counters, uint64_t width, uint32_t depth,
				uint64_t column, uint64_t step, uint64_t estimate)
{
	for (uint32_t j = 0; j < depth; j++)
	{
		uint64_t	value = counters[column];

		estimate = value < estimate ? value : estimate;
		counters += width;
		column += step;
		column = column >= width ? column - width : column;
	}
	return estimate;
}

/* The point query of bs_cms_estimate: the minimum of the value's counters. */
static inline uint64_t
bs_cms_estimate_inline(const bs_cms *cms, const bs_cms_probe *probe,
					   const void *data, size_t length)
{
	uint64_t	width = probe->width;
	uint32_t	depth = probe->depth;
	uint64_t	estimate = UINT64_MAX;

	for (uint32_t c = 0; c < probe->copies; c++)
	{
		uint64_t	column;
		uint64_t	step;

		bs_cms_locate_inline(probe, c, data, length, &column, &step);
		estimate = bs_cms_min_rows(cms->counters + (uint64_t) c * depth * width, width, depth,
								   column, step, estimate);
	}
	return estimate;
}

#endif							/* BS_CMS_PROBE_H */
