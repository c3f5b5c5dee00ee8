#!/usr/bin/env python3
"""Per-probe time of the Python client (clients/python): BloomFilter.contains
for every scheme and CountMinSketch.estimate, on integers and 16-character
texts, against two floors: the XXH3-128 call alone (what any probe pays)
and a Python set lookup (the exact alternative, with all values in memory).
No server needed.  Prints a Markdown table: the median of ROUNDS rounds of
PROBES probes each, in microseconds per probe.

    /usr/bin/python3 bench/client_probe.py [PROBES [ROUNDS]]
"""
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
from bloomsketch import BloomFilter, CountMinSketch  # noqa: E402
from bloomsketch.hashing import xxh3_128  # noqa: E402

# the shapes bloom_create(1000000, 0.01, 0, scheme) gives (bloom_info)
SHAPES = {"double": (9593011, 7), "double_square": (9593011, 7), "double_cube": (9593011, 7),
          "partition": (9593017, 7), "independent": (9592957, 7), "blocked": (9918464, 6)}
MEMBERS = 100000


def per_probe(function, values, rounds):
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        for v in values:
            function(v)
        times.append((time.perf_counter() - start) / len(values) * 1e6)
    return statistics.median(times)


def main():
    probes = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    values = {"integer": list(range(probes)), "text": ["user-%011d" % i for i in range(probes)]}
    print("| probe | integer (µs) | text (µs) |")
    print("|---|---:|---:|")
    row = {}
    for family, vs in values.items():
        encode = (lambda v: v.to_bytes(8, "little")) if family == "integer" else str.encode
        row.setdefault("XXH3-128 of the canonical bytes (floor)", {})[family] = \
            per_probe(lambda v: xxh3_128(encode(v), 0), vs, rounds)
        exact = set(vs[:MEMBERS])
        row.setdefault("Python set lookup (exact)", {})[family] = per_probe(exact.__contains__, vs, rounds)
        for scheme, (bits, hashes) in SHAPES.items():
            f = BloomFilter.create(family, bits, hashes, 0, scheme).update(vs[:MEMBERS])
            row.setdefault("BloomFilter.contains, %s" % scheme, {})[family] = \
                per_probe(f.contains, vs, rounds)
        s = CountMinSketch.create(family, 0.001, 0.001)
        for v in vs[:MEMBERS]:
            s.add(v)
        row.setdefault("CountMinSketch.estimate (w 5437, d 7)", {})[family] = \
            per_probe(s.estimate, vs, rounds)
    for name, cells in row.items():
        print("| %s | %.2f | %.2f |" % (name, cells["integer"], cells["text"]))


if __name__ == "__main__":
    main()
