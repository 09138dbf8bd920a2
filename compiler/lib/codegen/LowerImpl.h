//===- LowerImpl.h - Shared state of PTX -> WIR lowering ---------*- C++ -*-===//
//
// Part of Warpforge. Private to wf_codegen.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/codegen/Codegen.h"
#include "warpforge/codegen/WIR.h"

#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace wf::codegen {

/// Module-wide facts the lowering of every function needs.
struct ModuleLayout {
  std::map<uint32_t, uint32_t> sharedOffset; ///< PTX global index -> shared offset
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> localSharedOffset; ///< (func, local) -> offset
  std::map<uint32_t, uint32_t> constOffset;  ///< PTX global index -> const segment offset
  std::map<uint32_t, uint32_t> globalOffset; ///< PTX global index -> global segment offset
  std::map<uint32_t, uint32_t> symbolIndex;  ///< PTX global index -> wfx symbol index
  std::map<uint32_t, uint32_t> funcIndex;    ///< PTX function index -> WIR function index
};

/// Offsets of parameters in a parameter list laid out CUDA-style (natural alignment).
std::vector<uint32_t> layoutParams(const std::vector<ptx::Param> &Ps, uint32_t Base, uint32_t *End);

Status<> lowerFunction(const ptx::Module &M, uint32_t PtxIndex, const ModuleLayout &L,
                       const CodegenOptions &Opts, Function &Out);

/// Emission services the texture and surface lowering (LowerTexture.cpp) borrows from the
/// lowering of a function: emit with the current guard and source position, operands of PTX
/// registers and immediates, and error reporting.
struct TexLowerCtx {
  Function &F;
  std::function<Inst &(isa::Opcode, std::initializer_list<Opnd>)> emit;
  std::function<Opnd(const ptx::Operand &)> src32;
  std::function<Opnd(const ptx::Operand &)> src64;
  std::function<Opnd(const ptx::Operand &)> dst; ///< the whole register of a PTX destination
  std::function<void(const std::string &)> unsupported;
};

/// A device heap function (malloc or free, DeviceHeap.cpp) a module declares without a body, as
/// it is linked in: the library function and the declaration whose name its code takes.
struct HeapLink {
  std::string_view libraryName;
  uint32_t declaration = 0; ///< PTX function index in the module
};

/// Finds the declarations the device heap library defines (malloc, free, operator new/delete) and
/// maps them in L.funcIndex to WIR functions numbered from FirstIndex, one per library function.
std::vector<HeapLink> planDeviceHeap(const ptx::Module &M, uint32_t FirstIndex, ModuleLayout &L);

/// Lowers the planned library functions and appends them to W (after the module's own).
Status<> lowerDeviceHeap(const std::vector<HeapLink> &Links, const CodegenOptions &Opts,
                         WModule &W);

/// PTX tex, tld4, suld.b and sust.b to TEX, SULD and SUST.
void lowerTexture(const ptx::Instruction &I, TexLowerCtx &C);

/// Modifier helpers: set the modifier called Name of I (table lookup by name).
void setMod(Inst &I, const char *Name, uint32_t Value);
uint32_t getMod(const Inst &I, const char *Name);

} // namespace wf::codegen
