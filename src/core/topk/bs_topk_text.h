/*
 * bs_topk_text.h — what a heavy-hitters summary stores as a value's text,
 * family by family, and the checks the validator makes of it.
 *
 * A summary's bytes must not depend on the session that wrote it, so where
 * the key (the canonical bytes) determines the value, no text is stored:
 * topk_items renders it from the key under the reading session's settings.
 * Two families cannot be rendered from the key: numeric, whose key drops the
 * display scale that 1.0 and 1.00 differ in, and other, whose summary keeps
 * only a tag of its type.  Their entries carry the text the type's output
 * function gave under fixed settings (docs/topk.md, "Texts").
 */
#ifndef BS_TOPK_TEXT_H
#define BS_TOPK_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Whether values of the family are rendered from their key alone, so that
 * their entries store no text: integer, text, bytea, uuid, float, bool,
 * date, timestamp, timestamptz.
 */
bool		bs_topk_family_renders_key(uint8_t family);

/*
 * Whether n bytes are well-formed UTF-8 without a zero byte: no overlong
 * forms, no surrogates, nothing above U+10FFFF (what PostgreSQL accepts in
 * a UTF-8 database).
 */
bool		bs_utf8_is_valid(const uint8_t *s, size_t n);

/*
 * Whether a numeric entry's text is a spelling of its key: a decimal
 * (optional '-', digits, optionally '.' and digits, as numeric's output
 * writes it) or NaN/Infinity/-Infinity that normalizes to the key
 * (docs/format.md section 1).
 */
bool		bs_topk_numeric_text_matches(const uint8_t *text, uint32_t text_length,
										 const uint8_t *key, uint32_t key_length);

#endif							/* BS_TOPK_TEXT_H */
