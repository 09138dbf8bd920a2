//===- WarpMaskTest.cpp - Warp operations over a member mask ---------------===//
//
// vote/match/redux.sync with a member mask smaller than the converged warp (the tiles of
// cooperative_groups::tiled_partition): the native VOTE, MATCH and REDUX act on the whole active
// group, so a converged warp once gave every tile the whole warp's ballot, match and sum. Each
// lane here uses the mask of its 8-lane tile; results are checked against a host reference.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include <algorithm>

using namespace wf;
using namespace wf::cgtest;

namespace {

// out[lane * 9 + k]: ballot, all, any, uni, match.any, match.all (mask), match.all (pred),
// redux.add, redux.min of v = in[lane] over the lane's tile mask.
const char *kTilePtx = R"PTX(
.version 7.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %laneid;
  and.b32 %r2, %r1, 24;
  shl.b32 %r3, 255, %r2;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.s32 %r4, [%rd4];
  and.b32 %r5, %r4, 1;
  setp.ne.u32 %p1, %r5, 0;
  vote.sync.ballot.b32 %r6, %p1, %r3;
  vote.sync.all.pred %p2, %p1, %r3;
  vote.sync.any.pred %p3, %p1, %r3;
  vote.sync.uni.pred %p4, %p1, %r3;
  selp.u32 %r7, 1, 0, %p2;
  selp.u32 %r8, 1, 0, %p3;
  selp.u32 %r9, 1, 0, %p4;
  shr.s32 %r10, %r4, 4;
  match.any.sync.b32 %r11, %r10, %r3;
  match.all.sync.b32 %r12|%p5, %r10, %r3;
  selp.u32 %r13, 1, 0, %p5;
  redux.sync.add.s32 %r14, %r4, %r3;
  redux.sync.min.s32 %r15, %r4, %r3;
  mul.lo.u32 %r16, %r1, 36;
  cvt.u64.u32 %rd5, %r16;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r6;
  st.global.u32 [%rd6+4], %r7;
  st.global.u32 [%rd6+8], %r8;
  st.global.u32 [%rd6+12], %r9;
  st.global.u32 [%rd6+16], %r11;
  st.global.u32 [%rd6+20], %r12;
  st.global.u32 [%rd6+24], %r13;
  st.global.u32 [%rd6+28], %r14;
  st.global.u32 [%rd6+32], %r15;
  ret;
}
)PTX";

TEST(WarpMask, TileMasksInAConvergedWarp) {
  Runner R("default");
  ASSERT_TRUE(R.compile(kTilePtx));
  // Tile 0: mixed predicates, values in two match classes; tile 1: all odd (vote.all true) and
  // all equal (match.all true); tile 2: all even; tile 3: mixed signs.
  std::vector<int32_t> In(32);
  for (int L = 0; L < 32; ++L) {
    int T = L / 8, I = L % 8;
    In[L] = T == 0 ? I * 9 : T == 1 ? 33 : T == 2 ? 2 * I + 64 : (I % 2 ? -5 * I : 7 * I);
  }
  uint64_t InA = R.upload(In), Out = R.alloc(32 * 9 * 4);
  auto Res = R.launch("k", {1, 1, 1}, {32, 1, 1}, Params().u64(InA).u64(Out));
  ASSERT_FALSE(Res.fault) << faultText(Res);
  auto V = R.download<uint32_t>(Out, 32 * 9);
  for (int L = 0; L < 32; ++L) {
    int Base = L & 24;
    uint32_t Mask = 0xffu << Base, Ballot = 0, MatchAny = 0;
    int32_t Sum = 0, Min = INT32_MAX;
    bool AllEq = true;
    for (int J = Base; J < Base + 8; ++J) {
      Ballot |= uint32_t(In[J] & 1) << J;
      if ((In[J] >> 4) == (In[L] >> 4))
        MatchAny |= 1u << J;
      AllEq = AllEq && (In[J] >> 4) == (In[Base] >> 4);
      Sum += In[J];
      Min = std::min(Min, In[J]);
    }
    const uint32_t *G = &V[L * 9];
    EXPECT_EQ(G[0], Ballot) << "ballot " << L;
    EXPECT_EQ(G[1], uint32_t(Ballot == Mask)) << "all " << L;
    EXPECT_EQ(G[2], uint32_t(Ballot != 0)) << "any " << L;
    EXPECT_EQ(G[3], uint32_t(Ballot == 0 || Ballot == Mask)) << "uni " << L;
    EXPECT_EQ(G[4], MatchAny) << "match.any " << L;
    EXPECT_EQ(G[5], AllEq ? Mask : 0u) << "match.all " << L;
    EXPECT_EQ(G[6], uint32_t(AllEq)) << "match.all pred " << L;
    EXPECT_EQ(int32_t(G[7]), Sum) << "redux.add " << L;
    EXPECT_EQ(int32_t(G[8]), Min) << "redux.min " << L;
  }
}

} // namespace
