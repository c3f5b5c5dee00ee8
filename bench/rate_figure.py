#!/usr/bin/python3
"""rate_figure.py — the figure of bench/rate_study's run, and the refresh of
the generated tables in docs/research/rates.md.

  rates.png  one column of panels per requested rate: on top the measured
             rate over the requested one against n for the six schemes, with
             the 99.9% interval of each measurement; below, the measured rate
             over bloom_expected_fpr (filled) and over bloom_fpr (hollow).

--tables FILE --doc DOC replaces the text between the lines
"<!-- rate-tables:begin -->" and "<!-- rate-tables:end -->" of DOC by FILE
(the markdown that rate_study printed).

Needs Debian's python3-matplotlib (run with /usr/bin/python3).
"""
import argparse
import csv
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

Z_999 = 3.2905267314919255
SCHEMES = ["double", "double_square", "double_cube", "partition", "independent", "blocked"]


def read_cells(path):
    with open(path, newline="") as f:
        return [row for row in csv.DictReader(f) if row["refused"] == "0"]


def reach(row, rate):
    """Half-width of the 99.9% interval of the count, relative to its mean."""
    probes = float(row["probes"])
    mean = probes * rate
    variance = max(mean * (1 - rate), float(row["spread"]))
    return Z_999 * math.sqrt(variance) / mean if mean > 0 else 0


def draw(cells, path):
    rates = sorted({float(c["fpr"]) for c in cells}, reverse=True)
    fig, axes = plt.subplots(2, len(rates), figsize=(4 * len(rates), 7), sharex=True, squeeze=False)
    for col, fpr in enumerate(rates):
        top, bottom = axes[0][col], axes[1][col]
        for i, scheme in enumerate(SCHEMES):
            rows = sorted((c for c in cells if c["scheme"] == scheme and float(c["fpr"]) == fpr),
                          key=lambda c: int(c["n"]))
            if not rows:
                continue
            n = [int(c["n"]) * (1 + 0.04 * (i - 2.5)) for c in rows]
            measured = [float(c["positives"]) / float(c["probes"]) for c in rows]
            color = f"C{i}"
            top.errorbar(n, [m / fpr for m in measured],
                         yerr=[reach(c, fpr) for c in rows], fmt="o-", ms=3, color=color,
                         label=scheme, capsize=2)
            bottom.plot(n, [m / float(c["expected"]) for m, c in zip(measured, rows)],
                        "o-", ms=3, color=color)
            bottom.plot(n, [m / float(c["estimated"]) for m, c in zip(measured, rows)],
                        "o--", ms=4, mfc="none", color=color)
        for ax in (top, bottom):
            ax.set_xscale("log")
            ax.axhline(1, color="grey", lw=0.8)
            ax.grid(True, which="major", alpha=0.3)
        top.set_title(f"requested rate {fpr:g}")
        bottom.set_xlabel("n (items at capacity)")
        if col == 0:
            top.set_ylabel("measured / requested")
            bottom.set_ylabel("measured / bloom_expected_fpr (filled)\nmeasured / bloom_fpr (hollow)")
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def refresh_doc(tables, doc):
    with open(tables) as f:
        generated = f.read().strip()
    with open(doc) as f:
        text = f.read()
    begin, end = "<!-- rate-tables:begin -->", "<!-- rate-tables:end -->"
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(doc, "w") as f:
        f.write(f"{head}{begin}\n{generated}\n{end}{tail}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cells", required=True)
    parser.add_argument("--figure", required=True)
    parser.add_argument("--tables")
    parser.add_argument("--doc")
    args = parser.parse_args()
    draw(read_cells(args.cells), args.figure)
    if args.tables and args.doc:
        refresh_doc(args.tables, args.doc)


if __name__ == "__main__":
    main()
