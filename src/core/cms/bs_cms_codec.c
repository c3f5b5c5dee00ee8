/*
 * bs_cms_codec.c — validating, serializing and parsing count-min sketches.
 */
#include "cms/bs_cms_codec.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/bs_codec_util.h"
#include "common/bs_primes.h"

_Static_assert(sizeof(bs_cms_params) <= BS_FORM_PARAMS_BYTES, "bs_cms_params fits bs_form_params_room");

#define TEXT_MAGIC "cms"

#define TYPE_NAME "cmsketch"

/* The start of a sentence about a sketch's size, for length errors. */
static void
describe_shape(const void *params, char *out, size_t size)
{
	const bs_cms_params *p = params;

	snprintf(out, size, "A sketch with w = %u, d = %u and %u copies", p->width, p->depth,
			 p->copies);
}

/* ---- the validator ---- */

bs_status
bs_cms_check_params(const bs_cms_params *p, bs_error *err)
{
	uint64_t	bytes;
	bs_status	status;

	if ((status = bs_check_version(TYPE_NAME, p->version, BS_CMS_OLDEST_VERSION,
								   BS_CMS_FORMAT_VERSION, err)) != BS_OK)
		return status;
	if (p->reserved16 != 0)
		return bs_fail(err, BS_ERR_FORMAT, "reserved cmsketch header field is not zero",
					   "The reserved field holds %u; it must be 0.", p->reserved16);
	if ((status = bs_check_family_code(TYPE_NAME, p->family, err)) != BS_OK)
		return status;
	if ((status = bs_check_type_tag(TYPE_NAME, p->family, p->type_tag, err)) != BS_OK)
		return status;
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
		for (uint64_t k = 0; k < width;)
			for (uint64_t end = bs_poll_stretch(k, width); k < end; k++)
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
	char		shape[64];

	bs_cms_get_params(cms, &p);
	if ((status = bs_cms_check_params(&p, err)) != BS_OK)
		return status;
	if (cms->padding != 0)
		return bs_fail(err, BS_ERR_FORMAT, "cmsketch padding is not zero",
					   "The alignment padding holds %u; it must be 0.", cms->padding);
	describe_shape(&p, shape, sizeof(shape));
	if ((status = bs_check_value_length(TYPE_NAME, shape, bs_cms_params_total_bytes(&p),
										total_bytes, err)) != BS_OK)
		return status;
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

/* ---- text form ---- */

/* Render the prefix (through the final ':'); returns its length. */
static size_t
format_prefix(const void *params, char *out, size_t size)
{
	const bs_cms_params *p = params;
	char		family[32];
	int			n;

	bs_family_token(p->family, p->type_tag, family, sizeof(family));
	n = snprintf(out, size, "%s:v%u:%s:w=%u:d=%u:copies=%u:seed=%" PRId64 ":total=%" PRIu64 ":",
				 TEXT_MAGIC, p->version, family, p->width, p->depth, p->copies,
				 (int64_t) p->seed, p->total);
	return n < 0 ? 0 : (size_t) n;
}

static bs_status
syntax_error(bs_error *err, const char *detail)
{
	return bs_text_syntax_error(TYPE_NAME, detail, err);
}

/* The text header's fields after the magic word (bs_form.parse_fields). */
static bs_status
parse_fields(const bs_text_header *h, void *params, bs_error *err)
{
	bs_cms_params *p = params;
	uint64_t	value;

	p->version = h->version;
	if (!bs_parse_family_token(h->field[2], h->length[2], &p->family, &p->type_tag))
		return syntax_error(err, "The value family is not one bloomsketch knows.");
	if (!bs_parse_field(h->field[3], h->length[3], "w", false, &value) || value > UINT32_MAX)
		return syntax_error(err, "The width must be written w=<number>.");
	p->width = (uint32_t) value;
	if (!bs_parse_field(h->field[4], h->length[4], "d", false, &value) || value > UINT16_MAX)
		return syntax_error(err, "The depth must be written d=<number>.");
	p->depth = (uint16_t) value;
	if (!bs_parse_field(h->field[5], h->length[5], "copies", false, &value) || value > UINT16_MAX)
		return syntax_error(err, "The number of copies must be written copies=<number>.");
	p->copies = (uint16_t) value;
	if (!bs_parse_field(h->field[6], h->length[6], "seed", true, &p->seed))
		return syntax_error(err, "The seed must be written seed=<signed 64-bit number>.");
	if (!bs_parse_field(h->field[7], h->length[7], "total", false, &p->total))
		return syntax_error(err, "The total must be written total=<number>.");
	return BS_OK;
}

/* ---- the forms, read and written by bs_codec_util.c ---- */

static bs_status
check_params(const void *params, bs_error *err)
{
	return bs_cms_check_params(params, err);
}

static bs_status
check_words(const void *value, bs_error *err)
{
	return bs_cms_check_counters(value, err);
}

static uint64_t
payload_words(const void *params)
{
	return bs_cms_params_counter_count(params);
}

#define FIELD(member, serial_offset) \
	BS_HEADER_FIELD(bs_cms, bs_cms_params, member, serial_offset)

/* The header: its serialized layout is docs/format.md's. */
static const bs_header_field header_fields[] = {
	FIELD(version, 0),
	FIELD(family, 1),
	FIELD(reserved16, 2),
	FIELD(type_tag, 4),
	FIELD(width, 8),
	FIELD(depth, 12),
	FIELD(copies, 14),
	FIELD(seed, 16),
	FIELD(total, 24),
};

/* a value's size is its header's and its words' (bs_form_value_bytes) */
_Static_assert(offsetof(bs_cms, counters) == sizeof(bs_cms), "words must follow the header directly");

const bs_form bs_cms_form = {
	.type_name = TYPE_NAME,
	.magic = TEXT_MAGIC,
	.written_as = "A cmsketch is written cms:v1:<family>:w=<w>:d=<d>:copies=<c>:seed=<seed>:total=<n>:<base64 counters>.",
	.words_name = "counters",
	.oldest_version = BS_CMS_OLDEST_VERSION,
	.newest_version = BS_CMS_FORMAT_VERSION,
	.params_size = sizeof(bs_cms_params),
	.serial_header_bytes = BS_CMS_SERIAL_HEADER_BYTES,
	.value_header_bytes = offsetof(bs_cms, counters),
	.fields = header_fields,
	.field_count = sizeof(header_fields) / sizeof(header_fields[0]),
	.check_params = check_params,
	.check_words = check_words,
	.words = payload_words,
	.describe = describe_shape,
	.parse_fields = parse_fields,
	.format_prefix = format_prefix,
};

void
bs_cms_get_params(const bs_cms *cms, bs_cms_params *params)
{
	bs_form_get_params(&bs_cms_form, cms, params);
}

bs_status
bs_cms_decode_header(const uint8_t *in, size_t length, bs_cms_params *p,
					 bs_error *err)
{
	return bs_form_decode_header(&bs_cms_form, in, length, p, err);
}

bs_status
bs_cms_load_serialized(bs_cms *cms, const bs_cms_params *p, const uint8_t *in,
					   bs_error *err)
{
	return bs_form_load_serialized(&bs_cms_form, cms, p, in, err);
}

void
bs_cms_serialize(const bs_cms *cms, uint8_t *out)
{
	bs_form_serialize(&bs_cms_form, cms, out);
}

uint64_t
bs_cms_text_length(const bs_cms *cms)
{
	return bs_form_text_length(&bs_cms_form, cms);
}

void
bs_cms_format_text(const bs_cms *cms, char *out)
{
	bs_form_format_text(&bs_cms_form, cms, out);
}

bs_status
bs_cms_parse_text_header(const char *text, size_t length, bs_cms_params *p,
						 size_t *payload_offset, bs_error *err)
{
	return bs_form_parse_text_header(&bs_cms_form, text, length, p, payload_offset, err);
}

bs_status
bs_cms_load_text(bs_cms *cms, const bs_cms_params *p, const char *payload,
				 size_t payload_length, bs_error *err)
{
	return bs_form_load_text(&bs_cms_form, cms, p, payload, payload_length, err);
}
