"""Damaged copies of valid values, for the validator tests: each a valid
binary form with a few bytes changed, some truncated or extended."""

import csv
import os
import random

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")


def _column(name, column):
    with open(os.path.join(ROOT, "docs", "vectors", name), encoding="utf-8", newline="") as f:
        return [r[column] for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)]


def seeds(kind):
    """Valid values of a type, as text: from the vectors."""
    if kind == "bloomfilter":
        return _column("bloom_filters.tsv", "text") + _column("fit_filters.tsv", "text")
    if kind == "cmsketch":
        return _column("cms_sketches.tsv", "text")
    return _column("topk_summaries.tsv", "text")


def mutate(data, rnd):
    """A few changed bytes (in the header more often), or a cut or an extension."""
    data = bytearray(data)
    choice = rnd.random()
    if choice < 0.1:
        return bytes(data[:rnd.randrange(len(data))])
    if choice < 0.15:
        return bytes(data) + bytes(rnd.randrange(1, 9))
    for _ in range(rnd.choice((1, 1, 2, 3))):
        at = rnd.randrange(min(len(data), 48)) if rnd.random() < 0.7 else rnd.randrange(len(data))
        data[at] = rnd.choice((0, 1, 2, 0x80, 0xFF, data[at] ^ (1 << rnd.randrange(8)), rnd.randrange(256)))
    return bytes(data)


def mutations(kind, binary_of, count, seed=41):
    rnd = random.Random(seed)
    bases = [binary_of(text) for text in seeds(kind)]
    return [mutate(rnd.choice(bases), rnd) for _ in range(count)]


TEXT_CHARS = "0123456789-+:=/Aaxv "


def text_mutations(kind, count, seed=43):
    """Texts with one character changed, inserted or removed."""
    rnd = random.Random(seed)
    bases = seeds(kind)
    out = []
    for _ in range(count):
        text = rnd.choice(bases)
        at = rnd.randrange(len(text))
        op = rnd.random()
        if op < 0.6:
            text = text[:at] + rnd.choice(TEXT_CHARS) + text[at + 1:]
        elif op < 0.8:
            text = text[:at] + rnd.choice(TEXT_CHARS) + text[at:]
        else:
            text = text[:at] + text[at + 1:]
        out.append(text)
    return out
