#!/usr/bin/env bash
# Builds the project with AddressSanitizer and UBSan into its own tree and runs the unit tests
# there (the nightly runs it; issue 16). Usage:
#   ./scripts/sanitize.sh [-B DIR] [--targets "T1 T2 ..."] [CTEST OPTIONS...]
# DIR defaults to build-asan. --targets builds only those targets (default: everything). CTest
# options pass through (for example -R 'compiler|runtime'). Any sanitizer report fails the test
# that made it: recovery is off, and leaks count.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-asan
targets=()
while [[ $# -gt 0 ]]; do
  case "$1" in
  -B) dir=$2; shift 2 ;;
  --targets) read -r -a targets <<<"$2"; shift 2 ;;
  *) break ;;
  esac
done
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if [[ ! -f $dir/CMakeCache.txt ]]; then
  cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_MODULE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DWF_TSAN_STRESS=OFF -DWF_RTL_BENCHES=OFF
fi
if [[ ${#targets[@]} -gt 0 ]]; then
  cmake --build "$dir" --parallel "$(nproc)" --target "${targets[@]}"
else
  cmake --build "$dir" --parallel "$(nproc)"
fi

# Not run under the sanitizers, and why:
# - programs built outside this tree (nvcc's and clang's CUDA executables: labels "nvcc" and the
#   runtime.clang.*, runtime.nvcc.*, runtime.board* and frontend.* tests, which compile CUDA
#   programs with clang or nvcc and run them) load the instrumented libcudart
#   into an uninstrumented executable, which ASan refuses ("runtime does not come first");
#   their host code is not ours, and the library's paths they take are covered by the
#   GoogleTest suites that link it directly;
# - RTL benches and lint/synthesis (label "rtl", tests rtl.*): Verilator's generated models and
#   external tools, not project C++ parsing input; they take most of the suite's time. This
#   tree does not build them (WF_RTL_BENCHES=OFF);
# - runtime.stress_tsan: ThreadSanitizer cannot share a process with AddressSanitizer; the
#   normal build runs it (WF_TSAN_STRESS=OFF here).
exclude='^(runtime\.(clang|nvcc|board)|rtl\.|frontend\.)'
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$dir"
ctest --output-on-failure --parallel "$(nproc)" --label-regex unit --label-exclude nvcc \
  --exclude-regex "$exclude" "$@"
