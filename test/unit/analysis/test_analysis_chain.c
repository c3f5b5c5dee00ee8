/*
 * test_analysis_chain.c — checks of the occupancy chain's machinery: H. the
 * vectorised chain step against the plain loop, K. the chain's cheap lower
 * bound against the exact rate.
 */
#include "test_analysis.h"

/*
 * H. The vectorised chain step (bs_chain_step, the copy this CPU runs) gives
 * the bits of the plain loop: each output's products added in the order of
 * j, one rounding per operation (this file is compiled without contraction
 * into fused multiply-adds).  Values over the whole double range.
 */
void
test_chain_step(void)
{
	static const int shapes[][3] = {	/* K, J, lo */
		{0, 0, 0}, {1, 1, 0}, {15, 3, 2}, {16, 1, 0}, {17, 16, 5},
		{100, 22, 40}, {997, 8, 300}, {711, 552, 0}, {1000, 93, 999}
	};
	unsigned	seed = 12345;
	long		differ = 0;
	size_t		c;

	for (c = 0; c < sizeof(shapes) / sizeof(shapes[0]); c++)
	{
		int			K = shapes[c][0];
		int			J = shapes[c][1];
		int			lo = shapes[c][2];
		size_t		length = (size_t) K + 1 + (size_t) J + BS_CHAIN_BLOCK;
		double	   *v = calloc(length, sizeof(double));
		double	   *diag = calloc(length * ((size_t) J + 1), sizeof(double));
		double	   *next = calloc(length, sizeof(double));
		double		scale = ldexp(1.0, -448);
		int			end;
		int			t;
		size_t		i;

		for (i = 0; i <= (size_t) K; i++)
		{
			seed = seed * 1103515245u + 12345u;
			v[i] = ldexp((double) (seed >> 8) / (1u << 24), (int) (seed % 1500) - 600);
		}
		for (i = 0; i < length * ((size_t) J + 1); i++)
		{
			seed = seed * 1103515245u + 12345u;
			if (i % length <= (size_t) K)
				diag[i] = ldexp((double) (seed >> 8) / (1u << 24), (int) (seed % 900) - 100);
		}
		end = bs_chain_step(v, diag, length, lo, K, J, scale, next);
		check(end > K && end - lo <= K - lo + BS_CHAIN_BLOCK && (end - lo) % BS_CHAIN_BLOCK == 0,
			  "chain step K=%d J=%d lo=%d: end %d", K, J, lo, end);
		for (t = lo; t <= K; t++)
		{
			double		s = 0;
			int			j;

			for (j = 0; j <= J; j++)
				s += v[t + j] * diag[(size_t) j * length + t + j];
			s *= scale;
			if (memcmp(&s, &next[t], sizeof(s)) != 0)
				differ++;
		}
		free(v);
		free(diag);
		free(next);
	}
	check(differ == 0, "chain step: %ld outputs differ from the plain loop", differ);

	printf("H. chain step: vectorised step bit-identical to the plain loop on %zu shapes\n",
		   sizeof(shapes) / sizeof(shapes[0]));
}

/*
 * K. The chain's cheap lower bound (bs_classic_ln with a finite stop,
 * through bs_rate_bound_ln; test/unit/analysis/analysis_internal.c reaches these internal
 * functions):
 * over a grid of classic (m, n, k), m = 64 .. 2^33, n = 1 .. 10^9,
 * k = 1 .. 1000 (many of them with at least 32 expected hits, where the
 * bound is computed), and thresholds below and above the exact rate, with
 * the stop bs_k_above_by_bound uses: a bound (partial) is at most the
 * exact rate (less the 1e-10 relative allowance bs_k_above_by_bound takes
 * off), never certifies "above" a threshold at or over the exact rate, and, when it
 * stops past a threshold below the exact rate, certifies "above" it; a
 * threshold clearly below the rate is always passed.  A result that is not
 * partial is the exact rate, bit for bit.
 */
void
test_lower_bound(void)
{
	static const int64_t ms[] = {64, 100, 1000, 5000, 65536, 1000003,
	INT64_C(1) << 24, INT64_C(1) << 30, INT64_C(1) << 33};
	static const int64_t ks[] = {1, 2, 3, 7, 16, 32, 64, 100, 250, 500, 1000};
	static const double loads[] = {0.1, 0.5, 1, 2, 4, 10, 30};
	static const int64_t fixed_ns[] = {1, 2, 3, 10};
	/* thresholds: exact + d (1 + |exact|) */
	static const double ds[] = {-50, -5, -0.5, -1e-3, -1e-6, 0, 1e-6, 1e-3, 0.5, 5};
	long		cases = 0;
	long		bounds = 0;
	long		stopped = 0;
	long		none = 0;
	ld			worst_excess = -INFINITY;
	double		t0 = now_ms();
	size_t		a;
	size_t		b;
	size_t		d;
	size_t		e;

	for (a = 0; a < sizeof(ms) / sizeof(ms[0]); a++)
		for (b = 0; b < sizeof(ks) / sizeof(ks[0]); b++)
			for (d = 0; d < sizeof(fixed_ns) / sizeof(fixed_ns[0]) +
				 sizeof(loads) / sizeof(loads[0]); d++)
			{
				int64_t		m = ms[a];
				int64_t		k = ks[b];
				int64_t		n;
				ld			exact;
				int			partial;
				bs_error	err;

				if (k > m)
					continue;
				if (d < sizeof(fixed_ns) / sizeof(fixed_ns[0]))
					n = fixed_ns[d];
				else
				{
					double		nd = floor(loads[d - sizeof(fixed_ns) / sizeof(fixed_ns[0])] *
										   (double) m / (double) k + 0.5);

					n = nd < 1 ? 1 : nd > 1e9 ? 1000000000 : (int64_t) nd;
				}
				if (bs_test_classic_bound_ln(m, n, k, INFINITY, &exact, &partial, &err) != BS_OK)
				{
					check(0, "lower bound: exact rate m=%lld n=%lld k=%lld: %s",
						  (long long) m, (long long) n, (long long) k, err.message);
					continue;
				}
				/* -inf: below the long double range (1 item, k = 1000, m >= 2^30) */
				check(!partial && exact <= 0 && (!isinf(exact) || n < 32),
					  "lower bound: exact rate m=%lld n=%lld k=%lld (%Lg, partial %d)",
					  (long long) m, (long long) n, (long long) k, exact, partial);
				if (isinf(exact))
					continue;
				cases++;
				for (e = 0; e < sizeof(ds) / sizeof(ds[0]); e++)
				{
					ld			threshold = exact + ds[e] * (1 + fabsl(exact));
					ld			stop = bs_test_bound_stop(m, threshold);
					ld			lb;
					int			ok = bs_test_classic_bound_ln(m, n, k, stop, &lb, &partial, &err) == BS_OK;

					check(ok, "lower bound m=%lld n=%lld k=%lld: %s", (long long) m,
						  (long long) n, (long long) k, ok ? "" : err.message);
					if (!ok)
						continue;
					if (!partial)
					{
						check(memcmp(&lb, &exact, 10) == 0,
							  "lower bound m=%lld n=%lld k=%lld: not partial, %.20Lg for the rate %.20Lg",
							  (long long) m, (long long) n, (long long) k, lb, exact);
						continue;
					}
					bounds++;
					if (isinf(lb))
					{
						none++;
						check(lb < 0, "lower bound m=%lld n=%lld k=%lld: +inf", (long long) m,
							  (long long) n, (long long) k);
						continue;
					}
					if ((lb - exact) / (1 + fabsl(exact)) > worst_excess)
						worst_excess = (lb - exact) / (1 + fabsl(exact));
					check(lb - bs_test_bound_allowance(lb) <= exact,
						  "lower bound m=%lld n=%lld k=%lld threshold %+g: bound %.20Lg above the rate %.20Lg",
						  (long long) m, (long long) n, (long long) k, ds[e], lb, exact);
					if (threshold >= exact)
						check(!bs_test_bound_certifies(m, lb, threshold),
							  "lower bound m=%lld n=%lld k=%lld: certifies above a threshold %+g over the rate",
							  (long long) m, (long long) n, (long long) k, ds[e]);
					else
					{
						if (lb > stop)
						{
							stopped++;
							check(bs_test_bound_certifies(m, lb, threshold),
								  "lower bound m=%lld n=%lld k=%lld: stopped at %.20Lg past the stop %.20Lg, does not certify threshold %+g",
								  (long long) m, (long long) n, (long long) k, lb, stop, ds[e]);
						}
						if (ds[e] <= -1e-3)
							check(lb > stop,
								  "lower bound m=%lld n=%lld k=%lld: %.20Lg does not pass threshold %+g (stop %.20Lg, rate %.20Lg)",
								  (long long) m, (long long) n, (long long) k, lb, ds[e], stop, exact);
					}
				}
			}
	/* the grid reaches the regime of the bounds, and they stop early */
	check(bounds >= 500 && stopped >= 200, "lower bound: only %ld bounds, %ld stopped", bounds, stopped);
	printf("K. lower bounds: %ld (m, n, k) x %zu thresholds, %ld bounds (%ld stopped past the threshold, %ld none), "
		   "largest (bound - rate)/(1 + |rate|) %.3Lg (%.1f s)\n",
		   cases, sizeof(ds) / sizeof(ds[0]), bounds, stopped, none, worst_excess,
		   (now_ms() - t0) / 1e3);
}
