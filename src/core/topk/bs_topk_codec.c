/*
 * bs_topk_codec.c — validating, serializing and parsing heavy-hitters
 * summaries (bs_topk_codec.h).
 */
#include "topk/bs_topk_codec.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "topk/bs_topk_text.h"

_Static_assert(sizeof(bs_topk_params) <= BS_FORM_PARAMS_BYTES, "bs_topk_params fits bs_form_params_room");

#define TEXT_MAGIC "topk"

#define TYPE_NAME "topksketch"

/* The start of a sentence about a summary's size, for length errors. */
static void
describe_shape(const void *params, char *out, size_t size)
{
	const bs_topk_params *p = params;

	snprintf(out, size, "A summary of %u entries in %" PRIu64 " bytes", p->entries,
			 p->payload_bytes);
}

/* ---- the validator: the header ---- */

bs_status
bs_topk_check_params(const bs_topk_params *p, bs_error *err)
{
	bs_status	status;

	if ((status = bs_check_version(TYPE_NAME, p->version, BS_TOPK_OLDEST_VERSION,
								   BS_TOPK_FORMAT_VERSION, err)) != BS_OK)
		return status;
	if (p->reserved16 != 0)
		return bs_fail(err, BS_ERR_FORMAT, "reserved topksketch header field is not zero",
					   "The reserved field holds %u; it must be 0.", p->reserved16);
	if ((status = bs_check_family_code(TYPE_NAME, p->family, err)) != BS_OK)
		return status;
	if ((status = bs_check_type_tag(TYPE_NAME, p->family, p->type_tag, err)) != BS_OK)
		return status;
	if (p->counters < BS_TOPK_MIN_COUNTERS)
		return bs_fail(err, BS_ERR_PARAM, "topksketch must have at least one counter",
					   "The value has %u counters.", p->counters);
	if (p->counters > BS_TOPK_MAX_COUNTERS)
		return bs_fail(err, BS_ERR_TOO_LARGE, "topksketch has too many counters",
					   "The value has %u counters; a summary holds at most %d.",
					   p->counters, BS_TOPK_MAX_COUNTERS);
	if (p->entries > p->counters)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch lists more values than it has counters",
					   "The value lists %u values with %u counters.", p->entries, p->counters);
	if (p->total > BS_TOPK_MAX_TOTAL)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch total is out of range",
					   "The total is %" PRIu64 "; counts are bigint.", p->total);
	if (p->error > p->total)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch error exceeds its total",
					   "The error is %" PRIu64 " with a total of %" PRIu64 ".",
					   p->error, p->total);
	/* a reduction leaves at least c values listed, and only a reduction adds to the error */
	if (p->entries < p->counters && p->error != 0)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch has an error but free counters",
					   "The value lists %u values with %u counters and has error %" PRIu64 "; a summary that lists fewer values than its counters has error 0.",
					   p->entries, p->counters, p->error);
	if (p->family == BS_FAMILY_NONE && (p->total != 0 || p->entries != 0))
		return bs_fail(err, BS_ERR_FORMAT, "topksketch without a value family has counts",
					   "A summary with no family has never counted a value, but this one has total %" PRIu64 " and %u entries.",
					   p->total, p->entries);
	if (p->payload_bytes > BS_TOPK_MAX_BYTES - sizeof(bs_topk))
		return bs_fail(err, BS_ERR_TOO_LARGE, "topksketch is too large",
					   "Its entries take %" PRIu64 " bytes; a summary takes at most %" PRIu64 " bytes.",
					   p->payload_bytes, BS_TOPK_MAX_BYTES);
	if (p->payload_bytes < (uint64_t) p->entries * BS_TOPK_ENTRY_MIN_BYTES)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch entries are truncated",
					   "%u entries need at least %" PRIu64 " bytes, but the value has %" PRIu64 ".",
					   p->entries, (uint64_t) p->entries * BS_TOPK_ENTRY_MIN_BYTES,
					   p->payload_bytes);
	return BS_OK;
}

/* ---- the validator: the entries ---- */

/* A normalized numeric string (docs/format.md section 1), as numeric_normalize writes it. */
static bool
numeric_key_is_canonical(const uint8_t *s, uint32_t n)
{
	uint32_t	i = 0;

	if ((n == 3 && memcmp(s, "NaN", 3) == 0) || (n == 8 && memcmp(s, "Infinity", 8) == 0) ||
		(n == 9 && memcmp(s, "-Infinity", 9) == 0))
		return true;
	if (i < n && s[i] == '-')
		i++;
	if (i == n || s[i] < '0' || s[i] > '9' || (s[i] == '0' && i + 1 < n && s[i + 1] != '.'))
		return false;
	if (n == 2 && s[0] == '-' && s[1] == '0')
		return false;			/* -0 is 0 */
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	if (i == n)
		return true;
	if (s[i] != '.' || i + 1 == n || s[n - 1] == '0')
		return false;
	for (i++; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* Whether a key has the canonical shape of its family (other families: any bytes). */
static bool
key_is_canonical(uint8_t family, const uint8_t *key, uint32_t n)
{
	uint64_t	v;

	switch (family)
	{
		case BS_FAMILY_INTEGER:
		case BS_FAMILY_TIMESTAMP:
		case BS_FAMILY_TIMESTAMPTZ:
			return n == 8;
		case BS_FAMILY_DATE:
			if (n != 8)
				return false;
			/* a sign-extended int32 */
			v = bs_load_le64(key);
			return (uint64_t) (int64_t) (int32_t) v == v;
		case BS_FAMILY_FLOAT:
			if (n != 8)
				return false;
			/* -0 is 0, and every NaN the one quiet NaN */
			v = bs_load_le64(key);
			if (v == UINT64_C(0x8000000000000000))
				return false;
			return (v & UINT64_C(0x7ff0000000000000)) != UINT64_C(0x7ff0000000000000) ||
				(v & UINT64_C(0x000fffffffffffff)) == 0 || v == UINT64_C(0x7ff8000000000000);
		case BS_FAMILY_BOOL:
			return n == 1 && key[0] <= 1;
		case BS_FAMILY_UUID:
			return n == 16;
		case BS_FAMILY_NUMERIC:
			return numeric_key_is_canonical(key, n);
		default:
			return true;
	}
}

/*
 * A variable-length integer at p within room bytes: false when it runs past
 * room, past 64 bits, or has a superfluous last byte (one spelling per
 * value).
 */
static bool
read_varint(const uint8_t *p, uint64_t room, uint64_t *value, uint64_t *bytes)
{
	uint64_t	v = 0;

	for (uint32_t i = 0; i < BS_TOPK_VARINT_MAX_BYTES && i < room; i++)
	{
		if (i == BS_TOPK_VARINT_MAX_BYTES - 1 && p[i] > 1)
			return false;
		v |= (uint64_t) (p[i] & 0x7f) << (7 * i);
		if ((p[i] & 0x80) == 0)
		{
			if (i > 0 && p[i] == 0)
				return false;
			*value = v;
			*bytes = i + UINT64_C(1);
			return true;
		}
	}
	return false;
}

/* The entry at offset, its fields checked against the end of the payload. */
static bs_status
read_checked_entry(const bs_topk *topk, uint64_t offset, uint32_t index,
				   bs_topk_entry *entry, uint64_t *next, bs_error *err)
{
	uint64_t	field[4] = {0, 0, 0, 0};	/* lower, slack, key length, text field */
	uint32_t	fields = bs_topk_family_has_text(topk->family) ? 4 : 3;
	uint64_t	at = offset;
	uint64_t	bytes;

	for (uint32_t f = 0; f < fields; f++)
	{
		if (!read_varint(topk->payload + at, topk->payload_bytes - at, &field[f], &bytes))
			return bs_fail(err, BS_ERR_FORMAT, "topksketch entry has a malformed number",
						   "Entry %u has a number that is cut off, longer than 64 bits or not written in its fewest bytes.",
						   index);
		at += bytes;
	}
	if (field[1] > field[0])
		return bs_fail(err, BS_ERR_FORMAT, "topksketch entry has inconsistent bounds",
					   "Entry %u has lower bound %" PRIu64 " and a count %" PRIu64 " below it; a count is at least 0.",
					   index, field[0], field[1]);
	if (field[2] > topk->payload_bytes - at ||
		(field[3] > 0 && field[3] - 1 > topk->payload_bytes - at - field[2]))
		return bs_fail(err, BS_ERR_FORMAT, "topksketch entries are truncated",
					   "Entry %u is longer than the %" PRIu64 " bytes left.", index,
					   topk->payload_bytes - offset);
	*next = offset;
	bs_topk_read_entry(topk, next, entry);
	return BS_OK;
}

/* The checks of an entry's text against its family (bs_topk_text.h). */
static bs_status
check_entry_text(const bs_topk *topk, const bs_topk_entry *e, uint32_t index, bs_error *err)
{
	/* a family whose key determines the value has no text field (bs_topk.h) */
	if (!bs_topk_family_has_text(topk->family))
	{
		if (topk->family == BS_FAMILY_TEXT && !bs_utf8_is_valid(e->key, e->key_length))
			return bs_fail(err, BS_ERR_FORMAT, "topksketch text is not valid UTF-8",
						   "The key of entry %u is not UTF-8 without zero bytes.", index);
		return BS_OK;
	}
	if (!e->text_is_key && e->text_length == e->key_length &&
		memcmp(e->text, e->key, e->key_length) == 0)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch text is not in canonical form",
					   "Entry %u stores its text apart from its key although the two are equal.", index);
	if (!bs_utf8_is_valid(e->text, e->text_length))
		return bs_fail(err, BS_ERR_FORMAT, "topksketch text is not valid UTF-8",
					   "The text of entry %u is not UTF-8 without zero bytes.", index);
	if (topk->family == BS_FAMILY_NUMERIC &&
		!bs_topk_numeric_text_matches(e->text, e->text_length, e->key, e->key_length))
		return bs_fail(err, BS_ERR_FORMAT, "topksketch text contradicts its key",
					   "The text of entry %u is not a spelling of the numeric its key holds.", index);
	return BS_OK;
}

/* The checks of one entry on its own, and against the previous one's key. */
static bs_status
check_entry(const bs_topk *topk, const bs_topk_entry *e, const bs_topk_entry *previous,
			uint32_t index, bs_error *err)
{
	bs_status	status;

	if (e->lower < 1 || e->lower < e->count || e->lower - e->count > topk->error)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch entry has inconsistent bounds",
					   "Entry %u has count %" PRIu64 " and lower bound %" PRIu64 " with error %" PRIu64 "; "
					   "they must satisfy count <= lower bound <= count + error and 1 <= lower bound.",
					   index, e->count, e->lower, topk->error);
	if (!key_is_canonical(topk->family, e->key, e->key_length))
		return bs_fail(err, BS_ERR_FORMAT, "topksketch key is not canonical",
					   "Entry %u has a key of %u bytes that no value of family \"%s\" has.",
					   index, e->key_length, bs_family_name(topk->family));
	if ((status = check_entry_text(topk, e, index, err)) != BS_OK)
		return status;
	if (previous != NULL &&
		bs_topk_key_compare(previous->key, previous->key_length, e->key, e->key_length) >= 0)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch entries are not in canonical order",
					   "The key of entry %u does not follow the key of entry %u; keys must be strictly increasing.",
					   index, index - 1);
	return BS_OK;
}

bs_status
bs_topk_check_entries(const bs_topk *topk, bs_error *err)
{
	uint64_t	offset = 0;
	unsigned __int128 counts = 0;
	unsigned __int128 lowers = 0;
	bs_topk_entry entries[2];
	bs_status	status;

	for (uint32_t i = 0; i < topk->entries; i++)
	{
		bs_topk_entry *e = &entries[i % 2];

		bs_poll_at(i);
		if ((status = read_checked_entry(topk, offset, i, e, &offset, err)) != BS_OK ||
			(status = check_entry(topk, e, i > 0 ? &entries[(i + 1) % 2] : NULL, i, err)) != BS_OK)
			return status;
		counts += e->count;
		lowers += e->lower;
	}
	if (offset != topk->payload_bytes)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch value has trailing bytes",
					   "Its %u entries take %" PRIu64 " bytes, but the value has %" PRIu64 ".",
					   topk->entries, offset, topk->payload_bytes);
	if (lowers > topk->total)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch bounds exceed its total",
					   "The lower bounds sum to more than the total of %" PRIu64 ".", topk->total);
	if (counts + (unsigned __int128) (topk->counters + UINT64_C(1)) * topk->error > topk->total)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch error exceeds its bound",
					   "With %u counters and a total of %" PRIu64 ", the counts and %u + 1 times the error %" PRIu64 " must sum to at most the total.",
					   topk->counters, topk->total, topk->counters, topk->error);
	return BS_OK;
}

bs_status
bs_topk_validate(const bs_topk *topk, uint64_t total_bytes, bs_error *err)
{
	bs_topk_params p;
	bs_status	status;
	char		shape[64];

	bs_topk_get_params(topk, &p);
	if ((status = bs_topk_check_params(&p, err)) != BS_OK)
		return status;
	if (topk->padding != 0)
		return bs_fail(err, BS_ERR_FORMAT, "topksketch padding is not zero",
					   "The alignment padding holds %u; it must be 0.", topk->padding);
	describe_shape(&p, shape, sizeof(shape));
	if ((status = bs_check_value_length(TYPE_NAME, shape, bs_topk_value_bytes(p.payload_bytes),
										total_bytes, err)) != BS_OK)
		return status;
	return bs_topk_check_entries(topk, err);
}

bs_status
bs_topk_check_shape(const bs_topk *topk, uint64_t total_bytes, bs_error *err)
{
	if (total_bytes < sizeof(bs_topk) ||
		topk->version < BS_TOPK_OLDEST_VERSION || topk->version > BS_TOPK_FORMAT_VERSION ||
		topk->family > BS_FAMILY_LAST || topk->counters < BS_TOPK_MIN_COUNTERS ||
		topk->entries > topk->counters ||
		total_bytes != bs_topk_value_bytes(topk->payload_bytes))
		return bs_fail(err, BS_ERR_FORMAT, "stored topksketch value is corrupt",
					   "Its header does not match its size of %" PRIu64 " bytes.", total_bytes);
	return BS_OK;
}

/* ---- text form ---- */

/* Render the prefix (through the final ':'); returns its length. */
static size_t
format_prefix(const void *params, char *out, size_t size)
{
	const bs_topk_params *p = params;
	char		family[32];
	int			n;

	bs_family_token(p->family, p->type_tag, family, sizeof(family));
	n = snprintf(out, size, "%s:v%u:%s:counters=%u:entries=%u:total=%" PRIu64 ":error=%" PRIu64 ":bytes=%" PRIu64 ":",
				 TEXT_MAGIC, p->version, family, p->counters, p->entries, p->total,
				 p->error, p->payload_bytes);
	return n < 0 ? 0 : (size_t) n;
}

static bs_status
syntax_error(bs_error *err, const char *detail)
{
	return bs_text_syntax_error(TYPE_NAME, detail, err);
}

/* The text header's fields after the magic word (bs_form.parse_fields). */
static bs_status
parse_fields(const bs_text_header *h, void *params, bs_error *err)
{
	bs_topk_params *p = params;
	uint64_t	value;

	p->version = h->version;
	if (!bs_parse_family_token(h->field[2], h->length[2], &p->family, &p->type_tag))
		return syntax_error(err, "The value family is not one bloomsketch knows.");
	if (!bs_parse_field(h->field[3], h->length[3], "counters", false, &value) ||
		value > UINT32_MAX)
		return syntax_error(err, "The number of counters must be written counters=<number>.");
	p->counters = (uint32_t) value;
	if (!bs_parse_field(h->field[4], h->length[4], "entries", false, &value) ||
		value > UINT32_MAX)
		return syntax_error(err, "The number of entries must be written entries=<number>.");
	p->entries = (uint32_t) value;
	if (!bs_parse_field(h->field[5], h->length[5], "total", false, &p->total))
		return syntax_error(err, "The total must be written total=<number>.");
	if (!bs_parse_field(h->field[6], h->length[6], "error", false, &p->error))
		return syntax_error(err, "The error must be written error=<number>.");
	if (!bs_parse_field(h->field[7], h->length[7], "bytes", false, &p->payload_bytes))
		return syntax_error(err, "The size of the entries must be written bytes=<number>.");
	return BS_OK;
}

/* ---- the forms, read and written by bs_codec_util.c ---- */

static bs_status
check_params(const void *params, bs_error *err)
{
	return bs_topk_check_params(params, err);
}

static bs_status
check_words(const void *value, bs_error *err)
{
	return bs_topk_check_entries(value, err);
}

static uint64_t
payload_bytes(const void *params)
{
	return ((const bs_topk_params *) params)->payload_bytes;
}

#define FIELD(member, serial_offset) \
	BS_HEADER_FIELD(bs_topk, bs_topk_params, member, serial_offset)

/* The header: its serialized layout is docs/format.md's. */
static const bs_header_field header_fields[] = {
	FIELD(version, 0),
	FIELD(family, 1),
	FIELD(reserved16, 2),
	FIELD(type_tag, 4),
	FIELD(counters, 8),
	FIELD(entries, 12),
	FIELD(total, 16),
	FIELD(error, 24),
	FIELD(payload_bytes, 32),
};

/* a value's size is its header's and its payload's (bs_form_value_bytes) */
_Static_assert(offsetof(bs_topk, payload) == sizeof(bs_topk), "entries must follow the header directly");

const bs_form bs_topk_form = {
	.type_name = TYPE_NAME,
	.magic = TEXT_MAGIC,
	.written_as = "A topksketch is written topk:v1:<family>:counters=<c>:entries=<n>:total=<N>:error=<e>:bytes=<b>:<base64 entries>.",
	.words_name = "entries",
	.oldest_version = BS_TOPK_OLDEST_VERSION,
	.newest_version = BS_TOPK_FORMAT_VERSION,
	.params_size = sizeof(bs_topk_params),
	.serial_header_bytes = BS_TOPK_SERIAL_HEADER_BYTES,
	.value_header_bytes = offsetof(bs_topk, payload),
	.fields = header_fields,
	.field_count = sizeof(header_fields) / sizeof(header_fields[0]),
	.check_params = check_params,
	.check_words = check_words,
	.words = NULL,
	.payload_bytes = payload_bytes,
	.describe = describe_shape,
	.parse_fields = parse_fields,
	.format_prefix = format_prefix,
};

void
bs_topk_get_params(const bs_topk *topk, bs_topk_params *params)
{
	bs_form_get_params(&bs_topk_form, topk, params);
}
