/*
 * sizing_speed.c — how long bloom_create and bloom_agg take to size a
 * filter of each probing scheme (bs_bloom_size_scheme, Kirsch and
 * Mitzenmacher's term included), as the first sizing of a new backend:
 * every case in a fresh child process, timed in thread CPU time.
 *
 * Cases: n = 10, 100, ..., 10^9 at each rate below; the table gives per
 * scheme and group of rates the median and the slowest case, and how many
 * cases were sized, refused as beyond the scheme's reach (22023) or too
 * large (54000).  bloomsketch remembers the last sizings of a backend by
 * their parameters, so each shape is paid for once per session.
 *
 * Usage: sizing_speed    (about a minute)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bloom/bs_bloom.h"
#include "analysis/bs_scheme_sizing.h"

#define NSIZES 9
#define NRATES 7

static const double rates[NRATES] = {1e-2, 1e-3, 1e-4, 1e-6, 1e-9, 1e-12, 1e-300};

typedef struct outcome
{
	double		ms;
	int			status;
} outcome;

static double
thread_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* One sizing in a child, so that no earlier case warms what it computes. */
static outcome
sizing_in_child(uint8_t scheme, int64_t capacity, double fpr, outcome *shared)
{
	pid_t		child = fork();

	if (child == 0)
	{
		uint64_t	bits;
		uint32_t	hashes;
		bs_error	err;
		double		start = thread_ms();

		shared->status = bs_bloom_size_scheme(scheme, capacity, fpr, &bits, &hashes, &err);
		shared->ms = thread_ms() - start;
		_exit(0);
	}
	waitpid(child, NULL, 0);
	return *shared;
}

static int
by_value(const void *a, const void *b)
{
	double		x = *(const double *) a;
	double		y = *(const double *) b;

	return x < y ? -1 : x > y;
}

int
main(void)
{
	outcome    *shared = mmap(NULL, sizeof(outcome), PROT_READ | PROT_WRITE,
							  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	printf("| scheme | rates | cases | sized | refused 22023 | too large 54000 | median ms | slowest ms | slowest case |\n");
	printf("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
	for (uint8_t scheme = 1; scheme <= BS_SCHEME_LAST; scheme++)
		for (int group = 0; group < 3; group++)
		{
			/* 1e-2..1e-4, 1e-6..1e-12, 1e-300 */
			int			first = group == 0 ? 0 : group == 1 ? 3 : 6;
			int			last = group == 0 ? 2 : group == 1 ? 5 : 6;
			double		ms[NSIZES * NRATES];
			int			cases = 0, sized = 0, refused = 0, too_large = 0;
			double		slowest = -1;
			char		where[64] = "";

			for (int r = first; r <= last; r++)
				for (int e = 1; e <= NSIZES; e++)
				{
					int64_t		n = 1;
					outcome		o;

					for (int i = 0; i < e; i++)
						n *= 10;
					o = sizing_in_child(scheme, n, rates[r], shared);
					ms[cases++] = o.ms;
					sized += o.status == BS_OK;
					refused += o.status == BS_ERR_PARAM;
					too_large += o.status == BS_ERR_TOO_LARGE;
					if (o.ms > slowest)
					{
						slowest = o.ms;
						snprintf(where, sizeof(where), "n = 10^%d at %g", e, rates[r]);
					}
				}
			qsort(ms, cases, sizeof(double), by_value);
			printf("| %s | %s | %d | %d | %d | %d | %.2f | %.1f | %s |\n", bs_scheme_name(scheme),
				   group == 0 ? "1e-2 to 1e-4" : group == 1 ? "1e-6 to 1e-12" : "1e-300",
				   cases, sized, refused, too_large, ms[cases / 2], slowest, where);
		}
	return 0;
}
