"""The binary and text forms of bloomfilter (docs/format.md section 5) and
the validator's checks (section 7)."""

from dataclasses import dataclass

from . import families as F
from .codec import (b64decode, b64encode, le, parse_fields, parse_number, parse_version,
                    signed64, u)
from .errors import FormatError
from .positions import BLOCK_BITS, BLOCKED, FIT, FIT_PARTIAL, PARTITION, SCHEME_NAMES
from .primes import is_prime

HEADER_BYTES = 36
MAX_BITS = 6000000000
MAX_HASHES = 1024
BLOCKED_MAX_HASHES = 64
NEWEST_VERSION = 2
FIT_TOKENS = ("fit", "fit_over_ceiling", "fit_mixed", "fit_over_ceiling_mixed")
FIT_OVER_CEILING, FIT_MIXED_SIZES = 1, 2


@dataclass
class BloomFields:
    """The stored fields of a filter; bits is the bit array, 8 * ceil(m/64) bytes."""
    version: int
    scheme: int
    family: int
    flags: int
    k: int
    tag: int
    m: int
    seed: int
    items: int
    bits: bytearray


def bit_bytes(m: int) -> int:
    return 8 * ((m + 63) // 64)


def check_shape(scheme: int, m: int, k: int) -> None:
    """The shape rules of section 7; raises FormatError."""
    if not 1 <= scheme <= FIT_PARTIAL:
        raise FormatError("unknown bloomfilter scheme code %d" % scheme)
    if not 1 <= k <= MAX_HASHES:
        raise FormatError("bloomfilter hashes %d out of range 1 to %d" % (k, MAX_HASHES))
    if m > MAX_BITS:
        raise FormatError("bloomfilter of %d bits is larger than %d" % (m, MAX_BITS))
    if scheme != FIT_PARTIAL and k > m:
        raise FormatError("bloomfilter has more hashes (%d) than bits (%d)" % (k, m))
    name = SCHEME_NAMES[scheme]
    if scheme <= 3 and not is_prime(m):
        raise FormatError("%s bloomfilter size %d is not prime" % (name, m))
    if scheme == PARTITION and (m % k or not is_prime(m // k)):
        raise FormatError("partition bloomfilter size %d is not k = %d times a prime" % (m, k))
    if scheme == 5 and m < 2:
        raise FormatError("independent bloomfilter needs at least 2 bits")
    if scheme == BLOCKED and (m == 0 or m % BLOCK_BITS or k > BLOCKED_MAX_HASHES):
        raise FormatError("blocked bloomfilter needs a positive multiple of 512 bits and at "
                          "most 64 hashes; it has %d bits and %d hashes" % (m, k))
    if scheme == FIT and (m < 8 or m > 1 << 32 or m & (m - 1)):
        raise FormatError("fit bloomfilter size %d is not a power of two from 8 to 2^32" % m)


def check_fields(f: BloomFields) -> None:
    """Every rule of section 7 but the fit_partial payload's (fit.py)."""
    if not 1 <= f.version <= NEWEST_VERSION:
        raise FormatError("bloomfilter format version %d is not 1 or 2" % f.version)
    if f.family > F.OTHER:
        raise FormatError("unknown value family code %d" % f.family)
    if f.flags and not (f.scheme == FIT and f.flags < len(FIT_TOKENS)):
        raise FormatError("bloomfilter reserved byte is %d, not 0" % f.flags)
    if f.tag and f.family != F.OTHER:
        raise FormatError("bloomfilter type tag set for family %s" % F.NAMES[f.family])
    if f.family == F.NONE and f.items:
        raise FormatError("bloomfilter of family none counts %d items" % f.items)
    check_shape(f.scheme, f.m, f.k)
    if len(f.bits) != bit_bytes(f.m):
        raise FormatError("bloomfilter bit array has %d bytes, %d expected for m = %d"
                          % (len(f.bits), bit_bytes(f.m), f.m))
    whole = int.from_bytes(f.bits, "little")
    if whole >> f.m:
        raise FormatError("bloomfilter has bits set at positions beyond m = %d" % f.m)
    if f.scheme not in (FIT, FIT_PARTIAL) and bin(whole).count("1") > f.k * f.items:
        raise FormatError("bloomfilter has more bits set than k times its items")


def decode(data: bytes) -> BloomFields:
    if len(data) < HEADER_BYTES:
        raise FormatError("bloomfilter needs at least %d bytes, got %d" % (HEADER_BYTES, len(data)))
    if u(data, 6, 2):
        raise FormatError("bloomfilter reserved field at offset 6 is not 0")
    m = u(data, 12, 8)
    if m > MAX_BITS:
        raise FormatError("bloomfilter of %d bits is larger than %d" % (m, MAX_BITS))
    if len(data) != HEADER_BYTES + bit_bytes(m):
        raise FormatError("bloomfilter has %d bytes, %d expected for m = %d"
                          % (len(data), HEADER_BYTES + bit_bytes(m), m))
    f = BloomFields(data[0], data[1], data[2], data[3], u(data, 4, 2), u(data, 8, 4), m,
                    u(data, 20, 8), u(data, 28, 8), bytearray(data[HEADER_BYTES:]))
    check_fields(f)
    return f


def encode(f: BloomFields) -> bytes:
    return (bytes((f.version, f.scheme, f.family, f.flags)) + le(f.k, 2) + b"\0\0" + le(f.tag, 4)
            + le(f.m, 8) + le(f.seed, 8) + le(f.items, 8) + bytes(f.bits))


def scheme_token(f: BloomFields) -> str:
    return FIT_TOKENS[f.flags] if f.scheme == FIT else SCHEME_NAMES[f.scheme]


def to_text(f: BloomFields) -> str:
    return "bloom:v%d:%s:%s:k=%d:m=%d:seed=%d:items=%d:%s" % (
        f.version, scheme_token(f), F.token(f.family, f.tag), f.k, f.m, signed64(f.seed),
        f.items, b64encode(bytes(f.bits)))


def from_text(text: str) -> BloomFields:
    parts = text.split(":")
    if len(parts) != 9 or parts[0] != "bloom":
        raise FormatError("bloomfilter text must be bloom:v<version>:<scheme>:<family>:k=:m=:"
                          "seed=:items=:<base64>")
    version = parse_version(parts[1], "bloomfilter")
    flags = 0
    if parts[2] in FIT_TOKENS:
        scheme, flags = FIT, FIT_TOKENS.index(parts[2])
    elif parts[2] in SCHEME_NAMES[1:]:
        scheme = SCHEME_NAMES.index(parts[2])
    else:
        raise FormatError("unknown bloomfilter scheme %r" % parts[2])
    family, tag = F.parse_token(parts[3])
    fields = parse_fields(parts[4:8], ("k", "m", "seed", "items"), "bloomfilter")
    k, m = parse_number(fields["k"], "bloomfilter"), parse_number(fields["m"], "bloomfilter")
    seed = parse_number(fields["seed"], "bloomfilter", signed=True)
    items = parse_number(fields["items"], "bloomfilter")
    if not -(1 << 63) <= seed < 1 << 63 or items >> 64 or version > 255 or k >> 16:
        raise FormatError("bloomfilter text field out of range")
    check_shape(scheme, m, k)
    f = BloomFields(version, scheme, family, flags, k, tag, m, seed & ((1 << 64) - 1), items,
                    bytearray(b64decode(parts[8], "bloomfilter")))
    check_fields(f)
    return f
