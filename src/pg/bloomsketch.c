/*
 * bloomsketch.c — module entry and helpers shared by the SQL layer.
 */
#include "bloomsketch.h"

#include <sys/mman.h>

#include "utils/memutils.h"

PG_MODULE_MAGIC;

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
			 err->detail[0] ? errdetail("%s", err->detail) : 0));
	pg_unreachable();
}

/*
 * Ask for transparent huge pages on a large filter before it is first
 * touched.  Probes land on k random words: with 4 kB pages a filter of a few
 * megabytes misses the TLB on almost every probe, with 2 MB pages it does
 * not.  Harmless where the kernel ignores the advice.
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

bs_bloom *
bs_bloom_alloc(MemoryContext context, uint64 bits, uint32 hashes, uint64 seed)
{
	uint64		size = bs_bloom_total_bytes(bits);
	bs_bloom   *filter;

	/* the sizing functions keep m below BS_BLOOM_MAX_BITS, well under 1 GB */
	if (size > MaxAllocSize)
		elog(ERROR, "bloomfilter of %llu bytes exceeds the allocation limit",
			 (unsigned long long) size);
	filter = MemoryContextAlloc(context, (Size) size);
	advise_huge_pages(filter, (Size) size);
	memset(filter, 0, (Size) size);
	SET_VARSIZE(filter, size);
	bs_bloom_init(filter, bits, hashes, seed);
	return filter;
}

void
bs_size_or_error(int64 capacity, double fpr, uint64 *bits, uint32 *hashes)
{
	bs_error	err;
	uint64_t	m;
	uint32_t	k;

	if (bs_bloom_size_textbook(capacity, fpr, &m, &k, &err) != BS_OK)
		bs_report(&err, BS_SOURCE_TEXT);
	*bits = m;
	*hashes = k;
}
