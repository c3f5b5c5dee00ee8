/*
 * core_throughput_lib.c — the loops core_throughput times on the library:
 * its paths as the server calls them (one value at a time, pipelined as
 * bloom_agg does, the batch calls of bs_batch.c), the hash alone, and the
 * prototype of bench/probe_variants.h in the same loops.
 */
#include "probe_variants.h"
#include "core_throughput.h"

/* ---- the library's paths, as the server calls them ---- */

static void
lib_insert(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	bs_bloom   *filter = run->filter;
	int			width = run->width;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;

		bs_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		bs_probe_set(filter, probe, first, step);
		filter->items++;
	}
}

/* The independent scheme: bs_bloom_add, as bloom_agg_trans calls it. */
static void
lib_insert_independent(Run *run, const uint8_t *keys, uint32_t count)
{
	for (uint32_t j = 0; j < count; j++)
		bs_bloom_add(run->filter, &run->probe, keys + (size_t) j * run->width,
					 run->width);
}

static void
lib_insert_pipelined(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	bs_bloom   *filter = run->filter;
	int			width = run->width;
	uint64_t	pushed = run->pushed;
	uint32_t	depth = run->depth;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;
		uint32_t	slot = pushed & (depth - 1);

		bs_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		filter->items++;
		bs_probe_prefetch(filter, probe, first, step);
		if (pushed >= depth)
			bs_probe_set(filter, probe, run->ring_first[slot], run->ring_step[slot]);
		run->ring_first[slot] = first;
		run->ring_step[slot] = step;
		pushed++;
	}
	run->pushed = pushed;
}

static void
lib_flush(Run *run)
{
	uint64_t	depth = run->depth;
	uint64_t	from = run->pushed > depth ? run->pushed - depth : 0;

	for (uint64_t i = from; i < run->pushed; i++)
		bs_probe_set(run->filter, &run->probe, run->ring_first[i & (depth - 1)],
					 run->ring_step[i & (depth - 1)]);
	run->pushed = 0;
}

static void
lib_query(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	const bs_bloom *filter = run->filter;
	int			width = run->width;
	uint64_t	hits = 0;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;

		bs_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		hits += bs_probe_test(filter, probe, first, step);
	}
	run->hits += hits;
}

static void
lib_query_independent(Run *run, const uint8_t *keys, uint32_t count)
{
	uint64_t	hits = 0;

	for (uint32_t j = 0; j < count; j++)
		hits += bs_bloom_test(run->filter, &run->probe,
							  keys + (size_t) j * run->width, run->width);
	run->hits += hits;
}

/*
 * Queries pipelined as bloom_agg pipelines inserts: locate and prefetch a
 * value, test the one located run->depth values earlier.  The server has no
 * such path (bloom_contains answers row by row): this is the core's throughput
 * for a caller that has many values to test.
 */
void
lib_query_pipelined(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	const bs_bloom *filter = run->filter;
	int			width = run->width;
	uint64_t	pushed = run->pushed;
	uint32_t	depth = run->depth;
	uint64_t	hits = 0;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;
		uint32_t	slot = pushed & (depth - 1);

		bs_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		bs_probe_prefetch(filter, probe, first, step);
		if (pushed >= depth)
			hits += bs_probe_test(filter, probe, run->ring_first[slot], run->ring_step[slot]);
		run->ring_first[slot] = first;
		run->ring_step[slot] = step;
		pushed++;
	}
	run->pushed = pushed;
	run->hits += hits;
}

void
lib_query_flush(Run *run)
{
	uint64_t	depth = run->depth;
	uint64_t	from = run->pushed > depth ? run->pushed - depth : 0;

	for (uint64_t i = from; i < run->pushed; i++)
		run->hits += bs_probe_test(run->filter, &run->probe, run->ring_first[i & (depth - 1)],
								   run->ring_step[i & (depth - 1)]);
	run->pushed = 0;
}

/* The core's batch calls: a chunk of keys in one call, each ring drained at its end. */
void
lib_insert_batch(Run *run, const uint8_t *keys, uint32_t count)
{
	bs_bloom_add_batch(run->filter, &run->probe, keys, run->width, count);
}

void
lib_query_batch(Run *run, const uint8_t *keys, uint32_t count)
{
	run->hits += bs_bloom_test_batch(run->filter, &run->probe, keys, run->width, count, NULL);
}

void
hash_alone(Run *run, const uint8_t *keys, uint32_t count)
{
	uint64_t	sink = run->sink;
	int			width = run->width;

	for (uint32_t j = 0; j < count; j++)
	{
		XXH128_hash_t h = bs_hash128(keys + (size_t) j * width, width, SEED);

		sink ^= h.low64 ^ h.high64;
	}
	run->sink = sink;
}

/* ---- the prototype of bench/probe_variants.h, same loops ---- */

static void
variant_insert(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	bs_bloom   *filter = run->filter;
	int			width = run->width;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;

		pv_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		pv_probe_set(filter, probe, first, step);
		filter->items++;
	}
}

static void
variant_insert_pipelined(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	bs_bloom   *filter = run->filter;
	int			width = run->width;
	uint64_t	pushed = run->pushed;
	uint32_t	depth = run->depth;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;
		uint32_t	slot = pushed & (depth - 1);

		pv_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		filter->items++;
		pv_probe_prefetch(filter, probe, first, step);
		if (pushed >= depth)
			pv_probe_set(filter, probe, run->ring_first[slot], run->ring_step[slot]);
		run->ring_first[slot] = first;
		run->ring_step[slot] = step;
		pushed++;
	}
	run->pushed = pushed;
}

static void
variant_flush(Run *run)
{
	uint64_t	depth = run->depth;
	uint64_t	from = run->pushed > depth ? run->pushed - depth : 0;

	for (uint64_t i = from; i < run->pushed; i++)
		pv_probe_set(run->filter, &run->probe, run->ring_first[i & (depth - 1)],
					 run->ring_step[i & (depth - 1)]);
	run->pushed = 0;
}

static void
variant_query(Run *run, const uint8_t *keys, uint32_t count)
{
	const bs_probe *probe = &run->probe;
	const bs_bloom *filter = run->filter;
	int			width = run->width;
	uint64_t	hits = 0;

	for (uint32_t j = 0; j < count; j++)
	{
		uint64_t	first;
		uint64_t	step;

		pv_probe_locate(probe, keys + (size_t) j * width, width, &first, &step);
		hits += pv_probe_test(filter, probe, first, step);
	}
	run->hits += hits;
}

/* ---- the tables of the library's loops ---- */

const SchemeKernels lib_kernels[BS_SCHEME_LAST + 1] = {
	[BS_SCHEME_DOUBLE] = {lib_insert, lib_insert_pipelined, lib_flush, lib_query},
	[BS_SCHEME_DOUBLE_SQUARE] = {lib_insert, lib_insert_pipelined, lib_flush, lib_query},
	[BS_SCHEME_DOUBLE_CUBE] = {lib_insert, lib_insert_pipelined, lib_flush, lib_query},
	[BS_SCHEME_PARTITION] = {lib_insert, lib_insert_pipelined, lib_flush, lib_query},
	[BS_SCHEME_INDEPENDENT] = {lib_insert_independent, NULL, NULL, lib_query_independent},
	[BS_SCHEME_BLOCKED] = {lib_insert, lib_insert_pipelined, lib_flush, lib_query},
};

const SchemeKernels variant_kernels = {
	variant_insert, variant_insert_pipelined, variant_flush, variant_query
};
