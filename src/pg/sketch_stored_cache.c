/*
 * sketch_stored_cache.c — detoasted copies of stored filters and sketches, kept per
 * call site of bloom_contains and cms_estimate.
 *
 * Those functions are called once per row, often with the same stored value
 * on every row (a scalar subquery, a join against a table of daily filters).
 * A stored filter or sketch of any useful size arrives TOASTed, and
 * detoasting it per row would cost its whole size per row.  So each call
 * site keeps the detoasted copies of the values it has seen.
 *
 * A copy is found again by the value's raw datum, never by an address: an
 * on-disk TOAST pointer names its value by (toast relation, value id), and an
 * inline compressed datum is its own content, so equal raw bytes mean an
 * equal value.  A TOAST value id could only name other content after the
 * value was deleted and vacuumed away, which cannot happen while the
 * transaction that saw it runs; a call site can outlive its transaction (a
 * PL/pgSQL function's cached plan), so the cache forgets everything when the
 * transaction changes.
 *
 * Budget: work_mem for all copies of a call site, the least recently used
 * dropped first; the copy in use is always kept, so a value larger than
 * work_mem probed on every row is still detoasted only once.
 */
#include "sketch_stored_cache.h"

#include "access/detoast.h"
#include "access/xact.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/memutils.h"

/* Raw datums up to this size (inline compressed values) are cache keys. */
#define RAW_KEY_LIMIT 65536
/* Values remembered per call site at most. */
#define STORED_ENTRIES 64

typedef struct StoredEntry
{
	struct varlena *raw;		/* the raw datum's bytes; NULL if unused */
	Size		raw_size;
	uint32		raw_hash;
	struct varlena *value;		/* its detoasted copy */
	uint64		last_use;
} StoredEntry;

struct StoredCache
{
	MemoryContext context;
	uint64		transaction;	/* stored_transaction() the entries belong to */
	Size		bytes;			/* of all copies */
	uint64		uses;
	StoredEntry *last_hit;
	StoredEntry entries[STORED_ENTRIES];
};

/*
 * A number that changes whenever a transaction of this backend ends, kept by
 * a transaction callback (registered on first use).
 */
static uint64 transaction_epoch = 0;
static bool epoch_callback_registered = false;

static void
advance_epoch(XactEvent event, void *arg pg_attribute_unused())
{
	if (event == XACT_EVENT_COMMIT || event == XACT_EVENT_ABORT ||
		event == XACT_EVENT_PARALLEL_COMMIT || event == XACT_EVENT_PARALLEL_ABORT ||
		event == XACT_EVENT_PREPARE)
		transaction_epoch++;
}

static uint64
stored_transaction(void)
{
	if (!epoch_callback_registered)
	{
		RegisterXactCallback(advance_epoch, NULL);
		epoch_callback_registered = true;
	}
	return transaction_epoch;
}

static void
forget_entry(StoredCache *cache, StoredEntry *entry)
{
	cache->bytes -= VARSIZE(entry->value);
	pfree(entry->value);
	pfree(entry->raw);
	entry->raw = NULL;
	entry->value = NULL;
	if (cache->last_hit == entry)
		cache->last_hit = NULL;
}

static void
forget_all(StoredCache *cache)
{
	for (int i = 0; i < STORED_ENTRIES; i++)
		if (cache->entries[i].raw != NULL)
			forget_entry(cache, &cache->entries[i]);
}

static bool
entry_matches(const StoredEntry *entry, const struct varlena *raw, Size raw_size,
			  uint32 raw_hash)
{
	return entry->raw != NULL && entry->raw_hash == raw_hash &&
		entry->raw_size == raw_size && memcmp(entry->raw, raw, raw_size) == 0;
}

static StoredEntry *
find_entry(StoredCache *cache, const struct varlena *raw, Size raw_size, uint32 raw_hash)
{
	for (int i = 0; i < STORED_ENTRIES; i++)
		if (entry_matches(&cache->entries[i], raw, raw_size, raw_hash))
			return &cache->entries[i];
	return NULL;
}

/* Make room for `size` more bytes within work_mem, and return a free entry. */
static StoredEntry *
free_entry(StoredCache *cache, Size size)
{
	Size		budget = (Size) work_mem * 1024;

	for (;;)
	{
		StoredEntry *oldest = NULL;
		StoredEntry *unused = NULL;

		for (int i = 0; i < STORED_ENTRIES; i++)
		{
			StoredEntry *entry = &cache->entries[i];

			if (entry->raw == NULL)
				unused = entry;
			else if (oldest == NULL || entry->last_use < oldest->last_use)
				oldest = entry;
		}
		if (oldest == NULL || (unused != NULL && cache->bytes + size <= budget))
			return unused;
		forget_entry(cache, oldest);
	}
}

const struct varlena *
bs_stored_value_arg(FunctionCallInfo fcinfo, int arg, StoredCache **cachep,
					StoredShapeCheck check)
{
	struct varlena *raw = (struct varlena *) PG_GETARG_POINTER(arg);
	StoredCache *cache = *cachep;
	StoredEntry *entry;
	Size		raw_size;
	uint32		raw_hash;
	uint64		transaction;
	MemoryContext old;

	if (!VARATT_IS_EXTENDED(raw))
	{
		check(raw);
		return raw;
	}
	if (VARATT_IS_EXTERNAL_ONDISK(raw))
		raw_size = VARSIZE_EXTERNAL(raw);
	else if (VARATT_IS_COMPRESSED(raw) && VARSIZE(raw) <= RAW_KEY_LIMIT)
		raw_size = VARSIZE(raw);
	else
	{
		/* short inline values are cheap; in-memory values have no stable key */
		struct varlena *value = PG_DETOAST_DATUM(PointerGetDatum(raw));

		check(value);
		return value;
	}

	if (cache == NULL)
	{
		cache = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(StoredCache));
		cache->context = fcinfo->flinfo->fn_mcxt;
		cache->transaction = stored_transaction();
		*cachep = cache;
	}
	transaction = stored_transaction();
	if (cache->transaction != transaction)
	{
		forget_all(cache);
		cache->transaction = transaction;
	}

	/* most calls pass the value of the call before: no hashing for that */
	entry = cache->last_hit;
	if (entry != NULL && entry->raw_size == raw_size && memcmp(entry->raw, raw, raw_size) == 0)
		return entry->value;
	raw_hash = hash_bytes((const unsigned char *) raw, (int) raw_size);
	entry = find_entry(cache, raw, raw_size, raw_hash);
	if (entry == NULL)
	{
		struct varlena *value;

		old = MemoryContextSwitchTo(cache->context);
		value = detoast_attr(raw);
		MemoryContextSwitchTo(old);
		check(value);

		entry = free_entry(cache, VARSIZE(value));
		entry->raw = MemoryContextAlloc(cache->context, raw_size);
		memcpy(entry->raw, raw, raw_size);
		entry->raw_size = raw_size;
		entry->raw_hash = raw_hash;
		entry->value = value;
		cache->bytes += VARSIZE(value);
	}
	entry->last_use = ++cache->uses;
	cache->last_hit = entry;
	return entry->value;
}
