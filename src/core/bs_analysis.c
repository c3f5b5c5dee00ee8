/*
 * bs_analysis.c — exact false-positive rates of standard and classic Bloom
 * filters, their bounds, optimal k and m, and efficiency.
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
 *     1e-15 checked after the run (see fast_state); in long double
 *     otherwise: below 1e-14.  The binomial
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
 * mpmath for m up to 2^33, n up to 10^9; see test/test_analysis.c, which
 * also compares with an independent whole-filter occupancy chain).
 *
 * RANGE.  The rates are carried as logarithms.  The standard rate is
 * accurate however small; the classic chain, below e^-10000 (near the
 * bottom of the long double range, e.g. one item: rate 1/C(m,k)), runs
 * with its transitions tilted by a constant per covered target, which
 * multiplies the rate by a known factor (see classic_ln), so its
 * logarithm stays finite and accurate there too.
 *
 * long double is the x87 80-bit format on x86-64 (where the timings of
 * test/test_analysis.c were measured).  On aarch64 it is IEEE quad, done in
 * software: as accurate, several times slower.  Where long double is the
 * same as double the code still works (untested), but the rounding bounds
 * grow by 2^11, more cases fall to the slower path (b), and the range below
 * 1e-308 is lost.
 */
#include "bs_analysis.h"
#include "bs_chain_step.h"
#include "bs_primes.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

typedef long double ld;

void	   *(*bs_analysis_alloc) (size_t size) = malloc;
void		(*bs_analysis_free) (void *pointer) = free;

/* unit roundoff of long double */
#define ULP ((ld) LDBL_EPSILON / 2)

/* accept the direct sum when its rounding-error bound is below this */
#define DIRECT_TOLERANCE 1e-13L
/* neglected binomial tail, relative to the sum so far */
#define TAIL_TOLERANCE 1e-18L
/* classic truncation of the number of new targets per item */
#define TRUNCATION_TOLERANCE 1e-15L
/*
 * the same for a lower bound of Q_C(k) (classic_ln with stop_ln): the
 * truncated chain only drops nonnegative terms, so any J gives a lower
 * bound; this J keeps it within 1e-9 of the rate
 */
#define BOUND_TRUNCATION_TOLERANCE 1e-7L
/* ... computed when at least this many items are expected to hit */
#define BOUND_MIN_HITS 32
/*
 * refuse computations of more inner steps than this (a few seconds; never
 * reached for k <= 1024, nor for m <= 5000 with nk <= 50000)
 */
#define WORK_LIMIT 2e9L
/* call the interrupt hook after this many inner steps */
#define TICK_STEPS 65536UL

typedef struct work
{
	unsigned long ops;
} work;

/*
 * Set while a hook that may not return runs: bs_interrupt_check and
 * bs_analysis_alloc may longjmp (CHECK_FOR_INTERRUPTS, palloc).  Found set
 * at a later entry (forget_cut_short), it means a computation was cut
 * short in a hook: what a sizing kept (its working block, its rates) is
 * then forgotten, not freed, since its memory went with the caller's
 * context; else a later call outside a sizing would go on keeping blocks,
 * and reuse one of that freed memory.
 */
static _Thread_local int in_hook;

static void forget_cut_short(void);

/* bs_poll_interrupts, marked as a hook that may not return */
static void
poll_interrupts(void)
{
	in_hook = 1;
	bs_poll_interrupts();
	in_hook = 0;
}

static void
tick(work *w, unsigned long steps)
{
	w->ops += steps;
	if (w->ops >= TICK_STEPS)
	{
		w->ops = 0;
		poll_interrupts();
	}
}

/*
 * Working blocks are aligned here to WORK_ALIGN bytes, what long double and
 * the structures holding it need (the compiler may move them with 16-byte
 * aligned vector instructions), whatever the hook gives: palloc aligns to 8
 * only.  The byte before a block holds its distance from what the hook
 * returned.
 */
#define WORK_ALIGN 16

/*
 * In a sizing (bs_analysis_memo_begin .. end), the largest block of at
 * least KEEP_MIN_BYTES freed is kept for the next rate instead of going
 * back to the hook: the row table of a few items at extreme rates is
 * several MB, which a new process otherwise faults in twice (glibc maps the
 * first such block and, once it is unmapped, takes the next from a heap
 * that grows) and each at some 2 us a page.  Blocks of that size in use are
 * tracked in large_raw (up to KEEP_SLOTS; any more are not kept) and
 * allocated 1/8 larger, for the slightly larger tables of the next k.
 * Between sizings nothing is kept: the hook's memory (palloc in the extension)
 * belongs to the caller.
 */
#define KEEP_MIN_BYTES ((size_t) 1 << 20)
#define KEEP_SLOTS 4

static _Thread_local int work_keeping;
static _Thread_local unsigned char *kept_raw;
static _Thread_local size_t kept_size;
static _Thread_local unsigned char *large_raw[KEEP_SLOTS];
static _Thread_local size_t large_size[KEEP_SLOTS];

/* start or end keeping; start forgets what a sizing cut short left */
static void
work_keep(int on)
{
	int			i;

	if (!on && kept_raw != NULL)
		bs_analysis_free(kept_raw);
	kept_raw = NULL;
	for (i = 0; i < KEEP_SLOTS; i++)
		large_raw[i] = NULL;
	work_keeping = on;
}

/* zeroed working memory; NULL (and *status set) when out of memory */
static void *
work_alloc_bytes(size_t bytes, bs_error *err, bs_status *status)
{
	size_t		size = bytes + WORK_ALIGN;
	unsigned char *raw = NULL;
	unsigned char *p;
	int			large;
	int			reused = 0;

	forget_cut_short();
	large = work_keeping && bytes >= KEEP_MIN_BYTES && bytes <= SIZE_MAX - WORK_ALIGN;
	if (large && kept_raw != NULL && kept_size >= size)
	{
		raw = kept_raw;
		size = kept_size;
		kept_raw = NULL;
		reused = 1;
	}
	else if (bytes <= SIZE_MAX - WORK_ALIGN)
	{
		/*
		 * large: room for the tables of the next few k and m too (the
		 * pages beyond those written are never touched)
		 */
		if (large && size <= SIZE_MAX / 9 * 8)
			size += size / 8;
		in_hook = 1;
		raw = bs_analysis_alloc(size);
		in_hook = 0;
	}
	if (raw != NULL && large)
	{
		int			i;

#if defined(__linux__) && defined(MADV_HUGEPAGE)
		{
			/*
			 * transparent huge pages for the 2 MB pieces of a new block
			 * (where the system leaves them to madvise): a fault per 2 MB
			 * instead of per 4 kB; only advice, ignored where not possible
			 */
			uintptr_t	from = ((uintptr_t) raw + ((uintptr_t) 1 << 21) - 1) &
				~(((uintptr_t) 1 << 21) - 1);
			uintptr_t	to = ((uintptr_t) raw + size) & ~(((uintptr_t) 1 << 21) - 1);

			if (!reused && to > from)
				(void) madvise((void *) from, to - from, MADV_HUGEPAGE);
		}
#else
		(void) reused;
#endif

		for (i = 0; i < KEEP_SLOTS && large_raw[i] != NULL; i++)
			;
		if (i < KEEP_SLOTS)
		{
			large_raw[i] = raw;
			large_size[i] = size;
		}
	}
	if (raw == NULL)
	{
		*status = bs_fail(err, BS_ERR_TOO_LARGE,
						  "out of memory computing a false-positive rate",
						  "Could not allocate %zu bytes of working memory.",
						  bytes);
		return NULL;
	}
	p = raw + (WORK_ALIGN - (uintptr_t) raw % WORK_ALIGN);	/* 1..16 ahead */
	p[-1] = (unsigned char) (p - raw);
	memset(p, 0, bytes);
	return p;
}

/* count zeroed long doubles */
static void *
work_alloc(size_t count, bs_error *err, bs_status *status)
{
	return work_alloc_bytes(count * sizeof(ld), err, status);
}

static void
work_free(void *p)
{
	unsigned char *raw;
	int			i;

	if (p == NULL)
		return;
	raw = (unsigned char *) p - ((unsigned char *) p)[-1];
	for (i = 0; work_keeping && i < KEEP_SLOTS; i++)
		if (large_raw[i] == raw)
		{
			large_raw[i] = NULL;
			if (kept_raw != NULL && kept_size >= large_size[i])
				break;			/* keep the larger */
			if (kept_raw != NULL)
				bs_analysis_free(kept_raw);
			kept_raw = raw;
			kept_size = large_size[i];
			return;
		}
	bs_analysis_free(raw);
}

/* ------------------------------------------------------------------------
 * Argument checks
 * ------------------------------------------------------------------------ */

static bs_status
check_bits(int64_t m, bs_error *err)
{
	if (m < 1)
		return bs_fail(err, BS_ERR_PARAM, "number of bits must be at least 1",
					   "The number of bits given was %lld.", (long long) m);
	return BS_OK;
}

static bs_status
check_items(int64_t n, bs_error *err)
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

static bs_status
check_construction(bs_construction c, bs_error *err)
{
	if (c != BS_CONSTRUCTION_STANDARD && c != BS_CONSTRUCTION_CLASSIC)
		return bs_fail(err, BS_ERR_PARAM, "unknown bloom filter construction",
					   "The construction code given was %d.", (int) c);
	return BS_OK;
}

static bs_status
check_rate(double fpr, bs_error *err)
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

	if ((s = check_bits(m, err)) != BS_OK ||
		(s = check_items(n, err)) != BS_OK ||
		(s = check_hashes(k, err)) != BS_OK ||
		(s = check_construction(c, err)) != BS_OK)
		return s;
	if (c == BS_CONSTRUCTION_CLASSIC && k > m)
		return bs_fail(err, BS_ERR_PARAM,
					   "classic bloom filter needs at most as many hashes as bits",
					   "A classic filter sets k distinct bits per item, so k = %lld cannot exceed m = %lld.",
					   (long long) k, (long long) m);
	return BS_OK;
}

/* ------------------------------------------------------------------------
 * The hitting-item chain, method (b)
 * ------------------------------------------------------------------------ */

/*
 * Outputs computed together by a step of the chain: independent sums, so
 * that the additions of one do not wait on another's (16 on the fast path,
 * in double; 4 on the long double path), and the padding of the state.
 */
#define FAST_BLOCK BS_CHAIN_BLOCK
#define SLOW_BLOCK 4

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
	 * rates below the long double range, see classic_ln), 0 when they are
	 * not: the chain's sum is then exp(value_log_scale) times the rate, and
	 * E[value(U_a)] at most that factor, which the tail test allows for.
	 */
	ld			value_log_scale;
} hit_chain;

/* K + 1 states, padded so that a step's reads and writes need no bounds */
static size_t
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
static size_t
diag_stride(int K)
{
	return (size_t) K + 1 + FAST_BLOCK;
}

static size_t
diag_size(int K, int J)
{
	return diag_stride(K) * ((size_t) J + 1) + (size_t) J;
}

/*
 * The fast path keeps the state vector P(U_a = u) in double, scaled by
 * 2^FAST_SCALE, and the row table, stored by diagonals, scaled by
 * 2^DIAG_SCALE (a step multiplies by 2^-DIAG_SCALE, exactly); the weights
 * and sums stay in long double.  Rounding adds at most (J + 2) 2^-53 of
 * relative error per step (1e-11 for the longest chains in range).
 *
 * The scales keep state entries down to 2^-(1022 + FAST_SCALE) and
 * transition probabilities down to 2^-(1022 + DIAG_SCALE) normal, and no
 * intermediate overflows (a step's sums are at most (J + 1) 2^(FAST_SCALE +
 * DIAG_SCALE) < 2^1000).  Entries at either end of the support that fall
 * below DBL_MIN (scaled) are dropped: that keeps slow subnormal numbers out
 * of the loops and skips the parts of the vector that no longer carry
 * anything.  Dropping probability x changes the result by at most x
 * (value[] <= 1 and the binomial weights sum to at most 1); a transition
 * probability below the normal range is stored with an absolute error of at
 * most 2^-(1075 + DIAG_SCALE), and a subnormal intermediate is rounded by
 * at most that much (unscaled) too.  So the absolute error due to the
 * double range is at most (drops + operations) 2^-(1075 + DIAG_SCALE),
 * which is checked against the result after the run; a result it does not
 * certify to 1e-14 (rates below about 1e-420) is recomputed in long double.
 *
 * Two more cuts keep the support to the entries that can still matter,
 * each with an error bound that is checked after the run as well.  Let
 * h(a, u) be what a unit of probability in state u after a hitting items
 * adds to the result, sum_b w_{a+b} E[value(U_b) | U_0 = u].
 *  - Lagging end (large u, few targets covered).  h(a, u) does not increase
 *    with u: the items are independent of the state, so the targets left
 *    uncovered from u + 1 include those left from u (coupling), and value[]
 *    does not increase with u (classic: [u = 0]; standard: the mixture of
 *    C(K-u, d)/C(K, d)).  So an entry x above a kept entry r adds at most
 *    (x/r) r h(a, r) <= (x/r) R to the result R, since the kept entries of
 *    step a add at most R between them.  The top entries are dropped while
 *    x <= LAG_TOLERANCE r, r an entry near the largest (any kept entry
 *    below would do); the relative error is at most the sum of the x/r, at
 *    most (K + 1) LAG_TOLERANCE, because an index once dropped at the top
 *    never receives probability again (coverage only grows).
 *  - Leading end (small u).  h(a, u) <= sum_{b >= 0} w_{a+b} = P(A >= a),
 *    at most w_a / (1 - rho) past the mode of the binomial (the ratios rho
 *    decrease) and 1 before.  With floor_ln the logarithm of a lower bound
 *    of the result (Theorem 15, or -inf: no such cut), the bottom entries
 *    x with x P(A >= a) below AHEAD_TOLERANCE exp(floor_ln) are dropped;
 *    their sum of x P(A >= a) bounds the absolute error.
 */
#define FAST_SCALE 512
#define DIAG_SCALE 448
#define FAST_UNDERFLOW_TOLERANCE 1e-14L
#define LAG_TOLERANCE 1e-24
#define AHEAD_TOLERANCE 1e-24L
/*
 * the same for a lower bound (hit_chain.stop_ln finite), which any cut
 * keeps a lower bound: these lose at most some 1e-10 of it
 */
#define BOUND_LAG_TOLERANCE 1e-14
#define BOUND_AHEAD_TOLERANCE 1e-14L
/* the errors of the cuts that fast_cuts_ok accepts, relative */
#define CUT_TOLERANCE 1e-15L

typedef struct fast_state
{
	size_t		length;			/* K + 1, padded with J + FAST_BLOCK zeros */
	size_t		stride;			/* of diag, as hit_chain */
	double	   *diag;			/* diag[j * stride + u] = tau_u(j) */
	double	   *own_diag;		/* diag when fast_init made it, else NULL */
	double	   *v;				/* scaled P(U_a = u); zero outside [lo, hi] */
	double	   *next;			/* zero outside [next_lo, next_hi] */
	double		lag_tolerance;	/* LAG_TOLERANCE, or BOUND_LAG_TOLERANCE */
	int			lo;
	int			hi;
	int			next_lo;
	int			next_hi;
	ld			drops;			/* entries dropped, for the error bound */
	ld			ops;			/* arithmetic operations, likewise */
	ld			unscale;		/* 2^-FAST_SCALE */
	int			peak;			/* an index near the largest entry */
	ld			lag_error;		/* relative error of the lagging cuts */
	ld			ahead_error;	/* absolute error of the leading cuts, scaled */
} fast_state;

static bs_status
fast_init(fast_state *fs, const hit_chain *hc, bs_error *err)
{
	size_t		length = hc->length;
	bs_status	status = BS_OK;
	ld			scale = ldexpl(1, DIAG_SCALE);	/* exact products in long double */
	int			u;
	int			j;

	memset(fs, 0, sizeof(*fs));
	fs->length = length;
	fs->stride = hc->stride;
	fs->v = work_alloc_bytes(length * sizeof(double), err, &status);
	fs->next = fs->v ? work_alloc_bytes(length * sizeof(double), err, &status) : NULL;
	if (fs->next == NULL)
		return status;
	if (hc->fast_diag != NULL)
		fs->diag = (double *) hc->fast_diag;
	else
	{
		fs->own_diag = work_alloc_bytes((hc->stride * ((size_t) hc->J + 1) + (size_t) hc->J) *
										sizeof(double), err, &status);
		if (fs->own_diag == NULL)
			return status;
		fs->diag = fs->own_diag;
		for (j = 0; j <= hc->J; j++)
			for (u = 0; u <= hc->K; u++)
				fs->diag[(size_t) j * hc->stride + u] =
					(double) (hc->diag[(size_t) j * hc->stride + u] * scale);
	}
	fs->v[hc->K] = ldexp(1.0, FAST_SCALE);
	fs->lag_tolerance = isinf(hc->stop_ln) ? LAG_TOLERANCE : BOUND_LAG_TOLERANCE;
	fs->unscale = ldexpl(1, -FAST_SCALE);
	fs->lo = fs->hi = fs->peak = hc->K;
	fs->next_lo = 0;
	fs->next_hi = -1;			/* all zero */
	return BS_OK;
}

static void
fast_free(fast_state *fs)
{
	work_free(fs->v);
	work_free(fs->next);
	work_free(fs->own_diag);
}

/* E[value(U_a)], unscaled; value[u] = 0 above top */
static ld
fast_expectation(const fast_state *fs, const ld *value, int top)
{
	ld			f = 0;
	int			u;

	for (u = fs->lo; u <= fs->hi && u <= top; u++)
		f += (ld) fs->v[u] * value[u];
	return f * fs->unscale;
}

/* zero x[from..to] */
static void
fast_clear(double *x, int from, int to)
{
	if (from <= to)
		memset(x + from, 0, (size_t) (to - from + 1) * sizeof(double));
}

/*
 * One hitting item: next[t] = sum_j v[t+j] tau_{t+j}(j) over the new
 * support [lo - J, hi] (bs_chain_step: sixteen independent sums, vectorised,
 * each adding its terms in the order of j, the same bits on every CPU).  v
 * is zero outside its support and padded, so the loops need no bounds.  Then
 * the ends that cannot matter are dropped (see fast_state): the lagging
 * entries far below the peak, the leading ones below ahead_cut (scaled; at
 * least DBL_MIN), each of those counted at ahead_weight (a bound of
 * P(A >= a)).
 */
static void
fast_step(fast_state *fs, int J, double ahead_cut, ld ahead_weight)
{
	int			lo = fs->lo > J ? fs->lo - J : 0;
	int			hi = fs->hi;
	double	   *next = fs->next;
	int			peak = fs->peak;
	int			t;

	t = bs_chain_step(fs->v, fs->diag, fs->stride, lo, hi, J,
					  ldexp(1.0, -DIAG_SCALE), next);
	fs->ops += 2 * (ld) (t - lo) * (ld) (J + 1);
	/* next[hi + 1 .. t - 1] came out 0; clear what is left of before */
	fast_clear(next, fs->next_lo, lo - 1);
	fast_clear(next, t, fs->next_hi);

	/* the peak moves little from step to step: climb to a local maximum */
	if (peak < lo)
		peak = lo;
	if (peak > hi)
		peak = hi;
	while (peak > lo && next[peak - 1] >= next[peak])
		peak--;
	while (peak < hi && next[peak + 1] > next[peak])
		peak++;
	if (next[peak] > 0)
		while (hi > peak && next[hi] <= fs->lag_tolerance * next[peak])
		{
			fs->lag_error += (ld) next[hi] / next[peak];
			next[hi--] = 0;
		}
	while (hi > lo && next[hi] < DBL_MIN)
	{
		next[hi--] = 0;
		fs->drops += 1;
	}
	while (lo < hi && next[lo] < ahead_cut)
	{
		if (next[lo] < DBL_MIN)
			fs->drops += 1;
		else
			fs->ahead_error += next[lo] * ahead_weight;
		next[lo++] = 0;
	}
	fs->peak = peak < lo ? lo : peak > hi ? hi : peak;
	fs->next = fs->v;
	fs->next_lo = fs->lo;
	fs->next_hi = fs->hi;
	fs->v = next;
	fs->lo = lo;
	fs->hi = hi;
}

/* does the underflow bound certify the result exp(ln)? */
static int
fast_underflow_ok(const fast_state *fs, ld ln)
{
	ld			bound_ln = logl(fs->drops + fs->ops + 1) -
		(1075 + DIAG_SCALE) * 0.693147180559945309417232121458176568L;

	return !isinf(ln) && bound_ln <= ln + logl(FAST_UNDERFLOW_TOLERANCE);
}

/* do the error bounds of the cuts certify the result exp(ln)? */
static int
fast_cuts_ok(const fast_state *fs, ld ln)
{
	return fs->lag_error <= CUT_TOLERANCE / 2 &&
		(fs->ahead_error == 0 ||
		 logl(fs->ahead_error * fs->unscale) <= ln + logl(CUT_TOLERANCE / 2));
}

/*
 * The long double path: the state vector unscaled, on [umin, K], padded as
 * on the fast path.
 */
typedef struct slow_state
{
	ld		   *v;
	ld		   *next;
	ld		   *row_buffer;		/* for rows made on the fly */
	int			umin;
} slow_state;

static bs_status
slow_init(slow_state *ss, const hit_chain *hc, bs_error *err)
{
	bs_status	status = BS_OK;

	memset(ss, 0, sizeof(*ss));
	ss->v = work_alloc(hc->length, err, &status);
	ss->next = ss->v ? work_alloc(hc->length, err, &status) : NULL;
	if (ss->next == NULL)
		return status;
	if (hc->diag == NULL &&
		(ss->row_buffer = work_alloc((size_t) hc->J + 1, err, &status)) == NULL)
		return status;
	ss->v[hc->K] = 1;
	ss->umin = hc->K;
	return BS_OK;
}

static void
slow_free(slow_state *ss)
{
	work_free(ss->v);
	work_free(ss->next);
	work_free(ss->row_buffer);
}

/* E[value(U_a)]; value[u] = 0 above top */
static ld
slow_expectation(const slow_state *ss, const ld *value, int top)
{
	ld			f = 0;
	int			u;

	for (u = ss->umin; u <= top; u++)
		f += ss->v[u] * value[u];
	return f;
}

/* one hitting item: U -> U - j with probability tau_U(j) */
static void
slow_step(slow_state *ss, const hit_chain *hc)
{
	int			K = hc->K;
	int			J = hc->J;
	int			lo = ss->umin > J ? ss->umin - J : 0;
	const ld   *v = ss->v;
	ld		   *nv = ss->next;
	int			u;

	if (hc->diag != NULL)
	{
		/*
		 * nv[t] = sum_j v[t+j] tau_{t+j}(j), SLOW_BLOCK outputs at a time
		 * (v is zero above K, and the padding absorbs the last block).
		 */
		int			t;

		for (t = lo; t <= K; t += SLOW_BLOCK)
		{
			ld			s0 = 0;
			ld			s1 = 0;
			ld			s2 = 0;
			ld			s3 = 0;
			int			j;

			for (j = 0; j <= J; j++)
			{
				const ld   *x = v + t + j;
				const ld   *d = hc->diag + (size_t) j * hc->stride + t + j;

				s0 += x[0] * d[0];
				s1 += x[1] * d[1];
				s2 += x[2] * d[2];
				s3 += x[3] * d[3];
			}
			nv[t] = s0;
			nv[t + 1] = s1;
			nv[t + 2] = s2;
			nv[t + 3] = s3;
		}
	}
	else
	{
		for (u = lo; u <= K; u++)
			nv[u] = 0;
		for (u = ss->umin; u <= K; u++)
		{
			ld			x = v[u];
			int			top = u < J ? u : J;
			int			j;

			if (x == 0)
				continue;
			hc->make_row(hc->context, u, ss->row_buffer);
			for (j = 0; j <= top; j++)
				nv[u - j] += x * ss->row_buffer[j];
		}
	}
	ss->next = ss->v;
	ss->v = nv;
	ss->umin = lo;
}

/* cut_floor / e^wl, kept inside the long double range */
static ld
cut_weight_ratio(ld cut_floor, ld wl)
{
	ld			ln = logl(cut_floor) - wl;

	return expl(ln > 11000 ? 11000 : ln < -11000 ? -11000 : ln);
}

/* exp(stop_ln - wl), the partial sum that stops the chain (stop_ln) */
static ld
stop_level(ld stop_ln, ld wl)
{
	ld			ln = stop_ln - wl;

	return isinf(stop_ln) || ln > 11000 ? INFINITY : expl(ln < -11000 ? -11000 : ln);
}

/*
 * sum_a Bin(n_items, p; a) E[value(U_a)] as a logarithm (-inf for 0).
 *
 * fast (only with a row table): the state vector in scaled double (see
 * fast_state above).  *inexact is set when the result is below what the
 * fast path certifies; the caller then runs it again in long double.
 * *stopped is set when the partial sum passed exp(hc->stop_ln): *ln_out is
 * then that partial sum, a lower bound of the result.
 */
static bs_status
hit_chain_run(const hit_chain *hc, int fast, ld *ln_out, int *inexact,
			  int *stopped, work *wk, bs_error *err)
{
	int			K = hc->K;
	int			J = hc->J;
	fast_state	fs;
	slow_state	ss;
	bs_status	status;
	ld			p;
	ld			expected;
	ld			row_cost;
	ld			a;
	ld			w = 1;
	ld			wl;
	ld			acc = 0;
	ld			odds;
	ld			cut_floor;
	ld			cut_over_weight;
	ld			stop_acc;
	int			deterministic = isinf(hc->log_miss);
	int			top = K;		/* value[u] = 0 above top (classic: 0) */

	*inexact = 0;
	*stopped = 0;
	while (top > 0 && hc->value[top] == 0)
		top--;
	if (hc->diag == NULL && hc->fast_diag == NULL)
		fast = 0;
	p = deterministic ? 1 : -expm1l(hc->log_miss);
	expected = deterministic ? hc->n_items :
		fminl(hc->n_items, hc->n_items * p + 12 * sqrtl(hc->n_items * p) + K + 16);
	row_cost = (ld) (K + 1) * (ld) (J + 1);
	if (expected * row_cost > WORK_LIMIT)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "false-positive rate computation is too long",
					   "About %.3Lg steps would be needed.", expected * row_cost);

	memset(&fs, 0, sizeof(fs));
	memset(&ss, 0, sizeof(ss));
	status = fast ? fast_init(&fs, hc, err) : slow_init(&ss, hc, err);
	if (status != BS_OK)
		goto done;

	odds = deterministic ? 0 : expm1l(-hc->log_miss);	/* p / (1 - p) */
	wl = deterministic ? 0 : hc->n_items * hc->log_miss;
	/* the leading cut: AHEAD_TOLERANCE times the floor, scaled (or 0: none) */
	cut_floor = fast && isfinite(hc->floor_ln) ?
		expl(logl(isinf(hc->stop_ln) ? AHEAD_TOLERANCE : BOUND_AHEAD_TOLERANCE) + hc->floor_ln +
			 FAST_SCALE * 0.693147180559945309417232121458176568L) : 0;
	cut_over_weight = cut_floor > 0 ? cut_weight_ratio(cut_floor, wl) : 0;
	stop_acc = stop_level(hc->stop_ln, wl);

	for (a = 0;; a += 1)
	{
		ld			next;
		ld			rho = 1;	/* w_{a+1} / w_a */
		int			width;

		if (!deterministic || a >= hc->n_items)
			acc += w * (fast ? fast_expectation(&fs, hc->value, top) :
						slow_expectation(&ss, hc->value, top));
		if (a >= hc->n_items)
			break;
		if (acc > stop_acc)
		{
			*stopped = 1;
			break;
		}
		if (!deterministic)
		{
			rho = (hc->n_items - a) / (a + 1) * odds;
			next = w * rho;
			if (rho < 1 && acc > 0 &&
				(hc->value_log_scale == 0 ?
				 next / (1 - rho) <= TAIL_TOLERANCE * acc :
				 logl(next / (1 - rho)) + hc->value_log_scale <=
				 logl(TAIL_TOLERANCE * acc)))
				break;
		}
		else
			next = 1;

		if (hc->finish != NULL && top == 0 && a + 1 >= hc->n_items)
		{
			/* the last item: only P(U = 0) = E[finish(U_a)] matters */
			int			last = J < K ? J : K;

			acc += next * (fast ? fast_expectation(&fs, hc->finish, last) :
						   slow_expectation(&ss, hc->finish, last));
			break;
		}
		if (fast)
		{
			/*
			 * the leading cut (fast_state): below cut_floor / P(A >= a + 1),
			 * with P(A >= a + 1) <= w_{a+1} / (1 - rho) past the mode
			 * (true weights: w e^wl), else 1
			 */
			ld			cut = cut_floor;

			if (rho < 1 && next > 0 && cut_floor > 0 &&
				cut_over_weight * (1 - rho) / next > cut)
				cut = cut_over_weight * (1 - rho) / next;
			fast_step(&fs, J, cut < DBL_MIN ? DBL_MIN : cut > DBL_MAX ? DBL_MAX : (double) cut,
					  cut_floor > 0 ? cut_floor / cut : 1);
			width = fs.hi - fs.lo + 1;
		}
		else
		{
			slow_step(&ss, hc);
			width = K - ss.umin + 1;
		}
		tick(wk, (unsigned long) width * (unsigned long) (J + 1));

		w = next;
		if (!deterministic && (w > 1e256L || (w < 1e-256L && w > 0)))
		{
			wl += logl(w);
			acc /= w;
			w = 1;
			cut_over_weight = cut_floor > 0 ? cut_weight_ratio(cut_floor, wl) : 0;
			stop_acc = stop_level(hc->stop_ln, wl);
		}
	}

	*ln_out = acc > 0 ? logl(acc) + wl : -INFINITY;
	/* (a lower bound needs no bound on the cuts: they only drop terms) */
	if (fast && (!fast_underflow_ok(&fs, *ln_out) ||
				 (isinf(hc->stop_ln) && !fast_cuts_ok(&fs, *ln_out))))
		*inexact = 1;

done:
	fast_free(&fs);
	slow_free(&ss);
	return status;
}

/*
 * Run the chain, in double when the rate is expected well inside the range
 * the fast path certifies (guess: a rough estimate of the rate's
 * logarithm), again in long double when the fast result is not certified.
 */
#define FAST_FLOOR (-420 * 2.302585092994045684L)	/* ln 1e-420 */

static bs_status
hit_chain_auto(const hit_chain *hc, ld guess, ld *ln_out, work *wk,
			   bs_error *err)
{
	bs_status	s;
	int			inexact;
	int			stopped;

	if (hc->diag != NULL && guess > FAST_FLOOR)
	{
		s = hit_chain_run(hc, 1, ln_out, &inexact, &stopped, wk, err);
		if (s != BS_OK || !inexact)
			return s;
	}
	return hit_chain_run(hc, 0, ln_out, &inexact, &stopped, wk, err);
}

/* ------------------------------------------------------------------------
 * Standard filter: sum_d weight[d] Q_S(d)
 * ------------------------------------------------------------------------ */

/*
 * A cheap test, O(K), that the direct sum cannot meet DIRECT_TOLERANCE:
 * the rounding bound of its d = K part alone, weight[K] (2K+4) ULP
 * sum_j C(K,j) (1-j/m)^N, already exceeds the tolerance times an upper
 * bound of the result, sum_d weight[d] (mu_S/m)^d (negative association of
 * the bits: Q_S(d) <= (mu_S/m)^d).  Saves the O(K^2) attempt.
 */
static int
standard_direct_hopeless(ld m, ld N, int K, const ld *weight)
{
	ld			occupied = -expm1l(N * log1pl(-1 / m));
	ld			power = 1;		/* occupied^j */
	ld			upper = 0;
	ld			mass = 0;
	ld			binom = 1;
	int			j;

	if (weight[K] == 0 || (ld) K >= m)
		return 0;
	for (j = 0; j <= K; j++)
	{
		if (j > 0)
			power *= occupied;
		upper += weight[j] * power;
		if (j > 0)
			binom = binom * (K - j + 1) / j;
		mass += binom * expl(N * log1pl(-(ld) j / m));
	}
	return weight[K] * (2 * K + 4) * ULP * mass > 2 * DIRECT_TOLERANCE * upper;
}

/*
 * Direct alternating sums, method (a).  Returns 1 and the value when the
 * rounding-error bound is within DIRECT_TOLERANCE, else 0.
 * weight_rel, weight_abs: relative and absolute error bounds of the weights
 * (the absolute one bounds the error of the sum: Q_S(d) <= 1).
 */
static int
standard_direct(ld m, ld N, int K, const ld *weight, ld weight_rel,
				ld weight_abs, ld *value, ld *scratch, work *wk)
{
	ld		   *e = scratch;	/* e[j] = (1 - j/m)^N */
	ld		   *delta = scratch + (K + 1);	/* its relative error bound */
	ld		   *binom = scratch + 2 * (K + 1);	/* Pascal row C(d, j) */
	ld			f = 0;
	ld			bound = 0;
	ld			mass = 0;
	int			d;
	int			j;

	if (standard_direct_hopeless(m, N, K, weight))
		return 0;

	for (j = 0; j <= K; j++)
	{
		if (j == 0)
		{
			e[j] = 1;
			delta[j] = 0;
		}
		else if ((ld) j >= m)
		{
			e[j] = 0;
			delta[j] = 0;
		}
		else
		{
			ld			y = N * log1pl(-(ld) j / m);

			e[j] = expl(y);
			delta[j] = 2 * ULP * (2 * fabsl(y) + N * (ld) j / (m - j) + 2);
		}
		binom[j] = 0;
	}
	binom[0] = 1;
	for (d = 0; d <= K; d++)
	{
		ld			q = 0;
		ld			errd = 0;

		if (d > 0)
			for (j = d; j >= 1; j--)
				binom[j] += binom[j - 1];
		if (weight[d] == 0)
			continue;
		for (j = 0; j <= d; j++)
		{
			ld			t = binom[j] * e[j];

			if (t == 0)
				continue;
			q += (j & 1) ? -t : t;
			errd += t * (delta[j] + (2 * d + 4) * ULP);
		}
		f += weight[d] * q;
		mass += weight[d] * fabsl(q);
		bound += weight[d] * (errd + weight_rel * fabsl(q));
		tick(wk, (unsigned long) d + 1);
	}
	bound += (K + 2) * ULP * mass + weight_abs;
	if (!(f > 0) || bound > DIRECT_TOLERANCE * f)
		return 0;
	*value = f;
	return 1;
}

/*
 * sum_d weight[d] Q_S(d) after N balls, as a logarithm.  The weights carry
 * relative errors up to weight_rel and absolute ones up to weight_abs.
 */
static bs_status
standard_mix(ld m, ld N, int K, const ld *weight, ld weight_rel,
			 ld weight_abs, ld *ln_out, work *wk, bs_error *err)
{
	ld		   *scratch;
	ld		   *diag = NULL;
	ld		   *value = NULL;
	bs_status	status = BS_OK;
	ld			direct;
	size_t		length = chain_length(K, 1);
	int			u;
	int			d;
	int			y;

	scratch = work_alloc(3 * ((size_t) K + 1), err, &status);
	if (scratch == NULL)
		return status;
	if (standard_direct(m, N, K, weight, weight_rel, weight_abs, &direct,
						scratch, wk))
	{
		*ln_out = logl(direct);
		work_free(scratch);
		return BS_OK;
	}
	work_free(scratch);

	diag = work_alloc(2 * length, err, &status);
	value = diag ? work_alloc((size_t) K + 1, err, &status) : NULL;
	if (value == NULL)
	{
		work_free(diag);
		return status;
	}
	/*
	 * value[u] = sum_d weight[d] C(y, d) / C(K, d), y = K - u covered; the
	 * ratio by steps y -> y - 1, times (y + 1 - d) / (y + 1), with the
	 * inverses kept for now in diag[] (filled just after)
	 */
	for (y = 1; y <= K; y++)
		diag[y] = 1 / (ld) y;
	for (d = 0; d <= K; d++)
	{
		ld			c = weight[d];

		if (c == 0)
			continue;
		value[0] += c;
		for (y = K - 1; y >= d && c != 0; y--)
		{
			c *= (ld) (y + 1 - d) * diag[y + 1];
			value[K - y] += c;
		}
		tick(wk, (unsigned long) (K - d + 1));
	}
	/* method (b): J = 1, tau_u(0) = (K - u)/K, tau_u(1) = u/K */
	for (u = 0; u <= K; u++)
	{
		diag[u] = (ld) (K - u) / K;
		diag[length + u] = (ld) u / K;
	}
	{
		hit_chain	hc;
		ld			guess = 0;
		ld			occupied = -expm1l(-N / m);
		ld			power = 1;

		hc.K = K;
		hc.J = 1;
		hc.diag = diag;
		hc.length = length;
		hc.stride = length;
		hc.make_row = NULL;
		hc.context = NULL;

		/* rough rate: the bits set independently with probability 1 - e^{-N/m} */
		for (d = 0; d <= K; d++)
		{
			guess += weight[d] * power;
			power *= occupied;
		}
		guess = logl(guess);
		hc.fast_diag = NULL;
		hc.value = value;
		hc.finish = NULL;
		hc.n_items = N;
		hc.log_miss = ((ld) K >= m) ? -INFINITY : log1pl(-(ld) K / m);
		hc.floor_ln = -INFINITY;
		hc.stop_ln = INFINITY;
		hc.value_log_scale = 0;
		status = hit_chain_auto(&hc, guess, ln_out, wk, err);
	}
	work_free(diag);
	work_free(value);
	return status;
}

/*
 * T[d] = P(k uniform draws among m bits hit exactly d distinct bits),
 * d = 0..K, K = min(k, m); relative error below 3 k ULP.  Entries that fall
 * below drop_below at the low end (many repeats) are dropped as the draws go:
 * probability flows only upwards in d, so an entry dropped stays 0, each
 * entry is dropped at most once, and the returned total of what was dropped
 * (below (K + 1) drop_below) bounds the absolute error of T.  Only the few d near
 * k then cost anything: about k^2/2m + a few sqrt of it are repeats.
 */
static ld
distinct_draws(ld m, int k, int K, ld *T, ld *scratch, ld drop_below, work *wk)
{
	ld		   *again = scratch;	/* again[d] = d/m: the draw repeats one */
	ld		   *fresh = scratch + (K + 1);	/* fresh[d] = (m-d+1)/m */
	ld			dropped = 0;
	int			low = 1;		/* T[d] = 0 below */
	int			t;
	int			d;

	for (d = 0; d <= K; d++)
	{
		T[d] = 0;
		again[d] = (ld) d / m;
		fresh[d] = (m - d + 1) / m;
	}
	T[1] = 1;
	for (t = 2; t <= k; t++)
	{
		int			top = t < K ? t : K;

		for (d = top; d >= low; d--)
			T[d] = T[d] * again[d] + T[d - 1] * fresh[d];
		while (low < top && T[low] < drop_below)
		{
			dropped += T[low];
			T[low++] = 0;
		}
		tick(wk, (unsigned long) (top - low + 1));
	}
	return dropped;
}

static bs_status
standard_ln(int64_t m, int64_t n, int64_t k, ld *ln_out, work *wk, bs_error *err)
{
	int			K = (int) (k < m ? k : m);
	ld		   *T;
	bs_status	status = BS_OK;
	ld			steps = (ld) k * K + (ld) K * K / 2;
	ld			lower;
	ld			drop_below;
	ld			dropped;

	if (steps > WORK_LIMIT)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "false-positive rate computation is too long",
					   "About %.3Lg steps would be needed.", steps);
	T = work_alloc(3 * ((size_t) K + 1), err, &status);
	if (T == NULL)
		return status;

	/*
	 * Dropping weight w changes f_S = sum_d T(d) Q_S(d) by at most w, and
	 * f_S >= M (57), so dropping below 1e-20 M / (K + 1) costs at most 1e-20 of
	 * the result.
	 */
	lower = k * logl(-expm1l((ld) n * k * log1pl(-1 / (ld) m)));
	drop_below = isinf(lower) ? 0 : expl(lower + logl(1e-20L) - logl((ld) K + 1));
	dropped = distinct_draws((ld) m, (int) k, K, T, T + (K + 1), drop_below, wk);
	status = standard_mix((ld) m, (ld) n * (ld) k, K, T, 3 * (ld) k * ULP,
						  dropped, ln_out, wk, err);
	work_free(T);
	return status;
}

/* ln L(m, n, k) = ln Q_S(k) after nk balls, k <= m (Corollary 23, (64)) */
static bs_status
standard_cover_ln(int64_t m, int64_t n, int64_t k, ld *ln_out, work *wk,
				  bs_error *err)
{
	int			K = (int) k;
	ld		   *weight;
	bs_status	status = BS_OK;

	if ((ld) K * K / 2 > WORK_LIMIT)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "false-positive bound computation is too long",
					   "About %.3Lg steps would be needed.", (ld) K * K / 2);
	weight = work_alloc((size_t) K + 1, err, &status);
	if (weight == NULL)
		return status;
	weight[K] = 1;
	status = standard_mix((ld) m, (ld) n * (ld) k, K, weight, 0, 0, ln_out, wk, err);
	work_free(weight);
	return status;
}

/* ------------------------------------------------------------------------
 * Classic filter: Q_C(k)
 * ------------------------------------------------------------------------ */

/* lt[h + 1] from lt[h] (classic_truncation) */
static ld
classic_overlap_step(ld m, int k, int h, ld lt, ld log_ratio)
{
	return lt + log_ratio +
		logl((ld) (k - h) * (ld) (k - h) / ((ld) (h + 1) * (m - 2 * (ld) k + h + 1)));
}

/*
 * The smallest J such that allowing at most J new targets per hitting item
 * changes Q_C(k) by a relative amount below tolerance (TRUNCATION_TOLERANCE,
 * see the comment at the top); k when the bound does not apply.  a[k] is
 * ln(C(m-k,k)/C(m,k)); lt is scratch space for k + 1 values.
 */
static int
classic_truncation(ld m, ld n, int k, const ld *a, ld *lt, ld tolerance)
{
	ld			mu;
	ld			mu_others;
	ld			log_r = 0;
	ld			log_ratio;
	ld			limit;
	ld			product = 1;
	ld			tail = -INFINITY;
	int			known;
	int			h;
	int			i;

	if (2 * (ld) k + 1 > m || k <= 1)
		return k;
	mu = m * -expm1l(n * log1pl(-(ld) k / m));
	if (!(mu > k) || n < 2)
		return k;

	/*
	 * The other targets must be covered by the other n - 1 items: Theorem
	 * 15 for n - 1 items bounds that by (mu_others/m)^r, mu_others =
	 * m(1 - (1 - k/m)^(n-1)) (tighter than mu for few items: J 502 -> 447
	 * for 3 items, 245 -> 208 for 12 at 1e-300), so the relative error is
	 * at most n R (mu_others/mu)^k sum_{h>J} HG(h) (m/mu_others)^h.
	 */
	mu_others = m * -expm1l((n - 1) * log1pl(-(ld) k / m));

	/*
	 * ln R = ln[(mu/m)^k C(m,k) / C(mu,k)] = sum_i ln[(1 - i/m)/(1 - i/mu)],
	 * by products of 32 factors (each in [1, mu/(mu - k + 1)]: no overflow)
	 * between logarithms; their rounding, some k ulps, is covered by the
	 * margin of the limit, which can only make J larger.
	 */
	for (i = 0; i < k; i++)
	{
		product *= (1 - (ld) i / m) / (1 - (ld) i / mu);
		if (i % 32 == 31 || i == k - 1)
		{
			log_r += logl(product);
			product = 1;
		}
	}
	log_r += k * logl(mu_others / mu);
	log_ratio = logl(m / mu_others);
	limit = logl(tolerance) - logl(n) - log_r - 1 - 1e-15L;	/* margin e */

	/*
	 * lt[h] = ln HG(h) + h ln(m/mu_others), HG(h) = C(k,h) C(m-k,k-h) / C(m,k) the
	 * law of the overlap of one item with the targets (HG(0) = exp(a[k])),
	 * and tail(h) = ln sum_{h' >= h} exp(lt[h']), which falls with h: J is
	 * the largest h with tail(h) above the limit (1 when there is none).
	 * lt is concave (the hypergeometric law is log-concave), so from an h
	 * where it falls by d > 0 on, it falls by at least d per step and
	 * lt[h] <= tail(h) <= lt[h] - ln(1 - e^-d): scanning up from h = 1
	 * settles each h by these bounds and stops at the first h below the
	 * limit, after some J steps (J + 2 values of lt); as soon as they do not
	 * settle an h (lt still rising), the tail is summed from the top.
	 */
	lt[0] = a[k];
	known = 0;
	for (h = 1; h <= k; h++)
	{
		ld			fall;

		for (; known < h + 1 && known < k; known++)
			lt[known + 1] = classic_overlap_step(m, k, known, lt[known], log_ratio);
		if (lt[h] > limit)
			continue;			/* tail(h) >= lt[h]: keep h */
		fall = h < k ? lt[h] - lt[h + 1] : INFINITY;
		if (!(fall > 0 && lt[h] - log1pl(-expl(-fall)) + 1e-12L < limit))
			break;
		return h > 1 ? h - 1 : 1;
	}
	if (h > k)
		return k;
	for (; known < k; known++)
		lt[known + 1] = classic_overlap_step(m, k, known, lt[known], log_ratio);
	for (h = k; h >= 1; h--)
	{
		/* tail = ln sum_{h' >= h} exp(lt[h']) */
		if (isinf(tail))
			tail = lt[h];
		else if (lt[h] > tail)
			tail = lt[h] + log1pl(expl(tail - lt[h]));
		else
			tail = tail + log1pl(expl(lt[h] - tail));
		if (tail > limit)
			return h;			/* overlaps h..k must be kept: J = h */
	}
	return 1;
}

/*
 * Direct sum (60) with its rounding-error bound, method (a).
 * a[j] = ln(C(m-j,k)/C(m,k)), cost[j] = sum_{v<j} k/(m-v-k) (error weight).
 */
static int
classic_direct(ld m, ld n, int k, const ld *a, const ld *cost, ld *value,
			   work *wk)
{
	ld			q = 0;
	ld			bound = 0;
	ld			mass = 0;
	ld			binom = 1;
	int			j;

	/*
	 * Hopeless without trying (saves k exponentials): the bound gets at
	 * least (2k + 10) ULP from the term j = 0, which is 1, while an
	 * accepted q is at most Q_C(k) (1 + 1e-13) <= U (65), twice U with
	 * margin; U applies for 2k + 1 <= m (Corollary 23).
	 */
	if (2 * (ld) k + 1 <= m &&
		(2 * (ld) k + 10) * ULP > 2 * DIRECT_TOLERANCE *
		expl(k * logl(-expm1l(n * log1pl(-(ld) k / m)))))
		return 0;

	for (j = 0; j <= k; j++)
	{
		if (j > 0)
			binom = binom * (k - j + 1) / j;
		if (!isinf(a[j]))
		{
			ld			y = n * a[j];
			ld			t = binom * expl(y);

			if (t != 0)
			{
				ld			rel = 2 * ULP * ((j + 2) * fabsl(y) + n * cost[j] + 2) +
					(2 * (ld) j + 2 * (ld) k + 6) * ULP;

				q += (j & 1) ? -t : t;
				bound += t * rel;
				mass += t;
			}
		}
	}
	tick(wk, (unsigned long) k);
	bound += (k + 2) * ULP * mass;
	if (!(q > 0) || bound > DIRECT_TOLERANCE * q)
		return 0;
	*value = q;
	return 1;
}

/*
 * ln of a lower bound of Q_C(k), for the leading cut of the chain (see
 * fast_state): C(mu,k)/C(m,k), mu = m(1-(1-k/m)^n) (Theorem 15, middle
 * inequality, and (64)), less a margin of 1 for the rounding of lgamma;
 * -inf when mu < k.
 */
static ld
classic_floor_ln(ld m, ld n, int k)
{
	ld			mu = m * -expm1l(n * log1pl(-(ld) k / m));

	if (!(mu - k + 1 > 0))
		return -INFINITY;
	return lgammal(mu + 1) - lgammal(mu - k + 1) -
		(lgammal(m + 1) - lgammal(m - k + 1)) - 1;
}

/* what the classic rows tau_u(j) are made of */
typedef struct classic_rows
{
	ld			m;
	int			k;
	int			J;
	ld			p;				/* probability that an item hits a target */
	const ld   *a;				/* a[u] = ln(C(m-u,k)/C(m,k)) */
	const ld   *suffix;			/* a[k] - a[u], summed directly */
	ld			log_c_m_k;		/* ln C(m,k) */
	ld			inverse_p;		/* 1 / p */
	const ld   *inverse_j;		/* inverse_j[j] = 1 / (j + 1), j <= K */
	const ld   *inverse_s;		/* inverse_s[s] = 1 / (m - k + 1 - s), s <= K */
	ld			tilt;			/* x: tau_u(j) is stored times x^j (1: none) */
	ld			log_tilt;		/* ln x (0: none) */
} classic_rows;

/*
 * tau_u(0): the probability that an item known to hit the targets covers
 * none of the u uncovered ones: [HG(0) - (1 - p)] / p, with HG(0) =
 * C(m-u,k)/C(m,k); 0 when fewer than k bits lie outside the u targets.
 */
static ld
classic_stay(const classic_rows *cr, int u)
{
	ld			hg;

	if (cr->m - u < cr->k)
		return 0;
	hg = expl(cr->a[u]);
	return isinf(cr->a[cr->k]) ? hg * cr->inverse_p :
		hg * -expm1l(cr->suffix[u]) * cr->inverse_p;
}

/*
 * tau_u(j), j = 0..min(u,J): the probability that an item known to hit the
 * targets covers exactly j of the u uncovered ones (times x^j when the
 * chain is tilted, see classic_ln; x = 1 otherwise, which multiplies
 * exactly).
 */
static void
classic_make_row(const void *context, int u, ld *row)
{
	const classic_rows *cr = (const classic_rows *) context;
	ld			m = cr->m;
	int			k = cr->k;
	int			top = u < cr->J ? u : cr->J;
	int			j0;
	int			j;
	ld			hg;				/* C(u,j) C(m-u,k-j) / C(m,k) */

	for (j = 0; j <= top; j++)
		row[j] = 0;
	if (m - u >= k)
	{
		j0 = 0;
		hg = expl(cr->a[u]);
		row[0] = classic_stay(cr, u);
	}
	else
	{
		/* fewer than k bits outside the u uncovered targets: j >= j0 */
		j0 = (int) (k - (m - u));
		hg = expl(lgammal((ld) u + 1) - lgammal((ld) j0 + 1) -
				  lgammal((ld) (u - j0) + 1) - cr->log_c_m_k + j0 * cr->log_tilt);
		if (j0 <= top)
			row[j0] = hg * cr->inverse_p;
	}
	/* the ratio (u-j)(k-j) / ((j+1)(m-u-k+j+1)), denominators inverted once */
	for (j = j0; j < top; j++)
	{
		hg = hg * ((ld) (u - j) * (ld) (k - j)) * (cr->inverse_j[j] * cr->inverse_s[u - j]) *
			cr->tilt;
		row[j + 1] = hg * cr->inverse_p;
	}
}

/*
 * finish[u] = tau_u(u), u = 0..J: C(m-u,k-u) / (C(m,k) p) for u >= 1 by the
 * ratio (k-u+1)/(m-u+1), where the diagonals of the row table start; tau_0(0) = 1.
 * Tilted (classic_ln) like the rows: times x^u.
 */
static void
classic_finish(const classic_rows *cr, ld *finish, const ld *inverse_m)
{
	ld			start = 1;
	int			u;

	finish[0] = 1;
	for (u = 1; u <= cr->J; u++)
	{
		start *= (ld) (cr->k - u + 1) * inverse_m[u - 1] * cr->tilt;
		finish[u] = start * cr->inverse_p;
	}
}

/*
 * The table of tau_u(j) by diagonals, [j * length + u], j <= J, length =
 * diag_stride(K): j = 0 as
 * in classic_make_row; for j >= 1, tau_u(j) = C(u,j) C(m-u,k-j) / (C(m,k) p),
 * from tau_j(j) = finish[j] (classic_finish) along u by the ratio (u+1)/(u+1-j) (m-u-k+j)/(m-u), which reaches 0
 * exactly where C(m-u,k-j) does.  Sequential writes, no division in the
 * loops (the inverses are tabulated; inverse_u[u] = 1/(u+1), inverse_m[u] =
 * 1/(m-u)); about 3 (K + J) ulps of relative error.  Computed in long
 * double and stored either so (diag) or in the fast path's form (fast:
 * double, scaled by 2^DIAG_SCALE, the same bits as fast_init would make of
 * diag), for one table in memory instead of two; the other pointer is NULL.
 * Entries not written stay as allocated (zero).
 */
static void
classic_diagonals(const classic_rows *cr, int K, ld *diag, double *fast,
				  size_t length, const ld *inverse_u, const ld *inverse_m,
				  const ld *finish, work *wk)
{
	ld			m = cr->m;
	int			k = cr->k;
	ld			scale = ldexpl(1, DIAG_SCALE);
	int			u;
	int			j;

#define STORE(index, value) \
	do { \
		if (fast != NULL) \
			fast[index] = (double) ((value) * scale); \
		else \
			diag[index] = (value); \
	} while (0)

	for (u = 0; u <= K; u++)
		STORE(u, classic_stay(cr, u));
	for (j = 1; j <= cr->J; j++)
	{
		size_t		row = (size_t) j * length;
		ld			t;

		t = finish[j];
		STORE(row + j, t);
		for (u = j; u < K && m - u - k + j > 0; u++)
		{
			t *= ((ld) (u + 1) * inverse_u[u - j]) * ((m - u - k + j) * inverse_m[u]);
			STORE(row + u + 1, t);
		}
		tick(wk, (unsigned long) (K - j + 1));
	}
#undef STORE
}

/*
 * The row table in the fast path's form (fast: double, scaled) or in long
 * double; NULL (and *status set) when out of memory.
 */
static void *
classic_table(const classic_rows *cr, int K, const ld *inverses,
			  const ld *finish, int fast, work *wk, bs_error *err,
			  bs_status *status)
{
	size_t		count = diag_size(K, cr->J);
	size_t		length = diag_stride(K);
	void	   *table = work_alloc_bytes(count * (fast ? sizeof(double) : sizeof(ld)),
										 err, status);

	if (table != NULL)
		classic_diagonals(cr, K, fast ? NULL : table, fast ? table : NULL, length,
						  inverses, inverses + 2 * (K + 1), finish, wk);
	return table;
}

/*
 * at most this many precomputed row entries (16 MB); beyond, rows on the
 * fly.  Also on the fly for one or two items: the chain then takes one full
 * step, from u = K, which needs one row, and the last step needs only
 * finish[].
 */
#define ROW_TABLE_LIMIT ((size_t) 1 << 20)

/*
 * Tilt the classic chain (see classic_ln) when U (65) is below e^-10000,
 * that is the rate too: near the bottom of the long double range (about
 * e^-11355, subnormals to e^-11399), where the untilted chain underflows.
 */
#define TILT_BELOW (-10000.0L)

/*
 * ln Q_C(k).  With a finite stop_ln, a cheaper lower bound may do
 * (*partial set, *ln_out the bound, -inf when none was found): the chain
 * truncated at a smaller J (BOUND_TRUNCATION_TOLERANCE) and stopped as soon
 * as its partial sum passes exp(stop_ln); only on the fast path, whose
 * result it takes when the underflow bound certifies it (the cuts only drop
 * nonnegative terms).  *partial is clear when *ln_out is the rate itself.
 */
static bs_status
classic_ln(int64_t m_int, int64_t n_int, int64_t k_int, ld stop_ln,
		   ld *ln_out, int *partial, work *wk, bs_error *err)
{
	int			k = (int) k_int;
	int			K = k;
	ld			m = (ld) m_int;
	ld			n = (ld) n_int;
	ld		   *a;				/* a[u] = ln(C(m-u,k)/C(m,k)) */
	ld		   *suffix;			/* suffix[u] = a[K] - a[u], summed directly */
	ld		   *cost;
	ld		   *x;
	ld		   *diag = NULL;
	ld		   *inverses = NULL;
	ld		   *value = NULL;
	ld		   *finish;		/* tau_u(u), u <= J */
	double	   *fast_diag = NULL;
	int			table;
	bs_status	status = BS_OK;
	ld			direct;
	classic_rows cr;
	size_t		length;
	int			J = 0;
	int			u;
	int			v;
	/* rough rate: U (65) */
	ld			guess = k * logl(-expm1l(n * log1pl(-(ld) k / m)));

	*partial = 0;
	a = work_alloc(4 * ((size_t) K + 1), err, &status);
	if (a == NULL)
		return status;
	suffix = a + (K + 1);
	cost = a + 2 * (K + 1);
	x = a + 3 * (K + 1);

	/* x[v] = ln(C(m-v-1,k)/C(m-v,k)) = ln(1 - k/(m-v)) */
	for (v = 0; v < K; v++)
		x[v] = (m - v - k > 0) ? log1pl(-(ld) k / (m - v)) : -INFINITY;
	a[0] = 0;
	cost[0] = 0;
	for (u = 0; u < K; u++)
	{
		a[u + 1] = a[u] + x[u];
		cost[u + 1] = (m - u - k > 0) ? cost[u] + k / (m - u - k) : INFINITY;
	}
	suffix[K] = 0;
	for (u = K - 1; u >= 0; u--)
		suffix[u] = suffix[u + 1] + x[u];

	if (classic_direct(m, n, k, a, cost, &direct, wk))
	{
		*ln_out = logl(direct);
		work_free(a);
		return BS_OK;
	}

	/*
	 * method (b); cost[] is free again and serves as scratch.  A lower
	 * bound only on the fast path with its table, and for many hitting
	 * items: with few, the table costs more than the chain, and the
	 * partial sum passes the threshold only near the end.
	 */
	if (!isinf(stop_ln) &&
		n * (isinf(a[K]) ? 1 : -expm1l(a[K])) >= BOUND_MIN_HITS)
	{
		J = classic_truncation(m, n, k, a, cost, BOUND_TRUNCATION_TOLERANCE);
		if (n_int > 2 && guess > FAST_FLOOR &&
			((size_t) K + 1) * ((size_t) J + 1) <= ROW_TABLE_LIMIT)
			*partial = 1;
	}
	if (!*partial)
		J = classic_truncation(m, n, k, a, cost, TRUNCATION_TOLERANCE);
	cr.m = m;
	cr.k = k;
	cr.J = J;
	cr.p = isinf(a[K]) ? 1 : -expm1l(a[K]);
	cr.a = a;
	cr.suffix = suffix;
	cr.log_c_m_k = lgammal(m + 1) - lgammal((ld) k + 1) - lgammal(m - k + 1);
	cr.inverse_p = 1 / cr.p;
	length = chain_length(K, J);

	/* 1/(v+1), 1/(m-k+1-v) (only positive ones are used) and 1/(m-v) */
	inverses = work_alloc(3 * ((size_t) K + 1), err, &status);
	if (inverses == NULL)
		goto done;
	for (v = 0; v <= K; v++)
	{
		inverses[v] = 1 / (ld) (v + 1);
		inverses[K + 1 + v] = m - k + 1 - v > 0 ? 1 / (m - k + 1 - v) : 0;
		inverses[2 * (K + 1) + v] = 1 / (m - v);
	}
	cr.inverse_j = inverses;
	cr.inverse_s = inverses + (K + 1);

	/*
	 * Rates below the long double range (such as 1/C(m,k) for one item,
	 * e^-19858 for m = 1e11, k = 1024) would underflow in the chain and
	 * come out as 0 (ln = -inf), and every such k would then tie with the
	 * others in bs_optimal_k (which returned 571 instead of 1024 for m =
	 * 1e11, n = 1).  So there the chain runs tilted: every transition
	 * tau_u(j) is stored times x^j, with x = m/mu, mu = m(1 - (1-k/m)^n)
	 * (so x^k = 1/U, U of (65)).  A path of the chain from u = K to u = 0
	 * covers K targets in all, whatever its steps, so every term of
	 * Q_C(k) = P(U = 0) (eq. (60) as the chain computes it, value[] =
	 * [u = 0]) gets the same factor x^K: the chain's sum is exactly
	 * x^K Q_C(k) (to the rounding of the products), between L/U and 1 with
	 * L the lower bound of Theorem 15 / (64), well inside the range, and
	 * K ln x is taken off its logarithm.  Only the tail test of the
	 * binomial sum needs the factor (value_log_scale); the truncation at J
	 * is relative, and the tilted runs are below FAST_FLOOR, so no fast-path
	 * cuts and no lower bounds (stop_ln) are involved.  Rates above
	 * e^TILT_BELOW are computed as before, untilted.
	 */
	cr.tilt = 1;
	cr.log_tilt = 0;
	if (guess < TILT_BELOW && !*partial)
	{
		cr.tilt = expl(-guess / k);
		cr.log_tilt = logl(cr.tilt);
	}

	table = n_int > 2 && ((size_t) K + 1) * ((size_t) J + 1) <= ROW_TABLE_LIMIT;
	value = work_alloc((size_t) K + 1 + (size_t) J + 1, err, &status);
	if (value == NULL)
		goto done;
	value[0] = 1;
	finish = value + K + 1;
	classic_finish(&cr, finish, inverses + 2 * (K + 1));
	{
		hit_chain	hc;
		int			inexact = 1;
		int			stopped = 0;

		hc.K = K;
		hc.J = J;
		hc.diag = NULL;
		hc.length = length;
		hc.stride = diag_stride(K);
		hc.fast_diag = NULL;
		hc.make_row = classic_make_row;
		hc.context = &cr;
		hc.value = value;
		hc.finish = finish;
		hc.n_items = n;
		hc.log_miss = a[K];
		hc.floor_ln = classic_floor_ln(m, n, k) + K * cr.log_tilt;
		hc.stop_ln = *partial ? stop_ln : INFINITY;
		hc.value_log_scale = K * cr.log_tilt;

		/* as hit_chain_auto, making only the table each path needs */
		if (table && guess > FAST_FLOOR)
		{
			fast_diag = classic_table(&cr, K, inverses, finish, 1, wk,
									  err, &status);
			if (fast_diag == NULL)
				goto done;
			hc.fast_diag = fast_diag;
			status = hit_chain_run(&hc, 1, ln_out, &inexact, &stopped, wk, err);
			hc.fast_diag = NULL;
		}
		if (*partial)
		{
			/* a lower bound, or nothing when the double range fails it */
			if (inexact)
				*ln_out = -INFINITY;
			goto done;
		}
		if (status == BS_OK && inexact)
		{
			if (table &&
				(hc.diag = diag = classic_table(&cr, K, inverses, finish, 0,
												wk, err, &status)) == NULL)
				goto done;
			status = hit_chain_run(&hc, 0, ln_out, &inexact, &stopped, wk, err);
		}
		if (status == BS_OK && cr.log_tilt != 0)
			*ln_out -= hc.value_log_scale;
	}
done:
	work_free(fast_diag);
	work_free(diag);
	work_free(inverses);
	work_free(value);
	work_free(a);
	return status;
}

/* ------------------------------------------------------------------------
 * Public functions
 * ------------------------------------------------------------------------ */

/*
 * The exact rates computed during a sizing (bs_analysis_memo_begin/end),
 * per thread: bs_bloom_size_exact decides "does some k reach the rate" at
 * the m it finally rounds up to a prime, and then asks for the optimal k at
 * that prime, which needs the same rates again.  The computation is
 * deterministic, so a remembered rate is the very value a new computation
 * would give.  Outside a sizing nothing is remembered.
 */
#define RATE_MEMO_SIZE 32

typedef struct rate_memo
{
	int64_t		m;
	int64_t		n;
	int64_t		k;
	bs_construction c;
	ld			ln;
	int			partial;		/* ln is only a lower bound (rate_bound_ln) */
} rate_memo;

static _Thread_local rate_memo memo[RATE_MEMO_SIZE];
static _Thread_local int memo_used = -1;	/* entries filled; -1: not remembering */

/*
 * And the last local minimum in k that a search walked to, at memo_ref_m
 * bits for memo_ref_n items: bs_optimal_k starts there (scaled to its m)
 * rather than from the bounds, a few exact rates fewer.
 */
static _Thread_local int64_t memo_ref_m;
static _Thread_local int64_t memo_ref_n;
static _Thread_local bs_construction memo_ref_c;
static _Thread_local int memo_ref_k;

/* see in_hook */
static void
forget_cut_short(void)
{
	if (!in_hook)
		return;
	in_hook = 0;
	memo_used = -1;
	kept_raw = NULL;			/* the caller's memory, freed by now */
	work_keep(0);
}

void
bs_analysis_memo_begin(void)
{
	in_hook = 0;
	memo_used = 0;
	memo_ref_m = 0;
	work_keep(1);
}

void
bs_analysis_memo_end(void)
{
	memo_used = -1;
	work_keep(0);
}

/*
 * ln f for checked arguments, or (stop_ln finite) possibly only a lower
 * bound of it, *partial then set, that passes stop_ln when it can (see
 * classic_ln; the standard rate is always exact).  partial may be NULL
 * when stop_ln is +inf.
 */
static bs_status
rate_bound_ln(int64_t m, int64_t n, int64_t k, bs_construction c,
			  ld stop_ln, ld *ln_out, int *partial, bs_error *err)
{
	work		wk = {0};
	bs_status	s;
	int			i;
	int			dummy;

	if (partial == NULL)
		partial = &dummy;
	*partial = 0;
	if (n == 0)
	{
		*ln_out = -INFINITY;
		return BS_OK;
	}
	for (i = 0; i < memo_used; i++)
		if (memo[i].m == m && memo[i].n == n && memo[i].k == k && memo[i].c == c &&
			(!memo[i].partial || (!isinf(stop_ln) && memo[i].ln > stop_ln)))
		{
			*ln_out = memo[i].ln;
			*partial = memo[i].partial;
			return BS_OK;
		}
	s = c == BS_CONSTRUCTION_STANDARD ? standard_ln(m, n, k, ln_out, &wk, err) :
		classic_ln(m, n, k, stop_ln, ln_out, partial, &wk, err);
	if (s == BS_OK && memo_used >= 0 && memo_used < RATE_MEMO_SIZE)
	{
		rate_memo  *slot = &memo[memo_used++];

		slot->m = m;
		slot->n = n;
		slot->k = k;
		slot->c = c;
		slot->ln = *ln_out;
		slot->partial = *partial;
	}
	return s;
}

/* ln f for checked arguments */
static bs_status
rate_ln(int64_t m, int64_t n, int64_t k, bs_construction c, ld *ln_out,
		bs_error *err)
{
	return rate_bound_ln(m, n, k, c, INFINITY, ln_out, NULL, err);
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
	if ((s = rate_ln(m, n, k, c, &ln, err)) != BS_OK)
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
	if ((s = rate_ln(m, n, k, c, &ln, err)) != BS_OK)
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

		if ((s = standard_cover_ln(m, n, k, &ln_l, &wk, err)) != BS_OK)
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
	if ((s = rate_ln(m, n, k, c, &ln, err)) != BS_OK)
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

	if ((s = check_items(n, err)) != BS_OK || (s = check_rate(fpr, err)) != BS_OK)
		return s;
	*bits_out = (double) ((ld) n * -log2l((ld) fpr));
	return BS_OK;
}

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
 *    evaluations where the bounds are tight (undecided_k).
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
 *    Burns observes (Fig. 6-8) but does not prove.  test/test_analysis.c
 *    checks the answers against a brute force over all k for several
 *    hundred (m, n) pairs of both constructions.
 *
 * bs_optimal_k (search_min).  First the bounds alone: when U (65) of the
 * guessed optimum is below the lower bound of every other k, that k is the
 * answer without any exact rate (optimum_by_bounds; typical at k = K_max).
 * Else a walk to a local minimum of the exact rate (local_min): from a
 * guess between the minimisers of the bounds of 1. and 2. (initial_guess),
 * the exact rates at x-1, x, x+1 give a Newton step on the discrete
 * function, and a neighbour whose lower bound already exceeds the rate at x
 * is not even evaluated; some 1-5 exact rates.  Then the bounds of 1. are
 * asked which other k could still be better (certify, undecided_k): none
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
 * exact rates: local_min, stopped at the first k that reaches fpr, and, when
 * none does, the certification above with fpr as the threshold.  A secant
 * iteration on ln f(m, k(m)) - ln fpr, k(m) a guess of the optimum at m
 * (a local minimum found at another m, scaled in proportion to m as the
 * optimal k is about (m/n) ln 2, eq. (67); else initial_guess), estimates
 * the answer from 2-3 exact rates, starting at the textbook m (68); the
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

/* ln of the bound of 1. with mu taken at k_mu <= k, for k factors */
static ld
block_lower_bound_ln(ld m, ld n, int k_mu, int k, bs_construction c)
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
static ld
upper_bound_ln(ld m, ld n, int k)
{
	return k * logl(-expm1l(n * log1pl(-(ld) k / m)));
}

/* absolute slack for a bound before deciding with it (lgamma rounding) */
static ld
bound_slack(ld m, ld ln_value)
{
	return 1e-9L * fabsl(ln_value) + 64 * ULP * (m + 64) * logl(m + 2) + 1e-12L;
}

/* do two log-rates count as equal? */
static int
same_rate(ld a, ld b)
{
	if (isinf(a) || isinf(b))
		return a == b;
	return fabsl(a - b) <= 1e-12L * (1 + fabsl(a));
}

/*
 * rate <= target, decided on the computed rates: within their 1e-12
 * accuracy an exact tie (such as 1/2 <= 1/2) counts as reaching the target.
 */
static int
reaches_target(ld ln, ld target)
{
	return ln <= target + 1e-12L * (1 + fabsl(target));
}

/*
 * Does a lower bound b show that the rate exceeds the threshold, by more
 * than a tie or the error of a computed rate?
 */
static int
bound_exceeds(ld m, ld b, ld threshold)
{
	if (isinf(threshold) || isinf(b))
		return 0;
	return b - bound_slack(m, b) > threshold + 3e-11L * (1 + fabsl(threshold));
}

/* does an upper bound u show that the computed rate reaches the target? */
static int
bound_reaches(ld m, ld u, ld target)
{
	if (isinf(target) || isnan(u))
		return 0;
	return u + bound_slack(m, u) <= target - 1e-10L * (1 + fabsl(target));
}

static int
search_limit(int64_t m, bs_construction c)
{
	if (c == BS_CONSTRUCTION_CLASSIC && m < BS_ANALYSIS_SEARCH_HASHES)
		return (int) m;
	return BS_ANALYSIS_SEARCH_HASHES;
}

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
	int			walked;			/* best is a local minimum (local_min ran) */
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

/* is k1 strictly better than k2 (lower rate, or a tie and k1 < k2)? */
static int
better(const k_search *ks, int k1, int k2)
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
	poll_interrupts();
	if (ks->best == 0 || better(ks, k, ks->best))
		ks->best = k;
	if (ks->decide && ks->reached == 0 && reaches_target(ks->ln[k], ks->target))
		ks->reached = k;
}

/* the exact rate of k, once */
static bs_status
evaluate(k_search *ks, int k, bs_error *err)
{
	bs_status	s;
	ld			ln;

	if (ks->known[k])
		return BS_OK;
	if ((s = rate_ln(ks->m, ks->n, k, ks->c, &ln, err)) != BS_OK)
		return s;
	record(ks, k, ln);
	return BS_OK;
}

/*
 * How far above threshold a chain's lower bound stops (above_by_bound): its
 * own rounding allowance and the slack of bound_exceeds, with room.
 */
static ld
chain_bound_margin(ld m, ld threshold)
{
	return 2 * bound_slack(m, threshold) + 1e-9L * (1 + fabsl(threshold));
}

/*
 * Is the rate of k (not evaluated) above threshold by a lower bound?  First
 * the bounds of 1. and the floor, then a lower bound from the chain itself
 * (rate_bound_ln: truncated, and stopped once past the threshold, at a
 * fraction of the cost of the exact rate where the rate is clearly above),
 * which becomes k's floor; when that computes the exact rate instead, it is
 * recorded as evaluate would.  The margins: the bound's own rounding
 * (at most some 1e-11 relative, allowed 1e-10) and those of bound_exceeds.
 */
static bs_status
above_by_bound(k_search *ks, int k, ld threshold, int *above, bs_error *err)
{
	ld			m = (ld) ks->m;
	ld			stop;
	ld			lb;
	int			partial;
	bs_status	s;

	*above = 0;
	if (ks->known[k] || isinf(threshold) || isnan(threshold))
		return BS_OK;
	if (bound_exceeds(m, block_lower_bound_ln(m, (ld) ks->n, k, k, ks->c), threshold) ||
		bound_exceeds(m, ks->floor[k], threshold))
	{
		*above = 1;
		return BS_OK;
	}
	if (ks->c != BS_CONSTRUCTION_CLASSIC)
		return BS_OK;
	stop = threshold + chain_bound_margin(m, threshold);
	if ((s = rate_bound_ln(ks->m, ks->n, k, ks->c, stop, &lb, &partial, err)) != BS_OK)
		return s;
	poll_interrupts();
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
	*above = bound_exceeds(m, lb, threshold);
	return BS_OK;
}

/* stop searching: an error, or (decide) a k that reaches the target */
#define SEARCH_DONE(ks, s) ((s) != BS_OK || (ks)->reached != 0)

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
		if (bound_exceeds(m, block_lower_bound_ln(m, (ld) ks->n, k, k, ks->c), ks->ln[x]))
			return BS_OK;

		/*
		 * A chain's lower bound of k, unless the floors (rates at a larger
		 * m), shifted by x's change from there, predict k within a few
		 * times the bound's margin of x: a near tie, which it cannot
		 * settle.
		 */
		if (!(isfinite(ks->floor[k]) && isfinite(ks->floor[x]) &&
			  ks->floor[k] + (ks->ln[x] - ks->floor[x]) <
			  ks->ln[x] + 4 * chain_bound_margin(m, ks->ln[x])) &&
			(SEARCH_DONE(ks, s = above_by_bound(ks, k, ks->ln[x], &above, err)) || above))
			return s;

		/*
		 * Deciding (x above the target), a near tie need not be resolved:
		 * when k is above the target too and the k beyond it, on the far
		 * side from x, is worse than x, the minimum is x or k (fact 4), so
		 * above the target whichever it is, and the walk may stop at x.
		 */
		if (ks->decide && !(ks->ln[x] <= ks->target))
		{
			if (!bound_exceeds(m, ks->floor[k], ks->target) &&
				SEARCH_DONE(ks, s = above_by_bound(ks, k, ks->target, &above, err)))
				return s;
			if (!ks->known[k] && bound_exceeds(m, ks->floor[k], ks->target))
			{
				if (beyond < 1 || beyond > ks->kmax)
					return BS_OK;
				if (!ks->known[beyond] &&
					SEARCH_DONE(ks, s = above_by_bound(ks, beyond, ks->ln[x], &above, err)))
					return s;
				if (ks->known[beyond] ? !better(ks, beyond, x) : above)
					return BS_OK;
			}
		}
	}
	if (SEARCH_DONE(ks, s = evaluate(ks, k, err)))
		return s;
	*yes = better(ks, k, x);
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
static bs_status
local_min(k_search *ks, int start, bs_error *err)
{
	int			lo = 1;
	int			hi = ks->kmax;
	int			x = start < 1 ? 1 : start > ks->kmax ? ks->kmax : start;
	int			cap = FIRST_STEP_CAP;
	int			i;
	bs_status	s;

	ks->walked = 1;
	if (SEARCH_DONE(ks, s = evaluate(ks, x, err)))
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
			b = better(ks, x - 1, x + 1) ? x - 1 : x + 1;
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
		if (SEARCH_DONE(ks, s = evaluate(ks, x, err)))
			return s;
	}
	return bracket_min(ks, x, 1, lo, hi, err);
}

/*
 * Count the k of [lo, hi], not evaluated yet, that the bounds of 1. do not
 * show to exceed threshold, by bisecting into blocks (fact 1); the first
 * `cap` of them go to list.  Stops counting past cap.
 */
static int
undecided_k(const k_search *ks, int lo, int hi, ld threshold, int *list,
			int count, int cap)
{
	int			mid;

	if (count > cap)
		return count;
	if (bound_exceeds((ld) ks->m,
					  block_lower_bound_ln((ld) ks->m, (ld) ks->n, lo, hi, ks->c),
					  threshold))
		return count;
	if (lo == hi)
	{
		if (!ks->known[lo] && !bound_exceeds((ld) ks->m, ks->floor[lo], threshold))
		{
			if (count < cap)
				list[count] = lo;
			count++;
		}
		return count;
	}
	mid = lo + (hi - lo) / 2;
	count = undecided_k(ks, lo, mid, threshold, list, count, cap);
	return undecided_k(ks, mid + 1, hi, threshold, list, count, cap);
}

/*
 * Exact evaluations allowed to complete a certificate (see above); fewer
 * near k = 1000, where an evaluation costs some 5-10 ms.
 */
#define CERTIFY_EXTRA 6
/* a decision evaluates the k left by the bounds when at most this many */
#define WINDOW_CAP 4
#define CERTIFY_EXTRA_LARGE_K 2
#define LARGE_K 128

/*
 * After local_min: rule out every other k with the bounds, evaluating the
 * few they leave (and walking on if one of them is better).  threshold: the
 * best rate (minimisation) or the target (decision).  Returns with the
 * certificate complete, or, when the bounds leave too many k, relying on
 * fact 4.
 */
static bs_status
certify(k_search *ks, bs_error *err)
{
	int			list[CERTIFY_EXTRA];
	int			rounds;
	bs_status	s = BS_OK;

	for (rounds = 0; rounds < 4; rounds++)
	{
		int			cap = ks->best > LARGE_K ? CERTIFY_EXTRA_LARGE_K : CERTIFY_EXTRA;
		ld			threshold = ks->decide ? ks->target : ks->ln[ks->best];
		int			count = undecided_k(ks, 1, ks->kmax, threshold, list, 0, cap);
		int			old_best = ks->best;
		int			i;

		if (count == 0 || count > cap)
			return BS_OK;
		for (i = 0; i < count; i++)
		{
			int			above;

			if (SEARCH_DONE(ks, s = above_by_bound(ks, list[i], threshold, &above, err)))
				return s;
			if (!above && SEARCH_DONE(ks, s = evaluate(ks, list[i], err)))
				return s;
		}
		if (ks->best != old_best &&
			SEARCH_DONE(ks, s = local_min(ks, ks->best, err)))
			return s;
	}
	return s;
}

/* the approximate optimum: Remark 29 (77) for classic, (m/n) ln 2 standard */
static int
approximate_k(int64_t m, int64_t n, bs_construction c)
{
	ld			k = c == BS_CONSTRUCTION_CLASSIC ?
		(ld) m * logl(2) / ((ld) n + logl(2)) : (ld) m / (ld) n * logl(2);
	int			kmax = search_limit(m, c);

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
		upper_bound_ln(m, n, (j)) : block_lower_bound_ln(m, n, (j), (j), ks->c))
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
static int
initial_guess(const k_search *ks)
{
	int			kl = bound_minimiser(ks, approximate_k(ks->m, ks->n, ks->c), 0);
	int			ku = bound_minimiser(ks, kl, 1);
	ld			fraction = ks->c != BS_CONSTRUCTION_CLASSIC ? 0.42L :
		0.69L * (1 - 0.8L / ((ld) ks->n * (ld) ks->n));

	if (ks->c == BS_CONSTRUCTION_CLASSIC && ks->n == 1)
		fraction = 0;

	return (int) floorl(kl - fraction * (kl - ku) + 0.5L);
}

static k_search *
k_search_new(int64_t m, int64_t n, bs_construction c, bs_error *err,
			 bs_status *status)
{
	k_search   *ks = work_alloc_bytes(sizeof(k_search), err, status);
	int			k;

	if (ks != NULL)
	{
		ks->m = m;
		ks->n = n;
		ks->c = c;
		ks->kmax = search_limit(m, c);
		for (k = 0; k <= BS_ANALYSIS_SEARCH_HASHES; k++)
			ks->floor[k] = -INFINITY;
	}
	return ks;
}

/*
 * The k minimising the exact rate (ties to the smaller k) and its ln, n >= 1.
 * guess: a k near the optimum, or 0.
 */
static bs_status
search_min(k_search *ks, int guess, bs_error *err)
{
	bs_status	s;

	if (guess < 1)
		guess = initial_guess(ks);
	if ((s = local_min(ks, guess, err)) != BS_OK)
		return s;
	return certify(ks, err);
}

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
	u = upper_bound_ln(m, (ld) ks->n, k0);
	u += bound_slack(m, u);
	return (k0 == 1 || undecided_k(ks, 1, k0 - 1, u, NULL, 0, 0) == 0) &&
		(k0 == ks->kmax || undecided_k(ks, k0 + 1, ks->kmax, u, NULL, 0, 0) == 0);
}

/*
 * Does some k reach the target?  *k_out: such a k (0 when none), *ln_out its
 * rate (an upper bound of it when U decided).  guess as for search_min.
 */
static bs_status
search_decide(k_search *ks, ld target, int guess, int64_t *k_out,
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
		guess = initial_guess(ks);

	/* a rate already known */
	for (k = 1; k <= ks->kmax; k++)
		if (ks->known[k] && reaches_target(ks->ln[k], target))
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
			ld			u = upper_bound_ln(m, (ld) ks->n, k);

			if (bound_reaches(m, u, target))
			{
				*k_out = k;
				*ln_out = u;
				return BS_OK;
			}
		}
	/* no k at all by the bounds of 1. */
	if ((count = undecided_k(ks, 1, ks->kmax, target, list, 0, WINDOW_CAP)) == 0)
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

				if (SEARCH_DONE(ks, s = above_by_bound(ks, k, target, &above, err)))
					break;
				if (above)
					continue;
			}
			if (SEARCH_DONE(ks, s = evaluate(ks, k, err)))
				break;
		}
		if (s == BS_OK && ks->reached != 0)
		{
			*k_out = ks->reached;
			*ln_out = ks->ln[ks->reached];
		}
		return s;
	}

	if (SEARCH_DONE(ks, s = local_min(ks, guess, err)) ||
		SEARCH_DONE(ks, s = certify(ks, err)))
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

	if ((s = check_bits(m, err)) != BS_OK || (s = check_items(n, err)) != BS_OK ||
		(s = check_construction(c, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*k_out = 1;
		return BS_OK;
	}
	if ((ks = k_search_new(m, n, c, err, &s)) == NULL)
		return s;
	guess = initial_guess(ks);
	if (memo_used >= 0 && memo_ref_m > 0 && memo_ref_n == n && memo_ref_c == c)
	{
		/* near the minimum a search of this sizing walked to (eq. (67)) */
		ld			k = floorl((ld) memo_ref_k * (ld) m / (ld) memo_ref_m + 0.5L);

		guess = k < 1 ? 1 : k > ks->kmax ? ks->kmax : (int) k;
	}
	if (optimum_by_bounds(ks, guess))
		*k_out = guess;
	else if ((s = search_min(ks, guess, err)) == BS_OK)
		*k_out = ks->best;
	work_free(ks);
	return s;
}

/* ------------------------------------------------------------------------
 * bs_optimal_bits
 * ------------------------------------------------------------------------ */

/* exact rates and decisions of one bs_optimal_bits call, remembered */
#define LOG_SIZE 256
#define DECIDED_SIZE 64

typedef struct bits_search
{
	int64_t		n;
	bs_construction c;
	ld			target;
	int64_t		yes;			/* smallest m known to reach target, 0 none */
	int64_t		no;				/* largest m known not to, 0 none */
	int64_t		ref_m;			/* an m with a local minimum found, 0 none */
	int			ref_k;			/* that minimum */
	int64_t		optimum_m;		/* an m whose optimal k is known, 0 none */
	int			optimum_k;		/* that k */
	int			count;
	int64_t		log_m[LOG_SIZE];	/* exact rates computed: f(m, n, k) */
	int			log_k[LOG_SIZE];
	ld			log_ln[LOG_SIZE];
	unsigned char log_floor[LOG_SIZE];	/* log_ln only a lower bound */
} bits_search;

/* a k_search for m with the rates already computed at m */
static k_search *
bits_k_search(const bits_search *bs, int64_t m, bs_error *err, bs_status *s)
{
	k_search   *ks = k_search_new(m, bs->n, bs->c, err, s);
	int			i;

	if (ks != NULL)
		for (i = 0; i < bs->count; i++)
		{
			int			k = bs->log_k[i];

			if (k > ks->kmax)
				continue;
			if ((bs->log_m[i] > m || (bs->log_m[i] == m && bs->log_floor[i])) &&
				bs->log_ln[i] > ks->floor[k])
				ks->floor[k] = bs->log_ln[i];
			if (bs->log_m[i] == m && !bs->log_floor[i] && !ks->known[k])
			{
				ks->known[k] = 1;
				ks->ln[k] = bs->log_ln[i];
				if (ks->best == 0 || better(ks, k, ks->best))
					ks->best = k;
			}
		}
	return ks;
}

/*
 * remember the rates computed at m, and the floors of the other k (lower
 * bounds of their rates at m, so at every smaller m too)
 */
static void
bits_remember(bits_search *bs, const k_search *ks)
{
	int			k;
	int			i;

	for (k = 1; k <= ks->kmax && bs->count < LOG_SIZE; k++)
	{
		if (!ks->known[k] && !ks->bounded[k])
			continue;
		for (i = 0; i < bs->count; i++)
			if (bs->log_m[i] == ks->m && bs->log_k[i] == k)
				break;
		if (i == bs->count)
			bs->count++;
		else if (!bs->log_floor[i] || (!ks->known[k] && ks->floor[k] <= bs->log_ln[i]))
			continue;
		bs->log_m[i] = ks->m;
		bs->log_k[i] = k;
		bs->log_floor[i] = !ks->known[k];
		bs->log_ln[i] = ks->known[k] ? ks->ln[k] : ks->floor[k];
	}
}

/*
 * The k expected to be best at ks->m: the local minimum found at another m,
 * scaled in proportion to m (eq. (67)), else initial_guess.
 */
static int
bits_guess(const bits_search *bs, const k_search *ks)
{
	ld			k;

	if (bs->ref_m <= 0)
		return initial_guess(ks);
	k = floorl((ld) bs->ref_k * (ld) ks->m / (ld) bs->ref_m + 0.5L);
	if (k < 1)
		return 1;
	if (k > ks->kmax)
		return ks->kmax;
	return (int) k;
}

/* does some k reach the target with m bits?  (the decision of fact 3) */
static bs_status
decide_bits(bits_search *bs, int64_t m, int *yes, bs_error *err)
{
	k_search   *ks;
	int64_t		k;
	ld			ln;
	bs_status	s;

	if (bs->yes != 0 && m >= bs->yes)
	{
		*yes = 1;
		return BS_OK;
	}
	if (bs->no != 0 && m <= bs->no)
	{
		*yes = 0;
		return BS_OK;
	}
	if ((ks = bits_k_search(bs, m, err, &s)) == NULL)
		return s;
	s = search_decide(ks, bs->target, bits_guess(bs, ks), &k, &ln, err);
	if (s == BS_OK)
	{
		bits_remember(bs, ks);
		*yes = k != 0;
		if (k != 0 && (bs->yes == 0 || m < bs->yes))
			bs->yes = m;
		if (k == 0)
		{
			if (m > bs->no)
				bs->no = m;
			if (ks->walked)
			{
				/* the walk of a "no" ended at a local minimum */
				bs->ref_m = m;
				bs->ref_k = ks->best;
				memo_ref_m = m;
				memo_ref_n = bs->n;
				memo_ref_c = bs->c;
				memo_ref_k = ks->best;
			}
		}
	}
	work_free(ks);
	return s;
}

/* ln f(m, n, k) with k the guess of bits_guess at m */
static bs_status
bits_rate_at_guess(bits_search *bs, int64_t m, ld *ln, bs_error *err)
{
	k_search   *ks;
	bs_status	s;
	int			k;

	if ((ks = bits_k_search(bs, m, err, &s)) == NULL)
		return s;
	k = bits_guess(bs, ks);
	if ((s = evaluate(ks, k, err)) == BS_OK)
	{
		*ln = ks->ln[k];
		bits_remember(bs, ks);
	}
	work_free(ks);
	return s;
}

/*
 * An estimate of the answer: the rate at the textbook m (68) with the
 * guessed optimal k there, then a secant on ln f(m, k(m)) - target, k(m)
 * the guess at each m.  Only a starting point for the decisions.
 */
static bs_status
estimate_bits(bits_search *bs, int64_t hi, int64_t *m_out, bs_error *err)
{
	ld			ma = ceill((ld) bs->n * -bs->target / (logl(2) * logl(2)));
	ld			mb;
	ld			fa;
	ld			fb;
	int			iter;
	bs_status	s;

	if (!(ma >= 1))
		ma = 1;
	if (ma > hi)
		ma = (ld) hi;
	if ((s = bits_rate_at_guess(bs, (int64_t) ma, &fa, err)) != BS_OK)
		return s;

	/* ln F(m) is about proportional to m (eq. (68)) */
	mb = (fa < 0 && isfinite(fa)) ? floorl(ma * bs->target / fa + 0.5L) : ma;
	for (iter = 0; iter < 8; iter++)
	{
		ld			next;

		if (!(mb >= 1))
			mb = 1;
		if (mb > hi)
			mb = (ld) hi;
		if (mb == ma)
			break;
		if ((s = bits_rate_at_guess(bs, (int64_t) mb, &fb, err)) != BS_OK)
			return s;
		if (!isfinite(fb) || !isfinite(fa) || fb == fa)
			break;
		next = floorl(mb + (bs->target - fb) * (mb - ma) / (fb - fa) + 0.5L);
		ma = mb;
		fa = fb;
		if (fabsl(next - mb) < 1)
			break;
		mb = next;
	}
	*m_out = (int64_t) mb;
	return BS_OK;
}

/*
 * A search for n items at fpr (n >= 1) whose largest m, hi, reaches fpr:
 * *bs (NULL on an error; BS_ERR_TOO_LARGE when hi does not reach fpr).
 */
static bs_status
bits_search_start(int64_t n, double fpr, bs_construction c, int64_t hi,
				  bits_search **bs_out, bs_error *err)
{
	bits_search *bs;
	bs_status	s;
	int			yes;

	*bs_out = bs = work_alloc_bytes(sizeof(bits_search), err, &s);
	if (bs == NULL)
		return s;
	bs->n = n;
	bs->c = c;
	bs->target = logl((ld) fpr);
	if ((s = decide_bits(bs, hi, &yes, err)) != BS_OK)
		return s;
	if (!yes)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "bloom filter for this many items at this false-positive rate is too large",
					   "No filter of at most %lld bits reaches rate %.15g with %lld items.",
					   (long long) hi, fpr, (long long) n);
	bs->ref_m = 0;				/* the local minimum at hi is far away */
	return BS_OK;
}

bs_status
bs_optimal_bits(int64_t n, double fpr, bs_construction c, int64_t *m_out,
				bs_error *err)
{
	bs_status	s;
	int64_t		hi = BS_ANALYSIS_MAX_BITS;
	int64_t		good;			/* reaches the target */
	int64_t		bad;			/* does not (0: below the range) */
	int64_t		m = 1;
	int64_t		step;
	int			yes;
	bits_search *bs = NULL;

	if ((s = check_items(n, err)) != BS_OK || (s = check_rate(fpr, err)) != BS_OK ||
		(s = check_construction(c, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*m_out = 1;
		return BS_OK;
	}
	if ((s = bits_search_start(n, fpr, c, hi, &bs, err)) != BS_OK)
		goto done;
	if ((s = estimate_bits(bs, hi, &m, err)) != BS_OK)
		goto done;

	/* gallop from the estimate to a bracket, then bisect (fact 3) */
	if ((s = decide_bits(bs, m, &yes, err)) != BS_OK)
		goto done;
	step = 1;
	if (yes)
	{
		good = m;
		for (;;)
		{
			int64_t		probe = good - step;

			if (probe < 1)
			{
				bad = 0;
				break;
			}
			if ((s = decide_bits(bs, probe, &yes, err)) != BS_OK)
				goto done;
			if (!yes)
			{
				bad = probe;
				break;
			}
			good = probe;
			step *= 2;
		}
	}
	else
	{
		bad = m;
		for (;;)
		{
			int64_t		probe = bad + step;

			if (probe >= hi)
			{
				good = hi;
				break;
			}
			if ((s = decide_bits(bs, probe, &yes, err)) != BS_OK)
				goto done;
			if (yes)
			{
				good = probe;
				break;
			}
			bad = probe;
			step *= 2;
		}
	}
	while (good - bad > 1)
	{
		int64_t		mid = bad + (good - bad) / 2;

		if ((s = decide_bits(bs, mid, &yes, err)) != BS_OK)
			goto done;
		if (yes)
			good = mid;
		else
			bad = mid;
	}
	*m_out = good;
done:
	work_free(bs);
	return s;
}

/* ------------------------------------------------------------------------
 * bs_optimal_prime_bits: the same decisions, made at primes only
 * ------------------------------------------------------------------------ */

/*
 * An estimate of the smallest m that reaches the target, for the prime
 * search: ln F(m) is about proportional to m (eq. (68)) and about linear
 * over a few prime gaps, so the rate at the prime above the textbook m,
 * with the guessed optimal k, gives a proportional estimate; when that lies
 * farther than a few prime gaps away, a rate at the prime nearest to it
 * gives a secant.  Every rate is taken at a prime, where the search may use
 * it again.  Only a starting point for the decisions.
 */
static bs_status
estimate_prime_bits(bits_search *bs, int64_t lo, int64_t hi, ld *estimate,
					bs_error *err)
{
	/*
	 * the textbook m, less 0.19 / n^2 of it: fitted to the classic answers
	 * for n = 2 to 12 (1e-30 to 1e-300), where the textbook m is up to 5%
	 * too large; below 0.1% for n >= 14
	 */
	ld			textbook = ceill((ld) bs->n * -bs->target / (logl(2) * logl(2)) *
								 (1 - 0.19L / ((ld) bs->n * (ld) bs->n)));
	int64_t		pa;
	int64_t		pb;
	ld			fa;
	ld			fb;
	ld			gap;
	bs_status	s;

	pa = (int64_t) bs_next_prime((uint64_t) fmaxl((ld) lo, fminl(textbook, (ld) hi)));
	if ((s = bits_rate_at_guess(bs, pa, &fa, err)) != BS_OK)
		return s;
	*estimate = (ld) pa;
	if (!(fa < 0 && isfinite(fa)))
		return BS_OK;
	*estimate = pa * bs->target / fa;
	gap = 4 * logl((ld) pa + 2);	/* a few prime gaps */
	if (fabsl(*estimate - pa) <= gap)
		return BS_OK;
	pb = (int64_t) bs_next_prime((uint64_t) fmaxl((ld) lo, fminl(*estimate, (ld) hi)));
	if (pb == pa || (s = bits_rate_at_guess(bs, pb, &fb, err)) != BS_OK ||
		!isfinite(fb) || fb == fa)
		return s;
	*estimate = pb + (bs->target - fb) * (pb - pa) / (fb - fa);
	return BS_OK;
}

/*
 * The optimal k at m (search_min), its rates remembered for the decisions
 * and, in a sizing, for bs_optimal_k, which then starts at the minimum.
 */
static bs_status
optimum_at(bits_search *bs, int64_t m, bs_error *err)
{
	k_search   *ks;
	bs_status	s;

	if ((ks = bits_k_search(bs, m, err, &s)) == NULL)
		return s;
	if ((s = search_min(ks, bits_guess(bs, ks), err)) == BS_OK)
	{
		bits_remember(bs, ks);
		bs->ref_m = bs->optimum_m = memo_ref_m = m;
		bs->ref_k = bs->optimum_k = memo_ref_k = ks->best;
		memo_ref_n = bs->n;
		memo_ref_c = bs->c;
	}
	work_free(ks);
	return s;
}

/* decide at the prime p and narrow (bad, good) */
static bs_status
bracket_prime(bits_search *bs, int64_t p, int64_t *bad, int64_t *good,
			  bs_error *err)
{
	int			yes;
	bs_status	s = decide_bits(bs, p, &yes, err);

	if (s == BS_OK)
		*(yes ? good : bad) = p;
	return s;
}

/* a prime strictly between bad and good, near the middle; 0 when none */
static int64_t
prime_between(int64_t bad, int64_t good)
{
	int64_t		mid = bad + (good - bad) / 2;
	int64_t		p;

	if (good - bad < 2)
		return 0;
	p = (int64_t) bs_next_prime((uint64_t) mid);
	if (p < good)
		return p;
	p = mid - 1 > bad ? (int64_t) bs_prev_prime((uint64_t) (mid - 1)) : 0;
	return p > bad ? p : 0;
}

bs_status
bs_optimal_prime_bits(int64_t n, double fpr, bs_construction c, int64_t lo,
					  int64_t hi, int64_t *m_out, bs_error *err)
{
	bs_status	s;
	bits_search *bs = NULL;
	int64_t		good = hi;		/* reaches the target */
	int64_t		bad = lo - 1;	/* no prime in [lo, bad] does */
	int64_t		above;
	int64_t		below;
	int64_t		step;
	int64_t		p;
	ld			estimate;

	if ((s = check_items(n, err)) != BS_OK || (s = check_rate(fpr, err)) != BS_OK ||
		(s = check_construction(c, err)) != BS_OK)
		return s;
	if (lo < 2 || hi < lo || !bs_is_prime((uint64_t) hi))
		return bs_fail(err, BS_ERR_PARAM, "invalid range of primes",
					   "The range given was %lld to %lld.", (long long) lo, (long long) hi);
	if (n == 0)
	{
		*m_out = (int64_t) bs_next_prime((uint64_t) lo);
		return BS_OK;
	}
	if ((s = bits_search_start(n, fpr, c, hi, &bs, err)) != BS_OK ||
		(s = estimate_prime_bits(bs, lo, hi, &estimate, err)) != BS_OK)
		goto done;

	/*
	 * The primes on either side of the estimate.  The one above first: when
	 * it reaches the target, the optimal k there, which the sizing asks for
	 * next, and whose rates are floors for the one below (fact 3): its "no"
	 * then needs the exact rates only of the few k that reach the target
	 * above.
	 */
	above = (int64_t) bs_next_prime((uint64_t) fmaxl((ld) lo, fminl(ceill(estimate), (ld) hi)));
	below = above > 2 ? (int64_t) bs_prev_prime((uint64_t) (above - 1)) : 0;
	if (above < good && (s = bracket_prime(bs, above, &bad, &good, err)) != BS_OK)
		goto done;
	if (good == above && below > bad &&
		((s = optimum_at(bs, above, err)) != BS_OK ||
		 (s = bracket_prime(bs, below, &bad, &good, err)) != BS_OK))
		goto done;

	/* gallop from the estimate to a bracket (fact 3) ... */
	step = 2 * (above - below > 1 ? above - below : 1);
	if (good <= below)
		while (good - step > bad &&
			   (p = (int64_t) bs_prev_prime((uint64_t) (good - step))) > bad)
		{
			if ((s = bracket_prime(bs, p, &bad, &good, err)) != BS_OK)
				goto done;
			if (bad == p)
				break;
			step *= 2;
		}
	else if (bad >= above)
		while (bad + step < good &&
			   (p = (int64_t) bs_next_prime((uint64_t) (bad + step))) < good)
		{
			if ((s = bracket_prime(bs, p, &bad, &good, err)) != BS_OK)
				goto done;
			if (good == p)
				break;
			step *= 2;
		}
	/* ... and bisect it, until no prime lies between */
	while ((p = prime_between(bad, good)) != 0)
		if ((s = bracket_prime(bs, p, &bad, &good, err)) != BS_OK)
			goto done;
	*m_out = good;
	if (bs->optimum_m == good)
	{
		/* where bs_optimal_k at the answer starts (a "no" may have moved it) */
		memo_ref_m = good;
		memo_ref_k = bs->optimum_k;
		memo_ref_n = bs->n;
		memo_ref_c = bs->c;
	}
done:
	work_free(bs);
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

	if ((s = check_bits(m, err)) != BS_OK || (s = check_items(n, err)) != BS_OK ||
		(s = check_rate(fpr, err)) != BS_OK ||
		(s = check_construction(c, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*reaches = 1;
		return BS_OK;
	}
	if ((ks = k_search_new(m, n, c, err, &s)) == NULL)
		return s;
	if ((s = search_decide(ks, logl((ld) fpr), 0, &k, &ln, err)) == BS_OK)
		*reaches = k != 0;
	work_free(ks);
	return s;
}
