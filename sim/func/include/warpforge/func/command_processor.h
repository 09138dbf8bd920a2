// The emulator's command processor: the device side of the device protocol
// (docs/device-protocol.md, isa/device.toml). It owns the control registers, reads commands from
// the queues' rings in host memory, runs them on a Device and reports completions. Every transport
// (in-process, the board server) drives the emulator only through readReg/writeReg, the host-DMA
// port and device memory (isa/include/warpforge/isa/device_plugin.h).
//
// Threaded (the func plugin): each hardware queue has its own thread, so a copy on one queue runs
// while a kernel of another is in flight; the emulator has one set of cores, so launches of
// different queues take turns. Synchronous (a model that must run on its caller's thread, as the
// SystemC cycle model must): one queue, drained by the doorbell write itself.
#pragma once

#include "warpforge/func/device.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/isa/device_plugin.h"

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace wf::func {

/// Host memory the device reaches by DMA (COPY with SRC_HOST/DST_HOST), as a plain buffer.
struct DmaWindow {
  uint8_t *data = nullptr;
  uint64_t size = 0;
};

/// How the command processor runs its queues.
struct CommandProcessorParams {
  /// Hardware queues, 1 to isa::dev::kQueues; QUEUE_COUNT reports it. The registers of a queue
  /// beyond it read as 0 and ignore writes.
  unsigned queues = 1;
  /// True: one thread a queue, commands run after the doorbell write returns. False: the doorbell
  /// write runs its queue's commands before it returns (one engine; requires queues == 1).
  bool threaded = false;

  /// The emulator's engines: every queue, each on a thread.
  static CommandProcessorParams concurrent() { return {isa::dev::kQueues, true}; }
};

class CommandProcessor {
public:
  /// The device reaches host memory only through `port` (offsets, never host pointers).
  CommandProcessor(Device &device, const wf_host_dma_port &port,
                   CommandProcessorParams params = {});
  /// No host memory until attachHostDma.
  explicit CommandProcessor(Device &device, CommandProcessorParams params = {});
  /// A port over a buffer of this process.
  CommandProcessor(Device &device, DmaWindow window, CommandProcessorParams params = {});
  CommandProcessor(const CommandProcessor &) = delete;
  CommandProcessor &operator=(const CommandProcessor &) = delete;
  /// Stops the queue threads (a command that runs finishes first).
  ~CommandProcessor();

  /// A 32-bit control register; unknown offsets read as 0.
  uint32_t readReg(uint32_t offset);
  /// Writes a control register. A queue's TAIL (the doorbell) wakes its thread and the commands
  /// run after the call returns; synchronous: they run before it returns. CONTROL.RESET waits for
  /// running commands to end.
  void writeReg(uint32_t offset, uint32_t value);
  /// Replaces the host-DMA port (a transport attaching after creation).
  void attachHostDma(const wf_host_dma_port &port);
  /// Whether every queue is empty and nothing runs.
  bool idle();
  /// Whether an enabled interrupt is pending.
  bool irqPending();

  /// What runs a LAUNCH in place of Device::launch: a timing model that takes the emulator's
  /// behaviour through its Stepper (the cycle device). Empty: Device::launch. A launcher runs on
  /// the thread that rings the doorbell (SystemC stays on its caller's thread), so setting one
  /// makes a threaded processor synchronous, with one queue. Set it before the first doorbell.
  using Launcher = std::function<LaunchResult(const LaunchDesc &, const RunOptions &)>;
  void setLauncher(Launcher launcher);

  /// Commit trace of launches (docs/commit-trace.md), for debugging through the protocol.
  void setTrace(std::ostream *trace) { trace_ = trace; }

  /// Statistics for the device's report.
  uint64_t commandsRun() const { return commandsRun_.load(); }

private:
  struct Queue {
    uint64_t base = 0;
    uint32_t size = 0;
    uint32_t head = 0, tail = 0;
    uint64_t completedSeq = 0;
    uint32_t latchedSeqHi = 0;
    bool busy = false; ///< a command runs, outside the lock
    std::thread thread;
  };

  void reset();
  void work(unsigned q);
  bool ready(const Queue &q) const { return q.size && q.base % 64 == 0 && q.head != q.tail; }
  void step(unsigned q, std::unique_lock<std::mutex> &lock);
  bool queueRegAt(uint32_t offset, unsigned &queue, isa::dev::QueueReg &reg) const;
  uint32_t readQueueReg(Queue &queue, isa::dev::QueueReg reg);
  void writeQueueReg(unsigned q, isa::dev::QueueReg reg, uint32_t value,
                     std::unique_lock<std::mutex> &lock);
  isa::dev::Status run(const isa::dev::Command &cmd, isa::dev::Completion &done);
  isa::dev::Status launch(uint64_t descAddr, isa::dev::Completion &done);
  bool hostRange(uint64_t offset, uint64_t bytes) const;
  bool hostRead(uint64_t offset, void *dst, uint64_t bytes) const;
  bool hostWrite(uint64_t offset, const void *src, uint64_t bytes) const;
  void startThreads();

  Device &device_;
  DmaWindow buffer_; ///< the buffer behind port_ when constructed from a DmaWindow
  wf_host_dma_port port_{};
  std::ostream *trace_ = nullptr;
  Launcher launcher_;
  CommandProcessorParams params_; ///< changes only in setLauncher, under mutex_

  std::mutex mutex_;            ///< registers and queue state
  std::condition_variable cv_;  ///< doorbells, completions (WAIT), reset, stop
  std::mutex launchMutex_;      ///< one grid at a time on the emulator's cores
  std::array<Queue, isa::dev::kQueues> queues_;
  uint64_t epoch_ = 0; ///< bumped by RESET: commands of an older epoch report nothing
  bool stop_ = false;
  std::atomic<uint64_t> cycles_{0}; ///< the device cycle counter, as of the last launch
  uint32_t latchedCyclesHi_ = 0;
  uint32_t irqStatus_ = 0, irqEnable_ = 0;
  std::atomic<uint32_t> watchdogMinsts_;
  bool faulted_ = false;
  uint64_t gridCount_ = 0; ///< under launchMutex_
  std::atomic<uint64_t> commandsRun_{0};
};

} // namespace wf::func
