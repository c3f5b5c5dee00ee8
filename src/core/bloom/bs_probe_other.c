/*
 * bs_probe_other.c — the positions of the probing schemes that are offered
 * for comparison with double hashing (KM 2008, sections 3, 5 and 8):
 * double_square, double_cube, partition and independent.  They are out of
 * line because no hot path depends on them; bs_probe.h keeps double hashing
 * and the blocked scheme inline.
 */
#include "bloom/bs_probe_other.h"
#include "common/bs_hash.h"

#include "bloom/bs_fit.h"

/* Seed offsets of the independent scheme's i-th hash and of its retries. */
#define INDEPENDENT_SEED_STEP UINT64_C(0xD1B54A32D192ED03)

/* (x + y) mod n for x, y < n. */
static inline uint64_t
add_mod(uint64_t x, uint64_t y, uint64_t n)
{
	uint64_t	sum = x + y;

	return sum >= n ? sum - n : sum;
}

/* d mod n without a division when d is already smaller. */
static inline uint64_t
reduce(uint64_t d, uint64_t n)
{
	return d < n ? d : d % n;
}

/*
 * Walk through the k positions of a located value.  For extended double
 * hashing g_i = a + i b + f(i) mod m, the step from g_i to g_(i+1) is
 * b + f(i+1) - f(i): 2i + 1 for f(i) = i^2 and 3i^2 + 3i + 1 for f(i) = i^3
 * (at most 3.2e6 for k <= 1024, so no overflow), reduced mod m.  For the
 * partition scheme the offset a + i b runs mod m' and probe i lands in
 * subarray i.
 */
typedef struct position_walk
{
	const bs_probe *probe;
	uint64_t	current;		/* g_i, or the offset inside subarray i */
	uint64_t	step;
	uint32_t	index;			/* i */
} position_walk;

static inline uint64_t
walk_position(const position_walk *walk)
{
	if (walk->probe->scheme == BS_SCHEME_PARTITION)
		return (uint64_t) walk->index * walk->probe->first_range + walk->current;
	return walk->current;
}

static inline void
walk_advance(position_walk *walk)
{
	uint64_t	i = walk->index;
	uint64_t	range = walk->probe->first_range;
	uint64_t	growth = 0;

	if (walk->probe->scheme == BS_SCHEME_DOUBLE_SQUARE)
		growth = 2 * i + 1;
	else if (walk->probe->scheme == BS_SCHEME_DOUBLE_CUBE)
		growth = 3 * i * i + 3 * i + 1;
	walk->current = add_mod(add_mod(walk->current, walk->step, range),
							reduce(growth, range), range);
	walk->index++;
}

/* The i-th position of the independent scheme: its own seeded hash. */
static uint64_t
independent_position(const bs_probe *probe, const void *data, size_t length,
					 uint32_t i)
{
	uint64_t	seed = probe->seed + (uint64_t) (i + 1) * INDEPENDENT_SEED_STEP;
	uint64_t	position;

	while (!bs_map_uniform(XXH3_64bits_withSeed(data, length, seed), probe->bits,
						   probe->reject_below_first, &position))
		seed += BS_RESEED_STEP;
	return position;
}

void
bs_probe_positions_other(const bs_probe *probe, uint64_t first, uint64_t step,
						 uint64_t *positions)
{
	position_walk walk = {probe, first, step, 0};

	if (probe->scheme == BS_SCHEME_FIT)
	{
		bs_fit_positions(probe->bits, probe->hashes, first, step, positions);
		return;
	}
	for (uint32_t i = 0; i < probe->hashes; i++)
	{
		positions[i] = walk_position(&walk);
		walk_advance(&walk);
	}
}

void
bs_probe_set_other(bs_bloom *filter, const bs_probe *probe, uint64_t first,
				   uint64_t step)
{
	position_walk walk = {probe, first, step, 0};

	if (probe->scheme == BS_SCHEME_FIT)
	{
		bs_fit_set(filter->words, probe->bits, probe->hashes, first, step);
		return;
	}
	for (uint32_t i = 0; i < probe->hashes; i++)
	{
		uint64_t	position = walk_position(&walk);

		filter->words[position >> 6] |= UINT64_C(1) << (position & 63);
		walk_advance(&walk);
	}
}

bool
bs_probe_test_other(const bs_bloom *filter, const bs_probe *probe, uint64_t first,
					uint64_t step)
{
	position_walk walk = {probe, first, step, 0};

	if (probe->scheme == BS_SCHEME_FIT)
		return bs_fit_test(filter->words, probe->bits, probe->hashes, first, step);
	for (uint32_t i = 0; i < probe->hashes; i++)
	{
		uint64_t	position = walk_position(&walk);

		if ((filter->words[position >> 6] & (UINT64_C(1) << (position & 63))) == 0)
			return false;
		walk_advance(&walk);
	}
	return true;
}

void
bs_independent_positions(const bs_probe *probe, const void *data, size_t length,
						 uint64_t *positions)
{
	for (uint32_t i = 0; i < probe->hashes; i++)
		positions[i] = independent_position(probe, data, length, i);
}

void
bs_independent_set(bs_bloom *filter, const bs_probe *probe, const void *data,
				   size_t length)
{
	for (uint32_t i = 0; i < probe->hashes; i++)
	{
		uint64_t	position = independent_position(probe, data, length, i);

		filter->words[position >> 6] |= UINT64_C(1) << (position & 63);
	}
}

bool
bs_independent_test(const bs_bloom *filter, const bs_probe *probe,
					const void *data, size_t length)
{
	for (uint32_t i = 0; i < probe->hashes; i++)
	{
		uint64_t	position = independent_position(probe, data, length, i);

		if ((filter->words[position >> 6] & (UINT64_C(1) << (position & 63))) == 0)
			return false;
	}
	return true;
}
