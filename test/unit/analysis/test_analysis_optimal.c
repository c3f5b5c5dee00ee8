/*
 * test_analysis_optimal.c — checks of the optimum searches against brute
 * force: D. bs_optimal_k, D2. where the rates near the optimum are below
 * the long double range, E. bs_optimal_bits and bs_reaches_rate.
 */
#include "test_analysis.h"

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

void
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
void
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

void
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
