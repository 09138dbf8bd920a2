//===- Lexer.cpp - PTX tokens ---------------------------------------------===//
//
// Part of Warpforge.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Lexer.h"

namespace wf::ptx {

namespace {

bool isIdentStart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || C == '_' || C == '$' || C == '%';
}
bool isIdentChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') || C == '_' ||
         C == '$';
}
bool isDigit(char C) { return C >= '0' && C <= '9'; }
int hexValue(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

} // namespace

std::string_view tokKindName(TokKind K) {
  switch (K) {
  case TokKind::Eof:
    return "end of file";
  case TokKind::Error:
    return "invalid token";
  case TokKind::Word:
    return "identifier";
  case TokKind::Directive:
    return "directive";
  case TokKind::Integer:
    return "integer";
  case TokKind::Float:
  case TokKind::FloatBits:
    return "floating-point constant";
  case TokKind::String:
    return "string";
  case TokKind::Comma:
    return "','";
  case TokKind::Semi:
    return "';'";
  case TokKind::Colon:
    return "':'";
  case TokKind::LParen:
    return "'('";
  case TokKind::RParen:
    return "')'";
  case TokKind::LBracket:
    return "'['";
  case TokKind::RBracket:
    return "']'";
  case TokKind::LBrace:
    return "'{'";
  case TokKind::RBrace:
    return "'}'";
  case TokKind::Plus:
    return "'+'";
  case TokKind::Minus:
    return "'-'";
  case TokKind::Star:
    return "'*'";
  case TokKind::Slash:
    return "'/'";
  case TokKind::Percent:
    return "'%'";
  case TokKind::Less:
    return "'<'";
  case TokKind::Greater:
    return "'>'";
  case TokKind::LessEqual:
    return "'<='";
  case TokKind::GreaterEqual:
    return "'>='";
  case TokKind::Shl:
    return "'<<'";
  case TokKind::Shr:
    return "'>>'";
  case TokKind::EqualEqual:
    return "'=='";
  case TokKind::NotEqual:
    return "'!='";
  case TokKind::Equal:
    return "'='";
  case TokKind::Bang:
    return "'!'";
  case TokKind::Tilde:
    return "'~'";
  case TokKind::Amp:
    return "'&'";
  case TokKind::AmpAmp:
    return "'&&'";
  case TokKind::Pipe:
    return "'|'";
  case TokKind::PipePipe:
    return "'||'";
  case TokKind::Caret:
    return "'^'";
  case TokKind::Question:
    return "'?'";
  case TokKind::At:
    return "'@'";
  }
  return "token";
}

void Lexer::advance(size_t N) {
  for (size_t I = 0; I < N && Pos < Text.size(); ++I) {
    if (Text[Pos] == '\n') {
      ++Line;
      Col = 1;
    } else {
      ++Col;
    }
    ++Pos;
  }
}

Token Lexer::makeToken(TokKind K, size_t Start, SourceLoc Loc) {
  Token T;
  T.kind = K;
  T.text = Text.substr(Start, Pos - Start);
  T.loc = Loc;
  return T;
}

Token Lexer::makeError(const char *Msg, size_t Start, SourceLoc Loc) {
  Token T = makeToken(TokKind::Error, Start, Loc);
  if (T.text.empty() && Start < Text.size())
    T.text = Text.substr(Start, 1);
  if (T.text.size() > 40)
    T.text = T.text.substr(0, 40);
  T.error = Msg;
  return T;
}

/// Skips blanks and comments. Returns false (with Err set) on an unterminated comment.
bool Lexer::skipSpaceAndComments(Token &Err) {
  while (Pos < Text.size()) {
    char C = Text[Pos];
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r' || C == '\f' || C == '\v') {
      advance();
      continue;
    }
    if (C == '/' && peek(1) == '/') {
      while (Pos < Text.size() && Text[Pos] != '\n')
        advance();
      continue;
    }
    if (C == '/' && peek(1) == '*') {
      size_t Start = Pos;
      SourceLoc Loc{Line, Col};
      advance(2);
      while (Pos < Text.size() && !(Text[Pos] == '*' && peek(1) == '/'))
        advance();
      if (Pos >= Text.size()) {
        Err = makeError("unterminated comment", Start, Loc);
        Err.text = Text.substr(Start, 2);
        return false;
      }
      advance(2);
      continue;
    }
    break;
  }
  return true;
}

Token Lexer::next() {
  Token Err;
  if (!skipSpaceAndComments(Err))
    return Err;
  size_t Start = Pos;
  SourceLoc Loc{Line, Col};
  if (Pos >= Text.size())
    return makeToken(TokKind::Eof, Start, Loc);

  char C = Text[Pos];
  if (isDigit(C))
    return lexNumber(Start, Loc);
  if (isIdentStart(C)) {
    // A lone '%' (no identifier character after it) is the modulo operator.
    if (C == '%' && !isIdentChar(peek(1))) {
      advance();
      return makeToken(TokKind::Percent, Start, Loc);
    }
    return lexWord(Start, Loc);
  }
  if (C == '.') {
    if (!isIdentChar(peek(1))) {
      advance();
      return makeError("stray '.'", Start, Loc);
    }
    advance();
    while (true) {
      while (isIdentChar(peek()))
        advance();
      if (peek() == ':' && peek(1) == ':' && isIdentChar(peek(2))) {
        advance(2);
        continue;
      }
      break;
    }
    return makeToken(TokKind::Directive, Start, Loc);
  }
  if (C == '"') {
    advance();
    while (Pos < Text.size() && Text[Pos] != '"' && Text[Pos] != '\n') {
      if (Text[Pos] == '\\' && Pos + 1 < Text.size() && Text[Pos + 1] != '\n')
        advance();
      advance();
    }
    if (peek() != '"')
      return makeError("unterminated string", Start, Loc);
    advance();
    return makeToken(TokKind::String, Start, Loc);
  }

  auto Two = [&](char Next, TokKind IfTwo, TokKind IfOne) {
    if (peek(1) == Next) {
      advance(2);
      return makeToken(IfTwo, Start, Loc);
    }
    advance();
    return makeToken(IfOne, Start, Loc);
  };
  switch (C) {
  case ',':
    advance();
    return makeToken(TokKind::Comma, Start, Loc);
  case ';':
    advance();
    return makeToken(TokKind::Semi, Start, Loc);
  case ':':
    advance();
    return makeToken(TokKind::Colon, Start, Loc);
  case '(':
    advance();
    return makeToken(TokKind::LParen, Start, Loc);
  case ')':
    advance();
    return makeToken(TokKind::RParen, Start, Loc);
  case '[':
    advance();
    return makeToken(TokKind::LBracket, Start, Loc);
  case ']':
    advance();
    return makeToken(TokKind::RBracket, Start, Loc);
  case '{':
    advance();
    return makeToken(TokKind::LBrace, Start, Loc);
  case '}':
    advance();
    return makeToken(TokKind::RBrace, Start, Loc);
  case '+':
    advance();
    return makeToken(TokKind::Plus, Start, Loc);
  case '-':
    advance();
    return makeToken(TokKind::Minus, Start, Loc);
  case '*':
    advance();
    return makeToken(TokKind::Star, Start, Loc);
  case '/':
    advance();
    return makeToken(TokKind::Slash, Start, Loc);
  case '~':
    advance();
    return makeToken(TokKind::Tilde, Start, Loc);
  case '^':
    advance();
    return makeToken(TokKind::Caret, Start, Loc);
  case '?':
    advance();
    return makeToken(TokKind::Question, Start, Loc);
  case '@':
    advance();
    return makeToken(TokKind::At, Start, Loc);
  case '<':
    if (peek(1) == '<') {
      advance(2);
      return makeToken(TokKind::Shl, Start, Loc);
    }
    return Two('=', TokKind::LessEqual, TokKind::Less);
  case '>':
    if (peek(1) == '>') {
      advance(2);
      return makeToken(TokKind::Shr, Start, Loc);
    }
    return Two('=', TokKind::GreaterEqual, TokKind::Greater);
  case '=':
    return Two('=', TokKind::EqualEqual, TokKind::Equal);
  case '!':
    return Two('=', TokKind::NotEqual, TokKind::Bang);
  case '&':
    return Two('&', TokKind::AmpAmp, TokKind::Amp);
  case '|':
    return Two('|', TokKind::PipePipe, TokKind::Pipe);
  default:
    break;
  }
  advance();
  return makeError("unexpected character", Start, Loc);
}

Token Lexer::lexWord(size_t Start, SourceLoc Loc) {
  advance(); // first character: letter, '_', '$' or '%'
  bool SawDot = false;
  while (true) {
    while (isIdentChar(peek()))
      advance();
    if (peek() == '.' && isIdentChar(peek(1))) {
      SawDot = true;
      advance();
      continue;
    }
    // '::' only inside dotted words (ld.global.L1::evict_last), never in labels.
    if (SawDot && peek() == ':' && peek(1) == ':' && isIdentChar(peek(2))) {
      advance(2);
      continue;
    }
    break;
  }
  return makeToken(TokKind::Word, Start, Loc);
}

Token Lexer::lexNumber(size_t Start, SourceLoc Loc) {
  auto Finish = [&](Token T) {
    if (isIdentChar(peek()) || peek() == '.') {
      while (isIdentChar(peek()) || peek() == '.')
        advance();
      return makeError("malformed number", Start, Loc);
    }
    return T;
  };
  char C0 = Text[Pos];
  char C1 = peek(1);
  // Hexadecimal floating-point bit patterns: 0fXXXXXXXX, 0dXXXXXXXXXXXXXXXX.
  if (C0 == '0' && (C1 == 'f' || C1 == 'F' || C1 == 'd' || C1 == 'D')) {
    unsigned Digits = (C1 == 'f' || C1 == 'F') ? 8 : 16;
    advance(2);
    uint64_t V = 0;
    unsigned N = 0;
    while (hexValue(peek()) >= 0) {
      if (N < 16)
        V = (V << 4) | uint64_t(hexValue(peek()));
      ++N;
      advance();
    }
    if (N != Digits)
      return Finish(makeError(Digits == 8 ? "a 0f constant needs exactly 8 hex digits"
                                          : "a 0d constant needs exactly 16 hex digits",
                              Start, Loc));
    Token T = makeToken(TokKind::FloatBits, Start, Loc);
    T.intValue = V;
    T.floatWidth = static_cast<uint8_t>(Digits * 4);
    return Finish(T);
  }
  uint64_t V = 0;
  bool Overflow = false;
  auto Accumulate = [&](unsigned Base, int D) {
    if (V > (UINT64_MAX - uint64_t(D)) / Base)
      Overflow = true;
    V = V * Base + uint64_t(D);
  };
  if (C0 == '0' && (C1 == 'x' || C1 == 'X' || C1 == 'b' || C1 == 'B')) {
    unsigned Base = (C1 == 'x' || C1 == 'X') ? 16 : 2;
    advance(2);
    unsigned N = 0;
    while (true) {
      int D = hexValue(peek());
      if (D < 0 || D >= int(Base))
        break;
      Accumulate(Base, D);
      ++N;
      advance();
    }
    if (N == 0)
      return Finish(makeError(Base == 16 ? "hexadecimal constant without digits"
                                         : "binary constant without digits",
                              Start, Loc));
  } else {
    // Decimal, octal, or a decimal floating-point constant.
    size_t P = Pos;
    while (P < Text.size() && isDigit(Text[P]))
      ++P;
    bool IsFloat = false;
    if (P < Text.size() && Text[P] == '.' && (P + 1 >= Text.size() || !isIdentStart(Text[P + 1])))
      IsFloat = true;
    if (P < Text.size() && (Text[P] == 'e' || Text[P] == 'E')) {
      size_t Q = P + 1;
      if (Q < Text.size() && (Text[Q] == '+' || Text[Q] == '-'))
        ++Q;
      if (Q < Text.size() && isDigit(Text[Q]))
        IsFloat = true;
    }
    if (IsFloat) {
      while (isDigit(peek()))
        advance();
      if (peek() == '.') {
        advance();
        while (isDigit(peek()))
          advance();
      }
      if (peek() == 'e' || peek() == 'E') {
        size_t Save = Pos;
        (void)Save;
        if (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2)))) {
          advance(peek(1) == '+' || peek(1) == '-' ? 2 : 1);
          while (isDigit(peek()))
            advance();
        }
      }
      return Finish(makeToken(TokKind::Float, Start, Loc));
    }
    unsigned Base = (C0 == '0' && isDigit(C1)) ? 8 : 10;
    while (isDigit(peek())) {
      int D = peek() - '0';
      if (D >= int(Base)) {
        while (isDigit(peek()))
          advance();
        return Finish(makeError("invalid digit in octal constant", Start, Loc));
      }
      Accumulate(Base, D);
      advance();
    }
  }
  if (Overflow) {
    while (isIdentChar(peek()))
      advance();
    return makeError("integer constant does not fit in 64 bits", Start, Loc);
  }
  bool Unsigned = false;
  if (peek() == 'U' || peek() == 'u') {
    Unsigned = true;
    advance();
  }
  Token T = makeToken(TokKind::Integer, Start, Loc);
  T.intValue = V;
  T.isUnsigned = Unsigned;
  return Finish(T);
}

} // namespace wf::ptx
