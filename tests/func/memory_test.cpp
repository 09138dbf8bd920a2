//===- memory_test.cpp - Memory spaces, generic windows and atomics ------------===//

#include "harness.h"

#include <bit>
#include <cstring>
#include <map>
#include <set>

namespace wf::test {
namespace {

template <class T> T loadAs(const std::vector<uint8_t> &v, size_t at) {
  T x;
  std::memcpy(&x, v.data() + at, sizeof x);
  return x;
}

std::vector<uint8_t> randomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto &b : v)
    b = uint8_t(rng());
  return v;
}

TEST(Memory, GlobalLoadsAndStoresOfEverySize) {
  Harness h;
  const uint32_t n = 48; // a partial second warp
  auto src = randomBytes(n * 16, 1);
  uint64_t in = h.upload(src);
  uint64_t out = h.alloc(n * 64);
  Code c;
  emitGlobalIndex(c, 0);
  emitElementAddress(c, 2, 0, 0, 16, 1); // R2:R3 = &src[tid]
  emitElementAddress(c, 4, 8, 0, 64, 1); // R4:R5 = &out[tid]
  c << ldg(12, 2, 1, "U8") << ldg(13, 2, 1, "S8") << ldg(14, 2, 2, "U16") << ldg(15, 2, 2, "S16")
    << ldg(16, 2, 4, "B32") << ldg(18, 2, 8, "B64") << ldg(20, 2, 0, "B128");
  c << stg(4, 12, 0) << stg(4, 13, 4) << stg(4, 14, 8) << stg(4, 15, 12) << stg(4, 16, 16)
    << stg(4, 18, 24, "B64") << stg(4, 20, 32, "B128");
  // Narrow stores write only their bytes: bytes 48..63 keep the pattern written before.
  c << mov32(24, 0xa5a5a5a5) << stg(4, 24, 48) << stg(4, 24, 52) << stg(4, 24, 56) << stg(4, 24, 60)
    << stg(4, 16, 49, "U8") << stg(4, 16, 54, "S16") << exitInst();
  auto r = h.run(c, {1, 1, 1}, {n, 1, 1}, Params().u64(in).u64(out));
  ASSERT_FALSE(r.fault) << r.fault->describe();
  auto res = h.download<uint8_t>(out, n * 64);
  for (uint32_t t = 0; t < n; ++t) {
    size_t s = t * 16, o = t * 64;
    EXPECT_EQ(loadAs<uint32_t>(res, o + 0), uint32_t(src[s + 1]));
    EXPECT_EQ(loadAs<uint32_t>(res, o + 4), uint32_t(int32_t(int8_t(src[s + 1]))));
    EXPECT_EQ(loadAs<uint32_t>(res, o + 8), uint32_t(loadAs<uint16_t>(src, s + 2)));
    EXPECT_EQ(loadAs<uint32_t>(res, o + 12), uint32_t(int32_t(loadAs<int16_t>(src, s + 2))));
    EXPECT_EQ(loadAs<uint32_t>(res, o + 16), loadAs<uint32_t>(src, s + 4));
    EXPECT_EQ(loadAs<uint64_t>(res, o + 24), loadAs<uint64_t>(src, s + 8));
    EXPECT_EQ(std::memcmp(res.data() + o + 32, src.data() + s, 16), 0);
    uint32_t w = loadAs<uint32_t>(src, s + 4);
    EXPECT_EQ(res[o + 48], 0xa5);
    EXPECT_EQ(res[o + 49], uint8_t(w));
    EXPECT_EQ(res[o + 50], 0xa5);
    EXPECT_EQ(loadAs<uint16_t>(res, o + 54), uint16_t(w));
    EXPECT_EQ(loadAs<uint16_t>(res, o + 52), 0xa5a5);
  }
}

TEST(Memory, SharedMemoryExchangeAcrossWarps) {
  // Each thread writes tid*3 to shared[tid]; after a barrier it reads shared[n-1-tid]. Dynamic
  // shared memory follows the static part.
  Harness h;
  const uint32_t n = 96;
  uint64_t out = h.alloc(n * 8);
  Code c;
  c << s2r(0, SReg::TID_X) << mov32(1, 3) << Inst(Opcode::IMUL).rd(6).ra(0).rb(1)
    << Inst(Opcode::SHL_I).rd(7).ra(0).imm(2) << Inst(Opcode::STS).ra(7).rd(6).imm(64)
    << Inst(Opcode::STS).ra(7).rd(0).imm(64 + n * 4).mod("size", "U16") << Inst(Opcode::BAR)
    << mov32(8, n - 1) << Inst(Opcode::IADD).rd(8).ra(8).rb(0).mod("invb", 1)
    << Inst(Opcode::SHL_I).rd(8).ra(8).imm(2) << Inst(Opcode::LDS).rd(10).ra(8).imm(64)
    << Inst(Opcode::LDS).rd(11).ra(8).imm(64 + n * 4).mod("size", "S16");
  emitElementAddress(c, 2, 0, 0, 8, 1);
  c << stg(2, 10, 0, "B64") << exitInst();
  auto desc = h.describe(c, {2, 1, 1}, {n, 1, 1}, Params().u64(out));
  desc.sharedStatic = 64;
  desc.sharedDynamic = n * 8;
  auto r = h.dev.launch(desc);
  ASSERT_FALSE(r.fault) << r.fault->describe();
  auto v = h.download<uint32_t>(out, n * 2);
  for (uint32_t t = 0; t < n; ++t) {
    EXPECT_EQ(v[2 * t], (n - 1 - t) * 3) << t;
    EXPECT_EQ(v[2 * t + 1], n - 1 - t) << t;
  }
}

TEST(Memory, LocalMemoryIsPerThread) {
  Harness h;
  const uint32_t n = 64;
  uint64_t out = h.alloc(n * 16);
  Code c;
  emitGlobalIndex(c, 0);
  c << mov32(4, 0x1000) << Inst(Opcode::IADD).rd(4).ra(4).rb(0) << Inst(Opcode::MOV).rd(5).ra(0)
    << Inst(Opcode::STL).ra(isa::kZeroReg).rd(4).imm(8).mod("size", "B64")
    << Inst(Opcode::STL).ra(isa::kZeroReg).rd(0).imm(4)
    << Inst(Opcode::STL).ra(isa::kZeroReg).rd(0).imm(2).mod("size", "U8")
    << Inst(Opcode::LDL).rd(8).ra(isa::kZeroReg).imm(8).mod("size", "B64")
    << Inst(Opcode::LDL).rd(10).ra(isa::kZeroReg).imm(4)
    << Inst(Opcode::LDL).rd(11).ra(isa::kZeroReg).imm(0);
  emitElementAddress(c, 2, 0, 0, 16, 1);
  c << stg(2, 8, 0, "B128") << exitInst();
  auto desc = h.describe(c, {1, 1, 1}, {n, 1, 1}, Params().u64(out));
  desc.localBytes = 16;
  auto r = h.dev.launch(desc);
  ASSERT_FALSE(r.fault) << r.fault->describe();
  auto v = h.download<uint32_t>(out, n * 4);
  for (uint32_t t = 0; t < n; ++t) {
    EXPECT_EQ(v[4 * t], 0x1000 + t);
    EXPECT_EQ(v[4 * t + 1], t);
    EXPECT_EQ(v[4 * t + 2], t);
    EXPECT_EQ(v[4 * t + 3], (t & 0xff) << 16); // the U8 store at byte 2; local memory starts zeroed
  }
}

TEST(Memory, ConstantAndParameterSpaces) {
  Harness h;
  std::vector<uint32_t> consts(64);
  for (uint32_t i = 0; i < 64; ++i)
    consts[i] = i * 0x01010101u;
  uint64_t cbase = h.upload(consts);
  uint64_t out = h.alloc(32 * 32);
  Code c;
  emitGlobalIndex(c, 0);
  c << Inst(Opcode::SHL_I).rd(4).ra(0).imm(2) << Inst(Opcode::LDC).rd(8).ra(4).imm(4)
    << Inst(Opcode::LDC).rd(10).ra(isa::kZeroReg).imm(16).mod("size", "B64") << ldp32(12, 8)
    << Inst(Opcode::LDP).rd(13).ra(isa::kZeroReg).imm(12).mod("size", "S8")
    << Inst(Opcode::LDP).rd(16).ra(isa::kZeroReg).imm(16).mod("size", "B128");
  emitElementAddress(c, 2, 0, 0, 32, 1);
  c << stg(2, 8, 0, "B128") << stg(2, 12, 16, "B64") << stg(2, 16, 24, "B64") << exitInst();
  Params p;
  p.u64(out)
      .u32(0xfeedface)
      .u32(0x000000f0)
      .u32(0x11111111)
      .u32(0x22222222)
      .u32(0x33333333)
      .u32(0x44444444);
  auto desc = h.describe(c, {1, 1, 1}, {32, 1, 1}, p);
  desc.constBase = cbase;
  desc.constSize = 64 * 4;
  auto r = h.dev.launch(desc);
  ASSERT_FALSE(r.fault) << r.fault->describe();
  auto v = h.download<uint32_t>(out, 32 * 8);
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(v[8 * t], consts[t + 1]);
    EXPECT_EQ(v[8 * t + 2], consts[4]);
    EXPECT_EQ(v[8 * t + 3], consts[5]);
    EXPECT_EQ(v[8 * t + 4], 0xfeedfaceu);
    EXPECT_EQ(v[8 * t + 5], 0xfffffff0u); // S8 sign-extends
    EXPECT_EQ(v[8 * t + 6], 0x11111111u);
    EXPECT_EQ(v[8 * t + 7], 0x22222222u);
  }
}

TEST(Memory, GenericWindowsReachEverySpace) {
  // Through generic addresses: store to and load from shared, local and global; load from const
  // and param. CVTA converts both ways; ISSPACEP tells the windows apart.
  Harness h;
  std::vector<uint32_t> consts = {0xc0c0c0c0, 0xc1c1c1c1};
  uint64_t cbase = h.upload(consts);
  uint64_t glob = h.alloc(32 * 4);
  uint64_t out = h.alloc(32 * 64);
  Code c;
  emitGlobalIndex(c, 0);
  c << Inst(Opcode::SHL_I).rd(1).ra(0).imm(2);                                    // R1 = tid*4
  c << Inst(Opcode::CVTA).rd(4).ra(1).mod("dir", "TOGEN").mod("space", "SHARED"); // R4:R5
  c << Inst(Opcode::ST).ra(4).rd(0).imm(0)
    << Inst(Opcode::LDS).rd(12).ra(1); // via generic, back via LDS
  c << mov32(6, 8) << Inst(Opcode::CVTA).rd(6).ra(6).mod("dir", "TOGEN").mod("space", "LOCAL");
  c << Inst(Opcode::ST).ra(6).rd(1).imm(0) << Inst(Opcode::LDL).rd(13).ra(isa::kZeroReg).imm(8);
  c << Inst(Opcode::LD).ra(6).rd(14).imm(0);
  c << mov32(8, 4) << Inst(Opcode::CVTA).rd(8).ra(8).mod("dir", "TOGEN").mod("space", "CONST")
    << Inst(Opcode::LD).rd(15).ra(8);
  c << mov32(10, 12) << Inst(Opcode::CVTA).rd(10).ra(10).mod("dir", "TOGEN").mod("space", "PARAM")
    << Inst(Opcode::LD).rd(16).ra(10);
  emitElementAddress(c, 18, 16, 0, 4, 20); // &glob[tid]
  c << Inst(Opcode::CVTA).rd(22).ra(18).mod("dir", "TOGEN").mod("space", "GLOBAL")
    << Inst(Opcode::ST).ra(22).rd(0) << Inst(Opcode::LD).rd(17).ra(22);
  c << Inst(Opcode::CVTA).rd(24).ra(4).mod("dir", "FROMGEN").mod("space", "SHARED"); // = tid*4
  // ISSPACEP on each generic address: bits in R25.
  c << mov32(25, 0);
  struct Probe {
    unsigned pair;
    const char *space;
  };
  Probe probes[] = {{4, "SHARED"}, {6, "LOCAL"}, {8, "CONST"}, {10, "PARAM"}, {22, "GLOBAL"}};
  const char *spaces[] = {"GLOBAL", "SHARED", "LOCAL", "CONST", "PARAM"};
  unsigned bit = 0;
  for (const Probe &p : probes)
    for (const char *s : spaces) {
      c << Inst(Opcode::ISSPACEP).pd(0).ra(p.pair).mod("space", s) << Inst(Opcode::P2R).rd(26).pa(0)
        << Inst(Opcode::SHL_I).rd(26).ra(26).imm(bit++)
        << Inst(Opcode::LOP3).rd(25).ra(25).rb(26).rc(isa::kZeroReg).lut(0xfc); // a | b
    }
  emitElementAddress(c, 2, 0, 0, 64, 1);
  c << stg(2, 12, 0, "B128") << stg(2, 16, 16, "B64") << stg(2, 24, 24, "B64") << exitInst();
  auto desc =
      h.describe(c, {1, 1, 1}, {32, 1, 1}, Params().u64(out).u32(0).u32(0x5a5a5a5a).u64(glob), 32);
  desc.constBase = cbase;
  desc.constSize = 8;
  desc.sharedStatic = 128;
  desc.localBytes = 16;
  auto r = h.dev.launch(desc);
  ASSERT_FALSE(r.fault) << r.fault->describe();
  auto v = h.download<uint32_t>(out, 32 * 16);
  auto g = h.download<uint32_t>(glob, 32);
  uint32_t expectBits = 0;
  unsigned b = 0;
  for (const Probe &p : probes)
    for (const char *s : spaces)
      expectBits |= uint32_t(std::string_view(p.space) == s) << b++;
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(v[16 * t + 0], t);     // shared
    EXPECT_EQ(v[16 * t + 1], t * 4); // local, back via LDL
    EXPECT_EQ(v[16 * t + 2], t * 4); // local, via LD
    EXPECT_EQ(v[16 * t + 3], consts[1]);
    EXPECT_EQ(v[16 * t + 4], 0x5a5a5a5au);
    EXPECT_EQ(v[16 * t + 5], t);     // global through generic
    EXPECT_EQ(v[16 * t + 6], t * 4); // CVTA FROMGEN
    EXPECT_EQ(v[16 * t + 7], expectBits) << std::hex << v[16 * t + 7];
    EXPECT_EQ(g[t], t);
  }
}

// --- atomics ---------------------------------------------------------------------------------

struct AtomCase {
  const char *op;
  const char *ty;
};

/// Reference: the value stored by one atomic, PTX semantics.
uint64_t atomRef(std::string_view op, std::string_view ty, uint64_t old, uint64_t b, uint64_t c) {
  bool wide = ty[1] == '6';
  uint64_t mask = wide ? ~0ull : 0xffffffffull;
  old &= mask;
  b &= mask;
  c &= mask;
  auto sx = [&](uint64_t v) { return wide ? int64_t(v) : int64_t(int32_t(v)); };
  if (op == "ADD") {
    if (ty == "F32")
      return std::bit_cast<uint32_t>(std::bit_cast<float>(uint32_t(old)) +
                                     std::bit_cast<float>(uint32_t(b)));
    if (ty == "F64")
      return std::bit_cast<uint64_t>(std::bit_cast<double>(old) + std::bit_cast<double>(b));
    return (old + b) & mask;
  }
  bool s = ty[0] == 'S';
  if (op == "MIN")
    return s ? (sx(b) < sx(old) ? b : old) : std::min(old, b);
  if (op == "MAX")
    return s ? (sx(b) > sx(old) ? b : old) : std::max(old, b);
  if (op == "INC")
    return old >= b ? 0 : old + 1;
  if (op == "DEC")
    return (old == 0 || old > b) ? b : old - 1;
  if (op == "AND")
    return old & b;
  if (op == "OR")
    return old | b;
  if (op == "XOR")
    return old ^ b;
  if (op == "EXCH")
    return b;
  return old == b ? c : old; // CAS
}

/// Every lane runs one atomic on its own element: checks the value returned and the one stored.
void checkAtomic(const AtomCase &ac, const char *space) {
  SCOPED_TRACE(std::string(ac.op) + "." + ac.ty + "." + space);
  Harness h;
  const uint32_t n = 64;
  bool wide = ac.ty[1] == '6';
  bool shared = std::string_view(space) == "SHARED";
  std::mt19937 rng(uint32_t(std::hash<std::string>()(std::string(ac.op) + ac.ty)));
  std::vector<uint64_t> mem(n), bs(n), cs(n);
  for (uint32_t i = 0; i < n; ++i) {
    auto pick = [&]() -> uint64_t {
      if (std::string_view(ac.ty) == "F32")
        return std::bit_cast<uint32_t>(float(int(rng() % 2000) - 1000) / 8);
      if (std::string_view(ac.ty) == "F64")
        return std::bit_cast<uint64_t>(double(int(rng() % 2000) - 1000) / 8);
      uint64_t v = rng() % 3 == 0 ? rng() % 16 : (uint64_t(rng()) << 32 | rng());
      return wide ? v : v & 0xffffffff;
    };
    mem[i] = pick();
    bs[i] = i % 4 == 0 ? mem[i] : pick(); // CAS hits on some lanes
    cs[i] = pick();
  }
  uint64_t memAddr = h.upload(mem), bAddr = h.upload(bs), cAddr = h.upload(cs);
  uint64_t out = h.alloc(n * 8);
  Code c;
  emitGlobalIndex(c, 0);
  emitElementAddress(c, 2, 0, 0, 8, 1);  // &mem[i]
  emitElementAddress(c, 4, 8, 0, 8, 1);  // &b[i]
  emitElementAddress(c, 6, 16, 0, 8, 1); // &c[i]
  c << ldg(8, 4, 0, "B64") << ldg(10, 6, 0, "B64");
  unsigned addrReg = 2;
  if (shared) {
    // Copy the element into shared memory at tid*8 and operate there.
    c << ldg(12, 2, 0, "B64") << Inst(Opcode::SHL_I).rd(14).ra(0).imm(3)
      << Inst(Opcode::STS).ra(14).rd(12).mod("size", "B64");
    addrReg = 14;
  } else if (std::string_view(space) == "GENERIC") {
    addrReg = 2; // global addresses are generic addresses
  }
  c << Inst(Opcode::ATOM)
           .rd(16)
           .ra(addrReg)
           .rb(8)
           .rc(10)
           .mod("fn", ac.op)
           .mod("ty", ac.ty)
           .mod("space", space);
  if (shared)
    c << Inst(Opcode::LDS).rd(12).ra(14).mod("size", "B64") << stg(2, 12, 0, "B64");
  emitElementAddress(c, 2, 24, 0, 8, 1);
  c << stg(2, 16, 0, wide ? "B64" : "B32") << exitInst();
  auto desc =
      h.describe(c, {1, 1, 1}, {n, 1, 1}, Params().u64(memAddr).u64(bAddr).u64(cAddr).u64(out), 24);
  desc.sharedStatic = n * 8;
  auto r = h.dev.launch(desc);
  ASSERT_FALSE(r.fault) << r.fault->describe();
  auto got = h.download<uint64_t>(out, n);
  auto after = h.download<uint64_t>(memAddr, n);
  uint64_t mask = wide ? ~0ull : 0xffffffffull;
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t expectOld = mem[i] & mask;
    uint64_t gotOld = wide ? got[i] : got[i] & 0xffffffff;
    EXPECT_EQ(gotOld, expectOld) << "lane " << i;
    uint64_t stored = wide ? after[i] : after[i] & 0xffffffff;
    EXPECT_EQ(stored, atomRef(ac.op, ac.ty, mem[i], bs[i], cs[i])) << "lane " << i;
  }
}

TEST(Atomics, EveryOperationAndTypeInEverySpace) {
  const AtomCase cases[] = {
      {"ADD", "U32"}, {"ADD", "S32"}, {"ADD", "U64"},  {"ADD", "S64"},  {"ADD", "F32"},
      {"ADD", "F64"}, {"MIN", "U32"}, {"MIN", "S32"},  {"MIN", "U64"},  {"MIN", "S64"},
      {"MAX", "U32"}, {"MAX", "S32"}, {"MAX", "U64"},  {"MAX", "S64"},  {"INC", "U32"},
      {"DEC", "U32"}, {"AND", "U32"}, {"AND", "U64"},  {"OR", "S32"},   {"OR", "U64"},
      {"XOR", "U32"}, {"XOR", "S64"}, {"EXCH", "U32"}, {"EXCH", "U64"}, {"EXCH", "F32"},
      {"CAS", "U32"}, {"CAS", "U64"}, {"CAS", "F64"},
  };
  for (const AtomCase &ac : cases)
    for (const char *space : {"GLOBAL", "SHARED", "GENERIC"})
      checkAtomic(ac, space);
}

TEST(Atomics, LanesOfOneInstructionActInLaneOrder) {
  // All 32 lanes add lane+1 to one counter: lane l sees the sum of the lanes before it.
  Harness h;
  uint64_t counter = h.alloc(8), out = h.alloc(32 * 4);
  Code c;
  c << s2r(0, SReg::LANEID) << iaddI(1, 0, 1) << ldp64(2, 0)
    << Inst(Opcode::ATOM)
           .rd(4)
           .ra(2)
           .rb(1)
           .mod("fn", "ADD")
           .mod("ty", "U32")
           .mod("space", "GLOBAL");
  emitElementAddress(c, 6, 8, 0, 4, 8);
  c << stg(6, 4) << exitInst();
  auto r = h.run(c, {1, 1, 1}, {32, 1, 1}, Params().u64(counter).u64(out));
  ASSERT_FALSE(r.fault);
  auto v = h.download<uint32_t>(out, 32);
  for (uint32_t l = 0; l < 32; ++l)
    EXPECT_EQ(v[l], l * (l + 1) / 2);
  EXPECT_EQ(h.read<uint32_t>(counter), 32u * 33 / 2);
}

TEST(Atomics, ReductionWithZeroRegisterDestination) {
  Harness h;
  uint64_t counter = h.alloc(8);
  Code c;
  c << ldp64(2, 0) << mov32(4, 3) << mov32(8, 0x77777777)
    << Inst(Opcode::ATOM).rd(isa::kZeroReg).ra(2).rb(4).mod("fn", "ADD").mod("ty", "U32")
    << Inst(Opcode::MOV).rd(9).ra(isa::kZeroReg) << exitInst();
  auto r = h.run(c, {4, 1, 1}, {64, 1, 1}, Params().u64(counter));
  ASSERT_FALSE(r.fault);
  EXPECT_EQ(h.read<uint32_t>(counter), 4u * 64 * 3);
}

/// Many blocks on every core hammer one counter of each kind.
void contention(unsigned hostThreads) {
  Harness h("default");
  uint64_t counters = h.alloc(64);
  Code c;
  c << ldp64(2, 0) << mov32(4, 1) << mov32(5, 0x3f800000) << mov32(6, 1000000)
    << Inst(Opcode::ATOM).ra(2).rb(4).mod("fn", "ADD").mod("ty", "U32").mod("space", "GLOBAL")
    << iaddI(8, 2, 8) << Inst(Opcode::MOV).rd(9).ra(3)
    << Inst(Opcode::ATOM).ra(8).rb(5).mod("fn", "ADD").mod("ty", "F32") << iaddI(10, 2, 16)
    << Inst(Opcode::MOV).rd(11).ra(3)
    << Inst(Opcode::ATOM).rd(12).ra(10).rb(6).mod("fn", "INC").mod("ty", "U32")
    // A CAS loop: add 2 to a 64-bit counter at +24.
    << iaddI(14, 2, 24) << Inst(Opcode::MOV).rd(15).ra(3) << ldg(16, 14, 0, "B64") << mov32(22, 2);
  c.label("retry");
  c << Inst(Opcode::IADD).rd(18).ra(16).rb(22).pd(1)
    << Inst(Opcode::IADD).rd(19).ra(17).rb(isa::kZeroReg).pc(1).mod("x", 1)
    << Inst(Opcode::ATOM).rd(20).ra(14).rb(16).rc(18).mod("fn", "CAS").mod("ty", "U64")
    << Inst(Opcode::ISETP).pd(0).ra(20).rb(16).mod("cmp", "NE").mod("ty", "U64")
    << Inst(Opcode::MOV).rd(16).ra(20) << Inst(Opcode::MOV).rd(17).ra(21) << bra("retry").guard(0)
    << exitInst();
  const uint32_t blocks = 64, threads = 128, total = blocks * threads;
  func::RunOptions opts;
  opts.hostThreads = hostThreads;
  auto r = h.run(c, {blocks, 1, 1}, {threads, 1, 1}, Params().u64(counters), 24, opts);
  ASSERT_FALSE(r.fault) << r.fault->describe();
  EXPECT_EQ(h.read<uint32_t>(counters), total);
  EXPECT_EQ(h.read<float>(counters + 8), float(total));
  EXPECT_EQ(h.read<uint32_t>(counters + 16), total);
  EXPECT_EQ(h.read<uint64_t>(counters + 24), 2ull * total);
}

TEST(Atomics, ContentionGivesExactTotalsOnOneHostThread) { contention(1); }
TEST(Atomics, ContentionGivesExactTotalsOnFourHostThreads) { contention(4); }

TEST(Memory, FirstMemorySitsAtItsDeviceAddresses) {
  func::Memory first(16 << 20), second(16 << 20);
  // The range at kGlobalBase is free in a test process: the first memory takes it, the second
  // cannot (mappings never replace each other) and goes elsewhere.
  ASSERT_TRUE(first.identityMapped());
  EXPECT_FALSE(second.identityMapped());
  EXPECT_EQ(first.host(first.base()), reinterpret_cast<uint8_t *>(first.base()));
  uint32_t v = 0x12345678, back = 0;
  ASSERT_TRUE(first.write(first.base() + 64, &v, 4));
  std::memcpy(&back, reinterpret_cast<const void *>(first.base() + 64), 4); // host view
  EXPECT_EQ(back, v);
  ASSERT_TRUE(second.write(second.base() + 64, &v, 4));
  EXPECT_EQ(std::memcmp(second.host(second.base() + 64), &v, 4), 0);
}

} // namespace
} // namespace wf::test
