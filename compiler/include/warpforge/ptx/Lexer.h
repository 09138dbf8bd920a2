//===- Lexer.h - PTX tokens -------------------------------------*- C++ -*-===//
//
// Part of Warpforge. Splits PTX text into tokens. Opcode words keep their
// dots ("ld.global.v4.f32", "%tid.x" are one Word each); directives and type
// names start with a dot. Comments and white space are skipped. A malformed
// token becomes a Token of kind Error carrying the message.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "warpforge/ptx/Diagnostic.h"

#include <cstdint>
#include <string_view>

namespace wf::ptx {

enum class TokKind : uint8_t {
  Eof,
  Error,     ///< malformed input; errorMessage() says why
  Word,      ///< identifier, opcode or register, dots included: add.s32, %r1, $L__BB0_1
  Directive, ///< .reg .b32 .shared::cta
  Integer,   ///< 42, 0x2a, 052, 0b101010, 42U
  Float,     ///< 1.5, 2e10 (decimal)
  FloatBits, ///< 0f3f800000 (32-bit) or 0d3ff0000000000000 (64-bit)
  String,    ///< "text" (escapes kept as written)
  Comma,
  Semi,
  Colon,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Less,
  Greater,
  LessEqual,
  GreaterEqual,
  Shl,
  Shr,
  EqualEqual,
  NotEqual,
  Equal,
  Bang,
  Tilde,
  Amp,
  AmpAmp,
  Pipe,
  PipePipe,
  Caret,
  Question,
  At,
};

std::string_view tokKindName(TokKind K);

struct Token {
  TokKind kind = TokKind::Eof;
  std::string_view text; ///< exactly as in the input (Error: the bad characters)
  SourceLoc loc;
  uint64_t intValue = 0;       ///< Integer: value; FloatBits: the bits
  bool isUnsigned = false;     ///< Integer: U suffix
  uint8_t floatWidth = 0;      ///< FloatBits: 32 or 64
  const char *error = nullptr; ///< Error: message (static storage)

  bool is(TokKind K) const { return kind == K; }
};

class Lexer {
public:
  explicit Lexer(std::string_view Text) : Text(Text) {}

  /// The next token; Eof forever once the text is consumed.
  Token next();
  /// Byte offset of the next character to be read.
  size_t offset() const { return Pos; }

private:
  bool skipSpaceAndComments(Token &Err);
  Token makeToken(TokKind K, size_t Start, SourceLoc Loc);
  Token makeError(const char *Msg, size_t Start, SourceLoc Loc);
  Token lexNumber(size_t Start, SourceLoc Loc);
  Token lexWord(size_t Start, SourceLoc Loc);
  char peek(size_t Ahead = 0) const { return Pos + Ahead < Text.size() ? Text[Pos + Ahead] : '\0'; }
  void advance(size_t N = 1);

  std::string_view Text;
  size_t Pos = 0;
  uint32_t Line = 1;
  uint32_t Col = 1;
};

} // namespace wf::ptx
