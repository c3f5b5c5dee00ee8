/*
 * km_experiment.c — Kirsch and Mitzenmacher's experiment ("Building a Better
 * Bloom Filter", Harvard tech report TR-02-05, 2006, section 8, Figures 1
 * and 2) on the six probing schemes of the pure C core.
 *
 * For each c = m/n, k is the one of floor(c ln 2) and ceil(c ln 2) with the
 * smaller p = (1 - e^{-k/c})^k (section 8).  For each scheme a trial builds
 * a filter of about c n bits (rounded to the scheme's shape), inserts n keys
 * and queries ceil(q/p) keys that are not members (q = 10 in the paper),
 * counting the false positives Q of the trial.  The table reports the mean
 * rate over all trials next to p, next to the exact rate of the model the
 * core uses for that scheme (bs_scheme_expected_fpr, at the actual m) and,
 * where it can be computed, next to the exact rate of the scheme itself
 * under ideal hashing (below, "KM rate"): the models treat the probe
 * positions of different items as in a standard or classic filter and so
 * leave out the Theta(1/n) term of section 6 (Theorems 6.2 and 6.3), which
 * comes from a non-member sharing two or more positions with one member.
 *
 * The histograms of Q (Figure 2) are written for every cell; section 8
 * compares them with the density of N(Qp, Qp(1 - p)) scaled to the trials.
 *
 * Keys: one splitmix64 stream per (n, c, scheme, trial); the first n outputs
 * are the members, the next ceil(q/p) the non-members.  splitmix64 is a
 * bijective mix of a counter, so all of them are distinct.  The filter's
 * seed is drawn from the same stream's seed.  Everything is deterministic
 * for a given -x; -j only changes who computes a cell, not its result.
 *
 * Usage: km_experiment [-r N:TRIALS[,N:TRIALS...]] [-c C[,C...]]
 *                      [-s SCHEME[,SCHEME...]] [-q Q] [-j JOBS] [-x SEED]
 *                      [-o CELLS.csv] [-H HISTOGRAMS.csv]
 * It prints the markdown tables on stdout and progress on stderr.
 * km_experiment -T checks the KM rates against brute force and exits.
 */
#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bs_analysis.h"
#include "bs_bloom.h"
#include "bs_primes.h"
#include "bs_scheme.h"
#include "bs_scheme_sizing.h"

#define MAX_RUNS 8
#define MAX_CS 16
#define MAX_CELLS (MAX_RUNS * MAX_CS * BS_SCHEME_LAST)
#define HIST_BINS 2048			/* per-trial counts Q >= this share the last bin */
#define Z_999 3.2905267314919255	/* two-sided 99.9% normal quantile */

typedef struct cell
{
	/* set up by the parent */
	int64_t		n;
	int			c;
	uint32_t	k;
	uint8_t		scheme;
	uint64_t	m;
	int64_t		trials;
	int64_t		queries;		/* per trial */
	double		p;				/* (1 - e^{-k/c})^k */
	double		model;			/* bs_scheme_expected_fpr at the actual m */
	double		cost;			/* rough work estimate, for scheduling */

	/* filled in by whichever process runs the cell */
	int			done;
	int			sanity_failed;	/* a member tested absent */
	double		km;				/* exact rate of the scheme itself, or NAN */
	double		km_se;			/* its sampling error (0 when exact) */
	int			km_samples;		/* values of bz averaged (1: exact) */
	double		sum_q;			/* sum over trials of Q */
	double		sum_q2;			/* sum over trials of Q^2 */
	double		cpu_seconds;	/* of the trials alone */
	uint32_t	hist[HIST_BINS];
} cell;

typedef struct shared_state
{
	int			next;			/* next index into order[] to run */
	int			ncells;
	int			order[MAX_CELLS];
	cell		cells[MAX_CELLS];
} shared_state;

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double
wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
die(const char *message)
{
	fprintf(stderr, "km_experiment: %s\n", message);
	exit(1);
}

/* Section 8: p = (1 - e^{-k/c})^k. */
static double
asymptotic_rate(int c, uint32_t k)
{
	return pow(-expm1(-(double) k / c), k);
}

/* The k of section 8: floor or ceil of c ln 2, whichever gives the smaller p. */
static uint32_t
section8_hashes(int c)
{
	uint32_t	lo = (uint32_t) floor(c * M_LN2);
	uint32_t	hi = (uint32_t) ceil(c * M_LN2);

	if (lo < 1)
		return hi;
	return asymptotic_rate(c, hi) < asymptotic_rate(c, lo) ? hi : lo;
}

/* m of about c n bits in the shape the scheme requires. */
static uint64_t
scheme_bits(uint8_t scheme, int64_t n, int c, uint32_t k)
{
	uint64_t	raw = (uint64_t) n * (uint64_t) c;

	switch (scheme)
	{
		case BS_SCHEME_PARTITION:
			return (uint64_t) k * bs_next_prime((raw + k - 1) / k);
		case BS_SCHEME_BLOCKED:
			return (raw + BS_BLOCK_BITS - 1) / BS_BLOCK_BITS * BS_BLOCK_BITS;
		case BS_SCHEME_INDEPENDENT:
			return raw;
		default:				/* double, double_square, double_cube */
			return bs_next_prime(raw);
	}
}

/*
 * Exact rate of KM's partition scheme with prime m' (section 5.1) under
 * ideal h1, h2 uniform on [m'].  Fix a non-member z.  Two distinct lines
 * mod a prime meet at most once, so a member x covers exactly one of z's k
 * positions (h2(x) != h2(z) and the one index where the lines meet falls
 * in [k]: probability q1 = (1 - 1/m')/m' for each position), all k
 * (h1 and h2 both equal: q_all = 1/m'^2) or none.  Members are independent
 * given z, so by inclusion-exclusion over the set T of z's positions that
 * no member covers,
 *   Pr(F) = 1 + sum_{j=1..k} (-1)^j C(k, j) (1 - q_all - j q1)^n.
 * This is Theorem 6.1's setting with Pr(||C(x)|| = j) = 0 for 2 <= j < k;
 * the q_all term is the n/m'^2 = k^2/(c^2 n) of Theorem 6.2's lower bound.
 */
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

static void
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

static int
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

/* One (n, c, scheme, trial): its own splitmix64 state. */
static uint64_t
trial_state(uint64_t base, const cell *cl, int64_t trial)
{
	uint64_t	state = base;
	uint64_t	mixed;

	state ^= (uint64_t) cl->n * UINT64_C(0x9E6C63D0676A9A99);
	mixed = splitmix64(&state);
	state = mixed ^ ((uint64_t) cl->c << 8 | cl->scheme);
	mixed = splitmix64(&state);
	state = mixed + (uint64_t) trial * UINT64_C(0xD6E8FEB86659FD93);
	return splitmix64(&state);
}

static void
run_cell(cell *cl, uint64_t base)
{
	size_t		bytes = bs_bloom_total_bytes(cl->m);
	size_t		word_bytes = 8 * bs_bloom_word_count(cl->m);
	bs_bloom   *filter = aligned_alloc(64, (bytes + 63) / 64 * 64);
	double		start;

	if (filter == NULL)
		die("out of memory");
	km_rate(cl);

	start = cpu_now();
	for (int64_t t = 0; t < cl->trials; t++)
	{
		uint64_t	state = trial_state(base, cl, t);
		uint64_t	seed = splitmix64(&state);
		uint64_t	keys = splitmix64(&state);
		uint64_t	first_key = keys;
		bs_probe	probe;
		int64_t		q = 0;

		memset(filter->words, 0, word_bytes);
		bs_bloom_init_scheme(filter, (bs_scheme) cl->scheme, cl->m, cl->k, seed);
		bs_probe_init_scheme(&probe, (bs_scheme) cl->scheme, cl->m, cl->k, seed);
		for (int64_t i = 0; i < cl->n; i++)
		{
			uint64_t	key = splitmix64(&keys);

			bs_bloom_add(filter, &probe, &key, sizeof(key));
		}
		for (int64_t i = 0; i < cl->queries; i++)
		{
			uint64_t	key = splitmix64(&keys);

			q += bs_bloom_test(filter, &probe, &key, sizeof(key));
		}
		if (t == 0)
		{
			/* no false negatives: replay the members of the first trial */
			for (int64_t i = 0; i < cl->n; i++)
			{
				uint64_t	key = splitmix64(&first_key);

				if (!bs_bloom_test(filter, &probe, &key, sizeof(key)))
					cl->sanity_failed = 1;
			}
		}
		cl->sum_q += (double) q;
		cl->sum_q2 += (double) q * (double) q;
		cl->hist[q < HIST_BINS ? q : HIST_BINS - 1]++;
	}
	cl->cpu_seconds = cpu_now() - start;
	cl->done = 1;
	free(filter);
}

/* Take cells off the shared queue until it is empty. */
static void
worker(shared_state *shared, uint64_t base, int id)
{
	for (;;)
	{
		int			slot = __atomic_fetch_add(&shared->next, 1, __ATOMIC_SEQ_CST);
		cell	   *cl;

		if (slot >= shared->ncells)
			return;
		cl = &shared->cells[shared->order[slot]];
		run_cell(cl, base);
		fprintf(stderr, "[worker %d] n=%lld c=%d %-13s m=%llu k=%u: %lld trials, %.1f s, rate %.6g (model %.6g)\n",
				id, (long long) cl->n, cl->c, bs_scheme_name(cl->scheme),
				(unsigned long long) cl->m, cl->k, (long long) cl->trials,
				cl->cpu_seconds, cl->sum_q / ((double) cl->trials * cl->queries),
				cl->model);
	}
}

/* Statistics of a finished cell. */
typedef struct cell_stats
{
	double		rate;			/* mean measured rate */
	double		se_measured;	/* standard error of the mean from the trials */
	double		se_binomial;	/* sqrt(model (1 - model) / N) */
	double		half_width;		/* 3.29 max(se_measured, se_binomial) */
	double		half_width_p;	/* the same with p in the binomial term */
	int			outside_model;
	int			outside_p;
	int			outside_km;		/* -1 when there is no KM rate */
} cell_stats;

static void
cell_statistics(const cell *cl, cell_stats *st)
{
	double		total = (double) cl->trials * (double) cl->queries;
	double		t = (double) cl->trials;
	double		mean_q = cl->sum_q / t;
	double		var_q = t > 1 ? (cl->sum_q2 - t * mean_q * mean_q) / (t - 1) : 0;
	double		se_p;

	if (var_q < 0)
		var_q = 0;
	st->rate = cl->sum_q / total;
	st->se_measured = sqrt(var_q / t) / (double) cl->queries;
	st->se_binomial = sqrt(cl->model * (1 - cl->model) / total);
	se_p = sqrt(cl->p * (1 - cl->p) / total);
	st->half_width = Z_999 * fmax(st->se_measured, st->se_binomial);
	st->half_width_p = Z_999 * fmax(st->se_measured, se_p);
	st->outside_model = fabs(st->rate - cl->model) > st->half_width;
	st->outside_p = fabs(st->rate - cl->p) > st->half_width_p;
	if (isnan(cl->km))
		st->outside_km = -1;
	else
	{
		double		se = fmax(st->se_measured, sqrt(cl->km * (1 - cl->km) / total));

		/* a sampled KM rate adds its own error */
		st->outside_km = fabs(st->rate - cl->km) >
			Z_999 * sqrt(se * se + cl->km_se * cl->km_se);
	}
}

/* Parse "a,b,c" into integers; returns the count. */
static int
parse_list(const char *text, long long *out, int max)
{
	int			count = 0;
	char	   *copy = strdup(text);
	char	   *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *end;

		if (count == max)
			die("too many list entries");
		errno = 0;
		out[count++] = strtoll(tok, &end, 10);
		if (errno != 0 || *end != '\0')
			die("bad number in a list");
	}
	free(copy);
	return count;
}

static void
usage(void)
{
	fprintf(stderr,
			"usage: km_experiment [-r N:TRIALS[,N:TRIALS...]] [-c C[,C...]] [-s SCHEME[,...]]\n"
			"                     [-q Q] [-j JOBS] [-x SEED] [-o CELLS.csv] [-H HIST.csv]\n"
			"       km_experiment -T   (check the KM rates against brute force)\n"
			"defaults: -r 5000:10000 -c 4,8,12,16 -s all six -q 10 -j 1 -x 20060101\n");
	exit(2);
}

static const char *
fmt_rate(char *buf, size_t size, double x)
{
	if (isnan(x))
		snprintf(buf, size, "—");
	else
		snprintf(buf, size, "%.4e", x);
	return buf;
}

/* The KM rate for the table: "—", the exact value, or mean ± SE (samples). */
static const char *
fmt_km(char *buf, size_t size, const cell *cl)
{
	if (isnan(cl->km))
		snprintf(buf, size, "—");
	else if (cl->km_se == 0)
		snprintf(buf, size, "%.4e", cl->km);
	else
		snprintf(buf, size, "%.4e ± %.1e", cl->km, cl->km_se);
	return buf;
}

static void
print_tables(const shared_state *shared, double query_factor, const long long *run_n, int nruns,
			 const long long *cs, int ncs, const uint8_t *schemes, int nschemes)
{
	char		b1[32],
				b2[32],
				b3[32],
				b4[64];

	printf("Columns: **m** is the actual size (next prime >= cn for double, double_square and\n"
		   "double_cube; k * nextprime(ceil(cn/k)) for partition; cn for independent; cn rounded up\n"
		   "to a multiple of 512 for blocked).  **measured rate** = false positives / (trials x\n"
		   "queries); **SE (trials)** = standard deviation of the per-trial rates / sqrt(trials).\n"
		   "**p** = (1 - e^{-k/c})^k (section 8).  **model rate** = the core's exact rate for the\n"
		   "scheme at the actual m (bs_scheme_expected_fpr: classic for double, standard for\n"
		   "double_square, double_cube and independent, bs_partition_fpr, bs_blocked_fpr).\n"
		   "**99.9%% ±** = 3.29 max(binomial SE sqrt(r(1-r)/N) under the model rate r with N = trials x\n"
		   "queries, SE (trials)), as a percentage of the model rate: the binomial term treats all N\n"
		   "queries as independent and so leaves out the trial-to-trial variation of the filter, which\n"
		   "the SE across trials includes.  **vs model**, **vs p**: is the measured rate outside that\n"
		   "interval around the model rate, around p.  **KM rate** = the exact rate of the scheme as\n"
		   "the core implements it, under ideal hashing, including the Theta(1/n) term of section 6\n"
		   "(partition: closed form; double: enumeration; double_square, double_cube: mean over 64\n"
		   "random second hashes of the non-member, ± its standard error; — where not computed:\n"
		   "independent and blocked, whose model rates are already exact, and filters too large to\n"
		   "enumerate).  **vs KM**: the same test around the KM rate.  **ms/trial**: CPU time of one\n"
		   "trial (build and queries).\n\n");
	for (int r = 0; r < nruns; r++)
	{
		const cell *first = NULL;

		for (int i = 0; i < shared->ncells; i++)
			if (shared->cells[i].n == run_n[r])
			{
				first = &shared->cells[i];
				break;
			}
		if (first == NULL)
			continue;
		printf("### n = %lld, %lld trials per cell, ⌈%g/p⌉ queries per trial\n\n",
			   run_n[r], (long long) first->trials, query_factor);
		printf("| c | k | scheme | m | queries/trial | measured rate | SE (trials) | p | model rate | (meas − model)/model | 99.9%% ± | vs model | vs p | KM rate | vs KM | ms/trial |\n");
		printf("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|:---:|---:|:---:|---:|\n");
		for (int ci = 0; ci < ncs; ci++)
			for (int si = 0; si < nschemes; si++)
				for (int i = 0; i < shared->ncells; i++)
				{
					const cell *cl = &shared->cells[i];
					cell_stats st;

					if (cl->n != run_n[r] || cl->c != cs[ci] || cl->scheme != schemes[si])
						continue;
					cell_statistics(cl, &st);
					printf("| %d | %u | %s | %llu | %lld | %s | %.2e | %s | %s | %+.2f%% | %.2f%% | %s | %s | %s | %s | %.3f |\n",
						   cl->c, cl->k, bs_scheme_name(cl->scheme),
						   (unsigned long long) cl->m, (long long) cl->queries,
						   fmt_rate(b1, sizeof(b1), st.rate), st.se_measured,
						   fmt_rate(b2, sizeof(b2), cl->p),
						   fmt_rate(b3, sizeof(b3), cl->model),
						   100 * (st.rate - cl->model) / cl->model,
						   100 * st.half_width / cl->model,
						   st.outside_model ? "**outside**" : "in",
						   st.outside_p ? "**outside**" : "in",
						   fmt_km(b4, sizeof(b4), cl),
						   st.outside_km < 0 ? "" : st.outside_km ? "**outside**" : "in",
						   1000 * cl->cpu_seconds / (double) cl->trials);
				}
		printf("\n");
	}

	/* Figure 1 in numbers: measured rate / p */
	printf("### Measured rate / p (the shape of Figure 1)\n\n");
	printf("| n | c | k | p |");
	for (int si = 0; si < nschemes; si++)
		printf(" %s |", bs_scheme_name(schemes[si]));
	printf("\n|---:|---:|---:|---:|");
	for (int si = 0; si < nschemes; si++)
		printf("---:|");
	printf("\n");
	for (int r = 0; r < nruns; r++)
		for (int ci = 0; ci < ncs; ci++)
		{
			int			printed = 0;

			for (int si = 0; si < nschemes; si++)
				for (int i = 0; i < shared->ncells; i++)
				{
					const cell *cl = &shared->cells[i];
					cell_stats st;

					if (cl->n != run_n[r] || cl->c != cs[ci] || cl->scheme != schemes[si])
						continue;
					if (!printed)
						printf("| %lld | %d | %u | %.4e |", run_n[r], cl->c, cl->k, cl->p);
					printed = 1;
					cell_statistics(cl, &st);
					printf(" %.3f%s |", st.rate / cl->p, st.outside_model ? "*" : "");
				}
			if (printed)
				printf("\n");
		}
	printf("\n`*`: outside the 99.9%% interval around the scheme's model rate.\n\n");
}

static void
write_csv(const shared_state *shared, const char *path)
{
	FILE	   *out = fopen(path, "w");

	if (out == NULL)
		die("cannot open the cells CSV");
	fprintf(out, "n,c,k,scheme,m,trials,queries_per_trial,false_positives,measured_rate,"
			"se_measured,p,model_rate,km_rate,km_rate_se,km_samples,se_binomial_model,half_width_999,"
			"outside_model,outside_p,outside_km,ms_per_trial\n");
	for (int i = 0; i < shared->ncells; i++)
	{
		const cell *cl = &shared->cells[i];
		cell_stats	st;

		cell_statistics(cl, &st);
		fprintf(out, "%lld,%d,%u,%s,%llu,%lld,%lld,%.0f,%.10g,%.6g,%.10g,%.10g,",
				(long long) cl->n, cl->c, cl->k, bs_scheme_name(cl->scheme),
				(unsigned long long) cl->m, (long long) cl->trials,
				(long long) cl->queries, cl->sum_q, st.rate, st.se_measured,
				cl->p, cl->model);
		if (isnan(cl->km))
			fprintf(out, ",,0,");
		else
			fprintf(out, "%.10g,%.4g,%d,", cl->km, cl->km_se, cl->km_samples);
		fprintf(out, "%.6g,%.6g,%d,%d,", st.se_binomial, st.half_width,
				st.outside_model, st.outside_p);
		if (st.outside_km >= 0)
			fprintf(out, "%d", st.outside_km);
		fprintf(out, ",%.4f\n", 1000 * cl->cpu_seconds / (double) cl->trials);
	}
	fclose(out);
}

static void
write_histograms(const shared_state *shared, const char *path)
{
	FILE	   *out = fopen(path, "w");

	if (out == NULL)
		die("cannot open the histogram CSV");
	fprintf(out, "n,c,k,scheme,queries_per_trial,trials,p,model_rate,false_positives_in_trial,trials_with_that_count\n");
	for (int i = 0; i < shared->ncells; i++)
	{
		const cell *cl = &shared->cells[i];

		for (int q = 0; q < HIST_BINS; q++)
			if (cl->hist[q] != 0)
				fprintf(out, "%lld,%d,%u,%s,%lld,%lld,%.10g,%.10g,%d,%u\n",
						(long long) cl->n, cl->c, cl->k, bs_scheme_name(cl->scheme),
						(long long) cl->queries, (long long) cl->trials, cl->p,
						cl->model, q, cl->hist[q]);
	}
	fclose(out);
}

static int
compare_cost(const void *a, const void *b, void *arg)
{
	const shared_state *shared = arg;
	double		x = shared->cells[*(const int *) a].cost;
	double		y = shared->cells[*(const int *) b].cost;

	return (x < y) - (x > y);	/* largest first */
}

int
main(int argc, char **argv)
{
	long long	run_n[MAX_RUNS] = {5000};
	long long	run_trials[MAX_RUNS] = {10000};
	int			nruns = 1;
	long long	cs[MAX_CS] = {4, 8, 12, 16};
	int			ncs = 4;
	uint8_t		schemes[BS_SCHEME_LAST];
	int			nschemes = 0;
	double		query_factor = 10;
	int			jobs = 1;
	uint64_t	base_seed = 20060101;
	const char *cells_path = NULL;
	const char *hist_path = NULL;
	shared_state *shared;
	double		wall_start;
	double		wall;
	double		cpu_total = 0;
	int			opt;
	int			failed = 0;
	struct utsname uts;
	char		date[64];
	time_t		now = time(NULL);
	double		load[3] = {0, 0, 0};
	char		model_name[128] = "unknown CPU";
	FILE	   *cpuinfo;

	for (uint8_t s = 1; s <= BS_SCHEME_LAST; s++)
		schemes[nschemes++] = s;

	while ((opt = getopt(argc, argv, "r:c:s:q:j:x:o:H:Th")) != -1)
	{
		switch (opt)
		{
			case 'r':
				{
					char	   *copy = strdup(optarg);
					char	   *save = NULL;

					nruns = 0;
					for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
					{
						if (nruns == MAX_RUNS || sscanf(tok, "%lld:%lld", &run_n[nruns], &run_trials[nruns]) != 2 ||
							run_n[nruns] < 1 || run_trials[nruns] < 2)
							die("bad -r entry (want N:TRIALS with N >= 1, TRIALS >= 2)");
						nruns++;
					}
					free(copy);
					break;
				}
			case 'c':
				ncs = parse_list(optarg, cs, MAX_CS);
				for (int i = 0; i < ncs; i++)
					if (cs[i] < 1 || cs[i] > 64)
						die("c must be between 1 and 64");
				break;
			case 's':
				{
					char	   *copy = strdup(optarg);
					char	   *save = NULL;

					nschemes = 0;
					for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
						if (nschemes == BS_SCHEME_LAST || !bs_scheme_parse(tok, &schemes[nschemes++]))
							die("unknown scheme in -s");
					free(copy);
					break;
				}
			case 'q':
				query_factor = atof(optarg);
				if (!(query_factor > 0))
					die("-q must be positive");
				break;
			case 'j':
				jobs = atoi(optarg);
				if (jobs < 1 || jobs > 64)
					die("-j must be between 1 and 64");
				break;
			case 'x':
				base_seed = strtoull(optarg, NULL, 0);
				break;
			case 'o':
				cells_path = optarg;
				break;
			case 'H':
				hist_path = optarg;
				break;
			case 'T':
				return self_test();
			default:
				usage();
		}
	}
	if (optind != argc)
		usage();

	shared = mmap(NULL, sizeof(shared_state), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		die("mmap failed");
	memset(shared, 0, sizeof(shared_state));

	/* Set the cells up: shape, p and the model rate at the actual m. */
	for (int r = 0; r < nruns; r++)
		for (int ci = 0; ci < ncs; ci++)
		{
			uint32_t	k = section8_hashes((int) cs[ci]);
			double		p = asymptotic_rate((int) cs[ci], k);

			for (int si = 0; si < nschemes; si++)
			{
				cell	   *cl = &shared->cells[shared->ncells];
				bs_error	err;

				cl->n = run_n[r];
				cl->c = (int) cs[ci];
				cl->k = k;
				cl->scheme = schemes[si];
				cl->m = scheme_bits(cl->scheme, cl->n, cl->c, k);
				cl->trials = run_trials[r];
				cl->p = p;
				cl->queries = (int64_t) ceil(query_factor / p);
				if (!bs_scheme_shape_ok(cl->scheme, cl->m, k))
					die("a filter shape is not valid for its scheme");
				if (bs_scheme_expected_fpr(cl->scheme, (int64_t) cl->m, cl->n, k,
										   &cl->model, &err) != BS_OK)
				{
					fprintf(stderr, "km_experiment: %s: %s\n", err.message, err.detail);
					exit(1);
				}
				cl->cost = (double) cl->trials *
					((double) cl->n + (double) cl->queries) *
					(cl->scheme == BS_SCHEME_INDEPENDENT ? 0.6 * k : 1.0);
				shared->order[shared->ncells] = shared->ncells;
				shared->ncells++;
			}
		}
	qsort_r(shared->order, shared->ncells, sizeof(int), compare_cost, shared);

	wall_start = wall_now();
	if (jobs == 1)
		worker(shared, base_seed, 0);
	else
	{
		for (int w = 0; w < jobs; w++)
		{
			pid_t		pid = fork();

			if (pid < 0)
				die("fork failed");
			if (pid == 0)
			{
				worker(shared, base_seed, w);
				_exit(0);
			}
		}
		for (int w = 0; w < jobs; w++)
		{
			int			status;

			if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
				failed = 1;
		}
	}
	wall = wall_now() - wall_start;
	for (int i = 0; i < shared->ncells; i++)
	{
		if (!shared->cells[i].done)
			failed = 1;
		if (shared->cells[i].sanity_failed)
		{
			fprintf(stderr, "km_experiment: a member tested absent (n=%lld c=%d %s)\n",
					(long long) shared->cells[i].n, shared->cells[i].c,
					bs_scheme_name(shared->cells[i].scheme));
			failed = 1;
		}
		cpu_total += shared->cells[i].cpu_seconds;
	}
	if (failed)
		die("a worker failed");

	/* The report. */
	uname(&uts);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	getloadavg(load, 3);
	if ((cpuinfo = fopen("/proc/cpuinfo", "r")) != NULL)
	{
		char		line[256];

		while (fgets(line, sizeof(line), cpuinfo))
			if (strncmp(line, "model name", 10) == 0)
			{
				char	   *colon = strchr(line, ':');

				if (colon)
				{
					snprintf(model_name, sizeof(model_name), "%s", colon + 2);
					model_name[strcspn(model_name, "\n")] = '\0';
				}
				break;
			}
		fclose(cpuinfo);
	}
	printf("Run of %s on %s (%s %s, %ld cores, load average %.2f %.2f %.2f at the end).\n",
		   date, model_name, uts.sysname, uts.release, sysconf(_SC_NPROCESSORS_ONLN),
		   load[0], load[1], load[2]);
	printf("Command: `");
	for (int i = 0; i < argc; i++)
		printf("%s%s", i ? " " : "", argv[i]);
	printf("`  \n");
	printf("Wall time %.1f s with %d process%s; CPU time of the trials %.1f s.\n\n",
		   wall, jobs, jobs == 1 ? "" : "es", cpu_total);
	print_tables(shared, query_factor, run_n, nruns, cs, ncs, schemes, nschemes);

	if (cells_path)
		write_csv(shared, cells_path);
	if (hist_path)
		write_histograms(shared, hist_path);
	return 0;
}
