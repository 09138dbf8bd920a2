#!/usr/bin/env bash
# Installs the Debian packages Warpforge builds with, when any are missing. Safe to run again.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3 pkg-config
  libgtest-dev libgmock-dev libfmt-dev libboost-program-options-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [[ $(id -u) -eq 0 ]] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi
