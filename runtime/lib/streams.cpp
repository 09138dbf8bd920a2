//===- streams.cpp - Streams, events, host functions, stream-ordered copies ===//
//
// docs/runtime.md, "Streams and events". Every operation of a stream is a Work: a device command
// submitted with the stream's previous operation (and, for the legacy default stream's implicit
// synchronization, the other blocking streams' last operations) as `after`, or a host function
// that the runtime's host thread runs when what it follows is done. A command that follows a host
// function not yet run waits in the runtime and is submitted when the function returns. Only
// synchronization points wait; they release the context lock while they do.
//
//===----------------------------------------------------------------------===//

#include "warpforge/runtime/runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <thread>

namespace wf::rt {

thread_local unsigned ContextLock::depth_ = 0;

/// The calling thread's per-thread default stream (cudaStreamPerThread), made on first use and
/// handed back to the runtime when the thread ends.
struct PerThreadStream {
  CUstream_st *stream = nullptr;
  ~PerThreadStream() {
    if (stream)
      Runtime::get().forgetPerThread(stream);
  }
};
static thread_local PerThreadStream tPerThread;

namespace {
uint64_t addr(const void *p) { return reinterpret_cast<uint64_t>(p); }
} // namespace

// --- streams ---

CUstream_st *Runtime::stream(const void *handle, bool perThreadDefault) {
  std::lock_guard lock(lock_);
  uintptr_t h = reinterpret_cast<uintptr_t>(handle);
  if ((h == 0 && perThreadDefault) || h == 2) {
    if (!tPerThread.stream) {
      tPerThread.stream = new CUstream_st;
      tPerThread.stream->perThread = true;
      perThread_.insert(tPerThread.stream);
    }
    return tPerThread.stream;
  }
  if (h == 0 || h == 1)
    return &legacy_;
  auto *s = static_cast<CUstream_st *>(const_cast<void *>(handle));
  return streams_.count(s) ? s : nullptr;
}

void Runtime::forgetPerThread(CUstream_st *s) {
  std::lock_guard lock(lock_);
  orphans_.insert(orphans_.end(), s->tail.begin(), s->tail.end());
  perThread_.erase(s);
  delete s;
}

CUstream_st *Runtime::createStream(unsigned flags, int priority) {
  std::lock_guard lock(lock_);
  auto *s = new CUstream_st;
  s->flags = flags;
  s->priority = priority;
  streams_.insert(s);
  return s;
}

Error Runtime::destroyStream(CUstream_st *s) {
  std::lock_guard lock(lock_);
  if (!streams_.erase(s))
    return Error::cudaErrorInvalidResourceHandle;
  // Work already queued still runs (CUDA releases the stream when it is done); the legacy
  // default stream and device synchronization still follow it.
  prune(s->tail);
  orphans_.insert(orphans_.end(), s->tail.begin(), s->tail.end());
  delete s;
  return Error::cudaSuccess;
}

bool Runtime::isComplete(const WorkRef &w) {
  switch (w->state) {
  case Work::State::Done: return true;
  case Work::State::Submitted: return device_->complete(w->ticket);
  default: return false;
  }
}

void Runtime::prune(std::vector<WorkRef> &works) {
  std::erase_if(works, [&](const WorkRef &w) { return isComplete(w); });
}

std::vector<WorkRef> Runtime::dependencies(CUstream_st *s) {
  prune(s->tail);
  std::vector<WorkRef> deps = s->tail;
  if (s->legacy) {
    // The legacy default stream waits for every blocking stream, and they for it.
    auto follow = [&](CUstream_st *b) {
      if (b->flags & kStreamNonBlocking)
        return;
      prune(b->tail);
      deps.insert(deps.end(), b->tail.begin(), b->tail.end());
    };
    for (CUstream_st *b : streams_)
      follow(b);
    for (CUstream_st *b : perThread_)
      follow(b);
    prune(orphans_);
    deps.insert(deps.end(), orphans_.begin(), orphans_.end());
  } else if (!(s->flags & kStreamNonBlocking)) {
    prune(legacy_.tail);
    deps.insert(deps.end(), legacy_.tail.begin(), legacy_.tail.end());
  }
  return deps;
}

void Runtime::submitNow(Work &w, SubmitFn &submit) {
  std::vector<Ticket> after;
  for (const WorkRef &d : w.deps)
    if (d->state == Work::State::Submitted)
      after.push_back(d->ticket);
  w.deps.clear();
  w.state = Work::State::Submitted;
  w.ticket = submit(after);
}

WorkRef Runtime::enqueue(CUstream_st *s, SubmitFn submit) {
  std::lock_guard lock(lock_);
  auto w = std::make_shared<Work>();
  w->deps = dependencies(s);
  if (std::all_of(w->deps.begin(), w->deps.end(), [](const WorkRef &d) { return d->resolved(); })) {
    submitNow(*w, submit);
  } else {
    w->state = Work::State::Deferred;
    w->submit = std::move(submit);
    deferred_.push_back(w);
  }
  s->tail = {w};
  return w;
}

void Runtime::flushDeferred() {
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < deferred_.size();) {
      WorkRef w = deferred_[i];
      if (!std::all_of(w->deps.begin(), w->deps.end(),
                       [](const WorkRef &d) { return d->resolved(); })) {
        ++i;
        continue;
      }
      deferred_.erase(deferred_.begin() + ptrdiff_t(i));
      SubmitFn submit = std::move(w->submit);
      submitNow(*w, submit);
      progress = true;
    }
  }
}

WorkRef Runtime::enqueueHost(CUstream_st *s, std::function<void()> fn) {
  std::lock_guard lock(lock_);
  auto w = std::make_shared<Work>();
  w->deps = dependencies(s);
  w->state = Work::State::HostPending;
  w->hostFn = std::move(fn);
  s->tail = {w};
  {
    std::lock_guard host(hostMutex_);
    hostQueue_.push_back(w);
    if (!hostThread_) {
      hostThread_ = true;
      std::thread([this] { hostWorker(); }).detach(); // lives as long as the process
    }
  }
  hostCv_.notify_all();
  return w;
}

void Runtime::hostWorker() {
  for (;;) {
    WorkRef w;
    {
      std::unique_lock host(hostMutex_);
      hostCv_.wait(host, [&] { return !hostQueue_.empty(); });
      w = hostQueue_.front();
    }
    // Host functions run one at a time in the order they were queued; everything a function
    // follows was queued before it, so it is on the device by now.
    std::vector<Ticket> tickets;
    std::function<void()> fn;
    {
      std::lock_guard lock(lock_);
      flushDeferred();
      for (const WorkRef &d : w->deps)
        if (d->state == Work::State::Submitted)
          tickets.push_back(d->ticket);
      fn = std::move(w->hostFn);
    }
    for (const Ticket &t : tickets)
      device_->wait(t);
    fn();
    {
      std::lock_guard lock(lock_);
      w->state = Work::State::Done;
      w->deps.clear();
      flushDeferred();
    }
    {
      std::lock_guard host(hostMutex_);
      hostQueue_.pop_front();
      ++hostProgress_;
    }
    hostCv_.notify_all();
  }
}

void Runtime::waitFor(const WorkRef &w) {
  std::lock_guard lock(lock_);
  for (;;) {
    if (w->state == Work::State::Done)
      return;
    if (w->state == Work::State::Submitted) {
      Ticket t = w->ticket;
      Unlocked unlocked(lock_);
      device_->wait(t);
      return;
    }
    // A host function, or a command behind one: the host thread moves it on.
    uint64_t seen;
    {
      std::lock_guard host(hostMutex_);
      seen = hostProgress_;
    }
    Unlocked unlocked(lock_);
    std::unique_lock host(hostMutex_);
    hostCv_.wait(host, [&] { return hostProgress_ != seen; });
  }
}

void Runtime::waitAll() {
  std::lock_guard lock(lock_);
  std::vector<WorkRef> all = legacy_.tail;
  for (CUstream_st *s : streams_)
    all.insert(all.end(), s->tail.begin(), s->tail.end());
  for (CUstream_st *s : perThread_)
    all.insert(all.end(), s->tail.begin(), s->tail.end());
  all.insert(all.end(), orphans_.begin(), orphans_.end());
  all.insert(all.end(), deferred_.begin(), deferred_.end());
  for (const auto &[a, w] : pendingFrees_)
    all.push_back(w);
  for (const WorkRef &w : all)
    waitFor(w);
  if (device_)
    device_->synchronize();
  prune(orphans_);
  reapFrees();
}

// --- completions and synchronization points ---

void Runtime::finished(Finished f) {
  // On a device thread: record only (leaf lock); the host reports at a synchronization point.
  {
    std::lock_guard lock(finishedMutex_);
    if (!f.fn && !f.result.ok && asyncError_ == Error::cudaSuccess)
      asyncError_ = Error::cudaErrorInvalidValue;
    if (f.fn)
      finished_.push_back(std::move(f));
  }
  if (f.fn)
    --launchesInFlight_;
}

Error Runtime::collect() {
  std::lock_guard lock(lock_);
  std::vector<Finished> done;
  Error async;
  {
    std::lock_guard fin(finishedMutex_);
    done.swap(finished_);
    async = asyncError_;
    asyncError_ = Error::cudaSuccess;
  }
  noteDeviceLoss(); // before the launches: a launch cut off by the loss is not a launch fault
  if (launchesInFlight_ == 0 && !deviceLost_)
    drainPrintf();
  for (Finished &f : done) {
    const LaunchOutcome &r = f.result.launch;
    if (trace_)
      std::fprintf(stderr,
                   "[warpforge] launch %s <<<(%u,%u,%u),(%u,%u,%u),%llu>>>: %llu warp insts, "
                   "%llu cycles\n",
                   f.fn->name.c_str(), f.grid.x, f.grid.y, f.grid.z, f.block.x, f.block.y,
                   f.block.z, (unsigned long long)f.sharedDynamic,
                   (unsigned long long)r.warpInsts, (unsigned long long)r.cycles);
    if (r.fault) {
      if (sticky_ != Error::cudaSuccess)
        continue; // the device is already in error; later faults are its consequences
      Error e = reportFault(*f.fn, *r.fault, f.grid, f.block);
      if (r.fault->kind == FaultKind::InvalidLaunch && async == Error::cudaSuccess)
        async = e;
    } else if (!f.result.ok && async == Error::cudaSuccess) {
      async = Error::cudaErrorLaunchFailure; // the device was lost
    }
  }
  return sticky_ != Error::cudaSuccess ? sticky_ : async;
}

Error Runtime::synchronize(CUstream_st *s) {
  std::lock_guard lock(lock_);
  std::vector<WorkRef> tail = s->tail;
  for (const WorkRef &w : tail)
    waitFor(w);
  return collect();
}

Error Runtime::synchronizeDevice() {
  std::lock_guard lock(lock_);
  waitAll();
  return collect();
}

Error Runtime::query(CUstream_st *s) {
  std::lock_guard lock(lock_);
  prune(s->tail);
  return s->tail.empty() ? Error::cudaSuccess : Error::cudaErrorNotReady;
}

// --- events ---

CUevent_st *Runtime::createEvent(unsigned flags) {
  std::lock_guard lock(lock_);
  auto *e = new CUevent_st;
  e->flags = flags;
  events_.insert(e);
  return e;
}

Error Runtime::destroyEvent(CUevent_st *e) {
  std::lock_guard lock(lock_);
  if (!events_.erase(e))
    return Error::cudaErrorInvalidResourceHandle;
  delete e; // a record still queued keeps its own slot
  return Error::cudaSuccess;
}

Error Runtime::recordEvent(CUevent_st *e, CUstream_st *s) {
  std::lock_guard lock(lock_);
  auto stamp = std::make_shared<TimestampSlot>();
  // On the engine of the stream's last command, so that the timestamp waits for nothing else.
  prune(s->tail);
  Engine engine = s->tail.size() == 1 && s->tail[0]->state == Work::State::Submitted
                      ? s->tail[0]->ticket.engine
                      : Engine::Compute;
  e->work = enqueue(s, [this, stamp, engine](std::span<const Ticket> after) {
    return device_->submitTimestamp(engine, after, [stamp](const CommandResult &r) {
      stamp->cycles.store(r.timestamp);
      stamp->done.store(true);
    });
  });
  e->stamp = stamp;
  return Error::cudaSuccess;
}

Error Runtime::waitEvent(CUstream_st *s, CUevent_st *e) {
  std::lock_guard lock(lock_);
  if (e->work && !isComplete(e->work))
    s->tail.push_back(e->work);
  return Error::cudaSuccess;
}

Error Runtime::queryEvent(CUevent_st *e) {
  std::lock_guard lock(lock_);
  return !e->work || isComplete(e->work) ? Error::cudaSuccess : Error::cudaErrorNotReady;
}

Error Runtime::synchronizeEvent(CUevent_st *e) {
  std::lock_guard lock(lock_);
  if (WorkRef w = e->work)
    waitFor(w);
  return collect();
}

Error Runtime::elapsedTime(float &ms, CUevent_st *start, CUevent_st *end) {
  std::lock_guard lock(lock_);
  constexpr unsigned kDisableTiming = 2;
  if (((start->flags | end->flags) & kDisableTiming) || !start->work || !end->work)
    return Error::cudaErrorInvalidResourceHandle;
  if (!isComplete(start->work) || !isComplete(end->work))
    return Error::cudaErrorNotReady;
  double mhz = device_->info().config.clockMhz;
  ms = float((double(end->stamp->cycles.load()) - double(start->stamp->cycles.load())) /
             (mhz * 1000.0));
  return Error::cudaSuccess;
}

// --- copies and fills ---

Error Runtime::memcpy(void *dst, const void *src, uint64_t count, CopyKind kind, CUstream_st *s,
                      bool async) {
  std::lock_guard lock(lock_);
  if (count == 0)
    return Error::cudaSuccess;
  if (!dst || !src)
    return Error::cudaErrorInvalidValue;
  bool dstDev = isDevice(addr(dst), count), srcDev = isDevice(addr(src), count);
  // A device address outside every live allocation (freed, from before cudaDeviceReset, or running
  // past an allocation's end) is refused whatever the direction, never taken for host memory.
  if ((!dstDev && inDeviceMemory(addr(dst))) || (!srcDev && inDeviceMemory(addr(src))))
    return Error::cudaErrorInvalidValue;
  switch (kind) {
  case CopyKind::HostToHost: dstDev = srcDev = false; break;
  case CopyKind::HostToDevice:
    if (!dstDev)
      return Error::cudaErrorInvalidValue;
    srcDev = false;
    break;
  case CopyKind::DeviceToHost:
    if (!srcDev)
      return Error::cudaErrorInvalidValue;
    dstDev = false;
    break;
  case CopyKind::DeviceToDevice:
    if (!srcDev || !dstDev)
      return Error::cudaErrorInvalidValue;
    break;
  case CopyKind::Default: break;
  }
  if (!dstDev && !srcDev) {
    // Host to host: synchronous with the host, after the stream's earlier work.
    std::vector<WorkRef> tail = dependencies(s);
    for (const WorkRef &w : tail)
      waitFor(w);
    std::memmove(dst, src, count);
    return Error::cudaSuccess;
  }
  auto failed = std::make_shared<std::atomic<bool>>(false);
  auto note = [this, failed](const CommandResult &r) {
    if (!r.ok) {
      failed->store(true);
      finished(Finished{nullptr, {}, {}, 0, r});
    }
  };
  bool wait = !async;
  WorkRef w;
  if (dstDev && srcDev) {
    // Page-locked host memory the device maps: a copy engine's work, as over PCIe.
    Engine engine = findHost(src) ? Engine::CopyIn : findHost(dst) ? Engine::CopyOut : Engine::Compute;
    w = enqueue(s, [=, this](std::span<const Ticket> after) {
      return device_->submitCopy(engine, addr(dst), addr(src), count, after, note);
    });
  } else if (dstDev) {
    // Pageable memory may change once the call returns: the command reads a staged copy.
    std::shared_ptr<std::vector<uint8_t>> staged;
    const void *from = src;
    if (async && !findHost(src)) {
      auto *p = static_cast<const uint8_t *>(src);
      staged = std::make_shared<std::vector<uint8_t>>(p, p + count);
      from = staged->data();
    }
    w = enqueue(s, [=, this](std::span<const Ticket> after) {
      return device_->submitWrite(Engine::CopyIn, addr(dst), from, count, after,
                                  [note, staged](const CommandResult &r) { note(r); });
    });
  } else {
    // To pageable memory the call returns when the copy is done (CUDA: "might be synchronous").
    wait = wait || !findHost(dst);
    w = enqueue(s, [=, this](std::span<const Ticket> after) {
      return device_->submitRead(Engine::CopyOut, addr(src), dst, count, after, note);
    });
  }
  if (!wait)
    return Error::cudaSuccess;
  waitFor(w);
  if (failed->load()) {
    std::lock_guard fin(finishedMutex_);
    asyncError_ = Error::cudaSuccess; // this call reports it
    return Error::cudaErrorInvalidValue;
  }
  return async ? Error::cudaSuccess : collect();
}

Error Runtime::memset(uint64_t address, uint32_t value, unsigned width, uint64_t count,
                      CUstream_st *s) {
  std::lock_guard lock(lock_);
  if (width != 1 && width != 2 && width != 4)
    return Error::cudaErrorInvalidValue;
  uint64_t bytes = count * width;
  if (bytes == 0)
    return Error::cudaSuccess;
  if (address % width || !isDevice(address, bytes))
    return Error::cudaErrorInvalidValue;
  auto failed = std::make_shared<std::atomic<bool>>(false);
  auto note = [this, failed](const CommandResult &r) {
    if (!r.ok) {
      failed->store(true);
      finished(Finished{nullptr, {}, {}, 0, r});
    }
  };
  WorkRef w;
  if (width == 1) {
    w = enqueue(s, [=, this](std::span<const Ticket> after) {
      return device_->submitFill(Engine::Compute, address, uint8_t(value), bytes, after, note);
    });
  } else {
    auto pattern = std::make_shared<std::vector<uint8_t>>(bytes);
    for (uint64_t i = 0; i < count; ++i)
      std::memcpy(pattern->data() + i * width, &value, width);
    w = enqueue(s, [=, this](std::span<const Ticket> after) {
      return device_->submitWrite(Engine::Compute, address, pattern->data(), bytes, after,
                                  [note, pattern](const CommandResult &r) { note(r); });
    });
  }
  // Memory the host reads directly: done before the call returns (CUDA: pinned host memory).
  bool hostVisible = isManaged(address);
  for (const auto &[p, a] : hostAllocs_)
    hostVisible = hostVisible || (a.device && address - a.device < a.size);
  if (hostVisible) {
    waitFor(w);
    if (failed->load())
      return Error::cudaErrorInvalidValue;
  }
  return Error::cudaSuccess;
}

Error Runtime::freeAsync(uint64_t address, CUstream_st *s) {
  std::lock_guard lock(lock_);
  if (address == 0)
    return Error::cudaSuccess;
  auto it = deviceAllocs_.find(address);
  if (it == deviceAllocs_.end())
    return Error::cudaErrorInvalidValue;
  deviceAllocs_.erase(it);
  managed_.erase(address);
  WorkRef w = enqueue(s, [this](std::span<const Ticket> after) {
    return device_->submitTimestamp(Engine::Compute, after);
  });
  pendingFrees_.emplace_back(address, w);
  return Error::cudaSuccess;
}

void Runtime::reapFrees() {
  std::lock_guard lock(lock_);
  std::erase_if(pendingFrees_, [&](const std::pair<uint64_t, WorkRef> &f) {
    if (!isComplete(f.second))
      return false;
    device_->free(f.first);
    return true;
  });
}

} // namespace wf::rt
