/*
 * bs_bloom_codec.c — validating, serializing and parsing Bloom filters.
 */
#include "bs_bloom_codec.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bs_base64.h"
#include "bs_codec_util.h"
#include "bs_scheme.h"

#define TEXT_MAGIC "bloom"
#define TEXT_PREFIX_MAX 160

/* ---- byte order (loads and stores: bs_codec_util.h) ---- */

/* Copy words to little-endian bytes, and back (a memcpy on little-endian hosts). */
static void
words_to_le(const uint64_t *words, uint64_t count, uint8_t *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(out, words, 8 * count);
#else
	for (uint64_t i = 0; i < count; i++)
		bs_store_le64(out + 8 * i, words[i]);
#endif
}

static void
words_from_le(const uint8_t *in, uint64_t count, uint64_t *words)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(words, in, 8 * count);
#else
	for (uint64_t i = 0; i < count; i++)
		words[i] = bs_load_le64(in + 8 * i);
#endif
}

/* ---- the validator ---- */

bs_status
bs_bloom_check_params(const bs_bloom_params *p, bs_error *err)
{
	if (p->version < BS_BLOOM_OLDEST_VERSION || p->version > BS_BLOOM_FORMAT_VERSION)
		return bs_fail(err, BS_ERR_FORMAT, "unsupported bloomfilter format version",
					   "The value has format version %u; this version of bloomsketch reads versions %u to %u.",
					   p->version, BS_BLOOM_OLDEST_VERSION, BS_BLOOM_FORMAT_VERSION);
	if (p->scheme < 1 || p->scheme > BS_SCHEME_LAST)
		return bs_fail(err, BS_ERR_FORMAT, "unknown bloomfilter probing scheme",
					   "The value has scheme code %u.", p->scheme);
	if (p->family > BS_FAMILY_LAST)
		return bs_fail(err, BS_ERR_FORMAT, "unknown bloomfilter value family",
					   "The value has family code %u.", p->family);
	if (p->reserved8 != 0 || p->reserved16 != 0)
		return bs_fail(err, BS_ERR_FORMAT, "reserved bloomfilter header field is not zero",
					   "Reserved fields hold %u and %u; both must be 0.",
					   p->reserved8, p->reserved16);
	if (p->family != BS_FAMILY_OTHER && p->type_tag != 0)
		return bs_fail(err, BS_ERR_FORMAT, "bloomfilter type tag is set for a built-in family",
					   "Only family \"other\" carries a type tag; this value has family \"%s\" and tag %08x.",
					   bs_family_name(p->family), p->type_tag);
	if (p->family == BS_FAMILY_NONE && p->items != 0)
		return bs_fail(err, BS_ERR_FORMAT, "bloomfilter without a value family claims items",
					   "A filter with no family has never had a value added, but this one counts %" PRIu64 " items.",
					   p->items);
	if (p->bits > BS_BLOOM_MAX_BITS)
		return bs_fail(err, BS_ERR_TOO_LARGE, "bloomfilter is too large",
					   "The value has %" PRIu64 " bits; the largest filter has %" PRIu64 " bits.",
					   p->bits, BS_BLOOM_MAX_BITS);
	return bs_scheme_check_shape(p->scheme, p->bits, p->hashes, err);
}

bs_status
bs_bloom_check_words(const bs_bloom *filter, bs_error *err)
{
	uint64_t	count = bs_bloom_word_count(filter->bits);
	unsigned	used = (unsigned) (filter->bits % 64);
	uint64_t	set;
	unsigned __int128 most = (unsigned __int128) filter->hashes * filter->items;

	if (used != 0 && (filter->words[count - 1] >> used) != 0)
		return bs_fail(err, BS_ERR_FORMAT, "bloomfilter padding bits are not zero",
					   "Bits at positions %" PRIu64 " and above must be 0 in a filter of %" PRIu64 " bits.",
					   filter->bits, filter->bits);
	set = bs_bloom_count_set(filter);
	if (set > most)
		return bs_fail(err, BS_ERR_FORMAT, "bloomfilter has more bits set than its items can set",
					   "%" PRIu64 " bits are set, but %" PRIu64 " items with k = %u set at most %" PRIu64 ".",
					   set, filter->items, filter->hashes,
					   most > UINT64_MAX ? UINT64_MAX : (uint64_t) most);
	return BS_OK;
}

bs_status
bs_bloom_check_shape(const bs_bloom *filter, uint64_t total_bytes, bs_error *err)
{
	if (filter->version < BS_BLOOM_OLDEST_VERSION ||
		filter->version > BS_BLOOM_FORMAT_VERSION ||
		filter->family > BS_FAMILY_LAST ||
		filter->bits > BS_BLOOM_MAX_BITS ||
		!bs_scheme_shape_safe(filter->scheme, filter->bits, filter->hashes) ||
		total_bytes != bs_bloom_total_bytes(filter->bits))
		return bs_fail(err, BS_ERR_FORMAT, "stored bloomfilter value is corrupt",
					   "Its header (version %u, scheme %u, k = %u, m = %" PRIu64 ") does not match its size of %" PRIu64 " bytes.",
					   filter->version, filter->scheme, filter->hashes, filter->bits,
					   total_bytes);
	return BS_OK;
}

/* ---- serialized form ---- */

/* A scheme name of the text form (not NUL-terminated) to its code. */
static bool
parse_scheme(const char *token, size_t length, uint8_t *scheme)
{
	char		name[16];

	if (length == 0 || length >= sizeof(name) || memchr(token, '\0', length) != NULL)
		return false;
	memcpy(name, token, length);
	name[length] = '\0';
	return bs_scheme_parse(name, scheme);
}

void
bs_bloom_serialize(const bs_bloom *filter, uint8_t *out)
{
	out[0] = filter->version;
	out[1] = filter->scheme;
	out[2] = filter->family;
	out[3] = filter->reserved8;
	bs_store_le16(out + 4, filter->hashes);
	bs_store_le16(out + 6, filter->reserved16);
	bs_store_le32(out + 8, filter->type_tag);
	bs_store_le64(out + 12, filter->bits);
	bs_store_le64(out + 20, filter->seed);
	bs_store_le64(out + 28, filter->items);
	words_to_le(filter->words, bs_bloom_word_count(filter->bits),
				out + BS_BLOOM_SERIAL_HEADER_BYTES);
}

bs_status
bs_bloom_decode_header(const uint8_t *in, size_t length, bs_bloom_params *p,
					   bs_error *err)
{
	bs_status	status;
	uint64_t	expected;

	if (length < BS_BLOOM_SERIAL_HEADER_BYTES)
		return bs_fail(err, BS_ERR_FORMAT, "bloomfilter value is truncated",
					   "The header needs %d bytes, but only %zu were given.",
					   BS_BLOOM_SERIAL_HEADER_BYTES, length);
	p->version = in[0];
	p->scheme = in[1];
	p->family = in[2];
	p->reserved8 = in[3];
	p->hashes = bs_load_le16(in + 4);
	p->reserved16 = bs_load_le16(in + 6);
	p->type_tag = bs_load_le32(in + 8);
	p->bits = bs_load_le64(in + 12);
	p->seed = bs_load_le64(in + 20);
	p->items = bs_load_le64(in + 28);

	/* the version decides how to read the rest, so it is checked first */
	if ((status = bs_bloom_check_params(p, err)) != BS_OK)
		return status;

	expected = bs_bloom_serial_bytes(p->bits);
	if ((uint64_t) length != expected)
		return bs_fail(err, BS_ERR_FORMAT,
					   length < expected ? "bloomfilter value is truncated"
					   : "bloomfilter value has trailing bytes",
					   "A filter of %" PRIu64 " bits takes %" PRIu64 " bytes, but %zu were given.",
					   p->bits, expected, length);
	return BS_OK;
}

/* Copy checked params into a filter's header. */
static void
set_header(bs_bloom *filter, const bs_bloom_params *p)
{
	filter->version = p->version;
	filter->scheme = p->scheme;
	filter->family = p->family;
	filter->reserved8 = p->reserved8;
	filter->hashes = p->hashes;
	filter->reserved16 = p->reserved16;
	filter->type_tag = p->type_tag;
	filter->bits = p->bits;
	filter->seed = p->seed;
	filter->items = p->items;
}

bs_status
bs_bloom_load_serialized(bs_bloom *filter, const bs_bloom_params *p,
						 const uint8_t *in, bs_error *err)
{
	set_header(filter, p);
	words_from_le(in + BS_BLOOM_SERIAL_HEADER_BYTES, bs_bloom_word_count(p->bits),
				  filter->words);
	return bs_bloom_check_words(filter, err);
}

/* ---- text form ---- */

/* Render the prefix (through the final ':'); returns its length. */
static size_t
format_prefix(const bs_bloom_params *p, char *out, size_t size)
{
	char		family[32];
	int			n;

	bs_family_token(p->family, p->type_tag, family, sizeof(family));
	n = snprintf(out, size, "%s:v%u:%s:%s:k=%u:m=%" PRIu64 ":seed=%" PRId64 ":items=%" PRIu64 ":",
				 TEXT_MAGIC, p->version, bs_scheme_name(p->scheme), family,
				 p->hashes, p->bits, (int64_t) p->seed, p->items);
	return n < 0 ? 0 : (size_t) n;
}

uint64_t
bs_bloom_text_length(const bs_bloom *filter)
{
	bs_bloom_params p;
	char		prefix[TEXT_PREFIX_MAX];

	bs_bloom_get_params(filter, &p);
	return format_prefix(&p, prefix, sizeof(prefix)) +
		bs_base64_encoded_length(8 * bs_bloom_word_count(filter->bits));
}

void
bs_bloom_format_text(const bs_bloom *filter, char *out)
{
	bs_bloom_params p;
	size_t		prefix_length;
	uint64_t	words = bs_bloom_word_count(filter->bits);

	bs_bloom_get_params(filter, &p);
	prefix_length = format_prefix(&p, out, TEXT_PREFIX_MAX);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	bs_base64_encode((const uint8_t *) filter->words, 8 * words, out + prefix_length);
#else
	for (uint64_t i = 0; i < words; i += 3)
	{
		uint8_t		chunk[24];
		uint64_t	n = words - i < 3 ? words - i : 3;

		words_to_le(filter->words + i, n, chunk);
		bs_base64_encode(chunk, 8 * n, out + prefix_length + 32 * (i / 3));
	}
#endif
	out[prefix_length + bs_base64_encoded_length(8 * words)] = '\0';
}

static bs_status
syntax_error(bs_error *err, const char *detail)
{
	return bs_fail(err, BS_ERR_FORMAT, "invalid input syntax for type bloomfilter",
				   "%s", detail);
}

bs_status
bs_bloom_parse_text_header(const char *text, size_t length, bs_bloom_params *p,
						   size_t *payload_offset, bs_error *err)
{
	const char *field[8];
	size_t		field_length[8];
	size_t		start = 0;
	uint64_t	value;
	char		canonical[TEXT_PREFIX_MAX];
	size_t		canonical_length;
	bs_status	status;

	memset(p, 0, sizeof(*p));
	for (int f = 0; f < 8; f++)
	{
		const char *colon = memchr(text + start, ':', length - start);

		if (colon == NULL)
			return syntax_error(err, "A bloomfilter is written bloom:v1:<scheme>:<family>:k=<k>:m=<m>:seed=<seed>:items=<n>:<base64 bits>.");
		field[f] = text + start;
		field_length[f] = (size_t) (colon - (text + start));
		start = (size_t) (colon - text) + 1;
	}

	if (field_length[0] != strlen(TEXT_MAGIC) || memcmp(field[0], TEXT_MAGIC, field_length[0]) != 0)
		return syntax_error(err, "The text must start with \"bloom:\".");
	if (field_length[1] < 2 || field[1][0] != 'v' ||
		!bs_parse_decimal(field[1] + 1, field_length[1] - 1, &value) || value > 255)
		return syntax_error(err, "The format version must be written v<number>.");
	p->version = (uint8_t) value;
	if (p->version < BS_BLOOM_OLDEST_VERSION || p->version > BS_BLOOM_FORMAT_VERSION)
		return bs_bloom_check_params(p, err);

	if (!parse_scheme(field[2], field_length[2], &p->scheme))
		return syntax_error(err, "The probing scheme must be double, double_square, double_cube, partition, independent or blocked.");
	if (!bs_parse_family_token(field[3], field_length[3], &p->family, &p->type_tag))
		return syntax_error(err, "The value family is not one bloomsketch knows.");
	if (!bs_parse_field(field[4], field_length[4], "k", false, &value) || value > UINT16_MAX)
		return syntax_error(err, "The number of hash functions must be written k=<number>.");
	p->hashes = (uint16_t) value;
	if (!bs_parse_field(field[5], field_length[5], "m", false, &p->bits))
		return syntax_error(err, "The number of bits must be written m=<number>.");
	if (!bs_parse_field(field[6], field_length[6], "seed", true, &p->seed))
		return syntax_error(err, "The seed must be written seed=<signed 64-bit number>.");
	if (!bs_parse_field(field[7], field_length[7], "items", false, &p->items))
		return syntax_error(err, "The item count must be written items=<number>.");

	/* one spelling per value: the prefix must be exactly what output writes */
	canonical_length = format_prefix(p, canonical, sizeof(canonical));
	if (canonical_length != start || memcmp(canonical, text, start) != 0)
		return syntax_error(err, "The header is not in canonical form (no leading zeros, no plus signs).");

	if ((status = bs_bloom_check_params(p, err)) != BS_OK)
		return status;

	if ((uint64_t) (length - start) != bs_base64_encoded_length(8 * bs_bloom_word_count(p->bits)))
		return bs_fail(err, BS_ERR_FORMAT, "invalid input syntax for type bloomfilter",
					   "A filter of %" PRIu64 " bits takes %zu base64 characters, but %zu were given.",
					   p->bits,
					   (size_t) bs_base64_encoded_length(8 * bs_bloom_word_count(p->bits)),
					   length - start);
	*payload_offset = start;
	return BS_OK;
}

bs_status
bs_bloom_load_text(bs_bloom *filter, const bs_bloom_params *p,
				   const char *payload, size_t payload_length, bs_error *err)
{
	size_t		bad_offset;
	uint64_t	words = bs_bloom_word_count(p->bits);

	set_header(filter, p);
	if (!bs_base64_decode(payload, payload_length, (uint8_t *) filter->words,
						  8 * words, &bad_offset))
		return bs_fail(err, BS_ERR_FORMAT, "invalid input syntax for type bloomfilter",
					   "The base64 bits are not canonical at character %zu of the bits.",
					   bad_offset);
#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
	for (uint64_t i = 0; i < words; i++)
		filter->words[i] = bs_load_le64((const uint8_t *) &filter->words[i]);
#endif
	return bs_bloom_check_words(filter, err);
}
