/*
 * bs_codec_util.h — pieces shared by the codecs of both types: little-endian
 * loads and stores, and the strict parsers of the text forms' header fields.
 */
#ifndef BS_CODEC_UTIL_H
#define BS_CODEC_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Parse up to 20 decimal digits into *out; false on anything else or overflow. */
bool		bs_parse_decimal(const char *s, size_t length, uint64_t *out);

/* Parse "<name>=<number>"; the number may carry a leading '-' when signed. */
bool		bs_parse_field(const char *s, size_t length, const char *name,
						   bool is_signed, uint64_t *out);

/* Parse a family token (a family name, or other-<8 hex digits>). */
bool		bs_parse_family_token(const char *s, size_t length, uint8_t *family,
								  uint32_t *type_tag);

#endif							/* BS_CODEC_UTIL_H */
