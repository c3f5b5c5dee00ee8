/*
 * bs_rate_chain_step.c — the inner step of the exact-analysis chain
 * (bs_rate_chain_step.h).
 *
 * Most of a sizing's time at extreme rates is this loop (k near 1000: some
 * 10^7 products per rate), so it keeps its sixteen sums in registers, as
 * four vectors of four doubles that the compiler maps onto what the CPU has:
 * on x86-64, an AVX2 copy is chosen at load time where the CPU supports it
 * (2.5-3x faster than the sums kept in memory before), SSE2 otherwise.  AVX2
 * without FMA: every copy rounds each product before adding it, so all of
 * them give the same bits (test/unit/analysis/test_analysis_chain.c, part H).
 *
 * Terms: a chain step turns the chain's vector for a hitting items into the
 * one for a + 1 (bs_rate_chain.c).
 */
#include "analysis/bs_rate_chain_step.h"

/*
 * Four doubles: one AVX2 register, two SSE2 registers; read and written at
 * any double's address.
 */
typedef double lanes __attribute__((vector_size(4 * sizeof(double))));
typedef double unaligned_lanes
			__attribute__((vector_size(4 * sizeof(double)), aligned(sizeof(double)), may_alias));

#define LANES_AT(p) (*(const unaligned_lanes *) (p))

/*
 * The sums, inlined into one copy per instruction set below, so that each
 * copy is compiled for its own vector registers.
 */
static inline __attribute__((always_inline)) int
chain_step_body(const double *v, const double *diag, size_t length,
				int lo, int hi, int J, double scale, double *next)
{
	int			t;

	for (t = lo; t <= hi; t += BS_CHAIN_BLOCK)
	{
		lanes		s0 = {0};
		lanes		s1 = {0};
		lanes		s2 = {0};
		lanes		s3 = {0};
		const double *x = v + t;
		const double *d = diag + t;
		int			j;

		for (j = 0; j <= J; j++)
		{
			s0 += LANES_AT(x) * LANES_AT(d);
			s1 += LANES_AT(x + 4) * LANES_AT(d + 4);
			s2 += LANES_AT(x + 8) * LANES_AT(d + 8);
			s3 += LANES_AT(x + 12) * LANES_AT(d + 12);
			x += 1;
			d += length + 1;
		}
		*(unaligned_lanes *) (next + t) = s0 * scale;
		*(unaligned_lanes *) (next + t + 4) = s1 * scale;
		*(unaligned_lanes *) (next + t + 8) = s2 * scale;
		*(unaligned_lanes *) (next + t + 12) = s3 * scale;
	}
	return t;
}

/*
 * On x86-64 the AVX2 copy is picked on the first call, through a pointer,
 * rather than with target_clones or an ifunc: GCC exports a target_clones
 * function from a shared library whatever its visibility, clang 14 names its
 * dispatcher apart from the function (calls from other files do not link),
 * and an ifunc resolver runs before the sanitizers of the fuzzers are set up.
 * One indirect call per step is nothing next to the step's J + 1 products.
 */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__has_attribute)
#if __has_attribute(target)
#define CHAIN_AVX2
#endif
#endif

#ifdef CHAIN_AVX2

typedef int (*chain_step_fn) (const double *v, const double *diag, size_t length,
							  int lo, int hi, int J, double scale, double *next);

__attribute__((target("avx2")))
static int
chain_step_avx2(const double *v, const double *diag, size_t length,
				int lo, int hi, int J, double scale, double *next)
{
	return chain_step_body(v, diag, length, lo, hi, J, scale, next);
}

static int
chain_step_default(const double *v, const double *diag, size_t length,
				   int lo, int hi, int J, double scale, double *next)
{
	return chain_step_body(v, diag, length, lo, hi, J, scale, next);
}

int
bs_chain_step(const double *v, const double *diag, size_t length,
			  int lo, int hi, int J, double scale, double *next)
{
	static chain_step_fn step = NULL;

	if (step == NULL)
	{
		__builtin_cpu_init();
		step = __builtin_cpu_supports("avx2") ? chain_step_avx2 : chain_step_default;
	}
	return step(v, diag, length, lo, hi, J, scale, next);
}

#else

int
bs_chain_step(const double *v, const double *diag, size_t length,
			  int lo, int hi, int J, double scale, double *next)
{
	return chain_step_body(v, diag, length, lo, hi, J, scale, next);
}

#endif
