"""The estimates bloom_info reports where the library computes them as the
server does: estimated_items from the occupancy model of each scheme (Burns
eq. (46) in general form: n = ln(1 - X/m) / ln u1, u1 the chance one item
misses a given bit), and current_fpr from the fill for the schemes without
Kirsch and Mitzenmacher's term (independent, blocked, fit).  The same
double-precision operations as src/core/bloom/bs_scheme.c, in the same order."""

import math
from typing import Optional

from .bloom_codec import FIT_MIXED_SIZES, BloomFields
from .positions import BLOCK_BITS, BLOCKED, DOUBLE, FIT, INDEPENDENT, PARTITION

KM_SCHEMES = frozenset((1, 2, 3, 4))     # double, double_square, double_cube, partition


def _log_miss(scheme: int, m: int, k: int) -> float:
    dm, dk = float(m), float(k)
    if scheme == DOUBLE:
        return math.log1p(-dk / dm)
    if scheme == PARTITION:
        return math.log1p(-1 / (dm / dk))
    if scheme == BLOCKED:
        s = float(BLOCK_BITS)
        h = 1 - math.exp(dk * math.log1p(-1 / s))
        return math.log1p(-h / (dm / s))
    return dk * math.log1p(-1 / dm)


def estimated_items(f: BloomFields, set_bits: int) -> Optional[float]:
    """bloom_info's estimated_items; None where the server gives NULL (a
    union of fit filters of different sizes)."""
    if f.scheme == FIT and f.flags & FIT_MIXED_SIZES:
        return None
    if f.scheme == DOUBLE and f.k >= f.m:
        return 0.0 if set_bits == 0 else math.inf
    if set_bits == 0:
        return 0.0
    log_miss = _log_miss(f.scheme, f.m, f.k)
    if set_bits >= f.m or not log_miss > -math.inf or log_miss == 0:
        return math.inf
    return math.log1p(-float(set_bits) / float(f.m)) / log_miss


def _blocked_rate(f: BloomFields) -> float:
    words = int.from_bytes(f.bits, "little")
    blocks = f.m // BLOCK_BITS
    fills = [0] * (BLOCK_BITS + 1)
    mask = (1 << BLOCK_BITS) - 1
    for b in range(blocks):
        fills[bin((words >> (b * BLOCK_BITS)) & mask).count("1")] += 1
    total = 0.0
    for set_bits in range(1, BLOCK_BITS + 1):
        if fills[set_bits]:
            total += float(fills[set_bits]) * math.pow(float(set_bits) / float(BLOCK_BITS), float(f.k))
    return total / float(blocks)


def current_fpr(f: BloomFields, set_bits: int) -> Optional[float]:
    """bloom_info's current_fpr where it comes from the fill alone; None for
    the schemes whose rate includes Kirsch and Mitzenmacher's term (unless
    the fill decides it: 0 or 1)."""
    if f.scheme == FIT:
        return 1.0 if set_bits == f.m else math.pow(set_bits / f.m, f.k)
    if f.scheme == BLOCKED:
        return _blocked_rate(f)
    if f.scheme == INDEPENDENT:
        return math.pow(float(set_bits) / float(f.m), float(f.k))
    if set_bits == 0 or (f.scheme == DOUBLE and set_bits < f.k):
        return 0.0
    if f.scheme in KM_SCHEMES and set_bits == f.m:
        return 1.0
    return None
