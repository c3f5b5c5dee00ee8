/*
 * analysis_internal.c — test-only entry points into the internal functions
 * of the exact analysis (src/core/analysis/bs_analysis_internal.h) for
 * test/unit/analysis/test_analysis_chain.c (part K), so that the library keeps no test entry
 * point and the functions below call exactly the code the extension runs.
 */
#include "analysis/bs_analysis_internal.h"

#include "analysis_internal.h"

/*
 * bs_rate_bound_ln for the classic construction: ln of the exact rate
 * (stop_ln = +inf), or with a finite stop_ln possibly only the chain's
 * lower bound (*partial set).  Outside a sizing nothing is remembered.
 */
bs_status
bs_test_classic_bound_ln(int64_t m, int64_t n, int64_t k, long double stop_ln,
						 long double *ln_out, int *partial, bs_error *err)
{
	return bs_rate_bound_ln(m, n, k, BS_CONSTRUCTION_CLASSIC, stop_ln, ln_out, partial, err);
}

/* the stop of bs_k_above_by_bound for a threshold */
long double
bs_test_bound_stop(int64_t m, long double threshold)
{
	return threshold + bs_chain_bound_margin((ld) m, threshold);
}

/*
 * Does the chain's lower bound lb certify "above threshold", as
 * bs_k_above_by_bound decides it (its rounding allowance, then bs_bound_exceeds)?
 */
int
bs_test_bound_certifies(int64_t m, long double lb, long double threshold)
{
	lb -= 1e-10L * (1 + fabsl(lb));
	return bs_bound_exceeds((ld) m, lb, threshold);
}

/* the allowance bs_k_above_by_bound takes off a chain's lower bound */
long double
bs_test_bound_allowance(long double lb)
{
	return 1e-10L * (1 + fabsl(lb));
}
