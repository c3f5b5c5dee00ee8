/*
 * bs_analysis.c — exact false-positive rates of standard and classic Bloom
 * filters, their bounds and efficiency: the public rate functions, and the
 * method of the whole exact analysis, whose parts live in the files that
 * bs_analysis_internal.h lists (the searches for the optimal k and m:
 * bs_optimal_k.c).
 *
 * METHOD
 * ======
 * Both rates are probabilities that a set of target bits is entirely set.
 *
 *	standard	The k probe positions of a query hit D distinct bits, where
 *				T(d) = P(D = d) = S(k,d) m^(d falling) / m^k (a Stirling
 *				number; computed by the positive recursion T_{t+1}(d) =
 *				T_t(d) d/m + T_t(d-1) (m-d+1)/m over the k draws).  Given D = d
 *				the query is a false positive iff d given bits are all set by
 *				the N = nk independent balls of the n items, an event of
 *				probability Q_S(d) = sum_j (-1)^j C(d,j) (1 - j/m)^N.  So
 *				f_S = sum_d T(d) Q_S(d): Theorem 22, eq. (56), regrouped into a
 *				sum of POSITIVE terms.
 *	classic		f_C = Q_C(k) = P(k given bits all set by n random k-subsets)
 *				= sum_j (-1)^j C(k,j) [C(m-j,k)/C(m,k)]^n, eq. (60).
 *
 * The alternating sums cancel catastrophically when the filter is not
 * saturated, so each Q is computed in one of two ways.
 *
 * (a) Direct sum, in long double (64-bit significand), together with a
 *     rigorous running bound on its rounding error: every term's relative
 *     error is bounded from the error of log1p, of the prefix sums of logs,
 *     of N times a logarithm and of exp (about u (2|y| + N j/(m-j) + 2) for a
 *     term exp(y), u = 2^-64), plus u per addition.  The result is accepted
 *     only when that bound is at most 1e-13 of the result.  This path serves
 *     saturated filters (where the terms decay fast and nothing cancels), for
 *     which the method (b) would need too many steps.
 *
 * (b) An exact Markov chain with only nonnegative terms.  Take the K target
 *     bits (K = min(k, m) for the standard filter, K = k for the classic).
 *     Each item (a ball for the standard filter, a k-subset for the classic
 *     one) misses all targets with probability 1 - p, independently, so the
 *     number A of items that hit a target is Binomial(n_items, p), and given
 *     A = a the covered targets follow a chain over those a items only: from
 *     u uncovered targets, a hitting item covers j new ones with probability
 *     tau_u(j) = [C(u,j) C(m-u,s-j)/C(m,s) - [j=0] (1-p)] / p (s = 1 or k;
 *     for s = 1 this is u/K for j = 1).  The rate is sum_a Bin(a) E[g(U_a)]
 *     with g the quantity of interest (classic: [u = 0]; standard: the
 *     positive mixture sum_d T(d) C(y,d)/C(K,d) of y = K - u covered targets,
 *     by exchangeability of the targets).  Everything is a sum of products of
 *     nonnegative numbers computed to a few ulps (the binomial weights and
 *     the hypergeometric rows by ratio recursions, 1 - p and its complement
 *     through expm1/log1p of exactly summed logarithms), so rounding errors
 *     grow only linearly with the number of steps, never by cancellation.
 *     The state vector is kept in double, scaled, when the rate is
 *     expected above 1e-420 (4-6 times faster): at most (J + 2) 2^-53 per
 *     step, below 2e-11 for the longest chains in range (~6000 steps), plus
 *     a bounded, checked absolute error from the double range, and the
 *     entries that can no longer matter dropped, with an error bound below
 *     1e-15 checked after the run (see fast_state, bs_rate_chain.c); in
 *     long double otherwise: below 1e-14.  The binomial
 *     weights carry a separate logarithmic scale, so they never underflow.
 *     Two truncations, both with rigorous bounds:
 *       - the sum over a stops once past the mode of the binomial, when the
 *         remaining weight, at most w_{a+1} / (1 - rho_a) (the ratios
 *         rho_a = w_{a+1}/w_a decrease), is below 1e-18 of the sum so far
 *         (g <= 1, so that bounds the neglected part);
 *       - classic only, for large m: a hitting item is allowed to cover at
 *         most J new targets.  The dropped probability is at most
 *         n sum_{h>J} P(|item ∩ targets| = h) Q'_C(k-h), Q'_C the rate of
 *         the other n - 1 items (they must cover the other targets), and
 *         Theorem 15 gives Q'_C(r) <= (mu'/m)^r and Q_C(k) >= C(mu,k)/C(m,k),
 *         mu = m(1-(1-k/m)^n), mu' the same for n - 1 items, for
 *         r <= k < m/2; J is the smallest value for which the resulting
 *         bound on the relative error is below 1e-15.
 *     Costs: O(A K J) with A about n_items p plus tails; (a) fails only when
 *     the filter is not saturated (load nk/m below about ln(k)), which keeps
 *     A below a few times K.
 *
 * WHAT IS EXACT, WHAT IS APPROXIMATED.  Nothing is approximated in the
 * probability model, for small or large filters: no normal, Poisson or
 * saddle-point approximation, no asymptotic expansion.  Every term is an
 * exact-in-distribution quantity evaluated in floating point; the only
 * departures from the exact rational value are rounding (bounded as above,
 * a posteriori for (a)) and the two truncations (bounded a priori).  The
 * total is below 2e-11 relative everywhere in range (observed: below 1e-13
 * against exact rationals for m <= 5000, nk <= 50000, and against 60-digit
 * mpmath for m up to 2^33, n up to 10^9; see test/unit/analysis/test_analysis_rates.c,
 * which also compares with an independent whole-filter occupancy chain).
 *
 * RANGE.  The rates are carried as logarithms.  The standard rate is
 * accurate however small; the classic chain, below e^-10000 (near the
 * bottom of the long double range, e.g. one item: rate 1/C(m,k)), runs
 * with its transitions tilted by a constant per covered target, which
 * multiplies the rate by a known factor (see bs_classic_ln), so its
 * logarithm stays finite and accurate there too.
 *
 * long double is the x87 80-bit format on x86-64 (where the timings of
 * test/unit/analysis/test_analysis.c were measured).  On aarch64 it is IEEE quad, done in
 * software: as accurate, several times slower.  Where long double is the
 * same as double the code still works (untested), but the rounding bounds
 * grow by 2^11, more cases fall to the slower path (b), and the range below
 * 1e-308 is lost.
 */

#include "analysis/bs_analysis.h"
#include "analysis/bs_analysis_internal.h"

#include <float.h>

/* ------------------------------------------------------------------------
 * Argument checks
 * ------------------------------------------------------------------------ */

bs_status
bs_check_bits(int64_t m, bs_error *err)
{
	if (m < 1)
		return bs_fail(err, BS_ERR_PARAM, "number of bits must be at least 1",
					   "The number of bits given was %lld.", (long long) m);
	return BS_OK;
}

bs_status
bs_check_items(int64_t n, bs_error *err)
{
	if (n < 0)
		return bs_fail(err, BS_ERR_PARAM, "number of items must not be negative",
					   "The number of items given was %lld.", (long long) n);
	return BS_OK;
}

static bs_status
check_hashes(int64_t k, bs_error *err)
{
	if (k < 1 || k > BS_ANALYSIS_MAX_HASHES)
		return bs_fail(err, BS_ERR_PARAM,
					   "number of hashes must be between 1 and 65536",
					   "The number of hashes given was %lld.", (long long) k);
	return BS_OK;
}

bs_status
bs_check_construction(bs_construction c, bs_error *err)
{
	if (c != BS_CONSTRUCTION_STANDARD && c != BS_CONSTRUCTION_CLASSIC)
		return bs_fail(err, BS_ERR_PARAM, "unknown bloom filter construction",
					   "The construction code given was %d.", (int) c);
	return BS_OK;
}

bs_status
bs_check_rate(double fpr, bs_error *err)
{
	if (!(fpr > 0.0 && fpr < 1.0))
		return bs_fail(err, BS_ERR_PARAM,
					   "false-positive rate must be greater than 0 and less than 1",
					   "The rate given was %.15g.", fpr);
	return BS_OK;
}

static bs_status
check_all(int64_t m, int64_t n, int64_t k, bs_construction c, bs_error *err)
{
	bs_status	s;

	if ((s = bs_check_bits(m, err)) != BS_OK ||
		(s = bs_check_items(n, err)) != BS_OK ||
		(s = check_hashes(k, err)) != BS_OK ||
		(s = bs_check_construction(c, err)) != BS_OK)
		return s;
	if (c == BS_CONSTRUCTION_CLASSIC && k > m)
		return bs_fail(err, BS_ERR_PARAM,
					   "classic bloom filter needs at most as many hashes as bits",
					   "A classic filter sets k distinct bits per item, so k = %lld cannot exceed m = %lld.",
					   (long long) k, (long long) m);
	return BS_OK;
}

/* ------------------------------------------------------------------------
 * Public functions
 * ------------------------------------------------------------------------ */

/*
 * ln f for checked arguments, or (stop_ln finite) possibly only a lower
 * bound of it, *partial then set, that passes stop_ln when it can (see
 * bs_classic_ln; the standard rate is always exact).  partial may be NULL
 * when stop_ln is +inf.
 */
bs_status
bs_rate_bound_ln(int64_t m, int64_t n, int64_t k, bs_construction c,
				 ld stop_ln, ld *ln_out, int *partial, bs_error *err)
{
	work		wk = {0};
	bs_status	s;
	int			dummy;

	if (partial == NULL)
		partial = &dummy;
	*partial = 0;
	if (n == 0)
	{
		*ln_out = -INFINITY;
		return BS_OK;
	}
	if (bs_analysis_memo_find(m, n, k, c, stop_ln, ln_out, partial))
		return BS_OK;
	s = c == BS_CONSTRUCTION_STANDARD ? bs_standard_ln(m, n, k, ln_out, &wk, err) :
		bs_classic_ln(m, n, k, stop_ln, ln_out, partial, &wk, err);
	if (s == BS_OK)
		bs_analysis_memo_add(m, n, k, c, *ln_out, *partial);
	return s;
}

/* ln f for checked arguments */
bs_status
bs_rate_ln(int64_t m, int64_t n, int64_t k, bs_construction c, ld *ln_out,
		   bs_error *err)
{
	return bs_rate_bound_ln(m, n, k, c, INFINITY, ln_out, NULL, err);
}

static double
ln_to_rate(ld ln)
{
	ld			r;

	if (isinf(ln))
		return 0.0;
	r = expl(ln);
	if (r > 1)
		r = 1;
	return (double) r;
}

bs_status
bs_fpr_exact(int64_t m, int64_t n, int64_t k, bs_construction c, double *out,
			 bs_error *err)
{
	bs_status	s;
	ld			ln;

	if ((s = check_all(m, n, k, c, err)) != BS_OK)
		return s;
	if ((s = bs_rate_ln(m, n, k, c, &ln, err)) != BS_OK)
		return s;
	*out = ln_to_rate(ln);
	return BS_OK;
}

bs_status
bs_fpr_exact_log(int64_t m, int64_t n, int64_t k, bs_construction c,
				 double *ln_out, bs_error *err)
{
	bs_status	s;
	ld			ln;

	if ((s = check_all(m, n, k, c, err)) != BS_OK)
		return s;
	if ((s = bs_rate_ln(m, n, k, c, &ln, err)) != BS_OK)
		return s;
	*ln_out = isinf(ln) ? -HUGE_VAL : (double) (ln > 0 ? 0 : ln);
	return BS_OK;
}

bs_status
bs_fpr_approx(int64_t m, int64_t n, int64_t k, double *out, bs_error *err)
{
	bs_status	s;
	ld			base;

	if ((s = check_all(m, n, k, BS_CONSTRUCTION_STANDARD, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*out = 0.0;
		return BS_OK;
	}
	base = -expm1l(-(ld) k * (ld) n / (ld) m);	/* 1 - e^{-kn/m} */
	*out = (double) expl((ld) k * logl(base));
	return BS_OK;
}

/* (1 - (1 - q)^e)^power with 1 - q given as its logarithm */
static ld
power_of_complement(ld log_one_minus_q, ld e, ld power)
{
	ld			base = -expm1l(e * log_one_minus_q);

	if (base <= 0)
		return 0;
	return expl(power * logl(base));
}

bs_status
bs_fpr_bounds(int64_t m, int64_t n, int64_t k, double *lower, double *upper,
			  bs_error *err)
{
	bs_status	s;
	ld			mm = (ld) m;
	ld			nn = (ld) n;
	ld			kk = (ld) k;

	if ((s = check_all(m, n, k, BS_CONSTRUCTION_STANDARD, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*lower = *upper = 0.0;
		return BS_OK;
	}
	if (k <= m)
	{
		ld			ln_l;
		work		wk = {0};

		if ((s = bs_standard_cover_ln(m, n, k, &ln_l, &wk, err)) != BS_OK)
			return s;
		*lower = ln_to_rate(ln_l);
		if (2 * k <= m - 1)
			*upper = (double) power_of_complement(log1pl(-kk / mm), nn, kk);	/* U (65) */
		else
			*upper = (double) (k == m ? 1 : power_of_complement(log1pl(-kk / mm), nn, 1));
	}
	else
	{
		/* k > m: M (57) and mu_S / m */
		ld			l1 = log1pl(-1 / mm);

		*lower = (double) power_of_complement(l1, nn * kk, kk);
		*upper = (double) power_of_complement(l1, nn * kk, 1);
	}
	if (*lower > *upper)
		*lower = *upper;		/* only by rounding, when both are equal */
	return BS_OK;
}

bs_status
bs_efficiency(int64_t m, int64_t n, int64_t k, bs_construction c, double *out,
			  bs_error *err)
{
	bs_status	s;
	ld			ln;

	if ((s = check_all(m, n, k, c, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*out = 0.0;
		return BS_OK;
	}
	if ((s = bs_rate_ln(m, n, k, c, &ln, err)) != BS_OK)
		return s;
	if (isinf(ln))
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "false-positive rate is too small to compute its efficiency",
					   "The rate of m = %lld, n = %lld, k = %lld underflows the long double range.",
					   (long long) m, (long long) n, (long long) k);
	if (ln > 0)
		ln = 0;
	*out = (double) ((ld) n * -ln / (logl(2) * (ld) m));
	return BS_OK;
}

bs_status
bs_space_lower_bound(int64_t n, double fpr, double *bits_out, bs_error *err)
{
	bs_status	s;

	if ((s = bs_check_items(n, err)) != BS_OK || (s = bs_check_rate(fpr, err)) != BS_OK)
		return s;
	*bits_out = (double) ((ld) n * -log2l((ld) fpr));
	return BS_OK;
}
