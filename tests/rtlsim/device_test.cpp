//===- device_test.cpp - The Verilated GPU as a device plugin -------------===//
//
// libwf-device-rtl.so through the runtime's own device layer (the layer under cudaMemcpy,
// cudaMemset, cudaEventRecord and cudaDeviceSynchronize). RtlPlugin.* check selection and errors;
// RtlDeviceEndToEnd.* run COPY, FILL, TIMESTAMP and FENCE on the RTL's command processor;
// RtlLaunch.* check that a kernel launch always ends (a result or a precise error).
//
//===----------------------------------------------------------------------===//

#include "warpforge/isa/isa.gen.h"
#include "warpforge/runtime/device.h"
#include "warpforge/runtime/plugins.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>
#include <numeric>
#include <string>
#include <vector>

namespace wf::rt {
namespace {

// The configurations the plugin was Verilated for (WF_RTL_CONFIGS), comma separated.
constexpr const char *kBuilt = WF_RTL_BUILT_CONFIGS;

std::string firstBuilt() {
  std::string built = kBuilt;
  return built.substr(0, built.find(','));
}

TEST(RtlPlugin, InstalledAndFoundByName) {
  bool listed = false;
  for (const PluginListing &p : installedPlugins())
    listed = listed || p.name == "rtl";
  EXPECT_TRUE(listed);
  std::string error;
  const wf_device_plugin *plugin = loadPlugin("rtl", error);
  ASSERT_NE(plugin, nullptr) << error;
  EXPECT_STREQ(plugin->name, "rtl");
}

TEST(RtlPlugin, ConfigurationNotVerilatedIsAClearError) {
  std::string built = kBuilt;
  for (const isa::Config &c : isa::kConfigs) {
    if (("," + built + ",").find("," + std::string(c.name) + ",") != std::string::npos)
      continue;
    std::string error;
    EXPECT_FALSE(openDevice("rtl", std::string(c.name), error));
    EXPECT_NE(error.find("not Verilated for configuration '" + std::string(c.name) + "'"),
              std::string::npos)
        << error;
    EXPECT_NE(error.find(built), std::string::npos) << error;
  }
}

TEST(RtlPlugin, BadOptionsAreAClearError) {
  ::setenv("WARPFORGE_RTL_WAVE_CYCLES", "20:10", 1);
  std::string error;
  EXPECT_FALSE(openDevice("rtl", firstBuilt(), error));
  EXPECT_NE(error.find("WARPFORGE_RTL_WAVE_CYCLES"), std::string::npos) << error;
  ::unsetenv("WARPFORGE_RTL_WAVE_CYCLES");
}

/// Bytes of the wave file a device writes while it opens and closes with WARPFORGE_RTL_WAVE.
uint64_t waveBytes(const std::string &path, const char *window) {
  ::setenv("WARPFORGE_RTL_WAVE", path.c_str(), 1);
  if (window)
    ::setenv("WARPFORGE_RTL_WAVE_CYCLES", window, 1);
  {
    std::string error;
    auto dev = openDevice("rtl", firstBuilt(), error); // the clock runs whether or not it opens
  }
  ::unsetenv("WARPFORGE_RTL_WAVE");
  ::unsetenv("WARPFORGE_RTL_WAVE_CYCLES");
  std::error_code ec;
  uint64_t bytes = std::filesystem::file_size(path, ec);
  std::filesystem::remove(path, ec);
  return ec ? 0 : bytes;
}

TEST(RtlPlugin, WavesAreWrittenForTheCycleWindow) {
  std::string dir = std::filesystem::temp_directory_path() / ("wf-rtl-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  uint64_t all = waveBytes(dir + "/all.fst", nullptr);
  uint64_t few = waveBytes(dir + "/few.fst", "0:4");
  std::filesystem::remove_all(dir);
  EXPECT_GT(few, 0u);
  EXPECT_GT(all, few); // the window leaves cycles out
}

TEST(RtlDeviceEndToEnd, CopyFillTimestampFence) {
  std::string error;
  auto dev = openDevice("rtl", firstBuilt(), error);
  ASSERT_TRUE(dev) << error;
  EXPECT_EQ(dev->info().kind, "rtl");

  // cudaMemcpy host to device and back (COPY through the L2 and the DRAM model).
  std::vector<uint32_t> in(1000);
  std::iota(in.begin(), in.end(), 0x1000u);
  uint64_t a = dev->allocate(in.size() * 4);
  ASSERT_NE(a, 0u);
  ASSERT_TRUE(dev->write(a, in.data(), in.size() * 4));
  std::vector<uint32_t> out(in.size());
  ASSERT_TRUE(dev->read(a, out.data(), out.size() * 4));
  EXPECT_EQ(out, in);

  // cudaMemset of an unaligned range inside it (FILL with byte masks).
  ASSERT_TRUE(dev->fill(a + 6, 0xab, 4 * 100 + 3));
  std::vector<uint8_t> bytes(in.size() * 4);
  ASSERT_TRUE(dev->read(a, bytes.data(), bytes.size()));
  const uint8_t *orig = reinterpret_cast<const uint8_t *>(in.data());
  for (size_t i = 0; i < bytes.size(); ++i)
    ASSERT_EQ(bytes[i], i >= 6 && i < 6 + 403 ? 0xab : orig[i]) << "byte " << i;

  // Events (TIMESTAMP): the device clock moves forward between two records.
  uint64_t t0 = dev->cycles();
  ASSERT_TRUE(dev->write(a, in.data(), 256));
  uint64_t t1 = dev->cycles();
  EXPECT_GT(t1, t0);

  // cudaDeviceSynchronize (FENCE) completes, and the device did not get lost.
  dev->synchronize();
  EXPECT_FALSE(dev->lost());
}

// A launch of a one-instruction kernel (EXIT) never hangs the host: it completes, or the device's
// stall limit (WARPFORGE_RTL_STALL_CYCLES, small here) ends it with a report that says so. While
// wf_core accepts no block (docs/rtl-sim.md, Status) the launch is stuck, and this is the report;
// once the core runs kernels the launch completes without a fault.
TEST(RtlLaunch, EndsWithAResultOrThePreciseStallError) {
  ::setenv("WARPFORGE_RTL_STALL_CYCLES", "20000", 1);
  std::string error;
  auto dev = openDevice("rtl", firstBuilt(), error);
  ::unsetenv("WARPFORGE_RTL_STALL_CYCLES");
  ASSERT_TRUE(dev) << error;
  using namespace wf::isa;
  uint64_t exitWord = setField(setField(0, FormatR::op, uint64_t(Opcode::EXIT)), FormatR::pg,
                               kTruePred);
  uint64_t code = dev->allocate(256);
  ASSERT_NE(code, 0u);
  ASSERT_TRUE(dev->write(code, &exitWord, sizeof exitWord));
  LaunchParams p;
  p.kernelName = "exit_only";
  p.codeBase = code;
  p.codeSize = sizeof exitWord;
  p.grid = {1, 1, 1};
  p.block = {32, 1, 1};
  p.regsPerThread = 8;
  LaunchOutcome r = dev->launch(p);
  if (!r.fault) {
    std::printf("the launch completed without a fault\n");
    EXPECT_FALSE(dev->lost());
    return;
  }
  std::string why = r.fault->describe("exit_only");
  std::printf("the launch ended with: %s\n", why.c_str());
  EXPECT_TRUE(dev->lost()) << why;
  EXPECT_NE(why.find("lost the device"), std::string::npos) << why;
  EXPECT_NE(why.find("the GPU made no progress for 20000 cycles while busy"), std::string::npos)
      << why;
  // Every later command fails at once instead of waiting.
  uint32_t v = 0;
  EXPECT_FALSE(dev->read(code, &v, 4));
}

} // namespace
} // namespace wf::rt
