/*
 * bs_base64.h — strict base64 (RFC 4648 alphabet, with padding).
 *
 * Strict means every byte string has exactly one accepted encoding: no
 * whitespace, padding required, and the unused low bits of the last symbol
 * must be zero.  That is what makes text -> value -> text the identity.
 */
#ifndef BS_BASE64_H
#define BS_BASE64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length of the encoding of n bytes (no terminator). */
static inline size_t
bs_base64_encoded_length(size_t n)
{
	return 4 * ((n + 2) / 3);
}

/* Encode n bytes into out, which holds bs_base64_encoded_length(n) chars. */
void		bs_base64_encode(const uint8_t *in, size_t n, char *out);

/*
 * Decode exactly `length` characters into exactly `n` bytes.  Returns false,
 * with the offending character offset in *bad_offset, when the text is not
 * the canonical encoding of n bytes.
 */
bool		bs_base64_decode(const char *text, size_t length, uint8_t *out,
							 size_t n, size_t *bad_offset);

#endif							/* BS_BASE64_H */
