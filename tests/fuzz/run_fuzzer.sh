#!/bin/sh
# Runs one libFuzzer target for a fixed time: run_fuzzer.sh FUZZER SECONDS SCRATCH [ARGS...] -- SEEDS...
# New inputs go to the SCRATCH corpus (kept between runs); the SEEDS directories are only read.
# Exits non-zero on a crash, a sanitizer report, a leak, a timeout or running out of memory,
# leaving the input that did it in SCRATCH/../artifacts-<name>/. Prints the run's figures.
set -eu
fuzzer=$1 seconds=$2 scratch=$3
shift 3
args=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do args="$args $1"; shift; done
[ $# -gt 0 ] && shift
name=$(basename "$scratch")
artifacts="$(dirname "$scratch")/artifacts-$name"
mkdir -p "$scratch" "$artifacts"
log="$(dirname "$scratch")/$name.log"
# -timeout: an input running longer than 120 s is a hang. It is wall time: on a loaded machine a
# niced run can stall for half a minute (tests/fuzz/README.md, "Figures"). -rss_limit_mb: more
# memory is a bug.
# shellcheck disable=SC2086
if ! "$fuzzer" -max_total_time="$seconds" -timeout=120 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" $args "$scratch" "$@" >"$log" 2>&1; then
  tail -n 60 "$log"
  echo "FAILED: $fuzzer; the input is in $artifacts/" >&2
  exit 1
fi
grep -E "^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|^#[0-9]+.*DONE" "$log" || true
echo "corpus: $(ls "$scratch" | wc -l) inputs in $scratch"
