/*
 * test_core_primitives.c — unit tests of the core's building blocks: the
 * error record (bs_error), the primes (bs_primes) against trial division,
 * and base64 (bs_base64).
 */
#include "test_core.h"

/* ------------------------------------------------------------------------ */
/* bs_error                                                                 */
/* ------------------------------------------------------------------------ */

void
test_error(void)
{
	bs_error	err;

	CHECK(bs_fail(NULL, BS_ERR_PARAM, "x", NULL) == BS_ERR_PARAM);
	memset(&err, 'z', sizeof(err));
	CHECK(bs_fail(&err, BS_ERR_FORMAT, "bad thing", NULL) == BS_ERR_FORMAT);
	CHECK(err.status == BS_ERR_FORMAT);
	CHECK(strcmp(err.message, "bad thing") == 0);
	CHECK(err.detail[0] == '\0');
	CHECK(bs_fail(&err, BS_ERR_TOO_LARGE, "big", "It has %d bits.", 42) == BS_ERR_TOO_LARGE);
	CHECK(err.status == BS_ERR_TOO_LARGE);
	CHECK(strcmp(err.detail, "It has 42 bits.") == 0);

	/* over-long text is truncated, never overflowed */
	{
		char		longer[1000];

		memset(longer, 'a', sizeof(longer) - 1);
		longer[sizeof(longer) - 1] = '\0';
		bs_fail(&err, BS_ERR_PARAM, longer, "%s", longer);
		CHECK(strlen(err.message) == sizeof(err.message) - 1);
		CHECK(strlen(err.detail) == sizeof(err.detail) - 1);
	}
}

/* ------------------------------------------------------------------------ */
/* primes                                                                   */
/* ------------------------------------------------------------------------ */

static bool
slow_is_prime(uint64_t n)
{
	if (n < 2)
		return false;
	if (n < 4)
		return true;
	if (n % 2 == 0)
		return false;
	for (uint64_t d = 3; d <= n / d; d += 2)
		if (n % d == 0)
			return false;
	return true;
}

uint64_t
slow_next_prime(uint64_t n)
{
	while (!slow_is_prime(n))
		n++;
	return n;
}

static uint64_t
slow_prev_prime(uint64_t n)
{
	if (n < 2)
		return 0;
	while (!slow_is_prime(n))
		n--;
	return n;
}

void
test_primes(void)
{
	/* 0..100, all three functions against trial division */
	for (uint64_t n = 0; n <= 100; n++)
	{
		CHECKF(bs_is_prime(n) == slow_is_prime(n), "n = %" PRIu64, n);
		CHECKF(bs_next_prime(n) == slow_next_prime(n), "n = %" PRIu64 ": got %" PRIu64,
			   n, bs_next_prime(n));
		CHECKF(bs_prev_prime(n) == slow_prev_prime(n), "n = %" PRIu64 ": got %" PRIu64,
			   n, bs_prev_prime(n));
	}
	CHECK(bs_prev_prime(0) == 0);
	CHECK(bs_prev_prime(1) == 0);
	CHECK(bs_next_prime(0) == 2);

	/* pi(100) = 25 and pi(10^5) = 9592, and agreement with trial division up to 10^5 */
	{
		unsigned	pi100 = 0;
		unsigned	pi100k = 0;
		unsigned	disagree = 0;
		uint64_t	first_bad = 0;

		for (uint64_t n = 0; n <= 100000; n++)
		{
			bool		p = bs_is_prime(n);

			pi100 += (p && n <= 100);
			pi100k += p;
			if (p != slow_is_prime(n) && disagree++ == 0)
				first_bad = n;
		}
		CHECK(pi100 == 25);
		CHECK(pi100k == 9592);
		CHECKF(disagree == 0, "%u disagreements, first at n = %" PRIu64, disagree, first_bad);
	}

	/* windows around 2^32 and 6e9, against trial division */
	{
		static const uint64_t centres[] = {UINT64_C(4294967296), UINT64_C(6000000000)};

		for (size_t c = 0; c < sizeof(centres) / sizeof(centres[0]); c++)
		{
			unsigned	disagree = 0;
			uint64_t	first_bad = 0;

			for (uint64_t n = centres[c] - 300; n <= centres[c] + 300; n++)
				if (bs_is_prime(n) != slow_is_prime(n) && disagree++ == 0)
					first_bad = n;
			CHECKF(disagree == 0, "%u disagreements near %" PRIu64 ", first at %" PRIu64,
				   disagree, centres[c], first_bad);
		}
	}

	/* known primes around 2^32 */
	CHECK(bs_is_prime(UINT64_C(4294967291)));	/* largest below 2^32 */
	CHECK(bs_is_prime(UINT64_C(4294967279)));
	CHECK(bs_is_prime(UINT64_C(4294967311)));	/* smallest above 2^32 */
	CHECK(!bs_is_prime(UINT64_C(4294967295)));
	CHECK(!bs_is_prime(UINT64_C(4294967296)));
	CHECK(!bs_is_prime(UINT64_C(4294967297)));	/* F5 = 641 * 6700417 */
	CHECK(bs_next_prime(UINT64_C(4294967292)) == UINT64_C(4294967311));
	CHECK(bs_next_prime(UINT64_C(4294967296)) == UINT64_C(4294967311));
	CHECK(bs_prev_prime(UINT64_C(4294967296)) == UINT64_C(4294967291));
	CHECK(bs_prev_prime(UINT64_C(4294967290)) == UINT64_C(4294967279));
	CHECK(bs_next_prime(UINT64_C(4294967291)) == UINT64_C(4294967291));

	/* around 6e9 (BS_BLOOM_MAX_BITS), against trial division */
	{
		static const uint64_t points[] = {
			UINT64_C(6000000000), UINT64_C(6000000001), UINT64_C(6000000002),
			UINT64_C(5999999990), UINT64_C(5999999989), UINT64_C(6000000123)
		};

		for (size_t i = 0; i < sizeof(points) / sizeof(points[0]); i++)
		{
			uint64_t	n = points[i];

			CHECKF(bs_next_prime(n) == slow_next_prime(n), "next_prime(%" PRIu64 ") = %" PRIu64
				   ", want %" PRIu64, n, bs_next_prime(n), slow_next_prime(n));
			CHECKF(bs_prev_prime(n) == slow_prev_prime(n), "prev_prime(%" PRIu64 ") = %" PRIu64
				   ", want %" PRIu64, n, bs_prev_prime(n), slow_prev_prime(n));
		}
		CHECK(bs_next_prime(UINT64_C(6000000000)) == UINT64_C(6000000001));
		CHECK(bs_prev_prime(UINT64_C(6000000000)) == UINT64_C(5999999989));
	}

	/* the top of the 64-bit range: exactly three primes in [2^64 - 100, 2^64) */
	{
		const uint64_t p1 = UINT64_C(18446744073709551521);	/* 2^64 - 95 */
		const uint64_t p2 = UINT64_C(18446744073709551533);	/* 2^64 - 83 */
		const uint64_t p3 = UINT64_C(18446744073709551557);	/* 2^64 - 59, the largest */
		unsigned	wrong = 0;
		uint64_t	first_bad = 0;

		for (uint64_t n = UINT64_MAX - 99;; n++)
		{
			bool		want = (n == p1 || n == p2 || n == p3);

			if (bs_is_prime(n) != want && wrong++ == 0)
				first_bad = n;
			if (n == UINT64_MAX)
				break;
		}
		CHECKF(wrong == 0, "%u wrong answers in [2^64-100, 2^64), first at %" PRIu64,
			   wrong, first_bad);
		CHECK(bs_is_prime(p3));
		CHECK(!bs_is_prime(UINT64_MAX));
		CHECK(bs_next_prime(p3) == p3);
		CHECK(bs_next_prime(p3 + 1) == 0);
		CHECK(bs_next_prime(UINT64_MAX) == 0);
		CHECK(bs_next_prime(UINT64_MAX - 1) == 0);
		CHECK(bs_next_prime(p2 + 1) == p3);
		CHECK(bs_next_prime(p1 + 2) == p2);
		CHECK(bs_prev_prime(UINT64_MAX) == p3);
		CHECK(bs_prev_prime(p3 - 1) == p2);
		CHECK(bs_prev_prime(p2 - 1) == p1);
		CHECK(bs_prev_prime(p3) == p3);
	}

	/* composites that fool weaker tests */
	{
		static const uint64_t composites[] = {
			UINT64_C(561), UINT64_C(41041), UINT64_C(825265),	/* Carmichael numbers */
			UINT64_C(2047),				/* strong pseudoprime to base 2 */
			UINT64_C(1373653),			/* to bases 2, 3 */
			UINT64_C(25326001),			/* to bases 2, 3, 5 */
			UINT64_C(3215031751),		/* to bases 2, 3, 5, 7 */
			UINT64_C(2152302898747),	/* to bases 2 .. 11 */
			UINT64_C(3474749660383),	/* to bases 2 .. 13 */
			UINT64_C(341550071728321),	/* to bases 2 .. 17 */
			UINT64_C(3825123056546413051),	/* to bases 2 .. 23 */
			UINT64_C(4294967291) * UINT64_C(4294967279),	/* two primes near 2^32 */
			UINT64_C(4294967291) * UINT64_C(4294967291),	/* a square */
			UINT64_C(1000003) * UINT64_C(1000033),
		};

		for (size_t i = 0; i < sizeof(composites) / sizeof(composites[0]); i++)
			CHECKF(!bs_is_prime(composites[i]), "%" PRIu64 " is composite", composites[i]);
	}
}

/* ------------------------------------------------------------------------ */
/* base64                                                                   */
/* ------------------------------------------------------------------------ */

static bool
decode_str(const char *text, size_t n, uint8_t *out, size_t *bad)
{
	return bs_base64_decode(text, strlen(text), out, n, bad);
}

void
test_base64(void)
{
	static const struct
	{
		const char *plain;
		const char *encoded;
	}			rfc[] = {
		{"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
		{"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
	};
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint8_t		out[128];
	char		text[128];
	size_t		bad;

	/* RFC 4648 section 10 vectors, both ways */
	for (size_t i = 0; i < sizeof(rfc) / sizeof(rfc[0]); i++)
	{
		size_t		n = strlen(rfc[i].plain);

		CHECK(bs_base64_encoded_length(n) == strlen(rfc[i].encoded));
		memset(text, '#', sizeof(text));
		bs_base64_encode((const uint8_t *) rfc[i].plain, n, text);
		CHECKF(memcmp(text, rfc[i].encoded, strlen(rfc[i].encoded)) == 0 &&
			   text[strlen(rfc[i].encoded)] == '#',
			   "encoding \"%s\" gave \"%.*s\", want \"%s\"", rfc[i].plain,
			   (int) strlen(rfc[i].encoded), text, rfc[i].encoded);
		memset(out, 0xA5, sizeof(out));
		CHECKF(decode_str(rfc[i].encoded, n, out, &bad), "decoding \"%s\"", rfc[i].encoded);
		CHECKF(memcmp(out, rfc[i].plain, n) == 0 && out[n] == 0xA5,
			   "decoding \"%s\"", rfc[i].encoded);
	}

	/* a full-alphabet vector: bytes 0x00 0x10 0x83 0x10 0x51 0x87 ... encode to "ABCD..." */
	{
		uint8_t		all[48];

		CHECK(bs_base64_decode(alphabet, 64, all, 48, &bad));
		bs_base64_encode(all, 48, text);
		CHECK(memcmp(text, alphabet, 64) == 0);
		CHECK(all[0] == 0x00 && all[1] == 0x10 && all[2] == 0x83 && all[45] == 0xF3 && all[46] == 0xDF && all[47] == 0xBF);
	}

	/* round trips of pseudo-random bytes, lengths 0..64 */
	{
		uint64_t	state = 20240611;

		for (size_t n = 0; n <= 64; n++)
		{
			uint8_t		in[64];
			size_t		elen = bs_base64_encoded_length(n);
			bool		valid_chars = true;

			for (size_t i = 0; i < n; i++)
				in[i] = (uint8_t) splitmix64(&state);
			CHECKF(elen == 4 * ((n + 2) / 3), "n = %zu", n);
			memset(text, '#', sizeof(text));
			bs_base64_encode(in, n, text);
			CHECKF(text[elen] == '#', "encoding %zu bytes wrote past %zu characters", n, elen);
			for (size_t i = 0; i < elen; i++)
			{
				bool		padding = (i >= elen - (3 - n % 3) % 3);

				if (padding ? text[i] != '=' : strchr(alphabet, text[i]) == NULL || text[i] == '\0')
					valid_chars = false;
			}
			CHECKF(valid_chars, "n = %zu: \"%.*s\"", n, (int) elen, text);
			memset(out, 0xA5, sizeof(out));
			CHECKF(bs_base64_decode(text, elen, out, n, &bad), "n = %zu: bad offset %zu", n, bad);
			CHECKF(memcmp(out, in, n) == 0, "n = %zu: round trip differs", n);
			CHECKF(out[n] == 0xA5, "n = %zu: decoding wrote past the end", n);
			/* the same text is not the encoding of one byte more or less */
			CHECKF(!bs_base64_decode(text, elen, out, n + 1, &bad), "n = %zu, decoded as %zu", n, n + 1);
			if (n > 0)
				CHECKF(!bs_base64_decode(text, elen, out, n - 1, &bad), "n = %zu, decoded as %zu", n, n - 1);
		}
	}

	/* wrong length */
	CHECK(!decode_str("Zg", 1, out, &bad));
	CHECK(!decode_str("Zg=", 1, out, &bad));
	CHECK(!decode_str("Zg===", 1, out, &bad));
	CHECK(!decode_str("Zm9vYg", 4, out, &bad));	/* missing padding */
	CHECK(!decode_str("Zm9vYmE", 5, out, &bad));
	CHECK(!decode_str("Zm9vYmFy", 5, out, &bad));
	CHECK(!decode_str("Zm9v", 0, out, &bad));
	CHECK(!decode_str("", 1, out, &bad));
	CHECK(decode_str("", 0, out, &bad));

	/* missing padding with the right length */
	CHECK(!decode_str("Zm9vYgAA", 4, out, &bad));
	CHECK(!decode_str("Zm9vYmEA", 5, out, &bad));
	CHECK(!decode_str("ZgA=", 1, out, &bad));
	CHECK(!decode_str("Zg=A", 1, out, &bad));

	/* bad characters and whitespace */
	{
		static const char bad_chars[] = {'-', '_', '*', '.', ' ', '\n', '\t', '\r', '\0', '=', ':',
		(char) 0x80, (char) 0xFF};

		for (size_t c = 0; c < sizeof(bad_chars); c++)
			for (size_t pos = 0; pos < 8; pos++)
			{
				char		t[9];

				memcpy(t, "Zm9vYmFy", 9);
				t[pos] = bad_chars[c];
				CHECKF(!bs_base64_decode(t, 8, out, 6, &bad), "character 0x%02x at %zu",
					   (unsigned) (unsigned char) bad_chars[c], pos);
				CHECKF(bad == pos, "character 0x%02x at %zu: bad offset %zu",
					   (unsigned) (unsigned char) bad_chars[c], pos, bad);
			}
	}
	CHECK(!decode_str(" Zm9v", 3, out, &bad));
	CHECK(!decode_str("Zm9v\n", 3, out, &bad));
	CHECK(!decode_str("Zm9v\nYmFy", 6, out, &bad));
	CHECK(!decode_str("Zg==\n", 1, out, &bad));

	/* '=' in the middle */
	CHECK(!decode_str("Zm=v", 3, out, &bad));
	CHECK(bad == 2);
	CHECK(!decode_str("Zg==Zm9v", 4, out, &bad));
	CHECK(!decode_str("=m9v", 3, out, &bad));
	CHECK(!decode_str("Z=9v", 3, out, &bad));
	CHECK(!decode_str("Z===", 1, out, &bad));
	CHECK(!decode_str("Z=g=", 2, out, &bad));
	CHECK(!decode_str("Zm==", 2, out, &bad));
	CHECK(!decode_str("====", 1, out, &bad));

	/* non-zero unused trailing bits */
	CHECK(!decode_str("Zh==", 1, out, &bad));
	CHECK(bad == 1);
	CHECK(!decode_str("Zm9=", 2, out, &bad));
	CHECK(bad == 2);
	CHECK(!decode_str("Zm9vYh==", 4, out, &bad));
	CHECK(!decode_str("Zm9vYmF=", 5, out, &bad));
	CHECK(decode_str("Zm8=", 2, out, &bad) && out[0] == 'f' && out[1] == 'o');

	/*
	 * Canonical form, exhaustively for the tails: "XY==" is accepted for one
	 * byte exactly when it is what the encoder writes, and so is "QYZ=" for two.
	 */
	{
		unsigned	wrong = 0;
		char		first_bad[5] = "";

		for (int x = 0; x < 64; x++)
			for (int y = 0; y < 64; y++)
			{
				char		t[5] = {alphabet[x], alphabet[y], '=', '=', '\0'};
				char		again[5] = "";
				bool		accepted = bs_base64_decode(t, 4, out, 1, &bad);
				bool		canonical;

				bs_base64_encode((const uint8_t[]) {(uint8_t) ((x << 2) | (y >> 4))}, 1, again);
				canonical = memcmp(again, t, 4) == 0;
				if ((accepted != canonical || (accepted && out[0] != (uint8_t) ((x << 2) | (y >> 4))))
					&& wrong++ == 0)
					memcpy(first_bad, t, 5);
			}
		CHECKF(wrong == 0, "%u wrong one-byte tails, first \"%s\"", wrong, first_bad);

		wrong = 0;
		for (int y = 0; y < 64; y++)
			for (int z = 0; z < 64; z++)
			{
				char		t[5] = {'Q', alphabet[y], alphabet[z], '=', '\0'};
				char		again[5] = "";
				bool		accepted = bs_base64_decode(t, 4, out, 2, &bad);
				uint8_t		b0 = (uint8_t) ((16 << 2) | (y >> 4));
				uint8_t		b1 = (uint8_t) (((y & 15) << 4) | (z >> 2));

				bs_base64_encode((const uint8_t[]) {b0, b1}, 2, again);
				if ((accepted != (memcmp(again, t, 4) == 0) ||
					 (accepted && (out[0] != b0 || out[1] != b1))) && wrong++ == 0)
					memcpy(first_bad, t, 5);
			}
		CHECKF(wrong == 0, "%u wrong two-byte tails, first \"%s\"", wrong, first_bad);
	}
}
