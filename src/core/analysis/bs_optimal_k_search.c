/*
 * bs_optimal_k_search.c — the search over k for one (m, n): the exact rates
 * computed so far, the walk to a local minimum (Newton steps, then a
 * bracket), the chain's lower bounds that rule out a k without its exact
 * rate, and the certificate that no other k is better (bs_optimal_k.c
 * explains the method and the facts it rests on).
 */
#include "analysis/bs_analysis_internal.h"

#include <stdlib.h>

/* do two log-rates count as equal? */
static int
same_rate(ld a, ld b)
{
	if (isinf(a) || isinf(b))
		return a == b;
	return fabsl(a - b) <= 1e-12L * (1 + fabsl(a));
}

/* is k1 strictly better than k2 (lower rate, or a tie and k1 < k2)? */
int
bs_k_better(const k_search *ks, int k1, int k2)
{
	ld			a = ks->ln[k1];
	ld			b = ks->ln[k2];

	if (same_rate(a, b))
		return k1 < k2;
	return a < b;
}

/* record the exact rate ln of k */
static void
record(k_search *ks, int k, ld ln)
{
	ks->ln[k] = ln;
	ks->known[k] = 1;
	ks->evaluations++;
	bs_analysis_poll();
	if (ks->best == 0 || bs_k_better(ks, k, ks->best))
		ks->best = k;
	if (ks->decide && ks->reached == 0 && bs_reaches_target(ks->ln[k], ks->target))
		ks->reached = k;
}

/* the exact rate of k, once */
bs_status
bs_k_evaluate(k_search *ks, int k, bs_error *err)
{
	bs_status	s;
	ld			ln;

	if (ks->known[k])
		return BS_OK;
	if ((s = bs_rate_ln(ks->m, ks->n, k, ks->c, &ln, err)) != BS_OK)
		return s;
	record(ks, k, ln);
	return BS_OK;
}

/*
 * Is the rate of k (not evaluated) above threshold by a lower bound?  First
 * the bounds of 1. and the floor, then a lower bound from the chain itself
 * (bs_rate_bound_ln: truncated, and stopped once past the threshold, at a
 * fraction of the cost of the exact rate where the rate is clearly above),
 * which becomes k's floor; when that computes the exact rate instead, it is
 * recorded as evaluate would.  The margins: the bound's own rounding
 * (at most some 1e-11 relative, allowed 1e-10) and those of bs_bound_exceeds.
 */
bs_status
bs_k_above_by_bound(k_search *ks, int k, ld threshold, int *above, bs_error *err)
{
	ld			m = (ld) ks->m;
	ld			stop;
	ld			lb;
	int			partial;
	bs_status	s;

	*above = 0;
	if (ks->known[k] || isinf(threshold) || isnan(threshold))
		return BS_OK;
	if (bs_bound_exceeds(m, bs_block_lower_bound_ln(m, (ld) ks->n, k, k, ks->c), threshold) ||
		bs_bound_exceeds(m, ks->floor[k], threshold))
	{
		*above = 1;
		return BS_OK;
	}
	if (ks->c != BS_CONSTRUCTION_CLASSIC)
		return BS_OK;
	stop = threshold + bs_chain_bound_margin(m, threshold);
	if ((s = bs_rate_bound_ln(ks->m, ks->n, k, ks->c, stop, &lb, &partial, err)) != BS_OK)
		return s;
	bs_analysis_poll();
	if (!partial)
	{
		record(ks, k, lb);
		return BS_OK;
	}
	lb -= 1e-10L * (1 + fabsl(lb));
	if (lb > ks->floor[k])
	{
		ks->floor[k] = lb;
		ks->bounded[k] = 1;
	}
	*above = bs_bound_exceeds(m, lb, threshold);
	return BS_OK;
}

/*
 * Is the neighbour k of x (rate known) better than x?  k is evaluated
 * unless it is out of range or the bound of 1. shows its rate above x's.
 */
static bs_status
neighbour_better(k_search *ks, int x, int k, int *yes, bs_error *err)
{
	ld			m = (ld) ks->m;
	bs_status	s;
	int			above;
	int			beyond = 2 * k - x;

	*yes = 0;
	if (k < 1 || k > ks->kmax)
		return BS_OK;
	if (!ks->known[k])
	{
		if (bs_bound_exceeds(m, bs_block_lower_bound_ln(m, (ld) ks->n, k, k, ks->c), ks->ln[x]))
			return BS_OK;

		/*
		 * A chain's lower bound of k, unless the floors (rates at a larger
		 * m), shifted by x's change from there, predict k within a few
		 * times the bound's margin of x: a near tie, which it cannot
		 * settle.
		 */
		if (!(isfinite(ks->floor[k]) && isfinite(ks->floor[x]) &&
			  ks->floor[k] + (ks->ln[x] - ks->floor[x]) <
			  ks->ln[x] + 4 * bs_chain_bound_margin(m, ks->ln[x])) &&
			(SEARCH_DONE(ks, s = bs_k_above_by_bound(ks, k, ks->ln[x], &above, err)) || above))
			return s;

		/*
		 * Deciding (x above the target), a near tie need not be resolved:
		 * when k is above the target too and the k beyond it, on the far
		 * side from x, is worse than x, the minimum is x or k (fact 4), so
		 * above the target whichever it is, and the walk may stop at x.
		 */
		if (ks->decide && !(ks->ln[x] <= ks->target))
		{
			if (!bs_bound_exceeds(m, ks->floor[k], ks->target) &&
				SEARCH_DONE(ks, s = bs_k_above_by_bound(ks, k, ks->target, &above, err)))
				return s;
			if (!ks->known[k] && bs_bound_exceeds(m, ks->floor[k], ks->target))
			{
				if (beyond < 1 || beyond > ks->kmax)
					return BS_OK;
				if (!ks->known[beyond] &&
					SEARCH_DONE(ks, s = bs_k_above_by_bound(ks, beyond, ks->ln[x], &above, err)))
					return s;
				if (ks->known[beyond] ? !bs_k_better(ks, beyond, x) : above)
					return BS_OK;
			}
		}
	}
	if (SEARCH_DONE(ks, s = bs_k_evaluate(ks, k, err)))
		return s;
	*yes = bs_k_better(ks, k, x);
	return BS_OK;
}

/*
 * A Newton step on the discrete rates at x-1, x, x+1, when they are known
 * and curve upwards; 0 otherwise.  At most `cap` long.
 */
static int
newton_step(const k_search *ks, int x, int cap)
{
	ld			fl;
	ld			f0;
	ld			fr;
	ld			h;
	ld			step;

	if (x <= 1 || x >= ks->kmax || !ks->known[x - 1] || !ks->known[x + 1])
		return 0;
	fl = ks->ln[x - 1];
	f0 = ks->ln[x];
	fr = ks->ln[x + 1];
	h = fr - 2 * f0 + fl;
	if (!isfinite(fl) || !isfinite(f0) || !isfinite(fr) || !(h > 0))
		return 0;
	step = -(fr - fl) / (2 * h);
	if (step > cap)
		step = cap;
	if (step < -cap)
		step = -cap;
	return (int) floorl(step + 0.5L);
}

/*
 * The minimum of f over [lo, hi] for f unimodal in k (fact 4), given x in
 * it, better than its known neighbour on one side: walk from x in direction
 * dir (+1 or -1) with doubling steps until the rate rises again, which
 * brackets the minimum, then shrink the bracket by golden-section search
 * (ties go to the smaller k), and finally evaluate the last few candidates.
 * One exact rate per step: the fallback when Newton steps do not apply.
 */
static bs_status
bracket_min(k_search *ks, int x, int dir, int lo, int hi, bs_error *err)
{
	int			step = 1;
	int			yes;
	int			k;
	bs_status	s = BS_OK;

	/* walk: the bracket is [lo, hi] with x inside and better than both ends */
	for (;;)
	{
		int			next = x + dir * step;

		if (next < lo)
			next = lo;
		if (next > hi)
			next = hi;
		if (next == x)
			break;
		if (SEARCH_DONE(ks, s = neighbour_better(ks, x, next, &yes, err)))
			return s;
		if (!yes)
		{
			if (dir > 0)
				hi = next;
			else
				lo = next;
			break;
		}
		if (dir > 0)
			lo = x;
		else
			hi = x;
		x = next;
		step *= 2;
	}

	/* golden section: probe the larger side, 0.382 of it away from x */
	while (hi - lo > 2)
	{
		int			y;

		if (x - lo > hi - x)
			y = x - (int) (0.381966 * (x - lo) + 0.5);
		else
			y = x + (int) (0.381966 * (hi - x) + 0.5);
		if (y == x)
			y = (x - lo > hi - x) ? x - 1 : x + 1;
		if (SEARCH_DONE(ks, s = neighbour_better(ks, x, y, &yes, err)))
			return s;
		if (yes)
		{
			if (y < x)
				hi = x;
			else
				lo = x;
			x = y;
		}
		else if (y < x)
			lo = y;
		else
			hi = y;
	}
	for (k = lo; k <= hi; k++)
	{
		if (k == x)
			continue;
		if (SEARCH_DONE(ks, s = neighbour_better(ks, x, k, &yes, err)))
			return s;
		if (yes)
			x = k;
	}
	return s;
}

#define WALK_STEPS 8
/* the first Newton step moves at most this far; later ones, twice the last */
#define FIRST_STEP_CAP 64

/*
 * Walk from start to a local minimum of the exact rate: a k whose
 * neighbours are not better (ties go to the smaller k), each either
 * evaluated or ruled out by the bound of 1.  Newton steps on the rates at
 * x-1, x, x+1; [lo, hi] keeps the part of 1..kmax where the minimum lies if
 * the rate is unimodal (fact 4), and bracket_min takes over when a Newton
 * step does not apply.  In decide mode the walk stops at the first k that
 * reaches the target.
 */
bs_status
bs_k_local_min(k_search *ks, int start, bs_error *err)
{
	int			lo = 1;
	int			hi = ks->kmax;
	int			x = start < 1 ? 1 : start > ks->kmax ? ks->kmax : start;
	int			cap = FIRST_STEP_CAP;
	int			i;
	bs_status	s;

	ks->walked = 1;
	if (SEARCH_DONE(ks, s = bs_k_evaluate(ks, x, err)))
		return s;
	for (i = 0; i < WALK_STEPS; i++)
	{
		int			left;
		int			right;
		int			b;
		int			step;
		int			next;

		/*
		 * x - 1 better: x + 1 cannot be better too (fact 4, which the walk
		 * rests on), so it is not evaluated unless known; the walk then
		 * goes on by bracket_min where Newton lacks it
		 */
		if (SEARCH_DONE(ks, s = neighbour_better(ks, x, x - 1, &left, err)))
			return s;
		right = 0;
		if (!(left && x + 1 <= ks->kmax && !ks->known[x + 1]) &&
			SEARCH_DONE(ks, s = neighbour_better(ks, x, x + 1, &right, err)))
			return s;
		if (left && right)
			b = bs_k_better(ks, x - 1, x + 1) ? x - 1 : x + 1;
		else
			b = left ? x - 1 : right ? x + 1 : x;
		if (b == x)
			return BS_OK;
		if (b > x)
			lo = x + 1;
		else
			hi = x - 1;
		step = newton_step(ks, x, cap);
		if (step == 0)
			return bracket_min(ks, b, b - x, lo, hi, err);
		next = x + step;
		if ((b > x && next < b) || (b < x && next > b))
			next = b;
		if (next < lo)
			next = lo;
		if (next > hi)
			next = hi;
		cap = 2 * abs(next - x) > FIRST_STEP_CAP ? 2 * abs(next - x) : FIRST_STEP_CAP;
		x = next;
		if (SEARCH_DONE(ks, s = bs_k_evaluate(ks, x, err)))
			return s;
	}
	return bracket_min(ks, x, 1, lo, hi, err);
}

/*
 * Exact evaluations allowed to complete a certificate (bs_optimal_k.c); fewer
 * near k = 1000, where an evaluation costs some 5-10 ms.
 */
#define CERTIFY_EXTRA 6
#define CERTIFY_EXTRA_LARGE_K 2
#define LARGE_K 128

/*
 * After bs_k_local_min: rule out every other k with the bounds, evaluating the
 * few they leave (and walking on if one of them is better).  threshold: the
 * best rate (minimisation) or the target (decision).  Returns with the
 * certificate complete, or, when the bounds leave too many k, relying on
 * fact 4.
 */
bs_status
bs_k_certify(k_search *ks, bs_error *err)
{
	int			list[CERTIFY_EXTRA];
	int			rounds;
	bs_status	s = BS_OK;

	for (rounds = 0; rounds < 4; rounds++)
	{
		int			cap = ks->best > LARGE_K ? CERTIFY_EXTRA_LARGE_K : CERTIFY_EXTRA;
		ld			threshold = ks->decide ? ks->target : ks->ln[ks->best];
		int			count = bs_k_undecided(ks, 1, ks->kmax, threshold, list, 0, cap);
		int			old_best = ks->best;
		int			i;

		if (count == 0 || count > cap)
			return BS_OK;
		for (i = 0; i < count; i++)
		{
			int			above;

			if (SEARCH_DONE(ks, s = bs_k_above_by_bound(ks, list[i], threshold, &above, err)))
				return s;
			if (!above && SEARCH_DONE(ks, s = bs_k_evaluate(ks, list[i], err)))
				return s;
		}
		if (ks->best != old_best &&
			SEARCH_DONE(ks, s = bs_k_local_min(ks, ks->best, err)))
			return s;
	}
	return s;
}

k_search *
bs_k_search_new(int64_t m, int64_t n, bs_construction c, bs_error *err,
				bs_status *status)
{
	k_search   *ks = bs_work_alloc_bytes(sizeof(k_search), err, status);
	int			k;

	if (ks != NULL)
	{
		ks->m = m;
		ks->n = n;
		ks->c = c;
		ks->kmax = bs_search_limit(m, c);
		for (k = 0; k <= BS_ANALYSIS_SEARCH_HASHES; k++)
			ks->floor[k] = -INFINITY;
	}
	return ks;
}

/*
 * The k minimising the exact rate (ties to the smaller k) and its ln, n >= 1.
 * guess: a k near the optimum, or 0.
 */
bs_status
bs_k_search_min(k_search *ks, int guess, bs_error *err)
{
	bs_status	s;

	if (guess < 1)
		guess = bs_k_initial_guess(ks);
	if ((s = bs_k_local_min(ks, guess, err)) != BS_OK)
		return s;
	return bs_k_certify(ks, err);
}
