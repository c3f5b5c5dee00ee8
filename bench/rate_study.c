/*
 * rate_study.c — the false-positive rate that bloom_create(n, fpr, 0, scheme)
 * and bloom_agg promise, measured for every probing scheme, n from 10 to
 * 10^7 and rates from 1e-2 to 1e-6, against the requested rate, against
 * the scheme's model (bloom_expected_fpr) and against the filters' own
 * estimate from their set bits (bloom_fpr).
 *
 * Each cell is sized by bs_bloom_size_scheme, as the SQL functions are, and
 * measured on as many probes of non-members as give about E false positives
 * at the requested rate (-e, default 1,100: then a 10% excess lies outside
 * the 99.9% interval).  Small n spread the probes over up to 2,000 filters,
 * each with its own members and seed, because the rate of one small filter
 * varies from filter to filter and the promise is about its mean.  Members
 * and non-members are the 8-byte little-endian integers of one splitmix64
 * stream per filter (a bijection of a counter, so all are distinct): the
 * canonical bytes of bigint values, hashed as the SQL layer hashes them.
 *
 * A count C over P probes is inside the 99.9% interval of a rate p when
 * |C - P p| <= 3.29 s, with s^2 the larger of the binomial variance
 * P p (1 - p) and the variance the filters' own counts show (F s_i^2 over F
 * filters, when there are 30 or more): the rate differs from filter to
 * filter, which widens the spread beyond the binomial one.  Against the
 * requested rate only the upper side counts (a rate below it is kept).
 *
 * With -l LOAD the filters hold LOAD n items instead of n (a quarter of
 * capacity: -l 0.25), the regime where the Theta(1/n) term is the largest
 * share of the rate; the estimates are then checked at that count.
 *
 * With -u CELLS.csv the cells of an earlier run are read first and only the
 * cells that -n, -f and -s select are measured again (or added): after a
 * change that moves only some cells, `rate_study -u docs/research/rates.csv
 * -n 10,100 -o docs/research/rates.csv` refreshes those and prints every table.
 *
 * Usage: rate_study [-e E] [-j JOBS] [-l LOAD] [-n N,...] [-f FPR,...]
 *                   [-s SCHEME,...] [-u EARLIER.csv] [-o CELLS.csv]
 * Prints a markdown table per rate on stdout, progress on stderr; exits 1
 * when a cell's measured rate is above the interval of the requested rate or
 * outside that of either estimate.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bloom/bs_bloom.h"
#include "bloom/bs_probe.h"
#include "bloom/bs_scheme.h"
#include "analysis/bs_scheme_sizing.h"

#define MAX_NS 12
#define MAX_FPRS 12
#define MAX_CELLS (MAX_NS * MAX_FPRS * BS_SCHEME_LAST)
#define MAX_FILTERS 2000
#define Z_999 3.2905267314919255	/* two-sided 99.9% normal quantile */

typedef struct cell
{
	uint8_t		scheme;
	int64_t		n;
	double		fpr;
	double		cost;			/* rough work, for scheduling */
	/* filled in by whichever process runs the cell */
	int			done;
	int			refused;		/* the sizing's status, 0 when sized */
	char		refusal[192];
	uint64_t	m;
	uint32_t	k;
	int64_t		filters;
	int64_t		probes;			/* in all */
	double		positives;		/* false positives in all */
	double		spread;			/* variance of the total from the filters' counts */
	double		expected;		/* bs_scheme_expected_fpr at (m, n, k) */
	double		estimated;		/* mean over filters of bs_bloom_current_fpr */
	int			false_negatives;
} cell;

typedef struct shared_state
{
	int			next;
	int			ncells;
	int			order[MAX_CELLS];
	cell		cells[MAX_CELLS];
} shared_state;

static uint64_t
splitmix64(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* Probes for about `target` false positives at the requested rate. */
static int64_t
probes_for(double fpr, double target)
{
	return (int64_t) ceil(target / fpr);
}

static int64_t
filters_for(int64_t n, int64_t probes)
{
	int64_t		filters = probes / (10 * n);

	return filters < 1 ? 1 : filters > MAX_FILTERS ? MAX_FILTERS : filters;
}

static double load = 1;			/* share of the capacity filled (-l) */

static void
run_cell(cell *c, double target, uint64_t stream)
{
	bs_error	err;
	int64_t		probes = probes_for(c->fpr, target);
	int64_t		items;
	double		sum_rate = 0;
	double		sum_rate_sq = 0;
	bs_bloom   *filter;

	c->refused = bs_bloom_size_scheme(c->scheme, c->n, c->fpr, &c->m, &c->k, &err);
	if (c->refused != BS_OK)
	{
		snprintf(c->refusal, sizeof(c->refusal), "%s", err.message);
		return;
	}
	items = (int64_t) ceil(load * c->n);
	if (bs_scheme_expected_fpr(c->scheme, (int64_t) c->m, items, c->k, &c->expected, &err) != BS_OK)
		c->expected = NAN;
	/* below capacity: enough probes for the rate expected there, within reason */
	if (load != 1 && c->expected > 0)
		probes = (int64_t) fmin(ceil(target / c->expected), 2e9);
	c->filters = filters_for(c->n, probes);
	filter = malloc(bs_bloom_total_bytes(c->m));
	for (int64_t f = 0; f < c->filters; f++)
	{
		uint64_t	state = stream ^ (UINT64_C(0x2545F4914F6CDD1D) * (uint64_t) (f + 1));
		uint64_t	seed = splitmix64(&state);
		uint64_t	first = state;
		int64_t		share = probes / c->filters + (f < probes % c->filters);
		int64_t		hits = 0;
		bs_probe	probe;

		memset(filter, 0, bs_bloom_total_bytes(c->m));
		bs_bloom_init_scheme(filter, (bs_scheme) c->scheme, c->m, c->k, seed);
		bs_probe_init_scheme(&probe, (bs_scheme) c->scheme, c->m, c->k, seed);
		for (int64_t i = 0; i < items; i++)
		{
			uint64_t	key = splitmix64(&state);

			bs_bloom_add(filter, &probe, &key, sizeof(key));
		}
		for (int64_t i = 0; i < share; i++)
		{
			uint64_t	key = splitmix64(&state);

			hits += bs_bloom_test(filter, &probe, &key, sizeof(key));
		}
		/* the members are all found again (a handful, to stay cheap) */
		for (int64_t i = 0; i < items && i < 16; i++)
		{
			uint64_t	key = splitmix64(&first);

			c->false_negatives += !bs_bloom_test(filter, &probe, &key, sizeof(key));
		}
		c->estimated += bs_bloom_current_fpr(filter) * share;
		c->positives += hits;
		c->probes += share;
		sum_rate += (double) hits / share;
		sum_rate_sq += ((double) hits / share) * ((double) hits / share);
	}
	free(filter);
	c->estimated /= c->probes;
	/*
	 * The total is about Q times the sum of F per-filter rates (Q probes
	 * each), so its variance is Q^2 F times their sample variance.
	 */
	if (c->filters >= 30)
	{
		double		share = (double) c->probes / c->filters;
		double		variance = (sum_rate_sq - sum_rate * sum_rate / c->filters) / (c->filters - 1);

		c->spread = share * share * c->filters * fmax(variance, 0);
	}
}

/* -1 below, 0 inside, 1 above the 99.9% interval of rate p. */
static int
against(const cell *c, double p)
{
	double		mean = c->probes * p;
	double		variance = fmax(mean * (1 - p), c->spread);
	double		reach = Z_999 * sqrt(variance);

	if (!(p >= 0))
		return 2;
	return c->positives > mean + reach ? 1 : c->positives < mean - reach ? -1 : 0;
}

static int
parse_list(const char *text, double *out, int most)
{
	int			count = 0;
	char	   *copy = strdup(text);

	for (char *part = strtok(copy, ","); part != NULL && count < most; part = strtok(NULL, ","))
		out[count++] = strtod(part, NULL);
	free(copy);
	return count;
}

static const char *
mark(int verdict)
{
	return verdict == 0 ? "" : verdict > 0 ? " **high**" : " low";
}

static int
print_tables(const shared_state *s, const double *fprs, int nfprs)
{
	int			failures = 0;

	for (int fi = 0; fi < nfprs; fi++)
	{
		if (load == 1)
			printf("\n### Requested rate %g\n\n", fprs[fi]);
		else
			printf("\n### Requested rate %g, filters at %g of capacity\n\n", fprs[fi], load);
		printf("| scheme | n | m | k | filters | probes | false positives | measured / requested | measured / bloom_expected_fpr | measured / bloom_fpr |\n");
		printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
		for (int i = 0; i < s->ncells; i++)
		{
			const cell *c = &s->cells[i];
			double		rate;
			int			vs_request;
			int			vs_model;
			int			vs_estimate;

			if (c->fpr != fprs[fi])
				continue;
			if (c->refused != BS_OK)
			{
				printf("| %s | %lld | refused (%s) | | | | | | | |\n", bs_scheme_name(c->scheme),
					   (long long) c->n, c->refused == BS_ERR_PARAM ? "22023" : "54000");
				continue;
			}
			rate = c->positives / c->probes;
			vs_request = load == 1 ? against(c, c->fpr) : 0;
			vs_model = against(c, c->expected);
			vs_estimate = against(c, c->estimated);
			failures += vs_request > 0 || vs_model != 0 || vs_estimate != 0 || c->false_negatives;
			printf("| %s | %lld | %llu | %u | %lld | %.3g | %.0f | %.3f%s | %.3f%s | %.3f%s |\n",
				   bs_scheme_name(c->scheme), (long long) c->n, (unsigned long long) c->m, c->k,
				   (long long) c->filters, (double) c->probes, c->positives,
				   rate / c->fpr, vs_request > 0 ? mark(1) : "",
				   rate / c->expected, mark(vs_model), rate / c->estimated, mark(vs_estimate));
		}
	}
	return failures;
}

static void
write_csv(const shared_state *s, const char *path)
{
	FILE	   *out = fopen(path, "w");

	if (out == NULL)
	{
		perror(path);
		exit(2);
	}
	fprintf(out, "scheme,n,fpr,refused,m,k,filters,probes,positives,spread,expected,estimated\n");
	for (int i = 0; i < s->ncells; i++)
	{
		const cell *c = &s->cells[i];

		fprintf(out, "%s,%lld,%g,%d,%llu,%u,%lld,%lld,%.0f,%.6g,%.9g,%.9g\n",
				bs_scheme_name(c->scheme), (long long) c->n, c->fpr, c->refused,
				(unsigned long long) c->m, c->k, (long long) c->filters,
				(long long) c->probes, c->positives, c->spread, c->expected, c->estimated);
	}
	fclose(out);
}

/* Read an earlier run's cells (write_csv's format) as done; false on error. */
static bool
read_csv(shared_state *s, const char *path)
{
	FILE	   *in = fopen(path, "r");
	char		line[512];
	bool		ok;

	if (in == NULL || fgets(line, sizeof(line), in) == NULL)
		return false;
	while (fgets(line, sizeof(line), in) != NULL && s->ncells < MAX_CELLS)
	{
		cell	   *c = &s->cells[s->ncells];
		char		name[32];
		long long	n, filters, probes;
		unsigned long long m;

		if (sscanf(line, "%31[^,],%lld,%lf,%d,%llu,%u,%lld,%lld,%lf,%lf,%lf,%lf", name, &n,
				   &c->fpr, &c->refused, &m, &c->k, &filters, &probes, &c->positives,
				   &c->spread, &c->expected, &c->estimated) != 12)
			break;
		for (uint8_t scheme = 1; scheme <= BS_SCHEME_LAST; scheme++)
			if (strcmp(name, bs_scheme_name(scheme)) == 0)
				c->scheme = scheme;
		c->n = n;
		c->m = m;
		c->filters = filters;
		c->probes = probes;
		c->done = 1;
		s->ncells++;
	}
	ok = !ferror(in);
	fclose(in);
	return ok;
}

/* The cell of (scheme, n, fpr): an earlier one, cleared to be measured again, or a new one. */
static cell *
cell_for(shared_state *s, uint8_t scheme, int64_t n, double fpr)
{
	cell	   *c = NULL;

	for (int i = 0; i < s->ncells && c == NULL; i++)
		if (s->cells[i].scheme == scheme && s->cells[i].n == n && s->cells[i].fpr == fpr)
			c = &s->cells[i];
	if (c == NULL)
		c = &s->cells[s->ncells++];
	memset(c, 0, sizeof(*c));
	c->scheme = scheme;
	c->n = n;
	c->fpr = fpr;
	return c;
}

/* Every rate among the cells, largest first: the tables to print. */
static int
rates_of(const shared_state *s, double *fprs)
{
	int			count = 0;

	for (int i = 0; i < s->ncells; i++)
	{
		bool		seen = false;

		for (int j = 0; j < count && !seen; j++)
			seen = fprs[j] == s->cells[i].fpr;
		if (!seen && count < MAX_FPRS)
			fprs[count++] = s->cells[i].fpr;
	}
	for (int i = 1; i < count; i++)
		for (int j = i; j > 0 && fprs[j] > fprs[j - 1]; j--)
		{
			double		swap = fprs[j];

			fprs[j] = fprs[j - 1];
			fprs[j - 1] = swap;
		}
	return count;
}

static int
by_cost(const void *a, const void *b, void *cells)
{
	const cell *ca = &((cell *) cells)[*(const int *) a];
	const cell *cb = &((cell *) cells)[*(const int *) b];

	return ca->cost < cb->cost ? 1 : ca->cost > cb->cost ? -1 : 0;
}

int
main(int argc, char **argv)
{
	double		ns[MAX_NS] = {10, 100, 1000, 10000, 100000, 1000000, 10000000};
	double		fprs[MAX_FPRS] = {1e-2, 1e-3, 1e-4, 1e-6};
	double		scheme_list[BS_SCHEME_LAST] = {1, 2, 3, 4, 5, 6};
	int			nns = 7, nfprs = 4, nschemes = BS_SCHEME_LAST;
	double		target = 1100;
	int			jobs = 2;
	const char *csv = NULL;
	const char *earlier = NULL;
	int			nmeasured = 0;
	shared_state *s;
	int			opt;

	while ((opt = getopt(argc, argv, "e:j:l:n:f:s:u:o:")) != -1)
	{
		switch (opt)
		{
			case 'e': target = atof(optarg); break;
			case 'j': jobs = atoi(optarg); break;
			case 'l': load = atof(optarg); break;
			case 'n': nns = parse_list(optarg, ns, MAX_NS); break;
			case 'f': nfprs = parse_list(optarg, fprs, MAX_FPRS); break;
			case 's': nschemes = parse_list(optarg, scheme_list, BS_SCHEME_LAST); break;
			case 'u': earlier = optarg; break;
			case 'o': csv = optarg; break;
			default:
				fprintf(stderr, "usage: rate_study [-e E] [-j JOBS] [-l LOAD] [-n N,...] [-f FPR,...] [-s SCHEME_CODE,...] [-u EARLIER.csv] [-o CELLS.csv]\n");
				return 2;
		}
	}
	s = mmap(NULL, sizeof(shared_state), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return 2;
	memset(s, 0, sizeof(*s));
	if (earlier != NULL && !read_csv(s, earlier))
	{
		perror(earlier);
		return 2;
	}
	for (int fi = 0; fi < nfprs; fi++)
		for (int si = 0; si < nschemes; si++)
			for (int ni = 0; ni < nns && s->ncells < MAX_CELLS; ni++)
			{
				cell	   *c = cell_for(s, (uint8_t) scheme_list[si], (int64_t) ns[ni], fprs[fi]);

				/* probes, slower on filters beyond the cache */
				c->cost = probes_for(c->fpr, target) * (1 + log10(ns[ni]));
				s->order[nmeasured++] = (int) (c - s->cells);
			}
	qsort_r(s->order, nmeasured, sizeof(int), by_cost, s->cells);
	for (int j = 0; j < jobs; j++)
	{
		if (fork() == 0)
		{
			for (;;)
			{
				int			next = __atomic_fetch_add(&s->next, 1, __ATOMIC_SEQ_CST);
				cell	   *c;

				if (next >= nmeasured)
					_exit(0);
				c = &s->cells[s->order[next]];
				run_cell(c, target, UINT64_C(0x5EED) * (uint64_t) (s->order[next] + 1));
				c->done = 1;
				fprintf(stderr, "%s n=%lld fpr=%g done (%d of %d)\n", bs_scheme_name(c->scheme),
						(long long) c->n, c->fpr, next + 1, nmeasured);
			}
		}
	}
	while (wait(NULL) > 0)
		;
	if (csv != NULL)
		write_csv(s, csv);
	if (earlier != NULL)
		nfprs = rates_of(s, fprs);
	return print_tables(s, fprs, nfprs) == 0 ? 0 : 1;
}
