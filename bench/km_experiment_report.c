/*
 * km_experiment_report.c — km_experiment's output: the statistics of a
 * finished cell against p, the model and the KM rate, the markdown tables,
 * and the cells and histograms as CSV.
 */
#include "km_experiment.h"

/* Statistics of a finished cell. */
typedef struct cell_stats
{
	double		rate;			/* mean measured rate */
	double		se_measured;	/* standard error of the mean from the trials */
	double		se_binomial;	/* sqrt(model (1 - model) / N) */
	double		half_width;		/* 3.29 max(se_measured, se_binomial) */
	double		half_width_p;	/* the same with p in the binomial term */
	int			outside_model;
	int			outside_p;
	int			outside_km;		/* -1 when there is no KM rate */
} cell_stats;

static void
cell_statistics(const cell *cl, cell_stats *st)
{
	double		total = (double) cl->trials * (double) cl->queries;
	double		t = (double) cl->trials;
	double		mean_q = cl->sum_q / t;
	double		var_q = t > 1 ? (cl->sum_q2 - t * mean_q * mean_q) / (t - 1) : 0;
	double		se_p;

	if (var_q < 0)
		var_q = 0;
	st->rate = cl->sum_q / total;
	st->se_measured = sqrt(var_q / t) / (double) cl->queries;
	st->se_binomial = sqrt(cl->model * (1 - cl->model) / total);
	se_p = sqrt(cl->p * (1 - cl->p) / total);
	st->half_width = Z_999 * fmax(st->se_measured, st->se_binomial);
	st->half_width_p = Z_999 * fmax(st->se_measured, se_p);
	st->outside_model = fabs(st->rate - cl->model) > st->half_width;
	st->outside_p = fabs(st->rate - cl->p) > st->half_width_p;
	if (isnan(cl->km))
		st->outside_km = -1;
	else
	{
		double		se = fmax(st->se_measured, sqrt(cl->km * (1 - cl->km) / total));

		/* a sampled KM rate adds its own error */
		st->outside_km = fabs(st->rate - cl->km) >
			Z_999 * sqrt(se * se + cl->km_se * cl->km_se);
	}
}

static const char *
fmt_rate(char *buf, size_t size, double x)
{
	if (isnan(x))
		snprintf(buf, size, "—");
	else
		snprintf(buf, size, "%.4e", x);
	return buf;
}

/* The KM rate for the table: "—", the exact value, or mean ± SE (samples). */
static const char *
fmt_km(char *buf, size_t size, const cell *cl)
{
	if (isnan(cl->km))
		snprintf(buf, size, "—");
	else if (cl->km_se == 0)
		snprintf(buf, size, "%.4e", cl->km);
	else
		snprintf(buf, size, "%.4e ± %.1e", cl->km, cl->km_se);
	return buf;
}

void
print_tables(const shared_state *shared, double query_factor, const long long *run_n, int nruns,
			 const long long *cs, int ncs, const uint8_t *schemes, int nschemes)
{
	char		b1[32],
				b2[32],
				b3[32],
				b4[64];

	printf("Columns: **m** is the actual size (next prime >= cn for double, double_square and\n"
		   "double_cube; k * nextprime(ceil(cn/k)) for partition; cn for independent; cn rounded up\n"
		   "to a multiple of 512 for blocked).  **measured rate** = false positives / (trials x\n"
		   "queries); **SE (trials)** = standard deviation of the per-trial rates / sqrt(trials).\n"
		   "**p** = (1 - e^{-k/c})^k (section 8).  **model rate** = the core's exact rate for the\n"
		   "scheme at the actual m (bs_scheme_expected_fpr: classic for double, standard for\n"
		   "double_square, double_cube and independent, bs_partition_fpr, bs_blocked_fpr).\n"
		   "**99.9%% ±** = 3.29 max(binomial SE sqrt(r(1-r)/N) under the model rate r with N = trials x\n"
		   "queries, SE (trials)), as a percentage of the model rate: the binomial term treats all N\n"
		   "queries as independent and so leaves out the trial-to-trial variation of the filter, which\n"
		   "the SE across trials includes.  **vs model**, **vs p**: is the measured rate outside that\n"
		   "interval around the model rate, around p.  **KM rate** = the exact rate of the scheme as\n"
		   "the core implements it, under ideal hashing, including the Theta(1/n) term of section 6\n"
		   "(partition: closed form; double: enumeration; double_square, double_cube: mean over 64\n"
		   "random second hashes of the non-member, ± its standard error; — where not computed:\n"
		   "independent and blocked, whose model rates are already exact, and filters too large to\n"
		   "enumerate).  **vs KM**: the same test around the KM rate.  **ms/trial**: CPU time of one\n"
		   "trial (build and queries).\n\n");
	for (int r = 0; r < nruns; r++)
	{
		const cell *first = NULL;

		for (int i = 0; i < shared->ncells; i++)
			if (shared->cells[i].n == run_n[r])
			{
				first = &shared->cells[i];
				break;
			}
		if (first == NULL)
			continue;
		printf("### n = %lld, %lld trials per cell, ⌈%g/p⌉ queries per trial\n\n",
			   run_n[r], (long long) first->trials, query_factor);
		printf("| c | k | scheme | m | queries/trial | measured rate | SE (trials) | p | model rate | (meas − model)/model | 99.9%% ± | vs model | vs p | KM rate | vs KM | ms/trial |\n");
		printf("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|:---:|:---:|---:|:---:|---:|\n");
		for (int ci = 0; ci < ncs; ci++)
			for (int si = 0; si < nschemes; si++)
				for (int i = 0; i < shared->ncells; i++)
				{
					const cell *cl = &shared->cells[i];
					cell_stats st;

					if (cl->n != run_n[r] || cl->c != cs[ci] || cl->scheme != schemes[si])
						continue;
					cell_statistics(cl, &st);
					printf("| %d | %u | %s | %llu | %lld | %s | %.2e | %s | %s | %+.2f%% | %.2f%% | %s | %s | %s | %s | %.3f |\n",
						   cl->c, cl->k, bs_scheme_name(cl->scheme),
						   (unsigned long long) cl->m, (long long) cl->queries,
						   fmt_rate(b1, sizeof(b1), st.rate), st.se_measured,
						   fmt_rate(b2, sizeof(b2), cl->p),
						   fmt_rate(b3, sizeof(b3), cl->model),
						   100 * (st.rate - cl->model) / cl->model,
						   100 * st.half_width / cl->model,
						   st.outside_model ? "**outside**" : "in",
						   st.outside_p ? "**outside**" : "in",
						   fmt_km(b4, sizeof(b4), cl),
						   st.outside_km < 0 ? "" : st.outside_km ? "**outside**" : "in",
						   1000 * cl->cpu_seconds / (double) cl->trials);
				}
		printf("\n");
	}

	/* Figure 1 in numbers: measured rate / p */
	printf("### Measured rate / p (the shape of Figure 1)\n\n");
	printf("| n | c | k | p |");
	for (int si = 0; si < nschemes; si++)
		printf(" %s |", bs_scheme_name(schemes[si]));
	printf("\n|---:|---:|---:|---:|");
	for (int si = 0; si < nschemes; si++)
		printf("---:|");
	printf("\n");
	for (int r = 0; r < nruns; r++)
		for (int ci = 0; ci < ncs; ci++)
		{
			int			printed = 0;

			for (int si = 0; si < nschemes; si++)
				for (int i = 0; i < shared->ncells; i++)
				{
					const cell *cl = &shared->cells[i];
					cell_stats st;

					if (cl->n != run_n[r] || cl->c != cs[ci] || cl->scheme != schemes[si])
						continue;
					if (!printed)
						printf("| %lld | %d | %u | %.4e |", run_n[r], cl->c, cl->k, cl->p);
					printed = 1;
					cell_statistics(cl, &st);
					printf(" %.3f%s |", st.rate / cl->p, st.outside_model ? "*" : "");
				}
			if (printed)
				printf("\n");
		}
	printf("\n`*`: outside the 99.9%% interval around the scheme's model rate.\n\n");
}

void
write_csv(const shared_state *shared, const char *path)
{
	FILE	   *out = fopen(path, "w");

	if (out == NULL)
		die("cannot open the cells CSV");
	fprintf(out, "n,c,k,scheme,m,trials,queries_per_trial,false_positives,measured_rate,"
			"se_measured,p,model_rate,km_rate,km_rate_se,km_samples,se_binomial_model,half_width_999,"
			"outside_model,outside_p,outside_km,ms_per_trial\n");
	for (int i = 0; i < shared->ncells; i++)
	{
		const cell *cl = &shared->cells[i];
		cell_stats	st;

		cell_statistics(cl, &st);
		fprintf(out, "%lld,%d,%u,%s,%llu,%lld,%lld,%.0f,%.10g,%.6g,%.10g,%.10g,",
				(long long) cl->n, cl->c, cl->k, bs_scheme_name(cl->scheme),
				(unsigned long long) cl->m, (long long) cl->trials,
				(long long) cl->queries, cl->sum_q, st.rate, st.se_measured,
				cl->p, cl->model);
		if (isnan(cl->km))
			fprintf(out, ",,0,");
		else
			fprintf(out, "%.10g,%.4g,%d,", cl->km, cl->km_se, cl->km_samples);
		fprintf(out, "%.6g,%.6g,%d,%d,", st.se_binomial, st.half_width,
				st.outside_model, st.outside_p);
		if (st.outside_km >= 0)
			fprintf(out, "%d", st.outside_km);
		fprintf(out, ",%.4f\n", 1000 * cl->cpu_seconds / (double) cl->trials);
	}
	fclose(out);
}

void
write_histograms(const shared_state *shared, const char *path)
{
	FILE	   *out = fopen(path, "w");

	if (out == NULL)
		die("cannot open the histogram CSV");
	fprintf(out, "n,c,k,scheme,queries_per_trial,trials,p,model_rate,false_positives_in_trial,trials_with_that_count\n");
	for (int i = 0; i < shared->ncells; i++)
	{
		const cell *cl = &shared->cells[i];

		for (int q = 0; q < HIST_BINS; q++)
			if (cl->hist[q] != 0)
				fprintf(out, "%lld,%d,%u,%s,%lld,%lld,%.10g,%.10g,%d,%u\n",
						(long long) cl->n, cl->c, cl->k, bs_scheme_name(cl->scheme),
						(long long) cl->queries, (long long) cl->trials, cl->p,
						cl->model, q, cl->hist[q]);
	}
	fclose(out);
}
