/*
 * bs_cms_codec.h — the one validator of count-min sketches, and their
 * serialized and text forms.
 *
 * Every byte that reaches a sketch from outside (text input, binary receive,
 * a cast from bytea) passes bs_cms_check_params before anything is allocated,
 * and bs_cms_check_counters once the counters are in place; bs_cms_validate
 * runs both on a value already in memory.
 *
 * Serialized form, little-endian, 32-byte header then the counters:
 *   0 version u8 | 1 family u8 | 2 reserved u16 (0) | 4 type_tag u32 |
 *   8 w u32 | 12 d u16 | 14 copies u16 | 16 seed u64 | 24 total u64 |
 *   32 copies * d * w counters, u64 each, in the in-memory order.
 */
#ifndef BS_CMS_CODEC_H
#define BS_CMS_CODEC_H

#include "cms/bs_cms.h"
#include "common/bs_codec_util.h"

#define BS_CMS_SERIAL_HEADER_BYTES 32

/*
 * Header checks: version, reserved field, family and type tag, w prime >= 2,
 * 1 <= d <= w, copies >= 1, size within BS_CMS_MAX_BYTES (overflow-checked),
 * no total without a family.
 */
bs_status	bs_cms_check_params(const bs_cms_params *params, bs_error *err);

/*
 * Counter checks: total equals the smallest row sum over all rows of all
 * copies (every row sums to total in a sketch of additions and merges; see
 * bs_cms.h), and a sketch with no family has no counts at all.
 */
bs_status	bs_cms_check_counters(const bs_cms *cms, bs_error *err);

/* Both checks, plus padding zero and exact size, on a value in memory. */
bs_status	bs_cms_validate(const bs_cms *cms, uint64_t total_bytes, bs_error *err);

/*
 * Cheap O(1) sanity check of a value already stored by this extension: enough
 * to guarantee that probing it stays inside its bytes.  Not a validation.
 */
bs_status	bs_cms_check_shape(const bs_cms *cms, uint64_t total_bytes,
							   bs_error *err);

/* Sizes of checked params: the in-memory value and the serialized form. */
static inline uint64_t
bs_cms_params_counter_count(const bs_cms_params *p)
{
	return (uint64_t) p->copies * p->depth * p->width;
}

static inline uint64_t
bs_cms_params_total_bytes(const bs_cms_params *p)
{
	return sizeof(bs_cms) + 8 * bs_cms_params_counter_count(p);
}

static inline uint64_t
bs_cms_serial_bytes(const bs_cms_params *p)
{
	return BS_CMS_SERIAL_HEADER_BYTES + 8 * bs_cms_params_counter_count(p);
}

void		bs_cms_serialize(const bs_cms *cms, uint8_t *out);

/* Decode and check the header of serialized bytes (length included). */
bs_status	bs_cms_decode_header(const uint8_t *in, size_t length,
								 bs_cms_params *params, bs_error *err);

/*
 * Fill a zeroed value of bs_cms_params_total_bytes(params) bytes from checked
 * params and the serialized bytes, then check the counters.
 */
bs_status	bs_cms_load_serialized(bs_cms *cms, const bs_cms_params *params,
								   const uint8_t *in, bs_error *err);

/*
 * Text form:
 *   "cms:v1:<family>:w=..:d=..:copies=..:seed=..:total=..:" + base64 counters
 * with exactly one accepted spelling per value (no leading zeros, no plus
 * signs, canonical base64), so that text -> value -> text is the identity.
 */
uint64_t	bs_cms_text_length(const bs_cms *cms);
void		bs_cms_format_text(const bs_cms *cms, char *out);

bs_status	bs_cms_parse_text_header(const char *text, size_t length,
									 bs_cms_params *params,
									 size_t *payload_offset, bs_error *err);
bs_status	bs_cms_load_text(bs_cms *cms, const bs_cms_params *params,
							 const char *payload, size_t payload_length,
							 bs_error *err);

/* The forms, for code that reads and writes any type (bs_codec_util.h). */
extern const bs_form bs_cms_form;

#endif							/* BS_CMS_CODEC_H */
