/*
 * bs_rate_standard.c — the exact rate of the standard filter (k probes with
 * repetition), f_S = sum_d T(d) Q_S(d) (bs_analysis.c, METHOD), and
 * L(m, n, k) = Q_S(k) for the bounds: the direct alternating sum (a) where
 * its rounding bound allows, the hitting-item chain (b) otherwise.
 */
#include "analysis/bs_analysis_internal.h"

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
		/* the row costs as much for a d of no weight, and most d have none */
		bs_analysis_tick(wk, (unsigned long) d + 1);
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
		bs_analysis_tick(wk, (unsigned long) d + 1);
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

	scratch = bs_work_alloc(3 * ((size_t) K + 1), err, &status);
	if (scratch == NULL)
		return status;
	if (standard_direct(m, N, K, weight, weight_rel, weight_abs, &direct,
						scratch, wk))
	{
		*ln_out = logl(direct);
		bs_work_free(scratch);
		return BS_OK;
	}
	bs_work_free(scratch);

	diag = bs_work_alloc(2 * length, err, &status);
	value = diag ? bs_work_alloc((size_t) K + 1, err, &status) : NULL;
	if (value == NULL)
	{
		bs_work_free(diag);
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
		bs_analysis_tick(wk, (unsigned long) (K - d + 1));
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
		status = bs_hit_chain_auto(&hc, guess, ln_out, wk, err);
	}
	bs_work_free(diag);
	bs_work_free(value);
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
		bs_analysis_tick(wk, (unsigned long) (top - low + 1));
	}
	return dropped;
}

bs_status
bs_standard_ln(int64_t m, int64_t n, int64_t k, ld *ln_out, work *wk, bs_error *err)
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
	T = bs_work_alloc(3 * ((size_t) K + 1), err, &status);
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
	bs_work_free(T);
	return status;
}

/* ln L(m, n, k) = ln Q_S(k) after nk balls, k <= m (Corollary 23, (64)) */
bs_status
bs_standard_cover_ln(int64_t m, int64_t n, int64_t k, ld *ln_out, work *wk,
					 bs_error *err)
{
	int			K = (int) k;
	ld		   *weight;
	bs_status	status = BS_OK;

	if ((ld) K * K / 2 > WORK_LIMIT)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "false-positive bound computation is too long",
					   "About %.3Lg steps would be needed.", (ld) K * K / 2);
	weight = bs_work_alloc((size_t) K + 1, err, &status);
	if (weight == NULL)
		return status;
	weight[K] = 1;
	status = standard_mix((ld) m, (ld) n * (ld) k, K, weight, 0, 0, ln_out, wk, err);
	bs_work_free(weight);
	return status;
}
