#!/usr/bin/env python3
"""The Python reader (bloomsketch_reader.py, written from docs/format.md)
against the test vectors of docs/vectors/, which the C core
(test/test_vectors.c) and the server (sql/format_vectors.sql) also pass:
canonical bytes and family tokens from each value's type and payload,
positions and columns from those bytes, whole filters and sketches built,
written, read back and probed.  Where libxxhash is installed, the pure-Python
XXH3 is also compared with it on every input length up to 300 and a few long
ones.  Exit status 1 on any difference.

    python3 test/format_reader/check_vectors.py [docs/vectors]
"""
import csv
import ctypes
import ctypes.util
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bloomsketch_reader import (BloomFilter, CountMinSketch, canonical,  # noqa: E402
                                cms_columns, family_token, positions)
from xxh3 import xxh3_64, xxh3_128  # noqa: E402

checks = 0
failures = []


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what)


def rows(directory, name):
    with open(os.path.join(directory, name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def check_xxh3_against_library():
    path = ctypes.util.find_library("xxhash")
    if path is None:
        return 0
    lib = ctypes.CDLL(path)

    class H128(ctypes.Structure):
        _fields_ = [("low64", ctypes.c_uint64), ("high64", ctypes.c_uint64)]
    lib.XXH3_64bits_withSeed.restype = ctypes.c_uint64
    lib.XXH3_64bits_withSeed.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
    lib.XXH3_128bits_withSeed.restype = H128
    lib.XXH3_128bits_withSeed.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
    rnd = random.Random(27)
    count = 0
    for length in list(range(301)) + [1023, 1024, 1025, 2049, 4096]:
        data = bytes(rnd.getrandbits(8) for _ in range(length))
        seed = rnd.getrandbits(64) if length % 2 else 0
        h = lib.XXH3_128bits_withSeed(data, length, seed)
        check(xxh3_128(data, seed) == (h.low64, h.high64), "XXH3_128 length %d" % length)
        check(xxh3_64(data, seed) == lib.XXH3_64bits_withSeed(data, length, seed),
              "XXH3_64 length %d" % length)
        count += 2
    return count


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "vectors")
    values = {}
    for r in rows(directory, "values.tsv"):
        family, tag, data = canonical(r["type"], json.loads(r["value"]))
        check(data.hex() == r["canonical"], "canonical bytes of " + r["id"])
        check(family_token(family, tag) == r["family"], "family of " + r["id"])
        values[r["id"]] = (family, tag, data)
    counts = {"values": len(values)}

    n = 0
    for r in rows(directory, "bloom_positions.tsv"):
        got = positions(values[r["id"]][2], r["scheme"], int(r["m"]), int(r["k"]), int(r["seed"]))
        check(",".join(map(str, got)) == r["positions"],
              "positions of %s, %s m=%s" % (r["id"], r["scheme"], r["m"]))
        n += 1
    counts["position lists"] = n

    n = probes = 0
    for r in rows(directory, "bloom_filters.tsv"):
        f = BloomFilter(r["scheme"], int(r["m"]), int(r["k"]), int(r["seed"]))
        for vid in r["values"].split(","):
            f.add(*values[vid])
        check(f.to_bytes().hex() == r["bytes"], "bytes of filter " + r["name"])
        check(f.to_text() == r["text"], "text of filter " + r["name"])
        read = BloomFilter.from_bytes(bytes.fromhex(r["bytes"]))
        check(read.to_text() == r["text"], "binary to text of filter " + r["name"])
        check(BloomFilter.from_text(r["text"]).to_bytes().hex() == r["bytes"],
              "text to binary of filter " + r["name"])
        for vid in r["values"].split(","):
            check(read.contains(*values[vid]), "%s in filter %s" % (vid, r["name"]))
            probes += 1
        n += 1
    counts["filters"] = n
    counts["membership probes"] = probes

    n = 0
    for r in rows(directory, "cms_columns.tsv"):
        got = cms_columns(values[r["id"]][2], int(r["w"]), int(r["d"]), int(r["copies"]),
                          int(r["seed"]) & ((1 << 64) - 1))
        check(",".join(map(str, got)) == r["columns"], "columns of %s, w=%s" % (r["id"], r["w"]))
        n += 1
    counts["column lists"] = n

    n = 0
    for r in rows(directory, "cms_sketches.tsv"):
        s = CountMinSketch(int(r["w"]), int(r["d"]), int(r["copies"]), int(r["seed"]))
        adds = [a.split("*") for a in r["values"].split(",")]
        for vid, count in adds:
            s.add(*values[vid], int(count))
        check(s.to_bytes().hex() == r["bytes"], "bytes of sketch " + r["name"])
        check(s.to_text() == r["text"], "text of sketch " + r["name"])
        read = CountMinSketch.from_text(r["text"])
        check(read.to_bytes().hex() == r["bytes"], "text to binary of sketch " + r["name"])
        for vid, count in adds:
            check(read.estimate(*values[vid]) >= int(count), "estimate of %s in %s" % (vid, r["name"]))
        n += 1
    counts["sketches"] = n

    counts["XXH3 hashes against libxxhash"] = check_xxh3_against_library()
    for f in failures[:20]:
        print("FAILED", f)
    print("python reader: %d checks, %d failed (%s)" % (
        checks, len(failures), ", ".join("%d %s" % (v, k) for k, v in counts.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
