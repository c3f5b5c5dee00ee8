/*
 * cmsketch_alloc.c — what makes an empty sketch: the sizing for an error
 * bound (remembered) and the zeroed value of checked dimensions.
 */
#include "cmsketch.h"

/* Allocate a zeroed, empty sketch of checked dimensions. */
bs_cms *
bs_cms_alloc(MemoryContext context, uint32 width, uint32 depth, uint32 copies,
			 uint64 seed)
{
	bs_error	err;
	uint64_t	size;
	bs_cms	   *cms;

	if (bs_cms_total_bytes(width, depth, copies, &size, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	cms = bs_alloc_value(context, size, "cmsketch");
	bs_cms_init(cms, width, depth, copies, seed);
	return cms;
}

/*
 * Size for (epsilon, delta) through the core, mapping its errors to
 * SQLSTATEs.  The width's primality test costs microseconds, and a caller
 * without a per-call-site cache (cms_agg under Citus's worker wrapper) asks
 * on every row, so the last answer is remembered (sizing is a pure function
 * of its arguments).
 */
void
bs_cms_size_or_error(double epsilon, double delta, uint32 *width, uint32 *depth,
					 uint32 *copies)
{
	static bool known = false;
	static double known_epsilon;
	static double known_delta;
	static uint32 known_width;
	static uint32 known_depth;
	static uint32 known_copies;
	bs_error	err;

	if (!known || known_epsilon != epsilon || known_delta != delta)
	{
		if (bs_cms_size_error(epsilon, delta, &known_width, &known_depth, &known_copies,
							  &err) != BS_OK)
		{
			known = false;
			bs_report(&err, BS_SOURCE_TEXT);
		}
		known = true;
		known_epsilon = epsilon;
		known_delta = delta;
	}
	*width = known_width;
	*depth = known_depth;
	*copies = known_copies;
}
