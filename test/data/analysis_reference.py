#!/usr/bin/env python3
"""Reference false-positive rates for test/unit/analysis/test_analysis.c.

    python3 test/data/analysis_reference.py > test/data/analysis_reference.txt
    python3 test/data/analysis_reference.py standard 1000 100 7   # one case

Each output line is one case:

    standard|classic  m  n  k  value

value is the exact expected false-positive rate to 20 significant digits in
scientific notation ("1.2345678901234567890e-300"); the exponent is written
out even when the value is far below the smallest double, so the line also
gives log10 of tiny rates exactly.  Lines starting with '#' are comments.

Small cases (m <= 5000 and n*k <= 50000) are computed in exact rational
arithmetic (Python integers / fractions) from the alternating sums of
Burns, eq. (56) regrouped and eq. (60):

    standard:  f_S = sum_j (-1)^j c_j (m-j)^(nk) / m^(nk+k),
               c_j = sum_{i>=j} S(k,i) m^(i falling) C(i,j)
    classic:   f_C = sum_i (-1)^i C(k,i) C(m-i,k)^n / C(m,k)^n

Large cases use the same sums in mpmath at a working precision of at least
60 digits beyond the cancellation (the ratio of the largest term to the
result); each is computed twice, at that precision and 40 digits higher, and
the two must agree to 25 digits.  Both use only the textbook formulas, so they
are independent of the algorithms in src/core/analysis/bs_analysis.c.

Standard library plus python3-mpmath (Debian: apt-get install python3-mpmath).
Runs in well under a minute.
"""

import math
import random
import sys
import time
from fractions import Fraction

import mpmath

SMALL_M = 5000
SMALL_NK = 50000


# ---------------------------------------------------------------------------
# exact rational values

_stirling_cache = {}


def stirling2_row(k):
    """[S(k, i) for i in 0..k] (Stirling numbers of the second kind)."""
    if k in _stirling_cache:
        return _stirling_cache[k]
    row = [1]                       # S(0, 0)
    for t in range(1, k + 1):
        new = [0] * (t + 1)
        for i in range(1, t + 1):
            new[i] = i * (row[i] if i < len(row) else 0) + row[i - 1]
        row = new
    _stirling_cache[k] = row
    return row


_c_cache = {}


def standard_coefficients(m, k):
    """c_j = sum_{i=j..K} S(k,i) m^(i falling) C(i,j), j = 0..K = min(k,m)."""
    key = (m, k)
    if key in _c_cache:
        return _c_cache[key]
    K = min(k, m)
    S = stirling2_row(k)
    c = [0] * (K + 1)
    fall = 1
    for i in range(K + 1):
        if i:
            fall *= m - i + 1
        c[i] = S[i] * fall
    # Taylor shift A(x) -> A(1 + x): c_j = sum_i a_i C(i, j)
    for i in range(K):
        for j in range(K - 1, i - 1, -1):
            c[j] += c[j + 1]
    _c_cache[key] = c
    return c


def standard_exact(m, n, k):
    if n == 0:
        return Fraction(0)
    N = n * k
    c = standard_coefficients(m, k)
    numer = 0
    for j, cj in enumerate(c):
        if cj:
            term = cj * (m - j) ** N
            numer += -term if j & 1 else term
    return Fraction(numer, m ** (N + k))


def classic_exact(m, n, k):
    if n == 0:
        return Fraction(0)
    numer = 0
    c = math.comb(m, k)             # C(m - i, k), exactly
    binom = 1                       # C(k, i)
    for i in range(k + 1):
        if i:
            c = c * (m - i + 1 - k) // (m - i + 1)
            binom = binom * (k - i + 1) // i
        if c == 0:
            break
        term = binom * c ** n
        numer += -term if i & 1 else term
    return Fraction(numer, math.comb(m, k) ** n)


def fraction_to_str(f, digits=20):
    """f > 0 to `digits` significant digits, round half even, d.ddd...e+XX."""
    if f == 0:
        return "0"
    num, den = f.numerator, f.denominator
    # estimate e = floor(log10(f)) from bit lengths, then fix
    e = int(math.floor((num.bit_length() - den.bit_length()) * math.log10(2)))
    for _ in range(4):
        if e >= 0:
            lo = num >= den * 10 ** e
            hi = num < den * 10 ** (e + 1)
        else:
            lo = num * 10 ** (-e) >= den
            hi = num * 10 ** (-e - 1) < den
        if lo and hi:
            break
        e += -1 if not lo else 1
    shift = digits - 1 - e
    if shift >= 0:
        q, r = divmod(num * 10 ** shift, den)
    else:
        q, r = divmod(num, den * 10 ** (-shift))
        den = den * 10 ** (-shift)
    if 2 * r > den or (2 * r == den and q & 1):
        q += 1
    if q >= 10 ** digits:           # rounding carried into a new digit
        q //= 10
        e += 1
    s = str(q)
    return "%s.%se%+d" % (s[0], s[1:], e)


# ---------------------------------------------------------------------------
# high precision values

def _std_terms(m, n, k):
    """signed terms of f_S = sum_j (-1)^j c_j (1 - j/m)^N / m^k (mpmath)."""
    N = n * k
    c = standard_coefficients(m, k)
    terms = []
    mk = mpmath.mpf(m) ** k
    for j, cj in enumerate(c):
        if cj == 0 or j == m:
            continue
        base = mpmath.mpf(m - j) / m
        t = mpmath.mpf(cj) * base ** N / mk
        terms.append(-t if j & 1 else t)
    return terms


def _cls_terms(m, n, k):
    """signed terms of f_C = sum_i (-1)^i C(k,i) [C(m-i,k)/C(m,k)]^n (mpmath)."""
    terms = []
    den = mpmath.mpf(math.comb(m, k))
    num = math.comb(m, k)           # C(m - i, k), exactly
    binom = 1                       # C(k, i)
    for i in range(k + 1):
        if i:
            num = num * (m - i + 1 - k) // (m - i + 1)
            binom = binom * (k - i + 1) // i
        if num == 0:
            break
        t = binom * (mpmath.mpf(num) / den) ** n
        terms.append(-t if i & 1 else t)
    return terms


def high_precision(construction, m, n, k):
    """value as an mpf, checked at two precisions."""
    if n == 0:
        return mpmath.mpf(0)
    terms_of = _std_terms if construction == "standard" else _cls_terms
    dps = 60
    while True:
        with mpmath.workdps(dps):
            terms = terms_of(m, n, k)
            v = mpmath.fsum(terms)
            big = max(abs(t) for t in terms)
            if v <= 0:
                cancel = dps          # precision far too low: raise it
            else:
                cancel = int(mpmath.log10(big / v)) + 1
        if dps >= cancel + 60:
            break
        dps = cancel + 80
    with mpmath.workdps(dps + 40):
        v2 = mpmath.fsum(terms_of(m, n, k))
    with mpmath.workdps(dps + 40):
        if abs(v2 - v) > abs(v2) * mpmath.mpf(10) ** -25:
            raise RuntimeError("precision check failed for %s %d %d %d"
                               % (construction, m, n, k))
    return v2, dps


def mpf_to_str(v, digits=20):
    if v == 0:
        return "0"
    with mpmath.workdps(digits + 30):
        e = int(mpmath.floor(mpmath.log10(v)))
        mant = v / mpmath.mpf(10) ** e
        if mant >= 10:
            mant /= 10
            e += 1
        if mant < 1:
            mant *= 10
            e -= 1
        q = int(mpmath.nint(mant * mpmath.mpf(10) ** (digits - 1)))
    if q >= 10 ** digits:
        q //= 10
        e += 1
    s = str(q)
    return "%s.%se%+d" % (s[0], s[1:], e)


# ---------------------------------------------------------------------------
# the cases

def small_cases():
    """(construction, m, n, k) with m <= 5000, n*k <= 50000, exact."""
    cases = []
    both = ("standard", "classic")

    def add(m, n, k, which=both):
        for c in which:
            if c == "classic" and k > m:
                continue
            cases.append((c, m, n, k))

    # corners: m = 1, n = 0, k > m
    for k in (1, 2, 3, 7):
        add(1, 1, k)
        add(1, 3, k)
    for m in (1, 2, 5, 5000):
        add(m, 0, 1)
        add(m, 0, 3)
    for m, n, k in ((2, 1, 3), (2, 4, 5), (3, 2, 10), (5, 1, 50), (5, 3, 17),
                    (10, 1, 40), (10, 2, 25), (37, 3, 100), (64, 1, 1000),
                    (100, 2, 300)):
        add(m, n, k, ("standard",))
    # k = m (classic: every item sets every bit) and k close to m
    for m, n in ((3, 2), (20, 1), (20, 5), (200, 3)):
        add(m, n, m)
        add(m, n, m - 1)
    # n*k = 50000
    for n, k in ((50000, 1), (25000, 2), (12500, 4), (5000, 10), (2500, 20),
                 (1000, 50), (781 * 0 + 625, 80), (500, 100)):
        add(5000, n, k)
    for n, k in ((50000, 1), (5000, 10), (1000, 50)):
        add(1000, n, k)
        add(37, n, k)
    add(5000, 50, 1000, ("classic",))
    add(5000, 100, 500, ("classic",))
    add(3001, 200, 250, ("classic",))
    # m = 5000 across loads
    for n, k in ((1, 1), (1, 7), (1, 64), (1, 300), (2, 200), (10, 64),
                 (100, 7), (350, 10), (700, 5), (2000, 2), (3466, 1),
                 (5, 1000), (20, 160), (40, 80)):
        add(5000, n, k)
    # the paper's example m = 64, n = 4 (Fig. 7/8) over k
    for k in range(1, 17):
        add(64, 4, k)
    add(100, 20, 40)
    add(100, 20, 10)
    # a deterministic spread over the whole small range
    rng = random.Random(20250101)
    while len(cases) < 330:
        m = int(round(math.exp(rng.uniform(0, math.log(SMALL_M)))))
        k = int(round(math.exp(rng.uniform(0, math.log(1000)))))
        nmax = SMALL_NK // k
        n = int(round(math.exp(rng.uniform(0, math.log(nmax)))))
        # keep the exact computation cheap: bound the big-integer work
        K = min(k, m)
        if (K + 1) * n * k * math.log2(m + 1) > 3e7:
            continue
        add(m, n, k)
    return cases


def large_cases():
    cases = []
    for m in (1 << 20, 1000003, 1 << 26, 10 ** 8, 1 << 30, 1 << 32, 1 << 33):
        for k in (1, 3, 7, 16, 32, 64):
            for load in (0.05, 0.7, 3.0):
                n = max(1, min(10 ** 9, int(round(load * m / k))))
                cases.append(("standard", m, n, k))
                cases.append(("classic", m, n, k))
    # n at the top of the range
    for m, k in (((1 << 33), 64), ((1 << 33), 7), ((1 << 30), 10), (10 ** 6, 5)):
        cases.append(("standard", m, 10 ** 9, k))
        cases.append(("classic", m, 10 ** 9, k))
    # rates near 1e-300 and 1e-250 (and smaller), large filters
    for m, n, k in (((1 << 33), 2750, 64), ((1 << 33), 16000, 64),
                    ((1 << 33), 1000, 64), ((1 << 30), 300, 50),
                    ((1 << 32), 60, 40)):
        cases.append(("standard", m, n, k))
        cases.append(("classic", m, n, k))
    # larger k (not in the 1e-6 acceptance range, checked anyway)
    for m, n, k in ((1 << 33, 6000000, 1000), (10 ** 7, 10000, 693),
                    (1 << 33, 30000000, 200), (100000, 100, 700)):
        cases.append(("standard", m, n, k))
        cases.append(("classic", m, n, k))
    return cases


def main(argv):
    if len(argv) == 5:
        c, m, n, k = argv[1], int(argv[2]), int(argv[3]), int(argv[4])
        if m <= SMALL_M and n * k <= SMALL_NK:
            f = standard_exact(m, n, k) if c == "standard" else classic_exact(m, n, k)
            print(c, m, n, k, fraction_to_str(f))
        else:
            v, _ = high_precision(c, m, n, k)
            print(c, m, n, k, mpf_to_str(v))
        return 0

    t0 = time.time()
    print("# reference false-positive rates: construction m n k value")
    print("# generated by test/data/analysis_reference.py (exact rationals for m <= 5000 and nk <= 50000,")
    print("# mpmath at >= 60 digits beyond the cancellation otherwise); do not edit by hand")
    small = small_cases()
    for c, m, n, k in small:
        f = standard_exact(m, n, k) if c == "standard" else classic_exact(m, n, k)
        print(c, m, n, k, fraction_to_str(f))
    t1 = time.time()
    large = large_cases()
    for c, m, n, k in large:
        v, dps = high_precision(c, m, n, k)
        print(c, m, n, k, mpf_to_str(v))
    t2 = time.time()
    print("# %d exact cases in %.1f s, %d high-precision cases in %.1f s"
          % (len(small), t1 - t0, len(large), t2 - t1), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
