/*
 * probe_variants.h — a prototype of changes to src/core/bloom/bs_probe.h, for
 * bench/core_throughput.c to measure against the library as it is.  Locate,
 * set and test are the library's own; only how the prefetch is compiled and
 * what it fetches differ:
 *
 * 1. pv_probe_prefetch is always inlined.  As a plain static inline function
 *    GCC 12 (-O2) finds bs_probe_prefetch side-effect free (it models
 *    __builtin_prefetch as touching no memory), marks it "pure" and deletes
 *    any call it does not inline, and it does not inline it into
 *    bloom_agg_trans's pipeline_push: the server's pipeline prefetches
 *    nothing (objdump -d src/pg/bloomfilter_agg.o shows no prefetch outside
 *    XXH3's own).  Forcing the inlining keeps the prefetches.
 * 2. The blocked scheme prefetches both lines of its block: the words start
 *    40 bytes into a line when the filter is line-aligned (the 40-byte
 *    header), so every 64-byte block straddles two lines (24 + 40 bytes) and
 *    a value with k = 6 bits touches both with probability 1 - (3/8)^6 -
 *    (5/8)^6, about 94%; the library prefetches only the first.
 */
#ifndef PROBE_VARIANTS_H
#define PROBE_VARIANTS_H

#include "bloom/bs_probe.h"

#define PV_VARIANT_NAME "prefetch kept"

#define pv_probe_locate bs_probe_locate
#define pv_probe_set bs_probe_set
#define pv_probe_test bs_probe_test

static inline __attribute__((always_inline)) void
pv_probe_prefetch(const bs_bloom *filter, const bs_probe *probe, uint64_t first,
				  uint64_t step)
{
	uint64_t	position = first;
	uint32_t	count = probe->hashes < BS_PREFETCH_LIMIT ? probe->hashes : BS_PREFETCH_LIMIT;

	if (probe->scheme == BS_SCHEME_BLOCKED)
	{
		const uint64_t *block = &filter->words[first * BS_BLOCK_WORDS];

		__builtin_prefetch(block, 1, 3);
#ifndef PV_BLOCK_FIRST_LINE_ONLY	/* -D it to measure change 1 alone */
		__builtin_prefetch(block + BS_BLOCK_WORDS - 1, 1, 3);
#endif
		return;
	}
	if (probe->scheme != BS_SCHEME_DOUBLE)
		return;					/* not worth it for the experimental schemes */
	for (uint32_t i = 0; i < count; i++)
	{
		__builtin_prefetch(&filter->words[position >> 6], 1, 3);
		position += step;
		if (position >= probe->bits)
			position -= probe->bits;
	}
}

#endif							/* PROBE_VARIANTS_H */
