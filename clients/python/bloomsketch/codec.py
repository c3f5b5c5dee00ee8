"""Pieces shared by the three types' binary and text forms: little-endian
fields, the signed seed, canonical base64, varints and the text header."""

import base64
import binascii
import re
import struct
from typing import Dict, List, Tuple

from .errors import FormatError

M64 = (1 << 64) - 1
INT64_MAX = (1 << 63) - 1
_NUMBER = re.compile(r"0|[1-9][0-9]*")
_SIGNED = re.compile(r"0|-?[1-9][0-9]*")


def u(data: bytes, at: int, size: int) -> int:
    """An unsigned little-endian field."""
    return int.from_bytes(data[at:at + size], "little")


def le(value: int, size: int) -> bytes:
    return value.to_bytes(size, "little")


def signed64(value: int) -> int:
    """A 64-bit pattern as the bigint SQL shows (seed)."""
    return value - (1 << 64) if value >> 63 else value


def to_bytes_of(data) -> bytes:
    """bytes from bytes, bytearray or memoryview (what psycopg2 returns for bytea)."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data)
    raise TypeError("expected bytes, bytearray or memoryview, not %s" % type(data).__name__)


def b64encode(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64decode(text: str, what: str) -> bytes:
    """Strict base64 that accepts only the canonical spelling."""
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise FormatError("invalid base64 in %s text" % what) from None
    if b64encode(data) != text:
        raise FormatError("%s text is not in its canonical spelling (base64)" % what)
    return data


def parse_number(text: str, what: str, signed: bool = False) -> int:
    """A decimal number in its one spelling (no '+', no leading zeros)."""
    if not (_SIGNED if signed else _NUMBER).fullmatch(text):
        raise FormatError("invalid number %r in %s text" % (text, what))
    return int(text)


def parse_fields(parts: List[str], names: Tuple[str, ...], what: str) -> Dict[str, str]:
    """name=value fields in the given order."""
    if len(parts) != len(names):
        raise FormatError("%s text has %d header fields, expected %d" % (what, len(parts), len(names)))
    out = {}
    for part, name in zip(parts, names):
        key, sep, value = part.partition("=")
        if key != name or not sep:
            raise FormatError("%s text: expected field %s=, found %r" % (what, name, part))
        out[name] = value
    return out


def parse_version(text: str, what: str) -> int:
    if not text.startswith("v"):
        raise FormatError("%s text: expected a version v<number>, found %r" % (what, text))
    return parse_number(text[1:], what)


def read_varint(data: bytes, at: int) -> Tuple[int, int]:
    """(value, next offset) of an unsigned LEB128 varint in its shortest
    spelling, within 64 bits and 10 bytes."""
    value = shift = 0
    for i in range(10):
        if at + i >= len(data):
            raise FormatError("topksketch entry ends inside a varint")
        byte = data[at + i]
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if i > 0 and byte == 0:
                raise FormatError("topksketch varint not in its fewest bytes")
            if value > M64:
                raise FormatError("topksketch varint beyond 64 bits")
            return value, at + i + 1
    raise FormatError("topksketch varint longer than 10 bytes")


def write_varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def double_from_bits(bits: int) -> float:
    return struct.unpack("<d", bits.to_bytes(8, "little"))[0]


def double_bits(value: float) -> int:
    return int.from_bytes(struct.pack("<d", value), "little")
