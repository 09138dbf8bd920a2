// The narrow device interface of the runtime (docs/runtime.md). Every transport (in-process now;
// a board server and PCIe later) implements it; nothing above it knows which device it drives.
#pragma once

#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device.gen.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wf::rt {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

/// One grid, fully described: where the code and constants are, the shape, the resources and the
/// parameter buffer.
struct LaunchParams {
  std::string kernelName;
  uint64_t codeBase = 0;
  uint32_t codeSize = 0;
  uint32_t entryPc = 0;
  Dim3 grid, block;
  uint32_t regsPerThread = 0;
  uint32_t sharedStatic = 0;
  uint32_t sharedDynamic = 0;
  uint32_t localBytes = 0;
  uint64_t constBase = 0;
  uint32_t constSize = 0;
  std::vector<uint8_t> params;
  uint64_t rtbuf = 0; ///< runtime area (printf FIFO, assert record)
  uint64_t profileCounters = 0; ///< per-instruction execution counters; 0: no profile
  uint64_t localBase = 0; ///< the launch's local-memory area (LaunchDesc::local_base); 0: none
};

enum class FaultKind : uint8_t {
  None,
  OutOfBounds,
  Misaligned,
  IllegalInstruction,
  Trap,
  Assert,
  Breakpoint,
  BarrierDeadlock,
  Watchdog,
  ReadOnlyWrite,
  InvalidLaunch,
};

struct DeviceFault {
  FaultKind kind = FaultKind::None;
  Dim3 block{0, 0, 0}, thread{0, 0, 0};
  uint32_t pc = 0;
  uint64_t address = 0;
  uint32_t code = 0;
  /// The device's report: its completion record's fault fields (kind, detail, values).
  isa::dev::Completion fields{};
  /// A fault the host itself found (the device is lost, the launch cannot be expressed): the
  /// whole report; empty for a fault the device reported.
  std::string hostReason;

  /// The report in words, naming the kernel as the caller's module table does (isa/fault_report.h).
  std::string describe(std::string_view kernel) const;
};

struct LaunchOutcome {
  std::optional<DeviceFault> fault;
  uint64_t cycles = 0;
  uint64_t warpInsts = 0;
  uint64_t threadInsts = 0;
};

struct DeviceInfo {
  std::string kind;      ///< the model that runs commands: "func", ...
  std::string transport; ///< how it is reached: "in-process emulator", "board server at PATH"
  unsigned queues = 1;   ///< engines that run concurrently (1: commands run one at a time)
  std::string name;      ///< "Warpforge default (func)"
  isa::Config config;    ///< the named configuration
  uint64_t memBase = 0;  ///< device (global) memory range
  uint64_t memSize = 0;
};

/// A hardware queue of the device (an engine, as a GPU's compute engine and copy engines). Commands
/// of one queue complete in submission order; different queues run concurrently where the device
/// has the engines (DeviceInfo::queues), and otherwise in some order that respects every `after`.
enum class Engine : uint8_t { Compute = 0, CopyIn = 1, CopyOut = 2 };
constexpr unsigned kEngines = 3;

/// One submitted command: its queue and its sequence number in that queue (1, 2, ...). A default
/// ticket (seq 0) names nothing and counts as complete.
struct Ticket {
  Engine engine = Engine::Compute;
  uint64_t seq = 0;
  bool valid() const { return seq != 0; }
};

/// What a finished command reports. `fault` only for launches.
struct CommandResult {
  bool ok = true;           ///< false: the command failed (fault, bad argument, lost device)
  std::string error;        ///< why, when !ok and not a launch fault
  LaunchOutcome launch;     ///< launches: cycles, instructions, fault
  uint64_t timestamp = 0;   ///< timestamps: the device cycle counter when every earlier command was done
};

/// Runs on a device-owned completion thread when a command completes, in completion order per
/// queue. It must not block on the device (no wait()); it may submit.
using CompletionFn = std::function<void(const CommandResult &)>;

class Device {
public:
  virtual ~Device() = default;
  virtual const DeviceInfo &info() const = 0;

  /// Device memory ranges (first fit, 256-byte aligned at least); 0 when none fits.
  virtual uint64_t allocate(uint64_t bytes, uint64_t align = 256) = 0;
  /// False when `address` is not the start of a live range.
  virtual bool free(uint64_t address) = 0;
  /// True when [address, address + bytes) lies inside one live range, within its requested size.
  virtual bool allocated(uint64_t address, uint64_t bytes) = 0;

  virtual bool read(uint64_t address, void *dst, uint64_t bytes) = 0;
  virtual bool write(uint64_t address, const void *src, uint64_t bytes) = 0;
  virtual bool fill(uint64_t address, uint8_t value, uint64_t bytes) = 0;
  /// Host-initiated DMA (docs/runtime.md): a synchronous copy by the transport's DMA engines, not
  /// a queued command. It first waits for every queued command, so it never overtakes one that
  /// touches the same memory; a command submitted after it sees its data. False for a range
  /// outside device memory or a lost device.
  virtual bool dmaWrite(uint64_t address, const void *src, uint64_t bytes) = 0;
  virtual bool dmaRead(uint64_t address, void *dst, uint64_t bytes) = 0;

  /// Runs a grid; returns when it is done (queued transports return at synchronize()).
  virtual LaunchOutcome launch(const LaunchParams &params) = 0;
  virtual void synchronize() = 0;
  /// The device cycle counter.
  virtual uint64_t cycles() const = 0;
  /// A host pointer that aliases device memory [address, address+bytes), for transports that
  /// share memory with the host (mapped/managed memory); nullptr otherwise.
  virtual void *hostWindow(uint64_t address, uint64_t bytes) { (void)address, (void)bytes; return nullptr; }
  /// Forget every allocation and zero memory (cudaDeviceReset).
  virtual void reset() = 0;
  /// True once the device is gone for good (a board server that died): no command reaches it
  /// again, and the runtime reports it as a sticky error. An in-process device is never lost.
  virtual bool lost() const { return false; }

  // --- Asynchronous commands (streams). Each returns at once with a ticket; the command runs on
  // `engine` after every ticket in `after` has completed and after the queue's earlier commands.
  // Host memory handed to a submit must stay valid (and unchanged, for writes) until the command
  // completes; the runtime waits where CUDA's semantics make a call synchronous (pageable memory).
  // The defaults run the command synchronously through the calls above (a device with one engine
  // and no queueing); a queued device overrides all of them.

  virtual Ticket submitWrite(Engine engine, uint64_t address, const void *src, uint64_t bytes,
                             std::span<const Ticket> after, CompletionFn done = {});
  virtual Ticket submitRead(Engine engine, uint64_t address, void *dst, uint64_t bytes,
                            std::span<const Ticket> after, CompletionFn done = {});
  /// Device-to-device copy.
  virtual Ticket submitCopy(Engine engine, uint64_t dst, uint64_t src, uint64_t bytes,
                            std::span<const Ticket> after, CompletionFn done = {});
  virtual Ticket submitFill(Engine engine, uint64_t address, uint8_t value, uint64_t bytes,
                            std::span<const Ticket> after, CompletionFn done = {});
  virtual Ticket submitLaunch(const LaunchParams &params, std::span<const Ticket> after,
                              CompletionFn done = {});
  /// The device cycle counter once every command before it on `engine` (and in `after`) is done.
  virtual Ticket submitTimestamp(Engine engine, std::span<const Ticket> after,
                                 CompletionFn done = {});
  /// Whether the command has completed (its CompletionFn has returned).
  virtual bool complete(const Ticket &ticket);
  /// Blocks until the command has completed.
  virtual void wait(const Ticket &ticket);

private:
  Ticket finishSynchronously(Engine engine, const CommandResult &result, const CompletionFn &done);
  uint64_t syncSeq_[kEngines] = {};
};

/// Opens a device: `kind` names a device plugin ("func", "board"; lib/plugins.cpp finds them),
/// `config` a named configuration. On failure returns nullptr and sets `error` to a message (for
/// a missing plugin, one that lists the plugins installed).
std::unique_ptr<Device> openDevice(const std::string &kind, const std::string &config,
                                   std::string &error);

} // namespace wf::rt
