#!/usr/bin/env python3
"""Checks the WARPFORGE_PROFILE report against counts known from the kernels' shapes.

usage: check_profile.py WARPFORGE PROGRAM.cu WORKDIR
Builds PROGRAM.cu with `warpforge cc`, runs it with three loop trip counts, and checks: the
straight-line kernel (two warps, no branches) executes every PTX and native instruction exactly
twice; the loop kernel's executed counts grow linearly with the trip count, by a whole number of
PTX instructions per iteration that is no more than the kernel's size.
"""
import os
import pathlib
import subprocess
import sys

warpforge, source, workdir = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
workdir.mkdir(parents=True, exist_ok=True)
exe = workdir / "profile_kernels"
subprocess.run([warpforge, "cc", source, "-o", str(exe)], check=True)


def run(trips):
    report = workdir / f"profile_{trips}.tsv"
    report.unlink(missing_ok=True)
    env = dict(os.environ, WARPFORGE_PROFILE=str(report))
    subprocess.run([str(exe), str(trips)], env=env, check=True, stdout=subprocess.DEVNULL)
    rows = {}
    for line in report.read_text().splitlines():
        f = line.split("\t")
        name = "straightLine" if "straightLine" in f[1] else "counted" if "counted" in f[1] else f[1]
        rows[name] = dict(launches=int(f[3]), ptx_static=int(f[4]), native_static=int(f[5]),
                          ptx_dyn=int(f[6]), native_dyn=int(f[7]), ptx_nocode=int(f[8]))
    return rows


failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


runs = {t: run(t) for t in (10, 20, 40)}
s = runs[10]["straightLine"]
expect(s["launches"] == 1, f"straightLine launches {s['launches']} != 1")
expect(s["ptx_dyn"] == 2 * s["ptx_static"],
       f"straightLine PTX executed {s['ptx_dyn']} != 2 x {s['ptx_static']}")
expect(s["native_dyn"] == 2 * s["native_static"],
       f"straightLine native executed {s['native_dyn']} != 2 x {s['native_static']}")
expect(s["ptx_nocode"] == 0, "straightLine has PTX blocks without native code")
for key in ("ptx_dyn", "native_dyn"):
    c = {t: runs[t]["counted"][key] for t in runs}
    d1, d2 = c[20] - c[10], c[40] - c[20]
    expect(d1 > 0 and d2 == 2 * d1, f"counted {key} not linear in the trip count: {c}")
    expect(d1 % 10 == 0, f"counted {key}: {d1} over 10 iterations is not whole")
    static = runs[10]["counted"]["ptx_static" if key == "ptx_dyn" else "native_static"]
    expect(0 < d1 // 10 <= static, f"counted {key}: {d1 // 10} per iteration, kernel has {static}")
for f in failures:
    print("FAIL:", f)
print("runs:", runs)
sys.exit(1 if failures else 0)
