//===- device_test.cpp - The Verilated GPU as a device plugin -------------===//
//
// libwf-device-rtl.so through the runtime's own device layer (the layer under cudaMemcpy,
// cudaMemset, cudaEventRecord and cudaDeviceSynchronize). RtlPlugin.* check selection and errors;
// RtlDeviceEndToEnd.* run COPY, FILL, TIMESTAMP and FENCE on the RTL's command processor.
//
//===----------------------------------------------------------------------===//

#include "warpforge/runtime/device.h"
#include "warpforge/runtime/plugins.h"

#include <gtest/gtest.h>

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

} // namespace
} // namespace wf::rt
