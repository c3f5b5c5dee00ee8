/*
 * bs_error.h — how the pure C core reports failure.
 *
 * Core functions never abort: they return a status and fill a bs_error whose
 * message is ready for the SQL layer (lower case, no trailing period) and
 * whose detail and hint, when present, are full sentences.  The SQL layer picks the
 * SQLSTATE from the status and from where the bytes came from.
 */
#ifndef BS_ERROR_H
#define BS_ERROR_H

#include <stddef.h>
#include <stdint.h>

typedef enum bs_status
{
	BS_OK = 0,
	BS_ERR_FORMAT,				/* malformed encoding: 22P02 for text, 22P03 for binary */
	BS_ERR_PARAM,				/* a parameter outside its allowed range: 22023 */
	BS_ERR_TOO_LARGE,			/* beyond the largest supported value: 54000 */
	BS_ERR_MISMATCH				/* operands built with different parameters: 22000 */
} bs_status;

typedef struct bs_error
{
	bs_status	status;
	char		message[192];
	char		detail[320];
	char		hint[192];		/* what the user can do instead, or empty */
} bs_error;

/* Record a failure in *err (when err is not NULL) and return its status. */
bs_status	bs_fail(bs_error *err, bs_status status, const char *message,
					const char *detail_format,...)
			__attribute__((format(printf, 4, 5)));

/* Add a hint to a failure already recorded in *err; returns its status. */
bs_status	bs_hint(bs_error *err, bs_status status, const char *hint);

/*
 * The same with a message that names the value's type: message_format holds
 * one %s, which type_name fills ("unsupported %s format version"), so that
 * checks the types make alike are written once.
 */
bs_status	bs_fail_typed(bs_error *err, bs_status status, const char *message_format,
						  const char *type_name, const char *detail_format,...)
			__attribute__((format(printf, 5, 6)));

/*
 * Called (when not NULL) now and then by every long loop of the core, so that
 * the SQL layer can install a function running CHECK_FOR_INTERRUPTS().  If it
 * may longjmp, memory the loop holds must come from allocation hooks that a
 * memory context releases (bs_analysis_alloc), never from malloc.
 */
extern void (*bs_interrupt_check) (void);

static inline void
bs_poll_interrupts(void)
{
	if (bs_interrupt_check != NULL)
		bs_interrupt_check();
}

/*
 * Long loops poll once per BS_POLL_STRIDE items (words, cells, hashes):
 * 2^16 is well under a millisecond of any loop's work, and a test and a
 * branch per item cost nothing measurable.
 */
#define BS_POLL_STRIDE ((uint64_t) 1 << 16)

/* Poll when item i of a loop starts a new stretch of BS_POLL_STRIDE items. */
static inline void
bs_poll_at(uint64_t i)
{
	if ((i & (BS_POLL_STRIDE - 1)) == 0)
		bs_poll_interrupts();
}

/*
 * Poll, then return where the stretch of a loop over count items that
 * starts at `from` ends: the loop runs its inner, vectorizable part from
 * `from` to there, so that the poll stays out of it.
 */
static inline uint64_t
bs_poll_stretch(uint64_t from, uint64_t count)
{
	bs_poll_interrupts();
	return count - from > BS_POLL_STRIDE ? from + BS_POLL_STRIDE : count;
}

/*
 * Copy bytes from src to dst, or zero them when src is NULL, polling for
 * interrupts before each stretch of BS_POLL_STRIDE words.
 */
void		bs_copy_polled(void *dst, const void *src, size_t bytes);

#endif							/* BS_ERROR_H */
