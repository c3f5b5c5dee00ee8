/*
 * bs_shifted_and.h — the AND of a bit array with a window of another that
 * starts at any bit offset: the step of the exact rate count
 * (bs_double_hash_filter_rate.c), which ANDs a filter with its own rotations laid
 * out twice in a row.
 *
 * Terms: a window is the bits of an array read from any bit offset, as if
 * the array were shifted by it.
 */
#ifndef BS_SHIFTED_AND_H
#define BS_SHIFTED_AND_H

#include <stdint.h>

/* acc &= the words of a copy from bit offset on (the copy's spare word covers the last). */
static inline void
bs_and_window(uint64_t *restrict acc, uint64_t words, const uint64_t *restrict copy,
			  uint64_t offset)
{
	const uint64_t *source = copy + offset / 64;
	unsigned	shift = offset % 64;

	if (shift == 0)
	{
		for (uint64_t w = 0; w < words; w++)
			acc[w] &= source[w];
		return;
	}
	for (uint64_t w = 0; w < words; w++)
		acc[w] &= (source[w] >> shift) | (source[w + 1] << (64 - shift));
}

#endif							/* BS_SHIFTED_AND_H */
