// wf_l2_bank (one L2 bank with storage) against a C++ model: hls::CacheTags (hls/cache_tags.h,
// the tree pseudo-LRU the bank implements) decides every hit, miss and victim; a dirty bit a line;
// the program-visible memory (what every read and atomic must return, hls::atomNew for atomics);
// and a DRAM array behind the bank's DRAM port, served with random ready stalls and latencies.
//
// Random READ / WRITE (partial and whole-line) / ATOMIC requests (every integer operation and
// type of hls/atomic.h; float ADD is not built) to 4 x (Sets x Ways) lines of the bank, so that
// misses and evictions are frequent, with FLUSH at random points and at the end. Checked:
//   - every response (the line of a READ, the old value of an ATOMIC, the tag);
//   - every DRAM transaction, in order: a miss's write-back of a dirty victim (its address and the
//     line's current data), its fill (not for a whole-line write), a flush's write-backs in set
//     and way order, and nothing else (no DRAM access on a hit);
//   - after the last flush, DRAM equals the program-visible memory;
//   - the run saw hits, misses, dirty evictions and flush write-backs (else the stimulus is weak).
#include "Vtb_l2_bank_top.h"
#include "common/tb_util.h"
#include "warpforge/hls/atomic.h"
#include "warpforge/hls/cache_tags.h"
#include "warpforge/isa/config.gen.h"

#include <array>
#include <deque>
#include <map>
#include <vector>

namespace {

using namespace wf::rtl::tb;
namespace hls = wf::hls;

constexpr unsigned kLineBytes = 64;
constexpr unsigned kSets = WF_SETS;
constexpr unsigned kWays = WF_WAYS;
constexpr unsigned kBanks = WF_BANKS;
constexpr unsigned kBankIndex = WF_BANK_INDEX;
constexpr unsigned kLines = 4 * kSets * kWays;  // the bank's lines the bench uses
constexpr uint64_t kGlobalBase = wf::isa::kGlobalBase;

using Line = std::array<uint8_t, kLineBytes>;

// The device-memory byte offset of the bank's local line l.
uint64_t offset_of(uint64_t local) { return (local * kBanks + kBankIndex) * kLineBytes; }

bool atom_supported(hls::AtomOp fn, hls::AtomType ty) {
  const bool isFloat = ty == hls::AtomType::F32 || ty == hls::AtomType::F64;
  switch (fn) {
  case hls::AtomOp::ADD:
    return !isFloat; // float ADD is not built in the RTL
  case hls::AtomOp::EXCH:
  case hls::AtomOp::CAS:
    return true;
  case hls::AtomOp::INC:
  case hls::AtomOp::DEC:
    return ty == hls::AtomType::U32;
  default:
    return !isFloat;
  }
}

struct DramOp {
  bool write;
  uint64_t addr;
  Line data; // writes: the line expected
};

class Bench {
public:
  Bench(wf::rtl::SimCtrl<Vtb_l2_bank_top> &sim, uint64_t seed)
      : sim_(sim), top_(sim.top()), rng_(seed), tags_(kSets, kWays),
        dirty_(size_t(kSets) * kWays, false) {
    for (uint64_t l = 0; l < kLines; ++l) {
      Line d;
      for (auto &b : d)
        b = uint8_t(rng_.u32());
      dram_[offset_of(l)] = d;
      ref_[l] = d;
    }
  }

  void fail(const char *fmt, unsigned long long a = 0, unsigned long long b = 0,
            unsigned long long c = 0) {
    if (errors_++ < 20) {
      std::fprintf(stderr, "tb_l2_bank: cycle %llu: ", (unsigned long long)sim_.cycle());
      std::fprintf(stderr, fmt, a, b, c);
      std::fprintf(stderr, "\n");
    }
  }
  unsigned errors() const { return errors_; }

  // One cycle: drive the DRAM side and the ready/valid inputs, sample the handshakes.
  void cycle() {
    // DRAM answers.
    top_.dram_rsp_valid_i = 0;
    if (!dram_busy_.empty() && dram_busy_.front().first <= sim_.cycle()) {
      top_.dram_rsp_valid_i = 1;
      const Line &d = dram_busy_.front().second;
      for (unsigned b = 0; b < kLineBytes; ++b)
        set_bits(top_.dram_rsp_rdata_i, 8 * b, 8, d[b]);
      dram_busy_.pop_front();
    }
    top_.dram_req_ready_i = rng_.chance(60);
    top_.rsp_ready_i = rng_.chance(70);
    top_.eval();
    if (top_.dram_req_valid_o && top_.dram_req_ready_i)
      dram_request();
    if (top_.rsp_valid_o && top_.rsp_ready_i)
      response();
    const bool accept = top_.req_valid_i && top_.req_ready_o;
    flush_done_ = flush_done_ || top_.flush_done_o;
    sim_.step();
    if (accept) {
      top_.req_valid_i = 0;
      accepted_ = true;
    }
  }

  void dram_request() {
    const bool write = top_.dram_req_write_o;
    const uint64_t addr = top_.dram_req_addr_o;
    if (expect_.empty()) {
      fail("unexpected DRAM request (write %llu) of 0x%llx", write, addr);
      return;
    }
    const DramOp e = expect_.front();
    expect_.pop_front();
    if (write != e.write || addr != e.addr) {
      fail("DRAM request write=%llu addr 0x%llx, expected 0x%llx", write, addr,
           e.addr | (uint64_t(e.write) << 63));
      return;
    }
    Line d{};
    if (write) {
      for (unsigned b = 0; b < kLineBytes; ++b) {
        if (!get_bit(top_.dram_req_wstrb_o, b)) {
          fail("write-back of 0x%llx has byte %llu masked", addr, b);
          continue;
        }
        d[b] = uint8_t(get_bits(top_.dram_req_wdata_o, 8 * b, 8));
        if (d[b] != e.data[b]) {
          fail("write-back of 0x%llx byte %llu is 0x%llx", addr, b, d[b]);
          break;
        }
      }
      dram_[addr] = d;
    } else {
      d = dram_.at(addr);
    }
    dram_busy_.push_back({sim_.cycle() + 1 + rng_.below(12), d});
  }

  void response() {
    got_rsp_ = true;
    if (!accepted_)
      fail("response before the request was accepted");
    if (top_.rsp_tag_o != want_tag_)
      fail("response tag %llu, expected %llu", top_.rsp_tag_o, want_tag_);
    if (want_kind_ == 0) {
      for (unsigned b = 0; b < kLineBytes; ++b) {
        const uint64_t got = get_bits(top_.rsp_rdata_o, 8 * b, 8);
        if (got != want_line_[b]) {
          fail("READ byte %llu is 0x%llx, expected 0x%llx", b, got, want_line_[b]);
          break;
        }
      }
    } else if (want_kind_ == 2 && top_.rsp_old_o != want_old_) {
      fail("ATOMIC old value 0x%llx, expected 0x%llx", top_.rsp_old_o, want_old_);
    }
  }

  // The model's replacement for one request to local line l; queues the DRAM operations due.
  bool model_lookup(uint64_t l, bool full_write) {
    hls::CacheTagsIn look;
    look.lookup = true;
    look.lookupLine = l;
    tags_.step(look);
    const hls::CacheLookup r = tags_.result();
    tags_.step({}); // the hit marks its way in the second cycle
    const unsigned set = unsigned(l % kSets);
    if (r.hit) {
      ++hits_;
      way_ = r.way;
      return true;
    }
    ++misses_;
    way_ = tags_.victim(set);
    if (tags_.lineValid(set, way_) && dirty_[set * kWays + way_]) {
      const uint64_t victim = tags_.lineTag(set, way_) * kSets + set;
      expect_.push_back({true, offset_of(victim), ref_[victim]});
      ++evictions_;
    }
    if (!full_write)
      expect_.push_back({false, offset_of(l), {}});
    hls::CacheTagsIn fill;
    fill.fill = true;
    fill.fillLine = l;
    tags_.step(fill);
    dirty_[set * kWays + way_] = false;
    return false;
  }

  void request() {
    const uint64_t l = rng_.below(kLines);
    const unsigned set = unsigned(l % kSets);
    const unsigned kind = rng_.below(10) < 4 ? 0 : (rng_.below(2) ? 1 : 2);
    top_.req_kind_i = kind;
    top_.req_tag_i = want_tag_ = uint8_t(rng_.u32());
    top_.req_fn_i = 0;
    top_.req_ty_i = 0;
    top_.req_a_i = 0;
    top_.req_b_i = 0;
    for (unsigned b = 0; b < kLineBytes; ++b) {
      set_bits(top_.req_wdata_i, 8 * b, 8, 0);
      set_bit(top_.req_wmask_i, b, false);
    }
    want_kind_ = kind;
    uint64_t addr = kGlobalBase + offset_of(l);
    if (kind == 0) {
      model_lookup(l, false);
      want_line_ = ref_[l];
    } else if (kind == 1) {
      const bool full = rng_.chance(25);
      model_lookup(l, full);
      for (unsigned b = 0; b < kLineBytes; ++b) {
        const uint8_t v = uint8_t(rng_.u32());
        const bool on = full || rng_.chance(30);
        set_bits(top_.req_wdata_i, 8 * b, 8, v);
        set_bit(top_.req_wmask_i, b, on);
        if (on)
          ref_[l][b] = v;
      }
      dirty_[set * kWays + way_] = true;
    } else {
      hls::AtomOp fn;
      hls::AtomType ty;
      do {
        fn = hls::AtomOp(rng_.below(10));
        ty = hls::AtomType(rng_.below(6));
      } while (!atom_supported(fn, ty));
      const bool wide = ty == hls::AtomType::U64 || ty == hls::AtomType::S64 ||
                        ty == hls::AtomType::F64;
      const unsigned size = wide ? 8 : 4;
      const unsigned off = rng_.below(kLineBytes / size) * size;
      addr += off;
      model_lookup(l, false);
      uint64_t old = 0;
      for (unsigned i = 0; i < size; ++i)
        old |= uint64_t(ref_[l][off + i]) << (8 * i);
      uint64_t b = wide ? rng_.u64() : rng_.u32();
      if (rng_.chance(20))
        b = old; // CAS hits, MIN/MAX ties
      const uint64_t c = wide ? rng_.u64() : rng_.u32();
      const uint64_t nv = wide ? hls::atomNew<uint64_t>(fn, ty, old, b, c)
                               : hls::atomNew<uint32_t>(fn, ty, uint32_t(old), uint32_t(b),
                                                        uint32_t(c));
      for (unsigned i = 0; i < size; ++i)
        ref_[l][off + i] = uint8_t(nv >> (8 * i));
      want_old_ = old;
      top_.req_fn_i = unsigned(fn);
      top_.req_ty_i = unsigned(ty);
      top_.req_a_i = b;
      top_.req_b_i = c;
      dirty_[set * kWays + way_] = true;
    }
    top_.req_addr_i = addr;
    top_.req_valid_i = 1;
    accepted_ = false;
    got_rsp_ = false;
    for (unsigned i = 0; i < 2000 && !got_rsp_; ++i)
      cycle();
    if (!got_rsp_)
      fail("no response to request of line %llu (kind %llu)", l, kind);
    check_drained();
  }

  void flush() {
    for (unsigned s = 0; s < kSets; ++s)
      for (unsigned w = 0; w < kWays; ++w)
        if (tags_.lineValid(s, w) && dirty_[s * kWays + w]) {
          const uint64_t line = tags_.lineTag(s, w) * kSets + s;
          expect_.push_back({true, offset_of(line), ref_[line]});
          dirty_[s * kWays + w] = false;
          ++flushed_;
        }
    top_.flush_i = 1;
    flush_done_ = false;
    for (unsigned i = 0; i < 100000 && !flush_done_; ++i)
      cycle();
    top_.flush_i = 0;
    if (!flush_done_)
      fail("flush did not finish");
    check_drained();
  }

  void check_drained() {
    if (!expect_.empty())
      fail("%llu expected DRAM operations not made (first: 0x%llx)", expect_.size(),
           expect_.front().addr);
    expect_.clear();
  }

  void run(uint64_t requests) {
    top_.req_valid_i = 0;
    top_.flush_i = 0;
    for (uint64_t n = 0; n < requests && errors_ == 0; ++n) {
      request();
      if (rng_.chance(1))
        flush();
    }
    flush();
    for (uint64_t l = 0; l < kLines; ++l)
      if (dram_.at(offset_of(l)) != ref_[l])
        fail("after the flush, DRAM line %llu differs from the memory the requests saw", l);
    if (hits_ == 0 || misses_ == 0 || evictions_ == 0 || flushed_ == 0)
      fail("weak stimulus: %llu hits, %llu misses, %llu dirty evictions", hits_, misses_,
           evictions_);
    std::printf("tb_l2_bank: %llu requests: %llu hits, %llu misses, %llu dirty evictions, %llu "
                "lines written by flushes\n",
                (unsigned long long)requests, (unsigned long long)hits_,
                (unsigned long long)misses_, (unsigned long long)evictions_,
                (unsigned long long)flushed_);
  }

private:
  wf::rtl::SimCtrl<Vtb_l2_bank_top> &sim_;
  Vtb_l2_bank_top &top_;
  Rng rng_;
  hls::CacheTags tags_;
  std::vector<bool> dirty_;
  std::map<uint64_t, Line> dram_;       // by device byte offset
  std::map<uint64_t, Line> ref_;        // by local line: the program-visible memory
  std::deque<DramOp> expect_;
  std::deque<std::pair<uint64_t, Line>> dram_busy_;  // (answer cycle, read data)
  unsigned way_ = 0;
  unsigned want_kind_ = 0;
  uint8_t want_tag_ = 0;
  Line want_line_{};
  uint64_t want_old_ = 0;
  bool accepted_ = false, got_rsp_ = false, flush_done_ = false;
  uint64_t hits_ = 0, misses_ = 0, evictions_ = 0, flushed_ = 0;
  unsigned errors_ = 0;
};

} // namespace

int main(int argc, char **argv) {
  wf::rtl::SimCtrl<Vtb_l2_bank_top> sim(argc, argv, "wf_l2_bank");
  sim.reset();
  Bench bench(sim, sim.options().seed);
  bench.run(sim.options().vectors);
  sim.finish();
  const bool ok = bench.errors() == 0;
  std::printf("wf_l2_bank: %s (seed %llu)\n", ok ? "PASS" : "FAIL",
              (unsigned long long)sim.options().seed);
  return ok ? 0 : 1;
}
