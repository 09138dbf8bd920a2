//===- texture_test.cpp - TEX, SULD and SUST ----------------------------------===//
//
// Texture and surface objects are isa::dev::TexDesc records in device memory. Expected values
// come from the programming guide's formulas evaluated here in double precision (point:
// floor; linear: x_B = x - 0.5 with the neighbours weighted by frac(x_B); coordinates on a
// 1/16-texel grid keep the 8-bit weights exact).
//
//===----------------------------------------------------------------------===//

#include "harness.h"
#include "warpforge/isa/device.gen.h"

#include <cmath>

namespace wf::test {
namespace {

uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float fval(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// A W x H texture (or surface) of `channels` x `bits` texels at a 64-byte pitch.
struct Image {
  uint32_t W, H, layers, channels, bits;
  std::vector<uint8_t> bytes;
  static constexpr uint32_t kPitch = 64;
  uint64_t base = 0;

  Image(uint32_t w, uint32_t h, uint32_t l, uint32_t c, uint32_t b)
      : W(w), H(h), layers(l), channels(c), bits(b),
        bytes(size_t(kPitch) * h * std::max(l, 1u), 0) {}
  uint8_t *at(uint32_t x, uint32_t y, uint32_t layer = 0) {
    return &bytes[(size_t(layer) * H + y) * kPitch + size_t(x) * channels * bits / 8];
  }
  isa::dev::TexDesc desc(uint8_t kind) const {
    isa::dev::TexDesc d{};
    d.base = base;
    d.slicePitch = uint64_t(kPitch) * H;
    d.width = W;
    d.height = H;
    d.depth = 1;
    d.layers = layers;
    d.pitch = kPitch;
    d.kind = kind;
    d.channels = uint8_t(channels);
    d.bits = uint8_t(bits);
    d.address[0] = d.address[1] = d.address[2] = 1; // clamp
    return d;
  }
};

uint64_t uploadDesc(Harness &h, const isa::dev::TexDesc &d) {
  uint64_t a = h.alloc(sizeof d, 64);
  EXPECT_TRUE(h.dev.memory().write(a, &d, sizeof d));
  return a;
}

/// Runs one TEX per thread: coordinates in[i] (four words), result quad to out[i].
std::vector<std::array<uint32_t, 4>> runTex(Harness &h, uint64_t handle,
                                            const std::vector<std::array<uint32_t, 4>> &coords,
                                            const char *dim, const char *gather = "NONE",
                                            bool intCoords = false) {
  const uint32_t n = uint32_t(coords.size()), blocks = (n + 31) / 32;
  std::vector<std::array<uint32_t, 4>> padded = coords;
  padded.resize(size_t(blocks) * 32, coords.back());
  uint64_t in = h.upload(padded), out = h.alloc(padded.size() * 16);
  Code c;
  emitGlobalIndex(c, 0);
  emitElementAddress(c, 2, 0, 0, 16, 1);
  c << ldg(4, 2, 0, "B128") << ldp64(12, 16)
    << Inst(Opcode::TEX)
           .rd(8)
           .ra(4)
           .rb(12)
           .mod("dim", dim)
           .mod("gather", gather)
           .mod("coord", intCoords ? "CS32" : "CF32");
  emitElementAddress(c, 2, 8, 0, 16, 1);
  c << stg(2, 8, 0, "B128") << exitInst();
  LaunchResult r =
      h.run(c, Dim3{blocks, 1, 1}, Dim3{32, 1, 1}, Params().u64(in).u64(out).u64(handle), 16);
  EXPECT_FALSE(r.fault.has_value()) << (r.fault ? r.fault->describe() : "");
  auto v = h.download<std::array<uint32_t, 4>>(out, n);
  return v;
}

TEST(Texture, FetchesFilterAndGather) {
  Harness h;
  // 2D float texture, 6 x 5, with layer 1 of an A2D view holding the values + 1000.
  Image img(6, 5, 2, 1, 32);
  auto T = [](int x, int y, int l) { return float((x * 7 + y * 13) % 17) + 1000.0f * l; };
  for (uint32_t l = 0; l < 2; ++l)
    for (uint32_t y = 0; y < 5; ++y)
      for (uint32_t x = 0; x < 6; ++x) {
        float v = T(int(x), int(y), int(l));
        std::memcpy(img.at(x, y, l), &v, 4);
      }
  img.base = h.upload(img.bytes);
  auto clampAt = [&](int x, int y, int l) {
    return double(T(std::clamp(x, 0, 5), std::clamp(y, 0, 4), l));
  };
  std::vector<std::array<uint32_t, 4>> coords;
  std::vector<std::pair<double, double>> xy;
  for (int j = -20; j < 5 * 16 + 20; j += 7)
    for (int i = -20; i < 6 * 16 + 20; i += 9) {
      xy.push_back({i / 16.0, j / 16.0});
      coords.push_back({fbits(i / 16.0f), fbits(j / 16.0f), 0, 0});
    }
  isa::dev::TexDesc d = img.desc(2);
  d.layers = 0;
  auto point = runTex(h, uploadDesc(h, d), coords, "2D");
  d.filter = 1;
  auto linear = runTex(h, uploadDesc(h, d), coords, "2D");
  for (size_t k = 0; k < xy.size(); ++k) {
    auto [x, y] = xy[k];
    EXPECT_EQ(double(fval(point[k][0])), clampAt(int(std::floor(x)), int(std::floor(y)), 0)) << k;
    EXPECT_EQ(fval(point[k][3]), 1.0f); // a one-channel float texel reads alpha 1
    const double xb = x - 0.5, yb = y - 0.5, fi = std::floor(xb), fj = std::floor(yb);
    const double a = xb - fi, b = yb - fj;
    const int i = int(fi), j = int(fj);
    const double want = (1 - a) * (1 - b) * clampAt(i, j, 0) + a * (1 - b) * clampAt(i + 1, j, 0) +
                        (1 - a) * b * clampAt(i, j + 1, 0) + a * b * clampAt(i + 1, j + 1, 0);
    EXPECT_NEAR(double(fval(linear[k][0])), want, 1e-5) << k;
  }

  // Layered (A2D): the layer comes first and is clamped; filtering stays in the layer.
  std::vector<std::array<uint32_t, 4>> lc;
  for (int layer : {0, 1, 5, -3})
    lc.push_back({uint32_t(layer), fbits(2.25f), fbits(3.75f), 0});
  d = img.desc(2);
  auto layered = runTex(h, uploadDesc(h, d), lc, "A2D");
  EXPECT_EQ(fval(layered[0][0]), T(2, 3, 0));
  EXPECT_EQ(fval(layered[1][0]), T(2, 3, 1));
  EXPECT_EQ(fval(layered[2][0]), T(2, 3, 1));
  EXPECT_EQ(fval(layered[3][0]), T(2, 3, 0));

  // Normalized coordinates with wrap: u = 1.25 is x = 7.5 -> texel 7 mod 6 = 1.
  d = img.desc(2);
  d.layers = 0;
  d.normalized = 1;
  d.address[0] = d.address[1] = 0;
  auto wrapped = runTex(h, uploadDesc(h, d), {{fbits(1.25f), fbits(-0.1f), 0, 0}}, "2D");
  EXPECT_EQ(fval(wrapped[0][0]), T(1, 4, 0)); // y = -0.5 -> texel -1 mod 5 = 4

  // Integer coordinates on a linear resource (tex1Dfetch): border outside reads zero.
  d = img.desc(2);
  d.layers = 0;
  d.height = 1;
  d.address[0] = 3;
  auto fetched = runTex(h, uploadDesc(h, d), {{2, 0, 0, 0}, {uint32_t(-1), 0, 0, 0}, {6, 0, 0, 0}},
                        "1D", "NONE", true);
  EXPECT_EQ(fval(fetched[0][0]), T(2, 0, 0));
  EXPECT_EQ(fetched[1][0], 0u);
  EXPECT_EQ(fetched[2][0], 0u);

  // Gather of component G of a normalized uchar4 texture: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
  Image q(4, 4, 0, 4, 8);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      uint8_t *p = q.at(x, y);
      p[0] = uint8_t(x * 10 + y);
      p[1] = uint8_t(200 - x * 16 - y * 3);
      p[2] = 7;
      p[3] = 9;
    }
  q.base = h.upload(q.bytes);
  isa::dev::TexDesc gd = q.desc(1);
  gd.readMode = 1;
  auto g = runTex(h, uploadDesc(h, gd), {{fbits(1.75f), fbits(2.25f), 0, 0}}, "2D", "G");
  auto G = [](int x, int y) { return float(200 - x * 16 - y * 3) / 255.0f; };
  // x_B = 1.25 -> i = 1; y_B = 1.75 -> j = 1.
  EXPECT_FLOAT_EQ(fval(g[0][0]), G(1, 2));
  EXPECT_FLOAT_EQ(fval(g[0][1]), G(2, 2));
  EXPECT_FLOAT_EQ(fval(g[0][2]), G(2, 1));
  EXPECT_FLOAT_EQ(fval(g[0][3]), G(1, 1));
}

TEST(Texture, SurfaceLoadsAndStoresWithBoundaryModes) {
  Harness h;
  Image s(6, 3, 0, 1, 32); // 6 x 3 words
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 6; ++x) {
      uint32_t v = 0x01020304u * (x + 1) + 0x100 * y;
      std::memcpy(s.at(x, y), &v, 4);
    }
  const std::vector<uint8_t> before = s.bytes;
  s.base = h.upload(s.bytes);
  isa::dev::TexDesc d = s.desc(1);
  d.flags = 1;
  uint64_t handle = uploadDesc(h, d);
  // Thread t: x = t % 8 - 1, y = t / 8 (0..3; row 3 is outside), byte x = 4x.
  std::vector<std::array<uint32_t, 2>> xy(32);
  for (uint32_t t = 0; t < 32; ++t)
    xy[t] = {uint32_t(int(t % 8) - 1) * 4, t / 8};
  uint64_t in = h.upload(xy), out = h.alloc(32 * 32);
  Code c;
  emitGlobalIndex(c, 0);
  emitElementAddress(c, 2, 0, 0, 8, 1);
  c << ldg(4, 2, 0, "B64") << ldp64(6, 16)
    << Inst(Opcode::SULD).rd(8).ra(4).rb(6).mod("dim", "2D").mod("size", "B32").mod("clamp", "ZERO")
    << Inst(Opcode::SULD)
           .rd(9)
           .ra(4)
           .rb(6)
           .mod("dim", "2D")
           .mod("size", "B32")
           .mod("clamp", "CLAMP")
    << Inst(Opcode::SULD)
           .rd(12)
           .ra(4)
           .rb(6)
           .mod("dim", "2D")
           .mod("size", "V4B8")
           .mod("clamp", "ZERO")
    << iaddI(10, 0, 1000)
    << Inst(Opcode::SUST)
           .ra(4)
           .rb(6)
           .rc(10)
           .mod("dim", "2D")
           .mod("size", "B32")
           .mod("clamp", "ZERO");
  emitElementAddress(c, 2, 8, 0, 32, 1);
  c << stg(2, 8, 0, "B64") << stg(2, 12, 16, "B128") << exitInst();
  LaunchResult r =
      h.run(c, Dim3{1, 1, 1}, Dim3{32, 1, 1}, Params().u64(in).u64(out).u64(handle), 16);
  ASSERT_FALSE(r.fault.has_value()) << r.fault->describe();
  auto res = h.download<std::array<uint32_t, 8>>(out, 32);
  auto word = [&](int x, int y) {
    uint32_t v;
    std::memcpy(&v, &before[size_t(y) * Image::kPitch + size_t(x) * 4], 4);
    return v;
  };
  for (uint32_t t = 0; t < 32; ++t) {
    const int x = int(t % 8) - 1, y = int(t / 8);
    const bool inside = x >= 0 && x < 6 && y < 3;
    EXPECT_EQ(res[t][0], inside ? word(x, y) : 0u) << t;
    EXPECT_EQ(res[t][1], word(std::clamp(x, 0, 5), std::min(y, 2))) << t;
    for (unsigned k = 0; k < 4; ++k)
      EXPECT_EQ(res[t][4 + k], inside ? (word(x, y) >> (8 * k)) & 0xff : 0u) << t << " " << k;
  }
  // The stores landed inside and were dropped outside (the padding after each row is intact).
  auto after = h.download<uint8_t>(s.base, s.bytes.size());
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < Image::kPitch / 4; ++x) {
      uint32_t v;
      std::memcpy(&v, &after[size_t(y) * Image::kPitch + x * 4], 4);
      const uint32_t thread = y * 8 + x + 1;
      EXPECT_EQ(v, x < 6 ? 1000 + thread : 0u) << x << " " << y;
    }

  // Trap mode faults outside; a misaligned byte x faults too.
  for (auto [bx, kind] : {std::pair{24u, FaultKind::OutOfBounds}, {2u, FaultKind::Misaligned}}) {
    Code t;
    t << mov32(4, bx) << mov32(5, 0) << ldp64(6, 0)
      << Inst(Opcode::SULD).rd(8).ra(4).rb(6).mod("dim", "2D").mod("size", "B32") << exitInst();
    LaunchResult f = h.run(t, Dim3{1, 1, 1}, Dim3{1, 1, 1}, Params().u64(handle), 16);
    ASSERT_TRUE(f.fault.has_value());
    EXPECT_EQ(f.fault->kind, kind) << f.fault->describe();
  }
  // A texture object is not a surface object (and the reverse).
  d.flags = 0;
  uint64_t texHandle = uploadDesc(h, d);
  Code t;
  t << mov32(4, 0) << mov32(5, 0) << ldp64(6, 0)
    << Inst(Opcode::SULD).rd(8).ra(4).rb(6).mod("dim", "2D").mod("size", "B32") << exitInst();
  LaunchResult f = h.run(t, Dim3{1, 1, 1}, Dim3{1, 1, 1}, Params().u64(texHandle), 16);
  ASSERT_TRUE(f.fault.has_value());
  EXPECT_NE(f.fault->message().find("not a valid object"), std::string::npos) << f.fault->describe();
}

} // namespace
} // namespace wf::test
