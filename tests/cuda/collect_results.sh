#!/usr/bin/env bash
# Records which corpus programs pass on a Warpforge device through one route, as a results file
# for the feature table (tests/cuda/wf_features.py reads tests/cuda/results/<column>.txt).
#   usage: tests/cuda/collect_results.sh BUILD_DIR COLUMN TEST_PREFIX
#   e.g.   tests/cuda/collect_results.sh build func-nvcc runtime.nvcc.
# runs every CTest test named TEST_PREFIX<chapter>.<program> (pending ones included) and writes
# one "chapter/program<TAB>PASS|FAIL" line per program.
set -euo pipefail
build=$1 column=$2 prefix=$3
here=$(cd "$(dirname "$0")" && pwd)
out="$here/results/$column.txt"
mkdir -p "$here/results"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
(cd "$build" && ctest -R "^${prefix//./\\.}" --parallel "$(nproc)" >"$log" 2>&1) || true
{
  echo "# $column: corpus programs through CTest tests ${prefix}*, $(date -u +%Y-%m-%d)"
  sed -n -E "s/.*Test +#[0-9]+: ${prefix//./\\.}([A-Za-z0-9_]+)\.([A-Za-z0-9_]+) .*(Passed|Failed|Timeout).*/\1\/\2\t\3/p" "$log" |
    sed -E 's/\tPassed$/\tPASS/; s/\tFailed$/\tFAIL/; s/\tTimeout$/\tTIMEOUT/' | sort
} >"$out"
echo "wrote $out: $(grep -c $'\tPASS' "$out") passing of $(grep -vc '^#' "$out")"
