/*
 * test_analysis_rates.c — checks of the exact false-positive rates: A. the
 * cases of test/data/analysis_reference.txt, B. a dense sample of the small
 * range against independent occupancy chains, C. the bounds L <= f <= U.
 */
#include "test_analysis.h"

/* ------------------------------------------------------------------------
 * A. reference file
 * ------------------------------------------------------------------------ */

void
test_reference(FILE *f)
{
	char		line[256];
	int			cases = 0;
	int			tiny = 0;
	ld			max_small = 0;
	ld			max_large = 0;
	int			small_cases = 0;
	int			large_cases = 0;

	while (fgets(line, sizeof(line), f))
	{
		char		cons[32];
		char		value[64];
		long long	m;
		long long	n;
		long long	k;
		bs_construction c;
		ld			ref_ln;
		ld			ln;
		ld			tol;
		ld			rel;
		int			small;
		int			ok;
		double		v;
		bs_error	err;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%31s %lld %lld %lld %63s", cons, &m, &n, &k, value) != 5)
		{
			check(0, "unreadable reference line: %s", line);
			continue;
		}
		c = strcmp(cons, "classic") == 0 ? BS_CONSTRUCTION_CLASSIC : BS_CONSTRUCTION_STANDARD;
		if (strcmp(value, "0") == 0)
			ref_ln = -INFINITY;
		else
		{
			char	   *e = strchr(value, 'e');
			ld			mant;

			if (e == NULL)
			{
				check(0, "reference value without exponent: %s", line);
				continue;
			}
			*e = '\0';
			mant = strtold(value, NULL);
			ref_ln = logl(mant) + atol(e + 1) * LN10;
			*e = 'e';
		}
		small = (m <= 5000 && n * k <= 50000);
		tol = small ? 1e-9L : 1e-6L;
		cases++;
		ln = timed_ln(m, n, k, c, &ok);
		rel = ok ? rel_diff_ln(ln, ref_ln) : INFINITY;
		if (small)
		{
			small_cases++;
			if (rel > max_small)
				max_small = rel;
		}
		else
		{
			large_cases++;
			if (rel > max_large)
				max_large = rel;
		}
		check(rel <= tol, "reference %s %lld %lld %lld: ln %.17Lg, expected %.17Lg (rel %.3Lg > %.0Lg)",
			  cons, m, n, k, ln, ref_ln, rel, tol);

		/* the double result */
		ok = bs_fpr_exact(m, n, k, c, &v, &err) == BS_OK;
		if (isinf(ref_ln))
			check(ok && v == 0, "reference %s %lld %lld %lld: rate %.17g, expected 0",
				  cons, m, n, k, v);
		else if (ref_ln > logl(DBL_MIN))
		{
			ld			r = fabsl((ld) v / expl(ref_ln) - 1);

			check(ok && r <= tol, "reference %s %lld %lld %lld: rate %.17g (rel %.3Lg)",
				  cons, m, n, k, v, r);
		}
		else if (ref_ln < logl((ld) DBL_TRUE_MIN / 2))
			check(ok && v == 0, "reference %s %lld %lld %lld: rate %.17g below the double range, expected 0",
				  cons, m, n, k, v);
		else
			check(ok && v > 0 && v < DBL_MIN, "reference %s %lld %lld %lld: subnormal rate %.17g",
				  cons, m, n, k, v);
		if (!isinf(ref_ln) && ref_ln < -200 * LN10)
		{
			tiny++;
			/* the acceptance's 1e-300 and 1e-250 scale rates, shown */
			if (ref_ln > -310 * LN10 && ref_ln < -240 * LN10)
				printf("   tiny: %s m=%lld n=%lld k=%lld rate %.6Le, rel error %.2Lg\n",
					   cons, m, n, k, expl(ref_ln), rel);
		}
	}
	printf("A. reference: %d cases (%d exact, max rel error %.2Lg; %d high-precision, max rel error %.2Lg); %d below 1e-200\n",
		   cases, small_cases, max_small, large_cases, max_large, tiny);
	check(cases >= 500, "reference file has %d cases", cases);
}

/* ------------------------------------------------------------------------
 * B. independent whole-filter occupancy chains
 * ------------------------------------------------------------------------ */

#define SMALL_NK 50000

static const int sample_m[] = {
	1, 2, 3, 4, 5, 7, 10, 13, 16, 20, 27, 32, 50, 64, 100, 128, 199, 256,
	365, 500, 640, 1000, 1024, 1499, 2000, 2500, 3001, 3500, 4096, 4500,
	4999, 5000
};

static const int sample_k[] = {
	1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16, 20, 24, 32, 40, 48, 64, 80, 100,
	128, 160, 200, 256, 320, 400, 512, 640, 800, 1000
};

/* the n sampled for each k: 1..12, then about x1.3, plus the corner 50000/k */
static unsigned char n_sampled[SMALL_NK + 1];

static void
build_n_sample(void)
{
	double		x = 12;
	int			n;

	for (n = 1; n <= 12; n++)
		n_sampled[n] = 1;
	while (x * 1.3 <= SMALL_NK)
	{
		x *= 1.3;
		n_sampled[(int) x] = 1;
	}
}

static int
n_in_sample(int n, int k)
{
	return n_sampled[n] || n == SMALL_NK / k;
}

/*
 * The chains drop the tails of the distribution of X where its probability
 * is below CHAIN_DROP (for speed); that changes an expectation of a
 * function in [0, 1] by at most (steps x bits x CHAIN_DROP) < 1e-440, so the
 * comparison is made only for rates above CHAIN_FLOOR.
 */
#define CHAIN_DROP 1e-450L
#define CHAIN_FLOOR 1e-420L

static ld stats_max_rel;
static long stats_compared;
static long stats_tiny;

static void
compare_chain(int64_t m, int64_t n, int64_t k, bs_construction c, ld chain)
{
	int			ok;
	ld			ln;
	ld			chain_ln;
	ld			rel;

	if (!(chain > CHAIN_FLOOR))
		return;					/* beyond what the chain represents */
	chain_ln = logl(chain);
	ln = timed_ln(m, n, k, c, &ok);
	rel = ok ? rel_diff_ln(ln, chain_ln) : INFINITY;
	if (rel > stats_max_rel)
		stats_max_rel = rel;
	stats_compared++;
	if (chain_ln < -200 * LN10)
		stats_tiny++;
	check(rel <= 1e-9L, "chain %s m=%lld n=%lld k=%lld: ln %.17Lg, chain %.17Lg (rel %.3Lg)",
		  cname(c), (long long) m, (long long) n, (long long) k, ln, chain_ln, rel);
}

/* standard: X after t balls, t = 1..50000, all sampled (n, k) with nk = t */
static void
chain_standard(int m, const int *ks, int nks, int t_max)
{
	ld		   *P = calloc((size_t) m + 2, sizeof(ld));
	ld		   *lx = calloc((size_t) m + 2, sizeof(ld));
	int			xlo = 0;
	int			xhi = 0;
	int			t;
	int			x;
	int			i;

	P[0] = 1;
	for (x = 1; x <= m; x++)
		lx[x] = logl((ld) x / m);
	for (t = 1; t <= t_max; t++)
	{
		int			top = xhi + 1 > m ? m : xhi + 1;

		for (x = top; x >= 1 && x >= xlo; x--)
			P[x] = P[x] * ((ld) x / m) + P[x - 1] * ((ld) (m - x + 1) / m);
		if (xlo == 0)
		{
			P[0] = 0;
			xlo = 1;
		}
		xhi = top;
		while (xlo < xhi && P[xlo] < CHAIN_DROP)
			P[xlo++] = 0;
		while (xhi > xlo && P[xhi] < CHAIN_DROP)
			P[xhi--] = 0;

		for (i = 0; i < nks; i++)
		{
			int			k = ks[i];
			ld			e = 0;

			if (t % k != 0 || !n_in_sample(t / k, k))
				continue;
			for (x = xlo; x <= xhi; x++)
				if (P[x] != 0)
					e += P[x] * expl(k * lx[x]);
			compare_chain(m, t / k, k, BS_CONSTRUCTION_STANDARD, e);
		}
	}
	free(P);
	free(lx);
}

/* classic: X after t items of k distinct bits, t = 1..50000/k */
static void
chain_classic(int m, int k)
{
	ld		   *P = calloc((size_t) m + 2, sizeof(ld));
	ld		   *Q = calloc((size_t) m + 2, sizeof(ld));
	ld		   *lf = calloc((size_t) m + 2, sizeof(ld));	/* ln x! */
	ld		   *h0 = calloc((size_t) m + 2, sizeof(ld));
	ld			lcmk;
	int			xlo = 0;
	int			xhi = 0;
	int			t;
	int			x;
	int			t_max = SMALL_NK / k;

	for (x = 1; x <= m; x++)
		lf[x] = lf[x - 1] + logl((ld) x);
	lcmk = lf[m] - lf[k] - lf[m - k];
	/*
	 * h0[x] = C(m-x, j0) C(x, k-j0) / C(m, k), the first term of row x,
	 * divided by the row's computed sum so that each row sums to 1 within a
	 * few ulps (the exponentials of sums of ln x! carry ~1e-14 of error,
	 * which would otherwise accumulate over thousands of items)
	 */
	for (x = 0; x <= m; x++)
	{
		int			j0 = k - x > 0 ? k - x : 0;
		int			j1 = m - x < k ? m - x : k;
		int			j;
		ld			h;
		ld			sum = 0;

		if (m - x < j0)
			continue;
		h = h0[x] = expl(lf[m - x] - lf[j0] - lf[m - x - j0] +
						 lf[x] - lf[k - j0] - lf[x - k + j0] - lcmk);
		for (j = j0; j <= j1; j++)
		{
			sum += h;
			if (j < j1)
				h *= ((ld) (m - x - j) / (j + 1)) * ((ld) (k - j) / (x - k + j + 1));
		}
		h0[x] /= sum;
	}
	P[0] = 1;
	for (t = 1; t <= t_max; t++)
	{
		int			nlo = m;
		int			nhi = 0;

		for (x = xlo; x <= xhi; x++)
			Q[x] = 0;
		for (x = xlo; x <= xhi; x++)
		{
			int			j0 = k - x > 0 ? k - x : 0;		/* new bits */
			int			j1 = m - x < k ? m - x : k;
			int			j;
			ld			h;

			if (P[x] == 0)
				continue;
			/* h = C(m-x, j) C(x, k-j) / C(m, k) */
			h = h0[x];
			for (j = j0; j <= j1; j++)
			{
				Q[x + j] += P[x] * h;
				if (x + j < nlo)
					nlo = x + j;
				if (x + j > nhi)
					nhi = x + j;
				if (j < j1)
					h *= ((ld) (m - x - j) / (j + 1)) * ((ld) (k - j) / (x - k + j + 1));
			}
		}
		for (x = xlo; x < nlo; x++)
			P[x] = 0;
		for (x = nlo; x <= nhi; x++)
			P[x] = Q[x];
		xlo = nlo;
		xhi = nhi;
		while (xlo < xhi && P[xlo] < CHAIN_DROP)
			P[xlo++] = 0;
		while (xhi > xlo && P[xhi] < CHAIN_DROP)
			P[xhi--] = 0;

		if (n_in_sample(t, k))
		{
			ld			e = 0;

			for (x = xlo > k ? xlo : k; x <= xhi; x++)
				if (P[x] != 0)
					e += P[x] * expl(lf[x] - lf[k] - lf[x - k] - lcmk);
			compare_chain(m, t, k, BS_CONSTRUCTION_CLASSIC, e);
		}
	}
	free(P);
	free(Q);
	free(lf);
	free(h0);
}

void
test_chains(void)
{
	size_t		i;
	size_t		j;
	double		t0 = now_ms();
	long		before;
	static const int big_k[] = {2000, 5000, 12500, 50000};

	build_n_sample();
	stats_max_rel = 0;
	stats_compared = 0;
	stats_tiny = 0;
	for (i = 0; i < sizeof(sample_m) / sizeof(sample_m[0]); i++)
		chain_standard(sample_m[i], sample_k, (int) (sizeof(sample_k) / sizeof(sample_k[0])), SMALL_NK);
	/* k beyond the extension's 1024: a few m */
	chain_standard(2, big_k, 4, SMALL_NK);
	chain_standard(64, big_k, 4, SMALL_NK);
	chain_standard(1000, big_k, 4, SMALL_NK);
	chain_standard(5000, big_k, 4, SMALL_NK);
	before = stats_compared;
	printf("B. standard chain: %ld (m, n, k) compared, max rel error %.2Lg, %ld below 1e-200 (%.1f s)\n",
		   stats_compared, stats_max_rel, stats_tiny, (now_ms() - t0) / 1e3);

	t0 = now_ms();
	stats_max_rel = 0;
	stats_tiny = 0;
	for (i = 0; i < sizeof(sample_m) / sizeof(sample_m[0]); i++)
		for (j = 0; j < sizeof(sample_k) / sizeof(sample_k[0]); j++)
		{
			int			m = sample_m[i];
			int			k = sample_k[j];

			if (k > m)
				continue;
			/*
			 * every k up to m = 500, then every third k from 10 (k = 1 is
			 * the standard filter, checked above, and its chain is the
			 * slowest: 50000 steps over a wide support)
			 */
			if (m > 500 && (j % 3 != 0 || k < 10 || i % 2 != 0) && k != m)
				continue;
			chain_classic(m, k);
		}
	chain_classic(2000, 2000);
	chain_classic(5000, 2500);
	chain_classic(5000, 4999);
	printf("B. classic chain: %ld (m, n, k) compared, max rel error %.2Lg, %ld below 1e-200 (%.1f s)\n",
		   stats_compared - before, stats_max_rel, stats_tiny, (now_ms() - t0) / 1e3);
}

/* ------------------------------------------------------------------------
 * C. bounds
 * ------------------------------------------------------------------------ */

void
test_bounds(void)
{
	static const int64_t ms[] = {1, 2, 3, 5, 10, 31, 64, 100, 1000, 5000, 65536,
	1000003, INT64_C(1) << 30, INT64_C(1) << 33};
	static const int64_t ks[] = {1, 2, 3, 5, 8, 15, 32, 50, 64, 100, 300, 1000};
	static const double loads[] = {0.001, 0.05, 0.3, 0.7, 1.5, 4, 20};
	size_t		a;
	size_t		b;
	size_t		d;
	long		count = 0;
	long		corollary = 0;

	for (a = 0; a < sizeof(ms) / sizeof(ms[0]); a++)
		for (b = 0; b < sizeof(ks) / sizeof(ks[0]); b++)
			for (d = 0; d < sizeof(loads) / sizeof(loads[0]); d++)
			{
				int64_t		m = ms[a];
				int64_t		k = ks[b];
				double		nd = floor(loads[d] * (double) m / (double) k + 0.5);
				int64_t		n = nd < 1 ? 1 : nd > 1e9 ? 1000000000 : (int64_t) nd;
				double		lo;
				double		hi;
				double		fs;
				double		fc;
				double		approx;
				bs_error	err;
				int			ok;

				ok = bs_fpr_bounds(m, n, k, &lo, &hi, &err) == BS_OK;
				ok = ok && bs_fpr_exact(m, n, k, BS_CONSTRUCTION_STANDARD, &fs, &err) == BS_OK;
				ok = ok && bs_fpr_approx(m, n, k, &approx, &err) == BS_OK;
				check(ok, "bounds m=%lld n=%lld k=%lld: error", (long long) m, (long long) n, (long long) k);
				if (!ok)
					continue;
				count++;
				if (2 * k <= m - 1)
					corollary++;
				check(lo >= 0 && hi <= 1 && lo <= hi, "bounds m=%lld n=%lld k=%lld: [%.17g, %.17g]",
					  (long long) m, (long long) n, (long long) k, lo, hi);
				check(lo <= fs * (1 + 1e-12) && fs <= hi * (1 + 1e-12),
					  "bounds m=%lld n=%lld k=%lld: standard %.17g not in [%.17g, %.17g]",
					  (long long) m, (long long) n, (long long) k, fs, lo, hi);
				check(approx <= fs * (1 + 1e-12),
					  "approx m=%lld n=%lld k=%lld: %.17g above the exact standard rate %.17g",
					  (long long) m, (long long) n, (long long) k, approx, fs);
				if (k <= m)
				{
					ok = bs_fpr_exact(m, n, k, BS_CONSTRUCTION_CLASSIC, &fc, &err) == BS_OK;
					check(ok && lo <= fc * (1 + 1e-12) && fc <= hi * (1 + 1e-12),
						  "bounds m=%lld n=%lld k=%lld: classic %.17g not in [%.17g, %.17g]",
						  (long long) m, (long long) n, (long long) k, fc, lo, hi);
				}
			}
	printf("C. bounds: %ld (m, n, k), %ld inside Corollary 23's range\n", count, corollary);
}
