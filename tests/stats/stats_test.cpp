//===- stats_test.cpp - The statistics registry ---------------------------------===//

#include "warpforge/stats/stats.h"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

namespace wf::stats {
namespace {

TEST(Registry, NamesAreHierarchicalAndUnique) {
  Group gpu("gpu");
  Scalar &insts = gpu.scalar("warp_insts", unit::kInstruction, "warp instructions");
  Scalar &core0 = gpu.group("core0").scalar("warp_insts", unit::kInstruction, "of core 0");
  EXPECT_EQ(insts.path(), "gpu.warp_insts");
  EXPECT_EQ(core0.path(), "gpu.core0.warp_insts");
  EXPECT_EQ(&gpu.group("core0"), &gpu.group("core0")); // created once
  EXPECT_EQ(gpu.find("core0.warp_insts"), &core0);
  EXPECT_EQ(gpu.find("warp_insts"), &insts);
  EXPECT_EQ(gpu.find("core1.warp_insts"), nullptr);
  EXPECT_THROW(gpu.scalar("warp_insts", unit::kCount, "again"), std::invalid_argument);
  EXPECT_THROW(gpu.scalar("core0", unit::kCount, "a group's name"), std::invalid_argument);
  EXPECT_THROW(gpu.scalar("a.b", unit::kCount, "a dot"), std::invalid_argument);
  EXPECT_THROW(gpu.scalar("", unit::kCount, "empty"), std::invalid_argument);
}

TEST(Registry, ScalarsVectorsFormulasAndReset) {
  Group g("g");
  Scalar &a = g.scalar("a", unit::kInstruction, "a");
  Scalar &b = g.scalar("b", unit::kCycle, "b");
  Formula &ratio = g.formula("ratio", unit::kInstPerCycle, "a / b",
                             [&] { return b.value() ? a.value() / b.value() : 0.0; });
  Vector &v = g.vector("per_lane", unit::kCount, "per lane", 3, {"l0", "l1", "l2"});
  a += 30;
  ++a;
  b = 10;
  v[1] = 4;
  v[2] += 2;
  EXPECT_EQ(a.value(), 31);
  EXPECT_DOUBLE_EQ(ratio.value(), 3.1);
  EXPECT_EQ(v.total(), 6);
  v.resize(5);
  EXPECT_EQ(v.size(), 5u);
  EXPECT_EQ(v[1], 4);
  g.reset();
  EXPECT_EQ(a.value(), 0);
  EXPECT_EQ(v.total(), 0);
  EXPECT_EQ(ratio.value(), 0);
}

TEST(Registry, DistributionBuckets) {
  Group g("g");
  Distribution &d =
      g.distribution("lat", unit::kCycle, "latency", 10, 5, 3); // [10,15) [15,20) [20,25)
  d.sample(9);
  d.sample(10);
  d.sample(14.9);
  d.sample(15, 2);
  d.sample(24.9);
  d.sample(25);
  EXPECT_EQ(d.samples(), 7u);
  EXPECT_EQ(d.buckets(), (std::vector<uint64_t>{2, 2, 1}));
  std::ostringstream os;
  d.writeValue(os);
  EXPECT_NE(os.str().find("\"underflow\": 1"), std::string::npos) << os.str();
  EXPECT_NE(os.str().find("\"overflow\": 1"), std::string::npos) << os.str();
  EXPECT_NE(os.str().find("\"min\": 9"), std::string::npos) << os.str();
  EXPECT_NE(os.str().find("\"max\": 25"), std::string::npos) << os.str();
  EXPECT_DOUBLE_EQ(d.mean(), (9 + 10 + 14.9 + 30 + 24.9 + 25) / 7);
  EXPECT_THROW(g.distribution("bad", unit::kCycle, "no buckets", 0, 1, 0), std::invalid_argument);
}

TEST(Json, EveryStatisticWithUnitDescriptionAndValue) {
  Group gpu("gpu");
  gpu.scalar("n", unit::kCount, "say \"hi\"\\\n\x01").operator=(3);
  gpu.group("core0").scalar("half", unit::kRatio, "a fraction") = 0.5;
  gpu.formula("nan", unit::kRatio, "0/0", [] { return 0.0 / 0.0; });
  std::ostringstream os;
  writeJson(gpu, os);
  const std::string json = os.str();
  EXPECT_NE(json.find("\"format\": \"warpforge-stats\""), std::string::npos);
  EXPECT_NE(json.find("\"gpu.n\": {\"kind\": \"scalar\", \"unit\": \"count\", \"description\": "
                      "\"say \\\"hi\\\"\\\\\\n\\u0001\", \"value\": 3}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"gpu.core0.half\": {\"kind\": \"scalar\", \"unit\": \"ratio\", "
                      "\"description\": \"a fraction\", \"value\": 0.5}"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"value\": null"), std::string::npos) << json; // NaN is not JSON
  Group empty("e");
  std::ostringstream none;
  writeJson(empty, none);
  EXPECT_NE(none.str().find("\"stats\": {}"), std::string::npos) << none.str();
}

TEST(Json, UnwritableFileIsAnError) {
  Group g("g");
  EXPECT_NE(writeJsonFile(g, "/nonexistent-dir/x.json"), "");
}

} // namespace
} // namespace wf::stats
