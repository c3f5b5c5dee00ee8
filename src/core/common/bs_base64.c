/*
 * bs_base64.c — strict base64 codec.
 */
#include "common/bs_base64.h"

#include "common/bs_error.h"

static const char alphabet[] =
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Value of a base64 symbol, or -1 for anything else (including '='). */
static int
symbol_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Input bytes between two polls for interrupts (a multiple of 3). */
#define POLL_BYTES (3 * BS_POLL_STRIDE)

void
bs_base64_encode(const uint8_t *in, size_t n, char *out)
{
	size_t		i = 0;

	for (; i + 3 <= n; i += 3)
	{
		uint32_t	v = ((uint32_t) in[i] << 16) | ((uint32_t) in[i + 1] << 8) | in[i + 2];

		if (i % POLL_BYTES == 0)
			bs_poll_interrupts();

		*out++ = alphabet[(v >> 18) & 63];
		*out++ = alphabet[(v >> 12) & 63];
		*out++ = alphabet[(v >> 6) & 63];
		*out++ = alphabet[v & 63];
	}
	if (n - i == 1)
	{
		uint32_t	v = (uint32_t) in[i] << 16;

		*out++ = alphabet[(v >> 18) & 63];
		*out++ = alphabet[(v >> 12) & 63];
		*out++ = '=';
		*out++ = '=';
	}
	else if (n - i == 2)
	{
		uint32_t	v = ((uint32_t) in[i] << 16) | ((uint32_t) in[i + 1] << 8);

		*out++ = alphabet[(v >> 18) & 63];
		*out++ = alphabet[(v >> 12) & 63];
		*out++ = alphabet[(v >> 6) & 63];
		*out++ = '=';
	}
}

bool
bs_base64_decode(const char *text, size_t length, uint8_t *out, size_t n,
				 size_t *bad_offset)
{
	size_t		full = n / 3;
	size_t		tail = n % 3;
	const unsigned char *t = (const unsigned char *) text;

	*bad_offset = 0;
	if (length != bs_base64_encoded_length(n))
	{
		*bad_offset = length < bs_base64_encoded_length(n) ? length : bs_base64_encoded_length(n);
		return false;
	}

	for (size_t group = 0; group < full; group++)
	{
		int			v[4];

		if (group % (POLL_BYTES / 3) == 0)
			bs_poll_interrupts();
		for (int j = 0; j < 4; j++)
		{
			v[j] = symbol_value(t[4 * group + j]);
			if (v[j] < 0)
			{
				*bad_offset = 4 * group + j;
				return false;
			}
		}
		out[3 * group] = (uint8_t) ((v[0] << 2) | (v[1] >> 4));
		out[3 * group + 1] = (uint8_t) (((v[1] & 15) << 4) | (v[2] >> 2));
		out[3 * group + 2] = (uint8_t) (((v[2] & 3) << 6) | v[3]);
	}

	if (tail > 0)
	{
		const unsigned char *g = t + 4 * full;
		int			v0 = symbol_value(g[0]);
		int			v1 = symbol_value(g[1]);
		int			v2 = tail == 2 ? symbol_value(g[2]) : 0;
		size_t		base = 4 * full;

		if (v0 < 0 || v1 < 0 || v2 < 0)
		{
			*bad_offset = base + (v0 < 0 ? 0 : v1 < 0 ? 1 : 2);
			return false;
		}
		if (tail == 1)
		{
			/* one byte: 8 bits in two symbols, the last 4 bits must be zero */
			if ((v1 & 15) != 0 || g[2] != '=' || g[3] != '=')
			{
				*bad_offset = base + ((v1 & 15) != 0 ? 1 : g[2] != '=' ? 2 : 3);
				return false;
			}
			out[3 * full] = (uint8_t) ((v0 << 2) | (v1 >> 4));
		}
		else
		{
			/* two bytes: 16 bits in three symbols, the last 2 bits must be zero */
			if ((v2 & 3) != 0 || g[3] != '=')
			{
				*bad_offset = base + ((v2 & 3) != 0 ? 2 : 3);
				return false;
			}
			out[3 * full] = (uint8_t) ((v0 << 2) | (v1 >> 4));
			out[3 * full + 1] = (uint8_t) (((v1 & 15) << 4) | (v2 >> 2));
		}
	}
	return true;
}
