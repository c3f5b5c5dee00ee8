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
 *     The state vector is kept in double when the rate is expected above
 *     1e-270 (vectorisable, 4-6 times faster): at most (J + 2) 2^-53 per
 *     step, below 2e-11 for the longest chains in range (~6000 steps); in
 *     long double otherwise: below 1e-14.  The binomial weights carry a
 *     separate logarithmic scale, so they never underflow.
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
 * RANGE.  The rates are carried as logarithms, accurate down to about
 * 1e-4900.  An intermediate quantity can underflow long double only for
 * rates far below that (e.g. the classic filter with n = 1, rate 1/C(m,k)),
 * and then the rate comes out as 0 (ln = -inf).
 *
 * long double is the x87 80-bit format on x86-64 (where the timings of
 * test/test_analysis.c were measured).  On aarch64 it is IEEE quad, done in
 * software: as accurate, several times slower.  Where long double is the
 * same as double the code still works (untested), but the rounding bounds
 * grow by 2^11, more cases fall to the slower path (b), and the range below
 * 1e-308 is lost.
 */
#include "bs_analysis.h"

#include <float.h>
#include <math.h>
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

/* zeroed working memory; NULL (and *status set) when out of memory */
static void *
work_alloc_bytes(size_t bytes, bs_error *err, bs_status *status)
{
	void	   *p = bs_analysis_alloc(bytes);

	if (p == NULL)
		*status = bs_fail(err, BS_ERR_TOO_LARGE,
						  "out of memory computing a false-positive rate",
						  "Could not allocate %zu bytes of working memory.",
						  bytes);
	else
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
 *
 * fast (only with a row table): the state vector is kept in double, with
 * the table stored by diagonals so that the step vectorizes; the weights and
 * sums stay in long double.  Rounding then adds at most (J + 2) 2^-53 of
 * relative error per step (1e-11 for the longest chains in range), and
 * states below the double range are lost, which is harmless while the
 * result is above about 1e-280: callers use it only when the rate is
 * expected above 1e-270 and recompute without it when the result is below
 * FAST_FLOOR.
 */
static bs_status
hit_chain_run(const hit_chain *hc, int fast, ld *ln_out, work *wk,
			  bs_error *err)
{
	int			K = hc->K;
	int			J = hc->J;
	ld		   *v = NULL;
	ld		   *nv = NULL;
	ld		   *row_buffer = NULL;
	double	   *vd = NULL;
	double	   *nvd = NULL;
	double	   *diag = NULL;
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
	size_t		width = (size_t) K + 1;

	if (hc->rows == NULL)
		fast = 0;
	p = deterministic ? 1 : -expm1l(hc->log_miss);
	expected = deterministic ? hc->n_items :
		fminl(hc->n_items, hc->n_items * p + 12 * sqrtl(hc->n_items * p) + K + 16);
	row_cost = (ld) (K + 1) * (ld) (J + 1);
	if (expected * row_cost > WORK_LIMIT)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "false-positive rate computation is too long",
					   "About %.3Lg steps would be needed.", expected * row_cost);

	if (fast)
	{
		vd = work_alloc_bytes(width * sizeof(double), err, &status);
		nvd = vd ? work_alloc_bytes(width * sizeof(double), err, &status) : NULL;
		diag = nvd ? work_alloc_bytes(width * ((size_t) J + 1) * sizeof(double), err, &status) : NULL;
		if (diag == NULL)
			goto done;
		{
			int			u;
			int			j;

			for (u = 0; u <= K; u++)
				for (j = 0; j <= J; j++)
					diag[(size_t) j * width + u] = (double) hc->rows[(size_t) u * (J + 1) + j];
		}
		vd[K] = 1;
	}
	else
	{
		v = work_alloc(width, err, &status);
		nv = v ? work_alloc(width, err, &status) : NULL;
		row_buffer = (nv && hc->rows == NULL) ? work_alloc((size_t) J + 1, err, &status) : NULL;
		if (nv == NULL || (hc->rows == NULL && row_buffer == NULL))
			goto done;
		v[K] = 1;
	}

	odds = deterministic ? 0 : expm1l(-hc->log_miss);	/* p / (1 - p) */
	wl = deterministic ? 0 : hc->n_items * hc->log_miss;

	for (a = 0;; a += 1)
	{
		ld			rho;
		ld			next;
		int			u;
		int			lo;

		if (!deterministic || a >= hc->n_items)
		{
			ld			f = 0;

			if (fast)
				for (u = umin; u <= K; u++)
					f += (ld) vd[u] * hc->value[u];
			else
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
			next = 1;

		/* one hitting item: U -> U - j with probability tau_U(j) */
		lo = umin > J ? umin - J : 0;
		if (fast)
		{
			/* nvd[t] = sum_j vd[t+j] tau_{t+j}(j), diagonal by diagonal */
			int			j;
			int			t;

			for (t = lo; t <= K; t++)
				nvd[t] = vd[t] * diag[t];
			for (j = 1; j <= J; j++)
			{
				const double *dj = diag + (size_t) j * width + j;
				const double *vj = vd + j;

				for (t = lo; t <= K - j; t++)
					nvd[t] += vj[t] * dj[t];
			}
			{
				double	   *tmp = vd;

				vd = nvd;
				nvd = tmp;
			}
		}
		else if (hc->rows != NULL)
		{
			/*
			 * Gather form, nv[t] = sum_j v[t+j] tau_{t+j}(j), with two
			 * accumulators: no store-to-load chains through nv.
			 */
			size_t		stride = (size_t) J + 2;	/* from (u, j) to (u+1, j+1) */

			for (u = lo; u <= K; u++)
			{
				int			top = K - u < J ? K - u : J;
				const ld   *r = hc->rows + (size_t) u * (J + 1);
				ld			s0 = 0;
				ld			s1 = 0;
				int			j;

				for (j = 0; j + 1 <= top; j += 2)
				{
					s0 += v[u + j] * r[0];
					s1 += v[u + j + 1] * r[stride];
					r += 2 * stride;
				}
				if (j <= top)
					s0 += v[u + j] * r[0];
				nv[u] = s0 + s1;
			}
		}
		else
		{
			for (u = lo; u <= K; u++)
				nv[u] = 0;
			for (u = umin; u <= K; u++)
			{
				ld			x = v[u];
				int			top = u < J ? u : J;
				int			j;

				if (x == 0)
					continue;
				hc->make_row(hc->context, u, row_buffer);
				for (j = 0; j <= top; j++)
					nv[u - j] += x * row_buffer[j];
			}
		}
		if (!fast)
		{
			ld		   *tmp = v;

			v = nv;
			nv = tmp;
		}
		umin = lo;
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

done:
	work_free(v);
	work_free(nv);
	work_free(row_buffer);
	work_free(vd);
	work_free(nvd);
	work_free(diag);
	return status;
}

/*
 * Run the chain, in double when the rate is expected well inside the double
 * range (guess: a rough estimate of the rate's logarithm), again in long
 * double when the result falls below FAST_FLOOR.
 */
#define FAST_FLOOR (-280 * 2.302585092994045684L)	/* ln 1e-280 */

static bs_status
hit_chain_auto(const hit_chain *hc, ld guess, ld *ln_out, work *wk,
			   bs_error *err)
{
	bs_status	s;

	if (hc->rows != NULL && guess > FAST_FLOOR + 23)
	{
		s = hit_chain_run(hc, 1, ln_out, wk, err);
		if (s != BS_OK || *ln_out >= FAST_FLOOR)
			return s;
	}
	return hit_chain_run(hc, 0, ln_out, wk, err);
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
	ld			upper = 0;
	ld			mass = 0;
	ld			binom = 1;
	int			j;

	if (weight[K] == 0 || (ld) K >= m)
		return 0;
	for (j = 0; j <= K; j++)
	{
		if (weight[j] > 0)
			upper += weight[j] * powl(occupied, (ld) j);
		if (j > 0)
			binom = binom * (K - j + 1) / j;
		mass += binom * expl(N * log1pl(-(ld) j / m));
	}
	return weight[K] * (2 * K + 4) * ULP * mass > 2 * DIRECT_TOLERANCE * upper;
}

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
		ld			guess = 0;
		ld			occupied = -expm1l(-N / m);

		hc.K = K;
		hc.J = 1;
		hc.rows = rows;
		hc.make_row = NULL;
		hc.context = NULL;

		/* rough rate: the bits set independently with probability 1 - e^{-N/m} */
		for (d = 0; d <= K; d++)
			if (weight[d] > 0)
				guess += weight[d] * powl(occupied, (ld) d);
		guess = logl(guess);
		hc.value = value;
		hc.n_items = N;
		hc.log_miss = ((ld) K >= m) ? -INFINITY : log1pl(-(ld) K / m);
		status = hit_chain_auto(&hc, guess, ln_out, wk, err);
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

	if ((ld) K * K / 2 > WORK_LIMIT)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "false-positive bound computation is too long",
					   "About %.3Lg steps would be needed.", (ld) K * K / 2);
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

		/* rough rate: U (65) */
		ld			guess = k * logl(-expm1l(n * log1pl(-(ld) k / m)));

		hc.K = K;
		hc.J = J;
		hc.rows = rows;
		hc.make_row = classic_make_row;
		hc.context = &cr;
		hc.value = value;
		hc.n_items = n;
		hc.log_miss = a[K];
		status = hit_chain_auto(&hc, guess, ln_out, wk, err);
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
 * The searches rest on the following.
 *
 * 1. Lower bounds valid for every k, cheap to evaluate:
 *		standard	f_S >= M(m,n,k) = (mu_S/m)^k, mu_S = m(1-(1-1/m)^{nk})
 *					(Jensen: x^k is convex);
 *		classic		f_C >= C(mu_C,k)/C(m,k), mu_C = m(1-(1-k/m)^n)
 *					(Jensen: x(x-1)...(x-k+1) is convex on [k-1, inf) and
 *					k <= X_C <= m once n >= 1).
 *    The k are visited in increasing order of their bound, each evaluated
 *    exactly, and the visit stops when the next bound exceeds the best rate
 *    found (minimisation) or the target rate (decision): every k left has a
 *    rate above it.  When that happens within CERTIFY_BUDGET (8; 2 for
 *    k above 128) exact evaluations, the result is certified to be the optimum over 1..K_max.
 *    That is the usual case for large m, where the bounds are tight.  Rates
 *    within 1e-12 relative of each other (the accuracy of the computation)
 *    count as ties, resolved to the smaller k.
 *
 * 3. For small m the bounds are loose (their gap grows like k^2/m: about
 *    200 k fall below the optimum for m = 5000, n = 10), and certifying
 *    would take hundreds of evaluations.  Past the budget, the search
 *    assumes that f(m, n, .) is unimodal in k (decreasing, then
 *    nondecreasing): it walks downhill from the best k found with doubling
 *    steps and finishes with a golden-section search, some 15-30 exact
 *    evaluations.  Unimodality is what Burns observes (Fig. 6-8) but does
 *    not prove; test/test_analysis.c verifies the answers against a brute
 *    force over all k for several hundred (m, n) pairs of both
 *    constructions.
 *
 * 2. For fixed n and k the exact rate does not increase with m (couplings:
 *    a ball or a k-subset thrown among m+1 bits becomes one among m bits when
 *    the part that fell on bit m+1 is re-thrown among the others, which can
 *    only cover more of any given bits and merge more query positions; so
 *    Q_S(d), Q_C(k) and the law of the number D of distinct query positions
 *    all move the right way, and Q_S(d) decreases in d).  So min_k f(m,n,k)
 *    does not increase with m (for the classic filter the range of k even
 *    grows with m), and "some k reaches rate <= fpr" is monotone in m
 *    (this part is proven, and it holds whatever the shape in k):
 *    bs_optimal_bits finds the smallest such m by a secant estimate of
 *    ln min_k f(m) followed by galloping and bisection on that decision.
 * ------------------------------------------------------------------------ */

/* the bound of 1. as a logarithm; margin covers its own rounding */
static ld
rate_lower_bound_ln(ld m, ld n, int k, bs_construction c)
{
	if (c == BS_CONSTRUCTION_STANDARD)
	{
		ld			occupied = -expm1l(n * k * log1pl(-1 / m));	/* mu_S / m */

		return k * logl(occupied);
	}
	else
	{
		ld			mu = m * -expm1l(n * log1pl(-(ld) k / m));

		if (mu - k + 1 <= 0)
			return -INFINITY;
		return lgammal(mu + 1) - lgammal(mu - k + 1) -
			(lgammal(m + 1) - lgammal(m - k + 1));
	}
}

/* absolute slack added to a bound before pruning with it (lgamma rounding) */
static ld
bound_slack(ld m, ld ln_value)
{
	return 1e-9L * fabsl(ln_value) + 64 * ULP * (m + 64) * logl(m + 2) + 1e-12L;
}

/* do two log-rates count as equal (see 1. above)? */
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

typedef struct search_entry
{
	ld			bound;
	int			k;
} search_entry;

static int
search_entry_cmp(const void *x, const void *y)
{
	const search_entry *a = (const search_entry *) x;
	const search_entry *b = (const search_entry *) y;

	if (a->bound < b->bound)
		return -1;
	if (a->bound > b->bound)
		return 1;
	return (a->k > b->k) - (a->k < b->k);
}

static int
search_limit(int64_t m, bs_construction c)
{
	if (c == BS_CONSTRUCTION_CLASSIC && m < BS_ANALYSIS_SEARCH_HASHES)
		return (int) m;
	return BS_ANALYSIS_SEARCH_HASHES;
}

/* exact rates already computed during one search, indexed by k */
typedef struct rate_cache
{
	int64_t		m;
	int64_t		n;
	bs_construction c;
	int			kmax;
	int			evaluations;
	ld			ln[BS_ANALYSIS_SEARCH_HASHES + 1];
	unsigned char known[BS_ANALYSIS_SEARCH_HASHES + 1];
} rate_cache;

static bs_status
cached_rate(rate_cache *rc, int k, ld *ln, bs_error *err)
{
	bs_status	s;

	if (!rc->known[k])
	{
		if ((s = rate_ln(rc->m, rc->n, k, rc->c, &rc->ln[k], err)) != BS_OK)
			return s;
		rc->known[k] = 1;
		rc->evaluations++;
		if (bs_analysis_interrupt_check != NULL)
			bs_analysis_interrupt_check();
	}
	*ln = rc->ln[k];
	return BS_OK;
}

/* is k1 strictly better than k2 (lower rate, not a tie, or a tie and k1 < k2)? */
static int
better(const rate_cache *rc, int k1, int k2)
{
	ld			a = rc->ln[k1];
	ld			b = rc->ln[k2];

	if (same_rate(a, b))
		return k1 < k2;
	return a < b;
}

/*
 * The minimum of f over 1..kmax for f unimodal in k (see the comment above):
 * walk downhill from start with doubling steps until the rate rises again,
 * which brackets the minimum as lo <= x <= hi with x the best point seen,
 * then shrink the bracket by golden-section search (ties go to the smaller
 * k), and finally compare the last two or three candidates.
 */
static bs_status
unimodal_min(rate_cache *rc, int start, int *k_out, bs_error *err)
{
	int			kmax = rc->kmax;
	int			lo;
	int			hi;
	int			x = start;
	int			k;
	ld			ln;
	bs_status	s;

	if ((s = cached_rate(rc, start, &ln, err)) != BS_OK)
		return s;
	if (start > 1 && (s = cached_rate(rc, start - 1, &ln, err)) != BS_OK)
		return s;
	if (start > 1 && better(rc, start - 1, start))
	{
		int			step = 2;

		hi = start;
		x = start - 1;
		for (;;)
		{
			int			next = x - step < 1 ? 1 : x - step;

			if (next == x)
			{
				lo = x;
				break;
			}
			if ((s = cached_rate(rc, next, &ln, err)) != BS_OK)
				return s;
			if (!better(rc, next, x))
			{
				lo = next;
				break;
			}
			hi = x;
			x = next;
			step *= 2;
		}
	}
	else
	{
		int			step = 1;

		lo = start > 1 ? start - 1 : 1;
		for (;;)
		{
			int			next = x + step > kmax ? kmax : x + step;

			if (next == x)
			{
				hi = x;
				break;
			}
			if ((s = cached_rate(rc, next, &ln, err)) != BS_OK)
				return s;
			if (!better(rc, next, x))
			{
				hi = next;
				break;
			}
			lo = x;
			x = next;
			step *= 2;
		}
	}

	/* lo <= x <= hi, and the minimum lies in [lo, hi] */
	while (hi - lo > 2)
	{
		int			y;

		/* golden section: probe the larger side, 0.382 of it away from x */
		if (x - lo > hi - x)
			y = x - (int) (0.381966 * (x - lo) + 0.5);
		else
			y = x + (int) (0.381966 * (hi - x) + 0.5);
		if (y == x)
			y = (x - lo > hi - x) ? x - 1 : x + 1;
		if ((s = cached_rate(rc, y, &ln, err)) != BS_OK)
			return s;
		if (y < x)
		{
			if (better(rc, y, x))
			{
				hi = x;
				x = y;
			}
			else
				lo = y;
		}
		else
		{
			if (better(rc, y, x))
			{
				lo = x;
				x = y;
			}
			else
				hi = y;
		}
	}
	*k_out = x;
	for (k = lo; k <= hi; k++)
	{
		if ((s = cached_rate(rc, k, &ln, err)) != BS_OK)
			return s;
		if (better(rc, k, *k_out))
			*k_out = k;
	}
	return BS_OK;
}

/*
 * Exact evaluations allowed to the bound-ordered pass before falling back.
 * An evaluation costs about k times more for large k (some 20 ms at k = 1000),
 * and where the optimum k is that large the filter is so sparse that the
 * bounds are loose and certification fails anyway; so the budget shrinks
 * there, leaving the answer to the unimodal search (the same answer whenever
 * the rate is unimodal in k, which test/test_analysis.c checks against brute
 * force).
 */
#define CERTIFY_BUDGET 8
#define CERTIFY_BUDGET_LARGE_K 2
#define LARGE_K 128

/*
 * decide == 0: the k minimising the rate (ties to the smaller k) and its ln.
 * decide == 1: some k with ln rate <= target (*k_out = 0 when there is none).
 * n >= 1.  guess: a k to evaluate first (0 for none).
 *
 * First the bound-ordered pass of 1. above; when it needs more than
 * CERTIFY_BUDGET exact evaluations (small m, where the bounds are loose) the
 * unimodal search takes over from the best k found so far.
 */
static bs_status
search_k(int64_t m, int64_t n, bs_construction c, int decide, ld target,
		 int guess, int64_t *k_out, ld *ln_out, bs_error *err)
{
	rate_cache *rc;
	search_entry entries[BS_ANALYSIS_SEARCH_HASHES];
	int			kmax = search_limit(m, c);
	int			best_k = 0;
	int			certified = 0;
	int			i;
	bs_status	s = BS_OK;

	rc = work_alloc_bytes(sizeof(rate_cache), err, &s);
	if (rc == NULL)
		return s;
	rc->m = m;
	rc->n = n;
	rc->c = c;
	rc->kmax = kmax;
	for (i = 0; i < kmax; i++)
	{
		entries[i].k = i + 1;
		entries[i].bound = rate_lower_bound_ln((ld) m, (ld) n, i + 1, c);
	}
	qsort(entries, (size_t) kmax, sizeof(entries[0]), search_entry_cmp);

	for (i = -1; i < kmax; i++)
	{
		int			k;
		ld			ln;

		if (i < 0)
		{
			if (guess < 1 || guess > kmax)
				continue;
			k = guess;
		}
		else
		{
			ld			against = decide ? target : rc->ln[best_k];

			k = entries[i].k;
			if (!isinf(against) &&
				entries[i].bound - bound_slack((ld) m, entries[i].bound) >
				against + 1e-12L * (1 + fabsl(against)))
			{
				certified = 1;	/* this k and all after it are worse */
				break;
			}
			if (rc->known[k])
				continue;
			if (rc->evaluations >= (guess > LARGE_K ? CERTIFY_BUDGET_LARGE_K : CERTIFY_BUDGET))
				break;
		}
		if ((s = cached_rate(rc, k, &ln, err)) != BS_OK)
			goto done;
		if (decide && reaches_target(ln, target))
		{
			*k_out = k;
			*ln_out = ln;
			goto done;
		}
		if (best_k == 0 || better(rc, k, best_k))
			best_k = k;
	}
	if (i >= kmax)
		certified = 1;			/* every k was evaluated */

	if (!certified)
	{
		int			k;

		if ((s = unimodal_min(rc, best_k, &k, err)) != BS_OK)
			goto done;
		for (k = 1; k <= kmax; k++)
			if (rc->known[k] && better(rc, k, best_k))
				best_k = k;
	}
	*k_out = best_k;
	*ln_out = rc->ln[best_k];
	if (decide && !reaches_target(rc->ln[best_k], target))
		*k_out = 0;
done:
	work_free(rc);
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

bs_status
bs_optimal_k(int64_t m, int64_t n, bs_construction c, int64_t *k_out,
			 bs_error *err)
{
	bs_status	s;
	ld			ln;

	if ((s = check_bits(m, err)) != BS_OK || (s = check_items(n, err)) != BS_OK ||
		(s = check_construction(c, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*k_out = 1;
		return BS_OK;
	}
	return search_k(m, n, c, 0, 0, approximate_k(m, n, c), k_out, &ln, err);
}

/* the searches of one bs_optimal_bits call, remembered */
#define MEMO_SIZE 64

typedef struct bits_search
{
	int64_t		n;
	bs_construction c;
	ld			target;
	int			count;
	int64_t		m[MEMO_SIZE];
	int64_t		k[MEMO_SIZE];
	ld			ln[MEMO_SIZE];
	int			minimum[MEMO_SIZE];	/* ln is min_k (not just a k below target) */
} bits_search;

/* the best k known for the m nearest to this one, else the textbook one */
static int
memo_guess(const bits_search *bs, int64_t m)
{
	int			i;
	int			best = -1;

	for (i = 0; i < bs->count; i++)
		if (bs->k[i] > 0 &&
			(best < 0 || llabs(bs->m[i] - m) < llabs(bs->m[best] - m)))
			best = i;
	if (best >= 0 && bs->k[best] <= search_limit(m, bs->c))
		return (int) bs->k[best];
	return approximate_k(m, bs->n, bs->c);
}

static void
memo_add(bits_search *bs, int64_t m, int64_t k, ld ln, int minimum)
{
	int			i = bs->count < MEMO_SIZE ? bs->count++ : MEMO_SIZE - 1;

	bs->m[i] = m;
	bs->k[i] = k;
	bs->ln[i] = ln;
	bs->minimum[i] = minimum;
}

/* ln min_k f(m, n, k) */
static bs_status
min_rate(bits_search *bs, int64_t m, ld *ln, bs_error *err)
{
	int64_t		k;
	bs_status	s;
	int			i;

	for (i = 0; i < bs->count; i++)
		if (bs->m[i] == m && bs->minimum[i])
		{
			*ln = bs->ln[i];
			return BS_OK;
		}
	s = search_k(m, bs->n, bs->c, 0, 0, memo_guess(bs, m), &k, ln, err);
	if (s == BS_OK)
		memo_add(bs, m, k, *ln, 1);
	return s;
}

/* does some k reach ln rate <= target with m bits? */
static bs_status
reaches(bits_search *bs, int64_t m, int guess, int *yes, bs_error *err)
{
	int64_t		k;
	ld			ln;
	bs_status	s;
	int			i;

	for (i = 0; i < bs->count; i++)
		if (bs->m[i] == m && (bs->minimum[i] || reaches_target(bs->ln[i], bs->target)))
		{
			*yes = reaches_target(bs->ln[i], bs->target);
			return BS_OK;
		}
	if (guess == 0)
		guess = memo_guess(bs, m);
	s = search_k(m, bs->n, bs->c, 1, bs->target, guess, &k, &ln, err);
	if (s != BS_OK)
		return s;
	*yes = (k != 0);
	if (k != 0)
		memo_add(bs, m, k, ln, 0);
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
	int64_t		m;
	int			yes;
	bits_search *bs;
	ld			bits_per_item;

	if ((s = check_items(n, err)) != BS_OK || (s = check_rate(fpr, err)) != BS_OK ||
		(s = check_construction(c, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*m_out = 1;
		return BS_OK;
	}
	bs = work_alloc_bytes(sizeof(bits_search), err, &s);
	if (bs == NULL)
		return s;
	bs->n = n;
	bs->c = c;
	bs->target = logl((ld) fpr);
	bits_per_item = -log2l((ld) fpr);	/* the textbook optimal k */

	{
		int			guess = bits_per_item > BS_ANALYSIS_SEARCH_HASHES ?
			BS_ANALYSIS_SEARCH_HASHES : (int) ceill(bits_per_item);

		if ((s = reaches(bs, hi, guess, &yes, err)) != BS_OK)
			goto done;
	}
	if (!yes)
	{
		s = bs_fail(err, BS_ERR_TOO_LARGE,
					"bloom filter for this many items at this false-positive rate is too large",
					"No filter of at most %lld bits reaches rate %.15g with %lld items.",
					(long long) hi, fpr, (long long) n);
		goto done;
	}

	/* secant on ln min_k f(m) - ln fpr from the textbook estimate */
	{
		ld			ma = ceill((ld) n * bits_per_item / logl(2));
		ld			mb;
		ld			fa;
		ld			fb;
		int			iter;

		if (ma < 2)
			ma = 2;
		if (ma > hi)
			ma = hi;
		mb = ma + fmaxl(1, ceill(ma / 64));
		if (mb > hi)
			mb = ma - fmaxl(1, ceill(ma / 64));
		if (mb < 1)
			mb = 1;
		if ((s = min_rate(bs, (int64_t) ma, &fa, err)) != BS_OK ||
			(s = min_rate(bs, (int64_t) mb, &fb, err)) != BS_OK)
			goto done;
		for (iter = 0; iter < 8 && ma != mb && !isinf(fa) && !isinf(fb) && fa != fb; iter++)
		{
			ld			next = mb + (bs->target - fb) * (mb - ma) / (fb - fa);

			next = floorl(next + 0.5L);
			if (!(next >= 1))
				next = 1;
			if (next > hi)
				next = hi;
			if (fabsl(next - mb) <= 1)
			{
				mb = next;
				break;
			}
			ma = mb;
			fa = fb;
			mb = next;
			if ((s = min_rate(bs, (int64_t) mb, &fb, err)) != BS_OK)
				goto done;
		}
		m = (int64_t) mb;
	}

	/* gallop from the estimate to a bracket, then bisect */
	if ((s = reaches(bs, m, 0, &yes, err)) != BS_OK)
		goto done;
	if (yes)
	{
		int64_t		step = 1;

		good = m;
		for (;;)
		{
			int64_t		probe = good - step;

			if (probe < 1)
			{
				bad = 0;
				break;
			}
			if ((s = reaches(bs, probe, 0, &yes, err)) != BS_OK)
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
		int64_t		step = 1;

		bad = m;
		for (;;)
		{
			int64_t		probe = bad + step;

			if (probe >= hi)
			{
				good = hi;
				break;
			}
			if ((s = reaches(bs, probe, 0, &yes, err)) != BS_OK)
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

		if ((s = reaches(bs, mid, 0, &yes, err)) != BS_OK)
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
