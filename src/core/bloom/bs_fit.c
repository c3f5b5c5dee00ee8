/*
 * bs_fit.c — the fit scheme's positions, folding, tiling, rate and sizing
 * (bs_fit.h).
 */
#include "bloom/bs_fit.h"
#include "common/bs_error.h"

#include <math.h>

uint32_t
bs_fit_hashes(double fpr)
{
	double		k = round(-log2(fpr));

	if (!(k >= 1))
		return 1;
	if (k > BS_BLOOM_MAX_HASHES)
		return BS_BLOOM_MAX_HASHES;
	return (uint32_t) k;
}

uint64_t
bs_fit_ceiling(uint64_t max_bits)
{
	uint64_t	ceiling = BS_FIT_MAX_BITS;

	if (max_bits < BS_FIT_MIN_CEILING)
		return 0;
	while (ceiling > max_bits)
		ceiling >>= 1;
	return ceiling;
}

uint64_t
bs_fit_min_bits(uint32_t hashes)
{
	uint64_t	bits = BS_FIT_MIN_BITS;

	while (bits < hashes)
		bits *= 2;
	return bits;
}

void
bs_fit_set(uint64_t *words, uint64_t bits, uint32_t hashes, uint64_t h1, uint64_t h2)
{
	BS_FIT_WALK(bits, hashes, h1, h2,
				words[position >> 6] |= UINT64_C(1) << (position & 63));
}

bool
bs_fit_test(const uint64_t *words, uint64_t bits, uint32_t hashes, uint64_t h1,
			uint64_t h2)
{
	BS_FIT_WALK(bits, hashes, h1, h2,
				if ((words[position >> 6] & (UINT64_C(1) << (position & 63))) == 0)
				return false);
	return true;
}

void
bs_fit_positions(uint64_t bits, uint32_t hashes, uint64_t h1, uint64_t h2,
				 uint64_t *positions)
{
	BS_FIT_WALK(bits, hashes, h1, h2, positions[i_] = position);
}

/* A filter of at most 64 bits folded once: its one word's halves ORed. */
static uint64_t
fold_word(uint64_t word, uint64_t bits)
{
	uint64_t	half = bits / 2;

	return (word | (word >> half)) & ((UINT64_C(1) << half) - 1);
}

void
bs_fit_fold(uint64_t *words, uint64_t bits)
{
	uint64_t	half = bits / 128;

	if (bits <= 64)
	{
		words[0] = fold_word(words[0], bits);
		return;
	}
	for (uint64_t i = 0; i < half;)
		for (uint64_t end = bs_poll_stretch(i, half); i < end; i++)
			words[i] |= words[i + half];
}

void
bs_fit_tile_into(uint64_t *large, uint64_t large_bits, const uint64_t *small,
				 uint64_t small_bits, bool intersect)
{
	uint64_t	small_words = (small_bits + 63) / 64;
	uint64_t	large_words = (large_bits + 63) / 64;
	uint64_t	repeated = small[0];

	/* a filter under a word first fills its word (or the larger filter's) */
	for (uint64_t width = small_bits; width < 64 && width < large_bits; width *= 2)
		repeated |= repeated << width;
	for (uint64_t i = 0; i < large_words; i += small_words)
		for (uint64_t j = 0; j < small_words; j++)
		{
			uint64_t	word = small_bits < 64 ? repeated : small[j];

			bs_poll_at(i + j);
			if (intersect)
				large[i + j] &= word;
			else
				large[i + j] |= word;
		}
}

uint64_t
bs_fit_count_set(const uint64_t *words, uint64_t bits)
{
	uint64_t	total = 0;

	for (uint64_t i = 0; i < (bits + 63) / 64;)
		for (uint64_t end = bs_poll_stretch(i, (bits + 63) / 64); i < end; i++)
			total += (uint64_t) __builtin_popcountll(words[i]);
	return total;
}

double
bs_fit_fill_rate(uint64_t set, uint64_t bits, uint32_t hashes)
{
	if (set >= bits)
		return 1;
	return pow((double) set / (double) bits, hashes);
}

double
bs_fit_rate(const uint64_t *words, uint64_t bits, uint32_t hashes)
{
	return bs_fit_fill_rate(bs_fit_count_set(words, bits), bits, hashes);
}

double
bs_fit_filter_rate(const bs_bloom *filter)
{
	return bs_fit_rate(filter->words, filter->bits, filter->hashes);
}

void
bs_fit_combine_words(uint64_t *result, uint64_t bits, const bs_bloom *a,
					 const bs_bloom *b, bool intersect)
{
	bs_fit_tile_into(result, bits, a->words, a->bits, false);
	bs_fit_tile_into(result, bits, b->words, b->bits, intersect);
}

void
bs_fit_fold_down(uint64_t *words, uint64_t bits, uint64_t target)
{
	for (; bits > target; bits /= 2)
	{
		/* a pass reads the whole array: up to 512 MB at the largest ceiling */
		bs_poll_interrupts();
		bs_fit_fold(words, bits);
	}
}
