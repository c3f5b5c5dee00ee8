/*
 * bs_rate_chain.c — the hitting-item chain, method (b) of bs_analysis.c:
 * sum_a Bin(n_items, p; a) E[value(U_a)] over the chain of uncovered
 * targets, in scaled double (the fast path) or in long double, with its
 * truncations and their error bounds.  The standard and classic rates
 * (bs_rate_standard.c, bs_rate_classic.c) describe their chain in a
 * hit_chain (bs_analysis_internal.h) and run it here.
 *
 * Terms: the hitting-item chain sums over a, the number of items that hit
 * a non-member's targets, each term computed from the one before.
 */
#include "analysis/bs_analysis_internal.h"
#include "analysis/bs_rate_chain_step.h"

#include <string.h>

/* neglected binomial tail, relative to the sum so far */
#define TAIL_TOLERANCE 1e-18L

/* long double outputs computed together by a step of the slow path */
#define SLOW_BLOCK 4

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
	fs->v = bs_work_alloc_bytes(length * sizeof(double), err, &status);
	fs->next = fs->v ? bs_work_alloc_bytes(length * sizeof(double), err, &status) : NULL;
	if (fs->next == NULL)
		return status;
	if (hc->fast_diag != NULL)
		fs->diag = (double *) hc->fast_diag;
	else
	{
		fs->own_diag = bs_work_alloc_bytes((hc->stride * ((size_t) hc->J + 1) + (size_t) hc->J) *
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
	bs_work_free(fs->v);
	bs_work_free(fs->next);
	bs_work_free(fs->own_diag);
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
	ss->v = bs_work_alloc(hc->length, err, &status);
	ss->next = ss->v ? bs_work_alloc(hc->length, err, &status) : NULL;
	if (ss->next == NULL)
		return status;
	if (hc->diag == NULL &&
		(ss->row_buffer = bs_work_alloc((size_t) hc->J + 1, err, &status)) == NULL)
		return status;
	ss->v[hc->K] = 1;
	ss->umin = hc->K;
	return BS_OK;
}

static void
slow_free(slow_state *ss)
{
	bs_work_free(ss->v);
	bs_work_free(ss->next);
	bs_work_free(ss->row_buffer);
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
 * Refuse a chain whose expected number of inner steps exceeds WORK_LIMIT:
 * K + 1 states times J + 1 transitions for each of about n_items p hitting
 * items, plus a tail.
 */
static bs_status
chain_check_work(const hit_chain *hc, int deterministic, bs_error *err)
{
	ld			p = deterministic ? 1 : -expm1l(hc->log_miss);
	ld			expected = deterministic ? hc->n_items :
		fminl(hc->n_items, hc->n_items * p + 12 * sqrtl(hc->n_items * p) + hc->K + 16);
	ld			row_cost = (ld) (hc->K + 1) * (ld) (hc->J + 1);

	if (expected * row_cost > WORK_LIMIT)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "false-positive rate computation is too long",
					   "About %.3Lg steps would be needed.", expected * row_cost);
	return BS_OK;
}

/* E[value(U_a)] on either path; value[u] = 0 above top */
static ld
chain_expectation(int fast, const fast_state *fs, const slow_state *ss,
				  const ld *value, int top)
{
	return fast ? fast_expectation(fs, value, top) : slow_expectation(ss, value, top);
}

/*
 * Is what the binomial weights beyond the next one can add, at most
 * next / (1 - rho) times the largest E[value] (1, or exp(value_log_scale)
 * when tilted), below TAIL_TOLERANCE of the sum so far?
 */
static int
chain_tail_negligible(const hit_chain *hc, ld next, ld rho, ld acc)
{
	return rho < 1 && acc > 0 &&
		(hc->value_log_scale == 0 ?
		 next / (1 - rho) <= TAIL_TOLERANCE * acc :
		 logl(next / (1 - rho)) + hc->value_log_scale <=
		 logl(TAIL_TOLERANCE * acc));
}

/*
 * One more hitting item on either path, next the weight w_{a+1} and rho
 * w_{a+1} / w_a; counts the steps for the interrupt polling.
 */
static void
chain_advance(const hit_chain *hc, int fast, fast_state *fs, slow_state *ss,
			  ld next, ld rho, ld cut_floor, ld cut_over_weight, work *wk)
{
	int			width;

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
		fast_step(fs, hc->J, cut < DBL_MIN ? DBL_MIN : cut > DBL_MAX ? DBL_MAX : (double) cut,
				  cut_floor > 0 ? cut_floor / cut : 1);
		width = fs->hi - fs->lo + 1;
	}
	else
	{
		slow_step(ss, hc);
		width = hc->K - ss->umin + 1;
	}
	bs_analysis_tick(wk, (unsigned long) width * (unsigned long) (hc->J + 1));
}

/*
 * The leading cut of the fast path: AHEAD_TOLERANCE (a lower bound:
 * BOUND_AHEAD_TOLERANCE) times the floor, scaled; 0 for none.
 */
static ld
leading_cut_floor(const hit_chain *hc, int fast)
{
	return fast && isfinite(hc->floor_ln) ?
		expl(logl(isinf(hc->stop_ln) ? AHEAD_TOLERANCE : BOUND_AHEAD_TOLERANCE) + hc->floor_ln +
			 FAST_SCALE * 0.693147180559945309417232121458176568L) : 0;
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
bs_status
bs_hit_chain_run(const hit_chain *hc, int fast, ld *ln_out, int *inexact,
				 int *stopped, work *wk, bs_error *err)
{
	int			K = hc->K;
	int			J = hc->J;
	fast_state	fs;
	slow_state	ss;
	bs_status	status;
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
	if ((status = chain_check_work(hc, deterministic, err)) != BS_OK)
		return status;

	memset(&fs, 0, sizeof(fs));
	memset(&ss, 0, sizeof(ss));
	status = fast ? fast_init(&fs, hc, err) : slow_init(&ss, hc, err);
	if (status != BS_OK)
		goto done;

	odds = deterministic ? 0 : expm1l(-hc->log_miss);	/* p / (1 - p) */
	wl = deterministic ? 0 : hc->n_items * hc->log_miss;
	cut_floor = leading_cut_floor(hc, fast);
	cut_over_weight = cut_floor > 0 ? cut_weight_ratio(cut_floor, wl) : 0;
	stop_acc = stop_level(hc->stop_ln, wl);

	for (a = 0;; a += 1)
	{
		ld			next;
		ld			rho = 1;	/* w_{a+1} / w_a */

		if (!deterministic || a >= hc->n_items)
			acc += w * chain_expectation(fast, &fs, &ss, hc->value, top);
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
			if (chain_tail_negligible(hc, next, rho, acc))
				break;
		}
		else
			next = 1;

		if (hc->finish != NULL && top == 0 && a + 1 >= hc->n_items)
		{
			/* the last item: only P(U = 0) = E[finish(U_a)] matters */
			int			last = J < K ? J : K;

			acc += next * chain_expectation(fast, &fs, &ss, hc->finish, last);
			break;
		}
		chain_advance(hc, fast, &fs, &ss, next, rho, cut_floor, cut_over_weight, wk);

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

bs_status
bs_hit_chain_auto(const hit_chain *hc, ld guess, ld *ln_out, work *wk,
				  bs_error *err)
{
	bs_status	s;
	int			inexact;
	int			stopped;

	if (hc->diag != NULL && guess > FAST_FLOOR)
	{
		s = bs_hit_chain_run(hc, 1, ln_out, &inexact, &stopped, wk, err);
		if (s != BS_OK || !inexact)
			return s;
	}
	return bs_hit_chain_run(hc, 0, ln_out, &inexact, &stopped, wk, err);
}
