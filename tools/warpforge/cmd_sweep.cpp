// warpforge sweep: every (configuration, program, device) combination as its own process, several
// at once, and one CSV row per combination with its status, wall time and chosen statistics read
// from the run's own --stats JSON (docs/cycle-model.md, "Sweeps").
#include "cli.h"
#include "frontend.h"
#include "warpforge/isa/config.gen.h"
#include "warpforge/runtime/plugins.h"

#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace wf::driver {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char *kDetails =
    "Programs are CUDA sources (.cu; built once with 'warpforge cc' before the runs) or\n"
    "executables built with 'warpforge cc'. Each run gets WARPFORGE_DEVICE, WARPFORGE_CONFIG and\n"
    "its own WARPFORGE_STATS file. --config, --device and --stat may repeat or take\n"
    "comma-separated lists.\n\n"
    "A statistic is a hierarchical name from the stats JSON (gpu.l2.hit_rate). A component may\n"
    "hold '*' (gpu.core*.stall_memory): the cell is the sum over the matches. 'mean:PATTERN' is\n"
    "their mean; 'hitrate:PREFIX' is sum(PREFIX_hits) / (sum(PREFIX_hits) + sum(PREFIX_misses)).\n"
    "A cell is empty when the run wrote no statistics or nothing matches.\n\n"
    "CSV columns: config, device, program, status (ok, exit, signal, timeout, build-failed,\n"
    "cannot-start), exit_code, wall_seconds, then one column per statistic, named as given.\n"
    "Rows follow the order configs x programs x devices whatever -j is.\n\n"
    "Exit status: 0 every run exited 0; 1 some run did not; 2 bad command line.\n";

/// The default columns: cycles, instructions, IPC, lane utilization, the stall breakdown and the
/// cache hit rates of the cycle device (docs/cycle-model.md, "Statistics").
const std::vector<std::string> kDefaultStats = {
    "gpu.cycles",
    "gpu.warp_insts",
    "gpu.thread_insts",
    "gpu.ipc",
    "mean:gpu.core*.lane_utilization",
    "gpu.core*.stall_no_instruction",
    "gpu.core*.stall_dependency",
    "gpu.core*.stall_unit_busy",
    "gpu.core*.stall_memory",
    "gpu.core*.stall_barrier",
    "gpu.core*.stall_convergence",
    "hitrate:gpu.core*.icache",
    "hitrate:gpu.core*.dcache",
    "hitrate:gpu.core*.ccache",
    "gpu.l2.hit_rate",
};

// --- reading the stats JSON ----------------------------------------------------------------------

/// Reads a warpforge-stats document into name -> value for every statistic with a numeric
/// "value" (scalars and formulas). Vectors and distributions are left out.
class StatsReader {
public:
  explicit StatsReader(std::string_view text) : text_(text) {}

  /// Empty on success, else what is wrong.
  std::string read(std::map<std::string, double> &out) {
    out_ = &out;
    space();
    if (!value(0) || (space(), pos_ != text_.size()))
      return error_.empty() ? "text after the JSON value" : error_;
    return {};
  }

private:
  bool fail(const char *what) {
    if (error_.empty())
      error_ = fmt::format("{} at offset {}", what, pos_);
    return false;
  }
  void space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool string(std::string &s) {
    if (pos_ >= text_.size() || text_[pos_] != '"')
      return fail("expected a string");
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' && ++pos_ >= text_.size())
        break;
      s += text_[pos_++]; // names are plain ASCII; escapes are kept as their letter
    }
    if (pos_ >= text_.size())
      return fail("unterminated string");
    ++pos_;
    return true;
  }
  bool number(double &v) {
    size_t start = pos_;
    while (pos_ < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[pos_])) ||
                                   std::strchr("+-.eE", text_[pos_])))
      ++pos_;
    std::string digits(text_.substr(start, pos_ - start));
    char *end = nullptr;
    v = std::strtod(digits.c_str(), &end);
    if (digits.empty() || end != digits.c_str() + digits.size())
      return fail("bad number");
    return true;
  }
  /// depth 0: the document; 1: its members; 2: "stats" members (statistic objects); 3: fields.
  bool value(int depth, const std::string &key = {}, const std::string &stat = {}) {
    if (depth > 32 || pos_ >= text_.size())
      return fail("unexpected end or nesting");
    char c = text_[pos_];
    if (c == '{') {
      ++pos_;
      space();
      if (pos_ < text_.size() && text_[pos_] == '}')
        return ++pos_, true;
      for (;;) {
        space();
        std::string name;
        if (!string(name))
          return false;
        space();
        if (pos_ >= text_.size() || text_[pos_++] != ':')
          return fail("expected ':'");
        space();
        bool inStats = depth == 1 && key == "stats";
        if (!value(depth + 1, name, inStats ? name : (depth == 2 ? key : stat)))
          return false;
        space();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < text_.size() && text_[pos_] == '}')
          return ++pos_, true;
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      ++pos_;
      space();
      if (pos_ < text_.size() && text_[pos_] == ']')
        return ++pos_, true;
      for (;;) {
        space();
        if (!value(depth + 1))
          return false;
        space();
        if (pos_ < text_.size() && text_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < text_.size() && text_[pos_] == ']')
          return ++pos_, true;
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      std::string ignored;
      return string(ignored);
    }
    for (std::string_view word : {"true", "false", "null"})
      if (text_.substr(pos_, word.size()) == word)
        return pos_ += word.size(), true;
    double v = 0;
    if (!number(v))
      return false;
    if (depth == 3 && key == "value" && !stat.empty())
      (*out_)[stat] = v;
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
  std::map<std::string, double> *out_ = nullptr;
};

/// True when `name` matches `pattern` component by component; '*' in a component matches any
/// run of characters other than '.'.
bool matches(std::string_view pattern, std::string_view name) {
  if (pattern.empty())
    return name.empty();
  if (pattern.front() == '*') {
    for (size_t skip = 0; skip <= name.size(); ++skip) {
      if (matches(pattern.substr(1), name.substr(skip)))
        return true;
      if (skip < name.size() && name[skip] == '.')
        break;
    }
    return false;
  }
  return !name.empty() && pattern.front() == name.front() &&
         matches(pattern.substr(1), name.substr(1));
}

/// The statistics matching `pattern`: their count and sum.
std::pair<size_t, double> sumOf(const std::map<std::string, double> &stats,
                                std::string_view pattern) {
  size_t n = 0;
  double sum = 0;
  for (const auto &[name, value] : stats)
    if (matches(pattern, name))
      ++n, sum += value;
  return {n, sum};
}

/// One column's cell for a run's statistics; nullopt when nothing matches.
std::optional<double> cell(const std::map<std::string, double> &stats, const std::string &column) {
  if (column.rfind("mean:", 0) == 0) {
    auto [n, sum] = sumOf(stats, std::string_view(column).substr(5));
    return n ? std::optional(sum / double(n)) : std::nullopt;
  }
  if (column.rfind("hitrate:", 0) == 0) {
    std::string prefix = column.substr(8);
    auto [nh, hits] = sumOf(stats, prefix + "_hits");
    auto [nm, misses] = sumOf(stats, prefix + "_misses");
    if (!nh || !nm)
      return std::nullopt;
    return hits + misses > 0 ? hits / (hits + misses) : 0.0;
  }
  auto [n, sum] = sumOf(stats, column);
  return n ? std::optional(sum) : std::nullopt;
}

// --- runs ----------------------------------------------------------------------------------------

struct Run {
  std::string config, device, program;
  std::string executable; ///< empty when the program could not be built
  std::string statsPath, logPath;
  std::string status;
  int exitCode = -1;
  double wallSeconds = 0;
  pid_t pid = -1;
  Clock::time_point start;
};

/// Starts `run` in its own process group with its output in its log; false when fork fails.
bool start(Run &run) {
  std::error_code ec;
  fs::remove(run.statsPath, ec);
  run.start = Clock::now();
  pid_t pid = ::fork();
  if (pid < 0)
    return false;
  if (pid == 0) {
    ::setpgid(0, 0);
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(run.logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in >= 0)
      ::dup2(in, 0);
    if (out >= 0)
      ::dup2(out, 1), ::dup2(out, 2);
    ::setenv("WARPFORGE_DEVICE", run.device.c_str(), 1);
    ::setenv("WARPFORGE_CONFIG", run.config.c_str(), 1);
    ::setenv("WARPFORGE_STATS", run.statsPath.c_str(), 1);
    const char *argv[] = {run.executable.c_str(), nullptr};
    ::execv(argv[0], const_cast<char *const *>(argv));
    _exit(127);
  }
  ::setpgid(pid, pid); // also here, so a kill of the group cannot race the child's own call
  run.pid = pid;
  return true;
}

void finish(Run &run, int waitStatus, bool timedOut) {
  run.wallSeconds = std::chrono::duration<double>(Clock::now() - run.start).count();
  run.pid = -1;
  if (timedOut) {
    run.status = "timeout";
  } else if (WIFEXITED(waitStatus)) {
    run.exitCode = WEXITSTATUS(waitStatus);
    run.status = run.exitCode == 0 ? "ok" : run.exitCode == 127 ? "cannot-start" : "exit";
  } else if (WIFSIGNALED(waitStatus)) {
    run.exitCode = 128 + WTERMSIG(waitStatus);
    run.status = "signal";
  }
}

/// Runs every job with at most `jobs` at once; a run past `timeout` seconds (0: none) is killed
/// with its process group.
void runAll(std::vector<Run> &runs, unsigned jobs, double timeout) {
  std::vector<Run *> running;
  size_t next = 0;
  while (next < runs.size() || !running.empty()) {
    while (running.size() < jobs && next < runs.size()) {
      Run &run = runs[next++];
      if (run.executable.empty())
        continue; // build-failed: already has its status
      if (!start(run)) {
        run.status = "cannot-start";
        continue;
      }
      running.push_back(&run);
    }
    bool progressed = false;
    for (size_t i = 0; i < running.size();) {
      Run &run = *running[i];
      int status = 0;
      pid_t done = ::waitpid(run.pid, &status, WNOHANG);
      bool late =
          timeout > 0 && std::chrono::duration<double>(Clock::now() - run.start).count() > timeout;
      if (done == 0 && late) {
        ::kill(-run.pid, SIGKILL);
        ::waitpid(run.pid, &status, 0);
      }
      if (done != 0 || late) {
        finish(run, status, done == 0 && late);
        running.erase(running.begin() + long(i));
        progressed = true;
        continue;
      }
      ++i;
    }
    if (!progressed && !running.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

std::vector<std::string> splitList(const std::vector<std::string> &values) {
  std::vector<std::string> out;
  for (const std::string &value : values) {
    size_t start = 0;
    for (;;) {
      size_t comma = value.find(',', start);
      std::string item = value.substr(start, comma == std::string::npos ? comma : comma - start);
      if (!item.empty())
        out.push_back(item);
      if (comma == std::string::npos)
        break;
      start = comma + 1;
    }
  }
  return out;
}

std::string csvField(const std::string &text) {
  if (text.find_first_of(",\"\n") == std::string::npos)
    return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

/// A file-name-safe form of `text`.
std::string slug(const std::string &text) {
  std::string out;
  for (char c : text)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return out;
}

} // namespace

int runSweep(const std::vector<std::string> &args) {
  CommandLine line;
  line.takesInput = false;
  line.usage = "usage: warpforge sweep --config=NAMES PROGRAM... [--device=NAMES] [-j N]\n"
               "                       [--stat=NAME]... [--timeout=SECONDS] [-o FILE.csv]\n\n"
               "Runs every configuration x program x device as its own process, N at a time, and\n"
               "writes one CSV row per run.";
  line.details = kDetails;
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  auto add = line.options.add_options();
  add("config", po::value<std::vector<std::string>>()->composing(),
      "named configurations (warpforge configs); required");
  add("device", po::value<std::vector<std::string>>()->composing(),
      "device plugins (default: cycle)");
  add("jobs,j", po::value<unsigned>()->default_value(cores), "runs at once");
  add("stat", po::value<std::vector<std::string>>()->composing(),
      "a statistic column (default: cycles, instructions, IPC, lane utilization, stalls, cache "
      "hit rates)");
  add("timeout", po::value<double>()->default_value(0), "seconds a run may take (0: no limit)");
  add("output,o", po::value<std::string>(), "the CSV file (default: standard output)");
  add("logs", po::value<std::string>(),
      "keep each run's output (.log) and statistics (.json) in this folder");
  add("help,h", "print this help");
  // parseCommandLine takes one positional input; the programs are many, so parse here.
  po::options_description all;
  all.add(line.options);
  all.add_options()("program", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("program", -1);
  po::variables_map values;
  try {
    po::store(
        po::command_line_parser(args)
            .options(all)
            .positional(positional)
            .style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing)
            .run(),
        values);
    po::notify(values);
  } catch (const po::error &error) {
    throw UsageError(error.what());
  }
  if (values.count("help")) {
    std::cout << line.usage << "\n\n" << line.options << "\n" << line.details;
    return kExitOk;
  }
  auto list = [&](const char *name) {
    return values.count(name) ? splitList(values[name].as<std::vector<std::string>>())
                              : std::vector<std::string>{};
  };
  std::vector<std::string> configs = list("config"), devices = list("device"), stats = list("stat"),
                           programs = list("program");
  if (configs.empty())
    throw UsageError("--config is required (see 'warpforge configs')");
  if (programs.empty())
    throw UsageError("no programs given");
  if (devices.empty())
    devices = {"cycle"};
  if (stats.empty())
    stats = kDefaultStats;
  unsigned jobs = values["jobs"].as<unsigned>();
  if (jobs == 0)
    throw UsageError("-j must be at least 1");
  double timeout = values["timeout"].as<double>();
  if (!(timeout >= 0))
    throw UsageError("--timeout must be 0 or more seconds");
  for (const std::string &config : configs)
    if (!isa::findConfig(config))
      throw UsageError(fmt::format("unknown configuration '{}' (see 'warpforge configs')", config));
  for (const std::string &device : devices)
    if (std::string error; !rt::loadPlugin(device, error))
      throw UsageError(error);
  for (const std::string &program : programs)
    if (!fs::is_regular_file(program))
      throw UsageError(fmt::format("no program '{}'", program));

  std::optional<TempDir> temp;
  fs::path work;
  if (values.count("logs")) {
    work = values["logs"].as<std::string>();
    std::error_code ec;
    fs::create_directories(work, ec);
    if (ec)
      throw UsageError(fmt::format("cannot create '{}': {}", work.string(), ec.message()));
  } else {
    temp.emplace();
    work = temp->path();
  }
  work = fs::absolute(work);

  // Sources are built once each, before the runs; executables are run as they are.
  std::vector<std::string> executables;
  for (size_t p = 0; p < programs.size(); ++p) {
    const std::string &program = programs[p];
    fs::path path = fs::absolute(program);
    if (path.extension() != ".cu") {
      executables.push_back(path.string());
      continue;
    }
    CcOptions options;
    options.inputs = {path.string()};
    options.output = (work / fmt::format("{}-{}", p, slug(path.stem().string()))).string();
    std::string problem = buildExecutable(options);
    if (!problem.empty())
      std::cerr << fmt::format("warpforge sweep: cannot build '{}': {}\n", program, problem);
    executables.push_back(problem.empty() ? options.output : std::string());
  }

  std::vector<Run> runs;
  for (const std::string &config : configs)
    for (size_t p = 0; p < programs.size(); ++p)
      for (const std::string &device : devices) {
        Run run;
        run.config = config;
        run.device = device;
        run.program = programs[p];
        run.executable = executables[p];
        std::string name = fmt::format("{}-{}-{}-{}", slug(config), slug(device), p,
                                       slug(fs::path(programs[p]).filename().string()));
        run.statsPath = (work / (name + ".json")).string();
        run.logPath = (work / (name + ".log")).string();
        if (run.executable.empty())
          run.status = "build-failed";
        runs.push_back(std::move(run));
      }
  runAll(runs, jobs, timeout);

  std::ofstream file;
  if (values.count("output")) {
    file.open(values["output"].as<std::string>(), std::ios::trunc);
    if (!file)
      throw UsageError(fmt::format("cannot write '{}'", values["output"].as<std::string>()));
  }
  std::ostream &csv = values.count("output") ? file : std::cout;
  csv << "config,device,program,status,exit_code,wall_seconds";
  for (const std::string &stat : stats)
    csv << ',' << csvField(stat);
  csv << '\n';
  bool allPassed = true;
  for (const Run &run : runs) {
    allPassed = allPassed && run.status == "ok";
    std::map<std::string, double> values;
    if (auto text = readTextFile(run.statsPath)) {
      if (std::string problem = StatsReader(*text).read(values); !problem.empty()) {
        std::cerr << fmt::format("warpforge sweep: {}: {}\n", run.statsPath, problem);
        values.clear();
      }
    }
    csv << fmt::format("{},{},{},{},{},{:.3f}", csvField(run.config), csvField(run.device),
                       csvField(run.program), run.status,
                       run.exitCode >= 0 ? std::to_string(run.exitCode) : std::string(),
                       run.wallSeconds);
    for (const std::string &stat : stats) {
      csv << ',';
      if (auto v = cell(values, stat))
        csv << fmt::format("{}", *v); // shortest text that reads back as the same double
    }
    csv << '\n';
    if (run.status != "ok")
      std::cerr << fmt::format("warpforge sweep: {} on {} ({}): {}{}\n", run.program, run.device,
                               run.config, run.status,
                               temp ? "" : fmt::format(" (output: {})", run.logPath));
  }
  csv.flush();
  if (!csv) {
    std::cerr << "warpforge sweep: cannot write the CSV\n";
    return kExitFailure;
  }
  return allPassed ? kExitOk : kExitFailure;
}

} // namespace wf::driver
