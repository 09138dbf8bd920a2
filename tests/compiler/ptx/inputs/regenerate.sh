#!/bin/sh
# Regenerates the committed PTX from the CUDA sources here. The tests use the
# committed .ptx files, so they need neither nvcc nor clang.
#
#   nvcc/NAME.ptx   nvcc 13 -ptx -O3 -lineinfo (sm_75, or sm_80 for *sm80*)
#   clang/NAME.ptx  clang 14 --cuda-device-only -S -O2 -nocudainc -nocudalib, PTX ISA 7.0
#   nvcc/functions_debug.ptx   nvcc -G (debug sections)
#   clang/functions_debug.ptx  clang -g -O1
#
# Usage: ./regenerate.sh [NVCC] [CLANGXX]
set -e
cd "$(dirname "$0")"
NVCC=${1:-nvcc}
CLANGXX=${2:-clang++-14}
mkdir -p nvcc clang
for cu in *.cu; do
  name=$(basename "$cu" .cu)
  arch=sm_75
  case $name in *sm80*) arch=sm_80 ;; esac
  "$NVCC" -ptx -arch=$arch -O3 -lineinfo "$cu" -o "nvcc/$name.ptx"
  "$CLANGXX" -x cuda --cuda-device-only -S -nocudainc -nocudalib --cuda-gpu-arch=$arch -O2 \
    -Wno-unknown-cuda-version -Xclang -target-feature -Xclang +ptx70 "$cu" -o "clang/$name.ptx"
done
"$NVCC" -ptx -arch=sm_75 -G functions.cu -o nvcc/functions_debug.ptx
"$CLANGXX" -x cuda --cuda-device-only -S -nocudainc -nocudalib --cuda-gpu-arch=sm_75 -O1 -g \
  -Wno-unknown-cuda-version -Xclang -target-feature -Xclang +ptx70 functions.cu \
  -o clang/functions_debug.ptx
