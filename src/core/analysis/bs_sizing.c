/*
 * bs_sizing.c — exact sizing of new filters (bs_sizing.h).
 */
#include "analysis/bs_sizing.h"

#include <stdio.h>

#include "analysis/bs_analysis.h"
#include "bloom/bs_bloom.h"
#include "common/bs_primes.h"

/* The largest m whose next prime still fits in a filter. */
static uint64_t
largest_sizable_bits(void)
{
	return bs_prev_prime(BS_BLOOM_MAX_BITS);
}

/*
 * True when the exact filter for n items at fpr fits in a filter: when the
 * largest sizable m reaches fpr (the best rate does not increase with m, so
 * that is bs_optimal_bits(n, fpr) <= largest_sizable_bits(), decided at one
 * m instead of searched).
 */
static bool
capacity_fits(int64_t n, double fpr)
{
	int			reaches;

	return bs_reaches_rate((int64_t) largest_sizable_bits(), n, fpr,
						   BS_CONSTRUCTION_CLASSIC, &reaches, NULL) == BS_OK &&
		reaches;
}

/* bs_bloom_size_exact for checked arguments */
static bs_status
bs_bloom_size_search(int64_t capacity, double fpr, uint64_t *bits,
					 uint32_t *hashes, bs_error *err)
{
	int64_t		m = 0;
	int64_t		k;
	bs_status	status;

	/*
	 * the smallest prime >= max(BS_BLOOM_MIN_BITS, bs_optimal_bits(...)),
	 * searched over primes; a filter too large is found by its first
	 * decision, at the largest sizable prime
	 */
	status = bs_optimal_prime_bits(capacity, fpr, BS_CONSTRUCTION_CLASSIC,
								   BS_BLOOM_MIN_BITS, (int64_t) largest_sizable_bits(),
								   &m, err);
	if (status == BS_ERR_PARAM)
		return status;
	if (status != BS_OK)
		return bs_fail_capacity(err, NULL, capacity, fpr, capacity_fits,
								largest_sizable_bits());

	if ((status = bs_optimal_k(m, capacity, BS_CONSTRUCTION_CLASSIC, &k, err)) != BS_OK)
		return status;
	if (k > m)
		k = m;
	*bits = (uint64_t) m;
	*hashes = (uint32_t) k;
	return BS_OK;
}

bs_status
bs_bloom_size_exact(int64_t capacity, double fpr, uint64_t *bits,
					uint32_t *hashes, bs_error *err)
{
	bs_status	status;

	if ((status = bs_check_capacity(capacity, err)) != BS_OK ||
		(status = bs_check_fpr(fpr, err)) != BS_OK ||
		(status = bs_check_space_bound(err, NULL, capacity, fpr, largest_sizable_bits())) != BS_OK)
		return status;

	/* the final bs_optimal_k reuses the rates of the search */
	bs_analysis_memo_begin();
	status = bs_bloom_size_search(capacity, fpr, bits, hashes, err);
	bs_analysis_memo_end();
	return status;
}
