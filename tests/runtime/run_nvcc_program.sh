#!/bin/sh
# Builds one CUDA program with nvcc against Warpforge's drop-in libcudart and runs it.
# usage: run_nvcc_program.sh NVCC SOURCE EXE LIBDIR [EXPECTED_STDOUT]
set -u
nvcc=$1 src=$2 exe=$3 libdir=$4 expected=${5:-}
if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
  flags=$(sed -n 's|^// WF-NVCC-FLAGS:[[:space:]]*||p' "$src" | head -n1)
  mkdir -p "$(dirname "$exe")"
  "$nvcc" -std=c++17 -arch=sm_80 -cudart shared $flags "$src" -o "$exe" || exit 1
fi
out=$(LD_LIBRARY_PATH="$libdir" "$exe"); rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || exit $rc
if [ -n "$expected" ]; then
  printf '%s\n' "$out" | diff -u "$expected" - || exit 1
fi
exit 0
