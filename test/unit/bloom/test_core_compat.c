/*
 * test_core_compat.c — unit tests of filters together and over time: the
 * compatibility check and the union, format versions 1 and 2 combined,
 * and the shape of a stored filter.
 */
#include "../common/test_core.h"

/* ------------------------------------------------------------------------ */
/* compatibility and union                                                  */
/* ------------------------------------------------------------------------ */

void
test_merge(void)
{
	bs_error	err;
	bs_bloom   *a = new_filter(97, 5, 11);
	bs_bloom   *b = new_filter(97, 5, 11);
	bs_bloom   *c = new_filter(97, 5, 11);

	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_OK, &err);

	/* each differing field (versions: one whose family hashes differently; see test_versions) */
	CHECK(a->version == BS_BLOOM_FORMAT_VERSION && b->version == BS_BLOOM_FORMAT_VERSION);
	b->version = 1;
	a->family = b->family = BS_FAMILY_TEXT;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
	CHECK_STATUS(bs_bloom_check_compatible(b, a, &err), BS_ERR_MISMATCH, &err);
	a->family = b->family = BS_FAMILY_NONE;
	b->version = BS_BLOOM_FORMAT_VERSION;
	b->scheme = 2;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
	b->scheme = 1;
	b->bits = 101;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
	b->bits = 97;
	b->hashes = 4;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
	b->hashes = 5;
	b->seed = 12;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
	b->seed = 11 + (UINT64_C(1) << 63);
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
	b->seed = 11;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_OK, &err);

	/* families: none matches anything; otherwise equal family and tag */
	a->family = BS_FAMILY_INTEGER;
	b->family = BS_FAMILY_TEXT;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
	CHECK_STATUS(bs_bloom_check_compatible(b, a, &err), BS_ERR_MISMATCH, &err);
	b->family = BS_FAMILY_INTEGER;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_OK, &err);
	for (uint8_t fam = 0; fam <= BS_FAMILY_LAST; fam++)
	{
		a->family = BS_FAMILY_NONE;
		a->type_tag = 0;
		b->family = fam;
		b->type_tag = fam == BS_FAMILY_OTHER ? 0x1234 : 0;
		CHECK_STATUS_WHAT(bs_bloom_check_compatible(a, b, &err), BS_OK, &err, bs_family_name(fam));
		CHECK_STATUS_WHAT(bs_bloom_check_compatible(b, a, &err), BS_OK, &err, bs_family_name(fam));
	}
	a->family = BS_FAMILY_OTHER;
	a->type_tag = 0x1234;
	b->family = BS_FAMILY_OTHER;
	b->type_tag = 0x1234;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_OK, &err);
	b->type_tag = 0x1235;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
	b->family = BS_FAMILY_INTEGER;
	b->type_tag = 0;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
	/* a mismatch is reported even when a later field also differs */
	b->family = BS_FAMILY_OTHER;
	b->type_tag = 0x1234;
	b->bits = 101;
	b->seed = 99;
	CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
	CHECK(bs_bloom_check_compatible(a, b, NULL) == BS_ERR_MISMATCH);
	free(a);
	free(b);
	free(c);

	/* union: words OR-ed, items added, family adopted */
	a = new_filter(9587, 7, 5);
	b = new_filter(9587, 7, 5);
	add_keys(a, 0, 300, BS_FAMILY_INTEGER, 0);
	add_keys(b, 200, 400, BS_FAMILY_INTEGER, 0);
	{
		uint64_t	words = bs_bloom_word_count(9587);
		uint64_t   *expected = xcalloc(8 * words);
		bs_probe	probe;
		uint8_t		key[8];
		uint64_t	missing = 0;

		for (uint64_t i = 0; i < words; i++)
			expected[i] = a->words[i] | b->words[i];
		CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_OK, &err);
		bs_bloom_union_into(a, b);
		CHECK(memcmp(a->words, expected, 8 * words) == 0);
		CHECK(a->items == 700);
		CHECK(b->items == 400);
		CHECK(a->family == BS_FAMILY_INTEGER);
		bs_probe_init(&probe, 9587, 7, 5);
		for (uint64_t i = 0; i < 600; i++)
		{
			key_of(i, key);
			missing += !bs_bloom_test(a, &probe, key, sizeof(key));
		}
		CHECK(missing == 0);
		CHECK_STATUS(bs_bloom_check_words(a, &err), BS_OK, &err);

		/* a filter with no family adopts the other's, tag included */
		c = new_filter(9587, 7, 5);
		b->family = BS_FAMILY_OTHER;
		b->type_tag = 0xBEEF;
		bs_bloom_union_into(c, b);
		CHECK(c->family == BS_FAMILY_OTHER && c->type_tag == 0xBEEF);
		CHECK(c->items == 400);
		CHECK(memcmp(c->words, b->words, 8 * words) == 0);
		/* and one with a family keeps it when the other has none */
		free(c);
		c = new_filter(9587, 7, 5);
		bs_bloom_union_into(b, c);
		CHECK(b->family == BS_FAMILY_OTHER && b->type_tag == 0xBEEF && b->items == 400);
		/* union with itself changes only the count */
		memcpy(expected, a->words, 8 * words);
		bs_bloom_union_into(a, a);
		CHECK(memcmp(a->words, expected, 8 * words) == 0);
		CHECK(a->items == 1400);
		/* the count saturates rather than wrapping */
		a->items = UINT64_MAX - 1;
		bs_bloom_union_into(a, b);
		CHECK(a->items == UINT64_MAX);
		free(expected);
	}
	free(a);
	free(b);
	free(c);
}

/* ------------------------------------------------------------------------ */
/* format versions 1 and 2 combined                                         */
/* ------------------------------------------------------------------------ */

/* A 97-bit filter of the given version holding `count` keys of `family` (none: empty). */
static bs_bloom *
versioned_filter(uint8_t version, uint8_t family, uint64_t first, uint64_t count)
{
	bs_bloom   *f = new_filter(97, 5, 11);

	if (family != BS_FAMILY_NONE)
		add_keys(f, first, count, family, family == BS_FAMILY_OTHER ? 0x1234 : 0);
	f->version = version;
	return f;
}

static bs_bloom *
clone_filter(const bs_bloom *f)
{
	bs_bloom   *copy = xcalloc((size_t) bs_bloom_total_bytes(f->bits));

	memcpy(copy, f, (size_t) bs_bloom_total_bytes(f->bits));
	return copy;
}

/* The filter's serialized form reads back, with its version in byte 0. */
static bool
serializes_as_version(const bs_bloom *f, uint8_t version)
{
	size_t		length;
	uint8_t    *buf = serialize(f, &length);
	bs_bloom   *g = NULL;
	bool		ok;

	ok = buf[0] == version && decode_and_load(buf, length, &g, NULL) == BS_OK &&
		g != NULL && g->version == version &&
		memcmp(f, g, (size_t) bs_bloom_total_bytes(f->bits)) == 0;
	free(g);
	free(buf);
	return ok;
}

void
test_versions(void)
{
	bs_error	err;
	uint64_t	words = bs_bloom_word_count(97);

	/* only text and other hash differently in versions 1 and 2 */
	CHECK(BS_FAMILY_TEXT == 2 && BS_FAMILY_OTHER == 11);
	for (uint8_t fam = 0; fam <= BS_FAMILY_LAST; fam++)
		CHECKF(bs_family_hash_stable(fam) == (fam != BS_FAMILY_TEXT && fam != BS_FAMILY_OTHER),
			   "family %s", bs_family_name(fam));

	/*
	 * Every pair of families, version 1 (fa) against version 2 (fb), in both
	 * orders: combinable when either is empty or the older (version 1)
	 * side's family hashes alike in both, and the families agree; the
	 * result has the version of the side with values, else 2.
	 */
	for (uint8_t fa = 0; fa <= BS_FAMILY_LAST; fa++)
		for (uint8_t fb = 0; fb <= BS_FAMILY_LAST; fb++)
		{
			bs_bloom   *a = versioned_filter(1, fa, 0, 3);
			bs_bloom   *b = versioned_filter(2, fb, 2, 3);
			bool		versions_ok = fa == BS_FAMILY_NONE || fb == BS_FAMILY_NONE ||
				bs_family_hash_stable(fa);
			bool		families_ok = fa == BS_FAMILY_NONE || fb == BS_FAMILY_NONE || fa == fb;
			bs_status	want = versions_ok && families_ok ? BS_OK : BS_ERR_MISMATCH;
			uint8_t		want_version = fa != BS_FAMILY_NONE && fb == BS_FAMILY_NONE ? 1 : 2;
			uint8_t		want_family = fa != BS_FAMILY_NONE ? fa : fb;
			char		what[64];

			snprintf(what, sizeof(what), "v1 %s, v2 %s", bs_family_name(fa), bs_family_name(fb));
			CHECKF(bs_versions_combine(1, fa, 2, fb) == versions_ok &&
				   bs_versions_combine(2, fb, 1, fa) == versions_ok, "%s", what);
			CHECKF(bs_combined_version(1, fa, 2, fb) == want_version &&
				   bs_combined_version(2, fb, 1, fa) == want_version, "%s", what);
			CHECK_STATUS_WHAT(bs_bloom_check_compatible(a, b, &err), want, &err, what);
			if (!versions_ok)
				CHECKF(strcmp(err.message, "bloomfilter format versions differ") == 0 &&
					   strstr(err.detail, "format version 1, the other 2") != NULL, "%s", what);
			else if (!families_ok)
				CHECKF(strcmp(err.message, "bloomfilter value families differ") == 0, "%s", what);
			CHECK_STATUS_WHAT(bs_bloom_check_compatible(b, a, &err), want, &err, what);
			if (!versions_ok)
				CHECKF(strcmp(err.message, "bloomfilter format versions differ") == 0 &&
					   strstr(err.detail, "format version 2, the other 1") != NULL, "%s", what);

			if (want == BS_OK)
			{
				bs_bloom   *u1 = clone_filter(a);
				bs_bloom   *u2 = clone_filter(b);
				bs_bloom   *i1 = clone_filter(a);
				bs_bloom   *i2 = clone_filter(b);
				bool		words_ok = true;

				bs_bloom_union_into(u1, b);
				bs_bloom_union_into(u2, a);
				bs_bloom_intersect_into(i1, b);
				bs_bloom_intersect_into(i2, a);
				for (uint64_t w = 0; w < words; w++)
					if (u1->words[w] != (a->words[w] | b->words[w]) ||
						i1->words[w] != (a->words[w] & b->words[w]))
						words_ok = false;
				CHECKF(words_ok, "%s", what);
				CHECKF(u1->version == want_version && u2->version == want_version &&
					   i1->version == want_version && i2->version == want_version,
					   "%s: versions %u %u %u %u, want %u", what, u1->version, u2->version,
					   i1->version, i2->version, want_version);
				CHECKF(u1->family == want_family && u2->family == want_family &&
					   i1->family == want_family && i2->family == want_family, "%s", what);
				/* the same result in either order */
				CHECKF(bs_bloom_compare(u1, u2) == 0 && bs_bloom_compare(i1, i2) == 0, "%s", what);
				/* a valid value, written with that version */
				CHECKF(serializes_as_version(u1, want_version), "%s: union", what);
				CHECKF(serializes_as_version(i1, want_version), "%s: intersection", what);
				free(u1);
				free(u2);
				free(i1);
				free(i2);
			}
			free(a);
			free(b);
		}

	/* the same version combines in every family, and keeps its version */
	for (uint8_t v = 1; v <= 2; v++)
		for (uint8_t fam = 1; fam <= BS_FAMILY_LAST; fam++)
		{
			bs_bloom   *a = versioned_filter(v, fam, 0, 3);
			bs_bloom   *b = versioned_filter(v, fam, 2, 3);
			char		what[64];

			snprintf(what, sizeof(what), "v%u %s twice", v, bs_family_name(fam));
			CHECK(bs_versions_combine(v, fam, v, fam));
			CHECK_STATUS_WHAT(bs_bloom_check_compatible(a, b, &err), BS_OK, &err, what);
			bs_bloom_union_into(a, b);
			CHECKF(a->version == v && a->family == fam && a->items == 6, "%s", what);
			bs_bloom_intersect_into(a, b);
			CHECKF(a->version == v && a->family == fam, "%s", what);
			free(a);
			free(b);
		}

	/* the cases by name */
	{
		bs_bloom   *a;
		bs_bloom   *b;
		char	   *text;

		/* v1 integer + v2 integer: combined, written as version 2 */
		a = versioned_filter(1, BS_FAMILY_INTEGER, 0, 3);
		b = versioned_filter(2, BS_FAMILY_INTEGER, 2, 3);
		CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_OK, &err);
		bs_bloom_union_into(a, b);
		CHECK(a->version == 2 && a->family == BS_FAMILY_INTEGER && a->items == 6);
		text = format_text(a);
		CHECK(strncmp(text, "bloom:v2:double:integer:", 24) == 0);
		free(text);
		/* and a version 2 result still combines with version 1 integers */
		b->version = 1;
		CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_OK, &err);
		bs_bloom_union_into(a, b);
		CHECK(a->version == 2 && a->items == 9);
		free(a);
		free(b);

		/* v1 text + v2 text, v1 other + v2 other (same tag): refused */
		a = versioned_filter(1, BS_FAMILY_TEXT, 0, 3);
		b = versioned_filter(2, BS_FAMILY_TEXT, 0, 3);
		CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
		CHECK(strcmp(err.message, "bloomfilter format versions differ") == 0);
		CHECK_STATUS(bs_bloom_check_compatible(b, a, &err), BS_ERR_MISMATCH, &err);
		CHECK(bs_bloom_check_compatible(a, b, NULL) == BS_ERR_MISMATCH);
		free(a);
		free(b);
		a = versioned_filter(1, BS_FAMILY_OTHER, 0, 3);
		b = versioned_filter(2, BS_FAMILY_OTHER, 0, 3);
		CHECK(a->type_tag == b->type_tag);
		CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
		CHECK(strcmp(err.message, "bloomfilter format versions differ") == 0);
		CHECK_STATUS(bs_bloom_check_compatible(b, a, &err), BS_ERR_MISMATCH, &err);
		free(a);
		free(b);

		/* v1 text + v2 empty: combined, and stays version 1 (either order) */
		a = versioned_filter(1, BS_FAMILY_TEXT, 0, 3);
		b = versioned_filter(2, BS_FAMILY_NONE, 0, 0);
		CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_OK, &err);
		CHECK_STATUS(bs_bloom_check_compatible(b, a, &err), BS_OK, &err);
		bs_bloom_union_into(b, a);
		CHECK(b->version == 1 && b->family == BS_FAMILY_TEXT && b->items == 3);
		CHECK(memcmp(b->words, a->words, 8 * words) == 0);
		text = format_text(b);
		CHECK(strncmp(text, "bloom:v1:double:text:", 21) == 0);
		free(text);
		/* being version 1 text, it no longer combines with version 2 text */
		{
			bs_bloom   *c = versioned_filter(2, BS_FAMILY_TEXT, 5, 3);

			CHECK_STATUS(bs_bloom_check_compatible(b, c, &err), BS_ERR_MISMATCH, &err);
			free(c);
		}
		free(b);
		b = versioned_filter(2, BS_FAMILY_NONE, 0, 0);
		bs_bloom_union_into(a, b);
		CHECK(a->version == 1 && a->family == BS_FAMILY_TEXT && a->items == 3);
		free(a);
		free(b);

		/* v1 empty + v2 text: combined, version 2 (either order) */
		a = versioned_filter(1, BS_FAMILY_NONE, 0, 0);
		b = versioned_filter(2, BS_FAMILY_TEXT, 0, 3);
		CHECK_STATUS(bs_bloom_check_compatible(a, b, &err), BS_OK, &err);
		CHECK_STATUS(bs_bloom_check_compatible(b, a, &err), BS_OK, &err);
		bs_bloom_union_into(a, b);
		CHECK(a->version == 2 && a->family == BS_FAMILY_TEXT && a->items == 3);
		free(a);
		a = versioned_filter(1, BS_FAMILY_NONE, 0, 0);
		bs_bloom_union_into(b, a);
		CHECK(b->version == 2 && b->family == BS_FAMILY_TEXT && b->items == 3);
		free(a);
		free(b);

		/* two empty filters: the newer version */
		a = versioned_filter(1, BS_FAMILY_NONE, 0, 0);
		b = versioned_filter(2, BS_FAMILY_NONE, 0, 0);
		bs_bloom_union_into(a, b);
		CHECK(a->version == 2 && a->family == BS_FAMILY_NONE);
		free(a);
		free(b);
	}
}

/* ------------------------------------------------------------------------ */
/* shape                                                                    */
/* ------------------------------------------------------------------------ */

void
test_shape(void)
{
	bs_error	err;
	bs_bloom   *f = new_filter(9587, 7, 1);
	uint64_t	total = bs_bloom_total_bytes(9587);

	CHECK(sizeof(bs_bloom) == 40);
	CHECK(offsetof(bs_bloom, words) == 40);
	CHECK(total == 40 + 8 * 150);
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_OK, &err);
	CHECK_STATUS(bs_bloom_check_shape(f, total - 8, &err), BS_ERR_FORMAT, &err);
	CHECK_STATUS(bs_bloom_check_shape(f, total + 8, &err), BS_ERR_FORMAT, &err);
	CHECK_STATUS(bs_bloom_check_shape(f, total - 1, &err), BS_ERR_FORMAT, &err);
	CHECK_STATUS(bs_bloom_check_shape(f, total + 1, &err), BS_ERR_FORMAT, &err);
	CHECK_STATUS(bs_bloom_check_shape(f, 0, &err), BS_ERR_FORMAT, &err);
	CHECK_STATUS(bs_bloom_check_shape(f, 40, &err), BS_ERR_FORMAT, &err);
	f->bits = 9601;				/* 151 words */
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_ERR_FORMAT, &err);
	f->bits = 9587;
	CHECK(f->version == 2);
	f->version = 1;				/* still read */
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_OK, &err);
	CHECK_STATUS(bs_bloom_check_shape(f, total - 8, &err), BS_ERR_FORMAT, &err);
	f->version = 0;
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_ERR_FORMAT, &err);
	f->version = 3;
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_ERR_FORMAT, &err);
	f->version = 255;
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_ERR_FORMAT, &err);
	f->version = 2;
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_OK, &err);
	f->scheme = 0;
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_ERR_FORMAT, &err);
	f->scheme = 1;
	f->family = 12;
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_ERR_FORMAT, &err);
	f->family = 0;
	f->hashes = 0;
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_ERR_FORMAT, &err);
	f->hashes = 1025;
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_ERR_FORMAT, &err);
	f->hashes = 7;
	f->bits = UINT64_MAX;
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_ERR_FORMAT, &err);
	f->bits = UINT64_MAX - 62;	/* the word count would wrap to 0 */
	CHECK_STATUS(bs_bloom_check_shape(f, 40, &err), BS_ERR_FORMAT, &err);
	f->bits = 0;
	CHECK_STATUS(bs_bloom_check_shape(f, 40, &err), BS_ERR_FORMAT, &err);
	f->bits = 9587;
	CHECK_STATUS(bs_bloom_check_shape(f, total, &err), BS_OK, &err);
	free(f);

	f = new_filter(3, 3, 0);
	CHECK_STATUS(bs_bloom_check_shape(f, bs_bloom_total_bytes(3), &err), BS_OK, &err);
	f->hashes = 4;
	CHECK_STATUS(bs_bloom_check_shape(f, bs_bloom_total_bytes(3), &err), BS_ERR_FORMAT, &err);
	free(f);
}
