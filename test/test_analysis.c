/*
 * test_analysis.c — checks of the exact analysis, src/core/bs_analysis.c and
 * the files it names (exact false-positive rates, bounds, optimal k and m,
 * efficiency).
 *
 * Build and run from the repository root:
 *
 *	make -C test analysis
 *
 * (with test/analysis_internal.c, which reaches internal functions of the
 * analysis through src/core/bs_analysis_internal.h)
 *
 * (an optional argument names the reference file; by default
 * test/analysis_reference.txt, or analysis_reference.txt when run from test/).
 * Prints "analysis: N checks, M failed" and exits non-zero when M > 0.
 *
 * What is checked:
 *	A. every case of test/analysis_reference.txt (exact rationals for
 *	   m <= 5000 and nk <= 50000, 60-digit mpmath values beyond): relative
 *	   error <= 1e-9 small, <= 1e-6 large; rates below the double range are
 *	   compared through their logarithms, and must come out as 0 (or
 *	   subnormal) from bs_fpr_exact;
 *	B. a dense deterministic sample of the whole small range against an
 *	   independent, exact-in-principle method: the distribution of the
 *	   number X of set bits, pushed item by item through its Markov chain in
 *	   long double (balls for the standard filter, hypergeometric k-subsets
 *	   for the classic one), then E[(X/m)^k] or E[C(X,k)]/C(m,k) — positive
 *	   sums only; tolerance 1e-9 relative (on the logarithm for tiny rates,
 *	   down to 1e-420);
 *	C. L <= f <= U of bs_fpr_bounds, and (1-e^{-kn/m})^k <= f_S;
 *	D. bs_optimal_k against a brute force over k; D2. where the rates near
 *	   the optimum are below the long double range (closed form for n = 1);
 *	E. bs_optimal_bits: the rate at m reaches fpr for some k, at m - 1 for
 *	   none (brute force over k); bs_reaches_rate agrees at m and m - 1;
 *	F. argument checks, n = 0, efficiency, space bound, hooks;
 *	G. timings of the slowest cases (printed, not asserted);
 *	H-J. the vectorised chain step, sizing with remembered rates, the
 *	   search over primes (bs_optimal_prime_bits);
 *	K. the chain's cheap lower bound against the exact rate and thresholds;
 *	L. the working block a sizing keeps: same answers, nothing left, also
 *	   after an allocation failure or an interrupt that longjmps.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis_internal.h"
#include "bs_analysis.h"
#include "bs_bloom.h"
#include "bs_chain_step.h"
#include "bs_primes.h"
#include "bs_sizing.h"

typedef long double ld;

#define LN10 2.302585092994045684017991454684364208L

static long checks;
static long failures;

static void
check(int ok, const char *format,...)
{
	checks++;
	if (!ok)
	{
		failures++;
		if (failures <= 40)
		{
			va_list		args;

			printf("FAIL: ");
			va_start(args, format);
			vprintf(format, args);
			va_end(args);
			printf("\n");
		}
	}
}

static double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const char *
cname(bs_construction c)
{
	return c == BS_CONSTRUCTION_CLASSIC ? "classic" : "standard";
}

/* ln of the exact rate by the library, as long double */
static ld
lib_ln(int64_t m, int64_t n, int64_t k, bs_construction c, int *ok)
{
	double		ln;
	bs_error	err;

	*ok = bs_fpr_exact_log(m, n, k, c, &ln, &err) == BS_OK;
	if (!*ok)
		printf("  error for %s %lld %lld %lld: %s (%s)\n", cname(c),
			   (long long) m, (long long) n, (long long) k, err.message, err.detail);
	return (ld) ln;
}

/* relative difference of two rates given by their logarithms */
static ld
rel_diff_ln(ld a, ld b)
{
	if (isinf(a) || isinf(b))
		return a == b ? 0 : INFINITY;
	return fabsl(expm1l(a - b));
}

/* ------------------------------------------------------------------------
 * timing record
 * ------------------------------------------------------------------------ */

typedef struct worst
{
	double		ms;
	char		what[96];
} worst;

static worst worst_k64;			/* k <= 64 */
static worst worst_k1000;		/* 64 < k <= 1000 */
static worst worst_kbig;		/* k > 1000 */

static void
note_time(int64_t m, int64_t n, int64_t k, bs_construction c, double ms)
{
	worst	   *w = k <= 64 ? &worst_k64 : k <= 1000 ? &worst_k1000 : &worst_kbig;

	if (ms > w->ms)
	{
		w->ms = ms;
		snprintf(w->what, sizeof(w->what), "%s m=%lld n=%lld k=%lld", cname(c),
				 (long long) m, (long long) n, (long long) k);
	}
}

/* timed rate */
static ld
timed_ln(int64_t m, int64_t n, int64_t k, bs_construction c, int *ok)
{
	double		t0 = now_ms();
	ld			ln = lib_ln(m, n, k, c, ok);

	note_time(m, n, k, c, now_ms() - t0);
	return ln;
}

/* ------------------------------------------------------------------------
 * A. reference file
 * ------------------------------------------------------------------------ */

static FILE *
open_reference(int argc, char **argv)
{
	FILE	   *f;

	if (argc > 1)
		return fopen(argv[1], "r");
	f = fopen("test/analysis_reference.txt", "r");
	if (f == NULL)
		f = fopen("analysis_reference.txt", "r");
	return f;
}

static void
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

static void
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

static void
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

/* ------------------------------------------------------------------------
 * D. optimal k
 * ------------------------------------------------------------------------ */

static int
search_limit(int64_t m, bs_construction c)
{
	if (c == BS_CONSTRUCTION_CLASSIC && m < BS_ANALYSIS_SEARCH_HASHES)
		return (int) m;
	return BS_ANALYSIS_SEARCH_HASHES;
}

static int
same_rate(ld a, ld b)
{
	if (isinf(a) || isinf(b))
		return a == b;
	return fabsl(a - b) <= 1e-12L * (1 + fabsl(a));
}

/*
 * Jensen lower bound of ln f (independent of the library's): standard
 * (mu_S/m)^k, classic prod_{i<k} (mu_C - i)/(m - i).
 */
static ld
jensen_ln(int64_t m, int64_t n, int k, bs_construction c)
{
	if (c == BS_CONSTRUCTION_STANDARD)
		return k * logl(-expm1l((ld) n * k * log1pl(-1.0L / m)));
	else
	{
		ld			mu = (ld) m * -expm1l((ld) n * log1pl(-(ld) k / m));
		ld			s = 0;
		int			i;

		for (i = 0; i < k; i++)
			s += logl((mu - i) / ((ld) m - i));
		return s;
	}
}

/*
 * The smallest minimiser over 1..K_max, checking every k: each k is either
 * evaluated or excluded because its Jensen bound (jensen_ln, computed here
 * independently of the library) already exceeds a rate seen.  first, when
 * positive, is evaluated before the others so that the exclusion bites at
 * once (the answer does not depend on it).
 */
static int
brute_optimal_k(int64_t m, int64_t n, bs_construction c, int first, ld *best_ln)
{
	int			kmax = search_limit(m, c);
	int			best = 0;
	int			k;
	int			ok;
	ld			seen = INFINITY;	/* lowest rate evaluated */

	*best_ln = INFINITY;
	if (first >= 1 && first <= kmax)
	{
		seen = lib_ln(m, n, first, c, &ok);
		if (!ok)
			return -1;
	}
	for (k = 1; k <= kmax; k++)
	{
		ld			ln;

		if (!isinf(seen) && jensen_ln(m, n, k, c) > seen + 1e-9L * fabsl(seen) + 1e-17L)
			continue;
		ln = lib_ln(m, n, k, c, &ok);
		if (!ok)
			return -1;
		if (ln < seen)
			seen = ln;
		if (best == 0 || (ln < *best_ln && !same_rate(ln, *best_ln)))
		{
			best = k;
			*best_ln = ln;
		}
	}
	return best;
}

static void
test_optimal_k(void)
{
	static const int64_t ms[] = {1, 2, 3, 5, 8, 13, 20, 32, 50, 64, 100, 128,
	200, 300, 500, 1000, 2000, 5000};
	static const int64_t ns[] = {1, 2, 3, 5, 10, 20, 50, 100, 1000, 100000};
	static const int64_t big[][2] = {
		{1000000, 1000}, {1000000, 50000}, {INT64_C(1) << 30, 1000000},
		{INT64_C(1) << 33, 100000000}, {INT64_C(1) << 33, 1000000000},
		{100000, 100}, {20000, 1000}
	};
	size_t		a;
	size_t		b;
	int			cc;
	long		count = 0;
	double		worst_ms = 0;
	char		worst_what[96] = "";
	double		t0 = now_ms();

	for (cc = 0; cc <= 1; cc++)
	{
		bs_construction c = (bs_construction) cc;

		for (a = 0; a < sizeof(ms) / sizeof(ms[0]) + sizeof(big) / sizeof(big[0]); a++)
			for (b = 0; b < sizeof(ns) / sizeof(ns[0]); b++)
			{
				int			is_big = a >= sizeof(ms) / sizeof(ms[0]);
				int64_t		m = is_big ? big[a - sizeof(ms) / sizeof(ms[0])][0] : ms[a];
				int64_t		n = is_big ? big[a - sizeof(ms) / sizeof(ms[0])][1] : ns[b];
				int64_t		k;
				ld			best_ln;
				int			brute;
				bs_error	err;
				double		t1;
				double		ms_taken;

				if (is_big && b > 0)
					continue;
				/* the slowest brute forces (few items, k* near 1024): a sample */
				if (!is_big && m >= 2000 && n <= 3 && (m != 5000 || n != 2))
					continue;
				t1 = now_ms();
				check(bs_optimal_k(m, n, c, &k, &err) == BS_OK,
					  "optimal_k %s m=%lld n=%lld: error", cname(c), (long long) m, (long long) n);
				ms_taken = now_ms() - t1;
				if (ms_taken > worst_ms)
				{
					worst_ms = ms_taken;
					snprintf(worst_what, sizeof(worst_what), "%s m=%lld n=%lld", cname(c),
							 (long long) m, (long long) n);
				}
				brute = brute_optimal_k(m, n, c, (int) k, &best_ln);
				count++;
				check(brute == k, "optimal_k %s m=%lld n=%lld: %lld, brute force %d (ln %.17Lg)",
					  cname(c), (long long) m, (long long) n, (long long) k, brute, best_ln);
			}
	}
	{
		int64_t		k;
		bs_error	err;

		check(bs_optimal_k(64, 4, BS_CONSTRUCTION_STANDARD, &k, &err) == BS_OK && k == 10,
			  "optimal_k standard 64 4 (Burns section 3.4: 10)");
		check(bs_optimal_k(64, 4, BS_CONSTRUCTION_CLASSIC, &k, &err) == BS_OK && k == 9,
			  "optimal_k classic 64 4 (Burns section 3.4: 9)");
		check(bs_optimal_k(1000, 0, BS_CONSTRUCTION_STANDARD, &k, &err) == BS_OK && k == 1,
			  "optimal_k n = 0 gives 1");
	}
	printf("D. optimal k: %ld (m, n) against brute force over k; slowest call %.1f ms (%s) (%.1f s)\n",
		   count, worst_ms, worst_what, (now_ms() - t0) / 1e3);
}

/* ------------------------------------------------------------------------
 * D2. optimal k where the rates lie below the long double range
 * ------------------------------------------------------------------------ */

/*
 * Classic filters much sparser than optimal, with few items: the optimum is
 * k = K_max = 1024 (the rate falls with k up to about m ln 2 / (n + ln 2),
 * Remark 29), and the rates near it are far below the smallest long double
 * (1/C(1e11, 1024) is about e^-19800).  Those rates must come out finite
 * (as logarithms), and the search must not take them for ties at 0: it
 * returned 571 for m = 1e11, n = 1 (905 for m = 1e8, 690 for m = 1e11,
 * n = 10).  Checked against an independent computation: for n = 1 the
 * closed form 1/C(m,k) (Burns eq. (60) with one item: the k targets must
 * be exactly the item's k bits), by lgamma, which falls with k while
 * k < m/2; for more items, that the library's rate at k = 1024 is finite
 * and below its rate at 1023 and at 1000, and within its own bounds' logs
 * (Jensen, jensen_ln, below; U (65) above).
 */
static void
test_optimal_k_tiny(void)
{
	static const int64_t ms[] = {1000000, 100000000, INT64_C(100000000000)};
	static const int64_t ns[] = {1, 2, 10};
	long		before = checks;
	size_t		a;
	size_t		b;
	double		t0 = now_ms();

	for (a = 0; a < sizeof(ms) / sizeof(ms[0]); a++)
		for (b = 0; b < sizeof(ns) / sizeof(ns[0]); b++)
		{
			int64_t		m = ms[a];
			int64_t		n = ns[b];
			int64_t		k = 0;
			bs_error	err;
			int			ok1;
			int			ok2;
			int			ok3;
			ld			at_k;
			ld			below;
			ld			far;
			ld			upper;

			bs_status	s = bs_optimal_k(m, n, BS_CONSTRUCTION_CLASSIC, &k, &err);

			check(s == BS_OK && k == BS_ANALYSIS_SEARCH_HASHES,
				  "optimal_k classic m=%lld n=%lld: %lld, expected %d", (long long) m,
				  (long long) n, (long long) k, BS_ANALYSIS_SEARCH_HASHES);
			k = BS_ANALYSIS_SEARCH_HASHES;
			at_k = lib_ln(m, n, k, BS_CONSTRUCTION_CLASSIC, &ok1);
			below = lib_ln(m, n, k - 1, BS_CONSTRUCTION_CLASSIC, &ok2);
			far = lib_ln(m, n, 1000, BS_CONSTRUCTION_CLASSIC, &ok3);
			check(ok1 && ok2 && ok3 && isfinite(at_k) && isfinite(below) && isfinite(far),
				  "classic m=%lld n=%lld: finite ln rates at k = 1000, 1023, 1024 "
				  "(%.17Lg %.17Lg %.17Lg)", (long long) m, (long long) n, far, below, at_k);
			check(at_k < below && below < far,
				  "classic m=%lld n=%lld: rate falls with k (ln %.17Lg %.17Lg %.17Lg)",
				  (long long) m, (long long) n, far, below, at_k);
			upper = k * logl(-expm1l((ld) n * log1pl(-(ld) k / m)));
			check(at_k >= jensen_ln(m, n, (int) k, BS_CONSTRUCTION_CLASSIC) - 1e-9L * fabsl(at_k) &&
				  at_k <= upper + 1e-9L * fabsl(at_k),
				  "classic m=%lld n=%lld k=1024: ln %.17Lg outside [%.17Lg, %.17Lg]",
				  (long long) m, (long long) n, at_k,
				  jensen_ln(m, n, (int) k, BS_CONSTRUCTION_CLASSIC), upper);
			if (n == 1)
			{
				int			j;

				for (j = 1000; j <= BS_ANALYSIS_SEARCH_HASHES; j += 6)
				{
					ld			closed = -(lgammal((ld) m + 1) - lgammal((ld) j + 1) -
										   lgammal((ld) (m - j) + 1));
					ld			lib = lib_ln(m, 1, j, BS_CONSTRUCTION_CLASSIC, &ok1);

					check(ok1 && fabsl(lib - closed) <= 1e-9L * fabsl(closed),
						  "classic m=%lld n=1 k=%d: ln %.17Lg, closed form -ln C(m,k) %.17Lg",
						  (long long) m, j, lib, closed);
				}
			}
		}
	printf("D2. optimal k with rates below the long double range: %ld checks (%.1f s)\n",
		   checks - before, (now_ms() - t0) / 1e3);
}

/* ------------------------------------------------------------------------
 * E. optimal bits
 * ------------------------------------------------------------------------ */

static void
test_optimal_bits(void)
{
	static const struct
	{
		int64_t		n;
		double		fpr;
	}			cases[] = {
		{1, 0.5}, {1, 0.1}, {1, 1e-3}, {2, 0.3}, {3, 1e-5}, {10, 0.01},
		{10, 1e-20}, {10, 1e-100}, {100, 0.01}, {100, 1e-4}, {1000, 0.05},
		{1000, 1e-9}, {12345, 0.001}, {100000, 0.01}, {1000000, 1e-6},
		{1000000, 0.01}, {100000000, 0.01}, {1000000000, 0.01},
		{1000000000, 1e-7}, {7, 0.999}, {50, 1e-300}
	};
	size_t		i;
	int			cc;
	double		worst_ms = 0;
	char		worst_what[96] = "";
	double		t0 = now_ms();
	long		count = 0;

	for (cc = 0; cc <= 1; cc++)
	{
		bs_construction c = (bs_construction) cc;

		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		{
			int64_t		n = cases[i].n;
			double		fpr = cases[i].fpr;
			int64_t		m;
			int64_t		k;
			bs_error	err;
			double		t1 = now_ms();
			bs_status	s = bs_optimal_bits(n, fpr, c, &m, &err);
			double		taken = now_ms() - t1;
			ld			at_m;
			ld			below;

			if (taken > worst_ms)
			{
				worst_ms = taken;
				snprintf(worst_what, sizeof(worst_what), "%s n=%lld fpr=%g", cname(c),
						 (long long) n, fpr);
			}
			check(s == BS_OK, "optimal_bits %s n=%lld fpr=%g: error %s", cname(c),
				  (long long) n, fpr, s == BS_OK ? "" : err.message);
			if (s != BS_OK)
				continue;
			count++;
			bs_optimal_k(m, n, c, &k, &err);
			brute_optimal_k(m, n, c, (int) k, &at_m);
			/* within the 1e-12 to which rates are computed (exact ties: 1/2) */
			check(at_m <= logl(fpr) + 1e-12L * (1 - logl(fpr)), "optimal_bits %s n=%lld fpr=%g: m=%lld has best rate %.17Lg > fpr",
				  cname(c), (long long) n, fpr, (long long) m, expl(at_m));
			if (m > 1)
			{
				brute_optimal_k(m - 1, n, c, (int) k, &below);
				check(below > logl(fpr) - 1e-12L * (1 - logl(fpr)), "optimal_bits %s n=%lld fpr=%g: m-1=%lld already reaches it (%.17Lg)",
					  cname(c), (long long) n, fpr, (long long) m - 1, expl(below));
			}
			{
				int			at;
				int			under = 0;

				check(bs_reaches_rate(m, n, fpr, c, &at, &err) == BS_OK && at &&
					  (m == 1 || (bs_reaches_rate(m - 1, n, fpr, c, &under, &err) == BS_OK && !under)),
					  "reaches_rate %s n=%lld fpr=%g: not true at m=%lld and false at m - 1",
					  cname(c), (long long) n, fpr, (long long) m);
			}
		}
	}
	{
		int64_t		m;
		bs_error	err;

		check(bs_optimal_bits(0, 0.01, BS_CONSTRUCTION_STANDARD, &m, &err) == BS_OK && m == 1,
			  "optimal_bits n = 0 gives 1");
		check(bs_optimal_bits(1000000000, 1e-300, BS_CONSTRUCTION_STANDARD, &m, &err) == BS_ERR_TOO_LARGE,
			  "optimal_bits beyond 2^36 bits gives BS_ERR_TOO_LARGE");
		check(bs_optimal_bits(100000000, 1e-300, BS_CONSTRUCTION_CLASSIC, &m, &err) == BS_ERR_TOO_LARGE,
			  "optimal_bits beyond 2^36 bits gives BS_ERR_TOO_LARGE (classic)");
		{
			int			at = 0;

			check(bs_reaches_rate(10, 0, 0.5, BS_CONSTRUCTION_STANDARD, &at, &err) == BS_OK && at,
				  "reaches_rate n = 0 reaches every rate");
			check(bs_reaches_rate(BS_ANALYSIS_MAX_BITS, 1000000000, 1e-300, BS_CONSTRUCTION_CLASSIC,
								  &at, &err) == BS_OK && !at,
				  "reaches_rate: 1e9 items at 1e-300 do not fit in 2^36 bits");
		}
	}
	printf("E. optimal bits: %ld (n, fpr) verified at m and m - 1; slowest call %.1f ms (%s) (%.1f s)\n",
		   count, worst_ms, worst_what, (now_ms() - t0) / 1e3);
}

/* ------------------------------------------------------------------------
 * F. API details
 * ------------------------------------------------------------------------ */

static long interrupts;
static long allocations;
static long releases;
static int	fail_allocations;

static void
count_interrupt(void)
{
	interrupts++;
}

/*
 * Blocks 8 bytes off malloc's 16-byte alignment, as palloc may return
 * them: the core must not assume more (long double needs 16).
 */
static void *
counting_alloc(size_t size)
{
	char	   *p;

	if (fail_allocations)
		return NULL;
	allocations++;
	p = malloc(size + 8);
	return p == NULL ? NULL : p + 8;
}

static void
counting_free(void *p)
{
	releases++;
	free((char *) p - 8);
}

static void
expect_param(bs_status s, bs_error *err, const char *what)
{
	size_t		len = strlen(err->message);

	check(s == BS_ERR_PARAM && err->status == BS_ERR_PARAM, "%s: expected BS_ERR_PARAM", what);
	check(len > 0 && err->message[len - 1] != '.' && !(err->message[0] >= 'A' && err->message[0] <= 'Z'),
		  "%s: message style \"%s\"", what, err->message);
	len = strlen(err->detail);
	check(len > 1 && err->detail[len - 1] == '.' && err->detail[0] >= 'A' && err->detail[0] <= 'Z',
		  "%s: detail style \"%s\"", what, err->detail);
}

static void
test_api(void)
{
	bs_error	err;
	double		v;
	double		v2;
	double		lo;
	double		hi;
	int64_t		k;
	int64_t		m;
	long		before = checks;

	/* argument checks */
	expect_param(bs_fpr_exact(0, 1, 1, BS_CONSTRUCTION_STANDARD, &v, &err), &err, "m = 0");
	expect_param(bs_fpr_exact(-5, 1, 1, BS_CONSTRUCTION_CLASSIC, &v, &err), &err, "m < 0");
	expect_param(bs_fpr_exact(10, -1, 1, BS_CONSTRUCTION_STANDARD, &v, &err), &err, "n < 0");
	expect_param(bs_fpr_exact(10, 1, 0, BS_CONSTRUCTION_STANDARD, &v, &err), &err, "k = 0");
	expect_param(bs_fpr_exact(10, 1, -3, BS_CONSTRUCTION_STANDARD, &v, &err), &err, "k < 0");
	expect_param(bs_fpr_exact(10, 1, 11, BS_CONSTRUCTION_CLASSIC, &v, &err), &err, "classic k > m");
	expect_param(bs_fpr_exact(10, 1, BS_ANALYSIS_MAX_HASHES + 1, BS_CONSTRUCTION_STANDARD, &v, &err),
				 &err, "k too large");
	expect_param(bs_fpr_exact(10, 1, 1, (bs_construction) 7, &v, &err), &err, "construction");
	expect_param(bs_fpr_approx(0, 1, 1, &v, &err), &err, "approx m = 0");
	expect_param(bs_fpr_bounds(10, -1, 1, &lo, &hi, &err), &err, "bounds n < 0");
	expect_param(bs_optimal_k(0, 1, BS_CONSTRUCTION_STANDARD, &k, &err), &err, "optimal_k m = 0");
	expect_param(bs_optimal_k(10, -1, BS_CONSTRUCTION_STANDARD, &k, &err), &err, "optimal_k n < 0");
	expect_param(bs_optimal_bits(10, 0.0, BS_CONSTRUCTION_STANDARD, &m, &err), &err, "optimal_bits fpr 0");
	expect_param(bs_optimal_bits(10, 1.0, BS_CONSTRUCTION_STANDARD, &m, &err), &err, "optimal_bits fpr 1");
	expect_param(bs_optimal_bits(10, NAN, BS_CONSTRUCTION_STANDARD, &m, &err), &err, "optimal_bits fpr NaN");
	expect_param(bs_optimal_bits(-1, 0.1, BS_CONSTRUCTION_STANDARD, &m, &err), &err, "optimal_bits n < 0");
	{
		int			at;

		expect_param(bs_reaches_rate(0, 1, 0.1, BS_CONSTRUCTION_STANDARD, &at, &err), &err, "reaches_rate m = 0");
		expect_param(bs_reaches_rate(10, 1, 1.0, BS_CONSTRUCTION_CLASSIC, &at, &err), &err, "reaches_rate fpr 1");
	}
	expect_param(bs_efficiency(10, 1, 0, BS_CONSTRUCTION_STANDARD, &v, &err), &err, "efficiency k = 0");
	expect_param(bs_space_lower_bound(-1, 0.1, &v, &err), &err, "space n < 0");
	expect_param(bs_space_lower_bound(1, -0.1, &v, &err), &err, "space fpr < 0");
	expect_param(bs_space_lower_bound(1, NAN, &v, &err), &err, "space fpr NaN");
	check(bs_fpr_exact(0, 1, 1, BS_CONSTRUCTION_STANDARD, &v, NULL) == BS_ERR_PARAM, "err may be NULL");

	/* n = 0 */
	check(bs_fpr_exact(100, 0, 5, BS_CONSTRUCTION_STANDARD, &v, &err) == BS_OK && v == 0, "n = 0 standard");
	check(bs_fpr_exact(100, 0, 5, BS_CONSTRUCTION_CLASSIC, &v, &err) == BS_OK && v == 0, "n = 0 classic");
	check(bs_fpr_exact_log(100, 0, 5, BS_CONSTRUCTION_CLASSIC, &v, &err) == BS_OK && v == -HUGE_VAL,
		  "n = 0 log");
	check(bs_fpr_approx(100, 0, 5, &v, &err) == BS_OK && v == 0, "n = 0 approx");
	check(bs_fpr_bounds(100, 0, 5, &lo, &hi, &err) == BS_OK && lo == 0 && hi == 0, "n = 0 bounds");
	check(bs_efficiency(100, 0, 5, BS_CONSTRUCTION_STANDARD, &v, &err) == BS_OK && v == 0, "n = 0 efficiency");
	check(bs_space_lower_bound(0, 0.01, &v, &err) == BS_OK && v == 0, "n = 0 space");

	/* m = 1 and k = m: every bit set */
	check(bs_fpr_exact(1, 5, 3, BS_CONSTRUCTION_STANDARD, &v, &err) == BS_OK && v == 1, "m = 1");
	check(bs_fpr_exact(20, 1, 20, BS_CONSTRUCTION_CLASSIC, &v, &err) == BS_OK && v == 1, "classic k = m");

	/* approximation against its formula */
	check(bs_fpr_approx(1000, 100, 7, &v, &err) == BS_OK &&
		  fabs(v / pow(1 - exp(-0.7), 7) - 1) < 1e-13, "approx formula");
	check(bs_fpr_approx(INT64_C(1) << 40, 1, 1, &v, &err) == BS_OK &&
		  fabs(v / (-expm1(-1.0 / 1099511627776.0)) - 1) < 1e-14, "approx is computed stably");

	/* efficiency: n log2(1/p)/m; Corollary 27: k = 1, p = 1/2 peak */
	check(bs_fpr_exact(100, 69, 1, BS_CONSTRUCTION_STANDARD, &v2, &err) == BS_OK &&
		  bs_efficiency(100, 69, 1, BS_CONSTRUCTION_STANDARD, &v, &err) == BS_OK &&
		  fabs(v - 69 * -log2(v2) / 100) < 1e-12, "efficiency formula");
	check(fabs(v - 0.69) < 0.01, "efficiency at the peak of a 100-bit standard filter is about 0.69 (%g)", v);
	check(bs_efficiency(100, 1, 50, BS_CONSTRUCTION_CLASSIC, &v, &err) == BS_OK &&
		  fabs(v - 0.96) < 0.01, "classic peak efficiency of 100 bits is about 0.96 (%g)", v);
	/*
	 * classic n = 1: p = 1/C(m,k) = e^-16962, below the long double range.
	 * It used to be refused (BS_ERR_TOO_LARGE: the rate underflowed); now
	 * the tilted chain computes ln p, so the efficiency must be the closed
	 * form log2 C(m,k) / m.
	 */
	{
		ld			m33 = (ld) (INT64_C(1) << 33);
		ld			log_c = lgammal(m33 + 1) - lgammal(1001) - lgammal(m33 - 1000 + 1);

		check(bs_efficiency(INT64_C(1) << 33, 1, 1000, BS_CONSTRUCTION_CLASSIC, &v, &err) == BS_OK &&
			  fabsl((ld) v - log_c / (logl(2) * m33)) <= 1e-9L * (log_c / (logl(2) * m33)),
			  "efficiency of a rate below the long double range: %.17g, closed form %.17Lg",
			  v, log_c / (logl(2) * m33));
	}
	check(bs_space_lower_bound(1000, 0.01, &v, &err) == BS_OK &&
		  fabs(v - 1000 * log2(100.0)) < 1e-9, "space lower bound");

	/* hooks: interrupts are polled; every allocation is released */
	bs_interrupt_check = count_interrupt;
	bs_analysis_alloc = counting_alloc;
	bs_analysis_free = counting_free;
	check(bs_fpr_exact(1000000, 5000, 1000, BS_CONSTRUCTION_CLASSIC, &v, &err) == BS_OK,
		  "long computation with hooks");
	check(interrupts > 10, "interrupt hook called %ld times", interrupts);
	check(bs_optimal_bits(1000, 1e-6, BS_CONSTRUCTION_CLASSIC, &m, &err) == BS_OK,
		  "optimal_bits with hooks");
	check(bs_optimal_bits(50, 1e-300, BS_CONSTRUCTION_STANDARD, &m, &err) == BS_OK && m == 72108,
		  "optimal_bits with hooks, 8-byte aligned blocks (%lld)", (long long) m);
	check(bs_optimal_k(14000, 10, BS_CONSTRUCTION_CLASSIC, &k, &err) == BS_OK && k == 902,
		  "optimal_k with hooks, 8-byte aligned blocks (%lld)", (long long) k);
	check(allocations > 0 && allocations == releases, "allocations %ld, releases %ld",
		  allocations, releases);
	fail_allocations = 1;
	check(bs_fpr_exact(1000000, 5000, 1000, BS_CONSTRUCTION_CLASSIC, &v, &err) == BS_ERR_TOO_LARGE,
		  "allocation failure gives BS_ERR_TOO_LARGE");
	fail_allocations = 0;
	bs_interrupt_check = NULL;
	bs_analysis_alloc = malloc;
	bs_analysis_free = free;

	printf("F. API: %ld checks\n", checks - before);
}

/* ------------------------------------------------------------------------
 * G. timings
 * ------------------------------------------------------------------------ */

static void
test_timings(void)
{
	static const int64_t ms[] = {1, 2, 10, 100, 1000, 5000, 65536, 1000000,
	INT64_C(1) << 24, INT64_C(1) << 28, INT64_C(1) << 30, INT64_C(1) << 33};
	static const int64_t ks[] = {1, 2, 5, 16, 32, 48, 64, 100, 200, 500, 700, 1000};
	static const double loads[] = {1e-4, 0.01, 0.1, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 8, 12, 20, 50};
	size_t		a;
	size_t		b;
	size_t		d;
	int			cc;
	long		count = 0;

	for (a = 0; a < sizeof(ms) / sizeof(ms[0]); a++)
		for (b = 0; b < sizeof(ks) / sizeof(ks[0]); b++)
			for (d = 0; d < sizeof(loads) / sizeof(loads[0]); d++)
				for (cc = 0; cc <= 1; cc++)
				{
					int64_t		m = ms[a];
					int64_t		k = ks[b];
					double		nd = floor(loads[d] * (double) m / (double) k + 0.5);
					int64_t		n = nd < 1 ? 1 : nd > 1e9 ? 1000000000 : (int64_t) nd;
					int			ok;

					if (cc == 1 && k > m)
						continue;
					timed_ln(m, n, k, (bs_construction) cc, &ok);
					check(ok, "timing case %s m=%lld n=%lld k=%lld", cname((bs_construction) cc),
						  (long long) m, (long long) n, (long long) k);
					count++;
				}
	printf("G. timings over all the calls above plus a grid of %ld (m, n, k) up to m = 2^33, n = 1e9:\n", count);
	printf("   slowest k <= 64:        %8.2f ms  (%s)\n", worst_k64.ms, worst_k64.what);
	printf("   slowest 64 < k <= 1000: %8.2f ms  (%s)\n", worst_k1000.ms, worst_k1000.what);
	printf("   slowest k > 1000:       %8.2f ms  (%s)\n", worst_kbig.ms, worst_kbig.what);
}

/*
 * H. The vectorised chain step (bs_chain_step, the copy this CPU runs) gives
 * the bits of the plain loop: each output's products added in the order of
 * j, one rounding per operation (this file is compiled without contraction
 * into fused multiply-adds).  Values over the whole double range.
 */
static void
test_chain_step(void)
{
	static const int shapes[][3] = {	/* K, J, lo */
		{0, 0, 0}, {1, 1, 0}, {15, 3, 2}, {16, 1, 0}, {17, 16, 5},
		{100, 22, 40}, {997, 8, 300}, {711, 552, 0}, {1000, 93, 999}
	};
	unsigned	seed = 12345;
	long		differ = 0;
	size_t		c;

	for (c = 0; c < sizeof(shapes) / sizeof(shapes[0]); c++)
	{
		int			K = shapes[c][0];
		int			J = shapes[c][1];
		int			lo = shapes[c][2];
		size_t		length = (size_t) K + 1 + (size_t) J + BS_CHAIN_BLOCK;
		double	   *v = calloc(length, sizeof(double));
		double	   *diag = calloc(length * ((size_t) J + 1), sizeof(double));
		double	   *next = calloc(length, sizeof(double));
		double		scale = ldexp(1.0, -448);
		int			end;
		int			t;
		size_t		i;

		for (i = 0; i <= (size_t) K; i++)
		{
			seed = seed * 1103515245u + 12345u;
			v[i] = ldexp((double) (seed >> 8) / (1u << 24), (int) (seed % 1500) - 600);
		}
		for (i = 0; i < length * ((size_t) J + 1); i++)
		{
			seed = seed * 1103515245u + 12345u;
			if (i % length <= (size_t) K)
				diag[i] = ldexp((double) (seed >> 8) / (1u << 24), (int) (seed % 900) - 100);
		}
		end = bs_chain_step(v, diag, length, lo, K, J, scale, next);
		check(end > K && end - lo <= K - lo + BS_CHAIN_BLOCK && (end - lo) % BS_CHAIN_BLOCK == 0,
			  "chain step K=%d J=%d lo=%d: end %d", K, J, lo, end);
		for (t = lo; t <= K; t++)
		{
			double		s = 0;
			int			j;

			for (j = 0; j <= J; j++)
				s += v[t + j] * diag[(size_t) j * length + t + j];
			s *= scale;
			if (memcmp(&s, &next[t], sizeof(s)) != 0)
				differ++;
		}
		free(v);
		free(diag);
		free(next);
	}
	check(differ == 0, "chain step: %ld outputs differ from the plain loop", differ);

	printf("H. chain step: vectorised step bit-identical to the plain loop on %zu shapes\n",
		   sizeof(shapes) / sizeof(shapes[0]));
}

/*
 * I. A sizing remembers its rates and starts its last search at the minimum
 * it walked to: the same (m, k) as the separate functions, which remember
 * nothing, and the same again when repeated.
 */
static void
test_sizing_memo(void)
{
	static const struct
	{
		int64_t		n;
		double		fpr;
	}			cases[] = {
		{1, 1e-300}, {2, 1e-300}, {3, 1e-300}, {50, 1e-300}, {1000, 1e-100},
		{100, 0.01}, {1000000, 1e-6}, {7, 1e-30}
	};
	size_t		c;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
	{
		uint64_t	bits[2] = {0, 0};
		uint32_t	hashes[2] = {0, 0};
		int64_t		m = 0;
		int64_t		k = 0;
		uint64_t	prime;
		int			r;

		for (r = 0; r < 2; r++)
			check(bs_bloom_size_exact(cases[c].n, cases[c].fpr, &bits[r], &hashes[r], NULL) == BS_OK,
				  "sizing n=%lld fpr=%g", (long long) cases[c].n, cases[c].fpr);
		check(bs_optimal_bits(cases[c].n, cases[c].fpr, BS_CONSTRUCTION_CLASSIC, &m, NULL) == BS_OK,
			  "optimal bits n=%lld", (long long) cases[c].n);
		prime = bs_next_prime(m < BS_BLOOM_MIN_BITS ? BS_BLOOM_MIN_BITS : (uint64_t) m);
		check(bs_optimal_k((int64_t) prime, cases[c].n, BS_CONSTRUCTION_CLASSIC, &k, NULL) == BS_OK,
			  "optimal k n=%lld", (long long) cases[c].n);
		if (k > (int64_t) prime)
			k = (int64_t) prime;
		check(bits[0] == prime && hashes[0] == (uint32_t) k && bits[1] == bits[0] &&
			  hashes[1] == hashes[0],
			  "sizing n=%lld fpr=%g: (%llu, %u) then (%llu, %u), separately (%llu, %lld)",
			  (long long) cases[c].n, cases[c].fpr, (unsigned long long) bits[0], hashes[0],
			  (unsigned long long) bits[1], hashes[1], (unsigned long long) prime, (long long) k);
	}
	printf("I. sizing: %zu sizings equal to bs_optimal_bits, the next prime and bs_optimal_k\n",
		   sizeof(cases) / sizeof(cases[0]));
}

/*
 * J. bs_optimal_prime_bits, which decides only at primes, against the
 * definition it replaces in a sizing: the smallest prime >= max(lo,
 * bs_optimal_bits(n, fpr, c)); both constructions, rates from 0.5 to
 * 1e-300, capacities 1 to 10^9, lower ends of the range above and below
 * the answer, and a range whose top does not reach the rate.
 */
static void
test_prime_bits(void)
{
	static const int64_t ns[] = {1, 2, 3, 5, 8, 12, 27, 100, 1557, 11823, 202009,
	1000000, 1000000000};
	static const double fprs[] = {0.5, 0.01, 1e-6, 1e-19, 1e-30, 1e-100, 1e-200, 1e-300};
	int64_t		hi = (int64_t) bs_prev_prime((uint64_t) BS_ANALYSIS_MAX_BITS);
	int64_t		answer = 0;
	long		count = 0;
	double		t0 = now_ms();
	size_t		a;
	size_t		b;
	int			cc;

	for (cc = 0; cc <= 1; cc++)
		for (a = 0; a < sizeof(ns) / sizeof(ns[0]); a++)
			for (b = 0; b < sizeof(fprs) / sizeof(fprs[0]); b++)
			{
				bs_construction c = (bs_construction) cc;
				int64_t		m = 0;
				int64_t		p = 0;
				int64_t		lo;
				int			l;

				if (bs_optimal_bits(ns[a], fprs[b], c, &m, NULL) != BS_OK || m > hi)
					continue;	/* beyond the range of bs_optimal_bits */
				for (l = 0; l < 2; l++)
				{
					uint64_t	expect;

					/* lo below the answer, then just above it */
					lo = l == 0 ? 2 : m + 1;
					expect = bs_next_prime((uint64_t) (m > lo ? m : lo));
					check(bs_optimal_prime_bits(ns[a], fprs[b], c, lo, hi, &p, NULL) == BS_OK &&
						  (uint64_t) p == expect,
						  "prime bits %s n=%lld fpr=%g lo=%lld: %lld, expected %llu",
						  cname(c), (long long) ns[a], fprs[b], (long long) lo,
						  (long long) p, (unsigned long long) expect);
					count++;
				}
				/* a top below the answer is too small */
				if (m > 3)
					check(bs_optimal_prime_bits(ns[a], fprs[b], c, 2,
												(int64_t) bs_prev_prime((uint64_t) (m - 1)), &p,
												NULL) == BS_ERR_TOO_LARGE,
						  "prime bits %s n=%lld fpr=%g: top below %lld accepted",
						  cname(c), (long long) ns[a], fprs[b], (long long) m);
			}
	check(bs_optimal_prime_bits(0, 0.01, BS_CONSTRUCTION_CLASSIC, 90, 97, &answer, NULL) == BS_OK &&
		  answer == 97, "prime bits n=0");
	check(bs_optimal_prime_bits(10, 0.01, BS_CONSTRUCTION_CLASSIC, 2, 100, &answer, NULL) == BS_ERR_PARAM,
		  "prime bits: a top that is not prime");
	printf("J. prime bits: %ld searches over primes equal to the next prime above bs_optimal_bits (%.1f s)\n",
		   count, (now_ms() - t0) / 1e3);
}

/*
 * K. The chain's cheap lower bound (bs_classic_ln with a finite stop,
 * through bs_rate_bound_ln; test/analysis_internal.c reaches these internal
 * functions):
 * over a grid of classic (m, n, k), m = 64 .. 2^33, n = 1 .. 10^9,
 * k = 1 .. 1000 (many of them with at least 32 expected hits, where the
 * bound is computed), and thresholds below and above the exact rate, with
 * the stop bs_k_above_by_bound uses: a bound (partial) is at most the
 * exact rate (less the 1e-10 relative allowance bs_k_above_by_bound takes
 * off), never certifies "above" a threshold at or over the exact rate, and, when it
 * stops past a threshold below the exact rate, certifies "above" it; a
 * threshold clearly below the rate is always passed.  A result that is not
 * partial is the exact rate, bit for bit.
 */
static void
test_lower_bound(void)
{
	static const int64_t ms[] = {64, 100, 1000, 5000, 65536, 1000003,
	INT64_C(1) << 24, INT64_C(1) << 30, INT64_C(1) << 33};
	static const int64_t ks[] = {1, 2, 3, 7, 16, 32, 64, 100, 250, 500, 1000};
	static const double loads[] = {0.1, 0.5, 1, 2, 4, 10, 30};
	static const int64_t fixed_ns[] = {1, 2, 3, 10};
	/* thresholds: exact + d (1 + |exact|) */
	static const double ds[] = {-50, -5, -0.5, -1e-3, -1e-6, 0, 1e-6, 1e-3, 0.5, 5};
	long		cases = 0;
	long		bounds = 0;
	long		stopped = 0;
	long		none = 0;
	ld			worst_excess = -INFINITY;
	double		t0 = now_ms();
	size_t		a;
	size_t		b;
	size_t		d;
	size_t		e;

	for (a = 0; a < sizeof(ms) / sizeof(ms[0]); a++)
		for (b = 0; b < sizeof(ks) / sizeof(ks[0]); b++)
			for (d = 0; d < sizeof(fixed_ns) / sizeof(fixed_ns[0]) +
				 sizeof(loads) / sizeof(loads[0]); d++)
			{
				int64_t		m = ms[a];
				int64_t		k = ks[b];
				int64_t		n;
				ld			exact;
				int			partial;
				bs_error	err;

				if (k > m)
					continue;
				if (d < sizeof(fixed_ns) / sizeof(fixed_ns[0]))
					n = fixed_ns[d];
				else
				{
					double		nd = floor(loads[d - sizeof(fixed_ns) / sizeof(fixed_ns[0])] *
										   (double) m / (double) k + 0.5);

					n = nd < 1 ? 1 : nd > 1e9 ? 1000000000 : (int64_t) nd;
				}
				if (bs_test_classic_bound_ln(m, n, k, INFINITY, &exact, &partial, &err) != BS_OK)
				{
					check(0, "lower bound: exact rate m=%lld n=%lld k=%lld: %s",
						  (long long) m, (long long) n, (long long) k, err.message);
					continue;
				}
				/* -inf: below the long double range (1 item, k = 1000, m >= 2^30) */
				check(!partial && exact <= 0 && (!isinf(exact) || n < 32),
					  "lower bound: exact rate m=%lld n=%lld k=%lld (%Lg, partial %d)",
					  (long long) m, (long long) n, (long long) k, exact, partial);
				if (isinf(exact))
					continue;
				cases++;
				for (e = 0; e < sizeof(ds) / sizeof(ds[0]); e++)
				{
					ld			threshold = exact + ds[e] * (1 + fabsl(exact));
					ld			stop = bs_test_bound_stop(m, threshold);
					ld			lb;
					int			ok = bs_test_classic_bound_ln(m, n, k, stop, &lb, &partial, &err) == BS_OK;

					check(ok, "lower bound m=%lld n=%lld k=%lld: %s", (long long) m,
						  (long long) n, (long long) k, ok ? "" : err.message);
					if (!ok)
						continue;
					if (!partial)
					{
						check(memcmp(&lb, &exact, 10) == 0,
							  "lower bound m=%lld n=%lld k=%lld: not partial, %.20Lg for the rate %.20Lg",
							  (long long) m, (long long) n, (long long) k, lb, exact);
						continue;
					}
					bounds++;
					if (isinf(lb))
					{
						none++;
						check(lb < 0, "lower bound m=%lld n=%lld k=%lld: +inf", (long long) m,
							  (long long) n, (long long) k);
						continue;
					}
					if ((lb - exact) / (1 + fabsl(exact)) > worst_excess)
						worst_excess = (lb - exact) / (1 + fabsl(exact));
					check(lb - bs_test_bound_allowance(lb) <= exact,
						  "lower bound m=%lld n=%lld k=%lld threshold %+g: bound %.20Lg above the rate %.20Lg",
						  (long long) m, (long long) n, (long long) k, ds[e], lb, exact);
					if (threshold >= exact)
						check(!bs_test_bound_certifies(m, lb, threshold),
							  "lower bound m=%lld n=%lld k=%lld: certifies above a threshold %+g over the rate",
							  (long long) m, (long long) n, (long long) k, ds[e]);
					else
					{
						if (lb > stop)
						{
							stopped++;
							check(bs_test_bound_certifies(m, lb, threshold),
								  "lower bound m=%lld n=%lld k=%lld: stopped at %.20Lg past the stop %.20Lg, does not certify threshold %+g",
								  (long long) m, (long long) n, (long long) k, lb, stop, ds[e]);
						}
						if (ds[e] <= -1e-3)
							check(lb > stop,
								  "lower bound m=%lld n=%lld k=%lld: %.20Lg does not pass threshold %+g (stop %.20Lg, rate %.20Lg)",
								  (long long) m, (long long) n, (long long) k, lb, ds[e], stop, exact);
					}
				}
			}
	/* the grid reaches the regime of the bounds, and they stop early */
	check(bounds >= 500 && stopped >= 200, "lower bound: only %ld bounds, %ld stopped", bounds, stopped);
	printf("K. lower bounds: %ld (m, n, k) x %zu thresholds, %ld bounds (%ld stopped past the threshold, %ld none), "
		   "largest (bound - rate)/(1 + |rate|) %.3Lg (%.1f s)\n",
		   cases, sizeof(ds) / sizeof(ds[0]), bounds, stopped, none, worst_excess,
		   (now_ms() - t0) / 1e3);
}

/*
 * L. The working block a sizing keeps from one rate to the next
 * (bs_analysis_memo_begin .. end).  An allocator that tracks its live
 * blocks stands for a memory context: rates computed inside a sizing,
 * where table blocks of several MB are kept and reused, equal those
 * computed outside, bit for bit; sizings in a row give the answers of
 * fresh ones; nothing is left allocated after a sizing, also one that an
 * allocation failure ends.  A sizing cut short by the interrupt hook
 * (longjmp, as CHECK_FOR_INTERRUPTS does) leaves its blocks to the
 * "context", which is then reset: its blocks are poisoned, not freed, so
 * that any later write to them shows.  Computations after it, outside a
 * sizing and in one, give the fresh answers, keep nothing outside a sizing
 * and never touch the reset blocks.
 */
typedef struct live_block
{
	struct live_block *next;
	struct live_block *prev;
	size_t		size;
	long		pad;			/* 32 bytes: the block stays 16-aligned */
} live_block;

static live_block live_head = {&live_head, &live_head, 0, 0};
static long live_count;
static long large_allocations;
static long fail_at;			/* fail the allocation of this number; 0: none */
static long interrupt_at;		/* longjmp from the poll of this number; 0: none */
static jmp_buf interrupt_jump;
static live_block *graveyard;	/* poisoned blocks of a reset "context" */

#define POISON 0xA5

static void *
tracking_alloc(size_t size)
{
	live_block *b;

	if (fail_at > 0 && --fail_at == 0)
		return NULL;
	b = malloc(sizeof(live_block) + size);
	if (b == NULL)
		return NULL;
	b->size = size;
	b->next = live_head.next;
	b->prev = &live_head;
	live_head.next->prev = b;
	live_head.next = b;
	live_count++;
	if (size >= ((size_t) 1 << 20))
		large_allocations++;
	return b + 1;
}

static void
tracking_free(void *p)
{
	live_block *b = (live_block *) p - 1;

	b->prev->next = b->next;
	b->next->prev = b->prev;
	live_count--;
	free(b);
}

static void
jumping_interrupt(void)
{
	if (interrupt_at > 0 && --interrupt_at == 0)
		longjmp(interrupt_jump, 1);
}

/* reset the "context": every live block poisoned and set aside */
static void
reset_context(void)
{
	while (live_head.next != &live_head)
	{
		live_block *b = live_head.next;

		b->prev->next = b->next;
		b->next->prev = b->prev;
		live_count--;
		memset(b + 1, POISON, b->size);
		b->next = graveyard;
		graveyard = b;
	}
}

/* are the reset blocks untouched?  (and free them) */
static int
graveyard_intact(void)
{
	int			intact = 1;

	while (graveyard != NULL)
	{
		live_block *b = graveyard;
		const unsigned char *p = (const unsigned char *) (b + 1);
		size_t		i;

		for (i = 0; i < b->size; i++)
			if (p[i] != POISON)
			{
				intact = 0;
				break;
			}
		graveyard = b->next;
		free(b);
	}
	return intact;
}

static bs_status
sizing(int64_t n, double fpr, uint64_t *bits, uint32_t *hashes)
{
	return bs_bloom_size_exact(n, fpr, bits, hashes, NULL);
}

/* a sizing that the interrupt hook cuts short at its poll number at? */
static int
cut_sizing(int64_t n, double fpr, long at)
{
	uint64_t	bits;
	uint32_t	hashes;

	interrupt_at = at;
	if (setjmp(interrupt_jump) != 0)
	{
		interrupt_at = 0;
		return 1;
	}
	(void) sizing(n, fpr, &bits, &hashes);
	interrupt_at = 0;
	return 0;
}

static void
test_kept_block(void)
{
	static const struct
	{
		int64_t		n;
		double		fpr;
	}			cases[] = {
		{3, 1e-300}, {6, 1e-300}, {2, 1e-300}, {12, 1e-250}, {10000, 1e-300}, {1000000, 1e-6}
	};
#define L_CASES (sizeof(cases) / sizeof(cases[0]))
#define L_RATES 6
	uint64_t	fresh_bits[L_CASES];
	uint32_t	fresh_hashes[L_CASES];
	int64_t		rm[L_RATES];
	int64_t		rn[L_RATES];
	int64_t		rk[L_RATES];
	double		fresh_rate[L_RATES];
	long		before = checks;
	long		cut = 0;
	double		t0 = now_ms();
	size_t		c;
	int			r;
	long		large;

	bs_analysis_alloc = tracking_alloc;
	bs_analysis_free = tracking_free;

	/* fresh answers: each sizing alone */
	for (c = 0; c < L_CASES; c++)
	{
		check(sizing(cases[c].n, cases[c].fpr, &fresh_bits[c], &fresh_hashes[c]) == BS_OK,
			  "kept block: sizing n=%lld fpr=%g", (long long) cases[c].n, cases[c].fpr);
		check(live_count == 0, "kept block: %ld blocks left by sizing n=%lld fpr=%g",
			  live_count, (long long) cases[c].n, cases[c].fpr);
	}

	/*
	 * rates with several-MB row tables (3 to 8 items near the optimum of 3
	 * items at 1e-300), outside a sizing, then inside one
	 */
	for (r = 0; r < L_RATES; r++)
	{
		rm[r] = (int64_t) fresh_bits[0] + 977 * r;
		rn[r] = 3 + r;
		rk[r] = (int64_t) fresh_hashes[0] - 40 * r;
		check(bs_fpr_exact_log(rm[r], rn[r], rk[r], BS_CONSTRUCTION_CLASSIC, &fresh_rate[r], NULL) == BS_OK,
			  "kept block: rate %d", r);
	}
	check(live_count == 0, "kept block: %ld blocks left outside a sizing", live_count);
	large = large_allocations;
	bs_analysis_memo_begin();
	for (r = 0; r < L_RATES; r++)
	{
		double		v = 0;

		check(bs_fpr_exact_log(rm[r], rn[r], rk[r], BS_CONSTRUCTION_CLASSIC, &v, NULL) == BS_OK &&
			  memcmp(&v, &fresh_rate[r], sizeof(v)) == 0,
			  "kept block: rate m=%lld n=%lld k=%lld in a sizing %.17g, alone %.17g",
			  (long long) rm[r], (long long) rn[r], (long long) rk[r], v, fresh_rate[r]);
	}
	bs_analysis_memo_end();
	check(live_count == 0, "kept block: %ld blocks left after a sequence of rates", live_count);
	check(large_allocations - large < L_RATES,
		  "kept block: %ld large blocks for %d rates: none kept", large_allocations - large, L_RATES);

	/* sizings in a row, each pair in both orders */
	for (c = 0; c < L_CASES; c++)
	{
		size_t		c2 = (c + 1) % L_CASES;
		uint64_t	bits;
		uint32_t	hashes;
		int			i;

		for (i = 0; i < 2; i++)
		{
			size_t		e = i == 0 ? c : c2;

			check(sizing(cases[e].n, cases[e].fpr, &bits, &hashes) == BS_OK &&
				  bits == fresh_bits[e] && hashes == fresh_hashes[e],
				  "kept block: sizing n=%lld fpr=%g in a row (%llu, %u), fresh (%llu, %u)",
				  (long long) cases[e].n, cases[e].fpr, (unsigned long long) bits, hashes,
				  (unsigned long long) fresh_bits[e], fresh_hashes[e]);
		}
		check(live_count == 0, "kept block: %ld blocks left by sizings in a row", live_count);
	}

	/* allocation failures: an error, nothing left, then the fresh answer */
	for (r = 1; r <= 400; r += r < 40 ? 1 : 17)
	{
		uint64_t	bits;
		uint32_t	hashes;
		bs_status	s;

		c = (size_t) r % 3;		/* few items at 1e-300 */
		fail_at = r;
		s = sizing(cases[c].n, cases[c].fpr, &bits, &hashes);
		check(fail_at == 0 ? s == BS_ERR_TOO_LARGE :
			  (s == BS_OK && bits == fresh_bits[c] && hashes == fresh_hashes[c]),
			  "kept block: allocation %d failing in sizing n=%lld: status %d",
			  r, (long long) cases[c].n, (int) s);
		fail_at = 0;
		check(live_count == 0, "kept block: %ld blocks left by a sizing ended by allocation %d",
			  live_count, r);
		check(sizing(cases[c].n, cases[c].fpr, &bits, &hashes) == BS_OK &&
			  bits == fresh_bits[c] && hashes == fresh_hashes[c] && live_count == 0,
			  "kept block: sizing n=%lld after a failed allocation %d", (long long) cases[c].n, r);
	}

	/*
	 * interrupts: the hook longjmps out of a sizing at its r-th poll; the
	 * "context" is reset; then a rate outside a sizing and a sizing
	 */
	bs_interrupt_check = jumping_interrupt;
	for (r = 1; r <= 300; r += r < 20 ? 1 : 23)
	{
		uint64_t	bits = 0;
		uint32_t	hashes = 0;
		double		v = 0;
		int			i;

		c = (size_t) r % 3;
		if (!cut_sizing(cases[c].n, cases[c].fpr, r))
			continue;			/* fewer polls than r */
		cut++;
		reset_context();
		for (i = 0; i < 2; i++)
		{
			int			e = (r + i) % L_RATES;

			check(bs_fpr_exact_log(rm[e], rn[e], rk[e], BS_CONSTRUCTION_CLASSIC, &v, NULL) == BS_OK &&
				  memcmp(&v, &fresh_rate[e], sizeof(v)) == 0,
				  "kept block: rate m=%lld n=%lld k=%lld after a sizing cut at poll %d: %.17g, fresh %.17g",
				  (long long) rm[e], (long long) rn[e], (long long) rk[e], r, v, fresh_rate[e]);
			check(live_count == 0,
				  "kept block: %ld blocks kept by a rate outside a sizing after one cut at poll %d",
				  live_count, r);
			reset_context();	/* what the caller's context would do */
		}
		check(sizing(cases[c].n, cases[c].fpr, &bits, &hashes) == BS_OK &&
			  bits == fresh_bits[c] && hashes == fresh_hashes[c],
			  "kept block: sizing n=%lld after one cut at poll %d (%llu, %u), fresh (%llu, %u)",
			  (long long) cases[c].n, r, (unsigned long long) bits, hashes,
			  (unsigned long long) fresh_bits[c], fresh_hashes[c]);
		check(live_count == 0, "kept block: %ld blocks left by a sizing after one cut at poll %d",
			  live_count, r);
		check(graveyard_intact(), "kept block: blocks of the reset context written after a cut at poll %d", r);
	}
	check(cut >= 10, "kept block: only %ld sizings cut short", cut);
	bs_interrupt_check = NULL;
	bs_analysis_alloc = malloc;
	bs_analysis_free = free;
	printf("L. kept block: %ld checks (%ld sizings cut short by an interrupt) (%.1f s)\n",
		   checks - before, cut, (now_ms() - t0) / 1e3);
#undef L_CASES
#undef L_RATES
}

int
main(int argc, char **argv)
{
	FILE	   *ref = open_reference(argc, argv);
	double		t0 = now_ms();

	if (ref == NULL)
	{
		printf("cannot open the reference file (test/analysis_reference.txt)\n");
		check(0, "reference file");
	}
	else
	{
		test_reference(ref);
		fclose(ref);
	}
	test_chains();
	test_bounds();
	test_optimal_k();
	test_optimal_k_tiny();
	test_optimal_bits();
	test_api();
	test_chain_step();
	test_sizing_memo();
	test_prime_bits();
	test_lower_bound();
	test_kept_block();
	test_timings();
	printf("(%.1f s)\n", (now_ms() - t0) / 1e3);
	printf("analysis: %ld checks, %ld failed\n", checks, failures);
	return failures > 0 ? 1 : 0;
}
