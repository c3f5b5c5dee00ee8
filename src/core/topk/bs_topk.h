/*
 * bs_topk.h — the heavy-hitters summary of bloomsketch (topksketch), free of
 * PostgreSQL headers: its stored form, the entries in it and its sizing.
 *
 * A Misra–Gries summary (Misra and Gries, "Finding repeated elements",
 * 1982) with c counters, merged by the rule of Agarwal, Cormode, Huang,
 * Phillips, Wei and Yi, "Mergeable Summaries" (PODS 2012, section 3.1):
 * add the counters of both summaries, then subtract the (c+1)-th largest
 * counter from every counter and drop those that are no longer positive.
 * The summary of a stream of N values keeps, besides its counters:
 *
 *   total   N, the values counted (a bigint);
 *   error   Delta, the sum of everything ever subtracted from the counters;
 *   per listed value x: count, its Misra–Gries counter, and lower, the
 *           occurrences of x counted since x last entered the summary (in a
 *           merge, the sum of both sides' lower).
 *
 * and guarantees, for every value x with true count f(x):
 *
 *   lower(x) <= f(x) <= count(x) + error   when x is listed,
 *   f(x) <= error                          when it is not,
 *   sum of counts + (c + 1) * error <= N   (so error <= N / (c + 1)).
 *
 * So every value occurring more than N / (c + 1) times is listed.  Each
 * reduction subtracts some C from the counters and drops values whose
 * counters are at most C: a counter loses at most C of its value's
 * occurrences while error grows by C, and C is chosen so that the third
 * inequality still holds (bs_topk_table.c: Misra and Gries' own C, the
 * (c + 1)-th largest counter, always qualifies, since the c + 1 largest
 * counters then lose C each).
 * Counting one value is the merge of a one-value summary without the
 * reduction, which is deferred until 3c values are held (bs_topk_table.h);
 * any sequence of counts, merges and reductions keeps all three inequalities,
 * whatever the order, which is what parallel and distributed aggregation
 * need.  lower never changes when counters are reduced, so it is a lower
 * bound that Misra–Gries alone does not give, the part that SpaceSaving's
 * count minus its error plays there (Metwally, Agrawal and El Abbadi, 2005;
 * Agarwal et al., section 3.2, relate the two summaries).
 *
 * In memory a summary is one contiguous block that PostgreSQL stores as a
 * varlena: a 4-byte length word owned by the SQL layer, the header below and
 * the payload, which holds the entries exactly as the serialized form does,
 * sorted by their canonical key bytes so that equal summaries have equal
 * bytes.  An entry is, in variable-length integers (LEB128: 7 bits a byte,
 * low first, the high bit set on all but the last, no superfluous bytes)
 *
 *   lower | slack = lower - count | key_length | [text_field] | key | [text]
 *
 * where the key is the value's canonical bytes (docs/format.md section 1).
 * text_field is there only for the families whose key does not determine
 * how the value prints (numeric, other: bs_topk_text.h): 0 when the text is
 * the key, else the text's length + 1, the text, in UTF-8, following the
 * key.  Counts are small numbers mostly, so an entry of a short text takes
 * a few bytes more than its key.
 */
#ifndef BS_TOPK_H
#define BS_TOPK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bloom/bs_bloom.h"			/* bs_family */
#include "common/bs_endian.h"		/* bs_load_le* */
#include "common/bs_error.h"

#define BS_TOPK_FORMAT_VERSION 1
#define BS_TOPK_OLDEST_VERSION 1

#define BS_TOPK_MIN_COUNTERS 1
#define BS_TOPK_MAX_COUNTERS 1000000
/* Counts are bigint in SQL. */
#define BS_TOPK_MAX_TOTAL UINT64_C(9223372036854775807)
/*
 * The largest in-memory value, length word and header included, as for the
 * other types: the base64 text form stays under PostgreSQL's 1 GB limit.
 */
#define BS_TOPK_MAX_BYTES UINT64_C(750000000)

/* The fewest bytes an entry takes: lower, slack and key length of one byte each. */
#define BS_TOPK_ENTRY_MIN_BYTES 3
/* The most bytes a variable-length integer takes (LEB128 of 64 bits). */
#define BS_TOPK_VARINT_MAX_BYTES 10

/* The summary as it lies in memory (and on disk, inside the varlena). */
typedef struct bs_topk
{
	int32_t		length_word;	/* varlena header, set by the SQL layer */
	uint8_t		version;		/* BS_TOPK_FORMAT_VERSION */
	uint8_t		family;			/* bs_family */
	uint16_t	reserved16;		/* must be zero */
	uint32_t	type_tag;		/* BS_FAMILY_OTHER: hash of the signature; else 0 */
	uint32_t	counters;		/* c */
	uint32_t	entries;		/* listed values, at most c */
	uint32_t	padding;		/* alignment only: always zero, not serialized */
	uint64_t	total;			/* N */
	uint64_t	error;			/* Delta */
	uint64_t	payload_bytes;	/* of the entries below */
	uint8_t		payload[];		/* the entries, sorted by key */
} bs_topk;

/* The header fields alone, as decoded from untrusted input. */
typedef struct bs_topk_params
{
	uint8_t		version;
	uint8_t		family;
	uint16_t	reserved16;
	uint32_t	type_tag;
	uint32_t	counters;
	uint32_t	entries;
	uint64_t	total;
	uint64_t	error;
	uint64_t	payload_bytes;
} bs_topk_params;

/* One entry of a summary, its key and text pointing into the payload. */
typedef struct bs_topk_entry
{
	uint64_t	count;
	uint64_t	lower;
	const uint8_t *key;
	uint32_t	key_length;
	const uint8_t *text;		/* the key's bytes when stored as the key */
	uint32_t	text_length;
	bool		text_is_key;
} bs_topk_entry;

/*
 * Whether the entries of a family have a text field: numeric and other,
 * whose keys do not determine how their values print (bs_topk_text.h).
 */
static inline bool
bs_topk_family_has_text(uint8_t family)
{
	return family == BS_FAMILY_NUMERIC || family == BS_FAMILY_OTHER;
}

/* The bytes of v as a variable-length integer: 7 bits a byte, low first. */
static inline uint32_t
bs_topk_varint_bytes(uint64_t v)
{
	uint32_t	n = 1;

	while (v >= 0x80)
	{
		v >>= 7;
		n++;
	}
	return n;
}

/* Write v as a variable-length integer at p; returns its bytes. */
static inline uint32_t
bs_topk_put_varint(uint8_t *p, uint64_t v)
{
	uint32_t	n = 0;

	while (v >= 0x80)
	{
		p[n++] = (uint8_t) (v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t) v;
	return n;
}

/* A variable-length integer of a validated summary at *p; *p moves past it. */
static inline uint64_t
bs_topk_get_varint(const uint8_t **p)
{
	uint64_t	v = 0;
	uint32_t	shift = 0;
	uint8_t		b;

	do
	{
		b = *(*p)++;
		v |= (uint64_t) (b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	return v;
}

/*
 * The entry at *offset of a validated summary's payload; *offset moves to
 * the next one.
 */
static inline void
bs_topk_read_entry(const bs_topk *topk, uint64_t *offset, bs_topk_entry *entry)
{
	const uint8_t *p = topk->payload + *offset;
	uint64_t	text_field = 0;

	entry->lower = bs_topk_get_varint(&p);
	entry->count = entry->lower - bs_topk_get_varint(&p);
	entry->key_length = (uint32_t) bs_topk_get_varint(&p);
	if (bs_topk_family_has_text(topk->family))
		text_field = bs_topk_get_varint(&p);
	entry->key = p;
	p += entry->key_length;
	entry->text_is_key = text_field == 0;
	if (entry->text_is_key)
	{
		entry->text = entry->key;
		entry->text_length = entry->key_length;
	}
	else
	{
		entry->text = p;
		entry->text_length = (uint32_t) (text_field - 1);
		p += entry->text_length;
	}
	*offset = (uint64_t) (p - topk->payload);
}

/*
 * The stored bytes of an entry of a family with these counts and key and
 * text lengths.
 */
static inline uint64_t
bs_topk_entry_bytes(uint8_t family, uint64_t count, uint64_t lower, uint32_t key_length,
					uint32_t text_length, bool text_is_key)
{
	uint64_t	bytes = bs_topk_varint_bytes(lower) + bs_topk_varint_bytes(lower - count) +
		bs_topk_varint_bytes(key_length) + key_length;

	if (bs_topk_family_has_text(family))
		bytes += text_is_key ? 1 : bs_topk_varint_bytes(text_length + UINT64_C(1)) + text_length;
	return bytes;
}

/*
 * Write an entry at p (bs_topk_entry_bytes of room, count <= lower); the
 * text is written only for a family with a text field, and then only when
 * not text_is_key.  Returns the bytes written.
 */
uint64_t	bs_topk_write_entry(uint8_t *p, uint8_t family, uint64_t count, uint64_t lower,
								const uint8_t *key, uint32_t key_length,
								const uint8_t *text, uint32_t text_length,
								bool text_is_key);

/*
 * The order of entries in a summary: their keys' bytes compared as
 * unsigned, a key that is a prefix of another first.  -1, 0 or 1.
 */
int			bs_topk_key_compare(const uint8_t *a, uint32_t a_length,
								const uint8_t *b, uint32_t b_length);

/*
 * The upper bound of a listed value's count, count + error: at most total
 * in a valid summary, so it fits a bigint.
 */
static inline uint64_t
bs_topk_upper_bound(const bs_topk *topk, const bs_topk_entry *entry)
{
	return entry->count + topk->error;
}

/*
 * The counters of topk_agg(value, k) (with_epsilon false: c = k) or of
 * topk_agg(value, k, epsilon) (c = max(k, ceil(1/epsilon) - 1), the fewest
 * that make every bound within epsilon * N).  BS_ERR_PARAM for k < 1 or
 * epsilon outside (0, 1); BS_ERR_TOO_LARGE beyond BS_TOPK_MAX_COUNTERS.
 */
bs_status	bs_topk_size(int64_t k, double epsilon, bool with_epsilon,
						 uint32_t *counters, bs_error *err);

/*
 * Find a key among a validated summary's entries: true, with *entry set,
 * when it is listed.  Entries are sorted by key, so the scan stops at the
 * first larger one; it polls for interrupts (a summary lists up to 10^6).
 */
bool		bs_topk_find(const bs_topk *topk, const uint8_t *key, uint32_t key_length,
						 bs_topk_entry *entry);

/* Bytes of the in-memory value with this payload (length word included). */
static inline uint64_t
bs_topk_value_bytes(uint64_t payload_bytes)
{
	return sizeof(bs_topk) + payload_bytes;
}

/*
 * Error (BS_ERR_MISMATCH, naming both values) unless two summaries share
 * their number of counters, version and family (with its type tag); a
 * summary with no family yet matches any family.
 */
bs_status	bs_topk_check_compatible(uint32_t counters_a, uint8_t version_a,
									 uint8_t family_a, uint32_t type_tag_a,
									 const bs_topk *b, bs_error *err);

/* Total order (header fields, then the entries' bytes): -1, 0 or 1. */
int			bs_topk_compare(const bs_topk *a, const bs_topk *b);

#endif							/* BS_TOPK_H */
