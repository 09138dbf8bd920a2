// A transport: how the runtime reaches a device's control registers and its DMA window
// (docs/device-protocol.md). Everything else, device memory included, goes through the command
// queue, so the same runtime code drives a device in this process, in a board server, or behind
// PCIe. Devices are plugins (isa/include/warpforge/isa/device_plugin.h); transport/inproc/ drives
// any plugin in this process.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace wf::rt {

class Transport {
public:
  virtual ~Transport() = default;

  /// The device kind behind the transport ("func", ...).
  virtual std::string deviceKind() const = 0;
  /// How the device is reached, for messages ("in-process", "board server at PATH").
  virtual std::string describe() const = 0;

  /// 32-bit control registers (isa/device.toml). A transport that has lost its device returns
  /// all-ones, as a PCIe read of a vanished device does, and reports it through lost().
  virtual uint32_t readReg(uint32_t offset) = 0;
  virtual void writeReg(uint32_t offset, uint32_t value) = 0;
  virtual bool lost() const { return false; }
  virtual std::string lostReason() const { return {}; }
  /// Called while the host waits for the device: a clocked model runs some cycles here.
  virtual void service() {}

  /// Host memory the device reaches by DMA (the staging buffer of every copy).
  virtual uint8_t *dmaWindow() = 0;
  virtual uint64_t dmaWindowSize() const = 0;

  /// Device memory mapped into this process (shared-memory transports), for mapped and pinned
  /// host allocations; nullptr where device memory is only reachable by DMA.
  virtual uint8_t *mappedMemory() { return nullptr; }
};

} // namespace wf::rt
