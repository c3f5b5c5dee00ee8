/*
 * core_throughput.c — insert and query throughput of every probing scheme on
 * the pure C core, against the floor the hardware sets for the same work.
 *
 * For n = 10^6, 10^7 and 10^8 items at fpr 0.01 (bs_bloom_size_scheme: about
 * 1.2 MB, 12 MB and 120 MB of bits: about L2, meant to be inside L3, far
 * beyond it), with 8-byte keys and with 32-character strings, it times in ns
 * per operation:
 *
 *   insert            one value at a time: bs_probe_locate + bs_probe_set and
 *                     items++ (bs_bloom_add for the independent scheme), the
 *                     steps of the server's unpipelined path;
 *   pipelined insert  bloom_agg's pipeline (src/pg/bloomfilter_agg.c): locate
 *                     a value, count it, bs_probe_prefetch its lines, set the
 *                     bits of the value located PIPELINE_DEPTH = 16 values
 *                     earlier (a ring of 16; the rest set at the end, timed);
 *   query             bs_probe_locate + bs_probe_test, one at a time, on
 *                     members (drawn from the inserted keys) and non-members
 *                     (never inserted) in random order, half and half.
 *
 * The floor, next to each in the same binary: a bare loop over keys of the
 * same kind that calls the same XXH3_128bits_withSeed (bs_hash128) with the same seed,
 * maps h1 and h2 with the same multiply-shift (without the rejection test,
 * which in practice never fires), walks the same k positions with the same
 * arithmetic and ORs (insert) or tests (query) the same words.  The shape
 * (m, k, ...) is in locals, the scheme fixed at compile time (one loop per
 * scheme: no dispatch), no item count, no function call but the hash.  At
 * start-up the floor's positions are checked against bs_bloom_positions, so
 * "the same words" is verified, not assumed.  Per scheme the walk is:
 *   double               p = a; then p += b, p -= m if p >= m (a + i b mod m);
 *   double_square/cube   the same plus 2i + 1 or 3i^2 + 3i + 1 (both < m);
 *   partition            i m' plus the offset a + i b mod m';
 *   blocked              block a, the bits 9-bit chunks of h2 (remixed past
 *                        the seventh, as bs_probe.h does);
 *   independent          k XXH3_64bits_withSeed calls, multiply-shift each.
 * The floor's query stops at the first clear bit, as any query does.  The
 * pipelined floor has the same ring of 16 and prefetches the lines of all k
 * positions of every scheme (blocked: the block's first and last word, i.e.
 * every line it spans); the library prefetches for double and blocked only.
 * "Hash alone" is that call (bs_hash128) by itself.
 *
 * Timing.  The machine may be shared, so the library and its floor run
 * paired: a run is CHUNKS chunks of CHUNK keys for each, interleaved chunk by
 * chunk (the library on the even chunks of keys, the floor on the odd ones,
 * so that neither finds the other's lines in the cache; which goes first
 * alternates from run to run), each chunk timed on its own, its keys made
 * untimed just before.  A run's figure is the median over its chunks (a chunk
 * during which the process was descheduled does not count); a table figure is
 * the median of RUNS runs after WARMUP; × is the ratio of the two medians.
 * "Disturbance" at the end says how far a run's mean over its chunks exceeds
 * its median: large values mean other processes were taking the CPUs.
 *
 * Keys: 8-byte keys are the integers 1, 2, ...; strings are 32 hex digits of
 * a 128-bit mix of the index (like md5(id)).  Inserts write the same 2 OPS
 * keys in every run (OPS each side); before the queries the filter is topped
 * up with random bits to the fill that n items leave, 1 - e^(-kn/m) (10^8
 * real inserts per row would take minutes), so that non-members exit early
 * as often as in a full filter: the FP column, the measured false-positive
 * rate of the queries, should be near 0.01.
 *
 * Memory.  A filter is allocated as the server does its state (madvise
 * MADV_HUGEPAGE, zeroed) with the bs_bloom header on a 64-byte boundary, so
 * the words start 40 bytes into a line and a blocked filter's 64-byte blocks
 * straddle two lines; rows "..., aligned words" shift the header by 24 bytes
 * so that each block is one line.  The line "Memory under each size" gives
 * the latency of a random read at that size and its cost when many overlap:
 * what the hardware allows, to read the filters' figures against.
 *
 * Rows "..., prefetch kept" use bench/probe_variants.h, a prototype of a
 * change to bs_probe.h (see bench/README.md) measured in the same loops.
 *
 * The second target (blocked at n = 10^8 at most half double's time) is
 * measured on its own with the two filters side by side in the same passes,
 * on the same keys, their words on a cache line: the library one at a time
 * (insert, query) and pipelined (insert, and queries pipelined the same way)
 * with rings of 8, 16, 32 and 64 values; the targets compare each scheme at
 * its fastest ring.
 *
 * Output: markdown on stdout, to paste into bench/README.md; progress on stderr.
 * About 2 minutes (n = 10^8 dominates).
 * Usage: core_throughput [-w 8|32] [-n 6|7|8] [-s scheme]  (a subset, e.g. to
 * profile); CT_DEBUG=1 in the environment prints every run's figures.
 *
 * This file holds the options, what is measured in which order, and the
 * layout of the report; the loops timed are in core_throughput_lib.c (the
 * library) and core_throughput_floor.c (the floor), the measuring in
 * core_throughput_measure.c, the report's pieces in core_throughput_report.c.
 */
#include "core_throughput.h"
#include "probe_variants.h"		/* PV_VARIANT_NAME */

/* What to run (options narrow it down, for profiling). */
typedef struct Options
{
	int			width;			/* 0: both */
	int			exponent;		/* 0: 6, 7 and 8 */
	int			scheme;			/* 0: all */
} Options;

static void
usage(void)
{
	fprintf(stderr,
			"usage: core_throughput [-w 8|32] [-n 6|7|8] [-s scheme]\n"
			"  without options: both key widths, n = 10^6, 10^7, 10^8, every scheme\n");
	exit(2);
}

static void
parse_options(int argc, char **argv, Options *options)
{
	memset(options, 0, sizeof(*options));
	for (int i = 1; i < argc; i++)
	{
		if (i + 1 >= argc)
			usage();
		if (strcmp(argv[i], "-w") == 0)
			options->width = atoi(argv[++i]);
		else if (strcmp(argv[i], "-n") == 0)
			options->exponent = atoi(argv[++i]);
		else if (strcmp(argv[i], "-s") == 0)
		{
			uint8_t		code;

			if (!bs_scheme_parse(argv[++i], &code))
				usage();
			options->scheme = code;
		}
		else
			usage();
	}
	if ((options->width != 0 && options->width != 8 && options->width != 32) ||
		(options->exponent != 0 && (options->exponent < 6 || options->exponent > 8)))
		usage();
}

#define MAX_ROWS 64

/* Add a row for the scheme at size n, sized by bs_bloom_size_scheme. */
static Row *
new_row(Row *rows, int *count, uint8_t scheme, int64_t n, const char *label)
{
	Row		   *row = &rows[(*count)++];
	bs_error	err;

	memset(row, 0, sizeof(*row));
	row->scheme = scheme;
	row->label = label;
	row->n = n;
	if (bs_bloom_size_scheme(scheme, n, FPR, &row->bits, &row->hashes, &err) != BS_OK)
	{
		fprintf(stderr, "sizing failed: %s\n", err.message);
		exit(1);
	}
	return row;
}

static const Row *
find_row(const Row *rows, int count, const char *label, int64_t n)
{
	for (int i = 0; i < count; i++)
		if (rows[i].n == n && strcmp(rows[i].label, label) == 0)
			return &rows[i];
	return NULL;
}

/* What the report shows, in its order. */
static const uint8_t schemes[] = {
	BS_SCHEME_DOUBLE, BS_SCHEME_DOUBLE_SQUARE, BS_SCHEME_DOUBLE_CUBE,
	BS_SCHEME_PARTITION, BS_SCHEME_INDEPENDENT, BS_SCHEME_BLOCKED
};
static const int widths[] = {8, 32};
static const int64_t sizes[] = {1000000, 10000000, 100000000};
static const char *const versus_names[V_COUNT] = {
	"insert, one at a time", "query, one at a time", "pipelined insert", "pipelined query",
	"batch insert (bs_bloom_add_batch)", "batch query (bs_bloom_test_batch)"
};

/* Everything measured, per key width ([w]) and size ([z]), for the report. */
typedef struct Results
{
	Row			rows[2][MAX_ROWS];
	int			row_count[2];
	Versus		versus[2];
	double		hash_runs[2][RUNS];
	double		latency[3];
	double		independent[3];
} Results;

/* The memory under each size, with double's filter size. */
static void
measure_memory_sizes(const Options *options, Results *results)
{
	for (int z = 0; z < 3; z++)
	{
		uint64_t	bits;
		uint32_t	hashes;

		if (options->exponent != 0 && options->exponent != z + 6)
			continue;
		bs_bloom_size_scheme(BS_SCHEME_DOUBLE, sizes[z], FPR, &bits, &hashes, NULL);
		measure_memory(bs_bloom_total_bytes(bits), &results->latency[z], &results->independent[z]);
	}
}

/*
 * The rows of one key width: the hash alone, then at each size every scheme,
 * the rows of bench/probe_variants.h and, at n = 10^8, blocked against
 * double side by side.
 */
static void
measure_width(const Options *options, int w, Results *results, double started)
{
	Row		   *rows = results->rows[w];
	int		   *count = &results->row_count[w];

	hash_alone_ns(widths[w], results->hash_runs[w]);
	for (int z = 0; z < 3; z++)
	{
		if (options->exponent != 0 && options->exponent != z + 6)
			continue;
		for (size_t s = 0; s < sizeof(schemes); s++)
		{
			Row		   *row;

			if (options->scheme != 0 && options->scheme != schemes[s])
				continue;
			row = new_row(rows, count, schemes[s], sizes[z], bs_scheme_name(schemes[s]));
			measure_row(row, widths[w], 0, false);
			fprintf(stderr, "%d-byte keys, n = %lld, %s: done at %.0f s\n", widths[w],
					(long long) row->n, row->label, (now_ns() - started) / 1e9);
		}
		if (options->scheme == 0 || options->scheme == BS_SCHEME_DOUBLE)
			measure_row(new_row(rows, count, BS_SCHEME_DOUBLE, sizes[z],
								"double, " PV_VARIANT_NAME), widths[w], 0, true);
		if (options->scheme == 0 || options->scheme == BS_SCHEME_BLOCKED)
		{
			measure_row(new_row(rows, count, BS_SCHEME_BLOCKED, sizes[z],
								"blocked, " PV_VARIANT_NAME), widths[w], 0, true);
			/* and with its blocks on cache lines */
			measure_row(new_row(rows, count, BS_SCHEME_BLOCKED, sizes[z],
								"blocked, " PV_VARIANT_NAME ", aligned words"),
						widths[w], 24, true);
		}
		if (z == 2 && options->scheme == 0)
			measure_versus(&results->versus[w], widths[w], sizes[z]);
		fprintf(stderr, "%d-byte keys, n = %lld: done at %.0f s\n", widths[w],
				(long long) sizes[z], (now_ns() - started) / 1e9);
	}
}

/* What a figure is, and the memory under each size. */
static void
print_legend(const Options *options, const Results *results)
{
	printf("Each figure: ns per operation, the median of %d runs of %d operations after %d warm-up run "
		   "(a run's figure: the median over its chunks of %d operations, interleaved chunk by chunk with its floor's); "
		   "fpr %.2f, m and k from bs_bloom_size_scheme; × = scheme / floor (ratio of medians). "
		   "Queries: half members, half non-members, in random order. "
		   "Noise: the widest (max − min) / median among the row's figures. "
		   "\"%s\": bench/probe_variants.h.\n\n",
		   RUNS, OPS, WARMUP, CHUNK, FPR, PV_VARIANT_NAME);
	printf("Memory under each size (random 64-byte reads): ");
	for (int z = 0; z < 3; z++)
		if (options->exponent == 0 || options->exponent == z + 6)
			printf("%sn = 10^%d: %.1f ns latency, %.1f ns per read when reads overlap",
				   (options->exponent == 0 && z > 0) ? "; " : "", z + 6,
				   results->latency[z], results->independent[z]);
	printf(".\n\n");
}

/* A table of rows per key width. */
static void
print_rows(const Results *results)
{
	for (int w = 0; w < 2; w++)
	{
		Stat		h;

		if (results->row_count[w] == 0)
			continue;
		h = stat_of(results->hash_runs[w]);
		printf("### %s\n\n", widths[w] == 8 ? "8-byte keys (bigint)" : "32-byte strings (md5 hex)");
		printf("Hash alone (XXH3_128bits_withSeed as bs_hash128 calls it): %.1f ns (runs %.1f–%.1f).\n\n",
			   h.median, h.min, h.max);
		printf("| scheme | n | MB | k | insert | floor | × | pipelined insert | floor | × | query | floor | × | FP rate | noise |\n");
		printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
		for (int i = 0; i < results->row_count[w]; i++)
			print_row(&results->rows[w][i]);
		printf("\n");
	}
}

/* The table of blocked against double side by side. */
static void
print_versus(const Results *results)
{
	printf("### Blocked against double at n = 10^8, side by side\n\n");
	printf("The two filters in the same passes, chunk by chunk, on the same keys, their words on a cache line "
		   "as the server allocates them. Pipelined: a value is located and its lines prefetched, and the "
		   "value located `ring` values earlier is set (insert, as bloom_agg does with a ring of 16) or "
		   "tested (query: a path for callers with many values; the server answers bloom_contains row "
		   "by row). Batch: calls for many values at once (src/core/bloom/bs_batch.c), a chunk of "
		   "4,096 keys a call, with each scheme's own ring (double 16, blocked 64) and, for blocked on "
		   "AVX-512F, the block's vector mask inlined in the loop.\n\n");
	printf("| keys | operation | ring | double | blocked | blocked / double | per-run pairs |\n");
	printf("|---|---|---:|---:|---:|---:|---:|\n");
	for (int w = 0; w < 2; w++)
		for (int m = 0; results->versus[w].measured && m < V_COUNT; m++)
		{
			const Versus *v = &results->versus[w];
			bool		pipelined = m == V_PIPE || m == V_QUERY_PIPE;

			for (int d = 0; d < (pipelined ? SWEEP_COUNT : 1); d++)
			{
				Stat		ratio = versus_ratio(v, m, d, d);
				char		ring[16] = "—";

				if (pipelined)
					snprintf(ring, sizeof(ring), "%u", sweep_depths[d]);
				printf("| %d-byte | %s | %s | %.1f | %.1f | %.2f | %.2f–%.2f |\n", widths[w],
					   versus_names[m], ring, stat_of(v->ns[m][d][0]).median,
					   stat_of(v->ns[m][d][1]).median, ratio.median, ratio.min, ratio.max);
			}
		}
	printf("\n");
}

/* The targets: double against its floor, then blocked against double. */
static void
print_targets(const Results *results)
{
	printf("### Targets\n\n");
	for (int w = 0; w < 2; w++)
		for (int z = 0; z < 3; z++)
		{
			const Row  *row = find_row(results->rows[w], results->row_count[w], "double", sizes[z]);
			const Row  *variant = find_row(results->rows[w], results->row_count[w],
										   "double, " PV_VARIANT_NAME, sizes[z]);

			if (row == NULL)
				continue;
			for (int m = M_INSERT; m <= M_QUERY; m += 2)
			{
				double		ratio = stat_of(row->ns[m]).median / stat_of(row->ns[m + 1]).median;
				double		lo;
				double		hi;

				ratio_range(row, m, &lo, &hi);
				printf("- %s: double ≤ 1.25 × floor, %d-byte keys, n = 10^%d, %s: %.2f (per-run pairs %.2f–%.2f)",
					   ratio <= 1.25 ? "PASS" : "MISS", widths[w], z + 6,
					   operation_name(m), ratio, lo, hi);
				if (variant != NULL && m == M_PIPE)
					printf("; %s: %.2f", PV_VARIANT_NAME,
						   stat_of(variant->ns[m]).median / stat_of(variant->ns[m + 1]).median);
				printf("\n");
			}
		}
	for (int w = 0; w < 2; w++)
		for (int m = 0; results->versus[w].measured && m < V_COUNT; m++)
			versus_target(&results->versus[w], widths[w], m, versus_names[m]);
}

/* How much other processes took of the CPUs, the load and the run time. */
static void
print_disturbance(double started)
{
	static double sorted[DISTURBANCE_MAX];
	double		load[3] = {0, 0, 0};

	memcpy(sorted, disturbance, sizeof(double) * disturbance_count);
	qsort(sorted, disturbance_count, sizeof(double), compare_double);
	getloadavg(load, 3);
	printf("\nDisturbance: a run's mean over its chunks exceeds its median by %.0f%% at the median run, %.0f%% at the 90th percentile "
		   "(near 0 on a quiet machine). Load average %.2f at the end; the run took %.0f s.\n",
		   100 * sorted[disturbance_count / 2], 100 * sorted[disturbance_count * 9 / 10],
		   load[0], (now_ns() - started) / 1e9);
}

int
main(int argc, char **argv)
{
	static Results results;
	double		started = now_ns();
	Options		options;

	parse_options(argc, argv, &options);
	key_buffer = malloc((size_t) CHUNK * MAX_WIDTH);

	printf("## Core throughput: insert and query against the hardware's floor\n\n");
	machine_line();
	measure_memory_sizes(&options, &results);
	for (int w = 0; w < 2; w++)
		if (options.width == 0 || options.width == widths[w])
			measure_width(&options, w, &results, started);

	print_legend(&options, &results);
	print_rows(&results);
	if (results.versus[0].measured || results.versus[1].measured)
		print_versus(&results);
	print_targets(&results);
	print_disturbance(started);
	return 0;
}
