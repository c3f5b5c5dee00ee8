#!/usr/bin/env python3
"""No comment, doc or metadata counts the extension's types wrong.

The number of types is read from the install scripts: every CREATE TYPE with
INTERNALLENGTH = VARIABLE, that is a sketch type with a C input function of
its own (bloomsketch_literal, LIKE = text, is a helper, not one of them).
Every "two types", "both types", "either type", "three sketch types"... in
the files git tracks must then say that number.  CHANGELOG lines in the
sections of released versions are history and are left alone.

Usage: python3 test/harness/type_count_words.py [repository root]
Prints one line per wrong count and exits 1 if there is any.
"""
import pathlib
import re
import subprocess
import sys

NUMBER_WORDS = {"one": 1, "two": 2, "both": 2, "either": 2, "three": 3,
                "four": 4, "five": 5, "1": 1, "2": 2, "3": 3, "4": 4, "5": 5}
# Comment leaders and line breaks may fall between the words.
GAP = r"(?:\s|\*|#|--|//)+"
QUALIFIER = r"(?:(?:sketch|summary|data|value|sql|extension|new)" + GAP + r")?"
# "two types", "both sketch types", "Two types", "either type"; "one type" is
# about values of a single SQL type, so it is left out.
COUNTED = re.compile(
    r"\b(two|both|three|four|five|2|3|4|5)" + GAP + r"(?:of" + GAP + r"the" + GAP + r")?"
    + QUALIFIER + r"types\b|\b(either)" + GAP + QUALIFIER + r"type\b",
    re.IGNORECASE)
CREATE_TYPE = re.compile(r"CREATE\s+TYPE\s+(\w+)\s*\(([^;]*)\);", re.IGNORECASE)


def sketch_types(root):
    """The types the install scripts create with a variable length of their own."""
    names = []
    for script in sorted((root / "sql").glob("bloomsketch--*.sql")):
        for match in CREATE_TYPE.finditer(script.read_text(encoding="utf-8")):
            # (a type is in both the complete script and the one that created it)
            if (re.search(r"INTERNALLENGTH\s*=\s*VARIABLE", match.group(2), re.IGNORECASE)
                    and match.group(1) not in names):
                names.append(match.group(1))
    return names


def released_history_spans(text):
    """Character spans of CHANGELOG sections of released versions (not 'unreleased')."""
    headings = [(m.start(), m.group(0)) for m in re.finditer(r"^## .*$", text, re.MULTILINE)]
    spans = []
    for i, (start, heading) in enumerate(headings):
        end = headings[i + 1][0] if i + 1 < len(headings) else len(text)
        if "unreleased" not in heading.lower():
            spans.append((start, end))
    return spans


def source_files(root):
    """The files git tracks; in a copy without .git (scripts/test.sh's chroots),
    the tree less what builds and test runs leave behind."""
    try:
        return subprocess.run(["git", "-C", str(root), "ls-files"], check=True,
                              capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        pass
    names = []
    for path in sorted(root.rglob("*")):
        name = path.relative_to(root).as_posix()
        if (name.split("/")[0] in (".git", "results") or name.startswith("test/fuzz/")
                or path.suffix in (".o", ".so", ".bc", ".log")
                or re.fullmatch(r"regression\.\w+|test/[^/]*\.out", name)):
            continue
        names.append(name)
    return names


def wrong_counts(root, expected):
    files = source_files(root)
    problems = []
    for name in files:
        path = root / name
        # (this script names the wrong counts it looks for)
        if (not path.is_file() or path.suffix in (".png", ".dump", ".tsv", ".csv")
                or name == "test/harness/type_count_words.py"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        skip = released_history_spans(text) if name == "CHANGELOG.md" else []
        for match in COUNTED.finditer(text):
            if any(a <= match.start() < b for a, b in skip):
                continue
            word = (match.group(1) or match.group(2)).lower()
            if NUMBER_WORDS[word] != expected:
                line = text.count("\n", 0, match.start()) + 1
                phrase = " ".join(match.group(0).split())
                problems.append(f"{name}:{line}: '{phrase}' counts {NUMBER_WORDS[word]}, "
                                f"the extension has {expected}")
    return problems


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else
                        pathlib.Path(__file__).resolve().parents[2])
    types = sketch_types(root)
    if not types:
        print("no CREATE TYPE ... INTERNALLENGTH = VARIABLE found in sql/bloomsketch--*.sql")
        return 1
    problems = wrong_counts(root, len(types))
    for problem in problems:
        print(problem)
    print(f"{len(types)} types ({', '.join(types)}); "
          f"{len(problems)} place(s) counting them wrong")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
