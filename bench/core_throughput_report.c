/*
 * core_throughput_report.c — the pieces of core_throughput's markdown
 * report: the machine line, a row of the table, the ratios to the floor and
 * of blocked to double, and the target lines.
 */
#include <unistd.h>

#include "core_throughput.h"

/* ---- report ---- */

/* A cache's size as sysfs gives it ("1024K"), in KB; 0 if unknown. */
static long
cache_kb(int index)
{
	char		path[128];
	FILE	   *f;
	long		kb = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
	f = fopen(path, "r");
	if (f != NULL)
	{
		if (fscanf(f, "%ld", &kb) != 1)
			kb = 0;
		fclose(f);
	}
	return kb;
}

void
machine_line(void)
{
	FILE	   *f = fopen("/proc/cpuinfo", "r");
	char		line[512];
	char		model[256] = "unknown CPU";
	int			family = -1;
	int			cpu_model = -1;
	double		load[3] = {0, 0, 0};
	time_t		t = time(NULL);
	char		date[64];

	if (f != NULL)
	{
		while (fgets(line, sizeof(line), f))
		{
			char	   *colon = strchr(line, ':');

			if (colon == NULL)
				continue;
			if (strncmp(line, "model name", 10) == 0 && strcmp(model, "unknown CPU") == 0)
			{
				snprintf(model, sizeof(model), "%s", colon + 2);
				model[strcspn(model, "\n")] = '\0';
			}
			else if (strncmp(line, "cpu family", 10) == 0 && family < 0)
				family = atoi(colon + 1);
			else if (strncmp(line, "model\t", 6) == 0 && cpu_model < 0)
				cpu_model = atoi(colon + 1);
		}
		fclose(f);
	}
	getloadavg(load, 3);
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&t));
	printf("%s (family %d, model %d), %ld CPUs, L2 %ld KB per core, L3 %ld KB; %s; load average %.2f at start\n\n",
		   model, family, cpu_model, sysconf(_SC_NPROCESSORS_ONLN),
		   cache_kb(2), cache_kb(3),
		   date, load[0]);
}

static void
print_cell(const Row *row, int m)
{
	if (row->measured[m])
		printf(" %.1f |", stat_of(row->ns[m]).median);
	else
		printf(" — |");
}

static void
print_ratio(const Row *row, int m)
{
	if (row->measured[m])
		printf(" %.2f |", stat_of(row->ns[m]).median / stat_of(row->ns[m + 1]).median);
	else
		printf(" — |");
}

/* Noise: the widest (max - min) / median of the row's figures, in percent. */
static double
row_noise(const Row *row)
{
	double		worst = 0;

	for (int m = 0; m < M_COUNT; m++)
		if (row->measured[m])
		{
			Stat		s = stat_of(row->ns[m]);

			if ((s.max - s.min) / s.median > worst)
				worst = (s.max - s.min) / s.median;
		}
	return 100 * worst;
}

void
print_row(const Row *row)
{
	printf("| %s | 10^%d | %.1f | %u |", row->label, (int) lround(log10((double) row->n)),
		   bs_bloom_total_bytes(row->bits) / 1e6, row->hashes);
	print_cell(row, M_INSERT);
	print_cell(row, M_INSERT_FLOOR);
	print_ratio(row, M_INSERT);
	print_cell(row, M_PIPE);
	print_cell(row, M_PIPE_FLOOR);
	print_ratio(row, M_PIPE);
	print_cell(row, M_QUERY);
	print_cell(row, M_QUERY_FLOOR);
	print_ratio(row, M_QUERY);
	printf(" %.4f | %.0f%% |\n", row->fp_rate, row_noise(row));
}

/* The range of the per-run ratios scheme / floor (runs are paired). */
void
ratio_range(const Row *row, int m, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (int r = 0; r < RUNS; r++)
	{
		double		x = row->ns[m][r] / row->ns[m + 1][r];

		*lo = fmin(*lo, x);
		*hi = fmax(*hi, x);
	}
}

const char *
operation_name(int m)
{
	return m == M_INSERT ? "insert" : m == M_PIPE ? "pipelined insert" : "query";
}

/* The range of the per-run ratios blocked / double of a Versus measure. */
/* blocked / double for one measure, at given depth indexes; per-run pairs. */
Stat
versus_ratio(const Versus *v, int m, int double_depth, int blocked_depth)
{
	double		ratios[RUNS];
	Stat		s;

	for (int r = 0; r < RUNS; r++)
		ratios[r] = v->ns[m][blocked_depth][1][r] / v->ns[m][double_depth][0][r];
	s = stat_of(ratios);
	s.median = stat_of(v->ns[m][blocked_depth][1]).median /
		stat_of(v->ns[m][double_depth][0]).median;
	return s;
}

/* The depth index at which a scheme's pipelined measure is fastest. */
static int
versus_best_depth(const Versus *v, int m, int scheme_index)
{
	int			best = 0;

	for (int d = 1; d < SWEEP_COUNT; d++)
		if (stat_of(v->ns[m][d][scheme_index]).median <
			stat_of(v->ns[m][best][scheme_index]).median)
			best = d;
	return best;
}

/* The target line for one measure: PASS or MISS and the ratio. */
void
versus_target(const Versus *v, int width, int m, const char *name)
{
	bool		pipelined = m == V_PIPE || m == V_QUERY_PIPE;
	int			dd = pipelined ? versus_best_depth(v, m, 0) : 0;
	int			bd = pipelined ? versus_best_depth(v, m, 1) : 0;
	Stat		ratio = versus_ratio(v, m, dd, bd);

	printf("- %s: blocked ≤ 0.5 × double, %d-byte keys, n = 10^8, %s", ratio.median <= 0.5 ? "PASS" : "MISS",
		   width, name);
	if (pipelined)
		printf(" (each at its fastest ring: double %u, blocked %u)", sweep_depths[dd], sweep_depths[bd]);
	printf(": %.2f (per-run pairs %.2f–%.2f)\n", ratio.median, ratio.min, ratio.max);
}
