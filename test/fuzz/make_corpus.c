/*
 * make_corpus.c — writes the seed corpus of the libFuzzer targets:
 * small valid bloomfilters, cmsketches and topksketches of several sizes and
 * families, in
 * their serialized and text forms, pairs for fuzz_setops, and near-misses
 * (one header field, one byte or one character off).  Deterministic: the
 * same core gives the same files.
 *
 *   make_corpus <dir>     writes <dir>/<target>/<name> for every target
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bloom/bs_bloom_codec.h"
#include "bloom/bs_fit_state.h"
#include "bloom/bs_probe.h"
#include "cms/bs_cms_codec.h"
#include "common/bs_codec_util.h"
#include "topk/bs_topk_codec.h"
#include "topk/bs_topk_table.h"
#include "topk/bs_topk_text.h"

static const char *out_dir;

static void
write_file(const char *target, const char *name, const void *data, size_t size)
{
	char		path[512];
	FILE	   *f;

	snprintf(path, sizeof(path), "%s/%s", out_dir, target);
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
	{
		perror(path);
		exit(1);
	}
	snprintf(path, sizeof(path), "%s/%s/%s", out_dir, target, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
	{
		perror(path);
		exit(1);
	}
}

/* ---- Bloom filters ---- */

static void bloom_write(const char *name, const bs_bloom *f);
static void bloom_pair(const char *name, const bs_bloom *a, const bs_bloom *b);

static bs_bloom *
bloom_make_scheme(bs_scheme scheme, uint64_t bits, uint32_t hashes, uint64_t seed,
				  uint8_t family, const char *type_name, int items, int first)
{
	bs_bloom   *f = calloc(1, bs_bloom_total_bytes(bits));
	bs_probe	probe;

	bs_bloom_init_scheme(f, scheme, bits, hashes, seed);
	f->family = family;
	if (type_name != NULL)
		f->type_tag = bs_type_tag(type_name, strlen(type_name));
	bs_probe_for(&probe, f);
	for (int i = 0; i < items; i++)
	{
		uint8_t		key[8];

		bs_store_le64(key, (uint64_t) (first + i));
		bs_bloom_add(f, &probe, key, sizeof(key));
	}
	return f;
}

static bs_bloom *
bloom_make(uint64_t bits, uint32_t hashes, uint64_t seed, uint8_t family,
		   const char *type_name, int items, int first)
{
	return bloom_make_scheme(BS_SCHEME_DOUBLE, bits, hashes, seed, family,
							 type_name, items, first);
}

/* One small filter of each scheme besides double hashing, and a pair of each. */
static void
bloom_schemes(void)
{
	static const struct
	{
		bs_scheme	scheme;
		uint64_t	bits;
		uint32_t	hashes;
		const char *name;
	}			shapes[] = {
		{BS_SCHEME_DOUBLE_SQUARE, 97, 4, "double_square_m97_k4"},
		{BS_SCHEME_DOUBLE_CUBE, 101, 5, "double_cube_m101_k5"},
		{BS_SCHEME_PARTITION, 244, 4, "partition_m244_k4"},
		{BS_SCHEME_INDEPENDENT, 100, 3, "independent_m100_k3"},
		{BS_SCHEME_BLOCKED, 1024, 8, "blocked_m1024_k8"},
		{BS_SCHEME_FIT, 256, 7, "fit_m256_k7"},
	};

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
	{
		bs_bloom   *a = bloom_make_scheme(shapes[i].scheme, shapes[i].bits, shapes[i].hashes,
										  3, BS_FAMILY_INTEGER, NULL, 12, 0);
		bs_bloom   *b = bloom_make_scheme(shapes[i].scheme, shapes[i].bits, shapes[i].hashes,
										  3, BS_FAMILY_INTEGER, NULL, 9, 7);
		char		name[64];

		bloom_write(shapes[i].name, a);
		snprintf(name, sizeof(name), "bloom_pair_%s", shapes[i].name);
		bloom_pair(name, a, b);
		free(a);
		free(b);
	}
}

/*
 * bloom_fit_agg partial states of both forms (bs_fit_state.h): 9 hashes
 * under a ceiling of 4,096 bits, and 20 values at a ceiling of 1,024 bits
 * (past its 4 hashes, so bits), at rate 0.01.
 */
static void
bloom_fit_states(void)
{
	for (int form = 0; form <= 1; form++)
	{
		uint64_t	ceiling = form ? 1024 : 4096;
		uint64_t	count = form ? 20 : 9;
		uint64_t	bits = form ? bs_fit_bits_state_bits(ceiling) : bs_fit_hashes_state_bits(count);
		bs_bloom   *state = calloc(1, bs_bloom_total_bytes(bits));
		uint64_t   *payload = state->words + BS_FIT_PREFIX_WORDS;

		bs_fit_state_init(state, bits, 0.01, ceiling, 0);
		state->family = BS_FAMILY_INTEGER;
		state->items = count;
		for (uint64_t i = 0; i < count; i++)
		{
			uint8_t		key[8];
			XXH128_hash_t h;

			bs_store_le64(key, i);
			h = bs_hash128(key, sizeof(key), 0);
			if (form)
				bs_fit_set(payload, ceiling, state->hashes, h.low64, h.high64);
			else
			{
				payload[2 * i] = h.low64;
				payload[2 * i + 1] = h.high64;
			}
		}
		if (!form)
			bs_fit_sort_unique(payload, count);
		bloom_write(form ? "fit_partial_bits" : "fit_partial_hashes", state);
		free(state);
	}
}

static uint8_t *
bloom_bytes(const bs_bloom *f, size_t *size)
{
	uint8_t    *out;

	*size = bs_bloom_serial_bytes(f->bits);
	out = malloc(*size);
	bs_bloom_serialize(f, out);
	return out;
}

static void
bloom_write(const char *name, const bs_bloom *f)
{
	size_t		size;
	uint8_t    *bytes = bloom_bytes(f, &size);
	char	   *text = malloc(bs_bloom_text_length(f) + 1);

	write_file("fuzz_bloom_bytes", name, bytes, size);
	bs_bloom_format_text(f, text);
	write_file("fuzz_bloom_text", name, text, strlen(text));
	free(bytes);
	free(text);
}

/* A copy of f's serialized bytes with one byte replaced, truncated or extended. */
static void
bloom_bytes_miss(const char *name, const bs_bloom *f, long offset, int value,
				 long resize)
{
	size_t		size;
	uint8_t    *bytes = bloom_bytes(f, &size);

	bytes = realloc(bytes, size + 1);
	bytes[size] = 0;
	if (offset >= 0)
		bytes[offset] = (uint8_t) value;
	write_file("fuzz_bloom_bytes", name, bytes, size + resize);
	free(bytes);
}

/* f's text form with the first occurrence of `from` replaced by `to`. */
static void
text_miss(const char *target, const char *name, const char *text,
		  const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char		out[4096];

	if (at == NULL || strlen(text) + strlen(to) >= sizeof(out))
	{
		fprintf(stderr, "make_corpus: no \"%s\" in %s\n", from, text);
		exit(1);
	}
	snprintf(out, sizeof(out), "%.*s%s%s", (int) (at - text), text, to, at + strlen(from));
	write_file(target, name, out, strlen(out));
}

/* A fuzz_setops input: type byte, length of a, a, b. */
static void
pair_write(const char *name, int type, const uint8_t *a, size_t na,
		   const uint8_t *b, size_t nb)
{
	uint8_t    *out = malloc(3 + na + nb);

	out[0] = (uint8_t) type;
	bs_store_le16(out + 1, (uint16_t) na);
	memcpy(out + 3, a, na);
	memcpy(out + 3 + na, b, nb);
	write_file("fuzz_setops", name, out, 3 + na + nb);
	free(out);
}

static void
bloom_pair(const char *name, const bs_bloom *a, const bs_bloom *b)
{
	size_t		na, nb;
	uint8_t    *ba = bloom_bytes(a, &na);
	uint8_t    *bb = bloom_bytes(b, &nb);

	pair_write(name, 0, ba, na, bb, nb);
	free(ba);
	free(bb);
}

static void
bloom_corpus(void)
{
	bs_bloom   *empty = bloom_make(2, 1, 0, BS_FAMILY_NONE, NULL, 0, 0);
	bs_bloom   *small = bloom_make(67, 5, 7, BS_FAMILY_INTEGER, NULL, 2, 1);
	bs_bloom   *small2 = bloom_make(67, 5, 7, BS_FAMILY_INTEGER, NULL, 3, 2);
	bs_bloom   *empty67 = bloom_make(67, 5, 7, BS_FAMILY_NONE, NULL, 0, 0);
	bs_bloom   *text = bloom_make(1021, 7, (uint64_t) -1, BS_FAMILY_TEXT, NULL, 50, 100);
	bs_bloom   *text2 = bloom_make(1021, 7, (uint64_t) -1, BS_FAMILY_TEXT, NULL, 60, 130);
	bs_bloom   *other = bloom_make(8191, 3, 42, BS_FAMILY_OTHER, "pg_catalog.inet", 100, 0);
	bs_bloom   *full = bloom_make(131, 131, 1, BS_FAMILY_UUID, NULL, 1, 9);
	bs_bloom   *pad = bloom_make(61, 2, 3, BS_FAMILY_DATE, NULL, 10, 0);
	bs_bloom   *big = bloom_make(65537, 1, 5, BS_FAMILY_BYTEA, NULL, 3, 0);
	bs_bloom   *many = bloom_make(127, 4, 11, BS_FAMILY_TIMESTAMPTZ, NULL, 20, 0);
	char	   *t = malloc(bs_bloom_text_length(small) + 1);

	many->items = UINT64_C(1) << 63;
	bloom_write("empty_m2", empty);
	bloom_write("int_m67_k5", small);
	bloom_write("text_m1021_k7", text);
	bloom_write("other_m8191_k3", other);
	bloom_write("full_m131_k131", full);
	bloom_write("date_m61_k2", pad);
	bloom_write("bytea_m65537_k1", big);
	bloom_write("tstz_items_2e63", many);

	/* serialized near-misses of int_m67_k5 (header offsets: README.md) */
	bloom_bytes_miss("miss_truncated", small, -1, 0, -1);
	bloom_bytes_miss("miss_trailing", small, -1, 0, 1);
	bloom_bytes_miss("miss_version3", small, 0, 3, 0);
	bloom_bytes_miss("miss_scheme2", small, 1, 2, 0);
	bloom_bytes_miss("miss_family12", small, 2, 12, 0);
	bloom_bytes_miss("miss_reserved8", small, 3, 1, 0);
	bloom_bytes_miss("miss_k0", small, 4, 0, 0);
	bloom_bytes_miss("miss_k1025", small, 5, 4, 0);
	bloom_bytes_miss("miss_reserved16", small, 6, 1, 0);
	bloom_bytes_miss("miss_tag", small, 8, 1, 0);
	bloom_bytes_miss("miss_m66", small, 12, 66, 0);
	bloom_bytes_miss("miss_m_huge", small, 19, 0x80, 0);
	bloom_bytes_miss("miss_items0", small, 28, 0, 0);
	bloom_bytes_miss("miss_padding", small, 36 + 8, 0x80, 0);

	/* text near-misses */
	bs_bloom_format_text(small, t);
	text_miss("fuzz_bloom_text", "miss_magic", t, "bloom:", "bloon:");
	text_miss("fuzz_bloom_text", "miss_v3", t, ":v2:", ":v3:");
	text_miss("fuzz_bloom_text", "miss_v02", t, ":v2:", ":v02:");
	text_miss("fuzz_bloom_text", "miss_scheme", t, ":double:", ":triple:");
	text_miss("fuzz_bloom_text", "miss_family", t, ":integer:", ":other-0000zz00:");
	text_miss("fuzz_bloom_text", "miss_k_zero", t, ":k=5:", ":k=05:");
	text_miss("fuzz_bloom_text", "miss_k_plus", t, ":k=5:", ":k=+5:");
	text_miss("fuzz_bloom_text", "miss_m_even", t, ":m=67:", ":m=68:");
	text_miss("fuzz_bloom_text", "miss_seed_neg0", t, ":seed=7:", ":seed=-0:");
	text_miss("fuzz_bloom_text", "miss_items_big", t, ":items=2:", ":items=18446744073709551616:");
	text_miss("fuzz_bloom_text", "miss_b64_bits", t, "==", "Q=");
	text_miss("fuzz_bloom_text", "miss_b64_pad", t, "==", "");
	text_miss("fuzz_bloom_text", "miss_space", t, ":k=", ": k=");

	bloom_pair("bloom_int_pair", small, small2);
	bloom_pair("bloom_none_int", empty67, small);
	bloom_pair("bloom_text_pair", text, text2);
	bloom_pair("bloom_equal", text, text);
	bloom_pair("bloom_mismatch_m", small, text);
	bloom_schemes();
	bloom_fit_states();
	{
		/* fuzz_setops' second mode: the payload of a value sharing a's header */
		static const uint8_t bits[16] = {0x11, 0, 0x40, 0, 0, 0x02, 0, 0, 0x05};
		size_t		na;
		uint8_t    *ba = bloom_bytes(text, &na);

		pair_write("bloom_derived_text", 2, ba, na, bits, sizeof(bits));
		free(ba);
	}
	free(t);
	free(empty);
	free(small);
	free(small2);
	free(empty67);
	free(text);
	free(text2);
	free(other);
	free(full);
	free(pad);
	free(big);
	free(many);
}

/* ---- count-min sketches ---- */

static bs_cms *
cms_make(uint32_t width, uint32_t depth, uint32_t copies, uint64_t seed,
		 uint8_t family, const char *type_name, int items, int first, int64_t count)
{
	uint64_t	size;
	bs_cms	   *c;
	bs_cms_probe probe;

	if (bs_cms_total_bytes(width, depth, copies, &size, NULL) != BS_OK)
		exit(1);
	c = calloc(1, size);
	bs_cms_init(c, width, depth, copies, seed);
	c->family = family;
	if (type_name != NULL)
		c->type_tag = bs_type_tag(type_name, strlen(type_name));
	bs_cms_probe_init(&probe, width, depth, copies, seed);
	for (int i = 0; i < items; i++)
	{
		uint8_t		key[8];

		bs_store_le64(key, (uint64_t) (first + i % 7));
		if (bs_cms_add(c, &probe, key, sizeof(key), count, NULL) != BS_OK)
			exit(1);
	}
	return c;
}

static uint8_t *
cms_bytes(const bs_cms *c, size_t *size)
{
	bs_cms_params p;
	uint8_t    *out;

	bs_cms_get_params(c, &p);
	*size = bs_cms_serial_bytes(&p);
	out = malloc(*size + 1);
	bs_cms_serialize(c, out);
	return out;
}

static void
cms_write(const char *name, const bs_cms *c)
{
	size_t		size;
	uint8_t    *bytes = cms_bytes(c, &size);
	char	   *text = malloc(bs_cms_text_length(c) + 1);

	write_file("fuzz_cms_bytes", name, bytes, size);
	bs_cms_format_text(c, text);
	write_file("fuzz_cms_text", name, text, strlen(text));
	free(bytes);
	free(text);
}

/* c's serialized bytes with one byte replaced, truncated or extended. */
static void
cms_bytes_miss(const char *name, const bs_cms *c, long offset, int value, long resize)
{
	size_t		size;
	uint8_t    *bytes = cms_bytes(c, &size);

	bytes[size] = 0;
	if (offset >= 0)
		bytes[offset] = (uint8_t) value;
	write_file("fuzz_cms_bytes", name, bytes, size + resize);
	free(bytes);
}

static void
cms_pair(const char *name, const bs_cms *a, const bs_cms *b)
{
	size_t		na, nb;
	uint8_t    *ba = cms_bytes(a, &na);
	uint8_t    *bb = cms_bytes(b, &nb);

	pair_write(name, 1, ba, na, bb, nb);
	free(ba);
	free(bb);
}

static void
cms_corpus(void)
{
	bs_cms	   *empty = cms_make(2, 1, 1, 0, BS_FAMILY_NONE, NULL, 0, 0, 1);
	bs_cms	   *small = cms_make(5, 3, 1, 7, BS_FAMILY_INTEGER, NULL, 4, 1, 1);
	bs_cms	   *text = cms_make(13, 4, 2, (uint64_t) -5, BS_FAMILY_TEXT, NULL, 30, 0, 2);
	bs_cms	   *text2 = cms_make(13, 4, 2, (uint64_t) -5, BS_FAMILY_TEXT, NULL, 20, 3, 5);
	bs_cms	   *empty13 = cms_make(13, 4, 2, (uint64_t) -5, BS_FAMILY_NONE, NULL, 0, 0, 1);
	bs_cms	   *other = cms_make(101, 5, 2, 9, BS_FAMILY_OTHER, "pg_catalog.inet", 200, 0, 1);
	bs_cms	   *huge = cms_make(2, 2, 1, 0, BS_FAMILY_BOOL, NULL, 2, 0, INT64_MAX);
	bs_cms	   *meet = cms_make(13, 4, 2, (uint64_t) -5, BS_FAMILY_TEXT, NULL, 30, 0, 2);
	char	   *t = malloc(bs_cms_text_length(small) + 1);

	bs_cms_intersect_into(meet, text2, NULL);
	cms_write("empty_w2", empty);
	cms_write("int_w5_d3", small);
	cms_write("text_w13_d4_c2", text);
	cms_write("other_w101_d5_c2", other);
	cms_write("bool_near_max", huge);
	cms_write("intersection_w13", meet);

	/* serialized near-misses of int_w5_d3 (header offsets: bs_cms_codec.h) */
	cms_bytes_miss("miss_truncated", small, -1, 0, -1);
	cms_bytes_miss("miss_trailing", small, -1, 0, 1);
	cms_bytes_miss("miss_version3", small, 0, 3, 0);
	cms_bytes_miss("miss_family12", small, 1, 12, 0);
	cms_bytes_miss("miss_reserved", small, 2, 1, 0);
	cms_bytes_miss("miss_tag", small, 4, 1, 0);
	cms_bytes_miss("miss_w4", small, 8, 4, 0);
	cms_bytes_miss("miss_w_huge", small, 11, 0x40, 0);
	cms_bytes_miss("miss_d0", small, 12, 0, 0);
	cms_bytes_miss("miss_d_over_w", small, 12, 6, 0);
	cms_bytes_miss("miss_copies0", small, 14, 0, 0);
	cms_bytes_miss("miss_copies_many", small, 15, 0x7f, 0);
	cms_bytes_miss("miss_total", small, 24, 9, 0);
	cms_bytes_miss("miss_counter", small, 32, 200, 0);

	bs_cms_format_text(small, t);
	text_miss("fuzz_cms_text", "miss_magic", t, "cms:", "cns:");
	text_miss("fuzz_cms_text", "miss_v3", t, ":v2:", ":v3:");
	text_miss("fuzz_cms_text", "miss_family", t, ":integer:", ":int:");
	text_miss("fuzz_cms_text", "miss_w_zero", t, ":w=5:", ":w=05:");
	text_miss("fuzz_cms_text", "miss_w_even", t, ":w=5:", ":w=6:");
	text_miss("fuzz_cms_text", "miss_d_plus", t, ":d=3:", ":d=+3:");
	text_miss("fuzz_cms_text", "miss_copies0", t, ":copies=1:", ":copies=0:");
	text_miss("fuzz_cms_text", "miss_seed_neg0", t, ":seed=7:", ":seed=-0:");
	text_miss("fuzz_cms_text", "miss_total", t, ":total=4:", ":total=5:");
	write_file("fuzz_cms_text", "miss_b64_short", t, strlen(t) - 1);

	cms_pair("cms_text_pair", text, text2);
	cms_pair("cms_none_text", empty13, text);
	cms_pair("cms_meet_text", meet, text);
	cms_pair("cms_near_max", huge, huge);
	cms_pair("cms_mismatch_w", small, text);
	{
		static const uint8_t counters[24] = {3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
		size_t		na;
		uint8_t    *ba = cms_bytes(text, &na);

		pair_write("cms_derived_text", 3, ba, na, counters, sizeof(counters));
		free(ba);
	}
	free(t);
	free(empty);
	free(small);
	free(text);
	free(text2);
	free(empty13);
	free(other);
	free(huge);
	free(meet);
}


/* ---- heavy-hitters summaries ---- */

/*
 * A summary of `values` values v = i * i % spread (i = 0 .. values - 1), as
 * keys of the family (decimal text for text and numeric), with texts where
 * the family carries them.
 */
static bs_topk *
topk_make(uint32_t counters, uint8_t family, int values, int spread)
{
	bs_topk_table table;
	uint64_t	bytes;
	bs_topk    *t;

	bs_topk_table_init(&table, counters, &bs_topk_malloc, NULL);
	table.family = values > 0 ? family : BS_FAMILY_NONE;
	for (int i = 0; i < values; i++)
	{
		uint8_t		key[40];
		char		text[40];
		uint32_t	length;
		bool		inserted;
		bs_topk_slot *slot;
		int			v = i * i % spread;

		snprintf(text, sizeof(text), "%d", v);
		if (family == BS_FAMILY_INTEGER)
		{
			bs_store_le64(key, (uint64_t) v);
			length = 8;
		}
		else
			length = (uint32_t) snprintf((char *) key, sizeof(key), family == BS_FAMILY_TEXT ?
										 "value number %d" : "%d", v);
		slot = bs_topk_table_count(&table, key, length, bs_topk_hash(key, length), &inserted, NULL);
		/* only numeric and other carry a text; numeric's here spells its key */
		if (inserted && bs_topk_family_renders_key(family))
			bs_topk_table_set_text(&table, slot, key, length, NULL);
		else if (inserted)
			bs_topk_table_set_text(&table, slot, (const uint8_t *) text, (uint32_t) strlen(text),
								   NULL);
	}
	bs_topk_table_reduce(&table, counters);
	bs_topk_table_flat_bytes(&table, &bytes, NULL);
	t = calloc(1, bytes);
	t->length_word = (int32_t) bytes;
	bs_topk_table_write(&table, t, NULL);
	bs_topk_table_destroy(&table);
	return t;
}

static uint8_t *
topk_bytes(const bs_topk *t, size_t *size)
{
	uint8_t    *out;

	*size = bs_form_serial_bytes(&bs_topk_form, t);
	out = malloc(*size + 1);
	bs_form_serialize(&bs_topk_form, t, out);
	return out;
}

static void
topk_write(const char *name, const bs_topk *t)
{
	size_t		size;
	uint8_t    *bytes = topk_bytes(t, &size);
	char	   *text = malloc(bs_form_text_length(&bs_topk_form, t) + 1);

	write_file("fuzz_topk_bytes", name, bytes, size);
	bs_form_format_text(&bs_topk_form, t, text);
	write_file("fuzz_topk_text", name, text, strlen(text));
	free(bytes);
	free(text);
}

/* A serialized summary with the byte at offset set to value. */
static void
topk_bytes_miss(const char *name, const bs_topk *t, long offset, int value)
{
	size_t		size;
	uint8_t    *bytes = topk_bytes(t, &size);

	bytes[offset] = (uint8_t) value;
	write_file("fuzz_topk_bytes", name, bytes, size);
	free(bytes);
}

static void
topk_corpus(void)
{
	bs_topk    *empty = topk_make(3, BS_FAMILY_NONE, 0, 1);
	bs_topk    *small = topk_make(3, BS_FAMILY_INTEGER, 7, 5);
	bs_topk    *reduced = topk_make(10, BS_FAMILY_INTEGER, 400, 97);
	bs_topk    *text = topk_make(4, BS_FAMILY_TEXT, 50, 11);
	bs_topk    *numeric = topk_make(5, BS_FAMILY_NUMERIC, 30, 7);
	char	   *t = malloc(bs_form_text_length(&bs_topk_form, small) + 1);

	topk_write("empty_c3", empty);
	topk_write("int_c3", small);
	topk_write("int_c10_reduced", reduced);
	topk_write("text_c4", text);
	topk_write("numeric_c5", numeric);

	/* serialized near-misses of int_c3 (header offsets: bs_topk_codec.h) */
	topk_bytes_miss("miss_version2", small, 0, 2);
	topk_bytes_miss("miss_family12", small, 1, 12);
	topk_bytes_miss("miss_counters0", small, 8, 0);
	topk_bytes_miss("miss_entries", small, 12, 9);
	topk_bytes_miss("miss_total", small, 16, 2);
	topk_bytes_miss("miss_error", small, 24, 7);
	topk_bytes_miss("miss_count0", small, 40, 0);
	topk_bytes_miss("miss_key_length", small, 56, 7);

	bs_form_format_text(&bs_topk_form, small, t);
	text_miss("fuzz_topk_text", "miss_magic", t, "topk:", "tpk:");
	text_miss("fuzz_topk_text", "miss_counters_zero", t, ":counters=3:", ":counters=03:");
	text_miss("fuzz_topk_text", "miss_total", t, ":total=7:", ":total=6:");
	write_file("fuzz_topk_text", "miss_b64_short", t, strlen(t) - 1);
	free(t);
	free(empty);
	free(small);
	free(reduced);
	free(text);
	free(numeric);
}

int
main(int argc, char **argv)
{
	if (argc != 2)
	{
		fprintf(stderr, "usage: make_corpus <dir>\n");
		return 2;
	}
	out_dir = argv[1];
	if (mkdir(out_dir, 0755) != 0 && errno != EEXIST)
	{
		perror(out_dir);
		return 1;
	}
	bloom_corpus();
	cms_corpus();
	topk_corpus();
	return 0;
}
