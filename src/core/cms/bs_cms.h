/*
 * bs_cms.h — the count-min sketch of bloomsketch, free of PostgreSQL headers.
 *
 * The two-hash count-min sketch of Kirsch and Mitzenmacher (tech report 2006,
 * section 9): d rows ("tables") of prime width w; one XXH3_128bits_withSeed
 * call per value gives h1, h2 and row j counts the value in column
 * g_j = h1 + j*h2 (mod w).  To reach a failure probability delta below
 * epsilon, the sketch holds `copies` independent such structures (their own
 * seeds) and a point query answers the minimum over all of them (section 9.2).
 *
 * In memory a sketch is one contiguous block that PostgreSQL stores as a
 * varlena: a 4-byte length word owned by the SQL layer, the header below and
 * copies * d * w 64-bit counters, copy-major then row-major (counter of copy
 * c, row j, column k at index (c * d + j) * w + k).  The serialized form
 * (text, binary, bytea) is a 32-byte little-endian header and the counters in
 * little-endian byte order; bs_cms_codec.h has the layout.
 *
 * Invariant (checked by the validator, kept by every operation): total, the
 * L1 norm ||a||_1 shown to users, equals the smallest row sum over all rows
 * of all copies.  A sketch built by additions and merges has every row sum
 * equal to total (each update adds its count to one counter of every row);
 * an intersection (counter-wise minimum) has unequal row sums, and its total
 * is their minimum: the tightest upper bound it holds on sum_i min(a_i, b_i).
 */
#ifndef BS_CMS_H
#define BS_CMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bloom/bs_bloom.h"			/* bs_family, bs_family_name, bs_family_token */
#include "common/bs_error.h"

/* Version 2 hashes as bloomfilter's version 2 does (bs_bloom.h). */
#define BS_CMS_FORMAT_VERSION 2
#define BS_CMS_OLDEST_VERSION 1

#define BS_CMS_MIN_WIDTH 2
#define BS_CMS_MAX_DEPTH UINT16_MAX
#define BS_CMS_MAX_COPIES UINT16_MAX
/*
 * The largest in-memory value, length word and header included: 750,000,000
 * bytes, like the Bloom filter's bit array, so that the base64 text form (4/3
 * of the counters plus a short prefix) stays under PostgreSQL's 1 GB limit.
 */
#define BS_CMS_MAX_BYTES UINT64_C(750000000)

/*
 * Copy c hashes with seed + c * BS_CMS_COPY_SEED_STEP.  The step is odd (so
 * the 65,536 possible copy seeds are distinct) and differs from the reseed
 * step of bs_probe.h, so that a rejected hash of one copy does not reseed
 * onto the seed of the next copy.
 */
#define BS_CMS_COPY_SEED_STEP UINT64_C(0xBF58476D1CE4E5B9)

/* The sketch as it lies in memory (and on disk, inside the varlena). */
typedef struct bs_cms
{
	int32_t		length_word;	/* varlena header, set by the SQL layer */
	uint8_t		version;		/* BS_CMS_FORMAT_VERSION */
	uint8_t		family;			/* bs_family */
	uint16_t	reserved16;		/* must be zero */
	uint32_t	type_tag;		/* BS_FAMILY_OTHER: hash of the family signature; else 0 */
	uint32_t	width;			/* w, prime */
	uint16_t	depth;			/* d, rows per copy, 1 <= d <= w */
	uint16_t	copies;			/* independent copies, >= 1 */
	uint32_t	padding;		/* alignment only: always zero, not serialized */
	uint64_t	seed;
	uint64_t	total;			/* ||a||_1: the smallest row sum (see above) */
	uint64_t	counters[];		/* copies * depth * width counters */
} bs_cms;

/* The header fields alone, as decoded from untrusted input. */
typedef struct bs_cms_params
{
	uint8_t		version;
	uint8_t		family;
	uint16_t	reserved16;
	uint32_t	type_tag;
	uint32_t	width;
	uint16_t	depth;
	uint16_t	copies;
	uint64_t	seed;
	uint64_t	total;
} bs_cms_params;

/* Precomputed constants for mapping hash values onto columns of one w. */
typedef struct bs_cms_probe
{
	uint64_t	width;			/* w */
	uint64_t	reject_below_w;		/* 2^64 mod w */
	uint64_t	reject_below_step;	/* 2^64 mod (w - 1) */
	uint32_t	depth;			/* d */
	uint32_t	copies;
	uint64_t	seed;
} bs_cms_probe;

/* Counters of a sketch whose parameters passed the validator (no overflow). */
static inline uint64_t
bs_cms_counter_count(const bs_cms *cms)
{
	return (uint64_t) cms->copies * cms->depth * cms->width;
}

/* Index of the counter of copy c, row j, column k. */
static inline uint64_t
bs_cms_index(const bs_cms *cms, uint32_t copy, uint32_t row, uint64_t column)
{
	return ((uint64_t) copy * cms->depth + row) * cms->width + column;
}

/*
 * Bytes of the whole in-memory value (length word included) for these
 * dimensions, computed without overflow.  BS_ERR_PARAM when a dimension is
 * zero, BS_ERR_TOO_LARGE beyond BS_CMS_MAX_BYTES.
 */
bs_status	bs_cms_total_bytes(uint64_t width, uint64_t depth, uint64_t copies,
							   uint64_t *bytes, bs_error *err);

/*
 * Fill the header of an empty sketch (the caller allocated
 * bs_cms_total_bytes zeroed bytes; width, depth, copies come from a sizing
 * function or passed bs_cms_check_params).
 */
void		bs_cms_init(bs_cms *cms, uint32_t width, uint32_t depth,
						uint32_t copies, uint64_t seed);

void		bs_cms_get_params(const bs_cms *cms, bs_cms_params *params);

/*
 * Error (BS_ERR_MISMATCH, naming the parameter and both values) unless two
 * sketches share version, w, d, copies, seed and family (with its type tag);
 * a sketch with no family yet matches any family.
 */
bs_status	bs_cms_check_compatible(const bs_cms *a, const bs_cms *b,
									bs_error *err);

/*
 * a += b, counter-wise (the sketch of the concatenated streams).  Checks
 * compatibility; BS_ERR_TOO_LARGE, with a unchanged, when a counter or the
 * new total would pass 2^64 - 1.  a takes b's family if it had none.
 */
bs_status	bs_cms_merge_into(bs_cms *a, const bs_cms *b, bs_error *err);

/*
 * a = min(a, b), counter-wise: a sketch whose point estimates are
 * min(estimate_a, estimate_b) >= min(a_i, b_i).  Its total becomes its
 * smallest row sum (see the invariant above).  Checks compatibility.
 */
bs_status	bs_cms_intersect_into(bs_cms *a, const bs_cms *b, bs_error *err);

/*
 * Inner product estimate of the two frequency vectors: for each row the dot
 * product of the two rows (exact, in 128 bits), the minimum over all rows of
 * all copies.  Never below the true sum_i a_i b_i; for the count-min sketch
 * Cormode and Muthukrishnan (J. Algorithms 55, 2005, Theorem 3) bound the
 * excess by epsilon * ||a||_1 * ||b||_1 with probability 1 - delta.  Checks
 * compatibility; BS_ERR_TOO_LARGE when the estimate passes 2^64 - 1.
 */
bs_status	bs_cms_inner_product(const bs_cms *a, const bs_cms *b,
								 uint64_t *product, bs_error *err);

/* Total order (header fields, then the counters): -1, 0 or 1. */
int			bs_cms_compare(const bs_cms *a, const bs_cms *b);

/*
 * The bound of Theorem 9.1 on Pr(estimate > a_i + epsilon * ||a||_1) for one
 * copy, adapted to b drawn from [1, w - 1] (see bs_cms.c):
 *   2 / (epsilon * w * (w - 1)) + (2 / (epsilon * w))^d.
 */
double		bs_cms_failure_bound(double epsilon, uint64_t width, uint32_t depth);

/*
 * Sizing from the error bounds (Theorem 9.1): w = the smallest prime
 * >= 2e / epsilon, d = ceil(ln(1 / (epsilon * (1 - 1/(2e^2))))) (raised in
 * the rare case the bound with the actual w still exceeds epsilon), copies =
 * ceil(ln(1/delta) / ln(1/epsilon)) when delta < epsilon, else 1.
 * 0 < epsilon < 1 and 0 < delta < 1, else BS_ERR_PARAM; BS_ERR_TOO_LARGE when
 * the sketch would pass BS_CMS_MAX_BYTES or 65,535 copies.
 */
bs_status	bs_cms_size_error(double epsilon, double delta, uint32_t *width,
							  uint32_t *depth, uint32_t *copies, bs_error *err);

/*
 * Sizing from dimensions: the width rounded up to a prime (at least 2);
 * depth between 1 and the prime width, copies >= 1 (BS_ERR_PARAM), within
 * 65,535 and BS_CMS_MAX_BYTES (BS_ERR_TOO_LARGE).
 */
bs_status	bs_cms_size_dims(int64_t width, int64_t depth, int64_t copies,
							 uint32_t *width_out, uint32_t *depth_out,
							 uint32_t *copies_out, bs_error *err);

#endif							/* BS_CMS_H */
