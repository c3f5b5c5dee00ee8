/*
 * test_fit.h — the parts of test_fit (test_fit.c, test_fit_size.c).
 */
#ifndef BS_TEST_FIT_H
#define BS_TEST_FIT_H

/* The analytic check of the sizes bloom_fit_agg chooses (test_fit_size.c). */
void		test_fit_size_model(void);

#endif							/* BS_TEST_FIT_H */
