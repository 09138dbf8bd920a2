// Line-level parsing shared by the assembler and assembleInst: a lexer with columns, integer
// expressions, float literals, and instructions with symbol-valued operands left for later.
#pragma once

#include "warpforge/asm/inst.h"
#include "warpforge/module/wfx.h"
#include "warpforge/support/error.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wf::mc::detail {

/// A cursor over one piece of a source line. Columns are 1-based positions in the whole line.
class Lexer {
public:
  explicit Lexer(std::string_view text, uint32_t firstColumn = 1)
      : text_(text), firstColumn_(firstColumn) {}

  void skipSpace();
  /// True when only blanks are left.
  bool atEnd();
  /// The next character after blanks, or '\0'.
  char peek();
  /// Consumes `c` if it comes next after blanks.
  bool accept(char c);
  uint32_t column() const { return firstColumn_ + uint32_t(pos_); }
  /// A name: [A-Za-z_.$][A-Za-z0-9_.$]*, after blanks; empty if none.
  std::string_view identifier();
  /// A run of characters that are not blanks, commas or brackets, after blanks.
  std::string_view word();
  /// Everything left, without surrounding blanks.
  std::string_view rest();
  void advance(size_t n) { pos_ += n; }
  size_t position() const { return pos_; }
  void setPosition(size_t pos) { pos_ = pos; }
  std::string_view slice(size_t from, size_t to) const { return text_.substr(from, to - from); }

private:
  std::string_view text_;
  uint32_t firstColumn_;
  size_t pos_ = 0;
};

/// An error at `column` of the current line; the assembler fills in the file and line.
Error errorAt(uint32_t column, std::string message, std::string_view snippet = {});

/// An integer expression: a number, a symbol plus or minus a number, or %lo(...) / %hi(...) of
/// one (the low or high 32 bits of an absolute device address).
struct Expr {
  enum class Part : uint8_t { Whole, Lo, Hi };
  Part part = Part::Whole;
  std::string symbol; ///< empty: a plain number
  int64_t value = 0;  ///< the number, or the addend to the symbol
  bool wide = false;  ///< a literal above INT64_MAX, kept as its 64-bit pattern in `value`
  uint32_t column = 0;
  std::string text; ///< as written
};

Expected<Expr> parseExpr(Lexer &lexer);

/// Register-like names: R0..R254 and RZ, P0..P14 and PT, B0..B15, SR_<name>.
enum class RegClass : uint8_t { None, Reg, Pred, Barrier, SReg };
struct RegToken {
  RegClass regClass = RegClass::None;
  uint32_t value = 0;
  bool inRange = true; ///< false for R300, P20, ...
};
RegToken classifyRegister(std::string_view token);

/// Float literals: 1.5, -0.25, 1e-3, inf, -inf, nan, or the bits as 0f3fc00000 (0d... for F64).
Expected<uint32_t> parseF32(std::string_view token, uint32_t column);
Expected<uint64_t> parseF64(std::string_view token, uint32_t column);

/// An operand value that needs symbols or the pc: kept as an expression until pass 2.
struct PendingValue {
  unsigned operand = 0; ///< index in the opcode's operand table
  bool offset = false;  ///< the address offset rather than the operand's field
  Expr expr;
};

struct ParsedInst {
  Inst inst;
  std::vector<PendingValue> pending;
};

/// "[@[!]Pn] OPCODE{.MOD} operand, ..." with no label or comment.
Expected<ParsedInst> parseInst(std::string_view text, uint32_t firstColumn);

/// What the assembler knows of a symbol.
struct SymbolRef {
  wfx::Segment segment = wfx::Segment::Code;
  uint32_t offset = 0;
  uint32_t index = wfx::kNoSymbol; ///< in the module's symbol table; kNoSymbol when local
};
using SymbolLookup = std::function<std::optional<SymbolRef>(std::string_view)>;

/// A field value, and the relocation that will overwrite it at load time, if any (its segment and
/// offset are the caller's to fill in).
struct Resolved {
  uint32_t value = 0;
  std::optional<wfx::Reloc> reloc;
};

/// Value of `pending` for the instruction at `pc` (REL operands count from pc + kInstBytes).
Expected<Resolved> resolve(const isa::OperandInfo &operand, const PendingValue &pending,
                           uint32_t pc, const SymbolLookup &lookup);

/// A symbol's value in instruction operands: code labels give their code address and constants
/// their offset in the constant bank; global data has no value before load (use %lo/%hi).
Expected<int64_t> symbolValue(const Expr &expr, const SymbolLookup &lookup);

/// Splits `text` at commas outside brackets and parentheses; each piece with its first column.
std::vector<std::pair<std::string_view, uint32_t>> splitOperands(std::string_view text,
                                                                 uint32_t firstColumn);

} // namespace wf::mc::detail
