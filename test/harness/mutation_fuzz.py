#!/usr/bin/env python3
"""test/harness/mutation_fuzz.py — the generator and the report of test/harness/mutation_fuzz.sh.

  mutation_fuzz.py generate WORKDIR N SEED
      reads WORKDIR/seeds.tsv (kind, hex of the serialized value, text form)
      and writes, for each kind, N mutations through each input path:
      WORKDIR/attempts.tsv (COPY text: id, kind, path, op, payload hex, file)
      and one binary COPY file per attempt of the recv path in WORKDIR/recv/.
  mutation_fuzz.py report WORKDIR
      reads WORKDIR/outcomes.tsv (id, kind, path, op, state, post) and prints
      the totals per input path and SQLSTATE; exits 1 on any disallowed one.

Mutations of the serialized bytes: bit flips, byte changes, header fields set
to edge values (version, scheme, family, reserved, k, m, seed, items / w, d,
copies, seed, total / counters, entries, total, error, bytes), the fields of
a summary's first entry (count, lower bound, key and text lengths), size
fields changed with the length adjusted to match,
truncation, extension, payload words, splices of two seeds, and for the
self-sized filters of bloom_fit_agg (scheme fit) and its partial states
(fit_partial) the flags byte, the state's rate and ceiling words and the
order of its hash pairs.  Text inputs are
either the text rendering of such a mutation or a character-level mutation
of a seed's text form (numbers, tokens, base64, separators).
Python 3 standard library only.
"""
import base64
import collections
import os
import random
import re
import struct
import sys

BLOOM_FIELDS = [("version", 0, 1), ("scheme", 1, 1), ("family", 2, 1),
                ("reserved8", 3, 1), ("k", 4, 2), ("reserved16", 6, 2),
                ("type_tag", 8, 4), ("m", 12, 8), ("seed", 20, 8), ("items", 28, 8)]
CMS_FIELDS = [("version", 0, 1), ("family", 1, 1), ("reserved", 2, 2),
              ("type_tag", 4, 4), ("w", 8, 4), ("d", 12, 2), ("copies", 14, 2),
              ("seed", 16, 8), ("total", 24, 8)]
TOPK_FIELDS = [("version", 0, 1), ("family", 1, 1), ("reserved", 2, 2),
               ("type_tag", 4, 4), ("counters", 8, 4), ("entries", 12, 4),
               ("total", 16, 8), ("error", 24, 8), ("bytes", 32, 8),
               ("count", 40, 8), ("lower", 48, 8), ("key_length", 56, 4),
               ("text_length", 60, 4)]
HEADER = {"bloom": 36, "cms": 32, "topk": 40}
FIELDS = {"bloom": BLOOM_FIELDS, "cms": CMS_FIELDS, "topk": TOPK_FIELDS}
TYPE = {"bloom": "bloomfilter", "cms": "cmsketch", "topk": "topksketch"}
KINDS = ("bloom", "cms", "topk")
FAMILIES = ["none", "integer", "text", "bytea", "uuid", "numeric", "float",
            "bool", "date", "timestamp", "timestamptz"]
SCHEMES = ["unknown", "double", "double_square", "double_cube", "partition",
           "independent", "blocked", "fit", "fit_partial"]
FIT, FIT_PARTIAL = 7, 8
# rates (as IEEE 754 doubles) and ceilings for a partial state's first two
# payload words: valid ones, and just outside what the validator accepts
FIT_RATES = [0.01, 0.001, 0.5, 0.3, 1e-6, 0.0, 1.0, -0.01, 1e-300, float("nan"),
             float("inf"), 0.0099, 0.011]
FIT_CEILINGS = [1024, 2048, 4096, 65536, 1 << 27, 1 << 32, 512, 1000, 1025, 1 << 33,
                (1 << 64) - 1, 0]
PRIMES = [2, 3, 5, 61, 67, 97, 101, 127, 131, 509, 1021, 4093, 65521,
          2147483647, 4294967291, 5999999989, 6000000007]
# SQLSTATEs an input may end in (docs/format.md, "Validation"), and what the checks on
# an accepted value may report (mutation_fuzz.sql).
ALLOWED = {"00000", "22P02", "22P03", "22023", "54000"}
ALLOWED_POST = {"ok", "ok-known", "ok-fit", "ok-fit-state"}


def field_get(data, offset, size):
    return int.from_bytes(data[offset:offset + size], "little")


def field_set(data, offset, size, value):
    data[offset:offset + size] = (value % (1 << (8 * size))).to_bytes(size, "little")


def edge_values(rng, name, size, old):
    top = (1 << (8 * size)) - 1
    values = [0, 1, 2, 3, old + 1, old - 1, top, top - 1, top >> 1,
              (top >> 1) + 1, rng.randrange(top + 1)]
    if name in ("m", "w"):
        values += PRIMES + [p * 512 for p in (1, 2, 3)] + [244, 4 * 61, 64, 65]
        # fit: powers of two; fit_partial: 2 words plus pairs, or plus a ceiling's bits
        values += [128, 256, 1024, 1 << 32, 1 << 33, 192, 320, 1152, 64 * 2 + 2048]
    if name in ("k", "d", "copies"):
        values += [64, 65, 1024, 1025, 4096, 65535]
    if name in ("counters", "entries", "key_length", "text_length", "bytes"):
        values += [4, 7, 8, 16, 17, 100, 1000000, 1000001, 0xFFFFFFFF, 750000000]
    if name in ("total", "error", "count", "lower"):
        values += [(1 << 63) - 1, 1 << 63, old * 2, old + 100]
    if name == "scheme":
        values += list(range(10))
    if name == "reserved8":
        values += [1, 2, 0x81]
    if name == "family":
        values += list(range(13))
    if name == "version":
        values += [2, 255]
    return values


def payload_size(kind, data):
    """Payload bytes a header asks for, or None when unreasonably large."""
    if kind == "topk":
        size = field_get(data, 32, 8)
        return size if size <= 16384 else None
    if kind == "bloom":
        count = (field_get(data, 12, 8) + 63) // 64
    else:
        count = field_get(data, 8, 4) * field_get(data, 12, 2) * field_get(data, 14, 2)
    return 8 * count if count <= 2048 else None


def mutate_fit(rng, data):
    """A mutation of a fit filter's flags or a partial state's payload."""
    header = HEADER["bloom"]
    words = (len(data) - header) // 8
    choice = rng.randrange(4) if data[1] == FIT_PARTIAL and words >= 2 else 0
    if choice == 0:
        data[3] = rng.choice([0, 1, 2, 0xFF])
        return "fit-flags"
    if choice == 1:
        data[header:header + 8] = struct.pack("<d", rng.choice(FIT_RATES))
        return "fit-rate"
    if choice == 2:
        data[header + 8:header + 16] = struct.pack("<Q", rng.choice(FIT_CEILINGS))
        return "fit-ceiling"
    pairs = (words - 2) // 2
    if pairs < 2:
        return "fit-pairs-none"
    i, j = rng.sample(range(pairs), 2)
    a, b = header + 16 + 16 * i, header + 16 + 16 * j
    if rng.random() < 0.5:
        data[a:a + 16], data[b:b + 16] = data[b:b + 16], data[a:a + 16]
        return "fit-pairs-swap"
    data[b:b + 16] = data[a:a + 16]
    return "fit-pairs-repeat"


def mutate_once(rng, kind, data, seeds):
    """Apply one mutation in place; returns its name."""
    header = HEADER[kind]
    op = rng.choices(["bitflip", "byte", "field", "resize", "truncate", "extend",
                      "word", "splice", "fit"], [20, 14, 26, 10, 7, 7, 10, 6, 12])[0]
    if op == "fit":
        if kind == "bloom" and len(data) >= header and data[1] in (FIT, FIT_PARTIAL):
            return mutate_fit(rng, data)
        op = "word"
    if len(data) < header and op in ("bitflip", "byte", "field", "resize", "truncate"):
        op = "extend"
    if op == "bitflip":
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(header) if rng.random() < 0.5 else rng.randrange(len(data))
            data[at] ^= 1 << rng.randrange(8)
    elif op == "byte":
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(header) if rng.random() < 0.5 else rng.randrange(len(data))
            data[at] = rng.choice([0, 1, 2, 0x7F, 0x80, 0xFE, 0xFF, rng.randrange(256)])
    elif op in ("field", "resize"):
        fields = FIELDS[kind]
        if op == "resize":
            fields = [f for f in fields if f[0] in ("m", "w", "d", "copies", "k", "bytes")]
        name, offset, size = rng.choice(fields)
        value = rng.choice(edge_values(rng, name, size, field_get(data, offset, size)))
        field_set(data, offset, size, value)
        op = op + ":" + name
        if op.startswith("resize"):
            wanted = payload_size(kind, data)
            if wanted is not None:
                extra = wanted - (len(data) - header)
                if extra < 0:
                    del data[len(data) + extra:]
                else:
                    data.extend(bytes(extra) if rng.random() < 0.7 else rng.randbytes(extra))
    elif op == "truncate":
        del data[rng.randrange(len(data)):]
    elif op == "extend":
        data.extend(bytes(rng.randint(1, 16)) if rng.random() < 0.5
                    else bytes(rng.randrange(256) for _ in range(rng.randint(1, 16))))
    elif op == "word":
        words = (len(data) - header) // 8
        if words > 0:
            at = header + 8 * rng.randrange(words)
            data[at:at + 8] = rng.choice([bytes(8), b"\xff" * 8, rng.randbytes(8),
                                          struct.pack("<Q", rng.randrange(1, 10))])
    else:
        other = rng.choice(seeds)
        data[header:] = other[header:]
    return op


def mutate(rng, kind, seed, seeds):
    data = bytearray(seed)
    ops = [mutate_once(rng, kind, data, seeds)
           for _ in range(1 if rng.random() < 0.85 else rng.randint(2, 3))]
    return bytes(data), "+".join(ops)


def render_text(kind, data):
    """The text form a serialized value would have, whatever its fields say."""
    data = bytes(data) + bytes(max(0, HEADER[kind] - len(data)))
    payload = base64.b64encode(data[HEADER[kind]:]).decode()
    seed = struct.unpack("<q", data[20:28] if kind == "bloom" else data[16:24])[0]

    def family(code, tag):
        if code == 11:
            return "other-%08x" % tag
        return FAMILIES[code] if code < len(FAMILIES) else "unknown"

    if kind == "topk":
        return "topk:v%d:%s:counters=%d:entries=%d:total=%d:error=%d:bytes=%d:%s" % (
            data[0], family(data[1], field_get(data, 4, 4)), field_get(data, 8, 4),
            field_get(data, 12, 4), field_get(data, 16, 8), field_get(data, 24, 8),
            field_get(data, 32, 8), payload)
    if kind == "bloom":
        scheme = SCHEMES[data[1]] if data[1] < len(SCHEMES) else "unknown"
        if data[1] == FIT and 1 <= data[3] <= 3:
            scheme = ["fit_over_ceiling", "fit_mixed", "fit_over_ceiling_mixed"][data[3] - 1]
        return "bloom:v%d:%s:%s:k=%d:m=%d:seed=%d:items=%d:%s" % (
            data[0], scheme,
            family(data[2], field_get(data, 8, 4)), field_get(data, 4, 2),
            field_get(data, 12, 8), seed, field_get(data, 28, 8), payload)
    return "cms:v%d:%s:w=%d:d=%d:copies=%d:seed=%d:total=%d:%s" % (
        data[0], family(data[1], field_get(data, 4, 4)), field_get(data, 8, 4),
        field_get(data, 12, 2), field_get(data, 14, 2), seed, field_get(data, 24, 8),
        payload)


def mutate_text(rng, kind, text):
    """One character-level mutation of a text form; returns (text, op)."""
    op = rng.choice(["number", "token", "version", "char", "delete", "insert",
                     "base64", "truncate", "extend", "separator"])
    if op == "number":
        header = text[:text.rfind(":")]
        fields = list(re.finditer(r"([a-z]+)=(-?[0-9]+)", header))
        m = rng.choice(fields)
        new = rng.choice(["0" + m.group(2), "+" + m.group(2), "-0", "-" + m.group(2),
                          str(int(m.group(2)) + 1), str(int(m.group(2)) - 1),
                          str(1 << 64), str((1 << 64) - 1), str(1 << 63), str(-(1 << 63)),
                          str(-(1 << 63) - 1), "", "1e3", " 1", "0x10",
                          str(rng.choice(PRIMES))])
        text = text[:m.start(2)] + new + text[m.end(2):]
        op += ":" + m.group(1)
    elif op == "token":
        parts = text.split(":")
        at = rng.randrange(2, 4 if kind == "bloom" else 3)
        parts[at] = rng.choice(FAMILIES + SCHEMES + ["other-0000abcd", "other-ABCDEF01",
                                                     "other-", "INTEGER", "", "double ",
                                                     "fit_over_ceiling", "fit_mixed", "fit_over_ceiling_mixed",
                                                     "fit_partial_over_ceiling"])
        text = ":".join(parts)
    elif op == "version":
        text = re.sub(r":v[12]:", ":" + rng.choice(["v0", "v1", "v2", "v3", "v01", "V1", "v", "v256", "v-1"]) + ":",
                      text, count=1)
    elif op == "char":
        at = rng.randrange(len(text))
        text = text[:at] + chr(rng.randrange(1, 128)) + text[at + 1:]
    elif op == "delete":
        at = rng.randrange(len(text))
        text = text[:at] + text[at + rng.randint(1, 4):]
    elif op == "insert":
        at = rng.randrange(len(text) + 1)
        text = text[:at] + rng.choice([":", "=", " ", "\n", "A", "0", "-", "+", "/"]) + text[at:]
    elif op == "base64":
        head, _, payload = text.rpartition(":")
        choice = rng.randrange(5)
        if choice == 0 and payload:
            payload = payload[:-1] + rng.choice("AQgw=+/")
        elif choice == 1:
            payload = payload.rstrip("=")
        elif choice == 2:
            payload += "="
        elif choice == 3 and len(payload) > 4:
            at = rng.randrange(len(payload))
            payload = payload[:at] + rng.choice([" ", "\n", "*", "-", "_"]) + payload[at:]
        else:
            payload = base64.b64encode(rng.randbytes(len(payload) * 3 // 4)).decode()
        text = head + ":" + payload
    elif op == "truncate":
        text = text[:rng.randrange(len(text))]
    elif op == "extend":
        text += rng.choice(["A", "AAAA", "=", ":", "\x01", " "])
    else:
        text = text.replace(":", rng.choice(["::", ";", ""]), 1)
    return text, "text-" + op


def copy_file(attempt_id, value):
    """A binary COPY file of one row (id int4, value)."""
    return (b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0) +
            struct.pack(">hii", 2, 4, attempt_id) + struct.pack(">i", len(value)) + value +
            struct.pack(">h", -1))


def generate(workdir, count, rng_seed):
    rng = random.Random(rng_seed)
    seeds = collections.defaultdict(list)
    texts = collections.defaultdict(list)
    with open(os.path.join(workdir, "seeds.tsv")) as f:
        for line in f:
            kind, hexed, text = line.rstrip("\n").split("\t")
            seeds[kind].append(bytes.fromhex(hexed))
            texts[kind].append(text)
    os.makedirs(os.path.join(workdir, "recv"), exist_ok=True)
    attempt_id = 0
    with open(os.path.join(workdir, "attempts.tsv"), "w") as out:
        for kind in KINDS:
            for i in range(count):
                seed = rng.choice(seeds[kind])
                data, op = mutate(rng, kind, seed, seeds[kind])
                if i % 2 == 0:
                    text, text_op = render_text(kind, data), "rendered-" + op
                else:
                    text, text_op = mutate_text(rng, kind, rng.choice(texts[kind]))
                rows = [("bytea", op, data, ""), ("text", text_op, text.encode(), "")]
                attempt_id += 3
                path = os.path.join(workdir, "recv", "%d.bin" % attempt_id)
                with open(path, "wb") as f:
                    f.write(copy_file(attempt_id, data))
                rows.append(("recv", op, data, path))
                for n, (input_path, name, payload, file) in enumerate(rows):
                    out.write("%d\t%s\t%s\t%s\t%s\t%s\n" % (attempt_id - 2 + n, kind, input_path,
                                                            name, payload.hex(), file))


def report(workdir):
    by_path = collections.Counter()
    post = collections.Counter()
    bad = []
    total = 0
    with open(os.path.join(workdir, "outcomes.tsv")) as f:
        for line in f:
            attempt_id, kind, path, op, state, checked = line.rstrip("\n").split("\t")
            total += 1
            by_path[(kind, path, state)] += 1
            if state == "00000":
                post[(kind, checked)] += 1
            if state not in ALLOWED or (state == "00000" and checked not in ALLOWED_POST):
                bad.append((attempt_id, kind, path, op, state, checked))
    states = sorted({s for (_, _, s) in by_path})
    print("%-6s %-6s" % ("type", "path") + "".join("%8s" % s for s in states) + "   total")
    for kind in KINDS:
        for path in ("bytea", "text", "recv"):
            row = [by_path[(kind, path, s)] for s in states]
            print("%-6s %-6s" % (kind, path) + "".join("%8d" % n for n in row) + "%8d" % sum(row))
    print("checks on accepted values: " +
          ", ".join("%s %s: %d" % (k, c, n) for (k, c), n in sorted(post.items())))
    for row in bad[:20]:
        print("DISALLOWED: id %s %s via %s (%s): SQLSTATE %s, checks %s" % row)
    print("%d attempts, %d disallowed" % (total, len(bad)))
    return 1 if bad or total == 0 else 0


def main(argv):
    if len(argv) == 5 and argv[1] == "generate":
        generate(argv[2], int(argv[3]), int(argv[4]))
        return 0
    if len(argv) == 3 and argv[1] == "report":
        return report(argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
