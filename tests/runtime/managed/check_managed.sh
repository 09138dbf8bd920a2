#!/bin/sh
# __managed__ variables through the clang route (compiler/clang-plugin): the program runs with the
# pass plugin; a global initializer taking a managed variable's address is rejected; without the
# plugin (WARPFORGE_MANAGED_PLUGIN empty) managed variables are a compile error and programs
# without them still build and run.
# usage: check_managed.sh WARPFORGE FOLDER_OF_THIS_SCRIPT
set -u
wf=$1 dir=$2
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
status=0
fail() {
  echo "FAIL: $*"
  status=1
}

"$wf" run "$dir/managed_vars.cu" || fail "managed_vars.cu with the plugin"

if "$wf" cc "$dir/address_in_initializer.cu" -o "$work/a" 2>"$work/initializer.err"; then
  fail "address_in_initializer.cu was accepted"
elif ! grep -q "known only at run time" "$work/initializer.err"; then
  cat "$work/initializer.err"
  fail "address_in_initializer.cu: no message about the initializer"
fi

if WARPFORGE_MANAGED_PLUGIN= "$wf" cc "$dir/managed_vars.cu" -o "$work/b" 2>"$work/absent.err"; then
  fail "managed_vars.cu was accepted without the plugin"
elif ! grep -q "__managed__ variables need warpforge cc's pass plugin" "$work/absent.err"; then
  cat "$work/absent.err"
  fail "managed_vars.cu without the plugin: no message about the plugin"
fi

WARPFORGE_MANAGED_PLUGIN= "$wf" cc "$dir/no_managed.cu" -o "$work/c" ||
  fail "no_managed.cu without the plugin did not build"
[ -x "$work/c" ] && WARPFORGE_DEVICE=func "$work/c" || fail "no_managed.cu without the plugin"

[ $status -eq 0 ] && echo "check_managed: all passed"
exit $status
