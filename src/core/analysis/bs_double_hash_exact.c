/*
 * bs_double_hash_exact.c — the exact false-positive rate of small filters of the
 * double-hashing schemes, Kirsch and Mitzenmacher's term included
 * (bs_double_hash_exact.h), by counting every member that covers part of a
 * non-member.
 *
 * Positions are g_i = a + i b + f(i) mod m, m prime, f = 0, i^2 or i^3, a
 * uniform on [0, m), b on [1, m) for double and on [0, m) for the others
 * (bs_probe.h), under ideal hashing.  Members are independent given the
 * non-member z, and translation maps the members' distribution onto itself,
 * so z = (0, bz) with its distinct positions D.  A member covering some of
 * D has a = d - (j b + f(j)) for some d in D and j < k: counting the subset
 * of D it covers over every b and those k |D| candidates per b takes
 * O(m k^2).  With sub(U) the number of pairs (a, b) whose covered subset is
 * non-empty and inside U, and hit the number covering anything,
 * inclusion-exclusion over the positions T that no member covers gives
 *   Pr(F | z) = sum_{T <= D} (-1)^|T| (1 - (hit - sub(D - T)) / pairs)^n.
 * For double every z is like bz = 1 (the affine maps y -> alpha y + beta
 * permute the members too); for double_square and double_cube Pr(F | z)
 * depends on bz and is averaged over all m of them, O(m^2 k^2).
 *
 * Terms: KM is Kirsch and Mitzenmacher (2008); their Theta(1/n) term is the
 * share of false positives caused by one member repeating most positions.
 */
#include "analysis/bs_double_hash_exact.h"

#include <math.h>
#include <string.h>

#include "analysis/bs_analysis.h"
#include "bloom/bs_bloom.h"

/* k positions give 2^k subsets */
#define EXACT_MAX_K 16
/* bs_km_sampled_fpr: the z that stand for those whose probes all differ */
#define EXACT_SAMPLES 16

typedef struct exact_scratch
{
	uint64_t   *stamp;			/* m entries: the b + 1 an a was last seen at */
	uint32_t   *covered;		/* m entries: the subset that a covers */
	uint64_t   *touched;		/* k^2 entries: the a seen at this b */
	uint64_t   *count;			/* 2^k entries: members per covered subset */
} exact_scratch;

static uint64_t
offset_of(uint8_t scheme, uint64_t i, uint64_t m)
{
	if (scheme == BS_SCHEME_DOUBLE_SQUARE)
		return (i * i) % m;
	if (scheme == BS_SCHEME_DOUBLE_CUBE)
		return (i * i % m) * i % m;
	return 0;
}

/* Count, per subset of D, the members covering exactly that subset. */
static uint64_t
count_covers(uint8_t scheme, uint64_t m, uint32_t k, const uint64_t *zpos, uint32_t nd,
			 exact_scratch *s)
{
	uint64_t	hit = 0;
	uint64_t	first_b = scheme == BS_SCHEME_DOUBLE ? 1 : 0;
	uint64_t	step[EXACT_MAX_K];	/* j b mod m, advanced with b: no division inside */
	uint64_t	shift[EXACT_MAX_K];	/* f(j) mod m */

	memset(s->stamp, 0, m * sizeof(uint64_t));
	memset(s->count, 0, ((size_t) 1 << nd) * sizeof(uint64_t));
	for (uint64_t j = 0; j < k; j++)
	{
		step[j] = j * first_b % m;
		shift[j] = offset_of(scheme, j, m);
	}
	for (uint64_t b = first_b; b < m; b++)
	{
		size_t		ntouched = 0;

		for (uint64_t j = 0; j < k; j++)
		{
			uint64_t	base = step[j] + shift[j];

			if (base >= m)
				base -= m;
			step[j] += j % m;
			if (step[j] >= m)
				step[j] -= m;

			for (uint32_t d = 0; d < nd; d++)
			{
				uint64_t	a = zpos[d] >= base ? zpos[d] - base : zpos[d] + m - base;

				if (s->stamp[a] != b + 1)
				{
					s->stamp[a] = b + 1;
					s->covered[a] = 0;
					s->touched[ntouched++] = a;
				}
				s->covered[a] |= UINT32_C(1) << d;
			}
		}
		for (size_t x = 0; x < ntouched; x++)
			s->count[s->covered[s->touched[x]]]++;
		hit += ntouched;
	}
	return hit;
}

/* Pr(F | z) for z = (0, bz). */
static long double
rate_given_z(uint8_t scheme, uint64_t m, uint32_t k, double n, uint64_t bz, exact_scratch *s)
{
	uint64_t	zpos[EXACT_MAX_K];
	uint32_t	nd = 0;
	long double pairs = (long double) m * (long double) (m - (scheme == BS_SCHEME_DOUBLE));
	size_t		subsets;
	uint64_t	hit;
	long double sum = 0;

	for (uint64_t i = 0; i < k; i++)
	{
		uint64_t	position = ((i * bz) % m + offset_of(scheme, i, m)) % m;
		bool		seen = false;

		for (uint32_t d = 0; d < nd; d++)
			seen |= zpos[d] == position;
		if (!seen)
			zpos[nd++] = position;
	}
	subsets = (size_t) 1 << nd;
	hit = count_covers(scheme, m, k, zpos, nd, s);
	/* zeta transform: count[U] becomes sub(U) */
	for (uint32_t bit = 0; bit < nd; bit++)
		for (size_t u = 0; u < subsets; u++)
			if (u & ((size_t) 1 << bit))
				s->count[u] += s->count[u ^ ((size_t) 1 << bit)];
	for (size_t t = 0; t < subsets; t++)
	{
		uint64_t	covering = hit - s->count[(subsets - 1) & ~t];
		long double term = expl((long double) n * log1pl(-(long double) covering / pairs));

		sum += __builtin_popcountll(t) % 2 == 0 ? term : -term;
	}
	return sum;
}

/* bs_analysis_free, which may be pfree, takes no NULL */
static void
release(void *pointer)
{
	if (pointer != NULL)
		bs_analysis_free(pointer);
}

static bool
is_meeting(const uint64_t *steps, size_t count, uint64_t b)
{
	for (size_t c = 0; c < count; c++)
		if (steps[c] == b)
			return true;
	return false;
}

/*
 * The mean of Pr(F | z) over bz: over every bz, or (sampled) over the
 * meeting bz exactly and EXACT_SAMPLES of the others at an even stride,
 * each standing for its share of them.  The others' rates differ little:
 * their 10th and 90th percentiles are within 3% of each other at 10 to
 * 30 items (m 127 to 1013), so the sample's mean is within about 1%.
 */
static long double
mean_over_steps(uint8_t scheme, uint64_t m, uint32_t k, double n, bool sampled,
				exact_scratch *s)
{
	uint64_t	steps[EXACT_MAX_K * EXACT_MAX_K];
	size_t		meeting;
	long double meeting_sum = 0;
	long double other_sum = 0;
	uint64_t	others = 0;

	if (scheme == BS_SCHEME_DOUBLE)
		return rate_given_z(scheme, m, k, n, 1, s);
	if (!sampled)
	{
		for (uint64_t bz = 0; bz < m; bz++)
			other_sum += rate_given_z(scheme, m, k, n, bz, s);
		return other_sum / m;
	}
	meeting = bs_km_meeting_steps(scheme, m, k, steps);
	for (size_t c = 0; c < meeting; c++)
		meeting_sum += rate_given_z(scheme, m, k, n, steps[c], s);
	for (uint64_t sample = 0; sample < EXACT_SAMPLES; sample++)
	{
		uint64_t	bz = (2 * sample + 1) * m / (2 * EXACT_SAMPLES);

		while (is_meeting(steps, meeting, bz))
			bz = (bz + 1) % m;
		other_sum += rate_given_z(scheme, m, k, n, bz, s);
		others++;
	}
	return (meeting_sum + other_sum / others * (long double) (m - meeting)) / m;
}

/* The rate, every bz counted or sampled; NAN when out of memory. */
static double
counted_rate(uint8_t scheme, uint64_t bits, uint32_t hashes, double items, bool sampled)
{
	exact_scratch s;
	long double rate = NAN;

	s.stamp = bs_analysis_alloc(bits * sizeof(uint64_t));
	s.covered = bs_analysis_alloc(bits * sizeof(uint32_t));
	s.touched = bs_analysis_alloc((size_t) hashes * hashes * sizeof(uint64_t));
	s.count = bs_analysis_alloc(((size_t) 1 << hashes) * sizeof(uint64_t));
	if (s.stamp && s.covered && s.touched && s.count)
		rate = mean_over_steps(scheme, bits, hashes, items, sampled, &s);
	release(s.stamp);
	release(s.covered);
	release(s.touched);
	release(s.count);
	return rate < 0 ? 0 : rate > 1 ? 1 : (double) rate;
}

/*
 * Whether the scheme's rate can be counted within max_work steps for zs
 * non-members: each costs m k^2 steps of count_covers and 2^k terms of
 * the inclusion-exclusion, about 12 steps each (a long double exp and log).
 */
static bool
countable(uint8_t scheme, uint64_t bits, uint32_t hashes, double zs, double max_work)
{
	return (scheme == BS_SCHEME_DOUBLE || scheme == BS_SCHEME_DOUBLE_SQUARE ||
			scheme == BS_SCHEME_DOUBLE_CUBE) && hashes >= 1 && hashes <= EXACT_MAX_K &&
		bits >= 2 &&
		zs * ((double) bits * hashes * hashes + 12 * ldexp(1, (int) hashes)) <= max_work;
}

double
bs_km_exact_fpr(uint8_t scheme, uint64_t bits, uint32_t hashes, double items,
				double max_work)
{
	double		zs = scheme == BS_SCHEME_DOUBLE ? 1 : (double) bits;

	if (!countable(scheme, bits, hashes, zs, max_work))
		return NAN;
	return items <= 0 ? 0 : counted_rate(scheme, bits, hashes, items, false);
}

double
bs_km_sampled_fpr(uint8_t scheme, uint64_t bits, uint32_t hashes, double items,
				  double max_work)
{
	double		meeting = scheme == BS_SCHEME_DOUBLE_SQUARE ? 2.0 * hashes - 3
		: (double) hashes * (hashes - 1) / 2;

	if (scheme == BS_SCHEME_DOUBLE ||
		!countable(scheme, bits, hashes, meeting + EXACT_SAMPLES, max_work))
		return NAN;
	return items <= 0 ? 0 : counted_rate(scheme, bits, hashes, items, true);
}

size_t
bs_km_meeting_steps(uint8_t scheme, uint64_t m, uint32_t k, uint64_t *steps)
{
	size_t		count = 0;

	for (uint64_t i = 0; i < k; i++)
		for (uint64_t j = i + 1; j < k; j++)
		{
			uint64_t	sum = scheme == BS_SCHEME_DOUBLE_SQUARE ? (i + j) % m
				: ((i * i) % m + (i * j) % m + (j * j) % m) % m;
			uint64_t	b = (m - sum) % m;
			bool		seen = false;

			for (size_t c = 0; c < count && !seen; c++)
				seen = steps[c] == b;
			if (!seen)
				steps[count++] = b;
		}
	return count;
}
