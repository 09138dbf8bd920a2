// Whole programs: kernels and their metadata, data sections, symbols, relocations, line tables,
// and the module listing.
#include "warpforge/asm/assembler.h"
#include "warpforge/asm/disassembler.h"
#include "warpforge/asm/inst.h"
#include "warpforge/module/wfx.h"

#include <bit>
#include <gtest/gtest.h>

namespace wf::mc {
namespace {

constexpr std::string_view kProgram = R"(// a small module
        .const
        .align 4
scale:  .float 2.5
table:  .word 1, 2, 0x30000
        .global
        .align 8
counter: .word 7
        .align 8
ptrs:   .quad counter, counter+4, helper
halves: .word %lo(counter), %hi(counter+8)
bytes:  .byte 1, -1
        .short 0xbeef
        .double 0.5
buf:    .zero 64

.kernel first
        .regs 16
        .shared 128
        .local 32
        .param 8
        .param 4
        .maxntid 128, 2
        S2R R0, SR_TID_X
        LDC R1, [RZ+scale]
        LDC R5, [RZ+table+8]
        MOV32I R2, %lo(counter)
        MOV32I R3, %hi(counter)
        LDG R4, [R2]
loop:   IADD_I R0, R0, -1
        ISETP_I.GT P0, R0, 0
        @P0 BRA loop
        CALL R10, helper
        EXIT
helper: RET R10

.kernel second
        .file 1 "kernels.ptx"
        .loc 1 42 7
        IADD R3, R1, R2, PT, PT
        .loc 1 43
        EXIT
)";

wfx::Module assembleProgram(std::string_view source = kProgram) {
  AsmOptions options;
  options.fileName = "prog.s";
  auto module = assemble(source, options);
  EXPECT_TRUE(module) << (module ? "" : str(module.error()));
  return module ? *module : wfx::Module{};
}

uint64_t codeWord(const wfx::Module &module, uint32_t pc) {
  uint64_t word = 0;
  for (unsigned b = 0; b < 8; ++b)
    word |= uint64_t(module.code[pc + b]) << (8 * b);
  return word;
}

uint32_t data32(const std::vector<uint8_t> &image, size_t offset) {
  return uint32_t(image[offset]) | uint32_t(image[offset + 1]) << 8 |
         uint32_t(image[offset + 2]) << 16 | uint32_t(image[offset + 3]) << 24;
}

TEST(AsmModule, Kernels) {
  wfx::Module module = assembleProgram();
  ASSERT_EQ(module.kernels.size(), 2u);
  const wfx::Kernel &first = module.kernels[0];
  EXPECT_EQ(first.name, "first");
  EXPECT_EQ(first.entry, 0u);
  EXPECT_EQ(first.codeSize, 12u * 8);
  EXPECT_EQ(first.regsPerThread, 16u);
  EXPECT_EQ(first.sharedBytes, 128u);
  EXPECT_EQ(first.localBytes, 32u);
  EXPECT_EQ(first.paramBytes, 12u);
  ASSERT_EQ(first.params.size(), 2u);
  EXPECT_EQ(first.params[1], (wfx::ParamEntry{8, 4, 4}));
  EXPECT_EQ(first.maxntid, (wfx::Dim3{128, 2, 1}));
  EXPECT_FALSE(first.reqntid.specified());
  const wfx::Kernel &second = module.kernels[1];
  EXPECT_EQ(second.entry, 12u * 8);
  EXPECT_EQ(second.codeSize, 16u);
  EXPECT_EQ(second.regsPerThread, 4u); // computed: R3 is the highest register
  EXPECT_EQ(module.code.size(), 14u * 8);
}

TEST(AsmModule, DataSegmentsAndSymbols) {
  wfx::Module module = assembleProgram();
  EXPECT_EQ(module.constant.align, 8u); // .align 4 keeps the default of 8
  EXPECT_EQ(data32(module.constant.image, 0), std::bit_cast<uint32_t>(2.5f));
  EXPECT_EQ(data32(module.constant.image, 12), 0x30000u);
  const wfx::Symbol *table = module.findSymbol("table");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->segment, wfx::Segment::Const);
  EXPECT_EQ(table->offset, 4u);
  EXPECT_EQ(table->size, 12u);

  // counter 0..4, pad, ptrs 8..32, halves 32..40, bytes 40..44 (+ .double at 44), buf 52..116
  EXPECT_EQ(module.global.size(), 116u);
  EXPECT_EQ(module.global.zeroFill, 64u); // the trailing .zero is not stored
  EXPECT_EQ(data32(module.global.image, 0), 7u);
  EXPECT_EQ(module.global.image[40], 1);
  EXPECT_EQ(module.global.image[41], 0xff);
  EXPECT_EQ(module.global.image[42], 0xef);
  EXPECT_EQ(module.global.image[43], 0xbe);
  EXPECT_EQ(module.findSymbol("buf")->offset, 52u);
  EXPECT_EQ(module.findSymbol("buf")->size, 64u);
  EXPECT_EQ(module.findSymbol("ptrs")->size, 24u);
  // A code address in data is a constant: helper's code offset.
  EXPECT_EQ(data32(module.global.image, 24), 11u * 8);
  EXPECT_EQ(module.findSymbol("loop")->segment, wfx::Segment::Code);
}

TEST(AsmModule, Relocations) {
  wfx::Module module = assembleProgram();
  auto counter = uint32_t(module.findSymbol("counter") - module.symbols.data());
  std::vector<wfx::Reloc> want = {
      {wfx::Segment::Code, 3 * 8 + 4, wfx::RelocKind::AbsLo32, wfx::Segment::Global, counter, 0},
      {wfx::Segment::Code, 4 * 8 + 4, wfx::RelocKind::AbsHi32, wfx::Segment::Global, counter, 0},
      {wfx::Segment::Global, 8, wfx::RelocKind::AbsLo32, wfx::Segment::Global, counter, 0},
      {wfx::Segment::Global, 12, wfx::RelocKind::AbsHi32, wfx::Segment::Global, counter, 0},
      {wfx::Segment::Global, 16, wfx::RelocKind::AbsLo32, wfx::Segment::Global, counter, 4},
      {wfx::Segment::Global, 20, wfx::RelocKind::AbsHi32, wfx::Segment::Global, counter, 4},
      {wfx::Segment::Global, 32, wfx::RelocKind::AbsLo32, wfx::Segment::Global, counter, 0},
      {wfx::Segment::Global, 36, wfx::RelocKind::AbsHi32, wfx::Segment::Global, counter, 8},
  };
  EXPECT_EQ(module.relocs, want);

  // Constant-bank symbols are offsets, known when assembling.
  auto ldc = decode(codeWord(module, 2 * 8));
  ASSERT_TRUE(ldc);
  EXPECT_EQ(ldc->offsets[1], 4u + 8);

  auto loaded = wfx::load(module, {0x1'0000'0000ull, 0x1'0000'1000ull, 0x1'2345'6700ull});
  ASSERT_TRUE(loaded) << loaded.error().str();
  EXPECT_EQ(data32(loaded->code, 3 * 8 + 4), 0x23456700u);
  EXPECT_EQ(data32(loaded->code, 4 * 8 + 4), 0x1u);
  EXPECT_EQ(data32(loaded->global, 16), 0x23456704u);
}

TEST(AsmModule, BranchesAreRelative) {
  wfx::Module module = assembleProgram();
  auto bra = decode(codeWord(module, 8 * 8));
  ASSERT_TRUE(bra);
  EXPECT_EQ(bra->guard, 0u);
  EXPECT_EQ(bra->operands[0], uint32_t(6 * 8 - (8 * 8 + 8))); // loop - (pc + 8)
}

TEST(AsmModule, LineTable) {
  wfx::Module module = assembleProgram();
  ASSERT_EQ(module.files.size(), 2u);
  EXPECT_EQ(module.files[0], "prog.s");
  EXPECT_EQ(module.files[1], "kernels.ptx");
  const wfx::LineRow *s2r = module.lineAt(0);
  ASSERT_NE(s2r, nullptr);
  EXPECT_EQ(s2r->line, 24u);
  EXPECT_EQ(s2r->column, 9u);
  const wfx::LineRow *iadd = module.lineAt(12 * 8);
  EXPECT_EQ(iadd->file, 1u);
  EXPECT_EQ(iadd->line, 42u);
  EXPECT_EQ(iadd->column, 7u);
  EXPECT_EQ(module.lineAt(13 * 8)->line, 43u);

  AsmOptions noLines;
  noLines.lineTable = false;
  auto bare = assemble(kProgram, noLines);
  ASSERT_TRUE(bare);
  EXPECT_TRUE(bare->lines.empty());
  EXPECT_EQ(bare->code, module.code);
}

TEST(AsmModule, WritesAndReadsBack) {
  wfx::Module module = assembleProgram();
  auto bytes = wfx::write(module);
  ASSERT_TRUE(bytes) << bytes.error().str();
  auto back = wfx::read(*bytes);
  ASSERT_TRUE(back) << back.error().str();
  EXPECT_EQ(*back, module);
}

TEST(AsmModule, Listing) {
  wfx::Module module = assembleProgram();
  ListingOptions options;
  options.sourceText = [](const std::string &file, uint32_t line) -> std::optional<std::string> {
    if (file == "kernels.ptx" && line == 42)
      return std::string("add.s32 %r3, %r1, %r2;");
    return std::nullopt;
  };
  std::string listing = listModule(module, options);
  for (const char *part : {
           ".kernel first",
           ".regs 16",
           ".shared 128",
           ".maxntid 128, 2, 1",
           ".param 4, 4",
           "0018  ",
           "MOV32I R2, %lo(counter)",
           "MOV32I R3, %hi(counter)",
           "loop:",
           "@P0 BRA loop",
           "CALL R10, helper",
           "helper:",
           ".kernel second",
           "// kernels.ptx:42: add.s32 %r3, %r1, %r2;",
           "// kernels.ptx:43\n",
           "// prog.s:24",
           ".const",
           ".global",
           "counter:",
           "%lo(counter+4) (patched at load)",
           ".zero 64",
       })
    EXPECT_NE(listing.find(part), std::string::npos) << "missing '" << part << "' in\n" << listing;
}

/// A listing without addresses and encodings is assembly again: the same code, kernels and
/// symbols come back.
TEST(AsmModule, ListingReassembles) {
  constexpr std::string_view source = R"(
.kernel k
        .regs 8
        .param 8
        .param 4
top:    S2R R0, SR_TID_X
        ISETP_I.GE P0, R0, 100
        @P0 BRA done
        FADD_I R1, R1, 0.5
        BRA top
done:   EXIT
        .word 0xffffffffffffffff
)";
  wfx::Module module = assembleProgram(source);
  ListingOptions options;
  options.addresses = false;
  options.encodings = false;
  options.sourceLines = false;
  std::string listing = listModule(module, options);
  AsmOptions asmOptions;
  asmOptions.lineTable = false;
  auto again = assemble(listing, asmOptions);
  ASSERT_TRUE(again) << str(again.error()) << listing;
  EXPECT_EQ(again->code, module.code);
  EXPECT_EQ(again->kernels, module.kernels);
  EXPECT_NE(listing.find(".word 0xffffffffffffffff  // invalid opcode 0xff"), std::string::npos)
      << listing;
}

} // namespace
} // namespace wf::mc
