// Device selection (docs/runtime.md, "Device plugins"): WARPFORGE_DEVICE names a device plugin
// (default func) and WARPFORGE_CONFIG a named configuration. WARPFORGE_SERVER names a board
// server's socket and selects the `board` plugin, whose device and configuration are the server's.
#include "warpforge/runtime/device.h"
#include "warpforge/isa/fault_report.h"

#include <cstdlib>

namespace wf::rt {

std::string DeviceFault::describe(std::string_view kernel) const {
  if (!hostReason.empty())
    return hostReason;
  return isa::dev::describeFault(kernel, fields);
}

std::unique_ptr<Device> openPluginDevice(const std::string &name, const std::string &config,
                                         const std::string &options, std::string &error);

std::unique_ptr<Device> openDevice(const std::string &kind, const std::string &configName,
                                   std::string &error) {
  const char *server = std::getenv("WARPFORGE_SERVER");
  std::string plugin = server ? "board" : kind.empty() ? "func" : kind;
  if (plugin != "board" && !isa::findConfig(configName)) {
    std::string names;
    for (const isa::Config &c : isa::kConfigs)
      names += (names.empty() ? "" : ", ") + std::string(c.name);
    error = "no configuration '" + configName + "' (WARPFORGE_CONFIG; there are: " + names + ")";
    return nullptr;
  }
  std::unique_ptr<Device> device =
      openPluginDevice(plugin, configName, server ? server : "", error);
  if (!device || plugin != "board")
    return device;
  // A board server hosts one device of one configuration: what is asked for must match it.
  const char *wantKind = std::getenv("WARPFORGE_DEVICE");
  const char *wantConfig = std::getenv("WARPFORGE_CONFIG");
  bool kindMismatch = wantKind && *wantKind && std::string(wantKind) != "board" &&
                      device->info().kind != wantKind;
  if (kindMismatch || (wantConfig && *wantConfig && device->info().config.name != wantConfig)) {
    error = "the board server hosts " + device->info().name +
            ", not what WARPFORGE_DEVICE/WARPFORGE_CONFIG ask for";
    return nullptr;
  }
  return device;
}

} // namespace wf::rt
