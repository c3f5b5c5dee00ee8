/*
 * test_cms_codec.c — unit tests of a count-min sketch's serialized and text
 * forms: the round trips, and every damaged or forged form refused.
 */
#include "bytes.h"
#include "test_cms.h"

/* ---- serialized and text forms ---- */

static bs_cms *
sample_sketch(uint8_t family, uint32_t type_tag, uint64_t seed)
{
	bs_cms	   *cms = new_sketch(101, 5, 2, seed);
	uint64_t	state = seed;

	for (int i = 0; i < 500; i++)
	{
		uint64_t	key = splitmix64(&state) % 1000;

		add_key(cms, key, (int64_t) (splitmix64(&state) % 100));
	}
	add_key(cms, 7, INT64_MAX / 2);
	cms->family = family;
	cms->type_tag = type_tag;
	return cms;
}

bs_status
decode_bytes(const uint8_t *in, size_t length, bs_cms **out, bs_error *err)
{
	bs_cms_params p;
	bs_status	status;
	bs_cms	   *cms;

	*out = NULL;
	if ((status = bs_cms_decode_header(in, length, &p, err)) != BS_OK)
		return status;
	cms = xcalloc((size_t) bs_cms_params_total_bytes(&p));
	if ((status = bs_cms_load_serialized(cms, &p, in, err)) != BS_OK)
	{
		free(cms);
		return status;
	}
	*out = cms;
	return BS_OK;
}

static bs_status
decode_text(const char *text, bs_cms **out, bs_error *err)
{
	bs_cms_params p;
	bs_status	status;
	bs_cms	   *cms;
	size_t		offset;
	size_t		length = strlen(text);

	*out = NULL;
	if ((status = bs_cms_parse_text_header(text, length, &p, &offset, err)) != BS_OK)
		return status;
	cms = xcalloc((size_t) bs_cms_params_total_bytes(&p));
	if ((status = bs_cms_load_text(cms, &p, text + offset, length - offset, err)) != BS_OK)
	{
		free(cms);
		return status;
	}
	*out = cms;
	return BS_OK;
}

char *
to_text(const bs_cms *cms)
{
	char	   *text = xcalloc((size_t) bs_cms_text_length(cms) + 1);

	bs_cms_format_text(cms, text);
	return text;
}

void
test_serialized(void)
{
	bs_error	err;
	bs_cms	   *cms = sample_sketch(BS_FAMILY_INTEGER, 0, 77);
	bs_cms_params p;
	uint64_t	n;
	uint8_t    *buf;
	uint8_t    *bad;
	bs_cms	   *back;
	uint64_t	first_nonzero = 0;
	uint64_t	last_nonzero = 0;

	bs_cms_get_params(cms, &p);
	n = bs_cms_serial_bytes(&p);
	CHECK(n == 32 + 8 * 101 * 5 * 2);
	buf = xcalloc((size_t) n + 1);
	bs_cms_serialize(cms, buf);
	CHECK(BS_CMS_FORMAT_VERSION == 2 && BS_CMS_OLDEST_VERSION == 1 && cms->version == 2);
	CHECK(buf[0] == 2 && buf[1] == BS_FAMILY_INTEGER && buf[8] == 101 && buf[12] == 5 && buf[14] == 2);
	CHECK(buf[16] == 77);

	CHECK_STATUS(decode_bytes(buf, (size_t) n, &back, &err), BS_OK, &err);
	if (back != NULL)
	{
		uint8_t    *again = xcalloc((size_t) n);

		CHECK(memcmp(back, cms, (size_t) bytes_of(cms)) == 0);
		bs_cms_serialize(back, again);
		CHECK(memcmp(again, buf, (size_t) n) == 0);
		free(again);
		free(back);
	}

	for (uint64_t off = 32; off < n; off += 8)
		if (get_le64(buf + off) != 0)
		{
			if (first_nonzero == 0)
				first_nonzero = off;
			last_nonzero = off;
		}
	CHECK(first_nonzero != 0 && last_nonzero > first_nonzero);
	bad = xcalloc((size_t) n + 1);
#define VARIANT(length, want, what, mutate) \
	do { \
		memcpy(bad, buf, (size_t) n); \
		mutate; \
		CHECK_STATUS_WHAT(decode_bytes(bad, (length), &back, &err), (want), &err, (what)); \
		free(back); \
	} while (0)

	VARIANT(0, BS_ERR_FORMAT, "empty", (void) 0);
	VARIANT(31, BS_ERR_FORMAT, "header truncated", (void) 0);
	VARIANT((size_t) n - 1, BS_ERR_FORMAT, "truncated", (void) 0);
	VARIANT(32, BS_ERR_FORMAT, "header only", (void) 0);
	VARIANT((size_t) n + 1, BS_ERR_FORMAT, "trailing byte", bad[n] = 0);
	VARIANT((size_t) n, BS_OK, "version 1 (still read)", bad[0] = 1);
	VARIANT((size_t) n, BS_ERR_FORMAT, "version 3", bad[0] = 3);
	VARIANT((size_t) n, BS_ERR_FORMAT, "version 4", bad[0] = 4);
	VARIANT((size_t) n, BS_ERR_FORMAT, "version 255", bad[0] = 255);
	VARIANT((size_t) n, BS_ERR_FORMAT, "version 0", bad[0] = 0);
	VARIANT((size_t) n, BS_ERR_FORMAT, "version 1, reserved low", (bad[0] = 1, bad[2] = 1));
	VARIANT((size_t) n, BS_ERR_PARAM, "version 1, w not prime", (bad[0] = 1, put_le32(bad + 8, 100)));
	VARIANT((size_t) n - 1, BS_ERR_FORMAT, "version 1, truncated", bad[0] = 1);
	VARIANT((size_t) n, BS_ERR_FORMAT, "reserved low", bad[2] = 1);
	VARIANT((size_t) n, BS_ERR_FORMAT, "reserved high", bad[3] = 0x80);
	VARIANT((size_t) n, BS_ERR_FORMAT, "family 12", bad[1] = 12);
	VARIANT((size_t) n, BS_ERR_FORMAT, "family 255", bad[1] = 255);
	VARIANT((size_t) n, BS_ERR_FORMAT, "type tag on integer", bad[4] = 1);
	VARIANT((size_t) n, BS_ERR_FORMAT, "no family with a total", bad[1] = 0);
	VARIANT((size_t) n, BS_ERR_PARAM, "w not prime", put_le32(bad + 8, 100));
	VARIANT((size_t) n, BS_ERR_PARAM, "w = 1", put_le32(bad + 8, 1));
	VARIANT((size_t) n, BS_ERR_PARAM, "w = 0", put_le32(bad + 8, 0));
	VARIANT((size_t) n, BS_ERR_PARAM, "d = 0", put_le16(bad + 12, 0));
	VARIANT((size_t) n, BS_ERR_PARAM, "copies = 0", put_le16(bad + 14, 0));
	VARIANT((size_t) n, BS_ERR_PARAM, "d > w", put_le32(bad + 8, 3));
	VARIANT((size_t) n, BS_ERR_TOO_LARGE, "w huge", put_le32(bad + 8, 4294967291u));
	VARIANT((size_t) n, BS_ERR_TOO_LARGE, "everything huge",
			(put_le32(bad + 8, 4294967291u), put_le16(bad + 12, 65535), put_le16(bad + 14, 65535)));
	VARIANT((size_t) n, BS_ERR_TOO_LARGE, "w just too large", put_le32(bad + 8, 93750011));
	VARIANT((size_t) n, BS_ERR_FORMAT, "other w, same length", put_le32(bad + 8, 103));
	/*
	 * A counter lowered takes its row below total.  (A counter raised leaves
	 * the smallest row sum at total: the validator cannot tell it from an
	 * intersection, whose rows sum to different values; see bs_cms.h.)
	 */
	VARIANT((size_t) n, BS_ERR_FORMAT, "first nonzero counter lowered",
			put_le64(bad + first_nonzero, get_le64(bad + first_nonzero) - 1));
	VARIANT((size_t) n, BS_ERR_FORMAT, "last nonzero counter lowered",
			put_le64(bad + last_nonzero, get_le64(bad + last_nonzero) - 1));
	VARIANT((size_t) n, BS_OK, "one counter raised (intersection-shaped)",
			put_le64(bad + first_nonzero, get_le64(bad + first_nonzero) + 1));
	VARIANT((size_t) n, BS_ERR_FORMAT, "total changed", bad[24] ^= 1);
	VARIANT((size_t) n, BS_ERR_FORMAT, "total zero", put_le64(bad + 24, 0));
	/* every row raised alike: rows agree, but not with total */
	VARIANT((size_t) n, BS_ERR_FORMAT, "all rows off by one",
			for (uint64_t r = 0; r < 10; r++)
				put_le64(bad + 32 + 8 * 101 * r, get_le64(bad + 32 + 8 * 101 * r) + 1));
	VARIANT((size_t) n, BS_ERR_FORMAT, "all rows off by one, total too",
			(put_le64(bad + 24, get_le64(bad + 24) + 2),
			 ({ for (uint64_t r = 0; r < 10; r++)
				 put_le64(bad + 32 + 8 * 101 * r, get_le64(bad + 32 + 8 * 101 * r) + 1); })));
	VARIANT((size_t) n, BS_OK, "all rows and total raised alike",
			(put_le64(bad + 24, get_le64(bad + 24) + 1),
			 ({ for (uint64_t r = 0; r < 10; r++)
				 put_le64(bad + 32 + 8 * 101 * r, get_le64(bad + 32 + 8 * 101 * r) + 1); })));
	/* a family-less sketch with counts, total 0 via an empty row */
	{
		bs_cms	   *e = new_sketch(3, 2, 1, 0);
		uint8_t		ebuf[32 + 48];

		e->counters[0] = 4;
		bs_cms_serialize(e, ebuf);
		CHECK_STATUS(decode_bytes(ebuf, sizeof(ebuf), &back, &err), BS_ERR_FORMAT, &err);
		free(back);
		e->family = BS_FAMILY_INTEGER;
		bs_cms_serialize(e, ebuf);
		CHECK_STATUS(decode_bytes(ebuf, sizeof(ebuf), &back, &err), BS_OK, &err);	/* intersection-shaped */
		free(back);
		e->total = 4;
		bs_cms_serialize(e, ebuf);
		CHECK_STATUS(decode_bytes(ebuf, sizeof(ebuf), &back, &err), BS_ERR_FORMAT, &err);
		free(back);
		free(e);
	}
#undef VARIANT

	/*
	 * version 1 is still read: it loads as version 1 (not relabelled), with
	 * the same counters, and serializes back to the same bytes
	 */
	{
		uint8_t    *old = xcalloc((size_t) n);
		uint8_t    *again = xcalloc((size_t) n);

		memcpy(old, buf, (size_t) n);
		old[0] = 1;
		CHECK_STATUS(bs_cms_decode_header(old, (size_t) n, &p, &err), BS_OK, &err);
		CHECK(p.version == 1 && p.family == BS_FAMILY_INTEGER && p.width == 101);
		CHECK_STATUS(decode_bytes(old, (size_t) n, &back, &err), BS_OK, &err);
		if (back != NULL)
		{
			CHECK(back->version == 1);
			CHECK(back->total == cms->total && back->family == cms->family &&
				  memcmp(back->counters, cms->counters, 8 * bs_cms_counter_count(cms)) == 0);
			CHECK_STATUS(bs_cms_validate(back, bytes_of(back), &err), BS_OK, &err);
			bs_cms_serialize(back, again);
			CHECK(again[0] == 1 && memcmp(again, old, (size_t) n) == 0);
			free(back);
		}
		free(again);
		free(old);
	}

	/* "other" with a type tag round-trips */
	{
		bs_cms	   *o = sample_sketch(BS_FAMILY_OTHER, 0xdeadbeef, 5);

		bs_cms_serialize(o, buf);
		CHECK_STATUS(decode_bytes(buf, (size_t) n, &back, &err), BS_OK, &err);
		if (back != NULL)
			CHECK(memcmp(back, o, (size_t) bytes_of(o)) == 0);
		free(back);
		free(o);
	}

	/* in-memory validation: padding and exact size */
	CHECK_STATUS(bs_cms_validate(cms, bytes_of(cms), &err), BS_OK, &err);
	CHECK_STATUS(bs_cms_validate(cms, bytes_of(cms) + 8, &err), BS_ERR_FORMAT, &err);
	CHECK_STATUS(bs_cms_validate(cms, bytes_of(cms) - 8, &err), BS_ERR_FORMAT, &err);
	cms->padding = 1;
	CHECK_STATUS(bs_cms_validate(cms, bytes_of(cms), &err), BS_ERR_FORMAT, &err);
	cms->padding = 0;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_OK, &err);
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms) - 1, &err), BS_ERR_FORMAT, &err);
	CHECK(cms->version == 2);
	cms->version = 1;			/* still read */
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_OK, &err);
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms) - 8, &err), BS_ERR_FORMAT, &err);
	cms->version = 0;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_ERR_FORMAT, &err);
	cms->version = 3;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_ERR_FORMAT, &err);
	cms->version = 255;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_ERR_FORMAT, &err);
	cms->version = 2;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_OK, &err);
	cms->depth = 0;
	CHECK_STATUS(bs_cms_check_shape(cms, 40, &err), BS_ERR_FORMAT, &err);
	cms->depth = 5;
	cms->width = 4;
	CHECK_STATUS(bs_cms_check_shape(cms, bytes_of(cms), &err), BS_ERR_FORMAT, &err);
	cms->width = 101;

	free(bad);
	free(buf);
	free(cms);
}

void
test_text(void)
{
	bs_error	err;
	bs_cms	   *cms = sample_sketch(BS_FAMILY_TEXT, 0, (uint64_t) -12345);
	char	   *text = to_text(cms);
	bs_cms	   *back;
	char	   *bad;
	size_t		length = strlen(text);
	char		expected_prefix[200];

	snprintf(expected_prefix, sizeof(expected_prefix),
			 "cms:v2:text:w=101:d=5:copies=2:seed=-12345:total=%" PRIu64 ":", cms->total);
	CHECK(strncmp(text, expected_prefix, strlen(expected_prefix)) == 0);
	CHECK(length == bs_cms_text_length(cms));
	CHECK(length == strlen(expected_prefix) + 4 * ((8 * 1010 + 2) / 3));

	CHECK_STATUS(decode_text(text, &back, &err), BS_OK, &err);
	if (back != NULL)
	{
		char	   *again = to_text(back);

		CHECK(memcmp(back, cms, (size_t) bytes_of(cms)) == 0);
		CHECK(strcmp(again, text) == 0);
		free(again);
		free(back);
	}

	/* a version 1 sketch is written with its own version, and reads back as one */
	{
		bs_cms	   *old = clone_sketch(cms);
		char	   *t;

		old->version = 1;
		t = to_text(old);
		CHECK(strncmp(t, "cms:v1:text:w=101:", 18) == 0 && strcmp(t + 7, text + 7) == 0);
		CHECK_STATUS(decode_text(t, &back, &err), BS_OK, &err);
		if (back != NULL)
		{
			char	   *again = to_text(back);

			CHECK(back->version == 1 && memcmp(back, old, (size_t) bytes_of(old)) == 0);
			CHECK(strcmp(again, t) == 0);
			free(again);
		}
		free(back);
		free(t);
		free(old);
	}

	/* the empty sketch and an "other" family */
	{
		bs_cms	   *e = new_sketch(2, 1, 1, 0);
		char	   *t = to_text(e);

		CHECK(strcmp(t, "cms:v2:none:w=2:d=1:copies=1:seed=0:total=0:AAAAAAAAAAAAAAAAAAAAAA==") == 0);
		CHECK_STATUS(decode_text(t, &back, &err), BS_OK, &err);
		if (back != NULL)
			CHECK(memcmp(back, e, (size_t) bytes_of(e)) == 0);
		free(back);
		free(t);
		e->family = BS_FAMILY_OTHER;
		e->type_tag = 0x00c0ffee;
		t = to_text(e);
		CHECK(strncmp(t, "cms:v2:other-00c0ffee:w=2:", 26) == 0);
		CHECK_STATUS(decode_text(t, &back, &err), BS_OK, &err);
		if (back != NULL)
			CHECK(memcmp(back, e, (size_t) bytes_of(e)) == 0);
		free(back);
		free(t);
		free(e);
	}

	bad = xcalloc(length + 64);
#define REPLACE(from, to, want) \
	do { \
		const char *at_ = strstr(text, (from)); \
		if (CHECK(at_ != NULL)) \
		{ \
			size_t		head_ = (size_t) (at_ - text); \
			memcpy(bad, text, head_); \
			strcpy(bad + head_, (to)); \
			strcat(bad, at_ + strlen(from)); \
			CHECK_STATUS_WHAT(decode_text(bad, &back, &err), (want), &err, (from " -> " to)); \
			free(back); \
		} \
	} while (0)

	REPLACE("cms:", "CMS:", BS_ERR_FORMAT);
	REPLACE("cms:", "bloom:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v1:", BS_OK);	/* version 1 is still read */
	REPLACE(":v2:", ":v3:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v4:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v0:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v255:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v256:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v258:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v02:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":v01:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":V2:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":2:", BS_ERR_FORMAT);
	REPLACE(":v2:", ":1:", BS_ERR_FORMAT);
	REPLACE(":v2:text:", ":v1:txt:", BS_ERR_FORMAT);	/* no pass for version 1 on the other fields */
	REPLACE(":v2:text:w=101:", ":v1:text:w=100:", BS_ERR_PARAM);
	REPLACE(":v2:text:", ":v1:none:", BS_ERR_FORMAT);
	REPLACE(":text:", ":txt:", BS_ERR_FORMAT);
	REPLACE(":text:", ":Text:", BS_ERR_FORMAT);
	REPLACE(":text:", ":integer:", BS_OK);	/* another family is a valid value */
	REPLACE(":text:", ":none:", BS_ERR_FORMAT);	/* no family, but a total */
	REPLACE(":text:", ":other-0000000g:", BS_ERR_FORMAT);
	REPLACE(":text:", ":other-0000000A:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":w=0101:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":w=+101:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":w= 101:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":W=101:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":w=100:", BS_ERR_PARAM);
	REPLACE(":w=101:", ":w=4294967291:", BS_ERR_TOO_LARGE);
	REPLACE(":w=101:", ":w=4294967296:", BS_ERR_FORMAT);
	REPLACE(":w=101:", ":w=103:", BS_ERR_FORMAT);	/* payload length no longer fits */
	REPLACE(":d=5:", ":d=0:", BS_ERR_PARAM);
	REPLACE(":d=5:", ":d=05:", BS_ERR_FORMAT);
	REPLACE(":d=5:", ":d=65536:", BS_ERR_FORMAT);
	REPLACE(":d=5:", ":d=102:", BS_ERR_PARAM);
	REPLACE(":copies=2:", ":copies=0:", BS_ERR_PARAM);
	REPLACE(":copies=2:", ":copies=2.0:", BS_ERR_FORMAT);
	REPLACE(":copies=2:", ":c=2:", BS_ERR_FORMAT);
	REPLACE(":seed=-12345:", ":seed=-012345:", BS_ERR_FORMAT);
	REPLACE(":seed=-12345:", ":seed=18446744073709539271:", BS_ERR_FORMAT);	/* unsigned spelling */
	REPLACE(":seed=-12345:", ":seed=-12346:", BS_OK);	/* another seed is a valid value */
	REPLACE(":total=", ":total=0", BS_ERR_FORMAT);
	REPLACE(":total=", ":total=-", BS_ERR_FORMAT);
	REPLACE(":total=", ":total=1", BS_ERR_FORMAT);	/* row sums no longer match */
	REPLACE(":total=", ":", BS_ERR_FORMAT);

	/* the payload: length, alphabet, padding, canonical last symbol, counters */
	strcpy(bad, text);
	bad[length - 1] = '\0';
	CHECK_STATUS(decode_text(bad, &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	strcpy(bad, text);
	strcat(bad, "A");
	CHECK_STATUS(decode_text(bad, &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	strcpy(bad, text);
	strcat(bad, "\n");
	CHECK_STATUS(decode_text(bad, &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	strcpy(bad, text);
	bad[strlen(expected_prefix)] = '*';
	CHECK_STATUS(decode_text(bad, &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	strcpy(bad, text);
	/* 8080 bytes = 3 * 2693 + 1: "xy==" at the end, y has 4 unused low bits */
	if (CHECK(bad[length - 1] == '=' && bad[length - 2] == '=' && bad[length - 3] != '='))
	{
		static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
		int			v = (int) (strchr(alphabet, bad[length - 3]) - alphabet);

		bad[length - 3] = alphabet[v ^ 1];
		CHECK_STATUS(decode_text(bad, &back, &err), BS_ERR_FORMAT, &err);
		free(back);
	}
	/* a counter lowered inside the payload: its row no longer sums to total */
	{
		bs_cms	   *lowered = clone_sketch(cms);
		char	   *t;
		uint64_t	i = 0;

		while (lowered->counters[i] == 0)
			i++;
		lowered->counters[i]--;
		t = to_text(lowered);
		CHECK(strncmp(t, text, strlen(expected_prefix)) == 0);
		CHECK_STATUS(decode_text(t, &back, &err), BS_ERR_FORMAT, &err);
		CHECK(strstr(err.message, "row sums") != NULL);
		free(back);
		free(t);
		free(lowered);
	}
	CHECK_STATUS(decode_text("cms:v2:none:w=2:d=1:copies=1:seed=0:total=0", &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	CHECK_STATUS(decode_text("cms:v1:none:w=2:d=1:copies=1:seed=0:total=0", &back, &err), BS_ERR_FORMAT, &err);
	free(back);
	/* the empty sketch in version 1 text */
	CHECK_STATUS(decode_text("cms:v1:none:w=2:d=1:copies=1:seed=0:total=0:AAAAAAAAAAAAAAAAAAAAAA==", &back, &err), BS_OK, &err);
	if (back != NULL)
		CHECK(back->version == 1 && back->family == BS_FAMILY_NONE && back->total == 0);
	free(back);
	CHECK_STATUS(decode_text("", &back, &err), BS_ERR_FORMAT, &err);
	free(back);
#undef REPLACE

	free(bad);
	free(text);
	free(cms);
}
