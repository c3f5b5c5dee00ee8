"""A test-side Misra-Gries counter that writes summaries in the stored
form, to rebuild vectors of test/topksketch_v1.tsv from their streams (the
library reads summaries only): counting with the reduction deferred to 2c
keys, then reduced to c, as docs/topk.md describes the aggregate."""

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


class TopkBuilder:
    def __init__(self, counters, family):
        self.counters, self.family = counters, family
        self.total = self.error = 0
        self.entries = {}          # key -> [count, lower]

    def reduce(self, keep):
        """Down to keep keys (docs/format.md section 9, Merging): with L the
        (keep + 1)-th largest count, the keys above L stay, then those of the
        largest lower, count, smallest key hash, smallest key; the largest
        count dropped is subtracted from every count of at least it and added
        to the error."""
        if len(self.entries) <= keep:
            return
        cut = sorted((e[0] for e in self.entries.values()), reverse=True)[keep]
        above = [k for k, e in self.entries.items() if e[0] > cut]
        rest = sorted((k for k, e in self.entries.items() if e[0] <= cut),
                      key=lambda k: (-self.entries[k][1], -self.entries[k][0], key_hash(k), k))
        kept = above + rest[:keep - len(above)]
        dropped = max(self.entries[k][0] for k in rest[keep - len(above):])
        self.entries = {k: [self.entries[k][0] - (dropped if self.entries[k][0] >= dropped else 0),
                            self.entries[k][1], self.entries[k][2]] for k in kept}
        self.error += dropped

    def count(self, key, text=None):
        """One occurrence; text, for numeric, the value's spelling when it
        differs from the key (a key counted again keeps its smaller text)."""
        if key not in self.entries and len(self.entries) == 2 * self.counters:
            self.reduce(self.counters)
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
