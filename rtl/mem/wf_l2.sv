// The memory system shared by the cores: crossbar, Banks L2 banks, Channels AXI4 DRAM masters
// (docs/microarchitecture.md, "L2 and global atomics", "Memory system outside the cores").
// Line l lives in bank (l mod Banks) and on channel (l mod Channels).
// Requests and responses travel as logic [N-1:0][MemReqBits-1:0] / [MemRspBits-1:0] (one
// wf_soc_pkg::mem_req_t / mem_rsp_t each): Yosys 0.55 drops the dimension of an array of structs
// (rtl/README.md).
module wf_l2 #(
  parameter int unsigned Requesters = 2,
  parameter int unsigned Banks = 1,
  parameter int unsigned Channels = 1,
  parameter int unsigned LineBytes = 64,
  parameter int unsigned BankBytes = 65536,  // l2_bytes / l2_banks
  parameter int unsigned Ways = 4,           // l2_ways
  localparam int unsigned IdBits = wf_soc_pkg::DramIdBits
) (
  input  logic clk_i,
  input  logic rst_ni,

  // Write every bank's dirty lines back to DRAM (held until flush_done_o, one cycle).
  input  logic                                  flush_i,
  output logic                                  flush_done_o,

  input  logic [Requesters-1:0]                 req_valid_i,
  output logic [Requesters-1:0]                 req_ready_o,
  input  logic [Requesters-1:0][wf_soc_pkg::MemReqBits-1:0] req_i,
  output logic [Requesters-1:0]                 rsp_valid_o,
  input  logic [Requesters-1:0]                 rsp_ready_i,
  output logic [Requesters-1:0][wf_soc_pkg::MemRspBits-1:0] rsp_o,

  output logic [Channels-1:0]                   awvalid_o,
  input  logic [Channels-1:0]                   awready_i,
  output logic [Channels-1:0][IdBits-1:0]       awid_o,
  output logic [Channels-1:0][63:0]             awaddr_o,
  output logic [Channels-1:0][7:0]              awlen_o,
  output logic [Channels-1:0][2:0]              awsize_o,
  output logic [Channels-1:0][1:0]              awburst_o,
  output logic [Channels-1:0]                   wvalid_o,
  input  logic [Channels-1:0]                   wready_i,
  output logic [Channels-1:0][LineBytes*8-1:0]  wdata_o,
  output logic [Channels-1:0][LineBytes-1:0]    wstrb_o,
  output logic [Channels-1:0]                   wlast_o,
  input  logic [Channels-1:0]                   bvalid_i,
  output logic [Channels-1:0]                   bready_o,
  input  logic [Channels-1:0][IdBits-1:0]       bid_i,
  input  logic [Channels-1:0][1:0]              bresp_i,
  output logic [Channels-1:0]                   arvalid_o,
  input  logic [Channels-1:0]                   arready_i,
  output logic [Channels-1:0][IdBits-1:0]       arid_o,
  output logic [Channels-1:0][63:0]             araddr_o,
  output logic [Channels-1:0][7:0]              arlen_o,
  output logic [Channels-1:0][2:0]              arsize_o,
  output logic [Channels-1:0][1:0]              arburst_o,
  input  logic [Channels-1:0]                   rvalid_i,
  output logic [Channels-1:0]                   rready_o,
  input  logic [Channels-1:0][IdBits-1:0]       rid_i,
  input  logic [Channels-1:0][LineBytes*8-1:0]  rdata_i,
  input  logic [Channels-1:0][1:0]              rresp_i,
  input  logic [Channels-1:0]                   rlast_i
);

  localparam int unsigned SrcBits = Requesters > 1 ? $clog2(Requesters) : 1;
  localparam int unsigned LineShift = $clog2(LineBytes);
  localparam int unsigned Sets = BankBytes / LineBytes / Ways;

  // Flush: each bank walks once; the flush is done when every bank has finished.
  logic [Banks-1:0] flush_done_d, flush_done_q, bank_flush_done;
  assign flush_done_d = flush_i && !flush_done_o ? flush_done_q | bank_flush_done : '0;
  assign flush_done_o = flush_i && &(flush_done_q | bank_flush_done);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) flush_done_q <= '0;
    else         flush_done_q <= flush_done_d;
  end

  logic [Banks-1:0]                  bank_req_valid, bank_req_ready;
  logic [Banks-1:0][wf_soc_pkg::MemReqBits-1:0] bank_req;
  logic [Banks-1:0][SrcBits-1:0]     bank_req_src, bank_rsp_src;
  logic [Banks-1:0]                  bank_rsp_valid, bank_rsp_ready;
  logic [Banks-1:0][wf_soc_pkg::MemRspBits-1:0] bank_rsp;

  wf_mem_xbar #(
    .Requesters(Requesters),
    .Banks     (Banks),
    .LineBytes (LineBytes)
  ) u_xbar (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .req_valid_i     (req_valid_i),
    .req_ready_o     (req_ready_o),
    .req_i           (req_i),
    .rsp_valid_o     (rsp_valid_o),
    .rsp_ready_i     (rsp_ready_i),
    .rsp_o           (rsp_o),
    .bank_req_valid_o(bank_req_valid),
    .bank_req_ready_i(bank_req_ready),
    .bank_req_o      (bank_req),
    .bank_req_src_o  (bank_req_src),
    .bank_rsp_valid_i(bank_rsp_valid),
    .bank_rsp_ready_o(bank_rsp_ready),
    .bank_rsp_i      (bank_rsp),
    .bank_rsp_src_i  (bank_rsp_src)
  );

  logic [Banks-1:0]                  dram_req_valid, dram_req_write, dram_rsp_valid;
  logic [Banks-1:0][63:0]            dram_req_addr;
  logic [Banks-1:0][LineBytes*8-1:0] dram_req_wdata;
  logic [Banks-1:0][LineBytes-1:0]   dram_req_wstrb;
  logic [Banks-1:0]                  dram_req_ready;
  logic [Channels-1:0][Banks-1:0]    chan_req_valid, chan_req_ready, chan_rsp_valid;
  logic [Channels-1:0][LineBytes*8-1:0] chan_rsp_rdata;
  logic [Banks-1:0][LineBytes*8-1:0] dram_rsp_rdata;

  for (genvar b = 0; b < Banks; b++) begin : gen_bank
    wf_l2_bank #(
      .LineBytes(LineBytes),
      .SrcBits  (SrcBits),
      .Sets     (Sets),
      .Ways     (Ways),
      .Banks    (Banks),
      .BankIndex(b)
    ) u_bank (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .flush_i         (flush_i && !flush_done_q[b]),
      .flush_done_o    (bank_flush_done[b]),
      .req_valid_i     (bank_req_valid[b]),
      .req_ready_o     (bank_req_ready[b]),
      .req_i           (bank_req[b]),
      .req_src_i       (bank_req_src[b]),
      .rsp_valid_o     (bank_rsp_valid[b]),
      .rsp_ready_i     (bank_rsp_ready[b]),
      .rsp_o           (bank_rsp[b]),
      .rsp_src_o       (bank_rsp_src[b]),
      .dram_req_valid_o(dram_req_valid[b]),
      .dram_req_ready_i(dram_req_ready[b]),
      .dram_req_write_o(dram_req_write[b]),
      .dram_req_addr_o (dram_req_addr[b]),
      .dram_req_wdata_o(dram_req_wdata[b]),
      .dram_req_wstrb_o(dram_req_wstrb[b]),
      .dram_rsp_valid_i(dram_rsp_valid[b]),
      .dram_rsp_rdata_i(dram_rsp_rdata[b])
    );
  end

  // Bank requests to their channel; channel answers back to the bank.
  always_comb begin
    chan_req_valid = '0;
    dram_req_ready = '0;
    dram_rsp_valid = '0;
    dram_rsp_rdata = '0;
    for (int unsigned b = 0; b < Banks; b++) begin
      for (int unsigned c = 0; c < Channels; c++) begin
        if ((Channels == 1 || 32'(dram_req_addr[b] >> LineShift) % Channels == c) &&
            dram_req_valid[b]) begin
          chan_req_valid[c][b] = 1'b1;
        end
        if (chan_req_ready[c][b]) dram_req_ready[b] = 1'b1;
        if (chan_rsp_valid[c][b]) begin
          dram_rsp_valid[b] = 1'b1;
          dram_rsp_rdata[b] = chan_rsp_rdata[c];
        end
      end
    end
  end

  for (genvar c = 0; c < Channels; c++) begin : gen_chan
    wf_dram_axi #(
      .Banks    (Banks),
      .LineBytes(LineBytes)
    ) u_axi (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .req_valid_i(chan_req_valid[c]),
      .req_ready_o(chan_req_ready[c]),
      .req_write_i(dram_req_write),
      .req_addr_i (dram_req_addr),
      .req_wdata_i(dram_req_wdata),
      .req_wstrb_i(dram_req_wstrb),
      .rsp_valid_o(chan_rsp_valid[c]),
      .rsp_rdata_o(chan_rsp_rdata[c]),
      .awvalid_o  (awvalid_o[c]),
      .awready_i  (awready_i[c]),
      .awid_o     (awid_o[c]),
      .awaddr_o   (awaddr_o[c]),
      .awlen_o    (awlen_o[c]),
      .awsize_o   (awsize_o[c]),
      .awburst_o  (awburst_o[c]),
      .wvalid_o   (wvalid_o[c]),
      .wready_i   (wready_i[c]),
      .wdata_o    (wdata_o[c]),
      .wstrb_o    (wstrb_o[c]),
      .wlast_o    (wlast_o[c]),
      .bvalid_i   (bvalid_i[c]),
      .bready_o   (bready_o[c]),
      .bid_i      (bid_i[c]),
      .bresp_i    (bresp_i[c]),
      .arvalid_o  (arvalid_o[c]),
      .arready_i  (arready_i[c]),
      .arid_o     (arid_o[c]),
      .araddr_o   (araddr_o[c]),
      .arlen_o    (arlen_o[c]),
      .arsize_o   (arsize_o[c]),
      .arburst_o  (arburst_o[c]),
      .rvalid_i   (rvalid_i[c]),
      .rready_o   (rready_o[c]),
      .rid_i      (rid_i[c]),
      .rdata_i    (rdata_i[c]),
      .rresp_i    (rresp_i[c]),
      .rlast_i    (rlast_i[c])
    );
  end

endmodule
