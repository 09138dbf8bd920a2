//===- WIR.h - Warpforge machine IR -----------------------------*- C++ -*-===//
//
// Part of Warpforge. WIR is the typed machine IR between PTX and native code
// (docs/compiler.md). A function is a list of basic blocks of instructions.
// Instructions are native opcodes (isa::Opcode) whose operands follow the
// opcode's OpInfo operand order and whose modifiers follow its ModInfo order,
// so encoding is a field-by-field copy. Operands are virtual registers of a
// class (32-bit GPR, aligned 64-bit pair, aligned 128-bit quad, predicate,
// convergence barrier), physical registers (the stack pointer, the link
// register, RZ, PT), immediates, block targets, functions and global symbols.
// The IR is not SSA: a virtual register may be defined several times.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/isa/isa.gen.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace wf::codegen {

enum class RegClass : uint8_t { R32, R64, R128, Pred, Barrier };

/// 32-bit words a register of the class takes (1 for predicates and barriers).
unsigned classWords(RegClass C);
const char *className(RegClass C);

enum class OpndKind : uint8_t {
  None,
  VReg, ///< virtual register `reg`; `sub` selects a 32-bit word of a wide one (0xff: whole)
  Phys, ///< physical GPR `reg` (255: RZ); predicate/barrier physical registers use PhysPred/PhysBar
  PhysPred, ///< physical predicate `reg` (15: PT)
  PhysBar,  ///< physical convergence barrier `reg`
  Imm,      ///< immediate `imm` (32 bits used)
  Block,    ///< code address of block `target` of the same function (REL)
  Func,     ///< code address of function `target` of the module (REL)
  SymLo,    ///< low 32 bits of the address of global symbol `target` + imm (relocation)
  SymHi,    ///< high 32 bits of the same
};

inline constexpr uint8_t kWhole = 0xff;

/// Where a memory offset is relative to (resolved when the frame is laid out).
enum class FrameRel : uint8_t {
  None,
  Incoming, ///< + frame size: the caller's outgoing area (incoming params and returns)
};

struct Opnd {
  OpndKind kind = OpndKind::None;
  uint8_t sub = kWhole;            ///< VReg: word of a wide register, kWhole for the whole register
  bool neg = false;                ///< predicate operands of kind PN: negated
  FrameRel frame = FrameRel::None; ///< ADDR operands: offset relative to the frame
  uint32_t reg = 0;                ///< VReg id or physical number
  uint32_t target = 0;             ///< Block, Func, Sym: index
  int64_t imm = 0;                 ///< Imm value; ADDR operand offset; Sym addend

  static Opnd vreg(uint32_t R, uint8_t Sub = kWhole) {
    Opnd O;
    O.kind = OpndKind::VReg;
    O.reg = R;
    O.sub = Sub;
    return O;
  }
  static Opnd phys(uint32_t R) {
    Opnd O;
    O.kind = OpndKind::Phys;
    O.reg = R;
    return O;
  }
  static Opnd rz() { return phys(isa::kZeroReg); }
  static Opnd pred(uint32_t R, bool Neg = false) {
    Opnd O = vreg(R);
    O.neg = Neg;
    return O;
  }
  static Opnd pt(bool Neg = false) {
    Opnd O;
    O.kind = OpndKind::PhysPred;
    O.reg = isa::kTruePred;
    O.neg = Neg;
    return O;
  }
  static Opnd imm32(int64_t V) {
    Opnd O;
    O.kind = OpndKind::Imm;
    O.imm = V;
    return O;
  }
  static Opnd block(uint32_t B) {
    Opnd O;
    O.kind = OpndKind::Block;
    O.target = B;
    return O;
  }
  static Opnd func(uint32_t F) {
    Opnd O;
    O.kind = OpndKind::Func;
    O.target = F;
    return O;
  }
  bool isReg() const { return kind == OpndKind::VReg; }
  bool isNone() const { return kind == OpndKind::None; }
};

/// Source position of an instruction: the PTX text position and the `.loc` in effect.
struct InstLoc {
  uint32_t line = 0, col = 0;                    ///< in the PTX file
  uint32_t dbgFile = 0, dbgLine = 0, dbgCol = 0; ///< `.loc` (file 0: none)
};

struct Inst {
  isa::Opcode op = isa::Opcode::NOP;
  Opnd guard = Opnd::pt(); ///< guard predicate (VReg/PhysPred); neg: @!P
  std::array<Opnd, isa::kMaxOperands> ops{};
  std::array<uint32_t, isa::kMaxMods> mods{};
  InstLoc loc;

  const isa::OpInfo &info() const { return isa::opInfo(op); }
  unsigned numOps() const { return info().numOperands; }
  bool isGuarded() const {
    return !(guard.kind == OpndKind::PhysPred && guard.reg == isa::kTruePred && !guard.neg);
  }
};

/// Whether operand Idx of an instruction is written by it: its generated role (isa.toml's def or
/// def+use), which may hold only for some values of a modifier (BAR writes rd in its RED forms).
bool isDefOperand(const Inst &I, unsigned Idx);
/// Register words operand Idx covers when it names a whole register (1, 2 or 4), from the
/// generated operand widths; 0 for operands that name no register, and for a modifier or
/// special-register value that selects no width.
unsigned operandWords(const Inst &I, unsigned Idx);
/// Branch-like terminators: BRA, BRX, RET, EXIT, TRAP (also when guarded: then not a terminator).
bool isTerminator(const Inst &I);
/// Instructions with effects beyond their register results (memory, control, synchronization).
bool hasSideEffects(const Inst &I);

struct Block {
  std::string name;
  std::vector<Inst> insts;
  std::vector<uint32_t> succs, preds; ///< filled by computeCFG
  std::vector<uint32_t> jumpTargets;  ///< possible targets of the block's BRX (brx.idx)
};

struct VRegInfo {
  RegClass cls = RegClass::R32;
};

/// A function's stack frame, growing down from SR_LOCALSIZE; offsets from SP (R0).
struct FrameInfo {
  uint32_t outArea = 0;    ///< [0, outArea): outgoing call arguments and results
  uint32_t localsBase = 0; ///< .local variables of the body
  uint32_t localsSize = 0;
  uint32_t spillBase = 0; ///< register spill slots (4 bytes each)
  uint32_t spillSize = 0;
  uint32_t saveBase = 0; ///< caller-save area for registers live across calls
  uint32_t saveSize = 0;
  uint32_t linkSlot = 0; ///< callee: return address
  uint32_t size = 0;     ///< total, 16-byte aligned
};

struct Function {
  std::string name;
  bool isKernel = false;
  bool hasCalls = false;
  std::vector<Block> blocks; ///< blocks[0] is the entry
  std::vector<VRegInfo> vregs;
  FrameInfo frame;
  uint32_t maxRegs = 255;   ///< register budget (maxnreg / config)
  uint32_t numGprs = 0;     ///< after allocation: registers used (highest + 1)
  uint32_t numBarriers = 0; ///< after allocation: convergence barriers used (highest + 1)
  /// Convergence barriers are warp-wide state, so a function prefers B{barrierBase}..B15: the
  /// module gives each function a range above those of everything it calls (see compilePtx), so
  /// a callee run by part of a warp never touches a barrier that other thread groups of the warp
  /// wait on in its callers. A barrier set across no call may also go below barrierBase, and one
  /// set across a call only needs to stay above the ranges of the functions called there:
  /// calleeBarrierTop[g] is one past the highest barrier module function g (with its callees)
  /// uses, indirectBarrierTop the same over every function a CALLR may reach.
  uint32_t barrierBase = 0;
  std::vector<uint32_t> calleeBarrierTop;
  uint32_t indirectBarrierTop = 0;
  /// After allocation: reconvergence regions left without a barrier because more than the free
  /// barrier registers were needed at once (their threads meet again at an enclosing BSYNC).
  uint32_t droppedBarriers = 0;
  /// No BSSY/BSYNC in this function: set for recursive functions, whose nested activations, run
  /// by part of a warp, would reuse the barriers that other groups of the warp wait on in outer
  /// activations. Their threads still meet again when the scheduler picks a PC (the groups at the
  /// same PC run together) and, at the latest, at the BSYNC after the call in the caller.
  bool noReconvergence = false;
  bool allocated = false;   ///< operands are physical

  uint32_t newVReg(RegClass C) {
    vregs.push_back({C});
    return uint32_t(vregs.size() - 1);
  }
  RegClass regClass(uint32_t V) const { return vregs[V].cls; }
  uint32_t addBlock(std::string Name) {
    blocks.push_back({});
    blocks.back().name = std::move(Name);
    return uint32_t(blocks.size() - 1);
  }
};

/// Fills succs and preds of every block from the terminators and fall-through.
void computeCFG(Function &F);

/// Checks the function's invariants: operand kinds match the opcode's operand table, register
/// classes match operand widths, branch targets exist, terminators end blocks, allocated
/// functions use physical registers only. Returns the problems found (empty: valid).
std::vector<std::string> verify(const Function &F);

/// Text form for tests and debugging.
std::string print(const Function &F);
std::string print(const Function &F, const Inst &I);

/// Physical registers with a fixed role (docs/compiler.md, calling convention).
inline constexpr uint32_t kSPReg = 0;   ///< stack pointer: local-memory offset of the frame
inline constexpr uint32_t kLinkReg = 2; ///< return address written by CALL/CALLR
inline constexpr uint32_t kFirstAllocReg = 1;

} // namespace wf::codegen
