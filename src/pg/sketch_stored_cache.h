/*
 * sketch_stored_cache.h — detoasted copies of stored filters and sketches, per call
 * site (sketch_stored_cache.c).
 */
#ifndef SKETCH_STORED_CACHE_H
#define SKETCH_STORED_CACHE_H

#include "postgres.h"
#include "pg_compat.h"

#include "fmgr.h"

/* Checks a detoasted value's shape, raising an error when it is corrupt. */
typedef void (*StoredShapeCheck) (const struct varlena *value);

typedef struct StoredCache StoredCache;

/*
 * The argument's value, detoasted: in place when it is plain, else from the
 * call site's cache, which detoasts each stored value once per transaction.
 * The cache lives in *cache (NULL at first) in the function's memory context.
 */
const struct varlena *bs_stored_value_arg(FunctionCallInfo fcinfo, int arg,
										  StoredCache **cache, StoredShapeCheck check);

#endif							/* SKETCH_STORED_CACHE_H */
