#!/bin/sh
# Builds one CUDA program with `warpforge run` (clang for host and device code, Warpforge's
# headers and drop-in libcudart) and runs it on the emulator; compares stdout when expected.
# usage: run_clang_program.sh WARPFORGE SOURCE [EXPECTED_STDOUT]
# WF_RUN_ARGS (environment): more `warpforge run` flags, e.g. --device=cycle.
set -u
wf=$1 src=$2 expected=${3:-}
out=$("$wf" run ${WF_RUN_ARGS:-} "$src"); rc=$?
printf '%s\n' "$out"
[ $rc -eq 0 ] || exit $rc
if [ -n "$expected" ]; then
  printf '%s\n' "$out" | diff -u "$expected" - || exit 1
fi
exit 0
