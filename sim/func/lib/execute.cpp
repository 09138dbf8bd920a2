//===- execute.cpp - The interpreter: one warp, one slice -----------------------===//
//
// runWarp executes pre-decoded instructions for the current group of a warp. Register rows hold
// 32 lanes contiguously, so per-lane work is a loop over 32 values: lane-wise operations compute
// every lane into a temporary and blend the lanes that execute into the destination (the loops
// vectorize; a full mask is a plain copy). Expensive or side-effecting work (memory, atomics,
// hls calls outside the host fast path) iterates over the set bits of the execution mask, in lane
// order. The loop is instantiated twice: without commit records (the fast one) and with.
//
//===----------------------------------------------------------------------===//

#include "arith.h"
#include "engine.h"
#include "recorder.h"
#include "texture.h"

#include "warpforge/hls/atomic.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>

namespace wf::func {

static_assert(std::endian::native == std::endian::little, "device memory is little-endian");
static_assert(isa::kWindowSize == (1ull << 32), "window decoding assumes 4 GiB windows");
static_assert((isa::kSharedWindow | isa::kLocalWindow | isa::kConstWindow | isa::kParamWindow) %
                      isa::kWindowSize ==
                  0,
              "windows are aligned to their size");

namespace {

#define WF_INLINE [[gnu::always_inline]] inline
#define WF_LAMBDA_INLINE __attribute__((always_inline))

using isa::Opcode;
namespace fld = isa::fields;

/// A modifier or operand field of the instruction (isa::getField, spelled out so that it always
/// inlines to a shift and a mask).
WF_INLINE uint32_t get(const DecodedInst &in, isa::Field f) {
  return uint32_t((in.word >> f.lo) & ((uint64_t(1) << f.width) - 1));
}

inline unsigned firstLane(uint32_t m) { return unsigned(std::countr_zero(m)); }

/// Writes t into d for the lanes of exec.
[[gnu::always_inline]] inline void blend(uint32_t exec, uint32_t *__restrict d,
                                         const uint32_t *__restrict t) {
  if (exec == kAllLanes) {
    std::memcpy(d, t, kWarpSize * sizeof(uint32_t));
    return;
  }
  for (unsigned l = 0; l < kWarpSize; ++l)
    d[l] = ((exec >> l) & 1) ? t[l] : d[l];
}

/// d = f(lane) for the lanes of exec; f runs for every lane, so it must be cheap and pure.
template <class F> [[gnu::always_inline]] inline void lanes(uint32_t exec, uint32_t *d, F f) {
  alignas(64) uint32_t t[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l)
    t[l] = f(l);
  blend(exec, d, t);
}

/// The pair at `d` = f(lane) for the lanes of exec (f pure and cheap).
template <class F> [[gnu::always_inline]] inline void lanes64(uint32_t exec, uint32_t *d, F f) {
  alignas(64) uint32_t lo[kWarpSize], hi[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l) {
    uint64_t v = f(l);
    lo[l] = uint32_t(v);
    hi[l] = uint32_t(v >> 32);
  }
  blend(exec, d, lo);
  blend(exec, d + kWarpSize, hi);
}

/// d = f(lane) for the lanes of exec only, in lane order (costly or partial functions).
template <class F> inline void active(uint32_t exec, uint32_t *d, F f) {
  alignas(64) uint32_t t[kWarpSize];
  for (uint32_t m = exec; m; m &= m - 1)
    t[firstLane(m)] = f(firstLane(m));
  for (uint32_t m = exec; m; m &= m - 1)
    d[firstLane(m)] = t[firstLane(m)];
}

template <class F> inline void active64(uint32_t exec, uint32_t *d, F f) {
  alignas(64) uint64_t t[kWarpSize];
  for (uint32_t m = exec; m; m &= m - 1)
    t[firstLane(m)] = f(firstLane(m));
  for (uint32_t m = exec; m; m &= m - 1) {
    unsigned l = firstLane(m);
    d[l] = uint32_t(t[l]);
    d[l + kWarpSize] = uint32_t(t[l] >> 32);
  }
}

/// Bit l = cond(l), for every lane. The conditions are computed as bytes (a loop that
/// vectorizes), then each group of eight bytes of 0/1 becomes eight bits with one multiply.
template <class F> [[gnu::always_inline]] inline uint32_t laneMask(F cond) {
  alignas(32) uint8_t bytes[kWarpSize];
  for (unsigned l = 0; l < kWarpSize; ++l)
    bytes[l] = bool(cond(l));
  uint32_t m = 0;
  for (unsigned k = 0; k < kWarpSize / 8; ++k) {
    uint64_t eight;
    std::memcpy(&eight, bytes + 8 * k, 8);
    m |= uint32_t((eight * 0x0102040810204080ull) >> 56) << (8 * k);
  }
  return m;
}

WF_INLINE uint64_t pairAt(const uint32_t *row, unsigned l) {
  return uint64_t(row[l]) | (uint64_t(row[l + kWarpSize]) << 32);
}

inline void writePred(uint32_t *P, unsigned pd, uint32_t exec, uint32_t value) {
  P[pd] = (P[pd] & ~exec) | (value & exec);
}

inline bool boolOp(isa::BoolOp op, bool a, bool b) {
  switch (op) {
  case isa::BoolOp::AND:
    return a && b;
  case isa::BoolOp::OR:
    return a || b;
  default:
    return a != b;
  }
}

/// BoolOp on whole lane masks.
inline uint32_t boolOpMask(isa::BoolOp op, uint32_t a, uint32_t b) {
  switch (op) {
  case isa::BoolOp::AND:
    return a & b;
  case isa::BoolOp::OR:
    return a | b;
  default:
    return a ^ b;
  }
}

inline hls::RoundMode rnd(uint32_t v) { return hls::RoundMode(v & 3); }

constexpr uint32_t kSign32 = 0x80000000u;
constexpr uint64_t kSign64 = 0x8000000000000000ull;

/// Sign-bit operand modifiers: x' = (x & andMask) ^ xorMask.
struct SignMods32 {
  uint32_t andMask = ~0u, xorMask = 0;
  SignMods32(bool abs, bool neg) : andMask(abs ? ~kSign32 : ~0u), xorMask(neg ? kSign32 : 0) {}
  uint32_t operator()(uint32_t x) const { return (x & andMask) ^ xorMask; }
};
struct SignMods64 {
  uint64_t andMask = ~0ull, xorMask = 0;
  SignMods64(bool abs, bool neg) : andMask(abs ? ~kSign64 : ~0ull), xorMask(neg ? kSign64 : 0) {}
  uint64_t operator()(uint64_t x) const { return (x & andMask) ^ xorMask; }
};

inline uint32_t satLanes32(uint32_t exec, uint32_t *d) {
  for (uint32_t m = exec; m; m &= m - 1)
    d[firstLane(m)] = hls::fsat32(d[firstLane(m)]);
  return 0;
}

// --- memory ---------------------------------------------------------------------------------

enum class MemSpace : uint8_t { Global, Shared, Local, Const, Param };

/// What a warp's memory instructions see.
struct MemCtx {
  uint8_t *global;
  uint64_t globalSize;
  uint8_t *shared;
  uint32_t sharedSize;
  uint8_t *local; ///< the block's local memory: thread t at t * localBytes
  uint32_t localBytes;
  uint64_t constBase;
  uint32_t constSize;
  const uint8_t *params;
  uint32_t paramSize;
  uint32_t firstThread; ///< linear index of lane 0's thread
};

/// A resolved access: host pointer, or a fault description.
struct Access {
  uint8_t *host = nullptr;
  MemSpace space = MemSpace::Global;
  uint64_t offset = 0; ///< offset in the space (trace address for non-global spaces)
  FaultKind fault = FaultKind::None;
};

WF_INLINE Access checkRange(MemSpace space, uint8_t *base, uint64_t size, uint64_t offset,
                            unsigned bytes, uint64_t addr) {
  Access a;
  a.space = space;
  a.offset = space == MemSpace::Global ? addr : offset;
  if (addr & (bytes - 1)) {
    a.fault = FaultKind::Misaligned;
    return a;
  }
  if (offset >= size || size - offset < bytes) {
    a.fault = FaultKind::OutOfBounds;
    return a;
  }
  a.host = base + offset;
  return a;
}

WF_INLINE Access accessGlobal(const MemCtx &m, uint64_t addr, unsigned bytes) {
  return checkRange(MemSpace::Global, m.global, m.globalSize, addr - isa::kGlobalBase, bytes, addr);
}
WF_INLINE Access accessShared(const MemCtx &m, uint32_t offset, unsigned bytes) {
  return checkRange(MemSpace::Shared, m.shared, m.sharedSize, offset, bytes, offset);
}
WF_INLINE Access accessLocal(const MemCtx &m, unsigned lane, uint32_t offset, unsigned bytes) {
  uint8_t *base = m.local + size_t(m.firstThread + lane) * m.localBytes;
  return checkRange(MemSpace::Local, base, m.localBytes, offset, bytes, offset);
}
WF_INLINE Access accessConst(const MemCtx &m, uint32_t offset, unsigned bytes) {
  // The constant segment lives in global memory; the launch checked that it lies inside.
  uint8_t *base = m.global + (m.constBase - isa::kGlobalBase);
  return checkRange(MemSpace::Const, base, m.constSize, offset, bytes, offset);
}
WF_INLINE Access accessParam(const MemCtx &m, uint32_t offset, unsigned bytes) {
  return checkRange(MemSpace::Param, const_cast<uint8_t *>(m.params), m.paramSize, offset, bytes,
                    offset);
}

/// Generic address: the windows of isa's memory map, everything else global.
WF_INLINE Access accessGeneric(const MemCtx &m, unsigned lane, uint64_t addr, unsigned bytes) {
  uint64_t window = addr & ~(isa::kWindowSize - 1);
  uint32_t offset = uint32_t(addr);
  if (window == isa::kSharedWindow)
    return accessShared(m, offset, bytes);
  if (window == isa::kLocalWindow)
    return accessLocal(m, lane, offset, bytes);
  if (window == isa::kConstWindow)
    return accessConst(m, offset, bytes);
  if (window == isa::kParamWindow)
    return accessParam(m, offset, bytes);
  return accessGlobal(m, addr, bytes);
}

inline uint64_t windowBase(isa::Space space) {
  switch (space) {
  case isa::Space::SHARED:
    return isa::kSharedWindow;
  case isa::Space::LOCAL:
    return isa::kLocalWindow;
  case isa::Space::CONST:
    return isa::kConstWindow;
  case isa::Space::PARAM:
    return isa::kParamWindow;
  default:
    return 0;
  }
}

inline bool inWindow(isa::Space space, uint64_t addr) {
  uint64_t window = addr & ~(isa::kWindowSize - 1);
  if (space == isa::Space::GLOBAL)
    return window != isa::kSharedWindow && window != isa::kLocalWindow &&
           window != isa::kConstWindow && window != isa::kParamWindow;
  return window == windowBase(space);
}

/// Loaded bytes to register words (sign- or zero-extended below 32 bits).
WF_INLINE void loadWords(const uint8_t *src, isa::MemSize size, uint32_t *words) {
  switch (size) {
  case isa::MemSize::U8:
    words[0] = src[0];
    break;
  case isa::MemSize::S8:
    words[0] = uint32_t(int32_t(int8_t(src[0])));
    break;
  case isa::MemSize::U16: {
    uint16_t v;
    std::memcpy(&v, src, 2);
    words[0] = v;
    break;
  }
  case isa::MemSize::S16: {
    int16_t v;
    std::memcpy(&v, src, 2);
    words[0] = uint32_t(int32_t(v));
    break;
  }
  case isa::MemSize::B32:
    std::memcpy(words, src, 4);
    break;
  case isa::MemSize::B64:
    std::memcpy(words, src, 8);
    break;
  default:
    std::memcpy(words, src, 16);
    break;
  }
}

/// Register words to the bytes of a store.
WF_INLINE void storeBytes(uint8_t *dst, const uint32_t *words, unsigned bytes) {
  switch (bytes) {
  case 1:
    std::memcpy(dst, words, 1);
    break;
  case 2:
    std::memcpy(dst, words, 2);
    break;
  case 4:
    std::memcpy(dst, words, 4);
    break;
  case 8:
    std::memcpy(dst, words, 8);
    break;
  default:
    std::memcpy(dst, words, 16);
    break;
  }
}

// --- atomics -----------------------------------------------------------------------------------

/// The value an atomic writes: hls's definition (the L2 bank's RTL is checked against it).
template <class T> T atomNew(isa::AtomOp fn, isa::AtomType ty, T old, T b, T c) {
  return hls::atomNew<T>(hls::AtomOp(fn), hls::AtomType(ty), old, b, c);
}

/// One lane's read-modify-write; global memory may be shared with other host threads.
template <class T>
T atomRmw(uint8_t *p, bool shared, isa::AtomOp fn, isa::AtomType ty, T b, T c, T &stored) {
  if (!shared) {
    T old;
    std::memcpy(&old, p, sizeof(T));
    stored = atomNew(fn, ty, old, b, c);
    std::memcpy(p, &stored, sizeof(T));
    return old;
  }
  std::atomic_ref<T> ref(*reinterpret_cast<T *>(p));
  T old = ref.load(std::memory_order_relaxed);
  do {
    stored = atomNew(fn, ty, old, b, c);
  } while (!ref.compare_exchange_weak(old, stored, std::memory_order_seq_cst,
                                      std::memory_order_relaxed));
  return old;
}

/// What S2R reads besides the lane number.
struct SpecialContext {
  const LaunchDesc &desc;
  const isa::Config &config;
  Dim3 block;
  uint32_t warp, slot, core, activeMask;
  uint64_t now; ///< device cycle counter at this instruction
};

/// The value of special register `sr` for every lane (low words in lo, high words of 64-bit
/// registers in hi); returns the number of words.
[[gnu::noinline]] unsigned specialRegister(isa::SReg sr, const SpecialContext &c, uint32_t *lo,
                                           uint32_t *hi) {
  auto fill = [&](uint32_t v) {
    for (unsigned l = 0; l < kWarpSize; ++l)
      lo[l] = v;
    return 1u;
  };
  auto fill64 = [&](uint64_t v) {
    for (unsigned l = 0; l < kWarpSize; ++l) {
      lo[l] = uint32_t(v);
      hi[l] = uint32_t(v >> 32);
    }
    return 2u;
  };
  const Dim3 &nt = c.desc.block;
  const uint32_t first = c.warp * kWarpSize;
  switch (sr) {
  case isa::SReg::TID_X:
  case isa::SReg::TID_Y:
  case isa::SReg::TID_Z: {
    // Step through the lanes' coordinates instead of dividing per lane.
    uint32_t t = first;
    uint32_t x = t % nt.x, y = (t / nt.x) % nt.y, z = t / (nt.x * nt.y);
    for (unsigned l = 0; l < kWarpSize; ++l) {
      lo[l] = sr == isa::SReg::TID_X ? x : sr == isa::SReg::TID_Y ? y : z;
      if (++x == nt.x) {
        x = 0;
        if (++y == nt.y) {
          y = 0;
          ++z;
        }
      }
    }
    return 1;
  }
  case isa::SReg::NTID_X:
    return fill(nt.x);
  case isa::SReg::NTID_Y:
    return fill(nt.y);
  case isa::SReg::NTID_Z:
    return fill(nt.z);
  case isa::SReg::CTAID_X:
    return fill(c.block.x);
  case isa::SReg::CTAID_Y:
    return fill(c.block.y);
  case isa::SReg::CTAID_Z:
    return fill(c.block.z);
  case isa::SReg::NCTAID_X:
    return fill(c.desc.grid.x);
  case isa::SReg::NCTAID_Y:
    return fill(c.desc.grid.y);
  case isa::SReg::NCTAID_Z:
    return fill(c.desc.grid.z);
  case isa::SReg::LANEID:
    for (unsigned l = 0; l < kWarpSize; ++l)
      lo[l] = l;
    return 1;
  case isa::SReg::WARPID:
    return fill(c.slot);
  case isa::SReg::NWARPID:
    return fill(c.config.warpsPerCore);
  case isa::SReg::SMID:
    return fill(c.core);
  case isa::SReg::NSMID:
    return fill(c.config.cores);
  case isa::SReg::GRIDID:
    return fill64(c.desc.gridId);
  case isa::SReg::CLOCK:
    return fill(uint32_t(c.now));
  case isa::SReg::CLOCK64:
    return fill64(c.now);
  case isa::SReg::GLOBALTIMER:
    return fill64(c.now * 1000 / c.config.clockMhz);
  case isa::SReg::LANEMASK_EQ:
    for (unsigned l = 0; l < kWarpSize; ++l)
      lo[l] = 1u << l;
    return 1;
  case isa::SReg::LANEMASK_LT:
    for (unsigned l = 0; l < kWarpSize; ++l)
      lo[l] = (1u << l) - 1;
    return 1;
  case isa::SReg::LANEMASK_LE:
    for (unsigned l = 0; l < kWarpSize; ++l)
      lo[l] = uint32_t((2ull << l) - 1);
    return 1;
  case isa::SReg::LANEMASK_GT:
    for (unsigned l = 0; l < kWarpSize; ++l)
      lo[l] = ~uint32_t((2ull << l) - 1);
    return 1;
  case isa::SReg::LANEMASK_GE:
    for (unsigned l = 0; l < kWarpSize; ++l)
      lo[l] = ~((1u << l) - 1);
    return 1;
  case isa::SReg::DYNSMEM:
    return fill(c.desc.sharedDynamic);
  case isa::SReg::TOTALSMEM:
    return fill(c.desc.sharedStatic + c.desc.sharedDynamic);
  case isa::SReg::ACTIVEMASK:
    return fill(c.activeMask);
  case isa::SReg::LOCALSIZE:
    return fill(c.desc.localBytes);
  case isa::SReg::RTBUF:
    return fill64(c.desc.rtbuf);
  }
  return fill(0);
}

// --- the interpreter ---------------------------------------------------------------------------

template <bool kTrace>
[[gnu::always_inline]] inline StopReason runWarpImpl(Launch &L, Core &core, Warp &w,
                                                     uint32_t budget, PendingFault &fault) {
  const DecodedInst *const code = L.program.insts.data();
  const uint32_t codeSize = L.program.codeSize;
  const LaunchDesc &desc = L.desc;
  uint32_t *const R = w.regs;
  uint32_t *const P = w.preds;
  Block &blk = *w.block;
  // The instrumented instantiation records commits and/or counts executions per instruction.
  CommitRecorder *const tr = kTrace ? L.recorder.get() : nullptr;
  uint64_t *const profile = kTrace ? L.options.pcProfile : nullptr;
  const MemCtx mem{L.global,           L.globalSize,
                   blk.shared.data(),  uint32_t(blk.shared.size()),
                   blk.local.data(),   desc.localBytes,
                   desc.constBase,     desc.constSize,
                   desc.params.data(), uint32_t(desc.params.size()),
                   w.index * kWarpSize};
  const bool concurrent = L.cores.size() > 1 && L.options.hostThreads > 1;

  // A warp whose group waits or exited resumes with its lowest-pc runnable lanes.
  if (w.group == 0 && !w.pickGroup())
    return w.exited == kAllLanes ? StopReason::Finished : StopReason::Idle;
  uint32_t mask = w.group;
  uint32_t pc = w.groupPc;
  uint64_t cycle = core.cycle;
  uint64_t warpInsts = 0, threadInsts = 0;
  StopReason reason = StopReason::Slice;
  auto row = [R](unsigned r) { return R + size_t(r) * kWarpSize; };

  // Faults: the lane reported is the first lane of `lanes`; the pc is filled in at `faulted`.
  // (These capture nothing of the loop state, which therefore stays in registers.)
  using D = isa::dev::FaultDetail;
  auto raise = [&fault](FaultKind kind, uint32_t lanes, FaultDetail detail, uint64_t address = 0,
                        uint32_t code = 0) {
    fault.kind = kind;
    fault.lane = lanes ? firstLane(lanes) : 0;
    fault.address = address;
    fault.code = code;
    fault.detail = detail;
  };
  // Memory faults name the space, the direction and the size (isa/device.toml's fault details).
  auto memDetail = [](D code, MemSpace space, bool write, unsigned bytes) {
    FaultDetail d(code);
    d.space = uint8_t(space); // MemSpace follows isa.toml's Space
    d.write = write;
    d.size = bytes;
    return d;
  };
  auto memFault = [&raise, &memDetail](const Access &a, unsigned lane, uint64_t addr,
                                       unsigned bytes, bool write) {
    raise(a.fault, 1u << lane,
          memDetail(a.fault == FaultKind::Misaligned ? D::MisalignedAccess : D::OutsideSpace,
                    a.space, write, bytes),
          addr);
  };
  auto badPc = [&raise](uint32_t lanes, uint32_t target) {
    raise(FaultKind::IllegalInstruction, lanes, {D::BadJump, target});
  };

  while (warpInsts < budget) {
    const DecodedInst &in = code[pc / isa::kInstBytes];
    const uint32_t exec = mask & (P[in.guard] ^ in.guardXor);
    ++warpInsts;
    threadInsts += unsigned(std::popcount(mask));
    cycle += L.passes;
    uint32_t next = pc + isa::kInstBytes;
    bool endSlice = false;
    if constexpr (kTrace) {
      if (profile)
        ++profile[pc / isa::kInstBytes];
      if (tr)
        tr->begin(w, pc, mask, exec, in);
    }

    uint32_t *const d = row(in.rd);
    const uint32_t *const a = row(in.ra);
    const uint32_t *const b = row(in.rb);
    const uint32_t *const c = row(in.rc);

    switch (in.op) {
    // --- integer and logic ---
    case uint8_t(Opcode::NOP):
      break;
    case uint8_t(Opcode::MOV):
      lanes(exec, d, [&](unsigned l) { return a[l]; });
      break;
    case uint8_t(Opcode::MOV32I):
    case uint8_t(Opcode::LEAPC): {
      const uint32_t imm = in.imm;
      lanes(exec, d, [&](unsigned) { return imm; });
      break;
    }
    case uint8_t(Opcode::SEL): {
      const uint32_t sel = P[in.pc] ^ in.pcXor;
      lanes(exec, d, [&](unsigned l) { return ((sel >> l) & 1) ? a[l] : b[l]; });
      break;
    }
    case uint8_t(Opcode::IADD): {
      const bool invb = get(in, fld::IADD::invb), x = get(in, fld::IADD::x);
      if (!invb && !x && in.pd == kPredDiscard) {
        lanes(exec, d, [&](unsigned l) { return hls::addc32(a[l], b[l], false).value; });
        break;
      }
      const uint32_t bx = invb ? ~0u : 0u;
      const uint32_t cinMask = x ? (P[in.pc] ^ in.pcXor) : (invb ? ~0u : 0u);
      alignas(64) uint32_t sum[kWarpSize];
      uint32_t carry = 0;
      for (unsigned l = 0; l < kWarpSize; ++l) {
        hls::CarryResult32 r = hls::addc32(a[l], b[l] ^ bx, (cinMask >> l) & 1);
        sum[l] = r.value;
        carry |= uint32_t(r.carry) << l;
      }
      blend(exec, d, sum);
      writePred(P, in.pd, exec, carry);
      break;
    }
    case uint8_t(Opcode::IADD_I): {
      const uint32_t imm = in.imm;
      lanes(exec, d, [&](unsigned l) { return hls::addc32(a[l], imm, false).value; });
      break;
    }
    case uint8_t(Opcode::IMNMX):
    case uint8_t(Opcode::IMNMX_I): {
      bool isImm = in.op == uint8_t(Opcode::IMNMX_I);
      bool isMax = isImm ? get(in, fld::IMNMX_I::fn) : get(in, fld::IMNMX::fn);
      bool isUnsigned = isImm ? get(in, fld::IMNMX_I::ty) : get(in, fld::IMNMX::ty);
      const uint32_t imm = in.imm;
      const bool isSigned = !isUnsigned;
      auto bv = [&](unsigned l) { return isImm ? imm : b[l]; };
      if (isMax)
        lanes(exec, d, [&](unsigned l) { return hls::imax32(a[l], bv(l), isSigned); });
      else
        lanes(exec, d, [&](unsigned l) { return hls::imin32(a[l], bv(l), isSigned); });
      break;
    }
    case uint8_t(Opcode::IABS):
      lanes(exec, d, [&](unsigned l) { return hls::iabs32(a[l]); });
      break;
    case uint8_t(Opcode::SHL):
      lanes(exec, d, [&](unsigned l) { return hls::shl32(a[l], b[l]); });
      break;
    case uint8_t(Opcode::SHL_I): {
      const uint32_t n = in.imm;
      lanes(exec, d, [&](unsigned l) { return hls::shl32(a[l], n); });
      break;
    }
    case uint8_t(Opcode::SHR):
    case uint8_t(Opcode::SHR_I): {
      bool isImm = in.op == uint8_t(Opcode::SHR_I);
      bool isUnsigned = isImm ? get(in, fld::SHR_I::ty) : get(in, fld::SHR::ty);
      const uint32_t imm = in.imm;
      if (isUnsigned)
        lanes(exec, d, [&](unsigned l) { return hls::shr32(a[l], isImm ? imm : b[l], false); });
      else
        lanes(exec, d, [&](unsigned l) { return hls::shr32(a[l], isImm ? imm : b[l], true); });
      break;
    }
    case uint8_t(Opcode::SHF): {
      bool right = isa::ShfDir(get(in, fld::SHF::dir)) == isa::ShfDir::R;
      bool wrap = isa::ShfMode(get(in, fld::SHF::mode)) == isa::ShfMode::WRAP;
      lanes(exec, d, [&](unsigned l) { return hls::shf32(a[l], b[l], c[l], right, wrap); });
      break;
    }
    case uint8_t(Opcode::LOP3): {
      const uint8_t lut = uint8_t(get(in, fld::LOP3::lut));
      lanes(exec, d, [&](unsigned l) { return hls::lop3(a[l], b[l], c[l], lut); });
      break;
    }
    case uint8_t(Opcode::LOP_I): {
      const uint32_t imm = in.imm;
      switch (isa::LogicOp(get(in, fld::LOP_I::fn))) {
      case isa::LogicOp::AND:
        lanes(exec, d, [&](unsigned l) { return a[l] & imm; });
        break;
      case isa::LogicOp::OR:
        lanes(exec, d, [&](unsigned l) { return a[l] | imm; });
        break;
      default:
        lanes(exec, d, [&](unsigned l) { return a[l] ^ imm; });
        break;
      }
      break;
    }
    case uint8_t(Opcode::POPC):
      lanes(exec, d, [&](unsigned l) { return hls::popc32(a[l]); });
      break;
    case uint8_t(Opcode::CLZ):
      lanes(exec, d, [&](unsigned l) { return hls::clz32(a[l]); });
      break;
    case uint8_t(Opcode::BREV):
      lanes(exec, d, [&](unsigned l) { return hls::brev32(a[l]); });
      break;
    case uint8_t(Opcode::BFIND): {
      bool isSigned = isa::ITy32(get(in, fld::BFIND::ty)) == isa::ITy32::S32;
      bool shiftAmount = get(in, fld::BFIND::shiftamt);
      lanes(exec, d, [&](unsigned l) { return hls::bfind32(a[l], isSigned, shiftAmount); });
      break;
    }
    case uint8_t(Opcode::BFE): {
      bool isSigned = isa::ITy32(get(in, fld::BFE::ty)) == isa::ITy32::S32;
      active(exec, d, [&](unsigned l) {
        return hls::bfe32(a[l], b[l] & 0xff, (b[l] >> 8) & 0xff, isSigned);
      });
      break;
    }
    case uint8_t(Opcode::BFI):
      active(exec, d,
             [&](unsigned l) { return hls::bfi32(a[l], b[l], c[l] & 0xff, (c[l] >> 8) & 0xff); });
      break;
    case uint8_t(Opcode::PRMT): {
      auto mode = hls::PrmtMode(get(in, fld::PRMT::mode));
      active(exec, d, [&](unsigned l) { return hls::prmt32(a[l], b[l], c[l], mode); });
      break;
    }
    case uint8_t(Opcode::ISETP): {
      auto cmp = hls::ICmp(get(in, fld::ISETP::cmp));
      auto ty = isa::ITy(get(in, fld::ISETP::ty));
      auto bop = isa::BoolOp(get(in, fld::ISETP::bop));
      bool isSigned = ty == isa::ITy::S32 || ty == isa::ITy::S64;
      uint32_t r;
      if (ty == isa::ITy::S32 || ty == isa::ITy::U32)
        r = laneMask([&](unsigned l) { return hls::icmp32(a[l], b[l], cmp, isSigned); });
      else
        r = laneMask(
            [&](unsigned l) { return hls::icmp64(pairAt(a, l), pairAt(b, l), cmp, isSigned); });
      writePred(P, in.pd, exec, boolOpMask(bop, r, P[in.pc] ^ in.pcXor));
      break;
    }
    case uint8_t(Opcode::ISETP_I): {
      auto cmp = hls::ICmp(get(in, fld::ISETP_I::cmp));
      bool isSigned = isa::ITy32(get(in, fld::ISETP_I::ty)) == isa::ITy32::S32;
      const uint32_t imm = in.imm;
      writePred(P, in.pd, exec,
                laneMask([&](unsigned l) { return hls::icmp32(a[l], imm, cmp, isSigned); }));
      break;
    }
    case uint8_t(Opcode::PLOP3): {
      // The truth table applies bitwise, so one call combines all 32 lanes.
      uint32_t r = hls::lop3(P[in.pa] ^ in.paXor, P[in.pb] ^ in.pbXor, P[in.pc] ^ in.pcXor,
                             uint8_t(get(in, fld::PLOP3::lut)));
      writePred(P, in.pd, exec, r);
      break;
    }
    case uint8_t(Opcode::P2R): {
      const uint32_t p = P[in.pa] ^ in.paXor;
      lanes(exec, d, [&](unsigned l) { return (p >> l) & 1; });
      break;
    }
    case uint8_t(Opcode::S2R): {
      alignas(64) uint32_t lo[kWarpSize], hi[kWarpSize];
      SpecialContext ctx{desc,   L.config, blk.idx, w.index,
                         w.slot, core.id,  mask,    L.startCycle + cycle};
      const auto sr = isa::SReg(get(in, fld::S2R::sr));
      unsigned words = specialRegister(sr, ctx, lo, hi);
      if constexpr (kTrace) {
        if (tr && isNondeterministic(sr)) {
          tr->injectSpecial(sr, exec, lo, words == 2 ? hi : nullptr);
          tr->special(sr, exec, lo, hi);
        }
      }
      blend(exec, d, lo);
      if (words == 2)
        blend(exec, d + kWarpSize, hi);
      break;
    }
    case uint8_t(Opcode::CVTA): {
      auto space = isa::Space(get(in, fld::CVTA::space));
      bool toGeneric = isa::CvtaDir(get(in, fld::CVTA::dir)) == isa::CvtaDir::TOGEN;
      if (space == isa::Space::GLOBAL) { // generic and global addresses coincide
        lanes64(exec, d, [&](unsigned l) { return pairAt(a, l); });
      } else if (toGeneric) {
        const uint64_t base = windowBase(space);
        lanes64(exec, d, [&](unsigned l) { return base + a[l]; });
      } else {
        lanes(exec, d, [&](unsigned l) { return a[l]; }); // the low word is the window offset
      }
      break;
    }
    case uint8_t(Opcode::ISSPACEP): {
      auto space = isa::Space(get(in, fld::ISSPACEP::space));
      writePred(P, in.pd, exec,
                laneMask([&](unsigned l) { return inWindow(space, pairAt(a, l)); }));
      break;
    }

    // --- integer multiply and divide ---
    case uint8_t(Opcode::IMUL):
      lanes(exec, d, [&](unsigned l) { return hls::mulLo32(a[l], b[l]); });
      break;
    case uint8_t(Opcode::IMUL_I): {
      const uint32_t imm = in.imm;
      lanes(exec, d, [&](unsigned l) { return hls::mulLo32(a[l], imm); });
      break;
    }
    case uint8_t(Opcode::IMULHI):
    case uint8_t(Opcode::IMADHI): {
      bool isSigned = isa::ITy32(get(in, fld::IMULHI::ty)) == isa::ITy32::S32;
      static_assert(fld::IMULHI::ty.lo == fld::IMADHI::ty.lo);
      bool add = in.op == uint8_t(Opcode::IMADHI);
      lanes(exec, d, [&](unsigned l) {
        return hls::addc32(hls::mulHi32(a[l], b[l], isSigned), add ? c[l] : 0u, false).value;
      });
      break;
    }
    case uint8_t(Opcode::IMULWIDE):
    case uint8_t(Opcode::IMADWIDE): {
      static_assert(fld::IMULWIDE::ty.lo == fld::IMADWIDE::ty.lo);
      bool isSigned = isa::ITy32(get(in, fld::IMULWIDE::ty)) == isa::ITy32::S32;
      bool add = in.op == uint8_t(Opcode::IMADWIDE);
      lanes64(exec, d, [&](unsigned l) {
        return hls::addc64(hls::mulWide32(a[l], b[l], isSigned), add ? pairAt(c, l) : 0ull, false)
            .value;
      });
      break;
    }
    case uint8_t(Opcode::IMAD):
      lanes(exec, d,
            [&](unsigned l) { return hls::addc32(hls::mulLo32(a[l], b[l]), c[l], false).value; });
      break;
    case uint8_t(Opcode::IDIV):
    case uint8_t(Opcode::IREM): {
      static_assert(fld::IDIV::ty.lo == fld::IREM::ty.lo);
      auto ty = isa::ITy(get(in, fld::IDIV::ty));
      bool isSigned = ty == isa::ITy::S32 || ty == isa::ITy::S64;
      bool wide = ty == isa::ITy::S64 || ty == isa::ITy::U64;
      bool rem = in.op == uint8_t(Opcode::IREM);
      auto op = [&](uint64_t x, uint64_t y) {
        unsigned bits = wide ? 64 : 32;
        return rem ? hls::irem(x, y, isSigned, bits) : hls::idiv(x, y, isSigned, bits);
      };
      if (wide)
        active64(exec, d, [&](unsigned l) { return op(pairAt(a, l), pairAt(b, l)); });
      else
        active(exec, d, [&](unsigned l) { return uint32_t(op(a[l], b[l])); });
      break;
    }

    // --- FP32 ---
    case uint8_t(Opcode::FADD):
    case uint8_t(Opcode::FMUL): {
      static_assert(fld::FADD::rnd.lo == fld::FMUL::rnd.lo &&
                    fld::FADD::absb.lo == fld::FMUL::absb.lo);
      auto rm = rnd(get(in, fld::FADD::rnd));
      bool ftz = get(in, fld::FADD::ftz);
      SignMods32 ma(get(in, fld::FADD::absa), get(in, fld::FADD::nega));
      SignMods32 mb(get(in, fld::FADD::absb), get(in, fld::FADD::negb));
      bool mul = in.op == uint8_t(Opcode::FMUL);
      if (arith::kHostFastPath && rm == hls::RoundMode::RN) {
        if (mul)
          lanes(exec, d, [&](unsigned l) { return arith::fmul32RN(ma(a[l]), mb(b[l]), ftz); });
        else
          lanes(exec, d, [&](unsigned l) { return arith::fadd32RN(ma(a[l]), mb(b[l]), ftz); });
      } else {
        active(exec, d, [&](unsigned l) {
          return mul ? hls::fmul32(ma(a[l]), mb(b[l]), rm, ftz)
                     : hls::fadd32(ma(a[l]), mb(b[l]), rm, ftz);
        });
      }
      if (get(in, fld::FADD::sat))
        satLanes32(exec, d);
      break;
    }
    case uint8_t(Opcode::FADD_I):
    case uint8_t(Opcode::FMUL_I): {
      static_assert(fld::FADD_I::ftz.lo == fld::FMUL_I::ftz.lo);
      bool ftz = get(in, fld::FADD_I::ftz);
      const uint32_t imm = in.imm;
      if (in.op == uint8_t(Opcode::FMUL_I))
        lanes(exec, d,
              [&](unsigned l) { return arith::fmul32(a[l], imm, hls::RoundMode::RN, ftz); });
      else
        lanes(exec, d,
              [&](unsigned l) { return arith::fadd32(a[l], imm, hls::RoundMode::RN, ftz); });
      break;
    }
    case uint8_t(Opcode::FFMA): {
      auto rm = rnd(get(in, fld::FFMA::rnd));
      bool ftz = get(in, fld::FFMA::ftz);
      const uint32_t na = get(in, fld::FFMA::nega) ? kSign32 : 0;
      const uint32_t nb = get(in, fld::FFMA::negb) ? kSign32 : 0;
      const uint32_t nc = get(in, fld::FFMA::negc) ? kSign32 : 0;
      if (arith::kHostFastPath && rm == hls::RoundMode::RN) {
        if (ftz)
          lanes(exec, d,
                [&](unsigned l) { return arith::ffma32RN(a[l] ^ na, b[l] ^ nb, c[l] ^ nc, true); });
        else
          lanes(exec, d, [&](unsigned l) {
            return arith::ffma32RN(a[l] ^ na, b[l] ^ nb, c[l] ^ nc, false);
          });
      } else {
        active(exec, d,
               [&](unsigned l) { return hls::ffma32(a[l] ^ na, b[l] ^ nb, c[l] ^ nc, rm, ftz); });
      }
      if (get(in, fld::FFMA::sat))
        satLanes32(exec, d);
      break;
    }
    case uint8_t(Opcode::FMNMX): {
      bool isMax = isa::MinMax(get(in, fld::FMNMX::fn)) == isa::MinMax::MAX;
      bool ftz = get(in, fld::FMNMX::ftz), nan = get(in, fld::FMNMX::nan);
      active(exec, d, [&](unsigned l) {
        return isMax ? hls::fmax32(a[l], b[l], ftz, nan) : hls::fmin32(a[l], b[l], ftz, nan);
      });
      break;
    }
    case uint8_t(Opcode::FSETP): {
      auto cmp = hls::FCmp(get(in, fld::FSETP::cmp));
      bool ftz = get(in, fld::FSETP::ftz);
      auto bop = isa::BoolOp(get(in, fld::FSETP::bop));
      uint32_t r = laneMask([&](unsigned l) { return hls::fcmp32(a[l], b[l], cmp, ftz); });
      writePred(P, in.pd, exec, boolOpMask(bop, r, P[in.pc] ^ in.pcXor));
      break;
    }

    // --- conversions ---
    case uint8_t(Opcode::F2F): {
      auto dst = hls::FloatType(get(in, fld::F2F::dst));
      auto src = hls::FloatType(get(in, fld::F2F::src));
      uint32_t r = get(in, fld::F2F::rnd);
      bool integral = r >= uint32_t(isa::RndF::RNI);
      bool ftz = get(in, fld::F2F::ftz), sat = get(in, fld::F2F::sat);
      auto conv = [&](unsigned l) {
        uint64_t x = src == hls::FloatType::F64 ? pairAt(a, l) : a[l];
        if (src == hls::FloatType::F16 || src == hls::FloatType::BF16)
          x &= 0xffff;
        return hls::cvtFloatToFloat(x, src, dst, rnd(r), integral, ftz, sat);
      };
      if (dst == hls::FloatType::F64)
        active64(exec, d, conv);
      else
        active(exec, d, [&](unsigned l) { return uint32_t(conv(l)); });
      break;
    }
    case uint8_t(Opcode::F2I): {
      auto dst = hls::IntType(get(in, fld::F2I::dst));
      auto src = hls::FloatType(get(in, fld::F2I::src));
      auto rm = rnd(get(in, fld::F2I::rnd));
      bool ftz = get(in, fld::F2I::ftz);
      auto conv = [&](unsigned l) {
        uint64_t x = src == hls::FloatType::F64 ? pairAt(a, l) : a[l];
        if (src == hls::FloatType::F16 || src == hls::FloatType::BF16)
          x &= 0xffff;
        return hls::cvtFloatToInt(x, src, dst, rm, ftz);
      };
      if (hls::intTypeBits(dst) == 64)
        active64(exec, d, conv);
      else
        active(exec, d, [&](unsigned l) { return uint32_t(conv(l)); });
      break;
    }
    case uint8_t(Opcode::I2F): {
      auto dst = hls::FloatType(get(in, fld::I2F::dst));
      auto src = hls::IntType(get(in, fld::I2F::src));
      auto rm = rnd(get(in, fld::I2F::rnd));
      auto conv = [&](unsigned l) {
        uint64_t x = hls::intTypeBits(src) == 64 ? pairAt(a, l) : a[l];
        return hls::cvtIntToFloat(x, src, dst, rm);
      };
      if (dst == hls::FloatType::F64)
        active64(exec, d, conv);
      else
        active(exec, d, [&](unsigned l) { return uint32_t(conv(l)); });
      break;
    }
    case uint8_t(Opcode::I2I): {
      auto dst = hls::IntType(get(in, fld::I2I::dst));
      auto src = hls::IntType(get(in, fld::I2I::src));
      bool sat = get(in, fld::I2I::sat);
      auto conv = [&](unsigned l) {
        uint64_t x = hls::intTypeBits(src) == 64 ? pairAt(a, l) : a[l];
        return hls::cvtIntToInt(x, src, dst, sat);
      };
      if (hls::intTypeBits(dst) == 64)
        active64(exec, d, conv);
      else
        active(exec, d, [&](unsigned l) { return uint32_t(conv(l)); });
      break;
    }

    // --- FP64 ---
    case uint8_t(Opcode::DADD):
    case uint8_t(Opcode::DMUL): {
      static_assert(fld::DADD::rnd.lo == fld::DMUL::rnd.lo &&
                    fld::DADD::absb.lo == fld::DMUL::absb.lo);
      auto rm = rnd(get(in, fld::DADD::rnd));
      SignMods64 ma(get(in, fld::DADD::absa), get(in, fld::DADD::nega));
      SignMods64 mb(get(in, fld::DADD::absb), get(in, fld::DADD::negb));
      bool mul = in.op == uint8_t(Opcode::DMUL);
      active64(exec, d, [&](unsigned l) {
        uint64_t x = ma(pairAt(a, l)), y = mb(pairAt(b, l));
        return mul ? arith::fmul64(x, y, rm) : arith::fadd64(x, y, rm);
      });
      break;
    }
    case uint8_t(Opcode::DFMA): {
      auto rm = rnd(get(in, fld::DFMA::rnd));
      const uint64_t na = get(in, fld::DFMA::nega) ? kSign64 : 0;
      const uint64_t nb = get(in, fld::DFMA::negb) ? kSign64 : 0;
      const uint64_t nc = get(in, fld::DFMA::negc) ? kSign64 : 0;
      active64(exec, d, [&](unsigned l) {
        return arith::ffma64(pairAt(a, l) ^ na, pairAt(b, l) ^ nb, pairAt(c, l) ^ nc, rm);
      });
      break;
    }
    case uint8_t(Opcode::DMNMX): {
      bool isMax = isa::MinMax(get(in, fld::DMNMX::fn)) == isa::MinMax::MAX;
      bool nan = get(in, fld::DMNMX::nan);
      active64(exec, d, [&](unsigned l) {
        return isMax ? hls::fmax64(pairAt(a, l), pairAt(b, l), nan)
                     : hls::fmin64(pairAt(a, l), pairAt(b, l), nan);
      });
      break;
    }
    case uint8_t(Opcode::DSETP): {
      auto cmp = hls::FCmp(get(in, fld::DSETP::cmp));
      auto bop = isa::BoolOp(get(in, fld::DSETP::bop));
      uint32_t r = 0;
      for (uint32_t m = exec; m; m &= m - 1) {
        unsigned l = firstLane(m);
        r |= uint32_t(hls::fcmp64(pairAt(a, l), pairAt(b, l), cmp)) << l;
      }
      writePred(P, in.pd, exec, boolOpMask(bop, r, P[in.pc] ^ in.pcXor));
      break;
    }

    // --- divide, square root, special functions ---
    case uint8_t(Opcode::FDIV): {
      auto rm = rnd(get(in, fld::FDIV::rnd));
      bool ftz = get(in, fld::FDIV::ftz);
      active(exec, d, [&](unsigned l) { return arith::fdiv32(a[l], b[l], rm, ftz); });
      break;
    }
    case uint8_t(Opcode::FSQRT): {
      auto rm = rnd(get(in, fld::FSQRT::rnd));
      bool ftz = get(in, fld::FSQRT::ftz);
      active(exec, d, [&](unsigned l) { return arith::fsqrt32(a[l], rm, ftz); });
      break;
    }
    case uint8_t(Opcode::DDIV): {
      auto rm = rnd(get(in, fld::DDIV::rnd));
      active64(exec, d, [&](unsigned l) { return arith::fdiv64(pairAt(a, l), pairAt(b, l), rm); });
      break;
    }
    case uint8_t(Opcode::DSQRT): {
      auto rm = rnd(get(in, fld::DSQRT::rnd));
      active64(exec, d, [&](unsigned l) { return arith::fsqrt64(pairAt(a, l), rm); });
      break;
    }
    case uint8_t(Opcode::MUFU): {
      auto fn = hls::SfuOp(get(in, fld::MUFU::fn));
      bool ftz = get(in, fld::MUFU::ftz);
      active(exec, d, [&](unsigned l) { return hls::sfu32(fn, a[l], ftz); });
      break;
    }

    // --- memory ---
    case uint8_t(Opcode::LDG):
    case uint8_t(Opcode::LDS):
    case uint8_t(Opcode::LDL):
    case uint8_t(Opcode::LDC):
    case uint8_t(Opcode::LDP):
    case uint8_t(Opcode::LD): {
      const auto size = isa::MemSize(get(in, fld::LDG::size));
      const unsigned bytes = in.memBytes;
      const uint32_t off = in.imm;
      const uint64_t off64 = uint64_t(int64_t(int32_t(off)));
      // The bytes a lane loads: memory, or the reference's under injection; recorded.
      auto loaded = [&](unsigned l, const Access &acc) WF_LAMBDA_INLINE -> const uint8_t * {
        const uint8_t *src = acc.host;
        if constexpr (kTrace) {
          if (tr) {
            if (const uint8_t *injected = tr->injectedLoad(l, bytes))
              src = injected;
            tr->load(l, uint8_t(acc.space), acc.offset, bytes, src);
          }
        }
        return src;
      };
      // One loop per space, each lane in order: resolve, check, load.
      auto load = [&](auto address, auto resolve) WF_LAMBDA_INLINE -> bool {
        if (bytes <= 4) {
          alignas(64) uint32_t t[kWarpSize];
          for (uint32_t m = exec; m; m &= m - 1) {
            unsigned l = firstLane(m);
            uint64_t addr = address(l);
            Access acc = resolve(l, addr);
            if (acc.fault != FaultKind::None) [[unlikely]] {
              memFault(acc, l, addr, bytes, false);
              return false;
            }
            loadWords(loaded(l, acc), size, &t[l]);
          }
          for (uint32_t m = exec; m; m &= m - 1)
            d[firstLane(m)] = t[firstLane(m)];
          return true;
        }
        const unsigned words = bytes / 4;
        alignas(64) uint32_t t[4][kWarpSize];
        for (uint32_t m = exec; m; m &= m - 1) {
          unsigned l = firstLane(m);
          uint64_t addr = address(l);
          Access acc = resolve(l, addr);
          if (acc.fault != FaultKind::None) [[unlikely]] {
            memFault(acc, l, addr, bytes, false);
            return false;
          }
          uint32_t v[4];
          loadWords(loaded(l, acc), size, v);
          for (unsigned k = 0; k < words; ++k)
            t[k][l] = v[k];
        }
        for (unsigned k = 0; k < words; ++k)
          for (uint32_t m = exec; m; m &= m - 1)
            d[k * kWarpSize + firstLane(m)] = t[k][firstLane(m)];
        return true;
      };
      auto wide = [&](unsigned l) { return pairAt(a, l) + off64; };
      auto narrow = [&](unsigned l) { return uint64_t(uint32_t(a[l] + off)); };
      bool ok;
      switch (Opcode(in.op)) {
      case Opcode::LDG:
        ok = load(wide, [&](unsigned, uint64_t x) { return accessGlobal(mem, x, bytes); });
        break;
      case Opcode::LD:
        ok = load(wide, [&](unsigned l, uint64_t x) { return accessGeneric(mem, l, x, bytes); });
        break;
      case Opcode::LDS:
        ok = load(narrow,
                  [&](unsigned, uint64_t x) { return accessShared(mem, uint32_t(x), bytes); });
        break;
      case Opcode::LDL:
        ok = load(narrow,
                  [&](unsigned l, uint64_t x) { return accessLocal(mem, l, uint32_t(x), bytes); });
        break;
      case Opcode::LDC:
        ok = load(narrow,
                  [&](unsigned, uint64_t x) { return accessConst(mem, uint32_t(x), bytes); });
        break;
      default:
        ok = load(narrow,
                  [&](unsigned, uint64_t x) { return accessParam(mem, uint32_t(x), bytes); });
        break;
      }
      if (!ok)
        goto faulted;
      break;
    }
    case uint8_t(Opcode::STG):
    case uint8_t(Opcode::STS):
    case uint8_t(Opcode::STL):
    case uint8_t(Opcode::ST): {
      const unsigned bytes = in.memBytes;
      const uint32_t off = in.imm;
      const uint64_t off64 = uint64_t(int64_t(int32_t(off)));
      const uint32_t *src = row(in.rd);
      // Check every lane first (a faulting store writes nothing), then store in lane order.
      auto store = [&](auto address, auto resolve) WF_LAMBDA_INLINE -> bool {
        uint8_t *host[kWarpSize];
        for (uint32_t m = exec; m; m &= m - 1) {
          unsigned l = firstLane(m);
          uint64_t addr = address(l);
          Access acc = resolve(l, addr);
          if (acc.fault == FaultKind::None &&
              (acc.space == MemSpace::Const || acc.space == MemSpace::Param)) [[unlikely]] {
            raise(FaultKind::ReadOnlyWrite, 1u << l,
                  memDetail(D::ReadOnlyStore, acc.space, true, bytes), addr);
            return false;
          }
          if (acc.fault != FaultKind::None) [[unlikely]] {
            memFault(acc, l, addr, bytes, true);
            return false;
          }
          host[l] = acc.host;
          if (kTrace && tr) {
            uint32_t v[4];
            for (unsigned k = 0; k < 4; ++k)
              v[k] = src[k * kWarpSize + l];
            tr->store(l, uint8_t(acc.space), acc.offset, bytes, v);
          }
        }
        if (bytes <= 4) {
          for (uint32_t m = exec; m; m &= m - 1) {
            unsigned l = firstLane(m);
            storeBytes(host[l], &src[l], bytes);
          }
          return true;
        }
        for (uint32_t m = exec; m; m &= m - 1) {
          unsigned l = firstLane(m);
          uint32_t v[4];
          for (unsigned k = 0; k < 4; ++k)
            v[k] = src[k * kWarpSize + l];
          storeBytes(host[l], v, bytes);
        }
        return true;
      };
      auto wide = [&](unsigned l) { return pairAt(a, l) + off64; };
      auto narrow = [&](unsigned l) { return uint64_t(uint32_t(a[l] + off)); };
      bool ok;
      switch (Opcode(in.op)) {
      case Opcode::STG:
        ok = store(wide, [&](unsigned, uint64_t x) { return accessGlobal(mem, x, bytes); });
        break;
      case Opcode::ST:
        ok = store(wide, [&](unsigned l, uint64_t x) { return accessGeneric(mem, l, x, bytes); });
        break;
      case Opcode::STS:
        ok = store(narrow,
                   [&](unsigned, uint64_t x) { return accessShared(mem, uint32_t(x), bytes); });
        break;
      default:
        ok = store(narrow,
                   [&](unsigned l, uint64_t x) { return accessLocal(mem, l, uint32_t(x), bytes); });
        break;
      }
      if (!ok)
        goto faulted;
      break;
    }
    case uint8_t(Opcode::ATOM): {
      auto fn = isa::AtomOp(get(in, fld::ATOM::fn));
      auto ty = isa::AtomType(get(in, fld::ATOM::ty));
      auto space = isa::AtomSpace(get(in, fld::ATOM::space));
      const unsigned bytes = in.memBytes;
      Access accs[kWarpSize];
      for (uint32_t m = exec; m; m &= m - 1) {
        unsigned l = firstLane(m);
        uint64_t addr = space == isa::AtomSpace::SHARED ? a[l] : pairAt(a, l);
        Access &acc = accs[l];
        if (space == isa::AtomSpace::SHARED)
          acc = accessShared(mem, uint32_t(addr), bytes);
        else if (space == isa::AtomSpace::GLOBAL)
          acc = accessGlobal(mem, addr, bytes);
        else
          acc = accessGeneric(mem, l, addr, bytes);
        if (acc.fault != FaultKind::None) [[unlikely]] {
          memFault(acc, l, addr, bytes, true);
          goto faulted;
        }
        if (acc.space == MemSpace::Const || acc.space == MemSpace::Param) {
          raise(FaultKind::ReadOnlyWrite, 1u << l,
                memDetail(D::ReadOnlyAtomic, acc.space, true, bytes), addr);
          goto faulted;
        }
      }
      // Lane order, one lane at a time: contention gives some serial order.
      alignas(64) uint64_t old[kWarpSize];
      for (uint32_t m = exec; m; m &= m - 1) {
        unsigned l = firstLane(m);
        bool sharedWithOthers = concurrent && accs[l].space == MemSpace::Global;
        // Under injection the old value is the reference's and the store follows from it.
        uint64_t injected = 0;
        bool inject = false;
        if constexpr (kTrace)
          inject = tr && tr->injectedAtom(l, injected);
        if (bytes == 4) {
          uint32_t stored;
          if (inject) {
            old[l] = uint32_t(injected);
            stored = atomNew<uint32_t>(fn, ty, uint32_t(injected), b[l], c[l]);
            std::memcpy(accs[l].host, &stored, 4);
          } else {
            old[l] = atomRmw<uint32_t>(accs[l].host, sharedWithOthers, fn, ty, b[l], c[l], stored);
          }
          if constexpr (kTrace) {
            if (tr) {
              tr->atom(l, 4, old[l]);
              tr->store(l, uint8_t(accs[l].space), accs[l].offset, 4, &stored);
            }
          }
        } else {
          uint64_t stored;
          if (inject) {
            old[l] = injected;
            stored = atomNew<uint64_t>(fn, ty, injected, pairAt(b, l), pairAt(c, l));
            std::memcpy(accs[l].host, &stored, 8);
          } else {
            old[l] = atomRmw<uint64_t>(accs[l].host, sharedWithOthers, fn, ty, pairAt(b, l),
                                       pairAt(c, l), stored);
          }
          if constexpr (kTrace) {
            if (tr) {
              tr->atom(l, 8, old[l]);
              tr->store(l, uint8_t(accs[l].space), accs[l].offset, 8, &stored);
            }
          }
        }
      }
      for (uint32_t m = exec; m; m &= m - 1) {
        unsigned l = firstLane(m);
        d[l] = uint32_t(old[l]);
        if (bytes == 8)
          d[l + kWarpSize] = uint32_t(old[l] >> 32);
      }
      break;
    }

    // --- control ---
    case uint8_t(Opcode::BRA):
    case uint8_t(Opcode::CALL): {
      if (!exec)
        break;
      if (in.badTarget) {
        badPc(exec, in.imm);
        goto faulted;
      }
      if (in.op == uint8_t(Opcode::CALL)) {
        const uint32_t ret = next;
        lanes(exec, d, [&](unsigned) { return ret; });
      }
      const uint32_t target = in.imm;
      const uint32_t fall = mask & ~exec;
      if (!fall) {
        next = target;
      } else if (target != next) {
        // Divergence: the lower pc continues as the group, the other side becomes runnable.
        uint32_t waitLanes = target < next ? fall : exec;
        uint32_t waitPc = target < next ? next : target;
        for (uint32_t m = waitLanes; m; m &= m - 1)
          w.pc[firstLane(m)] = waitPc;
        w.runnable |= waitLanes;
        mask &= ~waitLanes;
        next = std::min(target, next);
      }
      if (next <= pc && mask && ++w.backEdges >= isa::kYieldBackEdges) {
        // Forward progress (docs/execution-model.md): a group looping while other threads of the
        // warp could run (a spin lock's holder, say) yields to them.
        uint32_t others = w.runnable;
        for (uint32_t bits = w.bsyncWaitAny; bits; bits &= bits - 1)
          others |= w.bsyncWait[std::countr_zero(bits)];
        if (others) {
          w.yieldGroup(mask, next);
          mask = 0;
        }
        w.backEdges = 0;
      }
      break;
    }
    case uint8_t(Opcode::BRX):
    case uint8_t(Opcode::CALLR):
    case uint8_t(Opcode::RET): {
      if (!exec)
        break;
      uint32_t targets[kWarpSize];
      for (uint32_t m = exec; m; m &= m - 1) {
        unsigned l = firstLane(m);
        targets[l] = a[l];
        if (targets[l] >= codeSize || targets[l] % isa::kInstBytes) {
          badPc(1u << l, targets[l]);
          goto faulted;
        }
      }
      if (in.op == uint8_t(Opcode::CALLR)) {
        const uint32_t ret = next;
        lanes(exec, d, [&](unsigned) { return ret; });
      }
      uint32_t lowest = ~0u;
      for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = firstLane(m);
        uint32_t t = ((exec >> l) & 1) ? targets[l] : next;
        w.pc[l] = t;
        lowest = std::min(lowest, t);
      }
      uint32_t group = 0;
      for (uint32_t m = mask; m; m &= m - 1)
        if (w.pc[firstLane(m)] == lowest)
          group |= 1u << firstLane(m);
      w.runnable |= mask & ~group;
      mask = group;
      next = lowest;
      break;
    }
    case uint8_t(Opcode::EXIT):
      if (exec) {
        w.exitLanes(exec);
        mask &= ~exec;
      }
      break;
    case uint8_t(Opcode::BSSY):
      if (exec) {
        w.conv[get(in, fld::BSSY::b)] = exec;
        w.yieldedOut[get(in, fld::BSSY::b)] &= ~exec;
      }
      break;
    case uint8_t(Opcode::BSYNC): {
      if (!exec)
        break;
      unsigned bar = get(in, fld::BSYNC::b);
      // Threads that yielded out of the barrier continue at once (and are done with it).
      const uint32_t arriving = exec & ~w.yieldedOut[bar];
      w.yieldedOut[bar] &= ~exec;
      if (!arriving)
        break;
      uint32_t earlier = w.bsyncWait[bar];
      uint32_t missing = w.conv[bar] & ~w.exited & ~arriving & ~earlier;
      if (missing == 0) {
        // Complete on arrival: the group continues, joined by the earlier waiters resuming here.
        w.bsyncWait[bar] = 0;
        w.bsyncWaitAny &= ~(1u << bar);
        uint32_t join = 0;
        for (uint32_t m = earlier; m; m &= m - 1)
          if (w.pc[firstLane(m)] == next)
            join |= 1u << firstLane(m);
        w.runnable |= earlier & ~join;
        mask |= join;
      } else {
        for (uint32_t m = arriving; m; m &= m - 1)
          w.pc[firstLane(m)] = next;
        w.bsyncWait[bar] = earlier | arriving;
        w.bsyncWaitAny |= 1u << bar;
        mask &= ~arriving;
      }
      break;
    }
    case uint8_t(Opcode::B2R): {
      const uint32_t v = w.conv[get(in, fld::B2R::b)];
      lanes(exec, d, [&](unsigned) { return v; });
      break;
    }
    case uint8_t(Opcode::R2B):
      if (exec)
        w.conv[get(in, fld::R2B::b)] = a[firstLane(exec)];
      break;
    case uint8_t(Opcode::WARPSYNC): {
      if (!exec)
        break;
      uint32_t wanted = 0;
      for (uint32_t m = exec; m; m &= m - 1) {
        unsigned l = firstLane(m);
        w.warpsyncMask[l] = a[l] | in.imm;
        wanted |= w.warpsyncMask[l];
      }
      if (w.warpsyncWait == 0 && (wanted & ~w.exited & ~exec) == 0)
        break; // everyone it waits for is here: no wait
      for (uint32_t m = exec; m; m &= m - 1)
        w.pc[firstLane(m)] = next;
      uint32_t released = w.releaseWarpsync(w.warpsyncWait | exec);
      uint32_t join = 0;
      for (uint32_t m = released; m; m &= m - 1)
        if (w.pc[firstLane(m)] == next)
          join |= 1u << firstLane(m);
      w.runnable |= released & ~join & ~exec;
      mask = (mask & ~exec) | join;
      break;
    }
    case uint8_t(Opcode::BAR): {
      if (!exec)
        break;
      auto op = isa::BarOp(get(in, fld::BAR::fn));
      unsigned lane = firstLane(exec);
      uint32_t id = a[lane] + get(in, fld::BAR::id);
      if (id >= blk.bars.size()) {
        raise(FaultKind::IllegalInstruction, exec,
              {D::BarrierOutOfRange, id, blk.bars.size() - 1});
        goto faulted;
      }
      uint32_t count = b[lane];
      uint32_t predLanes = P[in.pc] ^ in.pcXor;
      // Sync w.group: the release may hand lanes of this warp back as runnable.
      bool completed = blk.arrive(w, exec, op, id, count, predLanes, in.rd, pc);
      if (op == isa::BarOp::ARRIVE)
        break;
      if (completed) {
        // Complete on arrival: the lanes of this warp released at the next pc continue.
        uint32_t join = 0;
        for (uint32_t m = w.runnable; m; m &= m - 1)
          if (w.pc[firstLane(m)] == next)
            join |= 1u << firstLane(m);
        w.runnable &= ~join;
        mask |= join;
      } else {
        mask &= ~exec;
      }
      break;
    }
    case uint8_t(Opcode::MEMBAR):
      break; // every access completes before the next instruction issues
    case uint8_t(Opcode::TRAP):
      if (exec) {
        uint32_t code = in.imm;
        if (code == 1)
          // The assert record's location: the runtime area (RuntimeArea's assert fields).
          raise(FaultKind::Assert, exec, D::AssertRecord, desc.rtbuf, code);
        else
          raise(FaultKind::Trap, exec, D::TrapCode, 0, code);
        goto faulted;
      }
      break;
    case uint8_t(Opcode::BPT):
      if (exec) {
        raise(FaultKind::Breakpoint, exec, D::BreakpointCode, 0, in.imm);
        goto faulted;
      }
      break;
    case uint8_t(Opcode::NANOSLEEP):
      if (exec) {
        uint64_t ns = 0;
        for (uint32_t m = exec; m; m &= m - 1)
          ns = std::max<uint64_t>(ns, uint64_t(a[firstLane(m)]) + in.imm);
        w.sleepUntil = cycle + std::max<uint64_t>(1, ns * L.config.clockMhz / 1000);
        endSlice = true;
      }
      break;
    case uint8_t(Opcode::VOTE): {
      const uint32_t ballot = (P[in.pa] ^ in.paXor) & exec;
      bool r;
      switch (isa::VoteOp(get(in, fld::VOTE::fn))) {
      case isa::VoteOp::ALL:
        r = ballot == exec;
        break;
      case isa::VoteOp::ANY:
        r = ballot != 0;
        break;
      default:
        r = ballot == 0 || ballot == exec;
        break;
      }
      lanes(exec, d, [&](unsigned) { return ballot; });
      writePred(P, in.pd, exec, r ? ~0u : 0u);
      break;
    }
    case uint8_t(Opcode::SHFL): {
      auto mode = isa::ShflMode(get(in, fld::SHFL::fn));
      alignas(64) uint32_t src[kWarpSize], out[kWarpSize];
      std::memcpy(src, a, sizeof src); // inactive source lanes give their value too
      uint32_t valid = 0;
      for (uint32_t m = exec; m; m &= m - 1) {
        unsigned l = firstLane(m);
        uint32_t bval = b[l], cval = c[l];
        int64_t segmask = (cval >> 8) & 0x1f, clamp = cval & 0x1f;
        int64_t maxLane = (int64_t(l) & segmask) | (clamp & ~segmask);
        int64_t minLane = int64_t(l) & segmask;
        int64_t j;
        bool ok;
        switch (mode) {
        case isa::ShflMode::UP:
          j = int64_t(l) - int64_t(bval);
          ok = j >= maxLane;
          break;
        case isa::ShflMode::DOWN:
          j = int64_t(l) + int64_t(bval);
          ok = j <= maxLane;
          break;
        case isa::ShflMode::BFLY:
          j = int64_t(l ^ bval);
          ok = j <= maxLane;
          break;
        default:
          j = minLane | (int64_t(bval & 0x1f) & ~segmask);
          ok = j <= maxLane;
          break;
        }
        if (!ok)
          j = l;
        out[l] = src[j];
        valid |= uint32_t(ok) << l;
      }
      for (uint32_t m = exec; m; m &= m - 1)
        d[firstLane(m)] = out[firstLane(m)];
      writePred(P, in.pd, exec, valid);
      break;
    }
    case uint8_t(Opcode::MATCH): {
      bool all = isa::MatchOp(get(in, fld::MATCH::fn)) == isa::MatchOp::ALL;
      bool wide = isa::Width(get(in, fld::MATCH::ty)) == isa::Width::B64;
      auto value = [&](unsigned l) { return wide ? pairAt(a, l) : uint64_t(a[l]); };
      alignas(64) uint32_t out[kWarpSize];
      bool allEqual = true;
      uint64_t v0 = exec ? value(firstLane(exec)) : 0;
      for (uint32_t m = exec; m; m &= m - 1) {
        unsigned l = firstLane(m);
        uint32_t same = 0;
        for (uint32_t k = exec; k; k &= k - 1)
          if (value(firstLane(k)) == value(l))
            same |= 1u << firstLane(k);
        out[l] = same;
        allEqual = allEqual && value(l) == v0;
      }
      for (uint32_t m = exec; m; m &= m - 1)
        d[firstLane(m)] = all ? (allEqual ? exec : 0u) : out[firstLane(m)];
      writePred(P, in.pd, exec, allEqual ? ~0u : 0u);
      break;
    }
    case uint8_t(Opcode::REDUX): {
      if (!exec)
        break;
      auto fn = isa::ReduxOp(get(in, fld::REDUX::fn));
      uint32_t acc = a[firstLane(exec)];
      for (uint32_t m = exec & (exec - 1); m; m &= m - 1) {
        uint32_t v = a[firstLane(m)];
        switch (fn) {
        case isa::ReduxOp::ADD:
          acc = hls::addc32(acc, v, false).value;
          break;
        case isa::ReduxOp::MIN:
          acc = hls::imin32(acc, v, true);
          break;
        case isa::ReduxOp::MAX:
          acc = hls::imax32(acc, v, true);
          break;
        case isa::ReduxOp::UMIN:
          acc = hls::imin32(acc, v, false);
          break;
        case isa::ReduxOp::UMAX:
          acc = hls::imax32(acc, v, false);
          break;
        case isa::ReduxOp::AND:
          acc &= v;
          break;
        case isa::ReduxOp::OR:
          acc |= v;
          break;
        default:
          acc ^= v;
          break;
        }
      }
      lanes(exec, d, [&](unsigned) { return acc; });
      break;
    }
    case uint8_t(Opcode::TEX):
    case uint8_t(Opcode::SULD):
    case uint8_t(Opcode::SUST): {
      TexFault tf;
      if (!executeTexture(in, exec, R, TexMemory{L.global, L.globalSize}, tf)) [[unlikely]] {
        raise(tf.kind, 1u << tf.lane, tf.detail, tf.address);
        goto faulted;
      }
      break;
    }
    default: // kIllegalOp and the end-of-code record: decoding precedes the guard
      raise(FaultKind::IllegalInstruction, mask,
            in.message ? L.program.messages[in.message] : FaultDetail(D::InvalidOpcode, in.op));
      goto faulted;
    }

    if constexpr (kTrace) {
      if (tr)
        tr->commit(w, in, exec);
    }
    pc = next;
    if (mask == 0) [[unlikely]] {
      // The group waits or has exited: the lowest-pc runnable lanes go next.
      if (!w.pickGroup()) {
        reason = w.exited == kAllLanes ? StopReason::Finished : StopReason::Idle;
        break;
      }
      mask = w.group;
      pc = w.groupPc;
    }
    if (endSlice) {
      reason = StopReason::Sleep;
      break;
    }
  }

  w.group = mask;
  w.groupPc = pc;
  core.cycle = cycle;
  core.warpInsts += warpInsts;
  core.threadInsts += threadInsts;
  return reason;

faulted:
  fault.pc = pc;
  w.group = mask;
  w.groupPc = pc;
  core.cycle = cycle;
  core.warpInsts += warpInsts;
  core.threadInsts += threadInsts;
  return StopReason::Fault;
}

// Cloned for AVX2+FMA hosts, where the lane loops and the host FMA vectorize.
[[gnu::target_clones("arch=x86-64-v3", "default")]] StopReason
runWarpFast(Launch &L, Core &core, Warp &w, uint32_t budget, PendingFault &fault) {
  return runWarpImpl<false>(L, core, w, budget, fault);
}

} // namespace

StopReason runWarp(Launch &L, Core &core, Warp &w, uint32_t budget, PendingFault &fault) {
  if (L.recorder || L.options.pcProfile)
    return runWarpImpl<true>(L, core, w, budget, fault);
  return runWarpFast(L, core, w, budget, fault);
}

} // namespace wf::func
