/*
 * core_throughput_measure.c — how core_throughput measures: the keys, the
 * paired passes of the library and its floor chunk by chunk, a row of the
 * table (inserts, pipelined inserts, queries on a topped-up filter), blocked
 * against double side by side, and the memory under each size.
 */
#include <sys/mman.h>

#include "core_throughput.h"

/* ---- timing and statistics ---- */

int
compare_double(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return (x > y) - (x < y);
}

Stat
stat_of(const double *figures)
{
	double		v[RUNS];
	Stat		s;

	memcpy(v, figures, sizeof(v));
	qsort(v, RUNS, sizeof(double), compare_double);
	s.median = v[RUNS / 2];
	s.min = v[0];
	s.max = v[RUNS - 1];
	return s;
}

/* ---- keys ---- */

/* Key number `index`: the integer index + 1, or 32 hex digits (an md5 look). */
void
make_key(uint8_t *out, int width, uint64_t index)
{
	static const char hex[] = "0123456789abcdef";

	if (width == 8)
	{
		uint64_t	v = index + 1;

		memcpy(out, &v, 8);
		return;
	}
	for (int half = 0; half < 2; half++)
	{
		uint64_t	x = mix64(index * 2 + half);

		for (int d = 0; d < 16; d++, x >>= 4)
			out[half * 16 + d] = (uint8_t) hex[x & 15];
	}
}

/* ---- what is measured ---- */

uint8_t *key_buffer;

/*
 * Keys of chunk `chunk` of a pass: for inserts the keys chunk * CHUNK + j
 * (the same in every pass); for queries each key is at random a member (one
 * of the first `inserted` keys, all inserted) or a non-member (a key never
 * inserted), half and half; *members counts the members.
 */
static void
make_chunk(int width, bool query, uint64_t pass, uint64_t chunk, uint64_t inserted,
		   uint64_t *members)
{
	uint64_t	rng = mix64(pass * 1000003 + chunk);

	for (uint32_t j = 0; j < CHUNK; j++)
	{
		uint64_t	index = chunk * CHUNK + j;

		if (query)
		{
			rng = mix64(rng);
			if (rng & 1)
			{
				index = mulhi(rng, inserted);
				(*members)++;
			}
			else
				index += NONMEMBER_BASE + pass * 2 * OPS;
		}
		make_key(key_buffer + (size_t) j * width, width, index);
	}
}

/* How much a pass's mean over its chunks exceeds its median (disturbance). */
double		disturbance[DISTURBANCE_MAX];
int			disturbance_count;

static double
chunk_median(double *chunk_ns)
{
	double		total = 0;
	double		median;

	for (int c = 0; c < CHUNKS; c++)
		total += chunk_ns[c];
	qsort(chunk_ns, CHUNKS, sizeof(double), compare_double);
	median = chunk_ns[CHUNKS / 2];
	if (disturbance_count < (int) (sizeof(disturbance) / sizeof(double)))
		disturbance[disturbance_count++] = total / CHUNKS / median - 1;
	return median;
}

/* One side of a paired pass: the library's path or its floor. */
typedef struct Side
{
	Run		   *run;
	Kernel		kernel;
	Flush		flush;
	double		ns;				/* out: ns per operation */
	uint64_t	hits;			/* out: queries answered "maybe" */
	uint64_t	members;		/* out: member keys queried */
} Side;

/*
 * One paired pass: OPS operations of each side, interleaved CHUNK by CHUNK,
 * each chunk timed on its own and its keys made untimed just before.  Sides
 * that share a filter (the library and its floor) take other keys (side i
 * chunk 2c + i), so that neither finds the other's lines in the cache;
 * sides with filters of their own take the same keys (chunk c).  Which side
 * goes first alternates from pass to pass.  A side's figure for the pass is
 * the median over its chunks, so that a chunk during which the process was
 * descheduled (the machine is shared) does not count, and pairing chunk by
 * chunk means both sides see the same machine.
 */
static void
paired_pass(Side *sides, int side_count, bool query, uint64_t pass, bool same_keys)
{
	double		chunk_ns[2][CHUNKS];

	for (int i = 0; i < side_count; i++)
	{
		sides[i].hits = sides[i].run->hits;
		sides[i].members = 0;
	}
	for (int c = 0; c < CHUNKS; c++)
	{
		for (int o = 0; o < side_count; o++)
		{
			int			i = (pass & 1) ? side_count - 1 - o : o;
			Side	   *side = &sides[i];
			double		t0;

			if (same_keys)
				make_chunk(side->run->width, query, pass, c, OPS, &side->members);
			else
				make_chunk(side->run->width, query, pass, (uint64_t) c * 2 + i, 2 * OPS,
						   &side->members);
			t0 = now_ns();
			side->kernel(side->run, key_buffer, CHUNK);
			if (side->flush != NULL && c == CHUNKS - 1)
				side->flush(side->run);
			chunk_ns[i][c] = (now_ns() - t0) / CHUNK;
		}
	}
	for (int i = 0; i < side_count; i++)
	{
		sides[i].ns = chunk_median(chunk_ns[i]);
		sides[i].hits = sides[i].run->hits - sides[i].hits;
	}
}

/* Random bits at density q in the filter's m bits (q's first 16 binary digits). */
static void
or_random_bits(bs_bloom *filter, double q, uint64_t state)
{
	uint64_t	words = bs_bloom_word_count(filter->bits);
	uint32_t	q16 = (uint32_t) lround(q * 65536.0);

	if (q16 == 0)
		return;
	for (uint64_t i = 0; i < words; i++)
	{
		uint64_t	x = 0;

		/* x = r OR x for a 1 digit, r AND x for a 0, from the last digit up */
		for (int d = 0; d < 16; d++)
		{
			state = mix64(state);
			x = ((q16 >> d) & 1) ? (state | x) : (state & x);
		}
		if (q16 == 65536)
			x = ~UINT64_C(0);
		filter->words[i] |= x;
	}
	if (filter->bits % 64 != 0)
		filter->words[words - 1] &= (UINT64_C(1) << (filter->bits % 64)) - 1;
}

/*
 * Bring a filter holding `inserted` keys to the fill of n keys: those set
 * about 1 - e^(-k inserted/m) of the bits, n keys 1 - e^(-kn/m).
 */
static void
top_up(bs_bloom *filter, int64_t n, uint64_t inserted)
{
	double		k = filter->hashes;
	double		m = (double) filter->bits;
	double		density = 1 - exp(-k * n / m);
	double		added = 1 - (1 - density) / exp(-k * inserted / m);

	if (added > 0)
		or_random_bits(filter, added, filter->bits ^ filter->scheme);
}

/*
 * Zeroed memory on transparent huge pages (madvise(MADV_HUGEPAGE)) for the
 * whole block, 2 MB aligned, so that TLB misses do not blur the comparison.
 */
static void *
alloc_huge(size_t size)
{
	void	   *base;

	size = (size + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	base = aligned_alloc(HUGE_PAGE, size);
	if (base == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	if (size >= 2 * HUGE_PAGE)
		(void) madvise(base, size, MADV_HUGEPAGE);
	memset(base, 0, size);
	return base;
}

/* A filter's memory, the header `offset` bytes past a 2 MB boundary. */
static bs_bloom *
alloc_filter(uint64_t bits, size_t offset, void **base)
{
	*base = alloc_huge(bs_bloom_total_bytes(bits) + offset);
	return (bs_bloom *) ((char *) *base + offset);
}

/* Check that the floor's positions are the library's, on a few keys. */
static void
check_floor(const Run *run, uint8_t scheme)
{
	uint64_t	lib[BS_BLOCKED_MAX_HASHES];
	uint64_t	mine[BS_BLOCKED_MAX_HASHES];
	uint8_t		key[MAX_WIDTH];

	for (uint64_t index = 0; index < 1000; index++)
	{
		make_key(key, run->width, index * 7919);
		bs_bloom_positions(&run->probe, key, run->width, lib);
		floor_positions(scheme, &run->shape, key, run->width, mine);
		for (uint32_t i = 0; i < run->shape.hashes; i++)
			if (lib[i] != mine[i])
			{
				fprintf(stderr, "floor of %s differs from the library at key %llu, probe %u\n",
						bs_scheme_name(scheme), (unsigned long long) index, i);
				exit(1);
			}
	}
}

/* An empty filter of the shape and what the loops need to probe it. */
static void *
setup_run(Run *run, uint8_t scheme, uint64_t bits, uint32_t hashes, int width,
		  size_t offset)
{
	void	   *base;

	run->width = width;
	run->depth = DEPTH;
	run->filter = alloc_filter(bits, offset, &base);
	bs_bloom_init_scheme(run->filter, (bs_scheme) scheme, bits, hashes, SEED);
	bs_probe_init_scheme(&run->probe, (bs_scheme) scheme, bits, hashes, SEED);
	run->shape.words = run->filter->words;
	run->shape.bits = bits;
	run->shape.range = run->probe.first_range;
	run->shape.hashes = hashes;
	run->shape.block_simd = run->probe.block_simd;
	run->shape.seed = SEED;
	return base;
}

/*
 * Measure one row: the inserts (one at a time and pipelined, each paired with
 * its floor), then top up the filter to n items' fill and measure the
 * queries the same way.
 */
void
measure_row(Row *row, int width, size_t offset, bool variant)
{
	const SchemeKernels *lib = variant ? &variant_kernels : &lib_kernels[row->scheme];
	const SchemeKernels *flo = &floor_kernels[row->scheme];
	Run		   *runs = calloc(2, sizeof(Run));
	void	   *base;
	uint64_t	pass = 0;
	uint64_t	members = 0;
	uint64_t	hits = 0;
	uint64_t	queries = 0;

	base = setup_run(&runs[0], row->scheme, row->bits, row->hashes, width, offset);
	runs[1] = runs[0];
	check_floor(&runs[0], row->scheme);

	for (int r = -WARMUP; r < RUNS; r++)
	{
		Side		one[2] = {
			{.run = &runs[0],.kernel = lib->insert},
			{.run = &runs[1],.kernel = flo->insert},
		};
		Side		pipe[2] = {
			{.run = &runs[0],.kernel = lib->pipelined,.flush = lib->flush},
			{.run = &runs[1],.kernel = flo->pipelined,.flush = flo->flush},
		};

		pass++;
		paired_pass(one, 2, false, pass, false);
		if (lib->pipelined != NULL)
			paired_pass(pipe, 2, false, pass, false);
		if (r < 0)
			continue;
		row->ns[M_INSERT][r] = one[0].ns;
		row->ns[M_INSERT_FLOOR][r] = one[1].ns;
		row->measured[M_INSERT] = row->measured[M_INSERT_FLOOR] = true;
		if (lib->pipelined != NULL)
		{
			row->ns[M_PIPE][r] = pipe[0].ns;
			row->ns[M_PIPE_FLOOR][r] = pipe[1].ns;
			row->measured[M_PIPE] = row->measured[M_PIPE_FLOOR] = true;
		}
	}

	top_up(runs[0].filter, row->n, 2 * OPS);

	for (int r = -WARMUP; r < RUNS; r++)
	{
		Side		query[2] = {
			{.run = &runs[0],.kernel = lib->query},
			{.run = &runs[1],.kernel = flo->query},
		};

		paired_pass(query, 2, true, ++pass, false);
		if (r < 0)
			continue;
		row->ns[M_QUERY][r] = query[0].ns;
		row->ns[M_QUERY_FLOOR][r] = query[1].ns;
		for (int i = 0; i < 2; i++)
		{
			members += query[i].members;
			hits += query[i].hits;
			queries += OPS;
		}
	}
	row->measured[M_QUERY] = row->measured[M_QUERY_FLOOR] = true;
	row->fp_rate = (double) (hits - members) / (queries - members);
	if (getenv("CT_DEBUG"))
		for (int m = 0; m < M_COUNT; m++)
		{
			fprintf(stderr, "%s %d:", row->label, m);
			for (int r = 0; r < RUNS; r++)
				fprintf(stderr, " %.1f", row->ns[m][r]);
			fprintf(stderr, "\n");
		}
	free(base);
	free(runs);
}

void
hash_alone_ns(int width, double *per_run)
{
	Run		   *run = calloc(1, sizeof(Run));

	run->width = width;
	for (int r = -WARMUP; r < RUNS; r++)
	{
		Side		side = {.run = run,.kernel = hash_alone};

		paired_pass(&side, 1, false, r + WARMUP, true);
		if (r >= 0)
			per_run[r] = side.ns;
	}
	if (run->sink == 42)
		putchar(' ');
	free(run);
}

/*
 * The second target: blocked against double at one size, the two filters
 * side by side in the same paired passes (same keys, chunk by chunk), so
 * that the ratio holds while the machine's speed drifts.  Both filters have
 * their words on a cache line, so that a block is one line.  Measured: the
 * library one at a time (insert, query), and pipelined (insert, and queries
 * pipelined the same way) with rings of 8 (bloom_agg's) to 64 values.  How
 * deep a ring must be is latency / time per value: bloom_agg's rows cost
 * some 45 ns of executor work each, so 8 cover a miss, while the core alone
 * spends 10-30 ns a value and needs more in flight.
 */
const uint32_t sweep_depths[SWEEP_COUNT] = {8, 16, 32, 64};

/* One paired pass of the two runs under kernel (and flush) per scheme. */
static void
versus_pass(Run *runs, const uint8_t *schemes, int measure, bool query,
			uint64_t pass, int depth_index, Versus *v, int r)
{
	Side		sides[2];

	for (int i = 0; i < 2; i++)
	{
		const SchemeKernels *lib = &lib_kernels[schemes[i]];

		runs[i].depth = measure == V_PIPE || measure == V_QUERY_PIPE ?
			sweep_depths[depth_index] : DEPTH;
		if (measure == V_INSERT)
			sides[i] = (Side) {.run = &runs[i],.kernel = lib->insert};
		else if (measure == V_PIPE)
			sides[i] = (Side) {.run = &runs[i],.kernel = lib->pipelined,.flush = lib->flush};
		else if (measure == V_QUERY)
			sides[i] = (Side) {.run = &runs[i],.kernel = lib->query};
		else if (measure == V_BATCH)
			sides[i] = (Side) {.run = &runs[i],.kernel = lib_insert_batch};
		else if (measure == V_QUERY_BATCH)
			sides[i] = (Side) {.run = &runs[i],.kernel = lib_query_batch};
		else
			sides[i] = (Side) {.run = &runs[i],.kernel = lib_query_pipelined,
				.flush = lib_query_flush};
	}
	paired_pass(sides, 2, query, pass, true);
	for (int i = 0; r >= 0 && i < 2; i++)
		v->ns[measure][depth_index][i][r] = sides[i].ns;
}

void
measure_versus(Versus *v, int width, int64_t n)
{
	static const uint8_t schemes[2] = {BS_SCHEME_DOUBLE, BS_SCHEME_BLOCKED};
	Run		   *runs = calloc(2, sizeof(Run));
	void	   *base[2];
	uint64_t	pass = 0;

	for (int i = 0; i < 2; i++)
	{
		uint64_t	bits;
		uint32_t	hashes;

		if (bs_bloom_size_scheme(schemes[i], n, FPR, &bits, &hashes, NULL) != BS_OK)
			exit(1);
		/* the header 24 bytes past a line, so the words start on the next */
		base[i] = setup_run(&runs[i], schemes[i], bits, hashes, width, 24);
	}
	for (int r = -WARMUP; r < RUNS; r++)
	{
		pass++;
		versus_pass(runs, schemes, V_INSERT, false, pass, 0, v, r);
		for (int d = 0; d < SWEEP_COUNT; d++)
			versus_pass(runs, schemes, V_PIPE, false, pass, d, v, r);
		versus_pass(runs, schemes, V_BATCH, false, pass, 0, v, r);
	}
	for (int i = 0; i < 2; i++)
		top_up(runs[i].filter, n, OPS);
	for (int r = -WARMUP; r < RUNS; r++)
	{
		pass++;
		versus_pass(runs, schemes, V_QUERY, true, pass, 0, v, r);
		for (int d = 0; d < SWEEP_COUNT; d++)
			versus_pass(runs, schemes, V_QUERY_PIPE, true, pass, d, v, r);
		versus_pass(runs, schemes, V_QUERY_BATCH, true, pass, 0, v, r);
	}
	v->measured = true;
	v->n = n;
	for (int i = 0; i < 2; i++)
		free(base[i]);
	free(runs);
}

/*
 * The memory under a filter of `bytes`: the latency of one random line read
 * (a pointer chase) and the cost per line of independent random reads (the
 * most the memory system gives when many misses overlap).  Medians of RUNS.
 */
void
measure_memory(size_t bytes, double *latency, double *independent)
{
	size_t		lines = bytes / 64;
	uint64_t   *buffer = alloc_huge(bytes);
	uint32_t   *order = malloc(lines * sizeof(uint32_t));
	double		chase[RUNS];
	double		loads[RUNS];
	uint64_t	state = 7;
	uint64_t	sink = 0;

	/* one cycle through all lines in random order */
	for (size_t i = 0; i < lines; i++)
		order[i] = (uint32_t) i;
	for (size_t i = lines - 1; i > 0; i--)
	{
		size_t		j;
		uint32_t	t;

		state = mix64(state);
		j = state % (i + 1);
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		buffer[(size_t) order[i] * 8] = (uint64_t) order[(i + 1) % lines] * 8;
	for (int r = -WARMUP; r < RUNS; r++)
	{
		const int	steps = 200000;
		uint64_t	p = 0;
		double		t0 = now_ns();

		for (int i = 0; i < steps; i++)
			p = buffer[p];
		if (r >= 0)
			chase[r] = (now_ns() - t0) / steps;
		sink += p;
		t0 = now_ns();
		for (int i = 0; i < 4 * steps; i++)
		{
			state = mix64(state);
			sink += buffer[mulhi(state, lines) * 8];
		}
		if (r >= 0)
			loads[r] = (now_ns() - t0) / (4 * steps);
	}
	*latency = stat_of(chase).median;
	*independent = stat_of(loads).median;
	if (sink == 42)
		putchar(' ');
	free(order);
	free(buffer);
}
