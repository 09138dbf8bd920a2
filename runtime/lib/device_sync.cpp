//===- device_sync.cpp - Synchronous defaults of the asynchronous commands -===//
//
// A device without queues runs each submitted command at once through the synchronous calls and
// hands back a ticket that is already complete. Queued devices (the protocol device) override
// every submit.
//
//===----------------------------------------------------------------------===//

#include "warpforge/runtime/device.h"

namespace wf::rt {

Ticket Device::finishSynchronously(Engine engine, const CommandResult &result,
                                   const CompletionFn &done) {
  if (done)
    done(result);
  return Ticket{engine, ++syncSeq_[unsigned(engine)]};
}

static CommandResult outcome(bool ok, const char *what) {
  CommandResult r;
  r.ok = ok;
  if (!ok)
    r.error = what;
  return r;
}

Ticket Device::submitWrite(Engine engine, uint64_t address, const void *src, uint64_t bytes,
                           std::span<const Ticket>, CompletionFn done) {
  return finishSynchronously(engine, outcome(write(address, src, bytes), "device write failed"),
                             done);
}

Ticket Device::submitRead(Engine engine, uint64_t address, void *dst, uint64_t bytes,
                          std::span<const Ticket>, CompletionFn done) {
  return finishSynchronously(engine, outcome(read(address, dst, bytes), "device read failed"),
                             done);
}

Ticket Device::submitCopy(Engine engine, uint64_t dst, uint64_t src, uint64_t bytes,
                          std::span<const Ticket>, CompletionFn done) {
  std::vector<uint8_t> buffer(bytes);
  bool ok = read(src, buffer.data(), bytes) && write(dst, buffer.data(), bytes);
  return finishSynchronously(engine, outcome(ok, "device copy failed"), done);
}

Ticket Device::submitFill(Engine engine, uint64_t address, uint8_t value, uint64_t bytes,
                          std::span<const Ticket>, CompletionFn done) {
  return finishSynchronously(engine, outcome(fill(address, value, bytes), "device fill failed"),
                             done);
}

Ticket Device::submitLaunch(const LaunchParams &params, std::span<const Ticket>,
                            CompletionFn done) {
  CommandResult r;
  r.launch = launch(params);
  r.ok = !r.launch.fault;
  return finishSynchronously(Engine::Compute, r, done);
}

Ticket Device::submitTimestamp(Engine engine, std::span<const Ticket>, CompletionFn done) {
  CommandResult r;
  r.timestamp = cycles();
  return finishSynchronously(engine, r, done);
}

bool Device::complete(const Ticket &) { return true; }

void Device::wait(const Ticket &) {}

} // namespace wf::rt
