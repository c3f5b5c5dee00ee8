/*
 * test_analysis.c — checks of the exact analysis, src/core/analysis/bs_analysis.c and
 * the files it names (exact false-positive rates, bounds, optimal k and m,
 * efficiency).
 *
 * Build and run from the repository root:
 *
 *	make -C test/unit analysis
 *
 * (with test/unit/analysis/analysis_internal.c, which reaches internal functions of the
 * analysis through src/core/analysis/bs_analysis_internal.h)
 *
 * (an optional argument names the reference file; by default
 * test/data/analysis_reference.txt, or ../data/analysis_reference.txt when
 * run from test/unit/).
 * Prints "analysis: N checks, M failed" and exits non-zero when M > 0.
 *
 * What is checked:
 *	A. every case of test/data/analysis_reference.txt (exact rationals for
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
 *
 * This file holds the checker, the helpers, the timing record (G) and
 * main(); the other groups are in the test_analysis_*.c files that
 * test_analysis.h lists.
 */
#include "test_analysis.h"

long		checks;
long		failures;

void
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

double
now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

const char *
cname(bs_construction c)
{
	return c == BS_CONSTRUCTION_CLASSIC ? "classic" : "standard";
}

/* ln of the exact rate by the library, as long double */
ld
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
ld
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
ld
timed_ln(int64_t m, int64_t n, int64_t k, bs_construction c, int *ok)
{
	double		t0 = now_ms();
	ld			ln = lib_ln(m, n, k, c, ok);

	note_time(m, n, k, c, now_ms() - t0);
	return ln;
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

/* The reference file of A: the argument, or the default in either folder. */
static FILE *
open_reference(int argc, char **argv)
{
	FILE	   *f;

	if (argc > 1)
		return fopen(argv[1], "r");
	f = fopen("test/data/analysis_reference.txt", "r");
	if (f == NULL)
		f = fopen("../data/analysis_reference.txt", "r");
	return f;
}

int
main(int argc, char **argv)
{
	FILE	   *ref = open_reference(argc, argv);
	double		t0 = now_ms();

	if (ref == NULL)
	{
		printf("cannot open the reference file (test/data/analysis_reference.txt)\n");
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
