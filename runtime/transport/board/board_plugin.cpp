// The board-server transport: control registers over a Unix socket, device memory and the DMA
// window as shared memory received from the server (wire.h).
#include "wire.h"

#include "warpforge/isa/config.gen.h"
#include "warpforge/runtime/board_server.h"
#include "warpforge/runtime/device.h"
#include "warpforge/runtime/transport.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace wf::rt {

std::unique_ptr<Device> openProtocolDevice(std::unique_ptr<Transport> transport,
                                           std::string &error);

namespace board {

std::string defaultSocketPath() {
  if (const char *dir = std::getenv("XDG_RUNTIME_DIR"); dir && *dir)
    return std::string(dir) + "/warpforge-board.sock";
  return "/tmp/warpforge-board-" + std::to_string(::getuid()) + ".sock";
}

namespace {

bool sendAll(int fd, const void *data, size_t bytes) {
  auto *p = static_cast<const uint8_t *>(data);
  while (bytes) {
    ssize_t n = ::send(fd, p, bytes, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    bytes -= size_t(n);
  }
  return true;
}

/// Receives one reply, and up to two descriptors when it carries them.
bool receiveReply(int fd, WireReply &reply, int *fds, int &nfds) {
  auto *p = reinterpret_cast<uint8_t *>(&reply);
  size_t got = 0;
  nfds = 0;
  while (got < sizeof reply) {
    iovec iov{p + got, sizeof reply - got};
    alignas(cmsghdr) char control[CMSG_SPACE(2 * sizeof(int))];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n = ::recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
        continue;
      size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      int *received = reinterpret_cast<int *>(CMSG_DATA(c));
      for (size_t i = 0; i < count; ++i) {
        if (nfds < 2)
          fds[nfds++] = received[i];
        else
          ::close(received[i]);
      }
    }
    got += size_t(n);
  }
  return true;
}

class BoardTransport final : public Transport {
public:
  ~BoardTransport() override {
    if (memory_)
      munmap(memory_, memoryBytes_);
    if (window_)
      munmap(window_, windowBytes_);
    if (socket_ >= 0)
      ::close(socket_);
  }

  bool connect(const std::string &path, std::string &error) {
    path_ = path;
    socket_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) {
      error = "board server socket path too long: " + path;
      return false;
    }
    std::strcpy(addr.sun_path, path.c_str());
    if (socket_ < 0 || ::connect(socket_, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
      error = "cannot reach the board server at " + path + " (" + std::strerror(errno) +
              "); start one with `warpforge board`";
      return false;
    }
    WireRequest hello{uint32_t(WireOp::Hello), 0, 0, 0};
    WireReply reply{};
    int fds[2] = {-1, -1}, nfds = 0;
    if (!sendAll(socket_, &hello, sizeof hello) || !receiveReply(socket_, reply, fds, nfds) ||
        reply.status != 0 || nfds != 2) {
      for (int i = 0; i < nfds; ++i)
        ::close(fds[i]);
      error = "the board server at " + path + " did not complete the handshake";
      return false;
    }
    memoryBytes_ = reply.memoryBytes;
    windowBytes_ = reply.windowBytes;
    kind_.assign(reply.deviceKind, strnlen(reply.deviceKind, sizeof reply.deviceKind));
    // Device memory goes at its own device addresses when that range is free in this process, so
    // a device pointer is also a host pointer (managed memory); anywhere else otherwise.
    void *mem = mmap(reinterpret_cast<void *>(isa::kGlobalBase), memoryBytes_,
                     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, fds[0], 0);
    if (mem == MAP_FAILED)
      mem = mmap(nullptr, memoryBytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);
    void *win = mmap(nullptr, windowBytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fds[1], 0);
    ::close(fds[0]);
    ::close(fds[1]);
    memory_ = mem == MAP_FAILED ? nullptr : static_cast<uint8_t *>(mem);
    window_ = win == MAP_FAILED ? nullptr : static_cast<uint8_t *>(win);
    if (!memory_ || !window_) {
      error =
          "cannot map the board server's shared memory (" + std::string(std::strerror(errno)) + ")";
      return false;
    }
    return true;
  }

  std::string deviceKind() const override { return kind_; }
  std::string describe() const override { return "board server at " + path_; }

  uint32_t readReg(uint32_t offset) override {
    WireReply reply{};
    return transact(WireOp::Read, offset, 0, reply) ? reply.value : ~0u;
  }
  void writeReg(uint32_t offset, uint32_t value) override {
    WireReply reply{};
    transact(WireOp::Write, offset, value, reply);
  }
  bool lost() const override { return !lostReason_.empty(); }
  std::string lostReason() const override { return lostReason_; }
  uint8_t *dmaWindow() override { return window_; }
  uint64_t dmaWindowSize() const override { return windowBytes_; }
  uint8_t *mappedMemory() override { return memory_; }

private:
  bool transact(WireOp op, uint32_t offset, uint32_t value, WireReply &reply) {
    if (lost())
      return false;
    WireRequest req{uint32_t(op), offset, value, 0};
    int fds[2], nfds = 0;
    if (!sendAll(socket_, &req, sizeof req) || !receiveReply(socket_, reply, fds, nfds)) {
      lostReason_ = "the board server closed the connection";
      return false;
    }
    for (int i = 0; i < nfds; ++i)
      ::close(fds[i]);
    return reply.status == 0;
  }

  std::string path_, kind_, lostReason_;
  int socket_ = -1;
  uint8_t *memory_ = nullptr, *window_ = nullptr;
  uint64_t memoryBytes_ = 0, windowBytes_ = 0;
};

} // namespace
} // namespace board

std::unique_ptr<Device> openBoardServerDevice(const std::string &path, std::string &error) {
  auto transport = std::make_unique<board::BoardTransport>();
  if (!transport->connect(path.empty() ? board::defaultSocketPath() : path, error))
    return nullptr;
  return openProtocolDevice(std::move(transport), error);
}

} // namespace wf::rt
