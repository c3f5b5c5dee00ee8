/*
 * bs_codec_util.c — strict parsers of the text forms' header fields.
 */
#include "bs_codec_util.h"

#include <string.h>

#include "bs_bloom.h"

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

