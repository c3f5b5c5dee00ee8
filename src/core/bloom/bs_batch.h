/*
 * bs_batch.h — many values added to or tested against one filter in a single
 * call, their cache misses overlapped (bs_batch.c; cms/bs_cms_batch.h does
 * the same for sketches).
 *
 * Every call gives the bits and answers of the per-value calls
 * (bs_bloom_add, bs_bloom_test) value by value, and polls for interrupts
 * once per BS_BATCH_CHUNK values.
 */
#ifndef BS_BATCH_H
#define BS_BATCH_H

#include "bloom/bs_bloom.h"
#include "common/bs_batch_key.h"

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

/* bs_bloom_add_batch for n values of any lengths. */
void		bs_bloom_add_keys(bs_bloom *filter, const bs_probe *probe,
							  const bs_key *keys, size_t n);

/* bs_bloom_test_batch for n values of any lengths. */
size_t		bs_bloom_test_keys(const bs_bloom *filter, const bs_probe *probe,
							   const bs_key *keys, size_t n, bool *maybe);

#endif							/* BS_BATCH_H */
