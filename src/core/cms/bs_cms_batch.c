/*
 * bs_cms_batch.c — many values added to, or estimated from, one count-min
 * sketch, with their cache misses overlapped.
 *
 * A value's d counters lie in d rows, each row a cache line of its own once
 * the sketch outgrows the caches.  As for filters (bloom/bs_batch.c), the value j
 * is located and its lines prefetched before the counters of value
 * j - RING are read or added, so that the misses of RING values overlap.
 * Sketches of one copy only (the sizing of cms_create gives one copy up to
 * delta = e^-65535, that is always in practice): a value of several copies
 * is located copy by copy, and those sketches take the per-value path.
 * The counters and estimates are those of bs_cms_add_inline and
 * bs_cms_estimate_inline value by value (test_cms checks it).
 */
#include "cms/bs_cms_batch.h"
#include "cms/bs_cms_probe.h"

/* Values in flight: 16 values of up to BS_PREFETCH_LIMIT lines saturate the memory system. */
#define CMS_RING 16

typedef struct cms_ring
{
	uint64_t	column[CMS_RING];
	uint64_t	step[CMS_RING];
} cms_ring;

/* Prefetch, for writing, the lines of the first BS_PREFETCH_LIMIT rows of a located value. */
static BS_ALWAYS_INLINE void
prefetch_rows(const bs_cms *cms, const bs_cms_probe *probe, uint64_t column, uint64_t step)
{
	const uint64_t *counters = cms->counters;
	uint64_t	width = probe->width;
	uint32_t	rows = probe->depth < BS_PREFETCH_LIMIT ? probe->depth : BS_PREFETCH_LIMIT;

	for (uint32_t j = 0; j < rows; j++)
	{
		__builtin_prefetch(&counters[column], 1, 3);
		counters += width;
		column += step;
		column = column >= width ? column - width : column;
	}
}

/* Locate value j of copy 0 and prefetch its rows; returns its ring slot. */
static BS_ALWAYS_INLINE uint32_t
locate_ahead(const bs_cms *cms, const bs_cms_probe *probe, const bs_key *keys, size_t j,
			 cms_ring *ring)
{
	uint32_t	slot = (uint32_t) j & (CMS_RING - 1);

	bs_cms_locate_inline(probe, 0, keys[j].data, keys[j].length, &ring->column[slot],
						 &ring->step[slot]);
	prefetch_rows(cms, probe, ring->column[slot], ring->step[slot]);
	return slot;
}

/* The values of chunk `from` onwards: how many, after an interrupt poll. */
static size_t
next_chunk(size_t from, size_t n)
{
	bs_poll_interrupts();
	return n - from > BS_BATCH_CHUNK ? BS_BATCH_CHUNK : n - from;
}

static void
estimate_chunk(const bs_cms *cms, const bs_cms_probe *probe, const bs_key *keys, size_t n,
			   uint64_t *estimates)
{
	cms_ring	ring;
	size_t		j;

	if (probe->copies != 1)
	{
		for (j = 0; j < n; j++)
			estimates[j] = bs_cms_estimate_inline(cms, probe, keys[j].data, keys[j].length);
		return;
	}
	for (j = 0; j < n + CMS_RING; j++)
	{
		/* value j enters the ring; value j - CMS_RING, whose lines have come, leaves it */
		if (j >= CMS_RING)
		{
			uint32_t	slot = (uint32_t) (j - CMS_RING) & (CMS_RING - 1);

			estimates[j - CMS_RING] = bs_cms_min_rows(cms->counters, probe->width, probe->depth,
													  ring.column[slot], ring.step[slot],
													  UINT64_MAX);
		}
		if (j < n)
			(void) locate_ahead(cms, probe, keys, j, &ring);
	}
}

void
bs_cms_estimate_keys(const bs_cms *cms, const bs_cms_probe *probe, const bs_key *keys,
					 size_t n, uint64_t *estimates)
{
	for (size_t from = 0, count; from < n; from += count)
	{
		count = next_chunk(from, n);
		estimate_chunk(cms, probe, keys + from, count, estimates + from);
	}
}

/* Add count to one located value of copy 0, as bs_cms_add_inline does; false when it refuses. */
static bool
add_located(bs_cms *cms, const bs_cms_probe *probe, const bs_key *key, uint64_t column,
			uint64_t step, uint64_t count)
{
	if (cms->total > UINT64_MAX - count)
		return false;
	if (bs_cms_add_rows(cms->counters, probe->width, probe->depth, column, step, count,
						true) != 0)
	{
		bs_cms_undo_add(cms, probe, key->data, key->length, count);
		return false;
	}
	cms->total += count;
	return true;
}

/* bs_cms_add_keys for one chunk: n, or the index of the value refused. */
static size_t
add_chunk(bs_cms *cms, const bs_cms_probe *probe, const bs_key *keys, size_t n,
		  uint64_t count)
{
	cms_ring	ring;
	size_t		j;

	if (probe->copies != 1)
	{
		for (j = 0; j < n; j++)
			if (!bs_cms_add_inline(cms, probe, keys[j].data, keys[j].length, count))
				return j;
		return n;
	}
	for (j = 0; j < n + CMS_RING; j++)
	{
		if (j >= CMS_RING)
		{
			size_t		done = j - CMS_RING;
			uint32_t	slot = (uint32_t) done & (CMS_RING - 1);

			if (!add_located(cms, probe, &keys[done], ring.column[slot], ring.step[slot], count))
				return done;
		}
		if (j < n)
			(void) locate_ahead(cms, probe, keys, j, &ring);
	}
	return n;
}

size_t
bs_cms_add_keys(bs_cms *cms, const bs_cms_probe *probe, const bs_key *keys, size_t n,
				uint64_t count)
{
	for (size_t from = 0, count_here; from < n; from += count_here)
	{
		size_t		added;

		count_here = next_chunk(from, n);
		added = add_chunk(cms, probe, keys + from, count_here, count);
		if (added < count_here)
			return from + added;
	}
	return n;
}
