/*
 * bloomsketch.c — module entry and helpers shared by the SQL layer.
 */
#include "bloomsketch.h"

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

/* Raise the can't-happen error for a filter beyond the allocation limit. */
static void
check_alloc_size(uint64 size)
{
	/* the sizing functions keep m below BS_BLOOM_MAX_BITS, well under 1 GB */
	if (size > MaxAllocSize)
		elog(ERROR, "bloomfilter of %llu bytes exceeds the allocation limit",
			 (unsigned long long) size);
}

bs_bloom *
bs_bloom_alloc(MemoryContext context, uint8 scheme, uint64 bits, uint32 hashes,
			   uint64 seed)
{
	uint64		size = bs_bloom_total_bytes(bits);
	bs_bloom   *filter;

	check_alloc_size(size);
	filter = MemoryContextAllocZero(context, (Size) size);
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
	pfree(given);
	return scheme;
}
