/*
 * bs_optimal_k.c — bs_optimal_k and bs_reaches_rate: the k minimising the
 * exact rate, and whether some k reaches a rate; and the method of every
 * search over k and m (below), which bs_optimal_k_bounds.c, bs_optimal_k_search.c and
 * bs_optimal_bits.c implement.
 */
#include "analysis/bs_analysis.h"
#include "analysis/bs_analysis_internal.h"

#include <stdlib.h>

/* ------------------------------------------------------------------------
 * Optimal k and m
 *
 * Both searches compute as few exact rates as they can (one costs some
 * 2-10 ms near k = 1000, up to 50 ms below 1e-420) and use cheap bounds to
 * rule out the rest.  They rest on the following facts.
 *
 * 1. Lower bounds valid for every k, cheap to evaluate (Jensen):
 *		standard	f_S >= M(m,n,k) = (mu_S/m)^k, mu_S = m(1-(1-1/m)^{nk})
 *					(eq. (57): x^k is convex);
 *		classic		f_C >= C(mu_C,k)/C(m,k), mu_C = m(1-(1-k/m)^n)
 *					(Theorem 15, middle inequality, and (64): x(x-1)...(x-k+1)
 *					is convex on [k-1, inf), and k <= X_C <= m once n >= 1).
 *    Block form: mu_S and mu_C grow with k, and both bounds are products of
 *    k factors in [0, 1] (mu/m, resp. (mu-i)/(m-i)); so for k1 <= k <= k2
 *    the bound of k is at least the bound computed with mu taken at k1 and
 *    k2 factors.  One evaluation thus rules out a whole block of k whose
 *    rates all exceed a threshold, and a bisection of [1, K_max] into
 *    blocks finds the few k the bounds cannot rule out in O(log K_max)
 *    evaluations where the bounds are tight (bs_k_undecided).
 *
 * 2. An upper bound, for k <= (m-1)/2 and both constructions: U (65) =
 *    (1-(1-k/m)^n)^k (Corollary 23).  When U <= fpr, k reaches fpr without
 *    an exact evaluation.
 *
 * 3. For fixed n and k the exact rate does not increase with m (couplings:
 *    a ball or a k-subset thrown among m+1 bits becomes one among m bits when
 *    the part that fell on bit m+1 is re-thrown among the others, which can
 *    only cover more of any given bits and merge more query positions; so
 *    Q_S(d), Q_C(k) and the law of the number D of distinct query positions
 *    all move the right way, and Q_S(d) decreases in d).  So
 *    F(m) = min_k f(m,n,k) does not increase with m (for the classic filter
 *    the range of k even grows with m), and "some k reaches rate <= fpr" is
 *    monotone in m, whatever the shape in k.  Once m is known to reach fpr,
 *    every larger m does; once it is known not to, no smaller m does.
 *
 * 4. f(m, n, .) is unimodal in k (decreasing, then nondecreasing): what
 *    Burns observes (Fig. 6-8) but does not prove.
 *    test/unit/analysis/test_analysis_optimal.c checks the answers against a brute force
 *    over all k for several hundred (m, n) pairs of both constructions.
 *
 * bs_optimal_k (bs_k_search_min).  First the bounds alone: when U (65) of
 * the guessed optimum is below the lower bound of every other k, that k is
 * the answer without any exact rate (optimum_by_bounds; typical at k =
 * K_max).  Else a walk to a local minimum of the exact rate
 * (bs_k_local_min): from a guess between the minimisers of the bounds of 1.
 * and 2. (bs_k_initial_guess), the exact rates at x-1, x, x+1 give a Newton
 * step on the discrete function, and a neighbour whose lower bound already
 * exceeds the rate at x is not even evaluated; some 1-5 exact rates.  Then
 * the bounds of 1. are asked which other k could still be better
 * (bs_k_certify, bs_k_undecided): none
 * (the usual case for large m, where the bounds are tight), or at most
 * CERTIFY_EXTRA, which are then evaluated, and the answer is certified.
 * Where they leave more (small m: the gap of the bounds grows like k^2/m,
 * and some 200 k fall below the optimum for m = 5000, n = 10), the local
 * minimum is returned, which is the global one by fact 4; the previous
 * versions of this search relied on fact 4 in the same cases.
 *
 * Why that is exactly "the k minimising the exact rate, ties to the
 * smaller k": every k of 1..K_max is either evaluated and compared, or has
 * a lower bound ((57), Theorem 15 and (64), with margins) above a rate
 * already computed, so it can neither beat nor tie it, or - only where the
 * bounds leave more than CERTIFY_EXTRA candidates - lies outside a local
 * minimum of a unimodal function (fact 4).  The guesses, Newton steps and
 * the order of the evaluations only decide which rates get computed.
 *
 * bs_optimal_bits decides "some k reaches fpr at m" (decide_bits) by, in
 * order: fact 3 applied to the m already decided; U (65) of a guessed k as
 * a witness (fact 2); the bounds of 1. ruling out every k; and only then
 * exact rates: bs_k_local_min, stopped at the first k that reaches fpr,
 * and, when none does, the certification above with fpr as the threshold.  A secant
 * iteration on ln f(m, k(m)) - ln fpr, k(m) a guess of the optimum at m
 * (a local minimum found at another m, scaled in proportion to m as the
 * optimal k is about (m/n) ln 2, eq. (67); else bs_k_initial_guess),
 * estimates the answer from 2-3 exact rates, starting at the textbook m (68); the
 * decisions then gallop from the estimate to a bracket and bisect it.  The
 * result is exactly the smallest m that reaches fpr, whatever the estimate:
 * it ends with good - bad = 1, good decided "yes" (a witness k) and bad
 * decided "no" (or bad = 0), and by fact 3 every m >= good reaches fpr and
 * no m <= bad does.
 *
 * bs_optimal_prime_bits (the sizing) makes the same decisions at primes
 * only: the smallest prime that reaches fpr is the next prime above the
 * smallest m that does (fact 3).  From an estimate taken at primes, it
 * computes the optimal k at the prime above the estimate (the sizing's
 * bs_optimal_k then finds those rates remembered), and decides the prime
 * below with those rates as floors: f(m', n, k) >= f(m, n, k) for m' < m
 * (fact 3), so a k whose rate at the larger prime misses fpr misses it
 * below too.  Decisions (also those of bs_optimal_bits) evaluate the few k
 * that neither the bounds nor the floors rule out directly when there are
 * at most WINDOW_CAP of them, a certificate that needs no fact 4.
 *
 * Rates within 1e-12 relative of each other (the accuracy of the
 * computation) count as ties, resolved to the smaller k; and a rate counts
 * as reaching fpr when it is within 1e-12 of it.  Bounds decide only with a
 * margin above their own rounding and the 2e-11 error bound of the computed
 * rates, so that they never decide otherwise than the computed rates would.
 * ------------------------------------------------------------------------ */

/* a decision evaluates the k left by the bounds when at most this many */
#define WINDOW_CAP 4

/*
 * Is k0 the optimum by the bounds alone, with no exact rate: is U (2.) of
 * k0 below the lower bound (1.) of every other k?  Then every other k has a
 * higher rate, not a tie.  That happens where the rate changes fast with k
 * next to the optimum compared with the gap of the bounds: typically at
 * k = K_max, for filters much sparser than optimal.
 */
static int
optimum_by_bounds(const k_search *ks, int k0)
{
	ld			m = (ld) ks->m;
	ld			u;

	if (2 * (ld) k0 > m - 1)
		return 0;
	u = bs_upper_bound_ln(m, (ld) ks->n, k0);
	u += bs_bound_slack(m, u);
	return (k0 == 1 || bs_k_undecided(ks, 1, k0 - 1, u, NULL, 0, 0) == 0) &&
		(k0 == ks->kmax || bs_k_undecided(ks, k0 + 1, ks->kmax, u, NULL, 0, 0) == 0);
}

/*
 * Does some k reach the target?  *k_out: such a k (0 when none), *ln_out its
 * rate (an upper bound of it when U decided).  guess as for bs_k_search_min.
 */
bs_status
bs_k_search_decide(k_search *ks, ld target, int guess, int64_t *k_out,
				   ld *ln_out, bs_error *err)
{
	ld			m = (ld) ks->m;
	int			base;
	int			k;
	int			list[WINDOW_CAP];
	int			count;
	int			i;
	bs_status	s = BS_OK;

	ks->decide = 1;
	ks->target = target;
	*k_out = 0;
	if (guess < 1)
		guess = bs_k_initial_guess(ks);

	/* a rate already known */
	for (k = 1; k <= ks->kmax; k++)
		if (ks->known[k] && bs_reaches_target(ks->ln[k], target))
		{
			*k_out = k;
			*ln_out = ks->ln[k];
			return BS_OK;
		}

	/* a witness by U (fact 2) */
	base = guess;
	for (k = base - 1; k <= base + 1; k++)
		if (k >= 1 && k <= ks->kmax && 2 * (ld) k <= m - 1)
		{
			ld			u = bs_upper_bound_ln(m, (ld) ks->n, k);

			if (bs_bound_reaches(m, u, target))
			{
				*k_out = k;
				*ln_out = u;
				return BS_OK;
			}
		}
	/* no k at all by the bounds of 1. */
	if ((count = bs_k_undecided(ks, 1, ks->kmax, target, list, 0, WINDOW_CAP)) == 0)
		return BS_OK;

	/*
	 * A few k left by the bounds (and by the floors, rates at a larger m):
	 * their exact rates decide, nearest the guess first; a complete
	 * certificate without fact 4.
	 */
	if (count <= WINDOW_CAP)
	{
		for (i = 0; i < count; i++)
		{
			int			j;
			int			nearest = i;

			for (j = i + 1; j < count; j++)
				if (abs(list[j] - guess) < abs(list[nearest] - guess))
					nearest = j;
			k = list[nearest];
			list[nearest] = list[i];

			/*
			 * below an m where k was computed (a "no" expected), first
			 * a lower bound of the chain
			 */
			if (isfinite(ks->floor[k]))
			{
				int			above;

				if (SEARCH_DONE(ks, s = bs_k_above_by_bound(ks, k, target, &above, err)))
					break;
				if (above)
					continue;
			}
			if (SEARCH_DONE(ks, s = bs_k_evaluate(ks, k, err)))
				break;
		}
		if (s == BS_OK && ks->reached != 0)
		{
			*k_out = ks->reached;
			*ln_out = ks->ln[ks->reached];
		}
		return s;
	}

	if (SEARCH_DONE(ks, s = bs_k_local_min(ks, guess, err)) ||
		SEARCH_DONE(ks, s = bs_k_certify(ks, err)))
	{
		if (s == BS_OK)
		{
			*k_out = ks->reached;
			*ln_out = ks->ln[ks->reached];
		}
		return s;
	}
	return BS_OK;
}

bs_status
bs_optimal_k(int64_t m, int64_t n, bs_construction c, int64_t *k_out,
			 bs_error *err)
{
	bs_status	s;
	k_search   *ks;
	int			guess;
	int64_t		ref_m;
	int			ref_k;

	if ((s = bs_check_bits(m, err)) != BS_OK || (s = bs_check_items(n, err)) != BS_OK ||
		(s = bs_check_construction(c, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*k_out = 1;
		return BS_OK;
	}
	if ((ks = bs_k_search_new(m, n, c, err, &s)) == NULL)
		return s;
	guess = bs_k_initial_guess(ks);
	if (bs_analysis_memo_ref(n, c, &ref_m, &ref_k))
	{
		/* near the minimum a search of this sizing walked to (eq. (67)) */
		ld			k = floorl((ld) ref_k * (ld) m / (ld) ref_m + 0.5L);

		guess = k < 1 ? 1 : k > ks->kmax ? ks->kmax : (int) k;
	}
	if (optimum_by_bounds(ks, guess))
		*k_out = guess;
	else if ((s = bs_k_search_min(ks, guess, err)) == BS_OK)
		*k_out = ks->best;
	bs_work_free(ks);
	return s;
}

bs_status
bs_reaches_rate(int64_t m, int64_t n, double fpr, bs_construction c,
				int *reaches, bs_error *err)
{
	bs_status	s;
	k_search   *ks;
	int64_t		k;
	ld			ln;

	if ((s = bs_check_bits(m, err)) != BS_OK || (s = bs_check_items(n, err)) != BS_OK ||
		(s = bs_check_rate(fpr, err)) != BS_OK ||
		(s = bs_check_construction(c, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*reaches = 1;
		return BS_OK;
	}
	if ((ks = bs_k_search_new(m, n, c, err, &s)) == NULL)
		return s;
	if ((s = bs_k_search_decide(ks, logl((ld) fpr), 0, &k, &ln, err)) == BS_OK)
		*reaches = k != 0;
	bs_work_free(ks);
	return s;
}
