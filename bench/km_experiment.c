/*
 * km_experiment.c — Kirsch and Mitzenmacher's experiment ("Building a Better
 * Bloom Filter", Harvard tech report TR-02-05, 2006, section 8, Figures 1
 * and 2) on the six probing schemes of the pure C core.
 *
 * For each c = m/n, k is the one of floor(c ln 2) and ceil(c ln 2) with the
 * smaller p = (1 - e^{-k/c})^k (section 8).  For each scheme a trial builds
 * a filter of about c n bits (rounded to the scheme's shape), inserts n keys
 * and queries ceil(q/p) keys that are not members (q = 10 in the paper),
 * counting the false positives Q of the trial.  The table reports the mean
 * rate over all trials next to p, next to the exact rate of the model the
 * core uses for that scheme (bs_scheme_expected_fpr, at the actual m) and,
 * where it can be computed, next to the exact rate of the scheme itself
 * under ideal hashing (below, "KM rate"): the models treat the probe
 * positions of different items as in a standard or classic filter and so
 * leave out the Theta(1/n) term of section 6 (Theorems 6.2 and 6.3), which
 * comes from a non-member sharing two or more positions with one member.
 *
 * The histograms of Q (Figure 2) are written for every cell; section 8
 * compares them with the density of N(Qp, Qp(1 - p)) scaled to the trials.
 *
 * Keys: one splitmix64 stream per (n, c, scheme, trial); the first n outputs
 * are the members, the next ceil(q/p) the non-members.  splitmix64 is a
 * bijective mix of a counter, so all of them are distinct.  The filter's
 * seed is drawn from the same stream's seed.  Everything is deterministic
 * for a given -x; -j only changes who computes a cell, not its result.
 *
 * Usage: km_experiment [-r N:TRIALS[,N:TRIALS...]] [-c C[,C...]]
 *                      [-s SCHEME[,SCHEME...]] [-q Q] [-j JOBS] [-x SEED]
 *                      [-o CELLS.csv] [-H HISTOGRAMS.csv]
 * It prints the markdown tables on stdout and progress on stderr.
 * km_experiment -T checks the KM rates against brute force and exits.
 *
 * This file holds the options, the shapes of section 8, the trials and the
 * worker processes; the KM rates and the self-test are in
 * km_experiment_rate.c, the tables and CSV files in km_experiment_report.c.
 */
#include "km_experiment.h"

static double
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double
wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

void
die(const char *message)
{
	fprintf(stderr, "km_experiment: %s\n", message);
	exit(1);
}

/* Section 8: p = (1 - e^{-k/c})^k. */
static double
asymptotic_rate(int c, uint32_t k)
{
	return pow(-expm1(-(double) k / c), k);
}

/* The k of section 8: floor or ceil of c ln 2, whichever gives the smaller p. */
static uint32_t
section8_hashes(int c)
{
	uint32_t	lo = (uint32_t) floor(c * M_LN2);
	uint32_t	hi = (uint32_t) ceil(c * M_LN2);

	if (lo < 1)
		return hi;
	return asymptotic_rate(c, hi) < asymptotic_rate(c, lo) ? hi : lo;
}

/* m of about c n bits in the shape the scheme requires. */
static uint64_t
scheme_bits(uint8_t scheme, int64_t n, int c, uint32_t k)
{
	uint64_t	raw = (uint64_t) n * (uint64_t) c;

	switch (scheme)
	{
		case BS_SCHEME_PARTITION:
			return (uint64_t) k * bs_next_prime((raw + k - 1) / k);
		case BS_SCHEME_BLOCKED:
			return (raw + BS_BLOCK_BITS - 1) / BS_BLOCK_BITS * BS_BLOCK_BITS;
		case BS_SCHEME_INDEPENDENT:
			return raw;
		default:				/* double, double_square, double_cube */
			return bs_next_prime(raw);
	}
}

/*
 * Exact rate of KM's partition scheme with prime m' (section 5.1) under
 * ideal h1, h2 uniform on [m'].  Fix a non-member z.  Two distinct lines
 * mod a prime meet at most once, so a member x covers exactly one of z's k
 * positions (h2(x) != h2(z) and the one index where the lines meet falls
 * in [k]: probability q1 = (1 - 1/m')/m' for each position), all k
 * (h1 and h2 both equal: q_all = 1/m'^2) or none.  Members are independent
 * given z, so by inclusion-exclusion over the set T of z's positions that
 * no member covers,
 *   Pr(F) = 1 + sum_{j=1..k} (-1)^j C(k, j) (1 - q_all - j q1)^n.
 * This is Theorem 6.1's setting with Pr(||C(x)|| = j) = 0 for 2 <= j < k;
 * the q_all term is the n/m'^2 = k^2/(c^2 n) of Theorem 6.2's lower bound.
 */

/* One (n, c, scheme, trial): its own splitmix64 state. */
static uint64_t
trial_state(uint64_t base, const cell *cl, int64_t trial)
{
	uint64_t	state = base;
	uint64_t	mixed;

	state ^= (uint64_t) cl->n * UINT64_C(0x9E6C63D0676A9A99);
	mixed = splitmix64(&state);
	state = mixed ^ ((uint64_t) cl->c << 8 | cl->scheme);
	mixed = splitmix64(&state);
	state = mixed + (uint64_t) trial * UINT64_C(0xD6E8FEB86659FD93);
	return splitmix64(&state);
}

static void
run_cell(cell *cl, uint64_t base)
{
	size_t		bytes = bs_bloom_total_bytes(cl->m);
	size_t		word_bytes = 8 * bs_bloom_word_count(cl->m);
	bs_bloom   *filter = aligned_alloc(64, (bytes + 63) / 64 * 64);
	double		start;

	if (filter == NULL)
		die("out of memory");
	km_rate(cl);

	start = cpu_now();
	for (int64_t t = 0; t < cl->trials; t++)
	{
		uint64_t	state = trial_state(base, cl, t);
		uint64_t	seed = splitmix64(&state);
		uint64_t	keys = splitmix64(&state);
		uint64_t	first_key = keys;
		bs_probe	probe;
		int64_t		q = 0;

		memset(filter->words, 0, word_bytes);
		bs_bloom_init_scheme(filter, (bs_scheme) cl->scheme, cl->m, cl->k, seed);
		bs_probe_init_scheme(&probe, (bs_scheme) cl->scheme, cl->m, cl->k, seed);
		for (int64_t i = 0; i < cl->n; i++)
		{
			uint64_t	key = splitmix64(&keys);

			bs_bloom_add(filter, &probe, &key, sizeof(key));
		}
		for (int64_t i = 0; i < cl->queries; i++)
		{
			uint64_t	key = splitmix64(&keys);

			q += bs_bloom_test(filter, &probe, &key, sizeof(key));
		}
		if (t == 0)
		{
			/* no false negatives: replay the members of the first trial */
			for (int64_t i = 0; i < cl->n; i++)
			{
				uint64_t	key = splitmix64(&first_key);

				if (!bs_bloom_test(filter, &probe, &key, sizeof(key)))
					cl->sanity_failed = 1;
			}
		}
		cl->sum_q += (double) q;
		cl->sum_q2 += (double) q * (double) q;
		cl->hist[q < HIST_BINS ? q : HIST_BINS - 1]++;
	}
	cl->cpu_seconds = cpu_now() - start;
	cl->done = 1;
	free(filter);
}

/* Take cells off the shared queue until it is empty. */
static void
worker(shared_state *shared, uint64_t base, int id)
{
	for (;;)
	{
		int			slot = __atomic_fetch_add(&shared->next, 1, __ATOMIC_SEQ_CST);
		cell	   *cl;

		if (slot >= shared->ncells)
			return;
		cl = &shared->cells[shared->order[slot]];
		run_cell(cl, base);
		fprintf(stderr, "[worker %d] n=%lld c=%d %-13s m=%llu k=%u: %lld trials, %.1f s, rate %.6g (model %.6g)\n",
				id, (long long) cl->n, cl->c, bs_scheme_name(cl->scheme),
				(unsigned long long) cl->m, cl->k, (long long) cl->trials,
				cl->cpu_seconds, cl->sum_q / ((double) cl->trials * cl->queries),
				cl->model);
	}
}

/* Parse "a,b,c" into integers; returns the count. */
static int
parse_list(const char *text, long long *out, int max)
{
	int			count = 0;
	char	   *copy = strdup(text);
	char	   *save = NULL;

	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		char	   *end;

		if (count == max)
			die("too many list entries");
		errno = 0;
		out[count++] = strtoll(tok, &end, 10);
		if (errno != 0 || *end != '\0')
			die("bad number in a list");
	}
	free(copy);
	return count;
}

static void
usage(void)
{
	fprintf(stderr,
			"usage: km_experiment [-r N:TRIALS[,N:TRIALS...]] [-c C[,C...]] [-s SCHEME[,...]]\n"
			"                     [-q Q] [-j JOBS] [-x SEED] [-o CELLS.csv] [-H HIST.csv]\n"
			"       km_experiment -T   (check the KM rates against brute force)\n"
			"defaults: -r 5000:10000 -c 4,8,12,16 -s all six -q 10 -j 1 -x 20060101\n");
	exit(2);
}

static int
compare_cost(const void *a, const void *b, void *arg)
{
	const shared_state *shared = arg;
	double		x = shared->cells[*(const int *) a].cost;
	double		y = shared->cells[*(const int *) b].cost;

	return (x < y) - (x > y);	/* largest first */
}

/* What a run does (see usage). */
typedef struct km_options
{
	long long	run_n[MAX_RUNS];
	long long	run_trials[MAX_RUNS];
	int			nruns;
	long long	cs[MAX_CS];
	int			ncs;
	uint8_t		schemes[BS_SCHEME_LAST];
	int			nschemes;
	double		query_factor;
	int			jobs;
	uint64_t	base_seed;
	const char *cells_path;
	const char *hist_path;
} km_options;

/* -r N:TRIALS[,N:TRIALS...] */
static void
parse_runs(const char *text, km_options *o)
{
	char	   *copy = strdup(text);
	char	   *save = NULL;

	o->nruns = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
	{
		if (o->nruns == MAX_RUNS ||
			sscanf(tok, "%lld:%lld", &o->run_n[o->nruns], &o->run_trials[o->nruns]) != 2 ||
			o->run_n[o->nruns] < 1 || o->run_trials[o->nruns] < 2)
			die("bad -r entry (want N:TRIALS with N >= 1, TRIALS >= 2)");
		o->nruns++;
	}
	free(copy);
}

/* -s SCHEME[,SCHEME...] */
static void
parse_schemes(const char *text, km_options *o)
{
	char	   *copy = strdup(text);
	char	   *save = NULL;

	o->nschemes = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (o->nschemes == BS_SCHEME_LAST || !bs_scheme_parse(tok, &o->schemes[o->nschemes++]))
			die("unknown scheme in -s");
	free(copy);
}

/* The options over the defaults of usage(); -T runs the self-test and exits with its status. */
static void
parse_options(int argc, char **argv, km_options *o)
{
	int			opt;

	*o = (km_options) {
		.run_n = {5000},.run_trials = {10000},.nruns = 1,.cs = {4, 8, 12, 16},.ncs = 4,
		.query_factor = 10,.jobs = 1,.base_seed = 20060101
	};
	for (uint8_t s = 1; s <= BS_SCHEME_LAST; s++)
		o->schemes[o->nschemes++] = s;

	while ((opt = getopt(argc, argv, "r:c:s:q:j:x:o:H:Th")) != -1)
	{
		switch (opt)
		{
			case 'r':
				parse_runs(optarg, o);
				break;
			case 'c':
				o->ncs = parse_list(optarg, o->cs, MAX_CS);
				for (int i = 0; i < o->ncs; i++)
					if (o->cs[i] < 1 || o->cs[i] > 64)
						die("c must be between 1 and 64");
				break;
			case 's':
				parse_schemes(optarg, o);
				break;
			case 'q':
				o->query_factor = atof(optarg);
				if (!(o->query_factor > 0))
					die("-q must be positive");
				break;
			case 'j':
				o->jobs = atoi(optarg);
				if (o->jobs < 1 || o->jobs > 64)
					die("-j must be between 1 and 64");
				break;
			case 'x':
				o->base_seed = strtoull(optarg, NULL, 0);
				break;
			case 'o':
				o->cells_path = optarg;
				break;
			case 'H':
				o->hist_path = optarg;
				break;
			case 'T':
				exit(self_test());
			default:
				usage();
		}
	}
	if (optind != argc)
		usage();
}

/* Set the cells up: shape, p and the model rate at the actual m; largest first. */
static void
setup_cells(shared_state *shared, const km_options *o)
{
	for (int r = 0; r < o->nruns; r++)
		for (int ci = 0; ci < o->ncs; ci++)
		{
			uint32_t	k = section8_hashes((int) o->cs[ci]);
			double		p = asymptotic_rate((int) o->cs[ci], k);

			for (int si = 0; si < o->nschemes; si++)
			{
				cell	   *cl = &shared->cells[shared->ncells];
				bs_error	err;

				cl->n = o->run_n[r];
				cl->c = (int) o->cs[ci];
				cl->k = k;
				cl->scheme = o->schemes[si];
				cl->m = scheme_bits(cl->scheme, cl->n, cl->c, k);
				cl->trials = o->run_trials[r];
				cl->p = p;
				cl->queries = (int64_t) ceil(o->query_factor / p);
				if (!bs_scheme_shape_ok(cl->scheme, cl->m, k))
					die("a filter shape is not valid for its scheme");
				if (bs_scheme_expected_fpr(cl->scheme, (int64_t) cl->m, cl->n, k,
										   &cl->model, &err) != BS_OK)
				{
					fprintf(stderr, "km_experiment: %s: %s\n", err.message, err.detail);
					exit(1);
				}
				cl->cost = (double) cl->trials *
					((double) cl->n + (double) cl->queries) *
					(cl->scheme == BS_SCHEME_INDEPENDENT ? 0.6 * k : 1.0);
				shared->order[shared->ncells] = shared->ncells;
				shared->ncells++;
			}
		}
	qsort_r(shared->order, shared->ncells, sizeof(int), compare_cost, shared);
}

/* Run every cell, in this process or in `jobs` children; 1 if a child failed. */
static int
run_workers(shared_state *shared, int jobs, uint64_t base_seed)
{
	int			failed = 0;

	if (jobs == 1)
		worker(shared, base_seed, 0);
	else
	{
		for (int w = 0; w < jobs; w++)
		{
			pid_t		pid = fork();

			if (pid < 0)
				die("fork failed");
			if (pid == 0)
			{
				worker(shared, base_seed, w);
				_exit(0);
			}
		}
		for (int w = 0; w < jobs; w++)
		{
			int			status;

			if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
				failed = 1;
		}
	}
	return failed;
}

/* 1 if a cell was not run or tested a member absent; adds the trials' CPU time. */
static int
check_cells(const shared_state *shared, double *cpu_total)
{
	int			failed = 0;

	for (int i = 0; i < shared->ncells; i++)
	{
		if (!shared->cells[i].done)
			failed = 1;
		if (shared->cells[i].sanity_failed)
		{
			fprintf(stderr, "km_experiment: a member tested absent (n=%lld c=%d %s)\n",
					(long long) shared->cells[i].n, shared->cells[i].c,
					bs_scheme_name(shared->cells[i].scheme));
			failed = 1;
		}
		*cpu_total += shared->cells[i].cpu_seconds;
	}
	return failed;
}

/* The CPU's model name from /proc/cpuinfo, if there is one. */
static void
cpu_model_name(char *model_name, size_t size)
{
	FILE	   *cpuinfo;

	if ((cpuinfo = fopen("/proc/cpuinfo", "r")) != NULL)
	{
		char		line[256];

		while (fgets(line, sizeof(line), cpuinfo))
			if (strncmp(line, "model name", 10) == 0)
			{
				char	   *colon = strchr(line, ':');

				if (colon)
				{
					snprintf(model_name, size, "%s", colon + 2);
					model_name[strcspn(model_name, "\n")] = '\0';
				}
				break;
			}
		fclose(cpuinfo);
	}
}

/* The report's first lines: when and where, the command, the times. */
static void
print_run(int argc, char **argv, time_t started, double wall, int jobs, double cpu_total)
{
	struct utsname uts;
	char		date[64];
	double		load[3] = {0, 0, 0};
	char		model_name[128] = "unknown CPU";

	uname(&uts);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&started));
	getloadavg(load, 3);
	cpu_model_name(model_name, sizeof(model_name));
	printf("Run of %s on %s (%s %s, %ld cores, load average %.2f %.2f %.2f at the end).\n",
		   date, model_name, uts.sysname, uts.release, sysconf(_SC_NPROCESSORS_ONLN),
		   load[0], load[1], load[2]);
	printf("Command: `");
	for (int i = 0; i < argc; i++)
		printf("%s%s", i ? " " : "", argv[i]);
	printf("`  \n");
	printf("Wall time %.1f s with %d process%s; CPU time of the trials %.1f s.\n\n",
		   wall, jobs, jobs == 1 ? "" : "es", cpu_total);
}

int
main(int argc, char **argv)
{
	time_t		started = time(NULL);
	km_options	o;
	shared_state *shared;
	double		wall_start;
	double		wall;
	double		cpu_total = 0;
	int			failed;

	parse_options(argc, argv, &o);

	shared = mmap(NULL, sizeof(shared_state), PROT_READ | PROT_WRITE,
				  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		die("mmap failed");
	memset(shared, 0, sizeof(shared_state));
	setup_cells(shared, &o);

	wall_start = wall_now();
	failed = run_workers(shared, o.jobs, o.base_seed);
	wall = wall_now() - wall_start;
	failed |= check_cells(shared, &cpu_total);
	if (failed)
		die("a worker failed");

	print_run(argc, argv, started, wall, o.jobs, cpu_total);
	print_tables(shared, o.query_factor, o.run_n, o.nruns, o.cs, o.ncs, o.schemes, o.nschemes);
	if (o.cells_path)
		write_csv(shared, o.cells_path);
	if (o.hist_path)
		write_histograms(shared, o.hist_path);
	return 0;
}
