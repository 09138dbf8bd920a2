// warpforge board: a device in its own process, which host programs use in turn through
// WARPFORGE_SERVER (docs/runtime.md).
#include "cli.h"
#include "warpforge/runtime/board_server.h"

namespace wf::driver {
int runBoard(const std::vector<std::string> &args) {
  CommandLine line;
  line.takesInput = false;
  line.usage = "usage: warpforge board [--device=NAME] [--config=NAME] [--socket=PATH] "
               "[--clients=N]\n                       [--launch-limit=S] [--idle-limit=S] "
               "[--watchdog-minsts=N]\n\n"
               "Hosts a device in this process and serves it over a Unix socket: one program at a "
               "time,\nthe others wait their turn. A program reaches it with "
               "WARPFORGE_SERVER=PATH (an empty\nvalue means the default socket). Each program "
               "gets a device of its own, in a process of\nits own, with zeroed memory that no "
               "other program can reach.";
  std::string device, config, socket;
  unsigned clients = 0;
  rt::board::ServerOptions defaults;
  line.options.add_options()                                                          //
      ("device", po::value(&device)->default_value("func"), "device plugin to host")  //
      ("config", po::value(&config)->default_value("default"), "named configuration") //
      ("socket", po::value(&socket),
       "socket path (default: $XDG_RUNTIME_DIR/warpforge-board.sock)") //
      ("clients", po::value(&clients)->default_value(0),
       "exit after serving N programs (0: run until a signal)") //
      ("launch-limit",
       po::value(&defaults.launchLimitSeconds)->default_value(defaults.launchLimitSeconds),
       "seconds one doorbell's commands may run before the program is ended (0: no limit)") //
      ("idle-limit",
       po::value(&defaults.idleLimitSeconds)->default_value(defaults.idleLimitSeconds),
       "seconds a program may stay silent while another waits (0: no limit)") //
      ("watchdog-minsts",
       po::value(&defaults.watchdogMinsts)->default_value(defaults.watchdogMinsts),
       "most million warp instructions a launch may run, whatever the program asks "
       "(0: the program chooses)") //
      ("quiet", "no per-program log lines");
  po::variables_map values;
  if (!parseCommandLine(args, line, values))
    return kExitOk;
  rt::board::ServerOptions options = defaults;
  options.device = device;
  options.config = config;
  options.socketPath = socket;
  options.maxClients = clients;
  options.quiet = values.count("quiet") > 0;
  return rt::board::serve(options);
}

} // namespace wf::driver
