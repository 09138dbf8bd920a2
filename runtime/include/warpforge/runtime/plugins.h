// The device-plugin registry (docs/runtime.md, "Device plugins"): device models are shared
// libraries (isa/include/warpforge/isa/device_plugin.h) found by name at run time, so no host
// program links a device model.
#pragma once

#include "warpforge/isa/device_plugin.h"

#include <string>
#include <vector>

namespace wf::rt {

/// An installed plugin, as found on the search path.
struct PluginListing {
  std::string name; ///< what WARPFORGE_DEVICE names ("func")
  std::string path; ///< the shared library
};

/// Folders searched for libwf-device-NAME.so, in order: the colon-separated WARPFORGE_DEVICE_PATH,
/// then warpforge/devices next to the library (or executable) that holds the runtime, then
/// ../lib/warpforge/devices from there (a program in bin/).
std::vector<std::string> pluginSearchPath();

/// Every plugin on the search path, sorted by name; the first of a name wins.
std::vector<PluginListing> installedPlugins();

/// Loads the plugin `name` (once per process; it stays loaded). On failure returns nullptr and sets
/// `error` to a message that names the plugins installed and where they were looked for.
const wf_device_plugin *loadPlugin(const std::string &name, std::string &error);

} // namespace wf::rt
