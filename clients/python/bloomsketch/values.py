"""Python values to canonical bytes (docs/format.md section 1), for the family
a filter or sketch holds: the family decides, as SQL equality does, so an int
probing a numeric filter is hashed as the numeric it equals.  Values SQL
would refuse for that family (a str probing a uuid filter, a float probing
an integer one) are refused with a FamilyError that says what to pass."""

import datetime
import decimal
import math
import struct
import uuid
from typing import Any, Callable, Dict

from . import families as F
from .errors import FamilyError

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
M64 = (1 << 64) - 1
EPOCH_ORDINAL = datetime.date(2000, 1, 1).toordinal()
USECS_PER_DAY = 86400 * 1000000
INFINITE_DATE = {"infinity": (1 << 31) - 1, "-infinity": -(1 << 31)}
INFINITE_TIMESTAMP = {"infinity": INT64_MAX, "-infinity": INT64_MIN}
CANONICAL_NAN = 0x7FF8000000000000
# PostgreSQL's numeric holds up to 131072 digits before the point and 16383 after
NUMERIC_MAX_INT_DIGITS, NUMERIC_MAX_FRACTION_DIGITS = 131072, 16383


def le64(x: int) -> bytes:
    return (x & M64).to_bytes(8, "little")


def _refuse(family: int, value: Any, hint: str) -> FamilyError:
    return FamilyError("a %s value cannot be hashed for family %s: %s"
                       % (type(value).__name__, F.NAMES[family], hint))


def _integer(v: Any) -> bytes:
    if isinstance(v, bool) or not isinstance(v, int):
        raise _refuse(F.INTEGER, v, "pass an int (SQL refuses other types for an integer filter)")
    if not INT64_MIN <= v <= INT64_MAX:
        raise FamilyError("integer %d is out of the range of bigint" % v)
    return le64(v)


def _text(v: Any) -> bytes:
    if not isinstance(v, str):
        raise _refuse(F.TEXT, v, "pass a str")
    if "\0" in v:
        raise FamilyError("text cannot contain the character U+0000")
    return v.encode("utf-8")


def _bytea(v: Any) -> bytes:
    if not isinstance(v, (bytes, bytearray, memoryview)):
        raise _refuse(F.BYTEA, v, "pass bytes, bytearray or memoryview")
    return bytes(v)


def _uuid(v: Any) -> bytes:
    if not isinstance(v, uuid.UUID):
        raise _refuse(F.UUID, v, "pass a uuid.UUID (uuid.UUID(text) parses a string; "
                      "psycopg2.extras.register_uuid() makes psycopg2 return them)")
    return v.bytes


def normalize_numeric(v: decimal.Decimal) -> str:
    """PostgreSQL's numeric_normalize: plain notation, no trailing zeros."""
    if v.is_nan():
        if v.is_snan():
            raise FamilyError("a signalling NaN is not a numeric value")
        return "NaN"
    if v.is_infinite():
        return "-Infinity" if v < 0 else "Infinity"
    sign, digits, exponent = v.as_tuple()
    text = "".join(map(str, digits)).lstrip("0")
    if not text:
        return "0"
    if exponent >= 0:
        whole, fraction = text + "0" * exponent, ""
    else:
        padded = text.rjust(-exponent + 1, "0")
        whole, fraction = padded[:exponent], padded[exponent:]
        whole = whole.lstrip("0") or "0"
        fraction = fraction.rstrip("0")
    if len(whole) > NUMERIC_MAX_INT_DIGITS or len(fraction) > NUMERIC_MAX_FRACTION_DIGITS:
        raise FamilyError("numeric value out of the range PostgreSQL's numeric holds")
    return ("-" if sign else "") + whole + ("." + fraction if fraction else "")


def _numeric(v: Any) -> bytes:
    if isinstance(v, int) and not isinstance(v, bool):
        v = decimal.Decimal(v)      # SQL casts integers to numeric exactly
    if not isinstance(v, decimal.Decimal):
        raise _refuse(F.NUMERIC, v, "pass a decimal.Decimal or an int (SQL does not cast "
                      "float to numeric implicitly)")
    return normalize_numeric(v).encode("ascii")


def float_bits(d: float) -> int:
    """The binary64 bits as canonical: -0 as 0, every NaN as one NaN."""
    if math.isnan(d):
        return CANONICAL_NAN
    if d == 0.0:
        d = 0.0
    return struct.unpack("<Q", struct.pack("<d", d))[0]


def _float(v: Any) -> bytes:
    if not isinstance(v, float):
        raise _refuse(F.FLOAT, v, "pass a float")
    return le64(float_bits(v))


def _bool(v: Any) -> bytes:
    if not isinstance(v, bool):
        raise _refuse(F.BOOL, v, "pass True or False")
    return b"\x01" if v else b"\x00"


def date_days(v: datetime.date) -> int:
    """Days from 2000-01-01 (proleptic Gregorian, as PostgreSQL counts them)."""
    return v.toordinal() - EPOCH_ORDINAL


def _date(v: Any) -> bytes:
    if isinstance(v, str) and v in INFINITE_DATE:
        return le64(INFINITE_DATE[v])
    if isinstance(v, datetime.datetime) or not isinstance(v, datetime.date):
        raise _refuse(F.DATE, v, "pass a datetime.date (or 'infinity', '-infinity')")
    return le64(date_days(v))


def naive_micros(v: datetime.datetime) -> int:
    """Microseconds from 2000-01-01 00:00:00 of the wall-clock fields."""
    seconds = (date_days(v.date()) * 86400 + v.hour * 3600 + v.minute * 60 + v.second)
    return seconds * 1000000 + v.microsecond


def _timestamp(v: Any) -> bytes:
    if isinstance(v, str) and v in INFINITE_TIMESTAMP:
        return le64(INFINITE_TIMESTAMP[v])
    if not isinstance(v, datetime.datetime) or v.utcoffset() is not None:
        raise _refuse(F.TIMESTAMP, v, "pass a naive datetime.datetime (no tzinfo), or "
                      "'infinity', '-infinity'")
    return le64(naive_micros(v))


def _timestamptz(v: Any) -> bytes:
    if isinstance(v, str) and v in INFINITE_TIMESTAMP:
        return le64(INFINITE_TIMESTAMP[v])
    if not isinstance(v, datetime.datetime) or v.utcoffset() is None:
        raise _refuse(F.TIMESTAMPTZ, v, "pass a datetime.datetime with a tzinfo (a naive one "
                      "would depend on a time zone), or 'infinity', '-infinity'")
    offset = v.utcoffset()
    offset_micros = (offset.days * 86400 + offset.seconds) * 1000000 + offset.microseconds
    return le64(naive_micros(v.replace(tzinfo=None)) - offset_micros)


CONVERTERS: Dict[int, Callable[[Any], bytes]] = {
    F.INTEGER: _integer, F.TEXT: _text, F.BYTEA: _bytea, F.UUID: _uuid, F.NUMERIC: _numeric,
    F.FLOAT: _float, F.BOOL: _bool, F.DATE: _date, F.TIMESTAMP: _timestamp,
    F.TIMESTAMPTZ: _timestamptz,
}


def canonical_bytes(family: int, value: Any) -> bytes:
    """The canonical bytes of a Python value in a family the library hashes."""
    if value is None:
        raise FamilyError("None (SQL NULL) has no canonical bytes; SQL skips NULLs")
    return CONVERTERS[F.supported_code(family)](value)
