/*
 * bs_km_exact.c — the exact false-positive rate of small filters of the
 * double-hashing schemes, Kirsch and Mitzenmacher's term included
 * (bs_km_model.h), by counting every member that covers part of a
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
 */
#include "bs_km_model.h"

#include <math.h>
#include <string.h>

#include "bs_analysis.h"
#include "bs_bloom.h"

/* The counting's limits: k positions give 2^k subsets, and its work. */
#define EXACT_MAX_K 16
#define EXACT_MAX_WORK 1e6

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

	memset(s->stamp, 0, m * sizeof(uint64_t));
	memset(s->count, 0, ((size_t) 1 << nd) * sizeof(uint64_t));
	for (uint64_t b = scheme == BS_SCHEME_DOUBLE ? 1 : 0; b < m; b++)
	{
		size_t		ntouched = 0;

		for (uint64_t j = 0; j < k; j++)
		{
			uint64_t	base = ((j * b) % m + offset_of(scheme, j, m)) % m;

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

double
bs_km_exact_fpr(uint8_t scheme, uint64_t bits, uint32_t hashes, double items)
{
	bool		one_z = scheme == BS_SCHEME_DOUBLE;
	double		work = (double) bits * hashes * hashes * (one_z ? 1 : (double) bits);
	exact_scratch s;
	long double sum = 0;

	if ((scheme != BS_SCHEME_DOUBLE && scheme != BS_SCHEME_DOUBLE_SQUARE &&
		 scheme != BS_SCHEME_DOUBLE_CUBE) || hashes > EXACT_MAX_K || hashes < 1 ||
		bits < 2 || work > EXACT_MAX_WORK)
		return NAN;
	if (items <= 0)
		return 0;
	s.stamp = bs_analysis_alloc(bits * sizeof(uint64_t));
	s.covered = bs_analysis_alloc(bits * sizeof(uint32_t));
	s.touched = bs_analysis_alloc((size_t) hashes * hashes * sizeof(uint64_t));
	s.count = bs_analysis_alloc(((size_t) 1 << hashes) * sizeof(uint64_t));
	if (s.stamp && s.covered && s.touched && s.count)
	{
		for (uint64_t bz = one_z ? 1 : 0; bz < (one_z ? 2 : bits); bz++)
			sum += rate_given_z(scheme, bits, hashes, items, bz, &s);
		if (!one_z)
			sum /= bits;
	}
	else
		sum = NAN;
	release(s.stamp);
	release(s.covered);
	release(s.touched);
	release(s.count);
	return sum < 0 ? 0 : sum > 1 ? 1 : (double) sum;
}
