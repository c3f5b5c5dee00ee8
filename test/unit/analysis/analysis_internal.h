/*
 * analysis_internal.h — test-only entry points into the internal functions
 * of the exact analysis (src/core/analysis/bs_analysis_internal.h), defined in
 * test/unit/analysis/analysis_internal.c; not part of the library.
 */
#ifndef ANALYSIS_INTERNAL_H
#define ANALYSIS_INTERNAL_H

#include <stdint.h>

#include "analysis/bs_analysis.h"

bs_status	bs_test_classic_bound_ln(int64_t m, int64_t n, int64_t k, long double stop_ln,
									 long double *ln_out, int *partial, bs_error *err);
long double bs_test_bound_stop(int64_t m, long double threshold);
int			bs_test_bound_certifies(int64_t m, long double lb, long double threshold);
long double bs_test_bound_allowance(long double lb);

#endif							/* ANALYSIS_INTERNAL_H */
