// The board server: a device in its own process, used by many host programs in turn
// (docs/runtime.md). `warpforge board` runs it; programs reach it with WARPFORGE_SERVER.
#pragma once

#include <string>

namespace wf::rt::board {

struct ServerOptions {
  std::string device = "func"; ///< the device model to host
  std::string config = "default";
  std::string socketPath;  ///< empty: the default path (defaultSocketPath)
  unsigned maxClients = 0; ///< stop after serving this many programs; 0: until a signal
  bool quiet = false;      ///< no per-client log lines
  /// Wall-clock seconds one doorbell's commands may run before the server ends the program
  /// (WireStatus::TimeLimit); 0: no limit.
  unsigned launchLimitSeconds = 120;
  /// Seconds a program may send nothing while another program waits its turn; 0: no limit.
  unsigned idleLimitSeconds = 30;
  /// The most a program may set WATCHDOG_MINSTS to (a write of 0, no limit, or more is lowered to
  /// it); 0: programs choose freely.
  uint32_t watchdogMinsts = 1000;
};

/// Serves until maxClients programs have come and gone, or SIGINT/SIGTERM. Returns the exit status
/// (messages go to stderr).
int serve(const ServerOptions &options);

/// The socket used when none is named: $XDG_RUNTIME_DIR/warpforge-board.sock, else
/// /tmp/warpforge-board-UID.sock.
std::string defaultSocketPath();

} // namespace wf::rt::board
