// The Verilated GPU top (rtl/soc/wf_gpu.sv) behind one interface, whatever the configuration it was
// Verilated for: each configuration is its own Verilated class (Vwf_gpu_tiny, Vwf_gpu_default,
// ...), and GpuTopOf<Top> binds any of them to Pins by the port names of wf_gpu.
#pragma once

#include "warpforge/rtl/axi.h"
#include "warpforge/rtl/pins.h"

#include <verilated.h>
#if VM_TRACE_FST
#include <verilated_fst_c.h>
#endif

#include <iterator>
#include <memory>
#include <string>
#include <utility>

namespace wf::rtl {

/// Widths of wf_gpu's ports that its parameters and wf_soc_pkg fix (docs/rtl-sim.md).
struct GpuPortWidths {
  unsigned cores = 1, dramChannels = 1, lineBytes = 64;
  unsigned ctrlAddrBits = 12;
  unsigned hostAddrBits = 64, hostDataBytes = 64, hostIdBits = 4;
  unsigned dramAddrBits = 64, dramIdBits = 4;
  // wf_core_pkg: commit_hdr_t and commit_wb_t carry a warp slot and a block slot.
  unsigned warpIdBits = 6, blockIdBits = 5;
  unsigned maxLanes = 32; ///< lanes of commit_wb_data_o (wf_config_pkg::ParamMaxLanes)

  /// Bits of wf_core_pkg::commit_hdr_t: kind, opcode, pc, active, exec, warp, slot, warp_slot.
  unsigned commitHdrBits() const { return 8 + 8 + 32 * 4 + blockIdBits + warpIdBits; }
  /// Bits of wf_core_pkg::commit_wb_t: warp_slot, reg_index, pass, lanes.
  unsigned commitWbBits() const { return warpIdBits + 8 + 5 + 32; }
};

class GpuTop {
public:
  virtual ~GpuTop() = default;
  virtual void eval() = 0;
  virtual void final() = 0;
  /// Starts an FST trace (the context must have had traceEverOn before the model was built).
  virtual bool openTrace(const std::string &path, std::string &error) = 0;
  virtual void dumpTrace(uint64_t time) = 0;
  virtual void closeTrace() = 0;

  Pin clk, rstN, dmaWindowSize, irq;
  AxiLitePins ctrl;
  Axi4Pins host, dram;
  // Per core: a committed instruction's header, and the register rows of its REG parts.
  Pin commitValid, commitHdr, commitWbValid, commitWb, commitWbData;
  GpuPortWidths widths;

  /// The first port whose Verilated storage does not hold the widths assumed, or null.
  const char *badPort() const {
    const unsigned ch = widths.dramChannels, cores = widths.cores;
    const std::pair<const Pin *, unsigned> checks[] = {
        {&ctrl.awaddr, 1},  {&ctrl.wdata, 1},   {&host.awaddr, 1}, {&host.awid, 1},
        {&host.wdata, 1},   {&host.wstrb, 1},   {&host.rdata, 1},  {&dram.awaddr, ch},
        {&dram.awid, ch},   {&dram.wdata, ch},  {&dram.wstrb, ch}, {&dram.rdata, ch},
        {&dram.arvalid, ch}, {&commitValid, cores}, {&commitHdr, cores}, {&commitWb, cores},
        {&commitWbData, cores}};
    const char *names[] = {"s_axil_awaddr", "s_axil_wdata", "m_axi_host_awaddr", "m_axi_host_awid",
                           "m_axi_host_wdata", "m_axi_host_wstrb", "m_axi_host_rdata",
                           "m_axi_dram_awaddr", "m_axi_dram_awid", "m_axi_dram_wdata",
                           "m_axi_dram_wstrb", "m_axi_dram_rdata", "m_axi_dram_arvalid",
                           "commit_valid", "commit", "commit_wb", "commit_wb_data"};
    for (size_t i = 0; i < std::size(checks); ++i)
      if (!checks[i].first->storageFits(checks[i].second))
        return names[i];
    return nullptr;
  }
};

template <class Top> class GpuTopOf final : public GpuTop {
public:
  GpuTopOf(VerilatedContext *context, const GpuPortWidths &w) : top_(context, "TOP") {
    widths = w;
    Top &t = top_;
    clk = Pin(t.clk_i, 1);
    rstN = Pin(t.rst_ni, 1);
    dmaWindowSize = Pin(t.dma_window_size_i, 32);
    irq = Pin(t.irq_o, 1);
    ctrl = AxiLitePins{
        Pin(t.s_axil_awvalid_i, 1), Pin(t.s_axil_awready_o, 1), Pin(t.s_axil_awaddr_i, w.ctrlAddrBits),
        Pin(t.s_axil_wvalid_i, 1),  Pin(t.s_axil_wready_o, 1),  Pin(t.s_axil_wdata_i, 32),
        Pin(t.s_axil_wstrb_i, 4),   Pin(t.s_axil_bvalid_o, 1),  Pin(t.s_axil_bready_i, 1),
        Pin(t.s_axil_bresp_o, 2),   Pin(t.s_axil_arvalid_i, 1), Pin(t.s_axil_arready_o, 1),
        Pin(t.s_axil_araddr_i, w.ctrlAddrBits), Pin(t.s_axil_rvalid_o, 1),
        Pin(t.s_axil_rready_i, 1),  Pin(t.s_axil_rdata_o, 32),  Pin(t.s_axil_rresp_o, 2)};
#define WF_AXI4_PINS(p, idBits, addrBits, dataBytes)                                              \
  Axi4Pins {                                                                                      \
    Pin(t.p##_awvalid_o, 1), Pin(t.p##_awready_i, 1), Pin(t.p##_awid_o, idBits),                   \
        Pin(t.p##_awaddr_o, addrBits), Pin(t.p##_awlen_o, 8), Pin(t.p##_awsize_o, 3),              \
        Pin(t.p##_awburst_o, 2), Pin(t.p##_wvalid_o, 1), Pin(t.p##_wready_i, 1),                   \
        Pin(t.p##_wdata_o, (dataBytes) * 8), Pin(t.p##_wstrb_o, dataBytes), Pin(t.p##_wlast_o, 1), \
        Pin(t.p##_bvalid_i, 1), Pin(t.p##_bready_o, 1), Pin(t.p##_bid_i, idBits),                  \
        Pin(t.p##_bresp_i, 2), Pin(t.p##_arvalid_o, 1), Pin(t.p##_arready_i, 1),                   \
        Pin(t.p##_arid_o, idBits), Pin(t.p##_araddr_o, addrBits), Pin(t.p##_arlen_o, 8),           \
        Pin(t.p##_arsize_o, 3), Pin(t.p##_arburst_o, 2), Pin(t.p##_rvalid_i, 1),                   \
        Pin(t.p##_rready_o, 1), Pin(t.p##_rid_i, idBits), Pin(t.p##_rdata_i, (dataBytes) * 8),     \
        Pin(t.p##_rresp_i, 2), Pin(t.p##_rlast_i, 1)                                               \
  }
    host = WF_AXI4_PINS(m_axi_host, w.hostIdBits, w.hostAddrBits, w.hostDataBytes);
    dram = WF_AXI4_PINS(m_axi_dram, w.dramIdBits, w.dramAddrBits, w.lineBytes);
#undef WF_AXI4_PINS
    commitValid = Pin(t.commit_valid_o, 1);
    commitHdr = Pin(t.commit_o, w.commitHdrBits());
    commitWbValid = Pin(t.commit_wb_valid_o, 1);
    commitWb = Pin(t.commit_wb_o, w.commitWbBits());
    commitWbData = Pin(t.commit_wb_data_o, w.maxLanes * 32);
  }

  void eval() override { top_.eval(); }
  void final() override { top_.final(); }

  bool openTrace(const std::string &path, std::string &error) override {
#if VM_TRACE_FST
    trace_ = std::make_unique<VerilatedFstC>();
    top_.trace(trace_.get(), 99);
    trace_->open(path.c_str());
    if (!trace_->isOpen()) {
      error = "cannot write the wave file '" + path + "'";
      trace_.reset();
      return false;
    }
    return true;
#else
    error = "this build of the RTL device has no FST tracing (WF_RTL_TRACE=OFF)";
    (void)path;
    return false;
#endif
  }
  void dumpTrace(uint64_t time) override {
#if VM_TRACE_FST
    if (trace_)
      trace_->dump(time);
#else
    (void)time;
#endif
  }
  void closeTrace() override {
#if VM_TRACE_FST
    if (trace_)
      trace_->close();
    trace_.reset();
#endif
  }

private:
  Top top_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> trace_;
#endif
};

/// Builds the GPU Verilated for configuration `name`, or null when this plugin was not built with
/// it (gpu_models.cpp, generated by CMake from the list WF_RTL_CONFIGS).
std::unique_ptr<GpuTop> makeGpuTop(const std::string &name, VerilatedContext *context);
/// The configurations this plugin was built with, comma separated.
const char *builtGpuConfigs();

} // namespace wf::rtl
