#!/usr/bin/env python3
"""Every cuda*/cu* function of the toolkit's public headers is exported by the drop-in libraries.

usage: check_exported_symbols.py --cc CC --include CUDA_INCLUDE LIBRARY...

The headers are preprocessed as C twice, as a program compiles them: once by default and once with
CUDA_API_PER_THREAD_DEFAULT_STREAM (nvcc's --default-stream per-thread), so the names the headers
map a call to (cuMemAlloc -> cuMemAlloc_v2, cudaMemcpy -> cudaMemcpy_ptds, ...) are the names
checked, which is what a program's object files reference. Headers: cuda_runtime_api.h,
cuda_profiler_api.h, cuda.h and cudaProfiler.h. The graphics-interop headers (OpenGL, EGL, VDPAU)
need those libraries' own headers and are not checked.

Every LIBRARY must export every name (nm -D --defined-only); the test lists what is missing per
library and fails.

With --unsupported-def, every entry of runtime/cudart/unsupported.def must be a function the headers
declare returning CUresult or cudaError_t: unsupported.cpp defines those entries without parameters,
which is sound only for functions that return an int-sized enum (see the comment there).
"""
import argparse
import re
import subprocess
import sys

HEADERS = ["cuda_runtime_api.h", "cuda_profiler_api.h", "cuda.h", "cudaProfiler.h"]
MODES = [[], ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]]


def declared_functions(cc, include):
    """The functions the headers declare, in both default-stream modes: name -> return type."""
    source = "".join(f"#include <{h}>\n" for h in HEADERS)
    names = {}
    for defines in MODES:
        out = subprocess.run([cc, "-E", "-P", "-x", "c", *defines, "-I", include, "-"],
                             input=source, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit(f"preprocessing the toolkit headers failed:\n{out.stderr}")
        text = re.sub(r"\s+", " ", out.stdout)
        # A declaration is a statement whose first `name(` is the function (a function pointer
        # typedef names its type inside parentheses: `(*PFN_x)(`, which this skips).
        for statement in re.split(r"[;{}]", text):
            if statement.lstrip().startswith("typedef"):
                continue
            m = re.search(r"\b(cu\w*)\s*\(", statement)
            if m and re.match(r"cu(da)?[A-Z]", m.group(1)):
                # The word before the name is its return type (a call inside an inline
                # function's body, `return cuX(...)`, is no declaration).
                before = statement[:m.start()].split()
                kind = before[-1] if before else ""
                if kind != "return" or m.group(1) not in names:
                    names[m.group(1)] = kind
    return names


def exported(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"nm {library} failed:\n{out.stderr}")
    return {line.split()[-1].split("@")[0] for line in out.stdout.splitlines() if line.strip()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cc", required=True)
    parser.add_argument("--include", required=True)
    parser.add_argument("--unsupported-def")
    parser.add_argument("libraries", nargs="+")
    args = parser.parse_args()

    declared = declared_functions(args.cc, args.include)
    wanted = set(declared)
    # A header change that broke the extraction must not pass as "nothing missing".
    if len(wanted) < 500:
        sys.exit(f"only {len(wanted)} functions found in {args.include}: extraction is broken")
    failed = False
    if args.unsupported_def:
        entries = re.findall(r"^WF_ENTRY\((\w+),", open(args.unsupported_def).read(), re.M)
        if not entries:
            sys.exit(f"no WF_ENTRY rows in {args.unsupported_def}")
        wrong = [f"{e}: {declared.get(e, 'not declared by the headers')}" for e in entries
                 if declared.get(e) not in ("CUresult", "cudaError_t")]
        if wrong:
            failed = True
            print(f"{len(wrong)} unsupported.def entries do not return CUresult or cudaError_t:")
            for line in wrong:
                print(f"  {line}")
        else:
            print(f"all {len(entries)} unsupported.def entries return CUresult or cudaError_t")
    for library in args.libraries:
        missing = sorted(wanted - exported(library))
        if missing:
            failed = True
            print(f"{library}: {len(missing)} of {len(wanted)} functions of the headers are missing:")
            for name in missing:
                print(f"  {name}")
        else:
            print(f"{library}: all {len(wanted)} functions of the headers are exported")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
