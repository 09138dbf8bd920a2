// A transport: how the runtime reaches a device's control registers, its DMA window and its
// host-initiated DMA engines (docs/device-protocol.md). Everything else goes through the command
// queues, so the same runtime code drives a device in this process, in a board server, or behind
// PCIe. Nothing here assumes that host and device share an address space: the DMA window is
// reached by offset, as a PCIe driver reaches the pinned buffers it gave its card. Devices are plugins (isa/include/warpforge/isa/device_plugin.h); transport/inproc/ drives
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

  /// The DMA window: pinned host buffers the transport provides and the device masters by offset
  /// (command rings, completion records, launch descriptors, copy staging). The host writes and
  /// reads them only through these calls; false for a range outside the window.
  virtual uint64_t dmaWindowSize() const = 0;
  virtual bool windowWrite(uint64_t offset, const void *src, uint64_t bytes) = 0;
  virtual bool windowRead(uint64_t offset, void *dst, uint64_t bytes) = 0;

  /// Host-initiated DMA of device memory (a PCIe card's H2C and C2H engines): copies between this
  /// process and device memory at device addresses, synchronously and outside the command queues.
  /// Nothing orders it against queued commands: the caller drains the queues that touch the range
  /// first. False for a range outside device memory, or when the device is lost.
  virtual bool dmaWrite(uint64_t address, const void *src, uint64_t bytes) = 0;
  virtual bool dmaRead(uint64_t address, void *dst, uint64_t bytes) = 0;

  /// Device memory mapped into this process (shared-memory transports), for mapped and pinned
  /// host allocations; nullptr where device memory is only reachable by DMA.
  virtual uint8_t *mappedMemory() { return nullptr; }
};

class Device;

/// The runtime's device over a transport (lib/protocol_device.cpp): checks the device's identity,
/// protocol version and configuration. On failure returns nullptr and sets `error`.
std::unique_ptr<Device> openProtocolDevice(std::unique_ptr<Transport> transport,
                                           std::string &error);

} // namespace wf::rt
