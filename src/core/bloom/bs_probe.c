/*
 * bs_probe.c — a value's way into and out of a Bloom filter, one value at a
 * time: the probing constants of a filter's shape, and adding, testing and
 * listing a value's positions with the inline hot path of bs_probe.h.
 */
#include "bloom/bs_probe.h"

#include <math.h>
#include <string.h>

#include "common/bs_primes.h"

void
bs_bloom_add(bs_bloom *filter, const bs_probe *probe, const void *data,
			 size_t length)
{
	uint64_t	first;
	uint64_t	step;

	if (!bs_probe_locatable(probe))
		bs_independent_set(filter, probe, data, length);
	else
	{
		bs_probe_locate(probe, data, length, &first, &step);
		bs_probe_set(filter, probe, first, step);
	}
	if (filter->items < UINT64_MAX)
		filter->items++;		/* saturates, as unions do */
}

bool
bs_bloom_test(const bs_bloom *filter, const bs_probe *probe, const void *data,
			  size_t length)
{
	uint64_t	first;
	uint64_t	step;

	if (!bs_probe_locatable(probe))
		return bs_independent_test(filter, probe, data, length);
	bs_probe_locate(probe, data, length, &first, &step);
	return bs_probe_test(filter, probe, first, step);
}

/* 2^64 mod n, computed as (2^64 - n) mod n without 128-bit division. */
static uint64_t
reject_below(uint64_t n)
{
	return n == 0 ? 0 : (0 - n) % n;
}

void
bs_probe_init_scheme(bs_probe *probe, bs_scheme scheme, uint64_t bits,
					 uint32_t hashes, uint64_t seed)
{
	probe->bits = bits;
	probe->hashes = hashes;
	probe->seed = seed;
	probe->scheme = (uint8_t) scheme;
	probe->block_simd = scheme == BS_SCHEME_BLOCKED && hashes <= BS_BLOCK_CHUNKS &&
		bs_block_simd_usable();
	switch (scheme)
	{
		case BS_SCHEME_DOUBLE:
			probe->first_range = bits;
			probe->step_range = bits - 1;
			break;
		case BS_SCHEME_PARTITION:
			probe->first_range = bits / hashes;
			probe->step_range = bits / hashes;
			break;
		case BS_SCHEME_BLOCKED:
			probe->first_range = bits / BS_BLOCK_BITS;
			probe->step_range = 0;
			break;
		case BS_SCHEME_INDEPENDENT:
		case BS_SCHEME_FIT:		/* no mapping: positions are masked (bs_fit.h) */
		case BS_SCHEME_FIT_PARTIAL:	/* never probed */
			probe->first_range = bits;
			probe->step_range = 0;
			break;
		default:				/* double_square, double_cube */
			probe->first_range = bits;
			probe->step_range = bits;
			break;
	}
	probe->reject_below_first = reject_below(probe->first_range);
	probe->reject_below_step = reject_below(probe->step_range);
}

void
bs_probe_init(bs_probe *probe, uint64_t bits, uint32_t hashes, uint64_t seed)
{
	bs_probe_init_scheme(probe, BS_SCHEME_DOUBLE, bits, hashes, seed);
}

void
bs_probe_for(bs_probe *probe, const bs_bloom *filter)
{
	bs_probe_init_scheme(probe, (bs_scheme) filter->scheme, filter->bits,
						 filter->hashes, filter->seed);
}

void
bs_bloom_positions(const bs_probe *probe, const void *data, size_t length,
				   uint64_t *positions)
{
	uint64_t	first;
	uint64_t	step;

	if (!bs_probe_locatable(probe))
	{
		bs_independent_positions(probe, data, length, positions);
		return;
	}
	bs_probe_locate(probe, data, length, &first, &step);
	if (probe->scheme == BS_SCHEME_DOUBLE)
	{
		for (uint32_t i = 0; i < probe->hashes; i++)
		{
			positions[i] = first;
			first += step;
			if (first >= probe->bits)
				first -= probe->bits;
		}
	}
	else if (probe->scheme == BS_SCHEME_BLOCKED)
	{
		bs_block_bits source;

		bs_block_bits_init(&source, step);
		for (uint32_t i = 0; i < probe->hashes; i++)
			positions[i] = first * BS_BLOCK_BITS + bs_block_next_bit(&source);
	}
	else
		bs_probe_positions_other(probe, first, step, positions);
}
