// The native assembler. Pass 1 parses every line, places instructions and data and defines labels;
// pass 2 resolves symbol-valued operands, encodes, and builds the module's tables.
#include "warpforge/asm/assembler.h"

#include "parser.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <optional>

namespace wf::mc {
namespace {

using detail::errorAt;
using detail::Expr;
using detail::Lexer;

constexpr size_t kMaxErrors = 100;
constexpr uint32_t kMaxDataAlign = 65536;
constexpr uint64_t kMaxSegmentBytes = 1ull << 31;

bool isPowerOfTwo(uint64_t value) { return value != 0 && (value & (value - 1)) == 0; }

std::string lowerCopy(std::string_view text) {
  std::string out(text);
  for (char &c : out)
    c = c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
  return out;
}

/// The line without its `//` or `#` comment (outside double quotes).
std::string_view stripComment(std::string_view line) {
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '"')
      quoted = !quoted;
    else if (!quoted && (c == '#' || (c == '/' && i + 1 < line.size() && line[i + 1] == '/')))
      return line.substr(0, i);
  }
  return line;
}

/// Local labels (".L...") are not exported to the module's symbol table.
bool isLocalLabel(std::string_view name) { return name.rfind(".L", 0) == 0; }

struct SourcePos {
  uint32_t file = 0;
  uint32_t line = 0;
  uint32_t column = 0;
  bool operator==(const SourcePos &) const = default;
};

class Assembler {
public:
  Assembler(std::string_view source, const AsmOptions &options)
      : source_(source), options_(options) {}

  Expected<wfx::Module, ErrorList> run() {
    uint32_t lineNo = 0;
    size_t start = 0;
    while (start <= source_.size() && errors_.size() < kMaxErrors) {
      size_t end = source_.find('\n', start);
      if (end == std::string_view::npos)
        end = source_.size();
      line_ = ++lineNo;
      parseLine(source_.substr(start, end - start));
      start = end + 1;
    }
    resolveCode();
    resolveData();
    finishKernels();
    if (!errors_.empty())
      return std::move(errors_);
    buildModule();
    if (auto status = wfx::validate(module_, options_.fileName); !status)
      return ErrorList{std::move(status).error()};
    return std::move(module_);
  }

private:
  struct Label {
    std::string name;
    wfx::Segment segment;
    uint32_t offset;
    uint32_t line;
    uint32_t symbolIndex; ///< kNoSymbol for local labels
  };

  struct CodeItem {
    detail::ParsedInst parsed; ///< unused for raw words
    std::optional<uint64_t> rawWord;
    uint32_t line = 0;
    SourcePos pos;
  };

  struct DataFixup {
    wfx::Segment segment;
    uint32_t offset;
    unsigned bytes;
    Expr expr;
    uint32_t line;
  };

  struct KernelState {
    wfx::Kernel kernel;
    uint32_t line = 0;
    std::optional<uint32_t> regsLine; ///< where .regs was given
    std::optional<uint32_t> paramsLine;
  };

  // --- Errors --------------------------------------------------------------------------------

  void report(Error error, uint32_t line = 0) {
    error.loc.file = options_.fileName;
    error.loc.line = line ? line : line_;
    errors_.push_back(std::move(error));
  }
  void report(uint32_t column, std::string message, std::string_view snippet = {}) {
    report(errorAt(column, std::move(message), snippet));
  }

  // --- Pass 1 --------------------------------------------------------------------------------

  void parseLine(std::string_view rawLine) {
    Lexer lexer(stripComment(rawLine));
    for (;;) {
      lexer.skipSpace();
      size_t start = lexer.position();
      uint32_t column = lexer.column();
      std::string_view name = lexer.identifier();
      if (!name.empty() && lexer.peek() == ':') {
        lexer.accept(':');
        defineLabel(name, column);
        continue;
      }
      lexer.setPosition(start);
      break;
    }
    if (lexer.atEnd())
      return;
    uint32_t column = lexer.column();
    if (lexer.peek() == '.') {
      std::string_view name = lexer.identifier();
      directive(lowerCopy(name), name, column, lexer);
      return;
    }
    instruction(lexer.rest(), column);
  }

  uint32_t currentOffset() const {
    switch (segment_) {
    case wfx::Segment::Code:
      return uint32_t(code_.size() * isa::kInstBytes);
    case wfx::Segment::Const:
      return uint32_t(constant_.image.size());
    case wfx::Segment::Global:
      return uint32_t(global_.image.size());
    }
    return 0;
  }

  void defineLabel(std::string_view name, uint32_t column) {
    if (detail::classifyRegister(name).regClass != detail::RegClass::None) {
      report(column, "a label cannot be named like a register", name);
      return;
    }
    if (auto it = labelIndex_.find(std::string(name)); it != labelIndex_.end()) {
      report(column,
             fmt::format("duplicate label (first defined on line {})", labels_[it->second].line),
             name);
      return;
    }
    uint32_t symbolIndex = wfx::kNoSymbol;
    if (!isLocalLabel(name))
      symbolIndex = exported_++;
    labelIndex_.emplace(std::string(name), labels_.size());
    labels_.push_back(Label{std::string(name), segment_, currentOffset(), line_, symbolIndex});
  }

  std::optional<detail::SymbolRef> lookup(std::string_view name) const {
    auto it = labelIndex_.find(std::string(name));
    if (it == labelIndex_.end())
      return std::nullopt;
    const Label &label = labels_[it->second];
    return detail::SymbolRef{label.segment, label.offset, label.symbolIndex};
  }

  void instruction(std::string_view text, uint32_t column) {
    if (segment_ != wfx::Segment::Code) {
      report(column, "instruction outside .text (after .const or .global)", text);
      return;
    }
    auto parsed = detail::parseInst(text, column);
    if (!parsed) {
      report(std::move(parsed).error());
      return;
    }
    CodeItem item;
    item.parsed = std::move(*parsed);
    item.line = line_;
    item.pos = locPos_ ? *locPos_ : SourcePos{ownFile(), line_, column};
    code_.push_back(std::move(item));
  }

  /// Index of the assembly file itself in the line table's file list.
  uint32_t ownFile() {
    if (!ownFileIndex_) {
      ownFileIndex_ = uint32_t(files_.size());
      files_.push_back(options_.fileName);
    }
    return *ownFileIndex_;
  }

  /// A constant directive argument in [minimum, maximum].
  std::optional<uint64_t> constant(Lexer &lexer, uint64_t minimum, uint64_t maximum,
                                   std::string_view what) {
    auto expr = detail::parseExpr(lexer);
    if (!expr) {
      report(std::move(expr).error());
      return std::nullopt;
    }
    if (!expr->symbol.empty() || expr->part != Expr::Part::Whole) {
      report(expr->column, fmt::format("{} must be a number", what), expr->text);
      return std::nullopt;
    }
    if (expr->wide || expr->value < int64_t(minimum) || uint64_t(expr->value) > maximum) {
      report(expr->column, fmt::format("{} out of range [{}, {}]", what, minimum, maximum),
             expr->text);
      return std::nullopt;
    }
    return uint64_t(expr->value);
  }

  bool expectEnd(Lexer &lexer) {
    if (lexer.atEnd())
      return true;
    uint32_t column = lexer.column();
    report(column, "unexpected text after the directive", lexer.rest());
    return false;
  }

  KernelState *currentKernel(std::string_view directive, uint32_t column) {
    if (kernels_.empty()) {
      report(column, "kernel metadata outside a .kernel", directive);
      return nullptr;
    }
    return &kernels_.back();
  }

  void directive(const std::string &name, std::string_view written, uint32_t column, Lexer &lexer) {
    if (name == ".text" || name == ".const" || name == ".global") {
      segment_ = name == ".text"    ? wfx::Segment::Code
                 : name == ".const" ? wfx::Segment::Const
                                    : wfx::Segment::Global;
      expectEnd(lexer);
    } else if (name == ".kernel") {
      kernelDirective(lexer);
    } else if (name == ".regs" || name == ".shared" || name == ".local" || name == ".params" ||
               name == ".minnctapersm") {
      metadataDirective(name, written, column, lexer);
    } else if (name == ".maxntid" || name == ".reqntid") {
      dimsDirective(name, written, column, lexer);
    } else if (name == ".param") {
      paramDirective(written, column, lexer);
    } else if (name == ".align") {
      alignDirective(lexer);
    } else if (name == ".byte" || name == ".short" || name == ".word" || name == ".quad") {
      integerData(name, written, column, lexer);
    } else if (name == ".float" || name == ".double") {
      floatData(name == ".double", written, column, lexer);
    } else if (name == ".zero") {
      zeroDirective(written, column, lexer);
    } else if (name == ".file") {
      fileDirective(lexer);
    } else if (name == ".loc") {
      locDirective(lexer);
    } else {
      report(column, "unknown directive", written);
    }
  }

  void kernelDirective(Lexer &lexer) {
    uint32_t nameColumn = (lexer.skipSpace(), lexer.column());
    std::string_view name = lexer.identifier();
    if (name.empty()) {
      report(nameColumn, ".kernel needs a name", lexer.rest());
      return;
    }
    if (!expectEnd(lexer))
      return;
    segment_ = wfx::Segment::Code;
    size_t before = errors_.size();
    defineLabel(name, nameColumn);
    if (errors_.size() != before)
      return;
    KernelState state;
    state.kernel.name = std::string(name);
    state.kernel.entry = currentOffset();
    state.line = line_;
    kernels_.push_back(std::move(state));
  }

  void metadataDirective(const std::string &name, std::string_view written, uint32_t column,
                         Lexer &lexer) {
    KernelState *state = currentKernel(written, column);
    if (!state)
      return;
    uint64_t maximum = name == ".regs" ? isa::kNumRegs : 0xffffffffull;
    auto value = constant(lexer, 0, maximum, written);
    if (!value || !expectEnd(lexer))
      return;
    wfx::Kernel &kernel = state->kernel;
    if (name == ".regs") {
      kernel.regsPerThread = uint32_t(*value);
      state->regsLine = line_;
    } else if (name == ".shared") {
      kernel.sharedBytes = uint32_t(*value);
    } else if (name == ".local") {
      kernel.localBytes = uint32_t(*value);
    } else if (name == ".params") {
      kernel.paramBytes = uint32_t(*value);
      state->paramsLine = line_;
    } else {
      kernel.minCtasPerSm = uint32_t(*value);
    }
  }

  void dimsDirective(const std::string &name, std::string_view written, uint32_t column,
                     Lexer &lexer) {
    KernelState *state = currentKernel(written, column);
    if (!state)
      return;
    std::array<uint32_t, 3> dims{1, 1, 1};
    for (unsigned i = 0; i < 3; ++i) {
      auto value = constant(lexer, 1, 0xffffffffull, written);
      if (!value)
        return;
      dims[i] = uint32_t(*value);
      if (!lexer.accept(','))
        break;
    }
    if (!expectEnd(lexer))
      return;
    wfx::Dim3 &dim = name == ".maxntid" ? state->kernel.maxntid : state->kernel.reqntid;
    dim = wfx::Dim3{dims[0], dims[1], dims[2]};
  }

  void paramDirective(std::string_view written, uint32_t column, Lexer &lexer) {
    KernelState *state = currentKernel(written, column);
    if (!state)
      return;
    auto size = constant(lexer, 1, 1u << 16, ".param size");
    if (!size)
      return;
    uint64_t align = 1;
    while (align < 8 && *size % (align * 2) == 0)
      align *= 2; // natural alignment of the size, up to 8
    if (lexer.accept(',')) {
      uint32_t alignColumn = (lexer.skipSpace(), lexer.column());
      auto given = constant(lexer, 1, 4096, ".param alignment");
      if (!given)
        return;
      if (!isPowerOfTwo(*given)) {
        report(alignColumn, ".param alignment must be a power of two");
        return;
      }
      align = *given;
    }
    if (!expectEnd(lexer))
      return;
    auto &params = state->kernel.params;
    uint64_t end = params.empty() ? 0 : params.back().offset + params.back().size;
    uint64_t offset = (end + align - 1) / align * align;
    params.push_back(wfx::ParamEntry{uint32_t(offset), uint32_t(*size), uint32_t(align)});
  }

  wfx::DataSegment *dataSegment() {
    return segment_ == wfx::Segment::Const    ? &constant_
           : segment_ == wfx::Segment::Global ? &global_
                                              : nullptr;
  }

  bool roomFor(uint64_t bytes, uint32_t column) {
    if (currentOffset() + bytes > kMaxSegmentBytes) {
      report(column, "segment larger than 2 GiB");
      return false;
    }
    return true;
  }

  void alignDirective(Lexer &lexer) {
    uint32_t column = (lexer.skipSpace(), lexer.column());
    auto align = constant(lexer, 1, kMaxDataAlign, ".align");
    if (!align || !expectEnd(lexer))
      return;
    if (!isPowerOfTwo(*align)) {
      report(column, ".align must be a power of two");
      return;
    }
    if (!roomFor(*align, column))
      return;
    if (wfx::DataSegment *data = dataSegment()) {
      data->align = std::max(data->align, uint32_t(*align));
      while (data->image.size() % *align != 0)
        data->image.push_back(0);
      return;
    }
    // Code: pad with no-ops.
    if (code_.size() * isa::kInstBytes % *align == 0)
      return;
    auto nop = findOpcode("NOP");
    if (!nop) {
      report(column, ".align in .text needs a NOP opcode in the ISA");
      return;
    }
    while (code_.size() * isa::kInstBytes % *align != 0) {
      CodeItem item;
      item.parsed.inst.opcode = *nop;
      item.line = line_;
      item.pos = locPos_ ? *locPos_ : SourcePos{ownFile(), line_, column};
      code_.push_back(std::move(item));
    }
  }

  void integerData(const std::string &name, std::string_view written, uint32_t column,
                   Lexer &lexer) {
    unsigned bytes = name == ".byte" ? 1 : name == ".short" ? 2 : name == ".word" ? 4 : 8;
    lexer.skipSpace();
    uint32_t argsColumn = lexer.column();
    std::string_view args = lexer.rest();
    if (args.empty()) {
      report(column, fmt::format("{} needs at least one value", written));
      return;
    }
    for (auto [piece, pieceColumn] : detail::splitOperands(args, argsColumn)) {
      Lexer valueLexer(piece, pieceColumn);
      auto expr = detail::parseExpr(valueLexer);
      if (!expr) {
        report(std::move(expr).error());
        return;
      }
      if (!valueLexer.atEnd()) {
        report(valueLexer.column(), "unexpected text after the value", valueLexer.rest());
        return;
      }
      if (segment_ == wfx::Segment::Code) {
        rawWord(name, *expr);
        continue;
      }
      if (!roomFor(bytes, column))
        return;
      wfx::DataSegment &data = *dataSegment();
      uint32_t offset = uint32_t(data.image.size());
      data.image.resize(data.image.size() + bytes, 0);
      fixups_.push_back(DataFixup{segment_, offset, bytes, std::move(*expr), line_});
    }
  }

  /// `.word` and `.quad` in .text: one raw 64-bit instruction word each (what the disassembler
  /// prints for a word that is not an instruction).
  void rawWord(const std::string &name, const Expr &expr) {
    if (!expr.symbol.empty() || expr.part != Expr::Part::Whole) {
      report(expr.column, fmt::format("{} in .text takes a 64-bit number", name), expr.text);
      return;
    }
    CodeItem item;
    item.rawWord = uint64_t(expr.value);
    item.line = line_;
    item.pos = locPos_ ? *locPos_ : SourcePos{ownFile(), line_, expr.column};
    code_.push_back(std::move(item));
  }

  void floatData(bool isDouble, std::string_view written, uint32_t column, Lexer &lexer) {
    wfx::DataSegment *data = dataSegment();
    if (!data) {
      report(column, fmt::format("{} in .text; switch with .const or .global", written));
      return;
    }
    lexer.skipSpace();
    uint32_t argsColumn = lexer.column();
    std::string_view args = lexer.rest();
    if (args.empty()) {
      report(column, fmt::format("{} needs at least one value", written));
      return;
    }
    for (auto [piece, pieceColumn] : detail::splitOperands(args, argsColumn)) {
      Lexer valueLexer(piece, pieceColumn);
      valueLexer.skipSpace();
      uint32_t valueColumn = valueLexer.column();
      std::string_view token = valueLexer.rest();
      uint64_t bits = 0;
      if (isDouble) {
        auto value = detail::parseF64(token, valueColumn);
        if (!value)
          return report(std::move(value).error());
        bits = *value;
      } else {
        auto value = detail::parseF32(token, valueColumn);
        if (!value)
          return report(std::move(value).error());
        bits = *value;
      }
      if (!roomFor(8, column))
        return;
      for (unsigned i = 0; i < (isDouble ? 8u : 4u); ++i)
        data->image.push_back(uint8_t(bits >> (8 * i)));
    }
  }

  void zeroDirective(std::string_view written, uint32_t column, Lexer &lexer) {
    wfx::DataSegment *data = dataSegment();
    if (!data) {
      report(column, fmt::format("{} in .text; switch with .const or .global", written));
      return;
    }
    auto count = constant(lexer, 0, kMaxSegmentBytes, ".zero size");
    if (!count || !expectEnd(lexer) || !roomFor(*count, column))
      return;
    data->image.resize(data->image.size() + *count, 0);
  }

  /// .file N "name": file N of later .loc directives.
  void fileDirective(Lexer &lexer) {
    auto number = constant(lexer, 0, 0xffffffffull, ".file number");
    if (!number)
      return;
    lexer.skipSpace();
    uint32_t column = lexer.column();
    std::string_view rest = lexer.rest();
    if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"' ||
        rest.substr(1, rest.size() - 2).find('"') != std::string_view::npos) {
      report(column, ".file needs a quoted file name", rest);
      return;
    }
    fileNumbers_[uint32_t(*number)] = uint32_t(files_.size());
    files_.emplace_back(rest.substr(1, rest.size() - 2));
  }

  /// .loc N LINE [COLUMN]: the next instructions come from that source position.
  void locDirective(Lexer &lexer) {
    uint32_t column = (lexer.skipSpace(), lexer.column());
    auto number = constant(lexer, 0, 0xffffffffull, ".loc file number");
    if (!number)
      return;
    auto it = fileNumbers_.find(uint32_t(*number));
    if (it == fileNumbers_.end()) {
      report(column, fmt::format(".loc names file {}, which no .file declared", *number));
      return;
    }
    auto line = constant(lexer, 0, 0xffffffffull, ".loc line");
    if (!line)
      return;
    uint64_t sourceColumn = 0;
    if (!lexer.atEnd()) {
      auto given = constant(lexer, 0, 0xffffffffull, ".loc column");
      if (!given)
        return;
      sourceColumn = *given;
    }
    if (!expectEnd(lexer))
      return;
    locPos_ = SourcePos{it->second, uint32_t(*line), uint32_t(sourceColumn)};
  }

  // --- Pass 2 --------------------------------------------------------------------------------

  detail::SymbolLookup lookupFunction() const {
    return [this](std::string_view name) { return lookup(name); };
  }

  void resolveCode() {
    auto symbols = lookupFunction();
    words_.reserve(code_.size());
    for (size_t i = 0; i < code_.size(); ++i) {
      CodeItem &item = code_[i];
      uint32_t pc = uint32_t(i * isa::kInstBytes);
      if (item.rawWord) {
        words_.push_back(*item.rawWord);
        continue;
      }
      Inst &inst = item.parsed.inst;
      bool failed = false;
      for (const detail::PendingValue &pending : item.parsed.pending) {
        const isa::OperandInfo &operand = inst.info().operands[pending.operand];
        auto resolved = detail::resolve(operand, pending, pc, symbols);
        if (!resolved) {
          report(std::move(resolved).error(), item.line);
          failed = true;
          continue;
        }
        (pending.offset ? inst.offsets : inst.operands)[pending.operand] = resolved->value;
        if (resolved->reloc) {
          wfx::Reloc reloc = *resolved->reloc;
          reloc.segment = wfx::Segment::Code;
          isa::Field field = pending.offset ? operand.imm : operand.field;
          reloc.offset = pc + field.lo / 8;
          relocs_.push_back(reloc);
        }
      }
      auto word = failed ? Expected<uint64_t>(Error()) : encode(inst);
      if (!failed && !word)
        report(Error(word.error().message), item.line);
      words_.push_back(word ? *word : 0);
    }
  }

  void resolveData() {
    for (DataFixup &fixup : fixups_) {
      const Expr &expr = fixup.expr;
      wfx::DataSegment &data = fixup.segment == wfx::Segment::Const ? constant_ : global_;
      auto fail = [&](std::string message) {
        report(errorAt(expr.column, std::move(message), expr.text), fixup.line);
      };
      auto write = [&](uint32_t offset, uint64_t value, unsigned bytes) {
        for (unsigned i = 0; i < bytes; ++i)
          data.image[offset + i] = uint8_t(value >> (8 * i));
      };
      std::optional<detail::SymbolRef> symbol;
      if (!expr.symbol.empty()) {
        symbol = lookup(expr.symbol);
        if (!symbol) {
          fail("undefined symbol");
          continue;
        }
      }
      auto addReloc = [&](uint32_t offset, wfx::RelocKind kind) {
        wfx::Reloc reloc;
        reloc.segment = fixup.segment;
        reloc.offset = offset;
        reloc.kind = kind;
        reloc.target = symbol->segment;
        reloc.symbol = symbol->index;
        reloc.addend = expr.value + (symbol->index == wfx::kNoSymbol ? int64_t(symbol->offset) : 0);
        relocs_.push_back(reloc);
      };
      if (expr.part != Expr::Part::Whole) {
        bool low = expr.part == Expr::Part::Lo;
        if (fixup.bytes != 4) {
          fail("%lo/%hi give 32 bits: use them with .word");
        } else if (!symbol) {
          write(fixup.offset, low ? uint64_t(expr.value) : uint64_t(expr.value) >> 32, 4);
        } else {
          addReloc(fixup.offset, low ? wfx::RelocKind::AbsLo32 : wfx::RelocKind::AbsHi32);
        }
        continue;
      }
      // A data symbol in data stands for its absolute address, patched at load time.
      if (symbol && symbol->segment != wfx::Segment::Code) {
        if (fixup.bytes != 8) {
          fail("an address needs .quad (or %lo()/%hi() with .word)");
          continue;
        }
        addReloc(fixup.offset, wfx::RelocKind::AbsLo32);
        addReloc(fixup.offset + 4, wfx::RelocKind::AbsHi32);
        continue;
      }
      int64_t value = expr.value + (symbol ? int64_t(symbol->offset) : 0);
      if (fixup.bytes < 8) {
        int64_t low = -(int64_t(1) << (fixup.bytes * 8 - 1));
        int64_t high = (int64_t(1) << (fixup.bytes * 8)) - 1;
        if (expr.wide || value < low || value > high) {
          fail(fmt::format("value out of range [{}, {}] for a {}-byte datum", low, high,
                           fixup.bytes));
          continue;
        }
      }
      write(fixup.offset, uint64_t(value), fixup.bytes);
    }
  }

  /// Registers an instruction names, counting the whole group of pair and quad operands.
  static uint32_t registersUsed(const Inst &inst) {
    const isa::OpInfo &info = inst.info();
    auto word = encode(inst);
    if (!word)
      return 0; // reported where the instruction is encoded
    uint32_t used = 0;
    for (unsigned i = 0; i < info.numOperands; ++i) {
      uint32_t reg = inst.operands[i];
      unsigned regs = isa::operandRegs(info, i, *word);
      if (regs != 0 && reg != isa::kZeroReg)
        used = std::max(used, reg + regs);
    }
    return used;
  }

  void finishKernels() {
    uint32_t codeSize = uint32_t(code_.size() * isa::kInstBytes);
    std::vector<uint32_t> entries;
    for (const KernelState &state : kernels_)
      entries.push_back(state.kernel.entry);
    std::sort(entries.begin(), entries.end());
    for (KernelState &state : kernels_) {
      wfx::Kernel &kernel = state.kernel;
      if (kernel.entry >= codeSize) {
        report(Error(fmt::format("kernel '{}' has no instructions", kernel.name)), state.line);
        continue;
      }
      auto next = std::upper_bound(entries.begin(), entries.end(), kernel.entry);
      kernel.codeSize = (next == entries.end() ? codeSize : *next) - kernel.entry;
      uint32_t used = 0;
      for (uint32_t pc = kernel.entry; pc < kernel.entry + kernel.codeSize; pc += isa::kInstBytes) {
        const CodeItem &item = code_[pc / isa::kInstBytes];
        if (!item.rawWord)
          used = std::max(used, registersUsed(item.parsed.inst));
      }
      if (!state.regsLine)
        kernel.regsPerThread = used;
      else if (kernel.regsPerThread < used)
        report(Error(fmt::format("kernel '{}' uses R{} but .regs gives only {} registers",
                                 kernel.name, used - 1, kernel.regsPerThread)),
               *state.regsLine);
      uint32_t paramEnd =
          kernel.params.empty() ? 0 : kernel.params.back().offset + kernel.params.back().size;
      if (!state.paramsLine)
        kernel.paramBytes = paramEnd;
      else if (kernel.paramBytes < paramEnd)
        report(Error(fmt::format("kernel '{}' declares {} parameter bytes but its .param entries "
                                 "need {}",
                                 kernel.name, kernel.paramBytes, paramEnd)),
               *state.paramsLine);
    }
  }

  // --- The module ----------------------------------------------------------------------------

  /// Moves trailing zero bytes of a data image into its zero fill (they are not stored).
  static void trimZeros(wfx::DataSegment &data) {
    size_t end = data.image.size();
    while (end > 0 && data.image[end - 1] == 0)
      --end;
    data.zeroFill = uint32_t(data.image.size() - end);
    data.image.resize(end);
  }

  void buildModule() {
    for (uint64_t word : words_)
      for (unsigned b = 0; b < isa::kInstBytes; ++b)
        module_.code.push_back(uint8_t(word >> (8 * b)));
    module_.constant = constant_;
    module_.global = global_;
    trimZeros(module_.constant);
    trimZeros(module_.global);
    for (const KernelState &state : kernels_)
      module_.kernels.push_back(state.kernel);

    // A label's size runs to the next label of its segment at a higher offset, or the end.
    module_.symbols.resize(exported_);
    for (const Label &label : labels_) {
      if (label.symbolIndex == wfx::kNoSymbol)
        continue;
      uint64_t end = module_.segmentSize(label.segment);
      for (const Label &other : labels_)
        if (other.segment == label.segment && other.offset > label.offset)
          end = std::min<uint64_t>(end, other.offset);
      module_.symbols[label.symbolIndex] =
          wfx::Symbol{label.name, label.segment, label.offset, uint32_t(end - label.offset)};
    }
    module_.relocs = relocs_;
    std::sort(module_.relocs.begin(), module_.relocs.end(),
              [](const wfx::Reloc &a, const wfx::Reloc &b) {
                return std::pair(a.segment, a.offset) < std::pair(b.segment, b.offset);
              });

    if (options_.lineTable) {
      module_.files = files_;
      std::optional<SourcePos> previous;
      for (size_t i = 0; i < code_.size(); ++i) {
        if (previous && *previous == code_[i].pos)
          continue;
        previous = code_[i].pos;
        module_.lines.push_back(wfx::LineRow{uint32_t(i * isa::kInstBytes), code_[i].pos.file,
                                             code_[i].pos.line, code_[i].pos.column});
      }
    }
  }

  std::string_view source_;
  const AsmOptions &options_;
  uint32_t line_ = 0;
  ErrorList errors_;

  wfx::Segment segment_ = wfx::Segment::Code;
  std::vector<CodeItem> code_;
  std::vector<uint64_t> words_;
  wfx::DataSegment constant_;
  wfx::DataSegment global_;
  std::vector<DataFixup> fixups_;
  std::vector<Label> labels_;
  std::map<std::string, size_t> labelIndex_;
  uint32_t exported_ = 0;
  std::vector<KernelState> kernels_;
  std::vector<wfx::Reloc> relocs_;

  std::vector<std::string> files_;
  std::optional<uint32_t> ownFileIndex_;
  std::map<uint32_t, uint32_t> fileNumbers_;
  std::optional<SourcePos> locPos_;

  wfx::Module module_;
};

} // namespace

Expected<wfx::Module, ErrorList> assemble(std::string_view source, const AsmOptions &options) {
  return Assembler(source, options).run();
}

Expected<uint64_t> assembleInst(std::string_view text, uint32_t pc) {
  std::string_view line = stripComment(text);
  Lexer lexer(line);
  lexer.skipSpace();
  size_t start = lexer.position();
  if (lowerCopy(lexer.identifier()) == ".word") {
    auto expr = detail::parseExpr(lexer);
    if (!expr)
      return std::move(expr).error();
    if (!expr->symbol.empty() || expr->part != Expr::Part::Whole || !lexer.atEnd())
      return errorAt(expr->column, ".word takes one 64-bit number", expr->text);
    return uint64_t(expr->value);
  }
  lexer.setPosition(start);
  uint32_t column = lexer.column();
  auto parsed = detail::parseInst(lexer.rest(), column);
  if (!parsed)
    return std::move(parsed).error();
  Inst inst = parsed->inst;
  for (const detail::PendingValue &pending : parsed->pending) {
    auto resolved =
        detail::resolve(inst.info().operands[pending.operand], pending, pc, detail::SymbolLookup());
    if (!resolved)
      return std::move(resolved).error();
    (pending.offset ? inst.offsets : inst.operands)[pending.operand] = resolved->value;
  }
  return encode(inst);
}

} // namespace wf::mc
