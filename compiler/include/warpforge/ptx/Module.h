//===- Module.h - The parsed PTX module -------------------------*- C++ -*-===//
//
// Part of Warpforge. A typed, resolved representation of one PTX module:
// directives, variables, functions with their registers and a flat list of
// statements. Nested { } blocks are flattened: their declarations get unique
// names (shadowing names get a "$N" suffix) and every reference is resolved
// to what it names, so later passes never look names up.
//
// Names are string_views into storage the Module owns (the PTX text and the
// names the parser made up); they stay valid while the Module lives, also
// across moves.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/ptx/Diagnostic.h"
#include "warpforge/ptx/InstrTable.h"
#include "warpforge/ptx/Types.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace wf::ptx {

/// The `.loc` line in effect for an instruction (file index from `.file`).
struct DebugLoc {
  uint32_t file = 0; ///< 0: no debug location
  uint32_t line = 0;
  uint32_t col = 0;
  /// Where the function was inlined (`.loc ..., inlined_at f l c`), file 0 if not.
  uint32_t inlinedAtFile = 0;
  uint32_t inlinedAtLine = 0;
  uint32_t inlinedAtCol = 0;

  bool isValid() const { return file != 0; }
};

enum class Linkage : uint8_t { Internal, Visible, Extern, Weak, Common };
std::string_view spelling(Linkage L); ///< "" for Internal, else ".visible" ...

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

/// One scalar element of an initializer.
struct InitElem {
  enum class Kind : uint8_t {
    Int,     ///< bits in `value`
    Float,   ///< IEEE bits (of the variable's type) in `value`
    Address, ///< address of `symbol` plus `value` (as an offset)
  };
  Kind kind = Kind::Int;
  bool generic = false; ///< Address: generic(sym), not the state-space address
  uint64_t value = 0;
  std::string_view symbol;
  SourceLoc loc;
};

/// A module-scope or function-scope variable (not a register).
struct Variable {
  std::string_view name;
  Space space = Space::None;
  Linkage linkage = Linkage::Internal;
  Type type = Type::None;
  uint8_t vecWidth = 1;       ///< 1, 2, 4 or 8 (.v2 .v4 .v8)
  uint32_t align = 0;         ///< .align, 0 if not given (natural alignment)
  std::vector<uint64_t> dims; ///< array dimensions; 0 means unsized `[]`
  bool managed = false;       ///< .attribute(.managed)
  bool hasInit = false;
  std::vector<InitElem> init; ///< flattened, in element order; missing ones are zero
  SourceLoc loc;

  /// Bytes of one element (vector of the type).
  uint64_t elemSize() const { return uint64_t(byteSize(type)) * vecWidth; }
  /// Elements in total (1 for scalars); 0 when a dimension is unsized.
  uint64_t numElems() const;
  /// Size in bytes; 0 when a dimension is unsized.
  uint64_t sizeInBytes() const { return numElems() * elemSize(); }
  /// .align if given, else the element size.
  uint64_t alignment() const { return align ? align : elemSize(); }
};

//===----------------------------------------------------------------------===//
// Operands and instructions
//===----------------------------------------------------------------------===//

/// What a symbol operand names, once resolved.
enum class SymbolKind : uint8_t {
  Unresolved,
  Global,        ///< Module::globals[index]
  Function,      ///< Module::functions[index]
  Local,         ///< Function::locals[index]
  Param,         ///< Function::params[index]
  Return,        ///< Function::returns[index]
  Label,         ///< Function::labels[index]
  Prototype,     ///< Function::prototypes[index]
  BranchTargets, ///< Function::branchTargets[index]
};

enum class OperandKind : uint8_t {
  Reg,        ///< a register: `reg`; `component` for vector registers (%v.y)
  SpecialReg, ///< `sreg`
  Imm,        ///< integer immediate in `imm`
  FImm,       ///< floating immediate: `fbits` (f32 bits if fwidth 32, else f64 bits)
  Symbol,     ///< `symbol` + `imm` offset, resolved to `symKind` / `index`
  Address,    ///< [base + imm]: base in elems[0] (Reg or Symbol), or none (absolute)
  TexAddress, ///< [a, b, ...]: texture/surface operand, elements in elems
  Vector,     ///< {a, b, ...}: elements in elems (Reg, Imm, FImm, Sink)
  Sink,       ///< `_`
  Pair,       ///< a|b: elems[0], elems[1]
  List,       ///< ( a, b, ... ): call results and arguments
};

struct Operand {
  OperandKind kind = OperandKind::Imm;
  bool negated = false;  ///< `!p`
  int8_t component = -1; ///< Reg: vector component 0..3 (.x .y .z .w), else -1
  uint32_t reg = 0;      ///< Reg: Function register id
  SRegRef sreg{};        ///< SpecialReg
  int64_t imm = 0;       ///< Imm value; Symbol and Address offset
  uint64_t fbits = 0;    ///< FImm bits
  uint8_t fwidth = 0;    ///< FImm: 32 (0f...), 64 (0d... or decimal)
  SymbolKind symKind = SymbolKind::Unresolved;
  uint32_t index = 0; ///< Symbol: index in the table symKind names
  std::string_view symbol;
  std::vector<Operand> elems;
  SourceLoc loc;
};

struct Instruction {
  Op op = Op::NumOps;
  std::string_view opcode; ///< the opcode word as written ("ld.global.v4.f32")
  uint8_t numMods = 0;
  std::array<Mod, kMaxInstrMods> mods{}; ///< modifiers in source order (name segments excluded)
  bool hasGuard = false;
  bool guardNegated = false;
  uint32_t guard = 0; ///< predicate register id
  std::vector<Operand> operands;
  Status status = Status::Supported; ///< from the table: the most severe of its parts
  SourceLoc loc;                     ///< of the opcode (or the guard, when present)
  DebugLoc dbg;                      ///< `.loc` in effect

  std::span<const Mod> modifiers() const { return {mods.data(), numMods}; }
  bool has(Mod M) const;
  /// The n-th type modifier (0: the first, usually the destination type), or None.
  Type type(unsigned N = 0) const;
  /// The state-space modifier, Space::None if absent (generic).
  Space space() const;
  /// Vector width from .v2/.v4/.v8, else 1.
  unsigned vecWidth() const;
};

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

/// A `.reg` declaration: one register, or a range `%r<N>` of N registers.
struct RegDecl {
  std::string_view name; ///< display name (a range's prefix); unique in the function
  Type type = Type::None;
  uint8_t vecWidth = 1;
  uint32_t count = 0;   ///< 0: a single register; N: registers name0..name{N-1}
  uint32_t firstId = 0; ///< id of the first register
  SourceLoc loc;
};

/// A `.param` (or `.reg`) parameter or return value.
struct Param {
  std::string_view name;
  Space space = Space::Param;
  Type type = Type::None;
  uint8_t vecWidth = 1;
  uint32_t align = 0;     ///< .align, 0 if not given
  uint64_t arraySize = 0; ///< `.b8 name[N]`: N; 0 for scalars
  bool isArray = false;
  bool isPtr = false; ///< .ptr attribute of kernel parameters
  Space ptrSpace = Space::None;
  uint32_t ptrAlign = 0;
  uint32_t reg = 0; ///< `.reg` parameters of a body: the register id holding it
  SourceLoc loc;

  uint64_t sizeInBytes() const {
    return uint64_t(byteSize(type)) * vecWidth * (isArray ? arraySize : 1);
  }
  uint64_t alignment() const { return align ? align : uint64_t(byteSize(type)) * vecWidth; }
};

/// A `.callprototype`: the signature of an indirect call.
struct Prototype {
  std::string_view name;
  std::vector<Param> params, returns;
  bool noReturn = false;
  SourceLoc loc;
};

/// A `.branchtargets` list for brx.idx: label indices.
struct BranchTargets {
  std::string_view name;
  std::vector<uint32_t> labels;
  SourceLoc loc;
};

struct Label {
  std::string_view name;
  uint32_t stmt = 0; ///< index of its Statement in the body
  SourceLoc loc;
};

enum class StmtKind : uint8_t { Label, Instr, Pragma };

struct Statement {
  StmtKind kind = StmtKind::Instr;
  uint32_t label = 0;      ///< Label: index into Function::labels
  uint32_t scope = 0;      ///< block the statement was in (0: the function body)
  std::string_view pragma; ///< Pragma: the string, without quotes
  Instruction inst;        ///< Instr
};

struct PerfDirectives {
  std::array<uint32_t, 3> maxntid{}; ///< all 0 if absent
  std::array<uint32_t, 3> reqntid{};
  std::array<uint32_t, 3> reqnctapercluster{};
  uint32_t minnctapersm = 0;
  uint32_t maxnctapersm = 0;
  uint32_t maxnreg = 0;
  uint32_t maxclusterrank = 0;
  bool explicitCluster = false;
  bool noReturn = false;
  std::vector<std::string_view> pragmas; ///< `.pragma` before the body
};

struct Function {
  std::string_view name;
  bool isKernel = false;
  bool hasBody = false; ///< false for declarations (prototypes, .extern)
  Linkage linkage = Linkage::Internal;
  std::vector<Param> params;
  std::vector<Param> returns;
  PerfDirectives perf;
  std::vector<RegDecl> regDecls; ///< sorted by firstId
  uint32_t numRegs = 0;
  std::vector<Variable> locals; ///< .local, .shared and .param variables of the body
  std::vector<Label> labels;
  std::vector<Prototype> prototypes;
  std::vector<BranchTargets> branchTargets;
  std::vector<Statement> body;
  SourceLoc loc;

  /// The declaration of register Id.
  const RegDecl &regDecl(uint32_t Id) const;
  Type regType(uint32_t Id) const { return regDecl(Id).type; }
  /// "%r17": the name the register prints as.
  std::string regName(uint32_t Id) const;
  size_t numInstructions() const;
};

//===----------------------------------------------------------------------===//
// Module
//===----------------------------------------------------------------------===//

struct Module {
  std::string fileName; ///< name of the PTX input (for diagnostics)
  uint32_t versionMajor = 0, versionMinor = 0;
  std::string_view target;                     ///< "sm_75"
  std::vector<std::string_view> targetOptions; ///< texmode_unified, debug, ...
  uint32_t addressSize = 64;
  std::map<uint32_t, std::string_view> files; ///< `.file` index -> path (unquoted)
  std::vector<std::string_view> pragmas;      ///< module-scope `.pragma`
  std::vector<std::string_view> sections;     ///< names of skipped `.section`s
  std::vector<Variable> globals;
  std::vector<Function> functions;

  Module();
  Module(Module &&) noexcept;
  Module &operator=(Module &&) noexcept;
  ~Module();

  const Function *findFunction(std::string_view Name) const;
  const Variable *findGlobal(std::string_view Name) const;
  std::vector<const Function *> kernels() const;

  /// Storage for the text the names point into (owned by the parser).
  struct Storage;
  std::unique_ptr<Storage> storage;
};

} // namespace wf::ptx
