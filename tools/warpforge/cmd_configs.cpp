// warpforge configs: the named GPU configurations (isa/config.toml).
#include "cli.h"
#include "warpforge/isa/config.gen.h"

#include <fmt/format.h>
#include <iostream>

namespace wf::driver {

int runConfigs(const std::vector<std::string> &args) {
  CommandLine line;
  line.takesInput = false;
  line.usage = "usage: warpforge configs\n\n"
               "Lists the named GPU configurations every model and board build reads "
               "(isa/config.toml;\nall parameters: docs/isa.md).";
  po::variables_map values;
  if (!parseCommandLine(args, line, values))
    return kExitOk;
  std::cout << fmt::format("{:<8} {:>5} {:>6} {:>5} {:>9} {:>7} {:>9} {:>7} {:>5}  {}\n", "name",
                           "cores", "warps", "lanes", "regs", "smem", "threads", "MiB", "MHz",
                           "description");
  for (const isa::Config &config : isa::kConfigs)
    std::cout << fmt::format("{:<8} {:>5} {:>6} {:>5} {:>9} {:>7} {:>9} {:>7} {:>5}  {}{}\n",
                             config.name, config.cores, config.warpsPerCore, config.lanes,
                             config.regsPerCore, config.sharedMemPerCore, config.maxThreadsPerBlock,
                             config.globalMemMib, config.clockMhz, config.doc,
                             config.name == isa::kDefaultConfig ? " (default)" : "");
  std::cout << "\nwarps: warp slots per core; regs and smem: per core; threads: per block; "
               "MiB: device memory.\n";
  return kExitOk;
}

} // namespace wf::driver
