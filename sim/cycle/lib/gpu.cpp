//===- gpu.cpp - Cores, block dispatcher, crossbar and L2 -----------------===//
//
// One SC_THREAD clocks the GPU: each core cycle it applies the DRAM fills that arrived, runs the
// L2 banks, the crossbar, the block dispatcher and every core (core 0 first), then waits one
// period. A second thread hands L2 misses and write-backs to the DRAM controller's AT port, which
// may block on the base protocol without stopping the clock. The caches' tags and replacement are
// hls::CacheTags; the data always comes from the emulator's memory, so the DRAM model carries
// timing only (its write-backs write no bytes: byte enables all clear).
//
//===----------------------------------------------------------------------===//

#include "warpforge/cycle/gpu.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace wf::cycle {

using namespace sc_core;

struct Gpu::Bank {
  TagArray tags;
  uint64_t busyUntil = 0; ///< the bank takes its next request in this cycle
  /// line -> requests waiting for its fill (core, tag, atomic lanes)
  struct Waiter {
    unsigned core;
    uint32_t tag;
    uint32_t lanes;
    bool write;
  };
  std::map<uint64_t, std::vector<Waiter>> mshrs;
  struct Response {
    uint64_t at;
    unsigned core;
    uint32_t tag;
  };
  std::deque<Response> responses; ///< in time order
};

struct Gpu::DramRequest {
  tlm::tlm_generic_payload trans;
  std::vector<uint8_t> data, enables;
  unsigned bank = 0;
  uint64_t line = 0;
  bool write = false;
};

Result<GpuParams> GpuParams::fromConfig(const isa::Config &config) {
  Result<PlatformParams> platform = PlatformParams::fromConfig(config);
  if (!platform)
    return Result<GpuParams>::fail(platform.error);
  GpuParams p;
  p.cores = config.cores;
  p.clockMhz = config.clockMhz;
  p.core = CoreParams::fromConfig(config);
  if (auto why = p.core.validate())
    return Result<GpuParams>::fail("configuration '" + std::string(config.name) + "': " + *why);
  p.l2.bytes = config.l2Bytes;
  p.l2.ways = config.l2Ways;
  p.l2.banks = config.l2Banks;
  p.l2.lineBytes = config.cacheLineBytes;
  p.platform = *platform.value;
  return {p, {}};
}

Gpu::Gpu(sc_module_name name, const GpuParams &params)
    : sc_module(name), platform("platform", params.platform, 1), params_(params),
      period_(sc_time(1e6 / params.clockMhz, SC_PS)), l2Port_("l2_port") {
  l2Port_.socket.bind(platform.dram.ports[1]);
  for (unsigned c = 0; c < params_.cores; ++c)
    cores_.push_back(std::make_unique<SimtCore>(c, params_.core));
  for (unsigned b = 0; b < params_.l2.banks; ++b) {
    auto bank = std::make_unique<Bank>();
    bank->tags.configure(params_.l2.bytes / params_.l2.banks, params_.l2.lineBytes,
                         params_.l2.ways);
    banks_.push_back(std::move(bank));
  }
  xbarLast_.assign(params_.l2.banks, params_.cores); // the requester after "last" is core 0
  l2Port_.onResponse([this](tlm::tlm_generic_payload &trans) {
    // A read's address is its line; the clock thread fills it at the next cycle edge.
    const uint64_t line = trans.get_address() / params_.l2.lineBytes * params_.l2.lineBytes;
    fills_.push_back(Fill{sc_time_stamp(), unsigned(line / params_.l2.lineBytes % banks_.size()),
                          line, trans.is_write()});
    for (auto it = inFlightDram_.begin(); it != inFlightDram_.end(); ++it)
      if (&(*it)->trans == &trans) {
        dramFree_.push_back(std::move(*it));
        inFlightDram_.erase(it);
        break;
      }
  });
  sc_spawn([this] { clockThread(); }, "clock");
  sc_spawn([this] { dramThread(); }, "dram_issue");
}

Gpu::~Gpu() = default;

// --- DRAM side -----------------------------------------------------------------------------------

void Gpu::sendDram(uint64_t address, bool write, unsigned bank, uint64_t line) {
  std::unique_ptr<DramRequest> r;
  if (!dramFree_.empty()) {
    r = std::move(dramFree_.front());
    dramFree_.pop_front();
  } else {
    r = std::make_unique<DramRequest>();
  }
  r->data.assign(params_.l2.lineBytes, 0);
  r->enables.assign(params_.l2.lineBytes, 0); // timing only: a write-back writes no byte
  r->bank = bank;
  r->line = line;
  r->write = write;
  tlm::tlm_generic_payload &t = r->trans;
  t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  t.set_address(address);
  t.set_data_ptr(r->data.data());
  t.set_data_length(params_.l2.lineBytes);
  t.set_streaming_width(params_.l2.lineBytes);
  t.set_byte_enable_ptr(write ? r->enables.data() : nullptr);
  t.set_byte_enable_length(write ? params_.l2.lineBytes : 0);
  t.set_dmi_allowed(false);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  dramQueue_.push_back(std::move(r));
  dramEvent_.notify(SC_ZERO_TIME);
}

void Gpu::dramThread() {
  for (;;) {
    while (dramQueue_.empty())
      wait(dramEvent_);
    std::unique_ptr<DramRequest> r = std::move(dramQueue_.front());
    dramQueue_.pop_front();
    DramRequest *raw = r.get();
    inFlightDram_.push_back(std::move(r));
    l2Port_.send(raw->trans);
  }
}

// --- L2 banks ------------------------------------------------------------------------------------

void Gpu::l2Fill(unsigned b, uint64_t line) {
  Bank &bank = *banks_[b];
  auto it = bank.mshrs.find(line);
  if (it == bank.mshrs.end())
    return;
  bool dirty = false;
  uint64_t at = now_ + 1;
  for (const Bank::Waiter &w : it->second) {
    dirty = dirty || w.write || w.lanes > 1;
    at += w.lanes > 1 ? w.lanes - 1 : 0; // atomics run lane by lane on the filled line
    bank.responses.push_back(Bank::Response{at, w.core, w.tag});
  }
  bank.busyUntil = std::max(bank.busyUntil, at);
  bank.mshrs.erase(it);
  TagArray::Victim v = bank.tags.fill(line, dirty);
  if (v.valid && v.dirty) {
    ++l2Counters_.writebacks;
    sendDram(v.address, true, b, v.address);
  }
}

void Gpu::l2Step() {
  // DRAM answers that arrived by now (the clock thread runs after them in this delta order).
  while (!fills_.empty() && fills_.front().at <= sc_time_stamp()) {
    Fill f = fills_.front();
    fills_.pop_front();
    if (!f.write)
      l2Fill(f.bank, f.line);
  }
  for (auto &bankPtr : banks_) {
    Bank &bank = *bankPtr;
    while (!bank.responses.empty() && bank.responses.front().at <= now_) {
      Bank::Response r = bank.responses.front();
      bank.responses.pop_front();
      cores_[r.core]->respond(r.tag, now_);
    }
    if (bank.busyUntil > now_)
      ++l2Counters_.bankBusyCycles;
  }
}

void Gpu::crossbar() {
  const unsigned requesters = params_.cores;
  for (unsigned b = 0; b < banks_.size(); ++b) {
    Bank &bank = *banks_[b];
    if (bank.busyUntil > now_)
      continue;
    // Round robin from the requester after the one granted last; a core offers its oldest request.
    for (unsigned k = 1; k <= requesters; ++k) {
      const unsigned c = (xbarLast_[b] + k) % requesters;
      std::deque<LineRequest> &q = cores_[c]->outgoing();
      if (q.empty())
        continue;
      const LineRequest req = q.front();
      const uint64_t line = req.address / params_.l2.lineBytes * params_.l2.lineBytes;
      if ((line / params_.l2.lineBytes) % banks_.size() != b)
        continue;
      const bool atomic = req.kind == LineRequest::Kind::Atomic;
      const bool write = req.kind == LineRequest::Kind::Write;
      const bool hit = bank.tags.lookup(line);
      auto mshr = bank.mshrs.find(line);
      if (!hit && mshr == bank.mshrs.end() && !write &&
          bank.mshrs.size() >= params_.l2.mshrsPerBank)
        continue; // no MSHR: the request waits at the core
      q.pop_front();
      xbarLast_[b] = c;
      ++l2Counters_.requests;
      l2Counters_.atomics += atomic;
      const uint32_t lanes = atomic ? req.lanes : 1;
      bank.busyUntil = now_ + lanes; // atomics hold the bank one cycle a lane
      if (hit) {
        ++l2Counters_.hits;
        if (write || atomic)
          bank.tags.markDirty(line);
        bank.responses.push_back(
            Bank::Response{now_ + params_.l2.hitLatency + lanes - 1, c, req.tag});
      } else if (mshr != bank.mshrs.end()) {
        ++l2Counters_.mshrMerges;
        mshr->second.push_back(Bank::Waiter{c, req.tag, lanes, write});
      } else if (write) {
        // Write-allocate without reading DRAM (byte masks are not kept: docs/cycle-model.md).
        ++l2Counters_.misses;
        TagArray::Victim v = bank.tags.fill(line, true);
        if (v.valid && v.dirty) {
          ++l2Counters_.writebacks;
          sendDram(v.address, true, b, v.address);
        }
        bank.responses.push_back(Bank::Response{now_ + params_.l2.hitLatency, c, req.tag});
      } else {
        ++l2Counters_.misses;
        bank.mshrs[line].push_back(Bank::Waiter{c, req.tag, lanes, false});
        sendDram(line, false, b, line);
      }
      // Responses leave in time order per bank.
      std::stable_sort(bank.responses.begin(), bank.responses.end(),
                       [](const Bank::Response &a, const Bank::Response &b2) { return a.at < b2.at; });
      break;
    }
  }
}

// --- Block dispatcher ----------------------------------------------------------------------------

void Gpu::dispatchBlock() {
  if (nextBlock_ >= totalBlocks_ || stopped_)
    return;
  SimtCore &core = *cores_[offerCore_];
  if (!core.canAdmit()) {
    offerCore_ = (offerCore_ + 1) % params_.cores; // the same block goes to the next core
    return;
  }
  const isa::Dim3 &g = desc_->grid;
  const uint64_t linear = nextBlock_++;
  isa::Dim3 index{uint32_t(linear % g.x), uint32_t(linear / g.x % g.y),
                   uint32_t(linear / (uint64_t(g.x) * g.y))};
  core.admit(linear, index, now_);
  offerCore_ = (offerCore_ + 1) % params_.cores;
}

// --- Clock ---------------------------------------------------------------------------------------

bool Gpu::launchDone() const {
  if (stopped_) {
    for (const auto &c : cores_)
      if (!c->outgoing().empty())
        return false;
    return true;
  }
  if (nextBlock_ < totalBlocks_)
    return false;
  for (const auto &c : cores_)
    if (!c->idle())
      return false;
  return true;
}

void Gpu::tick() {
  l2Step();
  crossbar();
  dispatchBlock();
  for (auto &c : cores_) {
    c->tick(now_);
    if (c->faulted())
      stopped_ = true;
  }
}

void Gpu::clockThread() {
  for (;;) {
    // The flag, not only the event: the first launch notifies before the thread first runs.
    while (!running_)
      wait(launchEvent_);
    while (!launchDone()) {
      ++now_;
      tick();
      wait(period_);
    }
    running_ = false;
  }
}

isa::LaunchResult Gpu::launch(isa::GoldenModel &model, const isa::LaunchDesc &desc,
                              const LaunchOptions &options) {
  isa::LaunchResult result;
  desc_ = &desc;
  lastRecord_.clear();
  stepper_ = model.begin(desc, [this](std::span<const uint8_t> r) {
    isa::dev::CommitRecord h;
    std::memcpy(&h, r.data(), sizeof h);
    if (h.kind == uint8_t(isa::dev::CommitKind::Inst))
      lastRecord_.assign(r.begin(), r.end());
  });
  if (stepper_->fault()) { // an invalid launch: nothing runs
    result = stepper_->finish();
    stepper_.reset();
    return result;
  }
  // The begin checked that the code segment lies in device memory.
  std::vector<uint8_t> code(desc.codeSize);
  model.read(desc.codeBase, code.data(), code.size());
  code_ = decodeTiming(code.data(), desc.codeSize, params_.core.lanes);
  const uint32_t threads = uint32_t(desc.block.count());
  ctx_ = SimtCore::LaunchContext{};
  ctx_.stepper = stepper_.get();
  ctx_.desc = &desc;
  ctx_.warpsPerBlock = (threads + isa::kWarpSize - 1) / isa::kWarpSize;
  ctx_.regsPerThread = std::max(desc.regsPerThread, 1u);
  ctx_.sharedBytes = desc.sharedStatic + desc.sharedDynamic;
  const uint64_t localArea = uint64_t(desc.localBytes) * isa::kWarpSize * params_.core.warps *
                             params_.cores;
  const uint64_t capacity = params_.platform.dram.capacityBytes();
  ctx_.localBase = localArea < capacity ? (capacity - localArea) & ~uint64_t(4095) : 0;
  ctx_.watchdogWarpInsts = options.watchdogWarpInsts;
  warpInstsTotal_ = 0;
  ctx_.warpInstsTotal = &warpInstsTotal_;
  ctx_.lastRecord = &lastRecord_;
  if (issueObserver)
    ctx_.onIssue = [this](unsigned c, unsigned w, uint32_t pc, uint64_t at) {
      issueObserver(c, w, pc, at - launchStart_);
    };
  for (auto &c : cores_)
    c->startLaunch(&ctx_, &code_);
  totalBlocks_ = desc.grid.count();
  nextBlock_ = 0;
  offerCore_ = 0;
  stopped_ = false;
  running_ = true;
  launchStart_ = now_;
  launchEvent_.notify(SC_ZERO_TIME);
  sc_start();
  const uint64_t cycles = now_ - launchStart_;
  cyclesTotal_ += cycles;
  ++launches_;

  result = stepper_->finish(cycles);
  std::string internal;
  for (auto &c : cores_)
    if (!c->error().empty() && internal.empty())
      internal = c->error();
  if (!result.fault && !internal.empty()) {
    isa::Fault f;
    f.kind = isa::FaultKind::IllegalInstruction;
    f.kernel = desc.kernelName;
    f.detail = isa::dev::FaultDetail::ModelLimit; // faults are fields: the words go to the log
    std::fprintf(stderr, "warpforge cycle: %s\n", internal.c_str());
    result.fault = f;
  } else if (!result.fault && stopped_ && warpInstsTotal_ > options.watchdogWarpInsts) {
    isa::Fault f;
    f.kind = isa::FaultKind::Watchdog;
    f.kernel = desc.kernelName;
    f.detail = {isa::dev::FaultDetail::WatchdogLimit, options.watchdogWarpInsts};
    result.fault = f;
  }
  stepper_.reset();
  return result;
}

// --- Statistics ----------------------------------------------------------------------------------

void Gpu::registerStats(stats::Group &g) const {
  g.formula("cycles", "cycle", "core cycles of every launch (the cycle model's clock)",
            [this] { return double(cyclesTotal_); });
  g.formula("launches", "count", "grids run", [this] { return double(launches_); });
  g.formula("warp_insts", "count", "warp instructions issued, all cores", [this] {
    double n = 0;
    for (const auto &c : cores_)
      n += double(c->counters().warpInsts);
    return n;
  });
  g.formula("thread_insts", "count", "thread instructions, all cores", [this] {
    double n = 0;
    for (const auto &c : cores_)
      n += double(c->counters().threadInsts);
    return n;
  });
  g.formula("ipc", "warp-inst/cycle", "warp instructions per GPU cycle, all cores", [this] {
    double n = 0;
    for (const auto &c : cores_)
      n += double(c->counters().warpInsts);
    return cyclesTotal_ ? n / double(cyclesTotal_) : 0.0;
  });
  for (unsigned c = 0; c < cores_.size(); ++c)
    cores_[c]->registerStats(g.group("core" + std::to_string(c)));
  stats::Group &l2 = g.group("l2");
  auto f = [&](const char *name, const char *unit, const char *desc, uint64_t L2Counters::*m) {
    l2.formula(name, unit, desc, [this, m] { return double(l2Counters_.*m); });
  };
  f("requests", "count", "line requests the banks took", &L2Counters::requests);
  f("hits", "count", "requests that hit", &L2Counters::hits);
  f("misses", "count", "requests that missed and allocated", &L2Counters::misses);
  f("mshr_merges", "count", "misses merged into an outstanding miss of their line",
    &L2Counters::mshrMerges);
  f("writebacks", "count", "dirty lines written back to DRAM", &L2Counters::writebacks);
  f("atomics", "count", "atomic line requests", &L2Counters::atomics);
  l2.formula("hit_rate", "ratio", "hits / requests", [this] {
    return l2Counters_.requests ? double(l2Counters_.hits) / double(l2Counters_.requests) : 0.0;
  });
  platform.registerStats(g.group("platform"));
}

} // namespace wf::cycle
