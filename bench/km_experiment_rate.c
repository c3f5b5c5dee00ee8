/*
 * km_experiment_rate.c — the false-positive rate of each probing scheme
 * itself under ideal hashing ("KM rate"; exact where it can be computed,
 * else sampled), and the self-test (km_experiment -T) that checks those
 * rates against brute force and the core's positions against the form the
 * rates assume.
 */
#include "km_experiment.h"

static double
km_partition_rate(uint64_t bits, uint32_t k, int64_t n)
{
	long double width = (long double) (bits / k);
	long double q1 = (1 - 1 / width) / width;
	long double q_all = 1 / (width * width);
	long double binom = k;
	long double sum = 1;

	for (uint32_t j = 1; j <= k; j++)
	{
		long double term = binom * expl((long double) n * log1pl(-(q_all + j * q1)));

		sum += (j % 2 == 0) ? term : -term;
		binom = binom * (k - j) / (j + 1);
	}
	return (double) sum;
}

/* f(i) of extended double hashing (KM section 5.2), mod m. */
static uint64_t
km_offset(uint8_t scheme, uint64_t i, uint64_t m)
{
	if (scheme == BS_SCHEME_DOUBLE_SQUARE)
		return (i * i) % m;
	if (scheme == BS_SCHEME_DOUBLE_CUBE)
		return (i * i % m) * i % m;
	return 0;
}

/*
 * Pr(F | z) for one non-member z of the (extended) double hashing schemes
 * as the core implements them (KM section 5.2; bs_probe.h): positions
 * g_i = a + i b + f(i) mod m, m prime, a uniform on [0, m), b uniform on
 * [1, m) for double and on [0, m) for double_square and double_cube, under
 * ideal hashing.  Translation by a constant maps the members' distribution
 * onto itself, so z = (0, bz): its distinct positions D (at most k).
 * Every member (a, b) covering some of D has a = d - (j b + f(j)) for a
 * d in D and j < k, so the distribution of the subset S of D it covers is
 * counted over all b and those <= k^2 candidates per b, O(m k^2).  With
 * sub(U) the number of pairs (a, b) whose S is non-empty and inside U and
 * hit the number with S non-empty, inclusion-exclusion over the set T of
 * z's positions that no member covers gives
 *   Pr(F | z) = sum_{T <= D} (-1)^|T| (1 - (hit - sub(D - T)) / pairs)^n.
 * stamp and set are scratch arrays of m entries.
 */
static double
km_rate_given_z(uint8_t scheme, uint64_t m, uint32_t k, int64_t n, uint64_t bz,
				uint64_t *stamp, uint32_t *set, uint64_t *count, uint64_t *touched)
{
	uint64_t	zpos[32];
	uint32_t	nd = 0;
	uint64_t	b_first = scheme == BS_SCHEME_DOUBLE ? 1 : 0;
	long double pairs = (long double) m * (long double) (m - b_first);
	uint64_t	hit = 0;
	size_t		subsets;
	long double sum = 0;

	for (uint32_t i = 0; i < k; i++)
	{
		uint64_t	position = ((i * (bz % m)) % m + km_offset(scheme, i, m)) % m;
		bool		seen = false;

		for (uint32_t d = 0; d < nd; d++)
			seen |= zpos[d] == position;
		if (!seen)
			zpos[nd++] = position;
	}
	subsets = (size_t) 1 << nd;
	memset(count, 0, subsets * sizeof(uint64_t));

	for (uint64_t b = b_first; b < m; b++)
	{
		size_t		ntouched = 0;

		for (uint32_t j = 0; j < k; j++)
		{
			uint64_t	base = ((j * b) % m + km_offset(scheme, j, m)) % m;

			for (uint32_t d = 0; d < nd; d++)
			{
				uint64_t	a = zpos[d] >= base ? zpos[d] - base : zpos[d] + m - base;

				if (stamp[a] != b + 1)
				{
					stamp[a] = b + 1;
					set[a] = 0;
					touched[ntouched++] = a;
				}
				set[a] |= UINT32_C(1) << d;
			}
		}
		for (size_t x = 0; x < ntouched; x++)
			count[set[touched[x]]]++;
		hit += ntouched;
	}
	/* zeta transform: count[U] becomes the number of non-empty S inside U */
	for (uint32_t bit = 0; bit < nd; bit++)
		for (size_t u = 0; u < subsets; u++)
			if (u & ((size_t) 1 << bit))
				count[u] += count[u ^ ((size_t) 1 << bit)];
	for (size_t t = 0; t < subsets; t++)
	{
		uint64_t	covering = hit - count[(subsets - 1) & ~t];
		long double term = expl((long double) n * log1pl(-(long double) covering / pairs));

		sum += (__builtin_popcountll(t) % 2 == 0) ? term : -term;
	}
	return (double) sum;
}

/*
 * The KM rate of a cell, where this program can compute it: exact for
 * partition (closed form) and double (the affine maps y -> alpha y + beta
 * permute the members' lines too, so every z is like bz = 1); for
 * double_square and double_cube, whose Pr(F | z) depends on bz, the mean
 * over KM_SAMPLES uniform bz with its standard error.  NAN where the work
 * would exceed KM_WORK_LIMIT, and for independent and blocked, whose model
 * rates are already exact.
 */
#define KM_WORK_LIMIT 7e8
#define KM_SAMPLES 64
#define KM_MIN_SAMPLES 16

void
km_rate(cell *cl)
{
	double		work = (double) cl->m * cl->k * cl->k;
	int			samples;
	uint64_t   *stamp;
	uint32_t   *set;
	uint64_t   *count;
	uint64_t   *touched;
	double		rates[KM_SAMPLES];
	double		sum = 0;
	double		spread = 0;
	uint64_t	state = UINT64_C(0x4B4D2006) ^ cl->m;

	cl->km = NAN;
	cl->km_se = NAN;
	if (cl->scheme == BS_SCHEME_PARTITION)
	{
		cl->km = km_partition_rate(cl->m, cl->k, cl->n);
		cl->km_se = 0;
		cl->km_samples = 1;
		return;
	}
	if (cl->scheme == BS_SCHEME_DOUBLE)
		samples = 1;
	else if (cl->scheme == BS_SCHEME_DOUBLE_SQUARE || cl->scheme == BS_SCHEME_DOUBLE_CUBE)
		samples = (int) fmin(KM_SAMPLES, floor(KM_WORK_LIMIT / work));
	else
		return;
	if (cl->k > 20 || work * samples > KM_WORK_LIMIT ||
		(cl->scheme != BS_SCHEME_DOUBLE && samples < KM_MIN_SAMPLES))
		return;

	stamp = calloc(cl->m, sizeof(uint64_t));
	set = malloc(cl->m * sizeof(uint32_t));
	count = malloc(((size_t) 1 << cl->k) * sizeof(uint64_t));
	touched = malloc((size_t) cl->k * cl->k * sizeof(uint64_t));
	if (!stamp || !set || !count || !touched)
		die("out of memory");
	for (int s = 0; s < samples; s++)
	{
		uint64_t	bz = cl->scheme == BS_SCHEME_DOUBLE ? 1 : splitmix64(&state) % cl->m;

		memset(stamp, 0, cl->m * sizeof(uint64_t));
		rates[s] = km_rate_given_z(cl->scheme, cl->m, cl->k, cl->n, bz, stamp, set,
								   count, touched);
		sum += rates[s];
	}
	/* two passes: the spread is a millionth of the mean */
	cl->km = sum / samples;
	for (int s = 0; s < samples; s++)
		spread += (rates[s] - cl->km) * (rates[s] - cl->km);
	cl->km_se = samples > 1 ? sqrt(spread / (samples - 1) / samples) : 0;
	cl->km_samples = samples;
	free(stamp);
	free(set);
	free(count);
	free(touched);
}

/*
 * -T: check the KM rates against brute force on tiny filters.  Every
 * combination of hash values (a, b) of a non-member and of n members is
 * enumerated; the rate is the share of combinations in which the members
 * cover all of the non-member's positions.
 */
static uint64_t
brute_position(uint8_t scheme, uint64_t m, uint32_t k, uint64_t a, uint64_t b,
			   uint32_t i)
{
	if (scheme == BS_SCHEME_PARTITION)
	{
		uint64_t	width = m / k;

		return i * width + (a + i * b) % width;
	}
	return (a + i * b + km_offset(scheme, i, m)) % m;
}

static double
brute_rate(uint8_t scheme, uint64_t m, uint32_t k, int n)
{
	uint64_t	range = scheme == BS_SCHEME_PARTITION ? m / k : m;
	uint64_t	b_first = scheme == BS_SCHEME_DOUBLE ? 1 : 0;
	uint64_t	per_item = range * (range - b_first);
	uint64_t	combos = 1;
	uint64_t	covered = 0;

	for (int i = 0; i <= n; i++)
		combos *= per_item;
	for (uint64_t combo = 0; combo < combos; combo++)
	{
		uint64_t	rest = combo;
		uint64_t	bits = 0;	/* m <= 64 */
		uint64_t	za = 0,
					zb = 0;
		bool		all = true;

		for (int item = 0; item <= n; item++)
		{
			uint64_t	digit = rest % per_item;
			uint64_t	a = digit % range;
			uint64_t	b = digit / range + b_first;

			rest /= per_item;
			if (item == 0)
			{
				za = a;
				zb = b;
				continue;
			}
			for (uint32_t i = 0; i < k; i++)
				bits |= UINT64_C(1) << brute_position(scheme, m, k, a, b, i);
		}
		for (uint32_t i = 0; i < k; i++)
			all &= (bits >> brute_position(scheme, m, k, za, zb, i)) & 1;
		covered += all;
	}
	return (double) covered / (double) combos;
}

/*
 * -T, second part: the core's own positions (bs_bloom_positions) must have
 * the form the KM rates assume, with (a, b) uniform on their range.  For
 * 2,000,000 keys on a tiny filter (m = 11, or 4 subarrays of 11), recover
 * (a, b) from the first two positions, check that every position fits, and
 * compare the counts of the (a, b) with uniform by a chi-square statistic.
 */
static int
check_core_positions(void)
{
	static const uint8_t schemes[] = {BS_SCHEME_DOUBLE, BS_SCHEME_DOUBLE_SQUARE,
	BS_SCHEME_DOUBLE_CUBE, BS_SCHEME_PARTITION};
	const uint32_t k = 4;
	const uint64_t prime = 11;
	const int	keys = 2000000;
	int			bad = 0;

	for (size_t s = 0; s < sizeof(schemes) / sizeof(schemes[0]); s++)
	{
		uint8_t		scheme = schemes[s];
		uint64_t	m = scheme == BS_SCHEME_PARTITION ? k * prime : prime;
		uint64_t	b_first = scheme == BS_SCHEME_DOUBLE ? 1 : 0;
		uint64_t	cells = prime * (prime - b_first);
		uint64_t	tally[11 * 11] = {0};
		uint64_t	state = 12345;
		int			misfits = 0;
		double		chi2 = 0;
		double		expected = (double) keys / (double) cells;
		bs_probe	probe;

		bs_probe_init_scheme(&probe, (bs_scheme) scheme, m, k, 99);
		for (int x = 0; x < keys; x++)
		{
			uint64_t	key = splitmix64(&state);
			uint64_t	pos[4];
			uint64_t	a,
						b;

			bs_bloom_positions(&probe, &key, sizeof(key), pos);
			if (scheme == BS_SCHEME_PARTITION)
			{
				a = pos[0];
				b = (pos[1] - prime + prime - a) % prime;
			}
			else
			{
				a = pos[0];
				b = (pos[1] + 2 * prime - a - km_offset(scheme, 1, prime)) % prime;
			}
			if (b < b_first)
				misfits++;
			for (uint32_t i = 0; i < k; i++)
				if (pos[i] != brute_position(scheme, m, k, a, b, i))
					misfits++;
			tally[a * (prime - b_first) + (b - b_first)]++;
		}
		for (uint64_t c = 0; c < cells; c++)
			chi2 += (tally[c] - expected) * (tally[c] - expected) / expected;
		printf("core positions, %-13s m=%2llu k=%u: %d misfits in %d keys; chi-square of (a, b) %.1f on %llu df\n",
			   bs_scheme_name(scheme), (unsigned long long) m, k, misfits, keys, chi2,
			   (unsigned long long) (cells - 1));
		/* a loose bound: df + 6 sqrt(2 df) */
		if (misfits != 0 || chi2 > (cells - 1) + 6 * sqrt(2.0 * (cells - 1)))
			bad = 1;
	}
	return bad;
}

int
self_test(void)
{
	static const struct
	{
		uint8_t		scheme;
		uint64_t	m;
		uint32_t	k;
	}			cases[] = {
		{BS_SCHEME_DOUBLE, 7, 3}, {BS_SCHEME_DOUBLE, 11, 4},
		{BS_SCHEME_DOUBLE_SQUARE, 7, 3}, {BS_SCHEME_DOUBLE_SQUARE, 11, 4},
		{BS_SCHEME_DOUBLE_CUBE, 7, 3}, {BS_SCHEME_DOUBLE_CUBE, 11, 4},
		{BS_SCHEME_PARTITION, 15, 3}, {BS_SCHEME_PARTITION, 28, 4},
	};
	int			bad = 0;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
		for (int n = 1; n <= 2; n++)
		{
			uint8_t		scheme = cases[c].scheme;
			uint64_t	m = cases[c].m;
			uint32_t	k = cases[c].k;
			double		brute = brute_rate(scheme, m, k, n);
			double		km;

			if (scheme == BS_SCHEME_PARTITION)
				km = km_partition_rate(m, k, n);
			else
			{
				/* every bz, not the sample km_rate takes */
				uint64_t	stamp[64] = {0};
				uint32_t	set[64];
				uint64_t	count[1 << 4];
				uint64_t	touched[16];
				uint64_t	b_first = scheme == BS_SCHEME_DOUBLE ? 1 : 0;

				km = 0;
				for (uint64_t bz = b_first; bz < m; bz++)
				{
					memset(stamp, 0, sizeof(stamp));
					km += km_rate_given_z(scheme, m, k, n, bz, stamp, set, count, touched);
				}
				km /= (double) (m - b_first);
				if (scheme == BS_SCHEME_DOUBLE)
				{
					/* the symmetry km_rate relies on: bz = 1 is every bz */
					double		one;

					memset(stamp, 0, sizeof(stamp));
					one = km_rate_given_z(scheme, m, k, n, 1, stamp, set, count, touched);
					if (fabs(one - km) > 1e-12)
						bad = 1;
				}
			}
			printf("%-13s m=%2llu k=%u n=%d: brute force %.12f, KM rate %.12f%s\n",
				   bs_scheme_name(scheme), (unsigned long long) m, k, n, brute, km,
				   fabs(brute - km) > 1e-12 ? "  MISMATCH" : "");
			if (fabs(brute - km) > 1e-12)
				bad = 1;
		}
	bad |= check_core_positions();
	printf(bad ? "self-test FAILED\n" : "self-test passed\n");
	return bad;
}
