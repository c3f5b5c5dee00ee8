/*
 * bs_rate_classic.c — the exact rate of the classic filter (k distinct bits
 * per item), Q_C(k) (bs_analysis.c, METHOD): the direct sum (60) where its
 * rounding bound allows, else the hitting-item chain with its rows tau_u(j)
 * made here, truncated at J new targets per item, tilted below the long
 * double range, or stopped early for a lower bound.
 */
#include "analysis/bs_analysis_internal.h"

/* classic truncation of the number of new targets per item */
#define TRUNCATION_TOLERANCE 1e-15L
/*
 * the same for a lower bound of Q_C(k) (bs_classic_ln with stop_ln): the
 * truncated chain only drops nonnegative terms, so any J gives a lower
 * bound; this J keeps it within 1e-9 of the rate
 */
#define BOUND_TRUNCATION_TOLERANCE 1e-7L
/* ... computed when at least this many items are expected to hit */
#define BOUND_MIN_HITS 32

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
 * see METHOD in bs_analysis.c); k when the bound does not apply.  a[k] is
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
	bs_analysis_tick(wk, (unsigned long) k);
	bound += (k + 2) * ULP * mass;
	if (!(q > 0) || bound > DIRECT_TOLERANCE * q)
		return 0;
	*value = q;
	return 1;
}

/*
 * ln of a lower bound of Q_C(k), for the leading cut of the chain (see
 * fast_state in bs_rate_chain.c): C(mu,k)/C(m,k), mu = m(1-(1-k/m)^n) (Theorem 15, middle
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
 * chain is tilted, see bs_classic_ln; x = 1 otherwise, which multiplies
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
 * Tilted (bs_classic_ln) like the rows: times x^u.
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
		bs_analysis_tick(wk, (unsigned long) (K - j + 1));
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
	void	   *table = bs_work_alloc_bytes(count * (fast ? sizeof(double) : sizeof(ld)),
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
 * Tilt the classic chain (see bs_classic_ln) when U (65) is below e^-10000,
 * that is the rate too: near the bottom of the long double range (about
 * e^-11355, subnormals to e^-11399), where the untilted chain underflows.
 */
#define TILT_BELOW (-10000.0L)

/*
 * The logarithms the classic rate is made of, in a[] of 4 (K + 1) (K = k):
 * a[u] = ln(C(m-u,k)/C(m,k)); suffix = a + (K + 1), suffix[u] = a[K] -
 * a[u] summed directly; cost = a + 2 (K + 1), cost[j] = sum_{v<j}
 * k/(m-v-k), the error weight of classic_direct; x = a + 3 (K + 1),
 * x[v] = ln(C(m-v-1,k)/C(m-v,k)) = ln(1 - k/(m-v)).
 */
static void
classic_logs(ld m, int k, ld *a)
{
	int			K = k;
	ld		   *suffix = a + (K + 1);
	ld		   *cost = a + 2 * (K + 1);
	ld		   *x = a + 3 * (K + 1);
	int			u;
	int			v;

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
}

/*
 * J for method (b), and whether a lower bound will do (*partial): with a
 * finite stop_ln, only on the fast path with its table, and for many
 * hitting items (with few, the table costs more than the chain, and the
 * partial sum passes the threshold only near the end).  scratch: k + 1
 * values.
 */
static int
classic_choose_j(ld m, ld n, int k, const ld *a, ld *scratch, ld stop_ln,
				 ld guess, int *partial)
{
	int			K = k;
	int			J = 0;

	if (!isinf(stop_ln) &&
		n * (isinf(a[K]) ? 1 : -expm1l(a[K])) >= BOUND_MIN_HITS)
	{
		J = classic_truncation(m, n, k, a, scratch, BOUND_TRUNCATION_TOLERANCE);
		if (n > 2 && guess > FAST_FLOOR &&
			((size_t) K + 1) * ((size_t) J + 1) <= ROW_TABLE_LIMIT)
			*partial = 1;
	}
	if (!*partial)
		J = classic_truncation(m, n, k, a, scratch, TRUNCATION_TOLERANCE);
	return J;
}

/*
 * cr for m, k, J and the logarithms of classic_logs, untilted; inverses
 * (3 (K + 1) values) are filled with 1/(v+1), 1/(m-k+1-v) (only positive
 * ones are used) and 1/(m-v).
 */
static void
classic_rows_init(classic_rows *cr, ld m, int k, int J, const ld *a,
				  ld *inverses)
{
	int			K = k;
	int			v;

	cr->m = m;
	cr->k = k;
	cr->J = J;
	cr->p = isinf(a[K]) ? 1 : -expm1l(a[K]);
	cr->a = a;
	cr->suffix = a + (K + 1);
	cr->log_c_m_k = lgammal(m + 1) - lgammal((ld) k + 1) - lgammal(m - k + 1);
	cr->inverse_p = 1 / cr->p;
	for (v = 0; v <= K; v++)
	{
		inverses[v] = 1 / (ld) (v + 1);
		inverses[K + 1 + v] = m - k + 1 - v > 0 ? 1 / (m - k + 1 - v) : 0;
		inverses[2 * (K + 1) + v] = 1 / (m - v);
	}
	cr->inverse_j = inverses;
	cr->inverse_s = inverses + (K + 1);
	cr->tilt = 1;
	cr->log_tilt = 0;
}

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
static void
classic_tilt(classic_rows *cr, ld guess, int partial)
{
	if (guess < TILT_BELOW && !partial)
	{
		cr->tilt = expl(-guess / cr->k);
		cr->log_tilt = logl(cr->tilt);
	}
}

/*
 * Run the chain of cr (method (b)) as bs_hit_chain_auto would, making only
 * the row table each path needs (table: whether to make one at all); with
 * partial, only the fast path, for a lower bound or nothing (-inf).  value
 * holds [u = 0] and finish (classic_finish) after it.
 */
static bs_status
classic_chain(const classic_rows *cr, ld n, const ld *inverses,
			  const ld *value, int table, ld guess, ld stop_ln, int partial,
			  ld *ln_out, work *wk, bs_error *err)
{
	int			K = cr->k;
	const ld   *finish = value + K + 1;
	ld		   *diag = NULL;
	double	   *fast_diag = NULL;
	bs_status	status = BS_OK;
	hit_chain	hc;
	int			inexact = 1;
	int			stopped = 0;

	hc.K = K;
	hc.J = cr->J;
	hc.diag = NULL;
	hc.length = chain_length(K, cr->J);
	hc.stride = diag_stride(K);
	hc.fast_diag = NULL;
	hc.make_row = classic_make_row;
	hc.context = cr;
	hc.value = value;
	hc.finish = finish;
	hc.n_items = n;
	hc.log_miss = cr->a[K];
	hc.floor_ln = classic_floor_ln(cr->m, n, cr->k) + K * cr->log_tilt;
	hc.stop_ln = partial ? stop_ln : INFINITY;
	hc.value_log_scale = K * cr->log_tilt;

	if (table && guess > FAST_FLOOR)
	{
		fast_diag = classic_table(cr, K, inverses, finish, 1, wk, err, &status);
		if (fast_diag == NULL)
			return status;
		hc.fast_diag = fast_diag;
		status = bs_hit_chain_run(&hc, 1, ln_out, &inexact, &stopped, wk, err);
		hc.fast_diag = NULL;
	}
	if (partial)
	{
		/* a lower bound, or nothing when the double range fails it */
		if (inexact)
			*ln_out = -INFINITY;
		goto done;
	}
	if (status == BS_OK && inexact)
	{
		if (table &&
			(hc.diag = diag = classic_table(cr, K, inverses, finish, 0,
											wk, err, &status)) == NULL)
			goto done;
		status = bs_hit_chain_run(&hc, 0, ln_out, &inexact, &stopped, wk, err);
	}
	if (status == BS_OK && cr->log_tilt != 0)
		*ln_out -= hc.value_log_scale;
done:
	bs_work_free(fast_diag);
	bs_work_free(diag);
	return status;
}

/*
 * ln Q_C(k).  With a finite stop_ln, a cheaper lower bound may do
 * (*partial set, *ln_out the bound, -inf when none was found): the chain
 * truncated at a smaller J (BOUND_TRUNCATION_TOLERANCE) and stopped as soon
 * as its partial sum passes exp(stop_ln); only on the fast path, whose
 * result it takes when the underflow bound certifies it (the cuts only drop
 * nonnegative terms).  *partial is clear when *ln_out is the rate itself.
 */
bs_status
bs_classic_ln(int64_t m_int, int64_t n_int, int64_t k_int, ld stop_ln,
			  ld *ln_out, int *partial, work *wk, bs_error *err)
{
	int			k = (int) k_int;
	int			K = k;
	ld			m = (ld) m_int;
	ld			n = (ld) n_int;
	ld		   *a;				/* classic_logs */
	ld		   *inverses = NULL;
	ld		   *value = NULL;
	bs_status	status = BS_OK;
	ld			direct;
	classic_rows cr;
	int			J;
	/* rough rate: U (65) */
	ld			guess = k * logl(-expm1l(n * log1pl(-(ld) k / m)));

	*partial = 0;
	a = bs_work_alloc(4 * ((size_t) K + 1), err, &status);
	if (a == NULL)
		return status;
	classic_logs(m, k, a);
	if (classic_direct(m, n, k, a, a + 2 * (K + 1), &direct, wk))
	{
		*ln_out = logl(direct);
		bs_work_free(a);
		return BS_OK;
	}

	/* method (b); cost[] of classic_logs is free again and serves as scratch */
	J = classic_choose_j(m, n, k, a, a + 2 * (K + 1), stop_ln, guess, partial);
	inverses = bs_work_alloc(3 * ((size_t) K + 1), err, &status);
	if (inverses == NULL)
		goto done;
	classic_rows_init(&cr, m, k, J, a, inverses);
	classic_tilt(&cr, guess, *partial);

	value = bs_work_alloc((size_t) K + 1 + (size_t) J + 1, err, &status);
	if (value == NULL)
		goto done;
	value[0] = 1;
	classic_finish(&cr, value + K + 1, inverses + 2 * (K + 1));
	status = classic_chain(&cr, n, inverses, value,
						   n_int > 2 && ((size_t) K + 1) * ((size_t) J + 1) <= ROW_TABLE_LIMIT,
						   guess, stop_ln, *partial, ln_out, wk, err);
done:
	bs_work_free(inverses);
	bs_work_free(value);
	bs_work_free(a);
	return status;
}
