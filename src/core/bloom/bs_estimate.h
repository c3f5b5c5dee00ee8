/*
 * bs_estimate.h — what a filter's bits say about its contents.
 *
 * The default scheme sets k distinct positions per value (double hashing
 * with prime m), so its bit sum X follows the committee (batch) occupancy
 * model of Burns, section 2.4: n batches of k distinct balls in m urns.  The
 * other schemes have models of the same form (bs_scheme_occupancy); the
 * functions taking (m, k) are the double-hashing case.
 */
#ifndef BS_ESTIMATE_H
#define BS_ESTIMATE_H

#include <stdint.h>

/*
 * An occupancy model: one item misses a given bit with probability
 * u1 = exp(log_miss); it misses both bits of a pair with probability
 * u1^2 exp(log_pair_excess), one value for the same_pairs ordered pairs
 * inside a group and one for the other_pairs across groups.
 */
typedef struct bs_occupancy
{
	uint64_t	bits;			/* m */
	uint32_t	hashes;			/* k: at most k bits per item */
	double		log_miss;
	double		same_pairs;
	double		log_pair_excess_same;
	double		other_pairs;
	double		log_pair_excess_other;
} bs_occupancy;

/* The model of double hashing's k distinct bits (the classic construction). */
void		bs_occupancy_classic(uint64_t m, uint32_t k, bs_occupancy *model);

double		bs_model_mean(const bs_occupancy *model, double n);
double		bs_model_variance(const bs_occupancy *model, double n);
double		bs_model_estimate_items(const bs_occupancy *model, uint64_t x);
void		bs_model_estimate_bounds(const bs_occupancy *model, uint64_t x,
									 double confidence, double *lower,
									 double *upper);

/* Mean of X after n items (eq. (42)); n may be fractional. */
double		bs_occupancy_mean(uint64_t m, uint32_t k, double n);

/* Variance of X after n items (Lemma 16), computed without cancellation. */
double		bs_occupancy_variance(uint64_t m, uint32_t k, double n);

/*
 * Estimated number of distinct items from X set bits: the method-of-moments
 * and maximum-likelihood estimator of Corollary 18, eq. (46).  0 for X = 0,
 * +infinity for a full filter (X = m): every item count from some point on is
 * equally consistent with a full filter.
 */
double		bs_estimate_items(uint64_t m, uint32_t k, uint64_t x);

/*
 * A confidence interval for the item count: the integers n whose occupancy
 * distribution (normal, with Lemma 16's mean and variance, and the
 * continuity correction of the integer X) puts X inside its central
 * `confidence` range, and n >= ceil(X/k).  upper is +infinity for a full
 * filter.
 */
void		bs_estimate_items_bounds(uint64_t m, uint32_t k, uint64_t x,
									 double confidence, double *lower,
									 double *upper);

/*
 * The false-positive rate of a filter as it is now: a value not in it is
 * reported present when its k distinct positions all fall on set bits,
 * probability prod_{i<k} (X - i) / (m - i).
 */
double		bs_current_fpr(uint64_t m, uint32_t k, uint64_t x);

/* Inverse of the standard normal distribution function, 0 < p < 1. */
double		bs_normal_quantile(double p);

#endif							/* BS_ESTIMATE_H */
