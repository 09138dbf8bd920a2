// The Warpforge GPU: command processor, block dispatcher, `cores` SIMT cores, crossbar, L2 and the
// AXI4 masters to DRAM (docs/microarchitecture.md, "The GPU"). This is the top a board wrapper or
// the Verilator device (sim/rtl) instantiates; its port list is stable.
//
// Ports, by group (AXI signal names are AMBA's, lower case, with the lowRISC _i/_o suffix;
// AxLOCK, AxCACHE, AxPROT, AxQOS, AxREGION and the USER signals are not used: a board wrapper ties
// them to their defaults):
//
//   clk_i, rst_ni          core clock; reset, active low, asynchronous assert.
//   dma_window_size_i      bytes of host memory the DMA window reaches (the DMA_WINDOW_SIZE
//                          register); a strap from the platform, held stable.
//   s_axil_*               AXI4-Lite control slave, 32-bit data, 12-bit byte addresses: the
//                          register map of isa/device.toml (wf_device_pkg::Reg*). Reads of
//                          unmapped offsets return 0 with OKAY; writes to read-only registers are
//                          ignored.
//   m_axi_host_*           AXI4 master for host DMA: addresses are DMA-window offsets (64 bits),
//                          data HostDataBytes (64) bytes a beat, INCR bursts, HostIdBits IDs. Ring
//                          fetches, LaunchDesc and parameter reads, COPY's host side, TIMESTAMP
//                          and completion-record writes. On a board a PCIe bridge serves it.
//   m_axi_dram_*           DramChannels AXI4 masters to DRAM, packed arrays indexed by channel:
//                          addresses are byte offsets into device memory (channel c serves the
//                          lines with line index mod DramChannels == c), data one cache line
//                          (LineBytes) a beat, single-beat bursts, DramIdBits IDs.
//   irq_o                  the interrupt: OR(IRQ_STATUS & IRQ_ENABLE), level.
//   commit_*_o             per core, the core's commit outputs for lockstep, passed through
//                          (wf_core_pkg::commit_hdr_t, one header a committed warp instruction;
//                          commit_wb_t with one row of register values, the REG parts; the
//                          harness packs device.toml's CommitRecord bytes from them), never held
//                          back. commit_wb_data_o has 32 lanes; a core of L lanes drives the low
//                          L. Simulation only; a board leaves them open.
//
// Parameters: ConfigIndex selects the named configuration (isa/config.toml order, as the CONFIG
// register reads); Cores, DramChannels and LineBytes size the ports and must equal that
// configuration's cores, dram_channels and cache_line_bytes (checked at elaboration).
//
// Status: the port list is final; the blocks behind it are being built (microarchitecture.md,
// Status).
module wf_gpu #(
  parameter int unsigned ConfigIndex = 32'(wf_config_pkg::CFG_DEFAULT),
  parameter int unsigned Cores = wf_config_pkg::ConfigDefaultCores,
  parameter int unsigned DramChannels = wf_config_pkg::ConfigDefaultDramChannels,
  parameter int unsigned LineBytes = wf_config_pkg::ConfigDefaultCacheLineBytes
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic [31:0] dma_window_size_i,

  // AXI4-Lite control slave.
  input  logic                                  s_axil_awvalid_i,
  output logic                                  s_axil_awready_o,
  input  logic [wf_soc_pkg::CtrlAddrBits-1:0]   s_axil_awaddr_i,
  input  logic                                  s_axil_wvalid_i,
  output logic                                  s_axil_wready_o,
  input  logic [31:0]                           s_axil_wdata_i,
  input  logic [3:0]                            s_axil_wstrb_i,
  output logic                                  s_axil_bvalid_o,
  input  logic                                  s_axil_bready_i,
  output logic [1:0]                            s_axil_bresp_o,
  input  logic                                  s_axil_arvalid_i,
  output logic                                  s_axil_arready_o,
  input  logic [wf_soc_pkg::CtrlAddrBits-1:0]   s_axil_araddr_i,
  output logic                                  s_axil_rvalid_o,
  input  logic                                  s_axil_rready_i,
  output logic [31:0]                           s_axil_rdata_o,
  output logic [1:0]                            s_axil_rresp_o,

  // AXI4 host-DMA master.
  output logic                                  m_axi_host_awvalid_o,
  input  logic                                  m_axi_host_awready_i,
  output logic [wf_soc_pkg::HostIdBits-1:0]     m_axi_host_awid_o,
  output logic [wf_soc_pkg::HostAddrBits-1:0]   m_axi_host_awaddr_o,
  output logic [7:0]                            m_axi_host_awlen_o,
  output logic [2:0]                            m_axi_host_awsize_o,
  output logic [1:0]                            m_axi_host_awburst_o,
  output logic                                  m_axi_host_wvalid_o,
  input  logic                                  m_axi_host_wready_i,
  output logic [wf_soc_pkg::HostDataBytes*8-1:0] m_axi_host_wdata_o,
  output logic [wf_soc_pkg::HostDataBytes-1:0]  m_axi_host_wstrb_o,
  output logic                                  m_axi_host_wlast_o,
  input  logic                                  m_axi_host_bvalid_i,
  output logic                                  m_axi_host_bready_o,
  input  logic [wf_soc_pkg::HostIdBits-1:0]     m_axi_host_bid_i,
  input  logic [1:0]                            m_axi_host_bresp_i,
  output logic                                  m_axi_host_arvalid_o,
  input  logic                                  m_axi_host_arready_i,
  output logic [wf_soc_pkg::HostIdBits-1:0]     m_axi_host_arid_o,
  output logic [wf_soc_pkg::HostAddrBits-1:0]   m_axi_host_araddr_o,
  output logic [7:0]                            m_axi_host_arlen_o,
  output logic [2:0]                            m_axi_host_arsize_o,
  output logic [1:0]                            m_axi_host_arburst_o,
  input  logic                                  m_axi_host_rvalid_i,
  output logic                                  m_axi_host_rready_o,
  input  logic [wf_soc_pkg::HostIdBits-1:0]     m_axi_host_rid_i,
  input  logic [wf_soc_pkg::HostDataBytes*8-1:0] m_axi_host_rdata_i,
  input  logic [1:0]                            m_axi_host_rresp_i,
  input  logic                                  m_axi_host_rlast_i,

  // AXI4 DRAM masters, one a channel.
  output logic [DramChannels-1:0]                               m_axi_dram_awvalid_o,
  input  logic [DramChannels-1:0]                               m_axi_dram_awready_i,
  output logic [DramChannels-1:0][wf_soc_pkg::DramIdBits-1:0]   m_axi_dram_awid_o,
  output logic [DramChannels-1:0][wf_soc_pkg::DramAddrBits-1:0] m_axi_dram_awaddr_o,
  output logic [DramChannels-1:0][7:0]                          m_axi_dram_awlen_o,
  output logic [DramChannels-1:0][2:0]                          m_axi_dram_awsize_o,
  output logic [DramChannels-1:0][1:0]                          m_axi_dram_awburst_o,
  output logic [DramChannels-1:0]                               m_axi_dram_wvalid_o,
  input  logic [DramChannels-1:0]                               m_axi_dram_wready_i,
  output logic [DramChannels-1:0][LineBytes*8-1:0]              m_axi_dram_wdata_o,
  output logic [DramChannels-1:0][LineBytes-1:0]                m_axi_dram_wstrb_o,
  output logic [DramChannels-1:0]                               m_axi_dram_wlast_o,
  input  logic [DramChannels-1:0]                               m_axi_dram_bvalid_i,
  output logic [DramChannels-1:0]                               m_axi_dram_bready_o,
  input  logic [DramChannels-1:0][wf_soc_pkg::DramIdBits-1:0]   m_axi_dram_bid_i,
  input  logic [DramChannels-1:0][1:0]                          m_axi_dram_bresp_i,
  output logic [DramChannels-1:0]                               m_axi_dram_arvalid_o,
  input  logic [DramChannels-1:0]                               m_axi_dram_arready_i,
  output logic [DramChannels-1:0][wf_soc_pkg::DramIdBits-1:0]   m_axi_dram_arid_o,
  output logic [DramChannels-1:0][wf_soc_pkg::DramAddrBits-1:0] m_axi_dram_araddr_o,
  output logic [DramChannels-1:0][7:0]                          m_axi_dram_arlen_o,
  output logic [DramChannels-1:0][2:0]                          m_axi_dram_arsize_o,
  output logic [DramChannels-1:0][1:0]                          m_axi_dram_arburst_o,
  input  logic [DramChannels-1:0]                               m_axi_dram_rvalid_i,
  output logic [DramChannels-1:0]                               m_axi_dram_rready_o,
  input  logic [DramChannels-1:0][wf_soc_pkg::DramIdBits-1:0]   m_axi_dram_rid_i,
  input  logic [DramChannels-1:0][LineBytes*8-1:0]              m_axi_dram_rdata_i,
  input  logic [DramChannels-1:0][1:0]                          m_axi_dram_rresp_i,
  input  logic [DramChannels-1:0]                               m_axi_dram_rlast_i,

  // Interrupt.
  output logic irq_o,

  // Commit records for lockstep, one set a core.
  output logic [Cores-1:0]                                      commit_valid_o,
  output wf_core_pkg::commit_hdr_t [Cores-1:0]                  commit_o,
  output logic [Cores-1:0]                                      commit_wb_valid_o,
  output wf_core_pkg::commit_wb_t [Cores-1:0]                   commit_wb_o,
  output logic [Cores-1:0][wf_config_pkg::ParamMaxLanes-1:0][31:0] commit_wb_data_o
);

  localparam wf_config_pkg::config_t Cfg =
      wf_config_pkg::get_config(wf_config_pkg::config_e'(ConfigIndex));

  if (Cores != Cfg.cores || DramChannels != Cfg.dram_channels ||
      LineBytes != Cfg.cache_line_bytes) begin : gen_bad_params
    $fatal(1, "wf_gpu: Cores, DramChannels and LineBytes must match configuration ConfigIndex");
  end

  // Nothing is built behind the ports yet: every output is idle.
  assign s_axil_awready_o = 1'b0;
  assign s_axil_wready_o = 1'b0;
  assign s_axil_bvalid_o = 1'b0;
  assign s_axil_bresp_o = 2'b00;
  assign s_axil_arready_o = 1'b0;
  assign s_axil_rvalid_o = 1'b0;
  assign s_axil_rdata_o = '0;
  assign s_axil_rresp_o = 2'b00;

  assign m_axi_host_awvalid_o = 1'b0;
  assign m_axi_host_awid_o = '0;
  assign m_axi_host_awaddr_o = '0;
  assign m_axi_host_awlen_o = '0;
  assign m_axi_host_awsize_o = '0;
  assign m_axi_host_awburst_o = '0;
  assign m_axi_host_wvalid_o = 1'b0;
  assign m_axi_host_wdata_o = '0;
  assign m_axi_host_wstrb_o = '0;
  assign m_axi_host_wlast_o = 1'b0;
  assign m_axi_host_bready_o = 1'b0;
  assign m_axi_host_arvalid_o = 1'b0;
  assign m_axi_host_arid_o = '0;
  assign m_axi_host_araddr_o = '0;
  assign m_axi_host_arlen_o = '0;
  assign m_axi_host_arsize_o = '0;
  assign m_axi_host_arburst_o = '0;
  assign m_axi_host_rready_o = 1'b0;

  assign m_axi_dram_awvalid_o = '0;
  assign m_axi_dram_awid_o = '0;
  assign m_axi_dram_awaddr_o = '0;
  assign m_axi_dram_awlen_o = '0;
  assign m_axi_dram_awsize_o = '0;
  assign m_axi_dram_awburst_o = '0;
  assign m_axi_dram_wvalid_o = '0;
  assign m_axi_dram_wdata_o = '0;
  assign m_axi_dram_wstrb_o = '0;
  assign m_axi_dram_wlast_o = '0;
  assign m_axi_dram_bready_o = '0;
  assign m_axi_dram_arvalid_o = '0;
  assign m_axi_dram_arid_o = '0;
  assign m_axi_dram_araddr_o = '0;
  assign m_axi_dram_arlen_o = '0;
  assign m_axi_dram_arsize_o = '0;
  assign m_axi_dram_arburst_o = '0;
  assign m_axi_dram_rready_o = '0;

  assign irq_o = 1'b0;
  assign commit_valid_o = '0;
  assign commit_o = '0;
  assign commit_wb_valid_o = '0;
  assign commit_wb_o = '0;
  assign commit_wb_data_o = '0;

  logic unused_inputs;
  assign unused_inputs = ^{clk_i, rst_ni, dma_window_size_i, s_axil_awvalid_i, s_axil_awaddr_i,
                           s_axil_wvalid_i, s_axil_wdata_i, s_axil_wstrb_i, s_axil_bready_i,
                           s_axil_arvalid_i, s_axil_araddr_i, s_axil_rready_i,
                           m_axi_host_awready_i, m_axi_host_wready_i, m_axi_host_bvalid_i,
                           m_axi_host_bid_i, m_axi_host_bresp_i, m_axi_host_arready_i,
                           m_axi_host_rvalid_i, m_axi_host_rid_i, m_axi_host_rdata_i,
                           m_axi_host_rresp_i, m_axi_host_rlast_i, m_axi_dram_awready_i,
                           m_axi_dram_wready_i, m_axi_dram_bvalid_i, m_axi_dram_bid_i,
                           m_axi_dram_bresp_i, m_axi_dram_arready_i, m_axi_dram_rvalid_i,
                           m_axi_dram_rid_i, m_axi_dram_rdata_i, m_axi_dram_rresp_i,
                           m_axi_dram_rlast_i};

endmodule
