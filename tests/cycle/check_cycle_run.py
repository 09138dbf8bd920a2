#!/usr/bin/env python3
"""Runs a CUDA program on the cycle device (`warpforge run --device=cycle --stats=FILE`) and checks
its output and the statistics the device wrote: the program's own check must pass, and the
statistics must be consistent with each other (every count below is computed from the others, so
none of the expected values is written here).

usage: check_cycle_run.py WARPFORGE PROGRAM.cu WORKDIR
"""
import json
import os
import subprocess
import sys


def main():
    wf, program, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    stats_path = os.path.join(work, "stats.json")
    if os.path.exists(stats_path):
        os.remove(stats_path)
    run = subprocess.run([wf, "run", "--device=cycle", "--stats=" + stats_path, program],
                         capture_output=True, text=True, timeout=600)
    sys.stdout.write(run.stdout)
    sys.stderr.write(run.stderr)
    failures = []
    if run.returncode != 0:
        failures.append(f"the program exited with {run.returncode}")
    if "(cycle)" not in run.stdout:
        failures.append("the program did not report the cycle device")
    if "PASS" not in run.stdout:
        failures.append("the program's own check did not pass")
    try:
        with open(stats_path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        failures.append(f"no statistics: {e}")
        doc = {"format": None, "stats": {}}
    if doc.get("format") != "warpforge-stats":
        failures.append("the statistics file is not warpforge-stats JSON")
    stats = doc.get("stats", {})

    def value(name):
        if name not in stats:
            failures.append(f"missing statistic {name}")
            return 0
        entry = stats[name]
        if not entry.get("unit") or not entry.get("description"):
            failures.append(f"{name} lacks a unit or a description")
        return entry["value"]

    cycles = value("gpu.cycles")
    if cycles <= 0:
        failures.append("gpu.cycles is not positive")
    cores = sorted({k.split(".")[1] for k in stats if k.startswith("gpu.core")})
    if not cores:
        failures.append("no per-core statistics")
    warp_insts = sum(value(f"gpu.{c}.warp_insts") for c in cores)
    if warp_insts != value("gpu.warp_insts") or warp_insts <= 0:
        failures.append(f"per-core warp instructions ({warp_insts}) do not add up to "
                        f"gpu.warp_insts ({value('gpu.warp_insts')})")
    for c in cores:
        if value(f"gpu.{c}.cycles") != cycles:
            failures.append(f"gpu.{c}.cycles differs from gpu.cycles")
        for reason in ("no_instruction", "dependency", "unit_busy", "memory", "barrier",
                       "convergence"):
            if value(f"gpu.{c}.stall_{reason}") < 0:
                failures.append(f"gpu.{c}.stall_{reason} is negative")
        issued = value(f"gpu.{c}.icache_hits")
        if issued < value(f"gpu.{c}.warp_insts"):
            failures.append(f"{c} issued more instructions than it fetched")
    requests = value("gpu.l2.requests")
    if value("gpu.l2.hits") + value("gpu.l2.misses") + value("gpu.l2.mshr_merges") != requests:
        failures.append("L2 hits + misses + merges differ from its requests")
    # Every L2 read miss is one DRAM read burst of a line (the line is one burst in `default`).
    if value("gpu.platform.dram.reads") <= 0:
        failures.append("no DRAM reads")
    if failures:
        print("\n".join("check_cycle_run: " + f for f in failures), file=sys.stderr)
        return 1
    print(f"check_cycle_run: {cycles:.0f} cycles, {warp_insts:.0f} warp instructions, "
          f"{len(cores)} cores: statistics consistent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
