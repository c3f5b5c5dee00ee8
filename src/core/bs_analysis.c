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
 *     grow only linearly with the number of steps: below 1e-14 relative for
 *     every case in range (a few thousand steps at 2^-64 each).  The weights
 *     carry a separate logarithmic scale, so nothing underflows: results are
 *     accurate down to about 1e-4900 (long double range).
 *     Two truncations, both with rigorous bounds:
 *       - the sum over a stops once past the mode of the binomial, when the
 *         remaining weight, at most w_{a+1} / (1 - rho_a) (the ratios
 *         rho_a = w_{a+1}/w_a decrease), is below 1e-18 of the sum so far
 *         (g <= 1, so that bounds the neglected part);
 *       - classic only, for large m: a hitting item is allowed to cover at
 *         most J new targets.  The dropped probability is at most
 *         n sum_{h>J} P(|item ∩ targets| = h) Q_C(k-h) (the other targets
 *         must be covered by the other items), and Theorem 15 gives
 *         Q_C(r) <= (mu/m)^r and Q_C(k) >= C(mu,k)/C(m,k), mu = m(1-(1-k/m)^n),
 *         for r <= k < m/2; J is the smallest value for which the resulting
 *         bound on the relative error is below 1e-15.
 *     Costs: O(A K J) with A about n_items p plus tails; (a) fails only when
 *     the filter is not saturated (load nk/m below about ln(k)), which keeps
 *     A below a few times K.
 *
 * The method is the same for every m, n, k: no asymptotic approximation is
 * made for large filters; the error bounds above hold throughout, so the
 * result is within about 1e-12 relative of the exact rational value for
 * small filters and large (m up to 2^36, n up to 10^9 and beyond) alike.
 * test/test_analysis.c checks this against exact rationals and 60-digit
 * mpmath values (test/analysis_reference.txt) and against an independent
 * whole-filter occupancy chain.
 *
 * long double is the x87 80-bit format on x86-64.  Where long double is the
 * same as double the code still works, but more cases fall to the slower
 * path (b) and the range below 1e-308 is lost.
 */
#include "bs_analysis.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef long double ld;

void		(*bs_analysis_interrupt_check) (void) = NULL;
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
/* refuse computations of more inner steps than this (never reached in range) */
#define WORK_LIMIT 8e9L
/* call the interrupt hook after this many inner steps */
#define TICK_STEPS 65536UL

typedef struct work
{
	unsigned long ops;
} work;

static void
tick(work *w, unsigned long steps)
{
	w->ops += steps;
	if (w->ops >= TICK_STEPS)
	{
		w->ops = 0;
		if (bs_analysis_interrupt_check != NULL)
			bs_analysis_interrupt_check();
	}
}

static void *
work_alloc(size_t count, bs_error *err, bs_status *status)
{
	void	   *p = bs_analysis_alloc(count * sizeof(ld));

	if (p == NULL)
		*status = bs_fail(err, BS_ERR_TOO_LARGE,
						  "out of memory computing a false-positive rate",
						  "Could not allocate %zu bytes of working memory.",
						  count * sizeof(ld));
	else
		memset(p, 0, count * sizeof(ld));
	return p;
}

static void
work_free(void *p)
{
	if (p != NULL)
		bs_analysis_free(p);
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

typedef struct hit_chain
{
	int			K;				/* number of target bits */
	int			J;				/* most new targets per hitting item */
	const ld   *rows;			/* rows[u * (J + 1) + j] = tau_u(j), or NULL */
	/* when rows is NULL: fill row[0..min(u,J)] with tau_u(j) */
	void		(*make_row) (const void *context, int u, ld *row);
	const void *context;
	const ld   *value;			/* value[u]: g of the state with u uncovered */
	ld			n_items;
	ld			log_miss;		/* ln(1 - p); -inf when every item hits */
} hit_chain;

/*
 * sum_a Bin(n_items, p; a) E[value(U_a)] as a logarithm (-inf for 0).
 */
static bs_status
hit_chain_run(const hit_chain *hc, ld *ln_out, work *wk, bs_error *err)
{
	int			K = hc->K;
	int			J = hc->J;
	ld		   *v;
	ld		   *nv;
	ld		   *row_buffer;
	int			umin = K;
	bs_status	status = BS_OK;
	ld			p;
	ld			expected;
	ld			row_cost;
	ld			a;
	ld			w = 1;
	ld			wl;
	ld			acc = 0;
	ld			odds;
	int			deterministic = isinf(hc->log_miss);

	p = deterministic ? 1 : -expm1l(hc->log_miss);
	expected = deterministic ? hc->n_items :
		fminl(hc->n_items, hc->n_items * p + 12 * sqrtl(hc->n_items * p) + K + 16);
	row_cost = (ld) (K + 1) * (ld) (J + 1);
	if (expected * row_cost > WORK_LIMIT)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "false-positive rate computation is too long",
					   "About %.3Lg steps would be needed.", expected * row_cost);

	v = work_alloc((size_t) K + 1, err, &status);
	nv = v ? work_alloc((size_t) K + 1, err, &status) : NULL;
	row_buffer = (nv && hc->rows == NULL) ? work_alloc((size_t) J + 1, err, &status) : NULL;
	if (nv == NULL || (hc->rows == NULL && row_buffer == NULL))
	{
		work_free(v);
		work_free(nv);
		return status;
	}
	v[K] = 1;

	odds = deterministic ? 0 : expm1l(-hc->log_miss);	/* p / (1 - p) */
	wl = deterministic ? 0 : hc->n_items * hc->log_miss;

	for (a = 0;; a += 1)
	{
		ld			f = 0;
		ld			rho;
		ld			next;
		int			u;
		int			lo;

		if (!deterministic || a >= hc->n_items)
		{
			for (u = umin; u <= K; u++)
				f += v[u] * hc->value[u];
			acc += w * f;
		}
		if (a >= hc->n_items)
			break;
		if (!deterministic)
		{
			rho = (hc->n_items - a) / (a + 1) * odds;
			next = w * rho;
			if (rho < 1 && acc > 0 && next / (1 - rho) <= TAIL_TOLERANCE * acc)
				break;
		}
		else
		{
			rho = 1;
			next = 1;
		}

		/* one hitting item */
		lo = umin > J ? umin - J : 0;
		for (u = lo; u <= K; u++)
			nv[u] = 0;
		for (u = umin; u <= K; u++)
		{
			const ld   *row;
			ld			x = v[u];
			int			top = u < J ? u : J;
			int			j;

			if (x == 0)
				continue;
			if (hc->rows != NULL)
				row = hc->rows + (size_t) u * (J + 1);
			else
			{
				hc->make_row(hc->context, u, row_buffer);
				row = row_buffer;
			}
			for (j = 0; j <= top; j++)
				nv[u - j] += x * row[j];
		}
		umin = lo;
		{
			ld		   *t = v;

			v = nv;
			nv = t;
		}
		tick(wk, (unsigned long) (K - umin + 1) * (unsigned long) (J + 1));

		w = next;
		if (!deterministic && (w > 1e256L || (w < 1e-256L && w > 0)))
		{
			wl += logl(w);
			acc /= w;
			w = 1;
		}
	}

	*ln_out = acc > 0 ? logl(acc) + wl : -INFINITY;
	work_free(v);
	work_free(nv);
	work_free(row_buffer);
	return BS_OK;
}

/* ------------------------------------------------------------------------
 * Standard filter: sum_d weight[d] Q_S(d)
 * ------------------------------------------------------------------------ */

/*
 * Direct alternating sums, method (a).  Returns 1 and the value when the
 * rounding-error bound is within DIRECT_TOLERANCE, else 0.
 * weight_rel: relative error bound of the weights.
 */
static int
standard_direct(ld m, ld N, int K, const ld *weight, ld weight_rel,
				ld *value, ld *scratch, work *wk)
{
	ld		   *e = scratch;	/* e[j] = (1 - j/m)^N */
	ld		   *delta = scratch + (K + 1);	/* its relative error bound */
	ld		   *binom = scratch + 2 * (K + 1);	/* Pascal row C(d, j) */
	ld			f = 0;
	ld			bound = 0;
	ld			mass = 0;
	int			d;
	int			j;

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
	bound += (K + 2) * ULP * mass;
	if (!(f > 0) || bound > DIRECT_TOLERANCE * f)
		return 0;
	*value = f;
	return 1;
}

static bs_status
standard_mix(ld m, ld N, int K, const ld *weight, ld weight_rel, ld *ln_out,
			 work *wk, bs_error *err)
{
	ld		   *scratch;
	ld		   *rows = NULL;
	ld		   *value = NULL;
	bs_status	status = BS_OK;
	ld			direct;
	int			u;
	int			d;

	scratch = work_alloc(3 * ((size_t) K + 1), err, &status);
	if (scratch == NULL)
		return status;
	if (standard_direct(m, N, K, weight, weight_rel, &direct, scratch, wk))
	{
		*ln_out = logl(direct);
		work_free(scratch);
		return BS_OK;
	}
	work_free(scratch);

	/* method (b): J = 1, tau_u(0) = (K - u)/K, tau_u(1) = u/K */
	rows = work_alloc(2 * ((size_t) K + 1), err, &status);
	value = rows ? work_alloc((size_t) K + 1, err, &status) : NULL;
	if (value == NULL)
	{
		work_free(rows);
		return status;
	}
	for (u = 0; u <= K; u++)
	{
		rows[2 * u] = (ld) (K - u) / K;
		rows[2 * u + 1] = (ld) u / K;
	}
	/* value[u] = sum_d weight[d] C(y, d) / C(K, d), y = K - u covered */
	for (d = 0; d <= K; d++)
	{
		ld			c = weight[d];
		int			y;

		if (c == 0)
			continue;
		value[0] += c;
		for (y = K - 1; y >= d && c != 0; y--)
		{
			c *= (ld) (y + 1 - d) / (y + 1);
			value[K - y] += c;
		}
		tick(wk, (unsigned long) (K - d + 1));
	}
	{
		hit_chain	hc;

		hc.K = K;
		hc.J = 1;
		hc.rows = rows;
		hc.make_row = NULL;
		hc.context = NULL;
		hc.value = value;
		hc.n_items = N;
		hc.log_miss = ((ld) K >= m) ? -INFINITY : log1pl(-(ld) K / m);
		status = hit_chain_run(&hc, ln_out, wk, err);
	}
	work_free(rows);
	work_free(value);
	return status;
}

/*
 * T[d] = P(k uniform draws among m bits hit exactly d distinct bits),
 * d = 0..K, K = min(k, m); relative error below 3 k ULP.
 */
static void
distinct_draws(ld m, int k, int K, ld *T, work *wk)
{
	int			t;
	int			d;

	for (d = 0; d <= K; d++)
		T[d] = 0;
	T[1] = 1;
	for (t = 2; t <= k; t++)
	{
		int			top = t < K ? t : K;

		for (d = top; d >= 1; d--)
			T[d] = T[d] * ((ld) d / m) + T[d - 1] * ((m - d + 1) / m);
		tick(wk, (unsigned long) top);
	}
}

static bs_status
standard_ln(int64_t m, int64_t n, int64_t k, ld *ln_out, work *wk, bs_error *err)
{
	int			K = (int) (k < m ? k : m);
	ld		   *T;
	bs_status	status = BS_OK;
	ld			steps = (ld) k * K + (ld) K * K / 2;

	if (steps > WORK_LIMIT)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "false-positive rate computation is too long",
					   "About %.3Lg steps would be needed.", steps);
	T = work_alloc((size_t) K + 1, err, &status);
	if (T == NULL)
		return status;
	distinct_draws((ld) m, (int) k, K, T, wk);
	status = standard_mix((ld) m, (ld) n * (ld) k, K, T, 3 * (ld) k * ULP,
						  ln_out, wk, err);
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

	weight = work_alloc((size_t) K + 1, err, &status);
	if (weight == NULL)
		return status;
	weight[K] = 1;
	status = standard_mix((ld) m, (ld) n * (ld) k, K, weight, 0, ln_out, wk, err);
	work_free(weight);
	return status;
}

/* ------------------------------------------------------------------------
 * Classic filter: Q_C(k)
 * ------------------------------------------------------------------------ */

/*
 * The smallest J such that allowing at most J new targets per hitting item
 * changes Q_C(k) by a relative amount below TRUNCATION_TOLERANCE (see the
 * comment at the top); k when the bound does not apply.  a[k] is
 * ln(C(m-k,k)/C(m,k)); lt is scratch space for k + 1 values.
 */
static int
classic_truncation(ld m, ld n, int k, const ld *a, ld *lt)
{
	ld			mu;
	ld			log_r = 0;
	ld			log_ratio;
	ld			log_hg;
	ld			tail = -INFINITY;
	ld			limit;
	int			h;
	int			i;

	if (2 * (ld) k + 1 > m || k <= 1)
		return k;
	mu = m * -expm1l(n * log1pl(-(ld) k / m));
	if (!(mu > k))
		return k;
	/* ln R = ln[(mu/m)^k C(m,k) / C(mu,k)] */
	for (i = 0; i < k; i++)
		log_r += log1pl(-(ld) i / m) - log1pl(-(ld) i / mu);
	log_ratio = logl(m / mu);
	limit = logl(TRUNCATION_TOLERANCE) - logl(n) - log_r - 1;	/* margin e */

	/*
	 * lt[h] = ln HG(h) + h ln(m/mu), HG(h) = C(k,h) C(m-k,k-h) / C(m,k) the
	 * law of the overlap of one item with the targets (HG(0) = exp(a[k])).
	 */
	log_hg = a[k];
	for (h = 0; h <= k; h++)
	{
		lt[h] = log_hg + h * log_ratio;
		if (h < k)
			log_hg += logl((ld) (k - h) * (ld) (k - h) /
						   ((ld) (h + 1) * (m - 2 * (ld) k + h + 1)));
	}
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
classic_direct(ld n, int k, const ld *a, const ld *cost, ld *value, work *wk)
{
	ld			q = 0;
	ld			bound = 0;
	ld			mass = 0;
	ld			binom = 1;
	int			j;

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
} classic_rows;

/*
 * tau_u(j), j = 0..min(u,J): the probability that an item known to hit the
 * targets covers exactly j of the u uncovered ones.
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
		/* hits the targets but no uncovered one: HG(0) - (1 - p) */
		row[0] = isinf(cr->a[k]) ? hg / cr->p : hg * -expm1l(cr->suffix[u]) / cr->p;
	}
	else
	{
		/* fewer than k bits outside the u uncovered targets: j >= j0 */
		j0 = (int) (k - (m - u));
		hg = expl(lgammal((ld) u + 1) - lgammal((ld) j0 + 1) -
				  lgammal((ld) (u - j0) + 1) - cr->log_c_m_k);
		if (j0 <= top)
			row[j0] = hg / cr->p;
	}
	for (j = j0; j < top; j++)
	{
		hg = hg * ((ld) (u - j) * (ld) (k - j)) /
			((ld) (j + 1) * (m - u - k + j + 1));
		row[j + 1] = hg / cr->p;
	}
}

/* at most this many precomputed row entries (16 MB); beyond, rows on the fly */
#define ROW_TABLE_LIMIT ((size_t) 1 << 20)

static bs_status
classic_ln(int64_t m_int, int64_t n_int, int64_t k_int, ld *ln_out, work *wk,
		   bs_error *err)
{
	int			k = (int) k_int;
	int			K = k;
	ld			m = (ld) m_int;
	ld			n = (ld) n_int;
	ld		   *a;				/* a[u] = ln(C(m-u,k)/C(m,k)) */
	ld		   *suffix;			/* suffix[u] = a[K] - a[u], summed directly */
	ld		   *cost;
	ld		   *x;
	ld		   *rows = NULL;
	ld		   *value = NULL;
	bs_status	status = BS_OK;
	ld			direct;
	classic_rows cr;
	int			J;
	int			u;
	int			v;

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

	if (classic_direct(n, k, a, cost, &direct, wk))
	{
		*ln_out = logl(direct);
		work_free(a);
		return BS_OK;
	}

	/* method (b); cost[] is free again and serves as scratch */
	J = classic_truncation(m, n, k, a, cost);
	cr.m = m;
	cr.k = k;
	cr.J = J;
	cr.p = isinf(a[K]) ? 1 : -expm1l(a[K]);
	cr.a = a;
	cr.suffix = suffix;
	cr.log_c_m_k = lgammal(m + 1) - lgammal((ld) k + 1) - lgammal(m - k + 1);

	if (((size_t) K + 1) * ((size_t) J + 1) <= ROW_TABLE_LIMIT)
	{
		rows = work_alloc(((size_t) K + 1) * ((size_t) J + 1), err, &status);
		if (rows == NULL)
		{
			work_free(a);
			return status;
		}
		for (u = 0; u <= K; u++)
		{
			classic_make_row(&cr, u, rows + (size_t) u * (J + 1));
			tick(wk, (unsigned long) (u < J ? u : J) + 1);
		}
	}
	value = work_alloc((size_t) K + 1, err, &status);
	if (value == NULL)
	{
		work_free(rows);
		work_free(a);
		return status;
	}
	value[0] = 1;
	{
		hit_chain	hc;

		hc.K = K;
		hc.J = J;
		hc.rows = rows;
		hc.make_row = classic_make_row;
		hc.context = &cr;
		hc.value = value;
		hc.n_items = n;
		hc.log_miss = a[K];
		status = hit_chain_run(&hc, ln_out, wk, err);
	}
	work_free(rows);
	work_free(value);
	work_free(a);
	return status;
}

/* ------------------------------------------------------------------------
 * Public functions
 * ------------------------------------------------------------------------ */

/* ln f for checked arguments */
static bs_status
rate_ln(int64_t m, int64_t n, int64_t k, bs_construction c, ld *ln_out,
		bs_error *err)
{
	work		wk = {0};

	if (n == 0)
	{
		*ln_out = -INFINITY;
		return BS_OK;
	}
	if (c == BS_CONSTRUCTION_STANDARD)
		return standard_ln(m, n, k, ln_out, &wk, err);
	return classic_ln(m, n, k, ln_out, &wk, err);
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
					   "The rate of m = %lld, n = %lld, k = %lld is below about 1e-4900.",
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
 * ------------------------------------------------------------------------ */

bs_status
bs_optimal_k(int64_t m, int64_t n, bs_construction c, int64_t *k_out,
			 bs_error *err)
{
	(void) m;
	(void) n;
	(void) c;
	(void) k_out;
	return bs_fail(err, BS_ERR_PARAM, "not implemented", NULL);
}

bs_status
bs_optimal_bits(int64_t n, double fpr, bs_construction c, int64_t *m_out,
				bs_error *err)
{
	(void) n;
	(void) fpr;
	(void) c;
	(void) m_out;
	return bs_fail(err, BS_ERR_PARAM, "not implemented", NULL);
}
