#!/usr/bin/env bash
# Installs the Debian packages Warpforge builds with, when any are missing. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake ninja-build g++ python3 python3-mpmath pkg-config
  libgtest-dev libgmock-dev libfmt-dev libboost-program-options-dev libzstd-dev
  clang llvm verilator
  # SystemC 2.3 with TLM-2.0, for the cycle model (sim/cycle).
  libsystemc-dev
  # LLVM's development files, for warpforge cc's pass plugin (compiler/clang-plugin); the version
  # must be Debian's clang's.
  llvm-14-dev
  # clang's sanitizer and libFuzzer runtimes, for the fuzz targets (tests/fuzz, scripts/fuzz.sh).
  libclang-rt-14-dev
  # A headless browser for the test of `warpforge report`'s page (tools.report_page).
  chromium
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm may come from elsewhere than Debian; only a missing command asks for the package.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# Yosys for synthesis reports comes from the npm registry (Debian's is too old for SystemVerilog
# packages); it installs into tools/synth/node_modules.
if [[ ! -d tools/synth/node_modules/@yowasp/yosys ]]; then
  echo "setup: installing @yowasp/yosys (npm)"
  (cd tools/synth && npm ci --no-audit --no-fund --loglevel=error)
fi
