/*
 * test_vectors.c — the C core against the test vectors of docs/vectors/:
 * every value's positions under every probing scheme and shape, every
 * sketch column, and the exact bytes and text of whole filters and sketches
 * built from the vectors' canonical bytes (and read back through the
 * validator).  docs/format.md specifies what the vectors hold; the server's
 * canonical bytes are checked against them by
 * test/regress/sql/format_vectors.sql.
 *
 *   ./test_vectors [directory of the .tsv files, default ../../docs/vectors]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bloom/bs_bloom.h"
#include "bloom/bs_probe.h"
#include "bloom/bs_bloom_codec.h"
#include "cms/bs_cms.h"
#include "cms/bs_cms_probe.h"
#include "cms/bs_cms_codec.h"
#include "common/bs_codec_util.h"

#define MAX_FIELDS 10
#define MAX_VALUES 256

typedef struct vector_value
{
	char		id[64];
	uint8_t		family;
	uint32_t	tag;
	uint8_t    *bytes;
	size_t		length;
} vector_value;

static vector_value values[MAX_VALUES];
static int	value_count;
static int	checked;
static int	failed;

static void
fail(const char *file, const char *id, const char *what)
{
	failed++;
	if (failed <= 20)
		fprintf(stderr, "FAILED %s %s: %s\n", file, id, what);
}

/* Split a line at tabs (in place); returns the number of fields. */
static int
split(char *line, char **field)
{
	int			n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	field[n++] = line;
	for (char *p = line; *p && n < MAX_FIELDS; p++)
		if (*p == '\t')
		{
			*p = '\0';
			field[n++] = p + 1;
		}
	return n;
}

static FILE *
open_vectors(const char *dir, const char *name)
{
	char		path[1024];
	FILE	   *f;
	char		header[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (f == NULL)
	{
		perror(path);
		exit(2);
	}
	if (fgets(header, sizeof(header), f) == NULL)	/* the column names */
		exit(2);
	return f;
}

static uint8_t *
from_hex(const char *hex, size_t *length)
{
	size_t		n = strlen(hex) / 2;
	uint8_t    *out = malloc(n + 1);

	for (size_t i = 0; i < n; i++)
	{
		unsigned	byte;

		sscanf(hex + 2 * i, "%2x", &byte);
		out[i] = (uint8_t) byte;
	}
	*length = n;
	return out;
}

static char *
to_hex(const uint8_t *bytes, size_t length)
{
	char	   *out = malloc(2 * length + 1);

	for (size_t i = 0; i < length; i++)
		sprintf(out + 2 * i, "%02x", bytes[i]);
	out[2 * length] = '\0';
	return out;
}

static const vector_value *
find_value(const char *id)
{
	for (int i = 0; i < value_count; i++)
		if (strcmp(values[i].id, id) == 0)
			return &values[i];
	fprintf(stderr, "unknown value id %s\n", id);
	exit(2);
}

static uint64_t
parse_u64(const char *s)
{
	return strtoull(s, NULL, 10);
}

/* A seed as the vectors write it: a signed 64-bit number. */
static uint64_t
parse_seed(const char *s)
{
	return (uint64_t) strtoll(s, NULL, 10);
}

static void
load_values(const char *dir)
{
	FILE	   *f = open_vectors(dir, "values.tsv");
	char		line[8192];

	while (fgets(line, sizeof(line), f))
	{
		char	   *field[MAX_FIELDS];
		vector_value *v = &values[value_count];

		if (split(line, field) < 6 || value_count == MAX_VALUES)
			exit(2);
		snprintf(v->id, sizeof(v->id), "%s", field[0]);
		if (!bs_parse_family_token(field[4], strlen(field[4]), &v->family, &v->tag))
			fail("values.tsv", v->id, "unknown family token");
		v->bytes = from_hex(field[5], &v->length);
		value_count++;
	}
	fclose(f);
}

/* A list of comma-separated numbers against the expected text. */
static bool
same_list(const uint64_t *got, uint64_t count, const char *expected)
{
	char		buffer[65536];
	size_t		used = 0;

	buffer[0] = '\0';
	for (uint64_t i = 0; i < count && used < sizeof(buffer) - 32; i++)
		used += (size_t) snprintf(buffer + used, sizeof(buffer) - used, "%s%" PRIu64,
								  i ? "," : "", got[i]);
	return strcmp(buffer, expected) == 0;
}

static void
check_positions(const char *dir)
{
	FILE	   *f = open_vectors(dir, "bloom_positions.tsv");
	char		line[65536];

	while (fgets(line, sizeof(line), f))
	{
		char	   *field[MAX_FIELDS];
		const vector_value *v;
		uint8_t		scheme;
		bs_probe	probe;
		uint64_t	positions[BS_BLOOM_MAX_HASHES];
		uint64_t	m;
		uint32_t	k;

		if (split(line, field) < 6 || !bs_scheme_parse(field[1], &scheme))
			exit(2);
		v = find_value(field[0]);
		m = parse_u64(field[2]);
		k = (uint32_t) parse_u64(field[3]);
		bs_probe_init_scheme(&probe, (bs_scheme) scheme, m, k, parse_seed(field[4]));
		bs_bloom_positions(&probe, v->bytes, v->length, positions);
		checked++;
		if (!same_list(positions, k, field[5]))
			fail("bloom_positions.tsv", field[0], field[1]);
	}
	fclose(f);
}

static void
check_filters(const char *dir)
{
	FILE	   *f = open_vectors(dir, "bloom_filters.tsv");
	char		line[65536];

	while (fgets(line, sizeof(line), f))
	{
		char	   *field[MAX_FIELDS];
		uint8_t		scheme;
		uint64_t	m;
		uint32_t	k;
		bs_bloom   *filter;
		bs_bloom   *back;
		bs_probe	probe;
		uint8_t    *serial;
		char	   *hex;
		char	   *text;
		char	   *ids;
		bs_bloom_params params;
		size_t		payload;
		bs_error	err;

		if (split(line, field) < 8 || !bs_scheme_parse(field[1], &scheme))
			exit(2);
		m = parse_u64(field[2]);
		k = (uint32_t) parse_u64(field[3]);
		filter = calloc(1, bs_bloom_total_bytes(m));
		back = calloc(1, bs_bloom_total_bytes(m));
		bs_bloom_init_scheme(filter, (bs_scheme) scheme, m, k, parse_seed(field[4]));
		bs_probe_for(&probe, filter);
		ids = strdup(field[5]);
		for (char *id = strtok(ids, ","); id; id = strtok(NULL, ","))
		{
			const vector_value *v = find_value(id);

			filter->family = v->family;	/* the SQL layer's part */
			filter->type_tag = v->tag;
			bs_bloom_add(filter, &probe, v->bytes, v->length);
		}
		serial = malloc(bs_bloom_serial_bytes(m));
		bs_bloom_serialize(filter, serial);
		hex = to_hex(serial, bs_bloom_serial_bytes(m));
		checked++;
		if (strcmp(hex, field[6]) != 0)
			fail("bloom_filters.tsv", field[0], "serialized bytes differ");
		text = malloc(bs_bloom_text_length(filter) + 1);
		bs_bloom_format_text(filter, text);
		checked++;
		if (strcmp(text, field[7]) != 0)
			fail("bloom_filters.tsv", field[0], "text form differs");

		/* and both forms read back through the validator */
		checked++;
		if (bs_bloom_parse_text_header(field[7], strlen(field[7]), &params, &payload, &err) != BS_OK ||
			bs_bloom_load_text(back, &params, field[7] + payload, strlen(field[7]) - payload, &err) != BS_OK ||
			bs_bloom_compare(back, filter) != 0)
			fail("bloom_filters.tsv", field[0], "text form does not read back");
		checked++;
		if (bs_bloom_decode_header(serial, bs_bloom_serial_bytes(m), &params, &err) != BS_OK ||
			bs_bloom_load_serialized(back, &params, serial, &err) != BS_OK ||
			bs_bloom_compare(back, filter) != 0)
			fail("bloom_filters.tsv", field[0], "binary form does not read back");
		free(filter);
		free(back);
		free(serial);
		free(hex);
		free(text);
		free(ids);
	}
	fclose(f);
}

/*
 * bloom_items.tsv: filters whose item count is near the top read back with
 * that count, up to the saturated 2^64 - 1, and write the same text (the
 * items_added column, capped for SQL's bigint, is the server's business).
 */
static void
check_item_counts(const char *dir)
{
	FILE	   *f = open_vectors(dir, "bloom_items.tsv");
	char		line[4096];

	while (fgets(line, sizeof(line), f))
	{
		char	   *field[MAX_FIELDS];
		bs_bloom_params params;
		size_t		payload;
		bs_error	err;
		bs_bloom   *filter;
		char	   *text;

		if (split(line, field) < 4)
			exit(2);
		checked++;
		if (bs_bloom_parse_text_header(field[3], strlen(field[3]), &params, &payload, &err) != BS_OK)
		{
			fail("bloom_items.tsv", field[0], "text form does not read");
			continue;
		}
		filter = calloc(1, bs_bloom_total_bytes(params.bits));
		checked++;
		if (bs_bloom_load_text(filter, &params, field[3] + payload, strlen(field[3]) - payload,
							   &err) != BS_OK || filter->items != parse_u64(field[1]))
			fail("bloom_items.tsv", field[0], "item count differs");
		text = malloc(bs_bloom_text_length(filter) + 1);
		bs_bloom_format_text(filter, text);
		checked++;
		if (strcmp(text, field[3]) != 0)
			fail("bloom_items.tsv", field[0], "text form differs");
		free(text);
		free(filter);
	}
	fclose(f);
}

static void
check_columns(const char *dir)
{
	FILE	   *f = open_vectors(dir, "cms_columns.tsv");
	char		line[65536];

	while (fgets(line, sizeof(line), f))
	{
		char	   *field[MAX_FIELDS];
		const vector_value *v;
		bs_cms_probe probe;
		uint32_t	w,
					d,
					copies;
		uint64_t   *columns;

		if (split(line, field) < 6)
			exit(2);
		v = find_value(field[0]);
		w = (uint32_t) parse_u64(field[1]);
		d = (uint32_t) parse_u64(field[2]);
		copies = (uint32_t) parse_u64(field[3]);
		columns = malloc(sizeof(uint64_t) * d * copies);
		bs_cms_probe_init(&probe, w, d, copies, parse_seed(field[4]));
		bs_cms_positions(&probe, v->bytes, v->length, columns);
		checked++;
		if (!same_list(columns, (uint64_t) d * copies, field[5]))
			fail("cms_columns.tsv", field[0], field[1]);
		free(columns);
	}
	fclose(f);
}

static void
check_sketches(const char *dir)
{
	FILE	   *f = open_vectors(dir, "cms_sketches.tsv");
	char		line[65536];

	while (fgets(line, sizeof(line), f))
	{
		char	   *field[MAX_FIELDS];
		uint32_t	w,
					d,
					copies;
		uint64_t	bytes;
		bs_cms	   *cms;
		bs_cms	   *back;
		bs_cms_probe probe;
		bs_cms_params params;
		bs_error	err;
		uint8_t    *serial;
		char	   *hex;
		char	   *text;
		char	   *adds;
		size_t		payload;

		if (split(line, field) < 8)
			exit(2);
		w = (uint32_t) parse_u64(field[1]);
		d = (uint32_t) parse_u64(field[2]);
		copies = (uint32_t) parse_u64(field[3]);
		if (bs_cms_total_bytes(w, d, copies, &bytes, &err) != BS_OK)
			exit(2);
		cms = calloc(1, bytes);
		back = calloc(1, bytes);
		bs_cms_init(cms, w, d, copies, parse_seed(field[4]));
		bs_cms_probe_init(&probe, w, d, copies, cms->seed);
		adds = strdup(field[5]);
		for (char *add = strtok(adds, ","); add; add = strtok(NULL, ","))
		{
			char	   *star = strchr(add, '*');
			const vector_value *v;

			*star = '\0';
			v = find_value(add);
			cms->family = v->family;
			cms->type_tag = v->tag;
			if (bs_cms_add(cms, &probe, v->bytes, v->length, strtoll(star + 1, NULL, 10), &err) != BS_OK)
				fail("cms_sketches.tsv", field[0], "add failed");
		}
		bs_cms_get_params(cms, &params);
		serial = malloc(bs_cms_serial_bytes(&params));
		bs_cms_serialize(cms, serial);
		hex = to_hex(serial, bs_cms_serial_bytes(&params));
		checked++;
		if (strcmp(hex, field[6]) != 0)
			fail("cms_sketches.tsv", field[0], "serialized bytes differ");
		text = malloc(bs_cms_text_length(cms) + 1);
		bs_cms_format_text(cms, text);
		checked++;
		if (strcmp(text, field[7]) != 0)
			fail("cms_sketches.tsv", field[0], "text form differs");
		checked++;
		if (bs_cms_parse_text_header(field[7], strlen(field[7]), &params, &payload, &err) != BS_OK ||
			bs_cms_load_text(back, &params, field[7] + payload, strlen(field[7]) - payload, &err) != BS_OK ||
			bs_cms_compare(back, cms) != 0)
			fail("cms_sketches.tsv", field[0], "text form does not read back");
		checked++;
		if (bs_cms_decode_header(serial, bs_cms_serial_bytes(&params), &params, &err) != BS_OK ||
			bs_cms_load_serialized(back, &params, serial, &err) != BS_OK ||
			bs_cms_compare(back, cms) != 0)
			fail("cms_sketches.tsv", field[0], "binary form does not read back");
		free(cms);
		free(back);
		free(serial);
		free(hex);
		free(text);
		free(adds);
	}
	fclose(f);
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "../../docs/vectors";

	load_values(dir);
	check_positions(dir);
	check_filters(dir);
	check_item_counts(dir);
	check_columns(dir);
	check_sketches(dir);
	printf("test vectors: %d checks, %d failed (%d values)\n", checked, failed, value_count);
	return failed == 0 ? 0 : 1;
}
