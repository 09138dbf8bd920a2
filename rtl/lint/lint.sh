#!/usr/bin/env bash
# Lints every module of rtl/ with `verilator --lint-only -Wall`, each file's module as the top, with
# the generated packages and rtl/lint/waivers.vlt (the one place waivers live). Exit 0 when clean.
# Usage: rtl/lint/lint.sh [path/to/verilator]
set -uo pipefail
verilator=${1:-verilator}
rtl=$(cd "$(dirname "$0")/.." && pwd)
# Packages first (the generated ones, then every *_pkg.sv beside the modules that use it); every
# other file is one module, linted as the top.
pkgs=("$rtl/pkg/wf_isa_pkg.sv" "$rtl/pkg/wf_config_pkg.sv" "$rtl/pkg/wf_sfu_pkg.sv")
mapfile -t -O ${#pkgs[@]} pkgs < <(find "$rtl" -name '*_pkg.sv' -not -path "$rtl/pkg/*" | sort)
mapfile -t sources < <(find "$rtl" -name '*.sv' -not -path "$rtl/pkg/*" -not -name '*_pkg.sv' | sort)
status=0
for f in "${sources[@]}"; do
  top=$(basename "$f" .sv)
  if ! out=$("$verilator" --lint-only -Wall "$rtl/lint/waivers.vlt" "${pkgs[@]}" "${sources[@]}" \
             --top-module "$top" 2>&1); then
    status=1
  fi
  if [[ -n "$out" ]]; then
    status=1
    echo "== $top"
    echo "$out"
  fi
done
if ((status == 0)); then
  echo "lint: ${#sources[@]} modules clean"
fi
exit $status
