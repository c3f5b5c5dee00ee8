/*
 * bs_batch_key.h — what the batch calls of every type share: one value's
 * canonical bytes, and how many values they take between interrupt polls
 * (bloom/bs_batch.h, cms/bs_cms_batch.h).
 */
#ifndef BS_BATCH_KEY_H
#define BS_BATCH_KEY_H

#include <stddef.h>

/* Values between two interrupt polls; the SQL layer hashes this many at a time. */
#define BS_BATCH_CHUNK 1024

/* One value's canonical bytes, for the calls over values of any length. */
typedef struct bs_key
{
	const void *data;
	size_t		length;
} bs_key;

#endif							/* BS_BATCH_KEY_H */
