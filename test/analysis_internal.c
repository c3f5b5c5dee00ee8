/*
 * analysis_internal.c — test-only access to static functions of
 * src/core/bs_analysis.c for test/test_analysis.c (part K).
 *
 * This file includes bs_analysis.c itself, so test_analysis is linked with
 * this translation unit instead of bs_analysis.c (test/Makefile): the
 * library keeps no test entry point, and the functions below see exactly
 * the code the extension runs.
 */
#include "../src/core/bs_analysis.c"

#include "analysis_internal.h"

/*
 * rate_bound_ln for the classic construction: ln of the exact rate
 * (stop_ln = +inf), or with a finite stop_ln possibly only the chain's
 * lower bound (*partial set).  Outside a sizing nothing is remembered.
 */
bs_status
bs_test_classic_bound_ln(int64_t m, int64_t n, int64_t k, long double stop_ln,
						 long double *ln_out, int *partial, bs_error *err)
{
	return rate_bound_ln(m, n, k, BS_CONSTRUCTION_CLASSIC, stop_ln, ln_out, partial, err);
}

/* the stop of above_by_bound for a threshold */
long double
bs_test_bound_stop(int64_t m, long double threshold)
{
	return threshold + chain_bound_margin((ld) m, threshold);
}

/*
 * Does the chain's lower bound lb certify "above threshold", as
 * above_by_bound decides it (its rounding allowance, then bound_exceeds)?
 */
int
bs_test_bound_certifies(int64_t m, long double lb, long double threshold)
{
	lb -= 1e-10L * (1 + fabsl(lb));
	return bound_exceeds((ld) m, lb, threshold);
}

/* the allowance above_by_bound takes off a chain's lower bound */
long double
bs_test_bound_allowance(long double lb)
{
	return 1e-10L * (1 + fabsl(lb));
}
