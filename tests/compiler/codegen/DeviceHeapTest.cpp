//===- DeviceHeapTest.cpp - In-kernel malloc/free on the functional emulator --===//
//
// PTX that declares malloc/free `.extern` (as nvcc and clang emit them) gets the device heap
// allocator linked in (compiler/lib/codegen/DeviceHeap.cpp). The tests give the launch a heap
// the way the runtime does (a DeviceHeap header in device memory, its address in the runtime
// area) and check what CUDA promises: 16-byte aligned, disjoint blocks that outlive their launch
// and can be freed by a later one, NULL when the heap is exhausted, free(NULL) ignored; and what
// the design promises: freed blocks are reused, the free lists stay consistent under contention
// from many threads, and a double free traps.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

#include "warpforge/isa/device.gen.h"

#include <algorithm>
#include <map>
#include <set>

using namespace wf;
using namespace wf::cgtest;

namespace {

using isa::dev::DeviceHeap;
using isa::dev::RuntimeArea;

const char *kHeapPtx = R"PTX(
.version 7.0
.target sm_80
.address_size 64

.extern .func (.param .b64 r) malloc (.param .b64 s);
.extern .func free (.param .b64 p);

// ptrs[t] = malloc(sizes[t]); the block's words are set to t.
.visible .entry alloc_fill(.param .u64 ptrs, .param .u64 sizes)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [ptrs];
  ld.param.u64 %rd2, [sizes];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd3, %r4, 4;
  add.u64 %rd3, %rd2, %rd3;
  ld.global.u32 %r5, [%rd3];
  cvt.u64.u32 %rd4, %r5;
  {
  .param .b64 a;
  .param .b64 r;
  st.param.b64 [a], %rd4;
  call.uni (r), malloc, (a);
  ld.param.b64 %rd5, [r];
  }
  mul.wide.u32 %rd6, %r4, 8;
  add.u64 %rd6, %rd1, %rd6;
  st.global.u64 [%rd6], %rd5;
  setp.eq.u64 %p1, %rd5, 0;
  @%p1 bra DONE;
  mov.u32 %r6, 0;
FILL:
  setp.ge.u32 %p2, %r6, %r5;
  @%p2 bra DONE;
  cvt.u64.u32 %rd7, %r6;
  add.u64 %rd8, %rd5, %rd7;
  st.global.u32 [%rd8], %r4;
  add.u32 %r6, %r6, 4;
  bra.uni FILL;
DONE:
  ret;
}

// errors[t] = words of ptrs[t] that no longer hold t; then free(ptrs[t]) (NULL included).
.visible .entry check_free(.param .u64 ptrs, .param .u64 sizes, .param .u64 errors)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [ptrs];
  ld.param.u64 %rd2, [sizes];
  ld.param.u64 %rd3, [errors];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd4, %r4, 4;
  add.u64 %rd5, %rd2, %rd4;
  ld.global.u32 %r5, [%rd5];
  mul.wide.u32 %rd6, %r4, 8;
  add.u64 %rd6, %rd1, %rd6;
  ld.global.u64 %rd7, [%rd6];
  mov.u32 %r6, 0;
  mov.u32 %r7, 0;
  setp.eq.u64 %p1, %rd7, 0;
  @%p1 bra FREE;
CHECK:
  setp.ge.u32 %p2, %r6, %r5;
  @%p2 bra FREE;
  cvt.u64.u32 %rd8, %r6;
  add.u64 %rd9, %rd7, %rd8;
  ld.global.u32 %r8, [%rd9];
  setp.ne.u32 %p3, %r8, %r4;
  selp.u32 %r9, 1, 0, %p3;
  add.u32 %r7, %r7, %r9;
  add.u32 %r6, %r6, 4;
  bra.uni CHECK;
FREE:
  add.u64 %rd10, %rd3, %rd4;
  st.global.u32 [%rd10], %r7;
  {
  .param .b64 a;
  st.param.b64 [a], %rd7;
  call.uni free, (a);
  }
  ret;
}

// Every thread, `rounds` times: malloc a size that varies with thread and round, fill it, read
// it back, free it. errors[t] counts wrong words, nulls[t] failed mallocs.
.visible .entry churn(.param .u64 errors, .param .u64 nulls, .param .u32 rounds)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [errors];
  ld.param.u64 %rd2, [nulls];
  ld.param.u32 %r1, [rounds];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.u32 %r5, %r3, %r4, %r2;
  mov.u32 %r6, 0;
  mov.u32 %r7, 0;
  mov.u32 %r8, 0;
ROUND:
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra END;
  mad.lo.u32 %r9, %r5, 7, %r6;
  mad.lo.u32 %r9, %r6, 12, %r9;
  rem.u32 %r9, %r9, 97;
  add.u32 %r9, %r9, 1;
  shl.b32 %r9, %r9, 2;
  cvt.u64.u32 %rd3, %r9;
  {
  .param .b64 a;
  .param .b64 r;
  st.param.b64 [a], %rd3;
  call.uni (r), malloc, (a);
  ld.param.b64 %rd4, [r];
  }
  setp.ne.u64 %p2, %rd4, 0;
  @%p2 bra FILLED;
  add.u32 %r8, %r8, 1;
  bra.uni NEXT;
FILLED:
  shl.b32 %r10, %r5, 8;
  or.b32 %r10, %r10, %r6;
  mov.u32 %r11, 0;
FILL:
  setp.ge.u32 %p3, %r11, %r9;
  @%p3 bra FILL_DONE;
  cvt.u64.u32 %rd5, %r11;
  add.u64 %rd6, %rd4, %rd5;
  st.global.u32 [%rd6], %r10;
  add.u32 %r11, %r11, 4;
  bra.uni FILL;
FILL_DONE:
  mov.u32 %r11, 0;
READ:
  setp.ge.u32 %p3, %r11, %r9;
  @%p3 bra READ_DONE;
  cvt.u64.u32 %rd5, %r11;
  add.u64 %rd6, %rd4, %rd5;
  ld.global.u32 %r12, [%rd6];
  setp.ne.u32 %p3, %r12, %r10;
  selp.u32 %r13, 1, 0, %p3;
  add.u32 %r7, %r7, %r13;
  add.u32 %r11, %r11, 4;
  bra.uni READ;
READ_DONE:
  {
  .param .b64 a;
  st.param.b64 [a], %rd4;
  call.uni free, (a);
  }
NEXT:
  add.u32 %r6, %r6, 1;
  bra.uni ROUND;
END:
  mul.wide.u32 %rd7, %r5, 4;
  add.u64 %rd8, %rd1, %rd7;
  st.global.u32 [%rd8], %r7;
  add.u64 %rd9, %rd2, %rd7;
  st.global.u32 [%rd9], %r8;
  ret;
}

// out[0] = malloc(0); free(NULL); out[1] = malloc(16) (freed again).
.visible .entry edge_cases(.param .u64 out)
{
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u64 %rd2, 0;
  {
  .param .b64 a;
  .param .b64 r;
  st.param.b64 [a], %rd2;
  call.uni (r), malloc, (a);
  ld.param.b64 %rd3, [r];
  }
  st.global.u64 [%rd1], %rd3;
  {
  .param .b64 a;
  st.param.b64 [a], %rd2;
  call.uni free, (a);
  }
  mov.u64 %rd4, 16;
  {
  .param .b64 a;
  .param .b64 r;
  st.param.b64 [a], %rd4;
  call.uni (r), malloc, (a);
  ld.param.b64 %rd5, [r];
  }
  st.global.u64 [%rd1+8], %rd5;
  {
  .param .b64 a;
  st.param.b64 [a], %rd5;
  call.uni free, (a);
  }
  ret;
}

// *out = malloc(size), untouched.
.visible .entry just_malloc(.param .u64 out, .param .u64 size)
{
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [size];
  {
  .param .b64 a;
  .param .b64 r;
  st.param.b64 [a], %rd2;
  call.uni (r), malloc, (a);
  ld.param.b64 %rd3, [r];
  }
  st.global.u64 [%rd1], %rd3;
  ret;
}

// free(p) twice.
.visible .entry double_free(.param .u64 p)
{
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  {
  .param .b64 a;
  st.param.b64 [a], %rd1;
  call.uni free, (a);
  }
  {
  .param .b64 a;
  st.param.b64 [a], %rd1;
  call.uni free, (a);
  }
  ret;
}
)PTX";

/// Payload bytes of a size class, as docs/compiler.md specifies the classes: 1..4 units of 16
/// bytes, then (5 + q) << (e - 2) units for class 4 (e - 1) + q.
uint64_t classBytes(uint32_t Class) {
  if (Class < 4)
    return 16ull * (Class + 1);
  uint32_t E = Class / 4 + 1, Q = Class % 4;
  return 16ull * ((5ull + Q) << (E - 2));
}

constexpr uint32_t kAllocated = 0x80000000u, kMagic = 0x57460000u, kClassMask = 0x7fu;

/// A runner whose launches see a device heap with an arena of ArenaBytes (none when 0).
class HeapRunner : public Runner {
public:
  bool setUp(uint64_t ArenaBytes) {
    if (!compile(kHeapPtx))
      return false;
    EXPECT_TRUE(Mod.flags & wfx::kFlagDeviceHeap);
    uint64_t Heap = 0;
    if (ArenaBytes) {
      Heap = alloc(sizeof(DeviceHeap) + ArenaBytes);
      DeviceHeap H = {};
      H.arena = Heap + sizeof H;
      H.arenaBytes = ArenaBytes;
      Dev.memory().write(Heap, &H, sizeof H);
      Arena = H.arena;
    }
    HeapAddr = Heap;
    Dev.memory().write(RtBuf + offsetof(RuntimeArea, deviceHeap), &Heap, 8);
    return true;
  }

  DeviceHeap header() {
    DeviceHeap H;
    Dev.memory().read(HeapAddr, &H, sizeof H);
    return H;
  }

  /// Walks the arena block by block and the free lists link by link: every carved block must be
  /// free (when AllFree) and on the list of its class exactly once, and the blocks must tile the
  /// carved part of the arena. Returns the number of blocks.
  size_t checkConsistent(bool AllFree) {
    DeviceHeap H = header();
    std::map<uint64_t, uint32_t> Blocks; // payload offset -> class
    uint64_t Off = 0;
    while (Off < H.top) {
      uint32_t Word = 0;
      Dev.memory().read(Arena + Off, &Word, 4);
      EXPECT_EQ(Word & ~(kAllocated | kClassMask), kMagic) << "block header at arena+" << Off;
      if (AllFree) {
        EXPECT_EQ(Word & kAllocated, 0u) << "block at arena+" << Off << " is still allocated";
      }
      uint32_t Class = Word & kClassMask;
      Blocks[Off + 16] = Class;
      Off += 16 + classBytes(Class);
    }
    EXPECT_EQ(Off, H.top) << "blocks do not tile the carved arena";
    std::set<uint64_t> Listed;
    for (uint32_t C = 0; C < std::size(H.freeLists); ++C) {
      uint64_t Unit = uint32_t(H.freeLists[C]);
      while (Unit) {
        uint64_t Payload = Unit * 16;
        EXPECT_TRUE(Blocks.count(Payload)) << "class " << C << " lists a non-block at " << Payload;
        if (!Blocks.count(Payload))
          break;
        EXPECT_EQ(Blocks[Payload], C) << "block on the wrong class's list";
        EXPECT_TRUE(Listed.insert(Payload).second) << "block listed twice at " << Payload;
        if (Listed.size() > Blocks.size())
          break;
        uint32_t Next = 0;
        Dev.memory().read(Arena + Payload - 8, &Next, 4);
        Unit = Next;
      }
    }
    if (AllFree) {
      EXPECT_EQ(Listed.size(), Blocks.size()) << "free blocks missing from the lists";
    }
    return Blocks.size();
  }

  uint64_t HeapAddr = 0, Arena = 0;
};

TEST(DeviceHeap, BlocksAreAlignedDisjointAndOutliveTheirLaunch) {
  HeapRunner R;
  ASSERT_TRUE(R.setUp(1 << 20));
  const uint32_t N = 256;
  std::vector<uint32_t> Sizes(N);
  for (uint32_t T = 0; T < N; ++T)
    Sizes[T] = 4 * (1 + (T * 37) % 300); // 4 .. 1200 bytes
  uint64_t Sz = R.upload(Sizes), Ptrs = R.alloc(N * 8), Errs = R.alloc(N * 4);
  auto A = R.launch("alloc_fill", {4, 1, 1}, {64, 1, 1}, Params().u64(Ptrs).u64(Sz));
  ASSERT_FALSE(A.fault) << faultText(A);
  std::vector<uint64_t> P = R.download<uint64_t>(Ptrs, N);
  std::vector<std::pair<uint64_t, uint64_t>> Ranges;
  for (uint32_t T = 0; T < N; ++T) {
    ASSERT_NE(P[T], 0u) << "thread " << T;
    EXPECT_EQ(P[T] % 16, 0u) << "thread " << T;
    EXPECT_GE(P[T], R.Arena);
    EXPECT_LE(P[T] + Sizes[T], R.Arena + (1 << 20));
    Ranges.push_back({P[T], P[T] + Sizes[T]});
  }
  std::sort(Ranges.begin(), Ranges.end());
  for (size_t K = 1; K < Ranges.size(); ++K)
    EXPECT_LE(Ranges[K - 1].second, Ranges[K].first) << "overlapping blocks";
  uint64_t TopAfterFirst = R.header().top;

  // A later launch reads the blocks and frees them.
  auto C = R.launch("check_free", {4, 1, 1}, {64, 1, 1}, Params().u64(Ptrs).u64(Sz).u64(Errs));
  ASSERT_FALSE(C.fault) << faultText(C);
  std::vector<uint32_t> E = R.download<uint32_t>(Errs, N);
  for (uint32_t T = 0; T < N; ++T)
    EXPECT_EQ(E[T], 0u) << "thread " << T << "'s block was overwritten";
  EXPECT_EQ(R.checkConsistent(/*AllFree=*/true), N);

  // The same requests again take the freed blocks: nothing new is carved.
  A = R.launch("alloc_fill", {4, 1, 1}, {64, 1, 1}, Params().u64(Ptrs).u64(Sz));
  ASSERT_FALSE(A.fault) << faultText(A);
  EXPECT_EQ(R.header().top, TopAfterFirst);
  C = R.launch("check_free", {4, 1, 1}, {64, 1, 1}, Params().u64(Ptrs).u64(Sz).u64(Errs));
  ASSERT_FALSE(C.fault) << faultText(C);
  E = R.download<uint32_t>(Errs, N);
  for (uint32_t T = 0; T < N; ++T)
    EXPECT_EQ(E[T], 0u) << "thread " << T;
  R.checkConsistent(true);
}

TEST(DeviceHeap, SizeClassesBoundTheWaste) {
  HeapRunner R;
  ASSERT_TRUE(R.setUp(64 << 20));
  for (uint32_t Size : {1u, 15u, 16u, 17u, 48u, 64u, 65u, 100u, 1000u, 4097u, 65536u, 100000u,
                        1u << 20, 6u << 20, 40u << 20}) {
    uint64_t Ptrs = R.alloc(8);
    uint64_t Before = R.header().top;
    auto A = R.launch("just_malloc", {1, 1, 1}, {1, 1, 1}, Params().u64(Ptrs).u64(Size));
    ASSERT_FALSE(A.fault) << faultText(A);
    ASSERT_NE(R.download<uint64_t>(Ptrs, 1)[0], 0u) << Size;
    uint64_t Block = R.header().top - Before - 16;
    EXPECT_GE(Block, Size);
    EXPECT_EQ(Block % 16, 0u);
    // At most a quarter more than the request rounded to 16 bytes.
    uint64_t Rounded = (Size + 15) / 16 * 16;
    EXPECT_LE(Block, std::max<uint64_t>(Rounded + Rounded / 4, 16)) << Size;
  }
  R.checkConsistent(/*AllFree=*/false);
}

TEST(DeviceHeap, ExhaustedHeapReturnsNullUntilBlocksAreFreed) {
  HeapRunner R;
  const uint64_t Arena = 4096;
  ASSERT_TRUE(R.setUp(Arena));
  const uint32_t N = 64, Size = 256;
  std::vector<uint32_t> Sizes(N, Size);
  uint64_t Sz = R.upload(Sizes), Ptrs = R.alloc(N * 8), Errs = R.alloc(N * 4);
  const uint64_t Fit = Arena / (16 + Size); // blocks of 256 bytes and a 16-byte header
  for (int Round = 0; Round < 2; ++Round) {
    auto A = R.launch("alloc_fill", {2, 1, 1}, {32, 1, 1}, Params().u64(Ptrs).u64(Sz));
    ASSERT_FALSE(A.fault) << faultText(A);
    std::vector<uint64_t> P = R.download<uint64_t>(Ptrs, N);
    EXPECT_EQ(uint64_t(std::count_if(P.begin(), P.end(), [](uint64_t X) { return X != 0; })), Fit)
        << "round " << Round;
    auto C = R.launch("check_free", {2, 1, 1}, {32, 1, 1}, Params().u64(Ptrs).u64(Sz).u64(Errs));
    ASSERT_FALSE(C.fault) << faultText(C);
    for (uint32_t E : R.download<uint32_t>(Errs, N))
      EXPECT_EQ(E, 0u);
    EXPECT_EQ(R.checkConsistent(true), Fit);
  }
}

TEST(DeviceHeap, ManyThreadsChurnWithoutCorruption) {
  HeapRunner R;
  ASSERT_TRUE(R.setUp(1 << 20));
  const uint32_t Blocks = 4, Threads = 128, N = Blocks * Threads;
  uint64_t Errs = R.alloc(N * 4), Nulls = R.alloc(N * 4);
  auto A =
      R.launch("churn", {Blocks, 1, 1}, {Threads, 1, 1}, Params().u64(Errs).u64(Nulls).u32(12));
  ASSERT_FALSE(A.fault) << faultText(A);
  std::vector<uint32_t> E = R.download<uint32_t>(Errs, N), Z = R.download<uint32_t>(Nulls, N);
  for (uint32_t T = 0; T < N; ++T) {
    EXPECT_EQ(E[T], 0u) << "thread " << T << " saw another thread's writes in its block";
    EXPECT_EQ(Z[T], 0u) << "thread " << T << " got NULL from a heap with room";
  }
  R.checkConsistent(/*AllFree=*/true);
}

TEST(DeviceHeap, EdgeCasesAndNoHeap) {
  for (uint64_t ArenaBytes : {uint64_t(1) << 16, uint64_t(0)}) {
    HeapRunner R;
    ASSERT_TRUE(R.setUp(ArenaBytes));
    uint64_t Out = R.alloc(16);
    auto A = R.launch("edge_cases", {1, 1, 1}, {1, 1, 1}, Params().u64(Out));
    ASSERT_FALSE(A.fault) << faultText(A);
    std::vector<uint64_t> P = R.download<uint64_t>(Out, 2);
    EXPECT_EQ(P[0], 0u) << "malloc(0)";
    if (ArenaBytes) {
      EXPECT_NE(P[1], 0u);
    } else {
      EXPECT_EQ(P[1], 0u) << "malloc without a heap";
    }
  }
}

TEST(DeviceHeap, DoubleFreeTraps) {
  HeapRunner R;
  ASSERT_TRUE(R.setUp(1 << 16));
  std::vector<uint32_t> S = {64};
  uint64_t Sz = R.upload(S), Ptrs = R.alloc(8);
  auto A = R.launch("alloc_fill", {1, 1, 1}, {1, 1, 1}, Params().u64(Ptrs).u64(Sz));
  ASSERT_FALSE(A.fault) << faultText(A);
  uint64_t P = R.download<uint64_t>(Ptrs, 1)[0];
  ASSERT_NE(P, 0u);
  auto D = R.launch("double_free", {1, 1, 1}, {1, 1, 1}, Params().u64(P));
  ASSERT_TRUE(D.fault.has_value());
  EXPECT_EQ(D.fault->kind, func::FaultKind::Trap) << faultText(D);
  // A pointer that is not from the heap traps too.
  auto W = R.launch("double_free", {1, 1, 1}, {1, 1, 1}, Params().u64(Ptrs));
  ASSERT_TRUE(W.fault.has_value());
  EXPECT_EQ(W.fault->kind, func::FaultKind::Trap) << faultText(W);
}

} // namespace
