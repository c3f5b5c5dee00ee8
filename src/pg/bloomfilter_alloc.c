/*
 * bloomfilter_alloc.c — what makes an empty filter: the probing scheme named
 * by its SQL argument, the sizing for a capacity and rate (remembered), and
 * the zeroed value itself.
 */
#include "bloomsketch.h"

#include "utils/builtins.h"

#include "../core/analysis/bs_scheme_sizing.h"

bs_bloom *
bs_bloom_alloc(MemoryContext context, uint8 scheme, uint64 bits, uint32 hashes,
			   uint64 seed)
{
	bs_bloom   *filter = bs_alloc_value(context, bs_bloom_total_bytes(bits), "bloomfilter");

	bs_bloom_init_scheme(filter, (bs_scheme) scheme, bits, hashes, seed);
	return filter;
}

/*
 * A block of the blocked scheme is 64 bytes: only a bit array that starts on
 * a cache-line boundary keeps each block on one line, so that setting a
 * value's bits misses once and one prefetch covers it.  A plain palloc'd
 * filter's words start 40 bytes past a 16-byte-aligned chunk, so most blocks
 * would straddle two lines.
 */
#define CACHE_LINE_BYTES 64

bs_bloom *
bs_bloom_alloc_line_aligned(MemoryContext context, uint8 scheme, uint64 bits,
							uint32 hashes, uint64 seed)
{
	uint64		size = bs_bloom_total_bytes(bits);
	char	   *chunk = bs_alloc_value(context, size + CACHE_LINE_BYTES, "bloomfilter");
	uintptr_t	words = (uintptr_t) chunk + offsetof(bs_bloom, words);
	bs_bloom   *filter;

	words = (words + CACHE_LINE_BYTES - 1) & ~(uintptr_t) (CACHE_LINE_BYTES - 1);
	filter = (bs_bloom *) (words - offsetof(bs_bloom, words));
	SET_VARSIZE(filter, size);
	bs_bloom_init_scheme(filter, (bs_scheme) scheme, bits, hashes, seed);
	return filter;
}

/*
 * Exact sizing takes a few milliseconds (bs_sizing.c); a query that creates
 * filters row by row asks the same question again and again, so the last few
 * answers are remembered for the life of the backend (sizing is a pure
 * function of its arguments).
 */
#define SIZING_MEMORY 16

typedef struct SizingAnswer
{
	uint8		scheme;
	int64		capacity;
	double		fpr;
	uint64		bits;
	uint32		hashes;
} SizingAnswer;

void
bs_size_or_error(uint8 scheme, int64 capacity, double fpr, uint64 *bits,
				 uint32 *hashes)
{
	static SizingAnswer answers[SIZING_MEMORY];
	static int	used = 0;
	static int	next = 0;
	bs_error	err;
	uint64_t	m;
	uint32_t	k;

	for (int i = 0; i < used; i++)
	{
		if (answers[i].scheme == scheme && answers[i].capacity == capacity &&
			answers[i].fpr == fpr)
		{
			*bits = answers[i].bits;
			*hashes = answers[i].hashes;
			return;
		}
	}
	if (bs_bloom_size_scheme(scheme, capacity, fpr, &m, &k, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	answers[next].scheme = scheme;
	answers[next].capacity = capacity;
	answers[next].fpr = fpr;
	answers[next].bits = m;
	answers[next].hashes = k;
	next = (next + 1) % SIZING_MEMORY;
	if (used < SIZING_MEMORY)
		used++;
	*bits = m;
	*hashes = k;
}

uint8
bs_scheme_or_error(text *name)
{
	char	   *given = text_to_cstring(name);
	uint8		scheme;

	if (!bs_scheme_parse(given, &scheme))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("unknown bloomfilter probing scheme \"%s\"", given),
				 errhint("The schemes are double (the default), double_square, double_cube, partition, independent and blocked.")));
	if (scheme > BS_SCHEME_LAST)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("bloomfilter scheme \"%s\" is chosen by bloom_fit_agg, not by capacity", given),
				 errdetail("Filters of the fit scheme size themselves from the values they receive."),
				 errhint("Use bloom_fit_agg(value, fpr), or one of the schemes double, double_square, double_cube, partition, independent and blocked.")));
	pfree(given);
	return scheme;
}
