#!/bin/sh
# Compiles saxpy.cu with the clang front end and runs it on the emulator: y = 2*x + 0 + popc(i),
# and an atomic counter that must reach 64.
# usage: run_kernel_test.sh WARPFORGE [PATH-for-the-run (empty: unchanged)] [FRONTEND]
set -e
WF=$1; HERE=$(dirname "$0"); T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
[ -n "$2" ] && export PATH="$2"
"$WF" compile ${3:+--frontend=$3} "$HERE/saxpy.cu" -o "$T/s.wfx"
python3 -c "import struct,sys;open(sys.argv[1],'wb').write(struct.pack('64f',*range(64)))" "$T/x.bin"
"$WF" emu "$T/s.wfx" -k saxpy -b 64 --buffer x=@"$T/x.bin" --buffer y=260 -a ptr:y -a ptr:x \
  -a f32:2 -a u32:64 --dump y="$T/y.bin" >/dev/null
python3 - "$T/y.bin" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
y = struct.unpack('64f', d[:256]); count = struct.unpack('i', d[256:260])[0]
bad = [i for i in range(64) if y[i] != 2.0 * i + bin(i).count('1')]
assert not bad and count == 64, (bad[:4], count)
print('PASS')
PY
