/*
 * bs_codec_util.c — what the codecs of the three types share (bs_codec_util.h).
 */
#include "common/bs_codec_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/bs_base64.h"
#include "bloom/bs_bloom.h"			/* bs_family_name */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_IS_LITTLE_ENDIAN 1
#else
#define HOST_IS_LITTLE_ENDIAN 0
#endif

void
bs_words_to_le(const uint64_t *words, uint64_t count, uint8_t *out)
{
#if HOST_IS_LITTLE_ENDIAN
	memcpy(out, words, 8 * count);
#else
	for (uint64_t i = 0; i < count; i++)
		bs_store_le64(out + 8 * i, words[i]);
#endif
}

void
bs_words_from_le(const uint8_t *in, uint64_t count, uint64_t *words)
{
#if HOST_IS_LITTLE_ENDIAN
	memcpy(words, in, 8 * count);
#else
	for (uint64_t i = 0; i < count; i++)
		words[i] = bs_load_le64(in + 8 * i);
#endif
}

/* ---- header checks ---- */

bs_status
bs_check_version(const char *type_name, uint8_t version, uint8_t oldest, uint8_t newest,
				 bs_error *err)
{
	if (version >= oldest && version <= newest)
		return BS_OK;
	return bs_fail_typed(err, BS_ERR_FORMAT, "unsupported %s format version", type_name,
						 "The value has format version %u; this version of bloomsketch reads versions %u to %u.",
						 version, oldest, newest);
}

bs_status
bs_check_family_code(const char *type_name, uint8_t family, bs_error *err)
{
	if (family <= BS_FAMILY_LAST)
		return BS_OK;
	return bs_fail_typed(err, BS_ERR_FORMAT, "unknown %s value family", type_name,
						 "The value has family code %u.", family);
}

bs_status
bs_check_type_tag(const char *type_name, uint8_t family, uint32_t type_tag, bs_error *err)
{
	if (family == BS_FAMILY_OTHER || type_tag == 0)
		return BS_OK;
	return bs_fail_typed(err, BS_ERR_FORMAT, "%s type tag is set for a built-in family",
						 type_name,
						 "Only family \"other\" carries a type tag; this value has family \"%s\" and tag %08x.",
						 bs_family_name(family), type_tag);
}

bs_status
bs_check_value_length(const char *type_name, const char *shape, uint64_t expected,
					  uint64_t given, bs_error *err)
{
	if (given == expected)
		return BS_OK;
	return bs_fail_typed(err, BS_ERR_FORMAT,
						 given < expected ? "%s value is truncated" : "%s value has trailing bytes",
						 type_name, "%s takes %" PRIu64 " bytes, but %" PRIu64 " were given.",
						 shape, expected, given);
}

/* BS_ERR_FORMAT when serialized bytes are shorter than their header. */
static bs_status
check_header_length(const char *type_name, size_t header_bytes, size_t given,
					bs_error *err)
{
	if (given >= header_bytes)
		return BS_OK;
	return bs_fail_typed(err, BS_ERR_FORMAT, "%s value is truncated", type_name,
						 "The header needs %zu bytes, but only %zu were given.",
						 header_bytes, given);
}

/* ---- text forms ---- */

bs_status
bs_text_syntax_error(const char *type_name, const char *detail, bs_error *err)
{
	return bs_fail_typed(err, BS_ERR_FORMAT, "invalid input syntax for type %s", type_name,
						 "%s", detail);
}

/*
 * Split the header fields off a text form, check its magic word and read its
 * version; written_as is the detail when a field is missing.
 */
static bs_status
split_text_header(const char *type_name, const char *magic, const char *written_as,
				  const char *text, size_t length, bs_text_header *header,
				  bs_error *err)
{
	size_t		start = 0;
	uint64_t	version;
	char		detail[64];

	for (int f = 0; f < BS_TEXT_FIELDS; f++)
	{
		const char *colon = memchr(text + start, ':', length - start);

		if (colon == NULL)
			return bs_text_syntax_error(type_name, written_as, err);
		header->field[f] = text + start;
		header->length[f] = (size_t) (colon - (text + start));
		start = (size_t) (colon - text) + 1;
	}
	header->payload_offset = start;

	if (header->length[0] != strlen(magic) || memcmp(header->field[0], magic, header->length[0]) != 0)
	{
		snprintf(detail, sizeof(detail), "The text must start with \"%s:\".", magic);
		return bs_text_syntax_error(type_name, detail, err);
	}
	if (header->length[1] < 2 || header->field[1][0] != 'v' ||
		!bs_parse_decimal(header->field[1] + 1, header->length[1] - 1, &version) ||
		version > 255)
		return bs_text_syntax_error(type_name, "The format version must be written v<number>.", err);
	header->version = (uint8_t) version;
	return BS_OK;
}

/*
 * One spelling per value: BS_ERR_FORMAT unless the header is exactly the
 * canonical prefix the output function writes for the parsed fields.
 */
static bs_status
check_canonical_header(const char *type_name, const char *canonical,
					   size_t canonical_length, const char *text,
					   const bs_text_header *header, bs_error *err)
{
	if (canonical_length != header->payload_offset ||
		memcmp(canonical, text, header->payload_offset) != 0)
		return bs_text_syntax_error(type_name, "The header is not in canonical form (no leading zeros, no plus signs).", err);
	return BS_OK;
}

/* BS_ERR_FORMAT unless the payload has the length of `bytes` bytes in base64. */
static bs_status
check_payload_length(const char *type_name, const char *shape, uint64_t bytes,
					 size_t given, bs_error *err)
{
	uint64_t	expected = bs_base64_encoded_length(bytes);

	if ((uint64_t) given == expected)
		return BS_OK;
	return bs_fail_typed(err, BS_ERR_FORMAT, "invalid input syntax for type %s", type_name,
						 "%s takes %" PRIu64 " base64 characters, but %zu were given.",
						 shape, expected, given);
}

/* Write words as the base64 of their little-endian bytes, then a NUL. */
static void
format_payload(const uint64_t *words, uint64_t count, char *out)
{
#if HOST_IS_LITTLE_ENDIAN
	bs_base64_encode((const uint8_t *) words, 8 * count, out);
#else
	/* three words are 24 bytes, 32 characters: chunks encode independently */
	for (uint64_t i = 0; i < count; i += 3)
	{
		uint8_t		chunk[24];
		uint64_t	n = count - i < 3 ? count - i : 3;

		bs_words_to_le(words + i, n, chunk);
		bs_base64_encode(chunk, 8 * n, out + 32 * (i / 3));
	}
#endif
	out[bs_base64_encoded_length(8 * count)] = '\0';
}

/*
 * Read exactly `count` words from their canonical base64; what names them in
 * the error ("bits", "counters").
 */
static bs_status
read_payload(const char *type_name, const char *what, const char *payload,
			 size_t length, uint64_t *words, uint64_t count, bs_error *err)
{
	size_t		bad_offset;

	if (!bs_base64_decode(payload, length, (uint8_t *) words, 8 * count, &bad_offset))
		return bs_fail_typed(err, BS_ERR_FORMAT, "invalid input syntax for type %s", type_name,
							 "The base64 %s are not canonical at character %zu of the %s.",
							 what, bad_offset, what);
#if !HOST_IS_LITTLE_ENDIAN
	for (uint64_t i = 0; i < count; i++)
		words[i] = bs_load_le64((const uint8_t *) &words[i]);
#endif
	return BS_OK;
}

/* Read a byte payload from its canonical base64; what names it in the error. */
static bs_status
read_payload_bytes(const char *type_name, const char *what, const char *payload,
				   size_t length, uint8_t *bytes, uint64_t count, bs_error *err)
{
	size_t		bad_offset;

	if (!bs_base64_decode(payload, length, bytes, count, &bad_offset))
		return bs_fail_typed(err, BS_ERR_FORMAT, "invalid input syntax for type %s", type_name,
							 "The base64 %s are not canonical at character %zu of the %s.",
							 what, bad_offset, what);
	return BS_OK;
}

/* ---- one type's forms ---- */

/* The payload's size in bytes that checked params call for. */
static uint64_t
payload_size(const bs_form *form, const void *params)
{
	return form->payload_bytes != NULL ? form->payload_bytes(params) : 8 * form->words(params);
}

/* A field's value in memory, of its width. */
static uint64_t
field_get(const void *base, size_t offset, int width)
{
	const uint8_t *p = (const uint8_t *) base + offset;
	uint8_t		v8;
	uint16_t	v16;
	uint32_t	v32;
	uint64_t	v64;

	switch (width)
	{
		case 1:
			memcpy(&v8, p, 1);
			return v8;
		case 2:
			memcpy(&v16, p, 2);
			return v16;
		case 4:
			memcpy(&v32, p, 4);
			return v32;
		default:
			memcpy(&v64, p, 8);
			return v64;
	}
}

static void
field_set(void *base, size_t offset, int width, uint64_t value)
{
	uint8_t    *p = (uint8_t *) base + offset;
	uint8_t		v8 = (uint8_t) value;
	uint16_t	v16 = (uint16_t) value;
	uint32_t	v32 = (uint32_t) value;

	switch (width)
	{
		case 1:
			memcpy(p, &v8, 1);
			break;
		case 2:
			memcpy(p, &v16, 2);
			break;
		case 4:
			memcpy(p, &v32, 4);
			break;
		default:
			memcpy(p, &value, 8);
	}
}

/* A field of the serialized form, little-endian, of its width. */
static uint64_t
field_load(const uint8_t *in, int width)
{
	switch (width)
	{
		case 1:
			return in[0];
		case 2:
			return bs_load_le16(in);
		case 4:
			return bs_load_le32(in);
		default:
			return bs_load_le64(in);
	}
}

static void
field_store(uint8_t *out, int width, uint64_t value)
{
	switch (width)
	{
		case 1:
			out[0] = (uint8_t) value;
			break;
		case 2:
			bs_store_le16(out, (uint16_t) value);
			break;
		case 4:
			bs_store_le32(out, (uint32_t) value);
			break;
		default:
			bs_store_le64(out, value);
	}
}

void
bs_form_get_params(const bs_form *form, const void *value, void *params)
{
	for (int i = 0; i < form->field_count; i++)
	{
		const bs_header_field *f = &form->fields[i];

		field_set(params, f->params_offset, f->width,
				  field_get(value, f->value_offset, f->width));
	}
}

/*
 * A value's header from checked params.  The header past the length word is
 * cleared first: bytes that are no field (alignment padding) are zero.
 */
static void
set_header(const bs_form *form, void *value, const void *params)
{
	memset((uint8_t *) value + sizeof(int32_t), 0, form->value_header_bytes - sizeof(int32_t));
	for (int i = 0; i < form->field_count; i++)
	{
		const bs_header_field *f = &form->fields[i];

		field_set(value, f->value_offset, f->width,
				  field_get(params, f->params_offset, f->width));
	}
}

/* The fields of a serialized header into params, unchecked. */
static void
read_header(const bs_form *form, const uint8_t *in, void *params)
{
	for (int i = 0; i < form->field_count; i++)
	{
		const bs_header_field *f = &form->fields[i];

		field_set(params, f->params_offset, f->width, field_load(in + f->serial_offset, f->width));
	}
}

/* The serialized header of a value. */
static void
write_header(const bs_form *form, const void *value, uint8_t *out)
{
	for (int i = 0; i < form->field_count; i++)
	{
		const bs_header_field *f = &form->fields[i];

		field_store(out + f->serial_offset, f->width, field_get(value, f->value_offset, f->width));
	}
}

bs_status
bs_form_decode_header(const bs_form *form, const uint8_t *in, size_t length, void *params,
					  bs_error *err)
{
	bs_status	status;
	char		shape[64];

	if ((status = check_header_length(form->type_name, form->serial_header_bytes, length,
									  err)) != BS_OK)
		return status;
	read_header(form, in, params);
	/* the version decides how to read the rest: check_params checks it first */
	if ((status = form->check_params(params, err)) != BS_OK)
		return status;
	form->describe(params, shape, sizeof(shape));
	return bs_check_value_length(form->type_name, shape,
								 form->serial_header_bytes + payload_size(form, params),
								 length, err);
}

bs_status
bs_form_parse_text_header(const bs_form *form, const char *text, size_t length,
						  void *params, size_t *payload_offset, bs_error *err)
{
	bs_text_header header;
	char		canonical[BS_TEXT_PREFIX_MAX];
	char		shape[64];
	bs_status	status;

	memset(params, 0, form->params_size);
	if ((status = split_text_header(form->type_name, form->magic, form->written_as, text,
									length, &header, err)) != BS_OK)
		return status;
	/* the version decides what the other fields mean */
	if ((status = bs_check_version(form->type_name, header.version, form->oldest_version,
								   form->newest_version, err)) != BS_OK)
		return status;
	if ((status = form->parse_fields(&header, params, err)) != BS_OK)
		return status;
	if ((status = check_canonical_header(form->type_name, canonical,
										 form->format_prefix(params, canonical,
															 sizeof(canonical)),
										 text, &header, err)) != BS_OK)
		return status;
	if ((status = form->check_params(params, err)) != BS_OK)
		return status;
	form->describe(params, shape, sizeof(shape));
	if ((status = check_payload_length(form->type_name, shape, payload_size(form, params),
									   length - header.payload_offset, err)) != BS_OK)
		return status;
	*payload_offset = header.payload_offset;
	return BS_OK;
}

uint64_t
bs_form_value_bytes(const bs_form *form, const void *params)
{
	return form->value_header_bytes + payload_size(form, params);
}

/* The words of a value, after its header; and the same to read only. */
static uint64_t *
value_words(const bs_form *form, void *value)
{
	return (uint64_t *) ((char *) value + form->value_header_bytes);
}

static const uint64_t *
stored_words(const bs_form *form, const void *value)
{
	return (const uint64_t *) ((const char *) value + form->value_header_bytes);
}

bs_status
bs_form_load_serialized(const bs_form *form, void *value, const void *params,
						const uint8_t *in, bs_error *err)
{
	set_header(form, value, params);
	if (form->payload_bytes != NULL)
		memcpy(value_words(form, value), in + form->serial_header_bytes,
			   form->payload_bytes(params));
	else
		bs_words_from_le(in + form->serial_header_bytes, form->words(params),
						 value_words(form, value));
	return form->check_words(value, err);
}

bs_status
bs_form_load_text(const bs_form *form, void *value, const void *params,
				  const char *payload, size_t payload_length, bs_error *err)
{
	bs_status	status;

	set_header(form, value, params);
	if (form->payload_bytes != NULL)
		status = read_payload_bytes(form->type_name, form->words_name, payload, payload_length,
									(uint8_t *) value_words(form, value),
									form->payload_bytes(params), err);
	else
		status = read_payload(form->type_name, form->words_name, payload, payload_length,
							  value_words(form, value), form->words(params), err);
	if (status != BS_OK)
		return status;
	return form->check_words(value, err);
}

uint64_t
bs_form_serial_bytes(const bs_form *form, const void *value)
{
	bs_form_params_room params;

	bs_form_get_params(form, value, &params);
	return form->serial_header_bytes + payload_size(form, &params);
}

void
bs_form_serialize(const bs_form *form, const void *value, uint8_t *out)
{
	bs_form_params_room params;

	bs_form_get_params(form, value, &params);
	write_header(form, value, out);
	if (form->payload_bytes != NULL)
		memcpy(out + form->serial_header_bytes, stored_words(form, value),
			   form->payload_bytes(&params));
	else
		bs_words_to_le(stored_words(form, value), form->words(&params),
					   out + form->serial_header_bytes);
}

uint64_t
bs_form_text_length(const bs_form *form, const void *value)
{
	bs_form_params_room params;
	char		prefix[BS_TEXT_PREFIX_MAX];

	bs_form_get_params(form, value, &params);
	return form->format_prefix(&params, prefix, sizeof(prefix)) +
		bs_base64_encoded_length(payload_size(form, &params));
}

void
bs_form_format_text(const bs_form *form, const void *value, char *out)
{
	bs_form_params_room params;
	char	   *payload;

	bs_form_get_params(form, value, &params);
	payload = out + form->format_prefix(&params, out, BS_TEXT_PREFIX_MAX);
	if (form->payload_bytes != NULL)
	{
		uint64_t	bytes = form->payload_bytes(&params);

		bs_base64_encode((const uint8_t *) stored_words(form, value), bytes, payload);
		payload[bs_base64_encoded_length(bytes)] = '\0';
	}
	else
		format_payload(stored_words(form, value), form->words(&params), payload);
}

/* ---- the fields of text headers ---- */

bool
bs_parse_decimal(const char *s, size_t length, uint64_t *out)
{
	uint64_t	v = 0;

	if (length == 0 || length > 20)
		return false;
	for (size_t i = 0; i < length; i++)
	{
		unsigned	d = (unsigned) (s[i] - '0');

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

bool
bs_parse_field(const char *s, size_t length, const char *name, bool is_signed,
			uint64_t *out)
{
	size_t		name_length = strlen(name);
	bool		negative = false;
	uint64_t	magnitude;

	if (length <= name_length + 1 || memcmp(s, name, name_length) != 0 ||
		s[name_length] != '=')
		return false;
	s += name_length + 1;
	length -= name_length + 1;
	if (is_signed && s[0] == '-')
	{
		negative = true;
		s++;
		length--;
	}
	if (!bs_parse_decimal(s, length, &magnitude))
		return false;
	if (negative)
	{
		if (magnitude > (uint64_t) INT64_MAX + 1)
			return false;
		magnitude = (uint64_t) 0 - magnitude;
	}
	else if (is_signed && magnitude > (uint64_t) INT64_MAX)
		return false;
	*out = magnitude;
	return true;
}

bool
bs_parse_family_token(const char *s, size_t length, uint8_t *family,
					  uint32_t *type_tag)
{
	static const char hex[] = "0123456789abcdef";

	if (length == 14 && memcmp(s, "other-", 6) == 0)
	{
		uint32_t	tag = 0;

		for (size_t i = 6; i < 14; i++)
		{
			const char *digit = memchr(hex, s[i], 16);

			if (digit == NULL || s[i] == '\0')
				return false;
			tag = (tag << 4) | (uint32_t) (digit - hex);
		}
		*family = BS_FAMILY_OTHER;
		*type_tag = tag;
		return true;
	}
	for (uint8_t f = 0; f < BS_FAMILY_OTHER; f++)
	{
		const char *name = bs_family_name(f);

		if (strlen(name) == length && memcmp(name, s, length) == 0)
		{
			*family = f;
			*type_tag = 0;
			return true;
		}
	}
	return false;
}

