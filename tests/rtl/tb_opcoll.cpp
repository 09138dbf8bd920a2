// wf_opcoll (operand collectors, banked register file, predicate file; through tb_opcoll_top,
// which packs wf_core_pkg's issue record from flat ports) against
// hls::OperandCollectors (hls/operand_collector.h), cycle by cycle, plus the data it delivers.
//
// After an initial phase that writes every register-file row and every predicate, each cycle:
// random instructions issue into free collectors (register groups of 1, 2 and 4 in the slot
// layouts of real opcodes, RZ operands, guards and predicate sources; registers from a narrow
// range now and then, so that bank conflicts within and between collectors are frequent), random
// complete passes dispatch, and random register-file rows (every bank's write port) and
// predicates are written. Compared every cycle: free collectors, the collector each issue slot
// complete passes, pass index, warp, the age order, every bank's read (valid, row) and the
// write-after-read pending roles. At every dispatch: each of the six slot buffers (the row the
// model's grant read, as the reference file held it in the grant cycle; 0 for RZ and unused
// slots), the exec mask (active mask and guard) and the three predicate sources, as the
// reference predicate file held them in the collector's first cycle. --vectors cycles after the
// initial phase.
#include "Vtb_opcoll_top.h"
#include "common/tb_util.h"
#include "warpforge/hls/operand_collector.h"

#include <bit>
#include <vector>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kColl = WF_COLLECTORS;
constexpr unsigned kBanks = WF_BANKS;
constexpr unsigned kLanes = WF_LANES;
constexpr unsigned kWarps = WF_WARPS;
constexpr unsigned kWarpRegs = WF_WARP_REGS;
constexpr unsigned kIssue = WF_ISSUE_WIDTH;
constexpr unsigned kPasses = 32 / kLanes;
constexpr unsigned kSlots = hls::kRfSlots;
constexpr unsigned kRoles = hls::kOcRoles;
constexpr unsigned kRows = kWarpRegs / kBanks * kPasses;
constexpr unsigned kRowBits = std::bit_width(kRows - 1);
constexpr unsigned kPhysBits = std::bit_width(kWarpRegs - 1);
constexpr unsigned kCollBits = kColl > 1 ? std::bit_width(kColl - 1) : 1;
constexpr unsigned kWarpBits = kWarps > 1 ? std::bit_width(kWarps - 1) : 1;
constexpr unsigned kPassBits = kPasses > 1 ? std::bit_width(kPasses - 1) : 1;
constexpr unsigned kRegsPerWarp = kWarpRegs / kWarps;
constexpr unsigned kPT = 15;
constexpr uint32_t kLaneMask = kLanes >= 32 ? ~0u : (1u << kLanes) - 1;

// Slot layouts of real opcodes: counts of ra, rb, rc, rd (store data).
constexpr std::array<std::array<uint8_t, kRoles>, 10> kShapes{{
    {1, 1, 1, 0}, // FFMA, IADD3
    {1, 1, 0, 0}, // FADD
    {1, 0, 0, 0}, // MOV, MUFU
    {0, 0, 0, 0}, // S2R, BRA
    {2, 2, 2, 0}, // DFMA
    {2, 0, 0, 4}, // STG.128
    {1, 0, 0, 2}, // STS.64
    {2, 1, 1, 0}, // ATOM CAS (64-bit address)
    {4, 2, 0, 0}, // TEX 3D
    {1, 1, 2, 0}, // IMADWIDE
}};

struct Instr {
  hls::OcIssue oc;
  uint32_t mask = 0;
  uint8_t pg = kPT, pgn = 0;
  std::array<uint8_t, 3> pu{kPT, kPT, kPT};
  std::array<bool, 3> puRe{};
  uint8_t coll = 0; ///< the lowest free collector (the issue stage's choice)
  uint16_t id = 0;
};

class OpcollBench : public SimExtension {
public:
  OpcollBench(Vtb_opcoll_top &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors), model_(kColl, kBanks, kPasses),
        rf_(kBanks * kRows * kLanes), pf_(kWarps * 16) {
    init_cycles_ = std::max<unsigned>(kRows, kWarps * 15);
  }

  void on_reset() override {
    set_bits(top_.issue_valid_i, 0, kIssue, 0);
    set_bits(top_.dispatch_i, 0, kColl, 0);
    set_bits(top_.rf_we_i, 0, kBanks, 0);
    top_.pf_we_i = 0;
  }

  void drive(uint64_t cycle) override {
    const bool init = cycle < init_cycles_;
    // Issue: as many slots as there are free collectors, at random.
    const unsigned nfree = static_cast<unsigned>(std::popcount(model_.freeMask()));
    for (unsigned k = 0; k < kIssue; ++k) {
      issue_[k] = Instr{};
      if (!init && k < nfree && rng_.chance(k == 0 ? 70 : 40))
        issue_[k] = random_instr(k);
      drive_issue(k, issue_[k]);
    }
    // Dispatch: complete passes, at random.
    dispatch_ = 0;
    for (unsigned c = 0; c < kColl; ++c)
      if (model_.passReady(c) && rng_.chance(60))
        dispatch_ |= 1u << c;
    set_bits(top_.dispatch_i, 0, kColl, dispatch_);
    // The grants this cycle (a copy of the model steps), so that no write hits a row being read:
    // the core never writes and reads one row in a cycle.
    std::array<hls::OcIssue, hls::kMaxOcIssue> is{};
    for (unsigned k = 0; k < kIssue; ++k)
      is[k] = issue_[k].oc;
    hls::OperandCollectors peek = model_;
    const hls::OcCycle g = peek.step(is, dispatch_);
    // Register-file writes: every row once during the initial phase, then at random.
    for (unsigned b = 0; b < kBanks; ++b) {
      wr_[b] = Write{};
      if (init) {
        if (cycle < kRows)
          wr_[b] = Write{true, static_cast<unsigned>(cycle), kLaneMask};
      } else if (rng_.chance(30)) {
        wr_[b] = Write{true, rng_.below(kRows), rng_.u32() & kLaneMask};
        if (((g.grant.bankValid >> b) & 1) && g.row[b] == wr_[b].row)
          wr_[b].valid = false;
      }
      for (unsigned l = 0; l < kLanes; ++l)
        wr_[b].data[l] = rng_.u32();
      set_bits(top_.rf_we_i, b, 1, wr_[b].valid);
      set_bits(top_.rf_wrow_i, b * kRowBits, kRowBits, wr_[b].row);
      set_bits(top_.rf_wlane_i, b * kLanes, kLanes, wr_[b].lanes);
      for (unsigned l = 0; l < kLanes; ++l)
        set_lane32(top_.rf_wdata_i, b * kLanes + l, wr_[b].data[l]);
    }
    // Predicate writes: every predicate once during the initial phase, then at random.
    pw_ = PredWrite{};
    if (init) {
      if (cycle < kWarps * 15)
        pw_ = PredWrite{true, static_cast<unsigned>(cycle / 15), static_cast<unsigned>(cycle % 15),
                        ~0u, rng_.u32()};
    } else if (rng_.chance(40)) {
      pw_ = PredWrite{true, rng_.below(kWarps), rng_.below(16), rng_.u32(), rng_.u32()};
    }
    top_.pf_we_i = pw_.valid;
    top_.pf_warp_i = pw_.warp;
    top_.pf_pred_i = pw_.pred;
    top_.pf_mask_i = pw_.mask;
    top_.pf_data_i = pw_.data;
  }

  void sample(uint64_t cycle) override {
    // State outputs (the start of the cycle).
    const uint32_t freeMask = model_.freeMask();
    expect("free collectors", get_bits(top_.coll_free_o, 0, kColl), freeMask, cycle);
    for (unsigned c = 0; c < kColl; ++c) {
      expect("pass complete", get_bits(top_.coll_ready_o, c, 1), model_.passReady(c), cycle, c);
      if (model_.valid(c)) {
        expect("pass", get_bits(top_.coll_pass_o, c * kPassBits, kPassBits), model_.pass(c),
               cycle, c);
        expect("warp", get_bits(top_.coll_warp_o, c * kWarpBits, kWarpBits), model_.warp(c),
               cycle, c);
        expect("last pass", get_bits(top_.coll_last_o, c, 1), model_.pass(c) + 1 == kPasses,
               cycle, c);
      }
      const hls::OcPending p = model_.pending(c);
      expect("pending valid", get_bits(top_.pend_valid_o, c, 1), p.valid, cycle, c);
      for (unsigned g = 0; g < kRoles; ++g)
        expect("pending role", get_bits(top_.pend_role_o, c * kRoles + g, 1), p.role[g], cycle,
               c * 10 + g);
      if (p.valid) {
        expect("pending warp", get_bits(top_.pend_warp_o, c * kWarpBits, kWarpBits), p.warp,
               cycle, c);
        for (unsigned g = 0; g < kRoles; ++g) {
          expect("pending reg", get_bits(top_.pend_reg_o, (c * kRoles + g) * 8, 8),
                 inst_[c].oc.roles[g].reg, cycle, c);
          expect("pending count", get_bits(top_.pend_cnt_o, (c * kRoles + g) * 3, 3),
                 inst_[c].oc.roles[g].count, cycle, c);
        }
      }
      for (unsigned d = 0; d < kColl; ++d)
        if (d != c && model_.valid(c) && model_.valid(d))
          expect("age order", get_bits(top_.coll_older_o, c * kColl + d, 1),
                 model_.isOlder(c, d), cycle, c);
      // The first cycle: what the exec mask and predicate sources must be.
      if (model_.firstCycle(c)) {
        const Instr &in = inst_[c];
        const uint32_t guard = pred(in.oc.warp, in.pg);
        exp_exec_[c] = in.mask & (in.pgn ? ~guard : guard);
        for (unsigned i = 0; i < 3; ++i)
          exp_pred_[c][i] = in.puRe[i] ? pred(in.oc.warp, in.pu[i]) : ~0u;
      }
    }
    // Dispatched passes: operands, masks, payload.
    for (unsigned c = 0; c < kColl; ++c) {
      if (!((dispatch_ >> c) & 1))
        continue;
      ++dispatched_;
      const unsigned pass = model_.pass(c);
      for (unsigned s = 0; s < kSlots; ++s)
        for (unsigned l = 0; l < kLanes; ++l)
          expect("operand", get_lane32(top_.coll_opnd_o, (c * kSlots + s) * kLanes + l),
                 exp_buf_[c][s][l], cycle, c * 1000 + s * 100 + l);
      expect("exec mask", get_bits(top_.coll_exec_o, c * 32, 32), exp_exec_[c], cycle, c);
      for (unsigned i = 0; i < 3; ++i)
        expect("predicate source", get_bits(top_.coll_pred_o, (c * 3 + i) * 32, 32),
               exp_pred_[c][i], cycle, c * 10 + i);
      expect("instruction", get_bits(top_.coll_id_o, c * 16, 16), inst_[c].id, cycle, c);
      (void)pass;
    }
    // The model's cycle: allocation, grants, rows.
    std::array<hls::OcIssue, hls::kMaxOcIssue> is{};
    for (unsigned k = 0; k < kIssue; ++k)
      is[k] = issue_[k].oc;
    const hls::OcCycle out = model_.step(is, dispatch_);
    if (out.error)
      log_.report("tb_opcoll: cycle %llu: the bench broke a rule (dispatch of an incomplete pass "
                  "or issue without a free collector)\n",
                  static_cast<unsigned long long>(cycle));
    for (unsigned k = 0; k < kIssue; ++k) {
      if (!issue_[k].oc.valid)
        continue;
      expect("issue collector (bench)", issue_[k].coll, out.issueColl[k], cycle, k);
      const unsigned c = out.issueColl[k];
      inst_[c] = issue_[k];
      for (auto &s : exp_buf_[c])
        s.fill(0);
      ++issued_;
    }
    for (unsigned b = 0; b < kBanks; ++b) {
      const bool v = (out.grant.bankValid >> b) & 1;
      expect("bank read", get_bits(top_.bank_re_o, b, 1), v, cycle, b);
      if (!v)
        continue;
      expect("bank row", get_bits(top_.bank_row_o, b * kRowBits, kRowBits), out.row[b], cycle, b);
      // The row as the file holds it now (this cycle's writes land after the read).
      const unsigned c = out.grant.collector[b], s = out.grant.slot[b];
      for (unsigned l = 0; l < kLanes; ++l)
        exp_buf_[c][s][l] = rf_[(b * kRows + out.row[b]) * kLanes + l];
      ++reads_;
    }
    // This cycle's writes, into the reference files.
    for (unsigned b = 0; b < kBanks; ++b) {
      if (!wr_[b].valid)
        continue;
      for (unsigned l = 0; l < kLanes; ++l)
        if ((wr_[b].lanes >> l) & 1)
          rf_[(b * kRows + wr_[b].row) * kLanes + l] = wr_[b].data[l];
    }
    if (pw_.valid && pw_.pred != kPT) {
      uint32_t &p = pf_[pw_.warp * 16 + pw_.pred];
      p = (p & ~pw_.mask) | (pw_.data & pw_.mask);
    }
    if (cycle >= init_cycles_ && cycles_left_ > 0)
      --cycles_left_;
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override { return log_.count() == 0; }
  void report() const override {
    std::printf("wf_opcoll (%u collectors, %u banks, %u lanes, %u warps, issue width %u): "
                "%llu instructions, %llu passes dispatched, %llu bank reads, %llu errors\n",
                kColl, kBanks, kLanes, kWarps, kIssue, static_cast<unsigned long long>(issued_),
                static_cast<unsigned long long>(dispatched_),
                static_cast<unsigned long long>(reads_),
                static_cast<unsigned long long>(log_.count()));
  }

private:
  struct Write {
    bool valid = false;
    unsigned row = 0;
    uint32_t lanes = 0;
    std::array<uint32_t, 32> data{};
  };
  struct PredWrite {
    bool valid = false;
    unsigned warp = 0, pred = 0;
    uint32_t mask = 0, data = 0;
  };

  uint32_t pred(unsigned warp, unsigned p) const { return p == kPT ? ~0u : pf_[warp * 16 + p]; }

  Instr random_instr(unsigned k) {
    Instr in;
    in.oc.valid = true;
    // Two slots of one cycle take different warps, as the scheduler issues them.
    do {
      in.oc.warp = static_cast<uint8_t>(rng_.below(kWarps));
    } while (k == 1 && in.oc.warp == issue_[0].oc.warp && kWarps > 1);
    in.oc.rfBase = static_cast<uint16_t>(in.oc.warp * kRegsPerWarp + (in.oc.warp * 3) % 8);
    const auto &shape = kShapes[rng_.below(kShapes.size())];
    const unsigned range = rng_.chance(30) ? 8 : kRegsPerWarp - 8;
    for (unsigned g = 0; g < kRoles; ++g) {
      hls::OcRole &r = in.oc.roles[g];
      r.count = shape[g];
      if (r.count == 0)
        continue;
      r.read = !rng_.chance(10);
      r.reg = r.read ? static_cast<uint8_t>(rng_.below(range) & ~(r.count - 1)) : 255;
    }
    in.mask = rng_.chance(50) ? ~0u : rng_.u32();
    in.pg = static_cast<uint8_t>(rng_.chance(50) ? kPT : rng_.below(15));
    in.pgn = rng_.chance(30);
    for (unsigned i = 0; i < 3; ++i) {
      in.puRe[i] = rng_.chance(30);
      in.pu[i] = static_cast<uint8_t>(in.puRe[i] ? rng_.below(15) : kPT);
    }
    uint32_t freeMask = model_.freeMask();
    if (k == 1 && issue_[0].oc.valid)
      freeMask &= freeMask - 1;
    in.coll = static_cast<uint8_t>(std::countr_zero(freeMask));
    in.id = static_cast<uint16_t>(++next_id_);
    return in;
  }

  void drive_issue(unsigned k, const Instr &in) {
    set_bits(top_.issue_valid_i, k, 1, in.oc.valid);
    set_bits(top_.issue_warp_i, k * kWarpBits, kWarpBits, in.oc.warp);
    set_bits(top_.issue_rf_base_i, k * kPhysBits, kPhysBits, in.oc.rfBase);
    set_bits(top_.issue_mask_i, k * 32, 32, in.mask);
    for (unsigned g = 0; g < kRoles; ++g) {
      set_bits(top_.issue_reg_i, (k * kRoles + g) * 8, 8, in.oc.roles[g].reg);
      set_bits(top_.issue_cnt_i, (k * kRoles + g) * 3, 3, in.oc.roles[g].count);
      set_bits(top_.issue_re_i, k * kRoles + g, 1, in.oc.roles[g].read);
    }
    set_bits(top_.issue_pg_i, k * 4, 4, in.pg);
    set_bits(top_.issue_pgn_i, k, 1, in.pgn);
    for (unsigned i = 0; i < 3; ++i) {
      set_bits(top_.issue_pu_re_i, k * 3 + i, 1, in.puRe[i]);
      set_bits(top_.issue_pu_i, (k * 3 + i) * 4, 4, in.pu[i]);
    }
    set_bits(top_.issue_coll_i, k * kCollBits, kCollBits, in.coll);
    set_bits(top_.issue_id_i, k * 16, 16, in.id);
  }

  void expect(const char *what, uint64_t got, uint64_t want, uint64_t cycle, unsigned where = 0) {
    if (got != want)
      log_.report("wf_opcoll: cycle %llu: %s [%u]: 0x%llx, expected 0x%llx\n",
                  static_cast<unsigned long long>(cycle), what, where,
                  static_cast<unsigned long long>(got), static_cast<unsigned long long>(want));
  }

  Vtb_opcoll_top &top_;
  Rng rng_;
  uint64_t cycles_left_;
  unsigned init_cycles_ = 0;
  hls::OperandCollectors model_;
  std::vector<uint32_t> rf_; ///< reference register file: [bank][row][lane]
  std::vector<uint32_t> pf_; ///< reference predicate file: [warp][pred]
  std::array<Instr, hls::kMaxOcIssue> issue_{};
  std::array<Instr, kColl> inst_{};
  std::array<std::array<std::array<uint32_t, kLanes>, kSlots>, kColl> exp_buf_{};
  std::array<uint32_t, kColl> exp_exec_{};
  std::array<std::array<uint32_t, 3>, kColl> exp_pred_{};
  std::array<Write, kBanks> wr_{};
  PredWrite pw_{};
  uint32_t dispatch_ = 0;
  uint16_t next_id_ = 0;
  uint64_t issued_ = 0, dispatched_ = 0, reads_ = 0;
  MismatchLog log_;
};

} // namespace

int main(int argc, char **argv) {
  return run_bench<Vtb_opcoll_top, OpcollBench>(argc, argv, "wf_opcoll");
}
