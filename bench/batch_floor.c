/*
 * batch_floor.c — the core's batch loops on the keys and the filter bytes of
 * bench/batch.sh, without PostgreSQL: the floor its SQL timings are held to.
 *
 *   batch_floor N [FILTER_TEXT...] [-c SKETCH_TEXT]...
 *
 * (at least one filter or sketch)
 *
 * Reads each filter (and the sketch) in its text form, as psql prints it,
 * then times, per value, on the N keys 1..N as bigint hashes them (8-byte
 * little-endian): membership with bs_bloom_test_batch (keys laid end to end)
 * and bs_bloom_test_keys (a bs_key list, the SQL layer's path), adds with
 * bs_bloom_add_batch into an empty filter of the same shape, and for the
 * sketch bs_cms_estimate_keys and bs_cms_add_keys.  Each loop runs 5 times;
 * the median is printed as "floor <what> <ns per value>".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bloom/bs_batch.h"
#include "cms/bs_cms_batch.h"
#include "bloom/bs_bloom_codec.h"
#include "cms/bs_cms_codec.h"

#define REPEATS 5

static char *
read_file(const char *path, size_t *length)
{
	FILE	   *in = fopen(path, "rb");
	char	   *text;
	long		size;

	if (in == NULL || fseek(in, 0, SEEK_END) != 0 || (size = ftell(in)) < 0)
	{
		perror(path);
		exit(2);
	}
	rewind(in);
	text = malloc((size_t) size + 1);
	if (text == NULL || fread(text, 1, (size_t) size, in) != (size_t) size)
	{
		perror(path);
		exit(2);
	}
	fclose(in);
	while (size > 0 && (text[size - 1] == '\n' || text[size - 1] == '\r'))
		size--;
	text[size] = '\0';
	*length = (size_t) size;
	return text;
}

static void
fail(const char *what, const bs_error *err)
{
	fprintf(stderr, "%s: %s\n", what, err->message);
	exit(2);
}

static bs_bloom *
load_filter(const char *path)
{
	size_t		length;
	char	   *text = read_file(path, &length);
	bs_bloom_params params;
	size_t		offset;
	bs_error	err;
	bs_bloom   *filter;

	if (bs_bloom_parse_text_header(text, length, &params, &offset, &err) != BS_OK)
		fail(path, &err);
	filter = calloc(1, bs_bloom_total_bytes(params.bits));
	if (filter == NULL ||
		bs_bloom_load_text(filter, &params, text + offset, length - offset, &err) != BS_OK)
		fail(path, &err);
	free(text);
	return filter;
}

static bs_cms *
load_sketch(const char *path)
{
	size_t		length;
	char	   *text = read_file(path, &length);
	bs_cms_params params;
	size_t		offset;
	bs_error	err;
	bs_cms	   *cms;

	if (bs_cms_parse_text_header(text, length, &params, &offset, &err) != BS_OK)
		fail(path, &err);
	cms = calloc(1, bs_cms_params_total_bytes(&params));
	if (cms == NULL || bs_cms_load_text(cms, &params, text + offset, length - offset, &err) != BS_OK)
		fail(path, &err);
	free(text);
	return cms;
}

static double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int
compare_doubles(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

/* The median of REPEATS runs of one loop, in ns per value. */
#define TIME_LOOP(name, n, setup, body) \
	do { \
		double		runs[REPEATS]; \
		for (int r = 0; r < REPEATS; r++) \
		{ \
			double		start; \
			setup; \
			start = now_ns(); \
			body; \
			runs[r] = (now_ns() - start) / (double) (n); \
		} \
		qsort(runs, REPEATS, sizeof(double), compare_doubles); \
		printf("floor %s %.2f\n", name, runs[REPEATS / 2]); \
	} while (0)

static void
time_filter(const char *path, const uint8_t *keys, const bs_key *list, size_t n, bool *maybe)
{
	bs_bloom   *filter = load_filter(path);
	size_t		bytes = bs_bloom_total_bytes(filter->bits);
	bs_bloom   *empty = malloc(bytes);
	const char *scheme = bs_scheme_name(filter->scheme);
	char		name[64];
	bs_probe	probe;
	size_t		hits = 0;

	bs_probe_for(&probe, filter);
	snprintf(name, sizeof(name), "%s_test_batch", scheme);
	TIME_LOOP(name, n, (void) 0, hits = bs_bloom_test_batch(filter, &probe, keys, 8, n, maybe));
	printf("members %s %zu\n", scheme, hits);
	snprintf(name, sizeof(name), "%s_test_keys", scheme);
	TIME_LOOP(name, n, (void) 0, hits = bs_bloom_test_keys(filter, &probe, list, n, maybe));
	snprintf(name, sizeof(name), "%s_add_batch", scheme);
	TIME_LOOP(name, n, (memset(empty, 0, bytes),
						bs_bloom_init_scheme(empty, filter->scheme, filter->bits,
											 filter->hashes, filter->seed)),
			  bs_bloom_add_batch(empty, &probe, keys, 8, n));
	free(filter);
	free(empty);
}

static void
time_sketch(const char *path, const bs_key *list, size_t n)
{
	bs_cms	   *cms = load_sketch(path);
	uint64_t	bytes = bs_cms_counter_count(cms) * 8 + sizeof(bs_cms);
	bs_cms	   *empty = malloc(bytes);
	uint64_t   *estimates = malloc(n * sizeof(uint64_t));
	bs_cms_probe probe;

	bs_cms_probe_init(&probe, cms->width, cms->depth, cms->copies, cms->seed);
	TIME_LOOP("cms_estimate_keys", n, (void) 0, bs_cms_estimate_keys(cms, &probe, list, n, estimates));
	TIME_LOOP("cms_add_keys", n, (memset(empty, 0, bytes),
								  bs_cms_init(empty, cms->width, cms->depth, cms->copies, cms->seed)),
			  (void) bs_cms_add_keys(empty, &probe, list, n, 1));
	free(cms);
	free(empty);
	free(estimates);
}

int
main(int argc, char **argv)
{
	size_t		n;
	uint8_t    *keys;
	bs_key	   *list;
	bool	   *maybe;

	if (argc < 3)
	{
		fprintf(stderr, "usage: batch_floor N FILTER_TEXT... [-c SKETCH_TEXT]\n");
		return 2;
	}
	n = strtoull(argv[1], NULL, 10);
	keys = malloc(n * 8);
	list = malloc(n * sizeof(bs_key));
	maybe = malloc(n);
	for (size_t j = 0; j < n; j++)
	{
		uint64_t	v = j + 1;

		for (int b = 0; b < 8; b++)
			keys[8 * j + b] = (uint8_t) (v >> (8 * b));	/* little-endian, as bigint hashes */
		list[j].data = keys + 8 * j;
		list[j].length = 8;
	}
	for (int a = 2; a < argc; a++)
	{
		if (strcmp(argv[a], "-c") == 0 && a + 1 < argc)
			time_sketch(argv[++a], list, n);
		else
			time_filter(argv[a], keys, list, n, maybe);
	}
	free(keys);
	free(list);
	free(maybe);
	return 0;
}
