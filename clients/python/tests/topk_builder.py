"""A test-side heavy-hitters counter that writes summaries in the stored
form, to rebuild vectors from their streams (the library reads summaries
only): counting with up to 3c keys, reduced to 2c when full and to c when
written, by the rule of docs/format.md section 9 (Merging)."""

from bloomsketch import families as F
from bloomsketch.codec import b64encode
from bloomsketch.hashing import M64, xxh3_64
from bloomsketch.topk import entry_bytes


def key_hash(key):
    """The tie-breaking hash of a key: for 8 bytes the xor of the halves of
    (k xor 0x9E3779B97F4A7C15) * 0xD1B54A32D192ED03, else XXH3-64, seed 0."""
    if len(key) == 8:
        p = (int.from_bytes(key, "little") ^ 0x9E3779B97F4A7C15) * 0xD1B54A32D192ED03
        return (p & M64) ^ (p >> 64)
    return xxh3_64(key, 0)


def salt_of(total):
    """A reduction's salt: splitmix64's finaliser of the total counted."""
    x = (total + 0x9E3779B97F4A7C15) & M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M64
    return x ^ (x >> 31)


class TopkBuilder:
    def __init__(self, counters, family):
        self.counters, self.family = counters, family
        self.total = self.error = 0
        self.entries = {}          # key -> [count, lower, text]

    def _choose(self, keep, limit, salt):
        """The keys kept when those whose counts exceed limit (None: none)
        must stay, the rest ranked by larger lower, larger count, smaller
        salted hash, smaller key; and the cut, the largest count dropped."""
        forced = [k for k, e in self.entries.items() if limit is not None and e[0] > limit]
        rest = sorted((k for k, e in self.entries.items() if limit is None or e[0] <= limit),
                      key=lambda k: (-self.entries[k][1], -self.entries[k][0],
                                     key_hash(k) ^ salt, k))
        kept = forced + rest[:keep - len(forced)]
        return kept, max(self.entries[k][0] for k in rest[keep - len(forced):])

    def _fits(self, kept, cut):
        """Whether the counts kept, cut, and the error grown by cut keep
        sum of counts + (c + 1) * error <= total."""
        counts = sum(self.entries[k][0] - (cut if self.entries[k][0] >= cut else 0) for k in kept)
        return counts + (self.counters + 1) * (self.error + cut) <= self.total

    def reduce(self, keep):
        """Down to keep keys: those of the largest lower bounds when that
        keeps the invariant, else a bisection on the count limit between the
        (c + 1)-th largest count (which always keeps it) and the largest."""
        if len(self.entries) <= keep:
            return
        salt = salt_of(self.total)
        kept, cut = self._choose(keep, None, salt)
        if not self._fits(kept, cut):
            counts = sorted((e[0] for e in self.entries.values()), reverse=True)
            low, high = counts[self.counters], counts[0]
            while high - low > 1:
                middle = low + (high - low) // 2
                if self._fits(*self._choose(keep, middle, salt)):
                    low = middle
                else:
                    high = middle
            kept, cut = self._choose(keep, low, salt)
        self.entries = {k: [self.entries[k][0] - (cut if self.entries[k][0] >= cut else 0),
                            self.entries[k][1], self.entries[k][2]] for k in kept}
        self.error += cut

    def count(self, key, text=None):
        """One occurrence; text, for numeric, the value's spelling when it
        differs from the key (a key counted again keeps its smaller text)."""
        if key not in self.entries and len(self.entries) == 3 * self.counters:
            self.reduce(2 * self.counters)
        e = self.entries.setdefault(key, [0, 0, text])
        if text is not None and e[2] is not None:
            e[2] = min(e[2], text)
        e[0] += 1
        e[1] += 1
        self.total += 1

    def to_text(self):
        self.reduce(self.counters)
        payload = b"".join(entry_bytes(self.family, key, e[1], e[0], e[2])
                           for key, e in sorted(self.entries.items()))
        return "topk:v1:%s:counters=%d:entries=%d:total=%d:error=%d:bytes=%d:%s" % (
            F.NAMES[self.family], self.counters, len(self.entries), self.total, self.error,
            len(payload), b64encode(payload))
