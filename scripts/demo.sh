#!/usr/bin/env bash
# Builds everything, then runs a demo on the default device (the functional emulator): saxpy over
# 64 Ki floats followed by a per-block shared-memory reduction, written in native assembly, and
# checks every result against a reference computed here.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh >/dev/null

wf=${WARPFORGE_BIN:-build/bin/warpforge}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

n=65536
blocks=$((n / 256))
python3 - "$work" "$n" <<'PY'
import struct, sys
work, n = sys.argv[1], int(sys.argv[2])
open(f"{work}/x.bin", "wb").write(struct.pack(f"<{n}f", *[(i % 97) * 0.25 for i in range(n)]))
open(f"{work}/y.bin", "wb").write(struct.pack(f"<{n}f", *[(i % 13) * 1.0 for i in range(n)]))
PY

echo "demo: assembling examples/saxpy_sum.s"
"$wf" asm examples/saxpy_sum.s -o "$work/demo.wfx"
echo "demo: saxpy on $n elements, then block sums over $blocks blocks of 256 threads (emulator)"
"$wf" emu "$work/demo.wfx" --kernel saxpy --grid "$blocks" --block 256 \
  --buffer x=@"$work/x.bin" --buffer y=@"$work/y.bin" \
  --arg f32:2.0 --arg ptr:x --arg ptr:y --arg u32:"$n" --dump y="$work/y_out.bin" --stats
"$wf" emu "$work/demo.wfx" --kernel block_sum --grid "$blocks" --block 256 \
  --buffer y=@"$work/y_out.bin" --buffer sums=$((blocks * 4)) \
  --arg ptr:y --arg ptr:sums --dump sums="$work/sums.bin" --stats

python3 - "$work" "$n" <<'PY'
import struct, sys
work, n = sys.argv[1], int(sys.argv[2])
f32 = lambda v: struct.unpack("<f", struct.pack("<f", v))[0]
x = [(i % 97) * 0.25 for i in range(n)]
y = [f32(2.0 * x[i] + (i % 13)) for i in range(n)]  # one FMA: exact in float here
got_y = struct.unpack(f"<{n}f", open(f"{work}/y_out.bin", "rb").read())
bad = [i for i in range(n) if got_y[i] != y[i]]
if bad:
    sys.exit(f"demo: FAILED: y[{bad[0]}] = {got_y[bad[0]]}, expected {y[bad[0]]}")
sums = struct.unpack(f"<{n // 256}f", open(f"{work}/sums.bin", "rb").read())
for b, s in enumerate(sums):
    ref = sum(y[b * 256:(b + 1) * 256])
    if abs(s - ref) > 1e-3 * abs(ref):
        sys.exit(f"demo: FAILED: block {b} sum {s}, expected {ref}")
print(f"demo: verified {n} saxpy results and {len(sums)} block sums "
      f"(total {sum(sums):.1f}, reference {sum(y):.1f}): PASS")
PY
