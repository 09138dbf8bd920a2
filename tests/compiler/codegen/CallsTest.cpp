//===- CallsTest.cpp - Recursion and indirect calls run by part of a warp --===//
//
// Calls whose callees diverge inside a warp: every lane recurses to its own depth, or calls
// another function through a pointer. Runs on the functional emulator and checks each lane
// against a host reference computed here.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

using namespace wf;
using namespace wf::cgtest;

namespace {

// ack(m, n), Ackermann's function, with m = 2 + t % 2 and n = t % 5 (nvcc's PTX for
// tests/cuda/language/recursion.cu's ack), so lanes recurse to different depths inside loops. A
// recursive function once saved and restored the convergence barriers it used: a nested
// activation run by part of the warp set and waited on the barrier that groups parked in an outer
// activation waited on, released them early, and the restore reinstated a stale mask ("barrier
// deadlock ... waits at BSYNC").
const char *kAckPtx = R"PTX(
.version 9.0
.target sm_80
.address_size 64


.func  (.param .b32 func_retval0) _Z3ackii(
	.param .b32 _Z3ackii_param_0,
	.param .b32 _Z3ackii_param_1
)
{
	.reg .pred 	%p<11>;
	.reg .b32 	%r<59>;


	ld.param.u32 	%r27, [_Z3ackii_param_0];
	ld.param.u32 	%r52, [_Z3ackii_param_1];
	setp.eq.s32 	%p1, %r27, 0;
	@%p1 bra 	$L__BB0_17;

	and.b32  	%r46, %r27, 3;
	setp.eq.s32 	%p2, %r46, 0;
	mov.u32 	%r53, %r27;
	@%p2 bra 	$L__BB0_6;

	mov.u32 	%r44, %r52;
	mov.u32 	%r45, %r27;

$L__BB0_3:
	.pragma "nounroll";
	add.s32 	%r53, %r45, -1;
	setp.eq.s32 	%p3, %r44, 0;
	mov.u32 	%r52, 1;
	@%p3 bra 	$L__BB0_5;

	add.s32 	%r31, %r44, -1;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r45;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r31;
	.param .b32 retval0;
	call.uni (retval0), 
	_Z3ackii, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r52, [retval0+0];
	} // callseq 0

$L__BB0_5:
	add.s32 	%r46, %r46, -1;
	setp.ne.s32 	%p4, %r46, 0;
	mov.u32 	%r44, %r52;
	mov.u32 	%r45, %r53;
	@%p4 bra 	$L__BB0_3;

$L__BB0_6:
	add.s32 	%r32, %r27, -1;
	setp.lt.u32 	%p5, %r32, 3;
	@%p5 bra 	$L__BB0_17;

	add.s32 	%r51, %r53, -1;

$L__BB0_8:
	setp.eq.s32 	%p6, %r52, 0;
	mov.u32 	%r55, 1;
	mov.u32 	%r54, %r55;
	@%p6 bra 	$L__BB0_10;

	add.s32 	%r34, %r52, -1;
	{ // callseq 1, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r53;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r34;
	.param .b32 retval0;
	call.uni (retval0), 
	_Z3ackii, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r54, [retval0+0];
	} // callseq 1

$L__BB0_10:
	setp.eq.s32 	%p7, %r54, 0;
	@%p7 bra 	$L__BB0_12;

	add.s32 	%r36, %r54, -1;
	{ // callseq 2, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r51;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r36;
	.param .b32 retval0;
	call.uni (retval0), 
	_Z3ackii, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r55, [retval0+0];
	} // callseq 2

$L__BB0_12:
	setp.eq.s32 	%p8, %r55, 0;
	mov.u32 	%r52, 1;
	mov.u32 	%r56, %r52;
	@%p8 bra 	$L__BB0_14;

	add.s32 	%r38, %r55, -1;
	add.s32 	%r39, %r51, -1;
	{ // callseq 3, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r39;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r38;
	.param .b32 retval0;
	call.uni (retval0), 
	_Z3ackii, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r56, [retval0+0];
	} // callseq 3

$L__BB0_14:
	setp.eq.s32 	%p9, %r56, 0;
	@%p9 bra 	$L__BB0_16;

	add.s32 	%r41, %r56, -1;
	add.s32 	%r42, %r51, -2;
	{ // callseq 4, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r42;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r41;
	.param .b32 retval0;
	call.uni (retval0), 
	_Z3ackii, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r52, [retval0+0];
	} // callseq 4

$L__BB0_16:
	add.s32 	%r51, %r51, -4;
	setp.ne.s32 	%p10, %r51, -1;
	add.s32 	%r53, %r53, -4;
	@%p10 bra 	$L__BB0_8;

$L__BB0_17:
	add.s32 	%r43, %r52, 1;
	st.param.b32 	[func_retval0+0], %r43;
	ret;

}
	// .globl	_Z7recursePKiPii
.visible .entry _Z7recursePKiPii(
	.param .u64 _Z7recursePKiPii_param_0,
	.param .u64 _Z7recursePKiPii_param_1,
	.param .u32 _Z7recursePKiPii_param_2
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<20>;
	.reg .b64 	%rd<5>;


	ld.param.u64 	%rd1, [_Z7recursePKiPii_param_1];
	ld.param.u32 	%r2, [_Z7recursePKiPii_param_2];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB1_2;

	cvta.to.global.u64 	%rd2, %rd1;
	shr.u32 	%r6, %r1, 31;
	add.s32 	%r7, %r1, %r6;
	and.b32  	%r8, %r7, -2;
	sub.s32 	%r9, %r1, %r8;
	add.s32 	%r10, %r9, 2;
	mul.hi.s32 	%r11, %r1, 1717986919;
	shr.u32 	%r12, %r11, 31;
	shr.s32 	%r13, %r11, 1;
	add.s32 	%r14, %r13, %r12;
	mul.lo.s32 	%r15, %r14, 5;
	sub.s32 	%r16, %r1, %r15;
	{ // callseq 5, 0
	.reg .b32 temp_param_reg;
	.param .b32 param0;
	st.param.b32 	[param0+0], %r10;
	.param .b32 param1;
	st.param.b32 	[param1+0], %r16;
	.param .b32 retval0;
	call.uni (retval0), 
	_Z3ackii, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r17, [retval0+0];
	} // callseq 5
	mul.lo.s32 	%r18, %r1, 20;
	or.b32  	%r19, %r18, 1;
	mul.wide.s32 	%rd3, %r19, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r17;

$L__BB1_2:
	ret;

}

)PTX";

int ackRef(int M, int N) {
  if (M == 0)
    return N + 1;
  if (N == 0)
    return ackRef(M - 1, 1);
  return ackRef(M - 1, ackRef(M, N - 1));
}

TEST(Calls, DivergentRecursion) {
  Runner R("default");
  codegen::CodegenOptions Opts;
  Opts.stackBytes = 16384; // ack(3, 4) nests 125 calls deep
  ASSERT_TRUE(R.compile(kAckPtx, Opts));
  const int N = 64;
  uint64_t Out = R.alloc(N * 20 * 4);
  auto Res = R.launch("_Z7recursePKiPii", {2, 1, 1}, {32, 1, 1}, Params().u64(0).u64(Out).u32(N));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto V = R.download<int32_t>(Out, N * 20);
  for (int T = 0; T < N; ++T)
    EXPECT_EQ(V[T * 20 + 1], ackRef(2 + T % 2, T % 5)) << T;
}

// An indirect call through a kernel parameter with a predicate live across it: the allocator gave
// the target R2, which the predicate saves (P2R) used as their scratch, so the CALLR jumped to the
// saved predicate bits ("pointer as kernel argument" in tests/cuda/language/function_pointers.cu).
const char *kIndirectPtx = R"PTX(
.version 7.0
.target sm_75
.address_size 64

.func (.param .b32 ret) add3(.param .b32 a, .param .b32 b)
{
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [a];
  ld.param.b32 %r2, [b];
  add.s32 %r3, %r1, %r2;
  st.param.b32 [ret], %r3;
  ret;
}

.func (.param .b32 ret) mul3(.param .b32 a, .param .b32 b)
{
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [a];
  ld.param.b32 %r2, [b];
  mul.lo.s32 %r3, %r1, %r2;
  st.param.b32 [ret], %r3;
  ret;
}

.global .align 8 .u64 fns[2] = {add3, mul3};

.visible .entry k(.param .u64 f, .param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [f];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.lt.u32 %p1, %r2, %r1;
  {
    .param .b32 a;
    .param .b32 b;
    .param .b32 r;
    st.param.b32 [a], %r2;
    st.param.b32 [b], 3;
    proto : .callprototype (.param .b32 _) _ (.param .b32 _, .param .b32 _);
    call (r), %rd1, (a, b), proto;
    ld.param.b32 %r3, [r];
  }
  selp.u32 %r4, 1000, 0, %p1;
  add.s32 %r5, %r3, %r4;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r5;
  ret;
}
)PTX";

TEST(Calls, IndirectCallTargetSurvivesPredicateSaves) {
  Runner R("default");
  ASSERT_TRUE(R.compile(kIndirectPtx));
  auto Fns = R.download<uint64_t>(R.symbol("fns"), 2);
  uint64_t Out = R.alloc(32 * 4);
  for (int Fn = 0; Fn < 2; ++Fn) {
    auto Res = R.launch("k", {1, 1, 1}, {32, 1, 1}, Params().u64(Fns[Fn]).u64(Out).u32(20));
    ASSERT_FALSE(Res.fault) << faultText(Res);
    auto V = R.download<int32_t>(Out, 32);
    for (int I = 0; I < 32; ++I)
      EXPECT_EQ(V[I], (Fn ? I * 3 : I + 3) + (I < 20 ? 1000 : 0)) << Fn << " " << I;
  }
}

} // namespace
