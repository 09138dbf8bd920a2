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

/// A reply's status. Anything but Ok ends the program's session: the server closes the connection
/// after sending it (docs/runtime.md, "Board server").
enum class WireStatus : uint32_t {
  Ok = 0,
  BadRequest = 1,  ///< an unknown operation or a register offset outside the register file
  BadDoorbell = 2, ///< a doorbell or ring that does not fit the ring size or the DMA window
  TimeLimit = 3,   ///< a doorbell's commands ran past the server's launch time limit
  IdleLimit = 4,   ///< the program said nothing for the idle limit while another one waited
  Stopping = 5,    ///< the server is shutting down (SIGTERM or SIGINT)
};

/// Why the server ended a session, for the client's "lost the device" message.
inline const char *wireStatusText(uint32_t status) {
  switch (WireStatus(status)) {
  case WireStatus::Ok:
    return "no error";
  case WireStatus::BadRequest:
    return "the board server refused a malformed request";
  case WireStatus::BadDoorbell:
    return "the board server refused a doorbell outside the command ring or a ring outside the "
           "DMA window";
  case WireStatus::TimeLimit:
    return "the board server ended the program: a launch ran past its time limit";
  case WireStatus::IdleLimit:
    return "the board server ended the program: it was idle while another program waited";
  case WireStatus::Stopping:
    return "the board server is shutting down";
  }
  return "the board server ended the program";
}

struct WireReply {
  uint32_t status; ///< WireStatus
  uint32_t value;  ///< Read: the register
  uint64_t memoryBytes;
  uint64_t windowBytes;
  char deviceKind[16];
};

} // namespace wf::rt::board
