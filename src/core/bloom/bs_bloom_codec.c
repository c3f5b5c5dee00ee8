/*
 * bs_bloom_codec.c — validating, serializing and parsing Bloom filters.
 */
#include "bloom/bs_bloom_codec.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/bs_codec_util.h"
#include "bloom/bs_fit.h"
#include "bloom/bs_fit_state.h"
#include "bloom/bs_scheme.h"

_Static_assert(sizeof(bs_bloom_params) <= BS_FORM_PARAMS_BYTES, "bs_bloom_params fits bs_form_params_room");

#define TEXT_MAGIC "bloom"

#define TYPE_NAME "bloomfilter"

/* ---- the validator ---- */

bs_status
bs_bloom_check_params(const bs_bloom_params *p, bs_error *err)
{
	bs_status	status;

	if ((status = bs_check_version(TYPE_NAME, p->version, BS_BLOOM_OLDEST_VERSION,
								   BS_BLOOM_FORMAT_VERSION, err)) != BS_OK)
		return status;
	if (p->scheme < 1 || p->scheme > BS_SCHEME_CODE_LAST)
		return bs_fail(err, BS_ERR_FORMAT, "unknown bloomfilter probing scheme",
					   "The value has scheme code %u.", p->scheme);
	if ((status = bs_check_family_code(TYPE_NAME, p->family, err)) != BS_OK)
		return status;
	/* a fit filter's flags and a partial state's form live in reserved8 */
	if ((p->reserved8 != 0 && p->scheme < BS_SCHEME_FIT) || p->reserved16 != 0)
		return bs_fail(err, BS_ERR_FORMAT, "reserved bloomfilter header field is not zero",
					   "Reserved fields hold %u and %u; both must be 0.",
					   p->reserved8, p->reserved16);
	if ((status = bs_check_type_tag(TYPE_NAME, p->family, p->type_tag, err)) != BS_OK)
		return status;
	if (p->family == BS_FAMILY_NONE && p->items != 0)
		return bs_fail(err, BS_ERR_FORMAT, "bloomfilter without a value family claims items",
					   "A filter with no family has never had a value added, but this one counts %" PRIu64 " items.",
					   p->items);
	if (p->bits > BS_BLOOM_MAX_BITS)
		return bs_fail(err, BS_ERR_TOO_LARGE, "bloomfilter is too large",
					   "The value has %" PRIu64 " bits; the largest filter has %" PRIu64 " bits.",
					   p->bits, BS_BLOOM_MAX_BITS);
	if (p->scheme == BS_SCHEME_FIT && (status = bs_fit_check_params(p, err)) != BS_OK)
		return status;
	if (p->scheme == BS_SCHEME_FIT_PARTIAL &&
		(status = bs_fit_state_check_params(p, err)) != BS_OK)
		return status;
	return bs_scheme_check_shape(p->scheme, p->bits, p->hashes, err);
}

bs_status
bs_bloom_check_words(const bs_bloom *filter, bs_error *err)
{
	uint64_t	count = bs_bloom_word_count(filter->bits);
	unsigned	used = (unsigned) (filter->bits % 64);
	uint64_t	set;
	unsigned __int128 most = (unsigned __int128) filter->hashes * filter->items;

	if (filter->scheme == BS_SCHEME_FIT_PARTIAL)
		return bs_fit_state_check_words(filter, err);
	if (used != 0 && (filter->words[count - 1] >> used) != 0)
		return bs_fail(err, BS_ERR_FORMAT, "bloomfilter padding bits are not zero",
					   "Bits at positions %" PRIu64 " and above must be 0 in a filter of %" PRIu64 " bits.",
					   filter->bits, filter->bits);
	/*
	 * A fit union tiles its smaller operand, whose bits then count once per
	 * copy: no bound on the bits of a fit filter follows from its items.
	 */
	if (filter->scheme == BS_SCHEME_FIT)
		return BS_OK;
	set = bs_bloom_count_set(filter);
	if (set > most)
		return bs_fail(err, BS_ERR_FORMAT, "bloomfilter has more bits set than its items can set",
					   "%" PRIu64 " bits are set, but %" PRIu64 " items with k = %u set at most %" PRIu64 ".",
					   set, filter->items, filter->hashes,
					   most > UINT64_MAX ? UINT64_MAX : (uint64_t) most);
	return BS_OK;
}

bs_status
bs_bloom_check_shape(const bs_bloom *filter, uint64_t total_bytes, bs_error *err)
{
	bs_status	status = bs_bloom_check_state_shape(filter, total_bytes, err);

	if (status != BS_OK)
		return status;
	return bs_bloom_check_finished(filter, err);
}

bs_status
bs_bloom_check_finished(const bs_bloom *filter, bs_error *err)
{
	if (filter->scheme != BS_SCHEME_FIT_PARTIAL)
		return BS_OK;
	bs_fail(err, BS_ERR_PARAM, "bloomfilter is an unfinished bloom_fit_agg state",
			"It holds the hashes or bits of a group that bloom_fit_agg has not sized yet, which no function but the aggregate reads.");
	return bs_hint(err, BS_ERR_PARAM, "Use the result of bloom_fit_agg, not its partial state.");
}

bs_status
bs_bloom_check_state_shape(const bs_bloom *filter, uint64_t total_bytes, bs_error *err)
{
	if (filter->version < BS_BLOOM_OLDEST_VERSION ||
		filter->version > BS_BLOOM_FORMAT_VERSION ||
		filter->family > BS_FAMILY_LAST ||
		filter->bits > BS_BLOOM_MAX_BITS ||
		!bs_scheme_shape_safe(filter->scheme, filter->bits, filter->hashes) ||
		total_bytes != bs_bloom_total_bytes(filter->bits))
		return bs_fail(err, BS_ERR_FORMAT, "stored bloomfilter value is corrupt",
					   "Its header (version %u, scheme %u, k = %u, m = %" PRIu64 ") does not match its size of %" PRIu64 " bytes.",
					   filter->version, filter->scheme, filter->hashes, filter->bits,
					   total_bytes);
	return BS_OK;
}

/* ---- text form ---- */

/*
 * The text form has no reserved fields, so a fit filter's flags
 * (reserved8: BS_FIT_OVER_CEILING, BS_FIT_MIXED_SIZES) are written in the
 * scheme name, indexed by the flags byte: one spelling per value, and the
 * flags survive text.
 */
static const char *const fit_tokens[] = {
	"fit", "fit_over_ceiling", "fit_mixed", "fit_over_ceiling_mixed"
};

static const char *
scheme_token(const bs_bloom_params *p)
{
	if (p->scheme == BS_SCHEME_FIT && p->reserved8 < (sizeof(fit_tokens) / sizeof(fit_tokens[0])))
		return fit_tokens[p->reserved8];
	return bs_scheme_name(p->scheme);
}

/* Render the prefix (through the final ':'); returns its length. */
static size_t
format_prefix(const void *params, char *out, size_t size)
{
	const bs_bloom_params *p = params;
	char		family[32];
	int			n;

	bs_family_token(p->family, p->type_tag, family, sizeof(family));
	n = snprintf(out, size, "%s:v%u:%s:%s:k=%u:m=%" PRIu64 ":seed=%" PRId64 ":items=%" PRIu64 ":",
				 TEXT_MAGIC, p->version, scheme_token(p), family,
				 p->hashes, p->bits, (int64_t) p->seed, p->items);
	return n < 0 ? 0 : (size_t) n;
}

static bs_status
syntax_error(bs_error *err, const char *detail)
{
	return bs_text_syntax_error(TYPE_NAME, detail, err);
}

/* A scheme name of the text form (not NUL-terminated) to its code and flags. */
static bool
parse_scheme(const char *token, size_t length, uint8_t *scheme, uint8_t *flags)
{
	char		name[32];

	if (length == 0 || length >= sizeof(name) || memchr(token, '\0', length) != NULL)
		return false;
	memcpy(name, token, length);
	name[length] = '\0';
	*flags = 0;
	for (uint8_t f = 1; f < (sizeof(fit_tokens) / sizeof(fit_tokens[0])); f++)
		if (strcmp(name, fit_tokens[f]) == 0)
		{
			*scheme = BS_SCHEME_FIT;
			*flags = f;
			return true;
		}
	return bs_scheme_parse(name, scheme);
}

/* The text header's fields after the magic word (bs_form.parse_fields). */
static bs_status
parse_fields(const bs_text_header *h, void *params, bs_error *err)
{
	bs_bloom_params *p = params;
	uint64_t	value;

	p->version = h->version;
	if (!parse_scheme(h->field[2], h->length[2], &p->scheme, &p->reserved8))
		return syntax_error(err, "The probing scheme must be double, double_square, double_cube, partition, independent, blocked, fit, fit_over_ceiling, fit_mixed, fit_over_ceiling_mixed or fit_partial.");
	if (!bs_parse_family_token(h->field[3], h->length[3], &p->family, &p->type_tag))
		return syntax_error(err, "The value family is not one bloomsketch knows.");
	if (!bs_parse_field(h->field[4], h->length[4], "k", false, &value) || value > UINT16_MAX)
		return syntax_error(err, "The number of hash functions must be written k=<number>.");
	p->hashes = (uint16_t) value;
	if (!bs_parse_field(h->field[5], h->length[5], "m", false, &p->bits))
		return syntax_error(err, "The number of bits must be written m=<number>.");
	if (!bs_parse_field(h->field[6], h->length[6], "seed", true, &p->seed))
		return syntax_error(err, "The seed must be written seed=<signed 64-bit number>.");
	if (!bs_parse_field(h->field[7], h->length[7], "items", false, &p->items))
		return syntax_error(err, "The item count must be written items=<number>.");
	return BS_OK;
}

/* ---- the forms, read and written by bs_codec_util.c ---- */

static bs_status
check_params(const void *params, bs_error *err)
{
	return bs_bloom_check_params(params, err);
}

static bs_status
check_words(const void *value, bs_error *err)
{
	return bs_bloom_check_words(value, err);
}

static uint64_t
payload_words(const void *params)
{
	return bs_bloom_word_count(((const bs_bloom_params *) params)->bits);
}

static void
describe_shape(const void *params, char *out, size_t size)
{
	snprintf(out, size, "A filter of %" PRIu64 " bits", ((const bs_bloom_params *) params)->bits);
}

#define FIELD(member, serial_offset) \
	BS_HEADER_FIELD(bs_bloom, bs_bloom_params, member, serial_offset)

/* The header: its serialized layout is docs/format.md's. */
static const bs_header_field header_fields[] = {
	FIELD(version, 0),
	FIELD(scheme, 1),
	FIELD(family, 2),
	FIELD(reserved8, 3),
	FIELD(hashes, 4),
	FIELD(reserved16, 6),
	FIELD(type_tag, 8),
	FIELD(bits, 12),
	FIELD(seed, 20),
	FIELD(items, 28),
};

/* a value's size is its header's and its words' (bs_form_value_bytes) */
_Static_assert(offsetof(bs_bloom, words) == sizeof(bs_bloom), "words must follow the header directly");

const bs_form bs_bloom_form = {
	.type_name = TYPE_NAME,
	.magic = TEXT_MAGIC,
	.written_as = "A bloomfilter is written bloom:v1:<scheme>:<family>:k=<k>:m=<m>:seed=<seed>:items=<n>:<base64 bits>.",
	.words_name = "bits",
	.oldest_version = BS_BLOOM_OLDEST_VERSION,
	.newest_version = BS_BLOOM_FORMAT_VERSION,
	.params_size = sizeof(bs_bloom_params),
	.serial_header_bytes = BS_BLOOM_SERIAL_HEADER_BYTES,
	.value_header_bytes = offsetof(bs_bloom, words),
	.fields = header_fields,
	.field_count = sizeof(header_fields) / sizeof(header_fields[0]),
	.check_params = check_params,
	.check_words = check_words,
	.words = payload_words,
	.describe = describe_shape,
	.parse_fields = parse_fields,
	.format_prefix = format_prefix,
};

void
bs_bloom_get_params(const bs_bloom *filter, bs_bloom_params *params)
{
	bs_form_get_params(&bs_bloom_form, filter, params);
}

bs_status
bs_bloom_decode_header(const uint8_t *in, size_t length, bs_bloom_params *p,
					   bs_error *err)
{
	return bs_form_decode_header(&bs_bloom_form, in, length, p, err);
}

bs_status
bs_bloom_load_serialized(bs_bloom *filter, const bs_bloom_params *p,
						 const uint8_t *in, bs_error *err)
{
	return bs_form_load_serialized(&bs_bloom_form, filter, p, in, err);
}

void
bs_bloom_serialize(const bs_bloom *filter, uint8_t *out)
{
	bs_form_serialize(&bs_bloom_form, filter, out);
}

uint64_t
bs_bloom_text_length(const bs_bloom *filter)
{
	return bs_form_text_length(&bs_bloom_form, filter);
}

void
bs_bloom_format_text(const bs_bloom *filter, char *out)
{
	bs_form_format_text(&bs_bloom_form, filter, out);
}

bs_status
bs_bloom_parse_text_header(const char *text, size_t length, bs_bloom_params *p,
						   size_t *payload_offset, bs_error *err)
{
	return bs_form_parse_text_header(&bs_bloom_form, text, length, p, payload_offset, err);
}

bs_status
bs_bloom_load_text(bs_bloom *filter, const bs_bloom_params *p,
				   const char *payload, size_t payload_length, bs_error *err)
{
	return bs_form_load_text(&bs_bloom_form, filter, p, payload, payload_length, err);
}
