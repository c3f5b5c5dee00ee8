/*
 * bloomsketch.c — module entry and helpers shared by the SQL layer.
 */
#include "bloomsketch.h"

#include <sys/mman.h>

#include "miscadmin.h"
#include "utils/memutils.h"

#include "../core/bs_analysis.h"
#include "../core/bs_scheme_sizing.h"
#include "utils/builtins.h"

PG_MODULE_MAGIC;

/* The core's long loops poll this, so a long computation can be cancelled. */
static void
core_interrupt_check(void)
{
	CHECK_FOR_INTERRUPTS();
}

static void *
analysis_alloc(size_t size)
{
	return palloc_extended(size, MCXT_ALLOC_HUGE | MCXT_ALLOC_NO_OOM);
}

static void
analysis_free(void *pointer)
{
	pfree(pointer);
}

/*
 * Module load: let the pure C analysis core allocate with palloc (so an error
 * or a cancel thrown from CHECK_FOR_INTERRUPTS frees its arrays with the
 * memory context) and poll for interrupts.
 */
void
_PG_init(void)
{
	bs_interrupt_check = core_interrupt_check;
	bs_analysis_alloc = analysis_alloc;
	bs_analysis_free = analysis_free;
}

void
bs_report(const bs_error *err, BsSource source)
{
	int			code;

	switch (err->status)
	{
		case BS_ERR_FORMAT:
			code = source == BS_SOURCE_TEXT ? ERRCODE_INVALID_TEXT_REPRESENTATION
				: ERRCODE_INVALID_BINARY_REPRESENTATION;
			break;
		case BS_ERR_PARAM:
			code = ERRCODE_INVALID_PARAMETER_VALUE;
			break;
		case BS_ERR_TOO_LARGE:
			code = ERRCODE_PROGRAM_LIMIT_EXCEEDED;
			break;
		case BS_ERR_MISMATCH:
			code = ERRCODE_DATA_EXCEPTION;
			break;
		default:
			elog(ERROR, "bloomsketch core reported status %d: %s", (int) err->status,
				 err->message);
	}
	ereport(ERROR,
			(errcode(code),
			 errmsg("%s", err->message),
			 err->detail[0] ? errdetail("%s", err->detail) : 0,
			 err->hint[0] ? errhint("%s", err->hint) : 0));
	pg_unreachable();
}

void
bs_not_in_aggregate_error(const char *function, const char *instead)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("%s can only be called by an aggregate", function),
			 errdetail("It updates the aggregate's state in place."),
			 errhint("Call the aggregate, or %s for a single value.", instead)));
}

/*
 * Ask for transparent huge pages on a large filter before it is first
 * touched.  Probes land on k random words: with 4 kB pages a filter of a few
 * megabytes misses the TLB on almost every probe, with 2 MB pages it does
 * not; and a fresh 12 MB region is mapped in 6 faults instead of 3,072.
 * Harmless where the kernel ignores the advice.
 */
static void
advise_huge_pages(void *start, Size size)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = 2 * 1024 * 1024;
	uintptr_t	first = ((uintptr_t) start + huge - 1) & ~(huge - 1);
	uintptr_t	last = ((uintptr_t) start + size) & ~(huge - 1);

	if (size >= 2 * huge && last > first)
		(void) madvise((void *) first, last - first, MADV_HUGEPAGE);
#endif
}

/*
 * A zeroed, empty filter of `size` bytes at `filter`: huge pages asked for
 * before the first touch, then the header.
 */
static bs_bloom *
init_filter(bs_bloom *filter, uint64 size, uint8 scheme, uint64 bits, uint32 hashes,
			uint64 seed)
{
	advise_huge_pages(filter, (Size) size);
	memset(filter, 0, (Size) size);
	SET_VARSIZE(filter, size);
	bs_bloom_init_scheme(filter, (bs_scheme) scheme, bits, hashes, seed);
	return filter;
}

/* Raise the can't-happen error for a filter beyond the allocation limit. */
static void
check_alloc_size(uint64 size, uint64 extra)
{
	/* the sizing functions keep m below BS_BLOOM_MAX_BITS, well under 1 GB */
	if (size > MaxAllocSize - extra)
		elog(ERROR, "bloomfilter of %llu bytes exceeds the allocation limit",
			 (unsigned long long) size);
}

bs_bloom *
bs_bloom_alloc(MemoryContext context, uint8 scheme, uint64 bits, uint32 hashes,
			   uint64 seed)
{
	uint64		size = bs_bloom_total_bytes(bits);

	check_alloc_size(size, 0);
	return init_filter(MemoryContextAlloc(context, (Size) size), size, scheme, bits,
					   hashes, seed);
}

/*
 * Room for a filter of `size` bytes whose bit array starts on a cache-line
 * boundary, and for a large filter on a 2 MB boundary, so that a 512-bit
 * block of the blocked scheme is one cache line and the bits lie on huge
 * pages from the first word.  The filter sits inside a larger chunk, which
 * *chunk returns (what pfree takes back).
 */
static bs_bloom *
aligned_room(MemoryContext context, uint64 size, void **chunk)
{
	uintptr_t	alignment = size >= 4 * 1024 * 1024 ? 2 * 1024 * 1024 : PG_CACHE_LINE_SIZE;
	uintptr_t	words;

	check_alloc_size(size, alignment);
	*chunk = MemoryContextAlloc(context, (Size) (size + alignment));
	words = ((uintptr_t) *chunk + offsetof(bs_bloom, words) + alignment - 1) & ~(alignment - 1);
	return (bs_bloom *) (words - offsetof(bs_bloom, words));
}

/*
 * A zeroed, empty filter with its bit array aligned as aligned_room says.  It
 * lives as long as its context and must not be pfree'd.
 */
bs_bloom *
bs_bloom_alloc_aligned(MemoryContext context, uint8 scheme, uint64 bits,
					   uint32 hashes, uint64 seed)
{
	uint64		size = bs_bloom_total_bytes(bits);
	void	   *chunk;

	return init_filter(aligned_room(context, size, &chunk), size, scheme, bits, hashes,
					   seed);
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
	pfree(given);
	return scheme;
}
