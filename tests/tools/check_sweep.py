#!/usr/bin/env python3
"""Checks `warpforge sweep` against direct runs: every cell of a cycle-device row equals what the
same selector computes from the statistics JSON of `warpforge run --device=cycle --stats=FILE`;
-j1 and -j3 give the same rows (wall time aside); a failing and a hanging program are rows with
their status, and the sweep's exit status says so. No expected number is written here: each is
read from a direct run.

usage: check_sweep.py WARPFORGE TINY.cu WORKDIR
"""
import csv
import io
import json
import os
import re
import stat
import subprocess
import sys

CONFIGS = ["tiny", "default"]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
    return condition


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, **kw)


def script(path, body):
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


def cell(stats, column):
    """The sweep's selector rules (warpforge sweep --help), computed independently."""
    def matching(pattern):
        # '*' matches within one component, as in the sweep
        rx = re.compile("^" + r"[^.]*".join(re.escape(p) for p in pattern.split("*")) + "$")
        return [stats[n]["value"] for n in sorted(stats)
                if rx.match(n) and "value" in stats[n]]
    if column.startswith("mean:"):
        v = matching(column[5:])
        return sum(v) / len(v) if v else None
    if column.startswith("hitrate:"):
        h, m = matching(column[8:] + "_hits"), matching(column[8:] + "_misses")
        if not h or not m:
            return None
        return sum(h) / (sum(h) + sum(m)) if sum(h) + sum(m) else 0.0
    v = matching(column)
    return sum(v) if v else None


def read_csv(text):
    rows = list(csv.reader(io.StringIO(text)))
    return rows[0], rows[1:]


def main():
    wf, tiny, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    failing = script(os.path.join(work, "fails.sh"), "echo failing on purpose; exit 3")
    hanging = script(os.path.join(work, "hangs.sh"), "exec sleep 600")

    # Direct runs: the ground truth for every statistic cell.
    direct = {}
    for config in CONFIGS:
        path = os.path.join(work, f"direct-{config}.json")
        r = run([wf, "run", "--device=cycle", f"--config={config}", f"--stats={path}", tiny])
        check(r.returncode == 0 and "PASS" in r.stdout,
              f"direct run on {config} failed: {r.returncode} {r.stdout} {r.stderr}")
        with open(path) as f:
            direct[config] = json.load(f)["stats"]

    outputs = {}
    for jobs in (1, 3):
        out = os.path.join(work, f"sweep-j{jobs}.csv")
        r = run([wf, "sweep", "--config=" + ",".join(CONFIGS), "--device=cycle", f"-j{jobs}",
                 "-o", out, tiny, failing])
        check(r.returncode == 1, f"-j{jobs}: a sweep with a failing program exited "
                                 f"{r.returncode}, not 1 ({r.stderr})")
        with open(out) as f:
            outputs[jobs] = read_csv(f.read())

    header, rows = outputs[1]
    check(header[:6] == ["config", "device", "program", "status", "exit_code", "wall_seconds"],
          f"unexpected leading columns {header[:6]}")
    stat_columns = header[6:]
    for wanted in ("gpu.cycles", "gpu.ipc", "mean:gpu.core*.lane_utilization",
                   "gpu.core*.stall_dependency", "hitrate:gpu.core*.icache", "gpu.l2.hit_rate"):
        check(wanted in stat_columns, f"default column {wanted} missing")
    check(len(rows) == len(CONFIGS) * 2, f"{len(rows)} rows, expected one per config x program")
    for row in rows:
        check(len(row) == len(header), f"row {row[:3]} has {len(row)} cells, header {len(header)}")
    expected_order = [(c, p) for c in CONFIGS for p in (tiny, failing)]
    check([(r[0], r[2]) for r in rows] == expected_order,
          f"rows not in config x program order: {[(r[0], r[2]) for r in rows]}")

    for row in rows:
        config, program, status, code = row[0], row[2], row[3], row[4]
        if program == failing:
            check(status == "exit" and code == "3",
                  f"the failing program's row is {status}/{code}, not exit/3")
            check(all(c == "" for c in row[6:]), "the failing program has statistics cells")
            continue
        check(status == "ok" and code == "0", f"{config}: tiny program row {status}/{code}")
        check(float(row[5]) > 0, f"{config}: wall time {row[5]}")
        for column, text in zip(stat_columns, row[6:]):
            want = cell(direct[config], column)
            if want is None:
                check(text == "", f"{config} {column}: '{text}' where nothing matches")
                continue
            check(text != "" and abs(float(text) - want) <= 1e-12 * max(1.0, abs(want)),
                  f"{config} {column}: sweep {text!r}, direct run {want!r}")
    cycles = {r[0]: float(r[6 + stat_columns.index("gpu.cycles")]) for r in rows
              if r[2] == tiny}
    check(all(v > 0 for v in cycles.values()), f"cycles not positive: {cycles}")

    strip = lambda rows: [r[:5] + r[6:] for r in rows]  # wall time differs
    check(outputs[1][0] == outputs[3][0], "-j1 and -j3 headers differ")
    check(strip(outputs[1][1]) == strip(outputs[3][1]), "-j1 and -j3 rows differ")

    # A chosen statistic by hierarchical name, a timeout, and an all-pass sweep's exit status.
    r = run([wf, "sweep", "--config=tiny", "--stat=gpu.l2.requests", "--stat=gpu.core0.blocks",
             "--timeout=2", hanging, tiny])
    check(r.returncode == 1, f"a sweep with a hanging program exited {r.returncode}")
    header, rows = read_csv(r.stdout)
    check(header[6:] == ["gpu.l2.requests", "gpu.core0.blocks"], f"--stat columns {header[6:]}")
    check(len(rows) == 2 and rows[0][3] == "timeout", f"hanging program row {rows[:1]}")
    if len(rows) == 2:
        check(rows[1][3] == "ok" and float(rows[1][6]) == direct["tiny"]["gpu.l2.requests"]["value"]
              and float(rows[1][7]) == direct["tiny"]["gpu.core0.blocks"]["value"],
              f"--stat cells {rows[1]}")
    r = run([wf, "sweep", "--config=tiny", "-o", os.path.join(work, "pass.csv"), tiny])
    check(r.returncode == 0, f"an all-pass sweep exited {r.returncode}: {r.stderr}")
    r = run([wf, "sweep", "--config=nosuch", tiny])
    check(r.returncode == 2 and "nosuch" in r.stderr, f"unknown config: {r.returncode} {r.stderr}")

    for f in failures:
        print("FAIL:", f)
    print("ok" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
