#!/usr/bin/env bash
# Configures and builds everything into build/ (the driver lands in build/bin, libraries in build/lib).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE="${WARPFORGE_BUILD_TYPE:-RelWithDebInfo}"
fi
cmake --build build --parallel "$(nproc)"
