#!/usr/bin/env python3
"""The Python client (clients/python/bloomsketch) against the test vectors
of docs/vectors/, which the C core (test/unit/test_vectors.c) and the server
(test/regress/sql/format_vectors.sql) also pass: canonical bytes and
family tokens of every value, positions and columns, whole filters and
sketches built, written, read back and probed; the self-sized filters of bloom_fit_agg
rebuilt from their values, partial state and final filter, byte for byte,
and their unions and intersections; the summaries the server wrote in
test/data/topksketch_v1.tsv read and listed, two of them rebuilt from their
streams.  python3-xxhash's XXH3 is compared with libxxhash's on every input
length up to 300 and a few long ones.  Exit status 1 on any difference.

    PYTHONPATH=clients/python python3 clients/python/tests/check_vectors.py [docs/vectors]
"""
import csv
import ctypes
import ctypes.util
import hashlib
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))      # the package, when not installed
from bloomsketch import BloomFilter, CountMinSketch, TopKSketch  # noqa: E402
from bloomsketch import families as F  # noqa: E402
from bloomsketch.bloom_codec import BloomFields, bit_bytes  # noqa: E402
from bloomsketch.fit import FitState, fit_ceiling  # noqa: E402
from bloomsketch.hashing import xxh3_128, xxh3_64  # noqa: E402
from bloomsketch.positions import SCHEME_NAMES, cms_columns, positions  # noqa: E402
from notation import canonical  # noqa: E402
from topk_builder import TopkBuilder  # noqa: E402

ROOT = os.path.join(HERE, "..", "..", "..")


class Checks:
    def __init__(self):
        self.count, self.failures, self.counts = 0, [], {}

    def check(self, ok, what):
        self.count += 1
        if not ok:
            self.failures.append(what)


def rows(directory, name):
    with open(os.path.join(directory, name), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def empty_filter(scheme, m, k, seed):
    """An empty filter of any shape and scheme (fit included), as the vectors give them."""
    return BloomFilter(BloomFields(2, SCHEME_NAMES.index(scheme), 0, 0, k, 0, m,
                                   seed & ((1 << 64) - 1), 0, bytearray(bit_bytes(m))))


def fit_values(spec, by_id):
    """The values of a set of fit_filters.tsv as (family, tag, canonical bytes)."""
    kind, _, rest = spec.partition(" ")
    if kind == "ids":
        return [by_id[i] for i in rest.split(",")]
    low, high = rest.replace("v", "").split("..")
    if kind == "int8":
        return [canonical("int8", i) for i in range(int(low), int(high) + 1)]
    return [canonical("text", "v%d" % i) for i in range(int(low), int(high) + 1)]


def fit_agg(values, fpr, max_bits):
    """(state, filter) of bloom_fit_agg over (family, tag, bytes) values."""
    state = FitState(fpr, fit_ceiling(max_bits))
    for family, tag, data in values:
        state.family, state.tag = family, tag
        state.add(data)
    return state, BloomFilter(state.final())


def check_xxh3_against_library(c):
    path = ctypes.util.find_library("xxhash")
    if path is None:
        c.check(False, "libxxhash not found (Debian's libxxhash0): the XXH3 check needs it")
        return 0
    lib = ctypes.CDLL(path)

    class H128(ctypes.Structure):
        _fields_ = [("low64", ctypes.c_uint64), ("high64", ctypes.c_uint64)]
    lib.XXH3_64bits_withSeed.restype = ctypes.c_uint64
    lib.XXH3_64bits_withSeed.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
    lib.XXH3_128bits_withSeed.restype = H128
    lib.XXH3_128bits_withSeed.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
    rnd = random.Random(27)
    n = 0
    for length in list(range(301)) + [1023, 1024, 1025, 2049, 4096]:
        data = bytes(rnd.getrandbits(8) for _ in range(length))
        seed = rnd.getrandbits(64) if length % 2 else 0
        h = lib.XXH3_128bits_withSeed(data, length, seed)
        c.check(xxh3_128(data, seed) == (h.low64, h.high64), "XXH3_128 length %d" % length)
        c.check(xxh3_64(data, seed) == lib.XXH3_64bits_withSeed(data, length, seed),
                "XXH3_64 length %d" % length)
        n += 2
    return n


def check_values(c, directory, payloads):
    values = {}
    for r in rows(directory, "values.tsv"):
        payloads[r["id"]] = json.loads(r["value"])
        family, tag, data = canonical(r["type"], payloads[r["id"]])
        c.check(data.hex() == r["canonical"], "canonical bytes of " + r["id"])
        c.check(F.token(family, tag) == r["family"], "family of " + r["id"])
        values[r["id"]] = (family, tag, data)
    c.counts["values"] = len(values)
    return values


def check_positions(c, directory, values):
    n = 0
    for r in rows(directory, "bloom_positions.tsv"):
        got = positions(values[r["id"]][2], SCHEME_NAMES.index(r["scheme"]), int(r["m"]),
                        int(r["k"]), int(r["seed"]))
        c.check(",".join(map(str, got)) == r["positions"],
                "positions of %s, %s m=%s" % (r["id"], r["scheme"], r["m"]))
        n += 1
    c.counts["position lists"] = n


def check_filters(c, directory, values):
    n = probes = 0
    for r in rows(directory, "bloom_filters.tsv"):
        f = empty_filter(r["scheme"], int(r["m"]), int(r["k"]), int(r["seed"]))
        for vid in r["values"].split(","):
            family, tag, data = values[vid]
            f.add_canonical(data, family, tag)
        c.check(f.to_bytes().hex() == r["bytes"], "bytes of filter " + r["name"])
        c.check(f.to_text() == r["text"], "text of filter " + r["name"])
        read = BloomFilter.from_bytes(bytes.fromhex(r["bytes"]))
        c.check(read.to_text() == r["text"], "binary to text of filter " + r["name"])
        c.check(BloomFilter.from_text(r["text"]).to_bytes().hex() == r["bytes"],
                "text to binary of filter " + r["name"])
        for vid in r["values"].split(","):
            c.check(read.contains_canonical(values[vid][2]), "%s in filter %s" % (vid, r["name"]))
            probes += 1
        n += 1
    c.counts["filters"], c.counts["membership probes"] = n, probes
    n = 0
    for r in rows(directory, "bloom_items.tsv"):
        f = BloomFilter.from_text(r["text"])
        c.check(f.to_text() == r["text"], "items of " + r["name"])
        c.check(f.info().items_added == int(r["items_added"]), "items_added of " + r["name"])
        c.check(f.contains(42), "42 in " + r["name"])
        n += 1
    c.counts["item counts"] = n


def check_sketches(c, directory, values):
    n = 0
    for r in rows(directory, "cms_columns.tsv"):
        got = cms_columns(values[r["id"]][2], int(r["w"]), int(r["d"]), int(r["copies"]), int(r["seed"]))
        c.check(",".join(map(str, got)) == r["columns"], "columns of %s, w=%s" % (r["id"], r["w"]))
        n += 1
    c.counts["column lists"] = n
    n = 0
    for r in rows(directory, "cms_sketches.tsv"):
        s = CountMinSketch(2, 0, 0, int(r["w"]), int(r["d"]), int(r["copies"]),
                           int(r["seed"]) & ((1 << 64) - 1), 0,
                           [0] * (int(r["w"]) * int(r["d"]) * int(r["copies"])))
        adds = [a.split("*") for a in r["values"].split(",")]
        for vid, count in adds:
            family, tag, data = values[vid]
            s.add_canonical(data, family, tag, int(count))
        c.check(s.to_bytes().hex() == r["bytes"], "bytes of sketch " + r["name"])
        c.check(s.to_text() == r["text"], "text of sketch " + r["name"])
        read = CountMinSketch.from_text(r["text"])
        c.check(read.to_bytes().hex() == r["bytes"], "text to binary of sketch " + r["name"])
        for vid, count in adds:
            c.check(read.estimate_canonical(values[vid][2]) >= int(count),
                    "estimate of %s in %s" % (vid, r["name"]))
        n += 1
    c.counts["sketches"] = n


def check_fit(c, directory, values):
    n = probes = 0
    texts = {}
    for r in rows(directory, "fit_filters.tsv"):
        what = "fit filter " + r["name"]
        members = fit_values(r["values"], values)
        state, built = fit_agg(members, float(r["fpr"]), int(r["max_bits"]))
        c.check(built.to_text() == r["text"], "text of " + what)
        state_text = BloomFilter(state.fields()).to_text()
        if r["state"].startswith("md5:"):
            c.check("md5:" + hashlib.md5(state_text.encode()).hexdigest() == r["state"], "state of " + what)
        else:
            c.check(state_text == r["state"], "state of " + what)
            read_state = BloomFilter.from_text(r["state"])
            c.check(BloomFilter(FitState.from_fields(read_state._f).final()).to_text() == r["text"],
                    "final of the read state of " + what)
        read = BloomFilter.from_text(r["text"])
        c.check(BloomFilter.from_bytes(read.to_bytes()).to_text() == r["text"], "binary form of " + what)
        for member in members:
            c.check(read.contains_canonical(member[2]), "a member of " + what)
            probes += 1
        texts[r["name"]] = r["text"]
        n += 1
    c.counts["fit filters"], c.counts["fit membership probes"] = n, probes
    n = 0
    for r in rows(directory, "fit_combined.tsv"):
        left, right = BloomFilter.from_text(texts[r["left"]]), BloomFilter.from_text(texts[r["right"]])
        got = left & right if r["op"] == "&" else left | right
        c.check(got.to_text() == r["text"], "text of fit combination " + r["name"])
        n += 1
    c.counts["fit combinations"] = n


def check_topk_vectors(c, directory, values, payloads):
    """topk_summaries.tsv: each summary rebuilt from its values, read, listed."""
    n = 0
    for r in rows(directory, "topk_summaries.tsv"):
        s = TopKSketch.from_text(r["text"])
        listed = " ".join("%s:%d:%d:%d" % (i.text, i.count, i.lower_bound, i.upper_bound)
                          for i in s.items())
        c.check(listed == r["items"], "items of summary " + r["name"])
        c.check(TopKSketch.from_bytes(s.to_bytes()) == s, "binary form of summary " + r["name"])
        builder = TopkBuilder(int(r["counters"]), F.NAMES.index(r["name"]))
        for add in r["values"].split(","):
            vid, count = add.split("*")
            data = values[vid][2]
            text = payloads[vid].encode() if r["name"] == "numeric" else None
            for _ in range(int(count)):
                builder.count(data, None if text == data else text)
        c.check(builder.to_text() == r["text"], "summary %s rebuilt from its values" % r["name"])
        for add in r["values"].split(","):
            vid = add.split("*")[0]
            listed_keys = [e.key for e in s._entries]
            c.check(s.estimate_canonical(values[vid][2]) == (int(add.split("*")[1])
                    if values[vid][2] in listed_keys else 0), "estimate of %s in %s" % (vid, r["name"]))
        n += 1
    c.counts["summaries of every family"] = n


# two summaries of test/data/topksketch_v1.tsv, rebuilt from their streams
TOPK_STREAMS = {
    "integer: 1 2 1 3 1 4 2 with 3 counters": (3, [1, 2, 1, 3, 1, 4, 2]),
    "integer: least(i mod 17, i mod 23, i mod 31) for i = 1..1000, 10 counters":
        (10, [min(i % 17, i % 23, i % 31) for i in range(1, 1001)]),
    "integer: 1..40 once each, 3 counters": (3, list(range(1, 41))),
    "integer: (i * i) % 11 for i = 1..300, 2 counters": (2, [(i * i) % 11 for i in range(1, 301)]),
    "integer: 3 1 7 1 1 6 2 2 2 2 2 2 3 3 4 8 3 8 3 4 4, 1 counter (a bisection)":
        (1, [3, 1, 7, 1, 1, 6, 2, 2, 2, 2, 2, 2, 3, 3, 4, 8, 3, 8, 3, 4, 4]),
}


def check_topk(c, path):
    n = rebuilt = 0
    with open(path, encoding="utf-8", newline="") as f:
        lines = [line.rstrip("\n").split("\t") for line in f]
    for what, text, md5, counters, entries, total, max_error, family, size, items in lines:
        s = TopKSketch.from_text(text)
        info = s.info()
        c.check(hashlib.md5(s.to_bytes()).hexdigest() == md5, "bytes of summary " + what)
        c.check(TopKSketch.from_bytes(s.to_bytes()).to_text() == text, "binary to text of " + what)
        c.check((info.counters, info.entries, info.total, info.max_error, info.family, info.bytes) ==
                (int(counters), int(entries), int(total), int(max_error), family, int(size)),
                "topk_info of " + what)
        listed = " ".join("%s:%d:%d:%d" % (i.text, i.count, i.lower_bound, i.upper_bound)
                          for i in s.items())
        c.check(listed == (items if items != "\\N" else ""), "items of " + what)
        n += 1
        if what in TOPK_STREAMS:
            builder = TopkBuilder(TOPK_STREAMS[what][0], F.INTEGER)
            for v in TOPK_STREAMS[what][1]:
                builder.count((v & ((1 << 64) - 1)).to_bytes(8, "little"))
            c.check(builder.to_text() == text, "summary rebuilt from its stream: " + what)
            rebuilt += 1
    c.check(rebuilt == len(TOPK_STREAMS), "every summary to rebuild was found")
    c.counts["summaries"] = n


def run(directory):
    """The Checks of every vector file in directory."""
    c = Checks()
    payloads = {}
    values = check_values(c, directory, payloads)
    check_positions(c, directory, values)
    check_filters(c, directory, values)
    check_sketches(c, directory, values)
    check_fit(c, directory, values)
    check_topk_vectors(c, directory, values, payloads)
    check_topk(c, os.path.join(ROOT, "test", "data", "topksketch_v1.tsv"))
    c.counts["XXH3 hashes against libxxhash"] = check_xxh3_against_library(c)
    return c


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "docs", "vectors")
    c = run(directory)
    for failure in c.failures[:20]:
        print("FAILED", failure)
    print("python client: %d checks, %d failed (%s)" % (
        c.count, len(c.failures), ", ".join("%d %s" % (v, k) for k, v in c.counts.items())))
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
