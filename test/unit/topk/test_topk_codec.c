/*
 * test_topk_codec.c — the stored forms of heavy-hitters summaries: round
 * trips through the serialized and text forms, and the validator's refusal
 * of every malformed field (part of test_topk).
 */
#include <inttypes.h>

#include "topk/bs_topk_text.h"
#include "check.h"
#include "topk_helpers.h"

/* ---- reading and writing the forms as the SQL layer does ---- */

static uint8_t *
to_bytes(const bs_topk *topk, size_t *length)
{
	uint8_t    *out;

	*length = bs_form_serial_bytes(&bs_topk_form, topk);
	out = xcalloc(*length);
	bs_form_serialize(&bs_topk_form, topk, out);
	return out;
}

static char *
to_text(const bs_topk *topk)
{
	char	   *out = xcalloc(bs_form_text_length(&bs_topk_form, topk) + 1);

	bs_form_format_text(&bs_topk_form, topk, out);
	return out;
}

/* A summary from serialized bytes, or NULL with the status in *status. */
static bs_topk *
from_bytes(const uint8_t *data, size_t length, bs_status *status, bs_error *err)
{
	bs_topk_params params;
	bs_topk    *topk;
	uint64_t	bytes;

	if ((*status = bs_form_decode_header(&bs_topk_form, data, length, &params, err)) != BS_OK)
		return NULL;
	bytes = bs_form_value_bytes(&bs_topk_form, &params);
	topk = xcalloc(bytes);
	topk->length_word = (int32_t) bytes;
	if ((*status = bs_form_load_serialized(&bs_topk_form, topk, &params, data, err)) != BS_OK)
	{
		free(topk);
		return NULL;
	}
	return topk;
}

static bs_topk *
from_text(const char *text, bs_status *status, bs_error *err)
{
	bs_topk_params params;
	size_t		payload;
	size_t		length = strlen(text);
	bs_topk    *topk;
	uint64_t	bytes;

	if ((*status = bs_form_parse_text_header(&bs_topk_form, text, length, &params, &payload,
											 err)) != BS_OK)
		return NULL;
	bytes = bs_form_value_bytes(&bs_topk_form, &params);
	topk = xcalloc(bytes);
	topk->length_word = (int32_t) bytes;
	if ((*status = bs_form_load_text(&bs_topk_form, topk, &params, text + payload,
									 length - payload, err)) != BS_OK)
	{
		free(topk);
		return NULL;
	}
	return topk;
}

/* ---- hand-made serialized values ---- */

typedef struct spec_entry
{
	uint64_t	count;
	uint64_t	lower;
	const char *key;			/* with key_length bytes */
	uint32_t	key_length;
	const char *text;			/* NULL: the text is the key */
	uint32_t	text_length;	/* 0: strlen(text) */
} spec_entry;

typedef struct spec
{
	uint8_t		version;
	uint8_t		family;
	uint16_t	reserved16;
	uint32_t	type_tag;
	uint32_t	counters;
	uint64_t	total;
	uint64_t	error;
	int64_t		payload_delta;	/* added to the true payload size in the header */
	uint32_t	entry_count;
	spec_entry	entries[4];
} spec;

static uint32_t
spec_text_length(const spec_entry *e)
{
	if (e->text == NULL)
		return 0;
	return e->text_length > 0 ? e->text_length : (uint32_t) strlen(e->text);
}

/* The serialized bytes a spec describes. */
static uint8_t *
spec_bytes(const spec *s, size_t *length)
{
	uint64_t	payload = 0;
	uint8_t    *out;
	uint8_t    *p;

	for (uint32_t i = 0; i < s->entry_count; i++)
		payload += bs_topk_entry_bytes(s->family, s->entries[i].count, s->entries[i].lower,
									   s->entries[i].key_length, spec_text_length(&s->entries[i]),
									   s->entries[i].text == NULL);
	*length = BS_TOPK_SERIAL_HEADER_BYTES + payload;
	out = xcalloc(*length);
	out[0] = s->version;
	out[1] = s->family;
	bs_store_le16(out + 2, s->reserved16);
	bs_store_le32(out + 4, s->type_tag);
	bs_store_le32(out + 8, s->counters);
	bs_store_le32(out + 12, s->entry_count);
	bs_store_le64(out + 16, s->total);
	bs_store_le64(out + 24, s->error);
	bs_store_le64(out + 32, payload + (uint64_t) s->payload_delta);
	p = out + BS_TOPK_SERIAL_HEADER_BYTES;
	for (uint32_t i = 0; i < s->entry_count; i++)
	{
		const spec_entry *e = &s->entries[i];
		uint32_t	text_length = spec_text_length(e);

		p += bs_topk_write_entry(p, s->family, e->count, e->lower, (const uint8_t *) e->key,
								 e->key_length, (const uint8_t *) e->text, text_length,
								 e->text == NULL);
	}
	return out;
}

/*
 * A valid base: values of family other (tag 4daaea92) with the keys of
 * integers 1 (5 times, text "1") and 2 (3 times, text "222", so that the
 * base64 ends in padding), c = 2, N = 10, error 1.
 */
static spec
base_spec(void)
{
	spec		s = {
		.version = 1,.family = BS_FAMILY_OTHER,.type_tag = 0x4daaea92,.counters = 2,.total = 10,.error = 1,
		.entry_count = 2,
		.entries = {
			{4, 5, "\x01\0\0\0\0\0\0\0", 8, "1", 0},
			{2, 3, "\x02\0\0\0\0\0\0\0", 8, "222", 0},
		},
	};

	return s;
}

/* The spec's bytes must be refused with want, as bytes and as text. */
static void
expect_refused(const spec *s, bs_status want, const char *what)
{
	size_t		length;
	uint8_t    *bytes = spec_bytes(s, &length);
	bs_status	status;
	bs_error	err;
	bs_topk    *topk;

	memset(&err, 0, sizeof(err));
	topk = from_bytes(bytes, length, &status, &err);
	check_status_at(status, want, &err, __FILE__, __LINE__, "from_bytes", what);
	free(topk);
	free(bytes);
}

static void
test_round_trips(void)
{
	int64_t    *stream = zipf_stream(5000, 300, 1.1, 41);
	bs_topk    *topk = summarize(stream, 5000, 30, true, NULL, NULL);
	size_t		length;
	uint8_t    *bytes = to_bytes(topk, &length);
	char	   *text = to_text(topk);
	bs_status	status;
	bs_error	err;
	bs_topk    *again;
	char	   *text_again;

	CHECK(length == (size_t) topk->length_word - (sizeof(bs_topk) - BS_TOPK_SERIAL_HEADER_BYTES));
	CHECK(strncmp(text, "topk:v1:other-00000000:counters=30:entries=", 43) == 0);
	again = from_bytes(bytes, length, &status, &err);
	CHECK(again != NULL && memcmp(again, topk, (size_t) topk->length_word) == 0);
	free(again);
	again = from_text(text, &status, &err);
	CHECK(again != NULL && memcmp(again, topk, (size_t) topk->length_word) == 0);
	text_again = again ? to_text(again) : NULL;
	CHECK(text_again != NULL && strcmp(text, text_again) == 0);
	free(text_again);
	free(again);

	/* an empty summary */
	{
		bs_topk_table table;
		bs_topk    *empty;

		table_init(&table, 7);
		empty = table_to_flat(&table);
		free(text);
		text = to_text(empty);
		CHECK(strcmp(text, "topk:v1:none:counters=7:entries=0:total=0:error=0:bytes=0:") == 0);
		again = from_text(text, &status, &err);
		CHECK(again != NULL && bs_topk_compare(again, empty) == 0);
		free(again);
		free(empty);
		bs_topk_table_destroy(&table);
	}
	free(text);
	free(bytes);
	free(topk);
	free(stream);
}

/* A numeric entry's text must spell its key (bs_topk_text.h). */
static void
test_numeric_texts(void)
{
	/* key, text, whether accepted */
	static const struct
	{
		const char *key;
		const char *text;
		bool		accepted;
	}			cases[] = {
		{"1", "1.00", true}, {"1", "1.0", true}, {"0", "0.000", true}, {"0", "-0.00", true},
		{"-0.5", "-0.50", true}, {"1000", "1000.000", true}, {"0.05", "0.0500", true},
		{"1", "2", false}, {"1", "0", false}, {"1", "10", false}, {"0.5", "-0.50", false},
		{"-0.5", "0.50", false}, {"10", "10.", false}, {"10", "1e1", false},
		{"1", "+1", false}, {"1", ".1", false}, {"NaN", "nan", false}, {"1", "1.00x", false},
		{"Infinity", "Inf", false}, {"1", "", false},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
	{
		spec		s = base_spec();
		char		what[64];

		s.family = BS_FAMILY_NUMERIC;
		s.type_tag = 0;
		s.entry_count = 1;
		s.counters = 1;
		s.entries[0].key = cases[i].key;
		s.entries[0].key_length = (uint32_t) strlen(cases[i].key);
		s.entries[0].text = cases[i].text;
		/* an empty text is stored with length 0 */
		s.entries[0].text_length = cases[i].text[0] == '\0' ? 0 : (uint32_t) strlen(cases[i].text);
		snprintf(what, sizeof(what), "numeric %s with text \"%s\"", cases[i].key, cases[i].text);
		expect_refused(&s, cases[i].accepted ? BS_OK : BS_ERR_FORMAT, what);
	}
}

/* The UTF-8 the validator accepts: PostgreSQL's, without NUL. */
static void
test_utf8(void)
{
	static const struct
	{
		const char *bytes;
		bool		valid;
	}			cases[] = {
		{"", true}, {"abc", true}, {"caf\xc3\xa9", true}, {"\xe2\x82\xac", true},
		{"\xf0\x9f\x98\x80", true}, {"\xf4\x8f\xbf\xbf", true}, {"\xed\x9f\xbf", true},
		{"\xff", false}, {"\x80", false}, {"\xc0\x80", false}, {"\xc1\xbf", false},
		{"\xe0\x80\x80", false}, {"\xed\xa0\x80", false}, {"\xf0\x80\x80\x80", false},
		{"\xf4\x90\x80\x80", false}, {"\xf5\x80\x80\x80", false}, {"\xc3", false},
		{"\xe2\x82", false}, {"a\xc3(", false},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECKF(bs_utf8_is_valid((const uint8_t *) cases[i].bytes, strlen(cases[i].bytes)) ==
			   cases[i].valid, "UTF-8 case %zu", i);
	/* a NUL is refused even where it is well-formed */
	CHECK(!bs_utf8_is_valid((const uint8_t *) "a\0b", 3));
}

/* Every field out of its range, every entry malformed. */
static void
test_refusals(void)
{
	spec		s;
	/* NUMERIC_BAD keys that numeric_normalize never writes, then some it does */
	static const char *const numeric_keys[] = {"01", "1.0", "-0", "1.", ".5", "+1", "1e3", "",
	"-", "nan", "0", "-0.5", "10", "NaN", "-Infinity", "3.25"};
#define NUMERIC_BAD 10

	s = base_spec();
	{
		size_t		length;
		uint8_t    *bytes = spec_bytes(&s, &length);
		bs_status	status;
		bs_error	err;
		bs_topk    *topk = from_bytes(bytes, length, &status, &err);

		CHECK_STATUS_WHAT(status, BS_OK, &err, "the base spec");
		free(topk);
		free(bytes);
	}
#define REFUSED(field_change, want) \
	do { s = base_spec(); field_change; expect_refused(&s, want, #field_change); } while (0)
	/* the base as a built-in family: no tag, and no texts */
#define BUILTIN(f) (s.family = (f), s.type_tag = 0, s.entries[0].text = NULL, \
					s.entries[1].text = NULL)
	REFUSED(s.version = 0, BS_ERR_FORMAT);
	REFUSED(s.version = 2, BS_ERR_FORMAT);
	REFUSED(s.reserved16 = 1, BS_ERR_FORMAT);
	REFUSED(s.family = 12, BS_ERR_FORMAT);
	REFUSED((BUILTIN(BS_FAMILY_BYTEA), s.type_tag = 5), BS_ERR_FORMAT);
	REFUSED(BUILTIN(BS_FAMILY_BYTEA), BS_OK);
	REFUSED(s.counters = 0, BS_ERR_PARAM);
	REFUSED(s.counters = BS_TOPK_MAX_COUNTERS + 1, BS_ERR_TOO_LARGE);
	REFUSED(s.counters = 1, BS_ERR_FORMAT);	/* 2 entries, 1 counter */
	REFUSED(s.total = BS_TOPK_MAX_TOTAL + 1, BS_ERR_FORMAT);
	REFUSED(s.error = 11, BS_ERR_FORMAT);
	REFUSED((BUILTIN(BS_FAMILY_NONE), s.entry_count = 0, s.error = 0), BS_ERR_FORMAT);
	REFUSED(s.payload_delta = 1, BS_ERR_FORMAT);
	REFUSED(s.payload_delta = -1, BS_ERR_FORMAT);
	REFUSED(s.payload_delta = (int64_t) BS_TOPK_MAX_BYTES, BS_ERR_TOO_LARGE);
	/* entries */
	/* a counter at 0 stays listed, but a value listed was counted */
	REFUSED((s.entries[0].count = 0, s.entries[0].lower = 1), BS_OK);
	REFUSED((s.entries[0].count = 0, s.entries[0].lower = 0), BS_ERR_FORMAT);
	/* fewer values than counters: nothing was ever subtracted */
	REFUSED(s.entry_count = 1, BS_ERR_FORMAT);
	REFUSED((s.entry_count = 1, s.error = 0, s.entries[0].count = 5), BS_OK);
	REFUSED(s.entries[0].lower = 3, BS_ERR_FORMAT);	/* lower < count */
	REFUSED(s.entries[0].lower = 6, BS_ERR_FORMAT);	/* lower > count + error */
	REFUSED(s.entries[1].key = "\x01\0\0\0\0\0\0\0", BS_ERR_FORMAT);	/* the same key twice */
	REFUSED((s.entries[0].key = "\x03\0\0\0\0\0\0\0", s.entries[0].text = "3"), BS_ERR_FORMAT);
	REFUSED((BUILTIN(BS_FAMILY_INTEGER), s.entries[0].key_length = 7), BS_ERR_FORMAT);
	REFUSED((s.entries[0].text = "1\0", s.entries[0].text_length = 2), BS_ERR_FORMAT);	/* a NUL */
	REFUSED(s.total = 8, BS_ERR_FORMAT);	/* counts 6 + (2 + 1) * error 1 > 8 */
	/* a key taken as the text holds no NUL */
	REFUSED(s.entries[0].text = NULL, BS_ERR_FORMAT);
	/* the text equal to the key must be stored as the key */
	REFUSED((s.entries[0].key = "abc", s.entries[0].key_length = 3,
			 s.entries[0].text = "abc", s.entries[1].key = "abd", s.entries[1].key_length = 3,
			 s.entries[1].text = NULL), BS_ERR_FORMAT);
	/* canonical keys of the fixed-size families */
	REFUSED((BUILTIN(BS_FAMILY_BOOL), s.entries[0].key = "\x02", s.entries[0].key_length = 1,
			 s.entry_count = 1, s.counters = 1), BS_ERR_FORMAT);
	REFUSED((BUILTIN(BS_FAMILY_FLOAT), s.entries[0].key = "\0\0\0\0\0\0\0\x80",
			 s.entry_count = 1, s.counters = 1), BS_ERR_FORMAT);	/* -0 */
	REFUSED((BUILTIN(BS_FAMILY_FLOAT), s.entries[0].key = "\x01\0\0\0\0\0\xf8\x7f",
			 s.entry_count = 1, s.counters = 1), BS_ERR_FORMAT);	/* a NaN other than the one */
	REFUSED((BUILTIN(BS_FAMILY_DATE), s.entries[0].key = "\0\0\0\x80\0\0\0\0",
			 s.entry_count = 1, s.counters = 1), BS_ERR_FORMAT);	/* not a sign-extended int32 */
	REFUSED((BUILTIN(BS_FAMILY_UUID), s.entry_count = 1, s.counters = 1), BS_ERR_FORMAT);
	/* where the key determines the value, entries have no text field */
	REFUSED(BUILTIN(BS_FAMILY_INTEGER), BS_OK);
	REFUSED(BUILTIN(BS_FAMILY_TIMESTAMPTZ), BS_OK);
	/* text keys are UTF-8, texts too, in every database */
	REFUSED((BUILTIN(BS_FAMILY_TEXT), s.entries[0].key = "a\xff", s.entries[0].key_length = 2,
			 s.entries[1].key = "b", s.entries[1].key_length = 1), BS_ERR_FORMAT);
	REFUSED((BUILTIN(BS_FAMILY_TEXT), s.entries[0].key = "a\xc3\xa9", s.entries[0].key_length = 3,
			 s.entries[1].key = "b", s.entries[1].key_length = 1), BS_OK);
	REFUSED(s.entries[1].text = "\xed\xa0\x80", BS_ERR_FORMAT);	/* a surrogate */
#undef BUILTIN
#undef REFUSED
	test_numeric_texts();
	for (size_t i = 0; i < sizeof(numeric_keys) / sizeof(numeric_keys[0]); i++)
	{
		s = base_spec();
		s.family = BS_FAMILY_NUMERIC;
		s.type_tag = 0;
		s.entry_count = 1;
		s.counters = 1;
		s.entries[0].key = numeric_keys[i];
		s.entries[0].key_length = (uint32_t) strlen(numeric_keys[i]);
		s.entries[0].text = NULL;
		expect_refused(&s, i < NUMERIC_BAD ? BS_ERR_FORMAT : BS_OK, numeric_keys[i]);
	}
}

/*
 * A summary of family integer, 1 counter, total 9, error 0, whose payload
 * is the n bytes given: refused with want.
 */
static void
expect_payload(const uint8_t *payload, size_t n, bs_status want, const char *what)
{
	size_t		length = BS_TOPK_SERIAL_HEADER_BYTES + n;
	uint8_t    *bytes = xcalloc(length);
	bs_status	status;
	bs_error	err;
	bs_topk    *topk;

	bytes[0] = 1;
	bytes[1] = BS_FAMILY_INTEGER;
	bs_store_le32(bytes + 8, 1);
	bs_store_le32(bytes + 12, 1);
	bs_store_le64(bytes + 16, 9);
	bs_store_le64(bytes + 32, n);
	memcpy(bytes + BS_TOPK_SERIAL_HEADER_BYTES, payload, n);
	memset(&err, 0, sizeof(err));
	topk = from_bytes(bytes, length, &status, &err);
	check_status_at(status, want, &err, __FILE__, __LINE__, "from_bytes", what);
	free(topk);
	free(bytes);
}

/* The variable-length integers of an entry: one spelling, within 64 bits and the payload. */
static void
test_varints(void)
{
	/* lower 9, slack 0, key length 8, the key of 7 */
	static const uint8_t good[] = {9, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0};
	/* lower 9 in two bytes where one does */
	static const uint8_t long_lower[] = {0x89, 0x00, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0};
	/* lower of 11 bytes */
	static const uint8_t too_wide[] = {0x89, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0x80, 0x01, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0};
	/* the tenth byte holding more than bit 63 */
	static const uint8_t over_64[] = {0x89, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
	0x02, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0};
	/* cut off inside the key length */
	static const uint8_t cut[] = {9, 0, 0x88};
	/* slack 10 above lower 9: a count below 0 */
	static const uint8_t negative_count[] = {9, 10, 8, 7, 0, 0, 0, 0, 0, 0, 0};
	/* key length 9 with 8 bytes left */
	static const uint8_t long_key[] = {9, 0, 9, 7, 0, 0, 0, 0, 0, 0, 0};

	expect_payload(good, sizeof(good), BS_OK, "a minimal entry");
	expect_payload(long_lower, sizeof(long_lower), BS_ERR_FORMAT, "a superfluous byte");
	expect_payload(too_wide, sizeof(too_wide), BS_ERR_FORMAT, "11 bytes");
	expect_payload(over_64, sizeof(over_64), BS_ERR_FORMAT, "65 bits");
	expect_payload(cut, sizeof(cut), BS_ERR_FORMAT, "cut off");
	expect_payload(negative_count, sizeof(negative_count), BS_ERR_FORMAT, "slack above lower");
	expect_payload(long_key, sizeof(long_key), BS_ERR_FORMAT, "key past the end");
}

/* The text form of the base spec, with a change at the first match of from. */
static char *
base_text_with(const char *from, const char *to)
{
	spec		base = base_spec();
	size_t		length;
	uint8_t    *bytes = spec_bytes(&base, &length);
	bs_status	status;
	bs_error	err;
	bs_topk    *topk = from_bytes(bytes, length, &status, &err);
	char	   *text = to_text(topk);
	char	   *at = strstr(text, from);
	char	   *out = xcalloc(strlen(text) + strlen(to) + 1);

	if (at != NULL)
	{
		memcpy(out, text, (size_t) (at - text));
		strcpy(out + (at - text), to);
		strcat(out, at + strlen(from));
	}
	free(topk);
	free(bytes);
	free(text);
	return out;
}

/* Malformed text forms. */
static void
test_text_refusals(void)
{
	static const char *const changes[][2] = {
		{"topk:", "topq:"},
		{"v1:", "v2:"},
		{"v1:", "v01:"},
		{"other-4daaea92:", "other-4daaea9:"},
		{"counters=2", "counters=02"},
		{"counters=2", "counters=+2"},
		{"counters=2:entries=2", "entries=2:counters=2"},
		{"total=10", "total=1O"},
		{"error=1", "error=-1"},
		{"bytes=", "bytes=1"},
		{"AAAA", "AAA"},
		{"AAAA", "AA=A"},
		{"Mg==", "Mh=="},		/* padding bits not zero */
		{":bytes", "bytes"},
	};
	char	   *good = base_text_with("", "");
	bs_status	status;
	bs_error	err;
	bs_topk    *topk = from_text(good, &status, &err);

	CHECK_STATUS_WHAT(status, BS_OK, &err, good);
	CHECK(strncmp(good, "topk:v1:other-4daaea92:counters=2:entries=2:total=10:error=1:bytes=", 67) == 0);
	free(topk);
	for (size_t i = 0; i < sizeof(changes) / sizeof(changes[0]); i++)
	{
		char	   *text = base_text_with(changes[i][0], changes[i][1]);
		char		what[160];

		snprintf(what, sizeof(what), "%s -> %s: %s", changes[i][0], changes[i][1], text);
		CHECKF(text[0] != '\0', "%s applies", what);
		memset(&err, 0, sizeof(err));
		topk = from_text(text, &status, &err);
		check_status_at(status, BS_ERR_FORMAT, &err, __FILE__, __LINE__, "from_text", what);
		free(topk);
		free(text);
	}
	free(good);
}

void
test_topk_codec(void)
{
	test_round_trips();
	test_utf8();
	test_refusals();
	test_varints();
	test_text_refusals();
}
