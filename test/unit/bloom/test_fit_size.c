/*
 * test_fit_size.c — the size bloom_fit_agg chooses, checked analytically
 * against the smallest filter of any scheme that meets the rate, at every n
 * where the chosen power of two changes (docs/fit.md, "The size, checked").
 *
 * The size of a group of n distinct values is m(n) = the smallest power of
 * two (at least bs_fit_min_bits(k)) whose expected rate f_S(m, n, k) is at
 * most fpr (bs_fit_size): a function of n, nondecreasing, since the rate
 * grows with n.  So n = 1 .. 10^6 falls into runs of one size each, found
 * here by bisection on bs_fit_size itself; at each run's first n the rule
 * is checked against the exact rate (the size meets it, half the size does
 * not), and so is the run's end.  The smallest filter of any scheme,
 * bs_fit_reference_bits(n), grows with n (each scheme's sizing does: its
 * rate grows with n at any shape), so within a run the ratio m(n) /
 * smallest(n) is largest at the run's first n: that ratio is checked
 * against 2.2 at every run, and the claim that it is the run's largest is
 * checked at the points sampled below.
 *
 * The means take n log-uniform: n = floor(X), X log-uniform on
 * [1, 10^6 + 1), so n has weight ln((n + 1) / n).  A run of a few n is
 * summed exactly; a longer one by SLICES slices of equal weight, each
 * represented by its middle (the ratio changes smoothly there: m is fixed
 * and the smallest filter nearly proportional to n).  The geometric mean
 * is checked against 1.45; the arithmetic mean, 1.42 to 1.45 (powers of
 * two alone give 1 / ln 2 = 1.443 for a ratio 2^U, U uniform), is printed.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bloom/bs_estimate.h"
#include "bloom/bs_fit.h"
#include "bloom/bs_fit_state.h"
#include "bloom/bs_scheme.h"
#include "check.h"
#include "test_fit.h"

#define N_MAX 1000000
#define WORST_ALLOWED 2.2
#define MEAN_ALLOWED 1.45
/* points of a long run that enter the means */
#define SLICES 6

/* The size bloom_fit_agg gives n distinct values (no ceiling in the way). */
static uint64_t
size_of(uint64_t n, uint32_t hashes, double fpr)
{
	bool		met;
	uint64_t	bits = bs_fit_size(n, hashes, fpr, BS_FIT_MAX_BITS, &met);

	CHECKF(met, "fpr %g n %" PRIu64 ": no size up to 2^32", fpr, n);
	return bits;
}

/* The first n after `from` whose size exceeds `bits` (sizes grow with n). */
static uint64_t
run_end(uint64_t from, uint64_t bits, uint32_t hashes, double fpr)
{
	uint64_t	lo = from,
				hi = from + 1;

	/* gallop to an n beyond the run, then bisect: size(lo) <= bits < size(hi) */
	while (size_of(hi, hashes, fpr) <= bits)
	{
		lo = hi;
		hi *= 2;
	}
	while (hi - lo > 1)
	{
		uint64_t	mid = lo + (hi - lo) / 2;

		if (size_of(mid, hashes, fpr) <= bits)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* The rule at n, on the exact rate: m meets fpr and m / 2 does not (or is below the smallest size). */
static void
check_rule(uint64_t n, uint64_t bits, uint32_t hashes, double fpr)
{
	CHECKF(bs_fit_expected_rate(bits, n, hashes) <= fpr &&
		   (bits == bs_fit_min_bits(hashes) || bs_fit_expected_rate(bits / 2, n, hashes) > fpr),
		   "fpr %g n %" PRIu64 ": size %" PRIu64 " is not the smallest that meets the rate",
		   fpr, n, bits);
}

typedef struct
{
	double		worst;
	uint64_t	worst_n;
	double		log_sum;		/* sum of weight * ln(ratio) */
	double		sum;			/* sum of weight * ratio */
	double		weight;
	int			runs;
} size_summary;

/* One point of the means: n with its weight, in a run whose first ratio is `first`. */
static void
add_point(size_summary *summary, uint64_t n, double weight, uint64_t bits, double fpr,
		  double first)
{
	double		ratio = (double) bits / bs_fit_reference_bits(n, fpr);

	CHECKF(ratio <= first * (1 + 1e-12), "fpr %g n %" PRIu64 ": %.4f times, above the run's first %.4f",
		   fpr, n, ratio, first);
	summary->log_sum += weight * log(ratio);
	summary->sum += weight * ratio;
	summary->weight += weight;
}

static void
test_rate_sizes(double fpr)
{
	uint32_t	hashes = bs_fit_hashes(fpr);
	size_summary summary = {0};
	uint64_t	n = 1;

	while (n <= N_MAX)
	{
		uint64_t	bits = size_of(n, hashes, fpr);
		uint64_t	end = run_end(n, bits, hashes, fpr);
		uint64_t	last = end - 1 < N_MAX ? end - 1 : N_MAX;
		double		first = (double) bits / bs_fit_reference_bits(n, fpr);

		check_rule(n, bits, hashes, fpr);
		check_rule(end - 1, bits, hashes, fpr);
		CHECKF(first <= WORST_ALLOWED, "fpr %g n %" PRIu64 ": %" PRIu64 " bits, %.3f times the smallest",
			   fpr, n, bits, first);
		if (first > summary.worst)
		{
			summary.worst = first;
			summary.worst_n = n;
		}
		summary.runs++;
		if (last - n < SLICES)
			for (uint64_t i = n; i <= last; i++)
				add_point(&summary, i, log((double) (i + 1) / (double) i), bits, fpr, first);
		else
		{
			double		width = log((double) (last + 1) / (double) n) / SLICES;

			for (int s = 0; s < SLICES; s++)
				add_point(&summary, (uint64_t) floor((double) n * exp((s + 0.5) * width)), width,
						  bits, fpr, first);
		}
		n = end;
	}
	/* the weights cover [1, 10^6 + 1) exactly */
	CHECK(fabs(summary.weight - log(N_MAX + 1.0)) < 1e-9);
	{
		double		geometric = exp(summary.log_sum / summary.weight);
		double		arithmetic = summary.sum / summary.weight;

		CHECKF(geometric <= MEAN_ALLOWED, "fpr %g: geometric mean %.3f", fpr, geometric);
		printf("  fpr %-7g k %2u: %2d sizes up to n = 10^6, worst %.7f (n = %" PRIu64
			   "), mean %.3f geometric, %.3f arithmetic times the smallest filter\n",
			   fpr, hashes, summary.runs, summary.worst, summary.worst_n, geometric, arithmetic);
	}
}

void
test_fit_size_model(void)
{
	/* the decades, and rates between them, where k = round(log2(1/fpr)) rounds the most */
	static const double rates[] = {1e-2, 5.5e-3, 3e-3, 1e-3, 1e-4, 4e-5, 1e-5, 1e-6};

	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		test_rate_sizes(rates[r]);
}

/* ---- real groups ---- */

/*
 * Groups built as the final function builds them from a hash list: each
 * within 2.2 times the smallest filter, one group per n from 1 to 100,000
 * at three rates, and many groups of the same n where a size chosen from
 * each group's own fill would put some at the next power of two (11 values
 * at 1% whose 77 positions all differ need 256 bits, against 108 for the
 * smallest filter; one value at 1e-5 whose 17 positions nearly all differ
 * needs 64 bits, against 27: 3 and 17 groups in these 3,000 would).
 */
static void
test_group_ratios(void)
{
	static const double rates[] = {1e-2, 1e-4, 1e-6};
	static const struct
	{
		double		fpr;
		uint64_t	n;
	}			crowded[] = {{1e-2, 11}, {1e-5, 1}};

	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
	{
		uint32_t	k = bs_fit_hashes(rates[r]);
		double		worst = 0;

		for (uint64_t n = 1; n <= 100000; n = n * 5 / 4 + 1)
		{
			uint64_t   *pairs = pairs_of_range((n << 20) + r, n);
			uint64_t   *words;
			bool		met;
			uint64_t	bits = fit_build(pairs, n, k, rates[r], BS_FIT_DEFAULT_CEILING, &words, &met);
			double		ratio = (double) bits / bs_fit_reference_bits(n, rates[r]);

			CHECKF(met && ratio <= WORST_ALLOWED, "fpr %g n %" PRIu64 ": %" PRIu64 " bits, %.3f times the smallest",
				   rates[r], n, bits, ratio);
			worst = fmax(worst, ratio);
			free(words);
			free(pairs);
		}
		printf("  fit groups at %g, n = 1 .. 100,000: at most %.3f times the smallest filter\n",
			   rates[r], worst);
	}
	for (size_t c = 0; c < sizeof(crowded) / sizeof(crowded[0]); c++)
	{
		uint32_t	k = bs_fit_hashes(crowded[c].fpr);
		uint64_t	n = crowded[c].n;
		double		smallest = bs_fit_reference_bits(n, crowded[c].fpr);
		uint64_t	over = 0;
		uint64_t	largest = 0;

		for (uint64_t g = 0; g < 3000; g++)
		{
			uint64_t   *pairs = pairs_of_range((UINT64_C(5) << 40) + c * (UINT64_C(1) << 36) + g * n, n);
			uint64_t   *words;
			bool		met;
			uint64_t	bits = fit_build(pairs, n, k, crowded[c].fpr, BS_FIT_DEFAULT_CEILING, &words, &met);

			over += !met || bits > WORST_ALLOWED * smallest;
			largest = bits > largest ? bits : largest;
			free(words);
			free(pairs);
		}
		CHECKF(over == 0, "fpr %g n %" PRIu64 ": %" PRIu64 " of 3000 groups above 2.2 times %.0f bits (up to %" PRIu64 ")",
			   crowded[c].fpr, n, over, smallest, largest);
	}
}

/*
 * A group past the hash list's threshold: its filter at the ceiling is
 * kept there when its estimated n does not fit, else folded down to the size for the n its fill gives, exactly the filter
 * built at that size, and the estimated n lies within the occupancy's
 * 99.9% range around the true one (delta method: sd(n^) = sd(s) / (dE[s]/dn)).
 */
static void
test_ceiling_form(void)
{
	uint64_t	ceiling = UINT64_C(1) << 16;
	uint32_t	k = 7;
	static const uint64_t ns[] = {300, 1000, 3000, 6000, 9000};

	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
	{
		uint64_t	n = ns[i];
		uint64_t   *pairs = pairs_of_range((UINT64_C(7) << 40) + n, n);
		uint64_t   *words = calloc(ceiling / 64, sizeof(uint64_t));
		uint64_t   *built;
		uint64_t	items;
		uint64_t	bits;
		bool		met;
		bool		met_n;
		bs_occupancy model;

		bs_fit_set_pairs(words, ceiling, k, pairs, n);
		items = bs_fit_estimate_items(bs_fit_count_set(words, ceiling), ceiling, k);
		bs_scheme_occupancy(BS_SCHEME_FIT, ceiling, k, &model);
		{
			double		slope = bs_model_mean(&model, (double) n + 0.5) - bs_model_mean(&model, (double) n - 0.5);
			double		sd = sqrt(bs_model_variance(&model, (double) n)) / slope;

			CHECKF(fabs((double) items - (double) n) <= 3.29 * sd + 0.5,
				   "n %" PRIu64 ": estimated %" PRIu64 " (sd %.1f)", n, items, sd);
		}
		bits = bs_fit_size_of_bits(words, ceiling, k, 0.01, &met);
		/* 9,000 values need more than 2^16 bits at 1% (an expected rate of 3.4%) */
		CHECK(bits == bs_fit_size(items, k, 0.01, ceiling, &met_n) && met == met_n &&
			  met == (n < 9000));
		bs_fit_fold_down(words, ceiling, bits);
		built = calloc(bs_bloom_word_count(bits), sizeof(uint64_t));
		bs_fit_set_pairs(built, bits, k, pairs, n);
		CHECKF(memcmp(built, words, 8 * bs_bloom_word_count(bits)) == 0, "n %" PRIu64 " m %" PRIu64, n, bits);
		free(built);
		free(words);
		free(pairs);
	}
	/* the estimate inverts the expected fill where a value adds at least 2 bits */
	for (uint64_t n = 1; n <= 9000; n = n * 3 + 1)
	{
		bs_occupancy model;
		uint64_t	set;

		bs_scheme_occupancy(BS_SCHEME_FIT, ceiling, k, &model);
		set = (uint64_t) llround(bs_model_mean(&model, (double) n));
		CHECKF(bs_fit_estimate_items(set, ceiling, k) == n, "n %" PRIu64 ": %" PRIu64, n,
			   bs_fit_estimate_items(set, ceiling, k));
	}
	CHECK(bs_fit_estimate_items(0, ceiling, k) == 0 &&
		  bs_fit_estimate_items(ceiling, ceiling, k) == UINT64_MAX);
}

/* A group larger than its ceiling is kept at the ceiling, marked, with its honest rate. */
static void
test_over_ceiling(void)
{
	uint64_t   *pairs = pairs_of_range(5, 2000);
	uint64_t   *words;
	uint64_t	full[64];
	bool		met = true;
	uint64_t	bits = fit_build(pairs, 2000, 7, 0.01, 4096, &words, &met);

	CHECK(!met && bits == 4096 && bs_fit_rate(words, bits, 7) > 0.01);
	/* from the bits: 2000 values set about 3,770 of 4,096 bits, too many for 1% */
	CHECK(bs_fit_size_of_bits(words, 4096, 7, 0.01, &met) == 4096 && !met);
	/* a full array: its n is unknown, and no size meets the rate */
	memset(full, 0xff, sizeof(full));
	met = true;
	CHECK(bs_fit_size_of_bits(full, 4096, 7, 0.01, &met) == 4096 && !met);
	free(words);
	free(pairs);
}

void
test_fit_group_sizes(void)
{
	test_group_ratios();
	test_ceiling_form();
	test_over_ceiling();
}
