#!/usr/bin/env bash
# Configures and builds everything into build/ (the driver lands in build/bin, libraries in build/lib).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
# ccache, when installed, shares compiled objects between build trees of this checkout (paths are
# hashed relative to the checkout and the build folder is left out of the hash, so any clone at any
# place hits the same entries).
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build "${generator[@]}" "${launcher[@]}" \
    -DCMAKE_BUILD_TYPE="${WARPFORGE_BUILD_TYPE:-RelWithDebInfo}"
fi
cmake --build build --parallel "$(nproc)"
