// The board server's wire format: how a host program reaches a device hosted by
// `warpforge board` in another process (docs/runtime.md). Only control-register accesses cross the
// socket; device memory and the DMA window are shared-memory segments whose descriptors the server
// passes in its HELLO reply, so bulk data never goes through the socket.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace wf::rt::board {

/// The socket used when none is named: $XDG_RUNTIME_DIR/warpforge-board.sock, else
/// /tmp/warpforge-board-UID.sock.
inline std::string wireDefaultSocketPath() {
  if (const char *dir = std::getenv("XDG_RUNTIME_DIR"); dir && *dir)
    return std::string(dir) + "/warpforge-board.sock";
  return "/tmp/warpforge-board-" + std::to_string(::getuid()) + ".sock";
}

enum class WireOp : uint32_t {
  Hello = 1, ///< reply carries sizes, the device kind and two descriptors: memory, DMA window
  Read = 2,  ///< read the 32-bit control register at `offset`
  Write = 3, ///< write `value` to the control register at `offset`; replies when it took effect
};

struct WireRequest {
  uint32_t op;
  uint32_t offset;
  uint32_t value;
  uint32_t reserved;
};

struct WireReply {
  uint32_t status; ///< 0: done
  uint32_t value;  ///< Read: the register
  uint64_t memoryBytes;
  uint64_t windowBytes;
  char deviceKind[16];
};

} // namespace wf::rt::board
