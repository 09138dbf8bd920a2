//===- WmmaTest.cpp - wmma load, mma and store on the emulator ----------------------===//
//
// Every wmma shape and element type PTX has, with A and B in both layouts, checked against
// D = A * B + C computed on the host. Inputs are small integers, so every product and sum is
// exact in each type and the order of the sums does not matter.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <cstring>
#include <fmt/format.h>

using namespace wf;
using namespace wf::cgtest;

namespace {

struct Case {
  const char *shape;
  unsigned M, N, K;
  const char *atype, *ctype, *dtype; // atype is also btype
  unsigned aRegs, bRegs;             // fragment registers PTX gives A and B
  const char *la, *lb;               // layouts of A and B
  const char *op = "";               // ".xor.popc" / ".and.popc" for b1
  bool satfinite = false;
};

unsigned typeBits(const std::string &T) {
  if (T == "f16" || T == "bf16")
    return 16;
  if (T == "f64")
    return 64;
  if (T == "s8" || T == "u8")
    return 8;
  if (T == "s4" || T == "u4")
    return 4;
  if (T == "b1")
    return 1;
  return 32;
}

bool isFloat(const std::string &T) {
  return T == "f16" || T == "bf16" || T == "tf32" || T == "f32" || T == "f64";
}

uint16_t toHalf(float F) { // exact small integers only
  if (F == 0)
    return std::signbit(F) ? 0x8000 : 0;
  uint32_t B;
  std::memcpy(&B, &F, 4);
  uint32_t Sign = (B >> 16) & 0x8000;
  int Exp = int((B >> 23) & 0xff) - 127 + 15;
  return uint16_t(Sign | uint32_t(Exp) << 10 | ((B >> 13) & 0x3ff));
}

float fromHalf(uint16_t H) {
  if (!(H & 0x7fff))
    return H & 0x8000 ? -0.0f : 0.0f;
  uint32_t B = uint32_t(H & 0x8000) << 16 | uint32_t(((H >> 10) & 0x1f) - 15 + 127) << 23 |
               uint32_t(H & 0x3ff) << 13;
  float F;
  std::memcpy(&F, &B, 4);
  return F;
}

/// Writes element (r, c) of a matrix with leading dimension Ld and the given layout.
void put(std::vector<uint8_t> &Mem, const std::string &T, bool RowMajor, unsigned Ld, unsigned R,
         unsigned C, double V) {
  size_t Idx = RowMajor ? size_t(R) * Ld + C : size_t(C) * Ld + R;
  unsigned Bits = typeBits(T);
  if (Bits < 8) {
    size_t Bit = Idx * Bits;
    uint8_t Field = uint8_t(int(V)) & ((1u << Bits) - 1);
    Mem[Bit / 8] = uint8_t((Mem[Bit / 8] & ~(((1u << Bits) - 1) << (Bit % 8))) | Field << (Bit % 8));
    return;
  }
  uint8_t *P = &Mem[Idx * Bits / 8];
  if (T == "f16") {
    uint16_t H = toHalf(float(V));
    std::memcpy(P, &H, 2);
  } else if (T == "bf16") {
    float F = float(V);
    uint32_t B;
    std::memcpy(&B, &F, 4);
    uint16_t H = uint16_t(B >> 16);
    std::memcpy(P, &H, 2);
  } else if (T == "f32" || T == "tf32") {
    float F = float(V);
    std::memcpy(P, &F, 4);
  } else if (T == "f64") {
    std::memcpy(P, &V, 8);
  } else if (T == "s32") {
    int32_t I = int32_t(V);
    std::memcpy(P, &I, 4);
  } else {
    *P = uint8_t(int(V));
  }
}

double get(const std::vector<uint8_t> &Mem, const std::string &T, size_t Idx) {
  const uint8_t *P = &Mem[Idx * typeBits(T) / 8];
  if (T == "f16") {
    uint16_t H;
    std::memcpy(&H, P, 2);
    return fromHalf(H);
  }
  if (T == "f32") {
    float F;
    std::memcpy(&F, P, 4);
    return F;
  }
  if (T == "f64") {
    double D;
    std::memcpy(&D, P, 8);
    return D;
  }
  int32_t I;
  std::memcpy(&I, P, 4);
  return I;
}

std::string regList(const std::string &Name, unsigned N) {
  std::string S = "{";
  for (unsigned K = 0; K < N; ++K)
    S += fmt::format("{}%{}{}", K ? ", " : "", Name, K);
  return S + "}";
}

void runCase(const Case &C) {
  SCOPED_TRACE(fmt::format("wmma {} {}.{}.{} a {} b {}{}", C.shape, C.dtype, C.atype, C.ctype, C.la,
                           C.lb, C.op));
  std::string AT = C.atype, CT = C.ctype, DT = C.dtype;
  bool ARow = std::string(C.la) == "row", BRow = std::string(C.lb) == "row";
  unsigned CRegs = (C.M * C.N / 32 * typeBits(CT) + 31) / 32, DRegs = (C.M * C.N / 32 * typeBits(DT) + 31) / 32;
  if (CT == "f64")
    CRegs = DRegs = C.M * C.N / 32;
  // Leading dimensions, padded by 16 bytes' worth of elements where the layout allows it.
  unsigned Pad = typeBits(AT) >= 8 ? 128 / typeBits(AT) : 0;
  unsigned Lda = (ARow ? C.K : C.M) + Pad, Ldb = (BRow ? C.N : C.K) + Pad, Ldc = C.N;
  auto RegDecl = [](const std::string &Name, const std::string &T, unsigned N) {
    std::string RT = T == "f64" ? "f64" : (T == "f32" || T == "tf32") ? "f32" : T == "s32" ? "s32" : "b32";
    return fmt::format("  .reg .{} %{}<{}>;\n", RT, Name, N);
  };
  std::string Types = (AT == "f16") ? fmt::format("{}.{}", DT, CT)
                                    : fmt::format("{}.{}.{}.{}", DT, AT, AT, CT);
  std::string Ptx = fmt::format(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{{
  .reg .b64 %rd<5>;
{}{}{}{}  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pb];
  ld.param.u64 %rd3, [pc];
  ld.param.u64 %rd4, [pd];
  wmma.load.a.sync.aligned.{}.{}.global.{} {}, [%rd1], {};
  wmma.load.b.sync.aligned.{}.{}.global.{} {}, [%rd2], {};
  wmma.load.c.sync.aligned.row.{}.{} {}, [%rd3];
  wmma.mma{}.sync.aligned.{}.{}.{}.{}{} {}, {}, {}, {};
  wmma.store.d.sync.aligned.col.{}.global.{} [%rd4], {}, {};
  ret;
}}
)",
                                RegDecl("a", AT, C.aRegs), RegDecl("b", AT, C.bRegs), RegDecl("c", CT, CRegs),
                                RegDecl("d", DT, DRegs), C.la, C.shape, AT, regList("a", C.aRegs), Lda, C.lb,
                                C.shape, AT, regList("b", C.bRegs), Ldb, C.shape, CT, regList("c", CRegs),
                                C.op, C.la, C.lb, C.shape, Types, C.satfinite ? ".satfinite" : "",
                                regList("d", DRegs), regList("a", C.aRegs), regList("b", C.bRegs),
                                regList("c", CRegs), C.shape, DT, regList("d", DRegs), C.M);
  Runner R;
  ASSERT_TRUE(R.compile(Ptx)) << Ptx;
  // Values: signed types in [-4, 4], unsigned in [0, 6], b1 bits; C in [-20, 20].
  uint64_t S = 0x853c49e6748fea9bull;
  auto Next = [&] {
    S ^= S << 13;
    S ^= S >> 7;
    S ^= S << 17;
    return S;
  };
  auto Val = [&](const std::string &T) -> double {
    if (T == "b1")
      return double(Next() & 1);
    if (T == "u8" || T == "u4")
      return double(Next() % 7);
    if (T == "s8" && (Next() & 7) == 0) // now and then the extremes
      return (Next() & 1) ? 127.0 : -128.0;
    return double(int(Next() % 9) - 4);
  };
  std::vector<double> A(C.M * C.K), B(C.K * C.N), Cm(C.M * C.N);
  std::vector<uint8_t> AMem((size_t(Lda) * (ARow ? C.M : C.K) * typeBits(AT) + 7) / 8 + 16),
      BMem((size_t(Ldb) * (BRow ? C.K : C.N) * typeBits(AT) + 7) / 8 + 16),
      CMem(C.M * C.N * typeBits(CT) / 8), DMem(C.M * C.N * typeBits(DT) / 8);
  for (unsigned I = 0; I < C.M; ++I)
    for (unsigned K = 0; K < C.K; ++K)
      put(AMem, AT, ARow, Lda, I, K, A[I * C.K + K] = Val(AT));
  for (unsigned K = 0; K < C.K; ++K)
    for (unsigned J = 0; J < C.N; ++J)
      put(BMem, AT, BRow, Ldb, K, J, B[K * C.N + J] = Val(AT));
  for (unsigned I = 0; I < C.M; ++I)
    for (unsigned J = 0; J < C.N; ++J) {
      double V = double(int(Next() % 41) - 20);
      if (C.satfinite && I == 0)
        V = J % 2 ? 2147483600.0 : -2147483600.0; // saturates
      put(CMem, CT, true, Ldc, I, J, Cm[I * C.N + J] = V);
    }
  uint64_t Da = R.upload(AMem), Db = R.upload(BMem), Dc = R.upload(CMem), Dd = R.upload(DMem);
  auto Res = R.launch("k", {1, 1, 1}, {32, 1, 1}, Params().u64(Da).u64(Db).u64(Dc).u64(Dd));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto D = R.download<uint8_t>(Dd, DMem.size());
  for (unsigned I = 0; I < C.M; ++I)
    for (unsigned J = 0; J < C.N; ++J) {
      double Want = Cm[I * C.N + J];
      int64_t Dot = 0;
      for (unsigned K = 0; K < C.K; ++K) {
        int64_t X = int64_t(A[I * C.K + K]), Y = int64_t(B[K * C.N + J]);
        Dot += AT == "b1" ? (std::string(C.op) == ".and.popc" ? (X & Y) : (X ^ Y)) : X * Y;
      }
      Want += double(Dot);
      if (C.satfinite)
        Want = std::min(std::max(Want, -2147483648.0), 2147483647.0);
      EXPECT_EQ(get(D, DT, size_t(J) * C.M + I), Want) << "D[" << I << "][" << J << "]";
    }
}

TEST(Wmma, HalfAndBfloatShapes) {
  for (const char *La : {"row", "col"})
    for (const char *Lb : {"row", "col"}) {
      runCase({"m16n16k16", 16, 16, 16, "f16", "f32", "f32", 8, 8, La, Lb});
      runCase({"m32n8k16", 32, 8, 16, "f16", "f16", "f32", 8, 8, La, Lb});
      runCase({"m8n32k16", 8, 32, 16, "f16", "f32", "f16", 8, 8, La, Lb});
      runCase({"m16n16k16", 16, 16, 16, "bf16", "f32", "f32", 4, 4, La, Lb});
      runCase({"m32n8k16", 32, 8, 16, "bf16", "f32", "f32", 8, 2, La, Lb});
      runCase({"m8n32k16", 8, 32, 16, "bf16", "f32", "f32", 2, 8, La, Lb});
    }
  runCase({"m16n16k16", 16, 16, 16, "f16", "f16", "f16", 8, 8, "row", "col"});
}

TEST(Wmma, Tf32AndDouble) {
  for (const char *La : {"row", "col"})
    for (const char *Lb : {"row", "col"}) {
      runCase({"m16n16k8", 16, 16, 8, "tf32", "f32", "f32", 4, 4, La, Lb});
      runCase({"m8n8k4", 8, 8, 4, "f64", "f64", "f64", 1, 1, La, Lb});
    }
}

TEST(Wmma, Integers) {
  for (const char *La : {"row", "col"})
    for (const char *Lb : {"row", "col"}) {
      runCase({"m16n16k16", 16, 16, 16, "s8", "s32", "s32", 2, 2, La, Lb});
      runCase({"m32n8k16", 32, 8, 16, "u8", "s32", "s32", 4, 1, La, Lb});
      runCase({"m8n32k16", 8, 32, 16, "s8", "s32", "s32", 1, 4, La, Lb});
    }
  runCase({"m16n16k16", 16, 16, 16, "s8", "s32", "s32", 2, 2, "row", "col", "", true});
}

TEST(Wmma, SubByte) {
  runCase({"m8n8k32", 8, 8, 32, "s4", "s32", "s32", 1, 1, "row", "col"});
  runCase({"m8n8k32", 8, 8, 32, "u4", "s32", "s32", 1, 1, "row", "col"});
  runCase({"m8n8k128", 8, 8, 128, "b1", "s32", "s32", 1, 1, "row", "col", ".xor.popc"});
  runCase({"m8n8k128", 8, 8, 128, "b1", "s32", "s32", 1, 1, "row", "col", ".and.popc"});
}

} // namespace
