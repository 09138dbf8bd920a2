#!/usr/bin/env python3
"""`warpforge emu --stats=FILE` writes JSON that Python's json module reads, with every statistic
named, united and described, and counts that match what the test kernels must execute.

usage: check_emu_stats.py WARPFORGE DATA_DIR WORK_DIR   (exit 77: built without the emulator)
"""

import json
import math
import os
import re
import subprocess
import sys

KINDS = {"scalar", "vector", "distribution", "formula"}
NAME = re.compile(r"^gpu(\.[A-Za-z0-9_]+)+$")


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    return p


def load(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    assert doc["format"] == "warpforge-stats", doc.get("format")
    assert doc["version"] == 1
    stats = doc["stats"]
    for name, s in stats.items():
        assert NAME.match(name), f"bad statistic name {name!r}"
        assert s["kind"] in KINDS, f"{name}: kind {s['kind']!r}"
        assert isinstance(s["unit"], str) and s["unit"], f"{name}: no unit"
        assert isinstance(s["description"], str) and len(s["description"]) > 5, f"{name}: no description"
    return stats


def value(stats, name, unit):
    assert name in stats, f"missing {name}; have {sorted(stats)}"
    assert stats[name]["unit"] == unit, f"{name}: unit {stats[name]['unit']!r}, want {unit!r}"
    return stats[name]["value"]


def check(stats, warp_insts, thread_insts, blocks):
    assert value(stats, "gpu.launches", "count") == 1
    assert value(stats, "gpu.faults", "count") == 0
    assert value(stats, "gpu.blocks", "count") == blocks
    assert value(stats, "gpu.warp_insts", "instruction") == warp_insts, stats["gpu.warp_insts"]
    assert value(stats, "gpu.thread_insts", "instruction") == thread_insts, stats["gpu.thread_insts"]
    cores = sorted(int(m.group(1)) for n in stats if (m := re.match(r"^gpu\.core(\d+)\.warp_insts$", n)))
    assert cores and cores == list(range(len(cores))), cores
    per_core = lambda field, unit: [value(stats, f"gpu.core{i}.{field}", unit) for i in cores]
    assert sum(per_core("warp_insts", "instruction")) == warp_insts
    assert sum(per_core("thread_insts", "instruction")) == thread_insts
    assert sum(per_core("blocks", "count")) == blocks
    cycles = value(stats, "gpu.cycles", "cycle")
    assert cycles == max(per_core("cycles", "cycle")) > 0
    assert math.isclose(value(stats, "gpu.ipc", "instruction/cycle"), warp_insts / cycles)
    assert math.isclose(value(stats, "gpu.simd_efficiency", "ratio"), thread_insts / (32 * warp_insts))
    busy = stats["gpu.core_busy"]
    assert busy["kind"] == "distribution" and busy["samples"] == len(cores), busy
    assert busy["max"] == 1 and sum(busy["buckets"]) + busy["underflow"] + busy["overflow"] == len(cores)


def main():
    warpforge, data, work = (os.path.abspath(a) for a in sys.argv[1:4])
    os.makedirs(work, exist_ok=True)
    os.chdir(work)
    if "  emu " not in run([warpforge, "--help"]).stdout:
        print("warpforge was built without the emulator")
        return 77
    run([warpforge, "asm", os.path.join(data, "kernels.s"), "-o", "kernels.wfx"])

    # vadd over n = 1000 in 4 blocks of 256: 32 warps of 21 instructions; in the last warp only
    # 8 lanes pass the bounds check (its first 7 instructions run on 32 lanes, the other 14 on 8).
    run([warpforge, "emu", "kernels.wfx", "-k", "vadd", "-g", "4", "-b", "256", "-c", "default",
         "--buffer", "a=4000", "--buffer", "b=4000", "--buffer", "c=4000", "-a", "ptr:a", "-a",
         "ptr:b", "-a", "ptr:c", "-a", "u32:1000", "--stats=vadd.json"])
    check(load("vadd.json"), 32 * 21, 31 * 21 * 32 + 7 * 32 + 14 * 8, 4)

    # count: 6 blocks of 100 threads (4 warps, the last of 4 lanes), 5 instructions each.
    p = run([warpforge, "emu", "kernels.wfx", "-k", "count", "-g", "3,2", "-b", "50,2", "-c", "tiny",
             "-j", "2", "--stats=count.json"])
    assert "kernel 'count': 6 blocks" in p.stderr, p.stderr
    check(load("count.json"), 6 * 4 * 5, 6 * 100 * 5, 6)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
