#!/usr/bin/env bash
# Builds everything, then runs a CUDA program (examples/saxpy_reduce.cu: saxpy over 1 Mi floats and a
# shared-memory reduction, checked against the host) on the functional emulator, twice, and on the
# cycle model once:
#   1. `warpforge run`: clang compiles host and device code with Warpforge's headers (no NVIDIA
#      toolkit needed), the program runs with the device in the same process;
#   2. `warpforge run --device=cycle`: the same program on the SystemC cycle model, with its
#      statistics (cycles, IPC, L2, DRAM);
#   3. the same executable against a board server (`warpforge board`) in another process.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh >/dev/null

wf=${WARPFORGE_BIN:-build/bin/warpforge}
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT

echo "demo: warpforge cc examples/saxpy_reduce.cu (clang, Warpforge's CUDA headers)"
"$wf" cc examples/saxpy_reduce.cu -o "$work/saxpy_reduce"
echo "demo: running it on the emulator in this process"
WARPFORGE_CACHE_DIR="$work/cache" "$work/saxpy_reduce"

echo "demo: running it on the SystemC cycle model (warpforge run --device=cycle; about 10 s)"
WARPFORGE_CACHE_DIR="$work/cache" "$wf" run --device=cycle --stats="$work/cycle-stats.json" \
  examples/saxpy_reduce.cu
python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["stats"]
print("demo: cycle model: %d cycles, IPC %.2f, L2 hit rate %.2f, DRAM %.1f GB/s" % (
    s["gpu.cycles"]["value"], s["gpu.ipc"]["value"], s["gpu.l2.hit_rate"]["value"],
    s["gpu.platform.dram.bandwidth"]["value"]))' "$work/cycle-stats.json"

echo "demo: running it again against a board server in another process"
"$wf" board --socket="$work/board.sock" --clients=1 --quiet &
server=$!
for _ in $(seq 200); do [ -S "$work/board.sock" ] && break; sleep 0.05; done
WARPFORGE_CACHE_DIR="$work/cache" WARPFORGE_SERVER="$work/board.sock" "$work/saxpy_reduce"
wait "$server"
server=""
