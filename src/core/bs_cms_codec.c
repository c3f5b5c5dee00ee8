/*
 * bs_cms_codec.c — validating, serializing and parsing count-min sketches.
 */
#include "bs_cms_codec.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bs_base64.h"
#include "bs_codec_util.h"
#include "bs_primes.h"

#define TEXT_MAGIC "cms"
#define TEXT_PREFIX_MAX 160

/* ---- byte order (loads and stores: bs_codec_util.h) ---- */

/* Copy counters to little-endian bytes, and back (a memcpy on little-endian hosts). */
static void
counters_to_le(const uint64_t *counters, uint64_t count, uint8_t *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(out, counters, 8 * count);
#else
	for (uint64_t i = 0; i < count; i++)
		bs_store_le64(out + 8 * i, counters[i]);
#endif
}

static void
counters_from_le(const uint8_t *in, uint64_t count, uint64_t *counters)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(counters, in, 8 * count);
#else
	for (uint64_t i = 0; i < count; i++)
		counters[i] = bs_load_le64(in + 8 * i);
#endif
}

/* ---- the validator ---- */

bs_status
bs_cms_check_params(const bs_cms_params *p, bs_error *err)
{
	uint64_t	bytes;
	bs_status	status;

	if (p->version < BS_CMS_OLDEST_VERSION || p->version > BS_CMS_FORMAT_VERSION)
		return bs_fail(err, BS_ERR_FORMAT, "unsupported cmsketch format version",
					   "The value has format version %u; this version of bloomsketch reads versions %u to %u.",
					   p->version, BS_CMS_OLDEST_VERSION, BS_CMS_FORMAT_VERSION);
	if (p->reserved16 != 0)
		return bs_fail(err, BS_ERR_FORMAT, "reserved cmsketch header field is not zero",
					   "The reserved field holds %u; it must be 0.", p->reserved16);
	if (p->family > BS_FAMILY_LAST)
		return bs_fail(err, BS_ERR_FORMAT, "unknown cmsketch value family",
					   "The value has family code %u.", p->family);
	if (p->family != BS_FAMILY_OTHER && p->type_tag != 0)
		return bs_fail(err, BS_ERR_FORMAT, "cmsketch type tag is set for a built-in family",
					   "Only family \"other\" carries a type tag; this value has family \"%s\" and tag %08x.",
					   bs_family_name(p->family), p->type_tag);
	if (p->family == BS_FAMILY_NONE && p->total != 0)
		return bs_fail(err, BS_ERR_FORMAT, "cmsketch without a value family claims a total",
					   "A sketch with no family has never had a value added, but this one has total %" PRIu64 ".",
					   p->total);
	if (p->depth < 1)
		return bs_fail(err, BS_ERR_PARAM, "cmsketch depth must be at least 1",
					   "The value has d = %u.", p->depth);
	if (p->copies < 1)
		return bs_fail(err, BS_ERR_PARAM, "cmsketch number of copies must be at least 1",
					   "The value has %u copies.", p->copies);
	if (p->width < BS_CMS_MIN_WIDTH)
		return bs_fail(err, BS_ERR_PARAM, "cmsketch width must be a prime number",
					   "The value has w = %u; the two-hash scheme needs a prime w of at least %d.",
					   p->width, BS_CMS_MIN_WIDTH);
	/* before the primality test, so that the size error wins for huge widths */
	if ((status = bs_cms_total_bytes(p->width, p->depth, p->copies, &bytes, err)) != BS_OK)
		return status;
	if (!bs_is_prime(p->width))
		return bs_fail(err, BS_ERR_PARAM, "cmsketch width must be a prime number",
					   "The value has w = %u; the two-hash scheme needs a prime w of at least %d.",
					   p->width, BS_CMS_MIN_WIDTH);
	if (p->depth > p->width)
		return bs_fail(err, BS_ERR_PARAM, "cmsketch depth must not exceed its width",
					   "The value has d = %u rows of width w = %u; rows j and j + w would coincide.",
					   p->depth, p->width);
	return BS_OK;
}

bs_status
bs_cms_check_counters(const bs_cms *cms, bs_error *err)
{
	uint64_t	rows = (uint64_t) cms->copies * cms->depth;
	uint64_t	width = cms->width;
	unsigned __int128 smallest = ~(unsigned __int128) 0;
	uint64_t	smallest_row = 0;
	uint64_t	largest = 0;

	for (uint64_t r = 0; r < rows; r++)
	{
		const uint64_t *row = cms->counters + r * width;
		unsigned __int128 sum = 0;

		/* at most 2^32 counters below 2^64 each: the sum stays below 2^96 */
		for (uint64_t k = 0; k < width; k++)
		{
			sum += row[k];
			if (row[k] > largest)
				largest = row[k];
		}
		if (sum < smallest)
		{
			smallest = sum;
			smallest_row = r;
		}
	}
	if (cms->family == BS_FAMILY_NONE && largest != 0)
		return bs_fail(err, BS_ERR_FORMAT, "cmsketch without a value family has counts",
					   "A sketch with no family has never had a value added, but a counter holds %" PRIu64 ".",
					   largest);
	if (smallest != cms->total)
	{
		if (smallest > UINT64_MAX)
			return bs_fail(err, BS_ERR_FORMAT, "cmsketch row sums do not match its total",
						   "Every row sums to more than %" PRIu64 ", but the total is %" PRIu64 ".",
						   UINT64_MAX, cms->total);
		return bs_fail(err, BS_ERR_FORMAT, "cmsketch row sums do not match its total",
					   "The smallest row sum (copy %" PRIu64 ", row %" PRIu64 ") is %" PRIu64 ", but the total is %" PRIu64 "; "
					   "every update adds its count to every row.",
					   smallest_row / cms->depth, smallest_row % cms->depth,
					   (uint64_t) smallest, cms->total);
	}
	return BS_OK;
}

bs_status
bs_cms_validate(const bs_cms *cms, uint64_t total_bytes, bs_error *err)
{
	bs_cms_params p;
	bs_status	status;

	bs_cms_get_params(cms, &p);
	if ((status = bs_cms_check_params(&p, err)) != BS_OK)
		return status;
	if (cms->padding != 0)
		return bs_fail(err, BS_ERR_FORMAT, "cmsketch padding is not zero",
					   "The alignment padding holds %u; it must be 0.", cms->padding);
	if (total_bytes != bs_cms_params_total_bytes(&p))
		return bs_fail(err, BS_ERR_FORMAT,
					   total_bytes < bs_cms_params_total_bytes(&p) ? "cmsketch value is truncated"
					   : "cmsketch value has trailing bytes",
					   "A sketch with w = %u, d = %u and %u copies takes %" PRIu64 " bytes, but %" PRIu64 " were given.",
					   p.width, p.depth, p.copies, bs_cms_params_total_bytes(&p), total_bytes);
	return bs_cms_check_counters(cms, err);
}

bs_status
bs_cms_check_shape(const bs_cms *cms, uint64_t total_bytes, bs_error *err)
{
	if (cms->version < BS_CMS_OLDEST_VERSION || cms->version > BS_CMS_FORMAT_VERSION ||
		cms->family > BS_FAMILY_LAST ||
		cms->width < BS_CMS_MIN_WIDTH || cms->depth < 1 || cms->copies < 1 ||
		cms->depth > cms->width ||
		total_bytes != sizeof(bs_cms) + (unsigned __int128) 8 * cms->copies * cms->depth * cms->width)
		return bs_fail(err, BS_ERR_FORMAT, "stored cmsketch value is corrupt",
					   "Its header (version %u, w = %u, d = %u, copies = %u) does not match its size of %" PRIu64 " bytes.",
					   cms->version, cms->width, cms->depth, cms->copies, total_bytes);
	return BS_OK;
}

/* ---- serialized form ---- */

void
bs_cms_serialize(const bs_cms *cms, uint8_t *out)
{
	out[0] = cms->version;
	out[1] = cms->family;
	bs_store_le16(out + 2, cms->reserved16);
	bs_store_le32(out + 4, cms->type_tag);
	bs_store_le32(out + 8, cms->width);
	bs_store_le16(out + 12, cms->depth);
	bs_store_le16(out + 14, cms->copies);
	bs_store_le64(out + 16, cms->seed);
	bs_store_le64(out + 24, cms->total);
	counters_to_le(cms->counters, bs_cms_counter_count(cms),
				   out + BS_CMS_SERIAL_HEADER_BYTES);
}

bs_status
bs_cms_decode_header(const uint8_t *in, size_t length, bs_cms_params *p,
					 bs_error *err)
{
	bs_status	status;
	uint64_t	expected;

	if (length < BS_CMS_SERIAL_HEADER_BYTES)
		return bs_fail(err, BS_ERR_FORMAT, "cmsketch value is truncated",
					   "The header needs %d bytes, but only %zu were given.",
					   BS_CMS_SERIAL_HEADER_BYTES, length);
	p->version = in[0];
	p->family = in[1];
	p->reserved16 = bs_load_le16(in + 2);
	p->type_tag = bs_load_le32(in + 4);
	p->width = bs_load_le32(in + 8);
	p->depth = bs_load_le16(in + 12);
	p->copies = bs_load_le16(in + 14);
	p->seed = bs_load_le64(in + 16);
	p->total = bs_load_le64(in + 24);

	/* the version decides how to read the rest, so it is checked first */
	if ((status = bs_cms_check_params(p, err)) != BS_OK)
		return status;

	expected = bs_cms_serial_bytes(p);
	if ((uint64_t) length != expected)
		return bs_fail(err, BS_ERR_FORMAT,
					   length < expected ? "cmsketch value is truncated"
					   : "cmsketch value has trailing bytes",
					   "A sketch with w = %u, d = %u and %u copies takes %" PRIu64 " bytes, but %zu were given.",
					   p->width, p->depth, p->copies, expected, length);
	return BS_OK;
}

/* Copy checked params into a sketch's header. */
static void
set_header(bs_cms *cms, const bs_cms_params *p)
{
	cms->version = p->version;
	cms->family = p->family;
	cms->reserved16 = p->reserved16;
	cms->type_tag = p->type_tag;
	cms->width = p->width;
	cms->depth = p->depth;
	cms->copies = p->copies;
	cms->padding = 0;
	cms->seed = p->seed;
	cms->total = p->total;
}

bs_status
bs_cms_load_serialized(bs_cms *cms, const bs_cms_params *p, const uint8_t *in,
					   bs_error *err)
{
	set_header(cms, p);
	counters_from_le(in + BS_CMS_SERIAL_HEADER_BYTES, bs_cms_params_counter_count(p),
					 cms->counters);
	return bs_cms_check_counters(cms, err);
}

/* ---- text form ---- */

/* Render the prefix (through the final ':'); returns its length. */
static size_t
format_prefix(const bs_cms_params *p, char *out, size_t size)
{
	char		family[32];
	int			n;

	bs_family_token(p->family, p->type_tag, family, sizeof(family));
	n = snprintf(out, size, "%s:v%u:%s:w=%u:d=%u:copies=%u:seed=%" PRId64 ":total=%" PRIu64 ":",
				 TEXT_MAGIC, p->version, family, p->width, p->depth, p->copies,
				 (int64_t) p->seed, p->total);
	return n < 0 ? 0 : (size_t) n;
}

uint64_t
bs_cms_text_length(const bs_cms *cms)
{
	bs_cms_params p;
	char		prefix[TEXT_PREFIX_MAX];

	bs_cms_get_params(cms, &p);
	return format_prefix(&p, prefix, sizeof(prefix)) +
		bs_base64_encoded_length(8 * bs_cms_counter_count(cms));
}

void
bs_cms_format_text(const bs_cms *cms, char *out)
{
	bs_cms_params p;
	size_t		prefix_length;
	uint64_t	count = bs_cms_counter_count(cms);

	bs_cms_get_params(cms, &p);
	prefix_length = format_prefix(&p, out, TEXT_PREFIX_MAX);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	bs_base64_encode((const uint8_t *) cms->counters, 8 * count, out + prefix_length);
#else
	for (uint64_t i = 0; i < count; i += 3)
	{
		uint8_t		chunk[24];
		uint64_t	n = count - i < 3 ? count - i : 3;

		counters_to_le(cms->counters + i, n, chunk);
		bs_base64_encode(chunk, 8 * n, out + prefix_length + 32 * (i / 3));
	}
#endif
	out[prefix_length + bs_base64_encoded_length(8 * count)] = '\0';
}

static bs_status
syntax_error(bs_error *err, const char *detail)
{
	return bs_fail(err, BS_ERR_FORMAT, "invalid input syntax for type cmsketch",
				   "%s", detail);
}

bs_status
bs_cms_parse_text_header(const char *text, size_t length, bs_cms_params *p,
						 size_t *payload_offset, bs_error *err)
{
	const char *field[8];
	size_t		field_length[8];
	size_t		start = 0;
	uint64_t	value;
	char		canonical[TEXT_PREFIX_MAX];
	size_t		canonical_length;
	bs_status	status;
	uint64_t	expected;

	memset(p, 0, sizeof(*p));
	for (int f = 0; f < 8; f++)
	{
		const char *colon = memchr(text + start, ':', length - start);

		if (colon == NULL)
			return syntax_error(err, "A cmsketch is written cms:v1:<family>:w=<w>:d=<d>:copies=<c>:seed=<seed>:total=<n>:<base64 counters>.");
		field[f] = text + start;
		field_length[f] = (size_t) (colon - (text + start));
		start = (size_t) (colon - text) + 1;
	}

	if (field_length[0] != strlen(TEXT_MAGIC) || memcmp(field[0], TEXT_MAGIC, field_length[0]) != 0)
		return syntax_error(err, "The text must start with \"cms:\".");
	if (field_length[1] < 2 || field[1][0] != 'v' ||
		!bs_parse_decimal(field[1] + 1, field_length[1] - 1, &value) || value > 255)
		return syntax_error(err, "The format version must be written v<number>.");
	p->version = (uint8_t) value;
	if (p->version < BS_CMS_OLDEST_VERSION || p->version > BS_CMS_FORMAT_VERSION)
		return bs_cms_check_params(p, err);

	if (!bs_parse_family_token(field[2], field_length[2], &p->family, &p->type_tag))
		return syntax_error(err, "The value family is not one bloomsketch knows.");
	if (!bs_parse_field(field[3], field_length[3], "w", false, &value) || value > UINT32_MAX)
		return syntax_error(err, "The width must be written w=<number>.");
	p->width = (uint32_t) value;
	if (!bs_parse_field(field[4], field_length[4], "d", false, &value) || value > UINT16_MAX)
		return syntax_error(err, "The depth must be written d=<number>.");
	p->depth = (uint16_t) value;
	if (!bs_parse_field(field[5], field_length[5], "copies", false, &value) || value > UINT16_MAX)
		return syntax_error(err, "The number of copies must be written copies=<number>.");
	p->copies = (uint16_t) value;
	if (!bs_parse_field(field[6], field_length[6], "seed", true, &p->seed))
		return syntax_error(err, "The seed must be written seed=<signed 64-bit number>.");
	if (!bs_parse_field(field[7], field_length[7], "total", false, &p->total))
		return syntax_error(err, "The total must be written total=<number>.");

	/* one spelling per value: the prefix must be exactly what output writes */
	canonical_length = format_prefix(p, canonical, sizeof(canonical));
	if (canonical_length != start || memcmp(canonical, text, start) != 0)
		return syntax_error(err, "The header is not in canonical form (no leading zeros, no plus signs).");

	if ((status = bs_cms_check_params(p, err)) != BS_OK)
		return status;

	expected = bs_base64_encoded_length(8 * bs_cms_params_counter_count(p));
	if ((uint64_t) (length - start) != expected)
		return bs_fail(err, BS_ERR_FORMAT, "invalid input syntax for type cmsketch",
					   "A sketch with w = %u, d = %u and %u copies takes %" PRIu64 " base64 characters, but %zu were given.",
					   p->width, p->depth, p->copies, expected, length - start);
	*payload_offset = start;
	return BS_OK;
}

bs_status
bs_cms_load_text(bs_cms *cms, const bs_cms_params *p, const char *payload,
				 size_t payload_length, bs_error *err)
{
	size_t		bad_offset;
	uint64_t	count = bs_cms_params_counter_count(p);

	set_header(cms, p);
	if (!bs_base64_decode(payload, payload_length, (uint8_t *) cms->counters,
						  8 * count, &bad_offset))
		return bs_fail(err, BS_ERR_FORMAT, "invalid input syntax for type cmsketch",
					   "The base64 counters are not canonical at character %zu of the counters.",
					   bad_offset);
#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
	for (uint64_t i = 0; i < count; i++)
		cms->counters[i] = bs_load_le64((const uint8_t *) &cms->counters[i]);
#endif
	return bs_cms_check_counters(cms, err);
}
