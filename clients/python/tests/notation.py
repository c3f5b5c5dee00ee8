"""The value notation of docs/vectors/README.md — (type, payload) pairs such
as ("int4", 1), ("numeric", "1.50"), ("int4[]", [1, 2]), ("jsonb", "{...}")
— turned into (family, type tag, canonical bytes).  Scalars of the families
the library hashes become Python values hashed by bloomsketch itself
(bloomsketch.values.canonical_bytes); the structured forms of family other,
which the library refuses for Python values, are written here from
docs/format.md section 1 for the test vectors."""

import datetime
import decimal
import ipaddress
import json
import re
import struct
import uuid

from bloomsketch import families as F
from bloomsketch.hashing import xxh3_64
from bloomsketch.values import canonical_bytes, le64, normalize_numeric

SCALAR_FAMILY = {
    "int2": F.INTEGER, "int4": F.INTEGER, "int8": F.INTEGER,
    "text": F.TEXT, "varchar": F.TEXT, "bpchar": F.TEXT, "name": F.TEXT, "char": F.TEXT,
    "bytea": F.BYTEA, "uuid": F.UUID, "numeric": F.NUMERIC, "float4": F.FLOAT, "float8": F.FLOAT,
    "bool": F.BOOL, "date": F.DATE, "timestamp": F.TIMESTAMP, "timestamptz": F.TIMESTAMPTZ,
}
FIXED_OTHER = {"time": "time", "timetz": "timetz", "interval": "interval",
               "inet": "inet", "cidr": "inet", "macaddr": "macaddr"}
USECS_PER_DAY = 86400000000
EPOCH_DATE = datetime.date(2000, 1, 1)


def le32(x):
    return (x & 0xFFFFFFFF).to_bytes(4, "little")


# ---- types ----

def parse_type(spec):
    """'int4[]' -> ('array', elem); 'range(T)'; 'record(A,B)' a composite;
    'row(A,B)' an anonymous record; 'int2vector' an int2 array with lower
    bound 0; a scalar name -> ('scalar', name)."""
    spec = spec.strip()
    if spec.endswith("[]"):
        return ("array", parse_type(spec[:-2]))
    if spec == "int2vector":
        return ("array", ("scalar", "int2"), 0)
    m = re.fullmatch(r"(range|record|row)\((.*)\)", spec)
    if m:
        parts, depth, start = [], 0, 0
        inner = m.group(2)
        for i, ch in enumerate(inner):
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(inner[start:i])
                start = i + 1
        parts.append(inner[start:])
        if m.group(1) == "range":
            return ("range", parse_type(parts[0]))
        return (m.group(1), [parse_type(p) for p in parts if p.strip()])
    if spec not in SCALAR_FAMILY and spec not in FIXED_OTHER and spec != "jsonb":
        raise ValueError("type without a canonical form: " + spec)
    return ("scalar", spec)


def family_of(t):
    if t[0] == "scalar" and t[1] in SCALAR_FAMILY:
        return SCALAR_FAMILY[t[1]]
    return F.OTHER


def signature(t, nested=False):
    kind = t[0]
    if kind == "array":
        return "array(%s)" % signature(t[1], True)
    if kind == "range":
        return "range(%s)" % signature(t[1], True)
    if kind == "row" and nested:
        return "record"
    if kind in ("record", "row"):
        return "record(%s)" % ",".join(signature(c, True) for c in t[1])
    name = t[1]
    if name in SCALAR_FAMILY:
        return F.NAMES[SCALAR_FAMILY[name]]
    return "jsonb" if name == "jsonb" else FIXED_OTHER[name]


def type_tag(t):
    if family_of(t) != F.OTHER:
        return 0
    return xxh3_64(signature(t).encode("ascii"), 0) & 0xFFFFFFFF


# ---- scalars: notation to Python values, hashed by the library ----

def _parse_time(s):
    m = re.fullmatch(r"(\d+):(\d+):(\d+)(?:\.(\d{1,6}))?", s)
    h, mi, se, frac = m.groups()
    return ((int(h) * 60 + int(mi)) * 60 + int(se)) * 1000000 + int((frac or "").ljust(6, "0"))


def _split_zone(s):
    """'...+HH[:MM]' -> (rest, seconds east of UTC)."""
    m = re.fullmatch(r"(.*?)([+-])(\d{2})(?::?(\d{2}))?", s)
    rest, sign, hh, mm = m.groups()
    east = int(hh) * 3600 + int(mm or 0) * 60
    return rest, east if sign == "+" else -east


def date_days(s):
    """Days from 2000-01-01 of 'YYYY-MM-DD', astronomical years; years below
    1 moved up by whole 400-year cycles of 146097 days."""
    m = re.fullmatch(r"(-?\d{4,})-(\d{2})-(\d{2})", s)
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    cycles = max(0, (400 - year) // 400)
    shifted = datetime.date(year + 400 * cycles, month, day)
    return (shifted - EPOCH_DATE).days - 146097 * cycles


def python_value(name, v):
    """The Python value a client would pass for a vector's scalar, or None
    when Python has no such value (a date before year 1)."""
    fam = SCALAR_FAMILY[name]
    if fam == F.TEXT:
        if name == "bpchar":
            return v.rstrip(" ")
        if name == "name":
            return v.split("\0")[0]
        if name == "char":
            b = v.encode("latin-1")[0] if v else 0
            return "" if b == 0 else ("\\%03o" % b if b > 127 else chr(b))
        return v
    if fam == F.BYTEA:
        return bytes.fromhex(v)
    if fam == F.UUID:
        return uuid.UUID(v)
    if fam == F.NUMERIC:
        return decimal.Decimal(v)
    if fam == F.FLOAT:
        d = float(v)
        return struct.unpack("<f", struct.pack("<f", d))[0] if name == "float4" else d
    if fam in (F.DATE, F.TIMESTAMP, F.TIMESTAMPTZ) and v in ("infinity", "-infinity"):
        return v
    if fam == F.DATE:
        plain = re.fullmatch(r"\d{4}-\d\d-\d\d", v) and int(v[:4]) >= 1
        return datetime.date.fromisoformat(v) if plain else None
    if fam == F.TIMESTAMP:
        return datetime.datetime.fromisoformat(v)
    if fam == F.TIMESTAMPTZ:
        rest, east = _split_zone(v)
        zone = datetime.timezone(datetime.timedelta(seconds=east))
        return datetime.datetime.fromisoformat(rest).replace(tzinfo=zone)
    return v      # integer, bool


def scalar_bytes(name, v):
    """Canonical bytes of a scalar of the notation."""
    if name in SCALAR_FAMILY:
        value = python_value(name, v)
        if value is None:
            return le64(date_days(v))
        return canonical_bytes(SCALAR_FAMILY[name], value)
    if name == "time":
        return le64(_parse_time(v))
    if name == "timetz":
        rest, east = _split_zone(v)
        return le64(_parse_time(rest)) + le64(-east)
    if name == "interval":
        months, days, time = v
        whole_days = int(time / USECS_PER_DAY)          # C truncation
        total_days = whole_days + 30 * months + days
        micros = time - whole_days * USECS_PER_DAY
        if micros < 0:
            micros += USECS_PER_DAY
            total_days -= 1
        return le64(total_days) + le64(micros)
    if name in ("inet", "cidr"):
        net = ipaddress.ip_interface(v)
        bits = net.network.prefixlen if "/" in v else net.max_prefixlen
        return bytes([net.version, bits]) + net.ip.packed
    if name == "macaddr":
        return bytes(int(p, 16) for p in re.split("[:-]", v))
    raise ValueError(name)


# ---- structured forms ----

def _jsonb_value(v):
    if v is None:
        return b"n"
    if v is True:
        return b"t"
    if v is False:
        return b"f"
    if isinstance(v, decimal.Decimal):
        s = normalize_numeric(v).encode("ascii")
        return b"N" + le32(len(s)) + s
    if isinstance(v, str):
        s = v.encode("utf-8")
        return b"S" + le32(len(s)) + s
    if isinstance(v, list):
        return b"A" + le32(len(v)) + b"".join(_jsonb_value(e) for e in v)
    pairs = sorted(_jsonb_value(k) + _jsonb_value(x) for k, x in v.items())
    return b"O" + le32(len(pairs)) + b"".join(pairs)


def jsonb_form(text):
    doc = json.loads(text, parse_float=decimal.Decimal, parse_int=decimal.Decimal)
    if isinstance(doc, (list, dict)):
        return _jsonb_value(doc)
    return b"a" + le32(1) + _jsonb_value(doc)


def form(t, v):
    """The self-delimiting form of a value nested in a structure."""
    if t[0] == "scalar" and t[1] != "jsonb":
        b = scalar_bytes(t[1], v)
        return le32(len(b)) + b
    return top_form(t, v)


def _range_form(t, v):
    if v == "empty":
        return b"R\x01"
    lower, upper, bounds = v.get("lower"), v.get("upper"), v.get("bounds", "[)")
    flags = (0x08 if lower is None else 0x02 if bounds[0] == "[" else 0) | \
        (0x10 if upper is None else 0x04 if bounds[1] == "]" else 0)
    out = b"R" + bytes([flags])
    for bound in (lower, upper):
        if bound is not None:
            out += form(t[1], bound)
    return out


def top_form(t, v):
    kind = t[0]
    if kind == "array":
        if isinstance(v, list):
            v = {"dims": [[len(v), t[2] if len(t) > 2 else 1]] if v else [], "items": v}
        out = b"A" + le32(len(v["dims"]))
        for length, lower in v["dims"]:
            out += le32(length) + le32(lower)
        for item in v["items"]:
            out += b"\x00" if item is None else b"\x01" + form(t[1], item)
        return out
    if kind == "range":
        return _range_form(t, v)
    if kind in ("record", "row"):
        out = b"C" + le32(len(t[1]))
        for ct, cv in zip(t[1], v):
            out += b"\x00" if cv is None else b"\x01" + form(ct, cv)
        return out
    if t[1] == "jsonb":
        return jsonb_form(v)
    return scalar_bytes(t[1], v)


def canonical(type_spec, payload):
    """(family code, type tag, canonical bytes) of a value of the notation."""
    t = parse_type(type_spec)
    return family_of(t), type_tag(t), top_form(t, payload)
