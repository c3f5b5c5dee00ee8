"""XXH3 from python3-xxhash, with the halves named as docs/format.md section 2
names them, and the mapping onto a range with re-seeding of section 3."""

from typing import Optional, Tuple

import xxhash

M64 = (1 << 64) - 1
RESEED = 0x9E3779B97F4A7C15


def xxh3_128(data: bytes, seed: int) -> Tuple[int, int]:
    """(h1, h2): the low and high 64 bits of XXH3_128bits_withSeed."""
    value = xxhash.xxh3_128_intdigest(data, seed & M64)
    return value & M64, value >> 64


def xxh3_64(data: bytes, seed: int) -> int:
    """XXH3_64bits_withSeed."""
    return xxhash.xxh3_64_intdigest(data, seed & M64)


def map_uniform(x: int, n: int) -> Optional[int]:
    """Lemire's multiply-shift: floor(x n / 2^64), or None when rejected."""
    p = x * n
    if (p & M64) < (1 << 64) % n:
        return None
    return p >> 64


def locate(data: bytes, seed: int, first_range: int, step_range: Optional[int]) -> Tuple[int, int]:
    """(map(h1, first_range), map(h2, step_range)), re-hashing with the seed
    advanced by RESEED until both are accepted; with step_range None (the
    blocked scheme) only h1 is mapped and h2 is returned as it is."""
    while True:
        h1, h2 = xxh3_128(data, seed)
        a = map_uniform(h1, first_range)
        if a is not None:
            if step_range is None:
                return a, h2
            b = map_uniform(h2, step_range)
            if b is not None:
                return a, b
        seed = (seed + RESEED) & M64


def remix(x: int) -> int:
    """splitmix64's finaliser, as the blocked and fit schemes use it."""
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)
