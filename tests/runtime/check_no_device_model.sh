#!/bin/sh
# libcudart links no device model: the emulator's symbols (wf::func::) are in its plugin and nowhere
# in libcudart, and libcudart does not depend on any plugin library. The plugin itself is checked
# the same way first, so the test fails if the symbol pattern stops matching anything.
# usage: check_no_device_model.sh LIBCUDART FUNC_PLUGIN
set -u
lib=$1 plugin=$2
count() { nm -C "$1" 2>/dev/null | grep -c 'wf::func::'; }
in_plugin=$(count "$plugin")
if [ "$in_plugin" -eq 0 ]; then
  echo "FAIL: no wf::func:: symbols in $plugin either; the check would prove nothing"
  exit 1
fi
in_lib=$(count "$lib")
if [ "$in_lib" -ne 0 ]; then
  echo "FAIL: $lib holds $in_lib emulator symbols:"
  nm -C "$lib" | grep 'wf::func::' | head -5
  exit 1
fi
if ldd "$lib" | grep -q 'libwf-device-'; then
  echo "FAIL: $lib depends on a device plugin:"
  ldd "$lib" | grep 'libwf-device-'
  exit 1
fi
echo "ok: $plugin has $in_plugin emulator symbols, $lib none"
