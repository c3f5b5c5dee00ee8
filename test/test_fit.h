/*
 * test_fit.h — the parts of test_fit (test_fit.c, test_fit_size.c).
 */
#ifndef BS_TEST_FIT_H
#define BS_TEST_FIT_H

#include <stdint.h>

/* The smallest filter of any probing scheme (bloom_create's sizings) for n at fpr, in bits. */
double		smallest_any_scheme(uint64_t n, double fpr);

/* The analytic check of the sizes bloom_fit_agg chooses (test_fit_size.c). */
void		test_fit_size_model(void);

#endif							/* BS_TEST_FIT_H */
