/*
 * bs_bloom.h — the Bloom filter of bloomsketch, free of PostgreSQL headers.
 *
 * In memory a filter is one contiguous block that PostgreSQL stores as a
 * varlena: a 4-byte length word owned by the SQL layer, a 36-byte header and
 * the bit array as 64-bit words (bit i lives in word i / 64 at position
 * i % 64).  The serialized form (text, binary, bytea) is the same 36-byte
 * header and bit array in little-endian byte order; docs/format.md specifies it.
 */
#ifndef BS_BLOOM_H
#define BS_BLOOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bs_error.h"

/*
 * Version 2 hashes text as UTF-8 and values of family other through their
 * canonical forms; version 1 (text in the database encoding, other through
 * the binary send form) is still read.
 */
#define BS_BLOOM_FORMAT_VERSION 2
#define BS_BLOOM_OLDEST_VERSION 1

/* True when a value of a family hashes alike in format versions 1 and 2. */
static inline bool
bs_family_hash_stable(uint8_t family)
{
	return family != 2 && family != 11;	/* text and other changed */
}

/*
 * Whether values of versions va and vb, holding families fa and fb, can be
 * combined: the same version, or one of them empty (family 0), or the older
 * one's family hashing alike in both.
 */
static inline bool
bs_versions_combine(uint8_t va, uint8_t fa, uint8_t vb, uint8_t fb)
{
	if (va == vb || fa == 0 || fb == 0)
		return true;
	return bs_family_hash_stable(va < vb ? fa : fb);
}

/* The version of their combination: that of the side with values, else the newer. */
static inline uint8_t
bs_combined_version(uint8_t va, uint8_t fa, uint8_t vb, uint8_t fb)
{
	if (fa == 0 && fb != 0)
		return vb;
	if (fb == 0 && fa != 0)
		return va;
	return va > vb ? va : vb;
}

/*
 * Probing schemes: how the k positions of a value are derived (KM 2008,
 * sections 3, 5 and 8).  The codes are stored in every filter.
 */
typedef enum bs_scheme
{
	BS_SCHEME_DOUBLE = 1,		/* a + i b mod m, m prime, b != 0: k distinct */
	BS_SCHEME_DOUBLE_SQUARE = 2,	/* a + i b + i^2 mod m, m prime */
	BS_SCHEME_DOUBLE_CUBE = 3,	/* a + i b + i^3 mod m, m prime */
	BS_SCHEME_PARTITION = 4,	/* k subarrays of prime m' = m / k bits */
	BS_SCHEME_INDEPENDENT = 5,	/* k independently seeded hashes */
	BS_SCHEME_BLOCKED = 6,		/* all k bits in one 512-bit block */
	BS_SCHEME_FIT = 7,			/* self-sized: halves of remix(a + j b) mod 2^j (bs_fit.h) */
	BS_SCHEME_FIT_PARTIAL = 8	/* bloom_fit_agg's partial state (bs_fit_state.h) */
} bs_scheme;
/* The last scheme that capacity sizing (bloom_create, bloom_agg) offers. */
#define BS_SCHEME_LAST BS_SCHEME_BLOCKED
/* The last scheme code a stored value may carry. */
#define BS_SCHEME_CODE_LAST BS_SCHEME_FIT_PARTIAL

/* A blocked filter's block: one 64-byte cache line. */
#define BS_BLOCK_BITS 512
#define BS_BLOCK_WORDS (BS_BLOCK_BITS / 64)
/* Blocked filters take at most this many bits per value in a block. */
#define BS_BLOCKED_MAX_HASHES 64

/*
 * Value families: which values hash alike.  (bs_family_hash_stable above
 * names text and other by number.)  Stored in each filter so that a
 * probe with a value of another family is refused rather than answered "no".
 */
typedef enum bs_family
{
	BS_FAMILY_NONE = 0,			/* nothing added yet */
	BS_FAMILY_INTEGER = 1,
	BS_FAMILY_TEXT = 2,
	BS_FAMILY_BYTEA = 3,
	BS_FAMILY_UUID = 4,
	BS_FAMILY_NUMERIC = 5,
	BS_FAMILY_FLOAT = 6,
	BS_FAMILY_BOOL = 7,
	BS_FAMILY_DATE = 8,
	BS_FAMILY_TIMESTAMP = 9,
	BS_FAMILY_TIMESTAMPTZ = 10,
	BS_FAMILY_OTHER = 11		/* arrays, ranges, composites, jsonb, time, interval,
								 * inet, macaddr: each in a canonical form of its own
								 * (docs/values.md), tagged by its family signature */
} bs_family;
#define BS_FAMILY_LAST BS_FAMILY_OTHER

#define BS_BLOOM_MAX_HASHES 1024
#define BS_BLOOM_MIN_BITS 2
/*
 * The largest bit array: 750,000,000 bytes, so that even the base64 text form
 * (4/3 of that plus a short prefix) stays under PostgreSQL's 1 GB value limit.
 */
#define BS_BLOOM_MAX_BITS UINT64_C(6000000000)

#define BS_BLOOM_SERIAL_HEADER_BYTES 36

/* The filter as it lies in memory (and on disk, inside the varlena). */
typedef struct bs_bloom
{
	int32_t		length_word;	/* varlena header, set by the SQL layer */
	uint8_t		version;		/* BS_BLOOM_FORMAT_VERSION */
	uint8_t		scheme;			/* bs_scheme */
	uint8_t		family;			/* bs_family */
	uint8_t		reserved8;		/* must be zero */
	uint16_t	hashes;			/* k */
	uint16_t	reserved16;		/* must be zero */
	uint32_t	type_tag;		/* BS_FAMILY_OTHER: hash of the family signature; else 0 */
	uint64_t	bits;			/* m */
	uint64_t	seed;
	uint64_t	items;			/* number of values added (not distinct) */
	uint64_t	words[];		/* ceil(m / 64) words; bits past m are zero */
} bs_bloom;

/* The header fields alone, as decoded from untrusted input. */
typedef struct bs_bloom_params
{
	uint8_t		version;
	uint8_t		scheme;
	uint8_t		family;
	uint8_t		reserved8;
	uint16_t	hashes;
	uint16_t	reserved16;
	uint32_t	type_tag;
	uint64_t	bits;
	uint64_t	seed;
	uint64_t	items;
} bs_bloom_params;

/*
 * Precomputed constants for mapping hash values onto the positions of one
 * filter shape.  h1 is mapped onto [0, first_range) and h2 onto
 * [0, step_range); what the two numbers mean depends on the scheme
 * (bs_probe.h).
 */
typedef struct bs_probe
{
	uint64_t	bits;			/* m */
	uint64_t	first_range;	/* m, or m' (partition), or blocks (blocked) */
	uint64_t	reject_below_first;	/* 2^64 mod first_range */
	uint64_t	step_range;		/* m - 1 (double), m, m' or 0 (unused) */
	uint64_t	reject_below_step;	/* 2^64 mod step_range */
	uint32_t	hashes;			/* k */
	uint8_t		scheme;			/* bs_scheme */
	bool		block_simd;		/* blocked, k <= 7, AVX-512F: bs_block_simd.c */
	uint64_t	seed;
} bs_probe;

static inline uint64_t
bs_bloom_word_count(uint64_t bits)
{
	return (bits + 63) / 64;
}

/* Bytes of the whole in-memory value (length word included) for m bits. */
static inline uint64_t
bs_bloom_total_bytes(uint64_t bits)
{
	return sizeof(bs_bloom) + 8 * bs_bloom_word_count(bits);
}

/*
 * Fill the header of an empty filter (the caller zeroed the memory); the
 * shape must suit the scheme (bs_scheme_check_shape).
 */
void		bs_bloom_init_scheme(bs_bloom *filter, bs_scheme scheme, uint64_t bits,
								 uint32_t hashes, uint64_t seed);

/* The same for the default scheme, double hashing. */
void		bs_bloom_init(bs_bloom *filter, uint64_t bits, uint32_t hashes,
						  uint64_t seed);

void		bs_bloom_get_params(const bs_bloom *filter, bs_bloom_params *params);

/*
 * Error (BS_ERR_MISMATCH) unless two filters share version, scheme, m, k,
 * seed and family; a filter with no family yet matches any family.
 */
bs_status	bs_bloom_check_compatible(const bs_bloom *a, const bs_bloom *b,
									  bs_error *err);

/*
 * The same check, but fit filters of different sizes pass: they combine
 * through bs_bloom_combine_sizes.
 */
bs_status	bs_bloom_check_combinable(const bs_bloom *a, const bs_bloom *b,
									  bs_error *err);

/*
 * result (zeroed, of the larger m) = a | b, or a & b, for fit filters that
 * passed bs_bloom_check_combinable: the smaller one tiled up to the larger
 * size (bs_fit.h), so that no member of either is lost.
 */
void		bs_bloom_combine_sizes(bs_bloom *result, const bs_bloom *a, const bs_bloom *b,
								   bool intersect);

/* a |= b, word at a time; a takes b's family if it had none. */
void		bs_bloom_union_into(bs_bloom *a, const bs_bloom *b);

/* a &= b, word at a time; items becomes the smaller count. */
void		bs_bloom_intersect_into(bs_bloom *a, const bs_bloom *b);

/* Total order (header fields, then the words): -1, 0 or 1. */
int			bs_bloom_compare(const bs_bloom *a, const bs_bloom *b);

/* Number of set bits. */
uint64_t	bs_bloom_count_set(const bs_bloom *filter);

/* Number of set bits among positions [from, to). */
uint64_t	bs_bloom_count_range(const bs_bloom *filter, uint64_t from, uint64_t to);

/* Number of bits set in a | b (compatible filters), without building it. */
uint64_t	bs_bloom_count_union(const bs_bloom *a, const bs_bloom *b);

/*
 * Textbook sizing for `capacity` items at false-positive rate `fpr`:
 * m = ceil(-n ln p / (ln 2)^2) rounded up to a prime, k = round((m / n) ln 2).
 * On BS_ERR_TOO_LARGE the detail names the largest capacity that fits.
 */
bs_status	bs_bloom_size_textbook(int64_t capacity, double fpr,
								   uint64_t *bits, uint32_t *hashes,
								   bs_error *err);

/*
 * The largest capacity n in [0, too_large) for which fits(n, fpr) holds,
 * by bisection; fits must hold at 0 and be false from some point on.
 */
int64_t		bs_largest_capacity(double fpr, int64_t too_large,
								bool (*fits) (int64_t capacity, double fpr));

/*
 * BS_ERR_TOO_LARGE for a capacity that does not fit at fpr: the message
 * names the largest capacity that does (found with fits, as
 * bs_largest_capacity does), or says that not even one item fits.  scheme
 * is a scheme name for the message, or NULL; largest_bits the largest m the
 * sizing considered.
 */
bs_status	bs_fail_capacity(bs_error *err, const char *scheme, int64_t capacity,
							 double fpr, bool (*fits) (int64_t capacity, double fpr),
							 uint64_t largest_bits);

/*
 * The space lower bound: no structure answering membership for capacity
 * items at false-positive rate fpr has fewer than capacity log2(1/fpr) bits
 * (bs_space_lower_bound; Wulff-Nilsen, lecture notes, "Lower bound").
 * BS_ERR_TOO_LARGE
 * when that exceeds largest_bits, decided at once, before a sizing searches;
 * else BS_OK.  scheme names the scheme in the message, or is NULL.
 */
bs_status	bs_check_space_bound(bs_error *err, const char *scheme, int64_t capacity,
								 double fpr, uint64_t largest_bits);

/* Checks of the arguments of the sizing functions (22023 on failure). */
bs_status	bs_check_capacity(int64_t capacity, bs_error *err);
bs_status	bs_check_fpr(double fpr, bs_error *err);

/* Lower-case names, as used in the text form and in bloom_info. */
const char *bs_family_name(uint8_t family);
const char *bs_scheme_name(uint8_t scheme);

/* The scheme code of a name as bs_scheme_name writes it; false if none. */
bool		bs_scheme_parse(const char *name, uint8_t *scheme);

/* The family as the text form writes it: its name, or other-<tag in hex>. */
void		bs_family_token(uint8_t family, uint32_t type_tag, char *out, size_t size);

/* A 32-bit tag of a family signature such as "array(integer)" (BS_FAMILY_OTHER). */
uint32_t	bs_type_tag(const char *signature, size_t length);

#endif							/* BS_BLOOM_H */
