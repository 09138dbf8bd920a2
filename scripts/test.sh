#!/usr/bin/env bash
# Builds everything and runs the whole test suite (labels "nightly", "bench" and the "*-pending" corpus
# entries are separate targets:
# see the README).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
cd build
ctest --output-on-failure --parallel "$(nproc)" --label-exclude "nightly|bench|pending" "$@"
# The "fuzz" label: libFuzzer targets need clang, so they live in a second, small build tree.
# Run with the whole suite only (not when ctest options pick tests).
if [[ $# -eq 0 ]]; then
  cd ..
  ./scripts/fuzz.sh
fi
