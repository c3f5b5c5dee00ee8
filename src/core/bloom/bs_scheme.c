/*
 * bs_scheme.c — shapes, occupancy models and current false-positive rates
 * of the probing schemes (bs_scheme.h).
 */
#include "bloom/bs_scheme.h"

#include <inttypes.h>
#include <math.h>

#include "bloom/bs_fit.h"
#include "analysis/bs_double_hash_rate.h"
#include "common/bs_primes.h"

bool
bs_scheme_shape_ok(uint8_t scheme, uint64_t bits, uint32_t hashes)
{
	return bs_scheme_check_shape(scheme, bits, hashes, NULL) == BS_OK;
}

bool
bs_scheme_shape_safe(uint8_t scheme, uint64_t bits, uint32_t hashes)
{
	if (scheme < 1 || scheme > BS_SCHEME_CODE_LAST || hashes < 1 ||
		hashes > BS_BLOOM_MAX_HASHES || bits < BS_BLOOM_MIN_BITS)
		return false;
	/* a state's m counts its payload words, not positions: any k of a rate fits */
	if (scheme == BS_SCHEME_FIT_PARTIAL)
		return bits % 64 == 0;
	if (hashes > bits)
		return false;
	if (scheme == BS_SCHEME_FIT)
		return bs_fit_power_of_two(bits) && bits >= BS_FIT_MIN_BITS && bits <= BS_FIT_MAX_BITS;
	if (scheme == BS_SCHEME_PARTITION)
		return bits % hashes == 0 && bits / hashes >= 2;
	if (scheme == BS_SCHEME_BLOCKED)
		return bits % BS_BLOCK_BITS == 0 && hashes <= BS_BLOCKED_MAX_HASHES;
	return true;
}

static bs_status
hashes_out_of_range(uint64_t bits, uint32_t hashes, bs_error *err)
{
	return bs_fail(err, BS_ERR_PARAM, "bloomfilter number of hash functions is out of range",
				   "The value has k = %u; k must be between 1 and %d and at most m = %" PRIu64 ".",
				   hashes, BS_BLOOM_MAX_HASHES, bits);
}

bs_status
bs_scheme_check_shape(uint8_t scheme, uint64_t bits, uint32_t hashes, bs_error *err)
{
	if (scheme < 1 || scheme > BS_SCHEME_CODE_LAST)
		return bs_fail(err, BS_ERR_PARAM, "unknown bloomfilter probing scheme",
					   "The scheme code is %u.", scheme);
	if (hashes < 1 || hashes > BS_BLOOM_MAX_HASHES)
		return hashes_out_of_range(bits, hashes, err);
	switch (scheme)
	{
		case BS_SCHEME_PARTITION:
			if (bits % hashes != 0 || !bs_is_prime(bits / hashes))
				return bs_fail(err, BS_ERR_PARAM, "partitioned bloomfilter size must be k times a prime",
							   "The value has m = %" PRIu64 " bits and k = %u; the partition scheme needs k subarrays of the same prime number of bits.",
							   bits, hashes);
			break;
		case BS_SCHEME_BLOCKED:
			if (bits == 0 || bits % BS_BLOCK_BITS != 0)
				return bs_fail(err, BS_ERR_PARAM, "blocked bloomfilter size must be a whole number of blocks",
							   "The value has m = %" PRIu64 " bits; the blocked scheme needs a multiple of %d.",
							   bits, BS_BLOCK_BITS);
			if (hashes > BS_BLOCKED_MAX_HASHES)
				return bs_fail(err, BS_ERR_PARAM, "blocked bloomfilter number of hash functions is out of range",
							   "The value has k = %u; the blocked scheme sets at most %d bits per value.",
							   hashes, BS_BLOCKED_MAX_HASHES);
			break;
		case BS_SCHEME_FIT:
			if (!bs_fit_power_of_two(bits) || bits < BS_FIT_MIN_BITS || bits > BS_FIT_MAX_BITS)
				return bs_fail(err, BS_ERR_PARAM, "self-sized bloomfilter size must be a power of two",
							   "The value has m = %" PRIu64 " bits; the fit scheme needs a power of two from %" PRIu64 " to %" PRIu64 ".",
							   bits, BS_FIT_MIN_BITS, BS_FIT_MAX_BITS);
			break;
		case BS_SCHEME_FIT_PARTIAL:
			return BS_OK;		/* its length rules: bs_fit_state_check_params */
		case BS_SCHEME_INDEPENDENT:
			if (bits < BS_BLOOM_MIN_BITS)
				return bs_fail(err, BS_ERR_PARAM, "bloomfilter is too small",
							   "The value has %" PRIu64 " bits; the smallest filter has %d.",
							   bits, BS_BLOOM_MIN_BITS);
			break;
		default:				/* the double hashing family */
			if (bits < BS_BLOOM_MIN_BITS || !bs_is_prime(bits))
				return bs_fail(err, BS_ERR_PARAM, "bloomfilter size must be a prime number of bits",
							   "The value has %" PRIu64 " bits; double hashing needs a prime m of at least %d.",
							   bits, BS_BLOOM_MIN_BITS);
			break;
	}
	if (hashes > bits)
		return hashes_out_of_range(bits, hashes, err);
	return BS_OK;
}

/*
 * Every scheme sets the bits of one item independently of the other items,
 * and every bit is equally likely to be hit, so the number of clear bits has
 * mean m u1^n and variance m u1^n + sum over ordered pairs of distinct bits
 * of u2^n - (m u1^n)^2, with u1 the chance that one item misses a bit and u2
 * the chance it misses both bits of a pair (Burns, Lemma 16, in general form).
 * Pairs come in two kinds: inside one group (the whole filter; a subarray of
 * the partition scheme; a block) and across groups.  The model stores
 * ln u1 and, for each kind, ln(u2 / u1^2), written so that nothing cancels.
 */
void
bs_scheme_occupancy(uint8_t scheme, uint64_t bits, uint32_t hashes,
					bs_occupancy *model)
{
	double		m = (double) bits;
	double		k = (double) hashes;

	model->bits = bits;
	model->hashes = hashes;
	model->other_pairs = 0;
	model->log_pair_excess_other = 0;
	switch (scheme)
	{
		case BS_SCHEME_DOUBLE:
			bs_occupancy_classic(bits, hashes, model);	/* k distinct bits */
			break;
		case BS_SCHEME_PARTITION:
			{
				/* one uniform bit in each subarray of m' bits */
				double		width = m / k;

				model->log_miss = log1p(-1 / width);
				model->same_pairs = m * (width - 1);
				model->log_pair_excess_same = log1p(-1 / ((width - 1) * (width - 1)));
				model->other_pairs = m * (m - width);	/* u2 = u1^2 exactly */
				break;
			}
		case BS_SCHEME_BLOCKED:
			{
				/*
				 * The item lands in the pair's block with chance 1/B and then
				 * hits a given bit with chance h = 1 - (1 - 1/s)^k and both
				 * bits of a pair with chance hh = 1 - 2(1 - 1/s)^k + (1 - 2/s)^k
				 * (s = 512).  u1 = 1 - h/B; inside a block u2 = 1 - (2h - hh)/B;
				 * across blocks u2 = 1 - 2h/B.
				 */
				double		s = BS_BLOCK_BITS;
				double		blocks = m / s;
				double		miss1 = exp(k * log1p(-1 / s));
				double		miss2 = exp(k * log1p(-2 / s));
				double		h = 1 - miss1;
				double		hh = h - (miss1 - miss2);
				double		clear = 1 - h / blocks;

				model->log_miss = log1p(-h / blocks);
				model->same_pairs = m * (s - 1);
				model->log_pair_excess_same =
					log1p((hh / blocks - (h / blocks) * (h / blocks)) / (clear * clear));
				model->other_pairs = m * (m - s);
				model->log_pair_excess_other =
					log1p(-((h / blocks) / clear) * ((h / blocks) / clear));
				break;
			}
		default:
			/*
			 * k independent uniform bits per item (the standard
			 * construction): u1 = (1 - 1/m)^k, u2 = (1 - 2/m)^k, so
			 * u2 / u1^2 = (1 - 1/(m-1)^2)^k.  Extended double hashing is
			 * modelled the same way: KM show its rate converges to this one.
			 */
			model->log_miss = k * log1p(-1 / m);
			model->same_pairs = m * (m - 1);
			model->log_pair_excess_same = k * log1p(-1 / ((m - 1) * (m - 1)));
			break;
	}
}

/* (x/s)^k, the chance k independent uniform bits of s all fall on x set ones */
static double
all_set(uint64_t set, uint64_t size, uint32_t k)
{
	return pow((double) set / (double) size, (double) k);
}

/* The rate from the set bits alone, as if members' positions were independent. */
static double
rate_from_fill(const bs_bloom *filter)
{
	uint64_t	m = filter->bits;
	uint32_t	k = filter->hashes;

	switch (filter->scheme)
	{
		case BS_SCHEME_DOUBLE:
			/* k distinct positions, uniform among the k-subsets */
			return bs_current_fpr(m, k, bs_bloom_count_set(filter));
		case BS_SCHEME_PARTITION:
			{
				/* one position per subarray: the product of their fills */
				uint64_t	width = m / k;
				double		rate = 1;

				for (uint32_t i = 0; i < k && rate > 0; i++)
					rate *= (double) bs_bloom_count_range(filter, i * width, (i + 1) * width) /
						(double) width;
				return rate;
			}
		case BS_SCHEME_BLOCKED:
			{
				/*
				 * A uniform block, then k independent bits inside it: the
				 * mean of (set / 512)^k over the blocks, from a histogram of
				 * their fills.
				 */
				uint64_t	blocks = m / BS_BLOCK_BITS;
				uint64_t	fills[BS_BLOCK_BITS + 1] = {0};
				double		sum = 0;

				for (uint64_t b = 0; b < blocks; b++)
				{
					unsigned	set = 0;

					bs_poll_at(b * BS_BLOCK_WORDS);
					for (int w = 0; w < BS_BLOCK_WORDS; w++)
						set += (unsigned) __builtin_popcountll(filter->words[b * BS_BLOCK_WORDS + w]);
					fills[set]++;
				}
				for (unsigned set = 1; set <= BS_BLOCK_BITS; set++)
					if (fills[set] != 0)
						sum += (double) fills[set] * all_set(set, BS_BLOCK_BITS, k);
				return sum / (double) blocks;
			}
		default:
			return all_set(bs_bloom_count_set(filter), m, k);
	}
}

/*
 * For the schemes with Kirsch and Mitzenmacher's Theta(1/n) term: a small
 * filter's own rate, counted over every hash pair (bs_km_filter_fpr).  A
 * larger one's is their model (bs_double_hash_rate.h) at the estimated number of
 * items, with the chance that one position is set taken from the fill: the
 * k-th root of the rate from the fill, so that with no member covering two
 * positions the answer is that rate itself.
 */
double
bs_bloom_current_fpr(const bs_bloom *filter)
{
	double		rate = rate_from_fill(filter);
	bs_occupancy model;
	double		items;
	double		exact;

	if (filter->scheme == BS_SCHEME_FIT)
		return bs_fit_filter_rate(filter);	/* its own count, or fill and term */
	if (!bs_km_models(filter->scheme) || rate >= 1 || rate <= 0)
		return rate;
	exact = bs_km_filter_fpr(filter);
	if (!isnan(exact))
		return exact;
	bs_scheme_occupancy(filter->scheme, filter->bits, filter->hashes, &model);
	items = bs_model_estimate_items(&model, bs_bloom_count_set(filter));
	if (!(items > 0) || isinf(items))
		return rate;
	return bs_km_fpr(filter->scheme, filter->bits, filter->hashes, items,
					 pow(rate, 1.0 / filter->hashes));
}
