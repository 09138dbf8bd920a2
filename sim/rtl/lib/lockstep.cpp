//===- lockstep.cpp - The RTL against a shadow emulator --------------------===//

#include "warpforge/rtl/lockstep.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <vector>

namespace wf::rtl {
namespace dev = isa::dev;

RtlLockstep::RtlLockstep(const isa::Config &config, Hooks hooks, const isa::Injection &inject)
    : config_(config), hooks_(std::move(hooks)), inject_(inject) {
  std::string why;
  shadow_ = isa::GoldenModel::open("func", std::string(config.name), why);
  if (!shadow_)
    fail("no shadow emulator: " + why);
}

RtlLockstep::~RtlLockstep() = default;

void RtlLockstep::attachHostDma(const wf_host_dma_port &port) { port_ = port; }

bool RtlLockstep::hostRead(uint64_t offset, void *dst, uint64_t bytes) const {
  return port_.read && port_.read(port_.context, offset, dst, bytes) == 0;
}

void RtlLockstep::fail(const std::string &why) {
  if (!stopped_.empty())
    return;
  stopped_ = why;
  std::fprintf(stderr, "rtl lockstep: %s\n", why.c_str());
  if (hooks_.stop)
    hooks_.stop("lockstep with the emulator failed: " + why);
}

void RtlLockstep::writeReg(uint32_t offset, uint32_t value) {
  switch (dev::Reg(offset)) {
  case dev::Reg::Control:
    if (value & dev::kControlReset) {
      pending_.clear();
      checker_.reset();
      head_ = 0;
    }
    // The shadow's own command processor scrubs its memory (its ring is never used).
    if ((value & dev::kControlScrub) && shadow_)
      shadow_->ops().write_reg(shadow_->model(), offset, dev::kControlScrub);
    return;
  case dev::Reg::QueueBaseLo:
    queueBase_ = (queueBase_ & ~0xffffffffull) | value;
    return;
  case dev::Reg::QueueBaseHi:
    queueBase_ = (queueBase_ & 0xffffffffull) | (uint64_t(value) << 32);
    return;
  case dev::Reg::QueueSize:
    queueSize_ = (value && !(value & (value - 1)) && value <= dev::kQueueEntriesMax) ? value : 0;
    head_ = 0;
    return;
  case dev::Reg::QueueTail:
    fetch(value);
    runShadow();
    return;
  default:
    return;
  }
}

// The commands between the last doorbell and this one, read from the ring as the device will.
void RtlLockstep::fetch(uint32_t tail) {
  for (; queueSize_ && head_ != tail; ++head_) {
    dev::Command cmd{};
    uint64_t at = queueBase_ + uint64_t(head_ % queueSize_) * sizeof cmd;
    if (!hostRead(at, &cmd, sizeof cmd)) {
      fail("cannot read command " + std::to_string(head_) + " of the ring through the host port");
      return;
    }
    pending_.push_back(cmd);
  }
}

// Runs what the shadow can run now: every command up to and including the next LAUNCH, which
// then advances only with the RTL's records.
void RtlLockstep::runShadow() {
  if (!shadow_)
    return;
  isa::GoldenModel &mem = *shadow_;
  while (!checker_ && !pending_.empty() && stopped_.empty()) {
    dev::Command cmd = pending_.front();
    pending_.pop_front();
    switch (dev::Op(cmd.opcode)) {
    case dev::Op::Launch:
      startLaunch(cmd);
      break;
    case dev::Op::Copy: {
      // Device-to-host copies are the RTL's to make; the shadow only follows device memory.
      if (cmd.flags & dev::kFlagDstHost)
        break;
      std::vector<uint8_t> bytes(cmd.arg2);
      bool ok = (cmd.flags & dev::kFlagSrcHost) ? hostRead(cmd.arg0, bytes.data(), cmd.arg2)
                                                : mem.read(cmd.arg0, bytes.data(), cmd.arg2);
      if (ok)
        mem.write(cmd.arg1, bytes.data(), cmd.arg2); // out of range: the RTL reports BAD_COMMAND
      break;
    }
    case dev::Op::Fill:
      mem.fill(cmd.arg0, uint8_t(cmd.arg1), cmd.arg2);
      break;
    default: // NOP, FENCE, TIMESTAMP: nothing in device memory
      break;
    }
  }
}

bool RtlLockstep::startLaunch(const dev::Command &cmd) {
  dev::LaunchDesc d{};
  if (!hostRead(cmd.arg0, &d, sizeof d))
    return false; // the RTL completes it with BAD_COMMAND; nothing runs
  isa::LaunchDesc desc; // no kernel name: the protocol carries none (the host's table has it)
  desc.params.resize(d.paramSize);
  if (!hostRead(d.paramAddr, desc.params.data(), d.paramSize))
    return false;
  desc.codeBase = d.codeBase;
  desc.codeSize = d.codeSize;
  desc.entryPc = d.entryPc;
  desc.grid = {d.gridX, d.gridY, d.gridZ};
  desc.block = {d.blockX, d.blockY, d.blockZ};
  desc.regsPerThread = d.regsPerThread;
  desc.sharedStatic = d.sharedStatic;
  desc.sharedDynamic = d.sharedDynamic;
  desc.localBytes = d.localBytes;
  desc.constBase = d.constBase;
  desc.constSize = d.constSize;
  desc.rtbuf = d.rtbuf;
  desc.gridId = d.gridId;
  checker_ = std::make_unique<isa::LockstepChecker>(
      [&](isa::CommitSink sink) { return shadow_->begin(desc, std::move(sink)); }, inject_);
  codeBase_ = d.codeBase;
  launchSeq_ = cmd.seq;
  launchCompletion_ = cmd.completion;
  ++launches_;
  return true;
}

bool RtlLockstep::onRecord(unsigned core, std::span<const uint8_t> record) {
  if (!stopped_.empty())
    return false;
  runShadow();
  if (!checker_) {
    fail("core " + std::to_string(core) + " committed an instruction outside every launch:\n  " +
         isa::formatCommit(record));
    return false;
  }
  // The RTL's header has no instruction word: take it from the code the shadow holds.
  std::vector<uint8_t> patched;
  dev::CommitRecord header{};
  std::memcpy(&header, record.data(), std::min(record.size(), sizeof header));
  if (header.word == 0 && record.size() >= sizeof header) {
    patched.assign(record.begin(), record.end());
    uint64_t word = 0;
    shadow_->read(codeBase_ + header.pc, &word, sizeof word);
    std::memcpy(patched.data() + offsetof(dev::CommitRecord, word), &word, sizeof word);
    record = patched;
  }
  if (!checker_->check(record)) {
    fail(checker_->mismatch() ? checker_->mismatch()->message : "the checker stopped");
    return false;
  }
  return true;
}

void RtlLockstep::closeLaunch() {
  if (!checker_->finish())
    fail(checker_->mismatch() ? checker_->mismatch()->message
                              : "the launch ended with records missing on one side");
  // A launch the RTL completed with OK ran every warp to its end: a warp the emulator has not
  // finished means the RTL left instructions out.
  dev::Completion done{};
  if (stopped_.empty() && launchCompletion_ != ~0ull &&
      hostRead(launchCompletion_, &done, sizeof done) && done.seq == launchSeq_ &&
      done.status == uint32_t(dev::Status::Ok))
    for (const isa::WarpRef &warp : checker_->stepper().warps())
      if (!checker_->stepper().finished(warp)) {
        fail("the RTL completed the launch (seq " + std::to_string(launchSeq_) + ") but " +
             warp.str() + " has not exited in the emulator: the RTL committed fewer instructions");
        break;
      }
  comparedBefore_ += checker_->compared();
  checker_->stepper().finish();
  checker_.reset();
}

void RtlLockstep::poll() {
  if (!checker_ || !stopped_.empty() || !hooks_.completedSeq)
    return;
  if (hooks_.completedSeq() < launchSeq_)
    return;
  if (hooks_.flush)
    hooks_.flush(); // may deliver records: they belong to this launch
  if (!checker_)
    return;
  closeLaunch();
  runShadow();
}

bool RtlLockstep::finish() {
  poll();
  return stopped_.empty();
}

} // namespace wf::rtl
