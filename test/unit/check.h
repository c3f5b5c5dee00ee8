/*
 * check.h — the check runner of the core's unit tests (test_core, test_cms,
 * test_fit, test_topk and their files): passing checks are silent, a
 * failing one prints file:line, the expression and the case.
 * The program defines checks_run and checks_failed and prints them at the
 * end.
 */
#ifndef BS_TEST_CHECK_H
#define BS_TEST_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bs_error.h"

#define MAX_REPORTED 200

/* defined by the test program's main file */
extern unsigned long checks_run;
extern unsigned long checks_failed;

static inline bool
check_at(bool ok, const char *file, int line, const char *expr, const char *context)
{
	checks_run++;
	if (!ok)
	{
		checks_failed++;
		if (checks_failed <= MAX_REPORTED)
			printf("%s:%d: check failed: %s%s%s\n", file, line, expr,
				   context != NULL && context[0] != '\0' ? " -- " : "",
				   context != NULL ? context : "");
		else if (checks_failed == MAX_REPORTED + 1)
			printf("(further failures not shown)\n");
		fflush(stdout);
	}
	return ok;
}

#define CHECK(expr) check_at((expr) ? true : false, __FILE__, __LINE__, #expr, NULL)

#define CHECKF(expr, ...) \
	do { \
		bool		ok_ = (expr) ? true : false; \
		char		context_[1024] = ""; \
		if (!ok_) \
			snprintf(context_, sizeof(context_), __VA_ARGS__); \
		check_at(ok_, __FILE__, __LINE__, #expr, context_); \
	} while (0)

static inline const char *
status_name(bs_status s)
{
	static const char *const names[] = {"BS_OK", "BS_ERR_FORMAT", "BS_ERR_PARAM",
	"BS_ERR_TOO_LARGE", "BS_ERR_MISMATCH"};

	return (unsigned) s < sizeof(names) / sizeof(names[0]) ? names[s] : "(unknown status)";
}

/*
 * The status of a call, and on failure that the bs_error was filled in
 * consistently (same status, a message).  The error is zeroed before the call.
 */
static inline bool
check_status_at(bs_status got, bs_status want, const bs_error *err, const char *file,
				int line, const char *expr, const char *what)
{
	char		context[900] = "";

	if (got != want)
		snprintf(context, sizeof(context), "%s%sgot %s, want %s%s%s%s%s",
				 what != NULL ? what : "", what != NULL ? ": " : "",
				 status_name(got), status_name(want),
				 got != BS_OK ? " (message: " : "", got != BS_OK ? err->message : "",
				 got != BS_OK ? "; detail: " : "", got != BS_OK ? err->detail : "");
	check_at(got == want, file, line, expr, context);
	if (got == want && got != BS_OK)
	{
		snprintf(context, sizeof(context), "%s%serror record: status %s, message \"%s\"",
				 what != NULL ? what : "", what != NULL ? ": " : "",
				 status_name(err->status), err->message);
		check_at(err->status == got && err->message[0] != '\0', file, line,
				 "the bs_error is filled in", context);
	}
	return got == want;
}

#define CHECK_STATUS(expr, want, errp) \
	check_status_at((memset((errp), 0, sizeof(*(errp))), (expr)), (want), (errp), \
					__FILE__, __LINE__, #expr, NULL)
#define CHECK_STATUS_WHAT(expr, want, errp, what) \
	check_status_at((memset((errp), 0, sizeof(*(errp))), (expr)), (want), (errp), \
					__FILE__, __LINE__, #expr, (what))

static inline void *
xcalloc(size_t n)
{
	void	   *p = calloc(1, n == 0 ? 1 : n);

	if (p == NULL)
	{
		fprintf(stderr, "out of memory (%zu bytes)\n", n);
		exit(2);
	}
	return p;
}

/* The pseudo-random numbers of the tests: splitmix64 from a fixed seed. */
static inline uint64_t
splitmix64(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

#endif							/* BS_TEST_CHECK_H */
