#!/bin/sh
# Runs nvcc-built corpus programs against a board server in another process: one `warpforge board`
# serves them in turn through WARPFORGE_SERVER, as it would serve separate users' programs.
# usage: run_board_route.sh WARPFORGE NVCC CORPUS_DIR BUILD_DIR LIBDIR PROGRAM...
set -u
warpforge=$1 nvcc=$2 corpus=$3 build=$4 libdir=$5
shift 5
here=$(dirname "$0")
sock="$build/board-$$.sock"
"$warpforge" board --socket="$sock" --clients=$# --quiet &
server=$!
trap 'kill $server 2>/dev/null' EXIT
i=0
while [ ! -S "$sock" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -S "$sock" ] || { echo "board server did not start"; exit 1; }
status=0
for program in "$@"; do
  expected=""
  [ -f "$corpus/$program.expected" ] && expected="$corpus/$program.expected"
  echo "== $program"
  WARPFORGE_SERVER="$sock" sh "$here/run_nvcc_program.sh" "$nvcc" "$corpus/$program.cu" \
    "$build/board/$program" "$libdir" $expected || { echo "FAILED: $program"; status=1; }
done
wait $server || { echo "board server exited with an error"; status=1; }
trap - EXIT
exit $status
