// The board server (board_server.h): a device model, loaded as a plugin (lib/plugins.cpp), served
// over a Unix socket to one host program at a time; the others wait in the socket's backlog.
//
// Each program gets a context of its own: a worker process, forked for it, that creates the model
// over two fresh shared-memory segments (device memory and the DMA window) and answers that
// program's requests. Nothing of an earlier program is reachable from it, so memory starts zeroed.
// The segments are sealed against resizing, so a program cannot shrink memory under the model, and
// they are emptied (hole-punched) and dropped when the program goes: a program that keeps its
// mappings afterwards holds only zeros of its own, never another program's memory. The worker
// checks every request: register offsets, doorbells against the ring size, the ring against the DMA
// window, and the program's watchdog against the server's cap.
//
// The main process never runs device work, so it always answers signals. It ends a program's
// session, killing its worker at once (SIGKILL), when the program disconnects or dies, when the
// model works past the launch time limit without completing a command, when the program is idle
// while another program waits, or on SIGTERM/SIGINT.
#include "wire.h"

#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/runtime/board_server.h"
#include "warpforge/runtime/plugins.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <optional>
#include <fmt/format.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace wf::rt::board {
namespace {

namespace dev = isa::dev;

constexpr uint64_t kDmaWindowBytes = 16ull << 20;
volatile std::sig_atomic_t stopRequested = 0;

void onSignal(int) { stopRequested = 1; }

int64_t nowMs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts); // one clock for every process of the machine
  return int64_t(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

/// A shared-memory segment passed to the worker and the program, sealed so that its size never
/// changes, and emptied when the server lets go of it.
struct SharedSegment {
  int fd = -1;
  uint64_t bytes = 0;

  bool create(const char *name, uint64_t size, std::string &error) {
    bytes = size;
    fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0 || ftruncate(fd, off_t(size)) != 0 ||
        fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
      error = fmt::format("cannot create shared memory '{}' ({})", name, std::strerror(errno));
      return false;
    }
    return true;
  }
  ~SharedSegment() {
    if (fd < 0)
      return;
    // A program that kept its mapping now reads zeros; the pages go back to the system.
    fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, off_t(bytes));
    ::close(fd);
  }
};

/// What the main process and a worker share: since when the model has worked without completing
/// a command (BusyClock), and when the last request ended.
struct SessionClock {
  std::atomic<int64_t> busySinceMs{0}; ///< 0: idle, no request in hand
  std::atomic<int64_t> lastRequestMs{0};
};
static_assert(std::atomic<int64_t>::is_always_lock_free, "shared between processes");

/// A device model created by its plugin.
struct HostedModel {
  const wf_device_model_ops *ops = nullptr;
  wf_device_model *model = nullptr;
  ~HostedModel() {
    if (model)
      ops->destroy(model);
  }
  uint32_t readReg(dev::Reg reg) { return ops->read_reg(model, uint32_t(reg)); }
  void writeReg(dev::Reg reg, uint32_t value) { ops->write_reg(model, uint32_t(reg), value); }
};

/// The DMA window as the model reaches it: by offset, bounded to the program's own segment.
struct WindowView {
  uint8_t *data = nullptr;
  uint64_t bytes = 0;
};

int windowRead(void *context, uint64_t offset, void *dst, uint64_t bytes) {
  auto *w = static_cast<WindowView *>(context);
  if (offset > w->bytes || bytes > w->bytes - offset)
    return 1;
  std::memcpy(dst, w->data + offset, bytes);
  return 0;
}

int windowWrite(void *context, uint64_t offset, const void *src, uint64_t bytes) {
  auto *w = static_cast<WindowView *>(context);
  if (offset > w->bytes || bytes > w->bytes - offset)
    return 1;
  std::memcpy(w->data + offset, src, bytes);
  return 0;
}

/// Creates a model over `memory` with `window` as its host-DMA port. Empty on success.
std::string createModel(const wf_device_plugin &plugin, const isa::Config &config, uint8_t *memory,
                        uint64_t memoryBytes, const wf_host_dma_port &port, HostedModel &hosted) {
  if (!plugin.ops->attach_host_dma)
    return fmt::format("device '{}' offers no host-DMA port", plugin.name);
  wf_device_create_params params{};
  params.abi_version = WF_DEVICE_PLUGIN_ABI_VERSION;
  params.config = config.name.data();
  params.device_memory = memory;
  params.device_memory_bytes = memoryBytes;
  char why[512] = {};
  hosted.ops = plugin.ops;
  hosted.model = plugin.create(&params, why, sizeof why);
  if (!hosted.model)
    return why;
  plugin.ops->attach_host_dma(hosted.model, &port);
  return {};
}

/// Reads exactly one request. False on EOF or error.
bool readRequest(int fd, WireRequest &req) {
  auto *p = reinterpret_cast<uint8_t *>(&req);
  size_t got = 0;
  while (got < sizeof req) {
    ssize_t n = ::recv(fd, p + got, sizeof req - got, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    got += size_t(n);
  }
  return true;
}

/// Reads exactly `bytes` of a request's payload. False on EOF or error.
bool readPayload(int fd, void *dst, uint64_t bytes) {
  auto *p = static_cast<uint8_t *>(dst);
  while (bytes) {
    ssize_t n = ::recv(fd, p, bytes, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    bytes -= uint64_t(n);
  }
  return true;
}

/// Sends a DMA read's payload after its reply. False when the program is gone.
bool sendPayload(int fd, const void *src, uint64_t bytes) {
  auto *p = static_cast<const uint8_t *>(src);
  while (bytes) {
    ssize_t n = ::send(fd, p, bytes, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    bytes -= uint64_t(n);
  }
  return true;
}

/// A host-initiated DMA must lie inside device memory and within one request's limit; the model
/// checks again, but a refusal here ends the session like any malformed request.
bool dmaFits(const WireRequest &req, uint64_t memoryBytes) {
  uint64_t base = isa::kGlobalBase;
  return req.bytes <= kWireDmaMaxBytes && req.address >= base &&
         req.address - base <= memoryBytes && req.bytes <= memoryBytes - (req.address - base);
}

bool sendReply(int fd, const WireReply &reply, const int *fds, int nfds) {
  iovec iov{const_cast<WireReply *>(&reply), sizeof reply};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))] = {};
  if (nfds) {
    msg.msg_control = control;
    msg.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
    cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
    std::memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
  }
  ssize_t n;
  do
    n = ::sendmsg(fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
  while (n < 0 && errno == EINTR);
  return n == ssize_t(sizeof reply); // the reply is small: a partial send means a dead peer
}

/// The hardware queues the model has (QUEUE_COUNT; 0 reads as 1), at most the protocol's.
uint32_t queueCount(HostedModel &model) {
  return std::clamp(model.readReg(dev::Reg::QueueCount), 1u, dev::kQueues);
}

/// Which queue's TAIL (doorbell) `offset` is, if any.
std::optional<uint32_t> doorbellOf(HostedModel &model, uint32_t offset) {
  for (uint32_t q = 0; q < queueCount(model); ++q)
    if (offset == dev::queueReg(q, dev::QueueReg::Tail))
      return q;
  return std::nullopt;
}

bool isRegister(HostedModel &model, uint32_t offset) {
  if (std::any_of(std::begin(dev::kRegs), std::end(dev::kRegs),
                  [&](const dev::RegInfo &r) { return uint32_t(r.reg) == offset; }))
    return true;
  // The blocks of the model's other queues (queue 0's registers are in kRegs).
  for (uint32_t q = 1; q < queueCount(model); ++q) {
    uint32_t base = dev::queueReg(q, dev::QueueReg::BaseLo);
    if (offset >= base && offset < base + dev::kQueueStride && offset % 4 == 0)
      return true;
  }
  return false;
}

/// A doorbell may announce at most SIZE commands past HEAD of its queue, on a 64-byte aligned ring
/// that lies inside the DMA window; anything else would have the device read the window out of
/// bounds or run billions of stale commands. Every queue is checked alike.
bool doorbellFits(HostedModel &model, uint64_t windowBytes, uint32_t queue, uint32_t tail) {
  auto reg = [&](dev::QueueReg r) {
    return model.ops->read_reg(model.model, dev::queueReg(queue, r));
  };
  uint32_t size = reg(dev::QueueReg::Size);
  uint32_t head = reg(dev::QueueReg::Head);
  uint64_t base = reg(dev::QueueReg::BaseLo) | uint64_t(reg(dev::QueueReg::BaseHi)) << 32;
  if (!size)
    return tail == head;
  return uint32_t(tail - head) <= size && base % 64 == 0 && base <= windowBytes &&
         uint64_t(size) * sizeof(dev::Command) <= windowBytes - base;
}

/// What tells the worker that the model made progress: every queue's HEAD (it moves as commands
/// complete; reading it has no side effect, unlike COMPLETED_SEQ_LO's latch).
uint64_t progressMark(HostedModel &model) {
  uint64_t mark = 0;
  for (uint32_t q = 0; q < queueCount(model); ++q)
    mark += model.ops->read_reg(model.model, dev::queueReg(q, dev::QueueReg::Head));
  return mark;
}

/// The model's work counts against the launch time limit from when a request starts it until the
/// model is idle, restarting whenever a command completes: a model that runs its queues on threads
/// of its own keeps working between the program's requests, and a long stream of short commands
/// is not one long launch.
struct BusyClock {
  SessionClock &clock;
  uint64_t mark = 0;

  void requestStarts(HostedModel &model) {
    if (!clock.busySinceMs) {
      clock.busySinceMs = nowMs();
      mark = progressMark(model);
    }
  }
  /// After a request, and while the worker waits for the next one.
  void update(HostedModel &model) {
    if (!clock.busySinceMs)
      return;
    // A model without idle() runs its commands within the request that rings.
    if (!model.ops->idle || model.ops->idle(model.model)) {
      clock.busySinceMs = 0;
      return;
    }
    if (uint64_t now = progressMark(model); now != mark) {
      mark = now;
      clock.busySinceMs = nowMs();
    }
  }
};

/// Waits until the program sends something (or its connection ends), keeping the busy clock.
void awaitRequest(int client, HostedModel &model, BusyClock &busy) {
  for (;;) {
    pollfd pfd{client, POLLIN, 0};
    int ready = ::poll(&pfd, 1, 20);
    if (ready != 0 && !(ready < 0 && errno == EINTR))
      return; // a request, the connection's end or an error: readRequest tells which
    busy.update(model);
  }
}

/// Closes every descriptor but stdin/stdout/stderr and `keep`: a worker must not hold another
/// connection's socket (its peer would never see it close) or the listener.
void closeAllBut(std::vector<int> keep) {
  keep.push_back(2);
  std::sort(keep.begin(), keep.end());
  unsigned from = 3;
  for (int fd : keep) {
    if (fd >= int(from)) {
      if (fd > int(from))
        syscall(SYS_close_range, from, unsigned(fd - 1), 0u);
      from = unsigned(fd) + 1;
    }
  }
  syscall(SYS_close_range, from, ~0u, 0u);
}

/// One program's context, in its own process: the model over the program's segments, and the
/// requests the program sends. Returns the worker's exit status.
int runWorker(const ServerOptions &options, const wf_device_plugin &plugin,
              const isa::Config &config, int client, const SharedSegment &memory,
              const SharedSegment &window, SessionClock &clock) {
  void *mem =
      mmap(nullptr, memory.bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, memory.fd, 0);
  void *win =
      mmap(nullptr, window.bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, window.fd, 0);
  if (mem == MAP_FAILED || win == MAP_FAILED) {
    fmt::print(stderr, "warpforge board: cannot map a program's shared memory ({})\n",
               std::strerror(errno));
    return 1;
  }
  WindowView view{static_cast<uint8_t *>(win), window.bytes};
  wf_host_dma_port port{&view, view.bytes, windowRead, windowWrite};
  HostedModel model;
  if (std::string why =
          createModel(plugin, config, static_cast<uint8_t *>(mem), memory.bytes, port, model);
      !why.empty()) {
    fmt::print(stderr, "warpforge board: {}\n", why);
    return 1;
  }
  if (options.watchdogMinsts)
    model.writeReg(dev::Reg::WatchdogMinsts, options.watchdogMinsts);

  WireRequest req;
  std::vector<uint8_t> dmaBuffer; // one DMA request's payload
  BusyClock busy{clock};
  for (;;) {
    awaitRequest(client, model, busy);
    if (!readRequest(client, req))
      break;
    busy.requestStarts(model);
    WireReply reply{};
    int fds[2] = {memory.fd, window.fd};
    int nfds = 0;
    WireStatus status = WireStatus::Ok;
    switch (WireOp(req.op)) {
    case WireOp::Hello:
      reply.memoryBytes = memory.bytes;
      reply.windowBytes = window.bytes;
      std::strncpy(reply.deviceKind, options.device.c_str(), sizeof reply.deviceKind - 1);
      nfds = 2;
      break;
    case WireOp::Read:
      if (!isRegister(model, req.offset)) {
        status = WireStatus::BadRequest;
        break;
      }
      reply.value = model.ops->read_reg(model.model, req.offset);
      break;
    case WireOp::Write: {
      if (!isRegister(model, req.offset)) {
        status = WireStatus::BadRequest;
        break;
      }
      uint32_t value = req.value;
      if (dev::Reg(req.offset) == dev::Reg::WatchdogMinsts && options.watchdogMinsts &&
          (value == 0 || value > options.watchdogMinsts))
        value = options.watchdogMinsts;
      if (std::optional<uint32_t> queue = doorbellOf(model, req.offset);
          queue && !doorbellFits(model, window.bytes, *queue, value)) {
        status = WireStatus::BadDoorbell;
        break;
      }
      model.ops->write_reg(model.model, req.offset, value);
      break;
    }
    case WireOp::DmaWrite:
      if (!dmaFits(req, memory.bytes)) {
        status = WireStatus::BadRequest;
        break;
      }
      dmaBuffer.resize(req.bytes);
      if (!readPayload(client, dmaBuffer.data(), req.bytes))
        return 0; // the program went mid-request
      if (model.ops->mem_write(model.model, req.address, dmaBuffer.data(), req.bytes) != 0)
        status = WireStatus::BadRequest;
      break;
    case WireOp::DmaRead:
      if (!dmaFits(req, memory.bytes)) {
        status = WireStatus::BadRequest;
        break;
      }
      dmaBuffer.resize(req.bytes);
      if (model.ops->mem_read(model.model, req.address, dmaBuffer.data(), req.bytes) != 0)
        status = WireStatus::BadRequest;
      break;
    default:
      status = WireStatus::BadRequest;
      break;
    }
    reply.status = uint32_t(status);
    bool sent = sendReply(client, reply, fds, status == WireStatus::Ok ? nfds : 0);
    if (sent && status == WireStatus::Ok && WireOp(req.op) == WireOp::DmaRead)
      sent = sendPayload(client, dmaBuffer.data(), req.bytes);
    clock.lastRequestMs = nowMs();
    busy.update(model);
    if (!sent || status != WireStatus::Ok)
      break;
  }
  return 0;
}

/// Binds the listening socket, replacing a stale socket file but never a live server.
int listenOn(const std::string &path, std::string &error) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  if (path.size() >= sizeof addr.sun_path) {
    error = "socket path too long: " + path;
    return -1;
  }
  std::strcpy(addr.sun_path, path.c_str());
  int probe = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (::connect(probe, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0) {
    ::close(probe);
    error = "a board server is already listening on " + path;
    return -1;
  }
  ::close(probe);
  ::unlink(path.c_str());
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
      ::listen(fd, 64) != 0) {
    error = fmt::format("cannot listen on {} ({})", path, std::strerror(errno));
    if (fd >= 0)
      ::close(fd);
    return -1;
  }
  return fd;
}

bool connectionWaiting(int listener) {
  pollfd pfd{listener, POLLIN, 0};
  return ::poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN);
}

/// Watches a program's session until it ends, and says why it ended (Ok: the program went, or its
/// worker ended the session itself). `workerGone` tells whether the worker has been reaped.
WireStatus supervise(const ServerOptions &options, int listener, int client, pid_t worker,
                     const SessionClock &clock, bool &workerGone) {
  for (;;) {
    pollfd pfd{client, POLLRDHUP, 0};
    int ready = ::poll(&pfd, 1, 50);
    if (stopRequested)
      return WireStatus::Stopping;
    if (::waitpid(worker, nullptr, WNOHANG) == worker) {
      workerGone = true;
      return WireStatus::Ok;
    }
    if (ready > 0 && (pfd.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)))
      return WireStatus::Ok; // the program closed its connection or died: its work ends now
    int64_t now = nowMs(), busySince = clock.busySinceMs;
    if (options.launchLimitSeconds && busySince &&
        now - busySince > int64_t(options.launchLimitSeconds) * 1000)
      return WireStatus::TimeLimit;
    if (options.idleLimitSeconds && !busySince &&
        now - clock.lastRequestMs > int64_t(options.idleLimitSeconds) * 1000 &&
        connectionWaiting(listener))
      return WireStatus::IdleLimit;
  }
}

/// Serves one program in a worker process. Returns false when the server cannot go on.
bool serveProgram(const ServerOptions &options, const wf_device_plugin &plugin,
                  const isa::Config &config, int listener, int client, unsigned number) {
  std::string error;
  SharedSegment memory, window;
  if (!memory.create("warpforge-device-memory", uint64_t(config.globalMemMib) << 20, error) ||
      !window.create("warpforge-dma-window", kDmaWindowBytes, error)) {
    fmt::print(stderr, "warpforge board: {}\n", error);
    return false;
  }
  void *shared = mmap(nullptr, sizeof(SessionClock), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    fmt::print(stderr, "warpforge board: cannot map a session's clock ({})\n",
               std::strerror(errno));
    return false;
  }
  auto *clock = new (shared) SessionClock;
  clock->lastRequestMs = nowMs();
  pid_t server = ::getpid();
  pid_t worker = ::fork();
  if (worker < 0) {
    fmt::print(stderr, "warpforge board: cannot start a worker ({})\n", std::strerror(errno));
    munmap(shared, sizeof(SessionClock));
    return false;
  }
  if (worker == 0) {
    // A worker never outlives the server: a killed server takes its program's session with it.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != server)
      std::_Exit(1);
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGINT, SIG_DFL);
    closeAllBut({client, memory.fd, window.fd});
    std::_Exit(runWorker(options, plugin, config, client, memory, window, *clock));
  }
  bool workerGone = false;
  WireStatus why = supervise(options, listener, client, worker, *clock, workerGone);
  if (!workerGone) {
    ::kill(worker, SIGKILL);
    ::waitpid(worker, nullptr, 0);
  }
  if (why != WireStatus::Ok) {
    WireReply reply{};
    reply.status = uint32_t(why);
    sendReply(client, reply, nullptr, 0);
  }
  ::close(client);
  munmap(shared, sizeof(SessionClock));
  if (!options.quiet)
    fmt::print(stderr, "warpforge board: program {} done{}{}\n", number,
               why == WireStatus::Ok ? "" : ": ",
               why == WireStatus::Ok ? "" : wireStatusText(uint32_t(why)));
  return true; // the segments are emptied and dropped here
}

} // namespace

std::string defaultSocketPath() { return wireDefaultSocketPath(); }

int serve(const ServerOptions &options) {
  const isa::Config *config = isa::findConfig(options.config);
  if (!config) {
    fmt::print(stderr, "warpforge board: no configuration '{}'\n", options.config);
    return 2;
  }
  std::string error;
  const wf_device_plugin *plugin = loadPlugin(options.device, error);
  if (!plugin) {
    fmt::print(stderr, "warpforge board: {}\n", error);
    return 2;
  }
  {
    // A model made once here, so that a device the server cannot host is reported at start.
    SharedSegment memory;
    if (!memory.create("warpforge-device-memory", uint64_t(config->globalMemMib) << 20, error)) {
      fmt::print(stderr, "warpforge board: {}\n", error);
      return 1;
    }
    void *mem = mmap(nullptr, memory.bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
                     memory.fd, 0);
    if (mem == MAP_FAILED) {
      fmt::print(stderr, "warpforge board: cannot map shared memory ({})\n", std::strerror(errno));
      return 1;
    }
    WindowView none;
    wf_host_dma_port port{&none, 0, windowRead, windowWrite};
    std::string why;
    {
      HostedModel probe; // destroyed before its memory is unmapped
      why = createModel(*plugin, *config, static_cast<uint8_t *>(mem), memory.bytes, port, probe);
    }
    munmap(mem, memory.bytes);
    if (!why.empty()) {
      fmt::print(stderr, "warpforge board: {}\n", why);
      return 2;
    }
  }

  std::string path = options.socketPath.empty() ? defaultSocketPath() : options.socketPath;
  int listener = listenOn(path, error);
  if (listener < 0) {
    fmt::print(stderr, "warpforge board: {}\n", error);
    return 1;
  }
  struct sigaction sa {};
  sa.sa_handler = onSignal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  stopRequested = 0;
  fmt::print(stderr, "warpforge board: serving {} ({}) on {}\n", options.device, config->name,
             path);

  unsigned served = 0;
  int status = 0;
  while (!stopRequested && (!options.maxClients || served < options.maxClients)) {
    pollfd pfd{listener, POLLIN, 0};
    if (::poll(&pfd, 1, 200) <= 0)
      continue;
    int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0)
      continue;
    ++served;
    if (!options.quiet)
      fmt::print(stderr, "warpforge board: program {} connected\n", served);
    if (!serveProgram(options, *plugin, *config, listener, client, served)) {
      ::close(client);
      status = 1;
      break;
    }
  }
  ::close(listener);
  ::unlink(path.c_str());
  return status;
}

} // namespace wf::rt::board
