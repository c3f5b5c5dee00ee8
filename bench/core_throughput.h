/*
 * core_throughput.h — what the files of core_throughput share: the constants
 * of a measurement, the state the timed loops work on (Run), the tables of
 * the library's and the floor's loops, a row of the table and the side by
 * side measure (Versus), and what each file gives the others.  The helpers
 * that run inside timed loops (now_ns, mix64, mulhi) are inline here, so
 * that every file inlines them where the single file did.
 */
#ifndef CORE_THROUGHPUT_H
#define CORE_THROUGHPUT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bloom/bs_batch.h"
#include "cms/bs_cms_batch.h"
#include "bloom/bs_bloom.h"
#include "bloom/bs_probe.h"
#include "analysis/bs_scheme_sizing.h"

#define CHUNK 4096				/* keys made at a time, untimed; timed at a time */
#define CHUNKS 32
#define OPS (CHUNKS * CHUNK)	/* operations per timed run: 131,072 */
#define RUNS 5					/* counted runs per figure */
#define WARMUP 1				/* runs not counted, first */
#define DEPTH 16				/* bloom_agg's PIPELINE_DEPTH */
#define MAX_DEPTH 64			/* the deepest ring of the depth sweep */
#define MAX_WIDTH 32
#define FPR 0.01
#define SEED 0					/* bloom_agg's seed */
#define NONMEMBER_BASE (UINT64_C(1) << 40)	/* key indexes never inserted */
#define INDEPENDENT_SEED_STEP UINT64_C(0xD1B54A32D192ED03)	/* bs_probe_other.c */
#define HUGE_PAGE (2 * 1024 * 1024)

/* ---- timing and statistics ---- */

static inline double
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Median, minimum and maximum of RUNS figures. */
typedef struct Stat
{
	double		median;
	double		min;
	double		max;
} Stat;

int			compare_double(const void *a, const void *b);
Stat		stat_of(const double *figures);

/* ---- keys ---- */

static inline uint64_t
mix64(uint64_t x)
{
	x += UINT64_C(0x9E3779B97F4A7C15);
	x = (x ^ (x >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94D049BB133111EB);
	return x ^ (x >> 31);
}

void		make_key(uint8_t *out, int width, uint64_t index);

/* ---- the state of one measurement ---- */

/* A filter's shape, as the floor loops hold it. */
typedef struct Shape
{
	uint64_t   *words;
	uint64_t	bits;			/* m */
	uint64_t	range;			/* m, m' (partition) or blocks (blocked) */
	uint32_t	hashes;			/* k */
	bool		block_simd;		/* blocked k <= 7 bits in 512-bit vectors */
	uint64_t	seed;
} Shape;

typedef struct Run
{
	bs_bloom   *filter;
	bs_probe	probe;
	Shape		shape;
	int			width;			/* key bytes */
	uint64_t	pushed;			/* values entered into the ring this run */
	uint32_t	depth;			/* values in flight: DEPTH, or the sweep's */
	uint64_t	ring_first[MAX_DEPTH];
	uint64_t	ring_step[MAX_DEPTH];
	uint64_t	hits;			/* queries answered "maybe" */
	uint64_t	sink;			/* keeps the hash-alone loop alive */
} Run;

typedef void (*Kernel) (Run *run, const uint8_t *keys, uint32_t count);
typedef void (*Flush) (Run *run);

static inline uint64_t
mulhi(uint64_t x, uint64_t n)
{
	return (uint64_t) (((unsigned __int128) x * n) >> 64);
}

/* ---- the loops timed: the library's (core_throughput_lib.c), the floor's (core_throughput_floor.c) ---- */

typedef struct SchemeKernels
{
	Kernel		insert;
	Kernel		pipelined;		/* NULL: not pipelined (independent) */
	Flush		flush;
	Kernel		query;
} SchemeKernels;

extern const SchemeKernels lib_kernels[BS_SCHEME_LAST + 1];
extern const SchemeKernels variant_kernels;
extern const SchemeKernels floor_kernels[BS_SCHEME_LAST + 1];

void		lib_query_pipelined(Run *run, const uint8_t *keys, uint32_t count);
void		lib_query_flush(Run *run);
void		lib_insert_batch(Run *run, const uint8_t *keys, uint32_t count);
void		lib_query_batch(Run *run, const uint8_t *keys, uint32_t count);
void		hash_alone(Run *run, const uint8_t *keys, uint32_t count);
void		floor_positions(int scheme, const Shape *s, const uint8_t *key, int width,
							uint64_t *positions);

/* ---- what is measured (core_throughput_measure.c) ---- */

enum
{
	M_INSERT, M_INSERT_FLOOR, M_PIPE, M_PIPE_FLOOR, M_QUERY, M_QUERY_FLOOR,
	M_COUNT
};

/* One row of the table. */
typedef struct Row
{
	const char *label;
	uint8_t		scheme;
	int64_t		n;
	uint64_t	bits;
	uint32_t	hashes;
	double		ns[M_COUNT][RUNS];	/* per run, ns per operation */
	bool		measured[M_COUNT];
	double		fp_rate;
} Row;

/* the depths of the rings of the side by side measure (see measure_versus) */
#define SWEEP_COUNT 4
extern const uint32_t sweep_depths[SWEEP_COUNT];

enum
{
	V_INSERT, V_QUERY, V_PIPE, V_QUERY_PIPE, V_BATCH, V_QUERY_BATCH, V_COUNT
};

typedef struct Versus
{
	bool		measured;
	int64_t		n;
	/* [measure][depth index (0 one at a time)][double, blocked][run] */
	double		ns[V_COUNT][SWEEP_COUNT][2][RUNS];
} Versus;

#define DISTURBANCE_MAX 8192

extern uint8_t *key_buffer;
extern double disturbance[DISTURBANCE_MAX];
extern int	disturbance_count;

void		measure_row(Row *row, int width, size_t offset, bool variant);
void		hash_alone_ns(int width, double *per_run);
void		measure_versus(Versus *v, int width, int64_t n);
void		measure_memory(size_t bytes, double *latency, double *independent);

/* ---- report (core_throughput_report.c) ---- */

void		machine_line(void);
void		print_row(const Row *row);
void		ratio_range(const Row *row, int m, double *lo, double *hi);
const char *operation_name(int m);
Stat		versus_ratio(const Versus *v, int m, int double_depth, int blocked_depth);
void		versus_target(const Versus *v, int width, int m, const char *name);

#endif							/* CORE_THROUGHPUT_H */
