/*
 * test_analysis.h — what the files of test_analysis share: the core's
 * headers, the checker and the helpers of test_analysis.c, and the groups
 * of checks (A to L) that main() in test_analysis.c runs.
 */
#ifndef BS_TEST_ANALYSIS_H
#define BS_TEST_ANALYSIS_H

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis_internal.h"
#include "analysis/bs_analysis.h"
#include "bloom/bs_bloom.h"
#include "bloom/bs_probe.h"
#include "analysis/bs_rate_chain_step.h"
#include "common/bs_primes.h"
#include "analysis/bs_sizing.h"

typedef long double ld;

#define LN10 2.302585092994045684017991454684364208L

/* the checker and helpers (test_analysis.c) */
extern long checks;
extern long failures;
void		check(int ok, const char *format,...);
double		now_ms(void);
const char *cname(bs_construction c);
ld			lib_ln(int64_t m, int64_t n, int64_t k, bs_construction c, int *ok);
ld			rel_diff_ln(ld a, ld b);
ld			timed_ln(int64_t m, int64_t n, int64_t k, bs_construction c, int *ok);

/* test_analysis_rates.c: A. the reference file, B. occupancy chains, C. bounds */
void		test_reference(FILE *f);
void		test_chains(void);
void		test_bounds(void);

/* test_analysis_optimal.c: D, D2. optimal k, E. optimal bits */
void		test_optimal_k(void);
void		test_optimal_k_tiny(void);
void		test_optimal_bits(void);

/* test_analysis_api.c: F. API details */
void		test_api(void);

/* test_analysis_chain.c: H. the vectorised chain step, K. the chain's lower bound */
void		test_chain_step(void);
void		test_lower_bound(void);

/* test_analysis_sizing.c: I. remembered rates, J. prime bits, L. the kept block */
void		test_sizing_memo(void);
void		test_prime_bits(void);
void		test_kept_block(void);

#endif							/* BS_TEST_ANALYSIS_H */
