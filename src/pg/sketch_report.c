/*
 * sketch_report.c — errors the whole SQL layer raises: a core failure as an
 * ereport with the fitting SQLSTATE (docs/design.md decision 4), the failure
 * of an update or merge, a stored value found corrupt, and a transition
 * function called outside its aggregate.
 */
#include "bloomsketch.h"

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
bs_report_arith(const bs_error *err)
{
	if (err->status == BS_ERR_TOO_LARGE)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("%s", err->message),
				 err->detail[0] ? errdetail("%s", err->detail) : 0));
	bs_report(err, BS_SOURCE_BINARY);
}

void
bs_report_corrupt(const bs_error *err)
{
	if (err->status != BS_ERR_FORMAT)
		bs_report(err, BS_SOURCE_BINARY);	/* a valid value used where it cannot be */
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("%s", err->message),
			 err->detail[0] ? errdetail("%s", err->detail) : 0));
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
