// wf_fetch with wf_ibuffer behind it, against a behavioural code memory: warps run random code
// (mostly straight-line, with fetch-stop opcodes and pcs past the code's end); the bench plays
// issue (pops heads at random) and the CTRL unit (after a fetch-stop instruction or an illegal
// fetch marker leaves the buffer, it redirects the warp to a random pc a few cycles later).
// Checked every cycle: every record written to a buffer is the word at the warp's next pc (or
// the illegal-fetch marker past code_size), in order from the last redirect; nothing is fetched
// after a fetch-stop word or a marker until the redirect; each buffer pops in order and never
// holds more than Depth; one line request is outstanding at a time, line-aligned, inside the
// code; and every warp makes progress. The line memory answers after a random latency.
// --vectors cycles.
#include "Vtb_fetch_top.h"
#include "common/tb_util.h"

#include <deque>
#include <vector>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace isa = wf::isa;

constexpr unsigned kWarps = 8;
constexpr unsigned kDepth = 2;
constexpr unsigned kLineBytes = 64;
constexpr unsigned kWords = kLineBytes / 8;
constexpr unsigned kCodeWords = 512; // 4 KiB of code, 4 times the 1 KiB cache
constexpr uint64_t kCodeBase = 0x40000;

struct Pending {
  uint64_t cycle;
  unsigned warp;
  uint32_t pc;
};

class FetchBench : public SimExtension {
public:
  FetchBench(Vtb_fetch_top &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), cycles_left_(o.vectors), code_(kCodeWords) {
    // Random legal words; about one in twelve a fetch-stop opcode.
    std::vector<uint8_t> plain, stops;
    for (unsigned c = 0; c < 256; ++c) {
      const auto op = static_cast<isa::Opcode>(c);
      if (!isa::opInfo(op).valid)
        continue;
      (isa::stopsFetch(op) ? stops : plain).push_back(static_cast<uint8_t>(c));
    }
    for (auto &w : code_) {
      const bool stop = rng_.chance(8);
      const auto &from = stop ? stops : plain;
      w = isa::setField(rng_.u64(), isa::FormatR::op, from[rng_.below(uint32_t(from.size()))]);
    }
  }

  void on_reset() override {
    top_.launch_start_i = 0;
    top_.code_base_i = kCodeBase;
    top_.code_size_i = kCodeWords * 8;
    top_.redirect_valid_i = 0;
    top_.has_group_i = 0;
    top_.pop_i = 0;
    top_.ic_req_ready_i = 0;
    top_.ic_rsp_valid_i = 0;
  }

  void drive(uint64_t cycle) override {
    top_.launch_start_i = cycle == 1;
    top_.redirect_valid_i = 0;
    // A warp has a group from the cycle after its first redirect (admission writes the pc).
    top_.has_group_i = 0;
    for (unsigned w = 0; w < kWarps; ++w)
      if (started_[w])
        top_.has_group_i |= 1u << w;
    // Start: every warp at a random pc, one redirect a cycle after the launch start.
    if (cycle >= 2 && cycle < 2 + kWarps)
      redirects_.push_back({cycle, unsigned(cycle - 2), rng_.below(kCodeWords)});
    if (!redirects_.empty() && redirects_.front().cycle <= cycle) {
      const Pending r = redirects_.front();
      redirects_.pop_front();
      top_.redirect_valid_i = 1;
      top_.redirect_warp_i = r.warp;
      top_.redirect_pc_i = r.pc;
      next_pc_[r.warp] = r.pc;
      stopped_[r.warp] = false;
      started_[r.warp] = true;
    }
    // Issue: pop random heads (the head must be the oldest delivered record).
    uint32_t pop = 0;
    for (unsigned w = 0; w < kWarps; ++w) {
      if (!((top_.head_valid_o >> w) & 1) || !rng_.chance(40))
        continue;
      pop |= 1u << w;
      if (queue_[w].empty()) {
        log_.report("tb_fetch: cycle %llu warp %u: a head with nothing delivered\n",
                    static_cast<unsigned long long>(cycle), w);
        continue;
      }
      const uint64_t head = top_.head_word_o[w * 2] | (uint64_t(top_.head_word_o[w * 2 + 1]) << 32);
      const bool bad = (top_.head_bad_o >> w) & 1;
      const Record want = queue_[w].front();
      queue_[w].pop_front();
      if (bad != want.bad || (!bad && head != want.word))
        log_.report("tb_fetch: cycle %llu warp %u: head %016llx bad %d, expected %016llx bad %d\n",
                    static_cast<unsigned long long>(cycle), w,
                    static_cast<unsigned long long>(head), bad,
                    static_cast<unsigned long long>(want.word), want.bad);
      // The CTRL unit resolves it a few cycles later: a new pc (sometimes past the code).
      if (want.bad || isa::stopsFetch(static_cast<isa::Opcode>(want.word & 0xff))) {
        const uint32_t pc = rng_.chance(3) ? kCodeWords + rng_.below(4) : rng_.below(kCodeWords);
        redirects_.push_back({cycle + 1 + rng_.below(10), w, pc});
        ++stops_;
      }
    }
    top_.pop_i = pop;
    // Memory: accepts a request at random, answers after 3 .. 20 cycles.
    top_.ic_req_ready_i = rng_.chance(70);
    top_.ic_rsp_valid_i = 0;
    if (outstanding_ && rsp_cycle_ <= cycle) {
      top_.ic_rsp_valid_i = 1;
      for (unsigned k = 0; k < kWords; ++k) {
        const uint64_t idx = (rsp_addr_ - kCodeBase) / 8 + k;
        const uint64_t word = code_[idx];
        top_.ic_rsp_data_i[2 * k] = static_cast<uint32_t>(word);
        top_.ic_rsp_data_i[2 * k + 1] = static_cast<uint32_t>(word >> 32);
      }
      outstanding_ = false;
    }
  }

  void sample(uint64_t cycle) override {
    if (top_.ic_req_valid_o && top_.ic_req_ready_i) {
      const uint64_t a = top_.ic_req_addr_o;
      if (outstanding_ || a % kLineBytes != 0 || a < kCodeBase || a >= kCodeBase + kCodeWords * 8)
        log_.report("tb_fetch: cycle %llu: request %llx (outstanding %d)\n",
                    static_cast<unsigned long long>(cycle), static_cast<unsigned long long>(a),
                    outstanding_);
      outstanding_ = true;
      rsp_addr_ = a;
      rsp_cycle_ = cycle + 3 + rng_.below(18);
      ++requests_;
    }
    if (top_.de_valid_o) {
      const unsigned w = top_.de_warp_o;
      const uint32_t pc = top_.de_pc_o;
      const bool bad = top_.de_bad_o;
      const bool wantBad = pc >= kCodeWords;
      if (stopped_[w] || pc != next_pc_[w] || bad != wantBad || (!bad && top_.de_word_o != code_[pc]))
        log_.report("tb_fetch: cycle %llu warp %u: wrote pc %u bad %d word %016llx; expected pc "
                    "%u%s\n",
                    static_cast<unsigned long long>(cycle), w, pc, bad,
                    static_cast<unsigned long long>(top_.de_word_o), next_pc_[w],
                    stopped_[w] ? " (none: the warp is stopped)" : "");
      const bool stop = bad || isa::stopsFetch(static_cast<isa::Opcode>(top_.de_word_o & 0xff));
      if (top_.de_stop_o != (stop && !bad))
        log_.report("tb_fetch: cycle %llu warp %u: fetch_stop %d\n",
                    static_cast<unsigned long long>(cycle), w, top_.de_stop_o);
      queue_[w].push_back({top_.de_word_o, bad});
      next_pc_[w] = pc + 1;
      stopped_[w] = stop;
      ++delivered_[w];
    }
    for (unsigned w = 0; w < kWarps; ++w) {
      const unsigned count = (top_.count_o >> (w * 2)) & 3;
      if (count > kDepth)
        log_.report("tb_fetch: cycle %llu warp %u: %u buffered\n",
                    static_cast<unsigned long long>(cycle), w, count);
    }
    if (cycles_left_ > 0)
      --cycles_left_;
    ++checked_;
  }

  bool finished() const override { return cycles_left_ == 0; }
  bool passed() const override {
    if (log_.count() != 0)
      return false;
    if (cycles_left_ > 0)
      return true;
    // Progress: every warp fetched, misses were served, fetch stops were resolved.
    uint64_t least = ~0ull;
    for (auto d : delivered_)
      least = std::min(least, d);
    return least > checked_ / 100 && requests_ > 0 && stops_ > 0;
  }
  void report() const override {
    uint64_t total = 0;
    for (auto d : delivered_)
      total += d;
    std::printf("wf_fetch + wf_ibuffer (%u warps, depth %u): %llu cycles, %llu records, %llu line "
                "requests, %llu fetch stops resolved, %llu errors\n",
                kWarps, kDepth, static_cast<unsigned long long>(checked_),
                static_cast<unsigned long long>(total),
                static_cast<unsigned long long>(requests_),
                static_cast<unsigned long long>(stops_),
                static_cast<unsigned long long>(log_.count()));
  }

private:
  struct Record {
    uint64_t word;
    bool bad;
  };

  Vtb_fetch_top &top_;
  Rng rng_;
  uint64_t cycles_left_;
  std::vector<uint64_t> code_;
  std::deque<Pending> redirects_;
  std::array<std::deque<Record>, kWarps> queue_{};
  std::array<uint32_t, kWarps> next_pc_{};
  std::array<bool, kWarps> stopped_{}, started_{};
  std::array<uint64_t, kWarps> delivered_{};
  bool outstanding_ = false;
  uint64_t rsp_addr_ = 0, rsp_cycle_ = 0;
  uint64_t checked_ = 0, requests_ = 0, stops_ = 0;
  MismatchLog log_;
};

} // namespace

int main(int argc, char **argv) {
  return run_bench<Vtb_fetch_top, FetchBench>(argc, argv, "wf_fetch");
}
