#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang into build-fuzz and runs them:
#   ./scripts/fuzz.sh            each target for 30 s (label "fuzz"; ./scripts/test.sh runs this)
#   ./scripts/fuzz.sh nightly    each target for 30 minutes (label "nightly")
# Extra arguments go to ctest. WF_FUZZ_SECONDS overrides the short runs' length; WF_FUZZ_BUILD_DIR
# the build tree (default build-fuzz).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-short}
[[ $# -gt 0 ]] && shift
clang=$(command -v clang++-14 || command -v clang++ || true)
if [[ -z $clang ]]; then
  echo "fuzz.sh: clang++ not found (Debian: apt-get install clang-14); fuzz targets not run" >&2
  exit 1
fi
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
dir=${WF_FUZZ_BUILD_DIR:-build-fuzz}
cmake -S tests/fuzz -B "$dir" "${generator[@]}" -DCMAKE_CXX_COMPILER="$clang" \
  -DWF_FUZZ_SHORT_SECONDS="${WF_FUZZ_SECONDS:-30}" >/dev/null
cmake --build "$dir" --parallel "$(nproc)" --target wf_fuzzers
cd "$dir"
if [[ $mode == nightly ]]; then
  ctest --output-on-failure -V --no-tests=error --label-regex nightly "$@"
else
  ctest --output-on-failure -V --no-tests=error --label-regex '^fuzz$' "$@"
fi
