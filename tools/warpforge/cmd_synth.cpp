// warpforge synth: Yosys synthesis reports of the RTL units, through tools/synth/synth.mjs (Node and
// the npm package @yowasp/yosys), for a Xilinx UltraScale+ part.
#include "cli.h"
#include "warpforge/isa/config.gen.h"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <spawn.h>
#include <string_view>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace wf::driver {
namespace {

namespace fs = std::filesystem;

// synth.mjs's exit status when @yowasp/yosys cannot be imported.
constexpr int kSynthNoYosys = 77;

const char *kUsage =
    "usage: warpforge synth [--unit=NAME]... [--config=NAME] [--out=DIR] [--jobs=N]\n\n"
    "Synthesizes RTL units with Yosys (@yowasp/yosys) for a Xilinx UltraScale+ part and writes\n"
    "a JSON report per unit (LUTs, flip-flops, carry, DSP and block RAM cells, logic depth) and\n"
    "summary.json to DIR. Without --unit, every unit of rtl/units/.";

const char *kDetails =
    "--config=NAME gives each unit the Lanes, NumBanks and LineBytes of that named\n"
    "configuration (warpforge configs) where it has them; without it, units with lanes are\n"
    "synthesized with Lanes=1 (per-lane figures) and the others with their defaults.\n"
    "Needs Node (node on PATH, or $WARPFORGE_NODE) and the npm package in tools/synth\n"
    "(cd tools/synth && npm ci). $WARPFORGE_SYNTH_SCRIPT names another synth.mjs.\n"
    "Exit status: 0 every unit synthesized; 1 a unit failed or the tools are missing.\n";

/// An executable called `name` on PATH, or empty.
std::string findOnPath(std::string_view name) {
  const char *path = std::getenv("PATH");
  if (!path)
    return {};
  std::string_view rest = path;
  while (true) {
    size_t colon = rest.find(':');
    std::string_view dir = rest.substr(0, colon);
    fs::path candidate = fs::path(dir.empty() ? "." : std::string(dir)) / std::string(name);
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate.string();
    if (colon == std::string_view::npos)
      return {};
    rest.remove_prefix(colon + 1);
  }
}

std::string synthScript() {
  if (const char *script = std::getenv("WARPFORGE_SYNTH_SCRIPT"))
    return script;
#ifdef WARPFORGE_SYNTH_SCRIPT
  return WARPFORGE_SYNTH_SCRIPT;
#else
  return {};
#endif
}

/// Runs argv[0] with argv, sharing our stdout and stderr; its exit status, or -1.
int spawnAndWait(const std::vector<std::string> &argv) {
  std::vector<char *> raw;
  for (const std::string &arg : argv)
    raw.push_back(const_cast<char *>(arg.c_str()));
  raw.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, raw[0], nullptr, nullptr, raw.data(), environ) != 0)
    return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
    return -1;
  return WEXITSTATUS(status);
}

} // namespace

int runSynth(const std::vector<std::string> &args) {
  CommandLine line;
  line.takesInput = false;
  line.usage = kUsage;
  line.details = kDetails;
  line.options.add_options()
      ("unit", po::value<std::vector<std::string>>(), "a unit of rtl/ (wf_alu or alu); repeatable")
      ("config", po::value<std::string>(), "named configuration whose parameters the units take")
      ("out", po::value<std::string>()->default_value("synth"), "directory for the reports")
      ("jobs", po::value<unsigned>()->default_value(1), "units synthesized at a time");
  po::variables_map values;
  if (!parseCommandLine(args, line, values))
    return kExitOk;

  std::vector<std::string> scriptArgs;
  if (values.count("unit")) {
    for (const std::string &unit : values["unit"].as<std::vector<std::string>>()) {
      if (unit.empty() || unit.find_first_of("/ ") != std::string::npos)
        throw UsageError(fmt::format("bad unit name '{}'", unit));
      scriptArgs.insert(scriptArgs.end(), {"--unit", unit});
    }
  } else {
    scriptArgs.push_back("--all");
  }
  if (values.count("config")) {
    const std::string &name = values["config"].as<std::string>();
    const isa::Config *config = isa::findConfig(name);
    if (!config) {
      std::string known;
      for (const isa::Config &c : isa::kConfigs)
        known += fmt::format("{}{}", known.empty() ? "" : ", ", c.name);
      throw UsageError(fmt::format("unknown configuration '{}' (known: {})", name, known));
    }
    scriptArgs.insert(scriptArgs.end(),
                      {"--lanes", std::to_string(config->lanes), "--default-param",
                       fmt::format("NumBanks={}", config->sharedBanks), "--default-param",
                       fmt::format("LineBytes={}", config->cacheLineBytes)});
  }
  const std::string out = values["out"].as<std::string>();
  unsigned jobs = values["jobs"].as<unsigned>();
  if (jobs == 0)
    throw UsageError("--jobs must be at least 1");
  scriptArgs.insert(scriptArgs.end(), {"--out", out, "--jobs", std::to_string(jobs), "--check"});

  std::string node;
  if (const char *env = std::getenv("WARPFORGE_NODE"))
    node = env;
  else
    node = findOnPath("node");
  std::error_code ec;
  if (node.empty() || !fs::is_regular_file(node, ec)) {
    std::cerr << "warpforge synth: Node.js is not installed (no 'node' on PATH"
              << (std::getenv("WARPFORGE_NODE") ? "; $WARPFORGE_NODE names no file" : "")
              << "); synthesis runs Yosys from the npm package @yowasp/yosys under Node\n";
    return kExitFailure;
  }
  const std::string script = synthScript();
  if (script.empty() || !fs::is_regular_file(script, ec)) {
    std::cerr << fmt::format("warpforge synth: the synthesis runner {} is missing\n",
                             script.empty() ? "tools/synth/synth.mjs" : script);
    return kExitFailure;
  }

  std::vector<std::string> argv{node, script};
  argv.insert(argv.end(), scriptArgs.begin(), scriptArgs.end());
  int status = spawnAndWait(argv);
  if (status == kSynthNoYosys) {
    std::cerr << fmt::format("warpforge synth: @yowasp/yosys is not installed; run 'npm ci' in {}\n",
                             fs::path(script).parent_path().string());
    return kExitFailure;
  }
  if (status == kExitUsage)
    return kExitUsage; // synth.mjs printed why (an unknown unit)
  if (status != 0) {
    std::cerr << fmt::format("warpforge synth: synthesis failed (reports in {})\n", out);
    return kExitFailure;
  }
  std::cout << fmt::format("reports: {}/<unit>.json, {}/summary.json\n", out, out);
  return kExitOk;
}

} // namespace wf::driver
