"""An independent reader and writer of bloomsketch values, written from
docs/format.md: canonical bytes, hashing, positions, and the binary and text
forms of bloomfilter and cmsketch.  The self-sized filters of
bloom_fit_agg (scheme fit, and the partial states of scheme fit_partial) are
built in fit_reader.py.  Python 3 standard library only.

Values are given as (type, payload) pairs, the notation of
docs/vectors/README.md: type is a PostgreSQL type name ("int4", "text",
"numeric", "int4[]", "range(numeric)", "record(int4,text)", "jsonb", ...),
payload its value in JSON terms.
"""

import base64
import datetime
import decimal
import ipaddress
import json
import re
import struct

from xxh3 import xxh3_64, xxh3_128

M64 = (1 << 64) - 1
RESEED = 0x9E3779B97F4A7C15
INDEPENDENT_STEP = 0xD1B54A32D192ED03
COPY_STEP = 0xBF58476D1CE4E5B9

FAMILIES = ["none", "integer", "text", "bytea", "uuid", "numeric", "float",
            "bool", "date", "timestamp", "timestamptz", "other"]
SCHEMES = [None, "double", "double_square", "double_cube", "partition",
           "independent", "blocked", "fit", "fit_partial"]
# the flags byte of a fit filter (offset 3): bit 1 its values exceeded the
# ceiling, bit 2 it combines filters of different sizes; the text form spells
# flags 0 to 3 in the scheme's place
FIT_OVER_CEILING = 1
FIT_MIXED_SIZES = 2
FIT_TOKENS = ["fit", "fit_over_ceiling", "fit_mixed", "fit_over_ceiling_mixed"]

SCALAR_FAMILY = {
    "int2": 1, "int4": 1, "int8": 1,
    "text": 2, "varchar": 2, "bpchar": 2, "name": 2, "char": 2,
    "bytea": 3, "uuid": 4, "numeric": 5, "float4": 6, "float8": 6,
    "bool": 7, "date": 8, "timestamp": 9, "timestamptz": 10,
}
FIXED_OTHER = {"time": "time", "timetz": "timetz", "interval": "interval",
               "inet": "inet", "cidr": "inet", "macaddr": "macaddr"}

EPOCH_DATE = datetime.date(2000, 1, 1)
EPOCH = datetime.datetime(2000, 1, 1)
USECS_PER_DAY = 86400000000


def le64(x):
    return (x & M64).to_bytes(8, "little")


def le32(x):
    return (x & 0xFFFFFFFF).to_bytes(4, "little")


# ---- types ----

def parse_type(spec):
    """'int4[]' -> ('array', elem); 'range(T)' -> ('range', T);
    'record(A,B)' -> ('record', [A, B]) (a composite); 'row(A,B)' -> ('row',
    [A, B]) (an anonymous record, ROW(...)); 'int2vector' -> ('array', int2,
    0) (lower bound 0); a scalar name -> ('scalar', name)."""
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
    return 11


def signature(t, nested=False):
    """An anonymous record inside a record, array or range is just 'record':
    only the top-level value's own row type is looked at."""
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
        return FAMILIES[SCALAR_FAMILY[name]]
    if name == "jsonb":
        return "jsonb"
    return FIXED_OTHER[name]


def type_tag(t):
    if family_of(t) != 11:
        return 0
    return xxh3_64(signature(t).encode("ascii")) & 0xFFFFFFFF


def family_token(family, tag):
    return "other-%08x" % tag if family == 11 else FAMILIES[family]


def parse_family_token(token):
    """(family, tag) of a family token: a family name or other-<8 hex digits>."""
    if token.startswith("other-"):
        return 11, int(token[6:], 16)
    return FAMILIES.index(token), 0


# ---- canonical bytes ----

def normalize_numeric(text):
    text = str(text).strip()
    if text.lower() == "nan":
        return "NaN"
    if text.lower() in ("infinity", "+infinity", "inf"):
        return "Infinity"
    if text.lower() in ("-infinity", "-inf"):
        return "-Infinity"
    d = decimal.Decimal(text)
    if d == 0:
        return "0"
    s = format(d, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s


def _float_bits(value, is_float4):
    d = float(value)       # also "NaN", "Infinity", "-Infinity", "-0"
    if is_float4:
        d = struct.unpack("<f", struct.pack("<f", d))[0]
    if d != d:
        return 0x7FF8000000000000
    if d == 0.0:
        d = 0.0
    return struct.unpack("<Q", struct.pack("<d", d))[0]


def _parse_time(s):
    """'HH:MM:SS[.ffffff]' -> microseconds."""
    m = re.fullmatch(r"(\d+):(\d+):(\d+)(?:\.(\d{1,6}))?", s)
    h, mi, se, frac = m.groups()
    us = int((frac or "").ljust(6, "0") or 0)
    return ((int(h) * 60 + int(mi)) * 60 + int(se)) * 1000000 + us


def _split_zone(s):
    """'...+HH[:MM]' or '...-HH[:MM]' -> (rest, seconds east of UTC)."""
    m = re.fullmatch(r"(.*?)([+-])(\d{2})(?::?(\d{2}))?", s)
    rest, sign, hh, mm = m.groups()
    east = int(hh) * 3600 + int(mm or 0) * 60
    return rest, east if sign == "+" else -east


def date_days(s):
    """Days from 2000-01-01 of 'YYYY-MM-DD' in the proleptic Gregorian
    calendar with astronomical years (0000 is 1 BC, -0001 is 2 BC): years
    below 1 are moved up by whole 400-year cycles of 146097 days."""
    m = re.fullmatch(r"(-?\d{4,})-(\d{2})-(\d{2})", s)
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    cycles = max(0, (400 - year) // 400)
    shifted = datetime.date(year + 400 * cycles, month, day)
    return (shifted - EPOCH_DATE).days - 146097 * cycles


def _timestamp_us(s):
    if s in ("infinity", "-infinity"):
        return (1 << 63) - 1 if s == "infinity" else -(1 << 63)
    date, time = s.split(" ")
    days = date_days(date)
    return days * USECS_PER_DAY + _parse_time(time)


def scalar_bytes(name, v):
    """Canonical bytes of a value of a scalar family or fixed-layout other type."""
    fam = SCALAR_FAMILY.get(name)
    if fam == 1:
        return le64(int(v))
    if fam == 2:
        if name == "bpchar":
            return v.rstrip(" ").encode("utf-8")
        if name == "name":
            return v.encode("utf-8").split(b"\0")[0]
        if name == "char":
            b = v if isinstance(v, int) else v.encode("latin-1")[0] if v else 0
            if b == 0:
                return b""
            return b"\\%03o" % b if b > 127 else bytes([b])
        return v.encode("utf-8")
    if fam == 3:
        return bytes.fromhex(v)
    if fam == 4:
        return bytes.fromhex(v.replace("-", ""))
    if fam == 5:
        return normalize_numeric(v).encode("ascii")
    if fam == 6:
        return le64(_float_bits(v, name == "float4"))
    if fam == 7:
        return b"\x01" if v else b"\x00"
    if fam == 8:
        if v == "infinity":
            return le64((1 << 31) - 1)
        if v == "-infinity":
            return le64(-(1 << 31))
        return le64(date_days(v))
    if fam == 9:
        return le64(_timestamp_us(v))
    if fam == 10:
        if v in ("infinity", "-infinity"):
            return le64(_timestamp_us(v))
        rest, east = _split_zone(v)
        return le64(_timestamp_us(rest) - east * 1000000)
    if name == "time":
        return le64(_parse_time(v))
    if name == "timetz":
        rest, east = _split_zone(v)
        return le64(_parse_time(rest)) + le64(-east)
    if name == "interval":
        months, days, time = v
        total_days = int(time / USECS_PER_DAY) + 30 * months + days   # C truncation
        micros = time - int(time / USECS_PER_DAY) * USECS_PER_DAY
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
    if isinstance(v, dict):
        pairs = sorted(_jsonb_value(k) + _jsonb_value(x) for k, x in v.items())
        return b"O" + le32(len(pairs)) + b"".join(pairs)
    raise ValueError(v)


def jsonb_form(text):
    doc = json.loads(text, parse_float=decimal.Decimal, parse_int=decimal.Decimal,
                     object_pairs_hook=dict)     # dict keeps the last duplicate
    if isinstance(doc, (list, dict)):
        return _jsonb_value(doc)
    return b"a" + le32(1) + _jsonb_value(doc)


def form(t, v):
    """The self-delimiting form of a value nested in a structure."""
    kind = t[0]
    if kind == "scalar" and t[1] != "jsonb":
        b = scalar_bytes(t[1], v)
        return le32(len(b)) + b
    return top_form(t, v)


def top_form(t, v):
    kind = t[0]
    if kind == "array":
        if isinstance(v, list):
            lower = t[2] if len(t) > 2 else 1
            v = {"dims": [[len(v), lower]] if v else [], "items": v}
        out = b"A" + le32(len(v["dims"]))
        for length, lower in v["dims"]:
            out += le32(length) + le32(lower)
        for item in v["items"]:
            out += b"\x00" if item is None else b"\x01" + form(t[1], item)
        return out
    if kind == "range":
        if v == "empty":
            return b"R\x01"
        flags = 0
        lower, upper = v.get("lower"), v.get("upper")
        bounds = v.get("bounds", "[)")
        if lower is None:
            flags |= 0x08
        elif bounds[0] == "[":
            flags |= 0x02
        if upper is None:
            flags |= 0x10
        elif bounds[1] == "]":
            flags |= 0x04
        out = b"R" + bytes([flags])
        if lower is not None:
            out += form(t[1], lower)
        if upper is not None:
            out += form(t[1], upper)
        return out
    if kind in ("record", "row"):
        out = b"C" + le32(len(t[1]))
        for ct, cv in zip(t[1], v):
            out += b"\x00" if cv is None else b"\x01" + form(ct, cv)
        return out
    if t[1] == "jsonb":
        return jsonb_form(v)
    return scalar_bytes(t[1], v)


def canonical(type_spec, payload):
    """(family code, type tag, canonical bytes) of a value."""
    t = parse_type(type_spec)
    return family_of(t), type_tag(t), top_form(t, payload)


# ---- mapping and positions ----

def map_uniform(x, n):
    """floor(x n / 2^64), or None when rejected."""
    p = x * n
    if (p & M64) < (1 << 64) % n:
        return None
    return p >> 64


def locate(data, seed, first_range, step_range):
    """(first, h2-derived step) for the locatable schemes; step_range None: blocked."""
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


def remix(x):
    x = (x + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


def fit_positions(h1, h2, m, k):
    """The fit scheme (docs/format.md section 4): position i is half i % 2
    (low 32 bits, then high) of remix(h1 + (i // 2) (h2 | 1)), masked to the
    power-of-two m."""
    out, x, b = [], h1, h2 | 1
    for i in range(k):
        if i % 2 == 0:
            word = remix(x)
            x = (x + b) & M64
            out.append(word & 0xFFFFFFFF & (m - 1))
        else:
            out.append((word >> 32) & (m - 1))
    return out


def positions(data, scheme, m, k, seed):
    seed &= M64
    if scheme == "fit":
        return fit_positions(*xxh3_128(data, seed), m, k)
    if scheme == "double":
        a, b = locate(data, seed, m, m - 1)
        return [(a + i * (b + 1)) % m for i in range(k)]
    if scheme in ("double_square", "double_cube"):
        a, b = locate(data, seed, m, m)
        p = 2 if scheme == "double_square" else 3
        return [(a + i * b + i ** p) % m for i in range(k)]
    if scheme == "partition":
        width = m // k
        a, b = locate(data, seed, width, width)
        return [i * width + (a + i * b) % width for i in range(k)]
    if scheme == "independent":
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
    if scheme == "blocked":
        block, word = locate(data, seed, m // 512, None)
        out = []
        for j in range(k):
            if j and j % 7 == 0:
                word = remix(word)
            out.append(512 * block + ((word >> (9 * (j % 7))) & 511))
        return out
    raise ValueError(scheme)


# ---- bloomfilter ----

def _b64(data):
    return base64.b64encode(data).decode("ascii")


def _signed(x):
    return x - (1 << 64) if x >> 63 else x


class BloomFilter:
    def __init__(self, scheme, m, k, seed, version=2, family=0, tag=0, items=0, bits=None,
                 flags=0):
        self.version, self.scheme, self.m, self.k = version, scheme, m, k
        self.seed, self.family, self.tag, self.items = seed & M64, family, tag, items
        self.bits = bytearray(8 * ((m + 63) // 64)) if bits is None else bytearray(bits)
        self.flags = flags      # fit filters only: FIT_OVER_CEILING | FIT_MIXED_SIZES

    def add(self, family, tag, data):
        if self.family == 0:
            self.family, self.tag = family, tag
        elif (self.family, self.tag) != (family, tag):
            raise ValueError("value of another family")
        for g in positions(data, self.scheme, self.m, self.k, self.seed):
            self.bits[g >> 3] |= 1 << (g & 7)
        self.items = min(self.items + 1, M64)

    def contains(self, family, tag, data):
        if self.family == 0:
            return False
        if (self.family, self.tag) != (family, tag):
            raise ValueError("value of another family")
        return all(self.bits[g >> 3] >> (g & 7) & 1
                   for g in positions(data, self.scheme, self.m, self.k, self.seed))

    def set_positions(self):
        return [i for i in range(self.m) if self.bits[i >> 3] >> (i & 7) & 1]

    def to_bytes(self):
        return (bytes([self.version, SCHEMES.index(self.scheme), self.family, self.flags])
                + self.k.to_bytes(2, "little") + b"\0\0" + le32(self.tag)
                + le64(self.m) + le64(self.seed) + le64(self.items) + bytes(self.bits))

    def scheme_token(self):
        if self.scheme == "fit":
            return FIT_TOKENS[self.flags]
        return self.scheme

    def to_text(self):
        return "bloom:v%d:%s:%s:k=%d:m=%d:seed=%d:items=%d:%s" % (
            self.version, self.scheme_token(), family_token(self.family, self.tag), self.k,
            self.m, _signed(self.seed), self.items, _b64(self.bits))

    @classmethod
    def from_bytes(cls, b):
        version, scheme, family, reserved = b[0], b[1], b[2], b[3]
        k = int.from_bytes(b[4:6], "little")
        tag = int.from_bytes(b[8:12], "little")
        m, seed, items = (int.from_bytes(b[i:i + 8], "little") for i in (12, 20, 28))
        flags_allowed = range(len(FIT_TOKENS)) if scheme == SCHEMES.index("fit") else (0,)
        if (reserved not in flags_allowed or b[6:8] != b"\0\0"
                or len(b) != 36 + 8 * ((m + 63) // 64)):
            raise ValueError("malformed bloomfilter")
        return cls(SCHEMES[scheme], m, k, seed, version, family, tag, items, b[36:], reserved)

    @classmethod
    def from_text(cls, text):
        head = text.split(":")
        magic, v, scheme, fam = head[:4]
        fields = dict(f.split("=", 1) for f in head[4:8])
        payload = head[8]
        if magic != "bloom":
            raise ValueError("not a bloomfilter")
        if fam.startswith("other-"):
            family, tag = 11, int(fam[6:], 16)
        else:
            family, tag = FAMILIES.index(fam), 0
        flags = 0
        if scheme in FIT_TOKENS:
            scheme, flags = "fit", FIT_TOKENS.index(scheme)
        f = cls(scheme, int(fields["m"]), int(fields["k"]), int(fields["seed"]),
                int(v[1:]), family, tag, int(fields["items"]), base64.b64decode(payload), flags)
        if f.to_text() != text:
            raise ValueError("not the canonical spelling")
        return f


# ---- cmsketch ----

def cms_columns(data, w, d, copies, seed):
    """The copies * d columns of a value, copy-major."""
    out = []
    for c in range(copies):
        a, b = locate(data, (seed + c * COPY_STEP) & M64, w, w - 1)
        out += [(a + j * (b + 1)) % w for j in range(d)]
    return out


class CountMinSketch:
    def __init__(self, w, d, copies, seed, version=2, family=0, tag=0, total=0, counters=None):
        self.w, self.d, self.copies, self.seed = w, d, copies, seed & M64
        self.version, self.family, self.tag, self.total = version, family, tag, total
        self.counters = [0] * (w * d * copies) if counters is None else list(counters)

    def add(self, family, tag, data, count=1):
        if self.family == 0:
            self.family, self.tag = family, tag
        elif (self.family, self.tag) != (family, tag):
            raise ValueError("value of another family")
        cols = cms_columns(data, self.w, self.d, self.copies, self.seed)
        for r, col in enumerate(cols):
            self.counters[r * self.w + col] += count
        self.total += count

    def estimate(self, family, tag, data):
        if self.family == 0:
            return 0
        cols = cms_columns(data, self.w, self.d, self.copies, self.seed)
        return min(self.counters[r * self.w + col] for r, col in enumerate(cols))

    def to_bytes(self):
        return (bytes([self.version, self.family]) + b"\0\0" + le32(self.tag) + le32(self.w)
                + self.d.to_bytes(2, "little") + self.copies.to_bytes(2, "little")
                + le64(self.seed) + le64(self.total)
                + b"".join(le64(c) for c in self.counters))

    def to_text(self):
        return "cms:v%d:%s:w=%d:d=%d:copies=%d:seed=%d:total=%d:%s" % (
            self.version, family_token(self.family, self.tag), self.w, self.d,
            self.copies, _signed(self.seed), self.total, _b64(self.to_bytes()[32:]))

    @classmethod
    def from_bytes(cls, b):
        version, family = b[0], b[1]
        tag, w = (int.from_bytes(b[i:i + 4], "little") for i in (4, 8))
        d, copies = (int.from_bytes(b[i:i + 2], "little") for i in (12, 14))
        seed, total = (int.from_bytes(b[i:i + 8], "little") for i in (16, 24))
        n = w * d * copies
        if b[2:4] != b"\0\0" or len(b) != 32 + 8 * n:
            raise ValueError("malformed cmsketch")
        counters = [int.from_bytes(b[32 + 8 * i:40 + 8 * i], "little") for i in range(n)]
        rows = [sum(counters[r * w:(r + 1) * w]) for r in range(d * copies)]
        if min(rows) != total:
            raise ValueError("total is not the smallest row sum")
        return cls(w, d, copies, seed, version, family, tag, total, counters)

    @classmethod
    def from_text(cls, text):
        head = text.split(":")
        fam = head[2]
        fields = dict(f.split("=", 1) for f in head[3:8])
        family, tag = parse_family_token(fam)
        w, d, copies = int(fields["w"]), int(fields["d"]), int(fields["copies"])
        header = (bytes([int(head[1][1:]), family]) + b"\0\0" + le32(tag) + le32(w)
                  + d.to_bytes(2, "little") + copies.to_bytes(2, "little")
                  + le64(int(fields["seed"])) + le64(int(fields["total"])))
        s = cls.from_bytes(header + base64.b64decode(head[8]))
        if s.to_text() != text:
            raise ValueError("not the canonical spelling")
        return s
