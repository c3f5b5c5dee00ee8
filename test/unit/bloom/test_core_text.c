/*
 * test_core_text.c — unit tests of a filter's text form: formatting,
 * parsing, the round trip, and every malformed text refused.
 */
#include "../common/test_core.h"

/* ------------------------------------------------------------------------ */
/* text form                                                                */
/* ------------------------------------------------------------------------ */

char *
format_text(const bs_bloom *f)
{
	uint64_t	length = bs_bloom_text_length(f);
	char	   *text = xcalloc((size_t) length + 1);	/* exactly length + terminator */

	bs_bloom_format_text(f, text);
	return text;
}

/* Parse and load `length` characters of text; the filter (on success) to *out. */
static bs_status
parse_text(const char *text, size_t length, bs_bloom **out, bs_error *err)
{
	bs_bloom_params params;
	size_t		offset = 0;
	bs_bloom   *f;
	bs_status	s;

	if (out != NULL)
		*out = NULL;
	s = bs_bloom_parse_text_header(text, length, &params, &offset, err);
	if (s != BS_OK)
		return s;
	if (offset > length)
		return bs_fail(err, BS_ERR_FORMAT, "test: payload offset past the end", NULL);
	f = xcalloc((size_t) bs_bloom_total_bytes(params.bits));
	s = bs_bloom_load_text(f, &params, text + offset, length - offset, err);
	if (s == BS_OK && out != NULL)
		*out = f;
	else
		free(f);
	return s;
}

static void
check_text_round_trip(const bs_bloom *f, const char *want_prefix, int line)
{
	char	   *text = format_text(f);
	uint64_t	length = bs_bloom_text_length(f);
	bs_bloom   *g = NULL;
	bs_error	err;
	bs_bloom_params params;
	size_t		offset = 0;

	check_at(strlen(text) == length, __FILE__, line, "strlen(text) == bs_bloom_text_length(f)", text);
	if (want_prefix != NULL)
		check_at(strncmp(text, want_prefix, strlen(want_prefix)) == 0 &&
				 length == strlen(want_prefix) +
				 bs_base64_encoded_length(8 * bs_bloom_word_count(f->bits)),
				 __FILE__, line, "the text is <prefix><base64 bits>", text);
	memset(&err, 0, sizeof(err));
	check_status_at(bs_bloom_parse_text_header(text, length, &params, &offset, &err), BS_OK,
					&err, __FILE__, line, "bs_bloom_parse_text_header(text)", NULL);
	if (want_prefix != NULL)
		check_at(offset == strlen(want_prefix), __FILE__, line, "payload offset", NULL);

	/* parse from an exactly sized copy without a terminator */
	{
		char	   *exact = xcalloc((size_t) length);

		memcpy(exact, text, (size_t) length);
		memset(&err, 0, sizeof(err));
		check_status_at(parse_text(exact, (size_t) length, &g, &err), BS_OK, &err,
						__FILE__, line, "parse_text(text)", NULL);
		free(exact);
	}
	if (g != NULL)
	{
		char	   *again = format_text(g);

		check_at(memcmp(f, g, (size_t) bs_bloom_total_bytes(f->bits)) == 0,
				 __FILE__, line, "text round trip gives identical bytes", NULL);
		check_at(strcmp(text, again) == 0, __FILE__, line, "re-formatting gives the same text", again);
		free(again);
		free(g);
	}
	free(text);
}

/* Header `header` followed by `payload` (both NUL-terminated): status of parse + load. */
static void
check_text_status(const char *header, const char *payload, bs_status want, int line)
{
	size_t		hl = strlen(header);
	size_t		pl = strlen(payload);
	char	   *text = xcalloc(hl + pl);	/* no terminator: the parser must use the length */
	bs_error	err;
	char		what[300];

	memcpy(text, header, hl);
	memcpy(text + hl, payload, pl);
	snprintf(what, sizeof(what), "\"%s%.40s%s\"", header, payload, pl > 40 ? "..." : "");
	memset(&err, 0, sizeof(err));
	check_status_at(parse_text(text, hl + pl, NULL, &err), want, &err, __FILE__, line,
					"parse_text(variant)", what);
	free(text);
}

#define CHECK_TEXT(header, payload, want) check_text_status((header), (payload), (want), __LINE__)

void
test_text(void)
{
	bs_bloom   *f = new_filter(9587, 7, (uint64_t) INT64_C(-12345));
	char	   *text;
	const char *payload;
	char	   *p97;
	char	   *p61;

	add_keys(f, 0, 500, BS_FAMILY_INTEGER, 0);
	check_text_round_trip(f, "bloom:v2:double:integer:k=7:m=9587:seed=-12345:items=500:", __LINE__);

	/* family other with its tag, in 8 lower-case hex digits */
	f->family = BS_FAMILY_OTHER;
	f->type_tag = 0xABCD;
	check_text_round_trip(f, "bloom:v2:double:other-0000abcd:k=7:m=9587:seed=-12345:items=500:", __LINE__);
	f->type_tag = UINT32_C(0xFFFFFFFF);
	check_text_round_trip(f, "bloom:v2:double:other-ffffffff:k=7:m=9587:seed=-12345:items=500:", __LINE__);
	f->family = BS_FAMILY_TIMESTAMPTZ;
	f->type_tag = 0;
	check_text_round_trip(f, "bloom:v2:double:timestamptz:k=7:m=9587:seed=-12345:items=500:", __LINE__);
	free(f);

	/* every family name */
	{
		static const char *const names[] = {
			"none", "integer", "text", "bytea", "uuid", "numeric", "float", "bool", "date",
			"timestamp", "timestamptz"
		};

		for (uint8_t fam = 0; fam < BS_FAMILY_OTHER; fam++)
		{
			char		prefix[100];

			f = new_filter(61, 3, 1);
			if (fam != BS_FAMILY_NONE)
				add_keys(f, 0, 2, fam, 0);
			snprintf(prefix, sizeof(prefix), "bloom:v2:double:%s:k=3:m=61:seed=1:items=%d:",
					 names[fam], fam != BS_FAMILY_NONE ? 2 : 0);
			CHECK(strcmp(bs_family_name(fam), names[fam]) == 0);
			check_text_round_trip(f, prefix, __LINE__);
			free(f);
		}
		CHECK(strcmp(bs_family_name(BS_FAMILY_OTHER), "other") == 0);
		CHECK(strcmp(bs_family_name(12), "unknown") == 0);
		CHECK(strcmp(bs_scheme_name(1), "double") == 0);
		CHECK(strcmp(bs_scheme_name(2), "double_square") == 0);
		CHECK(strcmp(bs_scheme_name(6), "blocked") == 0);
		CHECK(strcmp(bs_scheme_name(7), "fit") == 0);
		CHECK(strcmp(bs_scheme_name(8), "fit_partial") == 0);
		CHECK(strcmp(bs_scheme_name(9), "unknown") == 0);
	}

	/* extremes of seed and m, and all three base64 tails (8w mod 3 = 0, 2, 1) */
	f = new_filter(2, 1, 0);
	check_text_round_trip(f, "bloom:v2:double:none:k=1:m=2:seed=0:items=0:", __LINE__);
	free(f);
	f = new_filter(2, 2, 0);
	add_keys(f, 0, 1, BS_FAMILY_BOOL, 0);
	CHECK(bs_bloom_count_set(f) == 2);
	check_text_round_trip(f, "bloom:v2:double:bool:k=2:m=2:seed=0:items=1:", __LINE__);
	free(f);
	f = new_filter(61, 3, (uint64_t) INT64_MIN);
	add_keys(f, 0, 5, BS_FAMILY_TEXT, 0);
	check_text_round_trip(f, "bloom:v2:double:text:k=3:m=61:seed=-9223372036854775808:items=5:", __LINE__);
	/* a version 1 value is written with its own version, and reads back as one */
	f->version = 1;
	check_text_round_trip(f, "bloom:v1:double:text:k=3:m=61:seed=-9223372036854775808:items=5:", __LINE__);
	f->family = BS_FAMILY_OTHER;
	f->type_tag = 0xABCD;
	check_text_round_trip(f, "bloom:v1:double:other-0000abcd:k=3:m=61:seed=-9223372036854775808:items=5:", __LINE__);
	free(f);
	f = new_filter(97, 5, (uint64_t) INT64_MAX);
	add_keys(f, 0, 5, BS_FAMILY_UUID, 0);
	check_text_round_trip(f, "bloom:v2:double:uuid:k=5:m=97:seed=9223372036854775807:items=5:", __LINE__);
	free(f);
	f = new_filter(191, 191, UINT64_MAX);	/* 3 words: 24 bytes, no padding */
	add_keys(f, 0, 1, BS_FAMILY_DATE, 0);
	check_text_round_trip(f, "bloom:v2:double:date:k=191:m=191:seed=-1:items=1:", __LINE__);
	free(f);
	f = new_filter(1000003, 10, 3);
	add_keys(f, 0, 20000, BS_FAMILY_BYTEA, 0);
	check_text_round_trip(f, "bloom:v2:double:bytea:k=10:m=1000003:seed=3:items=20000:", __LINE__);
	free(f);

	/* rejections: a valid m = 97 filter, its header varied field by field */
	f = new_filter(97, 5, 7);
	add_keys(f, 0, 3, BS_FAMILY_INTEGER, 0);
	text = format_text(f);
	CHECK(strncmp(text, "bloom:v2:double:integer:k=5:m=97:seed=7:items=3:", 48) == 0);
	payload = text + 48;
	CHECK(strlen(payload) == 24);	/* 16 bytes: 5 groups and "XY==" */
	p97 = xcalloc(strlen(payload) + 1);
	strcpy(p97, payload);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_OK);

	CHECK_TEXT("", "", BS_ERR_FORMAT);
	CHECK_TEXT("bloom:", "", BS_ERR_FORMAT);
	CHECK_TEXT("v2:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT(":v2:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("blom:v2:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("Bloom:v2:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloomx:v2:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT(" bloom:v2:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	/* the format version: 1 (still read) and 2; nothing else, one spelling */
	CHECK_TEXT("bloom:v1:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_OK);
	CHECK_TEXT("bloom:v01:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v02:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v3:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v4:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v0:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v255:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:V1:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:V2:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:1:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:2:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v257:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v258:double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	/* version 1 gets no pass on the other fields */
	CHECK_TEXT("bloom:v1:triple:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v1:double:integer:k=0:m=97:seed=7:items=3:", p97, BS_ERR_PARAM);
	CHECK_TEXT("bloom:v1:double:integer:k=5:m=100:seed=7:items=3:", p97, BS_ERR_PARAM);
	CHECK_TEXT("bloom:v1:double:none:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v1:double:integer:k=5:m=97:seed=7:items=1:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v1:double:integer:k=5:m=97:seed=7:items=3:", p97 + 1, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v1:double:other-abcdef01:k=5:m=97:seed=7:items=3:", p97, BS_OK);
	CHECK_TEXT("bloom:v1:double:text:k=5:m=97:seed=7:items=3:", p97, BS_OK);
	/* a version 1 text loads as version 1 with the same bits, and is written back as v1 */
	{
		const char *h1 = "bloom:v1:double:integer:k=5:m=97:seed=7:items=3:";
		char	   *old_text = xcalloc(strlen(h1) + strlen(p97) + 1);
		bs_bloom   *g = NULL;
		bs_error	err;

		strcpy(old_text, h1);
		strcat(old_text, p97);
		CHECK_STATUS(parse_text(old_text, strlen(old_text), &g, &err), BS_OK, &err);
		if (g != NULL)
		{
			char	   *again = format_text(g);

			CHECK(g->version == 1);
			CHECK(g->family == BS_FAMILY_INTEGER && g->items == 3 && g->bits == 97 &&
				  g->hashes == 5 && g->seed == 7);
			CHECK(memcmp(g->words, f->words, 8 * bs_bloom_word_count(97)) == 0);
			CHECK(strcmp(again, old_text) == 0);
			free(again);
			free(g);
		}
		free(old_text);
	}
	CHECK_TEXT("bloom:v2:triple:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:Double:integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2::integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integers:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:int:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:Integer:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:unknown:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:other:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:other-ABCDEF01:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:other-abcdef0:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:other-abcdef012:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:other-abcdefg1:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:other-abcdef01:k=5:m=97:seed=7:items=3:", p97, BS_OK);
	CHECK_TEXT("bloom:v2:double::k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=07:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=+7:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=+5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=05:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=-5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k= 5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5 :m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:K=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=65536:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=0:m=97:seed=7:items=3:", p97, BS_ERR_PARAM);
	CHECK_TEXT("bloom:v2:double:integer:k=98:m=97:seed=7:items=3:", p97, BS_ERR_PARAM);
	CHECK_TEXT("bloom:v2:double:integer:k=1025:m=97:seed=7:items=3:", p97, BS_ERR_PARAM);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=097:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=0x61:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=18446744073709551616:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=100:seed=7:items=3:", p97, BS_ERR_PARAM);
	CHECK_TEXT("bloom:v2:double:integer:k=1:m=1:seed=7:items=3:", p97, BS_ERR_PARAM);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=0:seed=7:items=3:", p97, BS_ERR_PARAM);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=6000000001:seed=7:items=3:", p97, BS_ERR_TOO_LARGE);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=18446744073709551557:seed=7:items=3:", p97, BS_ERR_TOO_LARGE);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=101:seed=7:items=3:", p97, BS_OK);	/* same length */
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=131:seed=7:items=3:", p97, BS_ERR_FORMAT);	/* 3 words */
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=-:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=-0:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=+7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=07:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=--7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=9223372036854775808:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=18446744073709551615:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=-9223372036854775809:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=99999999999999999999:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=9223372036854775807:items=3:", p97, BS_OK);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=-9223372036854775808:items=3:", p97, BS_OK);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=7:items=-3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=7:items=03:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=7:items=:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=7:items=3", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=7:items=3::", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:m=97:k=5:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:extra:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:none:k=5:m=97:seed=7:items=3:", p97, BS_ERR_FORMAT);
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=7:items=1:", p97, BS_ERR_FORMAT);	/* bits > k * items */
	CHECK_TEXT("bloom:v2:double:integer:k=5:m=97:seed=7:items=18446744073709551615:", p97, BS_OK);

	/* rejections in the payload */
	{
		const char *h = "bloom:v2:double:integer:k=5:m=97:seed=7:items=3:";
		char		buf[64];
		size_t		pl = strlen(p97);

		snprintf(buf, sizeof(buf), "%sA", p97);
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
		snprintf(buf, sizeof(buf), "%s=", p97);
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
		snprintf(buf, sizeof(buf), "%s\n", p97);
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
		snprintf(buf, sizeof(buf), "%s:", p97);
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
		snprintf(buf, sizeof(buf), "%sAAAA", p97);
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
		CHECK_TEXT(h, "", BS_ERR_FORMAT);
		/* one character removed: first, middle, last */
		CHECK_TEXT(h, p97 + 1, BS_ERR_FORMAT);
		snprintf(buf, sizeof(buf), "%.*s%s", 10, p97, p97 + 11);
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
		snprintf(buf, sizeof(buf), "%.*s", (int) pl - 1, p97);
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
		/* a bad character, same length */
		{
			static const char bad[] = {'*', '-', '_', ' ', '.', '=', '\t', ':'};

			for (size_t b = 0; b < sizeof(bad); b++)
				for (size_t at = 0; at < 20; at += 7)
				{
					strcpy(buf, p97);
					buf[at] = bad[b];
					CHECK_TEXT(h, buf, BS_ERR_FORMAT);
				}
		}
		/* non-canonical trailing bits: "XY==" with low bits in Y */
		CHECK(p97[22] == '=' && p97[23] == '=' && p97[21] == 'A');	/* bits 96..127 are padding: zero */
		strcpy(buf, p97);
		buf[21] = 'B';			/* the low 4 bits of the last symbol: unused */
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
		strcpy(buf, p97);
		buf[21] = 'Q';			/* bit 120: canonical base64, but a padding bit */
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
		strcpy(buf, p97);
		buf[22] = 'A';
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
		strcpy(buf, p97);
		buf[23] = 'A';
		CHECK_TEXT(h, buf, BS_ERR_FORMAT);
	}

	/* the same through a padding bit set in a correctly encoded text */
	{
		bs_bloom   *bad = new_filter(97, 5, 7);
		char	   *bad_text;

		add_keys(bad, 0, 3, BS_FAMILY_INTEGER, 0);
		bad->words[1] |= UINT64_C(1) << (97 - 64);
		bad_text = format_text(bad);
		CHECK_TEXT(bad_text, "", BS_ERR_FORMAT);
		free(bad_text);
		bad->version = 1;		/* and in a version 1 text */
		bad_text = format_text(bad);
		CHECK(strncmp(bad_text, "bloom:v1:", 9) == 0);
		CHECK_TEXT(bad_text, "", BS_ERR_FORMAT);
		free(bad_text);
		free(bad);
	}

	/* the parser reads only `length` characters */
	{
		size_t		length = strlen(text);
		char	   *longer = xcalloc(length + 8);
		bs_error	err;
		bs_bloom   *g = NULL;

		memcpy(longer, text, length);
		memcpy(longer + length, "garbage", 8);
		CHECK_STATUS(parse_text(longer, length, &g, &err), BS_OK, &err);
		if (g != NULL)
		{
			CHECK(memcmp(f, g, (size_t) bs_bloom_total_bytes(97)) == 0);
			free(g);
		}
		CHECK_STATUS(parse_text(longer, length + 7, &g, &err), BS_ERR_FORMAT, &err);
		free(longer);
	}
	free(text);
	free(p97);
	free(f);

	/* m = 61: one word, 8 bytes, "XXXX" "XXX=": the last symbol keeps 2 unused bits */
	f = new_filter(61, 3, 7);
	add_keys(f, 0, 2, BS_FAMILY_INTEGER, 0);
	text = format_text(f);
	CHECK(strncmp(text, "bloom:v2:double:integer:k=3:m=61:seed=7:items=2:", 48) == 0);
	p61 = xcalloc(13);
	memcpy(p61, text + 48, 12);
	CHECK(strlen(text + 48) == 12 && p61[11] == '=');
	CHECK_TEXT("bloom:v2:double:integer:k=3:m=61:seed=7:items=2:", p61, BS_OK);
	{
		const char *alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
		const char *at = strchr(alphabet, p61[10]);
		char		buf[16];

		CHECK(at != NULL);
		if (at != NULL)
		{
			strcpy(buf, p61);
			buf[10] = alphabet[((at - alphabet) | 1)];	/* set an unused low bit */
			CHECK(buf[10] != p61[10]);
			CHECK_TEXT("bloom:v2:double:integer:k=3:m=61:seed=7:items=2:", buf, BS_ERR_FORMAT);
		}
		strcpy(buf, p61);
		buf[11] = 'A';
		CHECK_TEXT("bloom:v2:double:integer:k=3:m=61:seed=7:items=2:", buf, BS_ERR_FORMAT);
	}
	free(p61);
	free(text);
	free(f);
}
