/*
 * bs_optimal_bits.c — the smallest m at which some k reaches a rate, over
 * all m (bs_optimal_bits) or over primes (bs_optimal_prime_bits, the
 * sizing): decisions "does some k reach the target at m" (fact 3 of
 * bs_optimal_k.c), galloping and bisecting from an estimate.
 */
#include "analysis/bs_analysis.h"
#include "analysis/bs_analysis_internal.h"

#include "common/bs_primes.h"

/* ------------------------------------------------------------------------
 * bs_optimal_bits
 * ------------------------------------------------------------------------ */

/* exact rates and decisions of one bs_optimal_bits call, remembered */
#define LOG_SIZE 256
#define DECIDED_SIZE 64

typedef struct bits_search
{
	int64_t		n;
	bs_construction c;
	ld			target;
	int64_t		yes;			/* smallest m known to reach target, 0 none */
	int64_t		no;				/* largest m known not to, 0 none */
	int64_t		ref_m;			/* an m with a local minimum found, 0 none */
	int			ref_k;			/* that minimum */
	int64_t		optimum_m;		/* an m whose optimal k is known, 0 none */
	int			optimum_k;		/* that k */
	int			count;
	int64_t		log_m[LOG_SIZE];	/* exact rates computed: f(m, n, k) */
	int			log_k[LOG_SIZE];
	ld			log_ln[LOG_SIZE];
	unsigned char log_floor[LOG_SIZE];	/* log_ln only a lower bound */
} bits_search;

/* a k_search for m with the rates already computed at m */
static k_search *
bits_k_search(const bits_search *bs, int64_t m, bs_error *err, bs_status *s)
{
	k_search   *ks = bs_k_search_new(m, bs->n, bs->c, err, s);
	int			i;

	if (ks != NULL)
		for (i = 0; i < bs->count; i++)
		{
			int			k = bs->log_k[i];

			if (k > ks->kmax)
				continue;
			if ((bs->log_m[i] > m || (bs->log_m[i] == m && bs->log_floor[i])) &&
				bs->log_ln[i] > ks->floor[k])
				ks->floor[k] = bs->log_ln[i];
			if (bs->log_m[i] == m && !bs->log_floor[i] && !ks->known[k])
			{
				ks->known[k] = 1;
				ks->ln[k] = bs->log_ln[i];
				if (ks->best == 0 || bs_k_better(ks, k, ks->best))
					ks->best = k;
			}
		}
	return ks;
}

/*
 * remember the rates computed at m, and the floors of the other k (lower
 * bounds of their rates at m, so at every smaller m too)
 */
static void
bits_remember(bits_search *bs, const k_search *ks)
{
	int			k;
	int			i;

	for (k = 1; k <= ks->kmax && bs->count < LOG_SIZE; k++)
	{
		if (!ks->known[k] && !ks->bounded[k])
			continue;
		for (i = 0; i < bs->count; i++)
			if (bs->log_m[i] == ks->m && bs->log_k[i] == k)
				break;
		if (i == bs->count)
			bs->count++;
		else if (!bs->log_floor[i] || (!ks->known[k] && ks->floor[k] <= bs->log_ln[i]))
			continue;
		bs->log_m[i] = ks->m;
		bs->log_k[i] = k;
		bs->log_floor[i] = !ks->known[k];
		bs->log_ln[i] = ks->known[k] ? ks->ln[k] : ks->floor[k];
	}
}

/*
 * The k expected to be best at ks->m: the local minimum found at another m,
 * scaled in proportion to m (eq. (67)), else bs_k_initial_guess.
 */
static int
bits_guess(const bits_search *bs, const k_search *ks)
{
	ld			k;

	if (bs->ref_m <= 0)
		return bs_k_initial_guess(ks);
	k = floorl((ld) bs->ref_k * (ld) ks->m / (ld) bs->ref_m + 0.5L);
	if (k < 1)
		return 1;
	if (k > ks->kmax)
		return ks->kmax;
	return (int) k;
}

/* does some k reach the target with m bits?  (the decision of fact 3) */
static bs_status
decide_bits(bits_search *bs, int64_t m, int *yes, bs_error *err)
{
	k_search   *ks;
	int64_t		k;
	ld			ln;
	bs_status	s;

	if (bs->yes != 0 && m >= bs->yes)
	{
		*yes = 1;
		return BS_OK;
	}
	if (bs->no != 0 && m <= bs->no)
	{
		*yes = 0;
		return BS_OK;
	}
	if ((ks = bits_k_search(bs, m, err, &s)) == NULL)
		return s;
	s = bs_k_search_decide(ks, bs->target, bits_guess(bs, ks), &k, &ln, err);
	if (s == BS_OK)
	{
		bits_remember(bs, ks);
		*yes = k != 0;
		if (k != 0 && (bs->yes == 0 || m < bs->yes))
			bs->yes = m;
		if (k == 0)
		{
			if (m > bs->no)
				bs->no = m;
			if (ks->walked)
			{
				/* the walk of a "no" ended at a local minimum */
				bs->ref_m = m;
				bs->ref_k = ks->best;
				bs_analysis_memo_set_ref(m, bs->n, bs->c, ks->best);
			}
		}
	}
	bs_work_free(ks);
	return s;
}

/* ln f(m, n, k) with k the guess of bits_guess at m */
static bs_status
bits_rate_at_guess(bits_search *bs, int64_t m, ld *ln, bs_error *err)
{
	k_search   *ks;
	bs_status	s;
	int			k;

	if ((ks = bits_k_search(bs, m, err, &s)) == NULL)
		return s;
	k = bits_guess(bs, ks);
	if ((s = bs_k_evaluate(ks, k, err)) == BS_OK)
	{
		*ln = ks->ln[k];
		bits_remember(bs, ks);
	}
	bs_work_free(ks);
	return s;
}

/*
 * An estimate of the answer: the rate at the textbook m (68) with the
 * guessed optimal k there, then a secant on ln f(m, k(m)) - target, k(m)
 * the guess at each m.  Only a starting point for the decisions.
 */
static bs_status
estimate_bits(bits_search *bs, int64_t hi, int64_t *m_out, bs_error *err)
{
	ld			ma = ceill((ld) bs->n * -bs->target / (logl(2) * logl(2)));
	ld			mb;
	ld			fa;
	ld			fb;
	int			iter;
	bs_status	s;

	if (!(ma >= 1))
		ma = 1;
	if (ma > hi)
		ma = (ld) hi;
	if ((s = bits_rate_at_guess(bs, (int64_t) ma, &fa, err)) != BS_OK)
		return s;

	/* ln F(m) is about proportional to m (eq. (68)) */
	mb = (fa < 0 && isfinite(fa)) ? floorl(ma * bs->target / fa + 0.5L) : ma;
	for (iter = 0; iter < 8; iter++)
	{
		ld			next;

		if (!(mb >= 1))
			mb = 1;
		if (mb > hi)
			mb = (ld) hi;
		if (mb == ma)
			break;
		if ((s = bits_rate_at_guess(bs, (int64_t) mb, &fb, err)) != BS_OK)
			return s;
		if (!isfinite(fb) || !isfinite(fa) || fb == fa)
			break;
		next = floorl(mb + (bs->target - fb) * (mb - ma) / (fb - fa) + 0.5L);
		ma = mb;
		fa = fb;
		if (fabsl(next - mb) < 1)
			break;
		mb = next;
	}
	*m_out = (int64_t) mb;
	return BS_OK;
}

/*
 * A search for n items at fpr (n >= 1) whose largest m, hi, reaches fpr:
 * *bs (NULL on an error; BS_ERR_TOO_LARGE when hi does not reach fpr).
 */
static bs_status
bits_search_start(int64_t n, double fpr, bs_construction c, int64_t hi,
				  bits_search **bs_out, bs_error *err)
{
	bits_search *bs;
	bs_status	s;
	int			yes;

	*bs_out = bs = bs_work_alloc_bytes(sizeof(bits_search), err, &s);
	if (bs == NULL)
		return s;
	bs->n = n;
	bs->c = c;
	bs->target = logl((ld) fpr);
	if ((s = decide_bits(bs, hi, &yes, err)) != BS_OK)
		return s;
	if (!yes)
		return bs_fail(err, BS_ERR_TOO_LARGE,
					   "bloom filter for this many items at this false-positive rate is too large",
					   "No filter of at most %lld bits reaches rate %.15g with %lld items.",
					   (long long) hi, fpr, (long long) n);
	bs->ref_m = 0;				/* the local minimum at hi is far away */
	return BS_OK;
}

bs_status
bs_optimal_bits(int64_t n, double fpr, bs_construction c, int64_t *m_out,
				bs_error *err)
{
	bs_status	s;
	int64_t		hi = BS_ANALYSIS_MAX_BITS;
	int64_t		good;			/* reaches the target */
	int64_t		bad;			/* does not (0: below the range) */
	int64_t		m = 1;
	int64_t		step;
	int			yes;
	bits_search *bs = NULL;

	if ((s = bs_check_items(n, err)) != BS_OK || (s = bs_check_rate(fpr, err)) != BS_OK ||
		(s = bs_check_construction(c, err)) != BS_OK)
		return s;
	if (n == 0)
	{
		*m_out = 1;
		return BS_OK;
	}
	if ((s = bits_search_start(n, fpr, c, hi, &bs, err)) != BS_OK)
		goto done;
	if ((s = estimate_bits(bs, hi, &m, err)) != BS_OK)
		goto done;

	/* gallop from the estimate to a bracket, then bisect (fact 3) */
	if ((s = decide_bits(bs, m, &yes, err)) != BS_OK)
		goto done;
	step = 1;
	if (yes)
	{
		good = m;
		for (;;)
		{
			int64_t		probe = good - step;

			if (probe < 1)
			{
				bad = 0;
				break;
			}
			if ((s = decide_bits(bs, probe, &yes, err)) != BS_OK)
				goto done;
			if (!yes)
			{
				bad = probe;
				break;
			}
			good = probe;
			step *= 2;
		}
	}
	else
	{
		bad = m;
		for (;;)
		{
			int64_t		probe = bad + step;

			if (probe >= hi)
			{
				good = hi;
				break;
			}
			if ((s = decide_bits(bs, probe, &yes, err)) != BS_OK)
				goto done;
			if (yes)
			{
				good = probe;
				break;
			}
			bad = probe;
			step *= 2;
		}
	}
	while (good - bad > 1)
	{
		int64_t		mid = bad + (good - bad) / 2;

		if ((s = decide_bits(bs, mid, &yes, err)) != BS_OK)
			goto done;
		if (yes)
			good = mid;
		else
			bad = mid;
	}
	*m_out = good;
done:
	bs_work_free(bs);
	return s;
}

/* ------------------------------------------------------------------------
 * bs_optimal_prime_bits: the same decisions, made at primes only
 * ------------------------------------------------------------------------ */

/*
 * An estimate of the smallest m that reaches the target, for the prime
 * search: ln F(m) is about proportional to m (eq. (68)) and about linear
 * over a few prime gaps, so the rate at the prime above the textbook m,
 * with the guessed optimal k, gives a proportional estimate; when that lies
 * farther than a few prime gaps away, a rate at the prime nearest to it
 * gives a secant.  Every rate is taken at a prime, where the search may use
 * it again.  Only a starting point for the decisions.
 */
static bs_status
estimate_prime_bits(bits_search *bs, int64_t lo, int64_t hi, ld *estimate,
					bs_error *err)
{
	/*
	 * the textbook m, less 0.19 / n^2 of it: fitted to the classic answers
	 * for n = 2 to 12 (1e-30 to 1e-300), where the textbook m is up to 5%
	 * too large; below 0.1% for n >= 14
	 */
	ld			textbook = ceill((ld) bs->n * -bs->target / (logl(2) * logl(2)) *
								 (1 - 0.19L / ((ld) bs->n * (ld) bs->n)));
	int64_t		pa;
	int64_t		pb;
	ld			fa;
	ld			fb;
	ld			gap;
	bs_status	s;

	pa = (int64_t) bs_next_prime((uint64_t) fmaxl((ld) lo, fminl(textbook, (ld) hi)));
	if ((s = bits_rate_at_guess(bs, pa, &fa, err)) != BS_OK)
		return s;
	*estimate = (ld) pa;
	if (!(fa < 0 && isfinite(fa)))
		return BS_OK;
	*estimate = pa * bs->target / fa;
	gap = 4 * logl((ld) pa + 2);	/* a few prime gaps */
	if (fabsl(*estimate - pa) <= gap)
		return BS_OK;
	pb = (int64_t) bs_next_prime((uint64_t) fmaxl((ld) lo, fminl(*estimate, (ld) hi)));
	if (pb == pa || (s = bits_rate_at_guess(bs, pb, &fb, err)) != BS_OK ||
		!isfinite(fb) || fb == fa)
		return s;
	*estimate = pb + (bs->target - fb) * (pb - pa) / (fb - fa);
	return BS_OK;
}

/*
 * The optimal k at m (bs_k_search_min), its rates remembered for the decisions
 * and, in a sizing, for bs_optimal_k, which then starts at the minimum.
 */
static bs_status
optimum_at(bits_search *bs, int64_t m, bs_error *err)
{
	k_search   *ks;
	bs_status	s;

	if ((ks = bits_k_search(bs, m, err, &s)) == NULL)
		return s;
	if ((s = bs_k_search_min(ks, bits_guess(bs, ks), err)) == BS_OK)
	{
		bits_remember(bs, ks);
		bs->ref_m = bs->optimum_m = m;
		bs->ref_k = bs->optimum_k = ks->best;
		bs_analysis_memo_set_ref(m, bs->n, bs->c, ks->best);
	}
	bs_work_free(ks);
	return s;
}

/* decide at the prime p and narrow (bad, good) */
static bs_status
bracket_prime(bits_search *bs, int64_t p, int64_t *bad, int64_t *good,
			  bs_error *err)
{
	int			yes;
	bs_status	s = decide_bits(bs, p, &yes, err);

	if (s == BS_OK)
		*(yes ? good : bad) = p;
	return s;
}

/* a prime strictly between bad and good, near the middle; 0 when none */
static int64_t
prime_between(int64_t bad, int64_t good)
{
	int64_t		mid = bad + (good - bad) / 2;
	int64_t		p;

	if (good - bad < 2)
		return 0;
	p = (int64_t) bs_next_prime((uint64_t) mid);
	if (p < good)
		return p;
	p = mid - 1 > bad ? (int64_t) bs_prev_prime((uint64_t) (mid - 1)) : 0;
	return p > bad ? p : 0;
}

bs_status
bs_optimal_prime_bits(int64_t n, double fpr, bs_construction c, int64_t lo,
					  int64_t hi, int64_t *m_out, bs_error *err)
{
	bs_status	s;
	bits_search *bs = NULL;
	int64_t		good = hi;		/* reaches the target */
	int64_t		bad = lo - 1;	/* no prime in [lo, bad] does */
	int64_t		above;
	int64_t		below;
	int64_t		step;
	int64_t		p;
	ld			estimate;

	if ((s = bs_check_items(n, err)) != BS_OK || (s = bs_check_rate(fpr, err)) != BS_OK ||
		(s = bs_check_construction(c, err)) != BS_OK)
		return s;
	if (lo < 2 || hi < lo || !bs_is_prime((uint64_t) hi))
		return bs_fail(err, BS_ERR_PARAM, "invalid range of primes",
					   "The range given was %lld to %lld.", (long long) lo, (long long) hi);
	if (n == 0)
	{
		*m_out = (int64_t) bs_next_prime((uint64_t) lo);
		return BS_OK;
	}
	if ((s = bits_search_start(n, fpr, c, hi, &bs, err)) != BS_OK ||
		(s = estimate_prime_bits(bs, lo, hi, &estimate, err)) != BS_OK)
		goto done;

	/*
	 * The primes on either side of the estimate.  The one above first: when
	 * it reaches the target, the optimal k there, which the sizing asks for
	 * next, and whose rates are floors for the one below (fact 3): its "no"
	 * then needs the exact rates only of the few k that reach the target
	 * above.
	 */
	above = (int64_t) bs_next_prime((uint64_t) fmaxl((ld) lo, fminl(ceill(estimate), (ld) hi)));
	below = above > 2 ? (int64_t) bs_prev_prime((uint64_t) (above - 1)) : 0;
	if (above < good && (s = bracket_prime(bs, above, &bad, &good, err)) != BS_OK)
		goto done;
	if (good == above && below > bad &&
		((s = optimum_at(bs, above, err)) != BS_OK ||
		 (s = bracket_prime(bs, below, &bad, &good, err)) != BS_OK))
		goto done;

	/* gallop from the estimate to a bracket (fact 3) ... */
	step = 2 * (above - below > 1 ? above - below : 1);
	if (good <= below)
		while (good - step > bad &&
			   (p = (int64_t) bs_prev_prime((uint64_t) (good - step))) > bad)
		{
			if ((s = bracket_prime(bs, p, &bad, &good, err)) != BS_OK)
				goto done;
			if (bad == p)
				break;
			step *= 2;
		}
	else if (bad >= above)
		while (bad + step < good &&
			   (p = (int64_t) bs_next_prime((uint64_t) (bad + step))) < good)
		{
			if ((s = bracket_prime(bs, p, &bad, &good, err)) != BS_OK)
				goto done;
			if (good == p)
				break;
			step *= 2;
		}
	/* ... and bisect it, until no prime lies between */
	while ((p = prime_between(bad, good)) != 0)
		if ((s = bracket_prime(bs, p, &bad, &good, err)) != BS_OK)
			goto done;
	*m_out = good;
	if (bs->optimum_m == good)
	{
		/* where bs_optimal_k at the answer starts (a "no" may have moved it) */
		bs_analysis_memo_set_ref(good, bs->n, bs->c, bs->optimum_k);
	}
done:
	bs_work_free(bs);
	return s;
}
