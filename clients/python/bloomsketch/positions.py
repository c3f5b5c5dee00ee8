"""Where a value's canonical bytes land: the k bit positions of each probing
scheme (docs/format.md section 4) and a sketch's columns (section 6)."""

from typing import Callable, Dict, List

from .hashing import M64, RESEED, locate, map_uniform, remix, xxh3_128, xxh3_64

DOUBLE, DOUBLE_SQUARE, DOUBLE_CUBE, PARTITION, INDEPENDENT, BLOCKED, FIT, FIT_PARTIAL = range(1, 9)
SCHEME_NAMES = (None, "double", "double_square", "double_cube", "partition", "independent",
                "blocked", "fit", "fit_partial")
INDEPENDENT_STEP = 0xD1B54A32D192ED03
COPY_STEP = 0xBF58476D1CE4E5B9
BLOCK_BITS = 512


def _double(data: bytes, m: int, k: int, seed: int) -> List[int]:
    a, b = locate(data, seed, m, m - 1)
    b += 1
    return [(a + i * b) % m for i in range(k)]


def _double_square(data: bytes, m: int, k: int, seed: int) -> List[int]:
    a, b = locate(data, seed, m, m)
    return [(a + i * b + i * i) % m for i in range(k)]


def _double_cube(data: bytes, m: int, k: int, seed: int) -> List[int]:
    a, b = locate(data, seed, m, m)
    return [(a + i * b + i * i * i) % m for i in range(k)]


def _partition(data: bytes, m: int, k: int, seed: int) -> List[int]:
    width = m // k
    a, b = locate(data, seed, width, width)
    return [i * width + (a + i * b) % width for i in range(k)]


def _independent(data: bytes, m: int, k: int, seed: int) -> List[int]:
    out = []
    for i in range(k):
        s = (seed + (i + 1) * INDEPENDENT_STEP) & M64
        while True:
            g = map_uniform(xxh3_64(data, s), m)
            if g is not None:
                break
            s = (s + RESEED) & M64
        out.append(g)
    return out


def _blocked(data: bytes, m: int, k: int, seed: int) -> List[int]:
    block, word = locate(data, seed, m // BLOCK_BITS, None)
    base = BLOCK_BITS * block
    out = []
    for j in range(k):
        if j and j % 7 == 0:
            word = remix(word)
        out.append(base + ((word >> (9 * (j % 7))) & 511))
    return out


def fit_positions(h1: int, h2: int, m: int, k: int) -> List[int]:
    """Two positions per remixed word of h1 + j (h2 | 1), masked to the
    power-of-two m."""
    out: List[int] = []
    b, mask = h2 | 1, m - 1
    for j in range((k + 1) // 2):
        word = remix((h1 + j * b) & M64)
        out.append(word & 0xFFFFFFFF & mask)
        if len(out) < k:
            out.append((word >> 32) & mask)
    return out


def _fit(data: bytes, m: int, k: int, seed: int) -> List[int]:
    return fit_positions(*xxh3_128(data, seed), m, k)


POSITIONS: Dict[int, Callable[[bytes, int, int, int], List[int]]] = {
    DOUBLE: _double, DOUBLE_SQUARE: _double_square, DOUBLE_CUBE: _double_cube,
    PARTITION: _partition, INDEPENDENT: _independent, BLOCKED: _blocked, FIT: _fit,
}


def positions(data: bytes, scheme: int, m: int, k: int, seed: int) -> List[int]:
    """The k positions of canonical bytes in a filter of that shape."""
    return POSITIONS[scheme](data, m, k, seed & M64)


def cms_columns(data: bytes, w: int, d: int, copies: int, seed: int) -> List[int]:
    """The column of each of the copies * d rows, copy-major."""
    out: List[int] = []
    for c in range(copies):
        a, b = locate(data, (seed + c * COPY_STEP) & M64, w, w - 1)
        b += 1
        out += [(a + j * b) % w for j in range(d)]
    return out
