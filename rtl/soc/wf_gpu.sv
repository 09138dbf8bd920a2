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
//                          L. Simulation only; a board leaves them open. The records are
//                          logic [Cores-1:0][CommitHdrBits-1:0] / [CommitWbBits-1:0] (one struct
//                          a core, the same bits): Yosys 0.55 drops the dimension of an array of
//                          structs (rtl/README.md), so no array here has a struct element type.
//
// Parameters: ConfigIndex selects the named configuration (isa/config.toml order, as the CONFIG
// register reads); Cores, DramChannels and LineBytes size the ports and must equal that
// configuration's cores, dram_channels and cache_line_bytes (checked at elaboration).
//
// What is built behind the ports: microarchitecture.md, Status.
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
  output logic [Cores-1:0][wf_core_pkg::CommitHdrBits-1:0]      commit_o,     // commit_hdr_t each
  output logic [Cores-1:0]                                      commit_wb_valid_o,
  output logic [Cores-1:0][wf_core_pkg::CommitWbBits-1:0]       commit_wb_o,  // commit_wb_t each
  output logic [Cores-1:0][wf_config_pkg::ParamMaxLanes-1:0][31:0] commit_wb_data_o
);

  localparam wf_config_pkg::config_t Cfg =
      wf_config_pkg::get_config(wf_config_pkg::config_e'(ConfigIndex));

  if (Cores != Cfg.cores || DramChannels != Cfg.dram_channels ||
      LineBytes != Cfg.cache_line_bytes) begin : gen_bad_params
    $fatal(1, "wf_gpu: Cores, DramChannels and LineBytes must match configuration ConfigIndex");
  end

  // ---------------------------------------------------------------------------------------------
  // Control registers and the command processor.
  logic [63:0] queue_base, completed_seq, cycles;
  logic [31:0] queue_size, queue_tail, queue_head, watchdog_minsts;
  logic        queue_clear, ctrl_reset, ctrl_scrub, cp_idle, faulted;
  logic [1:0]  irq_set;

  wf_ctrl_regs #(
    .ConfigIndex(ConfigIndex),
    .GlobalSize (64'(Cfg.global_mem_mib) << 20),
    .ClockMhz   (Cfg.clock_mhz)
  ) u_regs (
    .clk_i            (clk_i),
    .rst_ni           (rst_ni),
    .s_axil_awvalid_i (s_axil_awvalid_i),
    .s_axil_awready_o (s_axil_awready_o),
    .s_axil_awaddr_i  (s_axil_awaddr_i),
    .s_axil_wvalid_i  (s_axil_wvalid_i),
    .s_axil_wready_o  (s_axil_wready_o),
    .s_axil_wdata_i   (s_axil_wdata_i),
    .s_axil_wstrb_i   (s_axil_wstrb_i),
    .s_axil_bvalid_o  (s_axil_bvalid_o),
    .s_axil_bready_i  (s_axil_bready_i),
    .s_axil_bresp_o   (s_axil_bresp_o),
    .s_axil_arvalid_i (s_axil_arvalid_i),
    .s_axil_arready_o (s_axil_arready_o),
    .s_axil_araddr_i  (s_axil_araddr_i),
    .s_axil_rvalid_o  (s_axil_rvalid_o),
    .s_axil_rready_i  (s_axil_rready_i),
    .s_axil_rdata_o   (s_axil_rdata_o),
    .s_axil_rresp_o   (s_axil_rresp_o),
    .dma_window_size_i(dma_window_size_i),
    .queue_head_i     (queue_head),
    .completed_seq_i  (completed_seq),
    .cycles_i         (cycles),
    .idle_i           (cp_idle),
    .faulted_i        (faulted),
    .irq_set_i        (irq_set),
    .queue_base_o     (queue_base),
    .queue_size_o     (queue_size),
    .queue_tail_o     (queue_tail),
    .queue_clear_o    (queue_clear),
    .reset_o          (ctrl_reset),
    .scrub_o          (ctrl_scrub),
    .watchdog_minsts_o(watchdog_minsts),
    .irq_o            (irq_o)
  );

  // Requesters of the memory system: the cores, then the command processor.
  localparam int unsigned Requesters = Cores + 1;
  logic [Requesters-1:0]                 mem_req_valid, mem_req_ready, mem_rsp_valid, mem_rsp_ready;
  logic [Requesters-1:0][wf_soc_pkg::MemReqBits-1:0] mem_req;  // mem_req_t each
  logic [Requesters-1:0][wf_soc_pkg::MemRspBits-1:0] mem_rsp;  // mem_rsp_t each

  logic         param_we;
  logic [31:0]  param_waddr;
  logic [511:0] param_wdata;
  logic [63:0]  param_wmask;
  logic         launch_start, launch_done, stop, fault_valid, l2_flush, l2_flush_done;
  wf_soc_pkg::launch_cfg_t launch_cfg;
  wf_soc_pkg::fault_t      fault;
  logic [31:0]  warp_insts, thread_insts;

  wf_cmd_proc #(
    .ConfigIndex(ConfigIndex),
    .LineBytes  (LineBytes)
  ) u_cp (
    .clk_i               (clk_i),
    .rst_ni              (rst_ni),
    .dma_window_size_i   (dma_window_size_i),
    .queue_base_i        (queue_base),
    .queue_size_i        (queue_size),
    .queue_tail_i        (queue_tail),
    .queue_clear_i       (queue_clear),
    .reset_i             (ctrl_reset),
    .watchdog_minsts_i   (watchdog_minsts),
    .queue_head_o        (queue_head),
    .completed_seq_o     (completed_seq),
    .cycles_o            (cycles),
    .idle_o              (cp_idle),
    .faulted_o           (faulted),
    .irq_set_o           (irq_set),
    .m_axi_host_awvalid_o(m_axi_host_awvalid_o),
    .m_axi_host_awready_i(m_axi_host_awready_i),
    .m_axi_host_awaddr_o (m_axi_host_awaddr_o),
    .m_axi_host_wvalid_o (m_axi_host_wvalid_o),
    .m_axi_host_wready_i (m_axi_host_wready_i),
    .m_axi_host_wdata_o  (m_axi_host_wdata_o),
    .m_axi_host_wstrb_o  (m_axi_host_wstrb_o),
    .m_axi_host_bvalid_i (m_axi_host_bvalid_i),
    .m_axi_host_bready_o (m_axi_host_bready_o),
    .m_axi_host_bresp_i  (m_axi_host_bresp_i),
    .m_axi_host_arvalid_o(m_axi_host_arvalid_o),
    .m_axi_host_arready_i(m_axi_host_arready_i),
    .m_axi_host_araddr_o (m_axi_host_araddr_o),
    .m_axi_host_rvalid_i (m_axi_host_rvalid_i),
    .m_axi_host_rready_o (m_axi_host_rready_o),
    .m_axi_host_rdata_i  (m_axi_host_rdata_i),
    .m_axi_host_rresp_i  (m_axi_host_rresp_i),
    .mem_req_valid_o     (mem_req_valid[Cores]),
    .mem_req_ready_i     (mem_req_ready[Cores]),
    .mem_req_o           (mem_req[Cores]),
    .mem_rsp_valid_i     (mem_rsp_valid[Cores]),
    .mem_rsp_ready_o     (mem_rsp_ready[Cores]),
    .mem_rsp_i           (mem_rsp[Cores]),
    .param_we_o          (param_we),
    .param_waddr_o       (param_waddr),
    .param_wdata_o       (param_wdata),
    .param_wmask_o       (param_wmask),
    .launch_start_o      (launch_start),
    .launch_cfg_o        (launch_cfg),
    .launch_done_i       (launch_done),
    .fault_valid_i       (fault_valid),
    .fault_i             (fault),
    .warp_insts_i        (warp_insts),
    .thread_insts_i      (thread_insts),
    .stop_o              (stop),
    .l2_flush_o          (l2_flush),
    .l2_flush_done_i     (l2_flush_done)
  );

  // The host-DMA master: single-beat INCR bursts of 64 bytes, one transaction at a time, ID 0.
  assign m_axi_host_awid_o = '0;
  assign m_axi_host_awlen_o = 8'd0;
  assign m_axi_host_awsize_o = 3'($clog2(wf_soc_pkg::HostDataBytes));
  assign m_axi_host_awburst_o = 2'b01;
  assign m_axi_host_wlast_o = 1'b1;
  assign m_axi_host_arid_o = '0;
  assign m_axi_host_arlen_o = 8'd0;
  assign m_axi_host_arsize_o = 3'($clog2(wf_soc_pkg::HostDataBytes));
  assign m_axi_host_arburst_o = 2'b01;

  // ---------------------------------------------------------------------------------------------
  // Param RAM, block dispatcher, cores.
  logic [Cores-1:0]        param_req_valid, param_req_ready, param_rsp_valid;
  logic [Cores-1:0][31:0]  param_req_addr;
  logic [LineBytes*8-1:0]  param_rsp_rdata;

  wf_param_ram #(
    .Cores    (Cores),
    .LineBytes(LineBytes)
  ) u_param_ram (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .we_i       (param_we),
    .waddr_i    (param_waddr),
    .wdata_i    (param_wdata),
    .wmask_i    (param_wmask),
    .req_valid_i(param_req_valid),
    .req_ready_o(param_req_ready),
    .req_addr_i (param_req_addr),
    .rsp_valid_o(param_rsp_valid),
    .rsp_rdata_o(param_rsp_rdata)
  );

  logic [Cores-1:0]   block_valid, block_accept, block_retire, core_idle, core_fault_valid;
  wf_soc_pkg::block_t block;
  logic [Cores-1:0][wf_soc_pkg::FaultBits-1:0] core_fault;  // fault_t each

  wf_dispatcher #(
    .Cores(Cores)
  ) u_dispatcher (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .launch_start_i(launch_start),
    .grid_i        (launch_cfg.grid),
    .stop_i        (stop),
    .block_valid_o (block_valid),
    .block_o       (block),
    .block_accept_i(block_accept),
    .core_idle_i   (core_idle),
    .done_o        (launch_done)
  );

  logic [Cores-1:0][wf_soc_pkg::ParamReqBits-1:0]      param_req;    // param_req_t each
  logic [Cores-1:0][wf_soc_pkg::IssueCountRecBits-1:0] issue_count;  // issue_count_t each

  for (genvar c = 0; c < Cores; c++) begin : gen_core
    logic [Cfg.lanes-1:0][31:0] wb_data;
    wf_soc_pkg::param_rsp_t     param_rsp;
    wf_soc_pkg::param_req_t     param_req_view;

    wf_core #(
      .CoreId   (c),
      .Lanes    (Cfg.lanes),
      .Warps    (Cfg.warps_per_core),
      .MaxBlocks(Cfg.max_blocks_per_core),
      .LineBytes(LineBytes)
    ) u_core (
      .clk_i            (clk_i),
      .rst_ni           (rst_ni),
      .launch_start_i   (launch_start),
      .launch_cfg_i     (launch_cfg),
      .block_valid_i    (block_valid[c]),
      .block_i          (block),
      .block_accept_o   (block_accept[c]),
      .block_retire_o   (block_retire[c]),
      .mem_req_valid_o  (mem_req_valid[c]),
      .mem_req_ready_i  (mem_req_ready[c]),
      .mem_req_o        (mem_req[c]),
      .mem_rsp_valid_i  (mem_rsp_valid[c]),
      .mem_rsp_ready_o  (mem_rsp_ready[c]),
      .mem_rsp_i        (mem_rsp[c]),
      .param_req_valid_o(param_req_valid[c]),
      .param_req_ready_i(param_req_ready[c]),
      .param_req_o      (param_req[c]),
      .param_rsp_valid_i(param_rsp_valid[c]),
      .param_rsp_i      (param_rsp),
      .fault_valid_o    (core_fault_valid[c]),
      .fault_o          (core_fault[c]),
      .stop_i           (stop),
      .issue_count_o    (issue_count[c]),
      .idle_o           (core_idle[c]),
      .commit_valid_o   (commit_valid_o[c]),
      .commit_o         (commit_o[c]),
      .commit_wb_valid_o(commit_wb_valid_o[c]),
      .commit_wb_o      (commit_wb_o[c]),
      .commit_wb_data_o (wb_data)
    );

    assign param_req_view = param_req[c];
    assign param_req_addr[c] = param_req_view.addr;
    assign param_rsp.rdata = wf_soc_pkg::LineBitsMax'(param_rsp_rdata);
    assign commit_wb_data_o[c] = (wf_config_pkg::ParamMaxLanes * 32)'(wb_data);
  end

  // The first fault of a cycle: the lowest core's (the command processor keeps the first).
  always_comb begin
    fault_valid = 1'b0;
    fault = '0;
    for (int c = Cores - 1; c >= 0; c--) begin
      if (core_fault_valid[c]) begin
        fault_valid = 1'b1;
        fault = core_fault[c];
      end
    end
  end

  // Issue counts over all cores, for the watchdog and the completion record.
  wf_soc_pkg::issue_count_t count_view;
  always_comb begin
    warp_insts = '0;
    thread_insts = '0;
    count_view = '0;
    for (int unsigned c = 0; c < Cores; c++) begin
      count_view = issue_count[c];
      warp_insts = warp_insts + 32'(count_view.warp_insts);
      thread_insts = thread_insts + 32'(count_view.thread_insts);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Crossbar, L2 banks and the DRAM masters.
  wf_l2 #(
    .Requesters(Requesters),
    .Banks     (Cfg.l2_banks),
    .Channels  (DramChannels),
    .LineBytes (LineBytes),
    .BankBytes (Cfg.l2_bytes / Cfg.l2_banks),
    .Ways      (Cfg.l2_ways)
  ) u_l2 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .flush_i    (l2_flush),
    .flush_done_o(l2_flush_done),
    .req_valid_i(mem_req_valid),
    .req_ready_o(mem_req_ready),
    .req_i      (mem_req),
    .rsp_valid_o(mem_rsp_valid),
    .rsp_ready_i(mem_rsp_ready),
    .rsp_o      (mem_rsp),
    .awvalid_o  (m_axi_dram_awvalid_o),
    .awready_i  (m_axi_dram_awready_i),
    .awid_o     (m_axi_dram_awid_o),
    .awaddr_o   (m_axi_dram_awaddr_o),
    .awlen_o    (m_axi_dram_awlen_o),
    .awsize_o   (m_axi_dram_awsize_o),
    .awburst_o  (m_axi_dram_awburst_o),
    .wvalid_o   (m_axi_dram_wvalid_o),
    .wready_i   (m_axi_dram_wready_i),
    .wdata_o    (m_axi_dram_wdata_o),
    .wstrb_o    (m_axi_dram_wstrb_o),
    .wlast_o    (m_axi_dram_wlast_o),
    .bvalid_i   (m_axi_dram_bvalid_i),
    .bready_o   (m_axi_dram_bready_o),
    .bid_i      (m_axi_dram_bid_i),
    .bresp_i    (m_axi_dram_bresp_i),
    .arvalid_o  (m_axi_dram_arvalid_o),
    .arready_i  (m_axi_dram_arready_i),
    .arid_o     (m_axi_dram_arid_o),
    .araddr_o   (m_axi_dram_araddr_o),
    .arlen_o    (m_axi_dram_arlen_o),
    .arsize_o   (m_axi_dram_arsize_o),
    .arburst_o  (m_axi_dram_arburst_o),
    .rvalid_i   (m_axi_dram_rvalid_i),
    .rready_o   (m_axi_dram_rready_o),
    .rid_i      (m_axi_dram_rid_i),
    .rdata_i    (m_axi_dram_rdata_i),
    .rresp_i    (m_axi_dram_rresp_i),
    .rlast_i    (m_axi_dram_rlast_i)
  );

  // Single beats need no RLAST or IDs; CONTROL.SCRUB is not built yet; the dispatcher counts
  // idle cores, not retire pulses.
  logic unused_inputs;
  assign unused_inputs = ^{ctrl_scrub, block_retire, m_axi_host_bid_i, m_axi_host_rid_i, m_axi_host_rlast_i,
                           launch_cfg.threads_per_block, launch_cfg.warps_per_block,
                           launch_cfg.profile_addr};

endmodule
