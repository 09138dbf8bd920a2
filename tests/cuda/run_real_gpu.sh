#!/usr/bin/env bash
# Build every program of the CUDA conformance corpus with nvcc and run it on the real NVIDIA GPU of
# this machine. Needs only nvcc, a GPU and bash/coreutils; nothing of Warpforge is built.
#
#   tests/cuda/run_real_gpu.sh OUTDIR [ARCH]
#
#   OUTDIR  results folder (created): results.tsv, outputs.txt, summary.txt, REAL_GPU_RESULTS.md,
#           build-failures.txt, nvidia-smi.txt, nvcc-version.txt
#   ARCH    nvcc -arch value (default: $WF_CUDA_ARCH or "native"; use sm_90 for H100/H200)
#
# Environment: WF_TIMEOUT (seconds per program, default 120), WF_JOBS (parallel builds, default nproc),
# WF_FILTER (only programs whose chapter/name matches this extended regex).
#
# results.tsv has one line per program: name <TAB> status <TAB> exit code <TAB> seconds <TAB> first lines
# of output. status is PASS, FAIL (non-zero exit), OUTPUT_MISMATCH (stdout differs from the program's
# .expected file), TIMEOUT or BUILD_FAIL. The same file can be saved as tests/cuda/results/<device>.txt
# for wf_features.py. The script continues after failures and exits 1 if any program did not pass.
set -u -o pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ $# -lt 1 ]; then
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
OUT=$1
ARCH=${2:-${WF_CUDA_ARCH:-native}}
TIMEOUT=${WF_TIMEOUT:-120}
JOBS=${WF_JOBS:-$(nproc 2>/dev/null || echo 4)}
FILTER=${WF_FILTER:-}
NVCC=${NVCC:-nvcc}

mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
BUILD=$(mktemp -d "${TMPDIR:-/tmp}/wf-cuda-build.XXXXXX") || exit 2
trap 'rm -rf "$BUILD"' EXIT

# ---- environment record ----
{ nvidia-smi 2>&1 || echo "nvidia-smi failed (exit $?)"; } >"$OUT/nvidia-smi.txt"
{ "$NVCC" --version 2>&1 || echo "nvcc --version failed (exit $?)"; } >"$OUT/nvcc-version.txt"
GPU=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
DRIVER=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)
CUDAVER=$("$NVCC" --version 2>/dev/null | grep -o 'release [0-9.]*, V[0-9.]*' | head -n1)
DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)

# ---- the programs ----
mapfile -t SOURCES < <(cd "$HERE" && find . -mindepth 2 -maxdepth 2 -name '*.cu' -not -path './common/*' | sed 's|^\./||' | sort)
if [ -n "$FILTER" ]; then
  mapfile -t SOURCES < <(printf '%s\n' "${SOURCES[@]}" | grep -E -- "$FILTER")
fi
if [ ${#SOURCES[@]} -eq 0 ]; then
  echo "no programs found under $HERE" >&2
  exit 2
fi
echo "building ${#SOURCES[@]} programs for $ARCH with $JOBS jobs into $BUILD"

build_one() {  # $1 = chapter/name.cu
  local src=$1 id exe flags
  id=${src%.cu}
  id=${id//\//__}
  exe="$BUILD/$id"
  flags=$(sed -n 's|^// WF-NVCC-FLAGS:[[:space:]]*||p' "$HERE/$src" | head -n1)
  # shellcheck disable=SC2086
  if "$NVCC" -std=c++17 -arch="$ARCH" -cudart shared $flags -o "$exe" "$HERE/$src" >"$exe.build.log" 2>&1; then
    echo 0 >"$exe.build.rc"
  else
    echo 1 >"$exe.build.rc"
  fi
}
export -f build_one
export HERE BUILD ARCH NVCC
# shellcheck disable=SC2016  # $1 is expanded by the inner bash
printf '%s\n' "${SOURCES[@]}" | xargs -P "$JOBS" -I{} bash -c 'build_one "$1"' _ {}

# ---- run ----
RESULTS="$OUT/results.tsv"
OUTPUTS="$OUT/outputs.txt"
BUILDFAIL="$OUT/build-failures.txt"
: >"$RESULTS"
: >"$OUTPUTS"
rm -f "$BUILDFAIL"
declare -A STATUS
pass=0
fail=0
flatten() { head -c 2000 | head -n 3 | tr '\t\r\n' '   ' | cut -c1-300; }
for src in "${SOURCES[@]}"; do
  name=${src%.cu}
  id=${name//\//__}
  exe="$BUILD/$id"
  status=PASS
  rc=0
  secs=0
  first=""
  if [ "$(cat "$exe.build.rc" 2>/dev/null || echo 1)" != 0 ]; then
    status=BUILD_FAIL
    rc=-1
    first=$(flatten <"$exe.build.log")
    { echo "==== $name"; cat "$exe.build.log"; echo; } >>"$BUILDFAIL"
  else
    start=$(date +%s.%N)
    (cd "$BUILD" && timeout -k 10 "$TIMEOUT" "$exe" >"$exe.stdout" 2>"$exe.stderr")
    rc=$?
    end=$(date +%s.%N)
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
    expected=$(sed -n 's|^// WF-EXPECTED-OUTPUT:[[:space:]]*||p' "$HERE/$src" | head -n1 | tr -d '[:space:]')
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
      status=TIMEOUT
    elif [ "$rc" != 0 ]; then
      status=FAIL
    elif [ -n "$expected" ]; then
      if ! diff -q "$exe.stdout" "$HERE/$(dirname "$src")/$expected" >/dev/null 2>&1; then
        status=OUTPUT_MISMATCH
      fi
    fi
    first=$(cat "$exe.stdout" "$exe.stderr" | flatten)
    {
      echo "==== $name ($status, exit $rc, ${secs}s)"
      head -n 60 "$exe.stdout"
      if [ -s "$exe.stderr" ]; then echo "---- stderr"; head -n 20 "$exe.stderr"; fi
      if [ "$status" = OUTPUT_MISMATCH ]; then
        echo "---- diff against $expected"
        diff "$HERE/$(dirname "$src")/$expected" "$exe.stdout" | head -n 40
      fi
      echo
    } >>"$OUTPUTS"
  fi
  STATUS[$name]=$status
  if [ "$status" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$status" "$rc" "$secs" "$first" >>"$RESULTS"
  printf '%-60s %-16s %6ss\n' "$name" "$status" "$secs"
done

# ---- summary and the markdown record ----
total=${#SOURCES[@]}
{
  echo "GPU: ${GPU:-unknown}"
  echo "driver: ${DRIVER:-unknown}"
  echo "CUDA: ${CUDAVER:-unknown} (nvcc -arch=$ARCH)"
  echo "date: $DATE"
  echo "programs: $total, passed: $pass, not passed: $fail"
  awk -F'\t' '$2 != "PASS" { print "  " $2 ": " $1 }' "$RESULTS"
} >"$OUT/summary.txt"

{
  echo "# CUDA corpus on a real NVIDIA GPU"
  echo
  echo "Generated by \`tests/cuda/run_real_gpu.sh\`."
  echo
  echo "| | |"
  echo "| --- | --- |"
  echo "| GPU | ${GPU:-unknown} |"
  echo "| driver | ${DRIVER:-unknown} |"
  echo "| CUDA | ${CUDAVER:-unknown} |"
  echo "| nvcc flags | \`-std=c++17 -arch=$ARCH -cudart shared\` |"
  echo "| date | $DATE |"
  echo "| result | $pass of $total passed |"
  echo
  echo "| program | result | exit | seconds |"
  echo "| --- | --- | --- | --- |"
  awk -F'\t' '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }' "$RESULTS"
  echo
  echo "## Printed output of the programs whose output is part of the check"
  for src in "${SOURCES[@]}"; do
    name=${src%.cu}
    expected=$(sed -n 's|^// WF-EXPECTED-OUTPUT:[[:space:]]*||p' "$HERE/$src" | head -n1 | tr -d '[:space:]')
    [ -n "$expected" ] || continue
    echo
    echo "### $name (${STATUS[$name]})"
    echo
    echo '```'
    id=${name//\//__}
    head -n 100 "$BUILD/$id.stdout" 2>/dev/null
    echo '```'
  done
} >"$OUT/REAL_GPU_RESULTS.md"

echo
cat "$OUT/summary.txt"
[ "$fail" -eq 0 ]
