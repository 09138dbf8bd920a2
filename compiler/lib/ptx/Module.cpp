//===- Module.cpp - The parsed PTX module ---------------------------------===//
//
// Part of Warpforge.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Module.h"

#include "ModuleStorage.h"

#include <algorithm>

namespace wf::ptx {

std::string_view spelling(Linkage L) {
  switch (L) {
  case Linkage::Internal:
    return "";
  case Linkage::Visible:
    return ".visible";
  case Linkage::Extern:
    return ".extern";
  case Linkage::Weak:
    return ".weak";
  case Linkage::Common:
    return ".common";
  }
  return "";
}

uint64_t Variable::numElems() const {
  uint64_t N = 1;
  for (uint64_t D : dims) {
    if (D == 0)
      return 0;
    N *= D;
  }
  return N;
}

bool Instruction::has(Mod M) const {
  for (unsigned I = 0; I < numMods; ++I)
    if (mods[I] == M)
      return true;
  return false;
}

Type Instruction::type(unsigned N) const {
  for (unsigned I = 0; I < numMods; ++I)
    if (isType(mods[I]) && N-- == 0)
      return toType(mods[I]);
  return Type::None;
}

Space Instruction::space() const {
  for (unsigned I = 0; I < numMods; ++I)
    if (std::optional<Space> S = toSpace(mods[I]))
      return *S;
  return Space::None;
}

unsigned Instruction::vecWidth() const {
  for (unsigned I = 0; I < numMods; ++I) {
    if (mods[I] == Mod::V2)
      return 2;
    if (mods[I] == Mod::V4)
      return 4;
    if (mods[I] == Mod::V8)
      return 8;
  }
  return 1;
}

const RegDecl &Function::regDecl(uint32_t Id) const {
  assert(!regDecls.empty() && Id < numRegs && "register id out of range");
  auto It = std::upper_bound(regDecls.begin(), regDecls.end(), Id,
                             [](uint32_t V, const RegDecl &D) { return V < D.firstId; });
  return *(It - 1);
}

std::string Function::regName(uint32_t Id) const {
  const RegDecl &D = regDecl(Id);
  std::string S(D.name);
  if (D.count != 0)
    S += std::to_string(Id - D.firstId);
  return S;
}

size_t Function::numInstructions() const {
  return static_cast<size_t>(std::count_if(
      body.begin(), body.end(), [](const Statement &S) { return S.kind == StmtKind::Instr; }));
}

Module::Module() : storage(std::make_unique<Storage>()) {}
Module::Module(Module &&) noexcept = default;
Module &Module::operator=(Module &&) noexcept = default;
Module::~Module() = default;

const Function *Module::findFunction(std::string_view Name) const {
  for (const Function &F : functions)
    if (F.name == Name)
      return &F;
  return nullptr;
}

const Variable *Module::findGlobal(std::string_view Name) const {
  for (const Variable &V : globals)
    if (V.name == Name)
      return &V;
  return nullptr;
}

std::vector<const Function *> Module::kernels() const {
  std::vector<const Function *> K;
  for (const Function &F : functions)
    if (F.isKernel)
      K.push_back(&F);
  return K;
}

} // namespace wf::ptx
