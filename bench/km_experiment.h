/*
 * km_experiment.h — what the files of km_experiment share: the cells of the
 * experiment (one (n, c, scheme) each) and the queue the worker processes
 * share, and what each file gives the others.  splitmix64 makes every key
 * of the trials, so it is inline here as it was in the single file.
 */
#ifndef KM_EXPERIMENT_H
#define KM_EXPERIMENT_H

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analysis/bs_analysis.h"
#include "bloom/bs_bloom.h"
#include "bloom/bs_probe.h"
#include "common/bs_primes.h"
#include "bloom/bs_scheme.h"
#include "analysis/bs_scheme_sizing.h"

#define MAX_RUNS 8
#define MAX_CS 16
#define MAX_CELLS (MAX_RUNS * MAX_CS * BS_SCHEME_LAST)
#define HIST_BINS 2048			/* per-trial counts Q >= this share the last bin */
#define Z_999 3.2905267314919255	/* two-sided 99.9% normal quantile */

typedef struct cell
{
	/* set up by the parent */
	int64_t		n;
	int			c;
	uint32_t	k;
	uint8_t		scheme;
	uint64_t	m;
	int64_t		trials;
	int64_t		queries;		/* per trial */
	double		p;				/* (1 - e^{-k/c})^k */
	double		model;			/* bs_scheme_expected_fpr at the actual m */
	double		cost;			/* rough work estimate, for scheduling */

	/* filled in by whichever process runs the cell */
	int			done;
	int			sanity_failed;	/* a member tested absent */
	double		km;				/* exact rate of the scheme itself, or NAN */
	double		km_se;			/* its sampling error (0 when exact) */
	int			km_samples;		/* values of bz averaged (1: exact) */
	double		sum_q;			/* sum over trials of Q */
	double		sum_q2;			/* sum over trials of Q^2 */
	double		cpu_seconds;	/* of the trials alone */
	uint32_t	hist[HIST_BINS];
} cell;

typedef struct shared_state
{
	int			next;			/* next index into order[] to run */
	int			ncells;
	int			order[MAX_CELLS];
	cell		cells[MAX_CELLS];
} shared_state;

static inline uint64_t
splitmix64(uint64_t *state)
{
	uint64_t	z = (*state += UINT64_C(0x9E3779B97F4A7C15));

	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* km_experiment.c */
void		die(const char *message);

/* km_experiment_rate.c: the exact rates of the schemes and their self-test */
void		km_rate(cell *cl);
int			self_test(void);

/* km_experiment_report.c: the tables and the CSV files */
void		print_tables(const shared_state *shared, double query_factor, const long long *run_n,
						 int nruns, const long long *cs, int ncs, const uint8_t *schemes,
						 int nschemes);
void		write_csv(const shared_state *shared, const char *path);
void		write_histograms(const shared_state *shared, const char *path);

#endif							/* KM_EXPERIMENT_H */
