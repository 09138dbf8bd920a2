#!/usr/bin/env bash
# Lints every module of rtl/ with `verilator --lint-only -Wall`, each file's module as the top, with
# the generated packages and rtl/lint/waivers.vlt (the one place waivers live). Exit 0 when clean.
# Usage: rtl/lint/lint.sh [path/to/verilator]
set -uo pipefail
verilator=${1:-verilator}
rtl=$(cd "$(dirname "$0")/.." && pwd)
# Packages first, in dependency order: the generated ones, the chip-level types, then any other
# package (*_pkg.sv) of rtl/.
pkgs=("$rtl/pkg/wf_isa_pkg.sv" "$rtl/pkg/wf_config_pkg.sv" "$rtl/pkg/wf_device_pkg.sv"
      "$rtl/pkg/wf_sfu_pkg.sv" "$rtl/soc/wf_soc_pkg.sv")
mapfile -t more_pkgs < <(find "$rtl" -name '*_pkg.sv' -not -path "$rtl/pkg/*" \
                         -not -path "$rtl/soc/wf_soc_pkg.sv" | sort)
pkgs+=("${more_pkgs[@]}")
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
