/*
 * bs_scheme_sizing.c — sizing new filters of every probing scheme
 * (bs_scheme_sizing.h).
 */
#include "analysis/bs_scheme_sizing.h"

#include <math.h>
#include <stdio.h>

#include "analysis/bs_analysis.h"
#include "analysis/bs_blocked_rate.h"
#include "analysis/bs_double_hash_rate.h"
#include "common/bs_primes.h"
#include "analysis/bs_sizing.h"

double
bs_partition_fpr(uint64_t bits, double items, uint32_t hashes)
{
	double		width = (double) bits / hashes;

	/* each subarray's bit is clear with probability (1 - 1/m')^n */
	return pow(-expm1(items * log1p(-1 / width)), hashes);
}

bs_status
bs_scheme_expected_fpr(uint8_t scheme, int64_t bits, int64_t items, int64_t hashes,
					   double *rate, bs_error *err)
{
	bs_status	status;

	switch (scheme)
	{
		case BS_SCHEME_DOUBLE:
		case BS_SCHEME_DOUBLE_SQUARE:
		case BS_SCHEME_DOUBLE_CUBE:
			/* checks the arguments; the rate is the model's with KM's term */
			status = bs_fpr_exact(bits, items, hashes, scheme == BS_SCHEME_DOUBLE ?
								  BS_CONSTRUCTION_CLASSIC : BS_CONSTRUCTION_STANDARD, rate, err);
			if (status == BS_OK && items > 0 && bits >= 2)
				*rate = bs_km_report_rate(scheme, (uint64_t) bits, (uint32_t) hashes, (double) items);
			return status;
		case BS_SCHEME_INDEPENDENT:
			return bs_fpr_exact(bits, items, hashes, BS_CONSTRUCTION_STANDARD, rate, err);
		default:
			break;
	}
	if (bits < 1 || items < 0 || hashes < 1 || hashes > BS_BLOOM_MAX_HASHES)
		return bs_fail(err, BS_ERR_PARAM, "bloomfilter parameters are out of range",
					   "bits must be at least 1, items at least 0 and hashes between 1 and %d; they were %lld, %lld and %lld.",
					   BS_BLOOM_MAX_HASHES, (long long) bits, (long long) items, (long long) hashes);
	if (scheme == BS_SCHEME_PARTITION)
	{
		if (bits % hashes != 0 || bits / hashes < 2)
			return bs_fail(err, BS_ERR_PARAM, "partitioned bloomfilter size must be k times a whole number of at least 2",
						   "bits = %lld and hashes = %lld.", (long long) bits, (long long) hashes);
		*rate = bs_km_fpr(scheme, (uint64_t) bits, (uint32_t) hashes, (double) items, -1);
		return BS_OK;
	}
	if (scheme == BS_SCHEME_BLOCKED)
	{
		if (bits % BS_BLOCK_BITS != 0 || hashes > BS_BLOCKED_MAX_HASHES)
			return bs_fail(err, BS_ERR_PARAM, "blocked bloomfilter shape is out of range",
						   "bits must be a multiple of %d and hashes at most %d; they were %lld and %lld.",
						   BS_BLOCK_BITS, BS_BLOCKED_MAX_HASHES, (long long) bits, (long long) hashes);
		*rate = bs_blocked_fpr((double) items, (uint64_t) bits / BS_BLOCK_BITS, (uint32_t) hashes);
		return BS_OK;
	}
	return bs_fail(err, BS_ERR_PARAM, "unknown bloomfilter probing scheme",
				   "The scheme code is %u.", scheme);
}

/*
 * Partition sizing.  For a given k the smallest real m' with
 * (1 - (1 - 1/m')^n)^k <= fpr is 1 / (1 - s^(1/n)), s = 1 - fpr^(1/k); the
 * prime that follows it may need a few more bits.  Rounding up to a prime
 * never lowers k m', so only the k whose real k m' is below the best rounded
 * total found so far can win: those are rounded and checked.
 */
static bs_status
size_partition(int64_t capacity, double fpr, uint64_t *bits, uint32_t *hashes)
{
	double		n = (double) capacity;
	double		real_width[BS_BLOOM_MAX_HASHES + 1];
	double		best_total = INFINITY;
	uint64_t	best_width = 0;
	uint32_t	best_k = 0;

	for (uint32_t k = 1; k <= BS_BLOOM_MAX_HASHES; k++)
	{
		double		log_s = log1p(-exp(log(fpr) / k));

		real_width[k] = ceil(1 / -expm1(log_s / n));
		if (!(real_width[k] < 1e12))
			real_width[k] = INFINITY;
	}
	for (int pass = 0; pass < 2; pass++)
	{
		for (uint32_t k = 1; k <= BS_BLOOM_MAX_HASHES; k++)
		{
			uint64_t	width;
			double		total;

			if (!(k * real_width[k] < best_total) || k * real_width[k] > (double) BS_BLOOM_MAX_BITS)
				continue;
			/* pass 0 only tries the k with the smallest real total */
			if (pass == 0 && k > 1 && k * real_width[k] > (k - 1) * real_width[k - 1])
				continue;
			width = bs_next_prime(real_width[k] < 2 ? 2 : (uint64_t) real_width[k]);
			while (bs_partition_fpr(width * k, n, k) > fpr)
				width = bs_next_prime(width + 1);
			total = (double) width * k;
			if (total < best_total)
			{
				best_total = total;
				best_width = width;
				best_k = k;
			}
		}
	}
	if (best_k == 0 || best_total > (double) BS_BLOOM_MAX_BITS)
		return BS_ERR_TOO_LARGE;
	*bits = best_width * best_k;
	*hashes = best_k;
	return BS_OK;
}

/* The standard exact sizing: m = optimal_bits, k = optimal_k for that m. */
static bs_status
size_standard(int64_t capacity, double fpr, bool prime, uint64_t *bits,
			  uint32_t *hashes, bs_error *err)
{
	int64_t		m;
	int64_t		k;
	bs_status	status;

	status = bs_optimal_bits(capacity, fpr, BS_CONSTRUCTION_STANDARD, &m, err);
	if (status != BS_OK)
		return status == BS_ERR_PARAM ? status : BS_ERR_TOO_LARGE;
	if (m < BS_BLOOM_MIN_BITS)
		m = BS_BLOOM_MIN_BITS;
	if ((uint64_t) m > BS_BLOOM_MAX_BITS)
		return BS_ERR_TOO_LARGE;
	if (prime)
		m = (int64_t) bs_next_prime((uint64_t) m);
	if ((uint64_t) m > BS_BLOOM_MAX_BITS)
		return BS_ERR_TOO_LARGE;
	if ((status = bs_optimal_k(m, capacity, BS_CONSTRUCTION_STANDARD, &k, err)) != BS_OK)
		return status;
	if (k > BS_BLOOM_MAX_HASHES)
		k = BS_BLOOM_MAX_HASHES;
	if (k > m)
		k = m;
	*bits = (uint64_t) m;
	*hashes = (uint32_t) k;
	return BS_OK;
}

/* The sizing of each scheme without KM's Theta(1/n) term. */
static bs_status
size_without_term(uint8_t scheme, int64_t capacity, double fpr, uint64_t *bits,
		 uint32_t *hashes, bs_error *err)
{
	switch (scheme)
	{
		case BS_SCHEME_DOUBLE:
			return bs_bloom_size_exact(capacity, fpr, bits, hashes, err);
		case BS_SCHEME_DOUBLE_SQUARE:
		case BS_SCHEME_DOUBLE_CUBE:
			return size_standard(capacity, fpr, true, bits, hashes, err);
		case BS_SCHEME_INDEPENDENT:
			return size_standard(capacity, fpr, false, bits, hashes, err);
		case BS_SCHEME_PARTITION:
			return size_partition(capacity, fpr, bits, hashes);
		case BS_SCHEME_BLOCKED:
			return bs_blocked_size(capacity, fpr, bits, hashes, err);
		default:
			return bs_fail(err, BS_ERR_PARAM, "unknown bloomfilter probing scheme",
						   "The scheme code is %u.", scheme);
	}
}

/*
 * How much larger than the sizing without KM's term a filter of the double
 * and partition schemes may grow to reach its rate with the term.  Those
 * schemes derive all k positions from one pair of hash values, so about
 * n/m^2 of the non-members share a member's pair (or most of its
 * progression) and are false positives at any fill; the m that brings this
 * under a very small rate at a small n grows like sqrt(n / fpr), a hundred
 * times the usual size and more.  Past this factor sizing refuses and
 * points to the independent scheme, which has no such term.
 */
#define KM_MAX_GROWTH 4		/* "four times" in fail_scheme_limit */

static bs_status
fail_scheme_limit(bs_error *err, uint8_t scheme, int64_t capacity, double fpr, uint64_t bits)
{
	char		message[sizeof(err->message)];

	if (err == NULL)
		return BS_ERR_PARAM;
	snprintf(message, sizeof(message),
			 "%s bloomfilter cannot reach false-positive rate %.15g for %lld items at a practical size",
			 bs_scheme_name(scheme), fpr, (long long) capacity);
	bs_fail(err, BS_ERR_PARAM, message,
			"The scheme derives all k positions from one pair of hash values, so a non-member sharing a member's pair is a false positive however empty the filter is; at this rate and item count that needs more than %llu bits (%s).",
			(unsigned long long) bits, bits == BS_BLOOM_MAX_BITS ? "the largest filter" :
			"four times the size without that term");
	return bs_hint(err, BS_ERR_PARAM,
				   "Use the independent scheme, whose k positions are hashed separately, or ask for a larger false-positive rate.");
}

/*
 * The sizing of each scheme, without the message for a filter too large:
 * for the schemes with KM's Theta(1/n) term, the smallest shape whose rate
 * with the term (bs_double_hash_rate.h) reaches fpr, searched from the sizing
 * without it and at most KM_MAX_GROWTH times its size.
 */
static bs_status
size_any(uint8_t scheme, int64_t capacity, double fpr, uint64_t *bits,
		 uint32_t *hashes, bs_error *err)
{
	bs_status	status = size_without_term(scheme, capacity, fpr, bits, hashes, err);
	uint64_t	limit;

	if (!bs_km_models(scheme) || status != BS_OK)
		return status;
	limit = *bits > BS_BLOOM_MAX_BITS / KM_MAX_GROWTH ? BS_BLOOM_MAX_BITS : *bits * KM_MAX_GROWTH;
	if (!bs_km_size(scheme, capacity, fpr, limit, *bits, *hashes, bits, hashes))
		return fail_scheme_limit(err, scheme, capacity, fpr, limit);
	return BS_OK;
}

/* One "fits" test per scheme for bs_largest_capacity (without KM's term). */
#define DEFINE_FITS(name, scheme) \
static bool \
name(int64_t capacity, double fpr) \
{ \
	uint64_t	bits; \
	uint32_t	hashes; \
	return size_without_term(scheme, capacity, fpr, &bits, &hashes, NULL) == BS_OK; \
}
DEFINE_FITS(fits_square, BS_SCHEME_DOUBLE_SQUARE)
DEFINE_FITS(fits_cube, BS_SCHEME_DOUBLE_CUBE)
DEFINE_FITS(fits_independent, BS_SCHEME_INDEPENDENT)
DEFINE_FITS(fits_partition, BS_SCHEME_PARTITION)
DEFINE_FITS(fits_blocked, BS_SCHEME_BLOCKED)

bs_status
bs_bloom_size_scheme(uint8_t scheme, int64_t capacity, double fpr, uint64_t *bits,
					 uint32_t *hashes, bs_error *err)
{
	static bool (*const fits[]) (int64_t, double) = {
		NULL, NULL, fits_square, fits_cube, fits_partition, fits_independent,
		fits_blocked
	};
	bs_status	status;

	if ((status = bs_check_capacity(capacity, err)) != BS_OK ||
		(status = bs_check_fpr(fpr, err)) != BS_OK)
		return status;
	/* double's own sizing checks the bound against its largest prime */
	if (scheme != BS_SCHEME_DOUBLE &&
		(status = bs_check_space_bound(err, bs_scheme_name(scheme), capacity, fpr,
									   BS_BLOOM_MAX_BITS)) != BS_OK)
		return status;
	status = size_any(scheme, capacity, fpr, bits, hashes, err);
	if (status != BS_ERR_TOO_LARGE || scheme == BS_SCHEME_DOUBLE)
		return status;			/* double's own sizing words its message */
	return bs_fail_capacity(err, bs_scheme_name(scheme), capacity, fpr, fits[scheme],
							BS_BLOOM_MAX_BITS);
}
