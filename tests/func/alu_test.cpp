//===- alu_test.cpp - Integer, logic, compare and predicate instructions -------===//
//
// Each test runs one instruction over 64 threads (two warps) with different inputs per lane and
// compares with a host reference written here from the PTX definitions.
//
//===----------------------------------------------------------------------===//

#include "harness.h"

#include <bit>
#include <functional>

namespace wf::test {
namespace {

constexpr size_t kLanes = 64;

/// Runs `inst` (reading R4..R11, writing R12..) and checks R12 against ref(inputs).
void checkR12(const Inst &inst, const std::function<uint32_t(const LaneInput &)> &ref,
              uint32_t seed = 7) {
  auto in = randomInputs(kLanes, seed);
  auto out = elementwise({inst}, in);
  for (size_t i = 0; i < in.size(); ++i)
    ASSERT_EQ(out[i].r[0], ref(in[i]))
        << "lane " << i << " inputs " << std::hex << in[i][0] << " " << in[i][1] << " " << in[i][2];
}

/// Same for a pair result in R12:R13.
void checkPair(const Inst &inst, const std::function<uint64_t(const LaneInput &)> &ref,
               uint32_t seed = 7) {
  auto in = randomInputs(kLanes, seed);
  auto out = elementwise({inst}, in);
  for (size_t i = 0; i < in.size(); ++i)
    ASSERT_EQ(resultPair(out[i]), ref(in[i])) << "lane " << i;
}

/// Checks predicate P0 against ref.
void checkP0(const Inst &inst, const std::function<bool(const LaneInput &)> &ref,
             const std::vector<Inst> &prologue = {}, uint32_t seed = 7) {
  auto in = randomInputs(kLanes, seed);
  auto out = elementwise({inst}, in, 32, prologue);
  for (size_t i = 0; i < in.size(); ++i)
    ASSERT_EQ(out[i].p0, uint32_t(ref(in[i])))
        << "lane " << i << std::hex << " " << in[i][0] << " " << in[i][1];
}

Inst op3(Opcode op) { return Inst(op).rd(12).ra(4).rb(5).rc(6); }
Inst op2(Opcode op) { return Inst(op).rd(12).ra(4).rb(5); }
Inst op1(Opcode op) { return Inst(op).rd(12).ra(4); }

TEST(Alu, NopChangesNothing) {
  auto in = randomInputs(kLanes, 1);
  auto out = elementwise({Inst(Opcode::NOP), Inst(Opcode::NOP)}, in);
  for (auto &o : out)
    EXPECT_EQ(o.r[0], 0u);
}

TEST(Alu, MovAndMov32i) {
  checkR12(op1(Opcode::MOV), [](auto &i) { return i[0]; });
  checkR12(Inst(Opcode::MOV32I).rd(12).imm(0xcafef00d), [](auto &) { return 0xcafef00du; });
  // RZ reads zero; writes to RZ vanish.
  checkR12(Inst(Opcode::MOV).rd(12).ra(isa::kZeroReg), [](auto &) { return 0u; });
  auto in = randomInputs(kLanes, 2);
  auto out = elementwise(
      {Inst(Opcode::MOV).rd(isa::kZeroReg).ra(4), Inst(Opcode::MOV).rd(12).ra(isa::kZeroReg)}, in);
  for (auto &o : out)
    EXPECT_EQ(o.r[0], 0u);
}

TEST(Alu, Sel) {
  // P0 = R4 is odd; R12 = P0 ? R5 : R6 (and the negated form into R13).
  std::vector<Inst> pro = {Inst(Opcode::LOP_I).rd(16).ra(4).imm(1).mod("fn", "AND"),
                           isetpI(0, 16, 1, "EQ")};
  auto in = randomInputs(kLanes, 3);
  auto out = elementwise({Inst(Opcode::SEL).rd(12).ra(5).rb(6).pc(0),
                          Inst(Opcode::SEL).rd(13).ra(5).rb(6).pc(0, true)},
                         in, 32, pro);
  for (size_t i = 0; i < in.size(); ++i) {
    bool odd = in[i][0] & 1;
    EXPECT_EQ(out[i].r[0], odd ? in[i][1] : in[i][2]);
    EXPECT_EQ(out[i].r[1], odd ? in[i][2] : in[i][1]);
  }
}

TEST(Alu, IaddForms) {
  checkR12(op2(Opcode::IADD), [](auto &i) { return i[0] + i[1]; });
  checkR12(op2(Opcode::IADD).mod("invb", 1), [](auto &i) { return i[0] - i[1]; });
  checkR12(Inst(Opcode::IADD_I).rd(12).ra(4).imm(uint32_t(-5)), [](auto &i) { return i[0] - 5; });
  // 64-bit add from two halves: low with carry out to P1, high with carry in from P1.
  auto in = randomInputs(kLanes, 4);
  auto out = elementwise({Inst(Opcode::IADD).rd(12).ra(4).rb(6).pd(1),
                          Inst(Opcode::IADD).rd(13).ra(5).rb(7).pc(1).mod("x", 1)},
                         in);
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(resultPair(out[i]), pairOf(in[i], 0) + pairOf(in[i], 2)) << i;
    EXPECT_EQ(out[i].p1, uint32_t((uint64_t(in[i][0]) + in[i][2]) >> 32)) << i;
  }
  // 64-bit subtract: invb sets the carry in of the low half; x with invb chains the borrow.
  out = elementwise({Inst(Opcode::IADD).rd(12).ra(4).rb(6).pd(1).mod("invb", 1),
                     Inst(Opcode::IADD).rd(13).ra(5).rb(7).pc(1).mod("x", 1).mod("invb", 1)},
                    in);
  for (size_t i = 0; i < in.size(); ++i)
    EXPECT_EQ(resultPair(out[i]), pairOf(in[i], 0) - pairOf(in[i], 2)) << i;
}

TEST(Alu, MinMax) {
  for (const char *fn : {"MIN", "MAX"})
    for (const char *ty : {"S32", "U32"}) {
      bool isMax = fn[1] == 'A', isU = ty[0] == 'U';
      auto ref = [&](uint32_t a, uint32_t b) {
        if (isU)
          return isMax ? std::max(a, b) : std::min(a, b);
        return uint32_t(isMax ? std::max(int32_t(a), int32_t(b))
                              : std::min(int32_t(a), int32_t(b)));
      };
      checkR12(op2(Opcode::IMNMX).mod("fn", fn).mod("ty", ty),
               [&](auto &i) { return ref(i[0], i[1]); });
      checkR12(Inst(Opcode::IMNMX_I).rd(12).ra(4).imm(0xfffffff0).mod("fn", fn).mod("ty", ty),
               [&](auto &i) { return ref(i[0], 0xfffffff0); });
    }
}

TEST(Alu, Iabs) {
  checkR12(op1(Opcode::IABS),
           [](auto &i) { return int32_t(i[0]) < 0 ? uint32_t(-int64_t(int32_t(i[0]))) : i[0]; });
}

TEST(Alu, Shifts) {
  checkR12(op2(Opcode::SHL), [](auto &i) { return i[1] > 31 ? 0u : i[0] << i[1]; });
  checkR12(Inst(Opcode::SHL_I).rd(12).ra(4).imm(7), [](auto &i) { return i[0] << 7; });
  checkR12(Inst(Opcode::SHL_I).rd(12).ra(4).imm(40), [](auto &) { return 0u; });
  checkR12(op2(Opcode::SHR).mod("ty", "U32"),
           [](auto &i) { return i[1] > 31 ? 0u : i[0] >> i[1]; });
  checkR12(op2(Opcode::SHR).mod("ty", "S32"),
           [](auto &i) { return uint32_t(int32_t(i[0]) >> std::min(i[1], 31u)); });
  checkR12(Inst(Opcode::SHR_I).rd(12).ra(4).imm(3).mod("ty", "S32"),
           [](auto &i) { return uint32_t(int32_t(i[0]) >> 3); });
  checkR12(Inst(Opcode::SHR_I).rd(12).ra(4).imm(35).mod("ty", "U32"), [](auto &) { return 0u; });
}

TEST(Alu, FunnelShift) {
  for (const char *dir : {"L", "R"})
    for (const char *mode : {"CLAMP", "WRAP"}) {
      bool right = dir[0] == 'R', wrap = mode[0] == 'W';
      checkR12(op3(Opcode::SHF).mod("dir", dir).mod("mode", mode), [&](auto &i) {
        uint32_t n = wrap ? i[2] % 32 : std::min(i[2], 32u);
        unsigned __int128 x = (unsigned __int128)((uint64_t(i[1]) << 32) | i[0]);
        return right ? uint32_t(x >> n) : uint32_t((x << n) >> 32);
      });
    }
}

TEST(Alu, Lop3AndLopI) {
  for (unsigned lut :
       {0x00u, 0xffu, 0xf0u, 0xccu, 0xaau, 0x80u, 0xfeu, 0x96u, 0x6au, 0x3cu, 0xe8u}) {
    checkR12(op3(Opcode::LOP3).lut(uint8_t(lut)), [&](auto &i) {
      uint32_t r = 0;
      for (unsigned bit = 0; bit < 32; ++bit) {
        unsigned idx =
            (((i[0] >> bit) & 1) << 2) | (((i[1] >> bit) & 1) << 1) | ((i[2] >> bit) & 1);
        r |= ((lut >> idx) & 1) << bit;
      }
      return r;
    });
  }
  checkR12(Inst(Opcode::LOP_I).rd(12).ra(4).imm(0x0ff00ff0).mod("fn", "AND"),
           [](auto &i) { return i[0] & 0x0ff00ff0; });
  checkR12(Inst(Opcode::LOP_I).rd(12).ra(4).imm(0x0ff00ff0).mod("fn", "OR"),
           [](auto &i) { return i[0] | 0x0ff00ff0; });
  checkR12(Inst(Opcode::LOP_I).rd(12).ra(4).imm(0x0ff00ff0).mod("fn", "XOR"),
           [](auto &i) { return i[0] ^ 0x0ff00ff0; });
}

TEST(Alu, BitCounting) {
  checkR12(op1(Opcode::POPC), [](auto &i) { return uint32_t(std::popcount(i[0])); });
  checkR12(op1(Opcode::CLZ), [](auto &i) { return uint32_t(std::countl_zero(i[0])); });
  checkR12(op1(Opcode::BREV), [](auto &i) {
    uint32_t r = 0;
    for (unsigned b = 0; b < 32; ++b)
      r |= ((i[0] >> b) & 1) << (31 - b);
    return r;
  });
  for (const char *ty : {"S32", "U32"})
    for (unsigned shiftamt : {0u, 1u})
      checkR12(op1(Opcode::BFIND).mod("ty", ty).mod("shiftamt", shiftamt), [&](auto &i) {
        uint32_t x = i[0];
        if (ty[0] == 'S' && int32_t(x) < 0)
          x = ~x;
        if (x == 0)
          return 0xffffffffu;
        uint32_t pos = 0;
        for (unsigned b = 0; b < 32; ++b)
          if ((x >> b) & 1)
            pos = b;
        return shiftamt ? 31 - pos : pos;
      });
}

/// PTX bfe, written from the ISA manual's pseudo code.
uint32_t refBfe(uint32_t a, uint32_t pos, uint32_t len, bool isSigned) {
  pos &= 0xff;
  len &= 0xff;
  bool sbit = false;
  if (isSigned && len != 0)
    sbit = (a >> std::min(pos + len - 1, 31u)) & 1;
  uint32_t d = 0;
  for (uint32_t i = 0; i < 32; ++i) {
    bool bit = i < len && pos + i <= 31 ? (a >> (pos + i)) & 1 : sbit;
    d |= uint32_t(bit) << i;
  }
  return d;
}

TEST(Alu, BitFields) {
  // Keep positions and lengths in a useful range: R5 = pos | len << 8.
  auto in = randomInputs(kLanes, 11);
  for (auto &i : in)
    i[1] = (i[1] & 0x3f) | ((i[2] % 40) << 8);
  for (const char *ty : {"S32", "U32"}) {
    auto out = elementwise({op2(Opcode::BFE).mod("ty", ty)}, in);
    for (size_t k = 0; k < in.size(); ++k)
      EXPECT_EQ(out[k].r[0],
                refBfe(in[k][0], in[k][1] & 0xff, (in[k][1] >> 8) & 0xff, ty[0] == 'S'))
          << k;
  }
  // BFI: R12 = R5 with the low bits of R4 inserted at R6[7:0], length R6[15:8].
  for (auto &i : in)
    i[2] = (i[2] & 0x3f) | ((i[3] % 40) << 8);
  auto out = elementwise({op3(Opcode::BFI)}, in);
  for (size_t k = 0; k < in.size(); ++k) {
    uint32_t pos = in[k][2] & 0xff, len = (in[k][2] >> 8) & 0xff, f = in[k][1];
    for (uint32_t b = 0; b < len && pos + b < 32; ++b)
      f = (f & ~(1u << (pos + b))) | (((in[k][0] >> b) & 1) << (pos + b));
    EXPECT_EQ(out[k].r[0], f) << k;
  }
}

TEST(Alu, Prmt) {
  auto byteOf = [](uint64_t x, unsigned i) { return uint32_t(x >> (8 * (i & 7))) & 0xff; };
  // Generic mode: each selector nibble picks a byte, bit 3 replicates its sign.
  checkR12(op3(Opcode::PRMT), [&](auto &i) {
    uint64_t x = (uint64_t(i[1]) << 32) | i[0];
    uint32_t d = 0;
    for (unsigned k = 0; k < 4; ++k) {
      unsigned s = (i[2] >> (4 * k)) & 15;
      uint32_t b = byteOf(x, s & 7);
      if (s & 8)
        b = (b & 0x80) ? 0xff : 0;
      d |= b << (8 * k);
    }
    return d;
  });
  // The special modes, from PTX's tables (byte 0 first).
  const unsigned tables[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}}, // F4E
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}}, // B4E
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}}, // RC8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}}, // ECL
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}}, // ECR
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}}, // RC16
  };
  const char *modes[6] = {"F4E", "B4E", "RC8", "ECL", "ECR", "RC16"};
  for (unsigned m = 0; m < 6; ++m)
    checkR12(op3(Opcode::PRMT).mod("mode", modes[m]), [&](auto &i) {
      uint64_t x = (uint64_t(i[1]) << 32) | i[0];
      uint32_t d = 0;
      for (unsigned k = 0; k < 4; ++k)
        d |= byteOf(x, tables[m][i[2] & 3][k]) << (8 * k);
      return d;
    });
}

template <class T> bool cmpRef(const char *cmp, T a, T b) {
  std::string_view c = cmp;
  if (c == "EQ")
    return a == b;
  if (c == "NE")
    return a != b;
  if (c == "LT")
    return a < b;
  if (c == "LE")
    return a <= b;
  if (c == "GT")
    return a > b;
  return a >= b;
}

TEST(Alu, IsetpAllComparesAndTypes) {
  // Make equal operands common.
  auto in = randomInputs(kLanes, 21);
  for (size_t k = 0; k < in.size(); k += 3) {
    in[k][1] = in[k][0];
    in[k][2] = in[k][0];
    in[k][3] = in[k][1];
  }
  // P1 = R8 odd: the second predicate source.
  std::vector<Inst> pro = {Inst(Opcode::LOP_I).rd(16).ra(8).imm(1).mod("fn", "AND"),
                           isetpI(1, 16, 1, "EQ")};
  for (const char *cmp : {"EQ", "NE", "LT", "LE", "GT", "GE"})
    for (const char *ty : {"S32", "U32", "S64", "U64"})
      for (const char *bop : {"AND", "OR", "XOR"}) {
        bool wide = ty[1] == '6';
        Inst inst = Inst(Opcode::ISETP)
                        .pd(0)
                        .ra(4)
                        .rb(wide ? 6 : 5)
                        .pc(1)
                        .mod("cmp", cmp)
                        .mod("ty", ty)
                        .mod("bop", bop);
        auto out = elementwise({inst}, in, 32, pro);
        for (size_t k = 0; k < in.size(); ++k) {
          bool r;
          if (std::string_view(ty) == "S32")
            r = cmpRef<int32_t>(cmp, int32_t(in[k][0]), int32_t(in[k][1]));
          else if (std::string_view(ty) == "U32")
            r = cmpRef<uint32_t>(cmp, in[k][0], in[k][1]);
          else if (std::string_view(ty) == "S64")
            r = cmpRef<int64_t>(cmp, int64_t(pairOf(in[k], 0)), int64_t(pairOf(in[k], 2)));
          else
            r = cmpRef<uint64_t>(cmp, pairOf(in[k], 0), pairOf(in[k], 2));
          bool p1 = in[k][4] & 1;
          bool expect = bop[0] == 'A' ? (r && p1) : bop[0] == 'O' ? (r || p1) : (r != p1);
          ASSERT_EQ(out[k].p0, uint32_t(expect)) << cmp << " " << ty << " " << bop << " lane " << k;
        }
      }
  for (const char *cmp : {"EQ", "NE", "LT", "LE", "GT", "GE"}) {
    checkP0(isetpI(0, 4, 0x80000005, cmp, false),
            [&](auto &i) { return cmpRef<int32_t>(cmp, int32_t(i[0]), int32_t(0x80000005)); });
    checkP0(isetpI(0, 4, 40, cmp, true), [&](auto &i) { return cmpRef<uint32_t>(cmp, i[0], 40u); });
  }
}

TEST(Alu, PredicateLogic) {
  // P0 = R4 odd, P1 = R5 odd, P2 = R6 odd; then P0 = lut(P0, P1, !P2).
  std::vector<Inst> pro = {
      Inst(Opcode::LOP_I).rd(16).ra(4).imm(1).mod("fn", "AND"), isetpI(0, 16, 1, "EQ"),
      Inst(Opcode::LOP_I).rd(16).ra(5).imm(1).mod("fn", "AND"), isetpI(1, 16, 1, "EQ"),
      Inst(Opcode::LOP_I).rd(16).ra(6).imm(1).mod("fn", "AND"), isetpI(2, 16, 1, "EQ")};
  for (unsigned lut : {0x80u, 0xfeu, 0x96u, 0xe8u, 0x0fu}) {
    checkP0(
        Inst(Opcode::PLOP3).pd(0).pa(0).pb(1).pc(2, true).lut(uint8_t(lut)),
        [&](auto &i) {
          unsigned idx = ((i[0] & 1) << 2) | ((i[1] & 1) << 1) | (1 - (i[2] & 1));
          return bool((lut >> idx) & 1);
        },
        pro);
  }
  // P2R, and PT / !PT sources.
  auto in = randomInputs(kLanes, 5);
  auto out = elementwise({Inst(Opcode::P2R).rd(12).pa(0), Inst(Opcode::P2R).rd(13).pa(0, true),
                          Inst(Opcode::P2R).rd(14).pa(isa::kTruePred),
                          Inst(Opcode::P2R).rd(15).pa(isa::kTruePred, true)},
                         in, 32, pro);
  for (size_t k = 0; k < in.size(); ++k) {
    EXPECT_EQ(out[k].r[0], in[k][0] & 1);
    EXPECT_EQ(out[k].r[1], 1 - (in[k][0] & 1));
    EXPECT_EQ(out[k].r[2], 1u);
    EXPECT_EQ(out[k].r[3], 0u);
  }
}

TEST(Alu, GuardPredicateMasksLanes) {
  // P0 = R4 odd; @P0 R12 = R5, @!P0 R13 = R6.
  std::vector<Inst> pro = {Inst(Opcode::LOP_I).rd(16).ra(4).imm(1).mod("fn", "AND"),
                           isetpI(0, 16, 1, "EQ")};
  auto in = randomInputs(kLanes, 8);
  auto out = elementwise(
      {Inst(Opcode::MOV).rd(12).ra(5).guard(0), Inst(Opcode::MOV).rd(13).ra(6).guard(0, true)}, in,
      32, pro);
  for (size_t k = 0; k < in.size(); ++k) {
    bool odd = in[k][0] & 1;
    EXPECT_EQ(out[k].r[0], odd ? in[k][1] : 0u);
    EXPECT_EQ(out[k].r[1], odd ? 0u : in[k][2]);
  }
}

TEST(Alu, Leapc) {
  // LEAPC gives the absolute code offset of its target.
  Code c;
  emitGlobalIndex(c, 0);
  c << Inst(Opcode::LEAPC).rd(4).target("there");
  emitElementAddress(c, 2, 0, 0, 4, 1);
  c << stg(2, 4) << exitInst();
  c.label("there");
  c << exitInst();
  Harness h;
  uint64_t out = h.alloc(64 * 4);
  auto r = h.run(c, {2, 1, 1}, {32, 1, 1}, Params().u64(out));
  ASSERT_FALSE(r.fault);
  for (uint32_t v : h.download<uint32_t>(out, 64))
    EXPECT_EQ(v, c.pcOf("there"));
}

TEST(Alu, IntegerMultiply) {
  checkR12(op2(Opcode::IMUL), [](auto &i) { return i[0] * i[1]; });
  checkR12(Inst(Opcode::IMUL_I).rd(12).ra(4).imm(uint32_t(-7)),
           [](auto &i) { return i[0] * uint32_t(-7); });
  checkR12(op3(Opcode::IMAD), [](auto &i) { return i[0] * i[1] + i[2]; });
  checkR12(op2(Opcode::IMULHI).mod("ty", "U32"),
           [](auto &i) { return uint32_t((uint64_t(i[0]) * i[1]) >> 32); });
  checkR12(op2(Opcode::IMULHI).mod("ty", "S32"), [](auto &i) {
    return uint32_t(uint64_t(int64_t(int32_t(i[0])) * int32_t(i[1])) >> 32);
  });
  checkR12(op3(Opcode::IMADHI).mod("ty", "U32"),
           [](auto &i) { return uint32_t((uint64_t(i[0]) * i[1]) >> 32) + i[2]; });
  checkR12(op3(Opcode::IMADHI).mod("ty", "S32"), [](auto &i) {
    return uint32_t(uint64_t(int64_t(int32_t(i[0])) * int32_t(i[1])) >> 32) + i[2];
  });
  checkPair(op2(Opcode::IMULWIDE).mod("ty", "U32"), [](auto &i) { return uint64_t(i[0]) * i[1]; });
  checkPair(op2(Opcode::IMULWIDE).mod("ty", "S32"),
            [](auto &i) { return uint64_t(int64_t(int32_t(i[0])) * int32_t(i[1])); });
  checkPair(Inst(Opcode::IMADWIDE).rd(12).ra(4).rb(5).rc(6).mod("ty", "U32"),
            [](auto &i) { return uint64_t(i[0]) * i[1] + pairOf(i, 2); });
  checkPair(Inst(Opcode::IMADWIDE).rd(12).ra(4).rb(5).rc(6).mod("ty", "S32"), [](auto &i) {
    return uint64_t(int64_t(int32_t(i[0])) * int32_t(i[1])) + pairOf(i, 2);
  });
}

TEST(Alu, IntegerDivide) {
  auto in = randomInputs(kLanes, 31);
  in[0][1] = 0;          // x / 0
  in[1][0] = 0x80000000; // INT_MIN / -1
  in[1][1] = 0xffffffff;
  in[2][2] = in[2][3] = 0; // 64-bit x / 0
  for (const char *ty : {"S32", "U32", "S64", "U64"}) {
    bool wide = ty[1] == '6', isSigned = ty[0] == 'S';
    auto outDiv = elementwise({Inst(Opcode::IDIV).rd(12).ra(4).rb(wide ? 6 : 5).mod("ty", ty)}, in);
    auto outRem = elementwise({Inst(Opcode::IREM).rd(12).ra(4).rb(wide ? 6 : 5).mod("ty", ty)}, in);
    for (size_t k = 0; k < in.size(); ++k) {
      uint64_t a = wide ? pairOf(in[k], 0) : in[k][0], b = wide ? pairOf(in[k], 2) : in[k][1];
      uint64_t q, r;
      uint64_t ones = wide ? ~0ull : 0xffffffffull;
      if (b == 0) {
        q = ones;
        r = a;
      } else if (isSigned) {
        int64_t sa = wide ? int64_t(a) : int64_t(int32_t(a));
        int64_t sb = wide ? int64_t(b) : int64_t(int32_t(b));
        if (sb == -1) {
          q = uint64_t(0) - uint64_t(sa);
          r = 0;
        } else {
          q = uint64_t(sa / sb);
          r = uint64_t(sa % sb);
        }
      } else {
        q = a / b;
        r = a % b;
      }
      uint64_t gotQ = wide ? resultPair(outDiv[k]) : outDiv[k].r[0];
      uint64_t gotR = wide ? resultPair(outRem[k]) : outRem[k].r[0];
      ASSERT_EQ(gotQ, q & ones) << ty << " lane " << k;
      ASSERT_EQ(gotR, r & ones) << ty << " lane " << k;
    }
  }
}

} // namespace
} // namespace wf::test
