/*
 * test_fit.c — unit tests of self-sized filters (src/core/bloom/bs_fit*): the fit
 * scheme's positions, folding and tiling, the exact rate, the size chosen
 * for a group and its measured false-positive rate, the hash lists of the
 * partial state and the validator's checks of both new forms.
 *
 * The runner is check.h's, as test_core.c's: passing checks are silent, a
 * failing one prints file:line, the expression and the case; the last line
 * is "fit: N checks, M failed" and the exit status is non-zero when M > 0.
 * Everything pseudo-random comes from fixed seeds, and every statistical
 * check compares a count with the exact 99.9% binomial bound of the rate
 * it must not exceed.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bloom/bs_bloom.h"
#include "bloom/bs_bloom_codec.h"
#include "bloom/bs_fit.h"
#include "bloom/bs_fit_state.h"
#include "bloom/bs_probe.h"
#include "bloom/bs_scheme.h"
#include "analysis/bs_scheme_sizing.h"
#include "check.h"
#include "test_fit.h"

unsigned long checks_run;
unsigned long checks_failed;

/* ---- helpers ---- */

static uint64_t rng_state;

static uint64_t
next_random(void)
{
	uint64_t	z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* The hash pair of integer v, as the aggregate computes it (seed 0). */
static XXH128_hash_t
hash_of(uint64_t v)
{
	return bs_hash128(&v, sizeof(v), 0);
}

/*
 * The largest count c with Pr[Binomial(trials, p) >= c] > 0.0005: a count
 * above it has probability below 0.05% (one side of the 99.9% interval).
 */
static uint64_t
binomial_upper(uint64_t trials, double p)
{
	double		log_p = log(p),
				log_q = log1p(-p);
	double		tail = 0;
	uint64_t	c = trials;

	/* sum the upper tail from the top until it exceeds 0.0005 */
	for (; c > 0; c--)
	{
		double		log_pmf = lgamma((double) trials + 1) - lgamma((double) c + 1) -
			lgamma((double) (trials - c) + 1) + (double) c * log_p + (double) (trials - c) * log_q;

		tail += exp(log_pmf);
		if (tail > 0.0005)
			return c;
	}
	return 0;
}

/* The lower end: the smallest c with Pr[Binomial <= c] > 0.0005. */
static uint64_t
binomial_lower(uint64_t trials, double p)
{
	double		log_p = log(p),
				log_q = log1p(-p);
	double		tail = 0;

	for (uint64_t c = 0; c <= trials; c++)
	{
		tail += exp(lgamma((double) trials + 1) - lgamma((double) c + 1) -
					lgamma((double) (trials - c) + 1) + (double) c * log_p +
					(double) (trials - c) * log_q);
		if (tail > 0.0005)
			return c;
	}
	return trials;
}

uint64_t
fit_build(const uint64_t *pairs, uint64_t count, uint32_t k, double fpr, uint64_t ceiling,
		  uint64_t **words_out, bool *met)
{
	uint64_t	bits = bs_fit_size(count, k, fpr, ceiling, met);

	*words_out = calloc(bs_bloom_word_count(bits), sizeof(uint64_t));
	bs_fit_set_pairs(*words_out, bits, k, pairs, count);
	return bits;
}

uint64_t *
pairs_of_range(uint64_t from, uint64_t count)
{
	uint64_t   *pairs = malloc(2 * (count ? count : 1) * sizeof(uint64_t));

	for (uint64_t i = 0; i < count; i++)
	{
		XXH128_hash_t h = hash_of(from + i);

		pairs[2 * i] = h.low64;
		pairs[2 * i + 1] = h.high64;
	}
	return pairs;
}

/* ---- 1. positions ---- */

static void
test_positions(void)
{
	rng_state = 1;
	for (int trial = 0; trial < 2000; trial++)
	{
		uint64_t	h1 = next_random(),
					h2 = next_random();
		uint64_t	bits = UINT64_C(8) << (trial % 23);
		uint32_t	k = 1 + trial % 40;
		uint64_t	positions[64];

		bs_fit_positions(bits, k, h1, h2, positions);
		for (uint32_t i = 0; i < k; i++)
		{
			/* the closed form: half i % 2 of remix(a + (i / 2) b), b odd, then mod m */
			uint64_t	word = bs_block_remix(h1 + (uint64_t) (i / 2) * (h2 | 1));
			uint64_t	x = i % 2 == 0 ? (word & UINT64_C(0xffffffff)) : word >> 32;

			CHECKF(positions[i] == (x & (bits - 1)), "m=%" PRIu64 " k=%u i=%u", bits, k, i);
		}
	}
	/* the probe path of bs_probe.h gives the same positions */
	{
		bs_probe	probe;
		uint64_t	positions[7],
					direct[7];
		uint64_t	v = 42;
		XXH128_hash_t h = hash_of(v);

		bs_probe_init_scheme(&probe, BS_SCHEME_FIT, 1024, 7, 0);
		bs_bloom_positions(&probe, &v, sizeof(v), positions);
		bs_fit_positions(1024, 7, h.low64, h.high64, direct);
		CHECK(memcmp(positions, direct, sizeof(direct)) == 0);
	}
	CHECK(bs_fit_hashes(0.01) == 7 && bs_fit_hashes(0.001) == 10 && bs_fit_hashes(0.1) == 3);
	CHECK(bs_fit_hashes(0.9) == 1 && bs_fit_hashes(1e-300) == 997);
	CHECK(bs_fit_ceiling(1023) == 0 && bs_fit_ceiling(1024) == 1024 && bs_fit_ceiling(1025) == 1024);
	CHECK(bs_fit_ceiling(UINT64_C(6000000000)) == BS_FIT_MAX_BITS);
}

/* ---- 2. folding equals building at the smaller size; tiling keeps members ---- */

static void
test_fold_and_tile(void)
{
	for (uint64_t n = 0; n <= 3000; n = n * 3 + 1)
	{
		uint64_t   *pairs = pairs_of_range(1000 * n, n);
		uint64_t	top = 1 << 16;
		uint64_t   *folded = calloc(top / 64, sizeof(uint64_t));

		bs_fit_set_pairs(folded, top, 7, pairs, n);
		for (uint64_t bits = top / 2; bits >= BS_FIT_MIN_BITS; bits /= 2)
		{
			uint64_t	count = bs_bloom_word_count(bits);
			uint64_t   *built = calloc(count, sizeof(uint64_t));

			bs_fit_fold(folded, bits * 2);
			bs_fit_set_pairs(built, bits, 7, pairs, n);
			/* whole words: below 64 bits the fold must leave the padding zero */
			CHECKF(memcmp(built, folded, 8 * count) == 0, "n=%" PRIu64 " m=%" PRIu64, n, bits);
			free(built);
		}
		free(folded);
		free(pairs);
	}

	/* a union of sizes 256 and 8192 holds every member of both */
	{
		uint64_t   *small_pairs = pairs_of_range(0, 20);
		uint64_t   *large_pairs = pairs_of_range(100000, 700);
		bs_bloom   *a = calloc(1, bs_bloom_total_bytes(256));
		bs_bloom   *b = calloc(1, bs_bloom_total_bytes(8192));
		bs_bloom   *u = calloc(1, bs_bloom_total_bytes(8192));
		bs_bloom   *x = calloc(1, bs_bloom_total_bytes(8192));
		bs_error	err;
		uint64_t	lost = 0;

		bs_bloom_init_scheme(a, BS_SCHEME_FIT, 256, 7, 0);
		bs_bloom_init_scheme(b, BS_SCHEME_FIT, 8192, 7, 0);
		a->family = b->family = BS_FAMILY_INTEGER;
		a->items = 20;
		b->items = 700;
		bs_fit_set_pairs(a->words, 256, 7, small_pairs, 20);
		bs_fit_set_pairs(b->words, 8192, 7, large_pairs, 700);
		/* b also holds the first 5 of a's members: the intersection keeps them */
		bs_fit_set_pairs(b->words, 8192, 7, small_pairs, 5);
		CHECK(bs_bloom_check_combinable(a, b, &err) == BS_OK);
		CHECK(bs_bloom_check_compatible(a, b, &err) == BS_ERR_MISMATCH);
		bs_bloom_combine_sizes(u, a, b, false);
		bs_bloom_combine_sizes(x, b, a, true);
		CHECK(u->bits == 8192 && u->items == 720 && x->bits == 8192 && x->items == 20);
		for (uint64_t i = 0; i < 20; i++)
			lost += !bs_fit_test(u->words, 8192, 7, small_pairs[2 * i], small_pairs[2 * i + 1]);
		for (uint64_t i = 0; i < 700; i++)
			lost += !bs_fit_test(u->words, 8192, 7, large_pairs[2 * i], large_pairs[2 * i + 1]);
		for (uint64_t i = 0; i < 5; i++)
			lost += !bs_fit_test(x->words, 8192, 7, small_pairs[2 * i], small_pairs[2 * i + 1]);
		CHECKF(lost == 0, "%" PRIu64 " members lost", lost);
		/* the intersection is within the larger filter */
		for (uint64_t w = 0; w < 8192 / 64; w++)
			lost += (x->words[w] & ~b->words[w]) != 0;
		CHECK(lost == 0);
		free(a);
		free(b);
		free(u);
		free(x);
		free(small_pairs);
		free(large_pairs);
	}
}

/* Tiling a filter under a word: bit p of the tiled filter is bit p mod m_small. */
static void
test_small_tiles(void)
{
	uint64_t   *pairs = pairs_of_range(900, 2);

	for (uint64_t small = 8; small <= 32; small *= 2)
		for (uint64_t large = small * 2; large <= 256; large *= 2)
		{
			uint64_t	s[1] = {0},
						l[4] = {0};
			bool		same = true;

			bs_fit_set_pairs(s, small, 3, pairs, 2);
			bs_fit_tile_into(l, large, s, small, false);
			for (uint64_t p = 0; p < 256; p++)
			{
				bool		bit = (l[p / 64] >> (p % 64)) & 1;

				same = same && bit == (p < large && ((s[0] >> (p % small)) & 1));
			}
			CHECKF(same, "small %" PRIu64 " large %" PRIu64, small, large);
		}
	free(pairs);
}

/* ---- 3. the rate of a filter: (s / m)^k, never above 1 ---- */

static void
test_fill_rate(void)
{
	rng_state = 7;
	for (uint64_t bits = 8; bits <= 4096; bits *= 2)
		for (uint32_t k = 1; k <= bits && k <= 20; k += 3)
		{
			uint64_t	words[64] = {0};
			uint64_t	n = 1 + bits / 16;
			uint64_t	set = 0;

			for (uint64_t i = 0; i < n; i++)
				bs_fit_set(words, bits, k, next_random(), next_random());
			for (uint64_t w = 0; w < bs_bloom_word_count(bits); w++)
				set += (uint64_t) __builtin_popcountll(words[w]);
			CHECKF(bs_fit_rate(words, bits, k) == pow((double) set / (double) bits, k),
				   "m=%" PRIu64 " k=%u", bits, k);
		}
	/* a full filter: rate 1, not more (bloom_fpr of a full fit filter) */
	for (uint64_t bits = 8; bits <= 4096; bits *= 2)
	{
		bs_bloom   *full = calloc(1, bs_bloom_total_bytes(bits));

		bs_bloom_init_scheme(full, BS_SCHEME_FIT, bits, bits < 7 ? (uint32_t) bits : 7, 0);
		for (uint64_t w = 0; w < bs_bloom_word_count(bits); w++)
			full->words[w] = bits < 64 ? (UINT64_C(1) << bits) - 1 : ~UINT64_C(0);
		full->items = 100000;
		CHECKF(bs_bloom_current_fpr(full) == 1, "m=%" PRIu64 ": %.17g", bits, bs_bloom_current_fpr(full));
		free(full);
	}
}

/*
 * The rate a large filter reports against false positives counted over
 * fresh non-members: within the two-sided 99.9% binomial interval (the
 * filter's rate is what bloom_fpr reports, not a margin above it).
 */
static void
test_reported_rate(void)
{
	static const struct
	{
		double		fpr;
		uint64_t	n;
		uint64_t	probes;
	}			cells[] = {{1e-2, 100000, 200000}, {1e-3, 30000, 1000000}, {1e-4, 10000, 4000000}};

	for (size_t c = 0; c < sizeof(cells) / sizeof(cells[0]); c++)
	{
		uint32_t	k = bs_fit_hashes(cells[c].fpr);
		uint64_t	base = (UINT64_C(3) << 44) + c * (UINT64_C(1) << 36);
		uint64_t   *pairs = pairs_of_range(base, cells[c].n);
		uint64_t   *words;
		bool		met;
		uint64_t	bits = fit_build(pairs, cells[c].n, k, cells[c].fpr, BS_FIT_DEFAULT_CEILING,
									 &words, &met);
		double		reported = bs_fit_rate(words, bits, k);
		uint64_t	positives = 0;

		for (uint64_t i = 0; i < cells[c].probes; i++)
		{
			XXH128_hash_t h = hash_of(base + cells[c].n + i);

			positives += bs_fit_test(words, bits, k, h.low64, h.high64);
		}
		CHECKF(met && positives <= binomial_upper(cells[c].probes, reported) &&
			   positives >= binomial_lower(cells[c].probes, reported),
			   "fpr %g n %" PRIu64 ": %" PRIu64 " false positives in %" PRIu64 ", reported rate %g",
			   cells[c].fpr, cells[c].n, positives, cells[c].probes, reported);
		free(words);
		free(pairs);
	}
}

/* ---- 4. sizes and measured rates ---- */

/*
 * For each rate and n: groups built as the final function builds them, all
 * of one size (a function of n); their false positives over fresh
 * non-members must stay within the 99.9% bound of the rate asked for, and
 * within the 99.9% interval around the mean of the filters' own rates (a
 * sum of binomials varies less than the binomial of their mean, so that
 * interval is, if anything, wide), which shows the own rate is right.  With
 * 100 groups or more, their mean own rate must also lie within 3.29
 * standard errors (99.9%, normal) of the expected rate the size was chosen
 * by, itself at most the rate asked for: one filter's own rate may exceed
 * it, their mean does not.
 */
static void
test_rates(void)
{
	static const double rates[] = {0.1, 0.01, 0.001, 0.0001};
	static const uint64_t ns[] = {1, 2, 3, 5, 10, 20, 50, 100, 300, 1000, 3000, 10000, 30000, 100000};

	for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++)
		for (size_t j = 0; j < sizeof(ns) / sizeof(ns[0]); j++)
		{
			double		fpr = rates[r];
			uint64_t	n = ns[j];
			uint32_t	k = bs_fit_hashes(fpr);
			/* small groups: many filters, so that their rates show */
			uint64_t	groups = n <= 100 ? 2000 / (n < 20 ? 1 : n / 20) : 1;
			uint64_t	probes = n <= 100 ? 100 : 400000;
			uint64_t	positives = 0;
			double		own = 0;
			double		own_squares = 0;
			uint64_t	size = 0;

			for (uint64_t g = 0; g < groups; g++)
			{
				uint64_t	base = (UINT64_C(1) << 40) * (r + 1) + g * (n + probes) + j * (UINT64_C(1) << 32);
				uint64_t   *pairs = pairs_of_range(base, n);
				uint64_t   *words;
				bool		met;
				uint64_t	bits = fit_build(pairs, n, k, fpr, BS_FIT_DEFAULT_CEILING, &words, &met);

				CHECK(met && (size == 0 || bits == size));
				size = bits;
				own += bs_fit_rate(words, bits, k);
				own_squares += bs_fit_rate(words, bits, k) * bs_fit_rate(words, bits, k);
				for (uint64_t i = 0; i < probes; i++)
				{
					XXH128_hash_t h = hash_of(base + n + i);

					positives += bs_fit_test(words, bits, k, h.low64, h.high64);
				}
				free(words);
				free(pairs);
			}
			CHECKF(positives <= binomial_upper(groups * probes, fpr),
				   "fpr %g n %" PRIu64 ": %" PRIu64 " false positives in %" PRIu64 " (bound %" PRIu64 ")",
				   fpr, n, positives, groups * probes, binomial_upper(groups * probes, fpr));
			{
				double		mean = own / (double) groups;

				CHECKF(positives <= binomial_upper(groups * probes, mean) &&
					   positives >= binomial_lower(groups * probes, mean),
					   "fpr %g n %" PRIu64 ": %" PRIu64 " false positives, own rate %g",
					   fpr, n, positives, mean);
				/* the mean own rate estimates the expected rate the size was chosen by */
				if (groups >= 100)
				{
					double		sd = sqrt((own_squares / (double) groups - mean * mean) / (double) (groups - 1));
					double		expected = bs_fit_expected_rate(size, n, k);

					CHECKF(expected <= fpr && fabs(mean - expected) <= 3.29 * sd + 1e-15,
						   "fpr %g n %" PRIu64 ": mean own rate %g, expected %g (sd %g)",
						   fpr, n, mean, expected, sd);
				}
			}
		}
}

/* ---- 5. hash lists ---- */

static int
compare_pairs(const void *x, const void *y)
{
	const uint64_t *a = x,
			   *b = y;

	if (a[0] != b[0])
		return a[0] < b[0] ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

static void
test_hash_lists(void)
{
	/* the radix sort against the comparison sort, with repeats and ties on h1 */
	{
		uint64_t	count = 50000;
		uint64_t   *a = malloc(count * 16),
				   *b = malloc(count * 16),
				   *scratch = malloc(count * 16);

		rng_state = 5;
		for (uint64_t i = 0; i < count; i++)
		{
			a[2 * i] = i % 7 == 0 ? next_random() % 16 : next_random();
			a[2 * i + 1] = next_random() % 3;
			if (i % 11 == 0 && i > 0)
			{
				a[2 * i] = a[2 * (i - 1)];
				a[2 * i + 1] = a[2 * (i - 1) + 1];
			}
		}
		memcpy(b, a, count * 16);
		{
			uint64_t	radix = bs_fit_sort_unique_scratch(a, count, scratch);
			uint64_t	compared = bs_fit_sort_unique(b, count);

			CHECK(radix == compared && compared < count && memcmp(a, b, compared * 16) == 0);
		}
		free(a);
		free(b);
		free(scratch);
	}
	rng_state = 99;
	for (int trial = 0; trial < 200; trial++)
	{
		uint64_t	na = (uint64_t) (next_random() % 60),
					nb = (uint64_t) (next_random() % 60);
		uint64_t	a[240],
					b[120],
					out[240],
					reference[240];
		uint64_t	n,
					nref = 0,
					at;

		/* few distinct h1, so that repeats and ties on h1 occur */
		for (uint64_t i = 0; i < na; i++)
		{
			a[2 * i] = next_random() % 8;
			a[2 * i + 1] = next_random() % 4;
		}
		for (uint64_t i = 0; i < nb; i++)
		{
			b[2 * i] = next_random() % 8;
			b[2 * i + 1] = next_random() % 4;
		}
		memcpy(reference, a, na * 16);
		memcpy(reference + 2 * na, b, nb * 16);
		qsort(reference, na + nb, 16, compare_pairs);
		for (uint64_t i = 0; i < na + nb; i++)
			if (nref == 0 || compare_pairs(&reference[2 * i], &reference[2 * (nref - 1)]) != 0)
			{
				reference[2 * nref] = reference[2 * i];
				reference[2 * nref + 1] = reference[2 * i + 1];
				nref++;
			}
		na = bs_fit_sort_unique(a, na);
		nb = bs_fit_sort_unique(b, nb);
		n = bs_fit_merge_unique(a, na, b, nb, out);
		CHECK(n == nref && memcmp(out, reference, n * 16) == 0);
		for (uint64_t i = 0; i < n; i++)
			CHECK(bs_fit_find(out, n, out[2 * i], out[2 * i + 1], &at) && at == i);
		CHECK(!bs_fit_find(out, n, 9, 0, &at) && at == n);
		/* merging back in place: b's pairs not in a, into a's storage */
		{
			uint64_t	tail[120],
						nt = 0;

			for (uint64_t i = 0; i < nb; i++)
				if (!bs_fit_find(a, na, b[2 * i], b[2 * i + 1], &at))
				{
					tail[2 * nt] = b[2 * i];
					tail[2 * nt + 1] = b[2 * i + 1];
					nt++;
				}
			/* dropping a's pairs from b by one walk leaves the same */
			CHECK(bs_fit_drop_known(a, na, b, nb) == nt && memcmp(b, tail, nt * 16) == 0);
			bs_fit_merge_back(a, na, tail, nt);
			CHECK(na + nt == n && memcmp(a, out, n * 16) == 0);
		}
	}
}

/* ---- 6. the validator and the text form of both new forms ---- */

static bs_bloom *
new_state(uint64_t count, double fpr, uint64_t ceiling)
{
	uint64_t	bits = bs_fit_hashes_state_bits(count);
	bs_bloom   *state = calloc(1, bs_bloom_total_bytes(bits));
	uint64_t   *pairs = pairs_of_range(0, count);

	bs_fit_state_init(state, bits, fpr, ceiling, 0);
	state->family = count ? BS_FAMILY_INTEGER : BS_FAMILY_NONE;
	state->items = count;
	memcpy(state->words + BS_FIT_PREFIX_WORDS, pairs, count * 16);
	bs_fit_sort_unique(state->words + BS_FIT_PREFIX_WORDS, count);
	free(pairs);
	return state;
}

/* Serialize, then read back through the validator: its status. */
static bs_status
round_trip(const bs_bloom *value, bool text)
{
	bs_bloom_params params;
	bs_error	err;
	bs_status	status;
	bs_bloom   *back;

	if (text)
	{
		char	   *out = malloc(bs_bloom_text_length(value) + 1);
		size_t		offset;

		bs_bloom_format_text(value, out);
		status = bs_bloom_parse_text_header(out, strlen(out), &params, &offset, &err);
		if (status == BS_OK)
		{
			back = calloc(1, bs_bloom_total_bytes(params.bits));
			status = bs_bloom_load_text(back, &params, out + offset, strlen(out) - offset, &err);
			if (status == BS_OK)
				status = bs_bloom_compare(back, value) == 0 ? BS_OK : BS_ERR_PARAM;
			free(back);
		}
		free(out);
		return status;
	}
	{
		size_t		length = bs_bloom_serial_bytes(value->bits);
		uint8_t    *bytes = malloc(length);

		bs_bloom_serialize(value, bytes);
		status = bs_bloom_decode_header(bytes, length, &params, &err);
		if (status == BS_OK)
		{
			back = calloc(1, bs_bloom_total_bytes(params.bits));
			status = bs_bloom_load_serialized(back, &params, bytes, &err);
			if (status == BS_OK)
				status = bs_bloom_compare(back, value) == 0 ? BS_OK : BS_ERR_PARAM;
			free(back);
		}
		free(bytes);
		return status;
	}
}

static void
test_validator(void)
{
	bs_bloom   *state = new_state(5, 0.01, 4096);
	bs_error	err;
	double		bad_rate = 1.5;

	for (int text = 0; text <= 1; text++)
	{
		CHECK(round_trip(state, text) == BS_OK);
		/* out of order */
		state->words[2] ^= state->words[4];
		state->words[4] ^= state->words[2];
		state->words[2] ^= state->words[4];
		CHECK(round_trip(state, text) == BS_ERR_FORMAT);
		bs_fit_sort_unique(state->words + 2, 5);
		/* a repeat */
		state->words[4] = state->words[2];
		state->words[5] = state->words[3];
		CHECK(round_trip(state, text) == BS_ERR_FORMAT);
		free(state);
		state = new_state(5, 0.01, 4096);
		/* more hashes than items, a wrong k, a bad rate, a bad ceiling, a bad form */
		state->items = 4;
		CHECK(round_trip(state, text) == BS_ERR_FORMAT);
		state->items = 5;
		state->hashes = 8;
		CHECK(round_trip(state, text) == BS_ERR_FORMAT);
		state->hashes = 7;
		memcpy(&state->words[0], &bad_rate, 8);
		CHECK(round_trip(state, text) == BS_ERR_FORMAT);
		free(state);
		state = new_state(5, 0.01, 4096);
		state->words[1] = 4000;
		CHECK(round_trip(state, text) == BS_ERR_FORMAT);
		state->words[1] = 1024;		/* a ceiling whose list holds only 4 */
		CHECK(round_trip(state, text) == BS_ERR_FORMAT);
		state->words[1] = 4096;
		state->reserved8 = 1;		/* (the text form cannot even say it) */
		CHECKF(text || round_trip(state, false) == BS_ERR_FORMAT, "%d", round_trip(state, false));
		state->reserved8 = 0;
		CHECK(round_trip(state, text) == BS_OK);
	}
	free(state);
	/* more hashes than the ceiling's list holds */
	state = new_state(5, 0.01, 4096);
	CHECK(bs_fit_state_check_words(state, &err) == BS_OK);
	free(state);
	state = new_state(4 + 1, 0.01, 1024);
	CHECK(bs_fit_threshold(1024) == 4 && bs_fit_state_check_words(state, &err) == BS_ERR_FORMAT);
	free(state);
	/* a fit filter: power-of-two m, flags 0 or 1 */
	{
		bs_bloom   *f = calloc(1, bs_bloom_total_bytes(128));

		bs_bloom_init_scheme(f, BS_SCHEME_FIT, 128, 7, 0);
		CHECKF(round_trip(f, true) == BS_OK && round_trip(f, false) == BS_OK, "%d %d", round_trip(f, true), round_trip(f, false));
		f->reserved8 = BS_FIT_OVER_CEILING;
		CHECK(round_trip(f, true) == BS_OK && round_trip(f, false) == BS_OK);
		{
			char		text[128];

			bs_bloom_format_text(f, text);
			CHECK(strncmp(text, "bloom:v2:fit_over_ceiling:none:k=7:m=128:", 41) == 0);
		}
		/* flags 2 and 3: combined from different sizes; 4 is unknown */
		{
			static const char *const spelled[] = {"fit:", "fit_over_ceiling:", "fit_mixed:",
			"fit_over_ceiling_mixed:"};
			char		text[128];

			for (uint8_t flags = 0; flags < 4; flags++)
			{
				f->reserved8 = flags;
				bs_bloom_format_text(f, text);
				CHECKF(round_trip(f, true) == BS_OK && round_trip(f, false) == BS_OK &&
					   strncmp(text + 9, spelled[flags], strlen(spelled[flags])) == 0,
					   "flags %u: %s", flags, text);
			}
		}
		f->reserved8 = 4;
		CHECK(round_trip(f, false) == BS_ERR_FORMAT);
		f->reserved8 = 0;
		/* k > m: refused for a filter, allowed for a state, whose m counts its payload */
		CHECK(!bs_scheme_shape_safe(BS_SCHEME_FIT, 256, 259) &&
			  bs_scheme_shape_safe(BS_SCHEME_FIT_PARTIAL, 256, 259));
		f->bits = 96;
		CHECK(round_trip(f, false) == BS_ERR_PARAM);
		f->bits = 128;
		f->reserved16 = 1;
		CHECK(round_trip(f, false) == BS_ERR_FORMAT);
		f->reserved16 = 0;
		/* a partial state is refused where a filter is used */
		CHECK(bs_bloom_check_shape(f, bs_bloom_total_bytes(128), &err) == BS_OK);
		free(f);
		/* a union that tiles 64 bits into 4,096 sets more bits than k times its items */
		{
			bs_bloom   *small = calloc(1, bs_bloom_total_bytes(64));
			bs_bloom   *large = calloc(1, bs_bloom_total_bytes(4096));
			bs_bloom   *u = calloc(1, bs_bloom_total_bytes(4096));
			uint64_t   *pairs = pairs_of_range(77, 3);

			bs_bloom_init_scheme(small, BS_SCHEME_FIT, 64, 7, 0);
			bs_bloom_init_scheme(large, BS_SCHEME_FIT, 4096, 7, 0);
			small->family = BS_FAMILY_INTEGER;
			small->items = 3;
			bs_fit_set_pairs(small->words, 64, 7, pairs, 3);
			bs_bloom_combine_sizes(u, small, large, false);
			CHECK(bs_bloom_count_set(u) > 7 * u->items);
			CHECK(round_trip(u, true) == BS_OK && round_trip(u, false) == BS_OK);
			free(small);
			free(large);
			free(u);
			free(pairs);
		}
		state = new_state(3, 0.01, 1024);
		CHECK(bs_bloom_check_shape(state, bs_bloom_total_bytes(state->bits), &err) == BS_ERR_PARAM);
		CHECK(bs_bloom_check_state_shape(state, bs_bloom_total_bytes(state->bits), &err) == BS_OK);
		free(state);
	}
}

int
main(void)
{
	test_positions();
	test_fold_and_tile();
	test_small_tiles();
	test_fill_rate();
	test_reported_rate();
	test_fit_size_model();
	test_hash_lists();
	test_validator();
	test_fit_group_sizes();
	test_rates();
	printf("fit: %lu checks, %lu failed\n", checks_run, checks_failed);
	return checks_failed > 0;
}
