#!/usr/bin/env python3
"""Checks the dependency rules of docs/layers.md against what the sources include and what the
build links: every folder's C/C++ `#include`s, and every CMake target's link libraries and include
directories (the list the configure step writes to BUILD/layers/targets.tsv), may reach only its
own layer and the layers its row allows. Prints every violation and exits 1 when there is one.

usage: check_layers.py SOURCE_ROOT TARGETS_TSV
"""
import os
import re
import sys

SOURCE_EXTENSIONS = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".inc")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
GENEX = re.compile(r"^\$<[^:>]*:(.*)>$")


def read_rules(root):
    """docs/layers.md's table: folder -> set of folders it may use, or None for everything; and the
    folders whose row says they hold no C++."""
    path = os.path.join(root, "docs", "layers.md")
    rules, no_cxx, in_table = {}, set(), False
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not line.startswith("|"):
                in_table = False
                continue
            if cells[:2] == ["folder", "may use"]:
                in_table = True
                continue
            if not in_table or set(cells[0]) <= set("-: "):
                continue
            folder = cells[0].strip("`").rstrip("/")
            uses = re.findall(r"`([^`]+)`", cells[1])
            if "everything" in cells[1]:
                rules[folder] = None
            else:
                rules[folder] = {u.rstrip("/") for u in uses}
            if "no C++" in cells[1]:
                no_cxx.add(folder)
    if not rules:
        sys.exit(f"check_layers: no rules table ('| folder | may use |') in {path}")
    return rules, no_cxx


def layer_of(rules, root, path):
    """The folder of `rules` that holds `path` (relative paths are under `root`; the longest
    match), or None."""
    path = os.path.join(root, path)
    rel = os.path.relpath(os.path.realpath(path), os.path.realpath(root))
    if rel.startswith(".."):
        return None
    best = None
    for folder in rules:
        if rel == folder or rel.startswith(folder + os.sep):
            if best is None or len(folder) > len(best):
                best = folder
    return best


def include_prefixes(rules, root):
    """'warpforge/NAME/' -> the layer whose include/warpforge/NAME folder provides it."""
    owners = {}
    for folder in rules:
        for dirpath, dirnames, _ in os.walk(os.path.join(root, folder)):
            # A tree of its own inside this one (the checker's test fixture) provides nothing here.
            dirnames[:] = [d for d in dirnames
                           if not os.path.exists(os.path.join(dirpath, d, "docs", "layers.md"))]
            if os.path.basename(dirpath) == "warpforge" and \
                    os.path.basename(os.path.dirname(dirpath)) == "include":
                for name in dirnames:
                    owners.setdefault(f"warpforge/{name}/", set()).add(
                        layer_of(rules, root, os.path.join(dirpath, name)))
    return owners


def allowed(rules, layer, other):
    if other is None or other == layer or rules[layer] is None:
        return True
    return other in rules[layer]


def check_includes(rules, no_cxx, root, errors):
    owners = include_prefixes(rules, root)
    for prefix, layers in owners.items():
        if len(layers) > 1:
            errors.append(f"{prefix} is provided by several layers: {sorted(layers)}")
    for layer, uses in rules.items():
        if uses is None:
            continue
        for dirpath, dirnames, files in os.walk(os.path.join(root, layer)):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            for name in files:
                path = os.path.join(dirpath, name)
                if not name.endswith(SOURCE_EXTENSIONS) or layer_of(rules, root, path) != layer:
                    continue
                if layer in no_cxx:
                    errors.append(f"{os.path.relpath(path, root)}: {layer}/ holds no C or C++")
                    continue
                with open(path, errors="replace") as f:
                    text = f.read()
                for kind, target in INCLUDE.findall(text):
                    other = None
                    prefix = "/".join(target.split("/")[:2]) + "/"
                    if prefix in owners:
                        other = next(iter(owners[prefix]))
                    elif kind == '"':
                        resolved = os.path.join(dirpath, target)
                        if os.path.exists(resolved):
                            other = layer_of(rules, root, resolved)
                    if not allowed(rules, layer, other):
                        errors.append(f"{os.path.relpath(path, root)} includes {target}, which is "
                                      f"{other}/; {layer}/ may use only {sorted(rules[layer])}")


def check_targets(rules, root, tsv, errors):
    targets = {}
    with open(tsv) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if len(fields) != 4:
                continue
            name, folder, links, incs = fields
            targets[name] = (folder, [x for x in links.split(";") if x],
                             [x for x in incs.split(";") if x])
    if not targets:
        errors.append(f"{tsv} lists no targets")
    for name, (folder, links, incs) in sorted(targets.items()):
        layer = layer_of(rules, root, folder)
        if layer is None or rules[layer] is None:
            continue
        for item in links:
            m = GENEX.match(item)
            item = m.group(1) if m else item
            if item not in targets:
                continue  # an outside library (fmt, SystemC, ...) or a linker flag
            other = layer_of(rules, root, targets[item][0])
            if not allowed(rules, layer, other):
                errors.append(f"target {name} ({layer}/) links {item}, which is {other}/; "
                              f"{layer}/ may use only {sorted(rules[layer])}")
        for inc in incs:
            m = GENEX.match(inc)
            inc = m.group(1) if m else inc
            other = layer_of(rules, root, inc)
            if not allowed(rules, layer, other):
                errors.append(f"target {name} ({layer}/) includes from {inc}, which is {other}/; "
                              f"{layer}/ may use only {sorted(rules[layer])}")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, tsv = os.path.abspath(sys.argv[1]), sys.argv[2]
    rules, no_cxx = read_rules(root)
    for layer, uses in rules.items():
        for u in uses or ():
            if u not in rules:
                sys.exit(f"check_layers: docs/layers.md: {layer}/ may use '{u}', which is no row")
    errors = []
    check_includes(rules, no_cxx, root, errors)
    check_targets(rules, root, tsv, errors)
    for e in errors:
        print("layer violation: " + e)
    if errors:
        return 1
    print(f"check_layers: {len(rules)} layers, no violation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
