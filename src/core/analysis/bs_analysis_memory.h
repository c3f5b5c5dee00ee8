/*
 * bs_analysis_memory.h — what the exact analysis needs from its
 * surroundings (bs_analysis_memory.c): working memory through the
 * allocation hooks, interrupt polling counted in steps of work, and the
 * rates and optimum in k that a sizing remembers.
 */
#ifndef BS_ANALYSIS_MEMORY_H
#define BS_ANALYSIS_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/bs_analysis_params.h"
#include "common/bs_error.h"

/* call the interrupt hook after this many inner steps */
#define BS_ANALYSIS_TICK_STEPS 65536UL

/* steps of work counted since the last poll */
typedef struct bs_analysis_work
{
	unsigned long ops;
} bs_analysis_work;

void		bs_analysis_poll(void);

/* count steps of work, polling for interrupts every BS_ANALYSIS_TICK_STEPS of them */
static inline void
bs_analysis_tick(bs_analysis_work *w, unsigned long steps)
{
	w->ops += steps;
	if (w->ops >= BS_ANALYSIS_TICK_STEPS)
	{
		w->ops = 0;
		bs_analysis_poll();
	}
}

/* zeroed working memory; NULL (and *status set) when out of memory */
void	   *bs_work_alloc_bytes(size_t bytes, bs_error *err, bs_status *status);
/* count zeroed long doubles */
void	   *bs_work_alloc(size_t count, bs_error *err, bs_status *status);
void		bs_work_free(void *p);

/*
 * The rates of a sizing (bs_analysis_memo_begin .. end): a rate computed
 * for (m, n, k, c) that serves a call with stop_ln (bs_rate_bound_ln);
 * remembering one (nothing outside a sizing).
 */
int			bs_analysis_memo_find(int64_t m, int64_t n, int64_t k, bs_construction c,
								  long double stop_ln, long double *ln_out,
								  int *partial);
void		bs_analysis_memo_add(int64_t m, int64_t n, int64_t k, bs_construction c,
								 long double ln, int partial);

/*
 * The last local minimum in k a search of this sizing walked to, k at m
 * bits for n items: set by the searches over m, asked for by bs_optimal_k
 * (0 when none is known for n and c, or outside a sizing).
 */
void		bs_analysis_memo_set_ref(int64_t m, int64_t n, bs_construction c, int k);
int			bs_analysis_memo_ref(int64_t n, bs_construction c, int64_t *m, int *k);

/*
 * Allocation of the working arrays (at most about 30 MB);
 * malloc and free by default.  A NULL result gives BS_ERR_TOO_LARGE.  Any
 * alignment will do (palloc's 8 bytes): the core aligns its blocks itself.
 */
extern void *(*bs_analysis_alloc) (size_t size);
extern void (*bs_analysis_free) (void *pointer);

/*
 * Between begin and end, the calling thread remembers the exact rates it
 * computes (at most 32) and answers a repeated (m, n, k, construction) from
 * memory: for a sequence of searches over the same n, such as a sizing
 * (bs_optimal_bits, then bs_optimal_k at the prime above its answer).  A
 * remembered rate is the value a new computation would give.  begin forgets
 * what an earlier sequence remembered (also one ended by an error).  Also
 * keeps the largest working block (1 MB or more) from one rate to the next,
 * allocated with bs_analysis_alloc and released by end (one cut short by an
 * error thrown from a hook is left to its memory context: the next begin,
 * or the next computation outside a sizing, forgets it).
 */
void		bs_analysis_memo_begin(void);
void		bs_analysis_memo_end(void);

#endif							/* BS_ANALYSIS_MEMORY_H */
