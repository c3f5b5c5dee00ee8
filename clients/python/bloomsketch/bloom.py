"""BloomFilter: read, probe, build and combine bloomfilter values."""

from dataclasses import dataclass
from typing import Any, Iterable, Optional

from . import bloom_codec as codec
from . import families as F
from .bloom_codec import FIT_MIXED_SIZES, FIT_OVER_CEILING, BloomFields
from .codec import INT64_MAX, M64, signed64, to_bytes_of
from .estimates import current_fpr, estimated_items
from .errors import FamilyError, FormatError, MismatchError, ParameterError
from .fit import DEFAULT_CEILING, FitState, fit_ceiling
from .positions import FIT, FIT_PARTIAL, SCHEME_NAMES, positions
from .sizing import size_for
from .values import CONVERTERS, canonical_bytes

CREATABLE_SCHEMES = ("double", "double_square", "double_cube", "partition", "independent",
                     "blocked")


@dataclass(frozen=True)
class BloomInfo:
    """The fields of bloom_info(filter).  estimated_items and current_fpr are
    None where the library does not compute them as the server does
    (estimates.py)."""
    bits: int
    hashes: int
    seed: int
    scheme: str
    family: str
    bits_set: int
    items_added: int
    bytes: int
    format_version: int
    estimated_items: Optional[float]
    current_fpr: Optional[float]
    over_ceiling: bool


class BloomFilter:
    """A bloomfilter value.  Read one with from_bytes / from_text, make an
    empty one with create, or build a self-sized one with fit."""

    def __init__(self, fields: BloomFields, family: Optional[int] = None) -> None:
        self._f = fields
        # the family values are added as while the stored family is still none
        self._build_family = fields.family if fields.family else family

    # ---- reading and writing ----

    @classmethod
    def from_bytes(cls, data, family=None) -> "BloomFilter":
        """A filter from its binary form (bytea, psycopg2's memoryview),
        validated.  family names the values to add to an empty filter (such
        as the bytes of bloom_create(...)), whose stored family is none."""
        return cls._read(codec.decode(to_bytes_of(data)), family)

    @classmethod
    def from_text(cls, text: str, family=None) -> "BloomFilter":
        """A filter from its text form (bloom:v2:...), validated; family as
        for from_bytes."""
        return cls._read(codec.from_text(text), family)

    @classmethod
    def _read(cls, f: BloomFields, family) -> "BloomFilter":
        if f.scheme == FIT_PARTIAL:
            FitState.from_fields(f)
        return cls(f, F.declared_family(f.family, f.tag, family))

    def to_bytes(self) -> bytes:
        """The binary form, as bytea (what filter::bytea gives)."""
        return codec.encode(self._f)

    def to_text(self) -> str:
        """The text form, as the type's output function writes it."""
        return codec.to_text(self._f)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BloomFilter) and self.to_bytes() == other.to_bytes()

    def __hash__(self) -> int:
        return hash(self.to_bytes())

    def __repr__(self) -> str:
        return "BloomFilter(%s)" % self.to_text()[:80]

    # ---- building ----

    @classmethod
    def create(cls, family, bits: Optional[int] = None, hashes: Optional[int] = None,
               seed: int = 0, scheme: str = "double", *, capacity: Optional[int] = None,
               fpr: float = 0.01) -> "BloomFilter":
        """An empty filter for values of `family` (stored as family none until
        a value is added, as bloom_create's), of an explicit shape: bits and
        hashes with the scheme's shape (docs/format.md section 7), as
        bloom_info(bloom_create(...)) shows them.  For the independent and
        blocked schemes, capacity and fpr may stand instead: the shape is
        then bloom_create(capacity, fpr, seed, scheme)'s, computed here."""
        code = F.supported_code(family)
        if scheme not in CREATABLE_SCHEMES:
            raise ParameterError("unknown or uncreatable scheme %r; the schemes are %s (fit "
                                 "filters are built with BloomFilter.fit)"
                                 % (scheme, ", ".join(CREATABLE_SCHEMES)))
        if not -(1 << 63) <= seed < 1 << 63:
            raise ParameterError("seed %d is out of the range of bigint" % seed)
        if capacity is not None:
            bits, hashes = _sized(scheme, capacity, fpr, bits, hashes)
        if bits is None or hashes is None:
            raise ParameterError("give bits and hashes (or, for the independent and blocked "
                                 "schemes, capacity)")
        number = SCHEME_NAMES.index(scheme)
        try:
            codec.check_shape(number, bits, hashes)
        except FormatError as e:
            raise ParameterError(str(e)) from None
        return cls(BloomFields(2, number, 0, 0, hashes, 0, bits, seed & M64, 0,
                               bytearray(codec.bit_bytes(bits))), code)

    @classmethod
    def fit(cls, values: Iterable[Any], family, fpr: float = 0.01,
            max_bits: int = DEFAULT_CEILING) -> "BloomFilter":
        """The filter bloom_fit_agg(value, fpr, max_bits) returns for these
        values (NULLs, as None, are skipped as SQL skips them)."""
        code = F.supported_code(family)
        if not 0 < fpr < 1:
            raise ParameterError("fpr must be between 0 and 1, not %r" % fpr)
        state = FitState(float(fpr), fit_ceiling(max_bits))
        for value in values:
            if value is not None:
                state.family = code
                state.add(canonical_bytes(code, value))
        if state.family == F.NONE:
            raise ParameterError("bloom_fit_agg over no values is NULL: there is no filter")
        return cls(state.final())

    def copy(self) -> "BloomFilter":
        f = self._f
        return BloomFilter(BloomFields(f.version, f.scheme, f.family, f.flags, f.k, f.tag, f.m,
                                       f.seed, f.items, bytearray(f.bits)), self._build_family)

    # ---- values ----

    def _value_bytes(self, value: Any) -> bytes:
        f = self._f
        if f.scheme == FIT_PARTIAL:
            raise ParameterError("a partial state of bloom_fit_agg is not a filter to probe")
        if f.family == F.OTHER:
            raise FamilyError(F.OTHER_REFUSAL)
        if self._build_family is None:
            raise FamilyError("this filter holds no values yet and has no family: create it "
                              "with BloomFilter.create(family=...) to add values")
        if value is None:
            raise FamilyError("None (SQL NULL) has no canonical bytes; SQL skips NULLs")
        return CONVERTERS[self._build_family](value)

    def contains(self, value: Any) -> bool:
        """False: the value was certainly never added; True: it probably was.
        The value is hashed as the filter's family hashes it."""
        data = self._value_bytes(value)
        return self._f.family != F.NONE and self.contains_canonical(data)

    def __contains__(self, value: Any) -> bool:
        return self.contains(value)

    def add(self, value: Any) -> "BloomFilter":
        """Add a value in place (as bloom_add would); returns the filter."""
        data = self._value_bytes(value)
        return self.add_canonical(data, self._build_family)

    def update(self, values: Iterable[Any]) -> "BloomFilter":
        """Add every value that is not None (as bloom_agg skips NULLs)."""
        for value in values:
            if value is not None:
                self.add(value)
        return self

    def contains_canonical(self, data: bytes) -> bool:
        """Membership of canonical bytes computed by the caller (docs/format.md
        section 1); no family check."""
        f = self._f
        bits = f.bits
        for g in positions(data, f.scheme, f.m, f.k, f.seed):
            if not bits[g >> 3] >> (g & 7) & 1:
                return False
        return True

    def add_canonical(self, data: bytes, family: int, tag: int = 0) -> "BloomFilter":
        """Add canonical bytes of a value of `family` (and type tag, for family other)."""
        f = self._f
        if f.scheme in (FIT_PARTIAL,):
            raise ParameterError("a partial state of bloom_fit_agg takes no values")
        if f.family == F.NONE:
            f.family, f.tag, self._build_family = family, tag, family
        elif (f.family, f.tag) != (family, tag):
            raise FamilyError("bloomfilter holds %s values, not %s ones"
                              % (F.token(f.family, f.tag), F.token(family, tag)))
        for g in positions(data, f.scheme, f.m, f.k, f.seed):
            f.bits[g >> 3] |= 1 << (g & 7)
        f.items = min(f.items + 1, M64)
        return self

    # ---- combining ----

    def union(self, other: "BloomFilter") -> "BloomFilter":
        """The filter of A ∪ B, as bloom_union (a | b)."""
        return self._combine(other, False)

    def intersect(self, other: "BloomFilter") -> "BloomFilter":
        """Bitwise AND, as bloom_intersect (a & b)."""
        return self._combine(other, True)

    __or__ = union
    __and__ = intersect

    def _combine(self, other: "BloomFilter", intersect: bool) -> "BloomFilter":
        a, b = self._f, other._f
        if FIT_PARTIAL in (a.scheme, b.scheme):
            raise ParameterError("a partial state of bloom_fit_agg cannot be combined")
        _check_combinable(a, b)
        m = max(a.m, b.m)
        left, right = _tiled(a, m), _tiled(b, m)
        bits = left & right if intersect else left | right
        items = min(a.items, b.items) if intersect else min(a.items + b.items, M64)
        flags = a.flags | b.flags | (FIT_MIXED_SIZES if a.m != b.m else 0)
        family, tag = (a.family, a.tag) if a.family else (b.family, b.tag)
        version = _combined_version(a, b)
        return BloomFilter(BloomFields(version, a.scheme, family, flags, a.k, tag, m, a.seed, items,
                                       bytearray(bits.to_bytes(codec.bit_bytes(m), "little"))),
                           self._build_family or other._build_family)

    # ---- description ----

    @property
    def family(self) -> str:
        return F.token(self._f.family, self._f.tag)

    @property
    def scheme(self) -> str:
        return SCHEME_NAMES[self._f.scheme]

    @property
    def bits(self) -> int:
        return self._f.m

    @property
    def hashes(self) -> int:
        return self._f.k

    def info(self) -> BloomInfo:
        """The fields of bloom_info(filter)."""
        f = self._f
        if f.scheme == FIT_PARTIAL:
            raise ParameterError("a partial state of bloom_fit_agg has no bloom_info")
        set_bits = bin(int.from_bytes(f.bits, "little")).count("1")
        return BloomInfo(f.m, f.k, signed64(f.seed), SCHEME_NAMES[f.scheme],
                         F.token(f.family, f.tag), set_bits, min(f.items, INT64_MAX),
                         40 + codec.bit_bytes(f.m), f.version, estimated_items(f, set_bits),
                         current_fpr(f, set_bits), bool(f.scheme == FIT and f.flags & FIT_OVER_CEILING))


def _sized(scheme: str, capacity: int, fpr: float, bits, hashes):
    """The shape bloom_create gives a capacity and rate, for the schemes the
    library sizes as the server does (sizing.py)."""
    if bits is not None or hashes is not None:
        raise ParameterError("give either bits and hashes or capacity, not both")
    if scheme not in ("independent", "blocked"):
        raise ParameterError(
            "the library sizes only independent and blocked filters from a capacity; a %s filter's size "
            "includes Kirsch and Mitzenmacher's term from the server's model: start from the "
            "bytes of bloom_create(...) (BloomFilter.from_bytes(b, family=...)) or pass bits "
            "and hashes from bloom_info(bloom_create(...))" % scheme)
    return size_for(scheme, capacity, fpr)


def _check_combinable(a: BloomFields, b: BloomFields) -> None:
    if a.scheme != b.scheme or a.k != b.k or a.seed != b.seed or (a.scheme != FIT and a.m != b.m):
        raise MismatchError("bloomfilters of different shapes do not combine: %s k=%d m=%d seed=%d "
                            "and %s k=%d m=%d seed=%d" % (SCHEME_NAMES[a.scheme], a.k, a.m,
                                                          signed64(a.seed), SCHEME_NAMES[b.scheme],
                                                          b.k, b.m, signed64(b.seed)))
    if a.family and b.family and (a.family, a.tag) != (b.family, b.tag):
        raise MismatchError("bloomfilters of families %s and %s do not combine"
                            % (F.token(a.family, a.tag), F.token(b.family, b.tag)))
    if a.version != b.version:
        older = a if a.version < b.version else b
        if older.family == F.OTHER:
            raise MismatchError("a version 1 bloomfilter of family other does not combine with a "
                                "newer one; rebuild it")


def _combined_version(a: BloomFields, b: BloomFields) -> int:
    """The version of the side with values, or the newer one (section 8)."""
    if bool(a.family) != bool(b.family):
        return a.version if a.family else b.version
    return max(a.version, b.version)


def _tiled(f: BloomFields, m: int) -> int:
    """The bits of f repeated up to m bits (fit sizes are powers of two >= 8)."""
    if f.m == m:
        return int.from_bytes(f.bits, "little")
    return int.from_bytes(bytes(f.bits[:f.m // 8]) * (m // f.m), "little")
