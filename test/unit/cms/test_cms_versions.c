/*
 * test_cms_versions.c — unit tests of count-min sketches of format versions
 * 1 and 2 together: reading, writing, combining and refusing across them.
 */
#include "test_cms.h"

/* ---- format versions 1 and 2 combined ---- */

/* A w = 13, d = 3, 2-copy sketch of the given version counting `count` keys as `family` (none: empty). */
static bs_cms *
versioned_sketch(uint8_t version, uint8_t family, uint64_t first, uint64_t count)
{
	bs_cms	   *cms = new_sketch(13, 3, 2, 9);

	for (uint64_t i = first; i < first + count; i++)
		add_key(cms, i, (int64_t) (i + 1));
	cms->family = family;
	cms->type_tag = family == BS_FAMILY_OTHER ? 0x1234 : 0;
	cms->version = version;
	return cms;
}

/* The sketch's serialized form reads back, with its version in byte 0. */
static bool
cms_serializes_as_version(const bs_cms *cms, uint8_t version)
{
	bs_cms_params p;
	uint8_t    *buf;
	bs_cms	   *back = NULL;
	bool		ok;

	bs_cms_get_params(cms, &p);
	buf = xcalloc((size_t) bs_cms_serial_bytes(&p));
	bs_cms_serialize(cms, buf);
	ok = buf[0] == version && decode_bytes(buf, (size_t) bs_cms_serial_bytes(&p), &back, NULL) == BS_OK &&
		back != NULL && back->version == version &&
		memcmp(back, cms, (size_t) bytes_of(cms)) == 0;
	free(back);
	free(buf);
	return ok;
}

void
test_versions(void)
{
	bs_error	err;
	uint64_t	product;

	/*
	 * Every pair of families, version 1 (fa) against version 2 (fb), in both
	 * orders: combinable when either is empty or the older (version 1)
	 * side's family hashes alike in both, and the families agree; the
	 * result has the version of the side with values, else 2.
	 */
	for (uint8_t fa = 0; fa <= BS_FAMILY_LAST; fa++)
		for (uint8_t fb = 0; fb <= BS_FAMILY_LAST; fb++)
		{
			bs_cms	   *a = versioned_sketch(1, fa, 0, fa != BS_FAMILY_NONE ? 4 : 0);
			bs_cms	   *b = versioned_sketch(2, fb, 2, fb != BS_FAMILY_NONE ? 4 : 0);
			bool		versions_ok = fa == BS_FAMILY_NONE || fb == BS_FAMILY_NONE ||
				(fa != BS_FAMILY_TEXT && fa != BS_FAMILY_OTHER);
			bool		families_ok = fa == BS_FAMILY_NONE || fb == BS_FAMILY_NONE || fa == fb;
			bs_status	want = versions_ok && families_ok ? BS_OK : BS_ERR_MISMATCH;
			uint8_t		want_version = fa != BS_FAMILY_NONE && fb == BS_FAMILY_NONE ? 1 : 2;
			uint8_t		want_family = fa != BS_FAMILY_NONE ? fa : fb;
			char		what[64];

			snprintf(what, sizeof(what), "v1 %s, v2 %s", bs_family_name(fa), bs_family_name(fb));
			CHECK(validates(a) && validates(b));
			CHECK_STATUS_WHAT(bs_cms_check_compatible(a, b, &err), want, &err, what);
			if (!versions_ok)
				CHECK(strcmp(err.message, "cmsketch format versions differ") == 0 &&
					  strstr(err.detail, "format version 1, the other 2") != NULL);
			else if (!families_ok)
				CHECK(strcmp(err.message, "cmsketch value families differ") == 0);
			CHECK_STATUS_WHAT(bs_cms_check_compatible(b, a, &err), want, &err, what);
			if (!versions_ok)
				CHECK(strcmp(err.message, "cmsketch format versions differ") == 0 &&
					  strstr(err.detail, "format version 2, the other 1") != NULL);

			if (want != BS_OK)
			{
				bs_cms	   *before = clone_sketch(a);

				/* merge, intersection and inner product all refuse, leaving a as it was */
				CHECK_STATUS_WHAT(bs_cms_merge_into(a, b, &err), BS_ERR_MISMATCH, &err, what);
				CHECK_STATUS_WHAT(bs_cms_intersect_into(a, b, &err), BS_ERR_MISMATCH, &err, what);
				CHECK_STATUS_WHAT(bs_cms_inner_product(a, b, &product, &err), BS_ERR_MISMATCH, &err, what);
				CHECK_STATUS_WHAT(bs_cms_merge_into(b, a, &err), BS_ERR_MISMATCH, &err, what);
				CHECK(memcmp(before, a, (size_t) bytes_of(a)) == 0);
				free(before);
			}
			else
			{
				bs_cms	   *m1 = clone_sketch(a);
				bs_cms	   *m2 = clone_sketch(b);
				bs_cms	   *i1 = clone_sketch(a);
				bs_cms	   *i2 = clone_sketch(b);
				bool		counters_ok = true;

				CHECK_STATUS_WHAT(bs_cms_merge_into(m1, b, &err), BS_OK, &err, what);
				CHECK_STATUS_WHAT(bs_cms_merge_into(m2, a, &err), BS_OK, &err, what);
				CHECK_STATUS_WHAT(bs_cms_intersect_into(i1, b, &err), BS_OK, &err, what);
				CHECK_STATUS_WHAT(bs_cms_intersect_into(i2, a, &err), BS_OK, &err, what);
				CHECK_STATUS_WHAT(bs_cms_inner_product(a, b, &product, &err), BS_OK, &err, what);
				for (uint64_t k = 0; k < bs_cms_counter_count(a); k++)
					if (m1->counters[k] != a->counters[k] + b->counters[k] ||
						i1->counters[k] != (a->counters[k] < b->counters[k] ? a->counters[k] : b->counters[k]))
						counters_ok = false;
				CHECK(counters_ok);
				CHECK(m1->total == a->total + b->total);
				CHECK(m1->version == want_version && m2->version == want_version &&
					  i1->version == want_version && i2->version == want_version);
				CHECK(m1->family == want_family && m2->family == want_family &&
					  i1->family == want_family && i2->family == want_family);
				/* the same result in either order */
				CHECK(bs_cms_compare(m1, m2) == 0 && bs_cms_compare(i1, i2) == 0);
				/* a valid value, written with that version */
				CHECK(cms_serializes_as_version(m1, want_version));
				CHECK(cms_serializes_as_version(i1, want_version));
				free(m1);
				free(m2);
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
			bs_cms	   *a = versioned_sketch(v, fam, 0, 4);
			bs_cms	   *b = versioned_sketch(v, fam, 2, 4);

			CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_OK, &err);
			CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
			CHECK(a->version == v && a->family == fam);
			CHECK_STATUS(bs_cms_intersect_into(a, b, &err), BS_OK, &err);
			CHECK(a->version == v && a->family == fam);
			free(a);
			free(b);
		}

	/* the cases by name */
	{
		bs_cms	   *a;
		bs_cms	   *b;
		char	   *text;

		/* v1 integer + v2 integer: merged, written as version 2 */
		a = versioned_sketch(1, BS_FAMILY_INTEGER, 0, 4);
		b = versioned_sketch(2, BS_FAMILY_INTEGER, 2, 4);
		CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_OK, &err);
		CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
		CHECK(a->version == 2 && a->family == BS_FAMILY_INTEGER && validates(a));
		CHECK(estimate_key(a, 2) >= 6 && estimate_key(a, 0) >= 1);
		text = to_text(a);
		CHECK(strncmp(text, "cms:v2:integer:", 15) == 0);
		free(text);
		free(a);
		free(b);

		/* v1 text + v2 text, v1 other + v2 other (same tag): refused */
		a = versioned_sketch(1, BS_FAMILY_TEXT, 0, 4);
		b = versioned_sketch(2, BS_FAMILY_TEXT, 0, 4);
		CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
		CHECK(strcmp(err.message, "cmsketch format versions differ") == 0);
		CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_ERR_MISMATCH, &err);
		CHECK_STATUS(bs_cms_merge_into(b, a, &err), BS_ERR_MISMATCH, &err);
		CHECK(bs_cms_check_compatible(a, b, NULL) == BS_ERR_MISMATCH);
		free(a);
		free(b);
		a = versioned_sketch(1, BS_FAMILY_OTHER, 0, 4);
		b = versioned_sketch(2, BS_FAMILY_OTHER, 0, 4);
		CHECK(a->type_tag == b->type_tag);
		CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_ERR_MISMATCH, &err);
		CHECK(strcmp(err.message, "cmsketch format versions differ") == 0);
		CHECK_STATUS(bs_cms_merge_into(b, a, &err), BS_ERR_MISMATCH, &err);
		free(a);
		free(b);

		/* v1 text + v2 empty: merged, and stays version 1 (either order) */
		a = versioned_sketch(1, BS_FAMILY_TEXT, 0, 4);
		b = versioned_sketch(2, BS_FAMILY_NONE, 0, 0);
		CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_OK, &err);
		CHECK_STATUS(bs_cms_merge_into(b, a, &err), BS_OK, &err);
		CHECK(b->version == 1 && b->family == BS_FAMILY_TEXT && memcmp(a, b, (size_t) bytes_of(a)) == 0);
		text = to_text(b);
		CHECK(strncmp(text, "cms:v1:text:", 12) == 0);
		free(text);
		/* being version 1 text, it no longer merges with version 2 text */
		{
			bs_cms	   *c = versioned_sketch(2, BS_FAMILY_TEXT, 5, 4);

			CHECK_STATUS(bs_cms_merge_into(b, c, &err), BS_ERR_MISMATCH, &err);
			free(c);
		}
		free(b);
		b = versioned_sketch(2, BS_FAMILY_NONE, 0, 0);
		CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
		CHECK(a->version == 1 && a->family == BS_FAMILY_TEXT);
		free(a);
		free(b);

		/* v1 empty + v2 text: merged, version 2 (either order) */
		a = versioned_sketch(1, BS_FAMILY_NONE, 0, 0);
		b = versioned_sketch(2, BS_FAMILY_TEXT, 0, 4);
		CHECK_STATUS(bs_cms_check_compatible(a, b, &err), BS_OK, &err);
		CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
		CHECK(a->version == 2 && a->family == BS_FAMILY_TEXT && memcmp(a, b, (size_t) bytes_of(a)) == 0);
		free(a);
		a = versioned_sketch(1, BS_FAMILY_NONE, 0, 0);
		CHECK_STATUS(bs_cms_merge_into(b, a, &err), BS_OK, &err);
		CHECK(b->version == 2 && b->family == BS_FAMILY_TEXT);
		free(a);
		free(b);

		/* two empty sketches: the newer version */
		a = versioned_sketch(1, BS_FAMILY_NONE, 0, 0);
		b = versioned_sketch(2, BS_FAMILY_NONE, 0, 0);
		CHECK_STATUS(bs_cms_merge_into(a, b, &err), BS_OK, &err);
		CHECK(a->version == 2 && a->family == BS_FAMILY_NONE);
		free(a);
		free(b);
	}
}
