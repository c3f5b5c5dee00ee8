/*
 * bs_analysis.h — exact false-positive analysis of Bloom filters, free of
 * PostgreSQL headers.
 *
 * Two constructions are analysed (Burns, "occupancy moments and Bloom filter
 * efficiency", section 3.2):
 *
 *	standard	each of the n items sets k independent, uniformly random
 *				positions among the m bits (kn balls into m bins); the rate is
 *				f_S = E[(X/m)^k] with X the number of set bits (eq. (56));
 *	classic		each item sets k DISTINCT positions (Bloom's original
 *				construction, the committee model); the rate is
 *				f_C = E[C(X,k)] / C(m,k) (eq. (60)).  Needs k <= m.
 *
 * The rates are the exact expectations over the random hash values, computed
 * with a rigorous relative error bound of 2e-11 (observed below 1e-13; see
 * the block comment at the top of bs_analysis.c for the methods and the
 * error bounds).  Nothing is approximated, for small or large filters.  Rates below the
 * smallest positive double (about 4.9e-324) are returned as 0; rates in the
 * subnormal range (below 2.2e-308) carry the reduced relative precision of
 * subnormal doubles.  bs_fpr_exact_log returns the natural logarithm instead,
 * which stays accurate far below that (down to about 1e-4900).
 *
 * Speed (x86-64): under 1 ms for k <= 64 and about 1-3 ms for k near 1000
 * (up to some 35 ms where the chain is longest, and for rates below 1e-420,
 * which take a long double path),
 * for any m up to 2^33 and n up to 10^9; bench/analysis_speed.c measures
 * every function over the corners of the ranges.  Larger k costs about
 * k min(k, m) steps.
 *
 * Arguments: m >= 1 bits, n >= 0 items, 1 <= k <= BS_ANALYSIS_MAX_HASHES
 * hashes; a rate argument must lie in (0, 1).  Violations give BS_ERR_PARAM
 * (22023).  n = 0 gives rate 0.
 *
 * Every function may be called with err == NULL.
 */
#ifndef BS_ANALYSIS_H
#define BS_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/bs_analysis_memory.h"	/* allocation hooks, memo_begin/end */
#include "analysis/bs_analysis_params.h"
#include "common/bs_error.h"

/* The exact expected false-positive rate f(m, n, k) of either construction. */
bs_status	bs_fpr_exact(int64_t m, int64_t n, int64_t k, bs_construction c,
						 double *out, bs_error *err);

/*
 * ln f(m, n, k); -HUGE_VAL when the rate is 0 (n = 0).  Rates below the
 * long double range (e.g. a classic filter holding one item, rate 1/C(m,k),
 * with C(m,k) > 1e4932) come out as finite logarithms too: the classic
 * chain is tilted there (bs_rate_classic.c, bs_classic_ln).
 */
bs_status	bs_fpr_exact_log(int64_t m, int64_t n, int64_t k, bs_construction c,
							 double *ln_out, bs_error *err);

/* The textbook approximation (1 - e^{-kn/m})^k, eq. (58), computed stably. */
bs_status	bs_fpr_approx(int64_t m, int64_t n, int64_t k, double *out,
						  bs_error *err);

/*
 * Bounds lower <= f <= upper that hold for both constructions (for the
 * classic one only where it exists, k <= m).
 *
 *	1 <= k <= (m-1)/2	Corollary 23: lower = L (64) = the k-th backward
 *						difference of x^{nk} at m over m^{nk}, i.e. the
 *						probability that k given bits are set after nk
 *						independent balls (computed exactly, as the rates);
 *						upper = U (65) = (1 - (1 - k/m)^n)^k.
 *	(m-1)/2 < k <= m	The corollary does not apply.  lower = L as above,
 *						still valid (f_S >= L termwise, and the classic
 *						occupancy dominates the standard one); upper =
 *						mu_C/m = 1 - (1 - k/m)^n, valid because (x/m)^k and
 *						C(x,k)/C(m,k) are at most x/m for 0 <= x <= m.
 *	k > m				Only the standard filter exists.  lower = M (57) =
 *						(1 - (1 - 1/m)^{nk})^k (Jensen); upper = mu_S/m =
 *						1 - (1 - 1/m)^{nk}.
 *	n = 0				lower = upper = 0.
 */
bs_status	bs_fpr_bounds(int64_t m, int64_t n, int64_t k, double *lower,
						  double *upper, bs_error *err);

/*
 * The k in 1..K_max minimising the exact rate of m bits holding n items, ties
 * to the smaller k, where K_max = BS_ANALYSIS_SEARCH_HASHES for the standard
 * filter and min(m, BS_ANALYSIS_SEARCH_HASHES) for the classic one.  When the
 * unconstrained optimum lies beyond K_max (n much smaller than m), K_max is
 * returned.  n = 0: every k gives rate 0, so the answer is 1.  Rates within
 * 1e-12 relative of each other (the accuracy of the computation) count as
 * ties.  Method (the opening comment of bs_optimal_k.c): a walk with Newton
 * steps on the exact rates from a guess between the minimisers of the lower
 * bound (57)/(64) and the upper bound (65) reaches a local minimum in some
 * 1-5 exact evaluations; the bounds then rule out every other k (bisecting
 * 1..K_max into blocks), or leave a few that are evaluated too, which
 * certifies the optimum.  Only where the bounds leave many k (small m, k in
 * the hundreds) does the answer rely on the rate being unimodal in k, which
 * Burns observes and test/unit/analysis/test_analysis_optimal.c checks by brute force.
 * Often no exact rate at all is needed (optimum at K_max).  Up to 100 ms for
 * optima near k = 1000, well under 1 ms for k <= 64.
 */
bs_status	bs_optimal_k(int64_t m, int64_t n, bs_construction c, int64_t *k_out,
						 bs_error *err);

/*
 * The smallest m for which some k in 1..K_max (as for bs_optimal_k) reaches
 * an exact rate <= fpr with n items (decided on the computed rates, to
 * within 1e-12 relative: an exact tie such as rate 1/2 for fpr 1/2 counts
 * as reaching it).  n = 0 gives 1.  BS_ERR_TOO_LARGE (54000) when that m
 * exceeds BS_ANALYSIS_MAX_BITS.  The rate does not increase with m for any
 * fixed n, k (proof by coupling in bs_optimal_k.c), so the answer is found by
 * a secant estimate from a few exact rates, then galloping and bisection on
 * the decision "some k reaches fpr at m", which bounds settle for most m;
 * the decisions near the answer take a few exact rates each (some 4-10 in
 * all).  About 0.2 ms for fpr >= 1e-19 (k <= 64), up to some 50 ms at
 * 1e-300 (k near 1000).
 */
bs_status	bs_optimal_bits(int64_t n, double fpr, bs_construction c,
							int64_t *m_out, bs_error *err);

/*
 * The smallest prime m in [lo, hi] for which some k reaches an exact rate
 * <= fpr, decided as bs_optimal_bits decides it; hi must be a prime that
 * reaches it (else BS_ERR_TOO_LARGE), lo >= 2.  Because "some k reaches
 * fpr" can only switch from no to yes as m grows, that is the smallest
 * prime >= max(lo, bs_optimal_bits(n, fpr, c)), found with decisions at
 * primes only: one that reaches fpr and the prime below, which does not,
 * and no decision next to a composite m.  The exact rates it computes at
 * primes, and the estimate with which it starts, are taken where the
 * answer is expected, so that in a sizing (bs_analysis_memo_begin) the
 * optimal k at the answer reuses them.  n = 0 gives the first prime >= lo.
 */
bs_status	bs_optimal_prime_bits(int64_t n, double fpr, bs_construction c,
								  int64_t lo, int64_t hi, int64_t *m_out,
								  bs_error *err);

/*
 * Does some k in 1..K_max (as for bs_optimal_k) reach an exact rate <= fpr
 * with m bits and n items, decided as bs_optimal_bits decides it?  The best
 * rate does not increase with m, so *reaches is "bs_optimal_bits(n, fpr, c)
 * <= m", at the cost of one of its decisions (often settled by bounds
 * alone).  n = 0 reaches every rate.
 */
bs_status	bs_reaches_rate(int64_t m, int64_t n, double fpr, bs_construction c,
							int *reaches, bs_error *err);

/*
 * Efficiency n log2(1/p) / m (section 4) with p the exact rate, computed
 * from ln p (so also for rates below the double range).  0 when n = 0 or
 * p = 1; BS_ERR_TOO_LARGE when ln p is not available (see bs_fpr_exact_log).
 */
bs_status	bs_efficiency(int64_t m, int64_t n, int64_t k, bs_construction c,
						  double *out, bs_error *err);

/*
 * The information-theoretic space lower bound n log2(1/fpr) bits for any
 * structure answering membership of n items at false-positive rate fpr
 * (Wulff-Nilsen, lecture notes, "Lower bound"; derived there for a universe
 * much larger than n/fpr).  A real value, not rounded up.
 */
bs_status	bs_space_lower_bound(int64_t n, double fpr, double *bits_out,
								 bs_error *err);

#endif							/* BS_ANALYSIS_H */
