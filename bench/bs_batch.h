/*
 * bs_batch.h — many values of one width added to, or tested against, one
 * filter in a single call (bs_batch.c).
 */
#ifndef BS_BATCH_H
#define BS_BATCH_H

#include "bs_bloom.h"

/*
 * Add the n values at keys, each width bytes and laid end to end, to the
 * filter; counts them in items.  The same bits as n calls of bs_bloom_add.
 */
void		bs_bloom_add_batch(bs_bloom *filter, const bs_probe *probe,
							   const void *keys, size_t width, size_t n);

/*
 * Test the n values at keys (laid out as for bs_bloom_add_batch); maybe[i]
 * is what bs_bloom_test answers for value i (maybe may be NULL).  Returns
 * how many answered true.
 */
size_t		bs_bloom_test_batch(const bs_bloom *filter, const bs_probe *probe,
								const void *keys, size_t width, size_t n,
								bool *maybe);

#endif							/* BS_BATCH_H */
