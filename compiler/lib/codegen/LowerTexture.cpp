//===- LowerTexture.cpp - PTX texture and surface instructions ------------===//
//
// Part of Warpforge. Texture and surface objects are 64-bit handles (the device address of an
// isa::dev::TexDesc); the native TEX, SULD and SUST take the handle in a register pair and the
// coordinates in one register group (a single register, an aligned pair or an aligned quad as
// the dimension needs, layer first for layered forms, as PTX orders them):
//   tex.{1d,2d,3d,a1d,a2d}.v4.{f32,s32,u32}.{f32,s32}  ->  TEX
//   tld4.{r,g,b,a}.2d.v4.{f32,s32,u32}.f32             ->  TEX.GATHER
//   suld.b.{1d,2d,3d,a1d,a2d}{.v2,.v4}.b{8,16,32,64}   ->  SULD (one register per element)
//   sust.b...                                          ->  SUST
// Results and data pass through a fresh register group and MOVs, which copy propagation and the
// register allocator's coalescing remove where they can.
//
//===----------------------------------------------------------------------===//

#include "LowerImpl.h"

#include <optional>
#include <vector>

namespace wf::codegen {

using isa::Opcode;
using ptx::Mod;
using ptx::Op;
using ptx::Type;

namespace {

/// Registers of TEX/SULD/SUST coordinates per TexDim (isa.toml: ra:R{dim:1/2/4/2/4/4}).
constexpr unsigned kCoordRegs[] = {1, 2, 4, 2, 4, 4};

RegClass classFor(unsigned Words) {
  return Words == 4 ? RegClass::R128 : Words == 2 ? RegClass::R64 : RegClass::R32;
}

Opnd wordOf(Opnd O, unsigned W, unsigned Words) {
  if (Words > 1 && O.kind == OpndKind::VReg)
    O.sub = uint8_t(W);
  return O;
}

std::optional<isa::TexDim> geometry(const ptx::Instruction &I) {
  if (I.has(Mod::G1d))
    return isa::TexDim::k1D;
  if (I.has(Mod::G2d))
    return isa::TexDim::k2D;
  if (I.has(Mod::G3d))
    return isa::TexDim::k3D;
  if (I.has(Mod::A1d))
    return isa::TexDim::A1D;
  if (I.has(Mod::A2d))
    return isa::TexDim::A2D;
  return std::nullopt;
}

/// The elements of a `{a, b, ...}` operand, or the operand itself.
std::vector<const ptx::Operand *> elements(const ptx::Operand &O) {
  std::vector<const ptx::Operand *> Out;
  if (O.kind == ptx::OperandKind::Vector)
    for (const ptx::Operand &E : O.elems)
      Out.push_back(&E);
  else
    Out.push_back(&O);
  return Out;
}

class TexLowering {
public:
  TexLowering(const ptx::Instruction &I, TexLowerCtx &C) : I(I), C(C) {}

  void run() {
    switch (I.op) {
    case Op::Tex:
    case Op::Tld4:
      return lowerTex();
    case Op::Suld:
      return lowerSurface(false);
    default:
      return lowerSurface(true);
    }
  }

private:
  const ptx::Instruction &I;
  TexLowerCtx &C;

  Opnd fresh(unsigned Words) { return Opnd::vreg(C.F.newVReg(classFor(Words))); }
  void mov(Opnd D, Opnd S) { C.emit(Opcode::MOV, {D, S}); }

  /// `[handle, coords]`: the handle pair and the coordinate group for dimension Dim.
  bool address(const ptx::Operand &A, isa::TexDim Dim, Opnd &Handle, Opnd &Coords) {
    if (A.kind != ptx::OperandKind::TexAddress || A.elems.size() < 2) {
      C.unsupported("texture operand must be [object, coordinates]");
      return false;
    }
    if (A.elems[0].kind != ptx::OperandKind::Reg) {
      C.unsupported("texture and surface references (.texref/.surfref): use objects");
      return false;
    }
    std::vector<const ptx::Operand *> Cs;
    for (size_t K = 1; K < A.elems.size(); ++K)
      for (const ptx::Operand *E : elements(A.elems[K]))
        Cs.push_back(E);
    const unsigned Words = kCoordRegs[unsigned(Dim)];
    const bool Layered = Dim == isa::TexDim::A1D || Dim == isa::TexDim::A2D;
    const unsigned Needed = (Dim == isa::TexDim::k1D || Dim == isa::TexDim::A1D ? 1
                             : Dim == isa::TexDim::k3D                          ? 3
                                                                                : 2) +
                            (Layered ? 1 : 0);
    if (Cs.size() < Needed) {
      C.unsupported("too few coordinates");
      return false;
    }
    Handle = C.src64(A.elems[0]);
    Coords = fresh(Words);
    for (unsigned W = 0; W < Words; ++W)
      mov(wordOf(Coords, W, Words), W < Needed ? C.src32(*Cs[W]) : Opnd::rz());
    return true;
  }

  void lowerTex() {
    const bool Gather = I.op == Op::Tld4;
    auto Dim = geometry(I);
    if (!Dim || (Gather && *Dim != isa::TexDim::k2D))
      return C.unsupported("geometry");
    if (I.operands.size() != 2)
      return C.unsupported("offset, depth-compare and level-of-detail operands");
    const ptx::Operand &D = I.operands[0];
    if (D.kind != ptx::OperandKind::Vector || D.elems.size() != 4)
      return C.unsupported("the result must be a four-register vector");
    Type Res = I.type(0), Crd = I.type(1);
    isa::TexResult R;
    if (Res == Type::F32)
      R = isa::TexResult::F32;
    else if (Res == Type::S32)
      R = isa::TexResult::S32;
    else if (Res == Type::U32)
      R = isa::TexResult::U32;
    else
      return C.unsupported("result type");
    if (Crd != Type::F32 && Crd != Type::S32)
      return C.unsupported("coordinate type");
    Opnd Handle, Coords;
    if (!address(I.operands[1], *Dim, Handle, Coords))
      return;
    Opnd Out = fresh(4);
    Inst &X = C.emit(Opcode::TEX, {Out, Coords, Handle});
    setMod(X, "dim", uint32_t(*Dim));
    setMod(X, "coord", uint32_t(Crd == Type::S32 ? isa::TexCoord::CS32 : isa::TexCoord::CF32));
    setMod(X, "res", uint32_t(R));
    if (Gather) {
      isa::TexGather G = I.has(Mod::CompG)   ? isa::TexGather::G
                         : I.has(Mod::CompB) ? isa::TexGather::B
                         : I.has(Mod::CompA) ? isa::TexGather::A
                                             : isa::TexGather::R;
      setMod(X, "gather", uint32_t(G));
    }
    for (unsigned K = 0; K < 4; ++K) {
      const ptx::Operand &El = D.elems[K];
      if (El.kind == ptx::OperandKind::Sink)
        continue;
      mov(C.dst(El), wordOf(Out, K, 4));
    }
  }

  void lowerSurface(bool Store) {
    auto Dim = geometry(I);
    if (!Dim)
      return C.unsupported("geometry");
    if (I.operands.size() != 2)
      return C.unsupported("operands");
    const unsigned Vec = I.vecWidth();
    const unsigned EB = ptx::byteSize(I.type(0));
    static constexpr isa::SurfSize kSizes[3][4] = {
        {isa::SurfSize::B8, isa::SurfSize::B16, isa::SurfSize::B32, isa::SurfSize::B64},
        {isa::SurfSize::V2B8, isa::SurfSize::V2B16, isa::SurfSize::V2B32, isa::SurfSize::V2B64},
        {isa::SurfSize::V4B8, isa::SurfSize::V4B16, isa::SurfSize::V4B32, isa::SurfSize::B64}};
    const int VI = Vec == 1 ? 0 : Vec == 2 ? 1 : Vec == 4 ? 2 : -1;
    const int EI = EB == 1 ? 0 : EB == 2 ? 1 : EB == 4 ? 2 : EB == 8 ? 3 : -1;
    if (VI < 0 || EI < 0 || (VI == 2 && EI == 3))
      return C.unsupported("vector and element size");
    const isa::SurfSize Size = kSizes[VI][EI];
    const unsigned WPE = EB == 8 ? 2 : 1, Words = Vec * WPE;
    isa::SurfClamp Clamp = I.has(Mod::Clamp)  ? isa::SurfClamp::CLAMP
                           : I.has(Mod::Zero) ? isa::SurfClamp::ZERO
                                              : isa::SurfClamp::TRAP;
    const ptx::Operand &Data = Store ? I.operands[1] : I.operands[0];
    std::vector<const ptx::Operand *> Els = elements(Data);
    if (Els.size() != Vec)
      return C.unsupported("vector operand");
    Opnd Handle, Coords;
    if (!address(Store ? I.operands[0] : I.operands[1], *Dim, Handle, Coords))
      return;
    Opnd Tmp = fresh(Words);
    if (Store) {
      for (unsigned K = 0; K < Vec; ++K) {
        Opnd S = WPE == 2 ? C.src64(*Els[K]) : C.src32(*Els[K]);
        for (unsigned W = 0; W < WPE; ++W)
          mov(wordOf(Tmp, K * WPE + W, Words), WPE == 2 ? wordOf(S, W, 2) : S);
      }
    }
    Inst &X = Store ? C.emit(Opcode::SUST, {Coords, Handle, Tmp})
                    : C.emit(Opcode::SULD, {Tmp, Coords, Handle});
    setMod(X, "dim", uint32_t(*Dim));
    setMod(X, "size", uint32_t(Size));
    setMod(X, "clamp", uint32_t(Clamp));
    if (Store)
      return;
    for (unsigned K = 0; K < Vec; ++K) {
      if (Els[K]->kind == ptx::OperandKind::Sink)
        continue;
      Opnd D = C.dst(*Els[K]);
      const bool WideD = D.kind == OpndKind::VReg && C.F.regClass(D.reg) == RegClass::R64;
      for (unsigned W = 0; W < WPE; ++W)
        mov(WideD ? wordOf(D, W, 2) : D, wordOf(Tmp, K * WPE + W, Words));
      if (WPE == 1 && WideD) // a narrow element in a 64-bit register: zero the high word
        mov(wordOf(D, 1, 2), Opnd::rz());
    }
  }
};

} // namespace

void lowerTexture(const ptx::Instruction &I, TexLowerCtx &C) { TexLowering(I, C).run(); }

} // namespace wf::codegen
