// wf_issue (instruction-buffer heads, wf_scoreboard and wf_warp_sched with the readiness rules)
// against hls::WarpScheduler and hls::Scoreboard composed by the rules of
// docs/microarchitecture.md, cycle by cycle: every cycle every warp shows a random head (FFMA,
// DADD with pairs, ISETP, BRA, MEMBAR, an invalid opcode; registers sometimes past the
// allocation; guards sometimes predicated), random runnable / CTRL-idle / drained inputs,
// random collector states (for the free-collector and write-after-read rules) and random
// releases of pending scoreboard entries. The issued warp, its collector, pc and scoreboard
// entries, the pops and the illegal-instruction faults must agree. --vectors cycles.
#include "Vtb_issue_top.h"
#include "common/tb_util.h"
#include "warpforge/hls/scoreboard.h"
#include "warpforge/hls/warp_scheduler.h"

#include <cstdlib>
#include <vector>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;
namespace isa = wf::isa;

constexpr unsigned kWarps = 8;
constexpr unsigned kEntries = 4;
constexpr unsigned kColl = 4;
constexpr unsigned kRegs = 64;

struct Head {
  uint64_t word = 0;
  hls::SbUse use;
  bool ctrl = false, membar = false, illegal = false;
};

bool overlaps(unsigned a, unsigned ca, unsigned b, unsigned cb) {
  const unsigned m = (ca - 1) | (cb - 1);
  return (a & ~m) == (b & ~m);
}

class IssueBench : public SimExtension {
public:
  IssueBench(Vtb_issue_top &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors), sb_(kWarps, kEntries),
        sched_(kWarps, 1, hls::SchedPolicy::GreedyThenOldest), heads_(kWarps) {
    for (auto &h : heads_)
      h = randomHead();
  }

  void on_reset() override {
    top_.regs_per_thread_i = kRegs;
    top_.stop_i = 0;
    top_.admit_i = 0;
    top_.redirect_valid_i = 0;
    top_.head_valid_i = 0;
    top_.rel_valid_i = 0;
    top_.coll_busy_i = 0;
  }

  void drive(uint64_t cycle) override {
    admit_ = cycle == 1 ? (1u << kWarps) - 1 : 0;
    top_.admit_i = admit_;
    // One redirect a cycle now and then (a new issue pc).
    redirect_ = rng_.chance(5);
    redirect_warp_ = rng_.below(kWarps);
    redirect_pc_ = rng_.below(1u << 20);
    top_.redirect_valid_i = redirect_;
    top_.redirect_warp_i = redirect_warp_;
    top_.redirect_pc_i = redirect_pc_;
    head_valid_ = 0;
    for (unsigned w = 0; w < kWarps; ++w) {
      if (rng_.chance(85))
        head_valid_ |= 1u << w;
      top_.head_word_i[2 * w] = static_cast<uint32_t>(heads_[w].word);
      top_.head_word_i[2 * w + 1] = static_cast<uint32_t>(heads_[w].word >> 32);
    }
    top_.head_valid_i = head_valid_;
    runnable_ = 0;
    drained_ = 0;
    for (unsigned w = 0; w < kWarps; ++w) {
      runnable_ |= rng_.chance(85) ? 1u << w : 0;
      drained_ |= rng_.chance(60) ? 1u << w : 0;
    }
    ctrl_idle_ = rng_.chance(60);
    stop_ = rng_.chance(2);
    top_.runnable_i = runnable_;
    top_.mem_drained_i = drained_;
    top_.ctrl_idle_i = ctrl_idle_;
    top_.stop_i = stop_;
    // Collectors: random states.
    top_.coll_busy_i = 0;
    for (unsigned c = 0; c < kColl; ++c) {
      coll_[c].busy = rng_.chance(55);
      coll_[c].warp = rng_.below(kWarps);
      top_.coll_busy_i |= coll_[c].busy ? 1u << c : 0;
      set_bits(top_.coll_warp_i, c * 6, 6, coll_[c].warp);
      for (unsigned g = 0; g < 4; ++g) {
        coll_[c].pending[g] = rng_.chance(40);
        coll_[c].cnt[g] = 1u << rng_.below(3);
        coll_[c].base[g] = rng_.below(12) & ~(coll_[c].cnt[g] - 1);
        set_bits(top_.coll_pending_i, c * 4 + g, 1, coll_[c].pending[g]);
        set_bits(top_.coll_base_i, (c * 4 + g) * 8, 8, coll_[c].base[g]);
        set_bits(top_.coll_cnt_i, (c * 4 + g) * 3, 3, coll_[c].cnt[g]);
      }
    }
    // Releases of pending entries.
    std::vector<std::pair<unsigned, unsigned>> pending;
    for (unsigned w = 0; w < kWarps; ++w)
      for (unsigned e = 0; e < kEntries; ++e)
        if (sb_.entryValid(w, e))
          pending.emplace_back(w, e);
    top_.rel_valid_i = 0;
    for (unsigned r = 0; r < 4; ++r) {
      rel_[r] = hls::SbRelease{};
      if (!pending.empty() && rng_.chance(r == 0 ? 50 : 15)) {
        const unsigned k = rng_.below(static_cast<uint32_t>(pending.size()));
        rel_[r] = hls::SbRelease{true, static_cast<uint8_t>(pending[k].first),
                                 static_cast<uint8_t>(pending[k].second)};
        pending.erase(pending.begin() + k);
      }
      top_.rel_valid_i |= rel_[r].valid ? 1u << r : 0;
      set_bits(top_.rel_warp_i, r * 6, 6, rel_[r].warp);
      set_bits(top_.rel_entry_i, r * 3, 3, rel_[r].entry);
    }
  }

  void sample(uint64_t cycle) override {
    bool anyFree = false;
    unsigned lowestFree = 0;
    for (unsigned c = kColl; c-- > 0;)
      if (!coll_[c].busy) {
        anyFree = true;
        lowestFree = c;
      }
    uint64_t ready = 0;
    for (unsigned w = 0; w < kWarps; ++w) {
      const Head &h = heads_[w];
      bool war = false;
      for (unsigned c = 0; c < kColl; ++c)
        for (unsigned g = 0; g < 4; ++g)
          war = war || (coll_[c].busy && coll_[c].warp == w && coll_[c].pending[g] &&
                        h.use.writesReg &&
                        overlaps(h.use.regs[0].base, h.use.regs[0].count, coll_[c].base[g],
                                 coll_[c].cnt[g]));
      const bool r = ((head_valid_ >> w) & 1) && sb_.ready(w, h.use) && ((runnable_ >> w) & 1) &&
                     anyFree && !war && !stop_ && (!h.ctrl || ctrl_idle_) &&
                     (!h.membar || ((drained_ >> w) & 1));
      ready |= uint64_t(r) << w;
    }
    const hls::SchedPick pick = sched_.step(ready, admit_);
    const bool issue = pick.valid[0];
    const unsigned w = pick.warp[0];
    const bool illegal = issue && heads_[w].illegal;
    const hls::SbReserved alloc = issue ? sb_.allocation(w, heads_[w].use) : hls::SbReserved{};
    const uint32_t wantPop = issue ? 1u << w : 0;
    bool ok = top_.pop_o == wantPop && top_.issue_valid_o == (issue && !illegal) &&
              top_.fault_o == illegal;
    if (issue && !illegal)
      ok = ok && top_.issue_warp_o == w && top_.issue_coll_o == lowestFree &&
           top_.issue_pc_o == pc_[w] && top_.issue_word_o == heads_[w].word &&
           (!heads_[w].use.writesReg || top_.issue_sb_reg_o == alloc.regEntry) &&
           (!heads_[w].use.writesPred || top_.issue_sb_pred_o == alloc.predEntry);
    if (illegal)
      ok = ok && top_.fault_warp_o == w && top_.fault_pc_o == pc_[w];
    if (!ok)
      log_.report("tb_issue: cycle %llu: pop %x issue %d warp %u coll %u pc %u fault %d; "
                  "expected pop %x issue %d warp %u coll %u pc %u fault %d\n",
                  static_cast<unsigned long long>(cycle), unsigned(top_.pop_o),
                  top_.issue_valid_o, unsigned(top_.issue_warp_o), unsigned(top_.issue_coll_o),
                  unsigned(top_.issue_pc_o), top_.fault_o, wantPop, issue && !illegal, w,
                  lowestFree, issue ? pc_[w] : 0, illegal);
    if (!ok && getenv("TB_DEBUG"))
      for (unsigned x = 0; x < kWarps; ++x)
        std::printf("  w%u word %016llx hv %d sbready %d run %d ctrl %d/%d membar %d/%d ready %d\n", x,
                    (unsigned long long)heads_[x].word, (head_valid_ >> x) & 1,
                    sb_.ready(x, heads_[x].use), (runnable_ >> x) & 1, heads_[x].ctrl, ctrl_idle_,
                    heads_[x].membar, (drained_ >> x) & 1, int((ready >> x) & 1));
    sb_.step(rel_, issue, issue ? w : 0, heads_[issue ? w : 0].use);
    if (issue) {
      pc_[w] = (pc_[w] + 1) & ((1u << 29) - 1);
      heads_[w] = randomHead();
      ++issued_;
      faults_ += illegal;
    }
    if (redirect_)
      pc_[redirect_warp_] = redirect_pc_;
    blocked_ += __builtin_popcountll(uint64_t(head_valid_) & ~ready);
    if (cycles_left_ > 0)
      --cycles_left_;
    ++checked_;
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override {
    return log_.count() == 0 && (cycles_left_ > 0 || (issued_ > 0 && faults_ > 0 && blocked_ > 0));
  }
  void report() const override {
    std::printf("wf_issue (%u warps, %u entries, %u collectors, gto): %llu cycles, %llu issued, "
                "%llu illegal, %llu heads blocked, %llu errors\n",
                kWarps, kEntries, kColl, static_cast<unsigned long long>(checked_),
                static_cast<unsigned long long>(issued_), static_cast<unsigned long long>(faults_),
                static_cast<unsigned long long>(blocked_),
                static_cast<unsigned long long>(log_.count()));
  }

private:
  unsigned reg(unsigned count) {
    const unsigned r = rng_.chance(90) ? rng_.below(12) : rng_.below(80);
    return r & ~(count - 1);
  }

  Head randomHead() {
    Head h;
    const unsigned kind = rng_.below(6);
    const unsigned pg = rng_.chance(70) ? isa::kTruePred : rng_.below(4);
    auto guard = [&](uint64_t w) {
      w = isa::setField(w, isa::FormatR::pg, pg);
      return isa::setField(w, isa::FormatR::pgn, pg == isa::kTruePred ? 0 : rng_.below(2));
    };
    h.use.predValid[0] = pg != isa::kTruePred;
    h.use.pred[0] = static_cast<uint8_t>(pg);
    auto group = [&](unsigned g, unsigned count) {
      h.use.regs[g] = hls::SbRegGroup{true, static_cast<uint8_t>(reg(count)),
                                      static_cast<uint8_t>(count)};
      return h.use.regs[g].base;
    };
    switch (kind) {
    case 0: { // FFMA rd, ra, rb, rc
      h.use.writesReg = true;
      h.word = Inst(isa::Opcode::FFMA).operand("rd", group(0, 1)).operand("ra", group(1, 1))
                   .operand("rb", group(2, 1)).operand("rc", group(3, 1)).word();
      break;
    }
    case 1: { // DADD rd:pair, ra:pair, rb:pair
      h.use.writesReg = true;
      h.word = Inst(isa::Opcode::DADD).operand("rd", group(0, 2)).operand("ra", group(1, 2))
                   .operand("rb", group(2, 2)).word();
      break;
    }
    case 2: { // ISETP pd, ra, rb (combining predicate PT)
      const unsigned pd = rng_.below(4);
      h.use.writesPred = true;
      h.use.predValid[hls::kSbPreds - 1] = true;
      h.use.pred[hls::kSbPreds - 1] = static_cast<uint8_t>(pd);
      h.word = Inst(isa::Opcode::ISETP).operand("pd", pd).operand("ra", group(1, 1))
                   .operand("rb", group(2, 1)).operand("pc", isa::kTruePred).word();
      break;
    }
    case 3:
      h.ctrl = true;
      h.word = Inst(isa::Opcode::BRA).word();
      break;
    case 4:
      h.ctrl = h.membar = true;
      h.word = Inst(isa::Opcode::MEMBAR).word();
      break;
    default:
      h.word = 0xff; // no such opcode
      h.illegal = true;
      h.use.predValid[0] = false;
      return h;
    }
    h.word = guard(h.word);
    for (const auto &g : h.use.regs)
      h.illegal = h.illegal || (g.valid && g.base + g.count > kRegs);
    return h;
  }

  struct Coll {
    bool busy = false;
    unsigned warp = 0;
    std::array<bool, 4> pending{};
    std::array<unsigned, 4> base{}, cnt{};
  };

  Vtb_issue_top &top_;
  Rng rng_;
  uint64_t cycles_left_;
  hls::Scoreboard sb_;
  hls::WarpScheduler sched_;
  std::vector<Head> heads_;
  std::array<uint32_t, kWarps> pc_{};
  std::array<Coll, kColl> coll_{};
  std::array<hls::SbRelease, 4> rel_{};
  uint32_t head_valid_ = 0, runnable_ = 0, drained_ = 0, admit_ = 0;
  bool ctrl_idle_ = false, stop_ = false, redirect_ = false;
  unsigned redirect_warp_ = 0;
  uint32_t redirect_pc_ = 0;
  uint64_t checked_ = 0, issued_ = 0, faults_ = 0, blocked_ = 0;
  MismatchLog log_;
};

} // namespace

int main(int argc, char **argv) {
  return run_bench<Vtb_issue_top, IssueBench>(argc, argv, "wf_issue");
}
