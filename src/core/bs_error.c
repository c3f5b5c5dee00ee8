/*
 * bs_error.c — filling a bs_error.
 */
#include "bs_error.h"

#include <stdarg.h>
#include <stdio.h>

void		(*bs_interrupt_check) (void) = NULL;

bs_status
bs_fail(bs_error *err, bs_status status, const char *message,
		const char *detail_format,...)
{
	if (err != NULL)
	{
		err->status = status;
		snprintf(err->message, sizeof(err->message), "%s", message);
		err->detail[0] = '\0';
		err->hint[0] = '\0';
		if (detail_format != NULL)
		{
			va_list		args;

			va_start(args, detail_format);
			vsnprintf(err->detail, sizeof(err->detail), detail_format, args);
			va_end(args);
		}
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
