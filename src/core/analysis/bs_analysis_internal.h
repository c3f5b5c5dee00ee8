/*
 * bs_analysis_internal.h — what the files of the exact analysis share; not
 * part of the library's interface, which is bs_analysis.h.
 *
 *	bs_analysis.c		the method (its opening comment), argument checks and
 *						the public rate functions: exact, bounds, efficiency
 *	bs_analysis_memory.h	working memory, interrupt polling, what a sizing
 *						remembers (declared there, not here)
 *	bs_rate_chain.c		the hitting-item chain, method (b)
 *	bs_rate_standard.c	the standard filter's rate
 *	bs_rate_classic.c	the classic filter's rate
 *	bs_optimal_k.c		bs_optimal_k, bs_reaches_rate, and the method of the
 *						searches over k and m
 *	bs_optimal_k_bounds.c		the searches' cheap bounds and guesses
 *	bs_optimal_k_search.c		the search over k for one (m, n)
 *	bs_optimal_bits.c	bs_optimal_bits and bs_optimal_prime_bits
 */
#ifndef BS_ANALYSIS_INTERNAL_H
#define BS_ANALYSIS_INTERNAL_H

#include "analysis/bs_analysis_memory.h"
#include "analysis/bs_analysis_params.h"
#include "common/bs_error.h"
#include "analysis/bs_rate_chain_step.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* the analysis computes in long double throughout */
typedef long double ld;
typedef bs_analysis_work work;

/* unit roundoff of long double */
#define ULP ((ld) LDBL_EPSILON / 2)

/* accept the direct sum when its rounding-error bound is below this */
#define DIRECT_TOLERANCE 1e-13L
/*
 * refuse computations of more inner steps than this (a few seconds; never
 * reached for k <= 1024, nor for m <= 5000 with nk <= 50000)
 */
#define WORK_LIMIT 2e9L

/* ------------------------------------------------------------------------
 * bs_analysis.c
 * ------------------------------------------------------------------------ */

bs_status	bs_check_bits(int64_t m, bs_error *err);
bs_status	bs_check_items(int64_t n, bs_error *err);
bs_status	bs_check_construction(bs_construction c, bs_error *err);
bs_status	bs_check_rate(double fpr, bs_error *err);

/* ln f, or with a finite stop_ln possibly a lower bound (see bs_analysis.c) */
bs_status	bs_rate_bound_ln(int64_t m, int64_t n, int64_t k, bs_construction c,
							 ld stop_ln, ld *ln_out, int *partial, bs_error *err);
/* ln f for checked arguments */
bs_status	bs_rate_ln(int64_t m, int64_t n, int64_t k, bs_construction c,
					   ld *ln_out, bs_error *err);

/* ------------------------------------------------------------------------
 * bs_rate_chain.c
 * ------------------------------------------------------------------------ */

/*
 * Outputs computed together by a step of the chain: independent sums, so
 * that the additions of one do not wait on another's (16 on the fast path,
 * in double; 4 on the long double path), and the padding of the state.
 */
#define FAST_BLOCK BS_CHAIN_BLOCK

typedef struct hit_chain
{
	int			K;				/* number of target bits */
	int			J;				/* most new targets per hitting item */

	/*
	 * The transition table by diagonals, diag[j * stride + u] = tau_u(j)
	 * for j <= u <= K, zero elsewhere (see diag_stride); or NULL, and then
	 * make_row fills row[0..min(u,J)] with tau_u(j).  length =
	 * chain_length(K, J) is that of the state vectors.
	 */
	const ld   *diag;
	size_t		length;
	size_t		stride;

	/*
	 * The same table already in the fast path's form (double, scaled by
	 * 2^DIAG_SCALE), or NULL: the fast path then makes it from diag.
	 */
	const double *fast_diag;
	void		(*make_row) (const void *context, int u, ld *row);
	const void *context;
	const ld   *value;			/* value[u]: g of the state with u uncovered */

	/*
	 * finish[u] = tau_u(u), u <= J: the last item covers every target left;
	 * or NULL.  Only where value is [u = 0]: the last step then needs this
	 * one entry of the next state, O(J) work instead of O(K J).
	 */
	const ld   *finish;
	ld			n_items;
	ld			log_miss;		/* ln(1 - p); -inf when every item hits */
	ld			floor_ln;		/* ln of a lower bound of the result, or -inf */

	/*
	 * Stop as soon as the partial sum exceeds exp(stop_ln) (+inf: never):
	 * every term is nonnegative, so the partial sum is a lower bound.
	 */
	ld			stop_ln;

	/*
	 * ln of the factor by which the rows and value[] are tilted (classic
	 * rates below the long double range, see bs_classic_ln), 0 when they are
	 * not: the chain's sum is then exp(value_log_scale) times the rate, and
	 * E[value(U_a)] at most that factor, which the tail test allows for.
	 */
	ld			value_log_scale;
} hit_chain;

/* K + 1 states, padded so that a step's reads and writes need no bounds */
static inline size_t
chain_length(int K, int J)
{
	return (size_t) K + 1 + (size_t) J + FAST_BLOCK;
}

/*
 * The row length of a diagonal table, K + 1 + FAST_BLOCK, and its size,
 * (J + 1) of them plus J: a step reads diagonal j at u = t + j for t from
 * 0 to K + FAST_BLOCK - 1, that is j <= u < K + FAST_BLOCK + j, and the
 * zeros of diagonal j above K (which only meet zero states) then lie on
 * those of diagonal j + 1 below j + 1, which is why the rows need not be
 * the K + 1 + J + FAST_BLOCK long of the state vectors (a third less
 * memory for a few items at extreme rates, where J is some K/2).
 */
static inline size_t
diag_stride(int K)
{
	return (size_t) K + 1 + FAST_BLOCK;
}

static inline size_t
diag_size(int K, int J)
{
	return diag_stride(K) * ((size_t) J + 1) + (size_t) J;
}

/* the row table's scale on the fast path (see fast_state in bs_rate_chain.c) */
#define DIAG_SCALE 448

/* below this guess of ln f, the chain runs in long double at once */
#define FAST_FLOOR (-420 * 2.302585092994045684L)	/* ln 1e-420 */

/*
 * sum_a Bin(n_items, p; a) E[value(U_a)] as a logarithm; fast: in scaled
 * double, *inexact set when the result is not certified (see bs_rate_chain.c)
 */
bs_status	bs_hit_chain_run(const hit_chain *hc, int fast, ld *ln_out, int *inexact,
							 int *stopped, work *wk, bs_error *err);
/* the same, in double first when guess allows; in long double if needed */
bs_status	bs_hit_chain_auto(const hit_chain *hc, ld guess, ld *ln_out, work *wk,
							  bs_error *err);

/* ------------------------------------------------------------------------
 * bs_rate_standard.c, bs_rate_classic.c
 * ------------------------------------------------------------------------ */

bs_status	bs_standard_ln(int64_t m, int64_t n, int64_t k, ld *ln_out, work *wk,
						   bs_error *err);
/* ln L(m, n, k) = ln Q_S(k) after nk balls, k <= m (Corollary 23, (64)) */
bs_status	bs_standard_cover_ln(int64_t m, int64_t n, int64_t k, ld *ln_out,
								 work *wk, bs_error *err);
/* ln Q_C(k), or with a finite stop_ln possibly a lower bound (*partial) */
bs_status	bs_classic_ln(int64_t m_int, int64_t n_int, int64_t k_int, ld stop_ln,
						  ld *ln_out, int *partial, work *wk, bs_error *err);

/* ------------------------------------------------------------------------
 * The searches over k and m (method: bs_optimal_k.c)
 * ------------------------------------------------------------------------ */

/* the search over k for one (m, n): exact rates computed so far, by k */
typedef struct k_search
{
	int64_t		m;
	int64_t		n;
	bs_construction c;
	int			kmax;
	int			decide;			/* stop at the first k reaching target */
	ld			target;
	int			best;			/* the best k evaluated; 0 before any */
	int			reached;		/* decide: a k reaching target, else 0 */
	int			walked;			/* best is a local minimum (the walk ran) */
	int			evaluations;
	ld			ln[BS_ANALYSIS_SEARCH_HASHES + 1];
	unsigned char known[BS_ANALYSIS_SEARCH_HASHES + 1];

	/*
	 * floor[k]: a rate of k computed at a larger m, a lower bound of the
	 * rate at m (fact 3); -inf when none is known
	 */
	ld			floor[BS_ANALYSIS_SEARCH_HASHES + 1];
	unsigned char bounded[BS_ANALYSIS_SEARCH_HASHES + 1];	/* floor by the chain at m */
} k_search;

/* stop searching: an error, or (decide) a k that reaches the target */
#define SEARCH_DONE(ks, s) ((s) != BS_OK || (ks)->reached != 0)

/* bs_optimal_k_bounds.c */
ld			bs_block_lower_bound_ln(ld m, ld n, int k_mu, int k, bs_construction c);
ld			bs_upper_bound_ln(ld m, ld n, int k);
ld			bs_bound_slack(ld m, ld ln_value);
int			bs_reaches_target(ld ln, ld target);
int			bs_bound_exceeds(ld m, ld b, ld threshold);
int			bs_bound_reaches(ld m, ld u, ld target);
ld			bs_chain_bound_margin(ld m, ld threshold);
int			bs_search_limit(int64_t m, bs_construction c);
int			bs_k_undecided(const k_search *ks, int lo, int hi, ld threshold,
						   int *list, int count, int cap);
int			bs_k_initial_guess(const k_search *ks);

/* bs_optimal_k_search.c */
k_search   *bs_k_search_new(int64_t m, int64_t n, bs_construction c, bs_error *err,
							bs_status *status);
int			bs_k_better(const k_search *ks, int k1, int k2);
bs_status	bs_k_evaluate(k_search *ks, int k, bs_error *err);
bs_status	bs_k_above_by_bound(k_search *ks, int k, ld threshold, int *above,
								bs_error *err);
bs_status	bs_k_local_min(k_search *ks, int start, bs_error *err);
bs_status	bs_k_certify(k_search *ks, bs_error *err);
bs_status	bs_k_search_min(k_search *ks, int guess, bs_error *err);

/* bs_optimal_k.c */
bs_status	bs_k_search_decide(k_search *ks, ld target, int guess, int64_t *k_out,
							   ld *ln_out, bs_error *err);

#endif							/* BS_ANALYSIS_INTERNAL_H */
