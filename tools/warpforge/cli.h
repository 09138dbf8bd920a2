// Shared pieces of the warpforge subcommands: option parsing, exit codes, small value parsers.
#pragma once

#include <boost/program_options.hpp>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace wf::driver {

namespace po = boost::program_options;

/// Exit codes: 0 success; 1 the work failed (assembly errors, a bad module, a kernel fault);
/// 2 the command line cannot be used (unknown option, bad value, missing file, unknown name).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

/// A command-line problem; the subcommand's runner prints it and exits with kExitUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Command {
  const char *name;
  const char *summary;
  int (*run)(const std::vector<std::string> &args);
};

/// Every subcommand, in the order `warpforge --help` lists them.
const std::vector<Command> &commands();

int runAsm(const std::vector<std::string> &args);
int runCompile(const std::vector<std::string> &args);
int runCc(const std::vector<std::string> &args);
int runRun(const std::vector<std::string> &args);
int runDisasm(const std::vector<std::string> &args);
int runEmu(const std::vector<std::string> &args);
int runConfigs(const std::vector<std::string> &args);
int runBoard(const std::vector<std::string> &args);
int runSynth(const std::vector<std::string> &args);
int runReport(const std::vector<std::string> &args);
int runSweep(const std::vector<std::string> &args);

/// What a subcommand accepts: documented options, the positional input file, and help text.
struct CommandLine {
  po::options_description options{"Options"};
  bool takesInput = true; ///< one positional argument, stored as "input"
  std::string usage;      ///< printed above the options by --help
  std::string details;    ///< printed below them
};

/// Parses `args`; throws UsageError. Returns false when --help was given (and printed).
bool parseCommandLine(const std::vector<std::string> &args, CommandLine &line,
                      po::variables_map &values);

/// Runs a subcommand body, turning UsageError into a message and kExitUsage.
int guarded(const char *command, int (*body)(const std::vector<std::string> &),
            const std::vector<std::string> &args);

/// The whole file; nullopt when it cannot be read.
std::optional<std::vector<uint8_t>> readBinaryFile(const std::string &path);
std::optional<std::string> readTextFile(const std::string &path);
bool writeBinaryFile(const std::string &path, const void *data, size_t size);

/// "12", "0x40", "4k", "1M": a byte count or integer; throws UsageError naming `what`.
uint64_t parseSize(const std::string &text, const std::string &what);
/// A signed or unsigned integer of up to 64 bits (decimal, 0x hex, 0b binary, leading '-').
int64_t parseInteger(const std::string &text, const std::string &what, bool *negative = nullptr);
double parseReal(const std::string &text, const std::string &what);

struct Dims {
  uint32_t x = 1, y = 1, z = 1;
};
/// "X", "X,Y" or "X,Y,Z", each at least 1.
Dims parseDims(const std::string &text, const std::string &what);

} // namespace wf::driver
