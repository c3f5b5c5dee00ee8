/*
 * test_analysis_sizing.c — checks of the sizing of a filter: I. a sizing
 * that remembers its rates, J. the search over primes
 * (bs_optimal_prime_bits), L. the working block a sizing keeps.
 */
#include "test_analysis.h"

/*
 * I. A sizing remembers its rates and starts its last search at the minimum
 * it walked to: the same (m, k) as the separate functions, which remember
 * nothing, and the same again when repeated.
 */
void
test_sizing_memo(void)
{
	static const struct
	{
		int64_t		n;
		double		fpr;
	}			cases[] = {
		{1, 1e-300}, {2, 1e-300}, {3, 1e-300}, {50, 1e-300}, {1000, 1e-100},
		{100, 0.01}, {1000000, 1e-6}, {7, 1e-30}
	};
	size_t		c;

	for (c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
	{
		uint64_t	bits[2] = {0, 0};
		uint32_t	hashes[2] = {0, 0};
		int64_t		m = 0;
		int64_t		k = 0;
		uint64_t	prime;
		int			r;

		for (r = 0; r < 2; r++)
			check(bs_bloom_size_exact(cases[c].n, cases[c].fpr, &bits[r], &hashes[r], NULL) == BS_OK,
				  "sizing n=%lld fpr=%g", (long long) cases[c].n, cases[c].fpr);
		check(bs_optimal_bits(cases[c].n, cases[c].fpr, BS_CONSTRUCTION_CLASSIC, &m, NULL) == BS_OK,
			  "optimal bits n=%lld", (long long) cases[c].n);
		prime = bs_next_prime(m < BS_BLOOM_MIN_BITS ? BS_BLOOM_MIN_BITS : (uint64_t) m);
		check(bs_optimal_k((int64_t) prime, cases[c].n, BS_CONSTRUCTION_CLASSIC, &k, NULL) == BS_OK,
			  "optimal k n=%lld", (long long) cases[c].n);
		if (k > (int64_t) prime)
			k = (int64_t) prime;
		check(bits[0] == prime && hashes[0] == (uint32_t) k && bits[1] == bits[0] &&
			  hashes[1] == hashes[0],
			  "sizing n=%lld fpr=%g: (%llu, %u) then (%llu, %u), separately (%llu, %lld)",
			  (long long) cases[c].n, cases[c].fpr, (unsigned long long) bits[0], hashes[0],
			  (unsigned long long) bits[1], hashes[1], (unsigned long long) prime, (long long) k);
	}
	printf("I. sizing: %zu sizings equal to bs_optimal_bits, the next prime and bs_optimal_k\n",
		   sizeof(cases) / sizeof(cases[0]));
}

/*
 * J. bs_optimal_prime_bits, which decides only at primes, against the
 * definition it replaces in a sizing: the smallest prime >= max(lo,
 * bs_optimal_bits(n, fpr, c)); both constructions, rates from 0.5 to
 * 1e-300, capacities 1 to 10^9, lower ends of the range above and below
 * the answer, and a range whose top does not reach the rate.
 */
void
test_prime_bits(void)
{
	static const int64_t ns[] = {1, 2, 3, 5, 8, 12, 27, 100, 1557, 11823, 202009,
	1000000, 1000000000};
	static const double fprs[] = {0.5, 0.01, 1e-6, 1e-19, 1e-30, 1e-100, 1e-200, 1e-300};
	int64_t		hi = (int64_t) bs_prev_prime((uint64_t) BS_ANALYSIS_MAX_BITS);
	int64_t		answer = 0;
	long		count = 0;
	double		t0 = now_ms();
	size_t		a;
	size_t		b;
	int			cc;

	for (cc = 0; cc <= 1; cc++)
		for (a = 0; a < sizeof(ns) / sizeof(ns[0]); a++)
			for (b = 0; b < sizeof(fprs) / sizeof(fprs[0]); b++)
			{
				bs_construction c = (bs_construction) cc;
				int64_t		m = 0;
				int64_t		p = 0;
				int64_t		lo;
				int			l;

				if (bs_optimal_bits(ns[a], fprs[b], c, &m, NULL) != BS_OK || m > hi)
					continue;	/* beyond the range of bs_optimal_bits */
				for (l = 0; l < 2; l++)
				{
					uint64_t	expect;

					/* lo below the answer, then just above it */
					lo = l == 0 ? 2 : m + 1;
					expect = bs_next_prime((uint64_t) (m > lo ? m : lo));
					check(bs_optimal_prime_bits(ns[a], fprs[b], c, lo, hi, &p, NULL) == BS_OK &&
						  (uint64_t) p == expect,
						  "prime bits %s n=%lld fpr=%g lo=%lld: %lld, expected %llu",
						  cname(c), (long long) ns[a], fprs[b], (long long) lo,
						  (long long) p, (unsigned long long) expect);
					count++;
				}
				/* a top below the answer is too small */
				if (m > 3)
					check(bs_optimal_prime_bits(ns[a], fprs[b], c, 2,
												(int64_t) bs_prev_prime((uint64_t) (m - 1)), &p,
												NULL) == BS_ERR_TOO_LARGE,
						  "prime bits %s n=%lld fpr=%g: top below %lld accepted",
						  cname(c), (long long) ns[a], fprs[b], (long long) m);
			}
	check(bs_optimal_prime_bits(0, 0.01, BS_CONSTRUCTION_CLASSIC, 90, 97, &answer, NULL) == BS_OK &&
		  answer == 97, "prime bits n=0");
	check(bs_optimal_prime_bits(10, 0.01, BS_CONSTRUCTION_CLASSIC, 2, 100, &answer, NULL) == BS_ERR_PARAM,
		  "prime bits: a top that is not prime");
	printf("J. prime bits: %ld searches over primes equal to the next prime above bs_optimal_bits (%.1f s)\n",
		   count, (now_ms() - t0) / 1e3);
}

/*
 * L. The working block a sizing keeps from one rate to the next
 * (bs_analysis_memo_begin .. end).  An allocator that tracks its live
 * blocks stands for a memory context: rates computed inside a sizing,
 * where table blocks of several MB are kept and reused, equal those
 * computed outside, bit for bit; sizings in a row give the answers of
 * fresh ones; nothing is left allocated after a sizing, also one that an
 * allocation failure ends.  A sizing cut short by the interrupt hook
 * (longjmp, as CHECK_FOR_INTERRUPTS does) leaves its blocks to the
 * "context", which is then reset: its blocks are poisoned, not freed, so
 * that any later write to them shows.  Computations after it, outside a
 * sizing and in one, give the fresh answers, keep nothing outside a sizing
 * and never touch the reset blocks.
 */
typedef struct live_block
{
	struct live_block *next;
	struct live_block *prev;
	size_t		size;
	long		pad;			/* 32 bytes: the block stays 16-aligned */
} live_block;

static live_block live_head = {&live_head, &live_head, 0, 0};
static long live_count;
static long large_allocations;
static long fail_at;			/* fail the allocation of this number; 0: none */
static long interrupt_at;		/* longjmp from the poll of this number; 0: none */
static jmp_buf interrupt_jump;
static live_block *graveyard;	/* poisoned blocks of a reset "context" */

#define POISON 0xA5

static void *
tracking_alloc(size_t size)
{
	live_block *b;

	if (fail_at > 0 && --fail_at == 0)
		return NULL;
	b = malloc(sizeof(live_block) + size);
	if (b == NULL)
		return NULL;
	b->size = size;
	b->next = live_head.next;
	b->prev = &live_head;
	live_head.next->prev = b;
	live_head.next = b;
	live_count++;
	if (size >= ((size_t) 1 << 20))
		large_allocations++;
	return b + 1;
}

static void
tracking_free(void *p)
{
	live_block *b = (live_block *) p - 1;

	b->prev->next = b->next;
	b->next->prev = b->prev;
	live_count--;
	free(b);
}

static void
jumping_interrupt(void)
{
	if (interrupt_at > 0 && --interrupt_at == 0)
		longjmp(interrupt_jump, 1);
}

/* reset the "context": every live block poisoned and set aside */
static void
reset_context(void)
{
	while (live_head.next != &live_head)
	{
		live_block *b = live_head.next;

		b->prev->next = b->next;
		b->next->prev = b->prev;
		live_count--;
		memset(b + 1, POISON, b->size);
		b->next = graveyard;
		graveyard = b;
	}
}

/* are the reset blocks untouched?  (and free them) */
static int
graveyard_intact(void)
{
	int			intact = 1;

	while (graveyard != NULL)
	{
		live_block *b = graveyard;
		const unsigned char *p = (const unsigned char *) (b + 1);
		size_t		i;

		for (i = 0; i < b->size; i++)
			if (p[i] != POISON)
			{
				intact = 0;
				break;
			}
		graveyard = b->next;
		free(b);
	}
	return intact;
}

static bs_status
sizing(int64_t n, double fpr, uint64_t *bits, uint32_t *hashes)
{
	return bs_bloom_size_exact(n, fpr, bits, hashes, NULL);
}

/* a sizing that the interrupt hook cuts short at its poll number at? */
static int
cut_sizing(int64_t n, double fpr, long at)
{
	uint64_t	bits;
	uint32_t	hashes;

	interrupt_at = at;
	if (setjmp(interrupt_jump) != 0)
	{
		interrupt_at = 0;
		return 1;
	}
	(void) sizing(n, fpr, &bits, &hashes);
	interrupt_at = 0;
	return 0;
}

void
test_kept_block(void)
{
	static const struct
	{
		int64_t		n;
		double		fpr;
	}			cases[] = {
		{3, 1e-300}, {6, 1e-300}, {2, 1e-300}, {12, 1e-250}, {10000, 1e-300}, {1000000, 1e-6}
	};
#define L_CASES (sizeof(cases) / sizeof(cases[0]))
#define L_RATES 6
	uint64_t	fresh_bits[L_CASES];
	uint32_t	fresh_hashes[L_CASES];
	int64_t		rm[L_RATES];
	int64_t		rn[L_RATES];
	int64_t		rk[L_RATES];
	double		fresh_rate[L_RATES];
	long		before = checks;
	long		cut = 0;
	double		t0 = now_ms();
	size_t		c;
	int			r;
	long		large;

	bs_analysis_alloc = tracking_alloc;
	bs_analysis_free = tracking_free;

	/* fresh answers: each sizing alone */
	for (c = 0; c < L_CASES; c++)
	{
		check(sizing(cases[c].n, cases[c].fpr, &fresh_bits[c], &fresh_hashes[c]) == BS_OK,
			  "kept block: sizing n=%lld fpr=%g", (long long) cases[c].n, cases[c].fpr);
		check(live_count == 0, "kept block: %ld blocks left by sizing n=%lld fpr=%g",
			  live_count, (long long) cases[c].n, cases[c].fpr);
	}

	/*
	 * rates with several-MB row tables (3 to 8 items near the optimum of 3
	 * items at 1e-300), outside a sizing, then inside one
	 */
	for (r = 0; r < L_RATES; r++)
	{
		rm[r] = (int64_t) fresh_bits[0] + 977 * r;
		rn[r] = 3 + r;
		rk[r] = (int64_t) fresh_hashes[0] - 40 * r;
		check(bs_fpr_exact_log(rm[r], rn[r], rk[r], BS_CONSTRUCTION_CLASSIC, &fresh_rate[r], NULL) == BS_OK,
			  "kept block: rate %d", r);
	}
	check(live_count == 0, "kept block: %ld blocks left outside a sizing", live_count);
	large = large_allocations;
	bs_analysis_memo_begin();
	for (r = 0; r < L_RATES; r++)
	{
		double		v = 0;

		check(bs_fpr_exact_log(rm[r], rn[r], rk[r], BS_CONSTRUCTION_CLASSIC, &v, NULL) == BS_OK &&
			  memcmp(&v, &fresh_rate[r], sizeof(v)) == 0,
			  "kept block: rate m=%lld n=%lld k=%lld in a sizing %.17g, alone %.17g",
			  (long long) rm[r], (long long) rn[r], (long long) rk[r], v, fresh_rate[r]);
	}
	bs_analysis_memo_end();
	check(live_count == 0, "kept block: %ld blocks left after a sequence of rates", live_count);
	check(large_allocations - large < L_RATES,
		  "kept block: %ld large blocks for %d rates: none kept", large_allocations - large, L_RATES);

	/* sizings in a row, each pair in both orders */
	for (c = 0; c < L_CASES; c++)
	{
		size_t		c2 = (c + 1) % L_CASES;
		uint64_t	bits;
		uint32_t	hashes;
		int			i;

		for (i = 0; i < 2; i++)
		{
			size_t		e = i == 0 ? c : c2;

			check(sizing(cases[e].n, cases[e].fpr, &bits, &hashes) == BS_OK &&
				  bits == fresh_bits[e] && hashes == fresh_hashes[e],
				  "kept block: sizing n=%lld fpr=%g in a row (%llu, %u), fresh (%llu, %u)",
				  (long long) cases[e].n, cases[e].fpr, (unsigned long long) bits, hashes,
				  (unsigned long long) fresh_bits[e], fresh_hashes[e]);
		}
		check(live_count == 0, "kept block: %ld blocks left by sizings in a row", live_count);
	}

	/* allocation failures: an error, nothing left, then the fresh answer */
	for (r = 1; r <= 400; r += r < 40 ? 1 : 17)
	{
		uint64_t	bits;
		uint32_t	hashes;
		bs_status	s;

		c = (size_t) r % 3;		/* few items at 1e-300 */
		fail_at = r;
		s = sizing(cases[c].n, cases[c].fpr, &bits, &hashes);
		check(fail_at == 0 ? s == BS_ERR_TOO_LARGE :
			  (s == BS_OK && bits == fresh_bits[c] && hashes == fresh_hashes[c]),
			  "kept block: allocation %d failing in sizing n=%lld: status %d",
			  r, (long long) cases[c].n, (int) s);
		fail_at = 0;
		check(live_count == 0, "kept block: %ld blocks left by a sizing ended by allocation %d",
			  live_count, r);
		check(sizing(cases[c].n, cases[c].fpr, &bits, &hashes) == BS_OK &&
			  bits == fresh_bits[c] && hashes == fresh_hashes[c] && live_count == 0,
			  "kept block: sizing n=%lld after a failed allocation %d", (long long) cases[c].n, r);
	}

	/*
	 * interrupts: the hook longjmps out of a sizing at its r-th poll; the
	 * "context" is reset; then a rate outside a sizing and a sizing
	 */
	bs_interrupt_check = jumping_interrupt;
	for (r = 1; r <= 300; r += r < 20 ? 1 : 23)
	{
		uint64_t	bits = 0;
		uint32_t	hashes = 0;
		double		v = 0;
		int			i;

		c = (size_t) r % 3;
		if (!cut_sizing(cases[c].n, cases[c].fpr, r))
			continue;			/* fewer polls than r */
		cut++;
		reset_context();
		for (i = 0; i < 2; i++)
		{
			int			e = (r + i) % L_RATES;

			check(bs_fpr_exact_log(rm[e], rn[e], rk[e], BS_CONSTRUCTION_CLASSIC, &v, NULL) == BS_OK &&
				  memcmp(&v, &fresh_rate[e], sizeof(v)) == 0,
				  "kept block: rate m=%lld n=%lld k=%lld after a sizing cut at poll %d: %.17g, fresh %.17g",
				  (long long) rm[e], (long long) rn[e], (long long) rk[e], r, v, fresh_rate[e]);
			check(live_count == 0,
				  "kept block: %ld blocks kept by a rate outside a sizing after one cut at poll %d",
				  live_count, r);
			reset_context();	/* what the caller's context would do */
		}
		check(sizing(cases[c].n, cases[c].fpr, &bits, &hashes) == BS_OK &&
			  bits == fresh_bits[c] && hashes == fresh_hashes[c],
			  "kept block: sizing n=%lld after one cut at poll %d (%llu, %u), fresh (%llu, %u)",
			  (long long) cases[c].n, r, (unsigned long long) bits, hashes,
			  (unsigned long long) fresh_bits[c], fresh_hashes[c]);
		check(live_count == 0, "kept block: %ld blocks left by a sizing after one cut at poll %d",
			  live_count, r);
		check(graveyard_intact(), "kept block: blocks of the reset context written after a cut at poll %d", r);
	}
	check(cut >= 10, "kept block: only %ld sizings cut short", cut);
	bs_interrupt_check = NULL;
	bs_analysis_alloc = malloc;
	bs_analysis_free = free;
	printf("L. kept block: %ld checks (%ld sizings cut short by an interrupt) (%.1f s)\n",
		   checks - before, cut, (now_ms() - t0) / 1e3);
#undef L_CASES
#undef L_RATES
}
