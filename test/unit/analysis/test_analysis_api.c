/*
 * test_analysis_api.c — checks of the analysis API's details (F): argument
 * checks, n = 0, efficiency, the space bound, and the interrupt and
 * allocation hooks.
 */
#include "test_analysis.h"

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

void
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
