/*
 * bs_poll.c — copying and zeroing long arrays in stretches that poll for
 * interrupts between them (a filter's bits reach hundreds of megabytes).
 */
#include "common/bs_error.h"

#include <string.h>

void
bs_copy_polled(void *dst, const void *src, size_t bytes)
{
	/* a stretch of BS_POLL_STRIDE words, like the loops over the words */
	const size_t stretch = 8 * BS_POLL_STRIDE;

	for (size_t done = 0; done < bytes;)
	{
		size_t		step = bytes - done > stretch ? stretch : bytes - done;

		bs_poll_interrupts();
		if (src != NULL)
			memcpy((char *) dst + done, (const char *) src + done, step);
		else
			memset((char *) dst + done, 0, step);
		done += step;
	}
}
