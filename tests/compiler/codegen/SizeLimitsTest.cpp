//===- SizeLimitsTest.cpp - 64-bit sizes, limits and zero fill in codegen ---===//
//
// Issue 16, defects 5 and 6: variable sizes and alignments were truncated to 32 bits (a 4 GiB
// .global array took no room, so the next variable got the same address), huge arrays and
// alignments were materialized as zero bytes, and a .b128 initializer copied 16 bytes out of an
// 8-byte value. Sizes are now 64-bit and checked against the configuration's limits; zero-filled
// data is a count in the module, never bytes.
//
//===----------------------------------------------------------------------===//

#include "Harness.h"

using namespace wf;

namespace {

std::string kernelWith(const std::string &Decls, const std::string &Body = "") {
  return ".version 7.0\n.target sm_80\n.address_size 64\n" + Decls +
         "\n.entry k(.param .u64 out)\n{\n.reg .b64 %rd<4>;\n.reg .b32 %r<4>;\n" + Body +
         "ret;\n}\n";
}

Expected<wfx::Module> compile(const std::string &Ptx, codegen::CodegenOptions Opts = {}) {
  auto M = ptx::parseModule(Ptx);
  if (!M)
    return Error("parse: " + M.error().str());
  return codegen::compilePtx(*M, Opts);
}

const wfx::Symbol *symbol(const wfx::Module &Mod, std::string_view Name) {
  for (const wfx::Symbol &S : Mod.symbols)
    if (S.name == Name)
      return &S;
  return nullptr;
}

TEST(SizeLimits, FourGiBGlobalArrayIsAnError) {
  auto W = compile(kernelWith(".global .align 8 .b8 big[4294967296];\n.global .u32 after;"));
  ASSERT_FALSE(W) << "a 4 GiB array compiled";
  EXPECT_NE(W.error().str().find("'big'"), std::string::npos) << W.error().str();
  // A larger configurable limit does not lift the .wfx format's own (32-bit segment sizes).
  codegen::CodegenOptions Opts;
  Opts.maxGlobalBytes = uint64_t(16) << 30;
  EXPECT_FALSE(compile(kernelWith(".global .align 8 .b8 big[4294967296];"), Opts));
}

TEST(SizeLimits, GlobalLimitIsConfigurable) {
  std::string Ptx = kernelWith(".global .align 8 .b8 a[4096];\n.global .align 8 .b8 b[4096];");
  ASSERT_TRUE(compile(Ptx)) << "8 KiB of globals under the default limit";
  codegen::CodegenOptions Opts;
  Opts.maxGlobalBytes = 6000;
  auto W = compile(Ptx, Opts);
  ASSERT_FALSE(W);
  EXPECT_NE(W.error().str().find("'b'"), std::string::npos) << W.error().str();
  EXPECT_NE(W.error().str().find("maxGlobalBytes"), std::string::npos) << W.error().str();
}

TEST(SizeLimits, ZeroFilledGlobalsAreNotStoredAsBytes) {
  auto W = compile(kernelWith(".global .align 8 .u64 first = 7;\n"
                              ".global .align 8 .b8 big[67108864];\n"
                              ".global .align 4 .u32 after;"));
  ASSERT_TRUE(W) << W.error().str();
  const wfx::Symbol *After = symbol(*W, "after");
  ASSERT_NE(After, nullptr);
  EXPECT_EQ(After->offset, 8u + 67108864u); // not wrapped onto `big`
  EXPECT_EQ(W->global.image.size(), 8u);    // only the initialized `first`
  EXPECT_EQ(W->global.size(), 8u + 67108864u + 8u);
  auto Bytes = wfx::write(*W);
  ASSERT_TRUE(Bytes) << Bytes.error().str();
  EXPECT_LT(Bytes->size(), 64u * 1024) << "the zero fill was written out";
}

TEST(SizeLimits, LargeAlignmentAlignsTheSegmentAndHugeOnesAreErrors) {
  auto W = compile(kernelWith(".global .u32 a;\n.global .align 4096 .b8 page[64];"));
  ASSERT_TRUE(W) << W.error().str();
  EXPECT_EQ(symbol(*W, "page")->offset % 4096, 0u);
  EXPECT_GE(W->global.align, 4096u) << "the segment's load address must keep the alignment";
  EXPECT_EQ(W->global.image.size(), 0u);

  auto Huge = compile(kernelWith(".global .align 2147483648 .b8 x[8];"));
  ASSERT_FALSE(Huge);
  EXPECT_NE(Huge.error().str().find("alignment 2147483648"), std::string::npos)
      << Huge.error().str();
}

TEST(SizeLimits, LocalArrayPastTheLimitIsAnError) {
  auto W = compile(kernelWith("", ".local .align 8 .b8 stack[4294967304];\n"
                                  "mov.u64 %rd1, stack;\n"));
  ASSERT_FALSE(W) << "a 4 GiB local array compiled";
  EXPECT_NE(W.error().str().find("'stack'"), std::string::npos) << W.error().str();
}

TEST(SizeLimits, SharedArrayPastTheLimitIsAnError) {
  auto W = compile(kernelWith(".shared .align 8 .b8 tile[4294967312];",
                              "mov.u64 %rd1, tile;\nst.shared.u32 [%rd1], 1;\n"));
  ASSERT_FALSE(W) << "a 4 GiB shared array compiled";
  EXPECT_NE(W.error().str().find("static shared memory"), std::string::npos) << W.error().str();
}

TEST(SizeLimits, B128InitializerIsZeroExtended) {
  auto W = compile(kernelWith(".global .align 16 .b128 wide[2] = {0x1122334455667788, 5};"));
  ASSERT_TRUE(W) << W.error().str();
  ASSERT_EQ(W->global.image.size(), 32u);
  const std::vector<uint8_t> Want = {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0, 0, 0,
                                     0,    0,    0,    0,    0,    5,    0,    0,    0, 0, 0,
                                     0,    0,    0,    0,    0,    0,    0,    0,    0, 0};
  EXPECT_EQ(W->global.image, Want);
}

} // namespace
