/*
 * bs_error.c — filling a bs_error.
 */
#include "common/bs_error.h"

#include <stdarg.h>
#include <stdio.h>

void		(*bs_interrupt_check) (void) = NULL;

/* The detail of a failure, when there is one; no hint until bs_hint adds one. */
static void set_detail_no_hint(bs_error *err, const char *detail_format, va_list args)
			__attribute__((format(printf, 2, 0)));

static void
set_detail_no_hint(bs_error *err, const char *detail_format, va_list args)
{
	err->hint[0] = '\0';
	err->detail[0] = '\0';
	if (detail_format != NULL)
		vsnprintf(err->detail, sizeof(err->detail), detail_format, args);
}

bs_status
bs_fail(bs_error *err, bs_status status, const char *message,
		const char *detail_format,...)
{
	if (err != NULL)
	{
		va_list		args;

		err->status = status;
		snprintf(err->message, sizeof(err->message), "%s", message);
		va_start(args, detail_format);
		set_detail_no_hint(err, detail_format, args);
		va_end(args);
	}
	return status;
}

bs_status
bs_fail_typed(bs_error *err, bs_status status, const char *message_format,
			  const char *type_name, const char *detail_format,...)
{
	if (err != NULL)
	{
		va_list		args;

		err->status = status;
		snprintf(err->message, sizeof(err->message), message_format, type_name);
		va_start(args, detail_format);
		set_detail_no_hint(err, detail_format, args);
		va_end(args);
	}
	return status;
}

bs_status
bs_hint(bs_error *err, bs_status status, const char *hint)
{
	if (err != NULL)
		snprintf(err->hint, sizeof(err->hint), "%s", hint);
	return status;
}
