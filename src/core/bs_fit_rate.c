/*
 * bs_fit_rate.c — the exact false-positive rate of one fit filter: the
 * share of all hash pairs whose k positions are all set in it.
 *
 * A fit position depends on the pair (h1, h2) only through a = h1 mod m and
 * b = (h2 | 1) mod m, and for uniform 64-bit halves those are uniform on
 * [0, m) and on the odd residues: so the rate of a non-member, given the
 * filter, is the share of the m * m / 2 pairs (a, b) whose positions are
 * all set.  That share includes Kirsch and Mitzenmacher's Theta(1/n) term
 * (KM 2008, section 6: non-members whose probes largely coincide with one
 * member's), which a rate from the fill alone does not see.
 *
 * For a fixed b, probe i of the pair (a, b) is a + o_i mod m with
 * o_i = i b + (i^3 - i) / 6: the a whose positions are all set are the set
 * bits of the AND of the filter rotated by each o_i.  The filter is laid
 * out twice in a row so that each rotation is a window of whole words
 * shifted by o_i mod 64.  Work: (m / 2) k (m / 64) word operations.
 */
#include "bs_fit.h"

#include <math.h>

#include "bs_word_window.h"

double
bs_fit_exact_rate(const uint64_t *words, uint64_t bits, uint32_t hashes,
				  double max_work)
{
	uint64_t	count = bits / 64;
	uint64_t	twice[2 * (BS_FIT_EXACT_MAX_BITS / 64) + 1];
	uint64_t	acc[BS_FIT_EXACT_MAX_BITS / 64];
	uint64_t	mask = bits - 1;
	double		total = 0;

	if (bits > BS_FIT_EXACT_MAX_BITS || bits < BS_FIT_MIN_BITS ||
		(double) bits / 2 * hashes * (double) count > max_work)
		return NAN;
	for (uint64_t w = 0; w < count; w++)
		twice[w] = twice[count + w] = words[w];
	twice[2 * count] = words[0];
	for (uint64_t b = 1; b < bits; b += 2)
	{
		uint64_t	offset = 0;
		uint64_t	growth = b;
		uint64_t	hits = 0;

		for (uint64_t w = 0; w < count; w++)
			acc[w] = words[w];
		for (uint32_t i = 1; i < hashes; i++)
		{
			/* o_i = o_(i-1) + b + (i - 1) i / 2, as in bs_fit_set */
			offset = (offset + growth) & mask;
			growth += i;
			bs_and_window(acc, count, twice, offset);
		}
		for (uint64_t w = 0; w < count; w++)
			hits += (uint64_t) __builtin_popcountll(acc[w]);
		total += (double) hits;
	}
	return total / ((double) bits * (double) (bits / 2));
}
