/*
 * bs_fit_state.c — bloom_fit_agg's partial state: hash lists and the
 * validator's checks of the fit and fit_partial forms (bs_fit_state.h).
 */
#include "bloom/bs_fit_state.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#define TYPE_NAME "bloomfilter"

void
bs_fit_state_init(bs_bloom *state, uint64_t bits, double fpr, uint64_t ceiling,
				  uint64_t seed)
{
	bs_bloom_init_scheme(state, BS_SCHEME_FIT_PARTIAL, bits, bs_fit_hashes(fpr), seed);
	memcpy(&state->words[0], &fpr, sizeof(fpr));
	state->words[1] = ceiling;
}

static int
pair_compare(const uint64_t *x, const uint64_t *y)
{
	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	if (x[1] != y[1])
		return x[1] < y[1] ? -1 : 1;
	return 0;
}

static int
pair_compare_qsort(const void *x, const void *y)
{
	return pair_compare(x, y);
}

/* Drop repeats from sorted pairs; returns the number left. */
static uint64_t
unique_sorted(uint64_t *pairs, uint64_t count)
{
	uint64_t	kept = 0;

	if (count == 0)
		return 0;
	for (uint64_t i = 1; i < count; i++)
	{
		bs_poll_at(i);
		if (pair_compare(&pairs[2 * i], &pairs[2 * kept]) != 0)
		{
			kept++;
			pairs[2 * kept] = pairs[2 * i];
			pairs[2 * kept + 1] = pairs[2 * i + 1];
		}
	}
	return kept + 1;
}

uint64_t
bs_fit_sort_unique(uint64_t *pairs, uint64_t count)
{
	qsort(pairs, count, 2 * sizeof(uint64_t), pair_compare_qsort);
	return unique_sorted(pairs, count);
}

/* Below this many pairs a comparison sort is as fast. */
#define RADIX_MIN_PAIRS 1024

uint64_t
bs_fit_sort_unique_scratch(uint64_t *pairs, uint64_t count, uint64_t *scratch)
{
	uint64_t   *from = pairs,
			   *to = scratch;

	if (count < RADIX_MIN_PAIRS)
		return bs_fit_sort_unique(pairs, count);
	/* eight stable passes over the bytes of h1, least significant first */
	for (unsigned shift = 0; shift < 64; shift += 8)
	{
		uint64_t	offsets[256] = {0};
		uint64_t   *swap;

		for (uint64_t i = 0; i < count; i++)
		{
			bs_poll_at(i);
			offsets[(from[2 * i] >> shift) & 255]++;
		}
		for (uint64_t b = 0, sum = 0; b < 256; b++)
		{
			uint64_t	n = offsets[b];

			offsets[b] = sum;
			sum += n;
		}
		for (uint64_t i = 0; i < count; i++)
		{
			uint64_t	at = offsets[(from[2 * i] >> shift) & 255]++;

			bs_poll_at(i);
			to[2 * at] = from[2 * i];
			to[2 * at + 1] = from[2 * i + 1];
		}
		swap = from;
		from = to;
		to = swap;
	}
	/* ties on h1 (rare: 2^-64 a pair) are put in order of h2 */
	for (uint64_t i = 1; i < count; i++)
	{
		bs_poll_at(i);
		for (uint64_t j = i; j > 0 && pair_compare(&pairs[2 * (j - 1)], &pairs[2 * j]) > 0; j--)
		{
			uint64_t	h1 = pairs[2 * j],
						h2 = pairs[2 * j + 1];

			pairs[2 * j] = pairs[2 * (j - 1)];
			pairs[2 * j + 1] = pairs[2 * (j - 1) + 1];
			pairs[2 * (j - 1)] = h1;
			pairs[2 * (j - 1) + 1] = h2;
		}
	}
	return unique_sorted(pairs, count);
}

uint64_t
bs_fit_merge_unique(const uint64_t *a, uint64_t na, const uint64_t *b, uint64_t nb,
					uint64_t *out)
{
	uint64_t	i = 0,
				j = 0,
				n = 0;

	while (i < na || j < nb)
	{
		const uint64_t *next;
		int			order = i == na ? 1 : j == nb ? -1 : pair_compare(&a[2 * i], &b[2 * j]);

		bs_poll_at(n);
		if (order <= 0)
		{
			next = &a[2 * i++];
			if (order == 0)
				j++;
		}
		else
			next = &b[2 * j++];
		out[2 * n] = next[0];
		out[2 * n + 1] = next[1];
		n++;
	}
	return n;
}

uint64_t
bs_fit_drop_known(const uint64_t *known, uint64_t known_count, uint64_t *pairs,
				  uint64_t count)
{
	uint64_t	i = 0,
				kept = 0;

	for (uint64_t j = 0; j < count; j++)
	{
		bs_poll_at(j);
		while (i < known_count && pair_compare(&known[2 * i], &pairs[2 * j]) < 0)
			bs_poll_at(++i);
		if (i < known_count && pair_compare(&known[2 * i], &pairs[2 * j]) == 0)
			continue;
		pairs[2 * kept] = pairs[2 * j];
		pairs[2 * kept + 1] = pairs[2 * j + 1];
		kept++;
	}
	return kept;
}

void
bs_fit_merge_back(uint64_t *pairs, uint64_t sorted, const uint64_t *tail, uint64_t count)
{
	uint64_t	i = sorted,
				j = count,
				w = sorted + count;

	while (j > 0)
	{
		w--;
		bs_poll_at(w);
		if (i > 0 && pair_compare(&pairs[2 * (i - 1)], &tail[2 * (j - 1)]) > 0)
		{
			i--;
			pairs[2 * w] = pairs[2 * i];
			pairs[2 * w + 1] = pairs[2 * i + 1];
		}
		else
		{
			j--;
			pairs[2 * w] = tail[2 * j];
			pairs[2 * w + 1] = tail[2 * j + 1];
		}
	}
}

bool
bs_fit_find(const uint64_t *pairs, uint64_t count, uint64_t h1, uint64_t h2,
			uint64_t *at)
{
	uint64_t	low = 0,
				high = count;
	uint64_t	key[2] = {h1, h2};

	while (low < high)
	{
		uint64_t	mid = low + (high - low) / 2;
		int			order = pair_compare(&pairs[2 * mid], key);

		if (order == 0)
		{
			*at = mid;
			return true;
		}
		if (order < 0)
			low = mid + 1;
		else
			high = mid;
	}
	*at = low;
	return false;
}

/* Values in flight when setting many: their lines are prefetched this far ahead. */
#define PREFETCH_AHEAD 8

void
bs_fit_set_pairs(uint64_t *words, uint64_t bits, uint32_t hashes,
				 const uint64_t *pairs, uint64_t count)
{
	/* a filter within the first-level cache needs no prefetching */
	bool		prefetch = bits > 8 * 32768;

	for (uint64_t i = 0; i < count; i++)
	{
		bs_poll_at(i);
		if (prefetch && i + PREFETCH_AHEAD < count)
			bs_fit_prefetch(words, bits, hashes, pairs[2 * (i + PREFETCH_AHEAD)],
							pairs[2 * (i + PREFETCH_AHEAD) + 1]);
		bs_fit_set(words, bits, hashes, pairs[2 * i], pairs[2 * i + 1]);
	}
}

static bs_status
bad_form(bs_error *err, const char *message, const char *detail)
{
	return bs_fail(err, BS_ERR_FORMAT, message, "%s", detail);
}

bs_status
bs_fit_check_params(const bs_bloom_params *p, bs_error *err)
{
	if (p->reserved8 & ~(BS_FIT_OVER_CEILING | BS_FIT_MIXED_SIZES))
		return bs_fail(err, BS_ERR_FORMAT, "self-sized bloomfilter has unknown flags",
					   "The flags byte is %u; only 0 to %u are defined.",
					   p->reserved8, BS_FIT_OVER_CEILING | BS_FIT_MIXED_SIZES);
	return BS_OK;
}

bs_status
bs_fit_state_check_params(const bs_bloom_params *p, bs_error *err)
{
	uint64_t	words = p->bits / 64;

	if (p->reserved8 != 0)
		return bs_fail(err, BS_ERR_FORMAT, "reserved bloomfilter header field is not zero",
					   "Reserved fields hold %u and 0; both must be 0.", p->reserved8);
	if (p->bits % 64 != 0 || words < BS_FIT_PREFIX_WORDS ||
		words > BS_FIT_PREFIX_WORDS + BS_FIT_MAX_BITS / 64)
		return bs_fail(err, BS_ERR_FORMAT, "bloom_fit_agg state has an impossible length",
					   "Its m is %" PRIu64 "; a state holds 2 words, then 2 words per hash or the bits of its ceiling.",
					   p->bits);
	return BS_OK;
}

/* Hashes form: sorted, no repeats, not more than the threshold or the items. */
static bs_status
check_hashes(const bs_bloom *state, uint64_t ceiling, bs_error *err)
{
	uint64_t	count = bs_fit_state_count(state);
	const uint64_t *pairs = state->words + BS_FIT_PREFIX_WORDS;

	if (count > bs_fit_threshold(ceiling))
		return bs_fail(err, BS_ERR_FORMAT, "bloom_fit_agg state holds too many hashes",
					   "It holds %" PRIu64 " hashes; past %" PRIu64 " a state with this ceiling holds bits.",
					   count, bs_fit_threshold(ceiling));
	if (count > state->items || (count == 0) != (state->family == BS_FAMILY_NONE))
		return bs_fail(err, BS_ERR_FORMAT, "bloom_fit_agg state hashes do not match its items",
					   "It holds %" PRIu64 " distinct hashes of %" PRIu64 " values added.",
					   count, state->items);
	for (uint64_t i = 1; i < count; i++)
	{
		bs_poll_at(i);
		if (pair_compare(&pairs[2 * (i - 1)], &pairs[2 * i]) >= 0)
			return bad_form(err, "bloom_fit_agg state hashes are not in order",
							"The hashes of a state must be strictly ascending.");
	}
	return BS_OK;
}

bs_status
bs_fit_state_check_words(const bs_bloom *state, bs_error *err)
{
	double		fpr = bs_fit_state_fpr(state);
	uint64_t	ceiling = bs_fit_state_ceiling(state);
	uint64_t	set = 0;

	if (!(fpr > 0 && fpr < 1) || state->hashes != bs_fit_hashes(fpr))
		return bs_fail(err, BS_ERR_FORMAT, "bloom_fit_agg state has an invalid rate",
					   "Its rate is %.17g with k = %u; the rate must be between 0 and 1 and k its round(log2(1 / rate)).",
					   fpr, state->hashes);
	if (!bs_fit_power_of_two(ceiling) || ceiling < BS_FIT_MIN_CEILING ||
		ceiling > BS_FIT_MAX_BITS)
		return bs_fail(err, BS_ERR_FORMAT, "bloom_fit_agg state has an invalid ceiling",
					   "Its ceiling is %" PRIu64 " bits; it must be a power of two from %" PRIu64 " to %" PRIu64 ".",
					   ceiling, BS_FIT_MIN_CEILING, BS_FIT_MAX_BITS);
	if (bs_fit_state_form(state) == BS_FIT_FORM_HASHES)
	{
		if ((state->bits / 64 - BS_FIT_PREFIX_WORDS) % 2 != 0)
			return bad_form(err, "bloom_fit_agg state has an impossible length",
							"After its rate and ceiling a state holds two words per hash, or the bits of its ceiling.");
		return check_hashes(state, ceiling, err);
	}
	for (uint64_t i = 0; i < ceiling / 64;)
		for (uint64_t end = bs_poll_stretch(i, ceiling / 64); i < end; i++)
			set += (uint64_t) __builtin_popcountll(state->words[BS_FIT_PREFIX_WORDS + i]);
	if (set > (unsigned __int128) state->hashes * state->items ||
		state->items <= bs_fit_threshold(ceiling))
		return bad_form(err, "bloom_fit_agg state bits do not match its items",
						"A state of the bits form has more values than its ceiling's hash list holds, each setting at most k bits.");
	return BS_OK;
}
