// Parsing of one assembly line's pieces: numbers, expressions, registers, floats, instructions.
#include "parser.h"

#include <bit>
#include <charconv>
#include <fmt/format.h>
#include <limits>

namespace wf::mc::detail {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isNameStart(char c) { return isAlpha(c) || c == '_' || c == '.' || c == '$'; }
bool isNameChar(char c) { return isNameStart(c) || isDigit(c); }
char upper(char c) { return c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c; }
char lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }

std::string upperCopy(std::string_view text) {
  std::string out(text);
  for (char &c : out)
    c = upper(c);
  return out;
}

int digitValue(char c) {
  if (isDigit(c))
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}

/// Parses all of `digits` in `base`; nullopt on a bad digit, no digits, or overflow.
std::optional<uint64_t> parseDigits(std::string_view digits, unsigned base) {
  if (digits.empty())
    return std::nullopt;
  uint64_t value = 0;
  for (char c : digits) {
    int digit = digitValue(c);
    if (digit >= int(base))
      return std::nullopt;
    if (value > (std::numeric_limits<uint64_t>::max() - uint64_t(digit)) / base)
      return std::nullopt;
    value = value * base + uint64_t(digit);
  }
  return value;
}

/// The text of `piece` without surrounding blanks, and the column where it starts.
std::pair<std::string_view, uint32_t> trim(std::string_view piece, uint32_t column) {
  size_t begin = 0;
  while (begin < piece.size() && isBlank(piece[begin]))
    ++begin;
  size_t end = piece.size();
  while (end > begin && isBlank(piece[end - 1]))
    --end;
  return {piece.substr(begin, end - begin), column + uint32_t(begin)};
}

std::string_view kindDescription(isa::OperandKind kind) {
  switch (kind) {
  case isa::OperandKind::R:
    return "a register";
  case isa::OperandKind::R64:
    return "a register pair (even register)";
  case isa::OperandKind::R128:
    return "a register quad (register number a multiple of 4)";
  case isa::OperandKind::P:
    return "a predicate";
  case isa::OperandKind::PN:
    return "a predicate, optionally negated";
  case isa::OperandKind::B:
    return "a convergence barrier register";
  case isa::OperandKind::SR:
    return "a special register";
  case isa::OperandKind::U4:
  case isa::OperandKind::U8:
  case isa::OperandKind::I32:
  case isa::OperandKind::U32:
    return "an integer";
  case isa::OperandKind::F32:
    return "a float";
  case isa::OperandKind::REL:
    return "a label or code address";
  case isa::OperandKind::ADDR:
  case isa::OperandKind::ADDR64:
    return "an address [Rn+offset]";
  }
  return "an operand";
}

bool isPairKind(isa::OperandKind kind) {
  return kind == isa::OperandKind::R64 || kind == isa::OperandKind::ADDR64;
}

/// The register of a register operand or address, with the checks every register gets.
Expected<uint32_t> parseRegister(std::string_view token, uint32_t column,
                                 const isa::OperandInfo &operand, const isa::OpInfo &info) {
  RegToken reg = classifyRegister(token);
  if (reg.regClass != RegClass::Reg)
    return errorAt(column,
                   fmt::format("operand {} of {} must be {}", operand.name, info.name,
                               kindDescription(operand.kind)),
                   token);
  if (!reg.inRange)
    return errorAt(column, fmt::format("register out of range (R0..R{} and RZ)", isa::kNumRegs - 1),
                   token);
  if (operand.kind == isa::OperandKind::R128 && reg.value != isa::kZeroReg && reg.value % 4 != 0)
    return errorAt(column,
                   fmt::format("misaligned register quad: operand {} of {} is 128-bit and needs "
                               "a multiple of 4",
                               operand.name, info.name),
                   token);
  if (isPairKind(operand.kind) && reg.value != isa::kZeroReg && reg.value % 2 != 0)
    return errorAt(column,
                   fmt::format("misaligned register pair: operand {} of {} is 64-bit and needs "
                               "an even register",
                               operand.name, info.name),
                   token);
  return reg.value;
}

Expected<uint32_t> parsePredicate(std::string_view token, uint32_t column,
                                  const isa::OperandInfo &operand, const isa::OpInfo &info) {
  RegToken reg = classifyRegister(token);
  if (reg.regClass != RegClass::Pred)
    return errorAt(column,
                   fmt::format("operand {} of {} must be {}", operand.name, info.name,
                               kindDescription(operand.kind)),
                   token);
  if (!reg.inRange)
    return errorAt(
        column, fmt::format("predicate out of range (P0..P{} and PT)", isa::kNumPreds - 1), token);
  return reg.value;
}

/// Parses `[reg]`, `[reg+expr]`, `[reg-expr]` or `[expr]` (register RZ).
Status<> parseAddress(std::string_view token, uint32_t column, unsigned index,
                      const isa::OpInfo &info, ParsedInst &out) {
  const isa::OperandInfo &operand = info.operands[index];
  Lexer lexer(token, column);
  if (!lexer.accept('['))
    return errorAt(column,
                   fmt::format("operand {} of {} must be {}", operand.name, info.name,
                               kindDescription(operand.kind)),
                   token);
  uint32_t reg = isa::kZeroReg;
  bool haveOffset = true;
  size_t start = lexer.position();
  uint32_t nameColumn = (lexer.skipSpace(), lexer.column());
  std::string_view name = lexer.identifier();
  if (!name.empty() && classifyRegister(name).regClass != RegClass::None) {
    auto parsed = parseRegister(name, nameColumn, operand, info);
    if (!parsed)
      return parsed.error();
    reg = *parsed;
    haveOffset = lexer.peek() == '+' || lexer.peek() == '-';
  } else {
    lexer.setPosition(start); // a symbol or number: the offset from RZ
  }
  if (haveOffset) {
    auto expr = parseExpr(lexer);
    if (!expr)
      return expr.error();
    out.pending.push_back(PendingValue{index, true, std::move(*expr)});
  }
  if (!lexer.accept(']'))
    return errorAt(lexer.column(), "expected ']' to close the address", token);
  if (!lexer.atEnd())
    return errorAt(lexer.column(), "unexpected text after the address", lexer.rest());
  out.inst.operands[index] = reg;
  return {};
}

Status<> parseOperand(const isa::OpInfo &info, unsigned index, std::string_view piece,
                      uint32_t pieceColumn, ParsedInst &out) {
  const isa::OperandInfo &operand = info.operands[index];
  auto [token, column] = trim(piece, pieceColumn);
  if (token.empty())
    return errorAt(pieceColumn, fmt::format("operand {} of {} is empty", operand.name, info.name));
  uint32_t &value = out.inst.operands[index];
  switch (operand.kind) {
  case isa::OperandKind::R:
  case isa::OperandKind::R64:
  case isa::OperandKind::R128: {
    auto reg = parseRegister(token, column, operand, info);
    if (!reg)
      return reg.error();
    value = *reg;
    return {};
  }
  case isa::OperandKind::P:
  case isa::OperandKind::PN: {
    bool negated = token.front() == '!';
    if (negated && operand.kind == isa::OperandKind::P)
      return errorAt(column,
                     fmt::format("operand {} of {} is a predicate destination and cannot be "
                                 "negated",
                                 operand.name, info.name),
                     token);
    auto pred = parsePredicate(trim(token.substr(negated), column + negated).first,
                               column + negated, operand, info);
    if (!pred)
      return pred.error();
    value = *pred | (negated ? predicateNegateBit(operand) : 0);
    return {};
  }
  case isa::OperandKind::B:
  case isa::OperandKind::SR: {
    RegToken reg = classifyRegister(token);
    RegClass want = operand.kind == isa::OperandKind::B ? RegClass::Barrier : RegClass::SReg;
    if (reg.regClass != want)
      return errorAt(column,
                     fmt::format("operand {} of {} must be {}", operand.name, info.name,
                                 kindDescription(operand.kind)),
                     token);
    if (!reg.inRange)
      return errorAt(
          column,
          want == RegClass::Barrier
              ? fmt::format("barrier register out of range (B0..B{})", isa::kNumBarrierRegs - 1)
              : std::string("unknown special register"),
          token);
    value = reg.value;
    return {};
  }
  case isa::OperandKind::F32: {
    auto bits = parseF32(token, column);
    if (!bits)
      return bits.error();
    value = *bits;
    return {};
  }
  case isa::OperandKind::U4:
  case isa::OperandKind::U8:
  case isa::OperandKind::I32:
  case isa::OperandKind::U32:
  case isa::OperandKind::REL: {
    RegToken reg = classifyRegister(token);
    if (reg.regClass != RegClass::None)
      return errorAt(column,
                     fmt::format("operand {} of {} must be {}", operand.name, info.name,
                                 kindDescription(operand.kind)),
                     token);
    Lexer lexer(token, column);
    auto expr = parseExpr(lexer);
    if (!expr)
      return expr.error();
    if (!lexer.atEnd())
      return errorAt(lexer.column(), "unexpected text after the operand", lexer.rest());
    out.pending.push_back(PendingValue{index, false, std::move(*expr)});
    return {};
  }
  case isa::OperandKind::ADDR:
  case isa::OperandKind::ADDR64:
    return parseAddress(token, column, index, info, out);
  }
  return errorAt(column, "unsupported operand kind", token);
}

/// Sets the modifiers named by `.MOD` suffixes; unnamed ones take their defaults.
Status<> parseMods(const isa::OpInfo &info,
                   const std::vector<std::pair<std::string_view, uint32_t>> &names,
                   uint32_t mnemonicColumn, Inst &inst) {
  std::array<bool, isa::kMaxMods> given{};
  for (auto [name, column] : names) {
    std::string key = upperCopy(name);
    std::optional<unsigned> match;
    uint32_t matchValue = 0;
    for (unsigned i = 0; i < info.numMods && !match; ++i) {
      const isa::ModInfo &mod = info.mods[i];
      if (mod.enumId == isa::EnumId::None) {
        if (upperCopy(mod.name) == key)
          match = i, matchValue = 1;
        continue;
      }
      const isa::EnumInfo &values = isa::kEnums[size_t(mod.enumId)];
      for (unsigned v = 0; v < values.count; ++v)
        if (values.values[v] == key) {
          // Positional modifiers take their values in table order: the first one not yet given.
          if (given[i] && isPositionalMod(info, i))
            break;
          match = i, matchValue = v;
          break;
        }
    }
    if (!match)
      return errorAt(column, fmt::format("unknown modifier for {}", info.name),
                     fmt::format(".{}", name));
    if (given[*match])
      return errorAt(
          column,
          fmt::format("modifier {} of {} is given twice", info.mods[*match].name, info.name),
          fmt::format(".{}", name));
    given[*match] = true;
    inst.mods[*match] = matchValue;
  }
  for (unsigned i = 0; i < info.numMods; ++i) {
    if (given[i])
      continue;
    auto value = defaultModValue(info, i);
    if (!value) {
      const isa::EnumInfo &values = isa::kEnums[size_t(info.mods[i].enumId)];
      std::string choices;
      for (unsigned v = 0; v < values.count; ++v)
        choices += fmt::format("{}.{}", v ? " " : "", values.values[v]);
      return errorAt(mnemonicColumn,
                     fmt::format("{} needs its {} modifier ({}: {})", info.name, info.mods[i].name,
                                 values.name, choices),
                     info.name);
    }
    inst.mods[i] = *value;
  }
  return {};
}

} // namespace

// --- Lexer -----------------------------------------------------------------------------------

void Lexer::skipSpace() {
  while (pos_ < text_.size() && isBlank(text_[pos_]))
    ++pos_;
}

bool Lexer::atEnd() {
  skipSpace();
  return pos_ >= text_.size();
}

char Lexer::peek() {
  skipSpace();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

bool Lexer::accept(char c) {
  if (peek() != c)
    return false;
  ++pos_;
  return true;
}

std::string_view Lexer::identifier() {
  skipSpace();
  if (pos_ >= text_.size() || !isNameStart(text_[pos_]))
    return {};
  size_t start = pos_;
  while (pos_ < text_.size() && isNameChar(text_[pos_]))
    ++pos_;
  return text_.substr(start, pos_ - start);
}

std::string_view Lexer::word() {
  skipSpace();
  size_t start = pos_;
  while (pos_ < text_.size() && !isBlank(text_[pos_]) && text_[pos_] != ',' && text_[pos_] != '[' &&
         text_[pos_] != ']' && text_[pos_] != '(' && text_[pos_] != ')')
    ++pos_;
  return text_.substr(start, pos_ - start);
}

std::string_view Lexer::rest() {
  skipSpace();
  size_t end = text_.size();
  while (end > pos_ && isBlank(text_[end - 1]))
    --end;
  std::string_view out = text_.substr(pos_, end - pos_);
  pos_ = text_.size();
  return out;
}

Error errorAt(uint32_t column, std::string message, std::string_view snippet) {
  return Error(std::move(message), SourceLoc{{}, 0, column}, std::string(snippet));
}

// --- Expressions -----------------------------------------------------------------------------

Expected<Expr> parseExpr(Lexer &lexer) {
  Expr expr;
  lexer.skipSpace();
  expr.column = lexer.column();
  size_t start = lexer.position();
  size_t beforeSign = start;
  if (lexer.accept('+') && lexer.peek() != '%')
    lexer.setPosition(beforeSign); // "+%lo(x)" in an address; otherwise the sign is the sum's
  bool wrapped = false;
  if (lexer.peek() == '%') {
    uint32_t column = lexer.column();
    lexer.advance(1);
    std::string_view which = lexer.identifier();
    if (which == "lo")
      expr.part = Expr::Part::Lo;
    else if (which == "hi")
      expr.part = Expr::Part::Hi;
    else
      return errorAt(column, "expected %lo(...) or %hi(...)", lexer.rest());
    if (!lexer.accept('('))
      return errorAt(lexer.column(), "expected '(' after %lo or %hi", lexer.rest());
    wrapped = true;
  }

  // sum := [+|-] term {(+|-) term}, term := number | symbol; at most one symbol, added.
  bool first = true;
  bool haveLiteral = false;
  for (;;) {
    int sign = 1;
    if (lexer.accept('-'))
      sign = -1;
    else if (!lexer.accept('+') && !first)
      break;
    first = false;
    lexer.skipSpace();
    uint32_t column = lexer.column();
    char c = lexer.peek();
    if (isDigit(c)) {
      std::string_view token = lexer.word();
      // A word stops at blanks and brackets; cut it at an operator too.
      size_t cut = token.find_first_of("+-");
      if (cut != std::string_view::npos) {
        lexer.setPosition(lexer.position() - (token.size() - cut));
        token = token.substr(0, cut);
      }
      std::optional<uint64_t> magnitude;
      if (token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X'))
        magnitude = parseDigits(token.substr(2), 16);
      else if (token.size() > 2 && token[0] == '0' && (token[1] == 'b' || token[1] == 'B'))
        magnitude = parseDigits(token.substr(2), 2);
      else
        magnitude = parseDigits(token, 10);
      if (!magnitude)
        return errorAt(column, "bad or too large integer", token);
      constexpr uint64_t kSignedMax = uint64_t(std::numeric_limits<int64_t>::max());
      int64_t term = 0;
      if (*magnitude > kSignedMax) {
        // Only a lone literal may exceed INT64_MAX: -2^63, or a 64-bit pattern for .quad.
        if (sign < 0 && *magnitude == kSignedMax + 1 && !haveLiteral)
          term = std::numeric_limits<int64_t>::min(), sign = 1;
        else if (sign > 0 && !haveLiteral && expr.symbol.empty())
          term = int64_t(*magnitude), expr.wide = true;
        else
          return errorAt(column, "integer too large", token);
      } else {
        term = int64_t(*magnitude);
      }
      if (expr.wide && haveLiteral)
        return errorAt(column, "integer too large", token);
      int64_t sum = 0;
      if (__builtin_add_overflow(expr.value, sign * term, &sum))
        return errorAt(column, "expression overflows 64 bits", token);
      expr.value = sum;
      haveLiteral = true;
      continue;
    }
    if (!isNameStart(c))
      return errorAt(column, "expected a number or a symbol", lexer.rest());
    std::string_view name = lexer.identifier();
    if (classifyRegister(name).regClass != RegClass::None)
      return errorAt(column, "expected an integer, not a register", name);
    if (!expr.symbol.empty())
      return errorAt(column, "an expression may name only one symbol", name);
    if (sign < 0)
      return errorAt(column, "a symbol cannot be subtracted", name);
    if (expr.wide)
      return errorAt(column, "integer too large", name);
    expr.symbol = std::string(name);
  }
  if (wrapped && !lexer.accept(')'))
    return errorAt(lexer.column(), "expected ')'", lexer.rest());
  expr.text = std::string(lexer.slice(start, lexer.position()));
  return expr;
}

RegToken classifyRegister(std::string_view token) {
  std::string name = upperCopy(token);
  if (name == "RZ")
    return {RegClass::Reg, isa::kZeroReg, true};
  if (name == "PT")
    return {RegClass::Pred, isa::kTruePred, true};
  if (name.rfind("SR_", 0) == 0) {
    for (unsigned i = 0; i < isa::kNumSRegs; ++i)
      if (name.substr(3) == isa::kSRegs[i].name)
        return {RegClass::SReg, i, true};
    return {RegClass::SReg, 0, false};
  }
  if (name.size() < 2 || name.size() > 5)
    return {};
  auto number = parseDigits(std::string_view(name).substr(1), 10);
  if (!number || (name.size() > 2 && name[1] == '0'))
    return {};
  uint32_t value = uint32_t(*number);
  switch (name[0]) {
  case 'R':
    return {RegClass::Reg, value, value < isa::kNumRegs};
  case 'P':
    return {RegClass::Pred, value, value < isa::kNumPreds};
  case 'B':
    return {RegClass::Barrier, value, value < isa::kNumBarrierRegs};
  default:
    return {};
  }
}

// --- Floats ----------------------------------------------------------------------------------

namespace {

template <typename Bits, typename Float>
Expected<Bits> parseFloat(std::string_view token, uint32_t column, char bitsPrefix, Bits inf,
                          Bits nan) {
  std::string text;
  for (char c : token)
    text += lower(c);
  constexpr Bits kSign = Bits(1) << (sizeof(Bits) * 8 - 1);
  if (text == "inf" || text == "+inf")
    return inf;
  if (text == "-inf")
    return Bits(inf | kSign);
  if (text == "nan" || text == "+nan")
    return nan;
  if (text == "-nan")
    return Bits(nan | kSign);
  if (text.size() > 2 && text[0] == '0' && text[1] == bitsPrefix) {
    auto bits = text.size() - 2 <= sizeof(Bits) * 2 ? parseDigits(text.substr(2), 16)
                                                    : std::optional<uint64_t>();
    if (!bits)
      return errorAt(column, fmt::format("bad 0{} float bit pattern", bitsPrefix), token);
    return Bits(*bits);
  }
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+')
    digits.remove_prefix(1);
  Float value{};
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range)
    return errorAt(column, "float literal out of range", token);
  if (ec != std::errc() || end != digits.data() + digits.size() || digits.empty())
    return errorAt(column, "expected a float literal", token);
  return std::bit_cast<Bits>(value);
}

} // namespace

Expected<uint32_t> parseF32(std::string_view token, uint32_t column) {
  return parseFloat<uint32_t, float>(token, column, 'f', 0x7f800000u, 0x7fc00000u);
}

Expected<uint64_t> parseF64(std::string_view token, uint32_t column) {
  return parseFloat<uint64_t, double>(token, column, 'd', 0x7ff0000000000000ull,
                                      0x7ff8000000000000ull);
}

// --- Instructions ----------------------------------------------------------------------------

std::vector<std::pair<std::string_view, uint32_t>> splitOperands(std::string_view text,
                                                                 uint32_t firstColumn) {
  std::vector<std::pair<std::string_view, uint32_t>> pieces;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    if (c == '[' || c == '(')
      ++depth;
    else if (c == ']' || c == ')')
      --depth;
    else if (c == ',' && (depth == 0 || i == text.size())) {
      pieces.emplace_back(text.substr(start, i - start), firstColumn + uint32_t(start));
      start = i + 1;
    }
  }
  return pieces;
}

Expected<ParsedInst> parseInst(std::string_view text, uint32_t firstColumn) {
  ParsedInst out;
  Lexer lexer(text, firstColumn);
  if (lexer.accept('@')) {
    out.inst.guardNegated = lexer.accept('!');
    uint32_t column = (lexer.skipSpace(), lexer.column());
    std::string_view name = lexer.identifier();
    RegToken reg = classifyRegister(name);
    if (reg.regClass != RegClass::Pred || !reg.inRange)
      return errorAt(column, "expected a guard predicate (P0..P14 or PT) after '@'",
                     name.empty() ? lexer.rest() : name);
    out.inst.guard = uint8_t(reg.value);
  }
  uint32_t mnemonicColumn = (lexer.skipSpace(), lexer.column());
  std::string_view mnemonic = lexer.word();
  size_t dot = mnemonic.find('.');
  std::string_view opcodeName = mnemonic.substr(0, dot);
  if (opcodeName.empty())
    return errorAt(mnemonicColumn, "expected an opcode", lexer.rest());
  auto opcode = findOpcode(opcodeName);
  if (!opcode)
    return errorAt(mnemonicColumn, "unknown opcode", opcodeName);
  out.inst.opcode = *opcode;
  const isa::OpInfo &info = out.inst.info();

  std::vector<std::pair<std::string_view, uint32_t>> modNames;
  while (dot != std::string_view::npos) {
    size_t next = mnemonic.find('.', dot + 1);
    std::string_view name = mnemonic.substr(
        dot + 1, next == std::string_view::npos ? std::string_view::npos : next - dot - 1);
    uint32_t column = mnemonicColumn + uint32_t(dot);
    if (name.empty())
      return errorAt(column, "empty modifier", mnemonic);
    modNames.emplace_back(name, column);
    dot = next;
  }
  if (auto status = parseMods(info, modNames, mnemonicColumn, out.inst); !status)
    return status.error();

  uint32_t operandsColumn = (lexer.skipSpace(), lexer.column());
  std::string_view operandText = lexer.rest();
  auto pieces = operandText.empty() ? decltype(splitOperands(operandText, 0)){}
                                    : splitOperands(operandText, operandsColumn);
  if (pieces.size() != info.numOperands) {
    std::string expected;
    for (unsigned i = 0; i < info.numOperands; ++i)
      expected += fmt::format("{}{}", i ? ", " : "", info.operands[i].name);
    return errorAt(operandsColumn > mnemonicColumn && !operandText.empty() ? operandsColumn
                                                                           : mnemonicColumn,
                   fmt::format("{} takes {} operand{}{}{}, not {}", info.name, info.numOperands,
                               info.numOperands == 1 ? "" : "s", info.numOperands ? " (" : "",
                               info.numOperands ? expected + ")" : "", pieces.size()),
                   operandText.empty() ? mnemonic : operandText);
  }
  for (unsigned i = 0; i < info.numOperands; ++i)
    if (auto status = parseOperand(info, i, pieces[i].first, pieces[i].second, out); !status)
      return status.error();
  return out;
}

// --- Resolution ------------------------------------------------------------------------------

Expected<int64_t> symbolValue(const Expr &expr, const SymbolLookup &lookup) {
  if (expr.symbol.empty())
    return expr.value;
  auto symbol = lookup ? lookup(expr.symbol) : std::nullopt;
  if (!symbol)
    return errorAt(expr.column, "undefined symbol", expr.symbol);
  if (symbol->segment == wfx::Segment::Global)
    return errorAt(expr.column,
                   fmt::format("the address of global data is known only when the module is "
                               "loaded; use %lo({0}) and %hi({0})",
                               expr.symbol),
                   expr.symbol);
  return int64_t(symbol->offset) + expr.value;
}

Expected<Resolved> resolve(const isa::OperandInfo &operand, const PendingValue &pending,
                           uint32_t pc, const SymbolLookup &lookup) {
  const Expr &expr = pending.expr;
  isa::Field field = pending.offset ? operand.imm : operand.field;
  if (pending.offset && field.width == 0) {
    if (expr.symbol.empty() && expr.value == 0 && expr.part == Expr::Part::Whole)
      return Resolved{};
    return errorAt(expr.column, "this address takes no offset", expr.text);
  }
  uint64_t fieldMask = field.width >= 32 ? 0xffffffffull : (uint64_t(1) << field.width) - 1;

  if (expr.part != Expr::Part::Whole) {
    if (field.width != 32 || field.lo % 8 != 0 || operand.kind == isa::OperandKind::REL)
      return errorAt(expr.column, "%lo/%hi need a 32-bit immediate operand", expr.text);
    bool low = expr.part == Expr::Part::Lo;
    if (expr.symbol.empty())
      return Resolved{low ? uint32_t(expr.value) : uint32_t(uint64_t(expr.value) >> 32), {}};
    auto symbol = lookup ? lookup(expr.symbol) : std::nullopt;
    if (!symbol)
      return errorAt(expr.column, "undefined symbol", expr.symbol);
    wfx::Reloc reloc;
    reloc.kind = low ? wfx::RelocKind::AbsLo32 : wfx::RelocKind::AbsHi32;
    reloc.target = symbol->segment;
    reloc.symbol = symbol->index;
    reloc.addend = expr.value + (symbol->index == wfx::kNoSymbol ? int64_t(symbol->offset) : 0);
    return Resolved{0, reloc};
  }

  if (operand.kind == isa::OperandKind::REL && !pending.offset) {
    int64_t target = expr.value;
    if (!expr.symbol.empty()) {
      auto symbol = lookup ? lookup(expr.symbol) : std::nullopt;
      if (!symbol)
        return errorAt(expr.column, "undefined label", expr.symbol);
      if (symbol->segment != wfx::Segment::Code)
        return errorAt(expr.column, "branch target is not a code label", expr.symbol);
      target += symbol->offset;
    }
    if (expr.wide || target < 0 || target > int64_t(std::numeric_limits<uint32_t>::max()))
      return errorAt(expr.column, "code address out of range", expr.text);
    // The adder wraps at 32 bits: every target is reachable from every pc.
    return Resolved{uint32_t((uint32_t(target) - (pc + isa::kInstBytes)) & fieldMask), {}};
  }

  auto value = symbolValue(expr, lookup);
  if (!value)
    return value.error();
  bool isSigned = pending.offset || operand.kind == isa::OperandKind::I32;
  int64_t low = isSigned ? -(int64_t(1) << (field.width - 1)) : 0;
  int64_t high = int64_t(fieldMask);
  if (expr.wide || *value < low || *value > high)
    return errorAt(
        expr.column,
        fmt::format("immediate out of range [{}, {}] for operand {}", low, high, operand.name),
        expr.text);
  return Resolved{uint32_t(uint64_t(*value) & fieldMask), {}};
}

} // namespace wf::mc::detail
