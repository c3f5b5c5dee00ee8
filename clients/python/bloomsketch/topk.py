"""TopKSketch: read a topksketch value (docs/format.md section 9) and list
its values as topk_items does.  Summaries are read only."""

import re
from dataclasses import dataclass
from typing import Any, Dict, List, NamedTuple, Optional, Tuple

from . import families as F
from .codec import (INT64_MAX, b64decode, b64encode, le, parse_fields, parse_number,
                    parse_version, read_varint, to_bytes_of, u, write_varint)
from .errors import FamilyError, FormatError
from .render import key_text, key_value
from .values import CANONICAL_NAN, canonical_bytes, normalize_numeric

HEADER_BYTES = 40
MAX_COUNTERS = 1000000
MAX_BYTES = 750000000
RENDERED_FROM_KEY = frozenset((F.INTEGER, F.TEXT, F.BYTEA, F.UUID, F.FLOAT, F.BOOL, F.DATE,
                               F.TIMESTAMP, F.TIMESTAMPTZ))
EIGHT_BYTE_KEYS = frozenset((F.INTEGER, F.DATE, F.TIMESTAMP, F.TIMESTAMPTZ, F.FLOAT))
_NUMERIC_SPELLING = re.compile(rb"-?[0-9]+(\.[0-9]+)?")


class Item(NamedTuple):
    """One row of topk_items: the value (a Python value, see render.key_value),
    its text as topk_items prints it (DateStyle ISO, TimeZone UTC), and the counts."""
    value: Any
    text: str
    count: int
    lower_bound: int
    upper_bound: int


@dataclass(frozen=True)
class TopkInfo:
    """The fields of topk_info(summary)."""
    counters: int
    entries: int
    total: int
    max_error: int
    error_bound: float
    family: str
    bytes: int
    format_version: int


@dataclass
class Entry:
    key: bytes
    lower: int
    count: int
    text: Optional[bytes]      # stored text, None when absent


def _utf8(text: bytes) -> bool:
    try:
        text.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\0" not in text


def _check_key(family: int, key: bytes) -> None:
    ok = True
    if family in EIGHT_BYTE_KEYS:
        ok = len(key) == 8
        n = int.from_bytes(key, "little", signed=True)
        if ok and family == F.DATE:
            ok = -(1 << 31) <= n < 1 << 31
        if ok and family == F.FLOAT:
            bits = int.from_bytes(key, "little")
            is_nan = (bits >> 52) & 0x7FF == 0x7FF and bits & ((1 << 52) - 1)
            ok = bits != 1 << 63 and (not is_nan or bits == CANONICAL_NAN)
    elif family == F.BOOL:
        ok = key in (b"\x00", b"\x01")
    elif family == F.UUID:
        ok = len(key) == 16
    elif family == F.TEXT:
        ok = _utf8(key)
    elif family == F.NUMERIC:
        ok = _numeric_key(key)
    if not ok:
        raise FormatError("topksketch key %s is not a canonical %s key" % (key.hex(), F.NAMES[family]))


def _numeric_key(key: bytes) -> bool:
    if key in (b"NaN", b"Infinity", b"-Infinity"):
        return True
    if not _NUMERIC_SPELLING.fullmatch(key):
        return False
    import decimal
    return normalize_numeric(decimal.Decimal(key.decode("ascii"))).encode("ascii") == key


def _numeric_spells(text: bytes, key: bytes) -> bool:
    if not _NUMERIC_SPELLING.fullmatch(text):
        return False
    import decimal
    return normalize_numeric(decimal.Decimal(text.decode("ascii"))).encode("ascii") == key


def _read_entry(data: bytes, at: int, family: int) -> Tuple[Entry, int]:
    lower, at = read_varint(data, at)
    slack, at = read_varint(data, at)
    key_length, at = read_varint(data, at)
    text_field = 0
    if family in (F.NUMERIC, F.OTHER):
        text_field, at = read_varint(data, at)
    end = at + key_length + max(text_field - 1, 0)
    if end > len(data):
        raise FormatError("topksketch entry runs past the end of the value")
    key = data[at:at + key_length]
    text = data[at + key_length:end] if text_field else None
    if slack > lower:
        raise FormatError("topksketch entry has slack %d above its lower bound %d" % (slack, lower))
    return Entry(key, lower, lower - slack, text), end


class TopKSketch:
    """A topksketch value (heavy-hitters summary), read only."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self.version, self._family, self._tag = data[0], data[1], u(data, 4, 4)
        self.counters, self.total, self.max_error = u(data, 8, 4), u(data, 16, 8), u(data, 24, 8)
        self._entries: List[Entry] = []
        self._index: Optional[Dict[bytes, Entry]] = None

    @classmethod
    def from_bytes(cls, data) -> "TopKSketch":
        """A summary from its binary form (bytea), validated."""
        data = to_bytes_of(data)
        if len(data) < HEADER_BYTES:
            raise FormatError("topksketch needs at least %d bytes, got %d" % (HEADER_BYTES, len(data)))
        s = cls(data)
        entries, length = u(data, 12, 4), u(data, 32, 8)
        s._check_header(entries, length)
        at = HEADER_BYTES
        for _ in range(entries):
            entry, at = _read_entry(data, at, s._family)
            s._check_entry(entry)
            s._entries.append(entry)
        if at != len(data):
            raise FormatError("topksketch entries do not fill its %d bytes exactly" % length)
        lowers = sum(e.lower for e in s._entries)
        counts = sum(e.count for e in s._entries)
        if lowers > s.total or counts + (s.counters + 1) * s.max_error > s.total:
            raise FormatError("topksketch counts exceed what its total allows")
        return s

    def _check_header(self, entries: int, length: int) -> None:
        data = self._data
        if self.version != 1:
            raise FormatError("topksketch format version %d is not 1" % self.version)
        if u(data, 2, 2) or self._family > F.OTHER or (self._tag and self._family != F.OTHER):
            raise FormatError("topksketch reserved field, family or type tag is invalid")
        if not 1 <= self.counters <= MAX_COUNTERS or entries > self.counters:
            raise FormatError("topksketch counters %d or entries %d out of range" % (self.counters, entries))
        if self.total > INT64_MAX or self.max_error > self.total:
            raise FormatError("topksketch total or error out of range")
        if entries < self.counters and self.max_error:
            raise FormatError("topksketch with free counters has an error")
        if self._family == F.NONE and (self.total or entries):
            raise FormatError("topksketch of family none has counted values")
        if 48 + length > MAX_BYTES or HEADER_BYTES + length != len(data):
            raise FormatError("topksketch length %d does not match its %d bytes" % (length, len(data)))

    def _check_entry(self, entry: Entry) -> None:
        previous = self._entries[-1].key if self._entries else None
        if previous is not None and previous >= entry.key:
            raise FormatError("topksketch keys are not strictly increasing")
        if entry.lower < 1 or entry.lower - entry.count > self.max_error:
            raise FormatError("topksketch entry counts are inconsistent")
        _check_key(self._family, entry.key)
        if entry.text is not None:
            if entry.text == entry.key or not _utf8(entry.text):
                raise FormatError("topksketch text must be valid UTF-8 and differ from its key")
            if self._family == F.NUMERIC and not _numeric_spells(entry.text, entry.key):
                raise FormatError("topksketch numeric text does not spell its key")

    @classmethod
    def from_text(cls, text: str) -> "TopKSketch":
        """A summary from its text form (topk:v1:...), validated."""
        parts = text.split(":")
        if len(parts) != 9 or parts[0] != "topk":
            raise FormatError("topksketch text must be topk:v<version>:<family>:counters=:entries=:"
                              "total=:error=:bytes=:<base64>")
        version = parse_version(parts[1], "topksketch")
        family, tag = F.parse_token(parts[2])
        names = ("counters", "entries", "total", "error", "bytes")
        fields = {n: parse_number(v, "topksketch")
                  for n, v in parse_fields(parts[3:8], names, "topksketch").items()}
        payload = b64decode(parts[8], "topksketch")
        if version > 255 or fields["counters"] >> 32 or fields["entries"] >> 32 or \
                fields["total"] >> 64 or fields["error"] >> 64 or fields["bytes"] != len(payload):
            raise FormatError("topksketch text field out of range")
        header = (bytes((version, family)) + b"\0\0" + le(tag, 4) + le(fields["counters"], 4)
                  + le(fields["entries"], 4) + le(fields["total"], 8) + le(fields["error"], 8)
                  + le(len(payload), 8))
        return cls.from_bytes(header + payload)

    def to_bytes(self) -> bytes:
        """The binary form, as summary::bytea gives it."""
        return self._data

    def to_text(self) -> str:
        """The text form, as the type's output function writes it."""
        payload = self._data[HEADER_BYTES:]
        return "topk:v%d:%s:counters=%d:entries=%d:total=%d:error=%d:bytes=%d:%s" % (
            self.version, self.family, self.counters, len(self._entries), self.total,
            self.max_error, len(payload), b64encode(payload))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TopKSketch) and self._data == other._data

    def __hash__(self) -> int:
        return hash(self._data)

    @property
    def family(self) -> str:
        return F.token(self._family, self._tag)

    def _text(self, entry: Entry) -> str:
        if self._family in RENDERED_FROM_KEY:
            return key_text(self._family, entry.key)
        return (entry.text if entry.text is not None else entry.key).decode("utf-8")

    def items(self) -> List[Item]:
        """The listed values best first, as topk_items lists them: by lower
        bound, then count, descending, then key bytes ascending."""
        ordered = sorted(self._entries, key=lambda e: (-e.lower, -e.count, e.key))
        out = []
        for e in ordered:
            text = self._text(e)
            value = text if self._family == F.OTHER else key_value(self._family, e.key, text)
            out.append(Item(value, text, e.lower, e.lower, e.count + self.max_error))
        return out

    def _find(self, value: Any) -> Optional[Entry]:
        if self._family == F.OTHER:
            raise FamilyError(F.OTHER_REFUSAL)
        if self._family == F.NONE:
            return None
        return self._entry(canonical_bytes(self._family, value))

    def _entry(self, key: bytes) -> Optional[Entry]:
        if self._index is None:
            self._index = {e.key: e for e in self._entries}
        return self._index.get(key)

    def estimate_canonical(self, key: bytes) -> int:
        """topk_estimate of the value whose canonical bytes are key."""
        entry = self._entry(key)
        return entry.lower if entry else 0

    def estimate(self, value: Any) -> int:
        """topk_estimate: the listed count of the value, 0 when not listed."""
        entry = self._find(value)
        return entry.lower if entry else 0

    def bounds(self, value: Any) -> Tuple[int, int]:
        """topk_bounds: (lower, upper) bounds of the value's true count."""
        entry = self._find(value)
        if entry is None:
            return 0, self.max_error
        return entry.lower, entry.count + self.max_error

    def info(self) -> TopkInfo:
        """The fields of topk_info(summary)."""
        return TopkInfo(self.counters, len(self._entries), self.total, self.max_error,
                        self.total / (self.counters + 1), self.family, 8 + len(self._data),
                        self.version)


def entry_bytes(family: int, key: bytes, lower: int, count: int, text: Optional[bytes]) -> bytes:
    """One entry in the stored form (for writing test values)."""
    out = write_varint(lower) + write_varint(lower - count) + write_varint(len(key))
    if family in (F.NUMERIC, F.OTHER):
        out += write_varint(0 if text is None else len(text) + 1)
    return out + key + (text or b"")
