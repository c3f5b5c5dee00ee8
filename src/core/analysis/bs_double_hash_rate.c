/*
 * bs_double_hash_rate.c — the false-positive rate of the double-hashing and
 * partition schemes with Kirsch and Mitzenmacher's Theta(1/n) term
 * (bs_double_hash_rate.h).
 *
 * A non-member z is a false positive when members cover all of its
 * positions.  The members are independent given z, and one member covers
 * a subset S of z's positions.  Most members cover at most one (with
 * chance about sigma = k/m each); a few cover t >= 2 at once (KM 2008,
 * section 6: a member whose pair (a, b) is related to z's), with chance
 * pi_t = N_t / (number of pairs (a, b)), where N_t counts those pairs.
 *
 * Given the members that cover two or more, the others cover each of the
 * remaining positions with chance Q = 1 - (1 - s)^n, s the chance that a
 * member covers a given position and no other, and they cover r given
 * positions with chance cov(r) <= Q^r (single_coverage).  With U the union
 * of the multi-covers, the rest is covered with chance cov(k - |U|), and
 * the number j of multi-covers is about Binomial(n, mu), mu = sum_t pi_t,
 * with independent sizes, so
 *   Pr(F) ~ sum_j Pr(j) E[cov(k - |U_j|)],
 * which this file uses as the rate (for a z with d < k distinct positions,
 * k becomes d).  |U_j| is computed as if each multi-cover were a random
 * subset of its size; beyond KM_EXACT_MAX_K hashes as the sum of the sizes
 * (capped at k), an upper bound.  Against the exact rate of the schemes
 * (bench/km_experiment_rate.c, bs_double_hash_exact.c) the model is within 1.3% for
 * double from 5 items on, within 0.2% for partition, within 4% for
 * double_cube from 20 items on and within 5% for double_square from 50
 * items on; below those two err high (14% at 20 to 30 items).  With no
 * multi-covers it is the familiar (1 - (1-k/m)^n)^k; the rest is the term
 * the schemes' older models left out, and at small n it is most of the rate
 * (1,000 items at 1e-6 in partition: about n/m'^2).
 *
 * The counts N_t of each scheme, with m prime (bs_probe.h):
 *   double      positions a + i b mod m, b != 0.  Scaling by 1/b and moving
 *               by -a turns z into {0, ..., k-1} and a member into
 *               {alpha + i beta}; it covers two positions only when
 *               beta = p/q, a ratio of integers below k in size.  For
 *               m > 3 k^2 the count is that of integer progressions and
 *               does not depend on m (counted once per k); for smaller m it
 *               is counted over all (alpha, beta) mod m.
 *   double_square  a + i b + i^2: the members that are z moved by d steps
 *               (b' = b + 2d) or read backwards around c (b' = -b - 2c)
 *               cover k - |d| and min(c, 2k-2-c) + 1 positions; every other
 *               pair of positions is covered by the one (a', b') that puts
 *               two chosen probes on it, k (k - 1) per pair in all.
 *   double_cube a + i b + i^3: only z itself covers more than two.
 *   partition   in each subarray a + i b mod m': a member with the same
 *               (a, b) covers all k, any other at most one (KM section 3).
 * A z of the square and cube schemes has fewer than k distinct positions
 * for the b that make two probes meet (b = -(i + j), b = -(i^2 + ij + j^2));
 * those are counted exactly.
 *
 * Terms: KM is Kirsch and Mitzenmacher (2008); their Theta(1/n) term is the
 * share of false positives caused by one member repeating most positions.
 */
#include "analysis/bs_double_hash_rate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bloom/bs_bloom.h"
#include "common/bs_error.h"
#include "common/bs_primes.h"

/* Largest k whose counts are exact; beyond it they are bounded. */
#define KM_EXACT_MAX_K 64
/* Sizing tries k up to this many hashes. */
#define KM_SIZE_MAX_K 64
/*
 * Counting every (alpha, beta) of a small double filter costs m k^2; past
 * this the counts of m > 3 k^2 stand in (they miss the rare coincidences
 * of wrapping around m, a small part of these filters' rate).
 */
#define KM_DIRECT_WORK 4e6
/* What the term may add to the rate of the sizing without it (bs_km_size). */
#define KM_TERM_TOLERANCE 0.02

/* What one member covers of one non-member, for a given scheme and shape. */
typedef struct cover_model
{
	uint32_t	hashes;
	long double sigma;			/* chance it covers a given position of z */
	long double count[BS_BLOOM_MAX_HASHES + 1];	/* N_t, t >= 2 */
	long double unit;			/* 1 / (number of pairs (a, b)) */
	long double z_share[BS_BLOOM_MAX_HASHES + 1];	/* z with d distinct positions */
} cover_model;

bool
bs_km_models(uint8_t scheme)
{
	return scheme == BS_SCHEME_DOUBLE || scheme == BS_SCHEME_DOUBLE_SQUARE ||
		scheme == BS_SCHEME_DOUBLE_CUBE || scheme == BS_SCHEME_PARTITION;
}

static uint32_t
gcd32(uint32_t a, uint32_t b)
{
	while (b != 0)
	{
		uint32_t	r = a % b;

		a = b;
		b = r;
	}
	return a;
}

/*
 * Double hashing for m > 3 k^2: members {x + l p : l < L} (the probes in one
 * residue class i0 mod q of slope p/q) against z = {0, ..., k-1}; slopes
 * -p/q mirror them.  The counts depend on k alone, so they are kept.
 */
static const long double *
double_counts_integer(uint32_t k)
{
	static long double counts[KM_EXACT_MAX_K + 1][KM_EXACT_MAX_K + 1];
	static bool known[KM_EXACT_MAX_K + 1];
	long double *n = counts[k];

	if (known[k])
		return n;
	memset(n, 0, sizeof(counts[k]));
	for (uint32_t q = 1; q < k; q++)
		for (uint32_t p = 1; p < k; p++)
		{
			if (gcd32(p, q) != 1)
				continue;
			for (uint32_t i0 = 0; i0 < q; i0++)
			{
				int64_t		terms = (int64_t) (k - 1 - i0) / q + 1;

				if (terms < 2)
					continue;
				for (int64_t x = -(terms - 1) * p; x < (int64_t) k; x++)
				{
					int64_t		lo = x < 0 ? (-x + p - 1) / p : 0;
					int64_t		hi = ((int64_t) k - 1 - x) / p;

					if (hi > terms - 1)
						hi = terms - 1;
					if (hi - lo + 1 >= 2)
						n[hi - lo + 1] += 2;
				}
			}
		}
	known[k] = true;
	return n;
}

/* Double hashing for small m: every (alpha, beta) mod m, O(m k^2). */
static bool
double_counts_direct(uint64_t m, uint32_t k, long double *count)
{
	uint32_t   *hits = calloc(m, sizeof(uint32_t));

	if (hits == NULL)
		return false;
	for (uint64_t beta = 1; beta < m; beta++)
	{
		memset(hits, 0, m * sizeof(uint32_t));
		for (uint64_t i = 0; i < k; i++)
			for (uint64_t j = 0; j < k; j++)
				hits[(j + m - (i * beta) % m) % m]++;
		for (uint64_t alpha = 0; alpha < m; alpha++)
			if (hits[alpha] >= 2)
				count[hits[alpha]] += 1;
	}
	free(hits);
	return true;
}

/*
 * Beyond KM_EXACT_MAX_K: the slopes +-1 exactly (shifts and the reversal),
 * and every other pair of covered positions as if it came from members
 * covering ceil(k/2), the most another slope can.
 */
static void
double_counts_bounded(uint32_t k, long double *count)
{
	long double pairs = (long double) k * (k - 1) / 2 * k * (k - 1);
	uint32_t	half = (k + 1) / 2;

	for (uint32_t d = 0; d + 2 <= k; d++)
	{
		long double same = d == 0 ? 2 : 4;	/* +-d, both slopes */

		count[k - d] += same;
		pairs -= same * (long double) (k - d) * (k - d - 1) / 2;
	}
	if (pairs > 0 && half >= 2)
		count[half] += pairs / ((long double) half * (half - 1) / 2);
}

/* The distinct positions of i b + f(i) mod m, i < k (f = i^2 or i^3). */
static uint32_t
distinct_positions(uint8_t scheme, uint64_t m, uint32_t k, uint64_t b, uint64_t *scratch)
{
	uint32_t	distinct = 0;

	for (uint64_t i = 0; i < k; i++)
	{
		uint64_t	f = (i * i) % m;

		if (scheme == BS_SCHEME_DOUBLE_CUBE)
			f = f * i % m;
		scratch[i] = ((i * b) % m + f) % m;
	}
	for (uint32_t i = 0; i < k; i++)
	{
		bool		seen = false;

		for (uint32_t j = 0; j < i && !seen; j++)
			seen = scratch[j] == scratch[i];
		distinct += !seen;
	}
	return distinct;
}

/*
 * z_share for double_square and double_cube: the b at which two probes of
 * one item meet, each with its number of distinct positions.
 */
static void
collision_shares(uint8_t scheme, uint64_t m, uint32_t k, cover_model *model)
{
	uint64_t	candidates[KM_EXACT_MAX_K * KM_EXACT_MAX_K];
	uint64_t	scratch[KM_EXACT_MAX_K];
	size_t		ncandidates = bs_km_meeting_steps(scheme, m, k, candidates);
	long double rest = 1;

	for (size_t c = 0; c < ncandidates; c++)
	{
		uint32_t	d = distinct_positions(scheme, m, k, candidates[c], scratch);

		model->z_share[d] += 1.0L / m;
		rest -= 1.0L / m;
	}
	model->z_share[k] += rest;
}

/* Shifts and reversals of double_square, and the pairs left to cover. */
static void
square_counts(uint32_t k, long double *count)
{
	long double pairs = (long double) k * (k - 1) / 2 * k * (k - 1);

	for (uint32_t d = 0; d + 2 <= k; d++)
	{
		long double same = d == 0 ? 1 : 2;

		count[k - d] += same;
		pairs -= same * (long double) (k - d) * (k - d - 1) / 2;
	}
	for (uint32_t c = 0; c + 2 <= 2 * k - 2; c++)
	{
		uint32_t	t = (c < 2 * k - 2 - c ? c : 2 * k - 2 - c) + 1;

		if (t < 2)
			continue;
		count[t] += 1;
		pairs -= (long double) t * (t - 1) / 2;
	}
	if (pairs > 0)
		count[2] += pairs;
}

static void
build_model(uint8_t scheme, uint64_t bits, uint32_t k, cover_model *model)
{
	long double m = (long double) bits;

	memset(model, 0, sizeof(*model));
	model->hashes = k;
	model->z_share[k] = 1;
	if (scheme == BS_SCHEME_PARTITION)
	{
		long double width = m / k;

		model->sigma = 1 / width;
		model->unit = 1 / (width * width);
		model->count[k] = 1;
		return;
	}
	if (scheme == BS_SCHEME_DOUBLE)
	{
		model->sigma = k / m;
		model->unit = 1 / (m * (m - 1));
		if (k > KM_EXACT_MAX_K)
			double_counts_bounded(k, model->count);
		else if (bits > 3 * (uint64_t) k * k || (double) bits * k * k > KM_DIRECT_WORK ||
				 !double_counts_direct(bits, k, model->count))
			memcpy(model->count, double_counts_integer(k), (k + 1) * sizeof(long double));
		return;
	}
	model->unit = 1 / (m * m);
	if (scheme == BS_SCHEME_DOUBLE_SQUARE)
		square_counts(k, model->count);
	else
	{
		model->count[k] = 1;
		model->count[2] = (long double) k * (k - 1) / 2 * ((long double) k * (k - 1) - 1);
	}
	if (k <= KM_EXACT_MAX_K)
	{
		model->z_share[k] = 0;
		collision_shares(scheme, bits, k, model);
	}
	{
		long double mean_distinct = 0;

		for (uint32_t d = 1; d <= k; d++)
			mean_distinct += d * model->z_share[d];
		model->sigma = mean_distinct / m;
	}
}

/* C(a, b) for a <= KM_EXACT_MAX_K, exact in long double (C(64, 32) < 2^61) */
static long double
choose(uint32_t a, uint32_t b)
{
	static long double table[KM_EXACT_MAX_K + 1][KM_EXACT_MAX_K + 1];
	static bool known;

	if (!known)
	{
		for (uint32_t i = 0; i <= KM_EXACT_MAX_K; i++)
		{
			table[i][0] = 1;
			for (uint32_t j = 1; j <= i; j++)
				table[i][j] = table[i - 1][j - 1] + (j <= i - 1 ? table[i - 1][j] : 0);
		}
		known = true;
	}
	return b <= a ? table[a][b] : 0;
}

/*
 * cov[r], the chance that the members covering one position each cover r
 * given positions of z: by inclusion-exclusion over the ones they miss,
 * sum_i (-1)^i C(r, i) (1 - i s)^n, which is below Q^r (the events are
 * negatively associated, noticeably so at small n).  Past 32 positions the
 * sum loses its digits to cancellation; there the rates that fit in a
 * filter make n s^2 so small that Q^r is as good.  With an observed fill,
 * cov[r] = fill^r.
 */
/* (1 - i s)^n for i <= 32: no member covers i given positions. */
static void
miss_chances(long double n, long double single, long double *miss)
{
	for (uint32_t i = 0; i <= 32; i++)
		miss[i] = i * single < 1 ? expl(n * log1pl(-(i * single))) : 0;
}

/* single_coverage from the miss chances of miss_chances (ignored with a fill). */
static void
coverage_from_miss(const long double *miss, double fill, uint32_t k, long double *cov)
{
	long double q = fill >= 0 ? (long double) fill : 1 - miss[1];
	long double product = 1;

	cov[0] = 1;
	for (uint32_t r = 1; r <= k; r++)
	{
		long double sum = 0;
		long double binom = 1;

		product *= q;			/* Q^r */
		if (fill >= 0 || r > 32)
		{
			cov[r] = product;
			continue;
		}
		for (uint32_t i = 0; i <= r; i++)
		{
			sum += i % 2 == 0 ? binom * miss[i] : -binom * miss[i];
			binom = binom * (r - i) / (i + 1);
		}
		cov[r] = sum < 0 ? 0 : sum > product ? product : sum;
	}
}

static void
single_coverage(long double n, long double single, double fill, uint32_t k, long double *cov)
{
	long double miss[33];

	if (fill < 0)
		miss_chances(n, single, miss);
	coverage_from_miss(miss, fill, k, cov);
}

/*
 * Add mass p at union size c plus one member covering t of d positions:
 * as the bound, t new positions (capped at d); otherwise t positions drawn
 * at random, of which a hypergeometric number are new.
 */
static void
add_cover(long double *next, long double p, uint32_t c, uint32_t t, uint32_t d, bool bound)
{
	if (bound)
	{
		next[c + t < d ? c + t : d] += p;
		return;
	}
	for (uint32_t fresh = 0; fresh <= t && fresh <= d - c; fresh++)
		if (t - fresh <= c)
			next[c + fresh] += p * choose(d - c, fresh) * choose(c, t - fresh) / choose(d, t);
}

/*
 * The step of mixed_rate in the random-subset mode, as a (d + 1)^2 matrix:
 * from a union of c of z's d positions to a union of c' after one more
 * member covering t >= 2, t drawn with the weights count[t] unit / mu.
 */
static void
union_step(const cover_model *model, long double mu, uint32_t d, long double *matrix)
{
	memset(matrix, 0, (d + 1) * (d + 1) * sizeof(long double));
	for (uint32_t c = 0; c <= d; c++)
		for (uint32_t t = 2; t <= model->hashes; t++)
			if (model->count[t] > 0)
				add_cover(matrix + c * (d + 1), model->count[t] * model->unit / mu,
						  c, t < d ? t : d, d, false);
}

/*
 * E[cov(d - |U|)] over U, the union of z's positions that j members
 * covering two or more cover between them, mixed over j ~ Binomial(n, mu).
 * The other n - j members cover one position each or none: each covers a
 * given one alone with chance single / (1 - mu), so cov is theirs (with an
 * observed fill, fill^r whatever j is).  At 10 items one multi-cover leaves
 * 9 members for the rest, which matters: Q^(k-2) drops by about (9/10)^(k-2).
 * The sum over j stops when the binomial mass left, which bounds what it
 * could still add, is negligible.
 */
static long double
mixed_rate(const cover_model *model, long double n, long double mu, long double single,
		   double fill, uint32_t d, bool bound)
{
	uint32_t	k = model->hashes;
	static long double cov[BS_BLOOM_MAX_HASHES + 1];
	long double miss[33];
	long double alone = mu < 1 ? single / (1 - mu) : 0;
	static long double covered[BS_BLOOM_MAX_HASHES + 1];
	static long double next[BS_BLOOM_MAX_HASHES + 1];
	static long double step[(KM_EXACT_MAX_K + 1) * (KM_EXACT_MAX_K + 1)];
	bool		have_step = false;
	long double log_weight = n * log1pl(-mu);	/* Binomial(n, mu) at j = 0 */
	long double left = 1;
	long double rate = 0;
	uint64_t	steps = 0;

	memset(covered, 0, (d + 1) * sizeof(long double));
	covered[0] = 1;
	for (long double j = 0; j <= n; j++)
	{
		long double weight = expl(log_weight);
		long double expect = 0;

		if (j == 0 && fill < 0)
			miss_chances(n, alone, miss);
		else if (fill < 0)
			for (uint32_t i = 1; i <= 32; i++)	/* one member fewer: (1 - i s)^(n - j) */
				miss[i] = 1 - i * alone > 0 ? miss[i] / (1 - i * alone) : 0;
		if (j == 0 || fill < 0)
			coverage_from_miss(miss, fill, d, cov);
		for (uint32_t c = 0; c <= d; c++)
			if (covered[c] > 0)
				expect += covered[c] * cov[d - c];
		rate += weight * expect;
		left -= weight;
		if (left <= 1e-15L * rate || left <= 0 || mu <= 0)
			break;
		if (covered[d] >= 1 - 1e-15L)
		{
			/* the multi-covers alone cover z from here on */
			rate += left;
			break;
		}
		/* one more member covering t >= 2, with chance count[t] unit / mu */
		memset(next, 0, (d + 1) * sizeof(long double));
		if (!bound && !have_step)
		{
			union_step(model, mu, d, step);
			have_step = true;
		}
		for (uint32_t c = 0; c <= d; c++)
		{
			if (covered[c] == 0)
				continue;
			if (!bound)
				for (uint32_t to = c; to <= d; to++)
					next[to] += covered[c] * step[c * (d + 1) + to];
			else
				for (uint32_t t = 2; t <= k; t++)
					if (model->count[t] > 0)
						add_cover(next, covered[c] * model->count[t] * model->unit / mu,
								  c, t < d ? t : d, d, true);
		}
		memcpy(covered, next, (d + 1) * sizeof(long double));
		{
			long double ratio = expl(logl((n - j) / (j + 1)) + logl(mu) - log1pl(-mu));

			log_weight += logl(ratio);

			/*
			 * `left` is 1 minus the weights so far, and stops falling once it
			 * reaches the rounding of 1 (about 1e-19), far above what the
			 * rule above needs when the rate is small.  Past the mode the
			 * weights fall at least geometrically, by `ratio` or faster, and
			 * each term is a weight times a chance: the terms left add up
			 * to at most w_(j+1) / (1 - ratio), which ends the sum as soon
			 * as that is below the rate's own rounding.
			 */
			if (ratio < 1 && expl(log_weight) / (1 - ratio) <= 1e-20L * rate)
				break;
		}
		if (++steps % 4096 == 0)
			bs_poll_interrupts();
	}
	return rate;
}

static double
model_fpr(const cover_model *model, long double n, double fill, bool bound)
{
	uint32_t	k = model->hashes;
	long double multi = 0;
	long double covered_by_multi = 0;
	long double single;
	long double rate = 0;

	if (n <= 0 || fill == 0)
		return 0;
	for (uint32_t t = 2; t <= k; t++)
	{
		multi += model->count[t] * model->unit;
		covered_by_multi += t * model->count[t] * model->unit;
	}
	/* tiny filters: nearly every member covers two or more positions */
	if (multi > 1 - 1e-12L)
		multi = 1 - 1e-12L;
	single = model->sigma - covered_by_multi / k;
	if (single < 0)
		single = 0;
	/*
	 * An observed fill counts the bits the multi-covers set too: the share
	 * set by members covering one position is the fill raised to
	 * ln(1 - s) / ln(1 - sigma), as (1 - s)^n is to (1 - sigma)^n.
	 */
	if (fill > 1)
		fill = 1;
	if (fill > 0 && fill < 1 && single < model->sigma)
		fill = (double) -expm1l(log1pl(-(long double) fill) * log1pl(-single) / log1pl(-model->sigma));
	/*
	 * The z whose probes meet (d < k) are rare in all but tiny filters,
	 * about 1/m each: below a share of 1e-4 their union is taken as the
	 * bound, which needs no step matrix per d.
	 */
	for (uint32_t d = 1; d <= k; d++)
		if (model->z_share[d] > 0)
			rate += model->z_share[d] *
				mixed_rate(model, n, multi, single, fill, d,
						   bound || (d < k && model->z_share[d] < 1e-4L));
	return rate > 1 ? 1 : (double) rate;
}

double
bs_km_fpr(uint8_t scheme, uint64_t bits, uint32_t hashes, double items, double fill)
{
	static cover_model model;

	build_model(scheme, bits, hashes, &model);
	/* past KM_EXACT_MAX_K the random-subset union costs O(k^3) a member */
	return model_fpr(&model, items, fill, hashes > KM_EXACT_MAX_K);
}

double
bs_km_term_factor(uint8_t scheme, uint64_t bits, uint32_t hashes, double items)
{
	static cover_model model;
	static long double cov[BS_BLOOM_MAX_HASHES + 1];
	double		with_term;

	build_model(scheme, bits, hashes, &model);
	with_term = model_fpr(&model, items, -1, hashes > KM_EXACT_MAX_K);
	/*
	 * The same model with every member covering at most one position: then
	 * fewer than k members cannot cover z at all, and the term is all.
	 */
	single_coverage(items, model.sigma, -1, hashes, cov);
	if (cov[hashes] > 0)
		return with_term / (double) cov[hashes];
	return with_term > 0 ? INFINITY : 1;
}

double
bs_km_rate(uint8_t scheme, uint64_t bits, uint32_t hashes, double items, double max_work)
{
	double		exact = bs_km_exact_fpr(scheme, bits, hashes, items, max_work);

	return isnan(exact) ? bs_km_fpr(scheme, bits, hashes, items, -1) : exact;
}

double
bs_km_report_rate(uint8_t scheme, uint64_t bits, uint32_t hashes, double items)
{
	double		rate = bs_km_exact_fpr(scheme, bits, hashes, items, BS_KM_REPORT_WORK);

	if (isnan(rate))
		rate = bs_km_sampled_fpr(scheme, bits, hashes, items, BS_KM_REPORT_WORK);
	return isnan(rate) ? bs_km_fpr(scheme, bits, hashes, items, -1) : rate;
}

/* The next prime m (or width m') of the scheme at or after `at`. */
static uint64_t
shape_at(uint8_t scheme, uint64_t at, uint32_t k)
{
	if (scheme == BS_SCHEME_PARTITION)
		return k * bs_next_prime(at < 2 ? 2 : at);
	return bs_next_prime(at < k ? k : at);
}

/* log(rate / fpr) of the scheme's shape (bits) at or after m bits, or m' for partition */
static double
excess_at(uint8_t scheme, double m, uint32_t k, double n, double fpr, uint64_t *shape)
{
	*shape = shape_at(scheme, (uint64_t) m, k);
	return log(bs_km_fpr(scheme, *shape, k, n, -1)) - log(fpr);
}

/*
 * The smallest m of the scheme with k hashes reaching fpr, from `from` on,
 * or 0 when it passes max_bits.  The rate falls as m grows, and log rate is
 * close to linear in log m, so the root of log(rate / fpr) in log m is
 * bracketed by growing m and then found by regula falsi with the Illinois
 * modification (which keeps it converging when one end sticks) to within
 * 0.2% of m.
 */
static uint64_t
smallest_bits_for(uint8_t scheme, uint32_t k, double n, double fpr, double from,
				  uint64_t max_bits)
{
	double		unit = scheme == BS_SCHEME_PARTITION ? k : 1;
	double		lo = log(fmax(from / unit, 2));
	uint64_t	shape;
	double		f_lo = excess_at(scheme, exp(lo), k, n, fpr, &shape);
	double		hi = lo;
	double		f_hi = f_lo;
	int			kept = 0;		/* 1: hi kept by the last step, -1: lo */

	if (f_lo <= 0)
		return shape <= max_bits ? shape : 0;
	while (f_hi > 0)
	{
		lo = hi;
		f_lo = f_hi;
		hi += log(2);
		if (exp(hi) * unit > (double) max_bits * 2)
			return 0;
		f_hi = excess_at(scheme, exp(hi), k, n, fpr, &shape);
	}
	while (hi - lo > 0.002)
	{
		double		mid = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
		double		f_mid;

		if (!(mid > lo + 0.0005 && mid < hi - 0.0005))
			mid = 0.5 * (lo + hi);
		f_mid = excess_at(scheme, exp(mid), k, n, fpr, &shape);
		if (f_mid > 0)
		{
			lo = mid;
			f_lo = f_mid;
			if (kept == 1)
				f_hi /= 2;
			kept = 1;
		}
		else
		{
			hi = mid;
			f_hi = f_mid;
			if (kept == -1)
				f_lo /= 2;
			kept = -1;
		}
	}
	shape = shape_at(scheme, (uint64_t) ceil(exp(hi)), k);
	return shape <= max_bits ? shape : 0;
}

/*
 * The smallest m for k hashes, or 0; skipped (0) when no m below `best`
 * can reach fpr even without the term: k/(1 - (1 - fpr^(1/k))^(1/n)),
 * and the pair floor sqrt(n / fpr) below.
 */
static uint64_t
best_for_k(uint8_t scheme, uint32_t k, double n, double fpr, double pair_floor,
		   uint64_t best, uint64_t max_bits)
{
	double		floor_bits = fmax(k / -expm1(log1p(-exp(log(fpr) / k)) / n),
								  scheme == BS_SCHEME_PARTITION ? k * pair_floor : pair_floor);

	if (!(floor_bits < (double) max_bits) || (best != 0 && floor_bits >= (double) best))
		return 0;
	return smallest_bits_for(scheme, k, n, fpr, floor_bits, max_bits);
}

bool
bs_km_size(uint8_t scheme, int64_t capacity, double fpr, uint64_t max_bits,
		   uint64_t start_bits, uint32_t start_hashes, uint64_t *bits, uint32_t *hashes)
{
	double		n = (double) capacity;
	uint64_t	best = 0;
	uint32_t	best_k = 0;
	/* k beyond log2(1/fpr) + 2 only makes a filter larger */
	uint32_t	max_k = (uint32_t) fmin(KM_SIZE_MAX_K, ceil(-log2(fpr)) + 2);
	uint32_t	first_k = start_hashes < 1 ? 1 : start_hashes > max_k ? max_k : start_hashes;
	/*
	 * Whatever k, a member with z's own pair (a, b) covers it: about
	 * n/m^2 (twice that for double, whose reversed pair covers it too), so
	 * m is at least sqrt(n / fpr) (k sqrt(n / fpr) for partition).
	 */
	double		pair_floor = sqrt((scheme == BS_SCHEME_DOUBLE ? 2 : 1) * n / fpr);

	/*
	 * The sizing without the term already reaches fpr without it; where the
	 * term adds less than KM_TERM_TOLERANCE to its rate, that shape stays
	 * (below what the model resolves, and filters sized before the term was
	 * modelled still combine with new ones of the same capacity and rate).
	 */
	/* no shape of at most max_bits can reach fpr: decided before any model */
	if (sqrt(n / fpr) > (double) max_bits)
		return false;
	if (start_bits != 0 && start_bits <= max_bits &&
		(bs_km_rate(scheme, start_bits, start_hashes, n, BS_KM_SIZING_WORK) <= fpr ||
		 bs_km_term_factor(scheme, start_bits, start_hashes, n) <= 1 + KM_TERM_TOLERANCE))
	{
		*bits = start_bits;
		*hashes = start_hashes;
		return true;
	}

	/*
	 * From the k of the sizing without the term outwards, each way until
	 * two k in a row do no better: the smallest m is unimodal in k.
	 */
	for (int direction = -1; direction <= 1; direction += 2)
	{
		int			worse = 0;

		for (int64_t k = direction < 0 ? first_k : first_k + 1;
			 k >= 1 && k <= max_k && worse < 1; k += direction)
		{
			uint64_t	found = best_for_k(scheme, (uint32_t) k, n, fpr, pair_floor, best, max_bits);

			if (found != 0 && (best == 0 || found < best))
			{
				best = found;
				best_k = (uint32_t) k;
				worse = 0;
			}
			else if (best != 0)
				worse++;
		}
	}
	if (best == 0)
		return false;
	/* the model errs low for a few tiny shapes: the exact rate has the last word */
	while (bs_km_rate(scheme, best, best_k, n, BS_KM_SIZING_WORK) > fpr)
	{
		best = shape_at(scheme, (uint64_t) ceil(best * 1.01 / (scheme == BS_SCHEME_PARTITION ? best_k : 1)),
						best_k);
		if (best > max_bits)
			return false;
	}
	*bits = best;
	*hashes = best_k;
	return true;
}
