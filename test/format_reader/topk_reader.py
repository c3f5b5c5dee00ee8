"""An independent reader, writer and builder of topksketch values, written
from docs/format.md section 9 and docs/topk.md: the binary and text forms,
the checks of the validator, counting with the reduction deferred to 2c keys,
and Agarwal et al.'s merge.  Python 3 standard library only.
"""

import base64

from bloomsketch_reader import family_token, le32, le64, parse_family_token

TEXT_IS_KEY = 0xFFFFFFFF
MAX_TOTAL = (1 << 63) - 1


class TopkSketch:
    """A summary: counters c, total N, error, and per key [count, lower, text]."""

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
            e[2] = min(e[2], text)
        self.reduce(self.counters)

    def items(self):
        """(text, count, lower_bound, upper_bound), best first, as topk_items."""
        rows = [(e[2].decode("utf-8"), e[1], e[1], e[0] + self.error, e[0], key)
                for key, e in self.entries.items()]
        rows.sort(key=lambda r: (-r[1], -r[4], r[5]))
        return [r[:4] for r in rows]

    # ---- the stored forms (docs/format.md section 9) ----

    def payload(self):
        out = b""
        for key in sorted(self.entries):
            count, lower, text = self.entries[key]
            is_key = text == key
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
