// The disassembler: words to text, and listings of whole modules.
#include "warpforge/asm/disassembler.h"

#include <fmt/format.h>
#include <map>
#include <set>

namespace wf::mc {

WordText disassembleWord(uint64_t word, const PrintOptions &options) {
  auto inst = decode(word);
  if (!inst)
    return WordText{fmt::format(".word 0x{:016x}", word), inst.error().message};
  return WordText{print(*inst, options), {}};
}

namespace {

uint64_t loadWord(const std::vector<uint8_t> &code, uint32_t offset) {
  uint64_t word = 0;
  for (unsigned b = 0; b < isa::kInstBytes; ++b)
    word |= uint64_t(code[offset + b]) << (8 * b);
  return word;
}

std::string relocText(const wfx::Module &module, const wfx::Reloc &reloc) {
  const char *part = reloc.kind == wfx::RelocKind::AbsLo32 ? "%lo" : "%hi";
  std::string base = reloc.symbol != wfx::kNoSymbol && reloc.symbol < module.symbols.size()
                         ? module.symbols[reloc.symbol].name
                         : fmt::format("<{}>", wfx::segmentName(reloc.target));
  if (reloc.addend == 0)
    return fmt::format("{}({})", part, base);
  return fmt::format("{}({}{}{})", part, base, reloc.addend < 0 ? "-" : "+",
                     reloc.addend < 0 ? -uint64_t(reloc.addend) : uint64_t(reloc.addend));
}

std::string kernelDirectives(const wfx::Kernel &kernel) {
  std::string out = fmt::format(".kernel {}\n", kernel.name);
  out += fmt::format("        .regs {}\n", kernel.regsPerThread);
  if (kernel.sharedBytes)
    out += fmt::format("        .shared {}\n", kernel.sharedBytes);
  if (kernel.localBytes)
    out += fmt::format("        .local {}\n", kernel.localBytes);
  for (const wfx::ParamEntry &param : kernel.params)
    out += fmt::format("        .param {}, {}        // offset {}\n", param.size, param.align,
                       param.offset);
  if (kernel.paramBytes)
    out += fmt::format("        .params {}\n", kernel.paramBytes);
  for (auto [name, dim] : {std::pair{"maxntid", kernel.maxntid}, {"reqntid", kernel.reqntid}})
    if (dim.specified())
      out += fmt::format("        .{} {}, {}, {}\n", name, dim.x, dim.y, dim.z);
  if (kernel.minCtasPerSm)
    out += fmt::format("        .minnctapersm {}\n", kernel.minCtasPerSm);
  return out;
}

class Lister {
public:
  Lister(const wfx::Module &module, const ListingOptions &options)
      : m_(module), options_(options) {}

  std::string run() {
    collectLabels();
    out_ += fmt::format("// .wfx module: {} kernel{}, {} bytes of code, {} of constants, {} of "
                        "global data\n",
                        m_.kernels.size(), m_.kernels.size() == 1 ? "" : "s", m_.code.size(),
                        m_.constant.size(), m_.global.size());
    listCode();
    listData(wfx::Segment::Const, m_.constant);
    listData(wfx::Segment::Global, m_.global);
    return std::move(out_);
  }

private:
  void collectLabels() {
    for (const wfx::Symbol &symbol : m_.symbols)
      labels_[symbol.segment].emplace(symbol.offset, symbol.name);
    for (const wfx::Kernel &kernel : m_.kernels)
      kernelAt_.emplace(kernel.entry, &kernel);
    for (const wfx::Reloc &reloc : m_.relocs)
      relocAt_[reloc.segment].emplace(reloc.offset, &reloc);
    // Branch targets without a symbol get local labels, so the listing reads like the source.
    auto &codeLabels = labels_[wfx::Segment::Code];
    for (uint32_t pc = 0; pc + isa::kInstBytes <= m_.code.size(); pc += isa::kInstBytes) {
      auto inst = decode(loadWord(m_.code, pc));
      if (!inst)
        continue;
      const isa::OpInfo &info = inst->info();
      for (unsigned i = 0; i < info.numOperands; ++i) {
        if (info.operands[i].kind != isa::OperandKind::REL)
          continue;
        uint32_t target = pc + isa::kInstBytes + inst->operands[i];
        if (target < m_.code.size() && target % isa::kInstBytes == 0 && !codeLabels.count(target))
          codeLabels.emplace(target, fmt::format(".L{:04x}", target));
      }
    }
  }

  std::string labelFor(uint32_t target) const {
    auto &codeLabels = labels_.at(wfx::Segment::Code);
    auto it = codeLabels.find(target);
    return it == codeLabels.end() ? std::string() : it->second;
  }

  void sourceLine(uint32_t pc) {
    if (!options_.sourceLines)
      return;
    const wfx::LineRow *row = m_.lineAt(pc);
    if (!row || row->codeOffset != pc)
      return;
    const std::string &file = m_.files[row->file];
    std::optional<std::string> text;
    if (options_.sourceText)
      text = options_.sourceText(file, row->line);
    out_ += fmt::format("        // {}:{}{}\n", file, row->line, text ? ": " + *text : "");
  }

  void listCode() {
    if (m_.code.empty())
      return;
    out_ += "\n.text\n";
    auto &codeLabels = labels_[wfx::Segment::Code];
    const auto &relocs = relocAt_[wfx::Segment::Code];
    for (uint32_t pc = 0; pc + isa::kInstBytes <= m_.code.size(); pc += isa::kInstBytes) {
      auto kernel = kernelAt_.find(pc);
      if (kernel != kernelAt_.end())
        out_ += "\n" + kernelDirectives(*kernel->second);
      for (auto [it, end] = codeLabels.equal_range(pc); it != end; ++it)
        if (kernel == kernelAt_.end() || it->second != kernel->second->name)
          out_ += it->second + ":\n";
      sourceLine(pc);

      PrintOptions print;
      print.pc = pc;
      print.labelFor = [this](uint32_t target) { return labelFor(target); };
      for (uint32_t byte = 0; byte < isa::kInstBytes; byte += 4)
        if (auto reloc = relocs.find(pc + byte); reloc != relocs.end())
          print.immText = relocText(m_, *reloc->second);
      uint64_t word = loadWord(m_.code, pc);
      WordText text = disassembleWord(word, print);

      std::string line = "        ";
      if (options_.addresses)
        line = fmt::format("  {:04x}  ", pc);
      if (options_.encodings)
        line += fmt::format("{:016x}  ", word);
      line += text.text;
      if (!text.valid())
        line += "  // " + text.note;
      out_ += line + "\n";
    }
  }

  void listData(wfx::Segment segment, const wfx::DataSegment &data) {
    if (data.size() == 0)
      return;
    out_ += fmt::format("\n.{}\n        .align {}\n",
                        segment == wfx::Segment::Const ? "const" : "global", data.align);
    const auto &labels = labels_[segment];
    const auto &relocs = relocAt_[segment];
    std::vector<uint8_t> row;
    uint32_t rowStart = 0;
    auto flush = [&]() {
      if (row.empty())
        return;
      std::string line = "        .byte ";
      for (size_t i = 0; i < row.size(); ++i)
        line += fmt::format("{}0x{:02x}", i ? ", " : "", row[i]);
      if (options_.addresses)
        line += fmt::format("  // {:04x}", rowStart);
      out_ += line + "\n";
      row.clear();
    };
    for (uint32_t offset = 0; offset < data.image.size(); ++offset) {
      bool labelHere = labels.count(offset) != 0;
      bool relocHere = relocs.count(offset) != 0;
      if (labelHere || relocHere || row.size() == 16)
        flush();
      for (auto [it, end] = labels.equal_range(offset); it != end; ++it)
        out_ += it->second + ":\n";
      if (relocHere)
        out_ += fmt::format("        // {:04x}: {} (patched at load)\n", offset,
                            relocText(m_, *relocs.at(offset)));
      if (row.empty())
        rowStart = offset;
      row.push_back(data.image[offset]);
    }
    flush();
    for (auto it = labels.lower_bound(uint32_t(data.image.size())); it != labels.end(); ++it)
      if (it->first == data.image.size())
        out_ += it->second + ":\n";
    if (data.zeroFill) {
      out_ += fmt::format("        .zero {}", data.zeroFill);
      out_ += options_.addresses ? fmt::format("  // {:04x}\n", data.image.size()) : "\n";
      for (auto it = labels.upper_bound(uint32_t(data.image.size())); it != labels.end(); ++it)
        out_ += fmt::format("        // {}: offset 0x{:x}\n", it->second, it->first);
      for (auto it = relocs.lower_bound(uint32_t(data.image.size())); it != relocs.end(); ++it)
        out_ += fmt::format("        // {:04x}: {} (patched at load)\n", it->first,
                            relocText(m_, *it->second));
    }
  }

  const wfx::Module &m_;
  const ListingOptions &options_;
  std::string out_;
  std::map<wfx::Segment, std::multimap<uint32_t, std::string>> labels_;
  std::map<uint32_t, const wfx::Kernel *> kernelAt_;
  std::map<wfx::Segment, std::map<uint32_t, const wfx::Reloc *>> relocAt_;
};

} // namespace

std::string listModule(const wfx::Module &module, const ListingOptions &options) {
  return Lister(module, options).run();
}

} // namespace wf::mc
