"""Self-sized filters (scheme fit, docs/format.md sections 4 and 5, and
docs/fit.md): the partial state of bloom_fit_agg (scheme fit_partial) in
both its forms, and the final filter sized as the aggregate sizes it: the
smallest power of two whose expected false-positive rate for the group's n
distinct values, computed exactly in integers here, is within the rate.
The floating-point steps (k, n from the bits form) are the C code's, in the
same order, with the same libm."""

import math
from typing import Iterable, List, Optional, Tuple

from .bloom_codec import FIT_OVER_CEILING, BloomFields, bit_bytes
from .codec import double_bits, double_from_bits, le
from .errors import FormatError, ParameterError
from .hashing import M64, xxh3_128
from .positions import FIT, FIT_PARTIAL, fit_positions

MIN_BITS = 8
MAX_BITS = 1 << 32
MIN_CEILING = 1024
MAX_CEILING_REQUEST = 6000000000
DEFAULT_CEILING = 1 << 27
MAX_HASHES = 1024
PREFIX_WORDS = 2        # the rate and the ceiling, before the hashes or bits


def fit_hashes(fpr: float) -> int:
    """k = round(log2(1 / fpr)), halves away from zero, within 1 .. 1024."""
    return max(1, min(MAX_HASHES, math.floor(-math.log2(fpr) + 0.5)))


def fit_ceiling(max_bits: int) -> int:
    """The largest power of two within max_bits and 2^32."""
    if not MIN_CEILING <= max_bits <= MAX_CEILING_REQUEST:
        raise ParameterError("max_bits must be between %d and %d, not %d"
                             % (MIN_CEILING, MAX_CEILING_REQUEST, max_bits))
    ceiling = MAX_BITS
    while ceiling > max_bits:
        ceiling >>= 1
    return ceiling


def min_bits(k: int) -> int:
    bits = MIN_BITS
    while bits < k:
        bits *= 2
    return bits


def _stirling2(k: int) -> List[int]:
    row = [1]
    for i in range(1, k + 1):
        row = [0] + [d * (row[d] if d < len(row) else 0) + row[d - 1] for d in range(1, i + 1)]
    return row


def expected_rate_within(m: int, n: int, k: int, fpr: float) -> bool:
    """f(m, n, k) <= fpr for the standard filter, decided exactly:
    sum_d S(k, d) m(m-1)..(m-d+1) / m^k sum_j (-1)^j C(d, j) (1 - j/m)^(k n)."""
    if n == 0:
        return True
    stirling = _stirling2(k)
    powers = [(m - j) ** (k * n) if j < m else 0 for j in range(k + 1)]
    total, falling = 0, 1
    for d in range(1, k + 1):
        falling *= m - d + 1
        if falling == 0:
            break
        inner = sum((-1) ** j * math.comb(d, j) * powers[j] for j in range(d + 1))
        total += stirling[d] * falling * inner
    numerator, denominator = fpr.as_integer_ratio()
    return total * denominator <= numerator * m ** (k + k * n)


def fit_size(n: int, k: int, fpr: float, ceiling: int) -> Tuple[int, bool]:
    """(m, rate met) for n distinct values."""
    m = min_bits(k)
    while not expected_rate_within(m, n, k, fpr):
        if m >= ceiling:
            return ceiling, False
        m *= 2
    return m, True


def estimate_items(set_bits: int, m: int, k: int) -> Optional[int]:
    """n from the bits form's fill, as the C code rounds it; None when full."""
    if set_bits >= m:
        return None
    if set_bits == 0:
        return 0
    return math.floor(math.log1p(-set_bits / float(m)) / (float(k) * math.log1p(-1 / float(m))) + 0.5)


def _set_pairs(pairs: Iterable[Tuple[int, int]], m: int, k: int) -> int:
    bits = 0
    for h1, h2 in pairs:
        for p in fit_positions(h1, h2, m, k):
            bits |= 1 << p
    return bits


def fold(bits: int, m: int) -> int:
    half = m // 2
    return (bits & ((1 << half) - 1)) | (bits >> half)


class FitState:
    """The partial state of bloom_fit_agg: the rate, the ceiling, the values
    added, and the sorted distinct hash pairs or the bits at the ceiling."""

    def __init__(self, fpr: float, ceiling: int, version: int = 2, family: int = 0,
                 tag: int = 0, items: int = 0) -> None:
        self.fpr, self.ceiling, self.k = fpr, ceiling, fit_hashes(fpr)
        self.version, self.family, self.tag, self.items = version, family, tag, items
        self.pairs: set = set()
        self.bits: Optional[int] = None

    def add(self, data: bytes) -> None:
        """One value's canonical bytes, as the transition function adds it (seed 0)."""
        self.items = min(self.items + 1, M64)
        pair = xxh3_128(data, 0)
        if self.bits is not None:
            self.bits |= _set_pairs([pair], self.ceiling, self.k)
            return
        self.pairs.add(pair)
        if len(self.pairs) > self.ceiling // 256:
            self.bits, self.pairs = _set_pairs(self.pairs, self.ceiling, self.k), set()

    def fields(self) -> BloomFields:
        """The state as a bloomfilter of scheme fit_partial."""
        head = le(double_bits(self.fpr), 8) + le(self.ceiling, 8)
        if self.bits is None:
            pairs = sorted(self.pairs)
            payload = b"".join(le(h, 8) for p in pairs for h in p)
            m = 64 * (PREFIX_WORDS + 2 * len(pairs))
        else:
            payload, m = self.bits.to_bytes(bit_bytes(self.ceiling), "little"), 64 * PREFIX_WORDS + self.ceiling
        return BloomFields(self.version, FIT_PARTIAL, self.family, 0, self.k, self.tag, m, 0,
                           self.items, bytearray(head + payload))

    @classmethod
    def from_fields(cls, f: BloomFields) -> "FitState":
        """Read and check a state (docs/format.md section 7, fit_partial)."""
        raw = bytes(f.bits)
        words = [int.from_bytes(raw[i:i + 8], "little") for i in range(0, len(raw), 8)]
        if f.m % 64 or f.m < 128:
            raise FormatError("bloom_fit_agg state of %d bits is malformed" % f.m)
        fpr, ceiling = double_from_bits(words[0]), words[1]
        if (not 0 < fpr < 1 or f.k != fit_hashes(fpr) or ceiling & (ceiling - 1)
                or not MIN_CEILING <= ceiling <= MAX_BITS):
            raise FormatError("bloom_fit_agg state with an invalid rate or ceiling")
        state = cls(fpr, ceiling, f.version, f.family, f.tag, f.items)
        body = words[PREFIX_WORDS:]
        if len(body) == ceiling // 64:
            state.bits = int.from_bytes(raw[8 * PREFIX_WORDS:], "little")
            if f.items <= ceiling // 256 or bin(state.bits).count("1") > f.k * f.items:
                raise FormatError("bloom_fit_agg state bits do not match its items")
            return state
        pairs = [(body[i], body[i + 1]) for i in range(0, len(body) - 1, 2)]
        if (len(body) % 2 or len(pairs) > ceiling // 256 or len(pairs) > f.items
                or (len(pairs) == 0) != (f.family == 0)
                or any(pairs[i] >= pairs[i + 1] for i in range(len(pairs) - 1))):
            raise FormatError("bloom_fit_agg state hashes malformed")
        state.pairs = set(pairs)
        return state

    def final(self) -> BloomFields:
        """The group's filter, as the final function sizes it."""
        if self.bits is not None:
            n = estimate_items(bin(self.bits).count("1"), self.ceiling, self.k)
            m, met = (self.ceiling, False) if n is None else fit_size(n, self.k, self.fpr, self.ceiling)
            bits, size = self.bits, self.ceiling
            while size > m:
                bits, size = fold(bits, size), size // 2
        else:
            m, met = fit_size(len(self.pairs), self.k, self.fpr, self.ceiling)
            bits = _set_pairs(self.pairs, m, self.k)
        return BloomFields(self.version, FIT, self.family, 0 if met else FIT_OVER_CEILING, self.k,
                           self.tag, m, 0, self.items, bytearray(bits.to_bytes(bit_bytes(m), "little")))
