"""Self-sized filters (bloom_fit_agg), written from docs/format.md sections
4 and 5 and docs/fit.md: the partial state of scheme fit_partial (its two
forms, read, written and checked), and the final filter of scheme fit,
rebuilt from a group's values as the aggregate sizes it: the smallest power
of two whose expected false-positive rate for the group's n distinct values
(the standard model's, computed exactly in integers here) is within the rate
asked for.  Python 3 standard library only; the floating-point steps (k, the
estimate of n from the bits form) are those of the C code, in the same
order, so that the same libm gives the same sizes.
"""

import math
import struct

from bloomsketch_reader import BloomFilter, M64, canonical, fit_positions
from xxh3 import xxh3_128

MIN_BITS = 8
MAX_BITS = 1 << 32
MIN_CEILING = 1024
DEFAULT_CEILING = 1 << 27
MAX_HASHES = 1024
# payload words before the hashes or bits: the rate and the ceiling
PREFIX_WORDS = 2


def fit_hashes(fpr):
    """k = round(log2(1 / fpr)), rounding halves away from zero, in 1 .. 1024."""
    k = math.floor(-math.log2(fpr) + 0.5)
    return max(1, min(MAX_HASHES, k))


def fit_ceiling(max_bits):
    """The largest power of two within max_bits and 2^32; None below 1024."""
    if max_bits < MIN_CEILING:
        return None
    ceiling = MAX_BITS
    while ceiling > max_bits:
        ceiling >>= 1
    return ceiling


def _popcount(x):
    return bin(x).count("1")


def min_bits(k):
    """The smallest fit size for k: a power of two, at least MIN_BITS and k."""
    bits = MIN_BITS
    while bits < k:
        bits *= 2
    return bits


def fold(bits, m):
    """The filter at m / 2: the OR of its two halves."""
    half = m // 2
    return (bits & ((1 << half) - 1)) | (bits >> half)


def _stirling2(k):
    """S(k, d) for d = 0 .. k, the Stirling numbers of the second kind."""
    row = [1]
    for i in range(1, k + 1):
        row = [0] + [d * (row[d] if d < len(row) else 0) + row[d - 1]
                     for d in range(1, i + 1)]
    return row


def expected_rate_within(m, n, k, fpr):
    """f_S(m, n, k) <= fpr, decided exactly: k probes with repetition into m
    bits after k n balls, f_S = sum_d S(k, d) m(m-1)..(m-d+1) / m^k
    * sum_j (-1)^j C(d, j) (1 - j/m)^(k n), as one fraction of integers."""
    if n == 0:
        return True
    stirling = _stirling2(k)
    powers = [(m - j) ** (k * n) if j < m else 0 for j in range(k + 1)]
    total = 0
    falling = 1
    for d in range(1, k + 1):
        falling *= m - d + 1
        if falling == 0:
            break
        inner = sum((-1) ** j * math.comb(d, j) * powers[j] for j in range(d + 1))
        total += stirling[d] * falling * inner
    numerator, denominator = fpr.as_integer_ratio()
    return total * denominator <= numerator * m ** (k + k * n)


def fit_size(n, k, fpr, ceiling):
    """(m, met): the smallest power of two from min_bits(k) whose expected
    rate for n is within fpr; (ceiling, False) when none up to it is."""
    m = min_bits(k)
    while not expected_rate_within(m, n, k, fpr):
        if m >= ceiling:
            return ceiling, False
        m *= 2
    return m, True


def estimate_items(set_bits, m, k):
    """n from the fill of the bits form: ln(1 - s/m) / (k ln(1 - 1/m)),
    rounded half up; None when every bit is set."""
    if set_bits >= m:
        return None
    if set_bits == 0:
        return 0
    items = math.log1p(-set_bits / float(m)) / (float(k) * math.log1p(-1 / float(m)))
    return math.floor(items + 0.5)


def set_pairs(pairs, m, k):
    bits = 0
    for h1, h2 in pairs:
        for p in fit_positions(h1, h2, m, k):
            bits |= 1 << p
    return bits


def _bits_bytes(bits, m):
    """The bit array in whole 64-bit words (bits m and above zero)."""
    return bits.to_bytes(8 * ((m + 63) // 64), "little")


class FitState:
    """A partial state: the rate, the ceiling, the values added (items) and
    either the sorted distinct hash pairs or the bits at the ceiling."""

    def __init__(self, fpr, ceiling, version=2, family=0, tag=0, items=0, pairs=None,
                 bits=None):
        self.fpr, self.ceiling, self.k = fpr, ceiling, fit_hashes(fpr)
        self.version, self.family, self.tag, self.items = version, family, tag, items
        self.pairs = sorted(set(pairs or ()))
        self.bits = bits        # an integer of ceiling bits, or None: the hashes form

    def add(self, family, tag, data):
        """One value, as the transition function adds it (seed 0)."""
        if self.family == 0:
            self.family, self.tag = family, tag
        elif (self.family, self.tag) != (family, tag):
            raise ValueError("value of another family")
        self.items = min(self.items + 1, M64)
        h1, h2 = xxh3_128(data, 0)
        if self.bits is not None:
            self.bits |= set_pairs([(h1, h2)], self.ceiling, self.k)
            return
        if (h1, h2) not in self.pairs:
            self.pairs = sorted(self.pairs + [(h1, h2)])
        if len(self.pairs) > self.ceiling // 256:
            self.bits, self.pairs = set_pairs(self.pairs, self.ceiling, self.k), []

    def to_filter(self):
        """The filter as bloomfilter values carry a state (scheme fit_partial)."""
        words = [struct.unpack("<Q", struct.pack("<d", self.fpr))[0], self.ceiling]
        if self.bits is None:
            payload = b"".join(h.to_bytes(8, "little") for p in self.pairs for h in p)
            m = 64 * (PREFIX_WORDS + 2 * len(self.pairs))
        else:
            payload = _bits_bytes(self.bits, self.ceiling)
            m = 64 * PREFIX_WORDS + self.ceiling
        head = b"".join(w.to_bytes(8, "little") for w in words)
        return BloomFilter("fit_partial", m, self.k, 0, self.version, self.family, self.tag,
                           self.items, head + payload)

    @classmethod
    def from_filter(cls, f):
        """Read and check a state (docs/format.md section 7, fit_partial)."""
        raw = bytes(f.bits)
        words = [int.from_bytes(raw[i:i + 8], "little") for i in range(0, len(raw), 8)]
        if f.scheme != "fit_partial" or f.m % 64 or len(words) < PREFIX_WORDS:
            raise ValueError("not a bloom_fit_agg state")
        fpr = struct.unpack("<d", struct.pack("<Q", words[0]))[0]
        ceiling = words[1]
        if (not 0 < fpr < 1 or f.k != fit_hashes(fpr) or ceiling & (ceiling - 1)
                or not MIN_CEILING <= ceiling <= MAX_BITS):
            raise ValueError("bloom_fit_agg state with an invalid rate or ceiling")
        state = cls(fpr, ceiling, f.version, f.family, f.tag, f.items)
        body = words[PREFIX_WORDS:]
        if len(body) == ceiling // 64:
            state.bits = int.from_bytes(raw[8 * PREFIX_WORDS:], "little")
            if f.items <= ceiling // 256 or _popcount(state.bits) > f.k * f.items:
                raise ValueError("bloom_fit_agg state bits do not match its items")
            return state
        pairs = [(body[i], body[i + 1]) for i in range(0, len(body), 2)]
        if (len(body) % 2 or len(pairs) > ceiling // 256 or len(pairs) > f.items
                or (len(pairs) == 0) != (f.family == 0)
                or any(pairs[i] >= pairs[i + 1] for i in range(len(pairs) - 1))):
            raise ValueError("bloom_fit_agg state hashes malformed")
        state.pairs = pairs
        return state

    def final(self):
        """The group's filter, as the final function sizes it."""
        if self.bits is not None:
            items = estimate_items(_popcount(self.bits), self.ceiling, self.k)
            m, met = (self.ceiling, False) if items is None else \
                fit_size(items, self.k, self.fpr, self.ceiling)
            bits, size = self.bits, self.ceiling
            while size > m:
                bits, size = fold(bits, size), size // 2
        else:
            m, met = fit_size(len(self.pairs), self.k, self.fpr, self.ceiling)
            bits = set_pairs(self.pairs, m, self.k)
        return BloomFilter("fit", m, self.k, 0, self.version, self.family, self.tag,
                           self.items, _bits_bytes(bits, m), 0 if met else 1)


def fit_agg(values, fpr=0.01, max_bits=DEFAULT_CEILING):
    """(state, filter) of bloom_fit_agg over values: (family, tag, canonical bytes)."""
    state = FitState(fpr, fit_ceiling(max_bits))
    for family, tag, data in values:
        state.add(family, tag, data)
    return state, state.final()


def fit_values(spec, by_id):
    """The values of a set of docs/vectors/fit_filters.tsv, as (family, tag,
    canonical bytes): "ids A,B,..." (ids of values.tsv, repeats allowed),
    "int8 A..B" (the integers A to B) or "text vA..vB" ('v' || i, i = A .. B)."""
    kind, _, rest = spec.partition(" ")
    if kind == "ids":
        return [by_id[i] for i in rest.split(",")]
    low, high = rest.replace("v", "").split("..")
    if kind == "int8":
        return [canonical("int8", i) for i in range(int(low), int(high) + 1)]
    return [canonical("text", "v%d" % i) for i in range(int(low), int(high) + 1)]


def fit_values_sql(spec, sql_by_id):
    """An SQL query of the same values, as column 1."""
    kind, _, rest = spec.partition(" ")
    if kind == "ids":
        return " UNION ALL ".join("SELECT " + sql_by_id[i] for i in rest.split(","))
    low, high = rest.replace("v", "").split("..")
    if kind == "int8":
        return "SELECT i::int8 FROM generate_series(%s, %s) i" % (low, high)
    return "SELECT 'v' || i FROM generate_series(%s, %s) i" % (low, high)


FIT_MIXED_SIZES = 2


def fit_combine(a, b, intersect=False):
    """The union (or, with intersect, the intersection) of two fit filters
    as docs/format.md section 5 defines it: the smaller is tiled up to the
    larger m (bit p of the tiled array is bit p mod m of the smaller), the
    bits are ORed (ANDed), the items added (saturating) or the smaller kept,
    the flags ORed, and flag 2 set when the sizes differ."""
    if (a.scheme, b.scheme) != ("fit", "fit") or a.k != b.k or a.seed != b.seed:
        raise ValueError("not two fit filters of one k and seed")
    if a.family and b.family and (a.family, a.tag) != (b.family, b.tag):
        raise ValueError("fit filters of different families")
    m = max(a.m, b.m)

    def tiled(f):
        small = int.from_bytes(f.bits, "little")
        return sum(small << (i * f.m) for i in range(m // f.m))

    bits = tiled(a) & tiled(b) if intersect else tiled(a) | tiled(b)
    items = min(a.items, b.items) if intersect else min(a.items + b.items, M64)
    flags = a.flags | b.flags | (FIT_MIXED_SIZES if a.m != b.m else 0)
    family, tag = (a.family, a.tag) if a.family else (b.family, b.tag)
    return BloomFilter("fit", m, a.k, a.seed, a.version, family, tag, items,
                       bits.to_bytes(8 * ((m + 63) // 64), "little"), flags)

