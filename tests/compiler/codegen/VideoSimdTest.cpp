//===- VideoSimdTest.cpp - vabsdiff4 (__vabsdiffu4, __vsadu4) --------------===//
//
// cuda_device_runtime's __vabsdiffu4 and __vsadu4 are inline asm on the PTX video instruction
// vabsdiff4.u32.u32.u32, in its merge and its .add (accumulate) form. It is lowered to byte
// extractions and integer min/max/subtract; this checks every type combination, .sat and .add
// against a reference on random words.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <algorithm>
#include <random>
#include <string>

using namespace wf;
using namespace wf::cgtest;

namespace {

/// A kernel computing out[i] = <Instr> a[i], b[i], c[i].
std::string videoKernel(const std::string &Instr) {
  return R"PTX(
.version 7.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 a, .param .u64 b, .param .u64 c, .param .u64 out)
{
  .reg .b32 %r<6>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  ld.param.u64 %rd3, [c];
  ld.param.u64 %rd4, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd1, %rd5;
  add.s64 %rd7, %rd2, %rd5;
  add.s64 %rd8, %rd3, %rd5;
  add.s64 %rd9, %rd4, %rd5;
  ld.global.u32 %r2, [%rd6];
  ld.global.u32 %r3, [%rd7];
  ld.global.u32 %r4, [%rd8];
  )PTX" + Instr +
         R"PTX( %r5, %r2, %r3, %r4;
  st.global.u32 [%rd9], %r5;
  ret;
}
)PTX";
}

int32_t byteOf(uint32_t V, unsigned J, bool S) {
  uint32_t B = (V >> (8 * J)) & 0xff;
  return S ? int32_t(int8_t(B)) : int32_t(B);
}

/// PTX ISA semantics of vabsdiff4 with the default .b3210 mask and selectors.
uint32_t refVabsdiff4(uint32_t A, uint32_t B, uint32_t C, bool DS, bool AS, bool BS, bool Sat,
                      bool Add) {
  uint32_t R = Add ? C : 0;
  for (unsigned J = 0; J < 4; ++J) {
    int32_t D = std::abs(byteOf(A, J, AS) - byteOf(B, J, BS));
    if (Add) {
      R += uint32_t(D);
      continue;
    }
    if (Sat)
      D = std::min(D, DS ? 127 : 255);
    R |= (uint32_t(D) & 0xff) << (8 * J);
  }
  return R;
}

struct Variant {
  bool DS, AS, BS, Sat, Add;
  std::string spelling() const {
    auto T = [](bool S) { return S ? ".s32" : ".u32"; };
    return std::string("vabsdiff4") + T(DS) + T(AS) + T(BS) + (Sat ? ".sat" : "") +
           (Add ? ".add" : "");
  }
};

TEST(VideoSimd, Vabsdiff4MatchesReference) {
  std::vector<Variant> Variants;
  for (unsigned M = 0; M < 8; ++M) {
    bool DS = M & 1, AS = M & 2, BS = M & 4;
    Variants.push_back({DS, AS, BS, false, false});
    Variants.push_back({DS, AS, BS, true, false});
    Variants.push_back({DS, AS, BS, false, true});
  }
  std::mt19937 Rng(20261122);
  const uint32_t N = 128;
  std::vector<uint32_t> A(N), B(N), C(N);
  for (uint32_t I = 0; I < N; ++I) {
    A[I] = Rng();
    B[I] = Rng();
    C[I] = Rng();
  }
  // Byte extremes: 0x00, 0x7f, 0x80 and 0xff against each other.
  const uint32_t Edge[] = {0x00000000u, 0xff7f8000u, 0x807fff00u, 0xffffffffu};
  for (unsigned I = 0; I < 4; ++I)
    for (unsigned J = 0; J < 4; ++J) {
      A[4 * I + J] = Edge[I];
      B[4 * I + J] = Edge[J];
    }
  for (const Variant &V : Variants) {
    SCOPED_TRACE(V.spelling());
    Runner R("default");
    ASSERT_TRUE(R.compile(videoKernel(V.spelling())));
    uint64_t AA = R.upload(A), BA = R.upload(B), CA = R.upload(C), Out = R.alloc(N * 4);
    auto Res =
        R.launch("k", {1, 1, 1}, {N, 1, 1}, Params().u64(AA).u64(BA).u64(CA).u64(Out));
    ASSERT_FALSE(Res.fault) << faultText(Res);
    auto Got = R.download<uint32_t>(Out, N);
    for (uint32_t I = 0; I < N; ++I)
      EXPECT_EQ(Got[I], refVabsdiff4(A[I], B[I], C[I], V.DS, V.AS, V.BS, V.Sat, V.Add))
          << std::hex << "a=0x" << A[I] << " b=0x" << B[I] << " c=0x" << C[I];
  }
}

TEST(VideoSimd, Vabsdiff4SatWithAddIsRejected) {
  // PTX: saturation cannot be used with the secondary accumulate operation.
  auto M = ptx::parseModule(videoKernel("vabsdiff4.u32.u32.u32.sat.add"), {});
  ASSERT_TRUE(bool(M)) << M.error().str();
  codegen::CodegenOptions Opts;
  Opts.config = "default";
  auto W = codegen::compilePtx(*M, Opts);
  ASSERT_FALSE(bool(W));
  EXPECT_NE(W.error().str().find(".sat with .add"), std::string::npos) << W.error().str();
}

} // namespace
