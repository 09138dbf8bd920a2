// The warpforge command-line driver: `warpforge SUBCOMMAND ...`.
#include "cli.h"

#include <fmt/format.h>
#include <iostream>

namespace {

void printHelp() {
  std::cout << "usage: warpforge [--help] [--version] <command> [<args>]\n\n"
               "Warpforge: a soft GPU that runs CUDA. Commands:\n";
  for (const wf::driver::Command &command : wf::driver::commands())
    std::cout << fmt::format("  {:<9} {}\n", command.name, command.summary);
  std::cout << "\n'warpforge <command> --help' describes a command.\n"
               "Exit status: 0 success, 1 the work failed (assembly errors, kernel fault),\n"
               "2 the command line cannot be used.\n";
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    printHelp();
    return wf::driver::kExitUsage;
  }
  const std::string &first = args.front();
  if (first == "--help" || first == "-h" || first == "help") {
    if (first == "help" && args.size() > 1)
      args = {args[1], "--help"};
    else {
      printHelp();
      return wf::driver::kExitOk;
    }
  }
  if (args.front() == "--version") {
    std::cout << "warpforge " << WARPFORGE_VERSION << "\n";
    return wf::driver::kExitOk;
  }
  for (const wf::driver::Command &command : wf::driver::commands())
    if (args.front() == command.name)
      return wf::driver::guarded(command.name, command.run,
                                 std::vector<std::string>(args.begin() + 1, args.end()));
  std::cerr << fmt::format("warpforge: unknown command '{}' (see 'warpforge --help')\n",
                           args.front());
  return wf::driver::kExitUsage;
}
