//===- LexerTest.cpp - Tests of the PTX lexer -----------------------------===//
//
// Part of Warpforge.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Lexer.h"

#include <gtest/gtest.h>

#include <vector>

using namespace wf::ptx;

namespace {

std::vector<Token> lexAll(std::string_view Text) {
  Lexer L(Text);
  std::vector<Token> Toks;
  while (true) {
    Token T = L.next();
    Toks.push_back(T);
    if (T.kind == TokKind::Eof || T.kind == TokKind::Error || Toks.size() > 1000)
      return Toks;
  }
}

Token lexOne(std::string_view Text) { return lexAll(Text).front(); }

TEST(PtxLexer, WordsKeepTheirDots) {
  auto T = lexAll("ld.global.L1::evict_last.v4.f32 %tid.x $L__BB0_1 _Z3fibi");
  ASSERT_EQ(T.size(), 5u);
  EXPECT_EQ(T[0].kind, TokKind::Word);
  EXPECT_EQ(T[0].text, "ld.global.L1::evict_last.v4.f32");
  EXPECT_EQ(T[1].text, "%tid.x");
  EXPECT_EQ(T[2].text, "$L__BB0_1");
  EXPECT_EQ(T[3].text, "_Z3fibi");
  EXPECT_EQ(T[4].kind, TokKind::Eof);
}

TEST(PtxLexer, LabelColonIsSeparate) {
  auto T = lexAll("$L__BB3_2: ts: .branchtargets");
  ASSERT_GE(T.size(), 5u);
  EXPECT_EQ(T[0].text, "$L__BB3_2");
  EXPECT_EQ(T[1].kind, TokKind::Colon);
  EXPECT_EQ(T[2].text, "ts");
  EXPECT_EQ(T[3].kind, TokKind::Colon);
  EXPECT_EQ(T[4].kind, TokKind::Directive);
  EXPECT_EQ(T[4].text, ".branchtargets");
}

TEST(PtxLexer, Directives) {
  auto T = lexAll(".reg .b32 .shared::cta .L2::cache_hint");
  EXPECT_EQ(T[0].text, ".reg");
  EXPECT_EQ(T[1].text, ".b32");
  EXPECT_EQ(T[2].text, ".shared::cta");
  EXPECT_EQ(T[3].text, ".L2::cache_hint");
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(T[I].kind, TokKind::Directive);
}

TEST(PtxLexer, IntegerForms) {
  struct Case {
    const char *text;
    uint64_t value;
    bool isUnsigned;
  } Cases[] = {{"0", 0, false},
               {"42", 42, false},
               {"42U", 42, true},
               {"0x2a", 42, false},
               {"0X2A", 42, false},
               {"052", 42, false},
               {"0b101010", 42, false},
               {"0B101010U", 42, true},
               {"18446744073709551615", UINT64_MAX, false},
               {"0xffffffffffffffff", UINT64_MAX, false}};
  for (const Case &C : Cases) {
    Token T = lexOne(C.text);
    ASSERT_EQ(T.kind, TokKind::Integer) << C.text;
    EXPECT_EQ(T.intValue, C.value) << C.text;
    EXPECT_EQ(T.isUnsigned, C.isUnsigned) << C.text;
  }
}

TEST(PtxLexer, FloatForms) {
  Token F32 = lexOne("0f3F800000");
  ASSERT_EQ(F32.kind, TokKind::FloatBits);
  EXPECT_EQ(F32.floatWidth, 32);
  EXPECT_EQ(F32.intValue, 0x3F800000u);
  Token F64 = lexOne("0D400921FB54442D18");
  ASSERT_EQ(F64.kind, TokKind::FloatBits);
  EXPECT_EQ(F64.floatWidth, 64);
  EXPECT_EQ(F64.intValue, 0x400921FB54442D18ull);
  for (const char *S : {"1.5", "0.0", "2e10", "1.0e-3", "3.", "7E+2"}) {
    Token T = lexOne(S);
    EXPECT_EQ(T.kind, TokKind::Float) << S;
    EXPECT_EQ(T.text, S);
  }
}

TEST(PtxLexer, MalformedNumbers) {
  for (const char *S : {"0f3F80", "0d3FF0", "0f3F8000000000", "08", "0x", "0b2", "12abc",
                        "99999999999999999999", "0x1ffffffffffffffff"}) {
    Token T = lexOne(S);
    EXPECT_EQ(T.kind, TokKind::Error) << S;
    EXPECT_NE(T.error, nullptr) << S;
  }
}

TEST(PtxLexer, Punctuation) {
  auto T = lexAll("<< >> <= >= == != && || < > = ! ~ & | ^ ? @ % + - * / , ; : ( ) [ ] { }");
  TokKind Want[] = {
      TokKind::Shl,        TokKind::Shr,      TokKind::LessEqual, TokKind::GreaterEqual,
      TokKind::EqualEqual, TokKind::NotEqual, TokKind::AmpAmp,    TokKind::PipePipe,
      TokKind::Less,       TokKind::Greater,  TokKind::Equal,     TokKind::Bang,
      TokKind::Tilde,      TokKind::Amp,      TokKind::Pipe,      TokKind::Caret,
      TokKind::Question,   TokKind::At,       TokKind::Percent,   TokKind::Plus,
      TokKind::Minus,      TokKind::Star,     TokKind::Slash,     TokKind::Comma,
      TokKind::Semi,       TokKind::Colon,    TokKind::LParen,    TokKind::RParen,
      TokKind::LBracket,   TokKind::RBracket, TokKind::LBrace,    TokKind::RBrace,
      TokKind::Eof};
  ASSERT_EQ(T.size(), std::size(Want));
  for (size_t I = 0; I < T.size(); ++I)
    EXPECT_EQ(T[I].kind, Want[I]) << I;
}

TEST(PtxLexer, CommentsAndLocations) {
  auto T = lexAll("// line comment\n  /* block\n comment */ add.s32\n\t%r1;");
  ASSERT_EQ(T.size(), 4u);
  EXPECT_EQ(T[0].text, "add.s32");
  EXPECT_EQ(T[0].loc.line, 3u);
  EXPECT_EQ(T[0].loc.col, 13u);
  EXPECT_EQ(T[1].text, "%r1");
  EXPECT_EQ(T[1].loc.line, 4u);
  EXPECT_EQ(T[1].loc.col, 2u);
}

TEST(PtxLexer, Strings) {
  Token T = lexOne("\"a \\\"quoted\\\" path\"");
  EXPECT_EQ(T.kind, TokKind::String);
  EXPECT_EQ(T.text, "\"a \\\"quoted\\\" path\"");
}

TEST(PtxLexer, Errors) {
  Token C = lexOne("/* never closed");
  EXPECT_EQ(C.kind, TokKind::Error);
  EXPECT_STREQ(C.error, "unterminated comment");
  Token S = lexOne("\"open\nstring\"");
  EXPECT_EQ(S.kind, TokKind::Error);
  EXPECT_STREQ(S.error, "unterminated string");
  Token B = lexOne("#");
  EXPECT_EQ(B.kind, TokKind::Error);
  EXPECT_EQ(B.text, "#");
  Token D = lexOne(". b32");
  EXPECT_EQ(D.kind, TokKind::Error);
}

TEST(PtxLexer, EofRepeats) {
  Lexer L("x");
  EXPECT_EQ(L.next().kind, TokKind::Word);
  EXPECT_EQ(L.next().kind, TokKind::Eof);
  EXPECT_EQ(L.next().kind, TokKind::Eof);
}

TEST(PtxLexer, EmbeddedNulIsAnError) {
  std::string Text("add", 3);
  Text.push_back('\0');
  Text += "x";
  auto T = lexAll(Text);
  EXPECT_EQ(T[0].text, "add");
  EXPECT_EQ(T[1].kind, TokKind::Error);
}

} // namespace
