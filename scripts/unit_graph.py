#!/usr/bin/env python3
"""The graph of the C units under src/, and its circles.

A unit is a .c file and the header of the same name beside it (a header
without a .c, or a .c without a header, is a unit alone).  Unit A depends on
unit B when a file of A includes a header of B, when A's object file needs a
symbol that B's object file defines (nm), or when an inline function or macro
in a header of A calls a function that B's object file defines.  The units
are meant to form layers: a circle means two units cannot be read, tested or
moved one without the other.

    scripts/unit_graph.py [ROOT]              exit 1 and print each circle found
    scripts/unit_graph.py --edges [ROOT]      print the edges too
    scripts/unit_graph.py --under core [ROOT] only the units under src/core

The last line names the folders whose units were checked.

The objects must be built (make) first: a .c without its .o is an error.
"""

import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
DEFINED = set("TDBRVWtdbr") - set("tdbr")  # global definitions only


def strip_comments(text):
    """The text without comments and string literals, line breaks kept."""
    pattern = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
    return pattern.sub(lambda m: "\n" * m.group(0).count("\n") if m.group(0)[0] == "/" else '""', text)


def header_calls(text):
    """Names called inside function bodies and macros of a header."""
    text = strip_comments(text)
    names = set()
    depth = 0
    for line in text.split("\n"):
        if line.lstrip().startswith("#"):
            if re.match(r"\s*#\s*define\b", line):
                names.update(CALL.findall(line.split(None, 2)[-1] if line.count(" ") else ""))
            continue
        for part in re.split(r"([{}])", line):
            if part == "{":
                depth += 1
            elif part == "}":
                depth -= 1
            elif depth > 0:
                names.update(CALL.findall(part))
    return names


def nm_symbols(obj):
    """(defined, undefined) global symbol names of an object file."""
    out = subprocess.run(["nm", obj], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[0] == "U":
            undefined.add(fields[1])
        elif len(fields) == 3 and fields[1] in DEFINED:
            defined.add(fields[2])
    return defined, undefined


def collect_units(src, under):
    """unit name -> list of its files, for every .c and .h under src/<under>."""
    units = {}
    for dirpath, _dirs, files in os.walk(os.path.join(src, under)):
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                path = os.path.join(dirpath, name)
                unit = os.path.relpath(path[:-2], src)
                units.setdefault(unit, []).append(path)
    return units


def build_graph(root, under):
    src = os.path.join(root, "src")
    units = collect_units(src, under)
    header_unit = {}
    for unit, files in units.items():
        for path in files:
            if path.endswith(".h"):
                header_unit[os.path.normpath(path)] = unit
    definer, needs, missing = {}, {}, []
    for unit, files in units.items():
        for path in files:
            if path.endswith(".c"):
                obj = path[:-2] + ".o"
                if not os.path.exists(obj):
                    missing.append(obj)
                    continue
                defined, undefined = nm_symbols(obj)
                for symbol in defined:
                    definer[symbol] = unit
                needs.setdefault(unit, set()).update(undefined)
    if missing:
        sys.exit("unit_graph: build first (make), objects missing: " + " ".join(missing))
    edges = {unit: {} for unit in units}

    def add(a, b, why):
        if a != b:
            edges[a].setdefault(b, why)

    for unit, files in units.items():
        for path in files:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for inc in INCLUDE.findall(strip_comments_keep_includes(text)):
                for base in [os.path.dirname(path), os.path.join(src, "core"), os.path.join(src, "pg")]:
                    target = os.path.normpath(os.path.join(base, inc))
                    if target in header_unit:
                        add(unit, header_unit[target], "includes " + inc)
                        break
            if path.endswith(".h"):
                for name in header_calls(text):
                    if name in definer:
                        add(unit, definer[name], "inline code calls " + name)
        for symbol in sorted(needs.get(unit, ())):
            if symbol in definer:
                add(unit, definer[symbol], "calls " + symbol)
    return edges


def strip_comments_keep_includes(text):
    """Comments removed but the quoted names of #include lines kept."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)


def find_cycles(edges):
    """The strongly connected components of more than one unit (Tarjan)."""
    index, low, stack, on_stack, components = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return components


def one_circle(edges, component):
    """A shortest circle through the first unit of a component."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v]):
            if w not in members:
                continue
            if w == start:
                return paths[v] + [start]
            if w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    return component


def main(argv):
    show_edges = "--edges" in argv
    args = [a for a in argv if a != "--edges"]
    under = ""
    if args[:1] == ["--under"]:
        under, args = args[1], args[2:]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    edges = build_graph(root, under)
    if show_edges:
        for a in sorted(edges):
            for b, why in sorted(edges[a].items()):
                print(f"{a} -> {b}  ({why})")
    components = find_cycles(edges)
    for component in components:
        circle = one_circle(edges, component)
        steps = [f"{a} -> {b} ({edges[a][b]})" for a, b in zip(circle, circle[1:])]
        print(f"circle among {len(component)} units: {' '.join(component)}")
        for step in steps:
            print("    " + step)
    units = len(edges)
    count = sum(len(v) for v in edges.values())
    folders = ", ".join(sorted({"src/" + os.path.dirname(unit) for unit in edges}))
    if components:
        print(f"{len(components)} circles among {units} units and {count} edges in {folders}")
        return 1
    print(f"no circle among {units} units and {count} edges in {folders}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
