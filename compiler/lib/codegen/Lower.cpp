//===- Lower.cpp - PTX to WIR instruction selection -----------------------===//
//
// Part of Warpforge. One PTX function becomes one WIR function: PTX registers
// become virtual registers (64-bit ones aligned pairs), each PTX instruction a
// short sequence of native instructions (docs/compiler.md lists them), calls
// follow the calling convention, and every `ret` branches to the function's
// single return block.
//
//===----------------------------------------------------------------------===//

#include "LowerImpl.h"

#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device.gen.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <optional>

namespace wf::codegen {

using isa::Opcode;
using ptx::Mod;
using ptx::Op;
using ptx::Type;

static int findMod(const isa::OpInfo &Info, std::string_view Name) {
  for (unsigned I = 0; I < Info.numMods; ++I)
    if (Info.mods[I].name == Name)
      return int(I);
  return -1;
}

void setMod(Inst &I, const char *Name, uint32_t Value) {
  int Idx = findMod(I.info(), Name);
  if (Idx >= 0)
    I.mods[unsigned(Idx)] = Value;
}

uint32_t getMod(const Inst &I, const char *Name) {
  int Idx = findMod(I.info(), Name);
  return Idx < 0 ? 0 : I.mods[unsigned(Idx)];
}

static uint32_t alignTo(uint32_t V, uint32_t A) { return A ? (V + A - 1) / A * A : V; }

std::vector<uint32_t> layoutParams(const std::vector<ptx::Param> &Ps, uint32_t Base,
                                   uint32_t *End) {
  std::vector<uint32_t> Offs;
  uint32_t Off = Base;
  for (const ptx::Param &P : Ps) {
    uint32_t A = uint32_t(std::max<uint64_t>(1, P.alignment()));
    Off = alignTo(Off, A);
    Offs.push_back(Off);
    Off += uint32_t(P.sizeInBytes());
  }
  if (End)
    *End = Off;
  return Offs;
}

namespace {

bool isSignedT(Type T) { return ptx::kind(T) == ptx::TypeKind::Signed; }
bool isFloatT(Type T) { return ptx::isFloat(T); }
unsigned bits(Type T) { return ptx::bitWidth(T); }

std::optional<isa::IntType> intType(Type T) {
  switch (T) {
  case Type::B8:
  case Type::U8:
    return isa::IntType::U8;
  case Type::S8:
    return isa::IntType::S8;
  case Type::B16:
  case Type::U16:
    return isa::IntType::U16;
  case Type::S16:
    return isa::IntType::S16;
  case Type::B32:
  case Type::U32:
    return isa::IntType::U32;
  case Type::S32:
    return isa::IntType::S32;
  case Type::B64:
  case Type::U64:
    return isa::IntType::U64;
  case Type::S64:
    return isa::IntType::S64;
  default:
    return std::nullopt;
  }
}

std::optional<isa::FltType> fltType(Type T) {
  switch (T) {
  case Type::F16:
    return isa::FltType::F16;
  case Type::BF16:
    return isa::FltType::BF16;
  case Type::F32:
    return isa::FltType::F32;
  case Type::F64:
    return isa::FltType::F64;
  default:
    return std::nullopt;
  }
}

isa::MemSize memSize(Type T) {
  switch (T) {
  case Type::S8:
    return isa::MemSize::S8;
  case Type::B8:
  case Type::U8:
  case Type::Pred:
    return isa::MemSize::U8;
  case Type::S16:
    return isa::MemSize::S16;
  case Type::B16:
  case Type::U16:
  case Type::F16:
  case Type::BF16:
    return isa::MemSize::U16;
  case Type::B64:
  case Type::U64:
  case Type::S64:
  case Type::F64:
    return isa::MemSize::B64;
  case Type::B128:
    return isa::MemSize::B128;
  default:
    return isa::MemSize::B32;
  }
}

struct Provenance {
  bool valid = false;
  uint32_t global = 0;
  int64_t offset = 0;
};

class Lowering {
public:
  Lowering(const ptx::Module &M, uint32_t Idx, const ModuleLayout &L, const CodegenOptions &O,
           Function &F)
      : M(M), PF(M.functions[Idx]), PIdx(Idx), L(L), Opts(O), F(F) {}

  Status<> run();

private:
  const ptx::Module &M;
  const ptx::Function &PF;
  uint32_t PIdx;
  const ModuleLayout &L;
  const CodegenOptions &Opts;
  Function &F;

  std::vector<uint32_t> RegMap;
  std::vector<uint32_t> LabelBlock;
  uint32_t Cur = 0, RetBlock = 0;
  std::map<const ptx::Instruction *, uint32_t> LoopBlock; ///< CAS-loop block of an instruction
  Opnd Guard = Opnd::pt();
  InstLoc Loc;
  const ptx::Instruction *PI = nullptr;
  std::optional<Error> Err;
  uint32_t CCReg = ~0u;
  // Frame: locals and the outgoing call area.
  std::map<uint32_t, uint32_t> LocalOffset; ///< Function::locals index -> frame offset
  std::map<uint32_t, uint32_t> OutOffset;   ///< param variable (locals index) -> outgoing offset
  std::vector<uint32_t> ParamOffset;        ///< incoming params (funcs) / kernel param offsets
  std::vector<uint32_t> RetOffset;          ///< incoming returns (funcs)
  std::map<uint32_t, Provenance> RegProv;   ///< PTX reg -> global symbol it points to
  std::map<uint32_t, Provenance> OutProv;   ///< outgoing param variable -> same

  // --- errors -----------------------------------------------------------------------------
  void fail(const std::string &Msg) {
    if (Err)
      return;
    SourceLoc SL{M.fileName, PI ? PI->loc.line : PF.loc.line, PI ? PI->loc.col : PF.loc.col};
    Err = Error(Msg, SL, PI ? std::string(PI->opcode) : std::string(PF.name));
  }
  void unsupported(const std::string &What = {}) {
    fail(fmt::format("unsupported PTX instruction '{}'{}{}", PI ? PI->opcode : "?",
                     What.empty() ? "" : ": ", What));
  }

  // --- emission ---------------------------------------------------------------------------
  Inst &E(Opcode Op, std::initializer_list<Opnd> Ops = {}) {
    Inst I;
    I.op = Op;
    I.guard = Guard;
    I.loc = Loc;
    unsigned K = 0;
    for (const Opnd &O : Ops)
      I.ops[K++] = O;
    // Unset predicate operands default to PT, unset register operands to RZ.
    const isa::OpInfo &Info = isa::opInfo(Op);
    for (unsigned J = K; J < Info.numOperands; ++J) {
      auto Kd = Info.operands[J].kind;
      if (Kd == isa::OperandKind::P || Kd == isa::OperandKind::PN)
        I.ops[J] = Opnd::pt();
      else if (Kd == isa::OperandKind::R || Kd == isa::OperandKind::ADDR)
        I.ops[J] = Opnd::rz();
      else
        I.ops[J] = Opnd::imm32(0);
    }
    F.blocks[Cur].insts.push_back(I);
    return F.blocks[Cur].insts.back();
  }

  uint32_t nv(RegClass C) { return F.newVReg(C); }
  Opnd v32() { return Opnd::vreg(nv(RegClass::R32)); }
  Opnd v64() { return Opnd::vreg(nv(RegClass::R64)); }
  Opnd vp() { return Opnd::vreg(nv(RegClass::Pred)); }
  static Opnd lo(Opnd O) {
    if (O.kind == OpndKind::VReg)
      O.sub = 0;
    return O;
  }
  static Opnd hi(Opnd O) {
    if (O.kind == OpndKind::VReg)
      O.sub = 1;
    return O;
  }
  static Opnd word(Opnd O, uint8_t W) {
    if (O.kind == OpndKind::VReg)
      O.sub = W;
    return O;
  }
  Opnd imm(int64_t V) {
    if (V == 0)
      return Opnd::rz();
    Opnd T = v32();
    E(Opcode::MOV32I, {T, Opnd::imm32(V)});
    return T;
  }
  Opnd imm64(uint64_t V) {
    Opnd T = v64();
    E(Opcode::MOV32I, {lo(T), Opnd::imm32(int64_t(uint32_t(V)))});
    E(Opcode::MOV32I, {hi(T), Opnd::imm32(int64_t(uint32_t(V >> 32)))});
    return T;
  }
  void mov32(Opnd D, Opnd S) { E(Opcode::MOV, {D, S}); }
  void mov64(Opnd D, Opnd S) {
    mov32(lo(D), lo(S));
    mov32(hi(D), S.kind == OpndKind::Phys ? S : hi(S));
  }
  Opnd sp(int64_t Off = 0) {
    Opnd O = Opnd::phys(kSPReg);
    O.imm = Off;
    return O;
  }
  static Opnd addr(Opnd Base, int64_t Off, FrameRel FR = FrameRel::None) {
    Base.imm = Off;
    Base.frame = FR;
    return Base;
  }

  // --- operands ---------------------------------------------------------------------------
  RegClass classOf(Type T, unsigned Vec) {
    if (T == Type::Pred)
      return RegClass::Pred;
    unsigned B = bits(T) * (Vec ? 1 : 1);
    if (B == 128)
      return RegClass::R128;
    if (B == 64)
      return RegClass::R64;
    return RegClass::R32;
  }
  uint32_t vr(uint32_t PtxReg) { return RegMap[PtxReg]; }
  bool regIsWide(uint32_t PtxReg) { return F.regClass(vr(PtxReg)) == RegClass::R64; }

  Opnd sreg(const ptx::Operand &O, bool Want64);
  Opnd symAddr(const ptx::Operand &O, bool Want64);
  Opnd src32(const ptx::Operand &O, Type T = Type::B32);
  Opnd src64(const ptx::Operand &O);
  Opnd src(const ptx::Operand &O, Type T) { return bits(T) == 64 ? src64(O) : src32(O, T); }
  Opnd predSrc(const ptx::Operand &O);
  Opnd dst(const ptx::Operand &O) {
    if (O.kind != ptx::OperandKind::Reg) {
      fail("destination must be a register");
      return Opnd::rz();
    }
    return Opnd::vreg(vr(O.reg));
  }
  Opnd dst32(const ptx::Operand &O) {
    Opnd D = dst(O);
    if (D.kind == OpndKind::VReg && F.regClass(D.reg) != RegClass::R32)
      D.sub = 0;
    return D;
  }
  /// Sign- or zero-extends a narrow integer to 32 bits (16- and 8-bit PTX types).
  Opnd extend(Opnd V, Type T) {
    if (bits(T) >= 32 || isFloatT(T))
      return V;
    Opnd D = v32();
    Inst &I = E(Opcode::I2I, {D, V});
    setMod(I, "dst", uint32_t(isSignedT(T) ? isa::IntType::S32 : isa::IntType::U32));
    setMod(I, "src", uint32_t(*intType(T)));
    return D;
  }

  // --- lowering per instruction -----------------------------------------------------------
  void lowerInst(const ptx::Instruction &I);
  void lowerMov(const ptx::Instruction &I);
  void lowerAddSub(const ptx::Instruction &I, bool Sub);
  void lowerMul(const ptx::Instruction &I);
  void lowerMad(const ptx::Instruction &I);
  void lowerFloatBinary(const ptx::Instruction &I, Opcode Op32, Opcode Op64, bool NegB);
  void lowerLogic(const ptx::Instruction &I, uint8_t Lut, isa::LogicOp LOp);
  void lowerShift(const ptx::Instruction &I);
  void lowerSetp(const ptx::Instruction &I, bool SetForm);
  void lowerSelp(const ptx::Instruction &I);
  /// d = P ? a : b over operands 0-2 of `I`, 32 or 64 bits by its type (selp, slct).
  void emitSelect(const ptx::Instruction &I, Opnd P);
  void lowerCvt(const ptx::Instruction &I);
  void lowerCvta(const ptx::Instruction &I);
  void lowerLdSt(const ptx::Instruction &I, bool Store);
  void lowerAtom(const ptx::Instruction &I, bool Red);
  void lowerCasLoop(const ptx::Instruction &I, Opnd Addr, isa::AtomSpace AS, bool Red);
  void lowerBar(const ptx::Instruction &I);
  void lowerWarp(const ptx::Instruction &I);
  /// A member mask known to name the whole warp: warp ops over the active group need no masking.
  static bool fullMask(const ptx::Operand &Mk) {
    return Mk.kind == ptx::OperandKind::Imm && uint32_t(Mk.imm) == 0xffffffffu;
  }
  void lowerCall(const ptx::Instruction &I);
  void lowerPrintf(const ptx::Instruction &I, const ptx::Function &Callee);
  void lowerAssert(const ptx::Instruction &I, const ptx::Function &Callee);
  void lowerDeviceHeapAddress(const ptx::Instruction &I);
  void lowerMinMax(const ptx::Instruction &I, bool Max);
  void lowerAbsNeg(const ptx::Instruction &I, bool Neg);
  void lowerDivRem(const ptx::Instruction &I, bool Rem);
  void lowerUnaryFloat(const ptx::Instruction &I);
  void lowerBitOps(const ptx::Instruction &I);
  void lowerBrx(const ptx::Instruction &I);

  /// Emits a 64-bit add/sub of pairs A, B into D (D may alias A or B).
  // --- small 32-bit helpers (fresh destinations) ----------------------------------------
  Opnd lopI(Opnd A, uint32_t V, isa::LogicOp Fn) {
    Opnd D = v32();
    Inst &X = E(Opcode::LOP_I, {D, A, Opnd::imm32(int64_t(V))});
    setMod(X, "fn", uint32_t(Fn));
    return D;
  }
  Opnd lop3(Opnd A, Opnd B, Opnd C, uint8_t Lut) {
    Opnd D = v32();
    E(Opcode::LOP3, {D, A, B, C, Opnd::imm32(Lut)});
    return D;
  }
  Opnd icmpI(Opnd A, int64_t V, isa::ICmp C, bool S) {
    Opnd P = vp();
    Inst &X = E(Opcode::ISETP_I, {P, A, Opnd::imm32(V)});
    setMod(X, "cmp", uint32_t(C));
    setMod(X, "ty", uint32_t(S ? isa::ITy32::S32 : isa::ITy32::U32));
    return P;
  }
  Opnd minmax32(Opnd A, Opnd B, bool Max, bool S) {
    Opnd D = v32();
    Inst &X = E(Opcode::IMNMX, {D, A, B});
    setMod(X, "fn", uint32_t(Max ? isa::MinMax::MAX : isa::MinMax::MIN));
    setMod(X, "ty", uint32_t(S ? isa::ITy32::S32 : isa::ITy32::U32));
    return D;
  }
  /// A - B.
  Opnd sub32(Opnd A, Opnd B) {
    Opnd D = v32();
    Inst &X = E(Opcode::IADD, {D, A, B, Opnd::pt(), Opnd::pt()});
    setMod(X, "invb", 1);
    return D;
  }
  Opnd lopShl(Opnd A, Opnd N) {
    Opnd D = v32();
    E(Opcode::SHL, {D, A, N});
    return D;
  }
  /// The high half of a packed pair, in the low bits.
  Opnd lopShr16(Opnd A) {
    Opnd D = v32();
    Inst &X = E(Opcode::SHR_I, {D, A, Opnd::imm32(16)});
    setMod(X, "ty", 1);
    return D;
  }
  Opnd sel32(Opnd A, Opnd B, Opnd P) {
    Opnd D = v32();
    E(Opcode::SEL, {D, A, B, P});
    return D;
  }
  /// 64-bit shift by a 32-bit register amount (amounts >= 64 give 0 or the sign fill).
  Opnd shift64(Opnd A, Opnd N, bool Left, bool S);
  /// PTX bfe/bfi/bfind on 64-bit operands.
  void lowerBitField64(const ptx::Instruction &I);
  void lowerSad(const ptx::Instruction &I);
  void lowerFns(const ptx::Instruction &I);
  void lowerDot(const ptx::Instruction &I);
  void lowerVabsdiff4(const ptx::Instruction &I);
  // Scalar instructions of PTX ISA 8.x that real programs (Thrust, CUB) use.
  void lowerMul24(const ptx::Instruction &I);
  void lowerBmsk(const ptx::Instruction &I);
  void lowerSzext(const ptx::Instruction &I);
  void lowerSlct(const ptx::Instruction &I);
  void lowerCvtPack(const ptx::Instruction &I);
  void lowerElect(const ptx::Instruction &I);
  // cp.async and mbarrier.
  Opnd sharedAddress(const ptx::Operand &AddrOp, ptx::Space S);
  void lowerCpAsync(const ptx::Instruction &I);
  void lowerMbarrier(const ptx::Instruction &I);
  // wmma.
  std::vector<Opnd> fragmentWords(const ptx::Operand &V);
  void lowerWmmaLoadStore(const ptx::Instruction &I);
  void lowerWmmaMma(const ptx::Instruction &I);

  void add64(Opnd D, Opnd A, Opnd B, bool Sub) {
    Opnd C = vp();
    Opnd T = v64();
    Inst &L0 = E(Opcode::IADD, {lo(T), lo(A), lo(B), C, Opnd::pt()});
    setMod(L0, "invb", Sub);
    Inst &H0 = E(Opcode::IADD, {hi(T), hi(A), hi(B), Opnd::pt(), C});
    setMod(H0, "invb", Sub);
    setMod(H0, "x", 1);
    mov64(D, T);
  }
  /// Converts a narrow float (f16/bf16 in the low bits) to f32 or back.
  Opnd f2f(Opnd V, isa::FltType Dst, isa::FltType Src, isa::RndF R = isa::RndF::RN,
           bool Ftz = false) {
    bool WideD = Dst == isa::FltType::F64;
    Opnd D = WideD ? v64() : v32();
    Inst &I = E(Opcode::F2F, {D, V});
    setMod(I, "dst", uint32_t(Dst));
    setMod(I, "src", uint32_t(Src));
    setMod(I, "rnd", uint32_t(R));
    setMod(I, "ftz", Ftz);
    return D;
  }
  isa::Rnd rnd(const ptx::Instruction &I) {
    if (I.has(Mod::Rz))
      return isa::Rnd::RZ;
    if (I.has(Mod::Rm))
      return isa::Rnd::RM;
    if (I.has(Mod::Rp))
      return isa::Rnd::RP;
    return isa::Rnd::RN;
  }

  void setupFrame();
  void preScanCalls();
  std::string formatString(const Provenance &P);
};

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

Opnd Lowering::sreg(const ptx::Operand &O, bool Want64) {
  using S = ptx::SReg;
  using I = isa::SReg;
  int C = O.sreg.component < 0 ? 0 : O.sreg.component;
  auto Read = [&](isa::SReg R) {
    bool W = isa::kSRegs[unsigned(R)].width == 64;
    Opnd D = W ? v64() : v32();
    E(Opcode::S2R, {D, Opnd::imm32(int64_t(R))});
    return D;
  };
  auto Const = [&](int64_t V) { return Want64 ? imm64(uint64_t(V)) : imm(V); };
  auto Add = [](isa::SReg B, int C) { return isa::SReg(unsigned(B) + unsigned(C)); };
  Opnd R;
  switch (O.sreg.reg) {
  case S::Tid:
    R = Read(Add(I::TID_X, C));
    break;
  case S::Ntid:
    R = Read(Add(I::NTID_X, C));
    break;
  case S::Ctaid:
  case S::Clusterid:
    R = Read(Add(I::CTAID_X, C));
    break;
  case S::Nctaid:
  case S::Nclusterid:
    R = Read(Add(I::NCTAID_X, C));
    break;
  case S::Laneid:
    R = Read(I::LANEID);
    break;
  case S::Warpid:
    R = Read(I::WARPID);
    break;
  case S::Nwarpid:
    R = Read(I::NWARPID);
    break;
  case S::Smid:
    R = Read(I::SMID);
    break;
  case S::Nsmid:
    R = Read(I::NSMID);
    break;
  case S::Gridid:
    R = Read(I::GRIDID);
    break;
  case S::Clock:
    R = Read(I::CLOCK);
    break;
  case S::ClockHi:
    R = hi(Read(I::CLOCK64));
    break;
  case S::Clock64:
    R = Read(I::CLOCK64);
    break;
  case S::Globaltimer:
    R = Read(I::GLOBALTIMER);
    break;
  case S::GlobaltimerLo:
    R = lo(Read(I::GLOBALTIMER));
    break;
  case S::GlobaltimerHi:
    R = hi(Read(I::GLOBALTIMER));
    break;
  case S::LanemaskEq:
    R = Read(I::LANEMASK_EQ);
    break;
  case S::LanemaskLt:
    R = Read(I::LANEMASK_LT);
    break;
  case S::LanemaskLe:
    R = Read(I::LANEMASK_LE);
    break;
  case S::LanemaskGt:
    R = Read(I::LANEMASK_GT);
    break;
  case S::LanemaskGe:
    R = Read(I::LANEMASK_GE);
    break;
  case S::DynamicSmemSize:
    R = Read(I::DYNSMEM);
    break;
  case S::TotalSmemSize:
  case S::AggrSmemSize:
    R = Read(I::TOTALSMEM);
    break;
  case S::ClusterNctaid:
  case S::ClusterNctarank:
    return Const(1);
  case S::Envreg:
    // cooperative_groups' grid barrier: %envreg2 (low) and %envreg1 (high) hold the address of
    // a cooperative launch's workspace, RuntimeArea.grid_workspace (0 otherwise).
    if (O.sreg.index == 1 || O.sreg.index == 2) {
      R = v32();
      int64_t Off = offsetof(isa::dev::RuntimeArea, gridWorkspace) + (O.sreg.index == 2 ? 0 : 4);
      Inst &L = E(Opcode::LDG, {R, addr(Read(I::RTBUF), Off)});
      setMod(L, "size", uint32_t(isa::MemSize::B32));
      break;
    }
    return Const(0);
  default:
    return Const(0);
  }
  if (Want64 &&
      !(R.kind == OpndKind::VReg && R.sub == kWhole && F.regClass(R.reg) == RegClass::R64)) {
    Opnd D = v64();
    mov32(lo(D), R);
    mov32(hi(D), Opnd::rz());
    return D;
  }
  if (!Want64 && R.kind == OpndKind::VReg && R.sub == kWhole && F.regClass(R.reg) == RegClass::R64)
    return lo(R);
  return R;
}

Opnd Lowering::symAddr(const ptx::Operand &O, bool Want64) {
  int64_t Off = O.imm;
  auto Pair = [&](Opnd Lo32) {
    if (!Want64)
      return Lo32;
    Opnd D = v64();
    mov32(lo(D), Lo32);
    mov32(hi(D), Opnd::rz());
    return D;
  };
  switch (O.symKind) {
  case ptx::SymbolKind::Global: {
    const ptx::Variable &V = M.globals[O.index];
    switch (V.space) {
    case ptx::Space::Global: {
      Opnd D = v64();
      Opnd LoI, HiI;
      LoI.kind = OpndKind::SymLo;
      HiI.kind = OpndKind::SymHi;
      LoI.target = HiI.target = L.symbolIndex.at(O.index);
      LoI.imm = HiI.imm = Off;
      E(Opcode::MOV32I, {lo(D), LoI});
      E(Opcode::MOV32I, {hi(D), HiI});
      if (!Want64)
        return lo(D);
      return D;
    }
    case ptx::Space::Const:
      return Pair(imm(int64_t(L.constOffset.at(O.index)) + Off));
    case ptx::Space::Shared:
      return Pair(imm(int64_t(L.sharedOffset.at(O.index)) + Off));
    default:
      break;
    }
    break;
  }
  case ptx::SymbolKind::Local: {
    const ptx::Variable &V = PF.locals[O.index];
    if (V.space == ptx::Space::Local) {
      Opnd D = v32();
      E(Opcode::IADD_I, {D, Opnd::phys(kSPReg), Opnd::imm32(LocalOffset.at(O.index) + Off)});
      return Pair(D);
    }
    if (V.space == ptx::Space::Shared)
      return Pair(imm(int64_t(L.localSharedOffset.at({PIdx, O.index})) + Off));
    break;
  }
  case ptx::SymbolKind::Param:
    if (PF.isKernel)
      return Pair(imm(int64_t(ParamOffset.at(O.index)) + Off));
    break;
  case ptx::SymbolKind::Function: {
    Opnd D = v32();
    E(Opcode::LEAPC, {D, Opnd::func(L.funcIndex.count(O.index) ? L.funcIndex.at(O.index) : 0)});
    if (!L.funcIndex.count(O.index))
      fail(fmt::format("address of function '{}' without a body", O.symbol));
    return Pair(D);
  }
  default:
    break;
  }
  fail(fmt::format("cannot take the address of '{}'", O.symbol));
  return Opnd::rz();
}

Opnd Lowering::src32(const ptx::Operand &O, Type T) {
  switch (O.kind) {
  case ptx::OperandKind::Reg: {
    Opnd R = Opnd::vreg(vr(O.reg));
    RegClass C = F.regClass(R.reg);
    if (C == RegClass::Pred) {
      Opnd D = v32();
      E(Opcode::P2R, {D, R});
      return D;
    }
    if (C != RegClass::R32)
      R.sub = 0;
    return R;
  }
  case ptx::OperandKind::Imm:
    return imm(O.imm);
  case ptx::OperandKind::FImm: {
    if (O.fwidth == 32 || T != Type::F32)
      return imm(int64_t(uint32_t(O.fbits)));
    double D;
    std::memcpy(&D, &O.fbits, 8);
    return imm(int64_t(std::bit_cast<uint32_t>(float(D))));
  }
  case ptx::OperandKind::SpecialReg:
    return sreg(O, false);
  case ptx::OperandKind::Symbol:
    return symAddr(O, false);
  default:
    fail("unsupported operand");
    return Opnd::rz();
  }
}

Opnd Lowering::src64(const ptx::Operand &O) {
  switch (O.kind) {
  case ptx::OperandKind::Reg: {
    Opnd R = Opnd::vreg(vr(O.reg));
    if (F.regClass(R.reg) == RegClass::R64)
      return R;
    Opnd D = v64();
    mov32(lo(D), src32(O));
    mov32(hi(D), Opnd::rz());
    return D;
  }
  case ptx::OperandKind::Imm:
    return imm64(uint64_t(O.imm));
  case ptx::OperandKind::FImm: {
    uint64_t B = O.fbits;
    if (O.fwidth == 32) {
      float Fv;
      uint32_t W = uint32_t(B);
      std::memcpy(&Fv, &W, 4);
      B = std::bit_cast<uint64_t>(double(Fv));
    }
    return imm64(B);
  }
  case ptx::OperandKind::SpecialReg:
    return sreg(O, true);
  case ptx::OperandKind::Symbol:
    return symAddr(O, true);
  default:
    fail("unsupported operand");
    return Opnd::rz();
  }
}

Opnd Lowering::predSrc(const ptx::Operand &O) {
  if (O.kind == ptx::OperandKind::Reg) {
    Opnd R = Opnd::vreg(vr(O.reg));
    if (F.regClass(R.reg) != RegClass::Pred) {
      // An integer used as a predicate: non-zero is true.
      Opnd P = vp();
      Inst &I = E(Opcode::ISETP_I, {P, src32(O), Opnd::imm32(0)});
      setMod(I, "cmp", uint32_t(isa::ICmp::NE));
      P.neg = O.negated;
      return P;
    }
    R.neg = O.negated;
    return R;
  }
  if (O.kind == ptx::OperandKind::Imm)
    return Opnd::pt((O.imm == 0) != O.negated);
  fail("predicate operand expected");
  return Opnd::pt();
}

//===----------------------------------------------------------------------===//
// Frame and calls
//===----------------------------------------------------------------------===//

void Lowering::preScanCalls() {
  // Outgoing area: for each call, results first, then arguments, each at its natural alignment.
  uint32_t OutSize = 0;
  for (const ptx::Statement &S : PF.body) {
    if (S.kind != ptx::StmtKind::Instr || S.inst.op != Op::Call)
      continue;
    const auto &Ops = S.inst.operands;
    uint32_t Off = 0;
    auto Place = [&](const ptx::Operand &List) {
      for (const ptx::Operand &A : List.elems) {
        if (A.kind != ptx::OperandKind::Symbol || A.symKind != ptx::SymbolKind::Local)
          continue;
        const ptx::Variable &V = PF.locals[A.index];
        Off = alignTo(Off, uint32_t(std::max<uint64_t>(1, V.alignment())));
        OutOffset[A.index] = Off;
        Off += uint32_t(std::max<uint64_t>(V.sizeInBytes(), 1));
      }
    };
    // Operand shapes: [(rets)], func, [(args)], [proto]
    std::vector<const ptx::Operand *> Lists;
    for (const ptx::Operand &O : Ops)
      if (O.kind == ptx::OperandKind::List)
        Lists.push_back(&O);
    bool HasRets = !Ops.empty() && Ops[0].kind == ptx::OperandKind::List;
    if (HasRets)
      Place(*Lists[0]);
    if (Lists.size() > (HasRets ? 1u : 0u))
      Place(*Lists[HasRets ? 1 : 0]);
    OutSize = std::max(OutSize, alignTo(Off, 8));
    F.hasCalls = true;
  }
  F.frame.outArea = alignTo(OutSize, 16);
}

void Lowering::setupFrame() {
  preScanCalls();
  // 64-bit sizes, checked against the configuration's local memory per thread (as ptxas
  // refuses "too much local data") before they become the frame's 32-bit offsets.
  const isa::Config *C = isa::findConfig(Opts.config);
  const uint64_t Limit = C ? C->maxLocalBytesPerThread : UINT32_MAX;
  uint64_t Off = F.frame.outArea;
  for (uint32_t I = 0; I < PF.locals.size(); ++I) {
    const ptx::Variable &V = PF.locals[I];
    if (V.space != ptx::Space::Local)
      continue;
    uint64_t A = std::max<uint64_t>(1, V.alignment());
    Off = (Off + A - 1) / A * A;
    if (A > Limit || Off + V.sizeInBytes() > Limit) {
      fail(fmt::format("local variable '{}' ({} bytes, .align {}) takes the function's local "
                       "memory past the {} bytes a thread may use",
                       V.name, V.sizeInBytes(), A, Limit));
      return;
    }
    LocalOffset[I] = uint32_t(Off);
    Off += V.sizeInBytes();
  }
  F.frame.localsBase = F.frame.outArea;
  F.frame.localsSize = alignTo(uint32_t(Off), 16) - F.frame.outArea;
  uint32_t End = 0;
  if (PF.isKernel) {
    ParamOffset = layoutParams(PF.params, 0, &End);
  } else {
    RetOffset = layoutParams(PF.returns, 0, &End);
    ParamOffset = layoutParams(PF.params, End, &End);
  }
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// Instructions lowered to a compare-and-swap loop on the containing 32-bit word.
static bool needsCasLoop(const ptx::Instruction &I) {
  switch (I.op) {
  case Op::MbarrierArrive: // the arrive-on operations: a 64-bit CAS loop on the object
  case Op::MbarrierArriveExpectTx:
  case Op::MbarrierArriveNoComplete:
  case Op::MbarrierArriveDrop:
  case Op::MbarrierArriveDropExpectTx:
  case Op::MbarrierArriveDropNoComplete:
  case Op::MbarrierCompleteTx:
  case Op::CpAsyncMbarrierArriveNoinc:
    return true;
  default:
    break;
  }
  Type T = I.type(0);
  if (I.op == Op::Atom && I.has(Mod::Cas) && bits(T) == 16)
    return true;
  return (I.op == Op::Atom || I.op == Op::Red) && I.has(Mod::Add) &&
         (T == Type::F16 || T == Type::BF16 || T == Type::F16x2 || T == Type::BF16x2);
}

static bool endsBlock(const ptx::Instruction &I) {
  switch (I.op) {
  case Op::Bra:
  case Op::BrxIdx:
  case Op::Ret:
  case Op::Exit:
    return true;
  default:
    return false;
  }
}

Status<> Lowering::run() {
  F.name = std::string(PF.name);
  F.isKernel = PF.isKernel;
  uint32_t Budget = Opts.maxRegs ? Opts.maxRegs : 255;
  if (const isa::Config *C = isa::findConfig(Opts.config); C && !Opts.maxRegs)
    Budget = C->maxRegsPerThread;
  if (PF.perf.maxnreg && PF.perf.maxnreg < Budget)
    Budget = std::max<uint32_t>(PF.perf.maxnreg, 8);
  F.maxRegs = Budget;

  RegMap.resize(PF.numRegs);
  for (const ptx::RegDecl &D : PF.regDecls) {
    uint32_t N = D.count ? D.count : 1;
    for (uint32_t K = 0; K < N; ++K)
      RegMap[D.firstId + K] = nv(classOf(D.type, D.vecWidth));
  }
  setupFrame();

  // Blocks: 0 is the entry; each label and each statement after a branch starts one.
  F.addBlock("entry");
  std::vector<uint32_t> StmtBlock(PF.body.size());
  LabelBlock.assign(PF.labels.size(), 0);
  uint32_t B = 0;
  bool Fresh = true; // the current block is empty so far
  for (size_t S = 0; S < PF.body.size(); ++S) {
    const ptx::Statement &St = PF.body[S];
    if (St.kind == ptx::StmtKind::Label) {
      if (!Fresh || B == 0) {
        B = F.addBlock(std::string(PF.labels[St.label].name));
        Fresh = true;
      }
      LabelBlock[St.label] = B;
      StmtBlock[S] = B;
      continue;
    }
    StmtBlock[S] = B;
    if (St.kind != ptx::StmtKind::Instr)
      continue;
    Fresh = false;
    if (needsCasLoop(St.inst)) {
      // The instruction's CAS loop gets a block of its own; what follows goes on after it.
      LoopBlock[&St.inst] = F.addBlock("cas_loop");
      B = F.addBlock("");
      Fresh = true;
    }
    if (endsBlock(St.inst)) {
      B = F.addBlock("");
      Fresh = true;
    }
  }
  RetBlock = F.addBlock("return");

  // Kernel parameters need nothing; device-function parameters live in the caller's outgoing
  // area (docs/compiler.md, calling convention).
  for (size_t S = 0; S < PF.body.size() && !Err; ++S) {
    const ptx::Statement &St = PF.body[S];
    if (St.kind != ptx::StmtKind::Instr)
      continue;
    Cur = StmtBlock[S];
    PI = &St.inst;
    Loc = {St.inst.loc.line, St.inst.loc.col, St.inst.dbg.file, St.inst.dbg.line, St.inst.dbg.col};
    Guard = Opnd::pt();
    if (St.inst.hasGuard) {
      Guard = Opnd::vreg(vr(St.inst.guard));
      Guard.neg = St.inst.guardNegated;
    }
    lowerInst(St.inst);
  }
  if (Err)
    return *Err;
  PI = nullptr;
  Cur = RetBlock;
  Guard = Opnd::pt();
  Loc = {};
  if (PF.isKernel)
    E(Opcode::EXIT);
  else
    E(Opcode::RET, {Opnd::phys(kLinkReg)});
  return {};
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

void Lowering::lowerInst(const ptx::Instruction &I) {
  const auto &O = I.operands;
  Type T = I.type(0);
  switch (I.op) {
  case Op::Mov:
    return lowerMov(I);
  case Op::Add:
    return lowerAddSub(I, false);
  case Op::Sub:
    return lowerAddSub(I, true);
  case Op::AddCc:
  case Op::Addc:
  case Op::SubCc:
  case Op::Subc: {
    if (CCReg == ~0u)
      CCReg = nv(RegClass::Pred);
    bool Sub = I.op == Op::SubCc || I.op == Op::Subc;
    bool In = I.op == Op::Addc || I.op == Op::Subc;
    bool Out = I.op == Op::AddCc || I.op == Op::SubCc || I.has(Mod::Cc);
    Opnd A = src32(O[1]), Bv = src32(O[2]);
    Inst &X = E(Opcode::IADD, {dst32(O[0]), A, Bv, Out ? Opnd::pred(CCReg) : Opnd::pt(),
                               In ? Opnd::pred(CCReg) : Opnd::pt()});
    setMod(X, "invb", Sub);
    setMod(X, "x", In);
    return;
  }
  case Op::MadCc:
  case Op::Madc: {
    if (CCReg == ~0u)
      CCReg = nv(RegClass::Pred);
    bool In = I.op == Op::Madc;
    bool Out = I.op == Op::MadCc || I.has(Mod::Cc);
    Opnd P = v32();
    if (I.has(Mod::Hi)) {
      Inst &X = E(Opcode::IMULHI, {P, src32(O[1]), src32(O[2])});
      setMod(X, "ty", uint32_t(isSignedT(T) ? isa::ITy32::S32 : isa::ITy32::U32));
    } else {
      E(Opcode::IMUL, {P, src32(O[1]), src32(O[2])});
    }
    Inst &X = E(Opcode::IADD, {dst32(O[0]), P, src32(O[3]), Out ? Opnd::pred(CCReg) : Opnd::pt(),
                               In ? Opnd::pred(CCReg) : Opnd::pt()});
    setMod(X, "x", In);
    return;
  }
  case Op::Mul:
    return lowerMul(I);
  case Op::Mad:
  case Op::Fma:
    return lowerMad(I);
  case Op::Div:
    return lowerDivRem(I, false);
  case Op::Rem:
    return lowerDivRem(I, true);
  case Op::Abs:
    return lowerAbsNeg(I, false);
  case Op::Neg:
    return lowerAbsNeg(I, true);
  case Op::Min:
    return lowerMinMax(I, false);
  case Op::Max:
    return lowerMinMax(I, true);
  case Op::Sad:
    return lowerSad(I);
  case Op::Fns:
    return lowerFns(I);
  case Op::Dp4a:
  case Op::Dp2a:
    return lowerDot(I);
  case Op::Vabsdiff4:
    return lowerVabsdiff4(I);
  case Op::Mul24:
  case Op::Mad24:
    return lowerMul24(I);
  case Op::Bmsk:
    return lowerBmsk(I);
  case Op::Szext:
    return lowerSzext(I);
  case Op::Slct:
    return lowerSlct(I);
  case Op::CvtPack:
    return lowerCvtPack(I);
  case Op::ElectSync:
    return lowerElect(I);
  case Op::Popc:
  case Op::Clz:
  case Op::Brev:
  case Op::Bfind:
  case Op::Bfe:
  case Op::Bfi:
  case Op::Prmt:
  case Op::Shf:
  case Op::Lop3:
  case Op::Cnot:
    return lowerBitOps(I);
  case Op::And:
    return lowerLogic(I, 0xC0, isa::LogicOp::AND);
  case Op::Or:
    return lowerLogic(I, 0xFC, isa::LogicOp::OR);
  case Op::Xor:
    return lowerLogic(I, 0x3C, isa::LogicOp::XOR);
  case Op::Not:
    return lowerLogic(I, 0x0F, isa::LogicOp::XOR);
  case Op::Shl:
  case Op::Shr:
    return lowerShift(I);
  case Op::Rcp:
  case Op::Sqrt:
  case Op::Rsqrt:
  case Op::Sin:
  case Op::Cos:
  case Op::Lg2:
  case Op::Ex2:
  case Op::Tanh:
  case Op::Copysign:
    return lowerUnaryFloat(I);
  case Op::Setp:
    return lowerSetp(I, false);
  case Op::Set:
    return lowerSetp(I, true);
  case Op::Selp:
    return lowerSelp(I);
  case Op::Cvt:
    return lowerCvt(I);
  case Op::Cvta:
    return lowerCvta(I);
  case Op::Isspacep: {
    isa::Space S = isa::Space::GLOBAL;
    switch (I.space()) {
    case ptx::Space::Shared:
      S = isa::Space::SHARED;
      break;
    case ptx::Space::Local:
      S = isa::Space::LOCAL;
      break;
    case ptx::Space::Const:
      S = isa::Space::CONST;
      break;
    case ptx::Space::Param:
      S = isa::Space::PARAM;
      break;
    default:
      break;
    }
    Inst &X = E(Opcode::ISSPACEP, {dst(O[0]), src64(O[1])});
    setMod(X, "space", uint32_t(S));
    return;
  }
  case Op::Ld:
  case Op::Ldu:
    return lowerLdSt(I, false);
  case Op::St:
    return lowerLdSt(I, true);
  case Op::Prefetch:
  case Op::Prefetchu:
  case Op::Applypriority:
  case Op::Discard:
  case Op::Pmevent:
  case Op::Griddepcontrol:
  case Op::Setmaxnreg:
  case Op::CpAsyncCommitGroup:
  case Op::CpAsyncWaitGroup:
  case Op::CpAsyncWaitAll:
  case Op::CpAsyncMbarrierArrive:
    return;
  case Op::CpAsync:
    return lowerCpAsync(I);
  case Op::MbarrierInit:
  case Op::MbarrierInval:
  case Op::MbarrierArrive:
  case Op::MbarrierArriveExpectTx:
  case Op::MbarrierArriveNoComplete:
  case Op::MbarrierArriveDrop:
  case Op::MbarrierArriveDropExpectTx:
  case Op::MbarrierArriveDropNoComplete:
  case Op::MbarrierExpectTx:
  case Op::MbarrierCompleteTx:
  case Op::MbarrierTestWait:
  case Op::MbarrierTestWaitParity:
  case Op::MbarrierTryWait:
  case Op::MbarrierTryWaitParity:
  case Op::MbarrierPendingCount:
  case Op::CpAsyncMbarrierArriveNoinc:
    return lowerMbarrier(I);
  case Op::WmmaLoadA:
  case Op::WmmaLoadB:
  case Op::WmmaLoadC:
  case Op::WmmaStoreD:
    return lowerWmmaLoadStore(I);
  case Op::WmmaMma:
  case Op::WmmaMmaXorPopc:
  case Op::WmmaMmaAndPopc:
    return lowerWmmaMma(I);
  case Op::Atom:
    return lowerAtom(I, false);
  case Op::Red:
    return lowerAtom(I, true);
  case Op::Bar:
  case Op::Barrier:
  case Op::BarrierCluster:
    return lowerBar(I);
  case Op::BarWarpSync: {
    const ptx::Operand &Mk = O[0];
    if (Mk.kind == ptx::OperandKind::Imm)
      E(Opcode::WARPSYNC, {Opnd::rz(), Opnd::imm32(Mk.imm)});
    else
      E(Opcode::WARPSYNC, {src32(Mk), Opnd::imm32(0)});
    return;
  }
  case Op::Membar:
  case Op::Fence:
  case Op::FenceProxy: {
    isa::Scope S = isa::Scope::GPU;
    if (I.has(Mod::Cta))
      S = isa::Scope::CTA;
    if (I.has(Mod::Sys) || I.op == Op::FenceProxy)
      S = isa::Scope::SYS;
    Inst &X = E(Opcode::MEMBAR);
    setMod(X, "scope", uint32_t(S));
    return;
  }
  case Op::Vote:
  case Op::Shfl:
  case Op::Match:
  case Op::Redux:
  case Op::Activemask:
    return lowerWarp(I);
  case Op::Bra:
    E(Opcode::BRA, {Opnd::block(LabelBlock[O[0].index])});
    return;
  case Op::BrxIdx:
    return lowerBrx(I);
  case Op::Call:
    return lowerCall(I);
  case Op::Ret:
    E(Opcode::BRA, {Opnd::block(RetBlock)});
    return;
  case Op::Exit:
    E(Opcode::EXIT);
    return;
  case Op::Trap:
    E(Opcode::TRAP, {Opnd::imm32(0)});
    return;
  case Op::Brkpt:
    E(Opcode::BPT, {Opnd::imm32(0)});
    return;
  case Op::Nanosleep:
    if (O[0].kind == ptx::OperandKind::Imm)
      E(Opcode::NANOSLEEP, {Opnd::rz(), Opnd::imm32(O[0].imm)});
    else
      E(Opcode::NANOSLEEP, {src32(O[0]), Opnd::imm32(0)});
    return;
  case Op::Createpolicy:
    mov64(dst(O[0]), Opnd::rz());
    return;
  case Op::Getctarank:
    mov32(dst32(O[0]), Opnd::rz());
    return;
  case Op::Mapa:
    if (bits(T) == 64)
      mov64(dst(O[0]), src64(O[1]));
    else
      mov32(dst(O[0]), src32(O[1]));
    return;
  case Op::Stacksave:
    if (bits(T) == 64) {
      mov32(lo(dst(O[0])), Opnd::phys(kSPReg));
      mov32(hi(dst(O[0])), Opnd::rz());
    } else {
      mov32(dst(O[0]), Opnd::phys(kSPReg));
    }
    return;
  case Op::Testp: {
    // finite / infinite / number / notanumber / normal / subnormal on f32 or f64.
    bool Is64 = T == Type::F64;
    Opnd A = Is64 ? hi(src64(O[1])) : src32(O[1]);
    Opnd Mag = v32();
    E(Opcode::LOP_I, {Mag, A, Opnd::imm32(0x7fffffff)});
    setMod(F.blocks[Cur].insts.back(), "fn", uint32_t(isa::LogicOp::AND));
    uint32_t Inf = Is64 ? 0x7ff00000u : 0x7f800000u;
    uint32_t MinN = Is64 ? 0x00100000u : 0x00800000u;
    Opnd P = dst(O[0]);
    auto Cmp = [&](Opnd D, isa::ICmp C, uint32_t V) {
      Inst &X = E(Opcode::ISETP_I, {D, Mag, Opnd::imm32(V)});
      setMod(X, "cmp", uint32_t(C));
      setMod(X, "ty", uint32_t(isa::ITy32::U32));
    };
    if (Is64 && (I.has(Mod::Infinite) || I.has(Mod::NotANumber) || I.has(Mod::Number) ||
                 I.has(Mod::Subnormal))) {
      // Needs the low word as well: compare the pair against the pattern.
      Opnd V = src64(O[1]);
      Opnd Ab = v64();
      E(Opcode::LOP_I, {lo(Ab), lo(V), Opnd::imm32(-1)});
      setMod(F.blocks[Cur].insts.back(), "fn", uint32_t(isa::LogicOp::AND));
      E(Opcode::LOP_I, {hi(Ab), hi(V), Opnd::imm32(0x7fffffff)});
      setMod(F.blocks[Cur].insts.back(), "fn", uint32_t(isa::LogicOp::AND));
      uint64_t Pat = I.has(Mod::Subnormal) ? 0x0010000000000000ull : 0x7ff0000000000000ull;
      Opnd K = imm64(Pat);
      isa::ICmp C = I.has(Mod::Infinite)     ? isa::ICmp::EQ
                    : I.has(Mod::NotANumber) ? isa::ICmp::GT
                    : I.has(Mod::Number)     ? isa::ICmp::LE
                                             : isa::ICmp::LT;
      Inst &X = E(Opcode::ISETP, {P, Ab, K, Opnd::pt()});
      setMod(X, "cmp", uint32_t(C));
      setMod(X, "ty", uint32_t(isa::ITy::U64));
      if (I.has(Mod::Subnormal)) {
        Opnd NZ = vp();
        Inst &Y = E(Opcode::ISETP, {NZ, Ab, Opnd::rz(), Opnd::pt()});
        (void)Y;
        setMod(F.blocks[Cur].insts.back(), "cmp", uint32_t(isa::ICmp::NE));
        setMod(F.blocks[Cur].insts.back(), "ty", uint32_t(isa::ITy::U64));
        E(Opcode::PLOP3, {P, P, NZ, Opnd::pt(), Opnd::imm32(0xC0)});
      }
      return;
    }
    if (I.has(Mod::Finite))
      Cmp(P, isa::ICmp::LT, Inf);
    else if (I.has(Mod::Infinite))
      Cmp(P, isa::ICmp::EQ, Inf);
    else if (I.has(Mod::Number))
      Cmp(P, isa::ICmp::LE, Inf);
    else if (I.has(Mod::NotANumber))
      Cmp(P, isa::ICmp::GT, Inf);
    else if (I.has(Mod::Normal)) {
      Opnd Q = vp();
      Cmp(P, isa::ICmp::GE, MinN);
      Cmp(Q, isa::ICmp::LT, Inf);
      E(Opcode::PLOP3, {P, P, Q, Opnd::pt(), Opnd::imm32(0xC0)});
    } else {
      Opnd Q = vp();
      Cmp(P, isa::ICmp::LT, MinN);
      Cmp(Q, isa::ICmp::NE, 0);
      E(Opcode::PLOP3, {P, P, Q, Opnd::pt(), Opnd::imm32(0xC0)});
    }
    return;
  }
  case Op::Tex:
  case Op::Tld4:
  case Op::Suld:
  case Op::Sust: {
    // LowerTexture.cpp, through the emission services it borrows.
    TexLowerCtx C{F,
                  [this](Opcode Op, std::initializer_list<Opnd> Ops) -> Inst & { return E(Op, Ops); },
                  [this](const ptx::Operand &X) { return src32(X); },
                  [this](const ptx::Operand &X) { return src64(X); },
                  [this](const ptx::Operand &X) { return dst(X); },
                  [this](const std::string &What) { unsupported(What); }};
    return lowerTexture(I, C);
  }
  default:
    unsupported();
  }
}

void Lowering::lowerMov(const ptx::Instruction &I) {
  const ptx::Operand &D = I.operands[0], &S = I.operands[1];
  Type T = I.type(0);
  if (T == Type::Pred) {
    Opnd P = predSrc(S);
    E(Opcode::PLOP3, {dst(D), P, Opnd::pt(), Opnd::pt(), Opnd::imm32(0xF0)});
    return;
  }
  // Packing and unpacking vectors: mov.b64 %rd, {%r1, %r2}; mov.b32 {%h1, %h2}, %r.
  if (S.kind == ptx::OperandKind::Vector || D.kind == ptx::OperandKind::Vector) {
    unsigned N = unsigned(S.kind == ptx::OperandKind::Vector ? S.elems.size() : D.elems.size());
    unsigned EB = bits(T) / N;
    if (S.kind == ptx::OperandKind::Vector) {
      Opnd Dv = dst(D);
      if (EB == 32 || EB == 64) {
        for (unsigned K = 0; K < N; ++K) {
          if (EB == 64) {
            Opnd Sv = src64(S.elems[K]);
            mov32(word(Dv, uint8_t(2 * K)), lo(Sv));
            mov32(word(Dv, uint8_t(2 * K + 1)), hi(Sv));
          } else {
            mov32(word(Dv, uint8_t(K)), src32(S.elems[K]));
          }
        }
        return;
      }
      if (EB == 16 && N == 2) {
        Opnd Sel = imm(0x5410);
        E(Opcode::PRMT, {dst32(D), src32(S.elems[0]), src32(S.elems[1]), Sel});
        return;
      }
      if (EB == 8 && N == 4) {
        Opnd A = v32(), Bv = v32();
        E(Opcode::PRMT, {A, src32(S.elems[0]), src32(S.elems[1]), imm(0x0040)});
        E(Opcode::PRMT, {Bv, src32(S.elems[2]), src32(S.elems[3]), imm(0x0040)});
        E(Opcode::PRMT, {dst32(D), A, Bv, imm(0x5410)});
        return;
      }
      return unsupported("vector packing");
    }
    Opnd Sv = src(S, T);
    for (unsigned K = 0; K < N; ++K) {
      const ptx::Operand &De = D.elems[K];
      if (De.kind == ptx::OperandKind::Sink)
        continue;
      if (EB == 32) {
        mov32(dst(De), word(Sv, uint8_t(K)));
      } else if (EB == 16 || EB == 8) {
        Opnd W = bits(T) == 64 ? word(Sv, uint8_t(K * EB / 32)) : Sv;
        unsigned Sh = (K * EB) % 32;
        Opnd Dd = dst32(De);
        if (Sh == 0)
          mov32(Dd, W);
        else
          E(Opcode::SHR_I, {Dd, W, Opnd::imm32(Sh)}), setMod(F.blocks[Cur].insts.back(), "ty", 1);
      } else {
        return unsupported("vector unpacking");
      }
    }
    return;
  }
  if (S.kind == ptx::OperandKind::Symbol) {
    if (S.symKind == ptx::SymbolKind::Global) {
      RegProv[D.reg] = {true, S.index, S.imm};
    }
  } else if (S.kind == ptx::OperandKind::Reg && RegProv.count(S.reg)) {
    RegProv[D.reg] = RegProv[S.reg];
  }
  unsigned B = bits(T);
  if (B == 64) {
    Opnd Dv = dst(D);
    Opnd Sv = src64(S);
    if (Sv.kind == OpndKind::VReg && Sv.sub == kWhole && Sv.reg == Dv.reg)
      return;
    mov64(Dv, Sv);
    return;
  }
  if (B == 128)
    return unsupported("128-bit move");
  Opnd Dv = dst32(D);
  if (S.kind == ptx::OperandKind::Imm || S.kind == ptx::OperandKind::FImm) {
    Opnd V = src32(S, T);
    if (V.kind == OpndKind::Phys)
      mov32(Dv, V);
    else // retarget the MOV32I just emitted
      F.blocks[Cur].insts.back().ops[0] = Dv;
    return;
  }
  mov32(Dv, src32(S, T));
}

void Lowering::lowerAddSub(const ptx::Instruction &I, bool Sub) {
  const auto &O = I.operands;
  Type T = I.type(0);
  if (isFloatT(T) || T == Type::F16x2 || T == Type::BF16x2)
    return lowerFloatBinary(I, Opcode::FADD, Opcode::DADD, Sub);
  if (bits(T) == 64) {
    if (!Sub && O[1].kind == ptx::OperandKind::Reg && RegProv.count(O[1].reg) &&
        O[2].kind == ptx::OperandKind::Imm) {
      Provenance P = RegProv[O[1].reg];
      P.offset += O[2].imm;
      RegProv[O[0].reg] = P;
    }
    add64(dst(O[0]), src64(O[1]), src64(O[2]), Sub);
    return;
  }
  if (I.has(Mod::Sat)) {
    // add.sat.s32: compute in 64 bits and clamp.
    Opnd A = v64(), Bv = v64(), S = v64();
    Inst &X = E(Opcode::I2I, {A, src32(O[1])});
    setMod(X, "dst", uint32_t(isa::IntType::S64));
    setMod(X, "src", uint32_t(isa::IntType::S32));
    Inst &Y = E(Opcode::I2I, {Bv, src32(O[2])});
    setMod(Y, "dst", uint32_t(isa::IntType::S64));
    setMod(Y, "src", uint32_t(isa::IntType::S32));
    add64(S, A, Bv, Sub);
    Inst &Z = E(Opcode::I2I, {dst32(O[0]), S});
    setMod(Z, "dst", uint32_t(isa::IntType::S32));
    setMod(Z, "src", uint32_t(isa::IntType::S64));
    setMod(Z, "sat", 1);
    return;
  }
  if (O[2].kind == ptx::OperandKind::Imm) {
    int64_t V = Sub ? -O[2].imm : O[2].imm;
    E(Opcode::IADD_I, {dst32(O[0]), src32(O[1]), Opnd::imm32(V)});
    return;
  }
  Inst &X = E(Opcode::IADD, {dst32(O[0]), src32(O[1]), src32(O[2]), Opnd::pt(), Opnd::pt()});
  setMod(X, "invb", Sub);
}

void Lowering::lowerFloatBinary(const ptx::Instruction &I, Opcode Op32, Opcode Op64, bool NegB) {
  const auto &O = I.operands;
  Type T = I.type(0);
  if (T == Type::F64) {
    Inst &X = E(Op64, {dst(O[0]), src64(O[1]), src64(O[2])});
    setMod(X, "rnd", uint32_t(rnd(I)));
    setMod(X, "negb", NegB);
    return;
  }
  if (T == Type::F32) {
    Inst &X = E(Op32, {dst32(O[0]), src32(O[1], T), src32(O[2], T)});
    setMod(X, "rnd", uint32_t(rnd(I)));
    setMod(X, "ftz", I.has(Mod::Ftz));
    setMod(X, "sat", I.has(Mod::Sat));
    setMod(X, "negb", NegB);
    return;
  }
  if (T == Type::F16 || T == Type::BF16 || T == Type::F16x2 || T == Type::BF16x2) {
    bool Pair = T == Type::F16x2 || T == Type::BF16x2;
    isa::FltType FT = (T == Type::F16 || T == Type::F16x2) ? isa::FltType::F16 : isa::FltType::BF16;
    Opnd A = src32(O[1]), Bv = src32(O[2]);
    Opnd Res[2];
    for (unsigned H = 0; H < (Pair ? 2u : 1u); ++H) {
      Opnd Ah = A, Bh = Bv;
      if (H) {
        Ah = v32();
        Bh = v32();
        E(Opcode::SHR_I, {Ah, A, Opnd::imm32(16)});
        setMod(F.blocks[Cur].insts.back(), "ty", 1);
        E(Opcode::SHR_I, {Bh, Bv, Opnd::imm32(16)});
        setMod(F.blocks[Cur].insts.back(), "ty", 1);
      }
      Opnd Af = f2f(Ah, isa::FltType::F32, FT), Bf = f2f(Bh, isa::FltType::F32, FT);
      Opnd R = v32();
      Inst &X = E(Op32, {R, Af, Bf});
      setMod(X, "negb", NegB);
      setMod(X, "sat", I.has(Mod::Sat));
      Res[H] = f2f(R, FT, isa::FltType::F32, isa::RndF(uint32_t(rnd(I))), I.has(Mod::Ftz));
    }
    if (Pair)
      E(Opcode::PRMT, {dst32(O[0]), Res[0], Res[1], imm(0x5410)});
    else
      mov32(dst32(O[0]), Res[0]);
    return;
  }
  unsupported("type");
}

void Lowering::lowerMul(const ptx::Instruction &I) {
  const auto &O = I.operands;
  Type T = I.type(0);
  if (isFloatT(T) || T == Type::F16x2 || T == Type::BF16x2)
    return lowerFloatBinary(I, Opcode::FMUL, Opcode::DMUL, false);
  bool S = isSignedT(T);
  auto Ty32 = uint32_t(S ? isa::ITy32::S32 : isa::ITy32::U32);
  unsigned B = bits(T);
  if (I.has(Mod::Wide)) {
    if (B == 32) {
      Inst &X = E(Opcode::IMULWIDE, {dst(O[0]), src32(O[1]), src32(O[2])});
      setMod(X, "ty", Ty32);
      return;
    }
    // 16-bit wide: extend, then a 32-bit product.
    E(Opcode::IMUL, {dst32(O[0]), extend(src32(O[1]), T), extend(src32(O[2]), T)});
    return;
  }
  if (B == 64) {
    Opnd A = src64(O[1]), Bv = src64(O[2]);
    Opnd D = dst(O[0]);
    if (I.has(Mod::Hi)) {
      // High 64 bits of the 128-bit product from four 32x32 partial products.
      auto Wide = [&](Opnd X, Opnd Y, Opnd Add) {
        Opnd R = v64();
        Inst &W = E(Opcode::IMADWIDE, {R, X, Y, Add});
        setMod(W, "ty", uint32_t(isa::ITy32::U32));
        return R;
      };
      auto Pair32 = [&](Opnd X) {
        Opnd R = v64();
        mov32(lo(R), X);
        mov32(hi(R), Opnd::rz());
        return R;
      };
      Opnd Z = imm64(0);
      Opnd T0 = Wide(lo(A), lo(Bv), Z);
      Opnd U = Wide(lo(A), hi(Bv), Pair32(hi(T0)));
      Opnd V = Wide(hi(A), lo(Bv), Pair32(lo(U)));
      Opnd W = Wide(hi(A), hi(Bv), Pair32(hi(U)));
      Opnd R = v64();
      add64(R, W, Pair32(hi(V)), false);
      if (S) {
        // signed: subtract b when a < 0 and a when b < 0.
        for (int K = 0; K < 2; ++K) {
          Opnd X = K ? Bv : A, Y = K ? A : Bv;
          Opnd Neg = vp();
          Inst &C = E(Opcode::ISETP_I, {Neg, hi(X), Opnd::imm32(0)});
          setMod(C, "cmp", uint32_t(isa::ICmp::LT));
          Opnd Sub = v64();
          E(Opcode::SEL, {lo(Sub), lo(Y), Opnd::rz(), Neg});
          E(Opcode::SEL, {hi(Sub), hi(Y), Opnd::rz(), Neg});
          add64(R, R, Sub, true);
        }
      }
      mov64(D, R);
      return;
    }
    Opnd T0 = v64();
    Inst &W = E(Opcode::IMULWIDE, {T0, lo(A), lo(Bv)});
    setMod(W, "ty", uint32_t(isa::ITy32::U32));
    E(Opcode::IMAD, {hi(T0), lo(A), hi(Bv), hi(T0)});
    E(Opcode::IMAD, {hi(T0), hi(A), lo(Bv), hi(T0)});
    mov64(D, T0);
    return;
  }
  if (I.has(Mod::Hi)) {
    if (B == 32) {
      Inst &X = E(Opcode::IMULHI, {dst32(O[0]), src32(O[1]), src32(O[2])});
      setMod(X, "ty", Ty32);
      return;
    }
    Opnd P = v32();
    E(Opcode::IMUL, {P, extend(src32(O[1]), T), extend(src32(O[2]), T)});
    Inst &X = E(Opcode::SHR_I, {dst32(O[0]), P, Opnd::imm32(B)});
    setMod(X, "ty", Ty32);
    return;
  }
  if (O[2].kind == ptx::OperandKind::Imm) {
    E(Opcode::IMUL_I, {dst32(O[0]), src32(O[1]), Opnd::imm32(O[2].imm)});
    return;
  }
  E(Opcode::IMUL, {dst32(O[0]), src32(O[1]), src32(O[2])});
}

void Lowering::lowerMad(const ptx::Instruction &I) {
  const auto &O = I.operands;
  Type T = I.type(0);
  if (T == Type::F64) {
    Inst &X = E(Opcode::DFMA, {dst(O[0]), src64(O[1]), src64(O[2]), src64(O[3])});
    setMod(X, "rnd", uint32_t(rnd(I)));
    return;
  }
  if (T == Type::F32) {
    Inst &X = E(Opcode::FFMA, {dst32(O[0]), src32(O[1], T), src32(O[2], T), src32(O[3], T)});
    setMod(X, "rnd", uint32_t(rnd(I)));
    setMod(X, "ftz", I.has(Mod::Ftz));
    setMod(X, "sat", I.has(Mod::Sat));
    return;
  }
  if (T == Type::F16 || T == Type::BF16 || T == Type::F16x2 || T == Type::BF16x2) {
    bool Pair = T == Type::F16x2 || T == Type::BF16x2;
    isa::FltType FT = (T == Type::F16 || T == Type::F16x2) ? isa::FltType::F16 : isa::FltType::BF16;
    Opnd Src[3] = {src32(O[1]), src32(O[2]), src32(O[3])};
    Opnd Res[2];
    for (unsigned H = 0; H < (Pair ? 2u : 1u); ++H) {
      Opnd Fv[3];
      for (int K = 0; K < 3; ++K) {
        Opnd X = Src[K];
        if (H) {
          X = v32();
          E(Opcode::SHR_I, {X, Src[K], Opnd::imm32(16)});
          setMod(F.blocks[Cur].insts.back(), "ty", 1);
        }
        Fv[K] = f2f(X, isa::FltType::F32, FT);
      }
      Opnd R = v32();
      Inst &X = E(Opcode::FFMA, {R, Fv[0], Fv[1], Fv[2]});
      setMod(X, "sat", I.has(Mod::Sat));
      Res[H] = f2f(R, FT, isa::FltType::F32, isa::RndF(uint32_t(rnd(I))));
    }
    if (Pair)
      E(Opcode::PRMT, {dst32(O[0]), Res[0], Res[1], imm(0x5410)});
    else
      mov32(dst32(O[0]), Res[0]);
    return;
  }
  bool S = isSignedT(T);
  auto Ty32 = uint32_t(S ? isa::ITy32::S32 : isa::ITy32::U32);
  unsigned B = bits(T);
  if (I.has(Mod::Wide) && B == 32) {
    Inst &X = E(Opcode::IMADWIDE, {dst(O[0]), src32(O[1]), src32(O[2]), src64(O[3])});
    setMod(X, "ty", Ty32);
    return;
  }
  if (B == 64 && !I.has(Mod::Hi)) {
    Opnd A = src64(O[1]), Bv = src64(O[2]), C = src64(O[3]);
    Opnd T0 = v64();
    Inst &W = E(Opcode::IMADWIDE, {T0, lo(A), lo(Bv), C});
    setMod(W, "ty", uint32_t(isa::ITy32::U32));
    E(Opcode::IMAD, {hi(T0), lo(A), hi(Bv), hi(T0)});
    E(Opcode::IMAD, {hi(T0), hi(A), lo(Bv), hi(T0)});
    mov64(dst(O[0]), T0);
    return;
  }
  if (B == 32 && I.has(Mod::Hi)) {
    Inst &X = E(Opcode::IMADHI, {dst32(O[0]), src32(O[1]), src32(O[2]), src32(O[3])});
    setMod(X, "ty", Ty32);
    return;
  }
  if (B <= 32 && !I.has(Mod::Hi) && !I.has(Mod::Wide)) {
    E(Opcode::IMAD, {dst32(O[0]), src32(O[1]), src32(O[2]), src32(O[3])});
    return;
  }
  unsupported("mad form");
}

void Lowering::lowerDivRem(const ptx::Instruction &I, bool Rem) {
  const auto &O = I.operands;
  Type T = I.type(0);
  if (isFloatT(T)) {
    if (Rem)
      return unsupported();
    if (T == Type::F64) {
      Inst &X = E(Opcode::DDIV, {dst(O[0]), src64(O[1]), src64(O[2])});
      setMod(X, "rnd", uint32_t(rnd(I)));
      return;
    }
    if (T == Type::F32 && I.has(Mod::Approx)) {
      // div.approx.f32 is a * (1/b); PTX defines its result for 2^126 < |b| < 2^128, where 1/b
      // is flushed: a * (signed zero), so 0 or NaN when a is infinite. Elsewhere the correctly
      // rounded quotient is within its 2 ulp (and keeps subnormal divisors exact, as ptxas does).
      Opnd A = src32(O[1], T), Bv = src32(O[2], T), Q = v32(), Z = v32(), Big = vp();
      Inst &D = E(Opcode::FDIV, {Q, A, Bv});
      setMod(D, "ftz", I.has(Mod::Ftz));
      Inst &C = E(Opcode::FSETP, {Big, lopI(Bv, 0x7fffffffu, isa::LogicOp::AND), imm(0x7e800000),
                                  Opnd::pt()});
      setMod(C, "cmp", uint32_t(isa::FCmp::GT));
      E(Opcode::FMUL, {Z, A, lopI(Bv, 0x80000000u, isa::LogicOp::AND)});
      E(Opcode::SEL, {dst32(O[0]), Z, Q, Big});
      return;
    }
    if (T == Type::F32) {
      Inst &X = E(Opcode::FDIV, {dst32(O[0]), src32(O[1], T), src32(O[2], T)});
      setMod(X, "rnd", uint32_t(rnd(I)));
      setMod(X, "ftz", I.has(Mod::Ftz));
      return;
    }
    return unsupported("type");
  }
  bool S = isSignedT(T);
  unsigned B = bits(T);
  Opcode Op = Rem ? Opcode::IREM : Opcode::IDIV;
  if (B == 64) {
    Inst &X = E(Op, {dst(O[0]), src64(O[1]), src64(O[2])});
    setMod(X, "ty", uint32_t(S ? isa::ITy::S64 : isa::ITy::U64));
    return;
  }
  Inst &X = E(Op, {dst32(O[0]), extend(src32(O[1]), T), extend(src32(O[2]), T)});
  setMod(X, "ty", uint32_t(S ? isa::ITy::S32 : isa::ITy::U32));
}

void Lowering::lowerAbsNeg(const ptx::Instruction &I, bool Neg) {
  const auto &O = I.operands;
  Type T = I.type(0);
  auto Lop = [&](Opnd D, Opnd A, uint32_t V, isa::LogicOp Fn) {
    Inst &X = E(Opcode::LOP_I, {D, A, Opnd::imm32(V)});
    setMod(X, "fn", uint32_t(Fn));
  };
  if (isFloatT(T) || T == Type::F16x2 || T == Type::BF16x2) {
    uint32_t Mask = bits(T) == 16 ? 0x8000u : 0x80000000u;
    if (T == Type::F16x2 || T == Type::BF16x2)
      Mask = 0x80008000u;
    if (T == Type::F64) {
      Opnd A = src64(O[1]), D = dst(O[0]), R = v64();
      mov32(lo(R), lo(A));
      Lop(hi(R), hi(A), Neg ? Mask : ~Mask, Neg ? isa::LogicOp::XOR : isa::LogicOp::AND);
      mov64(D, R);
      return;
    }
    Lop(dst32(O[0]), src32(O[1]), Neg ? Mask : ~Mask, Neg ? isa::LogicOp::XOR : isa::LogicOp::AND);
    return;
  }
  if (bits(T) == 64) {
    Opnd A = src64(O[1]);
    Opnd N = v64();
    add64(N, imm64(0), A, true);
    if (Neg) {
      mov64(dst(O[0]), N);
      return;
    }
    Opnd P = vp();
    Inst &C = E(Opcode::ISETP_I, {P, hi(A), Opnd::imm32(0)});
    setMod(C, "cmp", uint32_t(isa::ICmp::LT));
    Opnd R = v64();
    E(Opcode::SEL, {lo(R), lo(N), lo(A), P});
    E(Opcode::SEL, {hi(R), hi(N), hi(A), P});
    mov64(dst(O[0]), R);
    return;
  }
  Opnd A = extend(src32(O[1]), T);
  if (Neg) {
    Inst &X = E(Opcode::IADD, {dst32(O[0]), Opnd::rz(), A, Opnd::pt(), Opnd::pt()});
    setMod(X, "invb", 1);
  } else {
    E(Opcode::IABS, {dst32(O[0]), A});
  }
}

void Lowering::lowerMinMax(const ptx::Instruction &I, bool Max) {
  const auto &O = I.operands;
  Type T = I.type(0);
  auto Fn = uint32_t(Max ? isa::MinMax::MAX : isa::MinMax::MIN);
  if (T == Type::F64) {
    Inst &X = E(Opcode::DMNMX, {dst(O[0]), src64(O[1]), src64(O[2])});
    setMod(X, "fn", Fn);
    setMod(X, "nan", I.has(Mod::NaN));
    return;
  }
  if (T == Type::F32) {
    Inst &X = E(Opcode::FMNMX, {dst32(O[0]), src32(O[1], T), src32(O[2], T)});
    setMod(X, "fn", Fn);
    setMod(X, "ftz", I.has(Mod::Ftz));
    setMod(X, "nan", I.has(Mod::NaN));
    return;
  }
  if (T == Type::F16 || T == Type::BF16) {
    isa::FltType FT = T == Type::F16 ? isa::FltType::F16 : isa::FltType::BF16;
    Opnd R = v32();
    Inst &X = E(Opcode::FMNMX, {R, f2f(src32(O[1]), isa::FltType::F32, FT),
                                f2f(src32(O[2]), isa::FltType::F32, FT)});
    setMod(X, "fn", Fn);
    setMod(X, "nan", I.has(Mod::NaN));
    mov32(dst32(O[0]), f2f(R, FT, isa::FltType::F32));
    return;
  }
  if (T == Type::F16x2 || T == Type::BF16x2) {
    // Each half through f32 (exact), then packed again.
    isa::FltType FT = T == Type::F16x2 ? isa::FltType::F16 : isa::FltType::BF16;
    Opnd A = src32(O[1]), Bv = src32(O[2]), Res[2];
    for (unsigned H = 0; H < 2; ++H) {
      Opnd Ah = H ? lopShr16(A) : A, Bh = H ? lopShr16(Bv) : Bv;
      Opnd R = v32();
      Inst &X = E(Opcode::FMNMX, {R, f2f(Ah, isa::FltType::F32, FT), f2f(Bh, isa::FltType::F32, FT)});
      setMod(X, "fn", Fn);
      setMod(X, "nan", I.has(Mod::NaN));
      Res[H] = f2f(R, FT, isa::FltType::F32);
    }
    E(Opcode::PRMT, {dst32(O[0]), Res[0], Res[1], imm(0x5410)});
    return;
  }
  bool S = isSignedT(T);
  if (bits(T) == 64) {
    Opnd A = src64(O[1]), Bv = src64(O[2]);
    Opnd P = vp();
    Inst &C = E(Opcode::ISETP, {P, A, Bv, Opnd::pt()});
    setMod(C, "cmp", uint32_t(Max ? isa::ICmp::GT : isa::ICmp::LT));
    setMod(C, "ty", uint32_t(S ? isa::ITy::S64 : isa::ITy::U64));
    Opnd R = v64();
    E(Opcode::SEL, {lo(R), lo(A), lo(Bv), P});
    E(Opcode::SEL, {hi(R), hi(A), hi(Bv), P});
    mov64(dst(O[0]), R);
    return;
  }
  Inst &X = E(Opcode::IMNMX, {dst32(O[0]), extend(src32(O[1]), T), extend(src32(O[2]), T)});
  setMod(X, "fn", Fn);
  setMod(X, "ty", uint32_t(S ? isa::ITy32::S32 : isa::ITy32::U32));
}

void Lowering::lowerUnaryFloat(const ptx::Instruction &I) {
  const auto &O = I.operands;
  Type T = I.type(0);
  bool Approx = I.has(Mod::Approx);
  auto Mufu = [&](isa::SfuFn Fn) {
    if (T != Type::F32)
      return unsupported("type");
    Inst &X = E(Opcode::MUFU, {dst32(O[0]), src32(O[1], T)});
    setMod(X, "fn", uint32_t(Fn));
    setMod(X, "ftz", I.has(Mod::Ftz));
  };
  switch (I.op) {
  case Op::Rcp:
    if (T == Type::F64) {
      if (Approx) {
        // rcp.approx.ftz.f64: a correctly rounded reciprocal is within its bound.
      }
      Inst &X = E(Opcode::DDIV, {dst(O[0]), imm64(0x3ff0000000000000ull), src64(O[1])});
      setMod(X, "rnd", uint32_t(rnd(I)));
      return;
    }
    if (Approx)
      return Mufu(isa::SfuFn::RCP);
    {
      Inst &X = E(Opcode::FDIV, {dst32(O[0]), imm(0x3f800000), src32(O[1], T)});
      setMod(X, "rnd", uint32_t(rnd(I)));
      setMod(X, "ftz", I.has(Mod::Ftz));
    }
    return;
  case Op::Sqrt:
    if (T == Type::F64) {
      Inst &X = E(Opcode::DSQRT, {dst(O[0]), src64(O[1])});
      setMod(X, "rnd", uint32_t(rnd(I)));
      return;
    }
    if (Approx)
      return Mufu(isa::SfuFn::SQRT);
    {
      Inst &X = E(Opcode::FSQRT, {dst32(O[0]), src32(O[1], T)});
      setMod(X, "rnd", uint32_t(rnd(I)));
      setMod(X, "ftz", I.has(Mod::Ftz));
    }
    return;
  case Op::Rsqrt:
    if (T == Type::F64) {
      Opnd S = v64();
      E(Opcode::DSQRT, {S, src64(O[1])});
      E(Opcode::DDIV, {dst(O[0]), imm64(0x3ff0000000000000ull), S});
      return;
    }
    return Mufu(isa::SfuFn::RSQ);
  case Op::Sin:
    return Mufu(isa::SfuFn::SIN);
  case Op::Cos:
    return Mufu(isa::SfuFn::COS);
  case Op::Lg2:
    return Mufu(isa::SfuFn::LG2);
  case Op::Ex2:
    return Mufu(isa::SfuFn::EX2);
  case Op::Tanh:
    return Mufu(isa::SfuFn::TANH);
  case Op::Copysign: {
    // copysign d, a, b: sign of a, magnitude of b. LOP3 with mask c: (a & c) | (b & ~c).
    if (T == Type::F64) {
      Opnd A = src64(O[1]), Bv = src64(O[2]), R = v64();
      mov32(lo(R), lo(Bv));
      E(Opcode::LOP3, {hi(R), hi(A), hi(Bv), imm(int64_t(0x80000000u)), Opnd::imm32(0xE4)});
      mov64(dst(O[0]), R);
      return;
    }
    E(Opcode::LOP3,
      {dst32(O[0]), src32(O[1]), src32(O[2]), imm(int64_t(0x80000000u)), Opnd::imm32(0xE4)});
    return;
  }
  default:
    unsupported();
  }
}

void Lowering::lowerBitOps(const ptx::Instruction &I) {
  const auto &O = I.operands;
  Type T = I.type(0);
  bool W64 = bits(T) == 64;
  switch (I.op) {
  case Op::Popc:
    if (W64) {
      Opnd A = src64(O[1]), X = v32(), Y = v32();
      E(Opcode::POPC, {X, lo(A)});
      E(Opcode::POPC, {Y, hi(A)});
      E(Opcode::IADD, {dst32(O[0]), X, Y, Opnd::pt(), Opnd::pt()});
      return;
    }
    E(Opcode::POPC, {dst32(O[0]), src32(O[1])});
    return;
  case Op::Clz:
    if (W64) {
      Opnd A = src64(O[1]), X = v32(), Y = v32(), P = vp();
      E(Opcode::CLZ, {X, hi(A)});
      E(Opcode::CLZ, {Y, lo(A)});
      E(Opcode::IADD_I, {Y, Y, Opnd::imm32(32)});
      Inst &C = E(Opcode::ISETP_I, {P, hi(A), Opnd::imm32(0)});
      setMod(C, "cmp", uint32_t(isa::ICmp::EQ));
      E(Opcode::SEL, {dst32(O[0]), Y, X, P});
      return;
    }
    E(Opcode::CLZ, {dst32(O[0]), src32(O[1])});
    return;
  case Op::Brev:
    if (W64) {
      Opnd A = src64(O[1]), R = v64();
      E(Opcode::BREV, {lo(R), hi(A)});
      E(Opcode::BREV, {hi(R), lo(A)});
      mov64(dst(O[0]), R);
      return;
    }
    E(Opcode::BREV, {dst32(O[0]), src32(O[1])});
    return;
  case Op::Bfind: {
    if (W64) {
      Opnd A = src64(O[1]), X = v32(), Y = v32(), P = vp();
      if (isSignedT(T)) {
        // bfind.s64 looks for the highest bit that differs from the sign: complement negatives.
        Opnd Sg = v32(), A2 = v64();
        Inst &Sh = E(Opcode::SHR_I, {Sg, hi(A), Opnd::imm32(31)});
        setMod(Sh, "ty", uint32_t(isa::ITy32::S32));
        E(Opcode::LOP3, {lo(A2), lo(A), Sg, Opnd::rz(), Opnd::imm32(0x3C)});
        E(Opcode::LOP3, {hi(A2), hi(A), Sg, Opnd::rz(), Opnd::imm32(0x3C)});
        A = A2;
      }
      E(Opcode::BFIND, {X, hi(A)});
      setMod(F.blocks[Cur].insts.back(), "ty", uint32_t(isa::ITy32::U32));
      E(Opcode::BFIND, {Y, lo(A)});
      setMod(F.blocks[Cur].insts.back(), "ty", uint32_t(isa::ITy32::U32));
      E(Opcode::IADD_I, {X, X, Opnd::imm32(32)});
      Inst &C = E(Opcode::ISETP_I, {P, hi(A), Opnd::imm32(0)});
      setMod(C, "cmp", uint32_t(isa::ICmp::NE));
      Opnd R = v32();
      E(Opcode::SEL, {R, X, Y, P});
      if (I.has(Mod::ShiftAmt)) {
        // 63 - pos, 0xffffffff stays.
        Opnd N = vp(), S = v32();
        Inst &C2 = E(Opcode::ISETP_I, {N, R, Opnd::imm32(-1)});
        setMod(C2, "cmp", uint32_t(isa::ICmp::EQ));
        Inst &Sb = E(Opcode::IADD, {S, imm(63), R, Opnd::pt(), Opnd::pt()});
        setMod(Sb, "invb", 1);
        E(Opcode::SEL, {dst32(O[0]), R, S, N});
      } else {
        mov32(dst32(O[0]), R);
      }
      return;
    }
    Inst &X = E(Opcode::BFIND, {dst32(O[0]), src32(O[1])});
    setMod(X, "ty", uint32_t(isSignedT(T) ? isa::ITy32::S32 : isa::ITy32::U32));
    setMod(X, "shiftamt", I.has(Mod::ShiftAmt));
    return;
  }
  case Op::Bfe:
  case Op::Bfi: {
    if (W64)
      return lowerBitField64(I);
    bool Ins = I.op == Op::Bfi;
    const ptx::Operand &Pos = O[Ins ? 3 : 2], &Len = O[Ins ? 4 : 3];
    Opnd Packed;
    if (Pos.kind == ptx::OperandKind::Imm && Len.kind == ptx::OperandKind::Imm)
      Packed = imm((Pos.imm & 0xff) | ((Len.imm & 0xff) << 8));
    else {
      Packed = v32();
      E(Opcode::PRMT, {Packed, src32(Pos), src32(Len), imm(0x0040)});
    }
    if (Ins) {
      E(Opcode::BFI, {dst32(O[0]), src32(O[1]), src32(O[2]), Packed});
      return;
    }
    Inst &X = E(Opcode::BFE, {dst32(O[0]), src32(O[1]), Packed});
    setMod(X, "ty", uint32_t(isSignedT(T) ? isa::ITy32::S32 : isa::ITy32::U32));
    return;
  }
  case Op::Prmt: {
    isa::PrmtMode Md = isa::PrmtMode::IDX;
    if (I.has(Mod::F4e))
      Md = isa::PrmtMode::F4E;
    if (I.has(Mod::B4e))
      Md = isa::PrmtMode::B4E;
    if (I.has(Mod::Rc8))
      Md = isa::PrmtMode::RC8;
    if (I.has(Mod::Ecl))
      Md = isa::PrmtMode::ECL;
    if (I.has(Mod::Ecr))
      Md = isa::PrmtMode::ECR;
    if (I.has(Mod::Rc16))
      Md = isa::PrmtMode::RC16;
    Inst &X = E(Opcode::PRMT, {dst32(O[0]), src32(O[1]), src32(O[2]), src32(O[3])});
    setMod(X, "mode", uint32_t(Md));
    return;
  }
  case Op::Shf: {
    Inst &X = E(Opcode::SHF, {dst32(O[0]), src32(O[1]), src32(O[2]), src32(O[3])});
    setMod(X, "dir", uint32_t(I.has(Mod::R) ? isa::ShfDir::R : isa::ShfDir::L));
    setMod(X, "mode", uint32_t(I.has(Mod::Wrap) ? isa::ShfMode::WRAP : isa::ShfMode::CLAMP));
    return;
  }
  case Op::Lop3: {
    if (O[4].kind != ptx::OperandKind::Imm)
      return unsupported("non-constant LUT");
    E(Opcode::LOP3,
      {dst32(O[0]), src32(O[1]), src32(O[2]), src32(O[3]), Opnd::imm32(O[4].imm & 0xff)});
    return;
  }
  case Op::Cnot: {
    Opnd P = vp();
    Inst &C = E(Opcode::ISETP_I, {P, extend(src32(O[1]), T), Opnd::imm32(0)});
    setMod(C, "cmp", uint32_t(isa::ICmp::EQ));
    E(Opcode::SEL, {dst32(O[0]), imm(1), Opnd::rz(), P});
    return;
  }
  default:
    unsupported();
  }
}

void Lowering::lowerLogic(const ptx::Instruction &I, uint8_t Lut, isa::LogicOp LOp) {
  const auto &O = I.operands;
  Type T = I.type(0);
  bool Not = I.op == Op::Not;
  if (T == Type::Pred) {
    Opnd A = predSrc(O[1]);
    Opnd Bv = Not ? Opnd::pt() : predSrc(O[2]);
    E(Opcode::PLOP3, {dst(O[0]), A, Bv, Opnd::pt(), Opnd::imm32(Lut)});
    return;
  }
  unsigned Words = bits(T) == 64 ? 2 : 1;
  if (Words == 2) {
    Opnd A = src64(O[1]);
    Opnd R = v64();
    if (Not) {
      E(Opcode::LOP3, {lo(R), lo(A), Opnd::rz(), Opnd::rz(), Opnd::imm32(Lut)});
      E(Opcode::LOP3, {hi(R), hi(A), Opnd::rz(), Opnd::rz(), Opnd::imm32(Lut)});
    } else if (O[2].kind == ptx::OperandKind::Imm) {
      uint64_t V = uint64_t(O[2].imm);
      Inst &X = E(Opcode::LOP_I, {lo(R), lo(A), Opnd::imm32(int64_t(uint32_t(V)))});
      setMod(X, "fn", uint32_t(LOp));
      Inst &Y = E(Opcode::LOP_I, {hi(R), hi(A), Opnd::imm32(int64_t(uint32_t(V >> 32)))});
      setMod(Y, "fn", uint32_t(LOp));
    } else {
      Opnd Bv = src64(O[2]);
      E(Opcode::LOP3, {lo(R), lo(A), lo(Bv), Opnd::rz(), Opnd::imm32(Lut)});
      E(Opcode::LOP3, {hi(R), hi(A), hi(Bv), Opnd::rz(), Opnd::imm32(Lut)});
    }
    mov64(dst(O[0]), R);
    return;
  }
  if (Not) {
    E(Opcode::LOP3, {dst32(O[0]), src32(O[1]), Opnd::rz(), Opnd::rz(), Opnd::imm32(Lut)});
    return;
  }
  if (O[2].kind == ptx::OperandKind::Imm) {
    Inst &X = E(Opcode::LOP_I, {dst32(O[0]), src32(O[1]), Opnd::imm32(O[2].imm)});
    setMod(X, "fn", uint32_t(LOp));
    return;
  }
  E(Opcode::LOP3, {dst32(O[0]), src32(O[1]), src32(O[2]), Opnd::rz(), Opnd::imm32(Lut)});
}

Opnd Lowering::shift64(Opnd A, Opnd N, bool Left, bool S) {
  auto Ty = uint32_t(S ? isa::ITy32::S32 : isa::ITy32::U32);
  Opnd R = v64();
  Opnd Nm32 = v32(), Small = vp();
  E(Opcode::IADD_I, {Nm32, N, Opnd::imm32(-32)});
  Inst &C = E(Opcode::ISETP_I, {Small, N, Opnd::imm32(32)});
  setMod(C, "cmp", uint32_t(isa::ICmp::LT));
  setMod(C, "ty", uint32_t(isa::ITy32::U32));
  Opnd F1 = v32(), F2 = v32(), Big = v32();
  Inst &X = E(Opcode::SHF, {F1, lo(A), hi(A), N});
  setMod(X, "dir", uint32_t(Left ? isa::ShfDir::L : isa::ShfDir::R));
  if (Left) {
    E(Opcode::SHL, {F2, lo(A), N});     // low word for n < 32 (0 above)
    E(Opcode::SHL, {Big, lo(A), Nm32}); // high word for n >= 32
    E(Opcode::SEL, {hi(R), F1, Big, Small});
    mov32(lo(R), F2);
  } else {
    Inst &Y = E(Opcode::SHR, {F2, hi(A), N}); // high word
    setMod(Y, "ty", Ty);
    Inst &Z = E(Opcode::SHR, {Big, hi(A), Nm32}); // low word for n >= 32
    setMod(Z, "ty", Ty);
    E(Opcode::SEL, {lo(R), F1, Big, Small});
    mov32(hi(R), F2);
  }
  return R;
}

void Lowering::lowerBitField64(const ptx::Instruction &I) {
  // Shift-based: with p = min(pos & 0xff, 64), l = len & 0xff, keep = min(l, 64 - p):
  //   bfe: (a << (64 - p - keep)) >> (64 - keep), arithmetic for .s64; 0 when l is 0;
  //   bfi: mask = (~0 >> (64 - keep)) << p; (b & ~mask) | ((a << p) & mask).
  // 64-bit shifts by 64 give 0 (or the sign fill), which covers keep = 0 and p = 64.
  const auto &O = I.operands;
  Type T = I.type(0);
  bool Ins = I.op == Op::Bfi;
  const ptx::Operand &PosOp = O[Ins ? 3 : 2], &LenOp = O[Ins ? 4 : 3];
  Opnd A = src64(O[1]);
  Opnd P = minmax32(lopI(src32(PosOp), 0xff, isa::LogicOp::AND), imm(64), false, false);
  Opnd L = lopI(src32(LenOp), 0xff, isa::LogicOp::AND);
  Opnd Rem = sub32(imm(64), P);
  Opnd Keep = minmax32(L, Rem, false, false);
  Opnd S2 = sub32(imm(64), Keep);
  Opnd R = v64();
  if (Ins) {
    Opnd Bv = src64(O[2]);
    Opnd M = shift64(shift64(imm64(~0ull), S2, false, false), P, true, false);
    Opnd Ash = shift64(A, P, true, false);
    E(Opcode::LOP3, {lo(R), lo(Bv), lo(Ash), lo(M), Opnd::imm32(0xD8)});
    E(Opcode::LOP3, {hi(R), hi(Bv), hi(Ash), hi(M), Opnd::imm32(0xD8)});
    mov64(dst(O[0]), R);
    return;
  }
  Opnd S1 = sub32(Rem, Keep);
  Opnd X = shift64(shift64(A, S1, true, false), S2, false, isSignedT(T));
  Opnd Z = icmpI(L, 0, isa::ICmp::EQ, false);
  E(Opcode::SEL, {lo(R), Opnd::rz(), lo(X), Z});
  E(Opcode::SEL, {hi(R), Opnd::rz(), hi(X), Z});
  mov64(dst(O[0]), R);
}

void Lowering::lowerSad(const ptx::Instruction &I) {
  // c + |a - b| = c + (max(a, b) - min(a, b)).
  const auto &O = I.operands;
  Type T = I.type(0);
  bool S = isSignedT(T);
  if (bits(T) == 64) {
    Opnd A = src64(O[1]), Bv = src64(O[2]), Cv = src64(O[3]);
    Opnd P = vp();
    Inst &C = E(Opcode::ISETP, {P, A, Bv, Opnd::pt()});
    setMod(C, "cmp", uint32_t(isa::ICmp::GT));
    setMod(C, "ty", uint32_t(S ? isa::ITy::S64 : isa::ITy::U64));
    Opnd Mx = v64(), Mn = v64(), Df = v64(), R = v64();
    E(Opcode::SEL, {lo(Mx), lo(A), lo(Bv), P});
    E(Opcode::SEL, {hi(Mx), hi(A), hi(Bv), P});
    E(Opcode::SEL, {lo(Mn), lo(Bv), lo(A), P});
    E(Opcode::SEL, {hi(Mn), hi(Bv), hi(A), P});
    add64(Df, Mx, Mn, true);
    add64(R, Df, Cv, false);
    mov64(dst(O[0]), R);
    return;
  }
  if (bits(T) != 32)
    return unsupported("type");
  Opnd A = src32(O[1], T), Bv = src32(O[2], T);
  Opnd Df = sub32(minmax32(A, Bv, true, S), minmax32(A, Bv, false, S));
  E(Opcode::IADD, {dst32(O[0]), Df, src32(O[3], T), Opnd::pt(), Opnd::pt()});
}

void Lowering::lowerFns(const ptx::Instruction &I) {
  // fns d, mask, base, offset: the offset-th set bit counting from base (included) upwards for
  // offset > 0, downwards for offset < 0; offset 0 tests bit base. Reduced to the k-th set bit
  // (from bit 0) of a masked value, found by a binary search on POPC of low halves.
  const auto &O = I.operands;
  Opnd Mask = src32(O[1]), Base = src32(O[2]), Off = src32(O[3]);
  Opnd Up = lop3(Mask, lopShl(imm(-1), Base), Opnd::rz(), 0xC0);
  Opnd DnSh = v32();
  Inst &Sh = E(Opcode::SHR, {DnSh, imm(-1), sub32(imm(31), Base)});
  setMod(Sh, "ty", uint32_t(isa::ITy32::U32));
  Opnd Dn = lop3(Mask, DnSh, Opnd::rz(), 0xC0);
  Opnd At = lop3(Mask, lopShl(imm(1), Base), Opnd::rz(), 0xC0);
  Opnd Pos = icmpI(Off, 0, isa::ICmp::GT, true);
  Opnd Zero = icmpI(Off, 0, isa::ICmp::EQ, true);
  Opnd Cnt = v32();
  E(Opcode::POPC, {Cnt, Dn});
  Opnd KDn = v32();
  E(Opcode::IADD, {KDn, Cnt, Off, Opnd::pt(), Opnd::pt()});
  Opnd KDn1 = v32();
  E(Opcode::IADD_I, {KDn1, KDn, Opnd::imm32(1)});
  Opnd X = sel32(At, sel32(Up, Dn, Pos), Zero);
  Opnd K = sel32(imm(1), sel32(Off, KDn1, Pos), Zero);
  Opnd R = Opnd::rz();
  for (uint32_t W : {16u, 8u, 4u, 2u, 1u}) {
    Opnd C = v32();
    E(Opcode::POPC, {C, lopI(X, (1u << W) - 1, isa::LogicOp::AND)});
    Opnd P = vp();
    Inst &Cm = E(Opcode::ISETP, {P, K, C, Opnd::pt()});
    setMod(Cm, "cmp", uint32_t(isa::ICmp::GT));
    setMod(Cm, "ty", uint32_t(isa::ITy::S32));
    K = sel32(sub32(K, C), K, P);
    Opnd Xs = v32();
    Inst &Sr = E(Opcode::SHR_I, {Xs, X, Opnd::imm32(W)});
    setMod(Sr, "ty", uint32_t(isa::ITy32::U32));
    X = sel32(Xs, X, P);
    Opnd R2 = v32();
    E(Opcode::IADD_I, {R2, R, Opnd::imm32(W)});
    R = sel32(R2, R, P);
  }
  // Found iff k ended at 1 on a set bit: ((x & 1) ^ 1) | (k - 1) == 0.
  Opnd Km1 = v32();
  E(Opcode::IADD_I, {Km1, K, Opnd::imm32(-1)});
  Opnd NotSet = lopI(lopI(X, 1, isa::LogicOp::AND), 1, isa::LogicOp::XOR);
  Opnd Miss = lop3(NotSet, Km1, Opnd::rz(), 0xFC);
  Opnd Ok = icmpI(Miss, 0, isa::ICmp::EQ, false);
  E(Opcode::SEL, {dst32(O[0]), R, imm(-1), Ok});
}

void Lowering::lowerDot(const ptx::Instruction &I) {
  // dp4a: c + sum of four byte products; dp2a: c + a.h0 * b.byte(k) + a.h1 * b.byte(k + 1)
  // (k = 2 for .hi). Fields are extracted with BFE (sign- or zero-extended), summed with IMAD.
  const auto &O = I.operands;
  bool Four = I.op == Op::Dp4a;
  bool AS = isSignedT(I.type(0));
  Type TB = I.type(1);
  bool BS = TB == Type::None ? AS : isSignedT(TB);
  unsigned K = I.has(Mod::Hi) ? 2 : 0;
  Opnd A = src32(O[1]), Bv = src32(O[2]);
  auto Field = [&](Opnd V, unsigned Pos, unsigned Len, bool S) {
    Opnd D = v32();
    Inst &X = E(Opcode::BFE, {D, V, imm(Pos | (Len << 8))});
    setMod(X, "ty", uint32_t(S ? isa::ITy32::S32 : isa::ITy32::U32));
    return D;
  };
  Opnd Acc = src32(O[3]);
  for (unsigned J = 0; J < (Four ? 4u : 2u); ++J) {
    Opnd Af = Four ? Field(A, 8 * J, 8, AS) : Field(A, 16 * J, 16, AS);
    Opnd Bf = Field(Bv, 8 * (Four ? J : J + K), 8, BS);
    Opnd N = v32();
    E(Opcode::IMAD, {N, Af, Bf, Acc});
    Acc = N;
  }
  mov32(dst32(O[0]), Acc);
}

void Lowering::lowerVabsdiff4(const ptx::Instruction &I) {
  // vabsdiff4.dtype.atype.btype: |a.byte(j) - b.byte(j)| for the four bytes, each byte sign- or
  // zero-extended by its operand's type. With .add the differences are summed into c; otherwise
  // they are packed into d (truncated, or clamped to the range of dtype with .sat) and, with the
  // default .b3210 mask, c is not read.
  const auto &O = I.operands;
  bool DS = isSignedT(I.type(0));
  bool AS = isSignedT(I.type(1));
  bool BS = isSignedT(I.type(2));
  bool Add = I.has(Mod::Add);
  bool Sat = I.has(Mod::Sat);
  if (Add && Sat)
    return unsupported(".sat with .add");
  Opnd A = src32(O[1]), Bv = src32(O[2]);
  auto Byte = [&](Opnd V, unsigned J, bool S) {
    Opnd D = v32();
    Inst &X = E(Opcode::BFE, {D, V, imm(8 * J | (8 << 8))});
    setMod(X, "ty", uint32_t(S ? isa::ITy32::S32 : isa::ITy32::U32));
    return D;
  };
  Opnd Acc = Add ? src32(O[3]) : Opnd::rz();
  for (unsigned J = 0; J < 4; ++J) {
    // Sign- or zero-extended bytes compare correctly as s32.
    Opnd Af = Byte(A, J, AS), Bf = Byte(Bv, J, BS);
    Opnd Df = sub32(minmax32(Af, Bf, true, true), minmax32(Af, Bf, false, true));
    if (Add) {
      Opnd N = v32();
      E(Opcode::IADD, {N, Acc, Df, Opnd::pt(), Opnd::pt()});
      Acc = N;
    } else {
      // The difference is at most 383 (s8 against u8): clamp or truncate it to a byte.
      if (Sat)
        Df = minmax32(Df, imm(DS ? 127 : 255), false, true);
      if (J < 3)
        Df = lopI(Df, 0xff, isa::LogicOp::AND);
      Opnd Sh = Df;
      if (J > 0) {
        Sh = v32();
        E(Opcode::SHL_I, {Sh, Df, Opnd::imm32(8 * J)});
      }
      Acc = lop3(Acc, Sh, Opnd::rz(), 0xFC);
    }
  }
  mov32(dst32(O[0]), Acc);
}

void Lowering::lowerShift(const ptx::Instruction &I) {
  const auto &O = I.operands;
  Type T = I.type(0);
  bool Left = I.op == Op::Shl;
  bool S = isSignedT(T);
  auto Ty = uint32_t(S ? isa::ITy32::S32 : isa::ITy32::U32);
  if (bits(T) == 64) {
    Opnd A = src64(O[1]);
    Opnd R = v64();
    if (O[2].kind == ptx::OperandKind::Imm) {
      uint32_t N = uint32_t(std::min<int64_t>(O[2].imm, 64));
      if (N == 0) {
        mov64(R, A);
      } else if (N < 32) {
        Inst &X = E(Opcode::SHF, {Left ? hi(R) : lo(R), lo(A), hi(A), imm(N)});
        setMod(X, "dir", uint32_t(Left ? isa::ShfDir::L : isa::ShfDir::R));
        if (Left) {
          E(Opcode::SHL_I, {lo(R), lo(A), Opnd::imm32(N)});
        } else {
          Inst &Y = E(Opcode::SHR_I, {hi(R), hi(A), Opnd::imm32(N)});
          setMod(Y, "ty", Ty);
        }
      } else {
        if (Left) {
          E(Opcode::SHL_I, {hi(R), lo(A), Opnd::imm32(N - 32)});
          mov32(lo(R), Opnd::rz());
        } else {
          Inst &Y = E(Opcode::SHR_I, {lo(R), hi(A), Opnd::imm32(std::min<uint32_t>(N - 32, 32))});
          setMod(Y, "ty", Ty);
          if (S) {
            Inst &Z = E(Opcode::SHR_I, {hi(R), hi(A), Opnd::imm32(31)});
            setMod(Z, "ty", Ty);
          } else {
            mov32(hi(R), Opnd::rz());
          }
        }
      }
      mov64(dst(O[0]), R);
      return;
    }
    mov64(dst(O[0]), shift64(A, src32(O[2]), Left, S));
    return;
  }
  Opnd A = Left ? src32(O[1]) : extend(src32(O[1]), T);
  if (O[2].kind == ptx::OperandKind::Imm) {
    Inst &X = E(Left ? Opcode::SHL_I : Opcode::SHR_I,
                {dst32(O[0]), A, Opnd::imm32(std::min<int64_t>(O[2].imm, 32))});
    if (!Left)
      setMod(X, "ty", Ty);
    return;
  }
  Inst &X = E(Left ? Opcode::SHL : Opcode::SHR, {dst32(O[0]), A, src32(O[2])});
  if (!Left)
    setMod(X, "ty", Ty);
}

static std::optional<isa::FCmp> fcmp(const ptx::Instruction &I) {
  static const std::pair<Mod, isa::FCmp> Tab[] = {
      {Mod::Eq, isa::FCmp::EQ},   {Mod::Ne, isa::FCmp::NE},   {Mod::Lt, isa::FCmp::LT},
      {Mod::Le, isa::FCmp::LE},   {Mod::Gt, isa::FCmp::GT},   {Mod::Ge, isa::FCmp::GE},
      {Mod::Equ, isa::FCmp::EQU}, {Mod::Neu, isa::FCmp::NEU}, {Mod::Ltu, isa::FCmp::LTU},
      {Mod::Leu, isa::FCmp::LEU}, {Mod::Gtu, isa::FCmp::GTU}, {Mod::Geu, isa::FCmp::GEU},
      {Mod::Num, isa::FCmp::NUM}, {Mod::Nan, isa::FCmp::NaN}};
  for (auto [M, C] : Tab)
    if (I.has(M))
      return C;
  return std::nullopt;
}

static std::optional<std::pair<isa::ICmp, bool>> icmp(const ptx::Instruction &I) {
  // Returns the comparison and whether it forces unsigned.
  static const std::tuple<Mod, isa::ICmp, bool> Tab[] = {
      {Mod::Eq, isa::ICmp::EQ, false}, {Mod::Ne, isa::ICmp::NE, false},
      {Mod::Lt, isa::ICmp::LT, false}, {Mod::Le, isa::ICmp::LE, false},
      {Mod::Gt, isa::ICmp::GT, false}, {Mod::Ge, isa::ICmp::GE, false},
      {Mod::Lo, isa::ICmp::LT, true},  {Mod::Ls, isa::ICmp::LE, true},
      {Mod::Hi, isa::ICmp::GT, true},  {Mod::Hs, isa::ICmp::GE, true}};
  for (auto [M, C, U] : Tab)
    if (I.has(M))
      return std::make_pair(C, U);
  return std::nullopt;
}

void Lowering::lowerSetp(const ptx::Instruction &I, bool SetForm) {
  const auto &O = I.operands;
  // setp: d[|q], a, b[, c]; set: d, a, b[, c] with types (dtype, stype).
  Type T = SetForm ? I.type(1) : I.type(0);
  const ptx::Operand &Dst = O[0];
  Opnd P = SetForm ? vp() : Opnd();
  Opnd Q;
  if (!SetForm) {
    if (Dst.kind == ptx::OperandKind::Pair) {
      P = Dst.elems[0].kind == ptx::OperandKind::Sink ? vp() : dst(Dst.elems[0]);
      Q = Dst.elems[1].kind == ptx::OperandKind::Sink ? Opnd() : dst(Dst.elems[1]);
    } else {
      P = dst(Dst);
    }
  }
  isa::BoolOp Bop = isa::BoolOp::AND;
  if (I.has(Mod::Or))
    Bop = isa::BoolOp::OR;
  if (I.has(Mod::Xor))
    Bop = isa::BoolOp::XOR;
  Opnd C = O.size() > 3 ? predSrc(O[3]) : Opnd::pt();
  if (T == Type::F16x2 || T == Type::BF16x2) {
    // Each half compared through f32: setp writes p (low half) and q (high half); set writes
    // all-ones / 1.0 per half.
    auto FC = fcmp(I);
    if (!FC)
      return unsupported("comparison");
    isa::FltType FT = T == Type::F16x2 ? isa::FltType::F16 : isa::FltType::BF16;
    Opnd A = src32(O[1]), Bv = src32(O[2]), Half[2];
    for (unsigned H = 0; H < 2; ++H) {
      Half[H] = H ? (SetForm || Q.kind != OpndKind::None ? Q : vp()) : P;
      if (SetForm && H)
        Half[H] = vp();
      Opnd Ah = H ? lopShr16(A) : A, Bh = H ? lopShr16(Bv) : Bv;
      Inst &X = E(Opcode::FSETP, {Half[H], f2f(Ah, isa::FltType::F32, FT),
                                  f2f(Bh, isa::FltType::F32, FT), C});
      setMod(X, "cmp", uint32_t(*FC));
      setMod(X, "ftz", I.has(Mod::Ftz));
      setMod(X, "bop", uint32_t(Bop));
    }
    if (SetForm) {
      Type DT = I.type(0);
      int64_t True = DT == Type::F16x2 ? 0x3c00 : DT == Type::BF16x2 ? 0x3f80 : 0xffff;
      Opnd R0 = sel32(imm(True), Opnd::rz(), Half[0]), R1 = sel32(imm(True), Opnd::rz(), Half[1]);
      E(Opcode::PRMT, {dst32(O[0]), R0, R1, imm(0x5410)});
    }
    return;
  }
  Opnd Cmp = (Q.kind != OpndKind::None) ? vp() : P;
  bool Combine = Q.kind != OpndKind::None;
  Opnd CIn = Combine ? Opnd::pt() : C;
  isa::BoolOp BopIn = Combine ? isa::BoolOp::AND : Bop;
  if (isFloatT(T)) {
    auto FC = fcmp(I);
    if (!FC)
      return unsupported("comparison");
    if (T == Type::F64) {
      Inst &X = E(Opcode::DSETP, {Cmp, src64(O[1]), src64(O[2]), CIn});
      setMod(X, "cmp", uint32_t(*FC));
      setMod(X, "bop", uint32_t(BopIn));
    } else {
      Opnd A = src32(O[1], T), Bv = src32(O[2], T);
      if (T == Type::F16 || T == Type::BF16) {
        isa::FltType FT = T == Type::F16 ? isa::FltType::F16 : isa::FltType::BF16;
        A = f2f(A, isa::FltType::F32, FT);
        Bv = f2f(Bv, isa::FltType::F32, FT);
      } else if (T != Type::F32) {
        return unsupported("type");
      }
      Inst &X = E(Opcode::FSETP, {Cmp, A, Bv, CIn});
      setMod(X, "cmp", uint32_t(*FC));
      setMod(X, "ftz", I.has(Mod::Ftz));
      setMod(X, "bop", uint32_t(BopIn));
    }
  } else {
    auto IC = icmp(I);
    if (!IC)
      return unsupported("comparison");
    bool Uns = IC->second || !isSignedT(T);
    if (bits(T) == 64) {
      Inst &X = E(Opcode::ISETP, {Cmp, src64(O[1]), src64(O[2]), CIn});
      setMod(X, "cmp", uint32_t(IC->first));
      setMod(X, "ty", uint32_t(Uns ? isa::ITy::U64 : isa::ITy::S64));
      setMod(X, "bop", uint32_t(BopIn));
    } else {
      Opnd A = extend(src32(O[1]), T);
      if (O[2].kind == ptx::OperandKind::Imm && bits(T) == 32 && CIn.kind == OpndKind::PhysPred &&
          CIn.reg == isa::kTruePred && !CIn.neg) {
        Inst &X = E(Opcode::ISETP_I, {Cmp, A, Opnd::imm32(O[2].imm)});
        setMod(X, "cmp", uint32_t(IC->first));
        setMod(X, "ty", uint32_t(Uns ? isa::ITy32::U32 : isa::ITy32::S32));
      } else {
        Inst &X = E(Opcode::ISETP, {Cmp, A, extend(src32(O[2]), T), CIn});
        setMod(X, "cmp", uint32_t(IC->first));
        setMod(X, "ty", uint32_t(Uns ? isa::ITy::U32 : isa::ITy::S32));
        setMod(X, "bop", uint32_t(BopIn));
      }
    }
  }
  if (Combine) {
    // p = cmp bop c; q = !cmp bop c.
    uint8_t L1 = Bop == isa::BoolOp::AND ? 0xC0 : Bop == isa::BoolOp::OR ? 0xFC : 0x3C;
    Opnd NotCmp = Cmp;
    NotCmp.neg = true;
    E(Opcode::PLOP3, {P, Cmp, C, Opnd::pt(), Opnd::imm32(L1)});
    E(Opcode::PLOP3, {Q, NotCmp, C, Opnd::pt(), Opnd::imm32(L1)});
  }
  if (SetForm) {
    Type DT = I.type(0);
    int64_t True = DT == Type::F32 ? 0x3f800000 : -1;
    E(Opcode::SEL, {dst32(O[0]), imm(True), Opnd::rz(), P});
  }
}

void Lowering::lowerSelp(const ptx::Instruction &I) { emitSelect(I, predSrc(I.operands[3])); }

void Lowering::emitSelect(const ptx::Instruction &I, Opnd P) {
  const auto &O = I.operands;
  Type T = I.type(0);
  if (bits(T) == 64) {
    Opnd A = src64(O[1]), Bv = src64(O[2]), R = v64();
    E(Opcode::SEL, {lo(R), lo(A), lo(Bv), P});
    E(Opcode::SEL, {hi(R), hi(A), hi(Bv), P});
    mov64(dst(O[0]), R);
    return;
  }
  E(Opcode::SEL, {dst32(O[0]), src32(O[1], T), src32(O[2], T), P});
}

void Lowering::lowerCvt(const ptx::Instruction &I) {
  const auto &O = I.operands;
  Type DT = I.type(0), ST = I.type(1);
  if (DT == Type::TF32) {
    // cvt.rna.tf32.f32: round the magnitude to 10 fraction bits, ties away from zero (add half
    // an ulp of tf32, clear the low 13 bits); infinities and NaNs pass unchanged.
    if (ST != Type::F32 || !I.has(Mod::Rna))
      return unsupported("tf32 conversions are cvt.rna.tf32.f32");
    Opnd X = src32(O[1]);
    Opnd Special = icmpI(lopI(X, 0x7fffffff, isa::LogicOp::AND), 0x7f800000, isa::ICmp::GE, false);
    Opnd R = v32();
    E(Opcode::IADD_I, {R, X, Opnd::imm32(0x1000)});
    E(Opcode::SEL, {dst32(O[0]), X, lopI(R, 0xffffe000u, isa::LogicOp::AND), Special});
    return;
  }
  if (DT == Type::F16x2 || DT == Type::BF16x2) {
    // cvt.rn.f16x2.f32 d, a, b: d = {cvt(a) high, cvt(b) low}.
    isa::FltType FT = DT == Type::F16x2 ? isa::FltType::F16 : isa::FltType::BF16;
    Opnd Hi = f2f(src32(O[1]), FT, isa::FltType::F32, isa::RndF(uint32_t(rnd(I))));
    Opnd Lo = f2f(src32(O[2]), FT, isa::FltType::F32, isa::RndF(uint32_t(rnd(I))));
    E(Opcode::PRMT, {dst32(O[0]), Lo, Hi, imm(0x5410)});
    return;
  }
  auto DI = intType(DT), SI = intType(ST);
  auto DF = fltType(DT), SF = fltType(ST);
  bool DW = bits(DT) == 64, SW = bits(ST) == 64;
  Opnd D = DW ? dst(O[0]) : dst32(O[0]);
  Opnd A = SW ? src64(O[1]) : src32(O[1], ST);
  if (ST == Type::Pred || DT == Type::Pred)
    return unsupported("predicate conversion");
  if (DI && SI) {
    bool Sat = I.has(Mod::Sat);
    if (!Sat && bits(DT) == bits(ST) && bits(DT) >= 32) {
      if (DW)
        mov64(D, A);
      else
        mov32(D, A);
      return;
    }
    if (!Sat && bits(DT) == 32 && SW) {
      mov32(D, lo(A));
      return;
    }
    Inst &X = E(Opcode::I2I, {D, A});
    setMod(X, "dst", uint32_t(*DI));
    setMod(X, "src", uint32_t(*SI));
    setMod(X, "sat", Sat);
    return;
  }
  if (DF && SF) {
    isa::RndF R = isa::RndF::RN;
    if (I.has(Mod::Rz))
      R = isa::RndF::RZ;
    if (I.has(Mod::Rm))
      R = isa::RndF::RM;
    if (I.has(Mod::Rp))
      R = isa::RndF::RP;
    if (I.has(Mod::Rni))
      R = isa::RndF::RNI;
    if (I.has(Mod::Rzi))
      R = isa::RndF::RZI;
    if (I.has(Mod::Rmi))
      R = isa::RndF::RMI;
    if (I.has(Mod::Rpi))
      R = isa::RndF::RPI;
    Inst &X = E(Opcode::F2F, {D, A});
    setMod(X, "dst", uint32_t(*DF));
    setMod(X, "src", uint32_t(*SF));
    setMod(X, "rnd", uint32_t(R));
    setMod(X, "ftz", I.has(Mod::Ftz));
    setMod(X, "sat", I.has(Mod::Sat));
    return;
  }
  if (DI && SF) {
    isa::RndI R = isa::RndI::RZI;
    if (I.has(Mod::Rni))
      R = isa::RndI::RNI;
    if (I.has(Mod::Rmi))
      R = isa::RndI::RMI;
    if (I.has(Mod::Rpi))
      R = isa::RndI::RPI;
    Inst &X = E(Opcode::F2I, {D, A});
    setMod(X, "dst", uint32_t(*DI));
    setMod(X, "src", uint32_t(*SF));
    setMod(X, "rnd", uint32_t(R));
    setMod(X, "ftz", I.has(Mod::Ftz));
    return;
  }
  if (DF && SI) {
    Inst &X = E(Opcode::I2F, {D, A});
    setMod(X, "dst", uint32_t(*DF));
    setMod(X, "src", uint32_t(*SI));
    setMod(X, "rnd", uint32_t(rnd(I)));
    return;
  }
  unsupported("conversion types");
}

void Lowering::lowerCvta(const ptx::Instruction &I) {
  const auto &O = I.operands;
  bool To = I.has(Mod::To);
  ptx::Space S = I.space();
  Type T = I.type(0);
  if (O[1].kind == ptx::OperandKind::Reg && RegProv.count(O[1].reg))
    RegProv[O[0].reg] = RegProv[O[1].reg];
  if (O[1].kind == ptx::OperandKind::Symbol && O[1].symKind == ptx::SymbolKind::Global)
    RegProv[O[0].reg] = {true, O[1].index, O[1].imm};
  if (bits(T) != 64)
    return unsupported("32-bit generic addresses");
  Opnd D = dst(O[0]);
  if (S == ptx::Space::Global) {
    mov64(D, src64(O[1]));
    return;
  }
  isa::Space IS = isa::Space::SHARED;
  switch (S) {
  case ptx::Space::Shared:
    IS = isa::Space::SHARED;
    break;
  case ptx::Space::Local:
    IS = isa::Space::LOCAL;
    break;
  case ptx::Space::Const:
    IS = isa::Space::CONST;
    break;
  case ptx::Space::Param:
    IS = isa::Space::PARAM;
    break;
  default:
    return unsupported("space");
  }
  if (To) {
    Opnd R = v32();
    Inst &X = E(Opcode::CVTA, {R, src64(O[1])});
    setMod(X, "dir", uint32_t(isa::CvtaDir::FROMGEN));
    setMod(X, "space", uint32_t(IS));
    mov32(lo(D), R);
    mov32(hi(D), Opnd::rz());
    return;
  }
  Opnd R = v64();
  Inst &X = E(Opcode::CVTA, {R, src32(O[1])});
  setMod(X, "dir", uint32_t(isa::CvtaDir::TOGEN));
  setMod(X, "space", uint32_t(IS));
  mov64(D, R);
}

void Lowering::lowerLdSt(const ptx::Instruction &I, bool Store) {
  const auto &O = I.operands;
  const ptx::Operand &AddrOp = Store ? O[0] : O[1];
  const ptx::Operand &Val = Store ? O[1] : O[0];
  Type T = I.type(0);
  unsigned Vec = I.vecWidth();
  ptx::Space S = I.space();
  if (AddrOp.kind != ptx::OperandKind::Address)
    return unsupported("address operand");
  int64_t Off = AddrOp.imm;
  // Resolve the base: a register, a symbol (variable), or an absolute address.
  Opnd Base;
  FrameRel FR = FrameRel::None;
  Opcode Op = Opcode::NOP;
  bool Need64 = false;
  const ptx::Operand *BaseOp = AddrOp.elems.empty() ? nullptr : &AddrOp.elems[0];
  switch (S) {
  case ptx::Space::Global:
    Op = Store ? Opcode::STG : Opcode::LDG;
    Need64 = true;
    break;
  case ptx::Space::None:
    Op = Store ? Opcode::ST : Opcode::LD;
    Need64 = true;
    break;
  case ptx::Space::Shared:
    Op = Store ? Opcode::STS : Opcode::LDS;
    break;
  case ptx::Space::Local:
    Op = Store ? Opcode::STL : Opcode::LDL;
    break;
  case ptx::Space::Const:
    Op = Store ? Opcode::NOP : Opcode::LDC;
    break;
  case ptx::Space::Param:
    Op = Store ? Opcode::STL : Opcode::LDP;
    break;
  default:
    return unsupported("state space");
  }
  if (Op == Opcode::NOP)
    return unsupported("store to constant space");
  if (BaseOp && BaseOp->kind == ptx::OperandKind::Symbol) {
    const ptx::Operand &Sy = *BaseOp;
    Off += Sy.imm;
    switch (Sy.symKind) {
    case ptx::SymbolKind::Param:
      if (PF.isKernel) {
        Base = Opnd::rz();
        Off += ParamOffset.at(Sy.index);
        Op = Store ? Opcode::NOP : Opcode::LDP;
        if (Store)
          return unsupported("store to a kernel parameter");
      } else {
        Base = Opnd::phys(kSPReg);
        Off += ParamOffset.at(Sy.index);
        FR = FrameRel::Incoming;
        Op = Store ? Opcode::STL : Opcode::LDL;
      }
      break;
    case ptx::SymbolKind::Return:
      Base = Opnd::phys(kSPReg);
      Off += RetOffset.at(Sy.index);
      FR = FrameRel::Incoming;
      Op = Store ? Opcode::STL : Opcode::LDL;
      break;
    case ptx::SymbolKind::Local: {
      const ptx::Variable &V = PF.locals[Sy.index];
      if (V.space == ptx::Space::Param) {
        // An outgoing call argument or result.
        Base = Opnd::phys(kSPReg);
        Off += OutOffset.count(Sy.index) ? OutOffset.at(Sy.index) : 0;
        Op = Store ? Opcode::STL : Opcode::LDL;
        if (Store && Val.kind == ptx::OperandKind::Reg && RegProv.count(Val.reg))
          OutProv[Sy.index] = RegProv[Val.reg];
      } else if (V.space == ptx::Space::Local) {
        Base = Opnd::phys(kSPReg);
        Off += LocalOffset.at(Sy.index);
        Op = Store ? Opcode::STL : Opcode::LDL;
      } else if (V.space == ptx::Space::Shared) {
        Base = Opnd::rz();
        Off += L.localSharedOffset.at({PIdx, Sy.index});
        Op = Store ? Opcode::STS : Opcode::LDS;
      } else {
        return unsupported("variable space");
      }
      break;
    }
    case ptx::SymbolKind::Global: {
      const ptx::Variable &V = M.globals[Sy.index];
      if (V.space == ptx::Space::Shared) {
        Base = Opnd::rz();
        Off += L.sharedOffset.at(Sy.index);
        Op = Store ? Opcode::STS : Opcode::LDS;
      } else if (V.space == ptx::Space::Const) {
        Base = Opnd::rz();
        Off += L.constOffset.at(Sy.index);
        Op = Opcode::LDC;
      } else {
        ptx::Operand Plain = Sy;
        Plain.imm = 0;
        Base = symAddr(Plain, true);
        Op = Store ? Opcode::STG : Opcode::LDG;
      }
      break;
    }
    default:
      return unsupported("address symbol");
    }
  } else if (BaseOp && BaseOp->kind == ptx::OperandKind::Reg) {
    Opnd R = Opnd::vreg(vr(BaseOp->reg));
    bool Wide = F.regClass(R.reg) == RegClass::R64;
    if (Need64 && !Wide)
      Base = src64(*BaseOp);
    else if (!Need64 && Wide)
      Base = lo(R);
    else
      Base = R;
  } else {
    Base = Need64 ? imm64(uint64_t(Off)) : Opnd::rz();
    if (Need64)
      Off = 0;
  }
  if (Off > INT32_MAX || Off < INT32_MIN)
    return unsupported("address offset out of range");

  // Element layout: Vec elements of the type; pack into B64/B128 accesses when possible.
  unsigned EB = std::max(1u, ptx::byteSize(T));
  unsigned Total = EB * Vec;
  auto Access = [&](Opnd Reg, int64_t O2, isa::MemSize Sz) {
    Opnd A = addr(Base, O2, FR);
    Inst &X = Store ? E(Op, {A, Reg}) : E(Op, {Reg, A});
    setMod(X, "size", uint32_t(Sz));
  };
  auto ElemSrc = [&](const ptx::Operand &El) -> Opnd { return EB == 8 ? src64(El) : src32(El, T); };
  if (Vec == 1) {
    if (T == Type::Pred) {
      if (Store) {
        Opnd V = v32();
        E(Opcode::P2R, {V, predSrc(Val)});
        Access(V, Off, isa::MemSize::U8);
      } else {
        Opnd V = v32();
        Access(V, Off, isa::MemSize::U8);
        Inst &C = E(Opcode::ISETP_I, {dst(Val), V, Opnd::imm32(0)});
        setMod(C, "cmp", uint32_t(isa::ICmp::NE));
      }
      return;
    }
    Opnd R;
    if (Store) {
      R = Total == 16 ? Opnd::vreg(vr(Val.reg)) : ElemSrc(Val);
    } else {
      R = Total >= 8 ? dst(Val) : dst32(Val);
      if (Total < 8 && R.kind == OpndKind::VReg && F.regClass(R.reg) == RegClass::R64) {
        // A narrow load into a 64-bit register: load, then extend.
        Opnd T32 = v32();
        Access(T32, Off, memSize(T));
        Opnd D = Opnd::vreg(R.reg);
        mov32(lo(D), T32);
        if (isSignedT(T)) {
          Inst &X = E(Opcode::SHR_I, {hi(D), T32, Opnd::imm32(31)});
          setMod(X, "ty", 0);
        } else {
          mov32(hi(D), Opnd::rz());
        }
        return;
      }
    }
    Access(R, Off, memSize(T));
    return;
  }
  // Vectors.
  if ((Total == 8 || Total == 16) && EB >= 4) {
    RegClass C = Total == 8 ? RegClass::R64 : RegClass::R128;
    Opnd Tmp = Opnd::vreg(nv(C));
    unsigned WPE = EB / 4; // words per element
    if (Store) {
      for (unsigned K = 0; K < Vec; ++K) {
        Opnd S2 = ElemSrc(Val.elems[K]);
        for (unsigned W = 0; W < WPE; ++W)
          mov32(word(Tmp, uint8_t(K * WPE + W)), WPE == 2 ? word(S2, uint8_t(W)) : S2);
      }
      Access(Tmp, Off, Total == 8 ? isa::MemSize::B64 : isa::MemSize::B128);
    } else {
      Access(Tmp, Off, Total == 8 ? isa::MemSize::B64 : isa::MemSize::B128);
      for (unsigned K = 0; K < Vec; ++K) {
        const ptx::Operand &El = Val.elems[K];
        if (El.kind == ptx::OperandKind::Sink)
          continue;
        Opnd D = dst(El);
        for (unsigned W = 0; W < WPE; ++W)
          mov32(WPE == 2 ? word(D, uint8_t(W)) : D, word(Tmp, uint8_t(K * WPE + W)));
      }
    }
    return;
  }
  // Split into scalar accesses.
  for (unsigned K = 0; K < Vec; ++K) {
    const ptx::Operand &El = Val.elems[K];
    if (!Store && El.kind == ptx::OperandKind::Sink)
      continue;
    Opnd R = Store ? ElemSrc(El) : (EB == 8 ? dst(El) : dst32(El));
    Access(R, Off + int64_t(K * EB), memSize(T));
  }
}

void Lowering::lowerAtom(const ptx::Instruction &I, bool Red) {
  const auto &O = I.operands;
  Type T = I.type(0);
  unsigned A0 = Red ? 0 : 1;
  const ptx::Operand &AddrOp = O[A0];
  ptx::Space S = I.space();
  isa::AtomSpace AS = S == ptx::Space::Global   ? isa::AtomSpace::GLOBAL
                      : S == ptx::Space::Shared ? isa::AtomSpace::SHARED
                                                : isa::AtomSpace::GENERIC;
  if (S != ptx::Space::Global && S != ptx::Space::Shared && S != ptx::Space::None)
    return unsupported("space");
  bool Wide = bits(T) == 64;
  isa::AtomType AT;
  switch (T) {
  case Type::B32:
  case Type::U32:
    AT = isa::AtomType::U32;
    break;
  case Type::S32:
    AT = isa::AtomType::S32;
    break;
  case Type::B64:
  case Type::U64:
    AT = isa::AtomType::U64;
    break;
  case Type::S64:
    AT = isa::AtomType::S64;
    break;
  case Type::F32:
    AT = isa::AtomType::F32;
    break;
  case Type::F64:
    AT = isa::AtomType::F64;
    break;
  case Type::B16:
  case Type::U16:
  case Type::S16:
  case Type::F16:
  case Type::BF16:
  case Type::F16x2:
  case Type::BF16x2:
    if (!needsCasLoop(I))
      return unsupported("type");
    AT = isa::AtomType::U32;
    break;
  default:
    return unsupported("type");
  }
  isa::AtomOp AO;
  if (I.has(Mod::Add))
    AO = isa::AtomOp::ADD;
  else if (I.has(Mod::Min))
    AO = isa::AtomOp::MIN;
  else if (I.has(Mod::Max))
    AO = isa::AtomOp::MAX;
  else if (I.has(Mod::Inc))
    AO = isa::AtomOp::INC;
  else if (I.has(Mod::Dec))
    AO = isa::AtomOp::DEC;
  else if (I.has(Mod::And))
    AO = isa::AtomOp::AND;
  else if (I.has(Mod::Or))
    AO = isa::AtomOp::OR;
  else if (I.has(Mod::Xor))
    AO = isa::AtomOp::XOR;
  else if (I.has(Mod::Exch))
    AO = isa::AtomOp::EXCH;
  else if (I.has(Mod::Cas))
    AO = isa::AtomOp::CAS;
  else
    return unsupported("operation");
  // Address: ATOM has no offset.
  Opnd Addr;
  int64_t Off = AddrOp.imm;
  const ptx::Operand *BaseOp = AddrOp.elems.empty() ? nullptr : &AddrOp.elems[0];
  bool Shared = AS == isa::AtomSpace::SHARED;
  if (BaseOp && BaseOp->kind == ptx::OperandKind::Symbol) {
    ptx::Operand Sy = *BaseOp;
    Sy.imm += Off;
    Off = 0;
    Addr = Shared ? src32(Sy) : src64(Sy);
  } else if (BaseOp && BaseOp->kind == ptx::OperandKind::Reg) {
    Addr = Shared ? src32(*BaseOp) : src64(*BaseOp);
  } else {
    Addr = Shared ? imm(Off) : imm64(uint64_t(Off));
    Off = 0;
  }
  if (Off) {
    if (Shared) {
      Opnd A2 = v32();
      E(Opcode::IADD_I, {A2, Addr, Opnd::imm32(Off)});
      Addr = A2;
    } else {
      Opnd A2 = v64();
      add64(A2, Addr, imm64(uint64_t(Off)), false);
      Addr = A2;
    }
  }
  if (needsCasLoop(I))
    return lowerCasLoop(I, Addr, AS, Red);
  const ptx::Operand &BOp = O[A0 + 1];
  Opnd Bv = Wide ? src64(BOp) : src32(BOp, T);
  Opnd Cv = Wide ? imm64(0) : Opnd::rz();
  if (AO == isa::AtomOp::CAS)
    Cv = Wide ? src64(O[A0 + 2]) : src32(O[A0 + 2], T);
  Opnd D;
  if (Red)
    D = Wide ? v64() : Opnd::rz();
  else
    D = Wide ? dst(O[0]) : dst32(O[0]);
  if (I.has(Mod::Release) || I.has(Mod::AcqRel)) {
    Inst &Mb = E(Opcode::MEMBAR);
    setMod(Mb, "scope", uint32_t(isa::Scope::GPU));
  }
  Inst &X = E(Opcode::ATOM, {D, Addr, Bv, Cv});
  setMod(X, "fn", uint32_t(AO));
  setMod(X, "ty", uint32_t(AT));
  setMod(X, "space", uint32_t(AS));
  if (I.has(Mod::Acquire) || I.has(Mod::AcqRel)) {
    Inst &Mb = E(Opcode::MEMBAR);
    setMod(Mb, "scope", uint32_t(isa::Scope::GPU));
  }
}

void Lowering::lowerCasLoop(const ptx::Instruction &I, Opnd Addr, isa::AtomSpace AS, bool Red) {
  // atom.cas.b16 and atom/red.add.{f16,bf16,f16x2,bf16x2}: a loop of 32-bit ATOM.CAS on the
  // aligned word holding the operand. cas swaps in the new halfword only while the old one equals
  // the compare value; add computes old + b in f32 (exact enough: one rounding to f16/bf16).
  const auto &O = I.operands;
  Type T = I.type(0);
  unsigned A0 = Red ? 0 : 1;
  bool IsCas = I.has(Mod::Cas);
  bool Pair = T == Type::F16x2 || T == Type::BF16x2;
  isa::FltType FT = (T == Type::BF16 || T == Type::BF16x2) ? isa::FltType::BF16 : isa::FltType::F16;
  uint32_t Loop = LoopBlock.at(&I);
  bool Shared = AS == isa::AtomSpace::SHARED;
  Opnd WAddr;
  if (Shared) {
    WAddr = lopI(Addr, ~3u, isa::LogicOp::AND);
  } else {
    WAddr = v64();
    Inst &X = E(Opcode::LOP_I, {lo(WAddr), lo(Addr), Opnd::imm32(int64_t(~3u))});
    setMod(X, "fn", uint32_t(isa::LogicOp::AND));
    mov32(hi(WAddr), hi(Addr));
  }
  Opnd Shift = Opnd::rz(), Msk = imm(-1);
  if (!Pair) {
    Shift = v32();
    E(Opcode::SHL_I, {Shift, lopI(lo(Addr), 2, isa::LogicOp::AND), Opnd::imm32(3)});
    Msk = lopShl(imm(0xffff), Shift);
  }
  Opnd Cmp, Ins, Bv;
  if (IsCas) {
    Cmp = lopI(src32(O[A0 + 1]), 0xffff, isa::LogicOp::AND);
    Ins = lopShl(lopI(src32(O[A0 + 2]), 0xffff, isa::LogicOp::AND), Shift);
  } else {
    Bv = src32(O[A0 + 1]);
  }
  auto Atom = [&](Opnd D, Opnd B, Opnd C, isa::AtomOp Fn) {
    Inst &X = E(Opcode::ATOM, {D, WAddr, B, C});
    setMod(X, "fn", uint32_t(Fn));
    setMod(X, "ty", uint32_t(isa::AtomType::U32));
    setMod(X, "space", uint32_t(AS));
  };
  if (I.has(Mod::Release) || I.has(Mod::AcqRel)) {
    Inst &Mb = E(Opcode::MEMBAR);
    setMod(Mb, "scope", uint32_t(isa::Scope::GPU));
  }
  Opnd CurW = v32(), Retry = vp(), Old = v32();
  Atom(CurW, Opnd::rz(), Opnd::rz(), isa::AtomOp::ADD); // atomic read of the word
  {
    Opnd G = Guard;
    Guard = Opnd::pt();
    Inst &X = E(Opcode::ISETP_I, {Retry, Opnd::rz(), Opnd::imm32(0)});
    setMod(X, "cmp", uint32_t(isa::ICmp::NE));
    Guard = G;
  }
  Cur = Loop;
  Opnd Sh = v32();
  Inst &Sr = E(Opcode::SHR, {Sh, CurW, Shift});
  setMod(Sr, "ty", uint32_t(isa::ITy32::U32));
  E(Opcode::LOP_I, {Old, Sh, Opnd::imm32(Pair ? -1 : 0xffff)});
  setMod(F.blocks[Cur].insts.back(), "fn", uint32_t(isa::LogicOp::AND));
  Opnd Want;
  if (IsCas) {
    Opnd Match = vp();
    Inst &Cm = E(Opcode::ISETP, {Match, Old, Cmp, Opnd::pt()});
    setMod(Cm, "cmp", uint32_t(isa::ICmp::EQ));
    setMod(Cm, "ty", uint32_t(isa::ITy::U32));
    Want = sel32(lop3(CurW, Ins, Msk, 0xD8), CurW, Match);
  } else {
    Opnd Res[2];
    for (unsigned H = 0; H < (Pair ? 2u : 1u); ++H) {
      Opnd Ah = Old, Bh = Bv;
      if (H) {
        Ah = v32();
        Bh = v32();
        E(Opcode::SHR_I, {Ah, Old, Opnd::imm32(16)});
        setMod(F.blocks[Cur].insts.back(), "ty", uint32_t(isa::ITy32::U32));
        E(Opcode::SHR_I, {Bh, Bv, Opnd::imm32(16)});
        setMod(F.blocks[Cur].insts.back(), "ty", uint32_t(isa::ITy32::U32));
      }
      Opnd Sum = v32();
      E(Opcode::FADD, {Sum, f2f(Ah, isa::FltType::F32, FT), f2f(Bh, isa::FltType::F32, FT)});
      Res[H] = lopI(f2f(Sum, FT, isa::FltType::F32), 0xffff, isa::LogicOp::AND);
    }
    Opnd NewV = Res[0];
    if (Pair) {
      NewV = v32();
      E(Opcode::PRMT, {NewV, Res[0], Res[1], imm(0x5410)});
    }
    Want = lop3(CurW, lopShl(NewV, Shift), Msk, 0xD8);
  }
  Opnd Got = v32();
  Atom(Got, CurW, Want, isa::AtomOp::CAS);
  Inst &Rt = E(Opcode::ISETP, {Retry, Got, CurW, Opnd::pt()});
  setMod(Rt, "cmp", uint32_t(isa::ICmp::NE));
  setMod(Rt, "ty", uint32_t(isa::ITy::U32));
  mov32(CurW, Got);
  {
    Opnd G = Guard;
    Guard = Retry;
    E(Opcode::BRA, {Opnd::block(Loop)});
    Guard = G;
  }
  Cur = Loop + 1;
  if (!Red)
    mov32(dst32(O[0]), Old);
  if (I.has(Mod::Acquire) || I.has(Mod::AcqRel)) {
    Inst &Mb = E(Opcode::MEMBAR);
    setMod(Mb, "scope", uint32_t(isa::Scope::GPU));
  }
}

void Lowering::lowerBar(const ptx::Instruction &I) {
  const auto &O = I.operands;
  isa::BarOp Fn = isa::BarOp::SYNC;
  bool RedF = I.has(Mod::Red);
  if (I.has(Mod::Arrive))
    Fn = isa::BarOp::ARRIVE;
  if (RedF) {
    if (I.has(Mod::Popc))
      Fn = isa::BarOp::RED_POPC;
    else if (I.has(Mod::And))
      Fn = isa::BarOp::RED_AND;
    else
      Fn = isa::BarOp::RED_OR;
  }
  if (I.op == Op::BarrierCluster) {
    Inst &X = E(Opcode::BAR, {Opnd::rz(), Opnd::rz(), Opnd::rz(), Opnd::pt(), Opnd::imm32(0)});
    setMod(X, "fn", uint32_t(isa::BarOp::SYNC));
    return;
  }
  unsigned K = RedF ? 1 : 0;
  Opnd Ra = Opnd::rz(), Id = Opnd::imm32(0), Rb = Opnd::rz(), Pc = Opnd::pt();
  if (O.size() > K) {
    if (O[K].kind == ptx::OperandKind::Imm)
      Id = Opnd::imm32(O[K].imm & 15);
    else
      Ra = src32(O[K]);
  }
  if (RedF) {
    // bar.red d, a{, b}, {!}c
    if (O.size() > K + 2)
      Rb = src32(O[K + 1]);
    Pc = predSrc(O.back());
  } else if (O.size() > K + 1) {
    Rb = src32(O[K + 1]);
  }
  Opnd D = Opnd::rz();
  bool PredOut = RedF && Fn != isa::BarOp::RED_POPC;
  if (RedF)
    D = PredOut ? v32() : dst32(O[0]);
  Inst &X = E(Opcode::BAR, {D, Ra, Rb, Pc, Id});
  setMod(X, "fn", uint32_t(Fn));
  if (PredOut) {
    Inst &C = E(Opcode::ISETP_I, {dst(O[0]), D, Opnd::imm32(0)});
    setMod(C, "cmp", uint32_t(isa::ICmp::NE));
  }
}

void Lowering::lowerWarp(const ptx::Instruction &I) {
  const auto &O = I.operands;
  bool Sync = I.has(Mod::Sync);
  auto WarpSync = [&](const ptx::Operand &Mask) {
    if (Mask.kind == ptx::OperandKind::Imm)
      E(Opcode::WARPSYNC, {Opnd::rz(), Opnd::imm32(Mask.imm)});
    else
      E(Opcode::WARPSYNC, {src32(Mask), Opnd::imm32(0)});
  };
  switch (I.op) {
  case Op::Activemask: {
    E(Opcode::S2R, {dst32(O[0]), Opnd::imm32(int64_t(isa::SReg::ACTIVEMASK))});
    return;
  }
  case Op::Vote: {
    if (Sync && O.size() > 2)
      WarpSync(O[2]);
    Opnd Pa = predSrc(O[1]);
    if (Sync && O.size() > 2 && !fullMask(O[2])) {
      // VOTE acts on the active group, which may hold other groups' threads (other tiles of a
      // converged warp): the result only counts the threads of the member mask.
      Opnd Mk = src32(O[2]);
      Opnd Bal = v32();
      Inst &X = E(Opcode::VOTE, {Bal, Opnd::pt(), Pa});
      setMod(X, "fn", uint32_t(isa::VoteOp::ANY));
      if (I.has(Mod::Ballot)) {
        E(Opcode::LOP3, {dst32(O[0]), Bal, Mk, Opnd::rz(), Opnd::imm32(0xC0)});
        return;
      }
      Opnd Mine = lop3(Bal, Mk, Opnd::rz(), 0xC0);
      auto Cmp = [&](Opnd D, Opnd B, isa::ICmp C) {
        Inst &S = E(Opcode::ISETP, {D, Mine, B, Opnd::pt()});
        setMod(S, "cmp", uint32_t(C));
        setMod(S, "ty", uint32_t(isa::ITy32::U32));
      };
      if (I.has(Mod::All)) {
        Cmp(dst(O[0]), Mk, isa::ICmp::EQ);
      } else if (I.has(Mod::Any)) {
        Cmp(dst(O[0]), Opnd::rz(), isa::ICmp::NE);
      } else { // uni: none or all of the members
        Opnd None = vp(), All = vp();
        Cmp(None, Opnd::rz(), isa::ICmp::EQ);
        Cmp(All, Mk, isa::ICmp::EQ);
        E(Opcode::PLOP3, {dst(O[0]), None, All, Opnd::pt(), Opnd::imm32(0xFC)});
      }
      return;
    }
    if (I.has(Mod::Ballot)) {
      Inst &X = E(Opcode::VOTE, {dst32(O[0]), Opnd::pt(), Pa});
      setMod(X, "fn", uint32_t(isa::VoteOp::ANY));
      return;
    }
    isa::VoteOp V = I.has(Mod::All)   ? isa::VoteOp::ALL
                    : I.has(Mod::Any) ? isa::VoteOp::ANY
                                      : isa::VoteOp::UNI;
    Inst &X = E(Opcode::VOTE, {Opnd::rz(), dst(O[0]), Pa});
    setMod(X, "fn", uint32_t(V));
    return;
  }
  case Op::Shfl: {
    if (Sync && O.size() > 4)
      WarpSync(O[4]);
    isa::ShflMode Md = I.has(Mod::Up)     ? isa::ShflMode::UP
                       : I.has(Mod::Down) ? isa::ShflMode::DOWN
                       : I.has(Mod::Bfly) ? isa::ShflMode::BFLY
                                          : isa::ShflMode::IDX;
    Opnd D, P = Opnd::pt();
    if (O[0].kind == ptx::OperandKind::Pair) {
      D = dst32(O[0].elems[0]);
      if (O[0].elems[1].kind != ptx::OperandKind::Sink)
        P = dst(O[0].elems[1]);
    } else {
      D = dst32(O[0]);
    }
    Inst &X = E(Opcode::SHFL, {D, src32(O[1]), src32(O[2]), src32(O[3]), P});
    setMod(X, "fn", uint32_t(Md));
    return;
  }
  case Op::Match: {
    WarpSync(O[2]);
    Type T = I.type(0);
    Opnd D, P = Opnd::pt();
    if (O[0].kind == ptx::OperandKind::Pair) {
      D = dst32(O[0].elems[0]);
      if (O[0].elems[1].kind != ptx::OperandKind::Sink)
        P = dst(O[0].elems[1]);
    } else {
      D = dst32(O[0]);
    }
    if (!fullMask(O[2])) {
      // MATCH compares over the active group; keep only the member mask's threads.
      Opnd Mk = src32(O[2]);
      Opnd Any = v32();
      Inst &X = E(Opcode::MATCH, {Any, bits(T) == 64 ? src64(O[1]) : src32(O[1]), Opnd::pt()});
      setMod(X, "fn", uint32_t(isa::MatchOp::ANY));
      setMod(X, "ty", uint32_t(bits(T) == 64 ? isa::Width::B64 : isa::Width::B32));
      if (!I.has(Mod::All)) {
        E(Opcode::LOP3, {D, Any, Mk, Opnd::rz(), Opnd::imm32(0xC0)});
        return;
      }
      Opnd Same = lop3(Any, Mk, Opnd::rz(), 0xC0);
      Opnd Eq = P.kind == OpndKind::VReg ? P : vp();
      Inst &S = E(Opcode::ISETP, {Eq, Same, Mk, Opnd::pt()});
      setMod(S, "cmp", uint32_t(isa::ICmp::EQ));
      setMod(S, "ty", uint32_t(isa::ITy32::U32));
      E(Opcode::SEL, {D, Mk, Opnd::rz(), Eq});
      return;
    }
    Inst &X = E(Opcode::MATCH, {D, bits(T) == 64 ? src64(O[1]) : src32(O[1]), P});
    setMod(X, "fn", uint32_t(I.has(Mod::All) ? isa::MatchOp::ALL : isa::MatchOp::ANY));
    setMod(X, "ty", uint32_t(bits(T) == 64 ? isa::Width::B64 : isa::Width::B32));
    return;
  }
  case Op::Redux: {
    WarpSync(O[2]);
    Type T = I.type(0);
    isa::ReduxOp R = isa::ReduxOp::ADD;
    bool S = isSignedT(T);
    if (I.has(Mod::Min))
      R = S ? isa::ReduxOp::MIN : isa::ReduxOp::UMIN;
    else if (I.has(Mod::Max))
      R = S ? isa::ReduxOp::MAX : isa::ReduxOp::UMAX;
    else if (I.has(Mod::And))
      R = isa::ReduxOp::AND;
    else if (I.has(Mod::Or))
      R = isa::ReduxOp::OR;
    else if (I.has(Mod::Xor))
      R = isa::ReduxOp::XOR;
    if (!fullMask(O[2])) {
      // REDUX reduces over the active group, which may hold threads of other member masks
      // (the other tiles of a converged warp). Gather the members' values one lane at a time.
      Opnd Mk = src32(O[2]), V = src32(O[1]);
      Opnd Clamp = imm(0x1f);
      uint32_t Ident = R == isa::ReduxOp::AND || R == isa::ReduxOp::UMIN ? ~0u
                       : R == isa::ReduxOp::MIN                         ? 0x7fffffffu
                       : R == isa::ReduxOp::MAX                         ? 0x80000000u
                                                                        : 0u;
      Opnd Acc = imm(int64_t(Ident));
      for (uint32_t Lane = 0; Lane < 32; ++Lane) {
        Opnd T = v32();
        Inst &Sh = E(Opcode::SHFL, {T, V, imm(Lane), Clamp, Opnd::pt()});
        setMod(Sh, "fn", uint32_t(isa::ShflMode::IDX));
        Opnd In = icmpI(lopI(Mk, 1u << Lane, isa::LogicOp::AND), 0, isa::ICmp::NE, false);
        Opnd Next;
        switch (R) {
        case isa::ReduxOp::ADD:
          Next = v32();
          E(Opcode::IADD, {Next, Acc, T, Opnd::pt(), Opnd::pt()});
          break;
        case isa::ReduxOp::MIN:
        case isa::ReduxOp::MAX:
        case isa::ReduxOp::UMIN:
        case isa::ReduxOp::UMAX:
          Next = minmax32(Acc, T, R == isa::ReduxOp::MAX || R == isa::ReduxOp::UMAX,
                          R == isa::ReduxOp::MIN || R == isa::ReduxOp::MAX);
          break;
        default:
          Next = lop3(Acc, T, Opnd::rz(),
                      R == isa::ReduxOp::AND ? 0xC0 : R == isa::ReduxOp::OR ? 0xFC : 0x3C);
        }
        Acc = sel32(Next, Acc, In);
      }
      mov32(dst32(O[0]), Acc);
      return;
    }
    Inst &X = E(Opcode::REDUX, {dst32(O[0]), src32(O[1])});
    setMod(X, "fn", uint32_t(R));
    return;
  }
  default:
    unsupported();
  }
}

void Lowering::lowerBrx(const ptx::Instruction &I) {
  const auto &O = I.operands;
  if (O[1].kind != ptx::OperandKind::Symbol || O[1].symKind != ptx::SymbolKind::BranchTargets)
    return unsupported("branch target list");
  const ptx::BranchTargets &BT = PF.branchTargets[O[1].index];
  Opnd Idx = src32(O[0]);
  Opnd Tgt = v32();
  std::vector<uint32_t> Targets;
  for (uint32_t K = 0; K < BT.labels.size(); ++K) {
    uint32_t Blk = LabelBlock[BT.labels[K]];
    Targets.push_back(Blk);
    if (K == 0) {
      E(Opcode::LEAPC, {Tgt, Opnd::block(Blk)});
      continue;
    }
    Opnd P = vp();
    Inst &C = E(Opcode::ISETP_I, {P, Idx, Opnd::imm32(K)});
    setMod(C, "cmp", uint32_t(isa::ICmp::EQ));
    Opnd G = P;
    if (Guard.kind == OpndKind::VReg) {
      G = vp();
      E(Opcode::PLOP3, {G, P, Guard, Opnd::pt(), Opnd::imm32(0xC0)});
    }
    Opnd Saved = Guard;
    Guard = G;
    E(Opcode::LEAPC, {Tgt, Opnd::block(Blk)});
    Guard = Saved;
  }
  E(Opcode::BRX, {Tgt});
  F.blocks[Cur].jumpTargets = Targets;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

void Lowering::lowerCall(const ptx::Instruction &I) {
  const auto &O = I.operands;
  bool HasRets = !O.empty() && O[0].kind == ptx::OperandKind::List;
  const ptx::Operand &Callee = O[HasRets ? 1 : 0];
  if (Callee.kind == ptx::OperandKind::Symbol && Callee.symKind == ptx::SymbolKind::Function) {
    const ptx::Function &CF = M.functions[Callee.index];
    if (CF.name == "vprintf")
      return lowerPrintf(I, CF);
    if (CF.name == "__assertfail")
      return lowerAssert(I, CF);
    if (CF.name == "__wf_device_heap")
      return lowerDeviceHeapAddress(I);
    if (!L.funcIndex.count(Callee.index))
      return fail(fmt::format("call of '{}', which has no body in this module", CF.name));
    E(Opcode::CALL, {Opnd::phys(kLinkReg), Opnd::func(L.funcIndex.at(Callee.index))});
    return;
  }
  if (Callee.kind == ptx::OperandKind::Reg) {
    Opnd T = src32(Callee);
    E(Opcode::CALLR, {Opnd::phys(kLinkReg), T});
    return;
  }
  unsupported("call target");
}

std::string Lowering::formatString(const Provenance &P) {
  if (!P.valid)
    return {};
  const ptx::Variable &V = M.globals[P.global];
  std::string S;
  for (size_t K = size_t(P.offset); K < V.init.size(); ++K) {
    char C = char(V.init[K].value);
    if (!C)
      break;
    S += C;
  }
  return S;
}

/// Bytes of the vprintf argument buffer for a format string: every argument at its natural
/// alignment; integers without l/ll are 4 bytes, everything else (%f %e %g %a doubles, %p %s
/// pointers, %l/%ll integers) 8.
static uint32_t printfArgBytes(const std::string &Fmt, unsigned *NArgs) {
  uint32_t Off = 0;
  unsigned N = 0;
  for (size_t K = 0; K < Fmt.size(); ++K) {
    if (Fmt[K] != '%')
      continue;
    if (K + 1 < Fmt.size() && Fmt[K + 1] == '%') {
      ++K;
      continue;
    }
    size_t J = K + 1;
    int Longs = 0;
    while (J < Fmt.size() && std::strchr("-+ #0123456789.*hlLqjzt", Fmt[J])) {
      if (Fmt[J] == 'l' || Fmt[J] == 'L' || Fmt[J] == 'q' || Fmt[J] == 'j' || Fmt[J] == 'z' ||
          Fmt[J] == 't')
        ++Longs;
      ++J;
    }
    if (J >= Fmt.size())
      break;
    char C = Fmt[J];
    uint32_t Sz = 4;
    if (std::strchr("fFeEgGaAps", C) || Longs)
      Sz = 8;
    Off = alignTo(Off, Sz) + Sz;
    ++N;
    K = J;
  }
  *NArgs = N;
  return Off;
}

void Lowering::lowerPrintf(const ptx::Instruction &I, const ptx::Function &Callee) {
  const auto &O = I.operands;
  bool HasRets = !O.empty() && O[0].kind == ptx::OperandKind::List;
  const ptx::Operand *Args = nullptr;
  for (size_t K = HasRets ? 2 : 1; K < O.size(); ++K)
    if (O[K].kind == ptx::OperandKind::List)
      Args = &O[K];
  if (!Args || Args->elems.size() < 2)
    return unsupported("vprintf arguments");
  (void)Callee;
  uint32_t FmtVar = Args->elems[0].index, ArgVar = Args->elems[1].index;
  std::string Fmt = formatString(OutProv.count(FmtVar) ? OutProv[FmtVar] : Provenance{});
  if (Fmt.empty() && !(OutProv.count(FmtVar) && OutProv[FmtVar].valid))
    return fail("printf needs a constant format string (its argument buffer size comes from it)");
  unsigned NArgs = 0;
  uint32_t ArgBytes = alignTo(printfArgBytes(Fmt, &NArgs), 8);
  // Records are 16-byte multiples: the header is one 16-byte store at the next record's start.
  uint32_t RecBytes = alignTo(16 + ArgBytes, 16);
  // Record: {u32 size, u32 argBytes, u64 format address, args}; rtbuf: docs/compiler.md.
  Opnd FmtAddr = v64(), ArgAddr = v64();
  {
    Inst &X = E(Opcode::LDL, {FmtAddr, addr(Opnd::phys(kSPReg), OutOffset.at(FmtVar))});
    setMod(X, "size", uint32_t(isa::MemSize::B64));
    Inst &Y = E(Opcode::LDL, {ArgAddr, addr(Opnd::phys(kSPReg), OutOffset.at(ArgVar))});
    setMod(Y, "size", uint32_t(isa::MemSize::B64));
  }
  Opnd Rt = v64();
  E(Opcode::S2R, {Rt, Opnd::imm32(int64_t(isa::SReg::RTBUF))});
  Opnd FifoBase = v64(), FifoSize = v32();
  Inst &L1 = E(Opcode::LDG, {FifoBase, addr(Rt, offsetof(isa::dev::RuntimeArea, fifoBase))});
  setMod(L1, "size", uint32_t(isa::MemSize::B64));
  Inst &L2 = E(Opcode::LDG, {FifoSize, addr(Rt, offsetof(isa::dev::RuntimeArea, fifoSize))});
  setMod(L2, "size", uint32_t(isa::MemSize::B32));
  Opnd WOff = v64(), Old = v32();
  add64(WOff, Rt, imm64(offsetof(isa::dev::RuntimeArea, fifoUsed)), false);
  Inst &A = E(Opcode::ATOM, {Old, WOff, imm(RecBytes), Opnd::rz()});
  setMod(A, "fn", uint32_t(isa::AtomOp::ADD));
  setMod(A, "ty", uint32_t(isa::AtomType::U32));
  setMod(A, "space", uint32_t(isa::AtomSpace::GLOBAL));
  Opnd End = v32(), Fits = vp();
  E(Opcode::IADD_I, {End, Old, Opnd::imm32(RecBytes)});
  Inst &C = E(Opcode::ISETP, {Fits, End, FifoSize, Opnd::pt()});
  setMod(C, "cmp", uint32_t(isa::ICmp::LE));
  setMod(C, "ty", uint32_t(isa::ITy::U32));
  Opnd G = Fits;
  if (Guard.kind == OpndKind::VReg) {
    G = vp();
    E(Opcode::PLOP3, {G, Fits, Guard, Opnd::pt(), Opnd::imm32(0xC0)});
  }
  Opnd Saved = Guard;
  Guard = G;
  Opnd Rec = v64(), OldW = v64();
  mov32(lo(OldW), Old);
  mov32(hi(OldW), Opnd::rz());
  add64(Rec, FifoBase, OldW, false);
  Opnd Hd = Opnd::vreg(nv(RegClass::R128));
  E(Opcode::MOV32I, {word(Hd, 0), Opnd::imm32(RecBytes)});
  E(Opcode::MOV32I, {word(Hd, 1), Opnd::imm32(ArgBytes)});
  mov32(word(Hd, 2), lo(FmtAddr));
  mov32(word(Hd, 3), hi(FmtAddr));
  Inst &S1 = E(Opcode::STG, {addr(Rec, 0), Hd});
  setMod(S1, "size", uint32_t(isa::MemSize::B128));
  for (uint32_t K = 0; K < ArgBytes; K += 8) {
    Opnd W = v64();
    Inst &Ld = E(Opcode::LD, {W, addr(ArgAddr, K)});
    setMod(Ld, "size", uint32_t(isa::MemSize::B64));
    Inst &St = E(Opcode::STG, {addr(Rec, 16 + K), W});
    setMod(St, "size", uint32_t(isa::MemSize::B64));
  }
  Guard = Saved;
  // The result (arguments printed) goes where the caller reads it.
  if (HasRets && !O[0].elems.empty() && OutOffset.count(O[0].elems[0].index)) {
    Opnd N = imm(NArgs);
    Inst &St = E(Opcode::STL, {addr(Opnd::phys(kSPReg), OutOffset.at(O[0].elems[0].index)), N});
    setMod(St, "size", uint32_t(isa::MemSize::B32));
  }
}

/// `call (r), __wf_device_heap, ()`: the address of the context's DeviceHeap (0: none), which the
/// device heap library (DeviceHeap.cpp) reads from the runtime area.
void Lowering::lowerDeviceHeapAddress(const ptx::Instruction &I) {
  const auto &O = I.operands;
  if (O.empty() || O[0].kind != ptx::OperandKind::List || O[0].elems.size() != 1 ||
      !OutOffset.count(O[0].elems[0].index))
    return unsupported("__wf_device_heap result");
  Opnd Rt = v64(), Heap = v64();
  E(Opcode::S2R, {Rt, Opnd::imm32(int64_t(isa::SReg::RTBUF))});
  Inst &L = E(Opcode::LDG, {Heap, addr(Rt, offsetof(isa::dev::RuntimeArea, deviceHeap))});
  setMod(L, "size", uint32_t(isa::MemSize::B64));
  Inst &St = E(Opcode::STL, {addr(Opnd::phys(kSPReg), OutOffset.at(O[0].elems[0].index)), Heap});
  setMod(St, "size", uint32_t(isa::MemSize::B64));
}

void Lowering::lowerAssert(const ptx::Instruction &I, const ptx::Function &Callee) {
  const auto &O = I.operands;
  bool HasRets = !O.empty() && O[0].kind == ptx::OperandKind::List;
  const ptx::Operand *Args = nullptr;
  for (size_t K = HasRets ? 2 : 1; K < O.size(); ++K)
    if (O[K].kind == ptx::OperandKind::List)
      Args = &O[K];
  if (!Args || Args->elems.size() < 4)
    return unsupported("__assertfail arguments");
  (void)Callee;
  auto Arg = [&](unsigned K, bool Wide) {
    Opnd R = Wide ? v64() : v32();
    Inst &X = E(Opcode::LDL, {R, addr(Opnd::phys(kSPReg), OutOffset.at(Args->elems[K].index))});
    setMod(X, "size", uint32_t(Wide ? isa::MemSize::B64 : isa::MemSize::B32));
    return R;
  };
  Opnd Msg = Arg(0, true), File = Arg(1, true), Line = Arg(2, false), Func = Arg(3, true);
  Opnd Rt = v64(), Flag = v64(), Old = v32();
  E(Opcode::S2R, {Rt, Opnd::imm32(int64_t(isa::SReg::RTBUF))});
  add64(Flag, Rt, imm64(offsetof(isa::dev::RuntimeArea, assertFlag)), false);
  Inst &A = E(Opcode::ATOM, {Old, Flag, Opnd::rz(), imm(1)});
  setMod(A, "fn", uint32_t(isa::AtomOp::CAS));
  setMod(A, "space", uint32_t(isa::AtomSpace::GLOBAL));
  Opnd First = vp();
  Inst &C = E(Opcode::ISETP_I, {First, Old, Opnd::imm32(0)});
  setMod(C, "cmp", uint32_t(isa::ICmp::EQ));
  Opnd G = First;
  if (Guard.kind == OpndKind::VReg) {
    G = vp();
    E(Opcode::PLOP3, {G, First, Guard, Opnd::pt(), Opnd::imm32(0xC0)});
  }
  Opnd Saved = Guard;
  Guard = G;
  // The assert record of the runtime area: line, message, file, function.
  using isa::dev::RuntimeArea;
  auto St = [&](int64_t Off, Opnd V, isa::MemSize Sz) {
    Inst &X = E(Opcode::STG, {addr(Rt, Off), V});
    setMod(X, "size", uint32_t(Sz));
  };
  St(offsetof(RuntimeArea, assertLine), Line, isa::MemSize::B32);
  St(offsetof(RuntimeArea, assertMessage), Msg, isa::MemSize::B64);
  St(offsetof(RuntimeArea, assertFile), File, isa::MemSize::B64);
  St(offsetof(RuntimeArea, assertFunction), Func, isa::MemSize::B64);
  Guard = Saved;
  E(Opcode::TRAP, {Opnd::imm32(1)});
}

//===----------------------------------------------------------------------===//
// Scalar instructions of PTX ISA 8.x (mul24, mad24, bmsk, szext, slct, cvt.pack, elect.sync)
//===----------------------------------------------------------------------===//

void Lowering::lowerMul24(const ptx::Instruction &I) {
  // t = a[23:0] * b[23:0] (48 bits); lo: t[31:0], hi: t[47:16]; mad24 adds c to that word.
  const auto &O = I.operands;
  bool S = isSignedT(I.type(0));
  auto Ty = uint32_t(S ? isa::ITy32::S32 : isa::ITy32::U32);
  bool Mad = I.op == Op::Mad24;
  bool Hi = I.has(Mod::Hi);
  if (I.has(Mod::Sat) && (!Hi || !S))
    return unsupported("saturation exists only as mad24.hi.sat.s32");
  auto In24 = [&](const ptx::Operand &X) {
    Opnd D = v32();
    Inst &B = E(Opcode::BFE, {D, src32(X), imm(24 << 8)});
    setMod(B, "ty", Ty);
    return D;
  };
  Opnd A = In24(O[1]), Bv = In24(O[2]);
  Opnd P = v32();
  if (Hi) {
    Opnd W = v64();
    Inst &X = E(Opcode::IMULWIDE, {W, A, Bv});
    setMod(X, "ty", Ty);
    Inst &Sh = E(Opcode::SHF, {P, lo(W), hi(W), imm(16)});
    setMod(Sh, "dir", uint32_t(isa::ShfDir::R));
  } else {
    E(Opcode::IMUL, {P, A, Bv});
  }
  if (!Mad) {
    mov32(dst32(O[0]), P);
    return;
  }
  Opnd C = src32(O[3]);
  if (!I.has(Mod::Sat)) {
    E(Opcode::IADD, {dst32(O[0]), P, C, Opnd::pt(), Opnd::pt()});
    return;
  }
  // Signed overflow of P + C: both operands' signs differ from the sum's.
  Opnd R = v32();
  E(Opcode::IADD, {R, P, C, Opnd::pt(), Opnd::pt()});
  Opnd Ovf = icmpI(lop3(R, P, C, 0x18), 0, isa::ICmp::LT, true);
  Opnd Neg = icmpI(P, 0, isa::ICmp::LT, true);
  Opnd Lim = sel32(imm(INT32_MIN), imm(INT32_MAX), Neg);
  E(Opcode::SEL, {dst32(O[0]), Lim, R, Ovf});
}

void Lowering::lowerBmsk(const ptx::Instruction &I) {
  // d = ~0 << pos & ~(~0 << (pos + width)). SHL gives 0 for amounts above 31, which covers the
  // PTX overflow cases: clamp limits pos and width to 32 (pos 32: no mask; width 32: up to bit
  // 31), wrap takes both modulo 32; a zero width gives two equal masks, so d = 0.
  const auto &O = I.operands;
  bool Clamp = I.has(Mod::Clamp);
  auto Limit = [&](Opnd X) {
    return Clamp ? minmax32(X, imm(32), false, false) : lopI(X, 31, isa::LogicOp::AND);
  };
  Opnd Pos = Limit(src32(O[1])), Wid = Limit(src32(O[2]));
  Opnd End = v32();
  E(Opcode::IADD, {End, Pos, Wid, Opnd::pt(), Opnd::pt()});
  Opnd Ones = imm(-1);
  E(Opcode::LOP3, {dst32(O[0]), lopShl(Ones, Pos), lopShl(Ones, End), Opnd::rz(),
                   Opnd::imm32(0x30)}); // a & ~b
}

void Lowering::lowerSzext(const ptx::Instruction &I) {
  // BFE from bit 0 with the width: length 0 gives 0, length 32 gives a (szext.clamp with b >= 32),
  // and the signed form replicates bit width-1.
  const auto &O = I.operands;
  Opnd B = src32(O[2]);
  Opnd N = I.has(Mod::Clamp) ? minmax32(B, imm(32), false, false)
                             : lopI(B, 31, isa::LogicOp::AND);
  Opnd Packed = v32();
  E(Opcode::SHL_I, {Packed, N, Opnd::imm32(8)});
  Inst &X = E(Opcode::BFE, {dst32(O[0]), src32(O[1]), Packed});
  setMod(X, "ty", uint32_t(isSignedT(I.type(0)) ? isa::ITy32::S32 : isa::ITy32::U32));
}

void Lowering::lowerSlct(const ptx::Instruction &I) {
  // d = c >= 0 ? a : b; an f32 c compares ordered (NaN selects b, -0 selects a).
  const auto &O = I.operands;
  Opnd P = vp();
  if (I.type(1) == Type::F32) {
    Inst &X = E(Opcode::FSETP, {P, src32(O[3]), Opnd::rz(), Opnd::pt()});
    setMod(X, "cmp", uint32_t(isa::FCmp::GE));
    setMod(X, "ftz", I.has(Mod::Ftz));
  } else {
    Inst &X = E(Opcode::ISETP_I, {P, src32(O[3]), Opnd::imm32(0)});
    setMod(X, "cmp", uint32_t(isa::ICmp::GE));
    setMod(X, "ty", uint32_t(isa::ITy32::S32));
  }
  emitSelect(I, P);
}

void Lowering::lowerCvtPack(const ptx::Instruction &I) {
  // Clamp a and b to the narrow type (I2I.SAT); b goes in the low element, a above it. The 8-bit
  // forms fill bits 31:16 with c[15:0], so two of them chain into four bytes.
  const auto &O = I.operands;
  Type DT = I.type(0);
  auto IT = intType(DT);
  if (!IT || bits(DT) > 16 || O.size() < 3)
    return unsupported("type");
  auto Narrow = [&](const ptx::Operand &X) {
    Opnd D = v32();
    Inst &C = E(Opcode::I2I, {D, src32(X)});
    setMod(C, "dst", uint32_t(*IT));
    setMod(C, "src", uint32_t(isa::IntType::S32));
    setMod(C, "sat", 1);
    return D;
  };
  Opnd TA = Narrow(O[1]), TB = Narrow(O[2]);
  if (bits(DT) == 16) {
    E(Opcode::PRMT, {dst32(O[0]), TB, TA, imm(0x5410)});
    return;
  }
  if (O.size() < 4)
    return unsupported("the 8-bit forms take the operand c");
  Opnd Low = v32();
  E(Opcode::PRMT, {Low, TB, TA, imm(0x0040)});
  E(Opcode::PRMT, {dst32(O[0]), Low, src32(O[3]), imm(0x5410)});
}

void Lowering::lowerElect(const ptx::Instruction &I) {
  // The leader is the lowest active lane of the member mask: VOTE ballot of true, masked, then
  // BREV and CLZ find its lane; p is set where that lane is the thread's own.
  const auto &O = I.operands;
  const ptx::Operand &Mk = O[1];
  if (Mk.kind == ptx::OperandKind::Imm)
    E(Opcode::WARPSYNC, {Opnd::rz(), Opnd::imm32(Mk.imm)});
  else
    E(Opcode::WARPSYNC, {src32(Mk), Opnd::imm32(0)});
  Opnd Bal = v32();
  Inst &V = E(Opcode::VOTE, {Bal, Opnd::pt(), Opnd::pt()});
  setMod(V, "fn", uint32_t(isa::VoteOp::ANY));
  Opnd Members = lop3(Bal, src32(Mk), Opnd::rz(), 0xC0);
  Opnd Rev = v32(), Leader = v32();
  E(Opcode::BREV, {Rev, Members});
  E(Opcode::CLZ, {Leader, Rev});
  const ptx::Operand *D = &O[0], *P = nullptr;
  if (O[0].kind == ptx::OperandKind::Pair) {
    D = &O[0].elems[0];
    P = &O[0].elems[1];
  }
  if (D->kind != ptx::OperandKind::Sink)
    mov32(dst32(*D), Leader);
  if (P && P->kind != ptx::OperandKind::Sink) {
    Opnd Lane = v32();
    E(Opcode::S2R, {Lane, Opnd::imm32(int64_t(isa::SReg::LANEID))});
    Inst &C = E(Opcode::ISETP, {dst(*P), Leader, Lane, Opnd::pt()});
    setMod(C, "cmp", uint32_t(isa::ICmp::EQ));
    setMod(C, "ty", uint32_t(isa::ITy::U32));
  }
}

//===----------------------------------------------------------------------===//
// cp.async and mbarrier (cuda::barrier, cuda::pipeline, memcpy_async)
//===----------------------------------------------------------------------===//

Opnd Lowering::sharedAddress(const ptx::Operand &AddrOp, ptx::Space S) {
  // A 32-bit shared-window offset with the operand's displacement folded in; generic addresses
  // (no state space) go through CVTA.
  if (AddrOp.kind != ptx::OperandKind::Address) {
    unsupported("address operand");
    return Opnd::rz();
  }
  int64_t Off = AddrOp.imm;
  const ptx::Operand *BaseOp = AddrOp.elems.empty() ? nullptr : &AddrOp.elems[0];
  bool Generic = S == ptx::Space::None;
  Opnd A;
  if (BaseOp && BaseOp->kind == ptx::OperandKind::Symbol) {
    ptx::Operand Sy = *BaseOp;
    Sy.imm += Off;
    Off = 0;
    if (Generic)
      Generic = !(Sy.symKind == ptx::SymbolKind::Global &&
                  M.globals[Sy.index].space == ptx::Space::Shared) &&
                !(Sy.symKind == ptx::SymbolKind::Local &&
                  PF.locals[Sy.index].space == ptx::Space::Shared);
    A = Generic ? src64(Sy) : src32(Sy);
  } else if (BaseOp && BaseOp->kind == ptx::OperandKind::Reg) {
    A = Generic ? src64(*BaseOp) : src32(*BaseOp);
  } else {
    A = Generic ? imm64(uint64_t(Off)) : imm(Off);
    Off = 0;
  }
  if (Generic) {
    Opnd R = v32();
    Inst &X = E(Opcode::CVTA, {R, A});
    setMod(X, "dir", uint32_t(isa::CvtaDir::FROMGEN));
    setMod(X, "space", uint32_t(isa::Space::SHARED));
    A = R;
  }
  if (Off) {
    Opnd R = v32();
    E(Opcode::IADD_I, {R, A, Opnd::imm32(Off)});
    A = R;
  }
  return A;
}

void Lowering::lowerCpAsync(const ptx::Instruction &I) {
  const auto &O = I.operands;
  if (O[2].kind != ptx::OperandKind::Imm || (O[2].imm != 4 && O[2].imm != 8 && O[2].imm != 16))
    return unsupported("cp-size must be 4, 8 or 16");
  unsigned Size = unsigned(O[2].imm);
  Opnd Dst = sharedAddress(O[0], ptx::Space::Shared);
  // The source: a global address (register or variable) plus the displacement.
  const ptx::Operand &SrcOp = O[1];
  if (SrcOp.kind != ptx::OperandKind::Address || SrcOp.elems.empty())
    return unsupported("source address");
  ptx::Operand Base = SrcOp.elems[0];
  int64_t SrcOff = SrcOp.imm;
  if (Base.kind == ptx::OperandKind::Symbol) {
    Base.imm += SrcOff;
    SrcOff = 0;
  }
  Opnd Src = src64(Base);
  if (SrcOff > INT32_MAX || SrcOff < INT32_MIN)
    return unsupported("address offset out of range");
  // How many source bytes to read: all, or src-size (the rest is zero-filled), or none when
  // ignore-src is true.
  std::optional<Opnd> Count;
  if (O.size() > 3) {
    const ptx::Operand &N = O[3];
    bool IsPred = N.kind == ptx::OperandKind::Reg && F.regClass(vr(N.reg)) == RegClass::Pred;
    if (IsPred)
      Count = sel32(Opnd::rz(), imm(Size), predSrc(N));
    else if (N.kind != ptx::OperandKind::Imm || uint64_t(N.imm) < Size)
      Count = src32(N);
  }
  if (!Count) {
    isa::MemSize Sz = Size == 4 ? isa::MemSize::B32 : Size == 8 ? isa::MemSize::B64
                                                                : isa::MemSize::B128;
    Opnd V = Opnd::vreg(nv(Size == 4 ? RegClass::R32 : Size == 8 ? RegClass::R64 : RegClass::R128));
    Inst &L = E(Opcode::LDG, {V, addr(Src, SrcOff)});
    setMod(L, "size", uint32_t(Sz));
    Inst &S = E(Opcode::STS, {addr(Dst, 0), V});
    setMod(S, "size", uint32_t(Sz));
    return;
  }
  // Byte by byte: byte k comes from the source when k < count, else it is zero.
  for (unsigned K = 0; K < Size; ++K) {
    Opnd B = v32(), P = icmpI(*Count, K, isa::ICmp::GT, false);
    mov32(B, Opnd::rz());
    Opnd G = P;
    if (Guard.kind == OpndKind::VReg) {
      G = vp();
      E(Opcode::PLOP3, {G, P, Guard, Opnd::pt(), Opnd::imm32(0xC0)});
    }
    Opnd Saved = Guard;
    Guard = G;
    Inst &L = E(Opcode::LDG, {B, addr(Src, SrcOff + K)});
    setMod(L, "size", uint32_t(isa::MemSize::U8));
    Guard = Saved;
    Inst &S = E(Opcode::STS, {addr(Dst, K), B});
    setMod(S, "size", uint32_t(isa::MemSize::U8));
  }
}

void Lowering::lowerMbarrier(const ptx::Instruction &I) {
  // The object (see InstrTable.def): low word = pending count, high word = expected count in
  // bits 20:0 and the phase number in bits 31:21.
  constexpr uint32_t kPhaseShift = 21, kExpectedMask = (1u << kPhaseShift) - 1;
  const auto &O = I.operands;
  ptx::Space S = I.space();
  auto Membar = [&] {
    Inst &X = E(Opcode::MEMBAR);
    setMod(X, "scope", uint32_t(isa::Scope::CTA));
  };
  auto AtomicAdd = [&](Opnd A, Opnd V) {
    Inst &X = E(Opcode::ATOM, {Opnd::rz(), A, V, Opnd::rz()});
    setMod(X, "fn", uint32_t(isa::AtomOp::ADD));
    setMod(X, "ty", uint32_t(isa::AtomType::U32));
    setMod(X, "space", uint32_t(isa::AtomSpace::SHARED));
  };
  switch (I.op) {
  case Op::MbarrierInit: {
    Opnd A = sharedAddress(O[0], S);
    Opnd Cnt = lopI(src32(O[1]), kExpectedMask, isa::LogicOp::AND);
    Opnd V = v64();
    mov32(lo(V), Cnt);
    mov32(hi(V), Cnt);
    Inst &X = E(Opcode::STS, {addr(A, 0), V});
    setMod(X, "size", uint32_t(isa::MemSize::B64));
    return;
  }
  case Op::MbarrierInval: {
    Opnd A = sharedAddress(O[0], S);
    Opnd V = v64();
    mov32(lo(V), Opnd::rz());
    mov32(hi(V), Opnd::rz());
    Inst &X = E(Opcode::STS, {addr(A, 0), V});
    setMod(X, "size", uint32_t(isa::MemSize::B64));
    return;
  }
  case Op::MbarrierExpectTx: {
    AtomicAdd(sharedAddress(O[0], S), src32(O[1]));
    return;
  }
  case Op::MbarrierPendingCount: {
    Opnd St = src64(O[1]);
    mov32(dst32(O[0]), lo(St));
    return;
  }
  case Op::MbarrierTestWait:
  case Op::MbarrierTestWaitParity:
  case Op::MbarrierTryWait:
  case Op::MbarrierTryWaitParity: {
    bool Parity = I.op == Op::MbarrierTestWaitParity || I.op == Op::MbarrierTryWaitParity;
    Opnd A = sharedAddress(O[1], S);
    Opnd Word = v32();
    Inst &L = E(Opcode::LDS, {Word, addr(A, 4)});
    setMod(L, "size", uint32_t(isa::MemSize::B32));
    Opnd Diff;
    if (Parity) {
      Opnd Ph = v32();
      Inst &Sh = E(Opcode::SHR_I, {Ph, Word, Opnd::imm32(kPhaseShift)});
      setMod(Sh, "ty", uint32_t(isa::ITy32::U32));
      Diff = lopI(lop3(Ph, src32(O[2]), Opnd::rz(), 0x3C), 1, isa::LogicOp::AND);
    } else {
      Opnd St = src64(O[2]);
      Diff = lopI(lop3(Word, hi(St), Opnd::rz(), 0x3C), ~kExpectedMask, isa::LogicOp::AND);
    }
    Inst &C = E(Opcode::ISETP_I, {dst(O[0]), Diff, Opnd::imm32(0)});
    setMod(C, "cmp", uint32_t(isa::ICmp::NE));
    setMod(C, "ty", uint32_t(isa::ITy32::U32));
    if (!I.has(Mod::Relaxed))
      Membar();
    return;
  }
  default:
    break;
  }
  // Arrive-on operations: arrive, arrive_drop (with expect_tx or noComplete), complete_tx and
  // cp.async.mbarrier.arrive.noinc. One ATOM.CAS.64 loop takes Count from the pending count and
  // Drop from the expected count; the arrival that brings the pending count to zero reloads it
  // from the expected count and advances the phase.
  bool HasState = I.op != Op::MbarrierCompleteTx && I.op != Op::CpAsyncMbarrierArriveNoinc;
  const ptx::Operand &AddrOp = HasState ? O[1] : O[0];
  Opnd A = sharedAddress(AddrOp, S);
  bool Drop = I.op == Op::MbarrierArriveDrop || I.op == Op::MbarrierArriveDropExpectTx ||
              I.op == Op::MbarrierArriveDropNoComplete;
  bool ExpectTx = I.op == Op::MbarrierArriveExpectTx || I.op == Op::MbarrierArriveDropExpectTx;
  Opnd Count = imm(1);
  if (I.op == Op::MbarrierCompleteTx)
    Count = src32(O[1]);
  else if (HasState && !ExpectTx && O.size() > 2)
    Count = src32(O[2]);
  if (!I.has(Mod::Relaxed) && I.op != Op::MbarrierCompleteTx)
    Membar();
  if (ExpectTx)
    AtomicAdd(A, src32(O[2]));
  Opnd DropBy = Drop ? Count : Opnd::rz();
  uint32_t Loop = LoopBlock.at(&I);
  Opnd Old = v64(), Retry = vp();
  Inst &Ld = E(Opcode::LDS, {Old, addr(A, 0)});
  setMod(Ld, "size", uint32_t(isa::MemSize::B64));
  {
    Opnd G = Guard;
    Guard = Opnd::pt();
    Inst &X = E(Opcode::ISETP_I, {Retry, Opnd::rz(), Opnd::imm32(0)});
    setMod(X, "cmp", uint32_t(isa::ICmp::NE));
    Guard = G;
  }
  Cur = Loop;
  Opnd Pending = sub32(lo(Old), Count);
  Opnd HiWord = sub32(hi(Old), DropBy);
  Opnd Expected = lopI(HiWord, kExpectedMask, isa::LogicOp::AND);
  Opnd Done = icmpI(Pending, 0, isa::ICmp::EQ, false);
  Opnd NextPhase = v32();
  E(Opcode::IADD_I, {NextPhase, HiWord, Opnd::imm32(int64_t(1u << kPhaseShift))});
  Opnd New = v64();
  E(Opcode::SEL, {lo(New), Expected, Pending, Done});
  E(Opcode::SEL, {hi(New), NextPhase, HiWord, Done});
  Opnd Got = v64();
  Inst &Cas = E(Opcode::ATOM, {Got, A, Old, New});
  setMod(Cas, "fn", uint32_t(isa::AtomOp::CAS));
  setMod(Cas, "ty", uint32_t(isa::AtomType::U64));
  setMod(Cas, "space", uint32_t(isa::AtomSpace::SHARED));
  Inst &Rt = E(Opcode::ISETP, {Retry, Got, Old, Opnd::pt()});
  setMod(Rt, "cmp", uint32_t(isa::ICmp::NE));
  setMod(Rt, "ty", uint32_t(isa::ITy::U64));
  Opnd Result = v64(); // the state: pending count after this arrival, phase word before it
  mov32(lo(Result), lo(New));
  mov32(hi(Result), hi(Got));
  mov32(lo(Old), lo(Got));
  mov32(hi(Old), hi(Got));
  {
    Opnd G = Guard;
    Guard = Retry;
    E(Opcode::BRA, {Opnd::block(Loop)});
    Guard = G;
  }
  Cur = Loop + 1;
  if (HasState && O[0].kind != ptx::OperandKind::Sink)
    mov64(dst(O[0]), Result);
}

//===----------------------------------------------------------------------===//
// wmma: warp matrix multiply-accumulate on the ALU, FPU and SHFL
//===----------------------------------------------------------------------===//
//
// Fragment layout (PTX leaves it to the implementation): a matrix of R x C elements is cut into
// 32 equal segments of E = R*C/32 elements, one a lane. A is cut along its rows (lane l holds
// A[i][k0 .. k0+E) with i*K + k0 = l*E), B along its columns (B[k0 .. k0+E)[j] with
// j*K + k0 = l*E), C and D along their rows. Elements are packed from bit 0 of the fragment's
// first register up; registers past the segment are zero. MMA: the lane owning
// D[i][j0 .. j0+E) gathers row i of A and columns j0.. of B from their owners with SHFL.IDX and
// computes each dot product in k order (FFMA in f32 for f16, bf16 and tf32, DFMA for f64, IMAD
// for integers, LOP3 and POPC for b1).

namespace {
enum class WElem : uint8_t { None, F16, BF16, TF32, F32, F64, S8, U8, S4, U4, B1, S32 };

unsigned welemBits(WElem E) {
  switch (E) {
  case WElem::F16:
  case WElem::BF16:
    return 16;
  case WElem::F64:
    return 64;
  case WElem::S8:
  case WElem::U8:
    return 8;
  case WElem::S4:
  case WElem::U4:
    return 4;
  case WElem::B1:
    return 1;
  default:
    return 32;
  }
}

WElem welemOf(Mod M) {
  switch (M) {
  case Mod::F16:
    return WElem::F16;
  case Mod::BF16:
    return WElem::BF16;
  case Mod::TF32:
    return WElem::TF32;
  case Mod::F32:
    return WElem::F32;
  case Mod::F64:
    return WElem::F64;
  case Mod::S8:
    return WElem::S8;
  case Mod::U8:
    return WElem::U8;
  case Mod::S4:
    return WElem::S4;
  case Mod::U4:
    return WElem::U4;
  case Mod::B1:
    return WElem::B1;
  case Mod::S32:
    return WElem::S32;
  default:
    return WElem::None;
  }
}

struct WShape {
  unsigned M = 0, N = 0, K = 0;
};

WShape wshapeOf(const ptx::Instruction &I) {
  if (I.has(Mod::M16n16k16))
    return {16, 16, 16};
  if (I.has(Mod::M32n8k16))
    return {32, 8, 16};
  if (I.has(Mod::M8n32k16))
    return {8, 32, 16};
  if (I.has(Mod::M16n16k8))
    return {16, 16, 8};
  if (I.has(Mod::M8n8k4))
    return {8, 8, 4};
  if (I.has(Mod::M8n8k32))
    return {8, 8, 32};
  if (I.has(Mod::M8n8k128))
    return {8, 8, 128};
  return {};
}

/// Whether a matrix-input element type belongs to the shape (PTX ISA, wmma shapes and types).
bool wshapeTakes(WShape S, WElem E) {
  switch (E) {
  case WElem::F16:
  case WElem::BF16:
  case WElem::S8:
  case WElem::U8:
    return S.K == 16;
  case WElem::TF32:
    return S.K == 8;
  case WElem::F64:
    return S.K == 4;
  case WElem::S4:
  case WElem::U4:
    return S.K == 32;
  case WElem::B1:
    return S.K == 128;
  default:
    return false;
  }
}

/// Whether an accumulator (C, D) element type belongs to the shape.
bool waccTakes(WShape S, WElem E) {
  switch (E) {
  case WElem::F16:
    return S.K == 16;
  case WElem::F32:
    return S.K == 16 || S.K == 8;
  case WElem::F64:
    return S.K == 4;
  case WElem::S32:
    return S.K == 16 || S.K == 32 || S.K == 128;
  default:
    return false;
  }
}

unsigned log2u(unsigned V) { return unsigned(__builtin_ctz(V)); }
} // namespace

std::vector<Opnd> Lowering::fragmentWords(const ptx::Operand &V) {
  std::vector<Opnd> W;
  auto Add = [&](const ptx::Operand &R) {
    if (R.kind != ptx::OperandKind::Reg) {
      fail("wmma fragments are registers");
      return;
    }
    Opnd X = Opnd::vreg(vr(R.reg));
    if (F.regClass(X.reg) == RegClass::R64) {
      W.push_back(lo(X));
      W.push_back(hi(X));
    } else {
      W.push_back(X);
    }
  };
  if (V.kind == ptx::OperandKind::Vector) {
    for (const ptx::Operand &R : V.elems)
      Add(R);
  } else {
    Add(V);
  }
  return W;
}

void Lowering::lowerWmmaLoadStore(const ptx::Instruction &I) {
  const auto &O = I.operands;
  bool Store = I.op == Op::WmmaStoreD;
  WShape S = wshapeOf(I);
  WElem Ty = WElem::None;
  for (Mod Md : I.modifiers())
    if (welemOf(Md) != WElem::None)
      Ty = welemOf(Md);
  unsigned Bits = welemBits(Ty);
  if (!S.M || Ty == WElem::None)
    return unsupported("shape or type");
  char Which = I.op == Op::WmmaLoadA ? 'a' : I.op == Op::WmmaLoadB ? 'b' : 'c';
  bool IsInput = Which != 'c';
  if (IsInput ? !wshapeTakes(S, Ty) : !waccTakes(S, Ty))
    return unsupported("type for this shape");
  unsigned Rows = Which == 'a' ? S.M : Which == 'b' ? S.K : S.M;
  unsigned Cols = Which == 'a' ? S.K : Which == 'b' ? S.N : S.N;
  unsigned Seg = Rows * Cols / 32;
  unsigned SegLen = Which == 'a' ? S.K : Which == 'b' ? S.K : S.N;
  bool RowMajor = I.has(Mod::Row);
  // Contiguous when the segment runs along the storage order.
  bool Contig = (Which == 'b') ? !RowMajor : RowMajor;
  if (Bits < 8 && !Contig)
    return unsupported("sub-byte fragments need A row-major and B column-major");
  const ptx::Operand &Frag = Store ? O[1] : O[0];
  const ptx::Operand &AddrOp = Store ? O[0] : O[1];
  std::vector<Opnd> W = fragmentWords(Frag);
  unsigned Used = (Seg * Bits + 31) / 32;
  if (W.size() < Used)
    return unsupported("fragment has too few registers");
  // Element index of the segment's first element and the step between its elements.
  Opnd Lane = v32();
  E(Opcode::S2R, {Lane, Opnd::imm32(int64_t(isa::SReg::LANEID))});
  Opnd First = v32();
  E(Opcode::SHL_I, {First, Lane, Opnd::imm32(log2u(Seg))});
  Opnd Fixed = v32(), Start = lopI(First, SegLen - 1, isa::LogicOp::AND);
  Inst &Sh = E(Opcode::SHR_I, {Fixed, First, Opnd::imm32(log2u(SegLen))});
  setMod(Sh, "ty", uint32_t(isa::ITy32::U32));
  Opnd Ld = O.size() > 2 ? src32(O[2]) : imm(RowMajor ? Cols : Rows);
  // Storage index of (fixed, start): the fixed coordinate is the row for a and c, the column
  // for b; with the segment along the storage order it is fixed*ld + start, else start*ld + fixed.
  Opnd Base = v32();
  if (Contig)
    E(Opcode::IMAD, {Base, Fixed, Ld, Start});
  else
    E(Opcode::IMAD, {Base, Start, Ld, Fixed});
  // Byte offset of the segment and of the step.
  Opnd ByteOff = v32();
  if (Bits >= 8) {
    E(Opcode::IMUL_I, {ByteOff, Base, Opnd::imm32(Bits / 8)});
  } else {
    Inst &X = E(Opcode::SHR_I, {ByteOff, Base, Opnd::imm32(Bits == 4 ? 1 : 3)});
    setMod(X, "ty", uint32_t(isa::ITy32::U32));
  }
  ptx::Space Sp = I.space();
  bool Shared = Sp == ptx::Space::Shared;
  Opcode Op = Shared ? (Store ? Opcode::STS : Opcode::LDS)
              : Sp == ptx::Space::Global ? (Store ? Opcode::STG : Opcode::LDG)
                                         : (Store ? Opcode::ST : Opcode::LD);
  Opnd Addr;
  if (Shared) {
    Opnd B = sharedAddress(AddrOp, Sp);
    Addr = v32();
    E(Opcode::IADD, {Addr, B, ByteOff, Opnd::pt(), Opnd::pt()});
  } else {
    if (AddrOp.kind != ptx::OperandKind::Address || AddrOp.elems.empty())
      return unsupported("address operand");
    ptx::Operand B0 = AddrOp.elems[0];
    int64_t Off = AddrOp.imm;
    if (B0.kind == ptx::OperandKind::Symbol) {
      B0.imm += Off;
      Off = 0;
    }
    Opnd B = src64(B0);
    Opnd Wide = v64();
    mov32(lo(Wide), ByteOff);
    mov32(hi(Wide), Opnd::rz());
    Addr = v64();
    add64(Addr, B, Wide, false);
    if (Off) {
      Opnd A2 = v64();
      add64(A2, Addr, imm64(uint64_t(Off)), false);
      Addr = A2;
    }
  }
  auto Mem = [&](Opnd Reg, Opnd A, int64_t Off, isa::MemSize Sz) {
    Opnd At = addr(A, Off);
    Inst &X = Store ? E(Op, {At, Reg}) : E(Op, {Reg, At});
    setMod(X, "size", uint32_t(Sz));
  };
  unsigned Bytes = (Seg * Bits + 7) / 8;
  if (Contig) {
    unsigned Chunk = std::min(Bytes, 16u);
    for (unsigned Off = 0; Off < Bytes; Off += Chunk) {
      unsigned W0 = Off / 4, NW = Chunk / 4;
      isa::MemSize Sz = NW == 1 ? isa::MemSize::B32 : NW == 2 ? isa::MemSize::B64
                                                               : isa::MemSize::B128;
      Opnd T = Opnd::vreg(nv(NW == 1 ? RegClass::R32 : NW == 2 ? RegClass::R64 : RegClass::R128));
      if (Store)
        for (unsigned K = 0; K < NW; ++K)
          mov32(NW == 1 ? T : word(T, uint8_t(K)), W[W0 + K]);
      Mem(T, Addr, Off, Sz);
      if (!Store)
        for (unsigned K = 0; K < NW; ++K)
          mov32(W[W0 + K], NW == 1 ? T : word(T, uint8_t(K)));
    }
  } else {
    // One access an element; the step is ld elements.
    Opnd Step = v32();
    E(Opcode::IMUL_I, {Step, Ld, Opnd::imm32(Bits / 8)});
    isa::MemSize Sz = Bits == 8 ? isa::MemSize::U8 : Bits == 16 ? isa::MemSize::U16
                      : Bits == 32                ? isa::MemSize::B32
                                                  : isa::MemSize::B64;
    std::vector<Opnd> Elems(Seg);
    Opnd A = Addr;
    for (unsigned K = 0; K < Seg; ++K) {
      if (K) {
        if (Shared) {
          Opnd N = v32();
          E(Opcode::IADD, {N, A, Step, Opnd::pt(), Opnd::pt()});
          A = N;
        } else {
          Opnd S64 = v64(), N = v64();
          mov32(lo(S64), Step);
          mov32(hi(S64), Opnd::rz());
          add64(N, A, S64, false);
          A = N;
        }
      }
      if (Bits == 64) {
        Opnd T = v64();
        if (Store) {
          mov32(lo(T), W[2 * K]);
          mov32(hi(T), W[2 * K + 1]);
        }
        Mem(T, A, 0, Sz);
        if (!Store) {
          mov32(W[2 * K], lo(T));
          mov32(W[2 * K + 1], hi(T));
        }
        continue;
      }
      unsigned PerWord = 32 / Bits;
      Opnd Wd = W[K / PerWord];
      unsigned Shift = (K % PerWord) * Bits;
      if (Store) {
        Opnd T = Wd;
        if (Shift) {
          T = v32();
          Inst &X = E(Opcode::SHR_I, {T, Wd, Opnd::imm32(Shift)});
          setMod(X, "ty", uint32_t(isa::ITy32::U32));
        }
        Mem(T, A, 0, Sz);
      } else {
        Elems[K] = v32();
        Mem(Elems[K], A, 0, Sz);
      }
    }
    if (!Store && Bits < 64) {
      unsigned PerWord = 32 / Bits;
      for (unsigned Wi = 0; Wi < Used; ++Wi) {
        Opnd Acc = Elems[Wi * PerWord];
        for (unsigned P = 1; P < PerWord; ++P) {
          Opnd N = v32();
          E(Opcode::BFI, {N, Elems[Wi * PerWord + P], Acc, imm((P * Bits) | (Bits << 8))});
          Acc = N;
        }
        mov32(W[Wi], Acc);
      }
    }
  }
  if (!Store)
    for (unsigned K = Used; K < W.size(); ++K)
      mov32(W[K], Opnd::rz());
}

void Lowering::lowerWmmaMma(const ptx::Instruction &I) {
  const auto &O = I.operands;
  WShape S = wshapeOf(I);
  std::vector<WElem> Tys;
  for (Mod Md : I.modifiers())
    if (welemOf(Md) != WElem::None)
      Tys.push_back(welemOf(Md));
  WElem DT, AT, BT, CT;
  if (Tys.size() == 2) {
    DT = Tys[0];
    CT = Tys[1];
    AT = BT = WElem::F16;
  } else if (Tys.size() == 4) {
    DT = Tys[0];
    AT = Tys[1];
    BT = Tys[2];
    CT = Tys[3];
  } else {
    return unsupported("types");
  }
  if (!S.M || AT != BT || !wshapeTakes(S, AT) || !waccTakes(S, CT) || !waccTakes(S, DT))
    return unsupported("shape or types");
  bool IsFloat = AT == WElem::F16 || AT == WElem::BF16 || AT == WElem::TF32;
  bool IsF64 = AT == WElem::F64;
  bool IsB1 = AT == WElem::B1;
  if (IsB1 != (I.op != Op::WmmaMma))
    return unsupported("b1 takes .xor.popc or .and.popc, other types neither");
  if (IsFloat && I.has(Mod::SatFinite))
    return unsupported(".satfinite on floating-point wmma.mma");
  unsigned ABits = welemBits(AT), BBits = welemBits(BT);
  unsigned EA = S.M * S.K / 32, EB = S.K * S.N / 32, EC = S.M * S.N / 32;
  unsigned WA = EA * ABits / 32, WB = EB * BBits / 32; // words a lane holds
  std::vector<Opnd> Dw = fragmentWords(O[0]), Aw = fragmentWords(O[1]), Bw = fragmentWords(O[2]),
                    Cw = fragmentWords(O[3]);
  unsigned CBits = welemBits(CT), DBits = welemBits(DT);
  if (Aw.size() < WA || Bw.size() < WB || Cw.size() < (EC * CBits + 31) / 32 ||
      Dw.size() < (EC * DBits + 31) / 32)
    return unsupported("fragment has too few registers");
  Opnd Lane = v32();
  E(Opcode::S2R, {Lane, Opnd::imm32(int64_t(isa::SReg::LANEID))});
  Opnd First = v32(), Row = v32();
  E(Opcode::SHL_I, {First, Lane, Opnd::imm32(log2u(EC))});
  Inst &Sr = E(Opcode::SHR_I, {Row, First, Opnd::imm32(log2u(S.N))});
  setMod(Sr, "ty", uint32_t(isa::ITy32::U32));
  Opnd Col0 = lopI(First, S.N - 1, isa::LogicOp::AND);
  auto Shfl = [&](Opnd V, Opnd Src) {
    Opnd D = v32();
    Inst &X = E(Opcode::SHFL, {D, V, Src, imm(0x1f), Opnd::pt()});
    setMod(X, "fn", uint32_t(isa::ShflMode::IDX));
    return D;
  };
  // Row i of A: lanes i*(K/EA) + q hold it, WA words each.
  std::vector<Opnd> ARow;
  unsigned AL = S.K / EA, BL = S.K / EB;
  for (unsigned Q = 0; Q < AL; ++Q) {
    Opnd Src = v32();
    E(Opcode::SHL_I, {Src, Row, Opnd::imm32(log2u(AL))});
    if (Q)
      E(Opcode::IADD_I, {Src, Src, Opnd::imm32(Q)});
    for (unsigned K = 0; K < WA; ++K)
      ARow.push_back(Shfl(Aw[K], Src));
  }
  // Column j0 + C of B, gathered just before its dot products (fewer live registers).
  std::vector<std::vector<Opnd>> BCol(EC);
  auto GatherColumn = [&](unsigned C) {
    Opnd Colj = v32();
    E(Opcode::IADD_I, {Colj, Col0, Opnd::imm32(C)});
    for (unsigned Q = 0; Q < BL; ++Q) {
      Opnd Src = v32();
      E(Opcode::SHL_I, {Src, Colj, Opnd::imm32(log2u(BL))});
      if (Q)
        E(Opcode::IADD_I, {Src, Src, Opnd::imm32(Q)});
      for (unsigned K = 0; K < WB; ++K)
        BCol[C].push_back(Shfl(Bw[K], Src));
    }
  };
  // Element k of a gathered vector, as an f32, an f64 pair or a sign/zero-extended integer.
  auto Elem = [&](const std::vector<Opnd> &V, unsigned K, WElem T) -> Opnd {
    unsigned B = welemBits(T);
    if (T == WElem::F64) {
      Opnd D = v64();
      mov32(lo(D), V[2 * K]);
      mov32(hi(D), V[2 * K + 1]);
      return D;
    }
    Opnd Wd = V[K * B / 32];
    unsigned Pos = (K * B) % 32;
    switch (T) {
    case WElem::F16:
    case WElem::BF16:
      return f2f(Pos ? lopShr16(Wd) : Wd, isa::FltType::F32,
                 T == WElem::F16 ? isa::FltType::F16 : isa::FltType::BF16);
    case WElem::TF32:
      return lopI(Wd, 0xffffe000u, isa::LogicOp::AND);
    case WElem::F32:
    case WElem::S32:
      return Wd;
    default: {
      Opnd D = v32();
      Inst &X = E(Opcode::BFE, {D, Wd, imm(Pos | (B << 8))});
      setMod(X, "ty", uint32_t(T == WElem::S8 || T == WElem::S4 ? isa::ITy32::S32
                                                                  : isa::ITy32::U32));
      return D;
    }
    }
  };
  std::vector<Opnd> Res(EC);
  for (unsigned C = 0; C < EC; ++C) {
    GatherColumn(C);
    Opnd Acc;
    if (CT == WElem::F16)
      Acc = Elem(Cw, C, WElem::F16);
    else
      Acc = Elem(Cw, C, CT);
    if (IsB1) {
      Opnd Sum = Acc;
      for (unsigned K = 0; K < ARow.size(); ++K) {
        Opnd P = v32(), N = v32();
        E(Opcode::POPC, {P, lop3(ARow[K], BCol[C][K], Opnd::rz(), I.op == Op::WmmaMmaAndPopc ? 0xC0 : 0x3C)});
        E(Opcode::IADD, {N, Sum, P, Opnd::pt(), Opnd::pt()});
        Sum = N;
      }
      Res[C] = Sum;
      continue;
    }
    if (IsF64) {
      for (unsigned K = 0; K < S.K; ++K) {
        Opnd N = v64();
        Inst &X = E(Opcode::DFMA, {N, Elem(ARow, K, AT), Elem(BCol[C], K, BT), Acc});
        setMod(X, "rnd", uint32_t(rnd(I)));
        Acc = N;
      }
      Res[C] = Acc;
      continue;
    }
    if (IsFloat) {
      for (unsigned K = 0; K < S.K; ++K) {
        Opnd N = v32();
        E(Opcode::FFMA, {N, Elem(ARow, K, AT), Elem(BCol[C], K, BT), Acc});
        Acc = N;
      }
      Res[C] = DT == WElem::F16 ? f2f(Acc, isa::FltType::F16, isa::FltType::F32) : Acc;
      continue;
    }
    // Integers: the dot product cannot overflow 32 bits (|a*b| <= 2^14, at most 32 terms); with
    // .satfinite the add of c saturates.
    Opnd Dot = Opnd::rz();
    for (unsigned K = 0; K < S.K; ++K) {
      Opnd N = v32();
      E(Opcode::IMAD, {N, Elem(ARow, K, AT), Elem(BCol[C], K, BT), Dot});
      Dot = N;
    }
    Opnd R = v32();
    E(Opcode::IADD, {R, Dot, Acc, Opnd::pt(), Opnd::pt()});
    if (I.has(Mod::SatFinite)) {
      Opnd Ovf = icmpI(lop3(R, Dot, Acc, 0x18), 0, isa::ICmp::LT, true);
      Opnd Neg = icmpI(Dot, 0, isa::ICmp::LT, true);
      Opnd Lim = sel32(imm(INT32_MIN), imm(INT32_MAX), Neg);
      R = sel32(Lim, R, Ovf);
    }
    Res[C] = R;
  }
  // Write D: packed halves for f16, pairs for f64, words otherwise; registers past it are zero.
  unsigned Used = 0;
  if (DT == WElem::F16) {
    for (unsigned C = 0; C < EC; C += 2)
      E(Opcode::PRMT, {Dw[Used++], Res[C], Res[C + 1], imm(0x5410)});
  } else if (DT == WElem::F64) {
    for (unsigned C = 0; C < EC; ++C) {
      mov32(Dw[Used++], lo(Res[C]));
      mov32(Dw[Used++], hi(Res[C]));
    }
  } else {
    for (unsigned C = 0; C < EC; ++C)
      mov32(Dw[Used++], Res[C]);
  }
  for (; Used < Dw.size(); ++Used)
    mov32(Dw[Used], Opnd::rz());
}

} // namespace

Status<> lowerFunction(const ptx::Module &M, uint32_t PtxIndex, const ModuleLayout &L,
                       const CodegenOptions &Opts, Function &Out) {
  Lowering Lw(M, PtxIndex, L, Opts, Out);
  return Lw.run();
}

} // namespace wf::codegen
