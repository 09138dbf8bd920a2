//===- SharedLayoutTest.cpp - Static shared memory per kernel ---------------===//
//
// A kernel reserves the .shared variables that it and the functions it may call name, not every
// .shared variable of the module (cudaFuncGetAttributes' sharedSizeBytes). Checks the sizes each
// kernel reports, then runs every kernel on the functional emulator with exactly that much shared
// memory, so an access outside the kernel's reservation would fault.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

using namespace wf;
using namespace wf::cgtest;

namespace {

// common: named by the device function bump, which k1, k2 and (through a pointer) k5 call.
// only1: named by k1 alone. loc2: function-scope, in k2. dyn: dynamic, in k4. k3: none.
const char *kSharedPtx = R"PTX(
.version 7.0
.target sm_80
.address_size 64

.shared .align 8 .b8 common[16];
.shared .align 4 .b8 only1[100];
.extern .shared .align 16 .b8 dyn[];

.func (.param .b32 ret) bump(.param .b32 v)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [v];
	st.shared.u32 [common+12], %r1;
	ld.shared.u32 %r2, [common+12];
	add.s32 %r2, %r2, 1;
	st.param.b32 [ret], %r2;
	ret;
}

.entry k1(.param .u64 out)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, 11;
	st.shared.u32 [only1+96], %r1;
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0), bump, (param0);
	ld.param.b32 %r2, [retval0+0];
	}
	ld.shared.u32 %r3, [only1+96];
	add.s32 %r4, %r2, %r3;
	st.global.u32 [%rd2], %r4;
	ret;
}

.entry k2(.param .u64 out)
{
	.reg .b32 %r<5>;
	.reg .b64 %rd<3>;
	.shared .align 4 .b8 loc2[40];
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, 20;
	st.shared.u32 [loc2+36], %r1;
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0), bump, (param0);
	ld.param.b32 %r2, [retval0+0];
	}
	ld.shared.u32 %r3, [loc2+36];
	add.s32 %r4, %r2, %r3;
	st.global.u32 [%rd2], %r4;
	ret;
}

.entry k3(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, 3;
	st.global.u32 [%rd2], %r1;
	ret;
}

.entry k4(.param .u64 out)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, 9;
	st.shared.u32 [dyn+12], %r1;
	ld.shared.u32 %r2, [dyn+12];
	st.global.u32 [%rd2], %r2;
	ret;
}

.entry k5(.param .u64 out)
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u64 %rd3, bump;
	mov.u32 %r1, 30;
	{
	.param .b32 param0;
	st.param.b32 [param0+0], %r1;
	.param .b32 retval0;
	proto: .callprototype (.param .b32 _) _ (.param .b32 _);
	call (retval0), %rd3, (param0), proto;
	ld.param.b32 %r2, [retval0+0];
	}
	st.global.u32 [%rd2], %r2;
	ret;
}
)PTX";

TEST(SharedLayout, EachKernelReservesWhatItReaches) {
  Runner R;
  ASSERT_TRUE(R.compile(kSharedPtx));
  auto Shared = [&](const char *Name) {
    const wfx::Kernel *K = R.Mod.findKernel(Name);
    EXPECT_NE(K, nullptr) << Name;
    return K ? K->sharedBytes : 0;
  };
  // k1: common and only1, not loc2.
  EXPECT_GE(Shared("k1"), 16u + 100u);
  EXPECT_LT(Shared("k1"), 16u + 100u + 40u);
  // k2: common and loc2, not only1.
  EXPECT_GE(Shared("k2"), 16u + 40u);
  EXPECT_LT(Shared("k2"), 16u + 40u + 100u);
  EXPECT_EQ(Shared("k3"), 0u);
  // k4's dynamic array starts right after its (empty) static part.
  EXPECT_EQ(Shared("k4"), 0u);
  // k5 may call bump through a pointer: common.
  EXPECT_GE(Shared("k5"), 16u);
  EXPECT_LT(Shared("k5"), 16u + 40u);

  uint64_t Out = R.alloc(4);
  auto Run = [&](const char *Name, uint32_t Dyn = 0) {
    auto Res = R.launch(Name, {1, 1, 1}, {32, 1, 1}, Params().u64(Out), Dyn);
    EXPECT_FALSE(Res.fault) << Name << ": " << faultText(Res);
    return R.download<int32_t>(Out, 1)[0];
  };
  EXPECT_EQ(Run("k1"), 11 + 1 + 11);
  EXPECT_EQ(Run("k2"), 20 + 1 + 20);
  EXPECT_EQ(Run("k3"), 3);
  EXPECT_EQ(Run("k4", 16), 9);
  EXPECT_EQ(Run("k5"), 30 + 1);
}

} // namespace
