//===- Types.cpp - PTX types, modifiers and state spaces ------------------===//
//
// Part of Warpforge.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Types.h"

#include <array>
#include <string>
#include <unordered_map>

namespace wf::ptx {

namespace {

struct TypeRow {
  std::string_view spelling;
  unsigned bits;
  TypeKind kind;
};

constexpr std::array<TypeRow, kNumTypes> kTypeRows{{
#define PTX_TYPE(Id, Spelling, Bits, Kind) {Spelling, Bits, TypeKind::Kind},
#include "warpforge/ptx/Modifiers.def"
}};

constexpr std::array<std::string_view, kNumMods> kModSpellings{{
#define PTX_TYPE(Id, Spelling, Bits, Kind) Spelling,
#define PTX_MOD(Id, Spelling) Spelling,
#include "warpforge/ptx/Modifiers.def"
}};

const std::unordered_map<std::string_view, Mod> &modMap() {
  static const std::unordered_map<std::string_view, Mod> Map = [] {
    std::unordered_map<std::string_view, Mod> M;
    M.reserve(kNumMods * 2);
    for (unsigned I = 0; I < kNumMods; ++I)
      M.emplace(kModSpellings[I], static_cast<Mod>(I));
    return M;
  }();
  return Map;
}

} // namespace

std::string_view spelling(Type T) {
  return T == Type::None ? std::string_view() : kTypeRows[static_cast<unsigned>(T)].spelling;
}

std::string_view spelling(Mod M) {
  return static_cast<unsigned>(M) < kNumMods ? kModSpellings[static_cast<unsigned>(M)]
                                             : std::string_view();
}

unsigned bitWidth(Type T) { return T == Type::None ? 0 : kTypeRows[static_cast<unsigned>(T)].bits; }

TypeKind kind(Type T) {
  return T == Type::None ? TypeKind::Opaque : kTypeRows[static_cast<unsigned>(T)].kind;
}

bool isInteger(Type T) {
  TypeKind K = kind(T);
  return T != Type::None &&
         (K == TypeKind::Bits || K == TypeKind::Unsigned || K == TypeKind::Signed);
}

bool isFloat(Type T) { return T != Type::None && kind(T) == TypeKind::Float; }

std::optional<Mod> lookupMod(std::string_view Spelling) {
  const auto &Map = modMap();
  auto It = Map.find(Spelling);
  if (It == Map.end())
    return std::nullopt;
  return It->second;
}

std::optional<Type> lookupType(std::string_view Spelling) {
  std::optional<Mod> M = lookupMod(Spelling);
  if (!M || !isType(*M))
    return std::nullopt;
  return toType(*M);
}

std::string_view spelling(Space S) {
  switch (S) {
  case Space::None:
    return "";
  case Space::Reg:
    return "reg";
  case Space::SReg:
    return "sreg";
  case Space::Const:
    return "const";
  case Space::Global:
    return "global";
  case Space::Local:
    return "local";
  case Space::Param:
    return "param";
  case Space::Shared:
    return "shared";
  case Space::Tex:
    return "tex";
  }
  return "";
}

std::optional<Space> toSpace(Mod M) {
  switch (M) {
  case Mod::Global:
    return Space::Global;
  case Mod::Shared:
  case Mod::SharedCta:
  case Mod::SharedCluster:
    return Space::Shared;
  case Mod::Local:
    return Space::Local;
  case Mod::Const:
    return Space::Const;
  case Mod::Param:
  case Mod::ParamEntry:
  case Mod::ParamFunc:
    return Space::Param;
  case Mod::Tex:
    return Space::Tex;
  default:
    return std::nullopt;
  }
}

} // namespace wf::ptx
