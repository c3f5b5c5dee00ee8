#!/usr/bin/env python3
"""The Python reader (bloomsketch_reader.py, written from docs/format.md)
against the test vectors of docs/vectors/, which the C core
(test/test_vectors.c) and the server (sql/format_vectors.sql) also pass:
canonical bytes and family tokens from each value's type and payload,
positions and columns from those bytes, whole filters and sketches built,
written, read back and probed; the self-sized filters of bloom_fit_agg
(fit_filters.tsv, whose every line sql/format_vectors.sql has the server
build from the same values) rebuilt from their values, partial state and
final filter, byte for byte, and the states read back and finalised.  The
summaries the server wrote in
test/topksketch_v1.tsv are read (topk_reader.py), and two of them rebuilt
from their streams, byte for byte.  Where libxxhash is installed, the pure-Python
XXH3 is also compared with it on every input length up to 300 and a few long
ones.  Exit status 1 on any difference.

    python3 test/format_reader/check_vectors.py [docs/vectors]
"""
import csv
import ctypes
import hashlib
import ctypes.util
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bloomsketch_reader import (BloomFilter, CountMinSketch, canonical,  # noqa: E402
                                cms_columns, family_token, positions)
from fit_reader import FitState, fit_agg, fit_combine, fit_values  # noqa: E402
from topk_reader import TopkSketch  # noqa: E402
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


def check_topk_summaries(path):
    """The summaries of test/topksketch_v1.tsv: read, written back, listed, rebuilt."""
    n = 0
    with open(path, encoding="utf-8", newline="") as f:
        lines = [line.rstrip("\n").split("\t") for line in f]
    for what, text, md5, counters, entries, total, max_error, family, size, items in lines:
        s = TopkSketch.from_text(text)
        check(hashlib.md5(s.to_bytes()).hexdigest() == md5, "bytes of summary " + what)
        check(TopkSketch.from_bytes(s.to_bytes()).to_text() == text, "binary to text of " + what)
        check((s.counters, len(s.entries), s.total, s.error) ==
              (int(counters), int(entries), int(total), int(max_error)), "header of " + what)
        listed = " ".join("%s:%d:%d:%d" % r for r in s.items())
        check(listed == (items if items != "\\N" else ""), "items of " + what)
        n += 1
    # two of them from their streams: the deferred reduction and the order of
    # the entries as docs/format.md and docs/topk.md describe them
    streams = {
        "integer: 1 2 1 3 1 4 2 with 3 counters": (3, [1, 2, 1, 3, 1, 4, 2]),
        "integer: least(i mod 17, i mod 23, i mod 31) for i = 1..1000, 10 counters":
            (10, [min(i % 17, i % 23, i % 31) for i in range(1, 1001)]),
    }
    for what, text, md5, *_ in lines:
        if what in streams:
            counters, stream = streams[what]
            built = TopkSketch(counters)
            for v in stream:
                built.count(1, 0, le64_signed(v), None)
            built.reduce(counters)
            check(built.to_text() == text, "summary rebuilt from its stream: " + what)
            merged = TopkSketch.from_text(text)
            merged.merge(TopkSketch.from_text(text))
            check(merged.total == 2 * built.total and
                  sum(e[0] for e in merged.entries.values()) + (counters + 1) * merged.error
                  <= merged.total, "self-merge of " + what)
            n += 1
    return n


def check_fit_filters(directory, values):
    """bloom_fit_agg's filters and states, rebuilt from their values."""
    n = probes = 0
    for r in rows(directory, "fit_filters.tsv"):
        try:
            probes += check_fit_filter(r, values)
        except ValueError as e:
            check(False, "fit filter %s: %s" % (r["name"], e))
        n += 1
    return n, probes


def check_fit_combined(directory):
    """Unions and intersections of the filters of fit_filters.tsv."""
    n = 0
    texts = {r["name"]: r["text"] for r in rows(directory, "fit_filters.tsv")}
    for r in rows(directory, "fit_combined.tsv"):
        try:
            got = fit_combine(BloomFilter.from_text(texts[r["left"]]),
                              BloomFilter.from_text(texts[r["right"]]), r["op"] == "&")
            check(got.to_text() == r["text"], "text of fit combination " + r["name"])
            check(BloomFilter.from_text(r["text"]).to_text() == r["text"],
                  "fit combination %s read back" % r["name"])
        except ValueError as e:
            check(False, "fit combination %s: %s" % (r["name"], e))
        n += 1
    return n


def check_fit_filter(r, values):
    """One line of fit_filters.tsv; returns the membership probes made."""
    probes = 0
    what = "fit filter " + r["name"]
    members = fit_values(r["values"], values)
    state, built = fit_agg(members, float(r["fpr"]), int(r["max_bits"]))
    check(built.to_text() == r["text"], "text of " + what)
    state_text = state.to_filter().to_text()
    if r["state"].startswith("md5:"):
        check("md5:" + hashlib.md5(state_text.encode()).hexdigest() == r["state"],
              "state of " + what)
    else:
        check(state_text == r["state"], "state of " + what)
        read_state = FitState.from_filter(BloomFilter.from_text(r["state"]))
        check(read_state.final().to_text() == r["text"], "final of the read state of " + what)
    read = BloomFilter.from_text(r["text"])
    check(BloomFilter.from_bytes(read.to_bytes()).to_text() == r["text"], "binary form of " + what)
    for member in members:
        check(read.contains(*member), "a member of " + what)
        probes += 1
    return probes


def le64_signed(v):
    return (v & ((1 << 64) - 1)).to_bytes(8, "little")


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
    for r in rows(directory, "bloom_items.tsv"):
        f = BloomFilter.from_text(r["text"])
        check(f.items == int(r["items"]) and f.to_text() == r["text"], "items of " + r["name"])
        check(min(f.items, (1 << 63) - 1) == int(r["items_added"]), "items_added of " + r["name"])
        check(f.contains(*values["int8_42"]), "int8_42 in " + r["name"])
        n += 1
    counts["item counts"] = n

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

    counts["fit filters"], counts["fit membership probes"] = check_fit_filters(directory, values)
    counts["fit combinations"] = check_fit_combined(directory)
    counts["summaries"] = check_topk_summaries(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "topksketch_v1.tsv"))
    counts["XXH3 hashes against libxxhash"] = check_xxh3_against_library()
    for f in failures[:20]:
        print("FAILED", f)
    print("python reader: %d checks, %d failed (%s)" % (
        checks, len(failures), ", ".join("%d %s" % (v, k) for k, v in counts.items())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
