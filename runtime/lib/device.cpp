// Device selection: WARPFORGE_SERVER names a board server to use (its device and configuration
// are the server's); otherwise WARPFORGE_DEVICE picks the device and WARPFORGE_CONFIG the named
// configuration.
#include "warpforge/runtime/device.h"

#include <cstdlib>

namespace wf::rt {

std::unique_ptr<Device> openInProcDevice(const isa::Config &config, std::string &error);
std::unique_ptr<Device> openBoardServerDevice(const std::string &path, std::string &error);

std::unique_ptr<Device> openDevice(const std::string &kind, const std::string &configName,
                                   std::string &error) {
  if (const char *server = std::getenv("WARPFORGE_SERVER"); server) {
    std::unique_ptr<Device> device = openBoardServerDevice(server, error);
    if (!device)
      return nullptr;
    const char *wantKind = std::getenv("WARPFORGE_DEVICE");
    const char *wantConfig = std::getenv("WARPFORGE_CONFIG");
    if ((wantKind && *wantKind && device->info().kind != wantKind) ||
        (wantConfig && *wantConfig && device->info().config.name != wantConfig)) {
      error = "the board server (WARPFORGE_SERVER) hosts " + device->info().name +
              ", not what WARPFORGE_DEVICE/WARPFORGE_CONFIG ask for";
      return nullptr;
    }
    return device;
  }
  const isa::Config *config = isa::findConfig(configName);
  if (!config) {
    std::string names;
    for (const isa::Config &c : isa::kConfigs)
      names += (names.empty() ? "" : ", ") + std::string(c.name);
    error = "no configuration '" + configName + "' (WARPFORGE_CONFIG; there are: " + names + ")";
    return nullptr;
  }
  if (kind == "func" || kind.empty())
    return openInProcDevice(*config, error);
  if (kind == "board") {
    error = "device 'board' (an FPGA over PCIe) is not available yet in this build; a device in "
            "another process is reached through `warpforge board` and WARPFORGE_SERVER";
    return nullptr;
  }
  if (kind == "cycle" || kind == "rtl") {
    error = "device '" + kind + "' is not available yet in this build (WARPFORGE_DEVICE; only 'func' is)";
    return nullptr;
  }
  error = "unknown device '" + kind + "' (WARPFORGE_DEVICE: func, cycle, rtl or board)";
  return nullptr;
}

} // namespace wf::rt
