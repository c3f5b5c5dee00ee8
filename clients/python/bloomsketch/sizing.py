"""bloom_create's sizing for the independent and blocked schemes.  For
independent filters m is the smallest
number of bits at which some k reaches an exact expected false-positive
rate <= fpr for `capacity` values, and k the exact optimum at that m (ties
to the smaller k), as docs/analysis.md ("Sizing") defines them.  The rate
is Burns's standard construction (Theorem 22; the formula of fit.py),
evaluated in decimal arithmetic with enough digits for its alternating sum.
Blocked filters are sized in blocked_sizing.py.  The other schemes add
Kirsch and Mitzenmacher's term from the server's own model
(bs_double_hash_rate.c), which the library does not reproduce."""

import math
from decimal import Decimal, localcontext
from typing import Tuple

from .blocked_sizing import size_blocked
from .errors import ParameterError

MAX_BITS = 6000000000
MAX_HASHES = 1024


def _stirling2(k: int):
    row = [1]
    for i in range(1, k + 1):
        row = [0] + [d * (row[d] if d < len(row) else 0) + row[d - 1] for d in range(1, i + 1)]
    return row


def standard_rate(m: int, n: int, k: int) -> Decimal:
    """f(m, n, k) = sum_j (-1)^j c_j (1 - j/m)^(k n), with
    c_j = sum_{d >= j} S(k, d) m(m-1)..(m-d+1) C(d, j) / m^k."""
    if n == 0:
        return Decimal(0)
    with localcontext() as ctx:
        # the terms reach C(k, k/2) times the result: keep 60 digits beyond them
        ctx.prec = 60 + k
        stirling = _stirling2(k)
        falling = [1]
        for d in range(1, k + 1):
            falling.append(falling[-1] * (m - d + 1))
        scale = Decimal(m) ** k
        total = Decimal(0)
        for j in range(min(k, m - 1) + 1):
            weight = sum(stirling[d] * falling[d] * math.comb(d, j) for d in range(max(j, 1), k + 1))
            miss = ((Decimal(m - j) / Decimal(m)).ln() * (k * n)).exp()
            total += (-1) ** j * (Decimal(weight) / scale) * miss
        return +total


def optimal_k(m: int, n: int) -> Tuple[int, Decimal]:
    """(k, rate): the k in 1..1024 of the smallest rate at m, ties to the
    smaller, walking from (m/n) ln 2 while the rate falls (it falls, then
    rises, in k)."""
    k = max(1, min(MAX_HASHES, round(m / n * math.log(2)))) if n else 1
    best = standard_rate(m, n, k)
    while k > 1:
        lower = standard_rate(m, n, k - 1)
        if lower > best:
            break
        k, best = k - 1, lower
    else:
        return k, best
    while k < MAX_HASHES:
        higher = standard_rate(m, n, k + 1)
        if higher >= best:
            break
        k, best = k + 1, higher
    return k, best


def _reaches(m: int, n: int, fpr: Decimal) -> bool:
    return optimal_k(m, n)[1] <= fpr


def optimal_bits(n: int, fpr: float) -> int:
    """The smallest m for which some k reaches fpr: no structure holds n
    values at rate fpr in fewer than n log2(1/fpr) bits, and reaching is
    monotone in m, so a doubling and a bisection find it."""
    target = Decimal(fpr)
    low = max(0, math.floor(n * math.log2(1 / fpr)) - 1)     # does not reach
    high = max(2, 2 * low)
    while not _reaches(high, n, target):
        low, high = high, 2 * high
        if low > MAX_BITS:
            raise ParameterError("bloomfilter for %d items at false-positive rate %r is too large"
                                 % (n, fpr))
    while high - low > 1:
        middle = (low + high) // 2
        if _reaches(middle, n, target):
            high = middle
        else:
            low = middle
    return high


def size_for(scheme: str, capacity: int, fpr: float) -> Tuple[int, int]:
    """(bits, hashes) of bloom_create(capacity, fpr, seed, scheme), for the
    independent and blocked schemes."""
    if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
        raise ParameterError("bloomfilter capacity must be a whole number of at least 1, not %r" % (capacity,))
    if not 0.0 < fpr < 1.0:
        raise ParameterError("bloomfilter false-positive rate must be between 0 and 1, not %r" % (fpr,))
    if capacity * math.log2(1 / fpr) > MAX_BITS:
        raise ParameterError("bloomfilter for %d items at false-positive rate %r is too large: it "
                             "needs more than %d bits" % (capacity, fpr, MAX_BITS))
    if scheme == "blocked":
        return size_blocked(capacity, float(fpr))
    m = max(2, optimal_bits(capacity, float(fpr)))
    if m > MAX_BITS:
        raise ParameterError("bloomfilter for %d items at false-positive rate %r is too large"
                             % (capacity, fpr))
    return m, min(optimal_k(m, capacity)[0], MAX_HASHES, m)
