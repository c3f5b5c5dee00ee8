/*
 * bs_bloom.c — layout, counting and textbook sizing of the Bloom filter,
 * and the names of its schemes and families (probing a value is
 * bs_probe.c).
 */
#include "bloom/bs_bloom.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/bs_hash.h"			/* XXH3_64bits */
#include "common/bs_primes.h"

void
bs_bloom_init(bs_bloom *filter, uint64_t bits, uint32_t hashes, uint64_t seed)
{
	bs_bloom_init_scheme(filter, BS_SCHEME_DOUBLE, bits, hashes, seed);
}

void
bs_bloom_init_scheme(bs_bloom *filter, bs_scheme scheme, uint64_t bits,
					 uint32_t hashes, uint64_t seed)
{
	filter->version = BS_BLOOM_FORMAT_VERSION;
	filter->scheme = (uint8_t) scheme;
	filter->family = BS_FAMILY_NONE;
	filter->reserved8 = 0;
	filter->hashes = (uint16_t) hashes;
	filter->reserved16 = 0;
	filter->type_tag = 0;
	filter->bits = bits;
	filter->seed = seed;
	filter->items = 0;
}

/*
 * Population counts over one word array, or over the OR of two.  The same
 * loops are compiled twice, once for the POPCNT instruction (used when the
 * CPU has it) and once portably.
 */
#define DEFINE_COUNTERS(suffix, attribute) \
attribute static uint64_t \
count_words_##suffix(const uint64_t *words, uint64_t count) \
{ \
	uint64_t	total = 0; \
	for (uint64_t i = 0; i < count;) \
		for (uint64_t end = bs_poll_stretch(i, count); i < end; i++) \
			total += (uint64_t) __builtin_popcountll(words[i]); \
	return total; \
} \
attribute static uint64_t \
count_or_##suffix(const uint64_t *a, const uint64_t *b, uint64_t count) \
{ \
	uint64_t	total = 0; \
	for (uint64_t i = 0; i < count;) \
		for (uint64_t end = bs_poll_stretch(i, count); i < end; i++) \
			total += (uint64_t) __builtin_popcountll(a[i] | b[i]); \
	return total; \
}

DEFINE_COUNTERS(portable,)
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_POPCNT_DISPATCH 1
DEFINE_COUNTERS(popcnt, __attribute__((target("popcnt"))))
#endif

uint64_t
bs_bloom_count_set(const bs_bloom *filter)
{
	uint64_t	count = bs_bloom_word_count(filter->bits);

#ifdef HAVE_POPCNT_DISPATCH
	if (__builtin_cpu_supports("popcnt"))
		return count_words_popcnt(filter->words, count);
#endif
	return count_words_portable(filter->words, count);
}

uint64_t
bs_bloom_count_range(const bs_bloom *filter, uint64_t from, uint64_t to)
{
	uint64_t	total = 0;

	/* whole words in the middle, partial words at either end */
	while (from < to && (from & 63) != 0)
	{
		total += (filter->words[from >> 6] >> (from & 63)) & 1;
		from++;
	}
	while (to - from >= 64)
	{
		bs_poll_at(from >> 6);
		total += (uint64_t) __builtin_popcountll(filter->words[from >> 6]);
		from += 64;
	}
	while (from < to)
	{
		total += (filter->words[from >> 6] >> (from & 63)) & 1;
		from++;
	}
	return total;
}

uint64_t
bs_bloom_count_union(const bs_bloom *a, const bs_bloom *b)
{
	uint64_t	count = bs_bloom_word_count(a->bits);

#ifdef HAVE_POPCNT_DISPATCH
	if (__builtin_cpu_supports("popcnt"))
		return count_or_popcnt(a->words, b->words, count);
#endif
	return count_or_portable(a->words, b->words, count);
}

bs_status
bs_check_capacity(int64_t capacity, bs_error *err)
{
	if (capacity < 1)
		return bs_fail(err, BS_ERR_PARAM, "capacity must be at least 1",
					   "The capacity given was %lld.", (long long) capacity);
	return BS_OK;
}

bs_status
bs_check_fpr(double fpr, bs_error *err)
{
	if (!(fpr > 0.0 && fpr < 1.0))
		return bs_fail(err, BS_ERR_PARAM,
					   "false-positive rate must be greater than 0 and less than 1",
					   "The rate given was %.15g.", fpr);
	return BS_OK;
}

/* m before rounding to a prime: ceil(-n ln p / (ln 2)^2), as a double. */
static double
textbook_bits(double capacity, double fpr)
{
	return ceil(-capacity * log(fpr) / (M_LN2 * M_LN2));
}

int64_t
bs_largest_capacity(double fpr, int64_t too_large,
					bool (*fits) (int64_t capacity, double fpr))
{
	int64_t		fitting = 0;

	while (too_large - fitting > 1)
	{
		int64_t		mid = fitting + (too_large - fitting) / 2;

		if (fits(mid, fpr))
			fitting = mid;
		else
			too_large = mid;
	}
	return fitting;
}

bs_status
bs_fail_capacity(bs_error *err, const char *scheme, int64_t capacity, double fpr,
				 bool (*fits) (int64_t capacity, double fpr), uint64_t largest_bits)
{
	/* capacity does not fit, so it bounds the search from above */
	int64_t		largest = bs_largest_capacity(fpr, capacity, fits);
	char		message[sizeof(err->message)];

	if (largest > 0)
		snprintf(message, sizeof(message),
				 "%s%sbloomfilter for %lld items at false-positive rate %.15g is too large; the largest capacity at that rate is %lld",
				 scheme ? scheme : "", scheme ? " " : "", (long long) capacity, fpr,
				 (long long) largest);
	else
		snprintf(message, sizeof(message),
				 "%s%sbloomfilter for %lld items at false-positive rate %.15g is too large; no filter reaches that rate even for one item",
				 scheme ? scheme : "", scheme ? " " : "", (long long) capacity, fpr);
	return bs_fail(err, BS_ERR_TOO_LARGE, message,
				   "The largest filter has %llu bits (750 MB, so that its text form stays under PostgreSQL's 1 GB value limit).%s",
				   (unsigned long long) largest_bits,
				   largest > 0 ? "" : " Ask for a larger false-positive rate.");
}

bs_status
bs_check_space_bound(bs_error *err, const char *scheme, int64_t capacity, double fpr,
					 uint64_t largest_bits)
{
	double		per_item = -log2(fpr);
	double		most = floor((double) largest_bits / per_item);
	char		message[sizeof(err->message)];

	/* the margin keeps rounding from refusing what a search would accept */
	if ((double) capacity * per_item <= (double) largest_bits * (1 + 1e-9))
		return BS_OK;
	if (err == NULL)
		return BS_ERR_TOO_LARGE;
	snprintf(message, sizeof(message),
			 "%s%sbloomfilter for %lld items at false-positive rate %.15g is too large; at most %.0f items fit at that rate",
			 scheme ? scheme : "", scheme ? " " : "", (long long) capacity, fpr, most);
	bs_fail(err, BS_ERR_TOO_LARGE, message,
			"Any filter needs at least log2(1 / rate) = %.4g bits per item, and the largest filter has %llu bits (750 MB, so that its text form stays under PostgreSQL's 1 GB value limit).",
			per_item, (unsigned long long) largest_bits);
	return bs_hint(err, BS_ERR_TOO_LARGE, "Ask for fewer items or a larger false-positive rate.");
}

/* True when the textbook filter for n items at fpr fits in a filter. */
static bool
textbook_fits(int64_t n, double fpr)
{
	return textbook_bits((double) n, fpr) <= (double) bs_prev_prime(BS_BLOOM_MAX_BITS);
}

bs_status
bs_bloom_size_textbook(int64_t capacity, double fpr, uint64_t *bits,
					   uint32_t *hashes, bs_error *err)
{
	double		raw;
	uint64_t	m;
	double		k;
	uint64_t	max_prime = bs_prev_prime(BS_BLOOM_MAX_BITS);

	if (bs_check_capacity(capacity, err) != BS_OK || bs_check_fpr(fpr, err) != BS_OK)
		return err ? err->status : BS_ERR_PARAM;

	raw = textbook_bits((double) capacity, fpr);
	if (raw > (double) max_prime)
		return bs_fail_capacity(err, NULL, capacity, fpr, textbook_fits, max_prime);
	m = bs_next_prime(raw < BS_BLOOM_MIN_BITS ? BS_BLOOM_MIN_BITS : (uint64_t) raw);

	k = round((double) m / (double) capacity * M_LN2);
	if (k < 1)
		k = 1;
	if (k > BS_BLOOM_MAX_HASHES)
		k = BS_BLOOM_MAX_HASHES;
	if (k > (double) m)
		k = (double) m;

	*bits = m;
	*hashes = (uint32_t) k;
	return BS_OK;
}

const char *
bs_family_name(uint8_t family)
{
	static const char *const names[] = {
		"none", "integer", "text", "bytea", "uuid", "numeric", "float",
		"bool", "date", "timestamp", "timestamptz", "other"
	};

	return family <= BS_FAMILY_LAST ? names[family] : "unknown";
}

const char *
bs_scheme_name(uint8_t scheme)
{
	static const char *const names[] = {
		"unknown", "double", "double_square", "double_cube", "partition",
		"independent", "blocked", "fit", "fit_partial"
	};

	return scheme <= BS_SCHEME_CODE_LAST ? names[scheme] : "unknown";
}

bool
bs_scheme_parse(const char *name, uint8_t *scheme)
{
	for (uint8_t code = 1; code <= BS_SCHEME_CODE_LAST; code++)
	{
		if (strcmp(name, bs_scheme_name(code)) == 0)
		{
			*scheme = code;
			return true;
		}
	}
	return false;
}

void
bs_family_token(uint8_t family, uint32_t type_tag, char *out, size_t size)
{
	if (family == BS_FAMILY_OTHER)
		snprintf(out, size, "other-%08x", type_tag);
	else
		snprintf(out, size, "%s", bs_family_name(family));
}

uint32_t
bs_type_tag(const char *signature, size_t length)
{
	return (uint32_t) XXH3_64bits(signature, length);
}
