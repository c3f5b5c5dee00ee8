/*
 * bs_analysis_memory.c — what the exact analysis (bs_analysis.c and the files
 * named in bs_analysis_internal.h; bs_analysis_memory.h) needs from its surroundings: working
 * memory through the allocation hooks, kept between the rates of a sizing,
 * interrupt polling, and the rates and the optimum in k a sizing remembers
 * (bs_analysis_memo_begin .. end).
 */
#include "analysis/bs_analysis_memory.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

/* the analysis computes in long double throughout (bs_analysis_internal.h) */
typedef long double ld;

void	   *(*bs_analysis_alloc) (size_t size) = malloc;
void		(*bs_analysis_free) (void *pointer) = free;

/*
 * Set while a hook that may not return runs: bs_interrupt_check and
 * bs_analysis_alloc may longjmp (CHECK_FOR_INTERRUPTS, palloc).  Found set
 * at a later entry (forget_cut_short), it means a computation was cut
 * short in a hook: what a sizing kept (its working block, its rates) is
 * then forgotten, not freed, since its memory went with the caller's
 * context; else a later call outside a sizing would go on keeping blocks,
 * and reuse one of that freed memory.
 */
static _Thread_local int in_hook;

static void forget_cut_short(void);

/* bs_poll_interrupts, marked as a hook that may not return */
void
bs_analysis_poll(void)
{
	in_hook = 1;
	bs_poll_interrupts();
	in_hook = 0;
}

/*
 * Working blocks are aligned here to WORK_ALIGN bytes, what long double and
 * the structures holding it need (the compiler may move them with 16-byte
 * aligned vector instructions), whatever the hook gives: palloc aligns to 8
 * only.  The byte before a block holds its distance from what the hook
 * returned.
 */
#define WORK_ALIGN 16

/*
 * In a sizing (bs_analysis_memo_begin .. end), the largest block of at
 * least KEEP_MIN_BYTES freed is kept for the next rate instead of going
 * back to the hook: the row table of a few items at extreme rates is
 * several MB, which a new process otherwise faults in twice (glibc maps the
 * first such block and, once it is unmapped, takes the next from a heap
 * that grows) and each at some 2 us a page.  Blocks of that size in use are
 * tracked in large_raw (up to KEEP_SLOTS; any more are not kept) and
 * allocated 1/8 larger, for the slightly larger tables of the next k.
 * Between sizings nothing is kept: the hook's memory (palloc in the extension)
 * belongs to the caller.
 */
#define KEEP_MIN_BYTES ((size_t) 1 << 20)
#define KEEP_SLOTS 4

static _Thread_local int work_keeping;
static _Thread_local unsigned char *kept_raw;
static _Thread_local size_t kept_size;
static _Thread_local unsigned char *large_raw[KEEP_SLOTS];
static _Thread_local size_t large_size[KEEP_SLOTS];

/* start or end keeping; start forgets what a sizing cut short left */
static void
work_keep(int on)
{
	int			i;

	if (!on && kept_raw != NULL)
		bs_analysis_free(kept_raw);
	kept_raw = NULL;
	for (i = 0; i < KEEP_SLOTS; i++)
		large_raw[i] = NULL;
	work_keeping = on;
}

/* zeroed working memory; NULL (and *status set) when out of memory */
void *
bs_work_alloc_bytes(size_t bytes, bs_error *err, bs_status *status)
{
	size_t		size = bytes + WORK_ALIGN;
	unsigned char *raw = NULL;
	unsigned char *p;
	int			large;
	int			reused = 0;

	forget_cut_short();
	large = work_keeping && bytes >= KEEP_MIN_BYTES && bytes <= SIZE_MAX - WORK_ALIGN;
	if (large && kept_raw != NULL && kept_size >= size)
	{
		raw = kept_raw;
		size = kept_size;
		kept_raw = NULL;
		reused = 1;
	}
	else if (bytes <= SIZE_MAX - WORK_ALIGN)
	{
		/*
		 * large: room for the tables of the next few k and m too (the
		 * pages beyond those written are never touched)
		 */
		if (large && size <= SIZE_MAX / 9 * 8)
			size += size / 8;
		in_hook = 1;
		raw = bs_analysis_alloc(size);
		in_hook = 0;
	}
	if (raw != NULL && large)
	{
		int			i;

#if defined(__linux__) && defined(MADV_HUGEPAGE)
		{
			/*
			 * transparent huge pages for the 2 MB pieces of a new block
			 * (where the system leaves them to madvise): a fault per 2 MB
			 * instead of per 4 kB; only advice, ignored where not possible
			 */
			uintptr_t	from = ((uintptr_t) raw + ((uintptr_t) 1 << 21) - 1) &
				~(((uintptr_t) 1 << 21) - 1);
			uintptr_t	to = ((uintptr_t) raw + size) & ~(((uintptr_t) 1 << 21) - 1);

			if (!reused && to > from)
				(void) madvise((void *) from, to - from, MADV_HUGEPAGE);
		}
#else
		(void) reused;
#endif

		for (i = 0; i < KEEP_SLOTS && large_raw[i] != NULL; i++)
			;
		if (i < KEEP_SLOTS)
		{
			large_raw[i] = raw;
			large_size[i] = size;
		}
	}
	if (raw == NULL)
	{
		*status = bs_fail(err, BS_ERR_TOO_LARGE,
						  "out of memory computing a false-positive rate",
						  "Could not allocate %zu bytes of working memory.",
						  bytes);
		return NULL;
	}
	p = raw + (WORK_ALIGN - (uintptr_t) raw % WORK_ALIGN);	/* 1..16 ahead */
	p[-1] = (unsigned char) (p - raw);
	memset(p, 0, bytes);
	return p;
}

/* count zeroed long doubles */
void *
bs_work_alloc(size_t count, bs_error *err, bs_status *status)
{
	return bs_work_alloc_bytes(count * sizeof(ld), err, status);
}

void
bs_work_free(void *p)
{
	unsigned char *raw;
	int			i;

	if (p == NULL)
		return;
	raw = (unsigned char *) p - ((unsigned char *) p)[-1];
	for (i = 0; work_keeping && i < KEEP_SLOTS; i++)
		if (large_raw[i] == raw)
		{
			large_raw[i] = NULL;
			if (kept_raw != NULL && kept_size >= large_size[i])
				break;			/* keep the larger */
			if (kept_raw != NULL)
				bs_analysis_free(kept_raw);
			kept_raw = raw;
			kept_size = large_size[i];
			return;
		}
	bs_analysis_free(raw);
}

/* ------------------------------------------------------------------------
 * What a sizing remembers
 * ------------------------------------------------------------------------ */

/*
 * The exact rates computed during a sizing (bs_analysis_memo_begin/end),
 * per thread: bs_bloom_size_exact decides "does some k reach the rate" at
 * the m it finally rounds up to a prime, and then asks for the optimal k at
 * that prime, which needs the same rates again.  The computation is
 * deterministic, so a remembered rate is the very value a new computation
 * would give.  Outside a sizing nothing is remembered.
 */
#define RATE_MEMO_SIZE 32

typedef struct rate_memo
{
	int64_t		m;
	int64_t		n;
	int64_t		k;
	bs_construction c;
	ld			ln;
	int			partial;		/* ln only a lower bound (bs_rate_bound_ln) */
} rate_memo;

static _Thread_local rate_memo memo[RATE_MEMO_SIZE];
static _Thread_local int memo_used = -1;	/* entries filled; -1: not remembering */

/*
 * And the last local minimum in k that a search walked to, at memo_ref_m
 * bits for memo_ref_n items: bs_optimal_k starts there (scaled to its m)
 * rather than from the bounds, a few exact rates fewer.
 */
static _Thread_local int64_t memo_ref_m;
static _Thread_local int64_t memo_ref_n;
static _Thread_local bs_construction memo_ref_c;
static _Thread_local int memo_ref_k;

/* see in_hook */
static void
forget_cut_short(void)
{
	if (!in_hook)
		return;
	in_hook = 0;
	memo_used = -1;
	kept_raw = NULL;			/* the caller's memory, freed by now */
	work_keep(0);
}

void
bs_analysis_memo_begin(void)
{
	in_hook = 0;
	memo_used = 0;
	memo_ref_m = 0;
	work_keep(1);
}

void
bs_analysis_memo_end(void)
{
	memo_used = -1;
	work_keep(0);
}

/* a rate remembered for (m, n, k, c) that serves a call with stop_ln */
int
bs_analysis_memo_find(int64_t m, int64_t n, int64_t k, bs_construction c,
					  ld stop_ln, ld *ln_out, int *partial)
{
	int			i;

	for (i = 0; i < memo_used; i++)
		if (memo[i].m == m && memo[i].n == n && memo[i].k == k && memo[i].c == c &&
			(!memo[i].partial || (!isinf(stop_ln) && memo[i].ln > stop_ln)))
		{
			*ln_out = memo[i].ln;
			*partial = memo[i].partial;
			return 1;
		}
	return 0;
}

void
bs_analysis_memo_add(int64_t m, int64_t n, int64_t k, bs_construction c,
					 ld ln, int partial)
{
	if (memo_used >= 0 && memo_used < RATE_MEMO_SIZE)
	{
		rate_memo  *slot = &memo[memo_used++];

		slot->m = m;
		slot->n = n;
		slot->k = k;
		slot->c = c;
		slot->ln = ln;
		slot->partial = partial;
	}
}

void
bs_analysis_memo_set_ref(int64_t m, int64_t n, bs_construction c, int k)
{
	memo_ref_m = m;
	memo_ref_n = n;
	memo_ref_c = c;
	memo_ref_k = k;
}

int
bs_analysis_memo_ref(int64_t n, bs_construction c, int64_t *m, int *k)
{
	if (!(memo_used >= 0 && memo_ref_m > 0 && memo_ref_n == n && memo_ref_c == c))
		return 0;
	*m = memo_ref_m;
	*k = memo_ref_k;
	return 1;
}
