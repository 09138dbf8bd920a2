// Runs the built `warpforge` driver: help of every subcommand, exit codes of bad command lines,
// assembling and listing the test kernels, and running them on the emulator with results checked
// against values computed here.
//
// Usage: wf_tools_tests --driver PATH --data DIR [gtest options]
#include "warpforge/isa/config.gen.h"

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <optional>
#include <random>
#include <sstream>
#include <sys/wait.h>

namespace {

std::string gDriver;
std::filesystem::path gData;

struct Outcome {
  int exitCode = -1;
  std::string out;
  std::string err;
};

std::string quote(const std::string &arg) {
  std::string quoted = "'";
  for (char c : arg)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string slurp(const std::filesystem::path &path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

class Driver : public testing::Test {
protected:
  void SetUp() override {
    const auto *info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           (std::string("wf_driver_") + info->test_suite_name() + "_" + info->name() + "_" +
            std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    if (!HasFailure())
      std::filesystem::remove_all(dir_);
  }

  /// Runs the driver with `args` in the test's scratch directory.
  Outcome run(const std::vector<std::string> &args) {
    std::string command = "cd " + quote(dir_.string()) + " && " + quote(gDriver);
    for (const std::string &arg : args)
      command += " " + quote(arg);
    command += " > stdout.txt 2> stderr.txt";
    int status = std::system(command.c_str());
    Outcome outcome;
    outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    outcome.out = slurp(dir_ / "stdout.txt");
    outcome.err = slurp(dir_ / "stderr.txt");
    return outcome;
  }

  std::filesystem::path path(const std::string &name) const { return dir_ / name; }

  void writeFile(const std::string &name, const void *data, size_t size) {
    std::ofstream file(dir_ / name, std::ios::binary);
    file.write(static_cast<const char *>(data), std::streamsize(size));
  }

  /// Assembles the test kernels into kernels.wfx in the scratch directory.
  void assembleKernels() {
    Outcome outcome = run({"asm", (gData / "kernels.s").string(), "-o", "kernels.wfx"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
  }

  bool hasEmu() { return run({"--help"}).out.find("  emu ") != std::string::npos; }

  std::filesystem::path dir_;
};

using DriverHelp = Driver;
using DriverErrors = Driver;
using DriverAsmDisasm = Driver;
using DriverEmu = Driver;
using DriverSynth = Driver;
using DriverSynthRun = Driver;

// --- Help --------------------------------------------------------------------------------------

TEST_F(DriverHelp, TopLevelListsSubcommands) {
  Outcome outcome = run({"--help"});
  EXPECT_EQ(outcome.exitCode, 0);
  for (const char *command : {"asm", "disasm", "configs"})
    EXPECT_NE(outcome.out.find(std::string("  ") + command + " "), std::string::npos) << command;
  EXPECT_EQ(run({"help"}).exitCode, 0);
}

TEST_F(DriverHelp, EverySubcommandHasHelp) {
  std::vector<std::string> commands = {"asm", "disasm", "configs", "synth"};
  if (hasEmu())
    commands.push_back("emu");
  for (const std::string &command : commands) {
    Outcome outcome = run({command, "--help"});
    EXPECT_EQ(outcome.exitCode, 0) << command << ": " << outcome.err;
    EXPECT_NE(outcome.out.find("usage: warpforge " + command), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("--help"), std::string::npos);
    EXPECT_EQ(outcome.out, run({"help", command}).out);
  }
}

TEST_F(DriverHelp, Version) {
  Outcome outcome = run({"--version"});
  EXPECT_EQ(outcome.exitCode, 0);
  EXPECT_EQ(outcome.out.rfind("warpforge ", 0), 0u) << outcome.out;
}

TEST_F(DriverHelp, ConfigsListsEveryNamedConfiguration) {
  Outcome outcome = run({"configs"});
  EXPECT_EQ(outcome.exitCode, 0);
  for (const wf::isa::Config &config : wf::isa::kConfigs)
    EXPECT_NE(outcome.out.find(std::string(config.name) + " "), std::string::npos)
        << config.name << "\n"
        << outcome.out;
}

// --- Errors ------------------------------------------------------------------------------------

TEST_F(DriverErrors, BadCommandLinesExitWithTwo) {
  std::vector<std::vector<std::string>> lines = {
      {},
      {"frobnicate"},
      {"asm"},
      {"asm", "missing.s"},
      {"asm", "--bogus", "x.s"},
      {"asm", "a.s", "b.s"},
      {"disasm"},
      {"disasm", "missing.wfx"},
      {"configs", "extra"},
  };
  for (const auto &line : lines) {
    Outcome outcome = run(line);
    std::string joined;
    for (const std::string &arg : line)
      joined += arg + " ";
    EXPECT_EQ(outcome.exitCode, 2) << joined << "\n" << outcome.err;
    if (!line.empty()) {
      EXPECT_FALSE(outcome.err.empty()) << joined;
    }
  }
}

TEST_F(DriverErrors, AssemblyErrorsExitWithOneAndNameTheLine) {
  std::string source = "EXIT\n  FROB R1\nMOV R0\n";
  writeFile("bad.s", source.data(), source.size());
  Outcome outcome = run({"asm", "bad.s"});
  EXPECT_EQ(outcome.exitCode, 1);
  EXPECT_NE(outcome.err.find("bad.s:2:3: error: unknown opcode ('FROB')"), std::string::npos)
      << outcome.err;
  EXPECT_NE(outcome.err.find("bad.s:3:"), std::string::npos) << outcome.err;
  EXPECT_FALSE(std::filesystem::exists(path("bad.wfx")));
}

TEST_F(DriverErrors, DamagedModuleExitsWithOne) {
  writeFile("junk.wfx", "not a module", 12);
  Outcome outcome = run({"disasm", "junk.wfx"});
  EXPECT_EQ(outcome.exitCode, 1);
  EXPECT_NE(outcome.err.find("junk.wfx"), std::string::npos) << outcome.err;
}

TEST_F(DriverErrors, BadEmuArgumentsExitWithTwo) {
  if (!hasEmu())
    GTEST_SKIP() << "the driver was built without the emulator";
  assembleKernels();
  std::vector<std::string> base = {"emu", "kernels.wfx"};
  std::vector<std::vector<std::string>> lines = {
      {"--block", "32"},                          // no kernel
      {"-k", "vadd"},                             // no block
      {"-k", "nope", "-b", "32"},                 // unknown kernel
      {"-k", "count", "-b", "0"},                 // empty block
      {"-k", "count", "-b", "1,2,3,4"},           // four dimensions
      {"-k", "count", "-b", "32", "-g", "x"},     // not a number
      {"-k", "count", "-b", "32", "-c", "huge"},  // unknown configuration
      {"-k", "count", "-b", "32", "-a", "u32:1"}, // count takes no parameters
      {"-k", "vadd", "-b", "32", "-a", "u32:1"},  // vadd takes four
      {"-k", "vadd", "-b", "32", "--buffer", "a=64", "-a", "ptr:a", "-a", "ptr:a", "-a", "ptr:a",
       "-a", "u64:1"},                                           // the last one is 4 bytes
      {"-k", "count", "-b", "32", "-a", "q32:1"},                // unknown type
      {"-k", "count", "-b", "32", "-a", "u32:-1"},               // negative unsigned
      {"-k", "count", "-b", "32", "--buffer", "a"},              // no size
      {"-k", "count", "-b", "32", "--buffer", "a=@missing.bin"}, // no file
      {"-k", "count", "-b", "32", "--dump", "nothing=out.bin"},  // no such buffer
      {"-k", "count", "-b", "32", "--print", "counter:u32:2"},   // past the variable
      {"-k", "count", "-b", "32", "--print", "counter:q32:1"},   // unknown type
      {"-k", "count", "-b", "32", "--threads", "0"},             // no host threads
  };
  for (auto line : lines) {
    line.insert(line.begin(), base.begin(), base.end());
    Outcome outcome = run(line);
    std::string joined;
    for (const std::string &arg : line)
      joined += arg + " ";
    EXPECT_EQ(outcome.exitCode, 2) << joined << "\n" << outcome.err;
    EXPECT_NE(outcome.err.find("warpforge emu: "), std::string::npos) << joined << outcome.err;
  }
}

// --- asm and disasm ----------------------------------------------------------------------------

TEST_F(DriverAsmDisasm, ListingShowsKernelsCodeAndSourceLines) {
  assembleKernels();
  Outcome outcome = run({"disasm", "kernels.wfx"});
  ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
  for (const char *part : {
           ".kernel vadd",
           ".regs 16",
           ".param 4, 4",
           ".kernel count",
           ".kernel fault",
           "IMADWIDE.U32 R4, R0, R12, R4",
           "MOV32I R2, %lo(counter)",
           "@P0 EXIT",
           "LDC R13, [RZ]",
           "kernels.s:18: S2R R0, SR_TID_X",
           "0000  ",
           "counter:",
           "scale:",
       })
    EXPECT_NE(outcome.out.find(part), std::string::npos) << "missing '" << part << "' in\n"
                                                         << outcome.out;

  Outcome bare = run({"disasm", "kernels.wfx", "--no-addresses", "--no-encodings", "--no-source"});
  ASSERT_EQ(bare.exitCode, 0);
  EXPECT_EQ(bare.out.find("kernels.s:"), std::string::npos);
  EXPECT_EQ(bare.out.find("0000  "), std::string::npos);

  ASSERT_EQ(run({"disasm", "kernels.wfx", "-o", "listing.txt"}).exitCode, 0);
  EXPECT_EQ(slurp(path("listing.txt")), outcome.out);
}

TEST_F(DriverAsmDisasm, DefaultOutputNameAndNoLines) {
  std::filesystem::copy_file(gData / "kernels.s", path("copy.s"));
  ASSERT_EQ(run({"asm", "copy.s", "--no-lines"}).exitCode, 0);
  ASSERT_TRUE(std::filesystem::exists(path("copy.wfx")));
  Outcome outcome = run({"disasm", "copy.wfx"});
  EXPECT_EQ(outcome.exitCode, 0);
  EXPECT_EQ(outcome.out.find("copy.s:"), std::string::npos);
}

// --- emu ---------------------------------------------------------------------------------------

TEST_F(DriverEmu, VectorAdd) {
  if (!hasEmu())
    GTEST_SKIP() << "the driver was built without the emulator";
  assembleKernels();
  constexpr uint32_t n = 1000;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> values(-100.0f, 100.0f);
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i)
    a[i] = values(rng), b[i] = values(rng);
  writeFile("a.bin", a.data(), n * 4);
  writeFile("b.bin", b.data(), n * 4);
  Outcome outcome = run({"emu",      "kernels.wfx",
                         "--kernel", "vadd",
                         "--grid",   "4",
                         "--block",  "256",
                         "--buffer", "a=@a.bin",
                         "--buffer", "b=@b.bin",
                         "--buffer", "c=" + std::to_string(n * 4 + 64),
                         "--arg",    "ptr:a",
                         "--arg",    "ptr:b",
                         "--arg",    "ptr:c",
                         "--arg",    "u32:" + std::to_string(n),
                         "--dump",   "c=c.bin",
                         "--print",  "c:f32:3",
                         "--stats"});
  ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
  std::string dumped = slurp(path("c.bin"));
  ASSERT_EQ(dumped.size(), n * 4 + 64);
  for (uint32_t i = 0; i < n; ++i) {
    float got;
    std::memcpy(&got, dumped.data() + 4 * i, 4);
    float want = (a[i] + b[i]) * 0.5f;
    ASSERT_EQ(std::bit_cast<uint32_t>(got), std::bit_cast<uint32_t>(want))
        << "c[" << i << "] = " << got << ", want " << want;
  }
  for (uint32_t i = n * 4; i < dumped.size(); ++i)
    ASSERT_EQ(dumped[i], 0) << "the kernel wrote past c[n-1]";
  EXPECT_NE(outcome.out.find("c: 3 x f32"), std::string::npos) << outcome.out;
  EXPECT_NE(outcome.err.find("kernel 'vadd': 4 blocks"), std::string::npos) << outcome.err;
}

TEST_F(DriverEmu, ModuleVariableThroughRelocation) {
  if (!hasEmu())
    GTEST_SKIP() << "the driver was built without the emulator";
  assembleKernels();
  Outcome outcome = run({"emu", "kernels.wfx", "-k", "count", "-g", "3,2", "-b", "50,2", "--print",
                         "counter:u32:1", "--dump", "counter=counter.bin", "-j", "2"});
  ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
  uint32_t want = 3 * 2 * 50 * 2;
  EXPECT_NE(outcome.out.find("counter: 1 x u32\n  [0] " + std::to_string(want) + "\n"),
            std::string::npos)
      << outcome.out;
  std::string dumped = slurp(path("counter.bin"));
  ASSERT_EQ(dumped.size(), 4u);
  uint32_t got;
  std::memcpy(&got, dumped.data(), 4);
  EXPECT_EQ(got, want);
}

TEST_F(DriverEmu, FaultIsReportedWithExitOne) {
  if (!hasEmu())
    GTEST_SKIP() << "the driver was built without the emulator";
  assembleKernels();
  Outcome outcome = run({"emu", "kernels.wfx", "-k", "fault", "-b", "32", "--trace", "t.txt"});
  EXPECT_EQ(outcome.exitCode, 1);
  EXPECT_NE(outcome.err.find("kernel fault"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("'fault'"), std::string::npos) << outcome.err;
  EXPECT_TRUE(std::filesystem::exists(path("t.txt")));
}

TEST_F(DriverEmu, ConfigurationLimitsAreEnforced) {
  if (!hasEmu())
    GTEST_SKIP() << "the driver was built without the emulator";
  assembleKernels();
  const wf::isa::Config *tiny = wf::isa::findConfig("tiny");
  ASSERT_NE(tiny, nullptr);
  std::string tooMany = std::to_string(tiny->maxThreadsPerBlock + 1);
  Outcome outcome = run({"emu", "kernels.wfx", "-k", "count", "-b", tooMany, "-c", "tiny"});
  EXPECT_EQ(outcome.exitCode, 1) << outcome.err;
  EXPECT_NE(outcome.err.find("kernel fault"), std::string::npos) << outcome.err;
}

// --- Synth ---------------------------------------------------------------------------------------

/// Sets an environment variable for the lifetime of the object (the driver inherits it).
class ScopedEnv {
public:
  ScopedEnv(const char *name, const std::string &value) : name_(name) {
    if (const char *old = std::getenv(name))
      old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> old_;
};

bool haveNode() { return std::system("node --version > /dev/null 2>&1") == 0; }

TEST_F(DriverSynth, UnknownConfigurationExitsWithTwo) {
  Outcome outcome = run({"synth", "--config=nosuch"});
  EXPECT_EQ(outcome.exitCode, 2);
  EXPECT_NE(outcome.err.find("unknown configuration 'nosuch'"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("tiny"), std::string::npos) << outcome.err;
}

TEST_F(DriverSynth, MissingNodeIsAClearError) {
  ScopedEnv node("WARPFORGE_NODE", (dir_ / "no-node-here").string());
  Outcome outcome = run({"synth", "--unit=wf_lzc"});
  EXPECT_EQ(outcome.exitCode, 1);
  EXPECT_NE(outcome.err.find("Node.js is not installed"), std::string::npos) << outcome.err;
}

TEST_F(DriverSynth, MissingYosysPackageIsAClearError) {
  if (!haveNode())
    GTEST_SKIP() << "no node on PATH";
  // The real runner, copied where no node_modules can be found.
  const auto runner = gData / ".." / ".." / ".." / "tools" / "synth" / "synth.mjs";
  ASSERT_TRUE(std::filesystem::exists(runner)) << runner;
  std::filesystem::copy_file(runner, path("synth.mjs"));
  ScopedEnv script("WARPFORGE_SYNTH_SCRIPT", path("synth.mjs").string());
  Outcome outcome = run({"synth", "--unit=wf_lzc"});
  EXPECT_EQ(outcome.exitCode, 1);
  EXPECT_NE(outcome.err.find("@yowasp/yosys is not installed"), std::string::npos) << outcome.err;
}

TEST_F(DriverSynth, ConfigurationSetsParametersAndUnitsDefaultToAll) {
  if (!haveNode())
    GTEST_SKIP() << "no node on PATH";
  // A stand-in runner that records the arguments it was given.
  std::string stub = "import { writeFileSync } from 'node:fs';\n"
                     "writeFileSync(process.env.WF_TEST_ARGS, process.argv.slice(2).join(' '));\n";
  writeFile("stub.mjs", stub.data(), stub.size());
  ScopedEnv script("WARPFORGE_SYNTH_SCRIPT", path("stub.mjs").string());
  ScopedEnv record("WF_TEST_ARGS", path("args.txt").string());
  for (const wf::isa::Config &config : wf::isa::kConfigs) {
    Outcome outcome = run({"synth", "--config=" + std::string(config.name), "--out=r"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
    std::string args = slurp(path("args.txt"));
    EXPECT_NE(args.find("--all"), std::string::npos) << args;
    EXPECT_NE(args.find("--lanes " + std::to_string(config.lanes) + " "), std::string::npos)
        << config.name << ": " << args;
    EXPECT_NE(args.find("--default-param NumBanks=" + std::to_string(config.sharedBanks) + " "),
              std::string::npos)
        << args;
    EXPECT_NE(args.find("--default-param LineBytes=" + std::to_string(config.cacheLineBytes) + " "),
              std::string::npos)
        << args;
    EXPECT_NE(args.find("--out r "), std::string::npos) << args;
  }
  Outcome outcome = run({"synth", "--unit=alu", "--unit=wf_fma"});
  ASSERT_EQ(outcome.exitCode, 0) << outcome.err;
  std::string args = slurp(path("args.txt"));
  EXPECT_NE(args.find("--unit alu --unit wf_fma"), std::string::npos) << args;
  EXPECT_EQ(args.find("--all"), std::string::npos) << args;
  EXPECT_EQ(args.find("--lanes"), std::string::npos) << args;
}

// Real synthesis of a small block (label "synth": it takes about half a minute).
TEST_F(DriverSynthRun, ReportsAreWritten) {
  if (!haveNode())
    GTEST_SKIP() << "no node on PATH";
  Outcome outcome = run({"synth", "--unit=wf_lzc", "--out=reports"});
  if (outcome.err.find("@yowasp/yosys is not installed") != std::string::npos)
    GTEST_SKIP() << outcome.err;
  ASSERT_EQ(outcome.exitCode, 0) << outcome.out << outcome.err;
  std::string report = slurp(path("reports/wf_lzc.json"));
  EXPECT_NE(report.find("\"ok\": true"), std::string::npos) << report;
  EXPECT_NE(report.find("\"lut_levels\""), std::string::npos) << report;
  EXPECT_TRUE(std::filesystem::exists(path("reports/summary.json")));
  EXPECT_NE(outcome.out.find("wf_lzc"), std::string::npos) << outcome.out;
}

} // namespace

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i + 1 < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--driver")
      gDriver = argv[++i];
    else if (arg == "--data")
      gData = argv[++i];
  }
  if (gDriver.empty() || gData.empty()) {
    std::fprintf(stderr, "usage: %s --driver PATH --data DIR [gtest options]\n", argv[0]);
    return 2;
  }
  gDriver = std::filesystem::absolute(gDriver).string();
  gData = std::filesystem::absolute(gData);
  return RUN_ALL_TESTS();
}
