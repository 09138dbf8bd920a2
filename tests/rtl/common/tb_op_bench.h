// The shared shape of the execution-unit benches (ALU, IMUL, IDIV, FMA, DFMA, CVT, SFU): modifier
// combinations of an opcode, directed operand sets packed into lanes, and a fixed-latency bench
// that issues a directed list and then random operand sets kind by kind.
#pragma once

#include "common/tb_util.h"

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace wf::rtl::tb {

// Every combination of the modifiers of an opcode, applied to each of `bases` (instructions of
// that opcode): each valid value of an enumeration (from the ISA tables), all 2^width values of
// a flag or other plain field.
inline std::vector<Inst> mod_variants(std::vector<Inst> bases) {
  const auto &info = isa::opInfo(bases.front().op());
  for (unsigned m = 0; m < info.numMods; ++m) {
    const auto &mod = info.mods[m];
    const unsigned count = mod.enumId == isa::EnumId::None
                               ? 1u << mod.field.width
                               : isa::kEnums[static_cast<size_t>(mod.enumId)].count;
    std::vector<Inst> next;
    for (const Inst &base : bases) {
      for (unsigned v = 0; v < count; ++v)
        next.push_back(Inst(base).mod(mod.name, v));
    }
    bases = std::move(next);
  }
  return bases;
}

// Packs `count` operand sets into transactions of `lanes` lanes starting from `t`:
// set(t, lane, i) writes set i into one lane, and emit(t) takes each full transaction. A last,
// partial one is emitted too; its unused lanes keep the sets of the transaction before.
template <class Txn, class Set, class Emit>
void pack_lanes(Txn t, unsigned lanes, size_t count, Set set, Emit emit) {
  unsigned lane = 0;
  for (size_t i = 0; i < count; ++i) {
    set(t, lane, i);
    if (++lane == lanes) {
      emit(t);
      lane = 0;
    }
  }
  if (lane != 0)
    emit(t);
}

// A FixedLatencyBench for a unit whose transactions carry an instruction (`t.inst`) and one
// operand set per lane. It issues the directed transactions the constructor queued with
// add_directed(), then ceil(vectors / lanes) random transactions of each of `kinds` kinds
// (opcodes or functions), the kinds in turn. The latency is the ISA table's; operand sets are
// counted by opcode unless key() is overridden.
template <class Top, class Txn> class OpBench : public FixedLatencyBench<Top, Txn> {
public:
  OpBench(Top &top, std::string name, const SimOptions &opts, unsigned lanes, unsigned kinds)
      : FixedLatencyBench<Top, Txn>(top, std::move(name), opts.seed, lanes), kinds_(kinds),
        random_total_((opts.vectors + lanes - 1) / lanes * kinds) {}

protected:
  // The reference: fills in t's expected results from its instruction and operands.
  virtual void expect(Txn &t) const = 0;
  // The instruction and operands of one random transaction of kind `kind`.
  virtual Txn random_txn(unsigned kind) = 0;
  // Drives one lane's operands (inst_i is driven for all lanes).
  virtual void apply_lane(Top &top, const Txn &t, unsigned lane) = 0;
  // Compares one lane's outputs with t; reports and returns false on a mismatch.
  virtual bool check_lane(const Top &top, const Txn &t, unsigned lane) = 0;

  // Queues `count` directed operand sets in transactions like `t` (see pack_lanes).
  template <class Set> void add_directed(Txn t, size_t count, Set set) {
    pack_lanes(std::move(t), this->lanes_, count, set, [&](Txn full) {
      expect(full);
      directed_.push_back(std::move(full));
    });
  }

  // Directed sets for a unit with operands a, b, c and a predicate input pc (FMA, DFMA): the
  // (a, b) pairs of `edges`, all of them or every `stride`-th, with c and pc derived from the
  // pair.
  template <class T, size_t N>
  void add_edge_pairs(const Inst &inst, const T (&edges)[N], unsigned stride) {
    Txn t;
    t.inst = inst;
    add_directed(t, (N * N + stride - 1) / stride, [&](Txn &t, unsigned l, size_t p) {
      const size_t i = p * stride / N, j = p * stride % N;
      t.a[l] = edges[i];
      t.b[l] = edges[j];
      t.c[l] = edges[(i * 7 + j * 3) % N];
      t.pc[l] = (i + j) & 1;
    });
  }

  bool next(Txn &t) override {
    if (pos_ < directed_.size()) {
      t = directed_[pos_++];
      return true;
    }
    if (random_ >= random_total_)
      return false;
    t = random_txn(static_cast<unsigned>(random_++ % kinds_));
    expect(t);
    return true;
  }

  void apply(Top &top, const Txn &t) override {
    top.inst_i = t.inst.word();
    for (unsigned l = 0; l < this->lanes_; ++l)
      apply_lane(top, t, l);
  }

  // Checks every lane, so that each mismatching lane is reported.
  bool check(const Top &top, const Txn &t) override {
    bool ok = true;
    for (unsigned l = 0; l < this->lanes_; ++l) {
      if (!check_lane(top, t, l))
        ok = false;
    }
    return ok;
  }

  unsigned latency(const Txn &t) const override { return latency_of(t.inst.op()); }
  std::string key(const Txn &t) const override { return std::string(t.inst.name()); }

private:
  unsigned kinds_;
  uint64_t random_total_;
  std::vector<Txn> directed_;
  size_t pos_ = 0;
  uint64_t random_ = 0;
};

} // namespace wf::rtl::tb
