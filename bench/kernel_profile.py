#!/usr/bin/env python3
"""Per-kernel instruction counts and registers: Warpforge next to PTX and ptxas.

For each CUDA program given (default: the corpus's whole applications, tests/cuda/apps), builds it
with nvcc against the drop-in libcudart, runs it on the emulator with WARPFORGE_PROFILE (per-
instruction execution counters, docs/runtime.md), and asks ptxas (nvcc -Xptxas -v) how many
registers NVIDIA's compiler gives each kernel for the same architecture. Prints a markdown table:
static and executed (warp-level) PTX and native instruction counts, their ratio, and registers
per thread. Needs nvcc; no GPU.

  bench/kernel_profile.py BUILD_DIR [PROGRAM.cu ...] [--arch sm_80] [--sass FILE]

--sass adds the warp instructions a real NVIDIA GPU executed for each kernel (over all its
launches), from a file made on a machine with a GPU by building each program with nvcc and running
`ncu --metrics smsp__inst_executed.sum --csv` on it, each program's rows after a line
`== PROGRAM` (bench/results/apps_sass_executed_h100.txt is one).
"""
import collections
import csv
import io
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def demangle(names):
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True,
                             check=True).stdout.splitlines()
        return dict(zip(names, out))
    except (OSError, subprocess.CalledProcessError):
        return {n: n for n in names}


def ptxas_registers(src, arch, workdir):
    """Kernel (mangled name) -> registers per thread, from ptxas's verbose output."""
    out = subprocess.run(["nvcc", "-std=c++17", f"-arch={arch}", "-cubin", "-Xptxas", "-v",
                          "-o", str(workdir / "k.cubin"), str(src)],
                         capture_output=True, text=True)
    regs, current = {}, None
    for line in (out.stdout + out.stderr).splitlines():
        m = re.search(r"Compiling entry function '([^']+)'", line)
        if m:
            current = m.group(1)
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            current = m.group(1)
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and current:
            regs[current] = int(m.group(1))
            current = None
    return regs


def sass_counts(path):
    """(program, demangled kernel name) -> SASS warp instructions executed, over all launches."""
    counts, program = collections.defaultdict(int), None
    for line in pathlib.Path(path).read_text().splitlines():
        if line.startswith("== "):
            program = line[3:].strip()
        elif program and "smsp__inst_executed.sum" in line:
            row = next(csv.reader(io.StringIO(line)))
            counts[(program, row[4].split("(")[0])] += int(row[-1].replace(",", ""))
    return counts


def profile(src, build, arch, workdir):
    exe = workdir / src.stem
    subprocess.run(["nvcc", "-std=c++17", f"-arch={arch}", "-cudart", "shared", str(src), "-o",
                    str(exe)], check=True, capture_output=True)
    report = workdir / (src.stem + ".tsv")
    report.unlink(missing_ok=True)
    env = dict(os.environ, LD_LIBRARY_PATH=str(build / "lib"), WARPFORGE_PROFILE=str(report),
               WARPFORGE_CACHE="0")
    run = subprocess.run([str(exe)], env=env, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{src.name} failed on the emulator:\n{run.stdout}{run.stderr}")
    rows = []
    for line in report.read_text().splitlines():
        f = line.split("\t")
        rows.append(dict(module=f[0], name=f[1], kind=f[2], launches=int(f[3]), ptx_static=f[4],
                         native_static=int(f[5]), ptx_dyn=f[6], native_dyn=int(f[7]),
                         ptx_nocode=int(f[8]), regs=int(f[9])))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", type=pathlib.Path)
    ap.add_argument("programs", nargs="*", type=pathlib.Path)
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--sass", type=pathlib.Path)
    args = ap.parse_args()
    sass = sass_counts(args.sass) if args.sass else None
    programs = args.programs or sorted((ROOT / "tests/cuda/apps").glob("*.cu"))
    build = args.build.resolve()
    sass_header = " SASS executed (GPU) | native/SASS |" if sass else ""
    print("| program | kernel | launches | PTX insts | native insts | PTX executed | "
          "native executed | native/PTX executed |" + sass_header + " regs (Warpforge) | "
          "regs (ptxas " + args.arch + ") |")
    print("|" + " --- |" * (12 if sass else 10))
    total_sass = total_native_with_sass = 0
    total_ptx = total_native = 0
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        workdir = pathlib.Path(tmp)
        for src in programs:
            try:
                rows = profile(src, build, args.arch, workdir)
            except (RuntimeError, subprocess.CalledProcessError) as e:
                print(f"kernel_profile: {src}: {e}", file=sys.stderr)
                status = 1
                continue
            regs = ptxas_registers(src, args.arch, workdir)
            names = demangle([r["name"] for r in rows])
            for r in rows:
                if r["kind"] != "kernel" or not r["launches"]:
                    continue
                ratio = "-"
                if r["ptx_dyn"] not in ("-", "0"):
                    ratio = f"{r['native_dyn'] / int(r['ptx_dyn']):.2f}"
                    total_ptx += int(r["ptx_dyn"])
                    total_native += r["native_dyn"]
                kernel = names[r["name"]].split("(")[0]
                sass_cells = ""
                if sass is not None:
                    n = sass.get((src.stem, kernel))
                    sass_cells = " - | - |"
                    if n:
                        sass_cells = f" {n} | {r['native_dyn'] / n:.2f} |"
                        total_sass += n
                        total_native_with_sass += r["native_dyn"]
                print(f"| {src.stem} | `{kernel}` | {r['launches']} | {r['ptx_static']} | "
                      f"{r['native_static']} | {r['ptx_dyn']} | {r['native_dyn']} | {ratio} |"
                      f"{sass_cells} {r['regs']} | {regs.get(r['name'], '-')} |")
    if total_ptx:
        sass_cells = ""
        if sass is not None:
            sass_cells = f" {total_sass} | " + (
                f"{total_native_with_sass / total_sass:.2f} |" if total_sass else "- |")
        print(f"| all | | | | | {total_ptx} | {total_native} | "
              f"{total_native / total_ptx:.2f} |{sass_cells} | |")
    return status


if __name__ == "__main__":
    sys.exit(main())
