//===- inst_builder.h - Instruction words from the generated ISA tables -------===//
//
// Builds instruction words for tests and benchmarks without the assembler: operands and modifiers
// are set by their names in isa::kOps, so nothing here knows a field position or an opcode number.
//
//   Code code;
//   code.label("loop");
//   code << Inst(Opcode::IADD).rd(1).ra(2).rb(3).mod("invb", 1);
//   code << Inst(Opcode::BRA).guard(0).target("loop");
//   std::vector<uint64_t> words = code.finish();
//
//===----------------------------------------------------------------------===//

#pragma once

#include "warpforge/isa/isa.gen.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace wf::test {

class Inst {
public:
  explicit Inst(isa::Opcode op) : op_(op) {
    const isa::OpInfo &info = isa::opInfo(op);
    if (!info.valid)
      throw std::invalid_argument("invalid opcode");
    word_ = isa::setField(0, isa::FormatR::op, uint64_t(op));
    word_ = isa::setField(word_, isa::FormatR::pg, isa::kTruePred);
    // Modifiers default to the value printed as nothing (B32, RN, S32...), register operands to RZ
    // and predicate operands to PT.
    for (unsigned i = 0; i < info.numMods; ++i) {
      const isa::ModInfo &m = info.mods[i];
      if (m.enumId != isa::EnumId::None && isa::kEnums[size_t(m.enumId)].omit > 0)
        word_ = isa::setField(word_, m.field, uint64_t(isa::kEnums[size_t(m.enumId)].omit));
    }
    for (unsigned i = 0; i < info.numOperands; ++i) {
      const isa::OperandInfo &o = info.operands[i];
      switch (o.kind) {
      case isa::OperandKind::R:
      case isa::OperandKind::R64:
      case isa::OperandKind::ADDR:
      case isa::OperandKind::ADDR64:
        word_ = isa::setField(word_, o.field, isa::kZeroReg);
        break;
      case isa::OperandKind::P:
      case isa::OperandKind::PN:
        word_ = isa::setField(word_, o.field, isa::kTruePred);
        break;
      default:
        break;
      }
    }
  }

  /// Sets operand `name` (as named in isa.toml; "ra" also finds the address operand).
  Inst &set(std::string_view name, uint64_t value) {
    const isa::OperandInfo &o = operand(name);
    word_ = isa::setField(word_, o.field, value);
    return *this;
  }
  Inst &rd(unsigned r) { return set("rd", r); }
  Inst &ra(unsigned r) { return set("ra", r); }
  Inst &rb(unsigned r) { return set("rb", r); }
  Inst &rc(unsigned r) { return set("rc", r); }
  Inst &pd(unsigned p) { return set(hasOperand("pd") ? "pd" : "pco", p); }
  Inst &pa(unsigned p, bool neg = false) { return set("pa", p | (neg ? 16u : 0u)); }
  Inst &pb(unsigned p, bool neg = false) { return set("pb", p | (neg ? 16u : 0u)); }
  Inst &pc(unsigned p, bool neg = false) {
    return set(hasOperand("pc") ? "pc" : "pci", p | (neg ? 16u : 0u));
  }
  Inst &bar(unsigned b) { return set("b", b); }
  Inst &sr(isa::SReg s) { return set("sr", unsigned(s)); }
  Inst &lut(uint8_t v) { return set("lut", v); }
  /// The 32-bit immediate, or the offset of an address operand.
  Inst &imm(uint32_t v) {
    for (unsigned i = 0; i < info().numOperands; ++i) {
      const isa::OperandInfo &o = info().operands[i];
      if (o.imm.width) {
        word_ = isa::setField(word_, o.imm, v);
        return *this;
      }
    }
    return set("imm", v);
  }
  Inst &immF(float f) {
    uint32_t bits;
    static_assert(sizeof bits == sizeof f);
    __builtin_memcpy(&bits, &f, sizeof f);
    return imm(bits);
  }
  Inst &guard(unsigned p, bool neg = false) {
    word_ = isa::setField(word_, isa::FormatR::pg, p);
    word_ = isa::setField(word_, isa::FormatR::pgn, neg ? 1 : 0);
    return *this;
  }
  /// A modifier by name: a flag (0/1), an enum value index, or an enum value name.
  Inst &mod(std::string_view name, uint64_t value) {
    word_ = isa::setField(word_, modInfo(name).field, value);
    return *this;
  }
  Inst &mod(std::string_view name, std::string_view value) {
    const isa::ModInfo &m = modInfo(name);
    const isa::EnumInfo &e = isa::kEnums[size_t(m.enumId)];
    for (unsigned i = 0; i < e.count; ++i)
      if (e.values[i] == value)
        return mod(name, i);
    throw std::invalid_argument("no value " + std::string(value) + " for ." + std::string(name));
  }
  Inst &mod(std::string_view name, const char *value) { return mod(name, std::string_view(value)); }
  /// A pc-relative operand pointing at a label of the enclosing Code.
  Inst &target(std::string label) {
    target_ = std::move(label);
    return *this;
  }
  /// Raw bits, for illegal encodings.
  Inst &raw(isa::Field f, uint64_t value) {
    word_ = isa::setField(word_, f, value);
    return *this;
  }

  uint64_t word() const { return word_; }
  const std::string &targetLabel() const { return target_; }
  isa::Opcode opcode() const { return op_; }

private:
  const isa::OpInfo &info() const { return isa::opInfo(op_); }
  bool hasOperand(std::string_view name) const {
    for (unsigned i = 0; i < info().numOperands; ++i)
      if (info().operands[i].name == name)
        return true;
    return false;
  }
  const isa::OperandInfo &operand(std::string_view name) const {
    for (unsigned i = 0; i < info().numOperands; ++i)
      if (info().operands[i].name == name)
        return info().operands[i];
    if (name == "ra")
      return operand("addr");
    throw std::invalid_argument(std::string(info().name) + " has no operand " + std::string(name));
  }
  const isa::ModInfo &modInfo(std::string_view name) const {
    for (unsigned i = 0; i < info().numMods; ++i)
      if (info().mods[i].name == name)
        return info().mods[i];
    throw std::invalid_argument(std::string(info().name) + " has no modifier " + std::string(name));
  }

  isa::Opcode op_;
  uint64_t word_ = 0;
  std::string target_;
};

/// A code segment under construction, with labels for pc-relative operands.
class Code {
public:
  Code &operator<<(const Inst &inst) {
    insts_.push_back(inst);
    return *this;
  }
  Code &label(const std::string &name) {
    labels_[name] = uint32_t(insts_.size() * isa::kInstBytes);
    return *this;
  }
  /// Appends a raw word (data, or an illegal encoding).
  Code &word(uint64_t w) {
    raw_[insts_.size()] = w;
    insts_.push_back(Inst(isa::Opcode::NOP));
    return *this;
  }
  uint32_t pcOf(const std::string &name) const { return labels_.at(name); }
  uint32_t size() const { return uint32_t(insts_.size() * isa::kInstBytes); }

  std::vector<uint64_t> finish() const {
    std::vector<uint64_t> words;
    for (size_t i = 0; i < insts_.size(); ++i) {
      if (auto it = raw_.find(i); it != raw_.end()) {
        words.push_back(it->second);
        continue;
      }
      Inst inst = insts_[i];
      if (!inst.targetLabel().empty()) {
        auto it = labels_.find(inst.targetLabel());
        if (it == labels_.end())
          throw std::invalid_argument("undefined label " + inst.targetLabel());
        uint32_t next = uint32_t((i + 1) * isa::kInstBytes);
        inst.set("imm", uint32_t(it->second - next));
      }
      words.push_back(inst.word());
    }
    return words;
  }

private:
  std::vector<Inst> insts_;
  std::map<std::string, uint32_t> labels_;
  std::map<size_t, uint64_t> raw_;
};

} // namespace wf::test
