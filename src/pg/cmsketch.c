/*
 * cmsketch.c — the errors that cmsketch.h's inline update raises out of
 * line, and the checks of counts and stored shapes the cmsketch files share.
 */
#include "cmsketch.h"

/* O(1) check that a stored sketch's header matches its size. */
void
bs_cms_check_shape_or_error(const bs_cms *cms)
{
	bs_error	err;

	if (bs_cms_check_shape(cms, VARSIZE(cms), &err) != BS_OK)
		bs_report_corrupt(&err);
}

/* 22023: cms_add_value was given a negative count. */
void
bs_cms_negative_count_error(int64 count)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("cmsketch count must not be negative"),
			 errdetail("The count given was %lld; a count-min sketch only counts up.",
					   (long long) count)));
}

/* 22003: adding `more` would take the total past bigint. */
void
bs_cms_total_range_error(uint64 total, uint64 more)
{
	ereport(ERROR,
			(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
			 errmsg("cmsketch total count is out of range"),
			 errdetail("Adding %llu to the total of %llu would pass the largest bigint, %lld.",
					   (unsigned long long) more, (unsigned long long) total,
					   (long long) PG_INT64_MAX)));
}

/*
 * The inline update refused (a counter would pass 2^64 - 1) and left the
 * sketch unchanged: the checked update finds the counter and explains.
 */
void
bs_cms_add_error(bs_cms *cms, const bs_cms_probe *probe, const void *data,
				 size_t length, int64 count)
{
	bs_error	err;

	if (bs_cms_add(cms, probe, data, length, count, &err) == BS_OK)
		elog(ERROR, "cmsketch update refused a count the checked update accepts");
	bs_report_arith(&err);
}

/* A count as bigint, or 22003. */
int64
bs_cms_count_to_int64(uint64 count, const char *what)
{
	if (count > (uint64) PG_INT64_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("cmsketch %s is out of range for type bigint", what),
				 errdetail("The value is %llu.", (unsigned long long) count)));
	return (int64) count;
}
