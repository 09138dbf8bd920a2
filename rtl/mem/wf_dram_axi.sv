// One AXI4 master to a DRAM channel (docs/microarchitecture.md, "Memory system outside the
// cores"), shared by the L2 banks whose lines live on it. Each cycle without a request in
// progress it takes the first bank after the one it took last (round robin) that asks for this
// channel. A read is one AR (single beat, ID = bank); a write is one AW with its W beat, held
// until both are accepted. R and B responses go back to the bank their ID names; each bank has one
// request outstanding, so nothing else is tracked here.
module wf_dram_axi #(
  parameter int unsigned Banks = 1,
  parameter int unsigned LineBytes = 64,
  localparam int unsigned IdBits = wf_soc_pkg::DramIdBits
) (
  input  logic clk_i,
  input  logic rst_ni,

  input  logic [Banks-1:0]                  req_valid_i,   // bank wants this channel
  output logic [Banks-1:0]                  req_ready_o,
  input  logic [Banks-1:0]                  req_write_i,
  input  logic [Banks-1:0][63:0]            req_addr_i,
  input  logic [Banks-1:0][LineBytes*8-1:0] req_wdata_i,
  input  logic [Banks-1:0][LineBytes-1:0]   req_wstrb_i,
  output logic [Banks-1:0]                  rsp_valid_o,
  output logic [LineBytes*8-1:0]            rsp_rdata_o,

  output logic                              awvalid_o,
  input  logic                              awready_i,
  output logic [IdBits-1:0]                 awid_o,
  output logic [63:0]                       awaddr_o,
  output logic [7:0]                        awlen_o,
  output logic [2:0]                        awsize_o,
  output logic [1:0]                        awburst_o,
  output logic                              wvalid_o,
  input  logic                              wready_i,
  output logic [LineBytes*8-1:0]            wdata_o,
  output logic [LineBytes-1:0]              wstrb_o,
  output logic                              wlast_o,
  input  logic                              bvalid_i,
  output logic                              bready_o,
  input  logic [IdBits-1:0]                 bid_i,
  input  logic [1:0]                        bresp_i,
  output logic                              arvalid_o,
  input  logic                              arready_i,
  output logic [IdBits-1:0]                 arid_o,
  output logic [63:0]                       araddr_o,
  output logic [7:0]                        arlen_o,
  output logic [2:0]                        arsize_o,
  output logic [1:0]                        arburst_o,
  input  logic                              rvalid_i,
  output logic                              rready_o,
  input  logic [IdBits-1:0]                 rid_i,
  input  logic [LineBytes*8-1:0]            rdata_i,
  input  logic [1:0]                        rresp_i,
  input  logic                              rlast_i
);

  localparam int unsigned BankBits = Banks > 1 ? $clog2(Banks) : 1;
  localparam logic [2:0] BeatSize = 3'($clog2(LineBytes));
  localparam logic [1:0] BurstIncr = 2'b01;

  if (Banks > 2 ** IdBits) begin : gen_bad_banks
    $fatal(1, "wf_dram_axi: more banks than AXI IDs");
  end

  logic [BankBits-1:0] last_d, last_q, cur_d, cur_q;
  logic                busy_d, busy_q, aw_done_d, aw_done_q, w_done_d, w_done_q;
  logic                pick_any;
  logic [BankBits-1:0] pick;

  always_comb begin
    pick_any = 1'b0;
    pick = '0;
    for (int unsigned k = 1; k <= Banks; k++) begin
      logic [BankBits-1:0] b;
      b = BankBits'((32'(last_q) + k) % Banks);
      if (!pick_any && req_valid_i[b]) begin
        pick_any = 1'b1;
        pick = b;
      end
    end
  end

  always_comb begin
    last_d = last_q;
    cur_d = cur_q;
    busy_d = busy_q;
    aw_done_d = aw_done_q;
    w_done_d = w_done_q;
    req_ready_o = '0;
    arvalid_o = 1'b0;
    awvalid_o = 1'b0;
    wvalid_o = 1'b0;
    if (!busy_q && pick_any) begin
      busy_d = 1'b1;
      cur_d = pick;
      aw_done_d = 1'b0;
      w_done_d = 1'b0;
    end
    if (busy_q) begin
      if (req_write_i[cur_q]) begin
        awvalid_o = !aw_done_q;
        wvalid_o = !w_done_q;
        aw_done_d = aw_done_q || awready_i;
        w_done_d = w_done_q || wready_i;
        if (aw_done_d && w_done_d) begin
          busy_d = 1'b0;
          req_ready_o[cur_q] = 1'b1;
          last_d = cur_q;
        end
      end else begin
        arvalid_o = 1'b1;
        if (arready_i) begin
          busy_d = 1'b0;
          req_ready_o[cur_q] = 1'b1;
          last_d = cur_q;
        end
      end
    end
  end

  assign awid_o = IdBits'(cur_q);
  assign awaddr_o = req_addr_i[cur_q];
  assign awlen_o = 8'd0;
  assign awsize_o = BeatSize;
  assign awburst_o = BurstIncr;
  assign wdata_o = req_wdata_i[cur_q];
  assign wstrb_o = req_wstrb_i[cur_q];
  assign wlast_o = 1'b1;
  assign arid_o = IdBits'(cur_q);
  assign araddr_o = req_addr_i[cur_q];
  assign arlen_o = 8'd0;
  assign arsize_o = BeatSize;
  assign arburst_o = BurstIncr;
  assign rready_o = 1'b1;
  assign bready_o = 1'b1;

  always_comb begin
    rsp_valid_o = '0;
    for (int unsigned b = 0; b < Banks; b++) begin
      if ((rvalid_i && 32'(rid_i) == b) || (bvalid_i && 32'(bid_i) == b)) rsp_valid_o[b] = 1'b1;
    end
  end
  assign rsp_rdata_o = rdata_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= BankBits'(Banks - 1);
      cur_q <= '0;
      busy_q <= 1'b0;
      aw_done_q <= 1'b0;
      w_done_q <= 1'b0;
    end else begin
      last_q <= last_d;
      cur_q <= cur_d;
      busy_q <= busy_d;
      aw_done_q <= aw_done_d;
      w_done_q <= w_done_d;
    end
  end

  // Error responses are not reported yet (the DRAM models never give them); single beats.
  logic unused_resp;
  assign unused_resp = ^{bresp_i, rresp_i, rlast_i};

endmodule
