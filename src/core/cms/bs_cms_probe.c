/*
 * bs_cms_probe.c — a value's way through the count-min sketch: hashing it to
 * its columns, adding it, estimating it, one value at a time, each call the
 * inline hot path of bs_cms_probe.h.
 */
#include "cms/bs_cms_probe.h"

#include <inttypes.h>

/* ---- hashing ---- */

void
bs_cms_probe_init(bs_cms_probe *probe, uint32_t width, uint32_t depth,
				  uint32_t copies, uint64_t seed)
{
	probe->width = width;
	probe->depth = depth;
	probe->copies = copies;
	probe->seed = seed;
	/* (2^64 - n) mod n == 2^64 mod n; for w = 2 the step range has one value */
	probe->reject_below_w = (0 - (uint64_t) width) % width;
	probe->reject_below_step = (0 - ((uint64_t) width - 1)) % ((uint64_t) width - 1);
}

/*
 * Locating a value (bs_cms_locate_inline in bs_cms_probe.h): row j of a copy
 * counts value x in column g_j(x) = a + j*b (mod w), with a = h1 mapped
 * uniformly onto [0, w) and b = 1 + (h2 mapped uniformly onto [0, w - 1)).
 *
 * What the proof of Theorem 9.1 needs.  Besides the per-row collision
 * probability Pr(g_j(z) = g_j(x)) = 1/w, which holds because a is uniform and
 * independent of everything else whatever b is, the proof needs that an item
 * z whose pair (a, b) differs from x's collides with x in AT MOST ONE row:
 * then the overflows B_{j,x} of the rows are negatively dependent and
 * Pr(min_j B_j >= v) <= prod_j Pr(B_j >= v), which is where the d-th power
 * comes from.  If z collides in rows j != j', subtracting the two congruences
 * gives (j - j') (b_z - b_x) = 0 (mod w); since w is prime and
 * 0 < |j - j'| < d <= w, j - j' is invertible mod w, so b_z = b_x and then
 * a_z = a_x — the excluded case, counted in A_x instead.  Hence w prime and
 * d <= w (both enforced by the validator).  Keeping b != 0 mod w goes
 * further: for every value, the step j*b takes d distinct values mod w, so
 * no value's column sequence is constant (b = 0 would make x share all its d
 * columns with every z having a_z = a_x and b_z = 0), and the mapping is the
 * very one the Bloom filter uses, so filters and sketches probe alike.  The price is
 * that Pr(a_z = a_x and b_z = b_x) is 1/(w (w - 1)) instead of KM's 1/w^2;
 * bs_cms_failure_bound and the sizing below carry that factor.
 *
 * All arithmetic stays below 2w < 2^33, far from 64-bit overflow.
 */
void
bs_cms_locate(const bs_cms_probe *probe, uint32_t copy, const void *data,
			  size_t length, uint64_t *first, uint64_t *step)
{
	bs_cms_locate_inline(probe, copy, data, length, first, step);
}

void
bs_cms_positions(const bs_cms_probe *probe, const void *data, size_t length,
				 uint64_t *columns)
{
	for (uint32_t c = 0; c < probe->copies; c++)
	{
		uint64_t	column;
		uint64_t	step;

		bs_cms_locate_inline(probe, c, data, length, &column, &step);
		for (uint32_t j = 0; j < probe->depth; j++)
		{
			columns[(uint64_t) c * probe->depth + j] = column;
			column += step;
			if (column >= probe->width)
				column -= probe->width;
		}
	}
}

/* ---- updates and point queries ---- */

void
bs_cms_undo_add(bs_cms *cms, const bs_cms_probe *probe, const void *data,
				size_t length, uint64_t n)
{
	(void) bs_cms_add_copies(cms, probe, data, length, 0 - n, false);
}

bs_status
bs_cms_add(bs_cms *cms, const bs_cms_probe *probe, const void *data,
		   size_t length, int64_t count, bs_error *err)
{
	uint64_t	n;

	if (count < 0)
		return bs_fail(err, BS_ERR_PARAM, "cmsketch count must not be negative",
					   "The count given was %" PRId64 "; a count-min sketch only counts up.",
					   count);
	n = (uint64_t) count;
	if (cms->total > UINT64_MAX - n)
		return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch total count is out of range",
					   "Adding %" PRIu64 " to the total of %" PRIu64 " would pass %" PRIu64 ".",
					   n, cms->total, UINT64_MAX);
	if (bs_cms_add_inline(cms, probe, data, length, n))
		return BS_OK;

	/*
	 * A counter would wrap, and the fast path left the sketch unchanged.  A
	 * counter is at most its row sum, which is total in a sketch built by
	 * additions and merges; only an intersection's rows can sum to more, so
	 * this is the rare path: find the first such counter for the message.
	 */
	for (uint32_t c = 0; c < probe->copies; c++)
	{
		uint64_t	column;
		uint64_t	step;
		const uint64_t *counters = cms->counters + (uint64_t) c * probe->depth * probe->width;

		bs_cms_locate_inline(probe, c, data, length, &column, &step);
		for (uint32_t j = 0; j < probe->depth; j++)
		{
			uint64_t	value = counters[(uint64_t) j * probe->width + column];

			if (value > UINT64_MAX - n)
				return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch counter is out of range",
							   "Adding %" PRIu64 " to a counter holding %" PRIu64 " (copy %u, row %u) would pass %" PRIu64 ".",
							   n, value, c, j, UINT64_MAX);
			column += step;
			if (column >= probe->width)
				column -= probe->width;
		}
	}
	/* not reached: the fast path fails only when the scan above finds one */
	return bs_fail(err, BS_ERR_TOO_LARGE, "cmsketch counter is out of range",
				   "Adding %" PRIu64 " would pass %" PRIu64 ".", n, UINT64_MAX);
}

uint64_t
bs_cms_estimate(const bs_cms *cms, const bs_cms_probe *probe, const void *data,
				size_t length)
{
	return bs_cms_estimate_inline(cms, probe, data, length);
}
