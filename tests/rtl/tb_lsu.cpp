// wf_lsu (through tb_lsu_top: real instruction words through wf_decode and lsu_op) against a
// reference written from the emulator's memory semantics (sim/func execute.cpp: the window
// decode of a generic address, checkRange's misaligned-then-bounds order, read-only const and
// param, lane-order stores and atomics, sign and zero extension) and the documented local
// interleave (word i of lane l at word i*32+l of the warp slot's local area,
// docs/microarchitecture.md). Behind the memory port a device memory answers out of order after
// random delays (reads see the memory when accepted, writes and atomics apply when accepted,
// atomics with hls::atomNew); behind the param port an in-order param RAM.
//
// Checked: every return row (warp, pass, register, lanes, data, scoreboard entry, release on
// the last row only, no row twice, none for stores or faulting instructions); the device memory
// against the reference's after every instruction (so local stores land at the interleaved
// addresses and faulting instructions write nothing); each fault record (kind, detail, space,
// direction, size, lane, address, warp, pc) and no fault where none is due; mem_drained_o
// (false while a warp's instruction or write is outstanding, true when the LSU is idle with
// nothing of the warp outstanding); request shapes (line-aligned reads and writes, atomics'
// operands). Instructions: LDG/STG, LD/ST (generic: global, local, const, param windows),
// LDL/STL, LDC, LDP, ATOM global and generic, every access size, 32- and 64-bit addresses,
// positive and negative offsets, strided, broadcast and scattered lanes, random exec masks, and
// injected faults (misaligned, outside the space, read-only).
#include "Vtb_lsu_top.h"
#include "common/tb_util.h"
#include "warpforge/hls/atomic.h"
#include "warpforge/hls/coalescer.h"

#include <array>
#include <bit>
#include <cstring>
#include <deque>
#include <optional>
#include <set>
#include <vector>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace hls = wf::hls;
namespace isa = wf::isa;

constexpr unsigned kLanes = WF_LANES;
constexpr unsigned kPasses = 32 / kLanes;
constexpr unsigned kWarps = 4;
constexpr unsigned kCoreId = 1;
constexpr unsigned kLine = WF_LINE_BYTES;
constexpr uint64_t kGlobalBase = 0x1'0000'0000ull;
constexpr uint64_t kMemBytes = 0x100000; // GlobalMemBytes of the bench
constexpr uint64_t kConstOff = 0x80000, kLocalOff = 0xC0000;
constexpr uint32_t kConstSize = 0x1000 + 12, kLocalBytes = 64, kParamSize = 300;
constexpr uint32_t kSharedBytes = 0x1000;   // the launch's shared bytes a block
constexpr uint32_t kSmemBytes = 0x4000;     // the core's shared memory: warp w's block at w * 4 KiB
constexpr unsigned kBanks = WF_BANKS;
constexpr uint64_t kSharedWin = 0x0000fe0000000000ull, kLocalWin = 0x0000fd0000000000ull;
constexpr uint64_t kConstWin = 0x0000fc0000000000ull, kParamWin = 0x0000fb0000000000ull;

// Fault kinds and details (isa/device.toml), spaces (isa.toml Space).
enum : uint32_t { kOob = 1, kMisaligned = 2, kReadOnly = 9 };
enum : uint16_t { kDetMisaligned = 1, kDetOutside = 2, kDetRoStore = 3, kDetRoAtomic = 4 };
enum Space : uint8_t { kGlobal = 0, kShared = 1, kLocal = 2, kConst = 3, kParam = 4 };

struct Fault {
  uint32_t kind = 0;
  uint16_t detail = 0;
  uint8_t space = 0;
  bool write = false;
  uint32_t size = 0;
  unsigned lane = 0;
  uint64_t address = 0;
};

struct Instr {
  isa::Opcode op{};
  uint64_t word = 0;
  unsigned warp = 0, sb = 0, pc = 0;
  uint32_t exec = 0;
  unsigned rd = 0;
  unsigned bytes = 0, sizeCode = 0;
  bool load = false, store = false, atomic = false;
  unsigned atomFn = 0, atomTy = 0, atomSpace = 0; // ATOM: AtomSpace 0 generic, 1 global
  uint32_t offset = 0;               // the format I offset
  std::array<uint64_t, 32> ra{};     // address register (pair)
  std::array<std::array<uint32_t, 4>, 32> data{}; // store data
  std::array<uint64_t, 32> b{}, c{}; // atomic operands
  // Expected.
  std::optional<Fault> fault;
  unsigned words = 0;                // result registers a lane
  unsigned memLines = 0, paramLines = 0; // line requests hls::coalesce makes of its runs
  unsigned memSeen = 0, paramSeen = 0;   // ... and those the LSU sent
  std::array<std::array<uint32_t, 4>, 32> result{};
};

class LsuBench : public SimExtension {
public:
  LsuBench(Vtb_lsu_top &top, const wf::rtl::SimOptions &o)
      : top_(top), rng_(o.seed), verbose_(o.verbose), left_(o.vectors / 20 + 200 + kSmemBytes / 512), mem_(kMemBytes), ref_(kMemBytes),
        param_(32768) {
    for (auto &b : mem_)
      b = uint8_t(rng_.u32());
    ref_ = mem_;
    for (auto &b : param_)
      b = uint8_t(rng_.u32());
  }

  void on_reset() override {
    top_.local_base_i = kGlobalBase + kLocalOff;
    top_.local_bytes_i = kLocalBytes;
    top_.const_base_i = kGlobalBase + kConstOff;
    top_.const_size_i = kConstSize;
    top_.param_size_i = kParamSize;
    top_.shared_bytes_i = kSharedBytes;
    top_.pass_valid_i = 0;
    top_.mem_issue_i = 0;
    top_.mem_rsp_valid_i = 0;
    top_.param_rsp_valid_i = 0;
  }

  void drive(uint64_t cycle) override {
    // Issue: up to three instructions waiting for the LSU (as collectors hold them).
    top_.mem_issue_i = 0;
    if (left_ > 0 && issued_.size() < 3 && rng_.chance(40)) {
      issued_.push_back(make());
      --left_;
      top_.mem_issue_i = 1;
      top_.mem_issue_warp_i = issued_.back().warp;
      ++outstanding_[issued_.back().warp];
    }
    // Passes of the oldest issued instruction, in order, with gaps.
    top_.pass_valid_i = 0;
    if (!issued_.empty() && rng_.chance(75)) {
      const Instr &in = issued_.front();
      top_.pass_valid_i = 1;
      top_.pass_word_i = in.word;
      top_.pass_warp_i = in.warp;
      top_.pass_pass_i = pass_;
      top_.pass_last_i = pass_ + 1 == kPasses;
      top_.pass_pc_i = in.pc;
      top_.pass_exec_i = in.exec;
      top_.pass_sb_i = in.sb;
      top_.pass_smem_base_i = in.warp * kSharedBytes;
      for (unsigned i = 0; i < kLanes; ++i) {
        const unsigned l = pass_ * kLanes + i;
        set_bits(top_.ra_i, 32 * i, 32, uint32_t(in.ra[l]));
        set_bits(top_.ra_i, 32 * (kLanes + i), 32, uint32_t(in.ra[l] >> 32));
        set_bits(top_.rb_i, 32 * i, 32, uint32_t(in.b[l]));
        set_bits(top_.rb_i, 32 * (kLanes + i), 32, uint32_t(in.b[l] >> 32));
        set_bits(top_.rc_i, 32 * i, 32, uint32_t(in.c[l]));
        set_bits(top_.rc_i, 32 * (kLanes + i), 32, uint32_t(in.c[l] >> 32));
        for (unsigned k = 0; k < 4; ++k)
          set_bits(top_.rd_i, 32 * (k * kLanes + i), 32, in.data[l][k]);
      }
    }
    top_.ret_grant_i = rng_.chance(60);
    top_.mem_req_ready_i = rng_.chance(70);
    top_.param_req_ready_i = rng_.chance(70);
    // A response: keep the presented one until taken; otherwise pick a due one at random.
    if (!rsp_) {
      std::vector<size_t> due;
      for (size_t i = 0; i < pending_.size(); ++i)
        if (pending_[i].due <= cycle)
          due.push_back(i);
      if (!due.empty()) {
        const size_t i = due[rng_.below(unsigned(due.size()))];
        rsp_ = pending_[i];
        pending_.erase(pending_.begin() + long(i));
      }
    }
    top_.mem_rsp_valid_i = rsp_.has_value();
    if (rsp_) {
      top_.mem_rsp_tag_i = rsp_->tag;
      for (unsigned j = 0; j < kLine / 8; ++j) {
        uint64_t v;
        std::memcpy(&v, &rsp_->line[8 * j], 8);
        set_bits(top_.mem_rsp_rdata_i, 64 * j, 64, v);
      }
      top_.mem_rsp_atom_old_i = rsp_->old;
    }
    top_.param_rsp_valid_i = 0;
    if (!param_q_.empty() && param_q_.front().due <= cycle) {
      top_.param_rsp_valid_i = 1;
      for (unsigned j = 0; j < kLine / 8; ++j) {
        uint64_t v;
        std::memcpy(&v, &param_[param_q_.front().addr + 8 * j], 8);
        set_bits(top_.param_rsp_rdata_i, 64 * j, 64, v);
      }
      param_q_.pop_front();
    }
  }

  void sample(uint64_t cycle) override {
    cycle_ = cycle;
    // Stores finish without a row: when their last line write was sent.
    if (current_ && started_ && store_open_ && current_->memSeen == current_->memLines)
      finish();
    // mem_drained_o against what the bench knows is outstanding.
    for (unsigned w = 0; w < kWarps; ++w) {
      const bool drained = (top_.mem_drained_o >> w) & 1;
      // An instruction issued in this cycle counts from the next.
      const unsigned issuing = top_.mem_issue_i && top_.mem_issue_warp_i == w ? 1 : 0;
      const bool busy = outstanding_[w] - issuing > 0 || unacked_[w] > 0;
      if (drained && busy)
        error("mem_drained_o[%u] high with %u instructions and %u writes outstanding", w,
              outstanding_[w], unacked_[w]);
    }
    if (top_.idle_o && !top_.mem_drained_o) {
      for (unsigned w = 0; w < kWarps; ++w) {
        bool waiting = false;
        for (const Instr &in : issued_)
          waiting = waiting || in.warp == w;
        if (!((top_.mem_drained_o >> w) & 1) && !waiting && !current_)
          error("mem_drained_o[%u] low with nothing of the warp outstanding", w);
      }
    }
    // Pass accepted.
    if (top_.pass_valid_i && top_.pass_ready_o) {
      if (verbose_)
        std::printf("%llu: pass %u of %s warp %u exec %08x\n", ull(cycle), pass_,
                    std::string(isa::opInfo(issued_.front().op).name).c_str(), issued_.front().warp,
                    issued_.front().exec);
      if (pass_ == 0) {
        if (current_)
          error("pass 0 of a new instruction taken before the last one finished");
        current_ = issued_.front();
        rows_.clear();
        // The reference runs the instruction now: the LSU runs one at a time, in order.
        reference(*current_);
      }
      if (++pass_ == kPasses) {
        pass_ = 0;
        issued_.pop_front();
        started_ = true;
        if (!current_->fault && current_->store)
          store_open_ = true; // finishes when its writes are sent (seen at idle)
      }
    }
    sample_memory(cycle);
    sample_param();
    sample_return();
    sample_fault();
    if (current_ && started_ && current_->fault && fault_seen_) {
      finish();
    }
  }

  bool finished() const override {
    return left_ == 0 && issued_.empty() && !current_ && pending_.empty() && !rsp_ &&
           top_.idle_o;
  }
  bool passed() const override { return errors_ == 0; }
  void report() const override {
    std::printf("wf_lsu (%u lanes, %u-byte lines): %llu instructions (%llu faults, %llu loads, "
                "%llu stores, %llu atomics), %llu rows, %llu line reads, %llu line writes, "
                "%llu param reads, %llu shared lane accesses, %llu errors\n",
                kLanes, kLine, ull(done_), ull(faults_), ull(loads_), ull(stores_), ull(atomics_),
                ull(rows_seen_), ull(reads_), ull(writes_), ull(param_reads_), ull(shared_lanes_),
                ull(errors_));
  }

private:
  static unsigned long long ull(uint64_t v) { return static_cast<unsigned long long>(v); }

  template <class... Args> void error(const char *fmt, Args... args) {
    ++errors_;
    if (errors_ <= 20) {
      std::fprintf(stderr, "wf_lsu: cycle %llu: ", ull(cycle_));
      std::fprintf(stderr, fmt, args...);
      std::fprintf(stderr, "\n");
    }
  }

  // --- The reference: one instruction, with the emulator's rules.
  struct Resolved {
    Space space = kGlobal;
    uint64_t off = 0; // offset in the space
    uint32_t size = 0;
  };

  static Resolved resolve(const Instr &in, uint64_t addr) {
    Resolved r;
    r.size = 0;
    auto window = [&](uint64_t a) -> Space {
      switch (a & ~0xffffffffull) {
      case kSharedWin: return kShared;
      case kLocalWin: return kLocal;
      case kConstWin: return kConst;
      case kParamWin: return kParam;
      default: return kGlobal;
      }
    };
    switch (in.op) {
    case isa::Opcode::LDG: case isa::Opcode::STG: r.space = kGlobal; break;
    case isa::Opcode::LDL: case isa::Opcode::STL: r.space = kLocal; break;
    case isa::Opcode::LDC: r.space = kConst; break;
    case isa::Opcode::LDP: r.space = kParam; break;
    case isa::Opcode::LDS: case isa::Opcode::STS: r.space = kShared; break;
    case isa::Opcode::ATOM:
      r.space = in.atomSpace == 1 ? kGlobal : in.atomSpace == 2 ? kShared : window(addr);
      break;
    default: r.space = window(addr); break;
    }
    if (r.space == kGlobal) {
      r.off = addr - kGlobalBase;
      return r;
    }
    r.off = uint32_t(addr);
    return r;
  }

  std::optional<Fault> check(const Instr &in, unsigned l, uint64_t addr, Resolved &r) {
    r = resolve(in, addr);
    const bool write = !in.load;
    Fault f;
    f.lane = l;
    f.address = addr;
    f.space = r.space;
    f.write = write;
    f.size = in.bytes;
    if (addr & (in.bytes - 1)) {
      f.kind = kMisaligned;
      f.detail = kDetMisaligned;
      return f;
    }
    uint64_t size = r.space == kGlobal ? kMemBytes
                  : r.space == kLocal  ? kLocalBytes
                  : r.space == kConst  ? kConstSize
                  : r.space == kParam  ? kParamSize
                                       : kSharedBytes;
    if (r.off >= size || size - r.off < in.bytes) {
      f.kind = kOob;
      f.detail = kDetOutside;
      return f;
    }
    if (write && (r.space == kConst || r.space == kParam)) {
      f.kind = kReadOnly;
      f.detail = in.atomic ? kDetRoAtomic : kDetRoStore;
      return f;
    }
    return std::nullopt;
  }

  // Where a byte of a resolved access lives: device-memory offset, or param RAM.
  uint64_t device_offset(const Instr &in, unsigned l, const Resolved &r, unsigned j) const {
    const uint64_t o = r.off + j;
    switch (r.space) {
    case kGlobal: return o;
    case kConst: return kConstOff + o;
    case kLocal: {
      const uint64_t area = kLocalOff + uint64_t(kCoreId * kWarps + in.warp) * kLocalBytes * 32;
      return area + ((o / 4) * 32 + l) * 4 + (o & 3);
    }
    default: return o; // param: its own RAM
    }
  }

  void reference(Instr &in) {
    std::array<Resolved, 32> res{};
    std::array<uint64_t, 32> addr{};
    for (unsigned l = 0; l < 32; ++l) {
      if (!((in.exec >> l) & 1))
        continue;
      const int64_t off = in.atomic ? 0 : int64_t(int32_t(in.offset));
      const bool wide = in.op == isa::Opcode::LDG || in.op == isa::Opcode::STG ||
                        in.op == isa::Opcode::LD || in.op == isa::Opcode::ST ||
                        (in.atomic && in.atomSpace != 2);
      addr[l] = wide ? in.ra[l] + uint64_t(off) : uint64_t(uint32_t(uint32_t(in.ra[l]) + uint32_t(off)));
      if (auto f = check(in, l, addr[l], res[l])) {
        in.fault = f;
        return;
      }
    }
    in.words = in.atomic ? (in.bytes == 8 ? 2 : 1) : std::max(1u, in.bytes / 4);
    // The line requests of each run (docs: global and const lanes, then local lanes a word at a
    // time, then param lanes), from hls's coalescer.
    if (!in.atomic) {
      auto lines = [&](auto pick, unsigned sizeLog2, unsigned word) {
        hls::CoalesceRequest cr;
        cr.sizeLog2 = sizeLog2;
        for (unsigned l = 0; l < 32; ++l) {
          if (!((in.exec >> l) & 1) || !pick(res[l].space))
            continue;
          cr.mask |= 1u << l;
          cr.addr[l] = res[l].space == kParam
                           ? res[l].off
                           : kGlobalBase + device_offset(in, l, res[l], 4 * word);
        }
        return hls::coalesce(cr, kLine).count;
      };
      const unsigned sl = unsigned(std::countr_zero(in.bytes));
      in.memLines = lines([](Space s) { return s == kGlobal || s == kConst; }, sl, 0);
      for (unsigned k = 0; k < std::max(1u, in.bytes / 4); ++k)
        in.memLines += lines([](Space s) { return s == kLocal; }, std::min(sl, 2u), k);
      in.paramLines = lines([](Space s) { return s == kParam; }, sl, 0);
    }
    for (unsigned l = 0; l < 32; ++l)
      shared_lanes_ += ((in.exec >> l) & 1) && res[l].space == kShared;
    auto byte_at = [&](unsigned l, unsigned j) -> uint8_t & {
      if (res[l].space == kParam)
        return param_[res[l].off + j];
      if (res[l].space == kShared)
        return smem_[in.warp * kSharedBytes + res[l].off + j];
      return ref_[device_offset(in, l, res[l], j)];
    };
    for (unsigned l = 0; l < 32; ++l) {
      if (!((in.exec >> l) & 1))
        continue;
      if (in.load) {
        uint8_t b[16];
        for (unsigned j = 0; j < in.bytes; ++j)
          b[j] = byte_at(l, j);
        uint32_t w[4] = {0, 0, 0, 0};
        switch (in.sizeCode) {
        case 0: w[0] = b[0]; break;
        case 1: w[0] = uint32_t(int32_t(int8_t(b[0]))); break;
        case 2: w[0] = uint32_t(b[0] | b[1] << 8); break;
        case 3: w[0] = uint32_t(int32_t(int16_t(uint16_t(b[0] | b[1] << 8)))); break;
        default: std::memcpy(w, b, in.bytes); break;
        }
        for (unsigned k = 0; k < 4; ++k)
          in.result[l][k] = w[k];
      } else if (in.store) {
        uint8_t b[16];
        std::memcpy(b, in.data[l].data(), 16);
        for (unsigned j = 0; j < in.bytes; ++j)
          byte_at(l, j) = b[j];
      } else {
        uint64_t old = 0;
        for (unsigned j = 0; j < in.bytes; ++j)
          old |= uint64_t(byte_at(l, j)) << (8 * j);
        uint64_t nv;
        if (in.bytes == 4)
          nv = hls::atomNew<uint32_t>(hls::AtomOp(in.atomFn), hls::AtomType(in.atomTy),
                                      uint32_t(old), uint32_t(in.b[l]), uint32_t(in.c[l]));
        else
          nv = hls::atomNew<uint64_t>(hls::AtomOp(in.atomFn), hls::AtomType(in.atomTy), old,
                                      in.b[l], in.c[l]);
        for (unsigned j = 0; j < in.bytes; ++j)
          byte_at(l, j) = uint8_t(nv >> (8 * j));
        in.result[l][0] = uint32_t(old);
        in.result[l][1] = uint32_t(old >> 32);
      }
    }
  }

  // The address operand's immediate field (the generated operand table's second field).
  static uint64_t with_offset(uint64_t word, isa::Opcode op, uint32_t offset) {
    const auto &info = isa::opInfo(op);
    for (unsigned i = 0; i < info.numOperands; ++i)
      if (info.operands[i].name == "addr")
        return isa::setField(word, info.operands[i].imm, offset);
    std::fprintf(stderr, "tb: %s has no address operand\n", std::string(info.name).c_str());
    std::exit(2);
  }

  // --- Random instructions.
  uint64_t lane_target(Space s, unsigned bytes, uint64_t base, unsigned l, unsigned pattern) {
    uint64_t span = s == kGlobal ? 0x40000 : s == kLocal ? kLocalBytes : s == kConst ? kConstSize
                  : s == kParam ? kParamSize : kSharedBytes;
    uint64_t off;
    switch (pattern) {
    case 0: off = base + uint64_t(l) * bytes; break;       // consecutive
    case 1: off = base; break;                              // broadcast
    case 2: off = base + uint64_t(l) * bytes * 3; break;    // strided
    case 3: off = base + uint64_t(l) * 4 * kBanks; break;   // one bank: a 32-way conflict
    case 4: off = base + uint64_t(l % 4) * 4 * kBanks + 4 * (l / 4); break; // 4-way
    default: off = rng_.u64() % span; break;                // scattered
    }
    off = (off % (span - bytes + 1)) & ~uint64_t(bytes - 1);
    switch (s) {
    case kGlobal: return kGlobalBase + off;
    case kLocal: return kLocalWin + off;
    case kConst: return kConstWin + off;
    case kParam: return kParamWin + off;
    default: return kSharedWin + off;
    }
  }

  Instr make() {
    Instr in;
    static constexpr isa::Opcode kOps[] = {
        isa::Opcode::LDG, isa::Opcode::STG, isa::Opcode::LD,  isa::Opcode::ST,
        isa::Opcode::LDL, isa::Opcode::STL, isa::Opcode::LDC, isa::Opcode::LDP,
        isa::Opcode::ATOM, isa::Opcode::LDS, isa::Opcode::STS, isa::Opcode::LDS,
        isa::Opcode::ATOM};
    in.op = kOps[rng_.below(sizeof(kOps) / sizeof(kOps[0]))];
    in.warp = rng_.below(kWarps);
    // First a prologue: STS.128 over every warp's shared block, so that the reference knows all
    // of shared memory (its contents are undefined after reset).
    if (prologue_ < kSmemBytes / 512) {
      in.op = isa::Opcode::STS;
      in.warp = prologue_ / (kSharedBytes / 512);
      in.store = true;
      in.exec = ~0u;
      in.sizeCode = 6;
      in.bytes = 16;
      in.rd = 8;
      in.word = with_offset(Inst(in.op).mod("size", 6).operand("rd", 8).operand("addr", 2).word(),
                            in.op, 0);
      for (unsigned l = 0; l < 32; ++l) {
        in.ra[l] = (prologue_ % (kSharedBytes / 512)) * 512 + 16 * l;
        for (unsigned k = 0; k < 4; ++k)
          in.data[l][k] = rng_.u32();
      }
      ++prologue_;
      return in;
    }
    in.sb = rng_.below(6);
    in.pc = rng_.below(1u << 20);
    in.exec = rng_.chance(40) ? ~0u : rng_.chance(10) ? 0u : rng_.u32();
    const unsigned pattern = rng_.below(6);
    unsigned space_sel = 0;
    if (in.op == isa::Opcode::ATOM) {
      in.atomic = true;
      in.atomSpace = rng_.below(3); // generic, global, shared
      in.atomTy = rng_.below(4);            // U32 S32 U64 S64
      do {
        in.atomFn = rng_.below(10);
      } while ((in.atomFn == 3 || in.atomFn == 4) && in.atomTy != 0);
      in.bytes = in.atomTy >= 2 ? 8 : 4;
      in.sizeCode = in.bytes == 8 ? 5 : 4;
      in.rd = 8 + 2 * rng_.below(8);
      Inst w(isa::Opcode::ATOM);
      w.mod("fn", in.atomFn).mod("ty", in.atomTy).mod("space", in.atomSpace);
      w.operand("rd", in.rd).operand("addr", 2).operand("rb", 4).operand("rc", 6);
      in.word = w.word();
    } else {
      in.load = in.op == isa::Opcode::LDG || in.op == isa::Opcode::LD || in.op == isa::Opcode::LDL ||
                in.op == isa::Opcode::LDC || in.op == isa::Opcode::LDP || in.op == isa::Opcode::LDS;
      in.store = !in.load;
      in.sizeCode = rng_.below(7);
      static constexpr unsigned kBytes[] = {1, 1, 2, 2, 4, 8, 16};
      in.bytes = kBytes[in.sizeCode];
      in.rd = 8 + 4 * rng_.below(8);
      offset_ = rng_.chance(50) ? 0 : uint32_t(int32_t(rng_.below(64)) - 32) & ~(in.bytes - 1);
      in.word = with_offset(
          Inst(in.op).mod("size", in.sizeCode).operand("rd", in.rd).operand("addr", 2).word(),
          in.op, offset_);
    }
    if (in.atomic)
      offset_ = 0;
    // The space of each lane.
    const bool generic = in.op == isa::Opcode::LD || in.op == isa::Opcode::ST ||
                         (in.atomic && in.atomSpace == 0);
    const Space fixed = in.op == isa::Opcode::LDG || in.op == isa::Opcode::STG ? kGlobal
                      : in.op == isa::Opcode::LDL || in.op == isa::Opcode::STL ? kLocal
                      : in.op == isa::Opcode::LDC ? kConst
                      : in.op == isa::Opcode::LDP ? kParam
                      : in.op == isa::Opcode::LDS || in.op == isa::Opcode::STS ||
                        (in.atomic && in.atomSpace == 2) ? kShared
                                                  : kGlobal;
    space_sel = rng_.below(5);
    const uint64_t base = rng_.u64();
    for (unsigned l = 0; l < 32; ++l) {
      Space s = fixed;
      if (generic) {
        // Loads: any window; stores and atomics: global and local (const/param only as faults).
        if (rng_.chance(30))
          space_sel = rng_.below(5);
        static constexpr Space kLoadSpaces[] = {kGlobal, kLocal, kConst, kParam, kShared};
        static constexpr Space kWriteSpaces[] = {kGlobal, kLocal, kShared, kShared, kGlobal};
        s = in.load ? kLoadSpaces[space_sel % 5] : kWriteSpaces[space_sel % 5];
        if (in.atomic && in.bytes == 8 && s == kLocal)
          s = kGlobal; // 64-bit atomics on local memory are not built (wf_lsu.sv)
      }
      uint64_t target = lane_target(s, in.bytes, base % 0x40000, l, pattern);
      if (!generic && s != kGlobal)
        target = uint32_t(target); // a 32-bit space: the offset is the address
      in.ra[l] = target - uint64_t(int64_t(int32_t(offset_)));
      if (!generic && s != kGlobal)
        in.ra[l] = uint32_t(in.ra[l]);
      for (unsigned k = 0; k < 4; ++k)
        in.data[l][k] = rng_.int32();
      in.b[l] = rng_.chance(50) ? rng_.int32() : rng_.u64();
      in.c[l] = rng_.chance(50) ? rng_.int32() : rng_.u64();
      if (in.atomic) {
        in.data[l][0] = uint32_t(in.b[l]);
        in.data[l][1] = uint32_t(in.b[l] >> 32);
      }
    }
    // Sometimes a fault in a lane: misaligned, outside the space, or read-only.
    if (rng_.chance(8)) {
      const unsigned l = rng_.below(32);
      switch (rng_.below(3)) {
      case 0: in.ra[l] += in.bytes > 1 ? in.bytes / 2 : 0; break;
      case 1: in.ra[l] += generic || fixed == kGlobal ? kMemBytes : 0x10000; break;
      default:
        if (generic)
          in.ra[l] = kConstWin + 16 - uint64_t(int64_t(int32_t(offset_)));
        else
          in.ra[l] = (generic || fixed == kGlobal) ? kGlobalBase - 64 : 0xfffffff0u;
        break;
      }
      if (!generic && fixed != kGlobal)
        in.ra[l] = uint32_t(in.ra[l]);
    }
    in.offset = offset_;
    return in;
  }

  // --- Memory port.
  struct Rsp {
    uint8_t tag = 0;
    std::array<uint8_t, kLine> line{};
    uint64_t old = 0;
    uint64_t due = 0;
    int warp = -1; // write acknowledgements: the warp
  };

  void sample_memory(uint64_t cycle) {
    if (rsp_ && top_.mem_rsp_ready_o) {
      if (verbose_)
        std::printf("%llu: mem rsp tag %02x\n", ull(cycle), rsp_->tag);
      if (rsp_->warp >= 0)
        --unacked_[rsp_->warp];
      rsp_.reset();
    }
    if (!(top_.mem_req_valid_o && top_.mem_req_ready_i))
      return;
    Rsp r;
    r.tag = top_.mem_req_tag_o;
    if (verbose_)
      std::printf("%llu: mem req kind %u addr %llx tag %02x\n", ull(cycle), top_.mem_req_kind_o,
                  ull(top_.mem_req_addr_o), top_.mem_req_tag_o);
    r.due = cycle + 1 + rng_.below(12);
    const uint64_t addr = top_.mem_req_addr_o;
    if (!current_) {
      error("a memory request with no instruction");
      return;
    }
    const unsigned kind = top_.mem_req_kind_o;
    if (kind == 2) { // atomic
      ++reads_;
      const uint64_t off = addr - kGlobalBase;
      if (!current_->atomic || off >= kMemBytes || (off & (current_->bytes - 1))) {
        error("bad atomic request at %llx", ull(addr));
        return;
      }
      if (top_.mem_req_atom_fn_o != current_->atomFn || top_.mem_req_atom_ty_o != current_->atomTy)
        error("atomic fn/ty %u/%u, expected %u/%u", top_.mem_req_atom_fn_o,
              top_.mem_req_atom_ty_o, current_->atomFn, current_->atomTy);
      uint64_t old = 0;
      for (unsigned j = 0; j < current_->bytes; ++j)
        old |= uint64_t(mem_[off + j]) << (8 * j);
      const uint64_t a = top_.mem_req_atom_a_o, b = top_.mem_req_atom_b_o;
      uint64_t nv = current_->bytes == 4
                        ? hls::atomNew<uint32_t>(hls::AtomOp(current_->atomFn),
                                                 hls::AtomType(current_->atomTy), uint32_t(old),
                                                 uint32_t(a), uint32_t(b))
                        : hls::atomNew<uint64_t>(hls::AtomOp(current_->atomFn),
                                                 hls::AtomType(current_->atomTy), old, a, b);
      for (unsigned j = 0; j < current_->bytes; ++j)
        mem_[off + j] = uint8_t(nv >> (8 * j));
      r.old = old;
      r.warp = -1;
      ++atomics_out_[current_->warp];
      pending_.push_back(r);
      return;
    }
    const uint64_t off = addr - kGlobalBase;
    if ((addr & (kLine - 1)) || off >= kMemBytes) {
      error("bad line address %llx", ull(addr));
      return;
    }
    ++current_->memSeen;
    if (kind == 0) {
      ++reads_;
      if (!current_->load)
        error("a line read for a store or atomic");
      std::memcpy(r.line.data(), &mem_[off], kLine);
    } else {
      ++writes_;
      if (!current_->store)
        error("a line write for a load or atomic");
      for (unsigned j = 0; j < kLine; ++j)
        if (get_bit(top_.mem_req_wmask_o, j))
          mem_[off + j] = uint8_t(get_bits(top_.mem_req_wdata_o, 8 * j, 8));
      if ((r.tag >> 6) != 1 || (r.tag & 0x3f) != current_->warp)
        error("write tag %02x for warp %u", r.tag, current_->warp);
      r.warp = int(r.tag & 0x3f);
      ++unacked_[r.warp];
    }
    pending_.push_back(r);
  }

  struct ParamRsp {
    uint32_t addr;
    uint64_t due;
  };
  void sample_param() {
    if (top_.param_req_valid_o && top_.param_req_ready_i) {
      ++param_reads_;
      if (current_)
        ++current_->paramSeen;
      const uint32_t a = top_.param_req_addr_o;
      if ((a & (kLine - 1)) || a + kLine > param_.size())
        error("bad param address %x", a);
      else
        param_q_.push_back({a, cycle_ + 1 + rng_.below(4)});
    }
  }

  void sample_return() {
    if (!(top_.ret_valid_o && top_.ret_grant_i))
      return;
    ++rows_seen_;
    if (verbose_)
      std::printf("%llu: row r%u pass %u\n", ull(cycle_), top_.ret_rd_o, top_.ret_pass_o);
    if (!current_ || !(current_->load || current_->atomic) || current_->fault) {
      error("a return row with no load or atomic");
      return;
    }
    const Instr &in = *current_;
    const unsigned pass = top_.ret_pass_o, rd = top_.ret_rd_o;
    const unsigned k = rd - in.rd;
    if (top_.ret_warp_o != in.warp || top_.ret_sb_o != in.sb || k >= in.words || pass >= kPasses ||
        !rows_.insert(k * kPasses + pass).second) {
      error("row warp %u sb %u r%u pass %u unexpected (warp %u sb %u r%u, %u words)",
            top_.ret_warp_o, top_.ret_sb_o, rd, pass, in.warp, in.sb, in.rd, in.words);
      return;
    }
    const bool last = rows_.size() == in.words * kPasses;
    if (bool(top_.ret_release_o) != last)
      error("release_sb %u on row %zu of %u", top_.ret_release_o, rows_.size(), in.words * kPasses);
    for (unsigned i = 0; i < kLanes; ++i) {
      const unsigned l = pass * kLanes + i;
      const bool on = (in.exec >> l) & 1;
      if (get_bit(top_.ret_lanes_o, i) != on)
        error("row r%u pass %u: lane %u write enable %d", rd, pass, l, !on);
      const uint32_t got = uint32_t(get_bits(top_.ret_data_o, 32 * i, 32));
      if (on && got != in.result[l][k])
        error("%s r%u lane %u: %08x, expected %08x (size %u, address %llx + %x)",
              std::string(isa::opInfo(in.op).name).c_str(), rd, l, got, in.result[l][k], in.bytes,
              ull(in.ra[l]), in.offset);
    }
    if (last)
      finish();
  }

  void sample_fault() {
    if (!top_.fault_valid_o)
      return;
    ++faults_;
    if (!current_ || !current_->fault || fault_seen_) {
      error("an unexpected fault (kind %u lane %u address %llx)", top_.fault_kind_o,
            top_.fault_lane_o, ull(top_.fault_address_o));
      return;
    }
    fault_seen_ = true;
    const Fault &f = *current_->fault;
    if (top_.fault_kind_o != f.kind || top_.fault_detail_o != f.detail ||
        top_.fault_space_o != f.space || bool(top_.fault_write_o) != f.write ||
        top_.fault_size_o != f.size || top_.fault_lane_o != f.lane ||
        top_.fault_address_o != f.address || top_.fault_warp_o != current_->warp ||
        top_.fault_pc_o != current_->pc)
      error("fault kind %u detail %u space %u write %u size %u lane %u address %llx, expected "
            "kind %u detail %u space %u write %u size %u lane %u address %llx",
            top_.fault_kind_o, top_.fault_detail_o, top_.fault_space_o, top_.fault_write_o,
            top_.fault_size_o, top_.fault_lane_o, ull(top_.fault_address_o), f.kind, f.detail,
            f.space, f.write, f.size, f.lane, ull(f.address));
  }

  void finish() {
    const Instr &in = *current_;
    ++done_;
    if (in.fault)
      ;
    else if (in.load)
      ++loads_;
    else if (in.store)
      ++stores_;
    else
      ++atomics_;
    --outstanding_[in.warp];
    if (mem_ != ref_) {
      size_t i = 0;
      while (mem_[i] == ref_[i])
        ++i;
      error("after %s (warp %u): memory byte %zx is %02x, expected %02x", std::string(isa::opInfo(in.op).name).c_str(),
            in.warp, i, mem_[i], ref_[i]);
      mem_ = ref_;
    }
    if (!in.atomic && (in.memSeen != in.memLines || in.paramSeen != in.paramLines))
      error("%s (warp %u): %u line and %u param requests, hls::coalesce makes %u and %u",
            std::string(isa::opInfo(in.op).name).c_str(), in.warp, in.memSeen, in.paramSeen,
            in.memLines, in.paramLines);
    current_.reset();
    started_ = store_open_ = fault_seen_ = false;
  }

  Vtb_lsu_top &top_;
  Rng rng_;
  bool verbose_ = false;
  uint64_t left_;
  std::vector<uint8_t> mem_, ref_, param_;
  std::vector<uint8_t> smem_ = std::vector<uint8_t>(kSmemBytes);
  unsigned prologue_ = 0;
  std::deque<Instr> issued_;
  std::optional<Instr> current_;
  std::set<unsigned> rows_;
  uint32_t offset_ = 0;
  unsigned pass_ = 0;
  bool started_ = false, store_open_ = false, fault_seen_ = false;
  std::vector<Rsp> pending_;
  std::optional<Rsp> rsp_;
  std::deque<ParamRsp> param_q_;
  std::array<unsigned, kWarps> outstanding_{}, unacked_{}, atomics_out_{};
  uint64_t cycle_ = 0, done_ = 0, faults_ = 0, loads_ = 0, stores_ = 0, atomics_ = 0;
  uint64_t shared_lanes_ = 0;
  uint64_t rows_seen_ = 0, reads_ = 0, writes_ = 0, param_reads_ = 0, errors_ = 0;
};

} // namespace

int main(int argc, char **argv) { return run_bench<Vtb_lsu_top, LsuBench>(argc, argv, "wf_lsu"); }
