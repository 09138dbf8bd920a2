// wf_gpu's command processor, dispatcher and memory system, driven as the runtime drives a
// device: register reads and writes over AXI4-Lite, commands in a ring in host memory, a C++
// host memory behind the host-DMA AXI4 master and a C++ DRAM behind the DRAM AXI4 masters (both
// with random ready stalls and fixed latencies). The cores are the bench fixture
// tests/rtl/fixtures/wf_core_standin.sv (not the real core: it runs no instructions, it marks
// each block it is given with one u32 atomic add at rtbuf + 4 x linear block index, and faults on
// the last block when grid_id bit 63 is set).
//
// Every command is also applied to a reference model of host and device memory (the emulator's
// command semantics: sim/func command_processor.cpp), and the completion records, COMPLETED_SEQ,
// STATUS, IRQ_STATUS and irq_o are checked against what the model expects. Directed commands
// first (registers, every opcode, bad commands, valid / invalid / faulting launches), then
// --vectors random COPY/FILL/TIMESTAMP/NOP commands with random sizes and alignments through a
// 16-entry ring that wraps.
#include "Vwf_gpu.h"
#include "common/tb_util.h"
#include "warpforge/isa/config.gen.h"
#include "warpforge/isa/device.gen.h"

#include <array>
#include <cstring>
#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace {

using wf::rtl::SimExtension;
using namespace wf::rtl::tb;
namespace dev = wf::isa::dev;

constexpr unsigned kConfigIndex = WF_CONFIG_INDEX;
constexpr unsigned kChannels = WF_CHANNELS;
constexpr unsigned kLineBytes = WF_LINE_BYTES;
constexpr unsigned kHostBeat = 64;
constexpr uint64_t kWindow = 1u << 20;  // DMA window bytes
constexpr uint64_t kGlobalBase = wf::isa::kGlobalBase;
const wf::isa::Config &kCfg = wf::isa::kConfigs[kConfigIndex];
constexpr unsigned kHostLatency = 23;
constexpr unsigned kDramLatency = 11;

// ---------------------------------------------------------------------------------------------
// Memories: host window (flat) and device memory (sparse lines), shared by the platform (what the
// RTL sees) and the reference model (what it should see).
struct Memories {
  std::vector<uint8_t> host = std::vector<uint8_t>(kWindow, 0);
  std::map<uint64_t, std::array<uint8_t, kLineBytes>> dev; // by device byte offset of the line

  uint8_t dev_byte(uint64_t off) const {
    auto it = dev.find(off / kLineBytes * kLineBytes);
    return it == dev.end() ? 0 : it->second[off % kLineBytes];
  }
  void set_dev_byte(uint64_t off, uint8_t v) {
    auto [it, fresh] = dev.try_emplace(off / kLineBytes * kLineBytes);
    if (fresh)
      it->second.fill(0);
    it->second[off % kLineBytes] = v;
  }
};

// ---------------------------------------------------------------------------------------------
// The platform: AXI4 slaves for host DMA and DRAM, AXI4-Lite master for the registers.
class Platform : public SimExtension {
public:
  Platform(Vwf_gpu &top, Memories &mem, uint64_t seed) : top_(top), mem_(mem), rng_(seed) {}

  void on_reset() override {
    top_.dma_window_size_i = static_cast<uint32_t>(kWindow);
    top_.s_axil_awvalid_i = 0;
    top_.s_axil_wvalid_i = 0;
    top_.s_axil_arvalid_i = 0;
    top_.s_axil_bready_i = 1;
    top_.s_axil_rready_i = 1;
    top_.m_axi_host_rvalid_i = 0;
    top_.m_axi_host_bvalid_i = 0;
    top_.m_axi_dram_rvalid_i = 0;
    top_.m_axi_dram_bvalid_i = 0;
  }

  // AXI4-Lite operations, run by the main loop through busy().
  void lite_write(uint32_t addr, uint32_t data) { lite_ = Lite{true, addr, data}; }
  void lite_read(uint32_t addr) { lite_ = Lite{false, addr, 0}; }
  bool busy() const { return lite_.has_value(); }
  uint32_t lite_result() const { return lite_data_; }
  bool irq() const { return irq_; }

  void drive(uint64_t cycle) override {
    // AXI4-Lite master.
    top_.s_axil_awvalid_i = lite_ && lite_->write && !lite_->addr_done;
    top_.s_axil_wvalid_i = lite_ && lite_->write && !lite_->data_done;
    top_.s_axil_awaddr_i = lite_ ? lite_->addr : 0;
    top_.s_axil_wdata_i = lite_ ? lite_->data : 0;
    top_.s_axil_wstrb_i = 0xf;
    top_.s_axil_arvalid_i = lite_ && !lite_->write && !lite_->addr_done;
    top_.s_axil_araddr_i = lite_ ? lite_->addr : 0;
    // Host DMA slave.
    top_.m_axi_host_arready_i = rng_.chance(70);
    top_.m_axi_host_awready_i = rng_.chance(70);
    top_.m_axi_host_wready_i = rng_.chance(70);
    top_.m_axi_host_rvalid_i = !host_r_.empty() && host_r_.front().due <= cycle;
    if (top_.m_axi_host_rvalid_i) {
      for (unsigned w = 0; w < kHostBeat / 4; ++w) {
        uint32_t v;
        std::memcpy(&v, host_r_.front().data.data() + 4 * w, 4);
        top_.m_axi_host_rdata_i[w] = v;
      }
      top_.m_axi_host_rresp_i = host_r_.front().error ? 2 : 0;
      top_.m_axi_host_rlast_i = 1;
      top_.m_axi_host_rid_i = 0;
    }
    top_.m_axi_host_bvalid_i = !host_b_.empty() && host_b_.front().due <= cycle;
    top_.m_axi_host_bresp_i = 0;
    top_.m_axi_host_bid_i = 0;
    // DRAM slaves.
    for (unsigned c = 0; c < kChannels; ++c) {
      set_bit(top_.m_axi_dram_arready_i, c, rng_.chance(70));
      set_bit(top_.m_axi_dram_awready_i, c, rng_.chance(70));
      set_bit(top_.m_axi_dram_wready_i, c, rng_.chance(70));
      const bool rv = !dram_r_[c].empty() && dram_r_[c].front().due <= cycle;
      set_bit(top_.m_axi_dram_rvalid_i, c, rv);
      set_bit(top_.m_axi_dram_rlast_i, c, 1);
      if (rv) {
        set_bits(top_.m_axi_dram_rid_i, 4 * c, 4, dram_r_[c].front().id);
        set_bits(top_.m_axi_dram_rresp_i, 2 * c, 2, 0);
        for (unsigned b = 0; b < kLineBytes; ++b)
          set_bits(top_.m_axi_dram_rdata_i, (c * kLineBytes + b) * 8, 8,
                   dram_r_[c].front().data[b]);
      }
      const bool bv = !dram_b_[c].empty() && dram_b_[c].front().due <= cycle;
      set_bit(top_.m_axi_dram_bvalid_i, c, bv);
      if (bv) {
        set_bits(top_.m_axi_dram_bid_i, 4 * c, 4, dram_b_[c].front().id);
        set_bits(top_.m_axi_dram_bresp_i, 2 * c, 2, 0);
      }
    }
  }

  void sample(uint64_t cycle) override {
    irq_ = top_.irq_o;
    // AXI4-Lite master.
    if (lite_) {
      if (lite_->write) {
        lite_->addr_done |= top_.s_axil_awvalid_i && top_.s_axil_awready_o;
        lite_->data_done |= top_.s_axil_wvalid_i && top_.s_axil_wready_o;
        if (top_.s_axil_bvalid_o) {
          check(top_.s_axil_bresp_o == 0, "AXI4-Lite write response not OKAY");
          lite_.reset();
        }
      } else {
        lite_->addr_done |= top_.s_axil_arvalid_i && top_.s_axil_arready_o;
        if (top_.s_axil_rvalid_o) {
          check(top_.s_axil_rresp_o == 0, "AXI4-Lite read response not OKAY");
          lite_data_ = top_.s_axil_rdata_o;
          lite_.reset();
        }
      }
    }
    // Host reads: one 64-byte beat at a window offset.
    if (top_.m_axi_host_arvalid_o && top_.m_axi_host_arready_i) {
      const uint64_t a = top_.m_axi_host_araddr_o;
      check(a % kHostBeat == 0 && top_.m_axi_host_arlen_o == 0 && top_.m_axi_host_arsize_o == 6,
            "host read is not one aligned 64-byte beat");
      Beat r{cycle + kHostLatency, {}, a + kHostBeat > kWindow};
      if (!r.error)
        std::memcpy(r.data.data(), mem_.host.data() + a, kHostBeat);
      host_r_.push_back(r);
    }
    if (top_.m_axi_host_rvalid_i && top_.m_axi_host_rready_o)
      host_r_.pop_front();
    // Host writes: AW and W may come in either order.
    if (top_.m_axi_host_awvalid_o && top_.m_axi_host_awready_i)
      host_aw_.push_back(top_.m_axi_host_awaddr_o);
    if (top_.m_axi_host_wvalid_o && top_.m_axi_host_wready_i) {
      Beat w{};
      for (unsigned wd = 0; wd < kHostBeat / 4; ++wd) {
        const uint32_t v = top_.m_axi_host_wdata_o[wd];
        std::memcpy(w.data.data() + 4 * wd, &v, 4);
      }
      w.strb = top_.m_axi_host_wstrb_o;
      host_w_.push_back(w);
    }
    while (!host_aw_.empty() && !host_w_.empty()) {
      const uint64_t a = host_aw_.front();
      check(a % kHostBeat == 0 && a + kHostBeat <= kWindow, "host write outside the window");
      for (unsigned b = 0; b < kHostBeat && a + kHostBeat <= kWindow; ++b)
        if ((host_w_.front().strb >> b) & 1)
          mem_.host[a + b] = host_w_.front().data[b];
      host_aw_.pop_front();
      host_w_.pop_front();
      host_b_.push_back(Beat{cycle + kHostLatency, {}, false});
    }
    if (top_.m_axi_host_bvalid_i && top_.m_axi_host_bready_o)
      host_b_.pop_front();
    // DRAM, per channel.
    for (unsigned c = 0; c < kChannels; ++c) {
      if (get_bit(top_.m_axi_dram_arvalid_o, c) && get_bit(top_.m_axi_dram_arready_i, c)) {
        const uint64_t a = get_bits(top_.m_axi_dram_araddr_o, 64 * c, 64);
        check_line(a, c);
        Line r{cycle + kDramLatency, static_cast<unsigned>(get_bits(top_.m_axi_dram_arid_o, 4 * c, 4)), {}};
        for (unsigned b = 0; b < kLineBytes; ++b)
          r.data[b] = mem_.dev_byte(a + b);
        dram_r_[c].push_back(r);
      }
      if (get_bit(top_.m_axi_dram_rvalid_i, c) && get_bit(top_.m_axi_dram_rready_o, c))
        dram_r_[c].pop_front();
      if (get_bit(top_.m_axi_dram_awvalid_o, c) && get_bit(top_.m_axi_dram_awready_i, c)) {
        dram_aw_[c].push_back({get_bits(top_.m_axi_dram_awaddr_o, 64 * c, 64),
                               static_cast<unsigned>(get_bits(top_.m_axi_dram_awid_o, 4 * c, 4))});
      }
      if (get_bit(top_.m_axi_dram_wvalid_o, c) && get_bit(top_.m_axi_dram_wready_i, c)) {
        Line w{};
        for (unsigned b = 0; b < kLineBytes; ++b) {
          w.data[b] = static_cast<uint8_t>(get_bits(top_.m_axi_dram_wdata_o, (c * kLineBytes + b) * 8, 8));
          w.strb[b] = get_bit(top_.m_axi_dram_wstrb_o, c * kLineBytes + b);
        }
        dram_w_[c].push_back(w);
      }
      while (!dram_aw_[c].empty() && !dram_w_[c].empty()) {
        const auto [a, id] = dram_aw_[c].front();
        check_line(a, c);
        if (verbose_)
          std::printf("%llu: DRAM write ch %u line 0x%llx id %u byte3 %02x strb3 %d\n",
                      (unsigned long long)cycle, c, (unsigned long long)a, id,
                      dram_w_[c].front().data[3], int(dram_w_[c].front().strb[3]));
        for (unsigned b = 0; b < kLineBytes; ++b)
          if (dram_w_[c].front().strb[b])
            mem_.set_dev_byte(a + b, dram_w_[c].front().data[b]);
        dram_aw_[c].pop_front();
        dram_w_[c].pop_front();
        dram_b_[c].push_back(Line{cycle + kDramLatency, id, {}});
      }
      if (get_bit(top_.m_axi_dram_bvalid_i, c) && get_bit(top_.m_axi_dram_bready_o, c))
        dram_b_[c].pop_front();
    }
  }

  bool passed() const override { return errors_ == 0; }
  void check(bool ok, const char *what) {
    if (!ok && errors_++ < 10)
      std::fprintf(stderr, "tb_gpu_cp: %s\n", what);
  }

private:
  struct Lite {
    bool write;
    uint32_t addr, data;
    bool addr_done = false, data_done = false;
  };
  struct Beat {
    uint64_t due;
    std::array<uint8_t, kHostBeat> data;
    bool error;
    uint64_t strb = 0;
  };
  struct Line {
    uint64_t due;
    unsigned id;
    std::array<uint8_t, kLineBytes> data;
    std::array<bool, kLineBytes> strb{};
  };

  void check_line(uint64_t a, unsigned c) {
    check(a % kLineBytes == 0, "DRAM address not line aligned");
    check((a / kLineBytes) % kChannels == c, "DRAM line on the wrong channel");
    check(a < (uint64_t(kCfg.globalMemMib) << 20), "DRAM address outside device memory");
  }

  Vwf_gpu &top_;
  Memories &mem_;
  Rng rng_;
  std::optional<Lite> lite_;
  uint32_t lite_data_ = 0;
  bool irq_ = false;
public:
  bool verbose_ = false;
private:
  std::deque<Beat> host_r_, host_b_, host_w_;
  std::deque<uint64_t> host_aw_;
  std::array<std::deque<Line>, kChannels> dram_r_, dram_b_, dram_w_;
  std::array<std::deque<std::pair<uint64_t, unsigned>>, kChannels> dram_aw_;
  unsigned errors_ = 0;
};

// ---------------------------------------------------------------------------------------------
// The bench: builds commands, runs them, and checks against the reference model.
class Bench {
public:
  Bench(wf::rtl::SimCtrl<Vwf_gpu> &sim, Platform &plat, Memories &mem, uint64_t seed)
      : sim_(sim), plat_(plat), mem_(mem), rng_(seed) {}

  void fail(const char *fmt, uint64_t a = 0, uint64_t b = 0, uint64_t c = 0) {
    if (errors_++ < 20) {
      std::fprintf(stderr, "tb_gpu_cp: ");
      std::fprintf(stderr, fmt, static_cast<unsigned long long>(a), static_cast<unsigned long long>(b),
                   static_cast<unsigned long long>(c));
      std::fprintf(stderr, "\n");
    }
  }
  unsigned errors() const { return errors_; }

  bool wait_lite() {
    for (unsigned i = 0; i < 1000 && plat_.busy(); ++i)
      sim_.step();
    if (plat_.busy()) {
      fail("AXI4-Lite transaction did not finish");
      return false;
    }
    return true;
  }
  void wr(dev::Reg r, uint32_t v) {
    plat_.lite_write(static_cast<uint32_t>(r), v);
    wait_lite();
  }
  uint32_t rd(dev::Reg r) {
    plat_.lite_read(static_cast<uint32_t>(r));
    wait_lite();
    return plat_.lite_result();
  }
  uint64_t rd64(dev::Reg lo, dev::Reg hi) {
    const uint64_t l = rd(lo);
    return l | (uint64_t(rd(hi)) << 32);
  }

  // --- registers ---------------------------------------------------------------------------
  void check_registers() {
    struct Expect {
      dev::Reg reg;
      uint32_t value;
    };
    const uint64_t size = uint64_t(kCfg.globalMemMib) << 20;
    const Expect ro[] = {
        {dev::Reg::Magic, dev::kMagic},
        {dev::Reg::Version, dev::kVersion},
        {dev::Reg::Config, kConfigIndex},
        {dev::Reg::GlobalBaseLo, uint32_t(kGlobalBase)},
        {dev::Reg::GlobalBaseHi, uint32_t(kGlobalBase >> 32)},
        {dev::Reg::GlobalSizeLo, uint32_t(size)},
        {dev::Reg::GlobalSizeHi, uint32_t(size >> 32)},
        {dev::Reg::DmaWindowSize, uint32_t(kWindow)},
        {dev::Reg::ClockMhz, kCfg.clockMhz},
        {dev::Reg::Status, dev::kStatusIdle},
        {dev::Reg::CompletedSeqLo, 0},
        {dev::Reg::IrqStatus, 0},
    };
    for (const Expect &e : ro) {
      const uint32_t got = rd(e.reg);
      if (got != e.value)
        fail("register 0x%llx reads 0x%llx, expected 0x%llx", uint64_t(e.reg), got, e.value);
    }
    // Read-only registers ignore writes; read-write ones read back.
    wr(dev::Reg::Magic, 0x1234);
    if (rd(dev::Reg::Magic) != dev::kMagic)
      fail("MAGIC changed by a write");
    const dev::Reg rw[] = {dev::Reg::QueueBaseLo, dev::Reg::QueueBaseHi, dev::Reg::IrqEnable,
                           dev::Reg::WatchdogMinsts};
    for (dev::Reg r : rw) {
      const uint32_t v = rng_.u32();
      wr(r, v);
      if (rd(r) != v)
        fail("register 0x%llx does not read back 0x%llx", uint64_t(r), v);
      wr(r, 0);
    }
    // The cycle counter runs.
    const uint64_t c0 = rd64(dev::Reg::CyclesLo, dev::Reg::CyclesHi);
    const uint64_t c1 = rd64(dev::Reg::CyclesLo, dev::Reg::CyclesHi);
    if (c1 <= c0)
      fail("CYCLES does not advance (%llu then %llu)", c0, c1);
  }

  // --- the ring ------------------------------------------------------------------------------
  static constexpr uint64_t kRing = 0x0;           // 16 commands
  static constexpr unsigned kRingSize = 16;
  static constexpr uint64_t kRecords = 0x1000;     // completion records, 512 bytes apart
  static constexpr uint64_t kData = 0x10000;       // host data area
  static constexpr uint64_t kDev = kGlobalBase + 0x200000;  // device data area

  void setup_ring() {
    wr(dev::Reg::QueueBaseLo, uint32_t(kRing));
    wr(dev::Reg::QueueBaseHi, 0);
    wr(dev::Reg::QueueSize, kRingSize);
    wr(dev::Reg::IrqEnable, dev::kIrqStatusCompletion | dev::kIrqStatusFault);
  }

  struct Pending {
    dev::Command cmd;
    dev::Status status;
    dev::Fault fault;
    uint32_t fault_pc = 0, fault_code = 0;
    uint32_t fault_block[3] = {};
  };

  // Applies a command to the reference and returns the status the device must report.
  Pending model(const dev::Command &c) {
    Pending p{c, dev::Status::Ok, dev::Fault::None};
    const uint64_t devsize = uint64_t(kCfg.globalMemMib) << 20;
    auto dev_ok = [&](uint64_t a, uint64_t n) {
      return a >= kGlobalBase && n <= devsize && a - kGlobalBase <= devsize - n;
    };
    auto host_ok = [&](uint64_t a, uint64_t n) { return n <= kWindow && a <= kWindow - n; };
    switch (dev::Op(c.opcode)) {
    case dev::Op::Nop:
    case dev::Op::Fence:
      break;
    case dev::Op::Timestamp:
      if (!host_ok(c.arg0, 8))
        p.status = dev::Status::BadCommand;
      else
        timestamps_.push_back(c.arg0);
      break;
    case dev::Op::Copy: {
      const bool sh = c.flags & dev::kFlagSrcHost, dh = c.flags & dev::kFlagDstHost;
      if (!(sh ? host_ok(c.arg0, c.arg2) : dev_ok(c.arg0, c.arg2)) ||
          !(dh ? host_ok(c.arg1, c.arg2) : dev_ok(c.arg1, c.arg2))) {
        p.status = dev::Status::BadCommand;
        break;
      }
      std::vector<uint8_t> tmp(c.arg2);
      for (uint64_t i = 0; i < c.arg2; ++i)
        tmp[i] = sh ? ref_.host[c.arg0 + i] : ref_.dev_byte(c.arg0 - kGlobalBase + i);
      for (uint64_t i = 0; i < c.arg2; ++i) {
        if (dh)
          ref_.host[c.arg1 + i] = tmp[i];
        else
          ref_.set_dev_byte(c.arg1 - kGlobalBase + i, tmp[i]);
      }
      break;
    }
    case dev::Op::Fill:
      if (!dev_ok(c.arg0, c.arg2)) {
        p.status = dev::Status::BadCommand;
        break;
      }
      for (uint64_t i = 0; i < c.arg2; ++i)
        ref_.set_dev_byte(c.arg0 - kGlobalBase + i, uint8_t(c.arg1));
      break;
    case dev::Op::Launch:
      p = model_launch(c);
      break;
    default:
      p.status = dev::Status::BadCommand;
    }
    return p;
  }

  Pending model_launch(const dev::Command &c) {
    Pending p{c, dev::Status::Ok, dev::Fault::None};
    dev::LaunchDesc d;
    std::memcpy(&d, ref_.host.data() + c.arg0, sizeof d);
    const uint64_t threads = uint64_t(d.blockX) * d.blockY * d.blockZ;
    const uint64_t warps = (threads + 31) / 32;
    bool invalid = d.gridX == 0 || d.gridY == 0 || d.gridZ == 0 || threads == 0 ||
                   threads > kCfg.maxThreadsPerBlock || warps > kCfg.warpsPerCore ||
                   d.regsPerThread > kCfg.maxRegsPerThread ||
                   uint64_t(d.regsPerThread) * warps * 32 > kCfg.regsPerCore ||
                   uint64_t(d.sharedStatic) + d.sharedDynamic > kCfg.sharedMemPerCore ||
                   d.paramSize > 32768;
    if (invalid) {
      p.status = dev::Status::InvalidLaunch;
      p.fault = dev::Fault::InvalidLaunch;
      p.fault_pc = d.entryPc;
      return p;
    }
    // The fixture cores: one u32 add a block at rtbuf + 4 x linear index.
    for (uint64_t z = 0; z < d.gridZ; ++z)
      for (uint64_t y = 0; y < d.gridY; ++y)
        for (uint64_t x = 0; x < d.gridX; ++x) {
          const uint64_t a = d.rtbuf - kGlobalBase + 4 * (x + d.gridX * (y + d.gridY * z));
          uint32_t v = 0;
          for (unsigned i = 0; i < 4; ++i)
            v |= uint32_t(ref_.dev_byte(a + i)) << (8 * i);
          ++v;
          for (unsigned i = 0; i < 4; ++i)
            ref_.set_dev_byte(a + i, uint8_t(v >> (8 * i)));
        }
    if (d.gridId >> 63) {
      p.status = dev::Status::Fault;
      p.fault = dev::Fault::Trap;
      p.fault_pc = 0x40;
      p.fault_code = 7;
      p.fault_block[0] = d.gridX - 1;
      p.fault_block[1] = d.gridY - 1;
      p.fault_block[2] = d.gridZ - 1;
      expect_faulted_ = true;
    }
    return p;
  }

  // Writes a command into the ring (real host memory and the reference) and the model's result.
  void submit(dev::Command c) {
    c.seq = ++seq_;
    const uint64_t slot = kRing + uint64_t(tail_ % kRingSize) * sizeof c;
    std::memcpy(mem_.host.data() + slot, &c, sizeof c);
    std::memcpy(ref_.host.data() + slot, &c, sizeof c);
    pending_.push_back(model(c));
    if (c.completion != ~0ull) {
      // The device writes the whole record; its fault-detail fields stay zero (NONE) until the
      // cores report details.
      dev::Completion r{};
      const Pending &p = pending_.back();
      r.seq = c.seq;
      r.status = uint32_t(p.status);
      r.faultKind = uint32_t(p.fault);
      r.faultPc = p.fault_pc;
      r.faultCode = p.fault_code;
      r.faultBlockX = p.fault_block[0];
      r.faultBlockY = p.fault_block[1];
      r.faultBlockZ = p.fault_block[2];
      std::memcpy(ref_.host.data() + c.completion, &r, sizeof r);
      records_.push_back(c.completion);
    }
    if (c.flags & dev::kFlagIrq)
      expect_irq_ = true;
    ++tail_;
  }

  // Rings the doorbell and waits until every submitted command completed. A FENCE ends every
  // batch: the L2 is write-back, and DRAM (what compare() reads) holds the batch's writes only
  // after a FENCE has written the L2's dirty lines back.
  void run_ring() {
    submit(cmd(dev::Op::Fence, 0, 0, 0, 0));
    wr(dev::Reg::QueueTail, tail_);
    for (unsigned i = 0; i < 2000000 / 64; ++i) {
      for (unsigned k = 0; k < 64; ++k)
        sim_.step();
      if (rd(dev::Reg::CompletedSeqLo) == uint32_t(seq_))
        break;
    }
    const uint64_t done = rd64(dev::Reg::CompletedSeqLo, dev::Reg::CompletedSeqHi);
    if (done != seq_)
      fail("COMPLETED_SEQ is %llu, expected %llu", done, seq_);
    if (rd(dev::Reg::QueueHead) != tail_)
      fail("QUEUE_HEAD is %llu, expected %llu", rd(dev::Reg::QueueHead), tail_);
    // Nondeterministic fields: timestamps rise and stay below the cycle counter; a record's
    // cycles are at most the cycles since the previous check. They are copied into the reference.
    const uint64_t now = rd64(dev::Reg::CyclesLo, dev::Reg::CyclesHi);
    for (uint64_t a : timestamps_) {
      uint64_t t;
      std::memcpy(&t, mem_.host.data() + a, 8);
      if (t < last_stamp_ || t > now)
        fail("TIMESTAMP at 0x%llx is %llu, outside [%llu, now]", a, t, last_stamp_);
      last_stamp_ = t;
      std::memcpy(ref_.host.data() + a, &t, 8);
    }
    for (uint64_t a : records_) {
      uint64_t cyc;
      std::memcpy(&cyc, mem_.host.data() + a + offsetof(dev::Completion, cycles), 8);
      if (cyc == 0 || cyc > now)
        fail("completion record at 0x%llx says %llu cycles", a, cyc);
      std::memcpy(ref_.host.data() + a + offsetof(dev::Completion, cycles), &cyc, 8);
    }
    timestamps_.clear();
    records_.clear();
    pending_.clear();
    // Interrupts: IRQ_STATUS, the line, and write-1-to-clear.
    const uint32_t want = (expect_irq_ ? dev::kIrqStatusCompletion : 0) |
                          (expect_faulted_ ? dev::kIrqStatusFault : 0);
    const uint32_t irq_status = rd(dev::Reg::IrqStatus);
    if (irq_status != want)
      fail("IRQ_STATUS is 0x%llx, expected 0x%llx", irq_status, want);
    if (plat_.irq() != (want != 0))
      fail("irq_o is %llu, expected %llu", plat_.irq(), want != 0);
    const uint32_t status = rd(dev::Reg::Status);
    const uint32_t want_status = dev::kStatusIdle | (expect_faulted_ ? dev::kStatusFaulted : 0);
    if (status != want_status)
      fail("STATUS is 0x%llx, expected 0x%llx", status, want_status);
    wr(dev::Reg::IrqStatus, irq_status);
    sim_.step();
    if (rd(dev::Reg::IrqStatus) != 0 || plat_.irq())
      fail("IRQ_STATUS or irq_o not cleared by writing 1s");
    expect_irq_ = false;
    compare();
  }

  void compare() {
    for (uint64_t a = 0; a < kWindow; ++a) {
      if (mem_.host[a] != ref_.host[a]) {
        fail("host byte 0x%llx is 0x%llx, expected 0x%llx", a, mem_.host[a], ref_.host[a]);
        break;
      }
    }
    auto check_dev = [&](const Memories &a, const Memories &b) {
      for (const auto &[line, bytes] : a.dev)
        for (unsigned i = 0; i < kLineBytes; ++i)
          if (bytes[i] != b.dev_byte(line + i)) {
            fail("device byte 0x%llx is 0x%llx, expected 0x%llx", kGlobalBase + line + i,
                 mem_.dev_byte(line + i), ref_.dev_byte(line + i));
            return;
          }
    };
    check_dev(mem_, ref_);
    check_dev(ref_, mem_);
  }

  // --- commands ------------------------------------------------------------------------------
  static dev::Command cmd(dev::Op op, uint8_t flags, uint64_t a0, uint64_t a1, uint64_t a2,
                          uint64_t record = ~0ull) {
    dev::Command c{};
    c.opcode = uint8_t(op);
    c.flags = flags;
    c.arg0 = a0;
    c.arg1 = a1;
    c.arg2 = a2;
    c.completion = record;
    return c;
  }
  uint64_t record() {
    const uint64_t r = kRecords + (next_record_++ % 16) * sizeof(dev::Completion);
    return r;
  }
  void fill_host(uint64_t a, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i)
      mem_.host[a + i] = ref_.host[a + i] = uint8_t(rng_.u32());
  }

  uint64_t launch_desc(uint64_t at, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                       uint64_t grid_id, uint64_t rtbuf, uint32_t param_size) {
    dev::LaunchDesc d{};
    d.codeBase = kGlobalBase + 0x100000;
    d.codeSize = 256;
    d.entryPc = 8;
    d.gridX = gx;
    d.gridY = gy;
    d.gridZ = gz;
    d.blockX = bx;
    d.blockY = 1;
    d.blockZ = 1;
    d.regsPerThread = 16;
    d.paramSize = param_size;
    d.paramAddr = at + 0x100;
    d.rtbuf = rtbuf;
    d.gridId = grid_id;
    std::memcpy(mem_.host.data() + at, &d, sizeof d);
    std::memcpy(ref_.host.data() + at, &d, sizeof d);
    fill_host(d.paramAddr, param_size);
    return at;
  }

  void directed() {
    setup_ring();
    // Every opcode once, unaligned sizes and addresses, each with a record.
    fill_host(kData, 0x4000);
    submit(cmd(dev::Op::Fill, 0, kDev + 3, 0x5a, 1000, record()));
    submit(cmd(dev::Op::Copy, dev::kFlagSrcHost, kData + 0x5, kDev + 0x2003, 777, record()));
    submit(cmd(dev::Op::Copy, 0, kDev + 0x2003, kDev + 0x4011, 777, record()));
    submit(cmd(dev::Op::Copy, dev::kFlagDstHost, kDev + 0x4011, kData + 0x2007, 777, record()));
    submit(cmd(dev::Op::Copy, dev::kFlagSrcHost | dev::kFlagDstHost, kData + 0x31, kData + 0x3000,
               129, record()));
    submit(cmd(dev::Op::Timestamp, 0, kData + 0x3800, 0, 0, record()));
    submit(cmd(dev::Op::Fence, dev::kFlagIrq, 0, 0, 0, record()));
    submit(cmd(dev::Op::Nop, 0, 0, 0, 0));
    run_ring();
    // Bad commands: an unknown opcode, ranges outside device memory and the window.
    submit(cmd(dev::Op(0x77), 0, 0, 0, 0, record()));
    submit(cmd(dev::Op::Copy, dev::kFlagSrcHost, kWindow - 8, kDev, 16, record()));
    submit(cmd(dev::Op::Fill, 0, kGlobalBase - 64, 0, 128, record()));
    submit(cmd(dev::Op::Timestamp, 0, kWindow - 4, 0, 0, record()));
    run_ring();
    // Launches: a valid grid, an invalid one, one whose last block faults.
    const uint64_t rt = kDev + 0x8000;
    submit(cmd(dev::Op::Launch, 0, launch_desc(0x20000, 5, 3, 2, 64, 77, rt, 100), 0, 0, record()));
    submit(cmd(dev::Op::Launch, 0, launch_desc(0x21000, 2, 1, 1, 2048, 78, rt, 8), 0, 0, record()));
    submit(cmd(dev::Op::Launch, 0, launch_desc(0x22000, 7, 1, 1, 32, 1ull << 63, rt + 0x400, 0),
               0, 0, record()));
    run_ring();
    expect_faulted_ = false;
    // CONTROL.RESET clears STATUS.FAULTED and COMPLETED_SEQ and empties the queue.
    wr(dev::Reg::Control, dev::kControlReset);
    for (unsigned i = 0; i < 10; ++i)
      sim_.step();
    if (rd(dev::Reg::Status) != dev::kStatusIdle || rd(dev::Reg::CompletedSeqLo) != 0 ||
        rd(dev::Reg::QueueHead) != 0)
      fail("CONTROL.RESET did not clear STATUS, COMPLETED_SEQ and QUEUE_HEAD");
    tail_ = 0;
    seq_ = 0;
  }

  // Random COPY / FILL / TIMESTAMP / NOP commands in batches that wrap the ring.
  void random(uint64_t commands) {
    setup_ring();
    uint64_t left = commands;
    while (left > 0) {
      // At most kRingSize - 1, with run_ring's FENCE.
      const unsigned batch = unsigned(std::min<uint64_t>(left, 1 + rng_.below(kRingSize - 1)));
      for (unsigned i = 0; i < batch; ++i) {
        const uint64_t n = rng_.chance(10) ? rng_.below(4) : rng_.below(700);
        const uint64_t rec = rng_.chance(40) ? record() : ~0ull;
        const uint8_t irq = rng_.chance(10) ? dev::kFlagIrq : 0;
        auto host = [&] { return kData + rng_.below(0x8000); };
        auto devaddr = [&] { return kDev + rng_.below(0x8000); };
        // Copies within one memory never overlap (CUDA leaves overlapping copies undefined).
        auto apart = [&](auto pick, uint64_t src) {
          uint64_t dst = pick();
          while (dst < src + n && src < dst + n)
            dst = pick();
          return dst;
        };
        switch (rng_.below(7)) {
        case 0:
          submit(cmd(dev::Op::Copy, irq | dev::kFlagSrcHost, host(), devaddr(), n, rec));
          break;
        case 1:
          submit(cmd(dev::Op::Copy, irq | dev::kFlagDstHost, devaddr(), host(), n, rec));
          break;
        case 2: {
          const uint64_t src = devaddr();
          submit(cmd(dev::Op::Copy, irq, src, apart(devaddr, src), n, rec));
          break;
        }
        case 3: {
          const uint64_t src = host();
          submit(cmd(dev::Op::Copy, irq | dev::kFlagSrcHost | dev::kFlagDstHost, src,
                     apart(host, src), n, rec));
          break;
        }
        case 4:
          submit(cmd(dev::Op::Fill, irq, devaddr(), rng_.u32() & 0xff, n, rec));
          break;
        case 5:
          submit(cmd(dev::Op::Timestamp, irq, kData + 0x9000 + 8 * (stamps_++ % 64), 0, 0, rec));
          break;
        default:
          submit(cmd(dev::Op::Nop, irq, 0, 0, 0, rec));
        }
      }
      left -= batch;
      run_ring();
    }
  }

  Memories &reference() { return ref_; }

private:
  wf::rtl::SimCtrl<Vwf_gpu> &sim_;
  Platform &plat_;
  Memories &mem_;
  Memories ref_;
  Rng rng_;
  uint64_t seq_ = 0;
  uint32_t tail_ = 0;
  unsigned next_record_ = 0;
  unsigned stamps_ = 0;
  std::vector<Pending> pending_;
  std::vector<uint64_t> timestamps_, records_;
  uint64_t last_stamp_ = 0;
  bool expect_irq_ = false;
  bool expect_faulted_ = false;
  unsigned errors_ = 0;
};

} // namespace

int main(int argc, char **argv) {
  wf::rtl::SimCtrl<Vwf_gpu> sim(argc, argv, "tb_gpu_cp");
  Memories mem;
  Platform plat(sim.top(), mem, sim.options().seed);
  plat.verbose_ = sim.options().verbose;
  sim.add_extension(plat);
  sim.reset();
  Bench bench(sim, plat, mem, sim.options().seed + 1);
  // The unit label's --vectors (20000) is far more commands than a second allows here.
  const uint64_t commands = std::min<uint64_t>(sim.options().vectors / 100, 2000);
  bench.check_registers();
  bench.directed();
  bench.random(commands);
  const bool ok = bench.errors() == 0 && plat.passed();
  sim.finish();
  std::printf("tb_gpu_cp: %s after %llu cycles, %llu random commands (seed %llu)\n",
              ok ? "PASS" : "FAIL", static_cast<unsigned long long>(sim.cycle()),
              static_cast<unsigned long long>(commands),
              static_cast<unsigned long long>(sim.options().seed));
  return ok ? 0 : 1;
}
