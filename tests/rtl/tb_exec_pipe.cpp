// wf_exec_pipe (the execution-unit wrapper of a pipelined unit) against the hls integer reference
// and the write-back rules of docs/microarchitecture.md: random instructions (through wf_decode)
// are dispatched pass by pass, passes of two instructions interleaved, with random bubbles and
// no new pass while the lane-share sub-passes go in. Every cycle the register-bank writes
// (bank, row, lane enables = the exec bits of the sub-pass's lanes, values), the predicate-file
// write (warp, predicate, lane mask, values) and the two scoreboard releases must be exactly the
// expected ones: sub-pass j of a pass dispatched in t writes in t + latency + j (the slot dispatch
// reserved), the last sub-pass of the last pass releases. The record's share and latency are
// checked against the ISA tables. ALU: LOP3 (three slots), IADD.X with carry in and out (a
// predicate source and destination), ISETP .S64/.U64 (register pairs in slots 0-1 and 2-3).
// BMU (WF_BENCH_BMU, lane share 4): POPC, BREV. FMA (WF_BENCH_FMA): FFMA with operand negations
// (three slots), FADD_I (the immediate as operand b), FSETP (predicate source and destination).
// IMUL (WF_BENCH_IMUL): every opcode, IMUL_I's immediate, IMULWIDE and IMADWIDE (a 64-bit result
// in two banks, IMADWIDE's addend pair in slots 2-3). CVT (WF_BENCH_CVT): F2F, F2I, I2F, I2I with
// random types, rounding and flags (64-bit sources in slots 0-1, 64-bit results in two banks).
// FP64 (WF_BENCH_FP64): DADD, DMUL, DFMA (three pairs in slots 0-5), DMNMX, DSETP. SFU
// (WF_BENCH_SFU): MUFU, every function, with and without .FTZ. A pair result is expected as two
// bank writes in the same cycle: the low word in the bank of rf_base + rd, the high word in the
// bank of rf_base + rd + 1, each at its own row.
#include "Vtb_exec_pipe_top.h"
#include "common/tb_util.h"
#include "warpforge/hls/convert.h"
#include "warpforge/hls/fp32.h"
#include "warpforge/hls/fp64.h"
#include "warpforge/hls/intops.h"
#include "warpforge/hls/sfu.h"

#include <cstdio>
#include <map>
#include <memory>
#include <vector>

namespace {

using wf::isa::Opcode;
using namespace wf::rtl::tb;
namespace isa = wf::isa;
namespace hls = wf::hls;

constexpr unsigned kLanes = WF_LANES;
constexpr unsigned kShare = WF_SHARE;
constexpr unsigned kBanks = 4;
constexpr unsigned kWarpRegs = 64;
constexpr unsigned kPasses = 32 / kLanes;
constexpr unsigned kUnitLanes = kLanes / kShare;
constexpr unsigned kRowBits = 6; // log2(kWarpRegs / kBanks * kPasses) for 8 lanes
static_assert(kWarpRegs / kBanks * kPasses == 1u << kRowBits, "bench sizes");
constexpr unsigned kPt = isa::kTruePred;

struct Instr {
  Inst inst{Opcode::NOP};
  unsigned warp = 0, base = 0, sbReg = 0, sbPred = 0;
  unsigned rd = 0, pd = kPt;
  bool rdWe = false, pdWe = false;
  uint32_t exec = 0;
  uint32_t pred[3] = {};
  uint32_t opnd[6][32] = {}; // per slot, per warp lane
  unsigned nextPass = 0;
};

struct Write { // expected in one cycle
  bool rf[kBanks] = {};
  unsigned row[kBanks] = {};
  uint32_t lanes[kBanks] = {};   // bank lanes enabled
  uint32_t data[kBanks][kLanes] = {};
  bool pf = false;
  unsigned warp = 0, pd = 0;
  uint32_t pmask = 0, pdata = 0; // whole-warp lanes
  bool relReg = false, relPred = false;
  unsigned sbReg = 0, sbPred = 0;
};

class Bench {
public:
  Bench(Vtb_exec_pipe_top &top, uint64_t seed) : top_(top), rng_(seed) {}

  Instr make() {
    Instr in;
    in.warp = rng_.below(4);
    in.base = rng_.below(kWarpRegs - 36);
    in.sbReg = rng_.below(8);
    in.sbPred = rng_.below(8);
    in.exec = rng_.chance(20) ? 0xffffffffu : rng_.u32();
    for (auto &p : in.pred)
      p = rng_.u32();
    for (auto &slot : in.opnd)
      for (auto &v : slot)
        v = rng_.int32();
    in.rd = rng_.below(32);
    in.pd = rng_.below(7);
#if defined(WF_BENCH_BMU)
    in.inst = Inst(rng_.chance(50) ? Opcode::POPC : Opcode::BREV);
    in.inst.operand("rd", in.rd).operand("ra", rng_.below(32));
    in.rdWe = true;
#elif defined(WF_BENCH_FMA)
    switch (rng_.below(3)) {
    case 0:
      in.inst = Inst(Opcode::FFMA);
      in.inst.operand("rd", in.rd).operand("ra", rng_.below(32)).operand("rb", rng_.below(32))
          .operand("rc", rng_.below(32)).mod("nega", rng_.below(2)).mod("negb", rng_.below(2))
          .mod("negc", rng_.below(2));
      in.rdWe = true;
      break;
    case 1:
      in.inst = Inst(Opcode::FADD_I);
      in.inst.operand("rd", in.rd).operand("ra", rng_.below(32)).operand("imm", rng_.int32());
      in.rdWe = true;
      break;
    default:
      in.inst = Inst(Opcode::FSETP);
      in.inst.operand("pd", in.pd).operand("ra", rng_.below(32)).operand("rb", rng_.below(32))
          .operand("pc", rng_.below(32)).mod("cmp", rng_.below(14)).mod("bop", rng_.below(3));
      in.pdWe = true;
      break;
    }
#elif defined(WF_BENCH_IMUL)
    static constexpr Opcode kOps[] = {Opcode::IMUL,     Opcode::IMUL_I, Opcode::IMULHI,
                                      Opcode::IMULWIDE, Opcode::IMAD,   Opcode::IMADHI,
                                      Opcode::IMADWIDE};
    in.inst = Inst(kOps[rng_.below(7)]);
    in.rd = 2 * rng_.below(16);
    in.inst.operand("rd", in.rd).operand("ra", rng_.below(32));
    if (in.inst.op() == Opcode::IMUL_I)
      in.inst.operand("imm", rng_.int32());
    else
      in.inst.operand("rb", rng_.below(32));
    if (in.inst.op() == Opcode::IMAD || in.inst.op() == Opcode::IMADHI)
      in.inst.operand("rc", rng_.below(32));
    if (in.inst.op() == Opcode::IMADWIDE)
      in.inst.operand("rc", 2 * rng_.below(16));
    if (in.inst.has_mod("ty"))
      in.inst.mod("ty", rng_.below(2));
    in.rdWe = true;
#elif defined(WF_BENCH_CVT)
    static constexpr Opcode kOps[] = {Opcode::F2F, Opcode::F2I, Opcode::I2F, Opcode::I2I};
    in.inst = Inst(kOps[rng_.below(4)]);
    in.rd = 2 * rng_.below(16);
    in.inst.operand("rd", in.rd).operand("ra", 2 * rng_.below(16));
    switch (in.inst.op()) {
    case Opcode::F2F:
      in.inst.mod("dst", rng_.below(4)).mod("src", rng_.below(4)).mod("rnd", rng_.below(8))
          .mod("ftz", rng_.below(2)).mod("sat", rng_.below(2));
      break;
    case Opcode::F2I:
      in.inst.mod("dst", rng_.below(8)).mod("src", rng_.below(4)).mod("rnd", rng_.below(4))
          .mod("ftz", rng_.below(2));
      break;
    case Opcode::I2F:
      in.inst.mod("dst", rng_.below(4)).mod("src", rng_.below(8)).mod("rnd", rng_.below(4));
      break;
    default:
      in.inst.mod("dst", rng_.below(8)).mod("src", rng_.below(8)).mod("sat", rng_.below(2));
      break;
    }
    in.rdWe = true;
#elif defined(WF_BENCH_FP64)
    static constexpr Opcode kOps[] = {Opcode::DADD, Opcode::DMUL, Opcode::DFMA, Opcode::DMNMX,
                                      Opcode::DSETP};
    in.inst = Inst(kOps[rng_.below(5)]);
    in.rd = 2 * rng_.below(16);
    in.inst.operand("ra", 2 * rng_.below(16)).operand("rb", 2 * rng_.below(16));
    switch (in.inst.op()) {
    case Opcode::DADD:
    case Opcode::DMUL:
      in.inst.mod("rnd", rng_.below(4)).mod("nega", rng_.below(2)).mod("negb", rng_.below(2))
          .mod("absa", rng_.below(2)).mod("absb", rng_.below(2));
      break;
    case Opcode::DFMA:
      in.inst.operand("rc", 2 * rng_.below(16)).mod("rnd", rng_.below(4))
          .mod("nega", rng_.below(2)).mod("negb", rng_.below(2)).mod("negc", rng_.below(2));
      break;
    case Opcode::DMNMX:
      in.inst.mod("fn", rng_.below(2)).mod("nan", rng_.below(2));
      break;
    default:
      in.inst.operand("pd", in.pd).operand("pc", rng_.below(32)).mod("cmp", rng_.below(14))
          .mod("bop", rng_.below(3));
      in.pdWe = true;
      break;
    }
    if (!in.pdWe) {
      in.inst.operand("rd", in.rd);
      in.rdWe = true;
    }
#elif defined(WF_BENCH_SFU)
    in.inst = Inst(Opcode::MUFU);
    in.inst.operand("rd", in.rd).operand("ra", rng_.below(32)).mod("fn", rng_.below(8))
        .mod("ftz", rng_.below(2));
    in.rdWe = true;
#else
    switch (rng_.below(3)) {
    case 0:
      in.inst = Inst(Opcode::LOP3);
      in.inst.operand("rd", in.rd).operand("ra", rng_.below(32)).operand("rb", rng_.below(32))
          .operand("rc", rng_.below(32)).operand("lut", rng_.below(256));
      in.rdWe = true;
      break;
    case 1:
      in.inst = Inst(Opcode::IADD);
      in.inst.operand("rd", in.rd).operand("ra", rng_.below(32)).operand("rb", rng_.below(32))
          .operand("pco", in.pd).operand("pci", rng_.below(32)) // PN: number and negation
          .mod("x", rng_.below(2)).mod("invb", rng_.below(2));
      in.rdWe = true;
      in.pdWe = true;
      break;
    default:
      in.inst = Inst(Opcode::ISETP);
      in.inst.operand("pd", in.pd).operand("ra", 2 * rng_.below(16)).operand("rb", 2 * rng_.below(16))
          .operand("pc", rng_.below(32)).mod("cmp", rng_.below(6)).mod("ty", 2 + rng_.below(2))
          .mod("bop", rng_.below(3));
      in.pdWe = true;
      break;
    }
#endif
    return in;
  }

  // Lane `lane` of the warp: the result (the high word: a pair's second register) and the
  // predicate result.
  void reference(const Instr &in, unsigned lane, uint64_t &res, bool &pred) const {
    const uint32_t a = in.opnd[0][lane];
    auto pair = [&](unsigned slot) {
      return (uint64_t(in.opnd[slot + 1][lane]) << 32) | in.opnd[slot][lane];
    };
    auto signOps = [&](uint64_t x, const char *neg, const char *abs) {
      if (abs && in.inst.get_mod(abs))
        x &= ~(1ull << 63);
      return in.inst.get_mod(neg) ? x ^ (1ull << 63) : x;
    };
    auto boolOp = [&](bool r) {
      const unsigned pcField = unsigned(in.inst.get_operand("pc"));
      const bool pc = (((in.pred[0] >> lane) & 1) != 0) != ((pcField >> 4) & 1);
      const unsigned bop = unsigned(in.inst.get_mod("bop"));
      return bop == 0 ? (r && pc) : bop == 1 ? (r || pc) : (r != pc);
    };
    const bool isSigned = in.inst.has_mod("ty") && in.inst.get_mod("ty") == 0;
    const uint32_t b = in.opnd[1][lane], c = in.opnd[2][lane];
    const auto rnd = [&] { return static_cast<hls::RoundMode>(in.inst.get_mod("rnd")); };
    res = 0;
    pred = false;
    switch (in.inst.op()) {
    // IMUL (hls/intops.h; the multiply-adds add in the ISA's width)
    case Opcode::IMUL: res = hls::mulLo32(a, b); break;
    case Opcode::IMUL_I: res = hls::mulLo32(a, uint32_t(in.inst.get_operand("imm"))); break;
    case Opcode::IMULHI: res = hls::mulHi32(a, b, isSigned); break;
    case Opcode::IMULWIDE: res = hls::mulWide32(a, b, isSigned); break;
    case Opcode::IMAD: res = hls::addc32(hls::mulLo32(a, b), c, false).value; break;
    case Opcode::IMADHI: res = hls::addc32(hls::mulHi32(a, b, isSigned), c, false).value; break;
    case Opcode::IMADWIDE: res = hls::addc64(hls::mulWide32(a, b, isSigned), pair(2), false).value; break;
    // CVT (hls/convert.h): the source bits above its type are ignored
    case Opcode::F2F:
    case Opcode::F2I: {
      const auto src = static_cast<hls::FloatType>(in.inst.get_mod("src"));
      uint64_t x = src == hls::FloatType::F64 ? pair(0) : a;
      if (src == hls::FloatType::F16 || src == hls::FloatType::BF16)
        x &= 0xffff;
      if (in.inst.op() == Opcode::F2F) {
        const unsigned r = unsigned(in.inst.get_mod("rnd"));
        res = hls::cvtFloatToFloat(x, src, static_cast<hls::FloatType>(in.inst.get_mod("dst")),
                                   static_cast<hls::RoundMode>(r & 3), r >= 4, in.inst.get_mod("ftz"),
                                   in.inst.get_mod("sat"));
      } else {
        res = hls::cvtFloatToInt(x, src, static_cast<hls::IntType>(in.inst.get_mod("dst")), rnd(),
                                 in.inst.get_mod("ftz"));
      }
      break;
    }
    case Opcode::I2F:
    case Opcode::I2I: {
      const auto src = static_cast<hls::IntType>(in.inst.get_mod("src"));
      const uint64_t x = hls::intTypeBits(src) == 64 ? pair(0) : a;
      res = in.inst.op() == Opcode::I2F
                ? hls::cvtIntToFloat(x, src, static_cast<hls::FloatType>(in.inst.get_mod("dst")), rnd())
                : hls::cvtIntToInt(x, src, static_cast<hls::IntType>(in.inst.get_mod("dst")),
                                   in.inst.get_mod("sat"));
      break;
    }
    // FP64 (hls/fp64.h): pairs in slots 0-1, 2-3, 4-5
    case Opcode::DADD:
      res = hls::fadd64(signOps(pair(0), "nega", "absa"), signOps(pair(2), "negb", "absb"), rnd());
      break;
    case Opcode::DMUL:
      res = hls::fmul64(signOps(pair(0), "nega", "absa"), signOps(pair(2), "negb", "absb"), rnd());
      break;
    case Opcode::DFMA:
      res = hls::ffma64(signOps(pair(0), "nega", nullptr), signOps(pair(2), "negb", nullptr),
                        signOps(pair(4), "negc", nullptr), rnd());
      break;
    case Opcode::DMNMX: {
      const bool nan = in.inst.get_mod("nan");
      res = in.inst.get_mod("fn") ? hls::fmax64(pair(0), pair(2), nan) : hls::fmin64(pair(0), pair(2), nan);
      break;
    }
    case Opcode::DSETP:
      pred = boolOp(hls::fcmp64(pair(0), pair(2), static_cast<hls::FCmp>(in.inst.get_mod("cmp"))));
      break;
    // SFU (hls/sfu.h)
    case Opcode::MUFU:
      res = hls::sfu32(static_cast<hls::SfuOp>(in.inst.get_mod("fn")), a, in.inst.get_mod("ftz"));
      break;
    case Opcode::POPC: res = hls::popc32(a); break;
    case Opcode::FFMA: {
      auto neg = [&](const char *m, uint32_t x) { return in.inst.get_mod(m) ? x ^ 0x80000000u : x; };
      res = hls::ffma32(neg("nega", a), neg("negb", in.opnd[1][lane]), neg("negc", in.opnd[2][lane]),
                        hls::RoundMode::RN, false);
      break;
    }
    case Opcode::FADD_I:
      res = hls::fadd32(a, uint32_t(in.inst.get_operand("imm")), hls::RoundMode::RN, false);
      break;
    case Opcode::FSETP: {
      const unsigned pcField = unsigned(in.inst.get_operand("pc"));
      const bool pc = (((in.pred[0] >> lane) & 1) != 0) != ((pcField >> 4) & 1);
      const unsigned bop = unsigned(in.inst.get_mod("bop"));
      const bool r = hls::fcmp32(a, in.opnd[1][lane], static_cast<hls::FCmp>(in.inst.get_mod("cmp")),
                                 false);
      pred = bop == 0 ? (r && pc) : bop == 1 ? (r || pc) : (r != pc);
      break;
    }
    case Opcode::BREV: res = hls::brev32(a); break;
    case Opcode::LOP3:
      res = hls::lop3(a, in.opnd[1][lane], in.opnd[2][lane],
                      static_cast<uint8_t>(in.inst.get_operand("lut")));
      break;
    case Opcode::IADD: {
      const unsigned pci = unsigned(in.inst.get_operand("pci"));
      const bool pc = (((in.pred[0] >> lane) & 1) != 0) != ((pci >> 4) & 1);
      const bool invb = in.inst.get_mod("invb"), x = in.inst.get_mod("x");
      const uint32_t b = in.opnd[1][lane];
      const hls::CarryResult32 r = hls::addc32(a, invb ? ~b : b, x ? pc : invb);
      res = r.value;
      pred = r.carry;
      break;
    }
    case Opcode::ISETP: {
      const unsigned pcField = unsigned(in.inst.get_operand("pc"));
      const bool pc = (((in.pred[0] >> lane) & 1) != 0) != ((pcField >> 4) & 1);
      const unsigned ty = unsigned(in.inst.get_mod("ty"));
      const unsigned bop = unsigned(in.inst.get_mod("bop"));
      const uint64_t x = (uint64_t(in.opnd[1][lane]) << 32) | a;
      const uint64_t y = (uint64_t(in.opnd[3][lane]) << 32) | in.opnd[2][lane];
      const bool r = hls::icmp64(x, y, static_cast<hls::ICmp>(in.inst.get_mod("cmp")), ty == 2);
      pred = bop == 0 ? (r && pc) : bop == 1 ? (r || pc) : (r != pc);
      break;
    }
    default: break;
    }
  }

  // Drives pass `in.nextPass` of `in` this cycle and records what it must write.
  void dispatch(Instr &in) {
    const unsigned pass = in.nextPass++;
    const bool last = pass == kPasses - 1;
    uint64_t word = isa::setField(in.inst.word(), isa::FormatR::pg, kPt);
    top_.valid_i = 1;
    top_.word_i = word;
    top_.warp_i = in.warp;
    top_.rf_base_i = in.base;
    top_.pass_i = pass;
    top_.last_i = last;
    top_.exec_i = in.exec;
    top_.sb_reg_i = in.sbReg;
    top_.sb_pred_i = in.sbPred;
    for (unsigned k = 0; k < 3; ++k)
      set_bits(top_.pred_i, 32 * k, 32, in.pred[k]);
    for (unsigned s = 0; s < 6; ++s)
      for (unsigned l = 0; l < kLanes; ++l)
        set_bits(top_.opnd_i, 32 * (s * kLanes + l), 32, in.opnd[s][pass * kLanes + l]);
    const unsigned lat = isa::opInfo(in.inst.op()).latency;
    const unsigned phys = in.base + in.rd;
    // Registers rd names (operand 0 of every opcode that writes one): 2 for a pair.
    const unsigned words = in.rdWe ? isa::operandRegs(isa::opInfo(in.inst.op()), 0, in.inst.word()) : 0;
    for (unsigned j = 0; j < kShare; ++j) {
      Write &w = expect_[cycle_ + lat + j];
      if (w.pf || w.relReg || w.relPred)
        fail("bench: two writes expected in one cycle");
      for (unsigned k = 0; k < words; ++k) {
        const unsigned bank = (phys + k) % kBanks;
        if (w.rf[bank])
          fail("bench: two writes expected in one cycle");
        w.rf[bank] = true;
        w.row[bank] = ((phys + k) / kBanks) * kPasses + pass;
      }
      w.pf = in.pdWe;
      w.warp = in.warp;
      w.pd = in.pd;
      for (unsigned u = 0; u < kUnitLanes; ++u) {
        const unsigned bl = j * kUnitLanes + u, lane = pass * kLanes + bl;
        uint64_t res;
        bool p;
        reference(in, lane, res, p);
        const bool on = (in.exec >> lane) & 1;
        for (unsigned k = 0; k < words && on; ++k) {
          const unsigned bank = (phys + k) % kBanks;
          w.lanes[bank] |= 1u << bl;
          w.data[bank][bl] = uint32_t(res >> (32 * k));
        }
        if (in.pdWe && on) {
          w.pmask |= 1u << lane;
          w.pdata |= uint32_t(p) << lane;
        }
      }
      const bool release = last && j == kShare - 1;
      w.relReg = release && in.rdWe;
      w.relPred = release && in.pdWe;
      w.sbReg = in.sbReg;
      w.sbPred = in.sbPred;
    }
  }

  void check() {
    Write w{};
    if (auto it = expect_.find(cycle_); it != expect_.end()) {
      w = it->second;
      expect_.erase(it);
    }
    for (unsigned b = 0; b < kBanks; ++b) {
      const bool we = get_bits(top_.rf_we_o, b, 1);
      if (we != w.rf[b]) {
        fail("bank write enable");
        continue;
      }
      if (!we)
        continue;
      if (get_bits(top_.rf_wrow_o, b * kRowBits, kRowBits) != w.row[b])
        fail("bank row");
      const uint32_t lanes = uint32_t(get_bits(top_.rf_wlane_o, b * kLanes, kLanes));
      if (lanes != w.lanes[b])
        fail("lane enables");
      for (unsigned l = 0; l < kLanes; ++l)
        if (((w.lanes[b] >> l) & 1) &&
            get_bits(top_.rf_wdata_o, 32 * (b * kLanes + l), 32) != w.data[b][l])
          fail("register value");
      ++rows_;
    }
    if (bool(top_.pf_we_o) != w.pf)
      fail("predicate write enable");
    else if (w.pf) {
      if (top_.pf_warp_o != w.warp || top_.pf_pred_o != w.pd || top_.pf_mask_o != w.pmask ||
          (top_.pf_data_o & w.pmask) != w.pdata)
        fail("predicate write");
      ++predWrites_;
    }
    if (bool(top_.rel_reg_valid_o) != w.relReg ||
        (w.relReg && (top_.rel_reg_warp_o != w.warp || top_.rel_reg_entry_o != w.sbReg)))
      fail("register release");
    if (bool(top_.rel_pred_valid_o) != w.relPred ||
        (w.relPred && (top_.rel_pred_warp_o != w.warp || top_.rel_pred_entry_o != w.sbPred)))
      fail("predicate release");
    releases_ += w.relReg + w.relPred;
  }

  void tick() {
    top_.clk_i = 1;
    top_.eval();
    top_.clk_i = 0;
    top_.eval();
    ++cycle_;
  }

  int run(uint64_t instructions) {
    top_.rst_ni = 0;
    top_.clk_i = 0;
    top_.valid_i = 0;
    top_.eval();
    tick();
    top_.rst_ni = 1;
    top_.eval();
    std::vector<Instr> open;
    uint64_t made = 0;
    unsigned busy = 0; // cycles until the unit takes the next pass (lane share)
    while (made < instructions || !open.empty() || !expect_.empty()) {
      top_.valid_i = 0;
      while (open.size() < 2 && made < instructions) {
        open.push_back(make());
        ++made;
      }
      top_.eval();
      if (bool(top_.busy_o) != (busy > 0))
        fail("busy (lane-share sub-passes going in)");
      if (busy == 0 && !open.empty() && rng_.chance(70)) {
        const unsigned k = rng_.below(unsigned(open.size()));
        top_.word_i = isa::setField(open[k].inst.word(), isa::FormatR::pg, kPt);
        top_.eval();
        if (top_.share_o != kShare || top_.lat_o != isa::opInfo(open[k].inst.op()).latency)
          fail("record's share or latency");
        dispatch(open[k]);
        if (open[k].nextPass == kPasses)
          open.erase(open.begin() + k);
        busy = kShare;
      }
      top_.eval();
      check();
      tick();
      if (busy > 0)
        --busy;
      if (cycle_ > 1000000)
        return fail("bench did not drain"), 1;
    }
    std::printf("tb_exec_pipe: %llu instructions, %llu row writes, %llu predicate writes, %llu "
                "releases, %llu cycles, %llu mismatches\n",
                (unsigned long long)instructions, (unsigned long long)rows_,
                (unsigned long long)predWrites_, (unsigned long long)releases_,
                (unsigned long long)cycle_, (unsigned long long)errors_);
    return errors_ == 0 && rows_ + predWrites_ > 0 ? 0 : 1;
  }

private:
  void fail(const char *what) {
    if (errors_++ < 10)
      std::fprintf(stderr, "tb_exec_pipe: cycle %llu: %s\n", (unsigned long long)cycle_, what);
  }

  Vtb_exec_pipe_top &top_;
  Rng rng_;
  uint64_t cycle_ = 0;
  std::map<uint64_t, Write> expect_;
  uint64_t errors_ = 0, rows_ = 0, predWrites_ = 0, releases_ = 0;
};

} // namespace

int main(int argc, char **argv) {
  const auto opts = wf::rtl::SimOptions::parse(argc, argv, "wf_exec_pipe");
  const std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
  ctx->commandArgs(argc, argv);
  const std::unique_ptr<Vtb_exec_pipe_top> top{new Vtb_exec_pipe_top{ctx.get(), "TOP"}};
  Bench bench(*top, opts.seed);
  const int rc = bench.run(opts.vectors);
  top->final();
  return rc;
}
