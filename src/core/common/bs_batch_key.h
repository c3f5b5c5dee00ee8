/*
 * bs_batch_key.h — what the batch calls of every type share: one value's
 * canonical bytes, how many values they take between interrupt polls
 * (bloom/bs_batch.h, cms/bs_cms_batch.h), and how many cache lines a value
 * may prefetch.
 */
#ifndef BS_BATCH_KEY_H
#define BS_BATCH_KEY_H

#include <stddef.h>

/* At most this many lines are prefetched per value (k can reach 1024). */
#define BS_PREFETCH_LIMIT 16

/* Values between two interrupt polls; the SQL layer hashes this many at a time. */
#define BS_BATCH_CHUNK 1024

/* One value's canonical bytes, for the calls over values of any length. */
typedef struct bs_key
{
	const void *data;
	size_t		length;
} bs_key;

#endif							/* BS_BATCH_KEY_H */
