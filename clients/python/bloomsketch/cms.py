"""CountMinSketch: read, estimate, build and merge cmsketch values
(docs/format.md section 6)."""

import math
import struct
from dataclasses import dataclass
from typing import Any, List, Optional

from . import families as F
from .codec import (INT64_MAX, M64, b64decode, b64encode, le, parse_fields, parse_number,
                    parse_version, signed64, to_bytes_of, u)
from .errors import FamilyError, FormatError, MismatchError, ParameterError
from .positions import cms_columns
from .primes import is_prime, next_prime
from .values import canonical_bytes

HEADER_BYTES = 32
MAX_BYTES = 750000000
MAX_DEPTH = MAX_COPIES = 65535
NEWEST_VERSION = 2


@dataclass(frozen=True)
class CmsInfo:
    """The fields of cms_info(sketch)."""
    width: int
    depth: int
    copies: int
    epsilon: float
    delta: float
    seed: int
    family: str
    total: int
    bytes: int
    format_version: int


def failure_bound(epsilon: float, w: int, d: int) -> float:
    """Theorem 9.1's bound with b in [1, w - 1], as the C code computes it."""
    wf = float(w)
    return 2.0 / (epsilon * wf * (wf - 1.0)) + math.pow(2.0 / (epsilon * wf), float(d))


def size_for(epsilon: float, delta: float):
    """(w, d, copies) of cms_create(epsilon, delta), as the server sizes it."""
    if not 0.0 < epsilon < 1.0:
        raise ParameterError("cmsketch error bound epsilon must be greater than 0 and less than 1")
    if not 0.0 < delta < 1.0:
        raise ParameterError("cmsketch failure probability delta must be greater than 0 and less than 1")
    raw_width = math.ceil(2.0 * math.e / epsilon)
    if raw_width > 0xFFFFFFFF:
        raise ParameterError("cmsketch for epsilon %r is too large" % epsilon)
    w = next_prime(int(raw_width))
    raw_depth = math.ceil(math.log(1.0 / (epsilon * (1.0 - 1.0 / (2.0 * math.e * math.e)))))
    d = max(1, int(raw_depth))
    while failure_bound(epsilon, w, d) > epsilon and d < w:
        d += 1
    copies = 1
    if delta < epsilon:
        copies = max(1, math.ceil((math.log(delta) / math.log(epsilon)) * (1.0 - 1e-12)))
    _check_size(w, d, copies)
    return w, d, copies


def _check_size(w: int, d: int, copies: int) -> None:
    if d > w or d > MAX_DEPTH or copies > MAX_COPIES or 40 + 8 * w * d * copies > MAX_BYTES:
        raise ParameterError("cmsketch of width %d, depth %d and %d copies is too large "
                             "(at most %d bytes, depth at most the width)" % (w, d, copies, MAX_BYTES))


class CountMinSketch:
    """A cmsketch value: counters of copies x depth rows of prime width."""

    def __init__(self, version: int, family: int, tag: int, w: int, d: int, copies: int,
                 seed: int, total: int, counters: List[int], build_family: Optional[int] = None):
        self.version, self._family, self._tag = version, family, tag
        self.width, self.depth, self.copies, self._seed = w, d, copies, seed
        self.total, self._counters = total, counters
        self._build_family = family if family else build_family

    # ---- reading and writing ----

    @classmethod
    def from_bytes(cls, data, family=None) -> "CountMinSketch":
        """A sketch from its binary form (bytea), validated.  family names the
        values to add to an empty sketch (such as the bytes of cms_create())."""
        sketch = cls._decode(to_bytes_of(data))
        sketch._build_family = F.declared_family(sketch._family, sketch._tag, family) or sketch._build_family
        return sketch

    @classmethod
    def _decode(cls, data: bytes) -> "CountMinSketch":
        if len(data) < HEADER_BYTES:
            raise FormatError("cmsketch needs at least %d bytes, got %d" % (HEADER_BYTES, len(data)))
        version, family, w, d, copies = data[0], data[1], u(data, 8, 4), u(data, 12, 2), u(data, 14, 2)
        if not 1 <= version <= NEWEST_VERSION:
            raise FormatError("cmsketch format version %d is not 1 or 2" % version)
        if u(data, 2, 2):
            raise FormatError("cmsketch reserved field is not 0")
        if family > F.OTHER or (u(data, 4, 4) and family != F.OTHER):
            raise FormatError("cmsketch family %d or its type tag is invalid" % family)
        if d < 1 or copies < 1 or w < 2 or d > w or not is_prime(w):
            raise FormatError("cmsketch shape w=%d d=%d copies=%d is invalid" % (w, d, copies))
        if 40 + 8 * w * d * copies > MAX_BYTES:
            raise FormatError("cmsketch larger than %d bytes" % MAX_BYTES)
        n = w * d * copies
        if len(data) != HEADER_BYTES + 8 * n:
            raise FormatError("cmsketch has %d bytes, %d expected" % (len(data), HEADER_BYTES + 8 * n))
        counters = list(struct.unpack("<%dQ" % n, data[HEADER_BYTES:]))
        total = u(data, 24, 8)
        if family == F.NONE and (total or any(counters)):
            raise FormatError("cmsketch of family none has counts")
        if min(sum(counters[r * w:(r + 1) * w]) for r in range(d * copies)) != total:
            raise FormatError("cmsketch total is not its smallest row sum")
        return cls(version, family, u(data, 4, 4), w, d, copies, u(data, 16, 8), total, counters)

    @classmethod
    def from_text(cls, text: str, family=None) -> "CountMinSketch":
        """A sketch from its text form (cms:v2:...), validated; family as for
        from_bytes."""
        parts = text.split(":")
        if len(parts) != 9 or parts[0] != "cms":
            raise FormatError("cmsketch text must be cms:v<version>:<family>:w=:d=:copies=:seed=:total=:<base64>")
        version = parse_version(parts[1], "cmsketch")
        stored, tag = F.parse_token(parts[2])
        fields = parse_fields(parts[3:8], ("w", "d", "copies", "seed", "total"), "cmsketch")
        w, d, copies, total = (parse_number(fields[n], "cmsketch") for n in ("w", "d", "copies", "total"))
        seed = parse_number(fields["seed"], "cmsketch", signed=True)
        if version > 255 or w >> 32 or d >> 16 or copies >> 16 or total >> 64 or not -(1 << 63) <= seed < 1 << 63:
            raise FormatError("cmsketch text field out of range")
        if d < 1 or copies < 1 or 40 + 8 * w * d * copies > MAX_BYTES:
            raise FormatError("cmsketch shape w=%d d=%d copies=%d is invalid" % (w, d, copies))
        header = (bytes((version, stored)) + b"\0\0" + le(tag, 4) + le(w, 4) + le(d, 2)
                  + le(copies, 2) + le(seed & M64, 8) + le(total, 8))
        return cls.from_bytes(header + b64decode(parts[8], "cmsketch"), family)

    def _header(self) -> bytes:
        return (bytes((self.version, self._family)) + b"\0\0" + le(self._tag, 4) + le(self.width, 4)
                + le(self.depth, 2) + le(self.copies, 2) + le(self._seed, 8) + le(self.total, 8))

    def to_bytes(self) -> bytes:
        """The binary form, as sketch::bytea gives it."""
        return self._header() + struct.pack("<%dQ" % len(self._counters), *self._counters)

    def to_text(self) -> str:
        """The text form, as the type's output function writes it."""
        return "cms:v%d:%s:w=%d:d=%d:copies=%d:seed=%d:total=%d:%s" % (
            self.version, F.token(self._family, self._tag), self.width, self.depth, self.copies,
            signed64(self._seed), self.total, b64encode(self.to_bytes()[HEADER_BYTES:]))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CountMinSketch) and self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes())

    # ---- building ----

    @classmethod
    def create(cls, family, epsilon: float = 0.001, delta: float = 0.001,
               seed: int = 0) -> "CountMinSketch":
        """An empty sketch as cms_create(epsilon, delta, seed), for values of `family`."""
        w, d, copies = size_for(epsilon, delta)
        return cls._empty(family, w, d, copies, seed)

    @classmethod
    def create_dims(cls, family, width: int, depth: int, seed: int = 0) -> "CountMinSketch":
        """An empty sketch as cms_create_dims(width, depth, seed): width rounded
        up to a prime, one copy."""
        if width < 1 or depth < 1:
            raise ParameterError("cmsketch width and depth must be at least 1")
        if width > 0xFFFFFFFF:
            raise ParameterError("cmsketch of width %d is too large" % width)
        w = next_prime(max(width, 2))
        if depth > w:
            raise ParameterError("cmsketch depth %d must not exceed its prime width %d" % (depth, w))
        _check_size(w, depth, 1)
        return cls._empty(family, w, depth, 1, seed)

    @classmethod
    def _empty(cls, family, w: int, d: int, copies: int, seed: int) -> "CountMinSketch":
        code = F.supported_code(family)
        if not -(1 << 63) <= seed < 1 << 63:
            raise ParameterError("seed %d is out of the range of bigint" % seed)
        return cls(2, 0, 0, w, d, copies, seed & M64, 0, [0] * (w * d * copies), code)

    def _value_bytes(self, value: Any) -> bytes:
        if self._family == F.OTHER:
            raise FamilyError(F.OTHER_REFUSAL)
        if self._build_family is None:
            raise FamilyError("this sketch holds no values yet and has no family: create it "
                              "with CountMinSketch.create(family=...) to add values")
        return canonical_bytes(self._build_family, value)

    def add(self, value: Any, count: int = 1) -> "CountMinSketch":
        """Add `count` occurrences in place, as cms_add; returns the sketch."""
        data = self._value_bytes(value)
        return self.add_canonical(data, self._build_family, count=count)

    def add_canonical(self, data: bytes, family: int, tag: int = 0, count: int = 1) -> "CountMinSketch":
        """Add canonical bytes of a value of `family` (docs/format.md section 1)."""
        if count < 0:
            raise ParameterError("cmsketch count must not be negative, not %d" % count)
        if self._family == F.NONE:
            self._family, self._tag, self._build_family = family, tag, family
        elif (self._family, self._tag) != (family, tag):
            raise FamilyError("cmsketch holds %s values, not %s ones"
                              % (F.token(self._family, self._tag), F.token(family, tag)))
        if self.total + count > INT64_MAX:
            raise ParameterError("cmsketch total would exceed the range of bigint")
        w = self.width
        for row, column in enumerate(cms_columns(data, w, self.depth, self.copies, self._seed)):
            self._counters[row * w + column] += count
        self.total += count
        return self

    # ---- queries ----

    def estimate(self, value: Any) -> int:
        """The estimated count, never below the true one (cms_estimate)."""
        data = self._value_bytes(value)
        if self._family == F.NONE:
            return 0
        return self.estimate_canonical(data)

    def estimate_canonical(self, data: bytes) -> int:
        w = self.width
        return min(self._counters[row * w + column] for row, column in
                   enumerate(cms_columns(data, w, self.depth, self.copies, self._seed)))

    def merge(self, other: "CountMinSketch") -> "CountMinSketch":
        """The sketch of both streams (cms_merge, a + b): counters added."""
        if (self.width, self.depth, self.copies, self._seed) != (other.width, other.depth,
                                                                 other.copies, other._seed):
            raise MismatchError("cmsketches of different shapes or seeds do not merge")
        if self._family and other._family and (self._family, self._tag) != (other._family, other._tag):
            raise MismatchError("cmsketches of families %s and %s do not merge"
                                % (F.token(self._family, self._tag), F.token(other._family, other._tag)))
        counters = [a + b for a, b in zip(self._counters, other._counters)]
        if max(counters, default=0) > M64:
            raise ParameterError("cmsketch counter overflow in merge")
        w = self.width
        total = min(sum(counters[r * w:(r + 1) * w]) for r in range(self.depth * self.copies))
        family, tag = (self._family, self._tag) if self._family else (other._family, other._tag)
        version = max(self.version, other.version) if bool(self._family) == bool(other._family) \
            else (self.version if self._family else other.version)
        return CountMinSketch(version, family, tag, w, self.depth, self.copies, self._seed, total,
                              counters, self._build_family or other._build_family)

    __add__ = merge

    @property
    def family(self) -> str:
        return F.token(self._family, self._tag)

    def info(self) -> CmsInfo:
        """The fields of cms_info(sketch)."""
        epsilon = min(1.0, 2.0 * math.e / float(self.width))
        bound = min(1.0, failure_bound(epsilon, self.width, self.depth))
        return CmsInfo(self.width, self.depth, self.copies, epsilon, math.pow(bound, float(self.copies)),
                       signed64(self._seed), self.family, self.total,
                       40 + 8 * len(self._counters), self.version)
