// The device-plugin registry (docs/runtime.md, "Device plugins"): device models are shared
// libraries (isa/include/warpforge/isa/device_plugin.h) found by name at run time, so no host
// program links a device model. The runtime and the board server load devices through it; the
// cycle model and the RTL lockstep load the emulator's plugin through it (golden.h).
#pragma once

#include "warpforge/isa/device_plugin.h"

#include <string>
#include <vector>

namespace wf::isa {

/// An installed plugin, as found on the search path.
struct PluginListing {
  std::string name; ///< what WARPFORGE_DEVICE names ("func")
  std::string path; ///< the shared library
};

/// Folders searched for libwf-device-NAME.so, in order: the colon-separated WARPFORGE_DEVICE_PATH,
/// then warpforge/devices next to the library (or executable) that holds this code, then
/// ../lib/warpforge/devices from there (a program in bin/), then that library's own folder (a
/// plugin that loads another plugin finds its siblings).
std::vector<std::string> pluginSearchPath();

/// Every plugin on the search path, sorted by name; the first of a name wins.
std::vector<PluginListing> installedPlugins();

/// Loads the plugin `name` (once per process; it stays loaded). On failure returns nullptr and sets
/// `error` to a message that names the plugins installed and where they were looked for.
const wf_device_plugin *loadPlugin(const std::string &name, std::string &error);

/// Another symbol the plugin `name` exports (loading it if need be), or nullptr with `error` set.
void *pluginSymbol(const std::string &name, const char *symbol, std::string &error);

} // namespace wf::isa
