// The board server's wire format: how a host program reaches a device hosted by
// `warpforge board` in another process (docs/runtime.md). Control-register accesses and
// host-initiated DMA cross the socket; the DMA window that the device masters, and device memory
// for mapped and managed memory, are shared-memory segments whose descriptors the server passes in
// its HELLO reply, so the command queues' bulk data never goes through the socket.
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
  /// Host-initiated DMA (a PCIe card's H2C engine): `bytes` of payload follow the request and go to
  /// device memory at `address`; replies once written.
  DmaWrite = 4,
  /// Host-initiated DMA (C2H): the reply is followed by `bytes` of device memory from `address`.
  DmaRead = 5,
};

/// The most one DMA request may move; a client splits longer transfers.
constexpr uint64_t kWireDmaMaxBytes = 1ull << 20;

struct WireRequest {
  uint32_t op;
  uint32_t offset;
  uint32_t value;
  uint32_t reserved;
  uint64_t address; ///< DMA: the device address
  uint64_t bytes;   ///< DMA: the length, at most kWireDmaMaxBytes
};

/// A reply's status. Anything but Ok ends the program's session: the server closes the connection
/// after sending it (docs/runtime.md, "Board server").
enum class WireStatus : uint32_t {
  Ok = 0,
  BadRequest = 1,  ///< an unknown operation, a register offset outside the register file, or a
                   ///< DMA outside device memory or longer than kWireDmaMaxBytes
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
    return "the board server refused a malformed request (an unknown operation, a register "
           "outside the register file, or a DMA outside device memory)";
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
