//===- ReconvergeCallTest.cpp - Convergence barriers across calls ---------===//
//
// Convergence barriers are warp-wide state. A device function called by part of a warp (here: in
// the else-branch of the caller, while the then-branch group waits at the caller's BSYNCs) must
// not reuse the barrier registers of its callers: before the fix the callee saved/restored B0..B4
// and its BSYNCs released the parked group early, and the restore reinstated a stale mask, so the
// kernel ended with "barrier deadlock ... waits at BSYNC B0" (the shape of __wf_erfd calling
// __wf_expd in tests/compiler/frontend/math_kernel.cu). The PTX is clang's for:
//
//   __device__ __noinline__ float leaf(float x) {
//     if (x > 3.0f) { if (x > 4.0f) { if (x > 5.0f) { if (x > 6.0f) { if (x > 7.0f) x *= 0.5f;
//       x += 1.f; } x *= 1.5f; } x -= 0.25f; } x *= 0.75f; }
//     return x + 1.0f;
//   }
//   __device__ __noinline__ float mid(float x) {
//     if (x != x) return x;
//     float r;
//     if (x < 2.5f) { r = 0.f; for (int i = 1; i < 40; ++i) { r += x / i; if (r > 50.f) break; } }
//     else { r = 0.f; for (int i = 9; i > 1; --i) r = x / (r + i); r = leaf(r + x); }
//     return x < 0 ? -r : r;
//   }
//   __global__ void k(float *out, const float *in) { out[threadIdx.x] = mid(in[threadIdx.x]); }
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <cmath>

using namespace wf;
using namespace wf::cgtest;

namespace {

const char *kDivergentCallPtx = R"PTX(
.version 6.3
.target sm_75
.address_size 64

	// .globl	_Z4leaff

.visible .func  (.param .b32 func_retval0) _Z4leaff(
	.param .b32 _Z4leaff_param_0
)
{
	.reg .pred 	%p<6>;
	.reg .f32 	%f<15>;

	ld.param.f32 	%f14, [_Z4leaff_param_0];
	setp.leu.f32 	%p1, %f14, 0f40400000;
	@%p1 bra 	LBB0_4;
	setp.leu.f32 	%p2, %f14, 0f40800000;
	@%p2 bra 	LBB0_3;
	setp.gt.f32 	%p3, %f14, 0f40A00000;
	setp.gt.f32 	%p4, %f14, 0f40C00000;
	setp.gt.f32 	%p5, %f14, 0f40E00000;
	mul.f32 	%f6, %f14, 0f3F000000;
	selp.f32 	%f7, %f6, %f14, %p5;
	add.f32 	%f8, %f7, 0f3F800000;
	selp.f32 	%f9, %f8, %f14, %p4;
	mul.f32 	%f10, %f9, 0f3FC00000;
	selp.f32 	%f11, %f10, %f14, %p3;
	add.f32 	%f14, %f11, 0fBE800000;
LBB0_3:
	mul.f32 	%f14, %f14, 0f3F400000;
LBB0_4:
	add.f32 	%f12, %f14, 0f3F800000;
	st.param.f32 	[func_retval0+0], %f12;
	ret;

}
	// .globl	_Z3midf
.visible .func  (.param .b32 func_retval0) _Z3midf(
	.param .b32 _Z3midf_param_0
)
{
	.reg .pred 	%p<7>;
	.reg .b32 	%r<5>;
	.reg .f32 	%f<32>;

	ld.param.f32 	%f31, [_Z3midf_param_0];
	setp.nan.f32 	%p1, %f31, %f31;
	@%p1 bra 	LBB1_6;
	setp.geu.f32 	%p2, %f31, 0f40200000;
	@%p2 bra 	LBB1_4;
	mov.f32 	%f30, 0f00000000;
	mov.u32 	%r4, 1;
LBB1_3:
	cvt.rn.f32.s32 	%f26, %r4;
	div.rn.f32 	%f27, %f31, %f26;
	add.f32 	%f30, %f30, %f27;
	setp.gt.f32 	%p3, %f30, 0f42480000;
	add.s32 	%r2, %r4, 1;
	setp.eq.s32 	%p4, %r4, 39;
	or.pred  	%p5, %p3, %p4;
	mov.u32 	%r4, %r2;
	@!%p5 bra 	LBB1_3;
	bra.uni 	LBB1_5;
LBB1_4:
	div.rn.f32 	%f8, %f31, 0f41100000;
	add.f32 	%f9, %f8, 0f41000000;
	div.rn.f32 	%f10, %f31, %f9;
	add.f32 	%f11, %f10, 0f40E00000;
	div.rn.f32 	%f12, %f31, %f11;
	add.f32 	%f13, %f12, 0f40C00000;
	div.rn.f32 	%f14, %f31, %f13;
	add.f32 	%f15, %f14, 0f40A00000;
	div.rn.f32 	%f16, %f31, %f15;
	add.f32 	%f17, %f16, 0f40800000;
	div.rn.f32 	%f18, %f31, %f17;
	add.f32 	%f19, %f18, 0f40400000;
	div.rn.f32 	%f20, %f31, %f19;
	add.f32 	%f21, %f20, 0f40000000;
	div.rn.f32 	%f22, %f31, %f21;
	add.f32 	%f23, %f22, %f31;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.f32 	[param0+0], %f23;
	.param .b32 retval0;
	call.uni (retval0), 
	_Z4leaff, 
	(
	param0
	);
	ld.param.f32 	%f30, [retval0+0];
	} // callseq 0
LBB1_5:
	setp.lt.f32 	%p6, %f31, 0f00000000;
	neg.f32 	%f28, %f30;
	selp.f32 	%f31, %f28, %f30, %p6;
LBB1_6:
	st.param.f32 	[func_retval0+0], %f31;
	ret;

}
	// .globl	_Z1kPfPKf
.visible .entry _Z1kPfPKf(
	.param .u64 _Z1kPfPKf_param_0,
	.param .u64 _Z1kPfPKf_param_1
)
{
	.reg .b32 	%r<2>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [_Z1kPfPKf_param_0];
	ld.param.u64 	%rd2, [_Z1kPfPKf_param_1];
	cvta.to.global.u64 	%rd3, %rd2;
	cvta.to.global.u64 	%rd4, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd3, %rd5;
	ld.global.f32 	%f1, [%rd6];
	{ // callseq 1, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.f32 	[param0+0], %f1;
	.param .b32 retval0;
	call.uni (retval0), 
	_Z3midf, 
	(
	param0
	);
	ld.param.f32 	%f2, [retval0+0];
	} // callseq 1
	add.s64 	%rd7, %rd4, %rd5;
	st.global.f32 	[%rd7], %f2;
	ret;

}
)PTX";

float leafRef(float x) {
  if (x > 3.0f) {
    if (x > 4.0f) {
      if (x > 5.0f) {
        if (x > 6.0f) {
          if (x > 7.0f)
            x *= 0.5f;
          x += 1.f;
        }
        x *= 1.5f;
      }
      x -= 0.25f;
    }
    x *= 0.75f;
  }
  return x + 1.0f;
}

float midRef(float x) {
  if (x != x)
    return x;
  float r = 0.f;
  if (x < 2.5f) {
    for (int i = 1; i < 40; ++i) {
      r += x / float(i);
      if (r > 50.f)
        break;
    }
  } else {
    for (int i = 9; i > 1; --i)
      r = x / (r + float(i));
    r = leafRef(r + x);
  }
  return x < 0 ? -r : r;
}

TEST(ReconvergeCall, DivergentCallDoesNotClobberCallerBarriers) {
  Runner R("default");
  ASSERT_TRUE(R.compile(kDivergentCallPtx));
  std::vector<float> In(32);
  for (int I = 0; I < 32; ++I)
    In[I] = float(I) * 0.37f - 2.0f;
  uint64_t InA = R.upload(In), OutA = R.alloc(32 * 4);
  auto Res = R.launch("_Z1kPfPKf", {1, 1, 1}, {32, 1, 1}, Params().u64(OutA).u64(InA));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<float>(OutA, 32);
  for (int I = 0; I < 32; ++I)
    EXPECT_NEAR(Out[I], midRef(In[I]), 1e-5f * std::max(1.0f, std::fabs(midRef(In[I])))) << I;
}

// A dense switch that clang lowers to a chain of compares: every compare branch reconverges at the
// switch's end, and before the fix each took its own barrier (24 live at once: "more than 16
// convergence barriers live at once"). A branch dominated by one reconverging at the same block
// now shares the outer barrier. Source:
//   __global__ void sw(float *out, const int *sel, float x) {
//     float r = 0.f;
//     switch (sel[threadIdx.x]) { case 0: r = x * 1.5f + 0; break; ... case 23: r = x * 24.5f + 23;
//                                 break; default: r = -1.f; }
//     out[threadIdx.x] = r;
//   }
const char *kDenseSwitchPtx = R"PTX(
.version 6.3
.target sm_75
.address_size 64

	// .globl	_Z2swPfPKif

.visible .entry _Z2swPfPKif(
	.param .u64 _Z2swPfPKif_param_0,
	.param .u64 _Z2swPfPKif_param_1,
	.param .f32 _Z2swPfPKif_param_2
)
{
	.reg .pred 	%p<32>;
	.reg .b32 	%r<3>;
	.reg .f32 	%f<29>;
	.reg .b64 	%rd<10>;

	ld.param.f32 	%f26, [_Z2swPfPKif_param_2];
	ld.param.u64 	%rd3, [_Z2swPfPKif_param_0];
	ld.param.u64 	%rd4, [_Z2swPfPKif_param_1];
	cvta.to.global.u64 	%rd5, %rd4;
	cvta.to.global.u64 	%rd1, %rd3;
	mov.u32 	%r2, %tid.x;
	cvt.s64.s32 	%rd2, %r2;
	mul.wide.s32 	%rd6, %r2, 4;
	add.s64 	%rd7, %rd5, %rd6;
	ld.global.u32 	%r1, [%rd7];
	mov.f32 	%f28, 0fBF800000;
	setp.gt.s32 	%p1, %r1, 11;
	@%p1 bra 	LBB0_20;
	setp.gt.s32 	%p17, %r1, 5;
	@%p17 bra 	LBB0_11;
	setp.gt.s32 	%p25, %r1, 2;
	@%p25 bra 	LBB0_7;
	setp.eq.s32 	%p29, %r1, 0;
	@%p29 bra 	LBB0_39;
	setp.eq.s32 	%p30, %r1, 1;
	@%p30 bra 	LBB0_40;
	setp.eq.s32 	%p31, %r1, 2;
	@%p31 bra 	LBB0_6;
	bra.uni 	LBB0_55;
LBB0_6:
	fma.rn.f32 	%f28, %f26, 0f40600000, 0f40000000;
	bra.uni 	LBB0_55;
LBB0_20:
	setp.gt.s32 	%p2, %r1, 17;
	@%p2 bra 	LBB0_30;
	setp.gt.s32 	%p10, %r1, 14;
	@%p10 bra 	LBB0_26;
	setp.eq.s32 	%p14, %r1, 12;
	@%p14 bra 	LBB0_47;
	setp.eq.s32 	%p15, %r1, 13;
	@%p15 bra 	LBB0_48;
	setp.eq.s32 	%p16, %r1, 14;
	@%p16 bra 	LBB0_25;
	bra.uni 	LBB0_55;
LBB0_25:
	fma.rn.f32 	%f28, %f26, 0f41780000, 0f41600000;
	bra.uni 	LBB0_55;
LBB0_11:
	setp.gt.s32 	%p18, %r1, 8;
	@%p18 bra 	LBB0_16;
	setp.eq.s32 	%p22, %r1, 6;
	@%p22 bra 	LBB0_43;
	setp.eq.s32 	%p23, %r1, 7;
	@%p23 bra 	LBB0_44;
	setp.eq.s32 	%p24, %r1, 8;
	@%p24 bra 	LBB0_15;
	bra.uni 	LBB0_55;
LBB0_15:
	fma.rn.f32 	%f28, %f26, 0f41180000, 0f41000000;
	bra.uni 	LBB0_55;
LBB0_30:
	setp.gt.s32 	%p3, %r1, 20;
	@%p3 bra 	LBB0_35;
	setp.eq.s32 	%p7, %r1, 18;
	@%p7 bra 	LBB0_51;
	setp.eq.s32 	%p8, %r1, 19;
	@%p8 bra 	LBB0_52;
	setp.eq.s32 	%p9, %r1, 20;
	@%p9 bra 	LBB0_34;
	bra.uni 	LBB0_55;
LBB0_34:
	fma.rn.f32 	%f28, %f26, 0f41AC0000, 0f41A00000;
	bra.uni 	LBB0_55;
LBB0_7:
	setp.eq.s32 	%p26, %r1, 3;
	@%p26 bra 	LBB0_41;
	setp.eq.s32 	%p27, %r1, 4;
	@%p27 bra 	LBB0_42;
	setp.eq.s32 	%p28, %r1, 5;
	@%p28 bra 	LBB0_10;
	bra.uni 	LBB0_55;
LBB0_10:
	fma.rn.f32 	%f28, %f26, 0f40D00000, 0f40A00000;
	bra.uni 	LBB0_55;
LBB0_26:
	setp.eq.s32 	%p11, %r1, 15;
	@%p11 bra 	LBB0_49;
	setp.eq.s32 	%p12, %r1, 16;
	@%p12 bra 	LBB0_50;
	setp.eq.s32 	%p13, %r1, 17;
	@%p13 bra 	LBB0_29;
	bra.uni 	LBB0_55;
LBB0_29:
	fma.rn.f32 	%f28, %f26, 0f41940000, 0f41880000;
	bra.uni 	LBB0_55;
LBB0_16:
	setp.eq.s32 	%p19, %r1, 9;
	@%p19 bra 	LBB0_45;
	setp.eq.s32 	%p20, %r1, 10;
	@%p20 bra 	LBB0_46;
	setp.eq.s32 	%p21, %r1, 11;
	@%p21 bra 	LBB0_19;
	bra.uni 	LBB0_55;
LBB0_19:
	fma.rn.f32 	%f28, %f26, 0f41480000, 0f41300000;
	bra.uni 	LBB0_55;
LBB0_35:
	setp.eq.s32 	%p4, %r1, 21;
	@%p4 bra 	LBB0_53;
	setp.eq.s32 	%p5, %r1, 22;
	@%p5 bra 	LBB0_54;
	setp.eq.s32 	%p6, %r1, 23;
	@%p6 bra 	LBB0_38;
	bra.uni 	LBB0_55;
LBB0_38:
	fma.rn.f32 	%f28, %f26, 0f41C40000, 0f41B80000;
	bra.uni 	LBB0_55;
LBB0_39:
	fma.rn.f32 	%f28, %f26, 0f3FC00000, 0f00000000;
	bra.uni 	LBB0_55;
LBB0_40:
	fma.rn.f32 	%f28, %f26, 0f40200000, 0f3F800000;
	bra.uni 	LBB0_55;
LBB0_47:
	fma.rn.f32 	%f28, %f26, 0f41580000, 0f41400000;
	bra.uni 	LBB0_55;
LBB0_48:
	fma.rn.f32 	%f28, %f26, 0f41680000, 0f41500000;
	bra.uni 	LBB0_55;
LBB0_43:
	fma.rn.f32 	%f28, %f26, 0f40F00000, 0f40C00000;
	bra.uni 	LBB0_55;
LBB0_44:
	fma.rn.f32 	%f28, %f26, 0f41080000, 0f40E00000;
	bra.uni 	LBB0_55;
LBB0_51:
	fma.rn.f32 	%f28, %f26, 0f419C0000, 0f41900000;
	bra.uni 	LBB0_55;
LBB0_52:
	fma.rn.f32 	%f28, %f26, 0f41A40000, 0f41980000;
	bra.uni 	LBB0_55;
LBB0_41:
	fma.rn.f32 	%f28, %f26, 0f40900000, 0f40400000;
	bra.uni 	LBB0_55;
LBB0_42:
	fma.rn.f32 	%f28, %f26, 0f40B00000, 0f40800000;
	bra.uni 	LBB0_55;
LBB0_49:
	fma.rn.f32 	%f28, %f26, 0f41840000, 0f41700000;
	bra.uni 	LBB0_55;
LBB0_50:
	fma.rn.f32 	%f28, %f26, 0f418C0000, 0f41800000;
	bra.uni 	LBB0_55;
LBB0_45:
	fma.rn.f32 	%f28, %f26, 0f41280000, 0f41100000;
	bra.uni 	LBB0_55;
LBB0_46:
	fma.rn.f32 	%f28, %f26, 0f41380000, 0f41200000;
	bra.uni 	LBB0_55;
LBB0_53:
	fma.rn.f32 	%f28, %f26, 0f41B40000, 0f41A80000;
	bra.uni 	LBB0_55;
LBB0_54:
	fma.rn.f32 	%f28, %f26, 0f41BC0000, 0f41B00000;
LBB0_55:
	shl.b64 	%rd8, %rd2, 2;
	add.s64 	%rd9, %rd1, %rd8;
	st.global.f32 	[%rd9], %f28;
	ret;

}
)PTX";

TEST(ReconvergeCall, DenseSwitchNeedsFewBarriers) {
  Runner R("default");
  ASSERT_TRUE(R.compile(kDenseSwitchPtx));
  std::vector<int32_t> Sel(32);
  for (int I = 0; I < 32; ++I)
    Sel[I] = (I * 7) % 32; // 24..31: default
  uint64_t SelA = R.upload(Sel), OutA = R.alloc(32 * 4);
  auto Res = R.launch("_Z2swPfPKif", {1, 1, 1}, {32, 1, 1}, Params().u64(OutA).u64(SelA).f32(2.0f));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto Out = R.download<float>(OutA, 32);
  for (int I = 0; I < 32; ++I) {
    int C = Sel[I];
    float Want = C < 24 ? 2.0f * (float(C) + 1.5f) + float(C) : -1.f;
    EXPECT_FLOAT_EQ(Out[I], Want) << I;
  }
}

} // namespace
