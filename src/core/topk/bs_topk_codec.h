/*
 * bs_topk_codec.h — the one validator of heavy-hitters summaries, and their
 * serialized and text forms.
 *
 * Every byte that reaches a summary from outside (text input, binary
 * receive, a cast from bytea) passes bs_topk_check_params before anything is
 * allocated, and bs_topk_check_entries once the entries are in place.
 *
 * Serialized form, little-endian, 40-byte header then the entries:
 *   0 version u8 | 1 family u8 | 2 reserved u16 (0) | 4 type_tag u32 |
 *   8 counters u32 | 12 entries u32 | 16 total u64 | 24 error u64 |
 *   32 payload_bytes u64 | 40 the entries, as in memory (bs_topk.h).
 *
 * Text form, one spelling per value:
 *   topk:v1:<family>:counters=..:entries=..:total=..:error=..:bytes=..:<base64 entries>
 */
#ifndef BS_TOPK_CODEC_H
#define BS_TOPK_CODEC_H

#include "common/bs_codec_util.h"
#include "topk/bs_topk.h"

#define BS_TOPK_SERIAL_HEADER_BYTES 40

/*
 * Header checks: version, reserved field, family and type tag, 1 <= counters
 * <= BS_TOPK_MAX_COUNTERS, entries <= counters, total within bigint, error
 * <= total, error 0 when entries < counters (a reduction lists c values), nothing counted without a family, room for the entries' headers,
 * size within BS_TOPK_MAX_BYTES.
 */
bs_status	bs_topk_check_params(const bs_topk_params *params, bs_error *err);

/*
 * Entry checks: the entries fill the payload exactly; keys in strictly
 * increasing order (so each value is listed once) and of their family's
 * canonical shape; the text rules of the family (bs_topk_text.h): no text
 * where the key determines it, and a text key in UTF-8; elsewhere a text
 * stored only when it differs from the key, in UTF-8 without NUL bytes, and
 * for numeric a spelling of the key; 0 <= count <= lower <= count + error, 1 <= lower;
 * and the sums
 * of the guarantees (bs_topk.h): sum of lower <= total and sum of counts +
 * (counters + 1) * error <= total.
 */
bs_status	bs_topk_check_entries(const bs_topk *topk, bs_error *err);

/* Both checks, plus padding zero and exact size, on a value in memory. */
bs_status	bs_topk_validate(const bs_topk *topk, uint64_t total_bytes, bs_error *err);

/*
 * Cheap O(1) sanity check of a value already stored by this extension:
 * enough to guarantee that reading its header and payload bytes stays inside
 * the value.  Not a validation: a stored value was validated when it came in.
 */
bs_status	bs_topk_check_shape(const bs_topk *topk, uint64_t total_bytes, bs_error *err);

void		bs_topk_get_params(const bs_topk *topk, bs_topk_params *params);

/* The forms, for code that reads and writes any type (bs_codec_util.h). */
extern const bs_form bs_topk_form;

#endif							/* BS_TOPK_CODEC_H */
