/*
 * bs_codec_util.h — what the codecs of both types share: little-endian loads
 * and stores, the header checks and length checks that differ only in the
 * type's name, the framing of the text forms (colon-separated header fields,
 * then the base64 payload) and the strict parsers of their fields.
 *
 * Both types are a header followed by an array of 64-bit words (a filter's
 * bits, a sketch's counters), stored little-endian; the helpers below take
 * the type's name ("bloomfilter", "cmsketch") for their messages.
 */
#ifndef BS_CODEC_UTIL_H
#define BS_CODEC_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bs_error.h"

static inline uint16_t
bs_load_le16(const uint8_t *p)
{
	return (uint16_t) (p[0] | (p[1] << 8));
}

static inline uint32_t
bs_load_le32(const uint8_t *p)
{
	return (uint32_t) p[0] | ((uint32_t) p[1] << 8) | ((uint32_t) p[2] << 16) |
		((uint32_t) p[3] << 24);
}

static inline uint64_t
bs_load_le64(const uint8_t *p)
{
	return (uint64_t) bs_load_le32(p) | ((uint64_t) bs_load_le32(p + 4) << 32);
}

static inline void
bs_store_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t) v;
	p[1] = (uint8_t) (v >> 8);
}

static inline void
bs_store_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static inline void
bs_store_le64(uint8_t *p, uint64_t v)
{
	bs_store_le32(p, (uint32_t) v);
	bs_store_le32(p + 4, (uint32_t) (v >> 32));
}

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

/* BS_ERR_FORMAT when serialized bytes are shorter than their header. */
bs_status	bs_check_header_length(const char *type_name, size_t header_bytes,
								   size_t given, bs_error *err);

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

/*
 * Split the header fields off a text form, check its magic word and read its
 * version; written_as is the detail when a field is missing.  The caller
 * checks the version's range before it parses the other fields, whose
 * meaning the version decides.
 */
bs_status	bs_split_text_header(const char *type_name, const char *magic,
								 const char *written_as, const char *text,
								 size_t length, bs_text_header *header, bs_error *err);

/*
 * One spelling per value: BS_ERR_FORMAT unless the header is exactly the
 * canonical prefix the output function writes for the parsed fields.
 */
bs_status	bs_check_canonical_header(const char *type_name, const char *canonical,
									  size_t canonical_length, const char *text,
									  const bs_text_header *header, bs_error *err);

/* BS_ERR_FORMAT unless the payload has the length of `words` words in base64. */
bs_status	bs_check_payload_length(const char *type_name, const char *shape,
									uint64_t words, size_t given, bs_error *err);

/* Write words as the base64 of their little-endian bytes, then a NUL. */
void		bs_format_payload(const uint64_t *words, uint64_t count, char *out);

/*
 * Read exactly `count` words from their canonical base64; what names them in
 * the error ("bits", "counters").
 */
bs_status	bs_read_payload(const char *type_name, const char *what, const char *payload,
							size_t length, uint64_t *words, uint64_t count,
							bs_error *err);

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
