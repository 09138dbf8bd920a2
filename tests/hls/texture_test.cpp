//===- tests/hls/texture_test.cpp - Texture addressing and filtering ------===//
//
// Part of Warpforge. hls/texture.h against references written from the programming guide's
// formulas in double precision: read-mode conversions, address modes, fixed-point coordinates,
// point, linear (1D/2D/3D) and gather sampling.
//
//===----------------------------------------------------------------------===//

#include "warpforge/hls/texture.h"

#include "test_util.h"

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

namespace wf::hls::test {
namespace {

using tex::AddressMode;
using tex::ChannelKind;
using tex::Format;

uint32_t bitsOf(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float floatOf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST(Texture, NormalizedReadOfIntegers) {
  Format u8{ChannelKind::Unsigned, 1, 8, true}, s8{ChannelKind::Signed, 1, 8, true};
  Format u16{ChannelKind::Unsigned, 1, 16, true}, s16{ChannelKind::Signed, 1, 16, true};
  for (uint32_t v = 0; v < 256; ++v) {
    EXPECT_EQ(floatOf(tex::channelValue(v, u8)), float(v / 255.0)) << v;
    const int sv = int8_t(v);
    EXPECT_EQ(floatOf(tex::channelValue(v, s8)), float(std::max(sv / 127.0, -1.0))) << sv;
  }
  for (uint32_t v = 0; v < 65536; v += 7) {
    EXPECT_EQ(floatOf(tex::channelValue(v, u16)), float(v / 65535.0)) << v;
    const int sv = int16_t(v);
    EXPECT_EQ(floatOf(tex::channelValue(v, s16)), float(std::max(sv / 32767.0, -1.0))) << sv;
  }
  EXPECT_EQ(floatOf(tex::channelValue(0x8000, s16)), -1.0f);
  EXPECT_EQ(floatOf(tex::channelValue(0x7fff, s16)), 1.0f);
}

TEST(Texture, ElementTypeReads) {
  Format s8{ChannelKind::Signed, 1, 8, false}, u16{ChannelKind::Unsigned, 1, 16, false};
  Format h{ChannelKind::Float, 1, 16, false}, f{ChannelKind::Float, 1, 32, true};
  EXPECT_EQ(tex::channelValue(0x80, s8), 0xffffff80u);
  EXPECT_EQ(tex::channelValue(0x1ff80, s8), 0xffffff80u); // only the channel's bits count
  EXPECT_EQ(tex::channelValue(0xfffe, u16), 0xfffeu);
  EXPECT_EQ(floatOf(tex::channelValue(0x3e00, h)), 1.5f);
  EXPECT_EQ(floatOf(tex::channelValue(0xc500, h)), -5.0f);
  EXPECT_EQ(tex::channelValue(bitsOf(-2.25f), f), bitsOf(-2.25f)); // floats are never normalized
  EXPECT_FALSE(tex::returnsFloat(s8));
  EXPECT_TRUE(tex::returnsFloat(Format{ChannelKind::Unsigned, 4, 8, true}));
  EXPECT_FALSE(tex::returnsFloat(Format{ChannelKind::Signed, 1, 32, true})); // 32-bit: no
}

TEST(Texture, TexelChannelsFillMissingOnes) {
  const uint8_t raw[4] = {0x34, 0x12, 0x78, 0x56};
  auto two = tex::texelChannels(raw, Format{ChannelKind::Unsigned, 2, 16, false});
  EXPECT_EQ(two[0], 0x1234u);
  EXPECT_EQ(two[1], 0x5678u);
  EXPECT_EQ(two[2], 0u);
  EXPECT_EQ(two[3], 1u);
  auto one = tex::texelChannels(raw, Format{ChannelKind::Unsigned, 1, 8, true});
  EXPECT_EQ(floatOf(one[0]), float(0x34 / 255.0));
  EXPECT_EQ(floatOf(one[3]), 1.0f);
}

int64_t refAddress(int64_t i, int64_t n, AddressMode m) {
  switch (m) {
  case AddressMode::Wrap:
    return ((i % n) + n) % n;
  case AddressMode::Mirror: {
    int64_t p = ((i % (2 * n)) + 2 * n) % (2 * n);
    return p < n ? p : 2 * n - 1 - p;
  }
  case AddressMode::Border:
    return (i < 0 || i >= n) ? -1 : i;
  default:
    return std::clamp<int64_t>(i, 0, n - 1);
  }
}

TEST(Texture, AddressModes) {
  for (int m = 0; m < 4; ++m)
    for (uint32_t n : {1u, 2u, 5u, 16u})
      for (int64_t i = -40; i < 40; ++i) {
        auto mode = AddressMode(m);
        EXPECT_EQ(tex::applyAddress(i, n, mode, true), refAddress(i, n, mode)) << m << " " << i;
        // Unnormalized coordinates: wrap and mirror behave as clamp.
        auto un = mode == AddressMode::Border ? mode : AddressMode::Clamp;
        EXPECT_EQ(tex::applyAddress(i, n, mode, false), refAddress(i, n, un)) << m << " " << i;
      }
}

TEST(Texture, FixedPointCoordinates) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-5000.0f, 5000.0f);
  for (int k = 0; k < 100000; ++k) {
    float x = dist(rng);
    if (k % 3 == 0)
      x = std::ldexp(float(int(rng() % 4001) - 2000), -int(rng() % 12));
    for (unsigned f : {0u, 8u, 9u})
      EXPECT_EQ(tex::toFixed(bitsOf(x), f), int64_t(std::floor(double(x) * std::ldexp(1.0, f))))
          << x << " " << f;
  }
  EXPECT_EQ(tex::toFixed(bitsOf(INFINITY), 0), tex::kCoordLimit);
  EXPECT_EQ(tex::toFixed(bitsOf(-1e30f), 8), -tex::kCoordLimit);
  EXPECT_EQ(tex::toFixed(0x7fc00000u, 8), 0);
  EXPECT_EQ(tex::toFixed(bitsOf(-1e-30f), 8), -1); // tiny negative values floor to -1
}

TEST(Texture, LinearTapIsGuideFormula) {
  // x on the 1/256 grid: x_B = x - 0.5, i = floor(x_B), alpha = frac(x_B) exactly.
  for (int k = -2000; k < 2000; ++k) {
    const double x = k / 256.0;
    auto t = tex::linearTap(bitsOf(float(x)));
    const double xb = x - 0.5;
    EXPECT_EQ(t.i, int64_t(std::floor(xb))) << x;
    EXPECT_EQ(t.alpha, uint32_t((xb - std::floor(xb)) * 256)) << x;
  }
  // Between grid points the coordinate rounds to the nearest 1/256.
  auto t = tex::linearTap(bitsOf(0.5f + 0.3f / 256));
  EXPECT_EQ(t.i, 0);
  EXPECT_EQ(t.alpha, 0u);
  t = tex::linearTap(bitsOf(1.5f - 0.2f / 256));
  EXPECT_EQ(t.i, 1);
  EXPECT_EQ(t.alpha, 0u);
}

/// A W x H x D single-channel float texture and the guide's sampling formulas.
struct Volume {
  unsigned W, H, D;
  std::vector<float> T;
  AddressMode mode;
  bool normalized;

  double at(int64_t i, int64_t j, int64_t k) const {
    i = refAddress(i, W, mode);
    j = refAddress(j, H, mode);
    k = refAddress(k, D, mode);
    if (i < 0 || j < 0 || k < 0)
      return 0.0;
    return T[(k * H + j) * W + i];
  }
  tex::Sampler sampler(unsigned dims, bool linear) const {
    tex::Sampler s;
    s.dims = dims;
    s.size = {W, H, D};
    s.mode = {mode, mode, mode};
    s.normalized = normalized;
    s.linear = linear;
    return s;
  }
  std::array<uint32_t, 4> fetch(uint32_t x, uint32_t y, uint32_t z) const {
    EXPECT_LT(x, W);
    EXPECT_LT(y, H);
    EXPECT_LT(z, D);
    return {bitsOf(T[(z * H + y) * W + x]), 0, 0, 0x3f800000u};
  }
};

TEST(Texture, PointAndLinearSampling) {
  std::mt19937 rng(11);
  for (unsigned dims = 1; dims <= 3; ++dims)
    for (int m = 0; m < 4; ++m) {
      Volume v{8, dims > 1 ? 4u : 1u, dims > 2 ? 4u : 1u, {}, AddressMode(m), true};
      for (unsigned i = 0; i < v.W * v.H * v.D; ++i)
        v.T.push_back(float(int(rng() % 201) - 100) * 0.25f);
      auto fetch = [&](uint32_t x, uint32_t y, uint32_t z) { return v.fetch(x, y, z); };
      for (int trial = 0; trial < 3000; ++trial) {
        // Texel-space positions on the 1/16 grid (exact weights), normalized by the size.
        double p[3];
        uint32_t c[3];
        const unsigned sz[3] = {v.W, v.H, v.D};
        for (unsigned d = 0; d < 3; ++d) {
          p[d] = (int(rng() % (64 * sz[d])) - 24 * int(sz[d]) + 0.5) / 16.0;
          c[d] = bitsOf(float(p[d] / sz[d]));
        }
        auto point = tex::sample(v.sampler(dims, false), c, fetch);
        int64_t pi[3] = {0, 0, 0};
        for (unsigned d = 0; d < dims; ++d)
          pi[d] = int64_t(std::floor(p[d]));
        EXPECT_EQ(double(floatOf(point[0])), v.at(pi[0], pi[1], pi[2])) << dims << " " << m;
        auto lin = tex::sample(v.sampler(dims, true), c, fetch);
        double want = 0, mag = 0, inside = 0;
        for (unsigned t = 0; t < (1u << dims); ++t) {
          double w = 1;
          int64_t idx[3] = {0, 0, 0};
          for (unsigned d = 0; d < dims; ++d) {
            const double xb = p[d] - 0.5, f = std::floor(xb), a = xb - f;
            const bool hi = (t >> d) & 1;
            idx[d] = int64_t(f) + hi;
            w *= hi ? a : 1 - a;
          }
          want += w * v.at(idx[0], idx[1], idx[2]);
          bool in = true;
          for (unsigned d = 0; d < dims; ++d)
            in = in && refAddress(idx[d], sz[d], v.mode) >= 0;
          inside += in ? w : 0;
          mag += std::fabs(w * v.at(idx[0], idx[1], idx[2]));
        }
        // Exact weights; the only error is f32 rounding of the running sum.
        EXPECT_NEAR(double(floatOf(lin[0])), want, mag * 4e-7 + 1e-30) << dims << " " << m;
        // Alpha is 1 in every texel and 0 in the (default) border color: the weights inside.
        EXPECT_NEAR(double(floatOf(lin[3])), inside, 1e-6) << dims << " " << m;
      }
    }
}

TEST(Texture, BorderColorAndIntegerResultsArePointSampled) {
  Volume v{4, 1, 1, {1.0f, 2.0f, 3.0f, 4.0f}, AddressMode::Border, false};
  auto s = v.sampler(1, true);
  s.border = {bitsOf(9.0f), 0, 0, 0};
  auto fetch = [&](uint32_t x, uint32_t y, uint32_t z) { return v.fetch(x, y, z); };
  uint32_t c = bitsOf(-3.0f);
  EXPECT_EQ(floatOf(tex::sample(s, &c, fetch)[0]), 9.0f);
  c = bitsOf(0.25f); // x_B = -0.25: weight 1/4 on the border (9), 3/4 on texel 0 (1)
  EXPECT_EQ(floatOf(tex::sample(s, &c, fetch)[0]), 0.25f * 9.0f + 0.75f * 1.0f);
  // Integer texels with linear filtering requested: point sampling.
  s.format = Format{ChannelKind::Signed, 1, 32, false};
  auto ifetch = [](uint32_t x, uint32_t, uint32_t) {
    return std::array<uint32_t, 4>{x * 10, 0, 0, 1};
  };
  c = bitsOf(2.9f);
  EXPECT_EQ(tex::sample(s, &c, ifetch)[0], 20u);
}

TEST(Texture, GatherOrder) {
  Volume v{5, 4, 1, {}, AddressMode::Clamp, false};
  for (unsigned i = 0; i < 20; ++i)
    v.T.push_back(float(i));
  auto fetch = [&](uint32_t x, uint32_t y, uint32_t) {
    const float t = v.T[y * 5 + x];
    return std::array<uint32_t, 4>{bitsOf(t), bitsOf(t + 100), bitsOf(-t), bitsOf(t * 2)};
  };
  for (float x = -1.0f; x < 6.5f; x += 0.375f)
    for (float y = -1.0f; y < 5.5f; y += 0.625f)
      for (unsigned comp = 0; comp < 4; ++comp) {
        auto g = tex::gather(v.sampler(2, false), bitsOf(x), bitsOf(y), comp, fetch);
        const int64_t i = int64_t(std::floor(x - 0.5)), j = int64_t(std::floor(y - 0.5));
        auto want = [&](int64_t a, int64_t b) {
          return fetch(uint32_t(std::clamp<int64_t>(a, 0, 4)),
                       uint32_t(std::clamp<int64_t>(b, 0, 3)), 0)[comp];
        };
        EXPECT_EQ(g[0], want(i, j + 1)) << x << " " << y;
        EXPECT_EQ(g[1], want(i + 1, j + 1));
        EXPECT_EQ(g[2], want(i + 1, j));
        EXPECT_EQ(g[3], want(i, j));
      }
}

} // namespace
} // namespace wf::hls::test
