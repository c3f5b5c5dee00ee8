"""A summary's keys as Python values and as the text topk_items prints them
under DateStyle ISO, TimeZone UTC and extra_float_digits 1 (docs/format.md
section 9): the text is computed from the key, not with Python's date
types, so that years outside 1..9999 and the infinities print too."""

import datetime
import decimal
import math
import struct
import uuid
from typing import Any, Tuple

from . import families as F

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
DATE_INFINITY = {(1 << 31) - 1: "infinity", -(1 << 31): "-infinity"}
TIMESTAMP_INFINITY = {INT64_MAX: "infinity", INT64_MIN: "-infinity"}
USECS_PER_DAY = 86400 * 1000000
EPOCH_ORDINAL = datetime.date(2000, 1, 1).toordinal()
# days from 0000-03-01 (proleptic) to 2000-01-01
EPOCH_FROM_MARCH_0 = 730425


def civil(days: int) -> Tuple[int, int, int]:
    """(year, month, day), astronomical years, of a day number from 2000-01-01."""
    z = days + EPOCH_FROM_MARCH_0
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (1 if month <= 2 else 0), month, day


def _date_text(days: int) -> Tuple[str, str]:
    """('YYYY-MM-DD', ' BC' or '')."""
    year, month, day = civil(days)
    era = ""
    if year <= 0:
        year, era = 1 - year, " BC"
    return "%04d-%02d-%02d" % (year, month, day), era


def date_text(days: int) -> str:
    if days in DATE_INFINITY:
        return DATE_INFINITY[days]
    text, era = _date_text(days)
    return text + era


def timestamp_text(micros: int, zone: bool) -> str:
    if micros in TIMESTAMP_INFINITY:
        return TIMESTAMP_INFINITY[micros]
    days, rest = divmod(micros, USECS_PER_DAY)
    text, era = _date_text(days)
    seconds, fraction = divmod(rest, 1000000)
    text += " %02d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)
    if fraction:
        text += (".%06d" % fraction).rstrip("0")
    return text + ("+00" if zone else "") + era


def float_text(d: float) -> str:
    """float8out with extra_float_digits 1: the shortest round-trip digits,
    in plain notation for decimal exponents -4 to 14, else as 1.5e+20."""
    if math.isnan(d):
        return "NaN"
    if math.isinf(d):
        return "Infinity" if d > 0 else "-Infinity"
    if d == 0:
        return "-0" if math.copysign(1.0, d) < 0 else "0"
    sign, digits, exponent = decimal.Decimal(repr(d)).as_tuple()
    text = "".join(map(str, digits)).rstrip("0")
    exponent += len(digits) - 1          # of the first digit
    prefix = "-" if sign else ""
    if -4 <= exponent < 15:
        if exponent < 0:
            return prefix + "0." + "0" * (-exponent - 1) + text
        whole = text[:exponent + 1].ljust(exponent + 1, "0")
        fraction = text[exponent + 1:]
        return prefix + whole + ("." + fraction if fraction else "")
    mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
    return "%s%se%s%02d" % (prefix, mantissa, "-" if exponent < 0 else "+", abs(exponent))


def key_text(family: int, key: bytes) -> str:
    """The text topk_items prints for a key of a family rendered from its key."""
    if family in (F.INTEGER, F.DATE, F.TIMESTAMP, F.TIMESTAMPTZ):
        n = int.from_bytes(key, "little", signed=True)
        if family == F.INTEGER:
            return str(n)
        if family == F.DATE:
            return date_text(n)
        return timestamp_text(n, family == F.TIMESTAMPTZ)
    if family == F.TEXT:
        return key.decode("utf-8")
    if family == F.BYTEA:
        return "\\x" + key.hex()
    if family == F.UUID:
        return str(uuid.UUID(bytes=key))
    if family == F.FLOAT:
        return float_text(struct.unpack("<d", key)[0])
    if family == F.BOOL:
        return "t" if key[0] else "f"
    raise ValueError("family %d is not rendered from its key" % family)


def key_value(family: int, key: bytes, text: str) -> Any:
    """The Python value of a listed key: int, str, bytes, uuid.UUID, Decimal
    (as the numeric was written, 1.00 kept), float, bool, date or datetime
    (UTC for timestamptz); the text where Python has no such value (years
    outside 1..9999, infinities, family other)."""
    if family == F.INTEGER:
        return int.from_bytes(key, "little", signed=True)
    if family == F.TEXT:
        return text
    if family == F.BYTEA:
        return bytes(key)
    if family == F.UUID:
        return uuid.UUID(bytes=key)
    if family == F.NUMERIC:
        return decimal.Decimal(text)
    if family == F.FLOAT:
        return struct.unpack("<d", key)[0]
    if family == F.BOOL:
        return key[0] == 1
    n = int.from_bytes(key, "little", signed=True) if len(key) == 8 else None
    try:
        if family == F.DATE and n not in DATE_INFINITY:
            return datetime.date.fromordinal(n + EPOCH_ORDINAL)
        if family in (F.TIMESTAMP, F.TIMESTAMPTZ) and n not in TIMESTAMP_INFINITY:
            at = datetime.datetime(2000, 1, 1) + datetime.timedelta(microseconds=n)
            return at.replace(tzinfo=datetime.timezone.utc) if family == F.TIMESTAMPTZ else at
    except (ValueError, OverflowError):
        pass
    return text
