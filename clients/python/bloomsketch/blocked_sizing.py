"""bloom_create's sizing for the blocked scheme (Putze, Sanders and
Singler's blocked filter): a value picks one of B blocks of s = 512 bits
and sets k independent bits in it, so its false-positive rate is
  rate(n, B, k) = sum_j Pr[J = j] r_j,  J ~ Binomial(n, 1/B),
with r_j = E[(X_j / s)^k] for X_j the bits set after j k balls in s urns.
r_j comes from the occupancy chain in the order src/core/analysis/bs_blocked_rate.c
computes it (the same doubles); the sizing keeps, for each k tried from
round(log2(1/fpr)) down and then up until two k in a row do no better, the
fewest blocks whose rate is within fpr (ties to the smaller k)."""

import math
from typing import List, Tuple

from .errors import ParameterError

BLOCK_BITS = 512
MAX_BITS = 6000000000
MAX_HASHES = 64
MAX_LOAD = 16384


class _Chain:
    """Pr[x bits set] of one block, item by item, and the r_j so far."""

    def __init__(self, k: int) -> None:
        s = float(BLOCK_BITS)
        self.k = k
        self.fill = [1.0] + [0.0] * BLOCK_BITS
        self.highest = 0
        self.stay = [x / s for x in range(BLOCK_BITS + 1)]
        self.all_set = [math.pow(x / s, k) for x in range(BLOCK_BITS + 1)]
        self.move = [0.0] + [(s - float(x - 1)) / s for x in range(1, BLOCK_BITS + 1)]
        self.rates: List[float] = []

    def rate(self, j: int) -> float:
        """r_j, throwing items until j."""
        fill, stay, move = self.fill, self.stay, self.move
        while len(self.rates) < j:
            for _ in range(self.k):
                top = min(self.highest + 1, BLOCK_BITS)
                for x in range(top, 0, -1):
                    fill[x] = fill[x] * stay[x] + fill[x - 1] * move[x]
                fill[0] = 0.0
                self.highest = top
            rate = 0.0
            for x in range(1, self.highest + 1):
                rate += fill[x] * self.all_set[x]
            self.rates.append(rate if rate < 1 else 1.0)
        return self.rates[j - 1]


def _reaches(n: float, blocks: int, chain: _Chain, fpr: float) -> bool:
    """rate(n, blocks, k) <= fpr, summing until the rest cannot matter."""
    mean = n / blocks
    if mean > MAX_LOAD / 2:
        return False
    total = 0.0
    if blocks == 1:
        return n <= MAX_LOAD and chain.rate(int(n)) <= fpr
    p = 1.0 / blocks
    log_odds = math.log(p) - math.log1p(-p)
    log_weight = n * math.log1p(-p)
    j = 1
    while j <= MAX_LOAD and j <= n:
        log_weight += math.log((n - (j - 1)) / j) + log_odds
        total += math.exp(log_weight) * chain.rate(j)
        if total > fpr:
            return False
        if j > mean + 1:
            ratio = (n - j) / (j + 1) * math.exp(log_odds)
            if ratio < 1 and math.exp(log_weight) * ratio / (1 - ratio) <= 1e-17 * total:
                return True
        j += 1
    return not MAX_LOAD < n


def _fewest_blocks(n: float, fpr: float, k: int) -> int:
    """The fewest blocks reaching fpr with k bits per value, or 0."""
    most = MAX_BITS // BLOCK_BITS
    chain = _Chain(k)
    textbook = math.ceil(n * -math.log(fpr) / (math.log(2) * math.log(2)) / BLOCK_BITS)
    guess = int(min(max(textbook, 1), most))
    if _reaches(n, guess, chain, fpr):
        reaching, failing = guess, 0
        while reaching > 1:
            if not _reaches(n, reaching // 2, chain, fpr):
                failing = reaching // 2
                break
            reaching //= 2
    else:
        failing = guess
        while True:
            twice = min(failing * 2, most)
            if _reaches(n, twice, chain, fpr):
                reaching = twice
                break
            if twice == most:
                return 0
            failing = twice
    while reaching - failing > 1:
        middle = failing + (reaching - failing) // 2
        if _reaches(n, middle, chain, fpr):
            reaching = middle
        else:
            failing = middle
    return reaching


def size_blocked(capacity: int, fpr: float) -> Tuple[int, int]:
    """(bits, hashes) of bloom_create(capacity, fpr, seed, 'blocked')."""
    start = max(1, min(MAX_HASHES, int(round_half_away(-math.log2(fpr)))))
    best_blocks, best_k = 0, 0
    for direction in (-1, 1):
        worse = 0
        k = start if direction < 0 else start + 1
        while 1 <= k <= MAX_HASHES and worse < 2:
            blocks = _fewest_blocks(float(capacity), fpr, k)
            if blocks and (not best_blocks or blocks < best_blocks or (blocks == best_blocks and k < best_k)):
                best_blocks, best_k, worse = blocks, k, 0
            else:
                worse += 1
            k += direction
    if not best_blocks:
        raise ParameterError("blocked bloomfilter cannot reach false-positive rate %r for %d items: no "
                             "blocked filter of at most %d bits does" % (fpr, capacity, MAX_BITS))
    return best_blocks * BLOCK_BITS, best_k


def round_half_away(x: float) -> float:
    """C's lround: halves away from zero."""
    return math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)
