//===- board_plugin.cpp - The board server as a device plugin --------------===//
//
// libwf-device-board.so: the device hosted by a board server (`warpforge board`, server.cpp) in
// another process. Control registers and host-initiated DMA of device memory (mem_read/mem_write)
// cross a Unix socket; the DMA window, and device memory for mapped and managed memory, are
// shared-memory segments received from the server (wire.h). The window is host memory this plugin
// provides (host_memory), as a PCIe driver provides the pinned buffers its device masters. It links
// no device model: any plugin the server hosts is reached the same way.
//
//===----------------------------------------------------------------------===//

#include "wire.h"

#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device.gen.h"
#include "warpforge/isa/device_plugin.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace wf::rt::board {
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

bool receiveAll(int fd, void *data, size_t bytes) {
  auto *p = static_cast<uint8_t *>(data);
  while (bytes) {
    ssize_t n = ::recv(fd, p, bytes, 0);
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

} // namespace
} // namespace wf::rt::board

using namespace wf::rt::board;

struct wf_device_model {
  ~wf_device_model() {
    if (memory)
      munmap(memory, memoryBytes);
    if (window)
      munmap(window, windowBytes);
    if (socket >= 0)
      ::close(socket);
  }

  bool connect(const std::string &where, std::string &error) {
    path = where;
    description = "board server at " + path;
    socket = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (path.size() >= sizeof addr.sun_path) {
      error = "board server socket path too long: " + path;
      return false;
    }
    std::strcpy(addr.sun_path, path.c_str());
    if (socket < 0 || ::connect(socket, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0) {
      error = "cannot reach the board server at " + path + " (" + std::strerror(errno) +
              "); start one with `warpforge board`";
      return false;
    }
    WireRequest hello{uint32_t(WireOp::Hello), 0, 0, 0, 0, 0};
    WireReply reply{};
    int fds[2] = {-1, -1}, nfds = 0;
    if (!sendAll(socket, &hello, sizeof hello) || !receiveReply(socket, reply, fds, nfds) ||
        reply.status != 0 || nfds != 2) {
      for (int i = 0; i < nfds; ++i)
        ::close(fds[i]);
      error = "the board server at " + path + " did not complete the handshake";
      return false;
    }
    memoryBytes = reply.memoryBytes;
    windowBytes = reply.windowBytes;
    kind.assign(reply.deviceKind, strnlen(reply.deviceKind, sizeof reply.deviceKind));
    // Device memory goes at its own device addresses when that range is free in this process, so
    // a device pointer is also a host pointer (managed memory); anywhere else otherwise.
    void *mem = mmap(reinterpret_cast<void *>(wf::isa::kGlobalBase), memoryBytes,
                     PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED_NOREPLACE, fds[0], 0);
    if (mem == MAP_FAILED)
      mem = mmap(nullptr, memoryBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fds[0], 0);
    void *win = mmap(nullptr, windowBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fds[1], 0);
    ::close(fds[0]);
    ::close(fds[1]);
    memory = mem == MAP_FAILED ? nullptr : static_cast<uint8_t *>(mem);
    window = win == MAP_FAILED ? nullptr : static_cast<uint8_t *>(win);
    if (!memory || !window) {
      error =
          "cannot map the board server's shared memory (" + std::string(std::strerror(errno)) + ")";
      return false;
    }
    return true;
  }

  bool transact(WireOp op, uint32_t offset, uint32_t value, WireReply &reply) {
    std::lock_guard lock(mutex);
    if (!lostReason.empty())
      return false;
    WireRequest req{uint32_t(op), offset, value, 0, 0, 0};
    int fds[2], nfds = 0;
    if (!sendAll(socket, &req, sizeof req) || !receiveReply(socket, reply, fds, nfds)) {
      lostReason = "the board server closed the connection";
      return false;
    }
    for (int i = 0; i < nfds; ++i)
      ::close(fds[i]);
    if (reply.status != uint32_t(WireStatus::Ok)) {
      // The server ends the session after any refusal: the device is gone for this program.
      lostReason = wireStatusText(reply.status);
      return false;
    }
    return true;
  }

  /// Host-initiated DMA: one request per kWireDmaMaxBytes, its payload after the request (a
  /// write) or after the reply (a read). A range outside device memory is refused here, so the
  /// session goes on; the server checks again.
  bool dma(WireOp op, uint64_t address, uint8_t *data, uint64_t bytes) {
    if (!inMemory(address, bytes))
      return false;
    std::lock_guard lock(mutex);
    while (lostReason.empty() && bytes) {
      uint64_t piece = std::min(bytes, kWireDmaMaxBytes);
      WireRequest req{uint32_t(op), 0, 0, 0, address, piece};
      WireReply reply{};
      int fds[2], nfds = 0;
      bool ok = sendAll(socket, &req, sizeof req) &&
                (op != WireOp::DmaWrite || sendAll(socket, data, piece)) &&
                receiveReply(socket, reply, fds, nfds);
      for (int i = 0; i < nfds; ++i)
        ::close(fds[i]);
      if (!ok) {
        lostReason = "the board server closed the connection";
        break;
      }
      if (reply.status != uint32_t(WireStatus::Ok)) {
        lostReason = wireStatusText(reply.status);
        break;
      }
      if (op == WireOp::DmaRead && !receiveAll(socket, data, piece)) {
        lostReason = "the board server closed the connection";
        break;
      }
      address += piece;
      data += piece;
      bytes -= piece;
    }
    return lostReason.empty();
  }

  bool inMemory(uint64_t address, uint64_t bytes) const {
    uint64_t base = wf::isa::kGlobalBase;
    return address >= base && address - base <= memoryBytes &&
           bytes <= memoryBytes - (address - base);
  }

  std::mutex mutex; // one request and its reply at a time on the socket
  std::string path, kind, description, lostReason;
  int socket = -1;
  uint8_t *memory = nullptr, *window = nullptr;
  uint64_t memoryBytes = 0, windowBytes = 0;
};

namespace {

const char *kind(wf_device_model *m) { return m->kind.c_str(); }
const char *describe(wf_device_model *m) { return m->description.c_str(); }

uint32_t readReg(wf_device_model *m, uint32_t offset) {
  WireReply reply{};
  return m->transact(WireOp::Read, offset, 0, reply) ? reply.value : ~0u;
}
void writeReg(wf_device_model *m, uint32_t offset, uint32_t value) {
  WireReply reply{};
  m->transact(WireOp::Write, offset, value, reply);
}
int lost(wf_device_model *m, char *why, size_t whySize) {
  std::lock_guard lock(m->mutex);
  if (m->lostReason.empty())
    return 0;
  if (why && whySize)
    std::snprintf(why, whySize, "%s", m->lostReason.c_str());
  return 1;
}

uint8_t *hostMemory(wf_device_model *m, uint64_t *bytes) {
  *bytes = m->windowBytes;
  return m->window;
}

int memRead(wf_device_model *m, uint64_t address, void *dst, uint64_t bytes) {
  return m->dma(WireOp::DmaRead, address, static_cast<uint8_t *>(dst), bytes) ? 0 : 1;
}
int memWrite(wf_device_model *m, uint64_t address, const void *src, uint64_t bytes) {
  // Only read: the request's payload is sent from it.
  return m->dma(WireOp::DmaWrite, address, static_cast<uint8_t *>(const_cast<void *>(src)), bytes)
             ? 0
             : 1;
}
uint8_t *memMap(wf_device_model *m, uint64_t *base, uint64_t *bytes) {
  *base = wf::isa::kGlobalBase;
  *bytes = m->memoryBytes;
  return m->memory;
}

int idle(wf_device_model *m) {
  return (readReg(m, uint32_t(wf::isa::dev::Reg::Status)) & wf::isa::dev::kStatusIdle) != 0;
}
int irqPending(wf_device_model *m) {
  uint32_t status = readReg(m, uint32_t(wf::isa::dev::Reg::IrqStatus));
  return (status & readReg(m, uint32_t(wf::isa::dev::Reg::IrqEnable))) != 0;
}
void destroy(wf_device_model *m) { delete m; }

const wf_device_model_ops kOps = {
    kind,
    describe,
    readReg,
    writeReg,
    lost,
    /*attach_host_dma=*/nullptr, // the server's window is the host memory the device reaches
    hostMemory,
    memRead,
    memWrite,
    memMap,
    /*advance=*/nullptr, // the server's model runs on its own
    idle,
    irqPending,
    destroy,
};

wf_device_model *create(const wf_device_create_params *params, char *error, size_t errorSize) {
  auto fail = [&](const std::string &why) -> wf_device_model * {
    std::snprintf(error, errorSize, "%s", why.c_str());
    return nullptr;
  };
  if (!params || params->abi_version != WF_DEVICE_PLUGIN_ABI_VERSION)
    return fail("board: the host speaks another plugin interface version");
  if (params->device_memory)
    return fail("board: a device behind a board server cannot itself be hosted by one");
  auto *model = new wf_device_model;
  std::string why;
  const char *path = params->options;
  if (!model->connect(path && *path ? path : wireDefaultSocketPath(), why)) {
    delete model;
    return fail(why);
  }
  return model;
}

const wf_device_plugin kPlugin = {
    WF_DEVICE_PLUGIN_ABI_VERSION, 0, "board",
    "the device of a board server (`warpforge board`) in another process", &kOps, create,
};

} // namespace

extern "C" __attribute__((visibility("default"))) const wf_device_plugin *
wf_device_plugin_entry(void) {
  return &kPlugin;
}
