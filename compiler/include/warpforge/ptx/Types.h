//===- Types.h - PTX types, modifiers and state spaces ----------*- C++ -*-===//
//
// Part of Warpforge. Enumerations generated from Modifiers.def: every PTX type
// and every dot-modifier has one enumerator, and types are also modifiers, so
// an instruction's modifier list can hold both.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace wf::ptx {

/// A PTX fundamental (or packed, or opaque) type.
enum class Type : uint8_t {
#define PTX_TYPE(Id, Spelling, Bits, Kind) Id,
#include "warpforge/ptx/Modifiers.def"
  None,
};

/// Every modifier. The first enumerators are the types, in the same order as Type.
enum class Mod : uint16_t {
#define PTX_TYPE(Id, Spelling, Bits, Kind) Id,
#define PTX_MOD(Id, Spelling) Id,
#include "warpforge/ptx/Modifiers.def"
  NumMods,
};

inline constexpr unsigned kNumTypes = static_cast<unsigned>(Type::None);
inline constexpr unsigned kNumMods = static_cast<unsigned>(Mod::NumMods);

enum class TypeKind : uint8_t { Pred, Bits, Unsigned, Signed, Float, Packed, Opaque };

/// "b32" for Type::B32 (no leading dot).
std::string_view spelling(Type T);
std::string_view spelling(Mod M);
/// Size of a value in bits (1 for .pred).
unsigned bitWidth(Type T);
TypeKind kind(Type T);
/// Bytes a value of the type takes in memory (.pred: 1 byte).
inline unsigned byteSize(Type T) { return T == Type::Pred ? 1 : (bitWidth(T) + 7) / 8; }

inline bool isType(Mod M) { return static_cast<unsigned>(M) < kNumTypes; }
inline Type toType(Mod M) { return isType(M) ? static_cast<Type>(M) : Type::None; }
inline Mod toMod(Type T) { return static_cast<Mod>(T); }

bool isInteger(Type T); ///< .bN, .uN, .sN
bool isFloat(Type T);   ///< scalar floating point, including 8-bit formats

/// Looks a spelling up ("b32", "L2::cache_hint"; no leading dot).
std::optional<Mod> lookupMod(std::string_view Spelling);
std::optional<Type> lookupType(std::string_view Spelling);

/// Where a variable lives.
enum class Space : uint8_t {
  None, ///< generic (no state space given)
  Reg,
  SReg,
  Const,
  Global,
  Local,
  Param,
  Shared,
  Tex,
};

std::string_view spelling(Space S);
/// The state space a modifier names (.shared::cta is Shared), or nullopt.
std::optional<Space> toSpace(Mod M);

} // namespace wf::ptx
