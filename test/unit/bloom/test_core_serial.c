/*
 * test_core_serial.c — unit tests of a filter's serialized form: the
 * header, the bit payload, and every way a damaged or forged form is
 * refused.
 */
#include "bytes.h"
#include "../common/test_core.h"

/* ------------------------------------------------------------------------ */
/* serialized form                                                          */
/* ------------------------------------------------------------------------ */

/* Decode and load serialized bytes; the filter (on success) goes to *out. */
bs_status
decode_and_load(const uint8_t *in, size_t length, bs_bloom **out, bs_error *err)
{
	bs_bloom_params params;
	bs_bloom   *f;
	bs_status	s;

	if (out != NULL)
		*out = NULL;
	s = bs_bloom_decode_header(in, length, &params, err);
	if (s != BS_OK)
		return s;
	f = xcalloc((size_t) bs_bloom_total_bytes(params.bits));
	s = bs_bloom_load_serialized(f, &params, in, err);
	if (s == BS_OK && out != NULL)
		*out = f;
	else
		free(f);
	return s;
}

uint8_t *
serialize(const bs_bloom *f, size_t *length)
{
	uint8_t    *buf;

	*length = (size_t) bs_bloom_serial_bytes(f->bits);
	buf = xcalloc(*length + 16);
	memset(buf, 0xEE, *length + 16);
	bs_bloom_serialize(f, buf);
	return buf;
}

/* A copy of buf (length bytes, plus extra zero bytes) for mutation. */
static uint8_t *
copy_bytes(const uint8_t *buf, size_t length, size_t extra)
{
	uint8_t    *copy = xcalloc(length + extra);

	memcpy(copy, buf, length);
	return copy;
}

static void
check_serial_status(const uint8_t *buf, size_t length, bs_status want,
					const char *what, int line)
{
	bs_error	err;
	bs_status	got;

	memset(&err, 0, sizeof(err));
	got = decode_and_load(buf, length, NULL, &err);
	check_status_at(got, want, &err, __FILE__, line, "decode_and_load(variant)", what);
}

#define CHECK_SERIAL(buf, length, want, what) \
	check_serial_status((buf), (length), (want), (what), __LINE__)

void
test_serialized(void)
{
	bs_error	err;
	bs_bloom   *f = new_filter(9587, 7, UINT64_C(0xFEDCBA9876543210));
	bs_bloom   *g = NULL;
	uint8_t    *buf;
	size_t		length;

	add_keys(f, 0, 500, BS_FAMILY_OTHER, UINT32_C(0xA1B2C3D4));
	buf = serialize(f, &length);
	CHECK(length == 36 + 8 * 150);
	CHECK(buf[length] == 0xEE);	/* nothing written past the end */

	/* the documented byte offsets */
	CHECK(BS_BLOOM_FORMAT_VERSION == 2 && BS_BLOOM_OLDEST_VERSION == 1);
	CHECK(f->version == 2);
	CHECK(buf[0] == 2);				/* version: new values are written as 2 */
	CHECK(buf[1] == 1);				/* scheme: double */
	CHECK(buf[2] == BS_FAMILY_OTHER);	/* family */
	CHECK(buf[3] == 0);				/* reserved8 */
	CHECK(get_le16(buf + 4) == 7);	/* k */
	CHECK(buf[4] == 7 && buf[5] == 0);
	CHECK(get_le16(buf + 6) == 0);	/* reserved16 */
	CHECK(get_le32(buf + 8) == UINT32_C(0xA1B2C3D4));	/* type tag */
	CHECK(buf[8] == 0xD4 && buf[9] == 0xC3 && buf[10] == 0xB2 && buf[11] == 0xA1);
	CHECK(get_le64(buf + 12) == 9587);	/* m */
	CHECK(buf[12] == 0x73 && buf[13] == 0x25 && buf[14] == 0);
	CHECK(get_le64(buf + 20) == UINT64_C(0xFEDCBA9876543210));	/* seed */
	CHECK(buf[20] == 0x10 && buf[27] == 0xFE);
	CHECK(get_le64(buf + 28) == 500);	/* items */
	{
		bool		bits_ok = true;

		for (size_t i = 0; i < 8 * 150; i++)
			if (buf[36 + i] != (uint8_t) (f->words[i / 8] >> (8 * (i % 8))))
				bits_ok = false;
		CHECK(bits_ok);
	}

	/* round trip */
	CHECK_STATUS(decode_and_load(buf, length, &g, &err), BS_OK, &err);
	if (g != NULL)
	{
		CHECK(memcmp(f, g, (size_t) bs_bloom_total_bytes(9587)) == 0);
		free(g);
	}
	{
		bs_bloom_params params;

		CHECK_STATUS(bs_bloom_decode_header(buf, length, &params, &err), BS_OK, &err);
		CHECK(params.version == 2 && params.scheme == 1 && params.family == BS_FAMILY_OTHER &&
			  params.reserved8 == 0 && params.hashes == 7 && params.reserved16 == 0 &&
			  params.type_tag == UINT32_C(0xA1B2C3D4) && params.bits == 9587 &&
			  params.seed == UINT64_C(0xFEDCBA9876543210) && params.items == 500);
	}

	/* truncated: every shorter length fails, with BS_ERR_FORMAT */
	{
		uint8_t    *copy = copy_bytes(buf, length, 0);
		unsigned	wrong = 0;
		size_t		first_bad = 0;

		for (size_t len = 0; len < length; len++)
		{
			bs_status	s = decode_and_load(copy, len, NULL, &err);

			if (s != BS_ERR_FORMAT && wrong++ == 0)
				first_bad = len;
		}
		CHECKF(wrong == 0, "%u truncated lengths not rejected as BS_ERR_FORMAT, first %zu of %zu",
			   wrong, first_bad, length);
		free(copy);
	}

	/* one trailing byte */
	{
		uint8_t    *copy = copy_bytes(buf, length, 1);

		CHECK_SERIAL(copy, length + 1, BS_ERR_FORMAT, "a trailing zero byte");
		free(copy);
	}

	/* each header field wrong in turn */
	{
		struct variant
		{
			const char *what;
			size_t		offset;
			int			width;		/* 1, 2, 4 or 8 bytes, little-endian */
			uint64_t	value;
			bs_status	want;
		};
		const struct variant variants[] = {
			{"version 0", 0, 1, 0, BS_ERR_FORMAT},
			{"version 1 (still read)", 0, 1, 1, BS_OK},
			{"version 3", 0, 1, 3, BS_ERR_FORMAT},
			{"version 4", 0, 1, 4, BS_ERR_FORMAT},
			{"version 255", 0, 1, 255, BS_ERR_FORMAT},
			{"scheme 0", 1, 1, 0, BS_ERR_FORMAT},
			{"scheme 9", 1, 1, 9, BS_ERR_FORMAT},
			{"fit scheme on a prime m", 1, 1, 7, BS_ERR_PARAM},
			{"partition scheme on a prime m", 1, 1, 4, BS_ERR_PARAM},
			{"blocked scheme on a prime m", 1, 1, 6, BS_ERR_PARAM},
			{"family 12", 2, 1, 12, BS_ERR_FORMAT},
			{"family 255", 2, 1, 255, BS_ERR_FORMAT},
			{"reserved8 1", 3, 1, 1, BS_ERR_FORMAT},
			{"reserved8 0x80", 3, 1, 0x80, BS_ERR_FORMAT},
			{"reserved16 1", 6, 2, 1, BS_ERR_FORMAT},
			{"reserved16 0x100", 6, 2, 0x100, BS_ERR_FORMAT},
			{"k = 0", 4, 2, 0, BS_ERR_PARAM},
			{"k = 1025", 4, 2, 1025, BS_ERR_PARAM},
			{"k = 65535", 4, 2, 65535, BS_ERR_PARAM},
			{"m = 100 (not prime)", 12, 8, 100, BS_ERR_PARAM},
			{"m = 6000000000 (not prime)", 12, 8, UINT64_C(6000000000), BS_ERR_PARAM},
			{"m = 6000000001 (prime, too large)", 12, 8, UINT64_C(6000000001), BS_ERR_TOO_LARGE},
			{"m = 2^64 - 59 (prime, too large)", 12, 8, UINT64_C(18446744073709551557), BS_ERR_TOO_LARGE},
			{"m = 2^64 - 1", 12, 8, UINT64_MAX, BS_ERR_TOO_LARGE},
			{"m = 9587 + 2^32 (3 * 17 * 84215233)", 12, 8, UINT64_C(9587) + (UINT64_C(1) << 32), BS_ERR_PARAM},
			{"m = 2^32 + 15 (prime, wrong length)", 12, 8, UINT64_C(4294967311), BS_ERR_FORMAT},
		};

		for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++)
		{
			uint8_t    *copy = copy_bytes(buf, length, 0);
			const struct variant *var = &variants[v];

			switch (var->width)
			{
				case 1:
					copy[var->offset] = (uint8_t) var->value;
					break;
				case 2:
					put_le16(copy + var->offset, (uint16_t) var->value);
					break;
				case 4:
					put_le32(copy + var->offset, (uint32_t) var->value);
					break;
				default:
					put_le64(copy + var->offset, var->value);
					break;
			}
			CHECK_SERIAL(copy, length, var->want, var->what);
			free(copy);
		}
	}

	/*
	 * version 1 is still read: it loads as version 1 (not relabelled), keeps
	 * its bits, and serializes back to the same bytes; the other header
	 * checks still apply to it
	 */
	{
		uint8_t    *copy = copy_bytes(buf, length, 0);
		bs_bloom_params params;
		bs_bloom   *old = NULL;

		copy[0] = 1;
		CHECK_STATUS(bs_bloom_decode_header(copy, length, &params, &err), BS_OK, &err);
		CHECK(params.version == 1 && params.family == BS_FAMILY_OTHER &&
			  params.type_tag == UINT32_C(0xA1B2C3D4) && params.bits == 9587 &&
			  params.items == 500);
		CHECK_STATUS(decode_and_load(copy, length, &old, &err), BS_OK, &err);
		if (old != NULL)
		{
			uint8_t    *again;
			size_t		again_length;

			CHECK(old->version == 1);
			CHECK(memcmp(old->words, f->words, 8 * 150) == 0);
			CHECK(old->family == f->family && old->type_tag == f->type_tag &&
				  old->items == f->items && old->seed == f->seed);
			CHECK_STATUS(bs_bloom_check_shape(old, bs_bloom_total_bytes(9587), &err), BS_OK, &err);
			again = serialize(old, &again_length);
			CHECK(again_length == length && again[0] == 1 && memcmp(again, copy, length) == 0);
			free(again);
			free(old);
		}
		copy[3] = 1;
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "version 1, reserved8 1");
		copy[3] = 0;
		put_le16(copy + 4, 0);
		CHECK_SERIAL(copy, length, BS_ERR_PARAM, "version 1, k = 0");
		put_le16(copy + 4, 7);
		CHECK_SERIAL(copy, length - 1, BS_ERR_FORMAT, "version 1, truncated");
		CHECK_SERIAL(copy, length, BS_OK, "version 1, restored");
		free(copy);
	}

	/* a type tag with a built-in family; and the largest k is fine */
	{
		uint8_t    *copy = copy_bytes(buf, length, 0);

		copy[2] = BS_FAMILY_INTEGER;
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "type tag on family integer");
		put_le32(copy + 8, 0);
		CHECK_SERIAL(copy, length, BS_OK, "family integer without a tag");
		put_le32(copy + 8, 1);
		copy[2] = BS_FAMILY_NONE;
		put_le64(copy + 28, 0);
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "type tag on family none");
		free(copy);

		copy = copy_bytes(buf, length, 0);
		put_le16(copy + 4, BS_BLOOM_MAX_HASHES);
		CHECK_SERIAL(copy, length, BS_OK, "k = 1024");
		free(copy);
	}

	/* the padding bit just past m = 9587, and the very last bit */
	{
		uint8_t    *copy = copy_bytes(buf, length, 0);

		copy[36 + 9587 / 8] |= (uint8_t) (1 << (9587 % 8));
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "padding bit 9587 set");
		free(copy);
		copy = copy_bytes(buf, length, 0);
		copy[length - 1] |= 0x80;
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "padding bit 9599 set");
		free(copy);
		copy = copy_bytes(buf, length, 0);
		copy[36 + 9586 / 8] |= (uint8_t) (1 << (9586 % 8));		/* the last real bit: fine */
		CHECK_SERIAL(copy, length, BS_OK, "bit 9586 set");
		free(copy);
	}

	/* more bits set than k * items */
	{
		uint8_t    *copy = copy_bytes(buf, length, 0);
		uint64_t	set = bs_bloom_count_set(f);

		CHECK(set > 7 * 100 && set <= 7 * 500);
		put_le64(copy + 28, set / 7);		/* 7 * (set / 7) < set unless set % 7 == 0 */
		CHECK_SERIAL(copy, length, set % 7 == 0 ? BS_OK : BS_ERR_FORMAT, "items = set / 7");
		put_le64(copy + 28, set / 7 - 1);
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "items = set / 7 - 1");
		put_le64(copy + 28, 1);
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "items = 1");
		put_le64(copy + 28, (set + 6) / 7);	/* exactly enough */
		CHECK_SERIAL(copy, length, BS_OK, "items = ceil(set / 7)");
		free(copy);
	}

	/* family none: no items, no bits */
	{
		uint8_t    *copy = copy_bytes(buf, length, 0);

		copy[2] = BS_FAMILY_NONE;
		put_le32(copy + 8, 0);
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "family none with 500 items");
		put_le64(copy + 28, 0);
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "family none, no items, bits set");
		memset(copy + 36, 0, length - 36);
		CHECK_SERIAL(copy, length, BS_OK, "an empty filter");
		copy[36] = 1;
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "an empty filter with bit 0 set");
		free(copy);
	}
	free(buf);
	free(f);

	/* small filters whose exact lengths fit the variants */
	{
		/* m = 97 (2 words): m = 100 has the same length */
		bs_bloom   *s = new_filter(97, 5, 77);
		uint8_t    *copy;

		add_keys(s, 0, 3, BS_FAMILY_INTEGER, 0);
		buf = serialize(s, &length);
		CHECK(length == 52);
		CHECK_SERIAL(buf, length, BS_OK, "m = 97");
		copy = copy_bytes(buf, length, 0);
		put_le64(copy + 12, 100);
		CHECK_SERIAL(copy, length, BS_ERR_PARAM, "m = 100, length 52");
		put_le64(copy + 12, 101);
		CHECK_SERIAL(copy, length, BS_OK, "m = 101, length 52");
		put_le64(copy + 12, 127);
		CHECK_SERIAL(copy, length, BS_OK, "m = 127, length 52");
		put_le64(copy + 12, 131);
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "m = 131, length 52");
		free(copy);
		copy = copy_bytes(buf, length, 0);
		copy[36 + 97 / 8] |= (uint8_t) (1 << (97 % 8));
		CHECK_SERIAL(copy, length, BS_ERR_FORMAT, "m = 97, padding bit 97");
		free(copy);
		copy = copy_bytes(buf, length, 0);
		put_le16(copy + 4, 97);
		CHECK_SERIAL(copy, length, BS_OK, "k = m = 97");
		put_le16(copy + 4, 98);
		CHECK_SERIAL(copy, length, BS_ERR_PARAM, "k = 98 > m = 97");
		free(copy);
		for (size_t len = 0; len < length; len++)
		{
			char		what[40];

			snprintf(what, sizeof(what), "truncated to %zu of 52", len);
			CHECK_SERIAL(buf, len, BS_ERR_FORMAT, what);
		}
		free(buf);
		free(s);

		/* m = 3, k = 3: k = 4 > m at the right length */
		s = new_filter(3, 3, 0);
		buf = serialize(s, &length);
		CHECK(length == 44);
		CHECK_SERIAL(buf, length, BS_OK, "m = 3, k = 3");
		put_le16(buf + 4, 4);
		CHECK_SERIAL(buf, length, BS_ERR_PARAM, "m = 3, k = 4");
		/* m = 1 and m = 0 at their own lengths (44 and 36 bytes) */
		put_le16(buf + 4, 1);
		put_le64(buf + 12, 1);
		CHECK_SERIAL(buf, 44, BS_ERR_PARAM, "m = 1");
		put_le64(buf + 12, 0);
		CHECK_SERIAL(buf, 36, BS_ERR_PARAM, "m = 0, length 36");
		CHECK_SERIAL(buf, 44, BS_ERR_PARAM, "m = 0, length 44");
		put_le64(buf + 12, 2);
		CHECK_SERIAL(buf, 44, BS_OK, "m = 2, k = 1");
		free(buf);
		free(s);
	}

	/* the validator directly */
	{
		bs_bloom_params p = {
			.version = 1, .scheme = 1, .family = BS_FAMILY_TEXT, .hashes = 7,
			.bits = 9587, .seed = 5, .items = 10
		};
		bs_bloom_params q;

		CHECK_STATUS(bs_bloom_check_params(&p, &err), BS_OK, &err);
		/* versions 1 (old, read) and 2 (current); nothing outside 1..2 */
		q = p;
		q.version = 2;
		CHECK_STATUS(bs_bloom_check_params(&q, &err), BS_OK, &err);
		q.family = BS_FAMILY_OTHER;
		q.type_tag = 0x1234;
		CHECK_STATUS(bs_bloom_check_params(&q, &err), BS_OK, &err);
		q.version = 1;
		CHECK_STATUS(bs_bloom_check_params(&q, &err), BS_OK, &err);
		{
			static const uint8_t unknown[] = {0, 3, 4, 128, 255};

			for (size_t i = 0; i < sizeof(unknown); i++)
			{
				char		what[32];

				q = p;
				q.version = unknown[i];
				snprintf(what, sizeof(what), "version %u", unknown[i]);
				CHECK_STATUS_WHAT(bs_bloom_check_params(&q, &err), BS_ERR_FORMAT, &err, what);
				CHECK(strstr(err.message, "format version") != NULL);
				CHECK(strstr(err.detail, "versions 1 to 2") != NULL);
			}
		}
		q = p;
		q.bits = UINT64_C(6000000001);
		CHECK_STATUS(bs_bloom_check_params(&q, &err), BS_ERR_TOO_LARGE, &err);
		q.bits = bs_prev_prime(BS_BLOOM_MAX_BITS);
		CHECK_STATUS(bs_bloom_check_params(&q, &err), BS_OK, &err);
		q = p;
		q.hashes = 1025;
		CHECK_STATUS(bs_bloom_check_params(&q, &err), BS_ERR_PARAM, &err);
		q = p;
		q.type_tag = 1;
		CHECK_STATUS(bs_bloom_check_params(&q, &err), BS_ERR_FORMAT, &err);
		q.family = BS_FAMILY_OTHER;
		CHECK_STATUS(bs_bloom_check_params(&q, &err), BS_OK, &err);
	}
}
