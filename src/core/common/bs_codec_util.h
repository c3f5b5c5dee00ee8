/*
 * bs_codec_util.h — what the codecs of the three types share: little-endian loads
 * and stores, the header checks and length checks that differ only in the
 * type's name, the framing of the text forms (colon-separated header fields,
 * then the base64 payload) and the strict parsers of their fields.
 *
 * A filter and a sketch are a header followed by an array of 64-bit words
 * (its bits, its counters), a summary a header followed by its entries, all
 * stored little-endian; the helpers below take the type's name
 * ("bloomfilter", "cmsketch", "topksketch") for their messages.
 */
#ifndef BS_CODEC_UTIL_H
#define BS_CODEC_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/bs_endian.h"
#include "common/bs_error.h"

/* Copy words to little-endian bytes, and back (a memcpy on little-endian hosts). */
void		bs_words_to_le(const uint64_t *words, uint64_t count, uint8_t *out);
void		bs_words_from_le(const uint8_t *in, uint64_t count, uint64_t *words);

/* ---- header checks ---- */

/* BS_ERR_FORMAT unless oldest <= version <= newest. */
bs_status	bs_check_version(const char *type_name, uint8_t version, uint8_t oldest,
							 uint8_t newest, bs_error *err);

/* BS_ERR_FORMAT for a family code beyond the last family. */
bs_status	bs_check_family_code(const char *type_name, uint8_t family, bs_error *err);

/* BS_ERR_FORMAT for a type tag on a family other than "other". */
bs_status	bs_check_type_tag(const char *type_name, uint8_t family, uint32_t type_tag,
							  bs_error *err);

/*
 * BS_ERR_FORMAT unless a value takes `given` bytes where its header calls for
 * `expected`; shape says what the header describes, as the start of a
 * sentence ("A filter of 1000 bits").
 */
bs_status	bs_check_value_length(const char *type_name, const char *shape,
								  uint64_t expected, uint64_t given, bs_error *err);

/* ---- text forms: "<magic>:v<version>:<six fields>:<base64 words>" ---- */

#define BS_TEXT_FIELDS 8
/* Room for any header the output functions write. */
#define BS_TEXT_PREFIX_MAX 160

/* A text form's header fields, each without its colon. */
typedef struct bs_text_header
{
	const char *field[BS_TEXT_FIELDS];
	size_t		length[BS_TEXT_FIELDS];
	size_t		payload_offset; /* of the base64, just past the last colon */
	uint8_t		version;
} bs_text_header;

/* The BS_ERR_FORMAT of malformed text: "invalid input syntax for type ...". */
bs_status	bs_text_syntax_error(const char *type_name, const char *detail, bs_error *err);

/* ---- one type's forms, read and written by the functions below ---- */

/*
 * One field of a type's header: where it lies in the serialized form
 * (little-endian), in the value in memory and in the params struct, and
 * its width, the same in all three.
 */
typedef struct bs_header_field
{
	uint8_t		serial_offset;
	uint8_t		width;			/* 1, 2, 4 or 8 bytes */
	uint16_t	value_offset;
	uint16_t	params_offset;
} bs_header_field;

/* The field `member` of value_type and params_type, at serial_offset. */
#define BS_HEADER_FIELD(value_type, params_type, member, serial_offset) \
	{(serial_offset), sizeof(((value_type *) 0)->member), \
	 offsetof(value_type, member), offsetof(params_type, member)}

/*
 * What reading and writing the forms needs to know of a type; each codec
 * defines one.  A value is the type's struct in memory (bs_bloom, bs_cms,
 * bs_topk): its varlena length word, the header fields, then its payload
 * from value_header_bytes on: 64-bit words, or bytes (payload_bytes).
 * params points to the type's params struct (bs_bloom_params, bs_cms_params,
 * bs_topk_params): the header fields alone, as decoded from untrusted input.
 */
/*
 * Room for the params of any type's form, for the calls below that read a
 * value's header before they know its type; each codec checks at compile
 * time that its params fit.
 */
#define BS_FORM_PARAMS_BYTES 128
typedef union bs_form_params_room
{
	uint64_t	align;
	unsigned char bytes[BS_FORM_PARAMS_BYTES];
} bs_form_params_room;

typedef struct bs_form
{
	const char *type_name;		/* in messages: "bloomfilter" */
	const char *magic;			/* the text form's first field: "bloom" */
	const char *written_as;		/* the detail for text that lacks fields */
	const char *words_name;		/* what the words are called: "bits" */
	uint8_t		oldest_version;
	uint8_t		newest_version;
	size_t		params_size;
	size_t		serial_header_bytes;
	size_t		value_header_bytes;
	/* the header fields, in the order of the serialized form */
	const bs_header_field *fields;
	int			field_count;

	/* the header checks of the type's one validator */
	bs_status	(*check_params) (const void *params, bs_error *err);
	/* the checks of a value's words, once loaded */
	bs_status	(*check_words) (const void *value, bs_error *err);
	/* the number of words that checked params call for */
	uint64_t	(*words) (const void *params);
	/*
	 * For a type whose payload is a byte string rather than words (copied
	 * as it is, its fields already little-endian): its length in bytes that
	 * checked params call for; NULL for the word arrays.
	 */
	uint64_t	(*payload_bytes) (const void *params);
	/* the start of a sentence about the size: "A filter of 1000 bits" */
	void		(*describe) (const void *params, char *out, size_t size);
	/* the text header's fields, version included, into params */
	bs_status	(*parse_fields) (const bs_text_header *header, void *params,
								 bs_error *err);
	/* the canonical text header of params through its last colon; its length */
	size_t		(*format_prefix) (const void *params, char *out, size_t size);
} bs_form;

/* Decode and check the header of serialized bytes (length included). */
bs_status	bs_form_decode_header(const bs_form *form, const uint8_t *in, size_t length,
								  void *params, bs_error *err);

/*
 * Parse and check the header of a text form, in the order of checks the
 * filter's and the sketch's text forms share; its base64 words start at *payload_offset.
 */
bs_status	bs_form_parse_text_header(const bs_form *form, const char *text,
									  size_t length, void *params,
									  size_t *payload_offset, bs_error *err);

/* A value's header fields into params. */
void		bs_form_get_params(const bs_form *form, const void *value, void *params);

/* The bytes in memory of a value with these checked params. */
uint64_t	bs_form_value_bytes(const bs_form *form, const void *params);

/*
 * Fill a zeroed value of bs_form_value_bytes bytes from checked params and
 * the serialized bytes, or from the base64 payload of the text form; then
 * check its words.
 */
bs_status	bs_form_load_serialized(const bs_form *form, void *value, const void *params,
									const uint8_t *in, bs_error *err);
bs_status	bs_form_load_text(const bs_form *form, void *value, const void *params,
							  const char *payload, size_t payload_length, bs_error *err);

/* The serialized form of a value: its length, and the bytes. */
uint64_t	bs_form_serial_bytes(const bs_form *form, const void *value);
void		bs_form_serialize(const bs_form *form, const void *value, uint8_t *out);

/* The text form of a value: its length without the NUL, and the text with it. */
uint64_t	bs_form_text_length(const bs_form *form, const void *value);
void		bs_form_format_text(const bs_form *form, const void *value, char *out);

/* ---- the fields of text headers ---- */

/* Parse up to 20 decimal digits into *out; false on anything else or overflow. */
bool		bs_parse_decimal(const char *s, size_t length, uint64_t *out);

/* Parse "<name>=<number>"; the number may carry a leading '-' when signed. */
bool		bs_parse_field(const char *s, size_t length, const char *name,
						   bool is_signed, uint64_t *out);

/* Parse a family token (a family name, or other-<8 hex digits>). */
bool		bs_parse_family_token(const char *s, size_t length, uint8_t *family,
								  uint32_t *type_tag);

#endif							/* BS_CODEC_UTIL_H */
