//===- rtl_device.cpp - The Verilated GPU as a device ----------------------===//

#include "warpforge/rtl/rtl_device.h"

#include "warpforge/isa/device.gen.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <sys/mman.h>
#include <unistd.h>

namespace wf::rtl {
namespace dev = isa::dev;

namespace {

/// Cycles an AXI4-Lite access may take before the device counts as lost.
constexpr uint64_t kRegTimeoutCycles = 100000;
/// Reset held for this many cycles when the device is built.
constexpr unsigned kResetCycles = 8;

uint64_t nsToCycles(uint64_t ns, uint64_t mhz) { return (ns * mhz + 999) / 1000; }

bool parseU64(const std::string &text, uint64_t &value) {
  if (text.empty())
    return false;
  char *end = nullptr;
  errno = 0;
  value = std::strtoull(text.c_str(), &end, 0);
  return *end == '\0' && errno == 0 && text[0] != '-';
}

} // namespace

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

std::string RtlOptions::parse(const std::string &text) {
  auto set = [&](const std::string &key, const std::string &value) -> std::string {
    if (key == "wave") {
      wavePath = value;
    } else if (key == "wave-cycles") {
      size_t colon = value.find(':');
      uint64_t from = 0, to = UINT64_MAX;
      if (colon == std::string::npos || !parseU64(value.substr(0, colon), from) ||
          (colon + 1 < value.size() && !parseU64(value.substr(colon + 1), to)) || to <= from)
        return "wave-cycles wants FROM:TO (cycles, FROM < TO; TO may be left out), not '" + value +
               "'";
      waveFrom = from;
      waveTo = to;
    } else if (key == "progress") {
      char *end = nullptr;
      double s = std::strtod(value.c_str(), &end);
      if (value.empty() || *end || s < 0)
        return "progress wants seconds (0: never), not '" + value + "'";
      progressSeconds = s;
    } else if (key == "commit") {
      commitPath = value;
    } else if (key == "lockstep") {
      lockstep = value.empty() || value == "1" || value == "on";
      if (!lockstep && value != "0" && value != "off")
        return "lockstep wants on or off, not '" + value + "'";
    } else if (key == "stall-cycles") {
      if (!parseU64(value, stallCycles))
        return "stall-cycles wants a number of cycles (0: never), not '" + value + "'";
    } else {
      return "unknown option '" + key +
             "' (there are: wave, wave-cycles, progress, commit, lockstep, stall-cycles)";
    }
    return {};
  };
  const std::pair<const char *, const char *> env[] = {
      {"WARPFORGE_RTL_WAVE", "wave"},         {"WARPFORGE_RTL_WAVE_CYCLES", "wave-cycles"},
      {"WARPFORGE_RTL_PROGRESS", "progress"}, {"WARPFORGE_RTL_COMMIT", "commit"},
      {"WARPFORGE_RTL_LOCKSTEP", "lockstep"}, {"WARPFORGE_RTL_STALL_CYCLES", "stall-cycles"}};
  for (auto [var, key] : env)
    if (const char *v = std::getenv(var); v && *v)
      if (std::string why = set(key, v); !why.empty())
        return std::string(var) + ": " + why;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find(',', start);
    if (end == std::string::npos)
      end = text.size();
    std::string item = text.substr(start, end - start);
    size_t eq = item.find('=');
    std::string key = item.substr(0, eq), value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (!item.empty())
      if (std::string why = set(key, value); !why.empty())
        return why;
    start = end + 1;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Memory behind the AXI masters
//===----------------------------------------------------------------------===//

/// One DRAM channel: the shared device memory, this channel's fixed timing.
class RtlDevice::DramBackend final : public MemoryBackend {
public:
  // Addresses are byte offsets into device memory (wf_gpu's DRAM masters).
  DramBackend(uint8_t *memory, uint64_t size, const FixedDramParams &params)
      : memory_(memory), size_(size), timing_(params) {}
  bool read(uint64_t address, void *dst, uint64_t bytes) override {
    if (address > size_ || bytes > size_ - address)
      return false;
    std::memcpy(dst, memory_ + address, bytes);
    return true;
  }
  bool write(uint64_t address, const void *src, uint64_t bytes) override {
    if (address > size_ || bytes > size_ - address)
      return false;
    std::memcpy(memory_ + address, src, bytes);
    return true;
  }
  uint64_t readyCycle(bool, uint64_t, uint64_t cycle) override { return timing_.request(cycle); }
  uint64_t lines() const { return timing_.lines(); }

private:
  uint8_t *memory_;
  uint64_t size_;
  FixedDramChannel timing_;
};

/// Host memory through the host-DMA port, `latency` cycles away (the link's one-way latency for
/// a write, a round trip for a read).
class RtlDevice::HostBackend final : public MemoryBackend {
public:
  explicit HostBackend(uint64_t latency) : latency_(latency) {}
  void attach(const wf_host_dma_port &port) { port_ = port; }
  bool read(uint64_t address, void *dst, uint64_t bytes) override {
    return port_.read && port_.read(port_.context, address, dst, bytes) == 0;
  }
  bool write(uint64_t address, const void *src, uint64_t bytes) override {
    return port_.write && port_.write(port_.context, address, src, bytes) == 0;
  }
  uint64_t readyCycle(bool write, uint64_t, uint64_t cycle) override {
    return cycle + (write ? latency_ : 2 * latency_);
  }

private:
  wf_host_dma_port port_{};
  uint64_t latency_;
};

//===----------------------------------------------------------------------===//
// RtlDevice
//===----------------------------------------------------------------------===//

RtlDevice::RtlDevice(const isa::Config &config, const RtlOptions &options)
    : config_(config), options_(options) {}

namespace {

// Devices whose files (waves, commit records) must be complete even when the program exits without
// destroying its device, as a CUDA program that returns from main does.
std::mutex liveMutex;
std::set<RtlDevice *> &liveDevices() {
  static auto *devices = new std::set<RtlDevice *>; // never destroyed: used from atexit
  return *devices;
}
void finishLiveDevices() {
  std::lock_guard lock(liveMutex);
  for (RtlDevice *d : liveDevices())
    d->closeFiles();
}

} // namespace

void RtlDevice::closeFiles() {
  if (tracing_) {
    top_->closeTrace();
    tracing_ = false;
  }
  if (commitFile_) {
    std::fclose(commitFile_);
    commitFile_ = nullptr;
  }
}

RtlDevice::~RtlDevice() {
  {
    std::lock_guard lock(liveMutex);
    liveDevices().erase(this);
  }
  if (top_)
    top_->final();
  closeFiles();
  if (dram_)
    munmap(dram_, dramBytes_);
}

std::unique_ptr<RtlDevice> RtlDevice::create(const isa::Config &config, const RtlOptions &options,
                                             std::string &error) {
  std::unique_ptr<RtlDevice> device(new RtlDevice(config, options));
  if (!device->build(error))
    return nullptr;
  return device;
}

bool RtlDevice::build(std::string &error) {
  dramBytes_ = uint64_t(config_.globalMemMib) << 20;
  void *p = mmap(nullptr, dramBytes_, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    error = "rtl: cannot map " + std::to_string(config_.globalMemMib) + " MiB of device memory";
    return false;
  }
  dram_ = static_cast<uint8_t *>(p);

  context_ = std::make_unique<VerilatedContext>();
  context_->fatalOnError(false);
  // Exactly the threads the models were Verilated for (WF_RTL_THREADS), not one a host core.
  context_->threads(WF_RTL_THREADS);
  if (!options_.wavePath.empty())
    context_->traceEverOn(true);
  top_ = makeGpuTop(std::string(config_.name), context_.get());
  if (!top_) {
    error = "rtl: this RTL device was not Verilated for configuration '" +
            std::string(config_.name) + "' (built: " + builtGpuConfigs() +
            "; the CMake cache variable WF_RTL_CONFIGS lists them)";
    return false;
  }
  if (const char *port = top_->badPort()) {
    error = std::string("rtl: port ") + port + " of wf_gpu does not have the width the harness "
            "assumes (sim/rtl/include/warpforge/rtl/gpu_widths.h against rtl/soc/wf_soc_pkg.sv)";
    return false;
  }
  if (!options_.wavePath.empty()) {
    if (!top_->openTrace(options_.wavePath, error))
      return false;
    tracing_ = true;
  }
  if (!options_.commitPath.empty()) {
    commitFile_ = std::fopen(options_.commitPath.c_str(), "wb");
    if (!commitFile_) {
      error = "rtl: cannot write the commit file '" + options_.commitPath + "'";
      return false;
    }
  }

  ctrl_ = std::make_unique<AxiLiteMaster>(top_->ctrl);
  hostMemory_ = std::make_unique<HostBackend>(nsToCycles(config_.hostLinkLatencyNs, config_.clockMhz));
  host_ = std::make_unique<AxiSlave>(top_->host, 0, *hostMemory_);
  FixedDramParams dram = FixedDramParams::fromConfig(config_);
  for (unsigned c = 0; c < top_->widths.dramChannels; ++c) {
    dramChannels_.push_back(std::make_unique<DramBackend>(dram_, dramBytes_, dram));
    dramPorts_.push_back(std::make_unique<AxiSlave>(top_->dram, c, *dramChannels_.back()));
  }
  for (unsigned core = 0; core < top_->widths.cores; ++core)
    commitPackers_.push_back(std::make_unique<CommitPacker>(
        core, config_.lanes,
        [this, core](std::span<const uint8_t> record) {
          if (commitFile_)
            std::fwrite(record.data(), 1, record.size(), commitFile_);
          if (commitSink_)
            commitSink_(core, record);
        },
        nullptr)); // block slot as block_x until wf_gpu reports admissions (docs/rtl-sim.md)
  started_ = lastProgress_ = callStart_ = std::chrono::steady_clock::now();
  if (tracing_ || commitFile_) {
    static bool registered = std::atexit(finishLiveDevices) == 0;
    (void)registered;
    std::lock_guard lock(liveMutex);
    liveDevices().insert(this);
  }
  resetGpu();
  return true;
}

void RtlDevice::resetGpu() {
  ctrl_->reset();
  host_->reset();
  for (auto &port : dramPorts_)
    port->reset();
  top_->rstN.set(0);
  for (unsigned i = 0; i < kResetCycles; ++i)
    step();
  top_->rstN.set(1);
}

void RtlDevice::step() {
  // Clock low: the models drive their outputs, the design settles, the models sample.
  ctrl_->drive();
  host_->drive(cycle_);
  for (auto &port : dramPorts_)
    port->drive(cycle_);
  top_->eval();
  uint64_t hostWrites = host_->writeResponses();
  ctrl_->sample();
  host_->sample(cycle_);
  for (auto &port : dramPorts_)
    port->sample(cycle_);
  collectCommits();
  bool irq = top_->irq.bit();
  news_ = host_->writeResponses() != hostWrites || (irq && !irq_);
  irq_ = irq;

  bool dump = tracing_ && cycle_ >= options_.waveFrom && cycle_ < options_.waveTo;
  if (dump)
    top_->dumpTrace(2 * cycle_);
  top_->clk.set(1);
  top_->eval();
  if (dump)
    top_->dumpTrace(2 * cycle_ + 1);
  top_->clk.set(0);
  ++cycle_;
  if ((cycle_ & 0xfff) == 0)
    progress();
}

void RtlDevice::collectCommits() {
  const GpuPortWidths &w = top_->widths;
  for (unsigned core = 0; core < commitPackers_.size(); ++core) {
    CommitPacker &packer = *commitPackers_[core];
    if (top_->commitValid.bit(core)) {
      ++commitHeaders_;
      // commit_hdr_t, most significant field first: kind, opcode, pc, active, exec, warp, slot,
      // warp_slot.
      unsigned at = core * w.commitHdrBits();
      CommitHeader h;
      h.warpSlot = uint32_t(top_->commitHdr.bits(at, w.warpIdBits));
      at += w.warpIdBits;
      h.blockSlot = uint32_t(top_->commitHdr.bits(at, w.blockIdBits));
      at += w.blockIdBits;
      h.warp = uint32_t(top_->commitHdr.bits(at, 32));
      h.exec = uint32_t(top_->commitHdr.bits(at + 32, 32));
      h.active = uint32_t(top_->commitHdr.bits(at + 64, 32));
      h.pc = uint32_t(top_->commitHdr.bits(at + 96, 32));
      h.opcode = uint8_t(top_->commitHdr.bits(at + 128, 8));
      h.kind = uint8_t(top_->commitHdr.bits(at + 136, 8));
      packer.header(h);
    }
    if (top_->commitWbValid.bit(core)) {
      // commit_wb_t: warp_slot, reg_index, pass, lanes; the row's values in commit_wb_data_o.
      unsigned at = core * w.commitWbBits();
      uint32_t written = uint32_t(top_->commitWb.bits(at, 32));
      uint32_t pass = uint32_t(top_->commitWb.bits(at + 32, 5));
      uint32_t reg = uint32_t(top_->commitWb.bits(at + 37, 8));
      uint32_t slot = uint32_t(top_->commitWb.bits(at + 45, w.warpIdBits));
      uint32_t values[32];
      unsigned base = core * w.maxLanes * 32;
      for (unsigned lane = 0; lane < w.maxLanes && lane < 32; ++lane)
        values[lane] = uint32_t(top_->commitWbData.bits(base + lane * 32, 32));
      packer.row(slot, reg, pass, written, values);
    }
  }
}

uint64_t RtlDevice::activity() const {
  uint64_t n = commitHeaders_ + host_->readBeats() + host_->writeBeats() + host_->writeResponses();
  for (const auto &port : dramPorts_)
    n += port->readBeats() + port->writeBeats() + port->writeResponses();
  return n;
}

void RtlDevice::checkStall() {
  uint64_t now = activity();
  if (now != lastActivity_) {
    lastActivity_ = now;
    lastActiveCycle_ = cycle_;
    return;
  }
  if (options_.stallCycles == 0 || cycle_ - lastActiveCycle_ < options_.stallCycles)
    return;
  // Quiet for the whole limit: stuck unless the GPU is simply idle (the host did not look yet).
  lastActiveCycle_ = cycle_;
  bool quiet = idle();
  callStart_ = std::chrono::steady_clock::now(); // the STATUS read counted its own time
  if (quiet)
    return;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "the GPU made no progress for %llu cycles while busy (no instruction committed, no "
                "DRAM or host-memory traffic, no register write from the host) up to cycle %llu: "
                "the RTL is stuck (limit: WARPFORGE_RTL_STALL_CYCLES; docs/rtl-sim.md)",
                static_cast<unsigned long long>(options_.stallCycles),
                static_cast<unsigned long long>(cycle_));
  stop(buf);
}

void RtlDevice::flushCommits() {
  for (auto &packer : commitPackers_)
    packer->flush();
}

void RtlDevice::progress() {
  if (options_.progressSeconds <= 0)
    return;
  auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - lastProgress_).count() < options_.progressSeconds)
    return;
  auto busy = busy_ + (now - callStart_);
  double seconds = std::chrono::duration<double>(busy - busyAtProgress_).count();
  double rate = seconds > 0 ? double(cycle_ - progressCycle_) / seconds : 0;
  double simulatedMs = double(cycle_) / (config_.clockMhz * 1000.0);
  std::fprintf(stderr, "rtl: %llu cycles, %.3f ms simulated at %u MHz, %.1f kcycles/s\n",
               static_cast<unsigned long long>(cycle_), simulatedMs, config_.clockMhz,
               rate / 1000.0);
  lastProgress_ = now;
  busyAtProgress_ = busy;
  progressCycle_ = cycle_;
}

bool RtlDevice::regAccess(uint32_t offset, bool write, uint32_t value, uint32_t &result) {
  if (!lost_.empty())
    return false;
  callStart_ = std::chrono::steady_clock::now();
  struct Busy { // adds the time this access runs the clock to busy_
    RtlDevice &d;
    ~Busy() { d.busy_ += std::chrono::steady_clock::now() - d.callStart_; }
  } busy{*this};
  if (write)
    ctrl_->startWrite(offset, value);
  else
    ctrl_->startRead(offset);
  for (uint64_t n = 0; !ctrl_->idle(); ++n) {
    if (n == kRegTimeoutCycles) {
      char buf[160];
      std::snprintf(buf, sizeof buf,
                    "the RTL did not answer an AXI4-Lite %s of register 0x%03x within %llu cycles",
                    write ? "write" : "read", offset,
                    static_cast<unsigned long long>(kRegTimeoutCycles));
      lost_ = buf;
      ctrl_->reset();
      return false;
    }
    step();
  }
  result = ctrl_->readData();
  return true;
}

uint32_t RtlDevice::readReg(uint32_t offset) {
  uint32_t value = 0;
  if (!regAccess(offset, false, 0, value))
    return UINT32_MAX;
  return value;
}

void RtlDevice::writeReg(uint32_t offset, uint32_t value) {
  knownIdle_ = false;
  lastActiveCycle_ = cycle_;
  // SCRUB zeroes all device memory: done here, in the DRAM model, because the RTL cannot write
  // gigabytes in a simulated time anyone would wait for (docs/rtl-sim.md).
  if (offset == uint32_t(dev::Reg::Control) && (value & dev::kControlScrub) && dram_)
    madvise(dram_, dramBytes_, MADV_DONTNEED);
  uint32_t ignored = 0;
  regAccess(offset, true, value, ignored);
}

bool RtlDevice::lost(std::string *why) const {
  if (lost_.empty())
    return false;
  if (why)
    *why = lost_;
  return true;
}

void RtlDevice::stop(std::string why) {
  if (lost_.empty())
    lost_ = std::move(why);
}

void RtlDevice::attachHostDma(const wf_host_dma_port &port) {
  hostMemory_->attach(port);
  top_->dmaWindowSize.set(std::min<uint64_t>(port.size, UINT32_MAX));
}

bool RtlDevice::memRead(uint64_t address, void *dst, uint64_t bytes) {
  if (address < isa::kGlobalBase)
    return false;
  address -= isa::kGlobalBase;
  if (address > dramBytes_ || bytes > dramBytes_ - address)
    return false;
  std::memcpy(dst, dram_ + address, bytes);
  return true;
}

bool RtlDevice::memWrite(uint64_t address, const void *src, uint64_t bytes) {
  if (address < isa::kGlobalBase)
    return false;
  address -= isa::kGlobalBase;
  if (address > dramBytes_ || bytes > dramBytes_ - address)
    return false;
  std::memcpy(dram_ + address, src, bytes);
  return true;
}

uint64_t RtlDevice::advance(uint64_t cycles) {
  if (knownIdle_ || !lost_.empty())
    return 0;
  callStart_ = std::chrono::steady_clock::now();
  uint64_t run = 0;
  while (run < cycles) {
    step();
    ++run;
    checkStall();
    if (news_ || !lost_.empty() || knownIdle_)
      break;
  }
  busy_ += std::chrono::steady_clock::now() - callStart_;
  return run;
}

bool RtlDevice::idle() {
  if (knownIdle_)
    return true;
  uint32_t status = readReg(uint32_t(dev::Reg::Status));
  knownIdle_ = lost_.empty() && (status & dev::kStatusIdle) != 0;
  return knownIdle_;
}

bool RtlDevice::irqPending() { return irq_; }

} // namespace wf::rtl
