//===- DeviceHeap.cpp - The device heap allocator linked into modules -----===//
//
// Part of Warpforge. In-kernel malloc/free (CUDA's device heap) are ordinary device functions
// written in PTX below and compiled by the same back end, linked into a module that declares
// them without a body (`.extern .func malloc/free`, which nvcc and clang emit for malloc, free,
// new and delete). They find the context's heap through the runtime area (S2R SR_RTBUF, then
// RuntimeArea.device_heap, isa/device.toml) with the pseudo-call `__wf_device_heap`, which the
// lowering expands inline.
//
// Design (docs/compiler.md, "Device heap"): 128 size classes; a request is rounded up to 16-byte
// units, 1, 2, 3, 4 units exactly, then four steps per power of two (5, 6, 7, 8, 10, 12, 14, 16,
// 20, ... units), so at most a quarter is wasted. Every block has a 16-byte header before its
// payload: a u32 state word (bit 31 allocated, a magic in bits 16-30, the class in bits 0-6) and
// the u32 link of the free list (payload offset from the arena in 16-byte units). Each class has
// a lock-free LIFO free list whose head is one u64: the first block's link in the low word, a tag
// in the high word that every update increments, so a CAS against a head that was popped and
// pushed back in between fails (no ABA). A class with an empty list carves a fresh block from the
// arena with a CAS on the bump offset, and malloc returns NULL when the arena is exhausted.
// Shared metadata is only read and written with atomics (coherent with the other cores' caches);
// free fences before publishing the block. free(NULL) does nothing; freeing a pointer that is not
// a live block of the heap (outside the arena, misaligned, or freed already) traps.
//
//===----------------------------------------------------------------------===//

#include "LowerImpl.h"

#include "warpforge/isa/device.gen.h"
#include "warpforge/ptx/Parser.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>

namespace wf::codegen {

namespace {

using isa::dev::DeviceHeap;

constexpr uint32_t kSizeClasses = sizeof(DeviceHeap::freeLists) / sizeof(DeviceHeap::freeLists[0]);
static_assert(kSizeClasses == 128, "the class arithmetic below produces classes 0..127");

/// The block state word: allocated bit, magic, class.
constexpr uint32_t kBlockAllocated = 0x80000000u;
constexpr uint32_t kBlockMagic = 0x57460000u; // "WF" in bits 16-30
constexpr uint32_t kBlockClassMask = 0x7fu;

// <NAME> placeholders are replaced by offsets and constants (layouts come from isa/device.toml).
constexpr std::string_view kLibraryPtx = R"(
.version 7.0
.target sm_80
.address_size 64

.extern .func (.param .b64 heap) __wf_device_heap
(
)
;

.visible .func (.param .b64 result) malloc(.param .b64 size)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<24>;

  ld.param.u64 %rd1, [size];
  mov.u64 %rd0, 0;
  setp.eq.u64 %p1, %rd1, 0;
  @%p1 bra $DONE;
  setp.gt.u64 %p1, %rd1, 1099511627776;
  @%p1 bra $DONE;
  {
  .param .b64 heap0;
  call.uni (heap0), __wf_device_heap, ();
  ld.param.u64 %rd2, [heap0];
  }
  setp.eq.u64 %p1, %rd2, 0;
  @%p1 bra $DONE;
  // v = units - 1; classes 0..3 are 1..4 units, then class 4(e-1)+q is (5+q) << (e-2) units
  // for e = floor(log2 v) and q the two bits of v below its leading one.
  add.u64 %rd3, %rd1, 15;
  shr.u64 %rd3, %rd3, 4;
  sub.u64 %rd3, %rd3, 1;
  setp.lt.u64 %p1, %rd3, 4;
  @%p1 bra $SMALL;
  clz.b64 %r1, %rd3;
  mov.u32 %r2, 63;
  sub.s32 %r2, %r2, %r1;
  sub.s32 %r3, %r2, 2;
  shr.u64 %rd4, %rd3, %r3;
  cvt.u32.u64 %r4, %rd4;
  and.b32 %r4, %r4, 3;
  shl.b32 %r5, %r2, 2;
  sub.s32 %r5, %r5, 4;
  add.s32 %r5, %r5, %r4;
  add.s32 %r6, %r4, 5;
  cvt.u64.u32 %rd5, %r6;
  shl.b64 %rd5, %rd5, %r3;
  bra.uni $CLASSED;
$SMALL:
  cvt.u32.u64 %r5, %rd3;
  add.u64 %rd5, %rd3, 1;
$CLASSED:
  setp.ge.u32 %p1, %r5, <CLASSES>;
  @%p1 bra $DONE;
  ld.global.u64 %rd6, [%rd2+<ARENA>];
  mul.wide.u32 %rd7, %r5, 8;
  add.u64 %rd7, %rd7, %rd2;
  add.u64 %rd7, %rd7, <FREE_LISTS>;
$POP:
  atom.global.or.b64 %rd8, [%rd7], 0;
  cvt.u32.u64 %r7, %rd8;
  setp.eq.u32 %p1, %r7, 0;
  @%p1 bra $CARVE;
  mul.wide.u32 %rd9, %r7, 16;
  add.u64 %rd9, %rd6, %rd9;
  sub.u64 %rd10, %rd9, 8;
  atom.global.or.b32 %r8, [%rd10], 0;
  shr.u64 %rd11, %rd8, 32;
  add.u64 %rd11, %rd11, 1;
  shl.b64 %rd11, %rd11, 32;
  cvt.u64.u32 %rd12, %r8;
  or.b64 %rd11, %rd11, %rd12;
  atom.global.cas.b64 %rd13, [%rd7], %rd8, %rd11;
  setp.ne.u64 %p1, %rd13, %rd8;
  @%p1 bra $POP;
  bra.uni $MARK;
$CARVE:
  shl.b64 %rd14, %rd5, 4;
  add.u64 %rd14, %rd14, 16;
  ld.global.u64 %rd15, [%rd2+<ARENA_BYTES>];
  add.u64 %rd16, %rd2, <TOP>;
  atom.global.or.b64 %rd17, [%rd16], 0;
$CARVE_AGAIN:
  add.u64 %rd18, %rd17, %rd14;
  setp.gt.u64 %p1, %rd18, %rd15;
  @%p1 bra $DONE;
  atom.global.cas.b64 %rd19, [%rd16], %rd17, %rd18;
  setp.ne.u64 %p1, %rd19, %rd17;
  mov.u64 %rd17, %rd19;
  @%p1 bra $CARVE_AGAIN;
  add.u64 %rd9, %rd6, %rd17;
  add.u64 %rd9, %rd9, 16;
$MARK:
  or.b32 %r9, %r5, <ALLOCATED_MAGIC>;
  sub.u64 %rd20, %rd9, 16;
  atom.global.exch.b32 %r10, [%rd20], %r9;
  mov.u64 %rd0, %rd9;
$DONE:
  st.param.u64 [result], %rd0;
  ret;
}

.visible .func free(.param .b64 ptr)
{
  .reg .pred %p<2>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<24>;

  ld.param.u64 %rd1, [ptr];
  setp.eq.u64 %p1, %rd1, 0;
  @%p1 bra $DONE;
  {
  .param .b64 heap0;
  call.uni (heap0), __wf_device_heap, ();
  ld.param.u64 %rd2, [heap0];
  }
  setp.eq.u64 %p1, %rd2, 0;
  @%p1 bra $BAD;
  ld.global.u64 %rd3, [%rd2+<ARENA>];
  ld.global.u64 %rd4, [%rd2+<ARENA_BYTES>];
  sub.u64 %rd5, %rd1, %rd3;
  setp.lt.u64 %p1, %rd5, 16;
  @%p1 bra $BAD;
  setp.ge.u64 %p1, %rd5, %rd4;
  @%p1 bra $BAD;
  and.b64 %rd6, %rd5, 15;
  setp.ne.u64 %p1, %rd6, 0;
  @%p1 bra $BAD;
  sub.u64 %rd7, %rd1, 16;
  atom.global.and.b32 %r1, [%rd7], <NOT_ALLOCATED>;
  and.b32 %r2, %r1, <STATE_MASK>;
  setp.ne.u32 %p1, %r2, <ALLOCATED_MAGIC>;
  @%p1 bra $BAD;
  and.b32 %r3, %r1, <CLASS_MASK>;
  mul.wide.u32 %rd8, %r3, 8;
  add.u64 %rd8, %rd8, %rd2;
  add.u64 %rd8, %rd8, <FREE_LISTS>;
  shr.u64 %rd9, %rd5, 4;
  cvt.u32.u64 %r4, %rd9;
  sub.u64 %rd10, %rd1, 8;
  membar.gl;
$PUSH:
  atom.global.or.b64 %rd11, [%rd8], 0;
  cvt.u32.u64 %r5, %rd11;
  atom.global.exch.b32 %r6, [%rd10], %r5;
  membar.gl;
  shr.u64 %rd12, %rd11, 32;
  add.u64 %rd12, %rd12, 1;
  shl.b64 %rd12, %rd12, 32;
  cvt.u64.u32 %rd13, %r4;
  or.b64 %rd12, %rd12, %rd13;
  atom.global.cas.b64 %rd14, [%rd8], %rd11, %rd12;
  setp.ne.u64 %p1, %rd14, %rd11;
  @%p1 bra $PUSH;
$DONE:
  ret;
$BAD:
  trap;
  ret;
}
)";

std::string libraryText() {
  std::string S(kLibraryPtx);
  auto Replace = [&](std::string_view Name, uint64_t Value) {
    std::string Key = "<" + std::string(Name) + ">";
    std::string Val = fmt::format("{:#x}", Value);
    for (size_t At = S.find(Key); At != std::string::npos; At = S.find(Key, At + Val.size()))
      S.replace(At, Key.size(), Val);
  };
  Replace("ARENA_BYTES", offsetof(DeviceHeap, arenaBytes));
  Replace("ARENA", offsetof(DeviceHeap, arena));
  Replace("TOP", offsetof(DeviceHeap, top));
  Replace("FREE_LISTS", offsetof(DeviceHeap, freeLists));
  Replace("CLASSES", kSizeClasses);
  Replace("ALLOCATED_MAGIC", kBlockAllocated | kBlockMagic);
  Replace("NOT_ALLOCATED", ~kBlockAllocated);
  Replace("STATE_MASK", ~kBlockClassMask);
  Replace("CLASS_MASK", kBlockClassMask);
  return S;
}

/// The parsed library, made once (the Module keeps its own copy of the text).
const ptx::Expected<ptx::Module> &library() {
  static const ptx::Expected<ptx::Module> Lib = [] {
    ptx::ParseOptions PO;
    PO.fileName = "<device heap>";
    return ptx::parseModule(libraryText(), PO);
  }();
  return Lib;
}

/// The library function (malloc or free) a declaration stands for, by name and shape: C's
/// malloc/free and the Itanium-mangled operator new/delete (new[], delete[], sized delete).
const char *libraryFunctionFor(const ptx::Function &F) {
  auto Is64 = [](const ptx::Param &P) { return P.sizeInBytes() == 8; };
  static constexpr std::string_view Allocators[] = {"malloc", "_Znwm", "_Znam"};
  static constexpr std::string_view Deallocators[] = {"free", "_ZdlPv", "_ZdaPv", "_ZdlPvm",
                                                      "_ZdaPvm"};
  for (std::string_view N : Allocators)
    if (F.name == N && F.returns.size() == 1 && Is64(F.returns[0]) && F.params.size() == 1 &&
        Is64(F.params[0]))
      return "malloc";
  for (std::string_view N : Deallocators)
    if (F.name == N && F.returns.empty() && !F.params.empty() && F.params.size() <= 2 &&
        Is64(F.params[0]))
      return "free";
  return nullptr;
}

} // namespace

std::vector<HeapLink> planDeviceHeap(const ptx::Module &M, uint32_t FirstIndex, ModuleLayout &L) {
  std::vector<HeapLink> Links;
  for (uint32_t K = 0; K < M.functions.size(); ++K) {
    const ptx::Function &F = M.functions[K];
    if (F.hasBody || F.isKernel)
      continue;
    const char *Name = libraryFunctionFor(F);
    if (!Name)
      continue;
    auto It = std::find_if(Links.begin(), Links.end(),
                           [&](const HeapLink &H) { return H.libraryName == Name; });
    if (It == Links.end()) {
      Links.push_back({Name, K});
      It = Links.end() - 1;
    }
    L.funcIndex[K] = FirstIndex + uint32_t(It - Links.begin());
  }
  return Links;
}

Status<> lowerDeviceHeap(const std::vector<HeapLink> &Links, const CodegenOptions &Opts,
                         WModule &W) {
  if (Links.empty())
    return {};
  const ptx::Expected<ptx::Module> &Lib = library();
  if (!Lib)
    return Error("the device heap library does not parse: " + Lib.error().str());
  ModuleLayout LibLayout;
  for (const HeapLink &H : Links) {
    const ptx::Function *LF = Lib->findFunction(H.libraryName);
    if (!LF)
      return Error("the device heap library has no " + std::string(H.libraryName));
    Function F;
    if (auto S = lowerFunction(*Lib, uint32_t(LF - Lib->functions.data()), LibLayout, Opts, F); !S)
      return S;
    // Positions in the library's text mean nothing in the module's line table.
    for (Block &B : F.blocks)
      for (Inst &I : B.insts)
        I.loc = {};
    W.functions.push_back(std::move(F));
    W.ptxIndex.push_back(H.declaration);
    W.sharedBytes.push_back(0);
  }
  W.usesDeviceHeap = true;
  return {};
}

} // namespace wf::codegen
