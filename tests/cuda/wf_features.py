#!/usr/bin/env python3
"""Generate the CUDA feature table from tests/cuda/features.toml and the WF-* metadata of the programs.

    python3 tests/cuda/wf_features.py OUTPUT.md            write the page
    python3 tests/cuda/wf_features.py OUTPUT.md --check    exit 1 if OUTPUT.md is not what would be written
    python3 tests/cuda/wf_features.py --validate           only check the metadata (no page)
    python3 tests/cuda/wf_features.py --list-json          print every program's metadata as JSON (for CTest)

Options: --devices func,cycle,rtl  the device columns (default: func,cycle,rtl, plus every results file found)
         --results DIR             where the per-device results live (default: tests/cuda/results)

Results: DIR/<device>.txt, one line per program, tab-separated, "chapter/name<TAB>STATUS[<TAB>...]", the format
run_real_gpu.sh writes to results.tsv. STATUS PASS counts as passing; anything else (FAIL, TIMEOUT,
BUILD_FAIL, OUTPUT_MISMATCH, SKIP, ...) does not. Lines starting with '#' are ignored.

A feature is "supported" on a device when every program that names it passes there, "partial" when some do,
and "not yet" when none does or the device has no results. The generator fails (exit 1) when a program names
a feature that features.toml does not define, when a feature has no program, or when metadata is malformed.
"""
import argparse
import json
import os
import re
import sys

try:
    import tomllib  # Python 3.11+
except ModuleNotFoundError:  # pragma: no cover - older Pythons
    tomllib = None

HERE = os.path.dirname(os.path.abspath(__file__))
CHAPTERS = ["thread_hierarchy", "memory", "sync", "atomics", "warp", "coop_groups", "arithmetic", "language", "runtime",
            "textures", "apps"]
CHAPTER_TITLES = {
    "thread_hierarchy": "Thread hierarchy", "memory": "Memory", "sync": "Synchronization", "atomics": "Atomics",
    "warp": "Warp functions", "coop_groups": "Cooperative groups", "arithmetic": "Arithmetic", "language": "Language",
    "runtime": "Runtime", "textures": "Textures and surfaces", "apps": "Applications",
}
DEFAULT_DEVICES = ["func", "cycle", "rtl"]
META_RE = re.compile(r"^//\s*WF-([A-Z-]+):\s*(.*?)\s*$")
KNOWN_KEYS = {"CHAPTER", "FEATURES", "DESCRIPTION", "WAITS-FOR", "EXPECTED-OUTPUT", "NVCC-FLAGS"}


def load_toml(path):
    if tomllib is not None:
        with open(path, "rb") as f:
            return tomllib.load(f)
    # Minimal fallback for the restricted format of features.toml: "id" = { k = "v", ... } under [features].
    data = {"features": {}}
    entry = re.compile(r'^"([^"]+)"\s*=\s*\{(.*)\}\s*$')
    field = re.compile(r'(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"')
    with open(path) as f:
        for line in f:
            m = entry.match(line.strip())
            if m:
                data["features"][m.group(1)] = {k: v.replace('\\"', '"').replace("\\\\", "\\") for k, v in field.findall(m.group(2))}
    return data


def read_programs(errors):
    programs = []
    for chapter in sorted(os.listdir(HERE)):
        d = os.path.join(HERE, chapter)
        if not os.path.isdir(d) or chapter in ("common", "results", "__pycache__"):
            continue
        for fn in sorted(os.listdir(d)):
            if not fn.endswith(".cu"):
                continue
            path = os.path.join(d, fn)
            meta = {}
            with open(path) as f:
                for line in f:
                    if not line.startswith("//"):
                        break  # the metadata block is the leading comment block
                    m = META_RE.match(line)
                    if m:
                        key, value = m.group(1), m.group(2)
                        if key not in KNOWN_KEYS:
                            errors.append("%s: unknown metadata key WF-%s" % (path, key))
                        if key in meta:
                            errors.append("%s: WF-%s given twice" % (path, key))
                        meta[key] = value
            name = "%s/%s" % (chapter, fn[:-3])
            prog = {
                "name": name,
                "path": os.path.relpath(path, HERE),
                "chapter": meta.get("CHAPTER", ""),
                "features": [x.strip() for x in meta.get("FEATURES", "").split(",") if x.strip()],
                "description": meta.get("DESCRIPTION", ""),
                "waits_for": [x.strip() for x in meta.get("WAITS-FOR", "").split(",") if x.strip()],
                "expected_output": meta.get("EXPECTED-OUTPUT", ""),
                "nvcc_flags": meta.get("NVCC-FLAGS", ""),
            }
            for key in ("CHAPTER", "FEATURES", "DESCRIPTION"):
                if not meta.get(key):
                    errors.append("%s: missing WF-%s" % (path, key))
            if prog["chapter"] and prog["chapter"] != chapter:
                errors.append("%s: WF-CHAPTER %s but the program is in %s/" % (path, prog["chapter"], chapter))
            if chapter not in CHAPTERS:
                errors.append("%s: folder %s is not a chapter (%s)" % (path, chapter, ", ".join(CHAPTERS)))
            if prog["expected_output"] and not os.path.isfile(os.path.join(d, prog["expected_output"])):
                errors.append("%s: WF-EXPECTED-OUTPUT %s does not exist" % (path, prog["expected_output"]))
            if len(set(prog["features"])) != len(prog["features"]):
                errors.append("%s: a feature is listed twice" % path)
            programs.append(prog)
    return programs


def read_results(results_dir):
    results = {}
    if not os.path.isdir(results_dir):
        return results
    for fn in sorted(os.listdir(results_dir)):
        if not fn.endswith(".txt"):
            continue
        device = fn[:-4]
        status = {}
        with open(os.path.join(results_dir, fn)) as f:
            for line in f:
                line = line.rstrip("\n")
                if not line.strip() or line.startswith("#"):
                    continue
                cols = line.split("\t")
                if len(cols) >= 2:
                    status[cols[0].strip()] = cols[1].strip()
        results[device] = status
    # A device with no results file of its own but results for routes (DEVICE-ROUTE files) passes a
    # program only when every route passes it: the device column means "all routes".
    routes = {}
    for name in results:
        if "-" in name:
            routes.setdefault(name.split("-", 1)[0], []).append(results[name])
    for device, per_route in routes.items():
        if device in results:
            continue
        names = set().union(*(r.keys() for r in per_route))
        results[device] = {n: ("PASS" if all(r.get(n) == "PASS" for r in per_route) else "FAIL")
                           for n in names}
    return results


def feature_status(tests, device_results):
    if device_results is None or not tests:
        return "not yet"
    passed = sum(1 for t in tests if device_results.get(t) == "PASS")
    if passed == len(tests):
        return "supported"
    return "partial" if passed else "not yet"


def render(features, programs, results, devices, out_path):
    by_feature = {fid: [] for fid in features}
    waits = {}
    for p in programs:
        for fid in p["features"]:
            if fid in by_feature:
                by_feature[fid].append(p["name"])
        if p["waits_for"]:
            waits[p["name"]] = p["waits_for"]
    page_dir = os.path.dirname(os.path.abspath(out_path))
    link_base = os.path.relpath(HERE, page_dir)
    lines = [
        "# CUDA feature table",
        "",
        "Generated by `tests/cuda/wf_features.py` from `tests/cuda/features.toml` and the `WF-*` metadata of the",
        "programs in `tests/cuda/`; do not edit by hand. A feature is **supported** on a device when every program",
        "that names it passes there, **partial** when some do, and **not yet** when none does or the device has no",
        "results (`tests/cuda/results/<device>.txt`). Programs marked *waits for* depend on a later part of Warpforge.",
        "",
        "Columns: `func`, `cycle` and `rtl` are the devices with every route of the corpus (clang with `warpforge",
        "run`, nvcc with the drop-in libcudart, the driver API); a column named `DEVICE-ROUTE` counts one route only",
        "(`func-clang`: `warpforge run`; `func-nvcc`: nvcc-built programs with Warpforge's libcudart; `func-driver`:",
        "the same executables with their kernels loaded and launched through the driver API; each recorded by",
        "`tests/cuda/collect_results.sh`). A device column with route columns passes a program only when every",
        "route does.",
        "",
        "## Summary",
        "",
        "| chapter | features | programs | " + " | ".join("%s supported" % d for d in devices) + " |",
        "| --- | --- | --- | " + " | ".join("---" for _ in devices) + " |",
    ]
    for ch in CHAPTERS:
        fids = [f for f in sorted(features) if features[f]["chapter"] == ch]
        progs = [p for p in programs if p["chapter"] == ch]
        cells = []
        for d in devices:
            n = sum(1 for f in fids if feature_status(by_feature[f], results.get(d)) == "supported")
            cells.append("%d / %d" % (n, len(fids)))
        lines.append("| %s | %d | %d | %s |" % (CHAPTER_TITLES[ch], len(fids), len(progs), " | ".join(cells)))
    total_cells = []
    for d in devices:
        n = sum(1 for f in features if feature_status(by_feature[f], results.get(d)) == "supported")
        total_cells.append("%d / %d" % (n, len(features)))
    lines.append("| **all** | %d | %d | %s |" % (len(features), len(programs), " | ".join(total_cells)))
    for ch in CHAPTERS:
        lines += ["", "## %s" % CHAPTER_TITLES[ch], "",
                  "| feature | title | reference | " + " | ".join(devices) + " | proved by |",
                  "| --- | --- | --- | " + " | ".join("---" for _ in devices) + " | --- |"]
        for fid in sorted(f for f in features if features[f]["chapter"] == ch):
            feat = features[fid]
            tests = sorted(by_feature[fid])
            links = []
            for t in tests:
                label = "[%s](%s/%s.cu)" % (t, link_base, t)
                if t in waits:
                    label += " (waits for %s)" % ", ".join(waits[t])
                links.append(label)
            statuses = [feature_status(tests, results.get(d)) for d in devices]
            lines.append("| `%s` | %s | %s | %s | %s |" % (fid, feat["title"].replace("|", "\\|"), feat["ref"].replace("|", "\\|"),
                                                      " | ".join(statuses), "<br>".join(links)))
    lines += unsupported_section()
    return "\n".join(lines) + "\n"


UNSUPPORTED_DEF = os.path.join(HERE, "..", "..", "runtime", "cudart", "unsupported.def")


def unsupported_section():
    """One row per group of runtime/cudart/unsupported.def: the entry points that are exported but
    answer CUDA's not-supported code, with the group's reason."""
    text = open(UNSUPPORTED_DEF).read()
    groups = re.findall(r'^WF_GROUP\((\w+), "(.*)"\)$', text, re.M)
    entries = re.findall(r"^WF_ENTRY\((\w+), (\w+)\)$", text, re.M)
    lines = ["", "## Entry points not supported", "",
             "Exported by the drop-in libraries (every function of the toolkit's headers is), but answering CUDA's",
             "not-supported code (801) with the reason on stderr; from `runtime/cudart/unsupported.def`. **not",
             "supported**: the feature cannot work on this device; **not yet**: it could and is not written yet.",
             "%d entry points in all." % len(entries), "",
             "| group | status | reason | entry points |", "| --- | --- | --- | --- |"]
    for gid, reason in groups:
        names = sorted(n for n, g in entries if g == gid)
        if not names:
            continue
        status = "not yet" if gid == "NotYet" else "not supported"
        lines.append("| %s (%d) | %s | %s | %s |" % (gid, len(names), status, reason.replace("|", "\\|"),
                                                  " ".join("`%s`" % n for n in names)))
    return lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("output", nargs="?", help="the markdown page to write (or check)")
    ap.add_argument("--check", action="store_true", help="fail if OUTPUT differs from what would be written")
    ap.add_argument("--validate", action="store_true", help="only validate features.toml and the metadata")
    ap.add_argument("--list-json", action="store_true", help="print the programs' metadata as JSON")
    ap.add_argument("--devices", default=None, help="comma-separated device columns")
    ap.add_argument("--results", default=os.path.join(HERE, "results"), help="folder of <device>.txt results")
    args = ap.parse_args(argv)

    errors = []
    data = load_toml(os.path.join(HERE, "features.toml"))
    features = data.get("features", {})
    for fid, feat in features.items():
        for key in ("chapter", "title", "ref"):
            if not feat.get(key):
                errors.append("features.toml: %s has no %s" % (fid, key))
        if feat.get("chapter") not in CHAPTERS:
            errors.append("features.toml: %s has unknown chapter %r" % (fid, feat.get("chapter")))
    programs = read_programs(errors)
    used = set()
    for p in programs:
        for fid in p["features"]:
            used.add(fid)
            if fid not in features:
                errors.append("%s: unknown feature %s (define it in features.toml)" % (p["path"], fid))
    for fid in sorted(set(features) - used):
        errors.append("features.toml: feature %s has no program that proves it" % fid)

    if args.list_json:
        json.dump(programs, sys.stdout, indent=1)
        sys.stdout.write("\n")
    if errors:
        for e in errors:
            print("error: " + e, file=sys.stderr)
        return 1
    if args.validate or args.list_json:
        if args.validate:
            print("%d programs, %d features: metadata is consistent" % (len(programs), len(features)))
        return 0
    if not args.output:
        ap.error("OUTPUT is required unless --validate or --list-json is given")

    results = read_results(args.results)
    if args.devices:
        devices = [d.strip() for d in args.devices.split(",") if d.strip()]
    else:
        devices = list(DEFAULT_DEVICES) + sorted(d for d in results if d not in DEFAULT_DEVICES)
    for d in results:
        if d not in devices:
            print("note: results for %s are not shown (not in --devices)" % d, file=sys.stderr)
    page = render(features, programs, results, devices, args.output)
    if args.check:
        try:
            with open(args.output) as f:
                current = f.read()
        except OSError:
            current = None
        if current != page:
            print("%s is stale: run python3 tests/cuda/wf_features.py %s" % (args.output, args.output), file=sys.stderr)
            return 1
        return 0
    with open(args.output, "w") as f:
        f.write(page)
    print("wrote %s (%d features, %d programs, devices: %s)" % (args.output, len(features), len(programs), ", ".join(devices)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
