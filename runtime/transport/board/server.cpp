// The board server (board_server.h): one device model, loaded as a plugin (lib/plugins.cpp), its
// device memory and DMA window in shared memory, and a Unix socket on which one host program at a
// time reaches the control registers. Programs queue in the socket's backlog and are served in
// turn; each finds a reset, scrubbed device, so nothing leaks from one program to the next.
#include "wire.h"

#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/runtime/board_server.h"
#include "warpforge/runtime/plugins.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fmt/format.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace wf::rt::board {
namespace {

namespace dev = isa::dev;

constexpr uint64_t kDmaWindowBytes = 16ull << 20;
volatile std::sig_atomic_t stopRequested = 0;

void onSignal(int) { stopRequested = 1; }

/// A shared-memory segment that can be passed to another process.
struct SharedSegment {
  int fd = -1;
  uint8_t *data = nullptr;
  uint64_t bytes = 0;

  bool create(const char *name, uint64_t size, std::string &error) {
    bytes = size;
    fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, off_t(size)) != 0) {
      error = fmt::format("cannot create shared memory '{}' ({})", name, std::strerror(errno));
      return false;
    }
    void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (p == MAP_FAILED) {
      error = fmt::format("cannot map shared memory '{}' ({})", name, std::strerror(errno));
      return false;
    }
    data = static_cast<uint8_t *>(p);
    return true;
  }
  ~SharedSegment() {
    if (data)
      munmap(data, bytes);
    if (fd >= 0)
      ::close(fd);
  }
};

/// A device model created by its plugin, destroyed with the server.
struct HostedModel {
  const wf_device_model_ops *ops = nullptr;
  wf_device_model *model = nullptr;
  ~HostedModel() {
    if (model)
      ops->destroy(model);
  }
  uint32_t readReg(uint32_t offset) { return ops->read_reg(model, offset); }
  void writeReg(uint32_t offset, uint32_t value) { ops->write_reg(model, offset, value); }
};

int windowRead(void *context, uint64_t offset, void *dst, uint64_t bytes) {
  auto *w = static_cast<SharedSegment *>(context);
  if (offset > w->bytes || bytes > w->bytes - offset)
    return 1;
  std::memcpy(dst, w->data + offset, bytes);
  return 0;
}

int windowWrite(void *context, uint64_t offset, const void *src, uint64_t bytes) {
  auto *w = static_cast<SharedSegment *>(context);
  if (offset > w->bytes || bytes > w->bytes - offset)
    return 1;
  std::memcpy(w->data + offset, src, bytes);
  return 0;
}

/// Reads exactly `bytes`, giving up when a stop is requested while idle. False on EOF or error.
bool readRequest(int fd, WireRequest &req) {
  auto *p = reinterpret_cast<uint8_t *>(&req);
  size_t got = 0;
  while (got < sizeof req) {
    pollfd pfd{fd, POLLIN, 0};
    int ready = ::poll(&pfd, 1, 200);
    if (stopRequested)
      return false;
    if (ready <= 0)
      continue;
    ssize_t n = ::recv(fd, p + got, sizeof req - got, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    got += size_t(n);
  }
  return true;
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
    n = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n == ssize_t(sizeof reply); // the reply is small: a partial send means a dead peer
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
  SharedSegment memory, window;
  if (!memory.create("warpforge-device-memory", uint64_t(config->globalMemMib) << 20, error) ||
      !window.create("warpforge-dma-window", kDmaWindowBytes, error)) {
    fmt::print(stderr, "warpforge board: {}\n", error);
    return 1;
  }
  wf_device_create_params params{};
  params.abi_version = WF_DEVICE_PLUGIN_ABI_VERSION;
  params.config = config->name.data();
  params.device_memory = memory.data;
  params.device_memory_bytes = memory.bytes;
  char why[512] = {};
  HostedModel processor;
  processor.ops = plugin->ops;
  processor.model = plugin->create(&params, why, sizeof why);
  if (!processor.model) {
    fmt::print(stderr, "warpforge board: {}\n", why);
    return 2;
  }
  if (!plugin->ops->attach_host_dma) {
    fmt::print(stderr, "warpforge board: device '{}' offers no host-DMA port\n", options.device);
    return 2;
  }
  wf_host_dma_port port{&window, window.bytes, windowRead, windowWrite};
  plugin->ops->attach_host_dma(processor.model, &port);

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
  while (!stopRequested && (!options.maxClients || served < options.maxClients)) {
    pollfd pfd{listener, POLLIN, 0};
    if (::poll(&pfd, 1, 200) <= 0)
      continue;
    int client = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0)
      continue;
    ++served;
    processor.writeReg(uint32_t(dev::Reg::Control), dev::kControlReset | dev::kControlScrub);
    if (!options.quiet)
      fmt::print(stderr, "warpforge board: program {} connected\n", served);
    WireRequest req;
    while (readRequest(client, req)) {
      WireReply reply{};
      int fds[2] = {memory.fd, window.fd};
      int nfds = 0;
      switch (WireOp(req.op)) {
      case WireOp::Hello:
        reply.memoryBytes = memory.bytes;
        reply.windowBytes = window.bytes;
        std::strncpy(reply.deviceKind, options.device.c_str(), sizeof reply.deviceKind - 1);
        nfds = 2;
        break;
      case WireOp::Read:
        reply.value = processor.readReg(req.offset);
        break;
      case WireOp::Write:
        processor.writeReg(req.offset, req.value);
        break;
      default:
        reply.status = 1;
        break;
      }
      if (!sendReply(client, reply, fds, nfds))
        break;
    }
    ::close(client);
    processor.writeReg(uint32_t(dev::Reg::Control), dev::kControlReset | dev::kControlScrub);
    if (!options.quiet)
      fmt::print(stderr, "warpforge board: program {} done\n", served);
  }
  ::close(listener);
  ::unlink(path.c_str());
  return 0;
}

} // namespace wf::rt::board
