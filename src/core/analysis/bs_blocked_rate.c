/*
 * bs_blocked_rate.c — exact false-positive rates and sizing of blocked
 * filters (bs_blocked_rate.h).
 *
 * Terms: a blocked filter puts all of a value's bits in one 512-bit block
 * (Putze, Sanders and Singler 2007).
 */
#include "analysis/bs_blocked_rate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bs_analysis.h"
#include "bloom/bs_bloom.h"

/* r_j is kept for at most this many items per block. */
#define MAX_LOAD 16384

/*
 * The occupancy of one block, item by item: fill[x] = Pr[x bits set].  One
 * ball moves x to x + 1 with probability (s - x) / s.
 */
typedef struct block_chain
{
	uint32_t	hashes;
	uint32_t	items;			/* items thrown so far */
	uint32_t	highest;		/* fill[x] = 0 above this x */
	double		fill[BS_BLOCK_BITS + 1];
	double		all_set[BS_BLOCK_BITS + 1];	/* (x / s)^k */
	double		stay[BS_BLOCK_BITS + 1];	/* x / s: the ball lands on a set bit */
	double		move[BS_BLOCK_BITS + 1];	/* (s - (x - 1)) / s: on a clear one of x - 1 */
} block_chain;

static void
chain_init(block_chain *chain, uint32_t hashes)
{
	memset(chain, 0, sizeof(*chain));
	chain->hashes = hashes;
	chain->fill[0] = 1;
	for (int x = 0; x <= BS_BLOCK_BITS; x++)
	{
		const double s = BS_BLOCK_BITS;

		chain->stay[x] = (double) x / s;
		chain->all_set[x] = pow(chain->stay[x], hashes);
		chain->move[x] = x > 0 ? (s - (double) (x - 1)) / s : 0;
	}
}

/* Throw one more item (k balls); return r for the new load. */
static double
chain_next(block_chain *chain)
{
	double	   *fill = chain->fill;
	const double *stay = chain->stay;
	const double *move = chain->move;
	double		rate = 0;

	for (uint32_t ball = 0; ball < chain->hashes; ball++)
	{
		uint32_t	top = chain->highest < BS_BLOCK_BITS ? chain->highest + 1 : BS_BLOCK_BITS;

		/* the factors come from tables: the same doubles, no conversion per x */
		for (uint32_t x = top; x >= 1; x--)
			fill[x] = fill[x] * stay[x] + fill[x - 1] * move[x];
		fill[0] = 0;			/* a ball always sets a bit */
		chain->highest = top;
	}
	chain->items++;
	for (uint32_t x = 1; x <= chain->highest; x++)
		rate += chain->fill[x] * chain->all_set[x];
	/* E[(X/s)^k] of a probability vector: at most 1 but for rounding */
	return rate < 1 ? rate : 1;
}

/*
 * The binomial weights Pr[J = j], J ~ Binomial(n, 1/B), one after another in
 * log space (the ratio of consecutive weights is (n-j)/(j+1) * p/(1-p)).
 *
 * In long double: ln Pr[J = 0] = n ln(1 - p) is some -n/B (-1000 for n =
 * 1e9, B = 1e6), and every step adds a logarithm to it, so in double the
 * rounding of that running sum (some 1e-13 absolute, growing with j) made
 * the weights sum to 1 + 1e-11 or so, and the rate of a full filter came
 * out as 1.0000000000004.  In long double that error is 2^11 times smaller;
 * what rounding is left, mixture() clamps (a mixture of r_j in [0, 1] with
 * weights summing to at most 1 is in [0, 1]).
 */
typedef struct load_weights
{
	long double items;
	long double log_odds;		/* ln(p / (1 - p)) */
	long double log_weight;		/* ln Pr[J = j] for the current j */
	long double j;
} load_weights;

static void
weights_init(load_weights *w, double items, uint64_t blocks)
{
	long double p = 1.0L / (long double) blocks;

	w->items = items;
	w->j = 0;
	if (blocks == 1)
	{
		w->log_odds = INFINITY;
		w->log_weight = -INFINITY;	/* all the weight sits at j = n */
		return;
	}
	w->log_odds = logl(p) - log1pl(-p);
	w->log_weight = items * log1pl(-p);
}

static double
weights_next(load_weights *w)
{
	w->log_weight += logl((w->items - w->j) / (w->j + 1)) + w->log_odds;
	w->j++;
	return (double) w->log_weight;
}

/*
 * Sum the weights times r_j.  r is nondecreasing in j and at most 1, so once
 * j is past the mean the rest of the sum is at most the remaining weight,
 * bounded by a geometric series; summing stops when that bound is below
 * 1e-17 of the sum.  The terms are positive, so summing also stops as soon as
 * the sum exceeds stop_above (a sizing search only needs to know that).
 * rates[] (when given) caches r_1..r_count.
 */
static double
mixture(double items, uint64_t blocks, block_chain *chain, double *rates,
		uint32_t *count, double stop_above, bool *complete)
{
	load_weights w;
	double		sum = 0;
	double		mean = items / (double) blocks;

	*complete = true;
	if (items <= 0)
		return 0;
	if (mean > MAX_LOAD / 2)
	{
		/* blocks this loaded are full: not worth a chain of MAX_LOAD items */
		*complete = false;
		return 1;
	}
	weights_init(&w, items, blocks);
	for (uint32_t j = 1; j <= MAX_LOAD && (double) j <= items; j++)
	{
		double		log_weight = blocks == 1 ? (j == (uint32_t) items ? 0 : -INFINITY) : weights_next(&w);
		double		r;
		double		ratio;

		if (rates && j <= *count)
			r = rates[j - 1];
		else
		{
			r = chain_next(chain);
			if (rates)
			{
				rates[j - 1] = r;
				*count = j;
			}
		}
		sum += exp(log_weight) * r;
		if (sum > stop_above)
			return sum;
		if ((double) j > mean + 1)
		{
			ratio = (items - j) / (j + 1) * exp((double) w.log_odds);
			if (blocks == 1 || (ratio < 1 && exp(log_weight) * ratio / (1 - ratio) <= 1e-17 * sum))
				return sum;
		}
	}
	if ((double) MAX_LOAD < items)
		*complete = false;
	return sum;
}

double
bs_blocked_fpr(double items, uint64_t blocks, uint32_t hashes)
{
	block_chain chain;
	bool		complete;
	double		rate;

	if (blocks == 0 || hashes == 0)
		return 1;
	chain_init(&chain, hashes);
	rate = mixture(items, blocks, &chain, NULL, NULL, INFINITY, &complete);
	if (!complete)
		return 1;				/* beyond MAX_LOAD items a block is full */
	/* a probability: the rounding of the weights must not take it past 1 */
	return rate < 0 ? 0 : rate < 1 ? rate : 1;
}

/* What bs_blocked_size keeps for the k it is trying. */
typedef struct size_search
{
	double		items;
	double		fpr;
	block_chain chain;
	double	   *rates;			/* r_1 .. r_count of this k */
	uint32_t	count;
} size_search;

static bool
blocks_reach(size_search *search, uint64_t blocks)
{
	bool		complete;
	double		rate;

	bs_poll_interrupts();
	rate = mixture(search->items, blocks, &search->chain, search->rates,
				   &search->count, search->fpr, &complete);

	return complete && rate <= search->fpr;
}

/*
 * The fewest blocks that reach the rate with k bits per value, or 0.  The
 * rate falls as blocks are added, so: bracket the answer by doubling or
 * halving from the textbook size (which keeps the loads probed, and so the
 * chain, short), then bisect.
 */
static uint64_t
fewest_blocks(size_search *search, uint32_t hashes)
{
	const uint64_t most = BS_BLOOM_MAX_BITS / BS_BLOCK_BITS;
	double		textbook = ceil(search->items * -log(search->fpr) / (M_LN2 * M_LN2) / BS_BLOCK_BITS);
	uint64_t	reaching;
	uint64_t	failing = 0;	/* no block at all reaches nothing */
	uint64_t	guess = textbook < 1 ? 1 : textbook > (double) most ? most : (uint64_t) textbook;

	chain_init(&search->chain, hashes);
	search->count = 0;
	if (blocks_reach(search, guess))
	{
		reaching = guess;
		while (reaching > 1)
		{
			uint64_t	half = reaching / 2;

			if (!blocks_reach(search, half))
			{
				failing = half;
				break;
			}
			reaching = half;
		}
	}
	else
	{
		failing = guess;
		for (;;)
		{
			uint64_t	twice = failing * 2 < most ? failing * 2 : most;

			if (blocks_reach(search, twice))
			{
				reaching = twice;
				break;
			}
			if (twice == most)
				return 0;
			failing = twice;
		}
	}
	while (reaching - failing > 1)
	{
		uint64_t	middle = failing + (reaching - failing) / 2;

		if (blocks_reach(search, middle))
			reaching = middle;
		else
			failing = middle;
	}
	return reaching;
}

bs_status
bs_blocked_size(int64_t capacity, double fpr, uint64_t *bits, uint32_t *hashes,
				bs_error *err)
{
	/* the analysis hooks: memory a cancel (longjmp) from the poll releases */
	size_search *search = bs_analysis_alloc(sizeof(size_search));
	uint64_t	best_blocks = 0;
	uint32_t	best_k = 0;
	int			start = (int) lround(-log2(fpr));

	if (search == NULL || (search->rates = bs_analysis_alloc(sizeof(double) * MAX_LOAD)) == NULL)
	{
		if (search != NULL)
			bs_analysis_free(search);
		return bs_fail(err, BS_ERR_TOO_LARGE, "out of memory sizing a blocked bloomfilter",
					   "The sizing search could not allocate its work space.");
	}
	search->items = (double) capacity;
	search->fpr = fpr;
	if (start < 1)
		start = 1;
	if (start > BS_BLOCKED_MAX_HASHES)
		start = BS_BLOCKED_MAX_HASHES;

	/* from the start, down and then up, until two k in a row do no better */
	for (int direction = -1; direction <= 1; direction += 2)
	{
		int			worse = 0;

		for (int k = direction < 0 ? start : start + 1;
			 k >= 1 && k <= BS_BLOCKED_MAX_HASHES && worse < 2; k += direction)
		{
			uint64_t	blocks = fewest_blocks(search, (uint32_t) k);

			if (blocks != 0 && (best_blocks == 0 || blocks < best_blocks ||
								(blocks == best_blocks && (uint32_t) k < best_k)))
			{
				best_blocks = blocks;
				best_k = (uint32_t) k;
				worse = 0;
			}
			else
				worse++;
		}
	}
	bs_analysis_free(search->rates);
	bs_analysis_free(search);
	if (best_blocks == 0)
		return bs_fail(err, BS_ERR_TOO_LARGE, "blocked bloomfilter cannot reach that false-positive rate",
					   "No blocked filter of at most %llu bits reaches it.",
					   (unsigned long long) BS_BLOOM_MAX_BITS);
	*bits = best_blocks * BS_BLOCK_BITS;
	*hashes = best_k;
	return BS_OK;
}
