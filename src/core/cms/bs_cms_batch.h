/*
 * bs_cms_batch.h — many values added to or estimated from one count-min
 * sketch in a single call, their cache misses overlapped (bs_cms_batch.c).
 *
 * Every call gives the counters and answers of the per-value calls
 * (bs_cms_add_inline, bs_cms_estimate_inline) value by value, and polls for
 * interrupts once per BS_BATCH_CHUNK values.
 */
#ifndef BS_CMS_BATCH_H
#define BS_CMS_BATCH_H

#include "cms/bs_cms.h"
#include "common/bs_batch_key.h"

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

#endif							/* BS_CMS_BATCH_H */
