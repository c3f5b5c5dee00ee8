#!/usr/bin/python3
"""km_figures.py — figures of bench/km_experiment's run of Kirsch and
Mitzenmacher's experiment (TR-02-05, 2006, section 8), from its CSV files,
and the refresh of the generated tables in docs/research/km_experiment.md.

  km_figure1.png  like the paper's Figure 1: for each n a column of panels:
                  the measured rate against c for the six schemes, with p
                  and the model rates; the same rates divided by p; and the
                  measured rate against the scheme's model rate in percent,
                  with the 99.9% interval of the table.
  km_figure2.png  like the paper's Figure 2: histograms of the per-trial
                  false-positive count Q for n = 5000, c = 8, partition and
                  double_square, against f = T phi_{Qp, Qp(1-p)} (section 8:
                  T trials, Q = ceil(10/p) queries), and against the normal
                  density with the measured mean and variance.

--tables FILE --doc DOC replaces the text between the lines
"<!-- km-tables:begin -->" and "<!-- km-tables:end -->" of DOC by FILE
(the markdown that km_experiment printed).

Needs Debian's python3-matplotlib (run with /usr/bin/python3).
"""
import argparse
import csv
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SCHEMES = ["double", "double_square", "double_cube", "partition",
           "independent", "blocked"]
MARKERS = {"double": "o", "double_square": "s", "double_cube": "D",
           "partition": "^", "independent": "v", "blocked": "P"}
COLOURS = {"double": "tab:blue", "double_square": "tab:orange",
           "double_cube": "tab:green", "partition": "tab:red",
           "independent": "tab:purple", "blocked": "tab:brown"}
Z_999 = 3.2905267314919255


def read_csv(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def figure1(cells, path):
    ns = sorted({int(row["n"]) for row in cells})
    fig, axes = plt.subplots(3, len(ns), figsize=(5.4 * len(ns), 12),
                             squeeze=False, sharex=True)
    for col, n in enumerate(ns):
        rows = [row for row in cells if int(row["n"]) == n]
        cs = sorted({int(row["c"]) for row in rows})
        trials = int(rows[0]["trials"])
        top, middle, bottom = axes[0][col], axes[1][col], axes[2][col]
        p_of_c = {int(row["c"]): float(row["p"]) for row in rows}
        top.plot(cs, [p_of_c[c] for c in cs], "k-", lw=1.2,
                 label=r"$p = (1 - e^{-k/c})^k$")
        middle.axhline(1.0, color="k", lw=1.2)
        bottom.axhline(0.0, color="k", lw=1.2)
        for index, scheme in enumerate(SCHEMES):
            mine = sorted((row for row in rows if row["scheme"] == scheme),
                          key=lambda row: int(row["c"]))
            if not mine:
                continue
            shift = (index - 2.5) * 0.22
            x = [int(row["c"]) + shift for row in mine]
            rate = [float(row["measured_rate"]) for row in mine]
            err = [Z_999 * float(row["se_measured"]) for row in mine]
            model = [float(row["model_rate"]) for row in mine]
            p = [float(row["p"]) for row in mine]
            half = [float(row["half_width_999"]) for row in mine]
            style = dict(fmt=MARKERS[scheme], ms=5, color=COLOURS[scheme],
                         capsize=2)
            top.errorbar(x, rate, yerr=err, label=scheme, **style)
            top.plot(x, model, "_", ms=12, mew=1.5, color=COLOURS[scheme])
            middle.errorbar(x, [r / q for r, q in zip(rate, p)],
                            yerr=[e / q for e, q in zip(err, p)], **style)
            middle.plot(x, [r / q for r, q in zip(model, p)], "_", ms=12,
                        mew=1.5, color=COLOURS[scheme])
            bottom.errorbar(x, [100 * (r / q - 1) for r, q in zip(rate, model)],
                            yerr=[100 * h / q for h, q in zip(half, model)],
                            **style)
            km = [(xi, float(row["km_rate"]), float(row["p"]),
                   float(row["model_rate"]))
                  for xi, row in zip(x, mine) if row["km_rate"]]
            if km:
                middle.plot([a for a, _, _, _ in km], [b / q for _, b, q, _ in km],
                            "x", ms=7, color=COLOURS[scheme])
                bottom.plot([a for a, _, _, _ in km],
                            [100 * (b / r - 1) for _, b, _, r in km],
                            "x", ms=7, color=COLOURS[scheme])
        top.set_yscale("log")
        top.set_title(f"n = {n:,}: {trials:,} trials, ⌈10/p⌉ queries each",
                      fontsize=10)
        top.set_ylabel("false-positive rate")
        top.grid(True, which="both", alpha=0.3)
        middle.set_ylabel("rate / p")
        middle.grid(True, alpha=0.3)
        bottom.set_ylabel("(measured − model) / model, %")
        bottom.set_xlabel("c = m / n")
        bottom.set_xticks(cs)
        bottom.grid(True, alpha=0.3)
        if col == 0:
            top.legend(fontsize=8, loc="lower left")
    fig.suptitle("Kirsch–Mitzenmacher experiment (TR-02-05 §8, Figure 1) on "
                 "bloomsketch's six probing schemes\n"
                 "top and middle: measured rate (bars: 3.29 SE across trials), "
                 "dashes: the scheme's model rate, ×: exact KM rate with the "
                 "Θ(1/n) term;\nbottom: measured against the model, bars: the "
                 "99.9% interval of the table (3.29 max(binomial SE, SE across "
                 "trials))", fontsize=9)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def normal_curve(mean, var, trials, lo, hi):
    xs = [lo + (hi - lo) * i / 400 for i in range(401)]
    sd = math.sqrt(var)
    ys = [trials * math.exp(-(x - mean) ** 2 / (2 * var)) /
          (sd * math.sqrt(2 * math.pi)) for x in xs]
    return xs, ys


def figure2(hist, path, n=5000, c=8, schemes=("partition", "double_square")):
    fig, axes = plt.subplots(1, len(schemes), figsize=(6 * len(schemes), 4.6),
                             squeeze=False)
    for ax, scheme in zip(axes[0], schemes):
        rows = [row for row in hist if int(row["n"]) == n
                and int(row["c"]) == c and row["scheme"] == scheme]
        if not rows:
            ax.set_title(f"{scheme}: no data for n = {n}, c = {c}")
            continue
        trials = int(rows[0]["trials"])
        queries = int(rows[0]["queries_per_trial"])
        p = float(rows[0]["p"])
        k = int(rows[0]["k"])
        counts = {int(row["false_positives_in_trial"]):
                  int(row["trials_with_that_count"]) for row in rows}
        qs = sorted(counts)
        mean = sum(q * counts[q] for q in qs) / trials
        var = sum((q - mean) ** 2 * counts[q] for q in qs) / (trials - 1)
        ax.bar(qs, [counts[q] for q in qs], width=1.0, color="lightsteelblue",
               edgecolor="steelblue", label="trials with Q false positives")
        lo, hi = max(min(qs) - 2, -0.5), max(qs) + 2
        xs, ys = normal_curve(queries * p, queries * p * (1 - p), trials, lo, hi)
        ax.plot(xs, ys, "k-", lw=1.5,
                label=f"f = {trials:,} φ(Qp, Qp(1−p)), Q = {queries}, "
                      f"p = {p:.6f} (§8)")
        xs, ys = normal_curve(mean, var, trials, lo, hi)
        ax.plot(xs, ys, "r--", lw=1.2,
                label=f"normal, measured mean {mean:.2f}, variance {var:.2f}")
        ax.set_title(f"{scheme}: n = {n:,}, c = {c}, k = {k}; "
                     f"Qp = {queries * p:.2f}, Qp(1−p) = "
                     f"{queries * p * (1 - p):.2f}", fontsize=10)
        ax.set_xlabel("false positives Q in a trial")
        ax.set_ylabel("trials")
        ax.set_ylim(0, 1.45 * max(counts.values()))
        ax.legend(fontsize=8, loc="upper right")
        ax.grid(True, alpha=0.3)
    fig.suptitle("Distribution of the per-trial false-positive count "
                 "(TR-02-05 §8, Figure 2)", fontsize=11)
    fig.tight_layout(rect=(0, 0, 1, 0.94))
    fig.savefig(path, dpi=110)
    plt.close(fig)


BEGIN = "<!-- km-tables:begin -->"
END = "<!-- km-tables:end -->"


def splice(tables_path, doc_path):
    with open(tables_path) as handle:
        tables = handle.read().rstrip("\n")
    with open(doc_path) as handle:
        doc = handle.read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"km_figures.py: {doc_path} has no {BEGIN} ... {END} block")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(doc_path, "w") as handle:
        handle.write(head + BEGIN + "\n" + tables + "\n" + END + tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", required=True)
    parser.add_argument("--histograms", required=True)
    parser.add_argument("--figures", required=True,
                        help="directory for km_figure1.png, km_figure2.png")
    parser.add_argument("--tables")
    parser.add_argument("--doc")
    args = parser.parse_args()
    figure1(read_csv(args.cells), os.path.join(args.figures, "km_figure1.png"))
    figure2(read_csv(args.histograms),
            os.path.join(args.figures, "km_figure2.png"))
    if args.tables and args.doc:
        splice(args.tables, args.doc)


if __name__ == "__main__":
    main()
