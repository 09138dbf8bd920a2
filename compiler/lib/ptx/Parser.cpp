//===- Parser.cpp - PTX parser --------------------------------------------===//
//
// Part of Warpforge. A recursive-descent parser over the Lexer's tokens. It
// builds the Module directly: names are resolved while parsing (registers and
// variables at their use, labels at the end of their function, module symbols
// at the end of the module), nested blocks are flattened with unique names,
// and every instruction is checked against the instruction table.
//
// Conventions: parse functions return false after reporting an error. A
// syntax error stops the parse; table-validation errors are collected (up to
// ParseOptions::maxErrors) and parsing goes on, so one run reports them all.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Parser.h"

#include "warpforge/isa/isa.gen.h"
#include "warpforge/ptx/Lexer.h"

#include "ModuleStorage.h"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace wf::ptx {

namespace {

constexpr unsigned kMaxNesting = 64; // blocks, expressions, initializer braces
constexpr uint32_t kMaxRegsPerFunction = 1u << 24;
constexpr unsigned kMaxSegments = 24; // dot-separated parts of an opcode word

/// A constant-expression value.
struct Value {
  bool isFloat = false;
  bool isUnsigned = false;
  uint8_t fwidth = 0; ///< float: 32 (0f), 64 (0d or decimal)
  uint64_t bits = 0;  ///< integer value or float bits
};

double floatValue(const Value &V) {
  if (V.fwidth == 32)
    return static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(V.bits)));
  return std::bit_cast<double>(V.bits);
}

bool isVectorComponent(std::string_view S, int8_t &Comp) {
  if (S == "x" || S == "r")
    Comp = 0;
  else if (S == "y" || S == "g")
    Comp = 1;
  else if (S == "z" || S == "b")
    Comp = 2;
  else if (S == "w" || S == "a")
    Comp = 3;
  else
    return false;
  return true;
}

/// Splits "%r17" into "%r" and 17. False if there are no trailing digits, or
/// the number has a leading zero or is too large.
bool splitTrailingNumber(std::string_view Name, std::string_view &Prefix, uint32_t &Num) {
  size_t I = Name.size();
  while (I > 0 && Name[I - 1] >= '0' && Name[I - 1] <= '9')
    --I;
  if (I == Name.size() || I == 0)
    return false;
  std::string_view Digits = Name.substr(I);
  if (Digits.size() > 9 || (Digits.size() > 1 && Digits[0] == '0'))
    return false;
  uint32_t V = 0;
  for (char C : Digits)
    V = V * 10 + uint32_t(C - '0');
  Prefix = Name.substr(0, I);
  Num = V;
  return true;
}

class Parser {
public:
  Parser(Module &M, const ParseOptions &Opts) : M(M), Opts(Opts), Lex(M.storage->source) {
    Tok = Lex.next();
  }

  bool run();
  std::vector<Diagnostic> Diags;

private:
  //===--- Tokens and diagnostics ----------------------------------------===//

  const Token &peekNext() {
    if (!HasPeek) {
      Peeked = Lex.next();
      HasPeek = true;
    }
    return Peeked;
  }
  void consume() {
    if (HasPeek) {
      Tok = Peeked;
      HasPeek = false;
    } else {
      Tok = Lex.next();
    }
  }
  bool is(TokKind K) const { return Tok.kind == K; }
  bool isDirective(std::string_view D) const {
    return Tok.kind == TokKind::Directive && Tok.text == D;
  }
  bool isWord(std::string_view W) const { return Tok.kind == TokKind::Word && Tok.text == W; }

  void addDiag(SourceLoc Loc, std::string Msg, std::string_view Text) {
    if (Text.size() > 60)
      Text = Text.substr(0, 60);
    Diags.push_back(Diagnostic{Opts.fileName, Loc, std::move(Msg), std::string(Text)});
  }
  /// A syntax error: reported, and the parse stops.
  bool fail(SourceLoc Loc, std::string Msg, std::string_view Text) {
    if (!Fatal)
      addDiag(Loc, std::move(Msg), Text);
    Fatal = true;
    return false;
  }
  /// A syntax error at the current token.
  bool failHere(std::string Msg) {
    if (Tok.kind == TokKind::Error)
      return fail(Tok.loc, Tok.error ? Tok.error : "invalid token", Tok.text);
    std::string_view Text = Tok.kind == TokKind::Eof ? std::string_view("end of file") : Tok.text;
    return fail(Tok.loc, std::move(Msg), Text);
  }
  /// A non-syntax error: reported, parsing goes on until maxErrors.
  void report(SourceLoc Loc, std::string Msg, std::string_view Text) {
    if (Fatal)
      return;
    addDiag(Loc, std::move(Msg), Text);
    if (Diags.size() >= Opts.maxErrors)
      Fatal = true;
  }
  bool expect(TokKind K, const char *What) {
    if (!is(K))
      return failHere(std::string("expected ") + What);
    consume();
    return true;
  }
  std::string_view save(std::string S) { return M.storage->save(std::move(S)); }

  //===--- Constants -----------------------------------------------------===//

  bool parseExpr(Value &V, unsigned Depth = 0);
  bool parseBinary(Value &V, int MinPrec, unsigned Depth);
  bool parseUnary(Value &V, unsigned Depth);
  bool parseUInt(uint64_t &V, const char *What);
  bool parseU32(uint32_t &V, const char *What);

  //===--- Module level --------------------------------------------------===//

  bool parseTopLevel();
  bool parseVersion();
  bool parseTarget();
  bool parseFileDirective();
  bool parseLoc();
  bool parsePragma(std::string_view &Out);
  bool skipSection();
  bool parseVariableDecl(Space S, Linkage L, std::vector<Variable> &Out, bool InFunction);
  bool parseInitializer(Variable &V, unsigned Depth);
  bool parseInitElem(Variable &V);
  bool parseFunction(Linkage L, bool IsKernel);
  bool parseParamList(std::vector<Param> &Out, bool Prototype);
  bool parseParam(Param &P, bool Prototype);
  bool parsePerfDirectives(PerfDirectives &Perf);
  bool parseDims(std::vector<uint64_t> &Dims, bool AllowUnsized);

  //===--- Function bodies -----------------------------------------------===//

  bool parseBlock(unsigned Depth);
  bool parseRegDecl();
  bool parseLabelOrDeclaration();
  bool parseCallPrototype(std::string_view Name, SourceLoc Loc);
  bool parseBranchTargets(std::string_view Name, SourceLoc Loc);
  bool parseInstruction();
  bool parseOperand(Operand &Op, unsigned Depth);
  bool parseAddress(Operand &Op, unsigned Depth);
  bool parseNameOperand(Operand &Op);
  bool parseCallOperands(Instruction &I);
  void validate(Instruction &I, std::string_view Word, SourceLoc WordLoc);
  void checkOperandKinds(const Instruction &I, std::string_view Word);

  // Scopes and names.
  uint32_t openScope();
  void closeScope();
  bool isOpen(uint32_t Scope) const { return Scopes[Scope].open; }
  uint32_t depth(uint32_t Scope) const { return Scopes[Scope].depth; }
  bool nameTaken(std::string_view N) const;
  bool prefixTaken(std::string_view P, uint32_t Count) const;
  std::string_view uniqueName(std::string_view N);
  std::string_view uniquePrefix(std::string_view P, uint32_t Count);
  bool declareReg(std::string_view Name, Type T, uint8_t Vec, uint32_t Count, SourceLoc Loc);
  bool declareLocal(Variable V);
  bool declareLabelLike(std::string_view Name, SymbolKind K, uint32_t Index, SourceLoc Loc,
                        std::string_view &Display);
  bool lookupLocalName(std::string_view Name, SymbolKind &K, uint32_t &Index);
  void resolveFunctionSymbols();
  void resolveOperandLabels(Operand &Op, uint32_t Scope);
  bool findLabel(std::string_view Name, uint32_t Scope, SymbolKind &K, uint32_t &Index);
  void resolveModuleSymbols();
  void resolveOperandGlobals(Operand &Op);
  void checkResolvedTargets(const Instruction &I);

  Module &M;
  const ParseOptions &Opts;
  Lexer Lex;
  Token Tok;
  Token Peeked;
  bool HasPeek = false;
  bool Fatal = false;

  // Module symbols.
  struct ModuleSym {
    SymbolKind kind;
    uint32_t index;
  };
  std::unordered_map<std::string_view, ModuleSym> ModuleSyms;

  // State of the function being parsed.
  Function *F = nullptr;
  DebugLoc CurDbg;
  struct ScopeInfo {
    uint32_t parent;
    uint32_t depth;
    bool open;
  };
  std::vector<ScopeInfo> Scopes;
  uint32_t CurScope = 0;
  struct NameEntry {
    uint32_t scope;
    bool isReg; ///< else a local variable
    uint32_t index;
  };
  using NameMap = std::unordered_multimap<std::string_view, NameEntry>;
  using RangeMap = std::unordered_multimap<std::string_view, uint32_t>;
  NameMap Names;       ///< declarations of the open scopes
  RangeMap RangeDecls; ///< prefix -> regDecls index, open scopes only
  /// Per open scope (a stack): its entries in Names and RangeDecls, erased when it closes.
  std::vector<std::vector<NameMap::iterator>> ScopeNames;
  std::vector<std::vector<RangeMap::iterator>> ScopeRanges;
  std::unordered_map<std::string, unsigned> NextSuffix;        ///< next "$N" to try per name
  std::unordered_set<std::string_view> UsedNames;              ///< display names in use
  std::unordered_map<std::string_view, uint32_t> UsedPrefixes; ///< range prefix -> largest count
  std::unordered_map<std::string_view, uint32_t>
      SingleNumbered; ///< "%r" -> smallest N of a single %rN
  struct LabelEntry {
    uint32_t scope;
    SymbolKind kind;
    uint32_t index;
  };
  struct LabelKey {
    std::string_view name;
    uint32_t scope;
    bool operator==(const LabelKey &O) const { return name == O.name && scope == O.scope; }
  };
  struct LabelKeyHash {
    size_t operator()(const LabelKey &K) const {
      return std::hash<std::string_view>()(K.name) ^ (size_t(K.scope) * 0x9e3779b97f4a7c15ull);
    }
  };
  /// Labels, prototypes and branch-target lists by (name, declaring block).
  std::unordered_map<LabelKey, LabelEntry, LabelKeyHash> LabelNames;
  std::unordered_set<std::string_view> UsedLabelNames;
  std::unordered_map<std::string_view, uint32_t> ParamNames; ///< name -> index, high bit: return
  std::vector<std::pair<uint32_t, std::vector<std::pair<std::string_view, SourceLoc>>>>
      PendingTargets;                      ///< branchTargets index -> label names
  std::vector<uint32_t> BranchTargetScope; ///< per PendingTargets entry: its scope
  std::vector<uint32_t> RangeScope;        ///< per regDecls index: the declaring scope
};

//===----------------------------------------------------------------------===//
// Constant expressions
//===----------------------------------------------------------------------===//

int precedence(TokKind K) {
  switch (K) {
  case TokKind::PipePipe:
    return 1;
  case TokKind::AmpAmp:
    return 2;
  case TokKind::Pipe:
    return 3;
  case TokKind::Caret:
    return 4;
  case TokKind::Amp:
    return 5;
  case TokKind::EqualEqual:
  case TokKind::NotEqual:
    return 6;
  case TokKind::Less:
  case TokKind::Greater:
  case TokKind::LessEqual:
  case TokKind::GreaterEqual:
    return 7;
  case TokKind::Shl:
  case TokKind::Shr:
    return 8;
  case TokKind::Plus:
  case TokKind::Minus:
    return 9;
  case TokKind::Star:
  case TokKind::Slash:
  case TokKind::Percent:
    return 10;
  default:
    return -1;
  }
}

bool Parser::parseExpr(Value &V, unsigned Depth) { return parseBinary(V, 1, Depth); }

bool Parser::parseBinary(Value &V, int MinPrec, unsigned Depth) {
  if (!parseUnary(V, Depth))
    return false;
  while (true) {
    int Prec = precedence(Tok.kind);
    if (Prec < MinPrec)
      return true;
    Token OpTok = Tok;
    consume();
    Value R;
    if (!parseBinary(R, Prec + 1, Depth + 1))
      return false;
    if (V.isFloat || R.isFloat)
      return fail(OpTok.loc, "floating-point constant expressions are not supported", OpTok.text);
    bool U = V.isUnsigned || R.isUnsigned;
    uint64_t A = V.bits, B = R.bits;
    int64_t SA = static_cast<int64_t>(A), SB = static_cast<int64_t>(B);
    uint64_t Res = 0;
    switch (OpTok.kind) {
    case TokKind::PipePipe:
      Res = (A != 0 || B != 0);
      break;
    case TokKind::AmpAmp:
      Res = (A != 0 && B != 0);
      break;
    case TokKind::Pipe:
      Res = A | B;
      break;
    case TokKind::Caret:
      Res = A ^ B;
      break;
    case TokKind::Amp:
      Res = A & B;
      break;
    case TokKind::EqualEqual:
      Res = A == B;
      break;
    case TokKind::NotEqual:
      Res = A != B;
      break;
    case TokKind::Less:
      Res = U ? A < B : SA < SB;
      break;
    case TokKind::Greater:
      Res = U ? A > B : SA > SB;
      break;
    case TokKind::LessEqual:
      Res = U ? A <= B : SA <= SB;
      break;
    case TokKind::GreaterEqual:
      Res = U ? A >= B : SA >= SB;
      break;
    case TokKind::Shl:
      Res = B >= 64 ? 0 : A << B;
      break;
    case TokKind::Shr:
      if (U)
        Res = B >= 64 ? 0 : A >> B;
      else
        Res = static_cast<uint64_t>(B >= 64 ? (SA < 0 ? -1 : 0) : SA >> B);
      break;
    case TokKind::Plus:
      Res = A + B;
      break;
    case TokKind::Minus:
      Res = A - B;
      break;
    case TokKind::Star:
      Res = A * B;
      break;
    case TokKind::Slash:
    case TokKind::Percent: {
      if (B == 0)
        return fail(OpTok.loc, "division by zero in a constant expression", OpTok.text);
      bool Div = OpTok.kind == TokKind::Slash;
      if (U)
        Res = Div ? A / B : A % B;
      else if (SA == std::numeric_limits<int64_t>::min() && SB == -1)
        Res = Div ? A : 0;
      else
        Res = static_cast<uint64_t>(Div ? SA / SB : SA % SB);
      break;
    }
    default:
      return fail(OpTok.loc, "unexpected operator", OpTok.text);
    }
    V.bits = Res;
    V.isUnsigned = U;
  }
}

bool Parser::parseUnary(Value &V, unsigned Depth) {
  if (Depth > kMaxNesting)
    return failHere("expression nested too deeply");
  switch (Tok.kind) {
  case TokKind::Minus: {
    consume();
    if (!parseUnary(V, Depth + 1))
      return false;
    if (V.isFloat)
      V.bits ^= V.fwidth == 32 ? 0x80000000ull : 0x8000000000000000ull;
    else
      V.bits = uint64_t(0) - V.bits;
    return true;
  }
  case TokKind::Plus:
    consume();
    return parseUnary(V, Depth + 1);
  case TokKind::Tilde:
  case TokKind::Bang: {
    Token OpTok = Tok;
    consume();
    if (!parseUnary(V, Depth + 1))
      return false;
    if (V.isFloat)
      return fail(OpTok.loc, "operator needs an integer operand", OpTok.text);
    V.bits = OpTok.kind == TokKind::Tilde ? ~V.bits : uint64_t(V.bits == 0);
    return true;
  }
  case TokKind::LParen:
    consume();
    if (!parseExpr(V, Depth + 1))
      return false;
    return expect(TokKind::RParen, "')'");
  case TokKind::Integer:
    V = Value{};
    V.bits = Tok.intValue;
    V.isUnsigned = Tok.isUnsigned;
    consume();
    return true;
  case TokKind::FloatBits:
    V = Value{};
    V.isFloat = true;
    V.fwidth = Tok.floatWidth;
    V.bits = Tok.intValue;
    consume();
    return true;
  case TokKind::Float: {
    std::string S(Tok.text);
    char *End = nullptr;
    double D = std::strtod(S.c_str(), &End);
    if (End != S.c_str() + S.size())
      return failHere("malformed floating-point constant");
    V = Value{};
    V.isFloat = true;
    V.fwidth = 64;
    V.bits = std::bit_cast<uint64_t>(D);
    consume();
    return true;
  }
  default:
    return failHere("expected a constant");
  }
}

bool Parser::parseUInt(uint64_t &V, const char *What) {
  SourceLoc Loc = Tok.loc;
  std::string_view Text = Tok.text;
  Value X;
  if (!parseExpr(X))
    return false;
  if (X.isFloat)
    return fail(Loc, std::string("expected an integer ") + What, Text);
  V = X.bits;
  return true;
}

bool Parser::parseU32(uint32_t &V, const char *What) {
  SourceLoc Loc = Tok.loc;
  std::string_view Text = Tok.text;
  uint64_t X;
  if (!parseUInt(X, What))
    return false;
  if (X > 0xffffffffull)
    return fail(Loc, std::string(What) + " out of range", Text);
  V = static_cast<uint32_t>(X);
  return true;
}

//===----------------------------------------------------------------------===//
// Module level
//===----------------------------------------------------------------------===//

bool Parser::run() {
  // PTX starts with .version.
  if (!isDirective(".version"))
    return failHere("a PTX module must start with .version");
  while (!Fatal && !is(TokKind::Eof)) {
    if (!parseTopLevel())
      break;
  }
  if (!Fatal)
    resolveModuleSymbols();
  return Diags.empty();
}

bool Parser::parseTopLevel() {
  if (is(TokKind::Error))
    return failHere("invalid token");
  if (!is(TokKind::Directive))
    return failHere("expected a directive, variable or function at module scope");
  std::string_view D = Tok.text;
  if (D == ".version")
    return parseVersion();
  if (D == ".target")
    return parseTarget();
  if (D == ".address_size") {
    consume();
    uint32_t V;
    SourceLoc Loc = Tok.loc;
    std::string_view Text = Tok.text;
    if (!parseU32(V, "address size"))
      return false;
    if (V != 32 && V != 64)
      return fail(Loc, ".address_size must be 32 or 64", Text);
    M.addressSize = V;
    return true;
  }
  if (D == ".file")
    return parseFileDirective();
  if (D == ".loc")
    return parseLoc();
  if (D == ".pragma") {
    std::string_view P;
    if (!parsePragma(P))
      return false;
    M.pragmas.push_back(P);
    return true;
  }
  if (D == ".section")
    return skipSection();
  if (D == ".alias") {
    // .alias alias, aliasee;  Recorded as a function sharing the aliasee's body is a
    // linker matter; nvcc and clang do not emit it for CUDA code.
    return failHere(".alias is not supported");
  }
  Linkage L = Linkage::Internal;
  if (D == ".visible" || D == ".extern" || D == ".weak" || D == ".common") {
    L = D == ".visible"  ? Linkage::Visible
        : D == ".extern" ? Linkage::Extern
        : D == ".weak"   ? Linkage::Weak
                         : Linkage::Common;
    consume();
    if (!is(TokKind::Directive))
      return failHere("expected .entry, .func or a state space after the linkage");
    D = Tok.text;
  }
  if (D == ".entry" || D == ".func")
    return parseFunction(L, D == ".entry");
  Space S = Space::None;
  if (D == ".global")
    S = Space::Global;
  else if (D == ".const")
    S = Space::Const;
  else if (D == ".shared")
    S = Space::Shared;
  else if (D == ".local")
    S = Space::Local;
  else if (D == ".tex")
    S = Space::Tex;
  if (S == Space::None)
    return failHere("unexpected directive at module scope");
  consume();
  size_t First = M.globals.size();
  if (!parseVariableDecl(S, L, M.globals, /*InFunction=*/false))
    return false;
  for (size_t I = First; I < M.globals.size(); ++I) {
    const Variable &V = M.globals[I];
    auto [It, Inserted] = ModuleSyms.emplace(V.name, ModuleSym{SymbolKind::Global, uint32_t(I)});
    if (Inserted)
      continue;
    if (It->second.kind == SymbolKind::Global) {
      Variable &Old = M.globals[It->second.index];
      // An .extern declaration followed by the definition (or the reverse).
      if (Old.linkage == Linkage::Extern || V.linkage == Linkage::Extern ||
          Old.linkage == Linkage::Common || V.linkage == Linkage::Common) {
        if (Old.linkage == Linkage::Extern)
          Old = V;
        M.globals.erase(M.globals.begin() + static_cast<long>(I));
        --I;
        continue;
      }
    }
    return fail(V.loc, "redefinition of '" + std::string(V.name) + "'", V.name);
  }
  return true;
}

bool Parser::parseVersion() {
  consume();
  if (!is(TokKind::Float) && !is(TokKind::Integer))
    return failHere("expected a version number such as 7.8");
  std::string_view Text = Tok.text;
  SourceLoc Loc = Tok.loc;
  size_t Dot = Text.find('.');
  uint32_t Major = 0, Minor = 0;
  bool Ok = Dot != std::string_view::npos && Dot > 0 && Dot + 1 < Text.size() && Dot < 3 &&
            Text.size() - Dot - 1 <= 2;
  for (size_t I = 0; Ok && I < Text.size(); ++I) {
    if (I == Dot)
      continue;
    if (Text[I] < '0' || Text[I] > '9')
      Ok = false;
    else if (I < Dot)
      Major = Major * 10 + uint32_t(Text[I] - '0');
    else
      Minor = Minor * 10 + uint32_t(Text[I] - '0');
  }
  if (!Ok)
    return fail(Loc, "malformed .version", Text);
  if (Major < 4 || Major > 9)
    return fail(Loc, "unsupported PTX ISA version (4.0 to 9.x are accepted)", Text);
  M.versionMajor = Major;
  M.versionMinor = Minor;
  consume();
  return true;
}

bool Parser::parseTarget() {
  SourceLoc Loc = Tok.loc;
  consume();
  bool First = true;
  while (true) {
    if (!is(TokKind::Word))
      return failHere("expected a target name such as sm_75");
    if (First) {
      if (Tok.text.substr(0, 3) != "sm_" && Tok.text.substr(0, 8) != "compute_")
        return fail(Tok.loc, "unknown target", Tok.text);
      M.target = Tok.text;
    } else {
      M.targetOptions.push_back(Tok.text);
    }
    First = false;
    consume();
    if (!is(TokKind::Comma))
      break;
    consume();
  }
  (void)Loc;
  return true;
}

bool Parser::parseFileDirective() {
  consume();
  uint32_t Index;
  if (!parseU32(Index, "file index"))
    return false;
  if (!is(TokKind::String))
    return failHere("expected a file name string");
  std::string_view Path = Tok.text.substr(1, Tok.text.size() - 2);
  consume();
  // DWARF 5 style: a directory, then the file name.
  if (is(TokKind::String)) {
    std::string_view Name = Tok.text.substr(1, Tok.text.size() - 2);
    Path = save(std::string(Path) + "/" + std::string(Name));
    consume();
  }
  M.files[Index] = Path;
  // Optional timestamp and size.
  while (is(TokKind::Comma)) {
    consume();
    uint64_t Ignored;
    if (!parseUInt(Ignored, "file attribute"))
      return false;
  }
  return true;
}

bool Parser::parseLoc() {
  consume();
  uint32_t File, Line, Col;
  if (!parseU32(File, "file index") || !parseU32(Line, "line") || !parseU32(Col, "column"))
    return false;
  DebugLoc D;
  D.file = File;
  D.line = Line;
  D.col = Col;
  while (is(TokKind::Comma)) {
    consume();
    if (isWord("function_name")) {
      consume();
      if (!is(TokKind::Word))
        return failHere("expected a label after function_name");
      consume();
      if (is(TokKind::Plus)) {
        consume();
        uint64_t Ignored;
        if (!parseUInt(Ignored, "offset"))
          return false;
      }
    } else if (isWord("inlined_at")) {
      consume();
      if (!parseU32(D.inlinedAtFile, "file index") || !parseU32(D.inlinedAtLine, "line") ||
          !parseU32(D.inlinedAtCol, "column"))
        return false;
    } else {
      return failHere("expected function_name or inlined_at");
    }
  }
  CurDbg = D;
  return true;
}

bool Parser::parsePragma(std::string_view &Out) {
  consume();
  if (!is(TokKind::String))
    return failHere("expected a string after .pragma");
  Out = Tok.text.substr(1, Tok.text.size() - 2);
  consume();
  // Several strings may follow, separated by commas.
  while (is(TokKind::Comma)) {
    consume();
    if (!is(TokKind::String))
      return failHere("expected a string");
    consume();
  }
  return expect(TokKind::Semi, "';' after .pragma");
}

bool Parser::skipSection() {
  SourceLoc Loc = Tok.loc;
  consume();
  if (!is(TokKind::Directive) && !is(TokKind::Word))
    return failHere("expected a section name");
  M.sections.push_back(Tok.text);
  consume();
  if (!is(TokKind::LBrace))
    return failHere("expected '{' after the section name");
  consume();
  unsigned Depth = 1;
  while (Depth > 0) {
    if (is(TokKind::Eof))
      return fail(Loc, "unterminated .section", ".section");
    if (is(TokKind::Error))
      return failHere("invalid token");
    if (is(TokKind::LBrace))
      ++Depth;
    else if (is(TokKind::RBrace))
      --Depth;
    consume();
  }
  return true;
}

bool Parser::parseDims(std::vector<uint64_t> &Dims, bool AllowUnsized) {
  while (is(TokKind::LBracket)) {
    SourceLoc Loc = Tok.loc;
    consume();
    if (is(TokKind::RBracket)) {
      if (!AllowUnsized || !Dims.empty())
        return fail(Loc, "array size required", "[]");
      Dims.push_back(0);
      consume();
      continue;
    }
    std::string_view Text = Tok.text;
    uint64_t N;
    if (!parseUInt(N, "array size"))
      return false;
    if (N == 0 || N > (uint64_t(1) << 40))
      return fail(Loc, "array size out of range", Text);
    Dims.push_back(N);
    if (!expect(TokKind::RBracket, "']'"))
      return false;
    if (Dims.size() > 8)
      return fail(Loc, "too many array dimensions", Text);
    uint64_t Total = 1;
    for (uint64_t D : Dims)
      if (D != 0 && (Total *= D) > (uint64_t(1) << 40))
        return fail(Loc, "array too large", Text);
  }
  return true;
}

bool Parser::parseVariableDecl(Space S, Linkage L, std::vector<Variable> &Out, bool InFunction) {
  Variable Proto;
  Proto.space = S;
  Proto.linkage = L;
  Proto.loc = Tok.loc;
  // Attributes, in any order, then the type.
  while (is(TokKind::Directive) && Proto.type == Type::None) {
    std::string_view D = Tok.text;
    if (D == ".align") {
      consume();
      SourceLoc Loc = Tok.loc;
      std::string_view Text = Tok.text;
      if (!parseU32(Proto.align, "alignment"))
        return false;
      if (Proto.align == 0 || (Proto.align & (Proto.align - 1)) != 0)
        return fail(Loc, "alignment must be a power of two", Text);
      continue;
    }
    if (D == ".attribute") {
      consume();
      if (!expect(TokKind::LParen, "'('"))
        return false;
      while (is(TokKind::Directive)) {
        if (Tok.text == ".managed")
          Proto.managed = true;
        else if (Tok.text != ".unified")
          return failHere("unknown variable attribute");
        consume();
        if (is(TokKind::Comma))
          consume();
      }
      if (!expect(TokKind::RParen, "')'"))
        return false;
      continue;
    }
    if (D == ".v2" || D == ".v4" || D == ".v8") {
      Proto.vecWidth = static_cast<uint8_t>(D[2] - '0');
      consume();
      continue;
    }
    if (D == ".ptr") {
      consume();
      continue;
    }
    std::optional<Type> T = lookupType(D.substr(1));
    if (!T)
      return failHere("expected a type");
    Proto.type = *T;
    consume();
  }
  if (Proto.type == Type::None)
    return failHere("expected a type");
  if (Proto.type == Type::Pred && S != Space::Reg)
    return fail(Proto.loc, "predicates live in registers only", ".pred");
  while (true) {
    if (!is(TokKind::Word))
      return failHere("expected a variable name");
    if (Tok.text.find('.') != std::string_view::npos || Tok.text[0] == '%')
      return failHere("invalid variable name");
    Variable V = Proto;
    V.name = Tok.text;
    V.loc = Tok.loc;
    consume();
    if (!parseDims(V.dims, /*AllowUnsized=*/true))
      return false;
    if (is(TokKind::Equal)) {
      consume();
      if (S == Space::Shared || S == Space::Local || S == Space::Param)
        return fail(V.loc, "variables in this state space cannot have initializers", V.name);
      V.hasInit = true;
      if (!parseInitializer(V, 0))
        return false;
      // An unsized array takes its size from the initializer.
      if (!V.dims.empty() && V.dims[0] == 0) {
        uint64_t Inner = 1;
        for (size_t K = 1; K < V.dims.size(); ++K)
          Inner *= V.dims[K];
        V.dims[0] = (V.init.size() + Inner - 1) / Inner;
        if (V.dims[0] == 0)
          V.dims[0] = 1;
      }
      if (V.numElems() * V.vecWidth < V.init.size())
        return fail(V.loc, "too many initializers", V.name);
    } else if (!V.dims.empty() && V.dims[0] == 0 && !(L == Linkage::Extern && S == Space::Shared)) {
      return fail(V.loc, "unsized array needs an initializer or .extern .shared", V.name);
    }
    if (InFunction) {
      if (!declareLocal(std::move(V)))
        return false;
    } else {
      Out.push_back(std::move(V));
    }
    if (is(TokKind::Comma)) {
      consume();
      continue;
    }
    return expect(TokKind::Semi, "';' after the declaration");
  }
}

bool Parser::parseInitializer(Variable &V, unsigned Depth) {
  if (Depth > 16)
    return failHere("initializer nested too deeply");
  if (!is(TokKind::LBrace))
    return parseInitElem(V);
  consume();
  if (is(TokKind::RBrace)) {
    consume();
    return true;
  }
  while (true) {
    if (!parseInitializer(V, Depth + 1))
      return false;
    if (is(TokKind::Comma)) {
      consume();
      continue;
    }
    return expect(TokKind::RBrace, "'}' or ',' in the initializer");
  }
}

bool Parser::parseInitElem(Variable &V) {
  InitElem E;
  E.loc = Tok.loc;
  if (V.init.size() > (uint64_t(1) << 26))
    return failHere("initializer too long");
  // Addresses: sym, sym+N, generic(sym), generic(sym)+N.
  if (is(TokKind::Word)) {
    E.kind = InitElem::Kind::Address;
    if (Tok.text == "generic" && peekNext().kind == TokKind::LParen) {
      consume();
      consume();
      if (!is(TokKind::Word))
        return failHere("expected a symbol in generic()");
      E.generic = true;
      E.symbol = Tok.text;
      consume();
      if (!expect(TokKind::RParen, "')'"))
        return false;
    } else {
      E.symbol = Tok.text;
      consume();
    }
    if (E.symbol.find('.') != std::string_view::npos || E.symbol[0] == '%')
      return fail(E.loc, "invalid symbol in initializer", E.symbol);
    if (is(TokKind::Plus) || is(TokKind::Minus)) {
      bool Neg = is(TokKind::Minus);
      consume();
      uint64_t Off;
      if (!parseUInt(Off, "offset"))
        return false;
      E.value = Neg ? uint64_t(0) - Off : Off;
    }
    if (byteSize(V.type) * V.vecWidth < 4)
      return fail(E.loc, "an address initializer needs a 32- or 64-bit variable", E.symbol);
    V.init.push_back(E);
    return true;
  }
  std::string_view Text = Tok.text;
  Value X;
  if (!parseExpr(X))
    return false;
  unsigned Bits = bitWidth(V.type);
  if (isFloat(V.type)) {
    E.kind = InitElem::Kind::Float;
    double D = X.isFloat ? floatValue(X)
                         : (X.isUnsigned ? static_cast<double>(X.bits)
                                         : static_cast<double>(static_cast<int64_t>(X.bits)));
    if (Bits == 64) {
      E.value = (X.isFloat && X.fwidth == 64) ? X.bits : std::bit_cast<uint64_t>(D);
    } else if (Bits == 32) {
      E.value =
          (X.isFloat && X.fwidth == 32) ? X.bits : std::bit_cast<uint32_t>(static_cast<float>(D));
    } else {
      return fail(E.loc, "floating-point initializers of this type are not supported", Text);
    }
  } else {
    if (X.isFloat) {
      // Bit types take the pattern of a hex float of their width.
      if (kind(V.type) != TypeKind::Bits || (X.fwidth != Bits && Bits != 0))
        return fail(E.loc, "floating-point constant for an integer variable", Text);
    }
    E.kind = InitElem::Kind::Int;
    E.value = Bits >= 64 ? X.bits : (X.bits & ((uint64_t(1) << Bits) - 1));
  }
  V.init.push_back(E);
  return true;
}

bool Parser::parseParam(Param &P, bool Prototype) {
  P.loc = Tok.loc;
  if (isDirective(".param"))
    P.space = Space::Param;
  else if (isDirective(".reg"))
    P.space = Space::Reg;
  else
    return failHere("expected .param or .reg");
  consume();
  while (is(TokKind::Directive)) {
    std::string_view D = Tok.text;
    if (D == ".align") {
      consume();
      SourceLoc Loc = Tok.loc;
      std::string_view Text = Tok.text;
      // After .ptr, .align is the alignment of the pointed-to data.
      uint32_t &Dst = P.isPtr ? P.ptrAlign : P.align;
      if (!parseU32(Dst, "alignment"))
        return false;
      if (Dst == 0 || (Dst & (Dst - 1)) != 0)
        return fail(Loc, "alignment must be a power of two", Text);
      continue;
    }
    if (D == ".ptr") {
      P.isPtr = true;
      consume();
      continue;
    }
    if (P.isPtr && (D == ".global" || D == ".shared" || D == ".const" || D == ".local")) {
      P.ptrSpace = D == ".global"   ? Space::Global
                   : D == ".shared" ? Space::Shared
                   : D == ".const"  ? Space::Const
                                    : Space::Local;
      consume();
      continue;
    }
    if (D == ".v2" || D == ".v4" || D == ".v8") {
      P.vecWidth = static_cast<uint8_t>(D[2] - '0');
      consume();
      continue;
    }
    if (P.type != Type::None)
      return failHere("unexpected directive in a parameter");
    std::optional<Type> T = lookupType(D.substr(1));
    if (!T)
      return failHere("expected a parameter type");
    P.type = *T;
    consume();
  }
  if (P.type == Type::None)
    return failHere("expected a parameter type");
  if (!is(TokKind::Word))
    return failHere("expected a parameter name");
  if (Tok.text.find('.') != std::string_view::npos)
    return failHere("invalid parameter name");
  if (Tok.text == "_" && !Prototype)
    return failHere("parameter name required");
  P.name = Tok.text;
  consume();
  if (is(TokKind::LBracket)) {
    std::vector<uint64_t> Dims;
    if (!parseDims(Dims, /*AllowUnsized=*/true))
      return false;
    if (Dims.size() != 1)
      return fail(P.loc, "parameters have at most one array dimension", P.name);
    P.isArray = true;
    P.arraySize = Dims[0];
  }
  return true;
}

bool Parser::parseParamList(std::vector<Param> &Out, bool Prototype) {
  if (!expect(TokKind::LParen, "'('"))
    return false;
  if (is(TokKind::RParen)) {
    consume();
    return true;
  }
  while (true) {
    Param P;
    if (!parseParam(P, Prototype))
      return false;
    if (Out.size() > 4096)
      return fail(P.loc, "too many parameters", P.name);
    Out.push_back(P);
    if (is(TokKind::Comma)) {
      consume();
      continue;
    }
    return expect(TokKind::RParen, "')' or ',' in the parameter list");
  }
}

bool Parser::parsePerfDirectives(PerfDirectives &Perf) {
  auto ParseDim3 = [&](std::array<uint32_t, 3> &Out) {
    consume();
    Out = {1, 1, 1};
    for (unsigned I = 0; I < 3; ++I) {
      SourceLoc Loc = Tok.loc;
      std::string_view Text = Tok.text;
      if (!parseU32(Out[I], "dimension"))
        return false;
      if (Out[I] == 0)
        return fail(Loc, "a dimension must be at least 1", Text);
      if (!is(TokKind::Comma))
        break;
      consume();
    }
    return true;
  };
  while (is(TokKind::Directive)) {
    std::string_view D = Tok.text;
    bool Ok;
    if (D == ".maxntid")
      Ok = ParseDim3(Perf.maxntid);
    else if (D == ".reqntid")
      Ok = ParseDim3(Perf.reqntid);
    else if (D == ".reqnctapercluster")
      Ok = ParseDim3(Perf.reqnctapercluster);
    else if (D == ".minnctapersm" || D == ".maxnctapersm" || D == ".maxnreg" ||
             D == ".maxclusterrank") {
      consume();
      uint32_t &Dst = D == ".minnctapersm"   ? Perf.minnctapersm
                      : D == ".maxnctapersm" ? Perf.maxnctapersm
                      : D == ".maxnreg"      ? Perf.maxnreg
                                             : Perf.maxclusterrank;
      Ok = parseU32(Dst, "value");
    } else if (D == ".noreturn") {
      Perf.noReturn = true;
      consume();
      Ok = true;
    } else if (D == ".explicitcluster") {
      Perf.explicitCluster = true;
      consume();
      Ok = true;
    } else if (D == ".pragma") {
      std::string_view P;
      Ok = parsePragma(P);
      Perf.pragmas.push_back(P);
    } else if (D == ".attribute") {
      consume();
      Ok = expect(TokKind::LParen, "'('");
      while (Ok && is(TokKind::Directive))
        consume();
      Ok = Ok && expect(TokKind::RParen, "')'");
    } else {
      return failHere("unknown function directive");
    }
    if (!Ok)
      return false;
  }
  return true;
}

bool Parser::parseFunction(Linkage L, bool IsKernel) {
  SourceLoc Loc = Tok.loc;
  consume();
  Function NewF;
  NewF.isKernel = IsKernel;
  NewF.linkage = L;
  NewF.loc = Loc;
  if (!IsKernel && is(TokKind::LParen)) {
    if (!parseParamList(NewF.returns, /*Prototype=*/false))
      return false;
  }
  if (!is(TokKind::Word))
    return failHere("expected a function name");
  if (Tok.text.find('.') != std::string_view::npos || Tok.text[0] == '%')
    return failHere("invalid function name");
  NewF.name = Tok.text;
  NewF.loc = Tok.loc;
  consume();
  if (is(TokKind::LParen)) {
    if (!parseParamList(NewF.params, /*Prototype=*/false))
      return false;
  }
  if (!parsePerfDirectives(NewF.perf))
    return false;

  // Register the name (so the body may call itself), merging a prior declaration.
  uint32_t Index;
  auto It = ModuleSyms.find(NewF.name);
  if (It == ModuleSyms.end()) {
    Index = static_cast<uint32_t>(M.functions.size());
    M.functions.push_back(Function{});
    ModuleSyms.emplace(NewF.name, ModuleSym{SymbolKind::Function, Index});
  } else {
    if (It->second.kind != SymbolKind::Function)
      return fail(NewF.loc, "'" + std::string(NewF.name) + "' is already a variable", NewF.name);
    Index = It->second.index;
    const Function &Old = M.functions[Index];
    if (Old.hasBody && is(TokKind::LBrace))
      return fail(NewF.loc, "redefinition of '" + std::string(NewF.name) + "'", NewF.name);
    if (Old.isKernel != NewF.isKernel || Old.params.size() != NewF.params.size() ||
        Old.returns.size() != NewF.returns.size())
      return fail(NewF.loc,
                  "declaration of '" + std::string(NewF.name) + "' does not match an earlier one",
                  NewF.name);
    if (Old.hasBody) {
      // A declaration after the definition: nothing to add.
      return expect(TokKind::Semi, "';'");
    }
    NewF.perf.noReturn |= Old.perf.noReturn;
    if (NewF.linkage == Linkage::Internal)
      NewF.linkage = Old.linkage == Linkage::Extern ? Linkage::Internal : Old.linkage;
  }
  M.functions[Index] = std::move(NewF);
  F = &M.functions[Index];
  if (is(TokKind::Semi)) {
    consume();
    F = nullptr;
    return true;
  }
  if (!is(TokKind::LBrace))
    return failHere("expected '{' or ';' after the function header");
  F->hasBody = true;

  // Fresh per-function state.
  Scopes.clear();
  Scopes.push_back(ScopeInfo{0, 0, true});
  CurScope = 0;
  Names.clear();
  RangeDecls.clear();
  ScopeNames.assign(1, {});
  ScopeRanges.assign(1, {});
  NextSuffix.clear();
  UsedNames.clear();
  UsedPrefixes.clear();
  SingleNumbered.clear();
  LabelNames.clear();
  UsedLabelNames.clear();
  ParamNames.clear();
  PendingTargets.clear();
  BranchTargetScope.clear();
  RangeScope.clear();
  CurDbg = DebugLoc{};
  // `.param` parameters are symbols; `.reg` parameters are registers of the body.
  for (int Ret = 0; Ret < 2; ++Ret) {
    std::vector<Param> &Ps = Ret ? F->returns : F->params;
    for (uint32_t I = 0; I < Ps.size(); ++I) {
      Param &P = Ps[I];
      if (P.space == Space::Reg) {
        P.reg = F->numRegs;
        if (!declareReg(P.name, P.type, P.vecWidth, 0, P.loc))
          return false;
        continue;
      }
      if (!ParamNames.emplace(P.name, I | (Ret ? 0x80000000u : 0)).second ||
          !UsedNames.insert(P.name).second)
        return fail(P.loc, "duplicate parameter name", P.name);
    }
  }
  consume();
  bool Ok = parseBlock(0);
  if (Ok && !Fatal)
    resolveFunctionSymbols();
  F = nullptr;
  return Ok;
}

//===----------------------------------------------------------------------===//
// Scopes and names
//===----------------------------------------------------------------------===//

uint32_t Parser::openScope() {
  uint32_t Id = static_cast<uint32_t>(Scopes.size());
  Scopes.push_back(ScopeInfo{CurScope, depth(CurScope) + 1, true});
  CurScope = Id;
  ScopeNames.emplace_back();
  ScopeRanges.emplace_back();
  return Id;
}

void Parser::closeScope() {
  // Names declared in the block are gone; keeping the maps small keeps lookups fast.
  for (NameMap::iterator It : ScopeNames.back())
    Names.erase(It);
  for (RangeMap::iterator It : ScopeRanges.back())
    RangeDecls.erase(It);
  ScopeNames.pop_back();
  ScopeRanges.pop_back();
  Scopes[CurScope].open = false;
  CurScope = Scopes[CurScope].parent;
}

bool Parser::nameTaken(std::string_view N) const {
  if (UsedNames.count(N))
    return true;
  std::string_view P;
  uint32_t Num;
  if (splitTrailingNumber(N, P, Num)) {
    auto It = UsedPrefixes.find(P);
    if (It != UsedPrefixes.end() && Num < It->second)
      return true;
  }
  return false;
}

bool Parser::prefixTaken(std::string_view P, uint32_t Count) const {
  if (UsedPrefixes.count(P) || UsedNames.count(P))
    return true;
  auto It = SingleNumbered.find(P);
  return It != SingleNumbered.end() && It->second < Count;
}

std::string_view Parser::uniqueName(std::string_view N) {
  if (!nameTaken(N))
    return N;
  unsigned &K = NextSuffix[std::string(N)];
  while (true) {
    std::string Cand = std::string(N) + "$" + std::to_string(++K);
    if (!nameTaken(Cand))
      return save(std::move(Cand));
  }
}

std::string_view Parser::uniquePrefix(std::string_view P, uint32_t Count) {
  if (!prefixTaken(P, Count))
    return P;
  unsigned &K = NextSuffix[std::string(P) + "<>"];
  while (true) {
    std::string Cand = std::string(P) + "$" + std::to_string(++K) + "_";
    if (!prefixTaken(Cand, Count))
      return save(std::move(Cand));
  }
}

bool Parser::declareReg(std::string_view Name, Type T, uint8_t Vec, uint32_t Count, SourceLoc Loc) {
  if (Name.find('.') != std::string_view::npos)
    return fail(Loc, "invalid register name", Name);
  if (uint64_t(F->numRegs) + (Count ? Count : 1) > kMaxRegsPerFunction)
    return fail(Loc, "too many registers in one function", Name);
  uint32_t DeclIndex = static_cast<uint32_t>(F->regDecls.size());
  RegDecl D;
  D.type = T;
  D.vecWidth = Vec;
  D.count = Count;
  D.firstId = F->numRegs;
  D.loc = Loc;
  if (Count == 0) {
    // Duplicate in the same scope?
    auto [B, E] = Names.equal_range(Name);
    for (auto It = B; It != E; ++It)
      if (It->second.scope == CurScope)
        return fail(Loc, "redeclaration of '" + std::string(Name) + "'", Name);
    D.name = uniqueName(Name);
    UsedNames.insert(D.name);
    std::string_view P;
    uint32_t Num;
    if (splitTrailingNumber(D.name, P, Num)) {
      auto [SIt, Inserted] = SingleNumbered.emplace(P, Num);
      if (!Inserted && Num < SIt->second)
        SIt->second = Num;
    }
    ScopeNames.back().push_back(Names.emplace(Name, NameEntry{CurScope, true, F->numRegs}));
  } else {
    auto [B, E] = RangeDecls.equal_range(Name);
    for (auto It = B; It != E; ++It)
      if (RangeScope[It->second] == CurScope)
        return fail(Loc, "redeclaration of '" + std::string(Name) + "<>'", Name);
    D.name = uniquePrefix(Name, Count);
    auto [PIt, Inserted] = UsedPrefixes.emplace(D.name, Count);
    if (!Inserted && Count > PIt->second)
      PIt->second = Count;
    ScopeRanges.back().push_back(RangeDecls.emplace(Name, DeclIndex));
  }
  RangeScope.push_back(CurScope);
  F->regDecls.push_back(D);
  F->numRegs += Count ? Count : 1;
  return true;
}

bool Parser::declareLocal(Variable V) {
  auto [B, E] = Names.equal_range(V.name);
  for (auto It = B; It != E; ++It)
    if (It->second.scope == CurScope)
      return fail(V.loc, "redeclaration of '" + std::string(V.name) + "'", V.name);
  std::string_view Orig = V.name;
  V.name = uniqueName(Orig);
  UsedNames.insert(V.name);
  uint32_t Index = static_cast<uint32_t>(F->locals.size());
  ScopeNames.back().push_back(Names.emplace(Orig, NameEntry{CurScope, false, Index}));
  F->locals.push_back(std::move(V));
  return true;
}

bool Parser::declareLabelLike(std::string_view Name, SymbolKind K, uint32_t Index, SourceLoc Loc,
                              std::string_view &Display) {
  if (!LabelNames.emplace(LabelKey{Name, CurScope}, LabelEntry{CurScope, K, Index}).second)
    return fail(Loc, "redefinition of label '" + std::string(Name) + "'", Name);
  Display = Name;
  if (UsedLabelNames.count(Name)) {
    unsigned &N = NextSuffix[std::string(Name) + ":"];
    while (true) {
      std::string Cand = std::string(Name) + "$" + std::to_string(++N);
      if (!UsedLabelNames.count(Cand)) {
        Display = save(std::move(Cand));
        break;
      }
    }
  }
  UsedLabelNames.insert(Display);
  return true;
}

/// Registers and local variables visible here; Reg ids come back with K = Unresolved.
bool Parser::lookupLocalName(std::string_view Name, SymbolKind &K, uint32_t &Index) {
  int BestDepth = -1;
  auto [B, E] = Names.equal_range(Name);
  for (auto It = B; It != E; ++It) {
    const NameEntry &N = It->second;
    if (!isOpen(N.scope) || int(depth(N.scope)) <= BestDepth)
      continue;
    BestDepth = int(depth(N.scope));
    K = N.isReg ? SymbolKind::Unresolved : SymbolKind::Local;
    Index = N.index;
  }
  std::string_view P;
  uint32_t Num;
  if (splitTrailingNumber(Name, P, Num)) {
    auto [RB, RE] = RangeDecls.equal_range(P);
    for (auto It = RB; It != RE; ++It) {
      const RegDecl &D = F->regDecls[It->second];
      uint32_t S = RangeScope[It->second];
      if (Num >= D.count || !isOpen(S) || int(depth(S)) <= BestDepth)
        continue;
      BestDepth = int(depth(S));
      K = SymbolKind::Unresolved;
      Index = D.firstId + Num;
    }
  }
  return BestDepth >= 0;
}

//===----------------------------------------------------------------------===//
// Function bodies
//===----------------------------------------------------------------------===//

bool Parser::parseBlock(unsigned Depth) {
  if (Depth > kMaxNesting)
    return failHere("blocks nested too deeply");
  while (!Fatal) {
    switch (Tok.kind) {
    case TokKind::RBrace:
      consume();
      return true;
    case TokKind::Eof:
      return failHere("missing '}' at the end of the function");
    case TokKind::Error:
      return failHere("invalid token");
    case TokKind::LBrace: {
      consume();
      openScope();
      bool Ok = parseBlock(Depth + 1);
      closeScope();
      if (!Ok)
        return false;
      break;
    }
    case TokKind::Semi:
      consume(); // an empty statement
      break;
    case TokKind::Directive: {
      std::string_view D = Tok.text;
      bool Ok;
      if (D == ".reg") {
        Ok = parseRegDecl();
      } else if (D == ".local" || D == ".shared" || D == ".param" || D == ".const" ||
                 D == ".global") {
        Space S = D == ".local"    ? Space::Local
                  : D == ".shared" ? Space::Shared
                  : D == ".param"  ? Space::Param
                  : D == ".const"  ? Space::Const
                                   : Space::Global;
        consume();
        Ok = parseVariableDecl(S, Linkage::Internal, F->locals, /*InFunction=*/true);
      } else if (D == ".loc") {
        Ok = parseLoc();
      } else if (D == ".pragma") {
        Statement St;
        St.kind = StmtKind::Pragma;
        St.scope = CurScope;
        St.inst.loc = Tok.loc;
        Ok = parsePragma(St.pragma);
        if (Ok)
          F->body.push_back(std::move(St));
      } else {
        return failHere("unexpected directive in a function body");
      }
      if (!Ok)
        return false;
      break;
    }
    case TokKind::Word:
      if (peekNext().kind == TokKind::Colon) {
        if (!parseLabelOrDeclaration())
          return false;
        break;
      }
      [[fallthrough]];
    case TokKind::At:
      if (!parseInstruction())
        return false;
      break;
    default:
      return failHere("expected an instruction, a label or a declaration");
    }
  }
  return false;
}

bool Parser::parseRegDecl() {
  consume();
  uint8_t Vec = 1;
  Type T = Type::None;
  while (is(TokKind::Directive)) {
    std::string_view D = Tok.text;
    if (D == ".v2" || D == ".v4" || D == ".v8") {
      Vec = static_cast<uint8_t>(D[2] - '0');
    } else {
      std::optional<Type> Ty = lookupType(D.substr(1));
      if (!Ty || T != Type::None || kind(*Ty) == TypeKind::Opaque)
        return failHere("expected a register type");
      T = *Ty;
    }
    consume();
  }
  if (T == Type::None)
    return failHere("expected a register type");
  while (true) {
    if (!is(TokKind::Word))
      return failHere("expected a register name");
    std::string_view Name = Tok.text;
    SourceLoc Loc = Tok.loc;
    consume();
    uint32_t Count = 0;
    if (is(TokKind::Less)) {
      consume();
      SourceLoc CLoc = Tok.loc;
      std::string_view CText = Tok.text;
      if (!is(TokKind::Integer))
        return failHere("expected a register count");
      if (Tok.intValue == 0 || Tok.intValue > kMaxRegsPerFunction)
        return fail(CLoc, "register count out of range", CText);
      Count = static_cast<uint32_t>(Tok.intValue);
      consume();
      if (!expect(TokKind::Greater, "'>'"))
        return false;
    } else if (is(TokKind::LBracket)) {
      return failHere("register arrays are not supported");
    }
    if (!declareReg(Name, T, Vec, Count, Loc))
      return false;
    if (is(TokKind::Comma)) {
      consume();
      continue;
    }
    return expect(TokKind::Semi, "';' after the register declaration");
  }
}

bool Parser::parseLabelOrDeclaration() {
  std::string_view Name = Tok.text;
  SourceLoc Loc = Tok.loc;
  if (Name.find('.') != std::string_view::npos || Name[0] == '%')
    return failHere("invalid label name");
  consume(); // name
  consume(); // ':'
  if (isDirective(".callprototype"))
    return parseCallPrototype(Name, Loc);
  if (isDirective(".branchtargets"))
    return parseBranchTargets(Name, Loc);
  uint32_t Index = static_cast<uint32_t>(F->labels.size());
  std::string_view Display;
  if (!declareLabelLike(Name, SymbolKind::Label, Index, Loc, Display))
    return false;
  F->labels.push_back(Label{Display, static_cast<uint32_t>(F->body.size()), Loc});
  Statement St;
  St.kind = StmtKind::Label;
  St.label = Index;
  St.scope = CurScope;
  St.inst.loc = Loc;
  St.inst.dbg = CurDbg;
  F->body.push_back(std::move(St));
  return true;
}

bool Parser::parseCallPrototype(std::string_view Name, SourceLoc Loc) {
  consume();
  Prototype P;
  P.loc = Loc;
  if (is(TokKind::LParen)) {
    if (!parseParamList(P.returns, /*Prototype=*/true))
      return false;
  }
  if (!isWord("_"))
    return failHere("expected '_' in .callprototype");
  consume();
  if (is(TokKind::LParen)) {
    if (!parseParamList(P.params, /*Prototype=*/true))
      return false;
  }
  if (isDirective(".noreturn")) {
    P.noReturn = true;
    consume();
  }
  if (!expect(TokKind::Semi, "';' after .callprototype"))
    return false;
  uint32_t Index = static_cast<uint32_t>(F->prototypes.size());
  if (!declareLabelLike(Name, SymbolKind::Prototype, Index, Loc, P.name))
    return false;
  F->prototypes.push_back(std::move(P));
  return true;
}

bool Parser::parseBranchTargets(std::string_view Name, SourceLoc Loc) {
  consume();
  BranchTargets BT;
  BT.loc = Loc;
  std::vector<std::pair<std::string_view, SourceLoc>> Targets;
  while (true) {
    if (!is(TokKind::Word))
      return failHere("expected a label in .branchtargets");
    Targets.emplace_back(Tok.text, Tok.loc);
    consume();
    if (is(TokKind::Comma)) {
      consume();
      continue;
    }
    if (!expect(TokKind::Semi, "';' after .branchtargets"))
      return false;
    break;
  }
  uint32_t Index = static_cast<uint32_t>(F->branchTargets.size());
  if (!declareLabelLike(Name, SymbolKind::BranchTargets, Index, Loc, BT.name))
    return false;
  F->branchTargets.push_back(std::move(BT));
  PendingTargets.emplace_back(Index, std::move(Targets));
  BranchTargetScope.push_back(CurScope);
  return true;
}

bool Parser::parseInstruction() {
  Statement St;
  St.kind = StmtKind::Instr;
  St.scope = CurScope;
  Instruction &I = St.inst;
  I.dbg = CurDbg;
  I.loc = Tok.loc;
  if (is(TokKind::At)) {
    consume();
    if (is(TokKind::Bang)) {
      I.guardNegated = true;
      consume();
    }
    if (!is(TokKind::Word))
      return failHere("expected a predicate register after '@'");
    SymbolKind K;
    uint32_t Id;
    if (!lookupLocalName(Tok.text, K, Id) || K != SymbolKind::Unresolved)
      return failHere("undeclared predicate register");
    if (F->regType(Id) != Type::Pred)
      return failHere("a guard must be a .pred register");
    I.hasGuard = true;
    I.guard = Id;
    consume();
  }
  if (!is(TokKind::Word))
    return failHere("expected an instruction");
  std::string_view Word = Tok.text;
  SourceLoc WordLoc = Tok.loc;
  I.opcode = Word;
  consume();

  // Split the opcode word at its dots.
  std::array<std::string_view, kMaxSegments> Segs;
  unsigned NumSegs = 0;
  for (size_t Pos = 0;;) {
    size_t Dot = Word.find('.', Pos);
    if (NumSegs == kMaxSegments)
      return fail(WordLoc, "too many modifiers", Word);
    Segs[NumSegs++] = Word.substr(Pos, Dot == std::string_view::npos ? Dot : Dot - Pos);
    if (Dot == std::string_view::npos)
      break;
    Pos = Dot + 1;
  }
  std::optional<OpcodeMatch> Match = matchOpcode({Segs.data(), NumSegs});
  if (!Match)
    return fail(WordLoc, "unknown PTX instruction '" + std::string(Segs[0]) + "'", Word);
  I.op = Match->op;
  const InstrInfo &Info = instrInfo(I.op);
  bool Usable = true;
  if (Opts.validate && Info.status == Status::Rejected) {
    report(WordLoc,
           "PTX instruction '" + std::string(Info.spelling) +
               "' is not supported: " + std::string(Info.how),
           Word);
    Usable = false;
  }
  for (unsigned S = 1; S < NumSegs && Usable; ++S) {
    if (Match->nameSegments & (uint64_t(1) << S))
      continue;
    std::optional<Mod> Md = lookupMod(Segs[S]);
    if (!Md) {
      if (Segs[S].empty())
        return fail(WordLoc, "empty modifier", Word);
      report(WordLoc, "unknown modifier '." + std::string(Segs[S]) + "'", Word);
      Usable = false;
      break;
    }
    if (I.numMods == kMaxInstrMods)
      return fail(WordLoc, "too many modifiers", Word);
    I.mods[I.numMods++] = *Md;
  }

  // Operands.
  if (I.op == Op::Call) {
    if (!parseCallOperands(I))
      return false;
  } else if (!is(TokKind::Semi)) {
    while (true) {
      if (I.operands.size() >= 16)
        return failHere("too many operands");
      Operand Op;
      if (!parseOperand(Op, 0))
        return false;
      I.operands.push_back(std::move(Op));
      if (!is(TokKind::Comma))
        break;
      consume();
    }
  }
  if (!expect(TokKind::Semi, "';' at the end of the instruction"))
    return false;
  if (Usable)
    validate(I, Word, WordLoc);
  F->body.push_back(std::move(St));
  return true;
}

bool Parser::parseCallOperands(Instruction &I) {
  auto ParseList = [&](Operand &L) {
    L.kind = OperandKind::List;
    L.loc = Tok.loc;
    consume(); // '('
    if (is(TokKind::RParen)) {
      consume();
      return true;
    }
    while (true) {
      if (L.elems.size() >= 4096)
        return failHere("too many call arguments");
      Operand E;
      if (!parseOperand(E, 1))
        return false;
      L.elems.push_back(std::move(E));
      if (is(TokKind::Comma)) {
        consume();
        continue;
      }
      return expect(TokKind::RParen, "')' or ',' in the call");
    }
  };
  Operand Rets, Args;
  Rets.kind = Args.kind = OperandKind::List;
  Rets.loc = Args.loc = Tok.loc;
  if (is(TokKind::LParen)) {
    if (!ParseList(Rets) || !expect(TokKind::Comma, "',' after the call results"))
      return false;
  }
  Operand Target;
  if (!is(TokKind::Word))
    return failHere("expected the called function");
  if (!parseNameOperand(Target))
    return false;
  if (Target.kind != OperandKind::Symbol && Target.kind != OperandKind::Reg)
    return fail(Target.loc, "call target must be a function or a register", Target.symbol);
  Operand Extra;
  bool HasExtra = false;
  if (is(TokKind::Comma)) {
    consume();
    if (is(TokKind::LParen)) {
      if (!ParseList(Args))
        return false;
      if (is(TokKind::Comma)) {
        consume();
        HasExtra = true;
      }
    } else {
      HasExtra = true;
    }
    if (HasExtra) {
      if (!is(TokKind::Word))
        return failHere("expected a prototype or .branchtargets label");
      if (!parseNameOperand(Extra))
        return false;
      if (Extra.kind != OperandKind::Symbol)
        return fail(Extra.loc, "expected a prototype or .branchtargets label", Extra.symbol);
    }
  }
  if (Target.kind == OperandKind::Reg && !HasExtra)
    return fail(Target.loc, "an indirect call needs a prototype or a .branchtargets label",
                I.opcode);
  I.operands.push_back(std::move(Rets));
  I.operands.push_back(std::move(Target));
  I.operands.push_back(std::move(Args));
  if (HasExtra)
    I.operands.push_back(std::move(Extra));
  return true;
}

/// A register, special register, local variable, parameter or (unresolved) symbol.
bool Parser::parseNameOperand(Operand &Op) {
  std::string_view Text = Tok.text;
  Op.loc = Tok.loc;
  consume();
  if (Text == "_") {
    Op.kind = OperandKind::Sink;
    return true;
  }
  std::string_view Base = Text, Suffix;
  size_t Dot = Text.find('.');
  if (Dot != std::string_view::npos) {
    Base = Text.substr(0, Dot);
    Suffix = Text.substr(Dot + 1);
  }
  SymbolKind K;
  uint32_t Index;
  if (lookupLocalName(Base, K, Index)) {
    if (K == SymbolKind::Unresolved) {
      Op.kind = OperandKind::Reg;
      Op.reg = Index;
      if (!Suffix.empty()) {
        if (F->regDecl(Index).vecWidth == 1 || !isVectorComponent(Suffix, Op.component) ||
            Op.component >= F->regDecl(Index).vecWidth)
          return fail(Op.loc, "invalid register component", Text);
      }
      return true;
    }
    if (!Suffix.empty())
      return fail(Op.loc, "invalid operand", Text);
    Op.kind = OperandKind::Symbol;
    Op.symbol = F->locals[Index].name;
    Op.symKind = SymbolKind::Local;
    Op.index = Index;
    return true;
  }
  if (Base[0] == '%') {
    std::optional<SRegRef> R = lookupSReg(Base);
    if (!R)
      return fail(Op.loc, "undeclared register", Text);
    const SRegInfo &Info = sregInfo(R->reg);
    if (!Info.components.empty()) {
      if (Suffix.size() != 1 || Info.components.find(Suffix[0]) == std::string_view::npos)
        return fail(Op.loc, "special register needs a component (.x, .y or .z)", Text);
      R->component = static_cast<int8_t>(Suffix[0] - 'x');
    } else if (!Suffix.empty()) {
      return fail(Op.loc, "special register has no components", Text);
    }
    Op.kind = OperandKind::SpecialReg;
    Op.sreg = *R;
    return true;
  }
  if (!Suffix.empty())
    return fail(Op.loc, "invalid operand", Text);
  // WARP_SZ is PTX's predefined warp-size constant (cuda_fp16.hpp's shuffles use it).
  if (Base == "WARP_SZ") {
    Op.kind = OperandKind::Imm;
    Op.imm = isa::kWarpSize;
    return true;
  }
  Op.kind = OperandKind::Symbol;
  Op.symbol = Base;
  if (auto It = ParamNames.find(Base); It != ParamNames.end()) {
    bool IsReturn = It->second & 0x80000000u;
    Op.symKind = IsReturn ? SymbolKind::Return : SymbolKind::Param;
    Op.index = It->second & 0x7fffffffu;
  }
  return true;
}

bool Parser::parseAddress(Operand &Op, unsigned Depth) {
  Op.kind = OperandKind::Address;
  Op.loc = Tok.loc;
  consume(); // '['
  if (is(TokKind::RBracket))
    return failHere("empty address");
  Operand First;
  bool HaveBase = false;
  if (is(TokKind::Word)) {
    if (!parseNameOperand(First))
      return false;
    if (First.kind != OperandKind::Reg && First.kind != OperandKind::Symbol)
      return fail(First.loc, "invalid address base", First.symbol);
    HaveBase = true;
  } else if (is(TokKind::LBrace)) {
    if (!parseOperand(First, Depth + 1))
      return false;
    HaveBase = true;
  }
  if (is(TokKind::Comma)) {
    // Texture or surface operand: [tex, sampler, {coords}] / [surf, {coords}].
    Op.kind = OperandKind::TexAddress;
    if (!HaveBase)
      return failHere("expected a texture or surface reference");
    Op.elems.push_back(std::move(First));
    while (is(TokKind::Comma)) {
      consume();
      if (Op.elems.size() >= 4)
        return failHere("too many texture operands");
      Operand E;
      if (!parseOperand(E, Depth + 1))
        return false;
      Op.elems.push_back(std::move(E));
    }
    return expect(TokKind::RBracket, "']'");
  }
  if (HaveBase && First.kind == OperandKind::Vector)
    return fail(First.loc, "invalid address", "{");
  if (HaveBase)
    Op.elems.push_back(std::move(First));
  if (!HaveBase || is(TokKind::Plus) || is(TokKind::Minus)) {
    bool Neg = false;
    if (HaveBase) {
      Neg = is(TokKind::Minus);
      consume();
    }
    SourceLoc Loc = Tok.loc;
    std::string_view Text = Tok.text;
    Value V;
    if (!parseExpr(V))
      return false;
    if (V.isFloat)
      return fail(Loc, "address offset must be an integer", Text);
    Op.imm = static_cast<int64_t>(Neg ? uint64_t(0) - V.bits : V.bits);
  }
  return expect(TokKind::RBracket, "']' at the end of the address");
}

bool Parser::parseOperand(Operand &Op, unsigned Depth) {
  if (Depth > 8)
    return failHere("operand nested too deeply");
  Op.loc = Tok.loc;
  switch (Tok.kind) {
  case TokKind::Bang: {
    SourceLoc BangLoc = Tok.loc;
    consume();
    if (!is(TokKind::Word))
      return failHere("expected a predicate after '!'");
    if (!parseNameOperand(Op))
      return false;
    if (Op.kind != OperandKind::Reg || F->regType(Op.reg) != Type::Pred)
      return fail(BangLoc, "'!' applies to predicate registers", "!");
    Op.negated = true;
    Op.loc = BangLoc;
    return true;
  }
  case TokKind::LBrace: {
    Op.kind = OperandKind::Vector;
    consume();
    while (true) {
      if (Op.elems.size() >= 8)
        return failHere("vector operand too long");
      Operand E;
      if (!parseOperand(E, Depth + 1))
        return false;
      if (E.kind != OperandKind::Reg && E.kind != OperandKind::Imm && E.kind != OperandKind::FImm &&
          E.kind != OperandKind::Sink)
        return fail(E.loc, "vector elements must be registers, constants or '_'", E.symbol);
      Op.elems.push_back(std::move(E));
      if (is(TokKind::Comma)) {
        consume();
        continue;
      }
      return expect(TokKind::RBrace, "'}' or ',' in the vector operand");
    }
  }
  case TokKind::LBracket:
    return parseAddress(Op, Depth);
  case TokKind::Word: {
    if (!parseNameOperand(Op))
      return false;
    if (Op.kind == OperandKind::Symbol && (is(TokKind::Plus) || is(TokKind::Minus))) {
      bool Neg = is(TokKind::Minus);
      consume();
      SourceLoc Loc = Tok.loc;
      std::string_view Text = Tok.text;
      Value V;
      if (!parseUnary(V, Depth + 1))
        return false;
      if (V.isFloat)
        return fail(Loc, "symbol offset must be an integer", Text);
      Op.imm = static_cast<int64_t>(Neg ? uint64_t(0) - V.bits : V.bits);
    }
    if (is(TokKind::Pipe) && (Op.kind == OperandKind::Reg || Op.kind == OperandKind::Sink)) {
      consume();
      Operand Second;
      if (!is(TokKind::Word))
        return failHere("expected a register after '|'");
      if (!parseNameOperand(Second))
        return false;
      if (Second.kind != OperandKind::Reg && Second.kind != OperandKind::Sink)
        return fail(Second.loc, "expected a register after '|'", Second.symbol);
      Operand Pair;
      Pair.kind = OperandKind::Pair;
      Pair.loc = Op.loc;
      Pair.elems.push_back(std::move(Op));
      Pair.elems.push_back(std::move(Second));
      Op = std::move(Pair);
    }
    return true;
  }
  case TokKind::Integer:
  case TokKind::Float:
  case TokKind::FloatBits:
  case TokKind::Minus:
  case TokKind::Plus:
  case TokKind::Tilde:
  case TokKind::LParen: {
    Value V;
    if (!parseExpr(V, Depth))
      return false;
    if (V.isFloat) {
      Op.kind = OperandKind::FImm;
      Op.fbits = V.bits;
      Op.fwidth = V.fwidth;
    } else {
      Op.kind = OperandKind::Imm;
      Op.imm = static_cast<int64_t>(V.bits);
    }
    return true;
  }
  default:
    return failHere("expected an operand");
  }
}

//===----------------------------------------------------------------------===//
// Validation against the instruction table
//===----------------------------------------------------------------------===//

void Parser::validate(Instruction &I, std::string_view Word, SourceLoc WordLoc) {
  const InstrInfo &Info = instrInfo(I.op);
  ModCheck C = checkModifiers(I.op, I.modifiers());
  I.status = C.status;
  if (!Opts.validate)
    return;
  if (!C.error.empty()) {
    report(WordLoc, C.error, Word);
    return;
  }
  if (C.status == Status::Rejected || (C.status == Status::Later && !Opts.allowLater)) {
    std::string What = "'" + std::string(Info.spelling) + "'";
    std::string Why(Info.how);
    if (C.statusRule) {
      What = "'" + std::string(Info.spelling) + "' with ." +
             std::string(C.statusRule->modifiers.substr(0, C.statusRule->modifiers.find(' ')));
      for (unsigned K = 0; K < I.numMods; ++K)
        if (C.ruleOf[K] == C.statusRule)
          What = "'" + std::string(Info.spelling) + "' with ." + std::string(spelling(I.mods[K]));
      Why = C.statusRule->how;
    }
    report(WordLoc,
           What +
               (C.status == Status::Rejected ? " is not supported: " : " is not supported yet: ") +
               Why,
           Word);
    return;
  }
  checkOperandKinds(I, Word);
}

void Parser::checkOperandKinds(const Instruction &I, std::string_view Word) {
  const InstrInfo &Info = instrInfo(I.op);
  if (I.op == Op::Call)
    return; // checked while parsing
  size_t N = I.operands.size();
  size_t Max = Info.operands.size();
  if (N < Info.minOperands || N > Max) {
    std::string Expect = Info.minOperands == Max
                             ? std::to_string(Max)
                             : std::to_string(Info.minOperands) + " to " + std::to_string(Max);
    report(I.loc,
           "'" + std::string(Info.spelling) + "' takes " + Expect + " operand" +
               (Max == 1 && Info.minOperands == Max ? "" : "s") + ", found " + std::to_string(N),
           Word);
    return;
  }
  for (size_t K = 0; K < N; ++K) {
    const Operand &Op = I.operands[K];
    bool Ok = true;
    const char *Need = "";
    switch (Info.operands[K]) {
    case 'd':
      Ok = Op.kind == OperandKind::Reg || Op.kind == OperandKind::Vector ||
           Op.kind == OperandKind::Sink || Op.kind == OperandKind::Pair;
      Need = "a destination register";
      break;
    case 's':
      Ok = Op.kind != OperandKind::Address && Op.kind != OperandKind::TexAddress &&
           Op.kind != OperandKind::List && Op.kind != OperandKind::Pair;
      Need = "a register or constant";
      break;
    case 'm':
      Ok = Op.kind == OperandKind::Address || Op.kind == OperandKind::TexAddress;
      Need = "a memory operand [...]";
      break;
    case 't':
      Ok = Op.kind == OperandKind::Symbol;
      Need = "a label";
      break;
    default:
      break;
    }
    if (!Ok) {
      report(Op.loc,
             "operand " + std::to_string(K + 1) + " of '" + std::string(Info.spelling) +
                 "' must be " + Need,
             Word);
      return;
    }
  }
}

//===----------------------------------------------------------------------===//
// Symbol resolution
//===----------------------------------------------------------------------===//

bool Parser::findLabel(std::string_view Name, uint32_t Scope, SymbolKind &K, uint32_t &Index) {
  // The innermost enclosing block that declares the name.
  while (true) {
    auto It = LabelNames.find(LabelKey{Name, Scope});
    if (It != LabelNames.end()) {
      K = It->second.kind;
      Index = It->second.index;
      return true;
    }
    if (Scope == 0)
      return false;
    Scope = Scopes[Scope].parent;
  }
}

void Parser::resolveOperandLabels(Operand &Op, uint32_t Scope) {
  if (Op.kind == OperandKind::Symbol && Op.symKind == SymbolKind::Unresolved) {
    SymbolKind K;
    uint32_t Index;
    if (findLabel(Op.symbol, Scope, K, Index)) {
      Op.symKind = K;
      Op.index = Index;
      Op.symbol = K == SymbolKind::Label       ? F->labels[Index].name
                  : K == SymbolKind::Prototype ? F->prototypes[Index].name
                                               : F->branchTargets[Index].name;
    }
  }
  for (Operand &E : Op.elems)
    resolveOperandLabels(E, Scope);
}

void Parser::resolveFunctionSymbols() {
  for (Statement &S : F->body)
    if (S.kind == StmtKind::Instr)
      for (Operand &Op : S.inst.operands)
        resolveOperandLabels(Op, S.scope);
  for (size_t K = 0; K < PendingTargets.size(); ++K) {
    auto &[Index, Targets] = PendingTargets[K];
    BranchTargets &BT = F->branchTargets[Index];
    for (auto &[Name, Loc] : Targets) {
      SymbolKind Kind;
      uint32_t L;
      if (!findLabel(Name, BranchTargetScope[K], Kind, L) || Kind != SymbolKind::Label) {
        report(Loc, "unknown label in .branchtargets", Name);
        continue;
      }
      BT.labels.push_back(L);
    }
  }
  RangeScope.clear();
  BranchTargetScope.clear();
}

void Parser::resolveOperandGlobals(Operand &Op) {
  if (Op.kind == OperandKind::Symbol && Op.symKind == SymbolKind::Unresolved) {
    auto It = ModuleSyms.find(Op.symbol);
    if (It == ModuleSyms.end()) {
      report(Op.loc, "use of undefined symbol", Op.symbol);
    } else {
      Op.symKind = It->second.kind;
      Op.index = It->second.index;
    }
  }
  for (Operand &E : Op.elems)
    resolveOperandGlobals(E);
}

void Parser::checkResolvedTargets(const Instruction &I) {
  auto Expect = [&](const Operand &Op, bool Ok, const char *What) {
    if (!Ok && Op.symKind != SymbolKind::Unresolved)
      report(Op.loc, std::string("expected ") + What, Op.symbol);
  };
  if (I.op == Op::Bra && I.operands.size() == 1)
    Expect(I.operands[0], I.operands[0].symKind == SymbolKind::Label, "a label");
  if (I.op == Op::BrxIdx && I.operands.size() == 2)
    Expect(I.operands[1], I.operands[1].symKind == SymbolKind::BranchTargets,
           "a .branchtargets label");
  if (I.op == Op::Call && I.operands.size() >= 3) {
    const Operand &T = I.operands[1];
    if (T.kind == OperandKind::Symbol)
      Expect(T, T.symKind == SymbolKind::Function, "a function");
    if (I.operands.size() == 4) {
      const Operand &X = I.operands[3];
      Expect(X, X.symKind == SymbolKind::Prototype || X.symKind == SymbolKind::BranchTargets,
             "a .callprototype or .branchtargets label");
    }
  }
}

void Parser::resolveModuleSymbols() {
  for (Function &Fn : M.functions)
    for (Statement &S : Fn.body)
      if (S.kind == StmtKind::Instr) {
        for (Operand &Op : S.inst.operands)
          resolveOperandGlobals(Op);
        if (Opts.validate)
          checkResolvedTargets(S.inst);
      }
  for (const Variable &V : M.globals)
    for (const InitElem &E : V.init)
      if (E.kind == InitElem::Kind::Address && !ModuleSyms.count(E.symbol))
        report(E.loc, "use of undefined symbol in initializer", E.symbol);
  for (const Function &Fn : M.functions)
    if (Fn.name.empty())
      report(SourceLoc{}, "internal error: unnamed function", "");
}

} // namespace

Expected<Module> parseModule(std::string_view Text, const ParseOptions &Opts) {
  Module M;
  M.fileName = Opts.fileName;
  M.storage->source.assign(Text.data(), Text.size());
  Parser P(M, Opts);
  if (!P.run() || !P.Diags.empty())
    return Error(std::move(P.Diags));
  return Expected<Module>(std::move(M));
}

Expected<Module> parseFile(const std::string &Path, ParseOptions Opts) {
  if (Opts.fileName == "<input>")
    Opts.fileName = Path;
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return Error(Diagnostic{Path, SourceLoc{}, "cannot open file", ""});
  std::ostringstream SS;
  SS << In.rdbuf();
  if (In.bad())
    return Error(Diagnostic{Path, SourceLoc{}, "cannot read file", ""});
  return parseModule(SS.str(), Opts);
}

} // namespace wf::ptx
