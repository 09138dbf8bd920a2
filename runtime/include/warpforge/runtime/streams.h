// Streams, events and the lock discipline of the common layer (docs/runtime.md, "Streams and
// events" and "Locks"). A stream is an ordered list of device commands (tickets of rt::Device's
// asynchronous API) and host functions; both API layers (runtime and driver) use these objects as
// their handles (cudaStream_t and CUstream are CUstream_st *, cudaEvent_t and CUevent CUevent_st *).
#pragma once

#include "warpforge/runtime/device.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

struct CUgraph_st;

namespace wf::rt {

/// The context lock: recursive, and it knows how often the calling thread holds it, so that a
/// wait can release it entirely (Unlocked) and take it back.
class ContextLock {
public:
  void lock() {
    mutex_.lock();
    ++depth_;
  }
  void unlock() {
    --depth_;
    mutex_.unlock();
  }
  bool heldHere() const { return depth_ != 0; }

private:
  friend class Unlocked;
  std::recursive_mutex mutex_;
  static thread_local unsigned depth_;
};

/// Releases the context lock for the length of a wait, however often this thread holds it.
/// Callers keep no iterators or references into runtime containers across it.
class Unlocked {
public:
  explicit Unlocked(ContextLock &lock) : lock_(lock), depth_(ContextLock::depth_) {
    for (unsigned i = 0; i < depth_; ++i)
      lock_.unlock();
  }
  ~Unlocked() {
    for (unsigned i = 0; i < depth_; ++i)
      lock_.lock();
  }
  Unlocked(const Unlocked &) = delete;
  Unlocked &operator=(const Unlocked &) = delete;

private:
  ContextLock &lock_;
  unsigned depth_;
};

/// Submits one device command after `after`; returns its ticket.
using SubmitFn = std::function<Ticket(std::span<const Ticket> after)>;

/// One operation in stream order. A device command is submitted at once when everything it
/// follows is on the device already; one that follows a host function not yet run waits in the
/// runtime (Deferred) and is submitted when that function returns. Guarded by the context lock.
struct Work {
  enum class State : uint8_t { Deferred, Submitted, HostPending, Done };
  State state = State::Deferred;
  Ticket ticket;                    ///< Submitted: the device command
  SubmitFn submit;                  ///< Deferred: how to submit it
  std::function<void()> hostFn;     ///< HostPending: the host function
  std::vector<std::shared_ptr<Work>> deps; ///< until submitted or run
  bool resolved() const { return state == State::Submitted || state == State::Done; }
};
using WorkRef = std::shared_ptr<Work>;

/// Written by a completion on a device thread, read by the host.
struct TimestampSlot {
  std::atomic<bool> done{false};
  std::atomic<uint64_t> cycles{0};
};

/// The stream flags of CUDA (cudaStreamNonBlocking: no implicit synchronization with the legacy
/// default stream).
constexpr unsigned kStreamNonBlocking = 1;

} // namespace wf::rt

/// A stream: cudaStream_t and CUstream point at one. The legacy default stream and each thread's
/// per-thread default stream are objects of the runtime; created streams are the program's.
struct CUstream_st {
  unsigned flags = 0;
  int priority = 0;
  bool legacy = false;
  bool perThread = false;
  /// What the stream's next operation follows (its last operation, and events it waits for).
  std::vector<wf::rt::WorkRef> tail;
  CUgraph_st *capture = nullptr; ///< the graph being captured into, while capturing
  /// cudaStreamSetAttribute / cuStreamSetAttribute values (64-byte cudaLaunchAttributeValue) by
  /// attribute id; the priority lives in `priority`.
  std::map<int, std::array<uint8_t, 64>> attributes;
};

/// An event: the timestamp command of its last record.
struct CUevent_st {
  unsigned flags = 0;
  wf::rt::WorkRef work; ///< null: never recorded
  std::shared_ptr<wf::rt::TimestampSlot> stamp;
};
