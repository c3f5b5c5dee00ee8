/*
 * bloomfilter_probe.c — bloom_contains, its operators, and bloom_add.
 *
 * bloom_contains is called once per row, often with the same filter on every
 * row (a literal, $1, or a scalar subquery that fetched it from a table).  A
 * stored filter of any size arrives TOASTed, so detoasting it per row would
 * cost O(m) per row.  The cache below keeps the detoasted filter for as long
 * as the raw datum is the same: an on-disk TOAST pointer names its value by
 * (toast relation, value id), and an inline compressed datum is its own bytes,
 * so comparing those few raw bytes identifies the value exactly.  Up to 256
 * such filters (64 MB, or work_mem if larger) are kept per call site, for
 * joins that alternate between stored filters.  A large one (4 MB and more)
 * is kept on huge pages with its bit array on a cache line; stored without
 * compression, it is read from its TOAST table straight into that place.
 * Plain values need no detoasting; large constant ones are still copied once
 * into huge-page memory, others get only the O(1) shape check.
 */
#include "bloomsketch.h"

#include "../core/bs_probe.h"

#include "access/detoast.h"
#include "access/table.h"
#include "access/tableam.h"
#include "common/hashfn.h"
#include "utils/memutils.h"

/* Raw datums up to this size are compared byte for byte to find a cache hit. */
#define RAW_CACHE_LIMIT 65536
/* Plain constant filters at least this large get a huge-page copy. */
#define COPY_THRESHOLD (4 * 1024 * 1024)

/*
 * Stored filters remembered per call site.  A join that probes several
 * stored filters in turn (one per day, say) finds each of them here instead
 * of detoasting it again; the least recently used one is dropped when there
 * are too many or they take more than bs_stored_cache_budget().
 */
#define CACHED_FILTERS 256

typedef struct CachedFilter
{
	struct varlena *raw;		/* the raw datum's bytes, NULL if unused */
	Size		raw_size;
	uint32		raw_hash;		/* hash of those bytes, compared first */
	bs_bloom   *filter;			/* its private, detoasted copy */
	void	   *chunk;			/* what to pfree for it */
	uint64		last_use;
} CachedFilter;

typedef struct ProbeCache
{
	Oid			value_type;		/* InvalidOid until the first call */
	ValueKind	kind;
	CachedFilter stored[CACHED_FILTERS];
	Size		stored_bytes;
	uint64		uses;
	CachedFilter *last_hit;		/* checked first: most calls repeat it */
	/* a large constant or parameter, copied once */
	Datum		stable_datum;
	bs_bloom   *stable_copy;
	void	   *stable_chunk;	/* what to pfree for it */
	/* probing constants for the filter seen last */
	bool		probe_ready;
	bs_probe	probe;
} ProbeCache;

static ProbeCache *
probe_cache(FunctionCallInfo fcinfo, int value_arg)
{
	ProbeCache *cache = (ProbeCache *) fcinfo->flinfo->fn_extra;
	Oid			type = get_fn_expr_argtype(fcinfo->flinfo, value_arg);

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(ProbeCache));
		fcinfo->flinfo->fn_extra = cache;
	}
	if (cache->value_type != type || type == InvalidOid)
	{
		value_kind_init(&cache->kind, type, fcinfo->flinfo->fn_mcxt);
		cache->value_type = type;
	}
	return cache;
}

static void
check_shape_or_error(const bs_bloom *filter)
{
	bs_error	err;

	if (bs_bloom_check_shape(filter, VARSIZE(filter), &err) != BS_OK)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("%s", err.message),
				 errdetail("%s", err.detail)));
}

/*
 * Keep a private copy of a large filter for the rest of the query, on huge
 * pages (probes hit random words, and with 4 kB pages most of them would miss
 * the TLB) and with its bit array on a cache-line boundary (a block of the
 * blocked scheme is then one line, not two).  *chunk is what to pfree.
 */
static bs_bloom *
keep_copy(FunctionCallInfo fcinfo, const bs_bloom *filter, void **chunk)
{
	check_shape_or_error(filter);
	return bs_bloom_copy_aligned(fcinfo->flinfo->fn_mcxt, filter, chunk);
}

static void
forget_stored(ProbeCache *cache, CachedFilter *entry)
{
	cache->stored_bytes -= VARSIZE(entry->filter);
	pfree(entry->chunk);
	pfree(entry->raw);
	entry->raw = NULL;
	entry->filter = NULL;
	entry->chunk = NULL;
}

/* The cached copy of a stored filter with these raw bytes, or NULL. */
static bs_bloom *
find_stored(ProbeCache *cache, const struct varlena *raw, Size raw_size, uint32 raw_hash)
{
	for (int i = 0; i < CACHED_FILTERS; i++)
	{
		CachedFilter *entry = &cache->stored[i];

		if (entry->raw_hash == raw_hash && entry->raw != NULL && entry->raw_size == raw_size &&
			memcmp(entry->raw, raw, raw_size) == 0)
		{
			entry->last_use = ++cache->uses;
			cache->last_hit = entry;
			return entry->filter;
		}
	}
	return NULL;
}

/* Remember a detoasted filter, dropping the least recently used ones as needed. */
static void
remember_stored(FunctionCallInfo fcinfo, ProbeCache *cache,
				const struct varlena *raw, Size raw_size, uint32 raw_hash,
				bs_bloom *filter, void *chunk)
{
	CachedFilter *slot = NULL;
	Size		budget = bs_stored_cache_budget();

	for (;;)
	{
		CachedFilter *oldest = NULL;
		int			used = 0;

		for (int i = 0; i < CACHED_FILTERS; i++)
		{
			CachedFilter *entry = &cache->stored[i];

			if (entry->raw == NULL)
				continue;
			used++;
			if (oldest == NULL || entry->last_use < oldest->last_use)
				oldest = entry;
		}
		if (oldest == NULL ||
			(used < CACHED_FILTERS && cache->stored_bytes + VARSIZE(filter) <= budget))
			break;
		forget_stored(cache, oldest);
	}
	for (int i = 0; i < CACHED_FILTERS && slot == NULL; i++)
		if (cache->stored[i].raw == NULL)
			slot = &cache->stored[i];
	slot->raw = MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, raw_size);
	memcpy(slot->raw, raw, raw_size);
	slot->raw_size = raw_size;
	slot->raw_hash = raw_hash;
	slot->filter = filter;
	slot->chunk = chunk;
	slot->last_use = ++cache->uses;
	cache->stored_bytes += VARSIZE(filter);
	cache->last_hit = slot;
}

/*
 * A large stored filter that is not compressed, read from its TOAST table
 * straight into private aligned room (bs_bloom_room_aligned): one pass over
 * its bytes, where detoasting and then copying it would make two.  NULL for
 * other values.  *chunk is what to pfree.
 */
static bs_bloom *
fetch_uncompressed_aligned(FunctionCallInfo fcinfo, const struct varlena *raw, void **chunk)
{
	struct varatt_external pointer;
	Size		size;
	bs_bloom   *filter;
	Relation	toast;

	if (!VARATT_IS_EXTERNAL_ONDISK(raw))
		return NULL;
	VARATT_EXTERNAL_GET_POINTER(pointer, raw);
	size = VARATT_EXTERNAL_GET_EXTSIZE(pointer) + VARHDRSZ;
	if (VARATT_EXTERNAL_IS_COMPRESSED(pointer) || size < COPY_THRESHOLD)
		return NULL;
	/* an uncompressed value's two sizes agree; a damaged pointer is refused */
	if ((Size) pointer.va_rawsize != size || size > MaxAllocSize)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("stored bloomfilter has a damaged TOAST pointer"),
				 errdetail("It gives a raw size of %d bytes and a stored size of %zu bytes.",
						   pointer.va_rawsize, size)));

	filter = bs_bloom_room_aligned(fcinfo->flinfo->fn_mcxt, size, chunk);
	SET_VARSIZE(filter, size);
	toast = table_open(pointer.va_toastrelid, AccessShareLock);
	table_relation_fetch_toast_slice(toast, pointer.va_valueid, (int32) (size - VARHDRSZ),
									 0, (int32) (size - VARHDRSZ), (struct varlena *) filter);
	table_close(toast, AccessShareLock);
	check_shape_or_error(filter);
	return filter;
}

/*
 * Any other TOASTed filter, detoasted into the function's memory, and copied
 * into aligned room when large.  *chunk is what to pfree.
 */
static bs_bloom *
detoast_private(FunctionCallInfo fcinfo, struct varlena *raw, void **chunk)
{
	MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
	bs_bloom   *filter = (bs_bloom *) detoast_attr(raw);

	MemoryContextSwitchTo(old);
	if (VARSIZE(filter) >= COPY_THRESHOLD)
	{
		bs_bloom   *copy = keep_copy(fcinfo, filter, chunk);

		pfree(filter);
		return copy;
	}
	check_shape_or_error(filter);
	*chunk = filter;
	return filter;
}

/*
 * The filter argument, detoasted and copied at most once per distinct value:
 *  - a TOAST pointer or an inline compressed datum is recognised by its raw
 *    bytes, which identify the stored value exactly;
 *  - a large plain value that is a constant or an external parameter keeps
 *    its address for the whole query (get_fn_expr_arg_stable), so the
 *    address identifies it;
 *  - other plain values are used in place, with an O(1) header check.
 */
static const bs_bloom *
cached_filter_arg(FunctionCallInfo fcinfo, int arg, ProbeCache *cache)
{
	Datum		datum = PG_GETARG_DATUM(arg);
	struct varlena *raw = (struct varlena *) DatumGetPointer(datum);
	Size		raw_size;
	uint32		raw_hash;
	bs_bloom   *filter;
	void	   *chunk;

	if (!VARATT_IS_EXTENDED(raw))
	{
		if (VARSIZE(raw) < COPY_THRESHOLD || !get_fn_expr_arg_stable(fcinfo->flinfo, arg))
		{
			check_shape_or_error((bs_bloom *) raw);
			return (const bs_bloom *) raw;
		}
		if (cache->stable_datum != datum)
		{
			if (cache->stable_chunk != NULL)
				pfree(cache->stable_chunk);
			cache->stable_copy = keep_copy(fcinfo, (bs_bloom *) raw, &cache->stable_chunk);
			cache->stable_datum = datum;
		}
		return cache->stable_copy;
	}
	if (VARATT_IS_EXTERNAL_ONDISK(raw))
		raw_size = VARSIZE_EXTERNAL(raw);
	else if (VARATT_IS_COMPRESSED(raw) && VARSIZE(raw) <= RAW_CACHE_LIMIT)
		raw_size = VARSIZE(raw);
	else
	{
		/* short inline values (cheap) and in-memory pointers: no cache */
		filter = (bs_bloom *) PG_DETOAST_DATUM(datum);
		check_shape_or_error(filter);
		return filter;
	}

	/* the filter of the previous call, recognised without hashing */
	if (cache->last_hit != NULL && cache->last_hit->raw != NULL &&
		cache->last_hit->raw_size == raw_size &&
		memcmp(cache->last_hit->raw, raw, raw_size) == 0)
	{
		cache->last_hit->last_use = ++cache->uses;
		return cache->last_hit->filter;
	}
	raw_hash = hash_bytes((const unsigned char *) raw, (int) raw_size);
	if ((filter = find_stored(cache, raw, raw_size, raw_hash)) != NULL)
		return filter;

	filter = fetch_uncompressed_aligned(fcinfo, raw, &chunk);
	if (filter == NULL)
		filter = detoast_private(fcinfo, raw, &chunk);
	remember_stored(fcinfo, cache, raw, raw_size, raw_hash, filter, chunk);
	return filter;
}

/* Probing constants for this filter, recomputed only when its shape changes. */
static const bs_probe *
cached_probe(ProbeCache *cache, const bs_bloom *filter)
{
	if (!cache->probe_ready || cache->probe.bits != filter->bits ||
		cache->probe.hashes != filter->hashes || cache->probe.seed != filter->seed ||
		cache->probe.scheme != filter->scheme)
	{
		bs_probe_for(&cache->probe, filter);
		cache->probe_ready = true;
	}
	return &cache->probe;
}

static bool
filter_contains(FunctionCallInfo fcinfo, int filter_arg, int value_arg)
{
	ProbeCache *cache = probe_cache(fcinfo, value_arg);
	const bs_bloom *filter = cached_filter_arg(fcinfo, filter_arg, cache);
	CanonicalBytes bytes;
	const bs_probe *probe;
	uint64		first;
	uint64		step;

	check_family(filter, &cache->kind);
	if (filter->family == BS_FAMILY_NONE)
		return false;			/* nothing was ever added */
	canonical_bytes(&cache->kind, PG_GETARG_DATUM(value_arg), &bytes);
	probe = cached_probe(cache, filter);
	if (unlikely(!bs_probe_locatable(probe)))
	{
		bool		found = bs_bloom_test(filter, probe, bytes.data, bytes.length);

		canonical_release(&bytes);
		return found;
	}
	bs_probe_locate(probe, bytes.data, bytes.length, &first, &step);
	canonical_release(&bytes);
	/* one query per row: overlapped loads beat an early exit (bs_probe.h) */
	return bs_probe_test_overlapped(filter, probe, first, step);
}

PG_FUNCTION_INFO_V1(bloom_contains);
/* bloom_contains(filter, value): false means surely absent, true probably present. */
Datum
bloom_contains(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(filter_contains(fcinfo, 0, 1));
}

PG_FUNCTION_INFO_V1(bloom_contained_in);
/* bloom_contained_in(value, filter): bloom_contains with the arguments swapped, for <@. */
Datum
bloom_contained_in(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(filter_contains(fcinfo, 1, 0));
}

PG_FUNCTION_INFO_V1(bloom_add);
/* bloom_add(filter, value): a copy of the filter with the value added; NULL values add nothing. */
Datum
bloom_add(PG_FUNCTION_ARGS)
{
	ProbeCache *cache;
	bs_bloom   *filter;
	CanonicalBytes bytes;

	if (PG_ARGISNULL(0))
		PG_RETURN_NULL();
	if (PG_ARGISNULL(1))
		PG_RETURN_DATUM(PG_GETARG_DATUM(0));

	cache = probe_cache(fcinfo, 1);
	filter = DatumGetBloomP(PG_DETOAST_DATUM_COPY(PG_GETARG_DATUM(0)));
	check_shape_or_error(filter);
	adopt_family(filter, &cache->kind);
	canonical_bytes(&cache->kind, PG_GETARG_DATUM(1), &bytes);
	bs_bloom_add(filter, cached_probe(cache, filter), bytes.data, bytes.length);
	canonical_release(&bytes);
	PG_RETURN_POINTER(filter);
}
