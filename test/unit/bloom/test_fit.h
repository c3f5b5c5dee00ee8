/*
 * test_fit.h — the parts of test_fit (test_fit.c, test_fit_size.c).
 */
#ifndef BS_TEST_FIT_H
#define BS_TEST_FIT_H

#include <stdbool.h>
#include <stdint.h>

/* The hash pairs of the integers from .. from + count - 1 (seed 0), malloc'd. */
uint64_t   *pairs_of_range(uint64_t from, uint64_t count);

/*
 * The filter of a group given as a hash list, as bloom_fit_agg's final
 * function builds it (*words_out malloc'd); returns its m.
 */
uint64_t	fit_build(const uint64_t *pairs, uint64_t count, uint32_t k, double fpr,
					  uint64_t ceiling, uint64_t **words_out, bool *met);

/* The analytic check of the sizes bloom_fit_agg chooses (test_fit_size.c). */
void		test_fit_size_model(void);

/* The sizes of real groups, from hash lists and from the ceiling's bits (test_fit_size.c). */
void		test_fit_group_sizes(void);

#endif							/* BS_TEST_FIT_H */
