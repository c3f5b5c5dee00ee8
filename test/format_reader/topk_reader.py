"""An independent reader, writer and builder of topksketch values, written
from docs/format.md section 9 and docs/topk.md: the binary and text forms,
the checks of the validator, the texts rendered from keys (under ISO dates
and UTC), counting with the reduction deferred to 2c keys, and Agarwal et
al.'s merge.  Python 3 standard library only.
"""

import base64
import datetime
import re
import struct
import uuid

from bloomsketch_reader import family_token, le32, le64, parse_family_token

TEXT_IS_KEY = 0xFFFFFFFF
MAX_TOTAL = (1 << 63) - 1
# the families whose values are rendered from their key and store no text
RENDERED_FROM_KEY = {1, 2, 3, 4, 6, 7, 8, 9, 10}
NUMERIC, OTHER = 5, 11
EPOCH = datetime.datetime(2000, 1, 1)


def signed64(key):
    return int.from_bytes(key, "little", signed=True)


def render_key(family, key):
    """A value's text from its key, as topk_items prints it under DateStyle
    ISO, TimeZone UTC, extra_float_digits 1 and bytea_output hex."""
    if family == 1:
        return str(signed64(key))
    if family == 2:
        return key.decode("utf-8")
    if family == 3:
        return "\\x" + key.hex()
    if family == 4:
        return str(uuid.UUID(bytes=key))
    if family == 6:
        return repr(struct.unpack("<d", key)[0])
    if family == 7:
        return "t" if key[0] else "f"
    if family == 8:
        return (EPOCH + datetime.timedelta(days=signed64(key))).date().isoformat()
    at = EPOCH + datetime.timedelta(microseconds=signed64(key))
    text = at.strftime("%Y-%m-%d %H:%M:%S")
    if at.microsecond:
        text += (".%06d" % at.microsecond).rstrip("0")
    return text + ("+00" if family == 10 else "")


def numeric_spells(text, key):
    """Whether a numeric text normalizes to its key (docs/format.md section 1)."""
    m = re.fullmatch(rb"(-?)([0-9]+)(?:\.([0-9]+))?", text)
    if not m:
        return text == key
    digits = m.group(2).lstrip(b"0") or b"0"
    fraction = (m.group(3) or b"").rstrip(b"0")
    value = digits + (b"." + fraction if fraction else b"")
    if m.group(1) and value != b"0":
        value = b"-" + value
    return value == key


def text_is_valid(text):
    try:
        text.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return b"\0" not in text


class TopkSketch:
    """A summary: counters c, total N, error, and per key [count, lower,
    text], the text None where the family renders the key."""

    def __init__(self, counters, version=1, family=0, tag=0, total=0, error=0, entries=None):
        self.counters, self.version, self.family, self.tag = counters, version, family, tag
        self.total, self.error = total, error
        self.entries = dict(entries or {})

    # ---- the algorithm (docs/topk.md) ----

    def reduce(self, keep):
        """Subtract the (keep + 1)-th largest count from all; drop those left at 0."""
        if len(self.entries) <= keep:
            return
        cut = sorted((e[0] for e in self.entries.values()), reverse=True)[keep]
        self.entries = {k: [e[0] - cut, e[1], e[2]] for k, e in self.entries.items() if e[0] > cut}
        self.error += cut

    def count(self, family, tag, key, text):
        """One occurrence of a value, as the aggregate counts it."""
        if self.family == 0:
            self.family, self.tag = family, tag
        if key not in self.entries and len(self.entries) == 2 * self.counters:
            self.reduce(self.counters)
        e = self.entries.setdefault(key, [0, 0, text])
        e[0] += 1
        e[1] += 1
        self.total += 1

    def merge(self, other):
        """Agarwal et al.'s merge: add key by key, then reduce to c."""
        if other.counters != self.counters:
            raise ValueError("numbers of counters differ")
        if self.family == 0:
            self.family, self.tag = other.family, other.tag
        self.reduce(self.counters)
        self.total += other.total
        self.error += other.error
        for key, (count, lower, text) in other.entries.items():
            e = self.entries.setdefault(key, [0, 0, text])
            e[0] += count
            e[1] += lower
            if text is not None:
                e[2] = min(e[2], text)
        self.reduce(self.counters)

    def items(self):
        """(text, count, lower_bound, upper_bound), best first, as topk_items."""
        rows = [(self.text_of(key, e[2]), e[1], e[1], e[0] + self.error, e[0], key)
                for key, e in self.entries.items()]
        rows.sort(key=lambda r: (-r[1], -r[4], r[5]))
        return [r[:4] for r in rows]

    def text_of(self, key, text):
        if self.family in RENDERED_FROM_KEY:
            return render_key(self.family, key)
        return text.decode("utf-8")

    # ---- the stored forms (docs/format.md section 9) ----

    def payload(self):
        out = b""
        for key in sorted(self.entries):
            count, lower, text = self.entries[key]
            is_key = text is None or text == key
            out += le64(count) + le64(lower) + le32(len(key))
            out += le32(TEXT_IS_KEY if is_key else len(text)) + key + (b"" if is_key else text)
        return out

    def to_bytes(self):
        payload = self.payload()
        return (bytes([self.version, self.family]) + b"\0\0" + le32(self.tag)
                + le32(self.counters) + le32(len(self.entries)) + le64(self.total)
                + le64(self.error) + le64(len(payload)) + payload)

    def to_text(self):
        payload = self.payload()
        return "topk:v%d:%s:counters=%d:entries=%d:total=%d:error=%d:bytes=%d:%s" % (
            self.version, family_token(self.family, self.tag), self.counters,
            len(self.entries), self.total, self.error, len(payload),
            base64.b64encode(payload).decode())

    @classmethod
    def from_bytes(cls, b):
        """A summary from serialized bytes, with the validator's checks."""
        def u(at, size):
            return int.from_bytes(b[at:at + size], "little")
        if len(b) < 40 or b[0] != 1 or u(2, 2) != 0 or u(32, 8) != len(b) - 40:
            raise ValueError("malformed topksketch header")
        s = cls(u(8, 4), b[0], b[1], u(4, 4), u(16, 8), u(24, 8))
        if not 1 <= s.counters <= 1000000 or s.error > s.total or s.total > MAX_TOTAL:
            raise ValueError("topksketch header out of range")
        at, previous = 40, None
        for _ in range(u(12, 4)):
            count, lower, klen, tlen = u(at, 8), u(at + 8, 8), u(at + 16, 4), u(at + 20, 4)
            key = b[at + 24:at + 24 + klen]
            text = key if tlen == TEXT_IS_KEY else b[at + 24 + klen:at + 24 + klen + tlen]
            at += 24 + klen + (0 if tlen == TEXT_IS_KEY else tlen)
            if at > len(b) or not 1 <= count <= lower <= count + s.error:
                raise ValueError("malformed topksketch entry")
            if (previous is not None and previous >= key) or (tlen != TEXT_IS_KEY and text == key):
                raise ValueError("topksketch entries not canonical")
            if s.family in RENDERED_FROM_KEY:
                if tlen != TEXT_IS_KEY or (s.family == 2 and not text_is_valid(key)):
                    raise ValueError("topksketch text where the key determines the value")
                text = None
            elif not text_is_valid(text) or (s.family == NUMERIC and not numeric_spells(text, key)):
                raise ValueError("topksketch text is not a valid spelling of its key")
            s.entries[key] = [count, lower, text]
            previous = key
        counts = sum(e[0] for e in s.entries.values())
        if at != len(b) or len(s.entries) > s.counters or counts + (s.counters + 1) * s.error > s.total:
            raise ValueError("topksketch entries inconsistent")
        return s

    @classmethod
    def from_text(cls, text):
        head = text.split(":")
        fam = head[2]
        fields = dict(f.split("=", 1) for f in head[3:8])
        family, tag = parse_family_token(fam)
        header = (bytes([int(head[1][1:]), family]) + b"\0\0" + le32(tag)
                  + le32(int(fields["counters"])) + le32(int(fields["entries"]))
                  + le64(int(fields["total"])) + le64(int(fields["error"]))
                  + le64(int(fields["bytes"])))
        s = cls.from_bytes(header + base64.b64decode(head[8]))
        if s.to_text() != text:
            raise ValueError("not the canonical spelling")
        return s
