// The device-plugin registry is isa's (isa/include/warpforge/isa/plugins.h), shared with the models
// that load the emulator's plugin; the runtime uses it under its own namespace.
#pragma once

#include "warpforge/isa/plugins.h"

namespace wf::rt {

using isa::installedPlugins;
using isa::loadPlugin;
using isa::PluginListing;
using isa::pluginSearchPath;

} // namespace wf::rt
