/*
 * test_fit_size.c — the size bloom_fit_agg chooses, checked analytically
 * against the smallest filter of any scheme that meets the rate, at every n
 * where the chosen power of two changes (docs/fit.md, "The size").
 *
 * The model: a fit position is a strong mix of h1 + i b (bs_fit.h), so the
 * k n positions of n members are k n independent uniform draws from [0, m)
 * and the filter's own rate is (s / m)^k, s its set bits.  The final
 * function keeps the smallest power of two m (at least BS_FIT_MIN_BITS and
 * k) whose filter meets the rate, and a filter at m meets it exactly when
 * s <= S(m), the largest s with bs_fit_fill_rate(s, m, k) <= fpr (folding
 * only raises the fill, so meeting at m implies meeting at every larger m).
 * So Pr[chosen size > m] = Pr[occupancy of k n balls in m bins > S(m)]:
 *   - counted exactly (a walk over the balls of the occupancy's
 *     distribution, probabilities below 1e-40 dropped and counted as
 *     failures) while m <= EXACT_MAX_BITS;
 *   - above, bounded by Bernstein's inequality, which holds for the bins'
 *     occupied indicators because they are negatively associated (Dubhashi
 *     and Ranjan, "Balls and bins: a study in negative dependence", 1998).
 * n_sure(m) is the largest n whose size exceeds m with probability at most
 * BETA; for n in (n_sure(m / 2), n_sure(m)] the size is at most m except
 * with that probability, so the largest ratio over that range is at its
 * first n, where the chosen power of two changes.  That ratio is checked
 * against 2.2 at every change up to n = 10^6, and the geometric mean of the
 * ratio over n log-uniform on [1, 10^6] (from an upper bound on
 * E[log2 size], the first size plus the sum of Pr[size > m] over the
 * ladder) against 1.45.  No size rule that keeps each filter's own rate
 * can bound every group: n values whose k n positions all differ set the
 * most bits, and they may (at n = 11, 1%: 1 group in 400 takes 256 bits
 * against 108); BETA says how rare the groups past the bound are.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bs_fit.h"
#include "check.h"
#include "test_fit.h"

/* the bound on sizes holds for all groups of a size but this share of them */
#define BETA 1e-2
#define N_MAX 1000000
#define EXACT_MAX_BITS (UINT64_C(1) << 15)
#define WORST_ALLOWED 2.2
#define MEAN_ALLOWED 1.45

/* S(m): the most set bits a filter of m bits may have and meet fpr. */
static uint64_t
most_set(uint64_t bits, uint32_t hashes, double fpr)
{
	uint64_t	s = (uint64_t) floor((double) bits * pow(fpr, 1.0 / hashes));

	/* settle on the core's own comparison, whatever the rounding of the guess */
	while (s < bits && bs_fit_fill_rate(s + 1, bits, hashes) <= fpr)
		s++;
	while (s > 0 && bs_fit_fill_rate(s, bits, hashes) > fpr)
		s--;
	return s;
}

/*
 * Pr[a group of n values does not meet the rate at m] for n = 0 .. count - 1
 * (m <= EXACT_MAX_BITS): the occupancy's distribution, item by item (k
 * balls each), over a window of the counts that carry probability; counts
 * dropped from the window are counted as failures.  From the n where the
 * failure is all but certain on, the table says 1.
 */
static double *
fail_table_exact(uint64_t bits, uint32_t hashes, uint64_t limit, uint64_t count)
{
	double	   *p = calloc(bits + 2, sizeof(double));
	double	   *fail = malloc(count * sizeof(double));
	uint64_t	lo = 0,
				hi = 0;			/* p[j] may be non-zero for lo <= j <= hi */
	double		dropped = 0;

	p[0] = 1;
	fail[0] = 0;
	for (uint64_t n = 1; n < count; n++)
	{
		double		tail = dropped;

		if (fail[n - 1] >= 1)
		{
			fail[n] = 1;
			continue;
		}
		for (uint32_t ball = 0; ball < hashes; ball++)
		{
			/* a ball lands in an occupied bin with chance j / m */
			uint64_t	top = hi < bits ? hi + 1 : bits;

			for (uint64_t j = top; j > lo; j--)
				p[j] = p[j] * ((double) j / (double) bits) +
					p[j - 1] * ((double) (bits - j + 1) / (double) bits);
			p[lo] *= (double) lo / (double) bits;
			hi = top;
			while (lo < hi && p[lo] < 1e-40)
				dropped += p[lo++];
			while (hi > lo && p[hi] < 1e-40)
			{
				dropped += p[hi];
				p[hi--] = 0;
			}
		}
		for (uint64_t j = limit + 1; j <= hi; j++)
			tail += p[j];
		fail[n] = tail > 1 - 1e-15 ? 1 : tail;
	}
	free(p);
	return fail;
}

/* Bernstein's bound on Pr[occupancy of `balls` balls in m bins > limit]. */
static double
occupancy_tail_bound(double bits, double balls, double limit)
{
	double		occupied = -expm1(balls * log1p(-1 / bits));
	double		mean = bits * occupied;
	double		variance = bits * occupied * (1 - occupied);
	double		t = floor(limit) + 1 - mean;

	if (t <= 0)
		return 1;
	return exp(-t * t / (2 * (variance + t / 3)));
}

/* The sizes of one rate: m = first * 2^j, their limits S(m) and exact tables. */
#define LADDER 40

typedef struct
{
	double		fpr;
	uint32_t	hashes;
	uint64_t	first;
	uint64_t	limit[LADDER];
	double	   *exact[LADDER];	/* NULL above EXACT_MAX_BITS */
} size_ladder;

static void
ladder_init(size_ladder *ladder, double fpr)
{
	ladder->fpr = fpr;
	ladder->hashes = bs_fit_hashes(fpr);
	ladder->first = bs_fit_min_bits(ladder->hashes);
	for (int j = 0; j < LADDER; j++)
	{
		uint64_t	bits = ladder->first << j;

		ladder->limit[j] = most_set(bits, ladder->hashes, fpr);
		ladder->exact[j] = bits <= EXACT_MAX_BITS ?
			fail_table_exact(bits, ladder->hashes, ladder->limit[j], bits + 1) : NULL;
	}
}

static void
ladder_free(size_ladder *ladder)
{
	for (int j = 0; j < LADDER; j++)
		free(ladder->exact[j]);
}

/* An upper bound on Pr[the size chosen for n values exceeds first * 2^j]. */
static double
fail_bound(const size_ladder *ladder, int j, uint64_t n)
{
	uint64_t	bits = ladder->first << j;

	if (n >= bits)
		return 1;				/* more values than bits: never within the tables */
	if (ladder->exact[j] != NULL)
		return ladder->exact[j][n];
	return occupancy_tail_bound((double) bits, (double) ladder->hashes * (double) n,
								(double) ladder->limit[j]);
}

/* The largest n whose size exceeds first * 2^j with probability at most BETA. */
static uint64_t
sure_items(const size_ladder *ladder, int j, uint64_t n_low)
{
	uint64_t	lo = n_low,
				hi = ladder->first << j;

	if (fail_bound(ladder, j, lo) > BETA)
		return lo;
	/* the bound grows with n: bisect */
	while (hi - lo > 1)
	{
		uint64_t	mid = lo + (hi - lo) / 2;

		if (fail_bound(ladder, j, mid) <= BETA)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/*
 * An upper bound on E[log2 of the size chosen for n]: log2 of the first
 * size plus the sum over the sizes of Pr[the size exceeds it].
 */
static double
expected_log2_size(const size_ladder *ladder, uint64_t n)
{
	double		sum = log2((double) ladder->first);

	for (int j = 0; j < LADDER; j++)
	{
		double		p = fail_bound(ladder, j, n);

		sum += p;
		if (p < 1e-12)
			break;
	}
	return sum;
}

static void
test_rate_sizes(double fpr)
{
	size_ladder ladder;
	double		worst = 0;
	double		log_sum = 0;
	int			points = 0;
	int			changes = 0;
	uint64_t	previous = 0;

	ladder_init(&ladder, fpr);
	/* for n in (n_sure(m / 2), n_sure(m)] the size is at most m but with chance BETA */
	for (int j = 0; j < LADDER && previous < N_MAX; j++)
	{
		uint64_t	sure = sure_items(&ladder, j, previous);
		uint64_t	bits = ladder.first << j;
		double		ratio;

		if (sure <= previous)
			continue;
		ratio = (double) bits / bs_fit_reference_bits(previous + 1, fpr);
		CHECKF(ratio <= WORST_ALLOWED, "fpr %g n %" PRIu64 ": %" PRIu64 " bits, %.3f times the smallest",
			   fpr, previous + 1, bits, ratio);
		worst = fmax(worst, ratio);
		changes++;
		previous = sure;
	}
	CHECKF(previous >= N_MAX, "fpr %g: sizes reach n = %" PRIu64, fpr, previous);
	/* n log-uniform on [1, 10^6]: 20 points a decade, at the middle of each slice */
	for (int i = 0; i < 120; i++)
	{
		uint64_t	n = (uint64_t) llround(pow(10, 6 * (i + 0.5) / 120));

		log_sum += expected_log2_size(&ladder, n) * log(2) - log(bs_fit_reference_bits(n, fpr));
		points++;
	}
	CHECKF(exp(log_sum / points) <= MEAN_ALLOWED, "fpr %g: mean %.3f", fpr, exp(log_sum / points));
	printf("  fpr %g: %d sizes up to n = 10^6, worst %.3f (but with chance %g), mean %.3f times the smallest filter\n",
		   fpr, changes, worst, BETA, exp(log_sum / points));
	ladder_free(&ladder);
}

void
test_fit_size_model(void)
{
	static const double rates[] = {1e-2, 1e-3, 1e-4, 1e-5, 1e-6};

	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		test_rate_sizes(rates[r]);
}
