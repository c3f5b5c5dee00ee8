/*
 * bs_bloom_codec.h — the one validator, and the serialized and text forms.
 *
 * Every byte that reaches a filter from outside (text input, binary receive,
 * a cast from bytea) passes bs_bloom_check_params before anything is
 * allocated, and bs_bloom_check_words once the bits are in place.
 */
#ifndef BS_BLOOM_CODEC_H
#define BS_BLOOM_CODEC_H

#include "bloom/bs_bloom.h"
#include "common/bs_codec_util.h"

/* Header checks: version, scheme, family, reserved fields, k, m. */
bs_status	bs_bloom_check_params(const bs_bloom_params *params, bs_error *err);

/* Bit checks: padding bits zero, set bits consistent with the item count. */
bs_status	bs_bloom_check_words(const bs_bloom *filter, bs_error *err);

/*
 * Cheap O(1) sanity check of a value already stored by this extension: enough
 * to guarantee that probing it stays inside its bytes.  Not a validation.
 */
bs_status	bs_bloom_check_shape(const bs_bloom *filter, uint64_t total_bytes,
								 bs_error *err);

/*
 * BS_ERR_PARAM, with a hint, when the value is a partial state of
 * bloom_fit_agg (scheme fit_partial), which no function but that
 * aggregate's own reads; else BS_OK.
 */
bs_status	bs_bloom_check_finished(const bs_bloom *filter, bs_error *err);

/*
 * bs_bloom_check_shape without bs_bloom_check_finished: it also passes a
 * partial state of bloom_fit_agg (only the aggregate reads those).
 */
bs_status	bs_bloom_check_state_shape(const bs_bloom *filter, uint64_t total_bytes,
									   bs_error *err);

/* Serialized form: 36-byte little-endian header, then the bits. */
static inline uint64_t
bs_bloom_serial_bytes(uint64_t bits)
{
	return BS_BLOOM_SERIAL_HEADER_BYTES + 8 * bs_bloom_word_count(bits);
}

void		bs_bloom_serialize(const bs_bloom *filter, uint8_t *out);

/* Decode and check the header of serialized bytes (length included). */
bs_status	bs_bloom_decode_header(const uint8_t *in, size_t length,
								   bs_bloom_params *params, bs_error *err);

/* Fill a zeroed filter of the right size from checked params and serialized bits. */
bs_status	bs_bloom_load_serialized(bs_bloom *filter, const bs_bloom_params *params,
									 const uint8_t *in, bs_error *err);

/* Text form: "bloom:v1:<scheme>:<family>:k=..:m=..:seed=..:items=..:" + base64 bits. */
uint64_t	bs_bloom_text_length(const bs_bloom *filter);
void		bs_bloom_format_text(const bs_bloom *filter, char *out);

bs_status	bs_bloom_parse_text_header(const char *text, size_t length,
									   bs_bloom_params *params,
									   size_t *payload_offset, bs_error *err);
bs_status	bs_bloom_load_text(bs_bloom *filter, const bs_bloom_params *params,
							   const char *payload, size_t payload_length,
							   bs_error *err);

/* The forms, for code that reads and writes any type (bs_codec_util.h). */
extern const bs_form bs_bloom_form;

#endif							/* BS_BLOOM_CODEC_H */
