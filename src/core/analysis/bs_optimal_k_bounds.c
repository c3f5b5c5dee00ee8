/*
 * bs_optimal_k_bounds.c — the cheap bounds and guesses of the searches over k and m
 * (facts 1 and 2 of bs_optimal_k.c): the block lower bounds and U (65),
 * how they decide against a threshold with margins for their rounding, the
 * k they leave undecided, and the starting guesses of the searches.
 *
 * Terms: the facts are numbered in bs_optimal_k.c; U and the equation
 * numbers are those of Burns's occupancy paper that bs_analysis.c follows.
 */
#include "analysis/bs_analysis_internal.h"

#include <stdlib.h>

/* ln of the bound of 1. with mu taken at k_mu <= k, for k factors */
ld
bs_block_lower_bound_ln(ld m, ld n, int k_mu, int k, bs_construction c)
{
	if (c == BS_CONSTRUCTION_STANDARD)
	{
		ld			occupied = -expm1l(n * k_mu * log1pl(-1 / m));	/* mu_S / m */

		return k * logl(occupied);
	}
	else
	{
		ld			mu = m * -expm1l(n * log1pl(-(ld) k_mu / m));

		if (mu - k + 1 <= 0)
			return -INFINITY;
		return lgammal(mu + 1) - lgammal(mu - k + 1) -
			(lgammal(m + 1) - lgammal(m - k + 1));
	}
}

/* ln U (65), k <= (m-1)/2 */
ld
bs_upper_bound_ln(ld m, ld n, int k)
{
	return k * logl(-expm1l(n * log1pl(-(ld) k / m)));
}

/* absolute slack for a bound before deciding with it (lgamma rounding) */
ld
bs_bound_slack(ld m, ld ln_value)
{
	return 1e-9L * fabsl(ln_value) + 64 * ULP * (m + 64) * logl(m + 2) + 1e-12L;
}

/*
 * rate <= target, decided on the computed rates: within their 1e-12
 * accuracy an exact tie (such as 1/2 <= 1/2) counts as reaching the target.
 */
int
bs_reaches_target(ld ln, ld target)
{
	return ln <= target + 1e-12L * (1 + fabsl(target));
}

/*
 * Does a lower bound b show that the rate exceeds the threshold, by more
 * than a tie or the error of a computed rate?
 */
int
bs_bound_exceeds(ld m, ld b, ld threshold)
{
	if (isinf(threshold) || isinf(b))
		return 0;
	return b - bs_bound_slack(m, b) > threshold + 3e-11L * (1 + fabsl(threshold));
}

/* does an upper bound u show that the computed rate reaches the target? */
int
bs_bound_reaches(ld m, ld u, ld target)
{
	if (isinf(target) || isnan(u))
		return 0;
	return u + bs_bound_slack(m, u) <= target - 1e-10L * (1 + fabsl(target));
}

int
bs_search_limit(int64_t m, bs_construction c)
{
	if (c == BS_CONSTRUCTION_CLASSIC && m < BS_ANALYSIS_SEARCH_HASHES)
		return (int) m;
	return BS_ANALYSIS_SEARCH_HASHES;
}

/*
 * How far above threshold a chain's lower bound stops
 * (bs_k_above_by_bound): its own rounding allowance and the slack of
 * bs_bound_exceeds, with room.
 */
ld
bs_chain_bound_margin(ld m, ld threshold)
{
	return 2 * bs_bound_slack(m, threshold) + 1e-9L * (1 + fabsl(threshold));
}

/*
 * Count the k of [lo, hi], not evaluated yet, that the bounds of 1. do not
 * show to exceed threshold, by bisecting into blocks (fact 1); the first
 * `cap` of them go to list.  Stops counting past cap.
 */
int
bs_k_undecided(const k_search *ks, int lo, int hi, ld threshold, int *list,
			   int count, int cap)
{
	int			mid;

	if (count > cap)
		return count;
	if (bs_bound_exceeds((ld) ks->m,
						 bs_block_lower_bound_ln((ld) ks->m, (ld) ks->n, lo, hi, ks->c),
						 threshold))
		return count;
	if (lo == hi)
	{
		if (!ks->known[lo] && !bs_bound_exceeds((ld) ks->m, ks->floor[lo], threshold))
		{
			if (count < cap)
				list[count] = lo;
			count++;
		}
		return count;
	}
	mid = lo + (hi - lo) / 2;
	count = bs_k_undecided(ks, lo, mid, threshold, list, count, cap);
	return bs_k_undecided(ks, mid + 1, hi, threshold, list, count, cap);
}

/* the approximate optimum: Remark 29 (77) for classic, (m/n) ln 2 standard */
static int
approximate_k(int64_t m, int64_t n, bs_construction c)
{
	ld			k = c == BS_CONSTRUCTION_CLASSIC ?
		(ld) m * logl(2) / ((ld) n + logl(2)) : (ld) m / (ld) n * logl(2);
	int			kmax = bs_search_limit(m, c);

	if (!(k >= 1))
		return 1;
	if (k > kmax)
		return kmax;
	return (int) floorl(k + 0.5L);
}

/*
 * A local minimiser of the bound of 1. (upper == 0) or of ln U (65)
 * (upper == 1, any k < m: only a heuristic beyond k <= (m-1)/2), found by
 * descending from k.
 */
static int
bound_minimiser(const k_search *ks, int k, int upper)
{
	ld			m = (ld) ks->m;
	ld			n = (ld) ks->n;
	int			top = ks->kmax;
	ld			here;
	int			dir;

	if (upper && top > ks->m - 1)
		top = (int) (ks->m - 1 < 1 ? 1 : ks->m - 1);
	k = k < 1 ? 1 : k > top ? top : k;
#define BOUND_AT(j) ((j) < 1 || (j) > top ? INFINITY : upper ? \
		bs_upper_bound_ln(m, n, (j)) : bs_block_lower_bound_ln(m, n, (j), (j), ks->c))
	here = BOUND_AT(k);
	dir = BOUND_AT(k - 1) < here ? -1 : 1;
	for (;;)
	{
		ld			next = BOUND_AT(k + dir);

		if (!(next < here))
			break;
		k += dir;
		here = next;
	}
#undef BOUND_AT
	return k;
}

/*
 * A first guess of the optimum.  It lies between the minimisers kL of the
 * lower bound of 1. and kU of U (65) (Fig. 7: the rate bends away from the
 * lower bound towards U as k grows), at about 0.42 of the way from kL for
 * the standard filter and 0.69 for the classic one (fitted to exact optima
 * for m from 64 to 10^6; within 1 or 2 of them), for the classic one with
 * a few items 0.69 (1 - 0.8/n^2) (fitted to the optima of the sizings of
 * n = 2 to 6 items at 1e-6 to 1e-308: 0.55, 0.63, 0.66, 0.68, 0.69), and
 * kL itself for one item (k = m/2 maximises C(m,k): rate 1/C(m,k)).  Only
 * a starting point: the answer does not depend on it.
 */
int
bs_k_initial_guess(const k_search *ks)
{
	int			kl = bound_minimiser(ks, approximate_k(ks->m, ks->n, ks->c), 0);
	int			ku = bound_minimiser(ks, kl, 1);
	ld			fraction = ks->c != BS_CONSTRUCTION_CLASSIC ? 0.42L :
		0.69L * (1 - 0.8L / ((ld) ks->n * (ld) ks->n));

	if (ks->c == BS_CONSTRUCTION_CLASSIC && ks->n == 1)
		fraction = 0;

	return (int) floorl(kl - fraction * (kl - ku) + 0.5L);
}
