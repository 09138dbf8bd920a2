#!/bin/sh
# warpforge cc and run end to end: usage run_cc_test.sh WARPFORGE SOURCE WORKDIR
set -u
wf=$1 src=$2 dir=$3
mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
# cc: an executable that runs without LD_LIBRARY_PATH (rpath), with its own argv and status.
"$wf" cc "$src" -o "$dir/prog" || fail "cc"
out=$(env -u LD_LIBRARY_PATH "$dir/prog") || fail "prog exited $?"
[ "$out" = "counted 1000" ] || fail "prog printed '$out'"
env -u LD_LIBRARY_PATH "$dir/prog" x y >/dev/null; [ $? -eq 3 ] || fail "prog x y: status"
# --embed=wfx: the module compiled now is loaded as it is.
"$wf" cc "$src" --embed=wfx -o "$dir/prog_wfx" || fail "cc --embed=wfx"
[ "$(env WARPFORGE_CACHE=0 "$dir/prog_wfx")" = "counted 1000" ] || fail "prog_wfx"
# run: output, arguments and exit status are the program's; a cached second run.
export WARPFORGE_CACHE_DIR="$dir/cache"
[ "$("$wf" run "$src")" = "counted 1000" ] || fail "run"
"$wf" run "$src" -- x y >/dev/null; [ $? -eq 3 ] || fail "run -- x y: status"
"$wf" run "$src" --config=tiny >/dev/null || fail "run --config=tiny"
# a device name no plugin has: status 2 (the cycle and rtl devices have tests of their own)
"$wf" run "$src" --device=nope 2>/dev/null; [ $? -eq 2 ] || fail "--device=nope"
echo PASS
