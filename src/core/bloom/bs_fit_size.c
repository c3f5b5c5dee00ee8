/*
 * bs_fit_size.c — the size bloom_fit_agg's final function gives a group
 * (bs_fit.h): the smallest power of two whose expected rate at the group's
 * n meets the rate asked for, n counted from its hash list or estimated
 * from the fill of its filter at the ceiling.
 */
#include "bloom/bs_fit.h"

#include <math.h>

#include "analysis/bs_analysis.h"
#include "analysis/bs_scheme_sizing.h"
#include "bloom/bs_estimate.h"
#include "bloom/bs_scheme.h"

/*
 * Bounds decide most sizes without the exact rate: they are used only with
 * this relative margin from fpr, far beyond their rounding and the exact
 * rate's error bound (2e-11), so the decision is always the one the exact
 * rate would give.
 */
#define BOUND_MARGIN 1e-9

/*
 * Cheap bounds of the standard rate f_S(m, n, k) (bs_analysis.h,
 * bs_fpr_bounds): Jensen's lower bound (1 - (1 - 1/m)^(kn))^k (Burns eq.
 * (57)); above, (1 - (1 - k/m)^n)^k (eq. (65), Corollary 23) where
 * k <= (m - 1)/2, else the share of set bits expected, 1 - (1 - 1/m)^(kn).
 */
static void
rate_bounds(double bits, double items, uint32_t hashes, double *lower, double *upper)
{
	double		occupied = -expm1(items * hashes * log1p(-1 / bits));

	*lower = pow(occupied, hashes);
	*upper = 2.0 * hashes + 1 <= bits ? pow(-expm1(items * log1p(-(double) hashes / bits)), hashes)
		: occupied;
}

double
bs_fit_expected_rate(uint64_t bits, uint64_t items, uint32_t hashes)
{
	double		rate;
	double		lower;

	/* arguments in range (m <= 2^32, k <= 1024): only a failed allocation can fail */
	if (bs_fpr_exact((int64_t) bits, (int64_t) items, hashes, BS_CONSTRUCTION_STANDARD,
					 &rate, NULL) == BS_OK)
		return rate;
	rate_bounds((double) bits, (double) items, hashes, &lower, &rate);
	return rate;				/* the upper bound: on the safe side */
}

/* True when the expected rate of m bits holding n values is at most fpr. */
static bool
rate_within(uint64_t bits, uint64_t items, uint32_t hashes, double fpr)
{
	double		lower;
	double		upper;

	rate_bounds((double) bits, (double) items, hashes, &lower, &upper);
	if (upper <= fpr * (1 - BOUND_MARGIN))
		return true;
	if (lower > fpr * (1 + BOUND_MARGIN))
		return false;
	return bs_fit_expected_rate(bits, items, hashes) <= fpr;
}

uint64_t
bs_fit_size(uint64_t items, uint32_t hashes, double fpr, uint64_t ceiling, bool *met)
{
	uint64_t	bits = bs_fit_min_bits(hashes);

	/*
	 * The rate falls as m grows, for fixed n and k (bs_optimal_k.c), so the
	 * first power of two that meets fpr is the size; at most 30 steps, each
	 * settled by the bounds but near the answer.
	 */
	while (!rate_within(bits, items, hashes, fpr))
	{
		if (bits >= ceiling)
		{
			*met = false;
			return ceiling;
		}
		bits *= 2;
	}
	*met = true;
	return bits;
}

uint64_t
bs_fit_estimate_items(uint64_t set, uint64_t bits, uint32_t hashes)
{
	bs_occupancy model;
	double		items;

	/* the fit model's estimate, as bloom_cardinality gives it (eq. (46) in its form) */
	bs_scheme_occupancy(BS_SCHEME_FIT, bits, hashes, &model);
	items = bs_model_estimate_items(&model, set);
	if (!(items < 0x1p63))
		return UINT64_MAX;
	return (uint64_t) floor(items + 0.5);
}

uint64_t
bs_fit_size_of_bits(const uint64_t *words, uint64_t ceiling, uint32_t hashes, double fpr,
					bool *met)
{
	uint64_t	items = bs_fit_estimate_items(bs_fit_count_set(words, ceiling), ceiling, hashes);

	return bs_fit_size(items, hashes, fpr, ceiling, met);
}

double
bs_fit_reference_bits(uint64_t n, double fpr)
{
	static const uint8_t schemes[] = {BS_SCHEME_DOUBLE, BS_SCHEME_DOUBLE_SQUARE,
		BS_SCHEME_DOUBLE_CUBE, BS_SCHEME_PARTITION, BS_SCHEME_INDEPENDENT, BS_SCHEME_BLOCKED};
	double		best = INFINITY;

	for (size_t s = 0; s < sizeof(schemes); s++)
	{
		uint64_t	bits;
		uint32_t	hashes;
		bs_error	err;

		if (bs_bloom_size_scheme(schemes[s], (int64_t) n, fpr, &bits, &hashes, &err) == BS_OK &&
			(double) bits < best)
			best = (double) bits;
	}
	return best;
}
