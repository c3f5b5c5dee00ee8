/*
 * bs_topk_text.c — the texts of a heavy-hitters summary's entries
 * (bs_topk_text.h).
 */
#include "topk/bs_topk_text.h"

#include <string.h>

#include "bloom/bs_bloom.h"			/* bs_family */

bool
bs_topk_family_renders_key(uint8_t family)
{
	switch (family)
	{
		case BS_FAMILY_INTEGER:
		case BS_FAMILY_TEXT:
		case BS_FAMILY_BYTEA:
		case BS_FAMILY_UUID:
		case BS_FAMILY_FLOAT:
		case BS_FAMILY_BOOL:
		case BS_FAMILY_DATE:
		case BS_FAMILY_TIMESTAMP:
		case BS_FAMILY_TIMESTAMPTZ:
			return true;
		default:
			return false;
	}
}

/* The length of the UTF-8 sequence at s (at most n bytes), or 0 if malformed. */
static size_t
utf8_sequence(const uint8_t *s, size_t n)
{
	uint8_t		b = s[0];
	size_t		length;
	uint8_t		low = 0x80;		/* the second byte's range */
	uint8_t		high = 0xBF;

	if (b >= 0x01 && b <= 0x7F)
		return 1;
	if (b >= 0xC2 && b <= 0xDF)
		length = 2;
	else if (b >= 0xE0 && b <= 0xEF)
	{
		length = 3;
		low = b == 0xE0 ? 0xA0 : 0x80;	/* no overlong forms */
		high = b == 0xED ? 0x9F : 0xBF; /* no surrogates */
	}
	else if (b >= 0xF0 && b <= 0xF4)
	{
		length = 4;
		low = b == 0xF0 ? 0x90 : 0x80;
		high = b == 0xF4 ? 0x8F : 0xBF; /* nothing above U+10FFFF */
	}
	else
		return 0;
	if (n < length || s[1] < low || s[1] > high)
		return 0;
	for (size_t i = 2; i < length; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return length;
}

bool
bs_utf8_is_valid(const uint8_t *s, size_t n)
{
	size_t		i = 0;

	while (i < n)
	{
		size_t		length = utf8_sequence(s + i, n - i);

		if (length == 0)
			return false;
		i += length;
	}
	return true;
}

static bool
is_digit(uint8_t c)
{
	return c >= '0' && c <= '9';
}

bool
bs_topk_numeric_text_matches(const uint8_t *text, uint32_t text_length,
							 const uint8_t *key, uint32_t key_length)
{
	uint32_t	i = 0;
	uint32_t	int_start;
	uint32_t	int_end;
	uint32_t	frac_end;
	bool		negative = false;
	bool		all_zero = true;
	uint32_t	k = 0;

	if (text_length == key_length && memcmp(text, key, key_length) == 0)
		return true;
	if (text_length > 0 && text[0] == '-')
	{
		negative = true;
		i = 1;
	}
	int_start = i;
	while (i < text_length && is_digit(text[i]))
		i++;
	int_end = i;
	if (int_end == int_start)
		return false;
	frac_end = int_end;
	if (i < text_length)
	{
		if (text[i] != '.' || i + 1 == text_length)
			return false;
		for (i++; i < text_length; i++)
			if (!is_digit(text[i]))
				return false;
		frac_end = text_length;
	}
	/* the integer digits without leading zeros (at least one), ... */
	while (int_start + 1 < int_end && text[int_start] == '0')
		int_start++;
	/* ... the fraction without trailing zeros, and the point if nothing is left */
	while (frac_end > int_end + 1 && text[frac_end - 1] == '0')
		frac_end--;
	if (frac_end == int_end + 1)
		frac_end = int_end;
	for (uint32_t j = int_start; j < frac_end; j++)
		if (text[j] != '0' && text[j] != '.')
			all_zero = false;
	/* -0 is 0 */
	if (negative && !all_zero)
	{
		if (key_length == 0 || key[0] != '-')
			return false;
		k = 1;
	}
	return key_length - k == frac_end - int_start &&
		memcmp(key + k, text + int_start, frac_end - int_start) == 0;
}
