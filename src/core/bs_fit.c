/*
 * bs_fit.c — the fit scheme's positions, folding, tiling and sizing
 * (bs_fit.h).  The exact rate is in bs_fit_rate.c.
 */
#include "bs_fit.h"
#include "bs_error.h"

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

/*
 * x_i = a + i b + (i^3 - i) / 6 by differences: x_(i+1) - x_i = b + i (i + 1) / 2,
 * and that difference grows by i + 1 (Dillinger and Manolios' incremental form).
 */
#define FIT_WALK(bits, hashes, h1, h2, BODY) \
	do { \
		uint64_t	mask_ = (bits) - 1; \
		uint64_t	x_ = (h1); \
		uint64_t	y_ = (h2) | 1; \
		for (uint32_t i_ = 0; i_ < (hashes); i_++) \
		{ \
			uint64_t	position = x_ & mask_; \
			BODY; \
			x_ += y_; \
			y_ += (uint64_t) i_ + 1; \
		} \
	} while (0)

void
bs_fit_set(uint64_t *words, uint64_t bits, uint32_t hashes, uint64_t h1, uint64_t h2)
{
	FIT_WALK(bits, hashes, h1, h2,
			 words[position >> 6] |= UINT64_C(1) << (position & 63));
}

bool
bs_fit_test(const uint64_t *words, uint64_t bits, uint32_t hashes, uint64_t h1,
			uint64_t h2)
{
	FIT_WALK(bits, hashes, h1, h2,
			 if ((words[position >> 6] & (UINT64_C(1) << (position & 63))) == 0)
			 return false);
	return true;
}

void
bs_fit_positions(uint64_t bits, uint32_t hashes, uint64_t h1, uint64_t h2,
				 uint64_t *positions)
{
	FIT_WALK(bits, hashes, h1, h2, positions[i_] = position);
}

void
bs_fit_fold(uint64_t *words, uint64_t bits)
{
	uint64_t	half = bits / 128;

	for (uint64_t i = 0; i < half;)
		for (uint64_t end = bs_poll_stretch(i, half); i < end; i++)
			words[i] |= words[i + half];
}

void
bs_fit_tile_into(uint64_t *large, uint64_t large_bits, const uint64_t *small,
				 uint64_t small_bits, bool intersect)
{
	uint64_t	small_words = small_bits / 64;
	uint64_t	large_words = large_bits / 64;

	for (uint64_t i = 0; i < large_words; i += small_words)
		for (uint64_t j = 0; j < small_words; j++)
		{
			bs_poll_at(i + j);
			if (intersect)
				large[i + j] &= small[j];
			else
				large[i + j] |= small[j];
		}
}

static uint64_t
count_set(const uint64_t *words, uint64_t bits)
{
	uint64_t	total = 0;

	for (uint64_t i = 0; i < bits / 64;)
		for (uint64_t end = bs_poll_stretch(i, bits / 64); i < end; i++)
			total += (uint64_t) __builtin_popcountll(words[i]);
	return total;
}

/*
 * The rate from the fill, (set / m)^k, plus the share of non-members whose
 * pair (a mod m, b mod m) equals one of the n members' (2 n / m^2, a false
 * positive whatever the fill), times BS_FIT_TERM_FACTOR for the members
 * that cover part of a non-member; n is estimated from the fill.
 */
static double
rate_from_fill(uint64_t set, uint64_t bits, uint32_t hashes)
{
	double		m = (double) bits;
	double		fill = (double) set / m;
	double		items = set >= bits ? m : -m / hashes * log1p(-fill);

	return pow(fill, hashes) + BS_FIT_TERM_FACTOR * 2 * items / (m * m);
}

double
bs_fit_rate(const uint64_t *words, uint64_t bits, uint32_t hashes)
{
	double		exact = bs_fit_exact_rate(words, bits, hashes, BS_FIT_EXACT_WORK);

	if (!isnan(exact))
		return exact;
	return rate_from_fill(count_set(words, bits), bits, hashes);
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

/* The rate of the filter folded once, without changing it. */
static double
folded_rate(const uint64_t *words, uint64_t bits, uint32_t hashes)
{
	uint64_t	half = bits / 128;
	uint64_t	set = 0;

	if (bits / 2 <= BS_FIT_EXACT_MAX_BITS)
	{
		uint64_t	folded[BS_FIT_EXACT_MAX_BITS / 64];

		for (uint64_t i = 0; i < half; i++)
			folded[i] = words[i] | words[half + i];
		return bs_fit_rate(folded, bits / 2, hashes);
	}
	for (uint64_t i = 0; i < half;)
		for (uint64_t end = bs_poll_stretch(i, half); i < end; i++)
			set += (uint64_t) __builtin_popcountll(words[i] | words[half + i]);
	return rate_from_fill(set, bits / 2, hashes);
}

uint64_t
bs_fit_fold_to_rate(uint64_t *words, uint64_t bits, uint32_t hashes, double fpr,
					bool *met)
{
	*met = bs_fit_rate(words, bits, hashes) <= fpr;
	if (!*met)
		return bits;
	/* the rate only grows as the filter folds (docs/fit.md): stop at the first miss */
	while (bits > BS_FIT_MIN_BITS && folded_rate(words, bits, hashes) <= fpr)
	{
		/* a pass reads the whole array: up to 512 MB at the largest ceiling */
		bs_poll_interrupts();
		bs_fit_fold(words, bits);
		bits /= 2;
	}
	return bits;
}

uint64_t
bs_fit_start_bits(uint64_t n, uint32_t hashes, double fpr, uint64_t ceiling)
{
	/* standard model: (1 - e^(-k n / m))^k = fpr  =>  m = -k n / ln(1 - fpr^(1/k)) */
	double		per_item = -(double) hashes / log1p(-pow(fpr, 1.0 / hashes));
	double		wanted = 2 * per_item * (double) n;
	uint64_t	bits = BS_FIT_MIN_BITS;

	while (bits < ceiling && (double) bits < wanted)
		bits *= 2;
	return bits;
}
