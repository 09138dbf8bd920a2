#!/usr/bin/env bash
# Builds everything and runs the whole test suite (labels "nightly", "bench" and the "*-pending" corpus
# entries are separate targets:
# see the README).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
cd build
ctest --output-on-failure --parallel "$(nproc)" --label-exclude "nightly|bench|pending" "$@"
