/*
 * bs_batch.h — many values added to, tested against or estimated from one
 * filter or sketch in a single call, their cache misses overlapped
 * (bs_batch.c for filters, bs_cms_batch.c for sketches).
 *
 * Every call gives the bits, counters and answers of the per-value calls
 * (bs_bloom_add, bs_bloom_test, bs_cms_add_inline, bs_cms_estimate_inline)
 * value by value, and polls for interrupts once per BS_BATCH_CHUNK values.
 */
#ifndef BS_BATCH_H
#define BS_BATCH_H

#include "bs_bloom.h"
#include "bs_cms.h"

/* Values between two interrupt polls; the SQL layer hashes this many at a time. */
#define BS_BATCH_CHUNK 1024

/* One value's canonical bytes, for the calls over values of any length. */
typedef struct bs_key
{
	const void *data;
	size_t		length;
} bs_key;

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

/* estimates[i] = the estimate of bs_cms_estimate_inline for keys[i]. */
void		bs_cms_estimate_keys(const bs_cms *cms, const bs_cms_probe *probe,
								 const bs_key *keys, size_t n, uint64_t *estimates);

/*
 * Add count occurrences of each of the n values, in order, as n calls of
 * bs_cms_add_inline would.  Returns n, or the index of the first value that
 * bs_cms_add_inline refuses (its total or a counter would pass 2^64 - 1):
 * the sketch then holds the values before it, and that value is not added.
 */
size_t		bs_cms_add_keys(bs_cms *cms, const bs_cms_probe *probe,
							const bs_key *keys, size_t n, uint64_t count);

#endif							/* BS_BATCH_H */
