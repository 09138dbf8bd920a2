#!/usr/bin/env python3
"""Compares runtime/include/warpforge/runtime/driver_errors.def with the CUresult enum of a
toolkit's cuda.h: the same names with the same values, none missing, none extra."""
import re
import sys


def header_table(path):
    text = open(path, encoding="utf-8").read()
    enum = re.search(r"typedef enum cudaError_enum \{(.*?)\} CUresult;", text, re.S)
    if not enum:
        sys.exit(f"{path}: no CUresult enum found")
    body = re.sub(r"/\*.*?\*/", "", enum.group(1), flags=re.S)
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"(CUDA_\w+)\s*=\s*(\d+)", body)}


def def_table(path):
    rows = re.findall(r"^WF_CU_ERROR\((\w+), (\d+), \"", open(path, encoding="utf-8").read(), re.M)
    return {name: int(value) for name, value in rows}


def main():
    cuda_h, table_def = sys.argv[1], sys.argv[2]
    want, have = header_table(cuda_h), def_table(table_def)
    problems = [f"missing: {n} = {v}" for n, v in sorted(want.items()) if n not in have]
    problems += [f"not in cuda.h: {n}" for n in sorted(have) if n not in want]
    problems += [f"{n}: {have[n]} here, {v} in cuda.h" for n, v in sorted(want.items())
                 if n in have and have[n] != v]
    for p in problems:
        print(p)
    print(f"{len(want)} CUresult codes in cuda.h, {len(have)} in the table, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
