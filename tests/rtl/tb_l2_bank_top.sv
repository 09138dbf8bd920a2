// Bench wrapper of wf_l2_bank for tb_l2_bank.cpp: the request and response records as flat
// ports, so that the C++ bench sets fields by name here rather than by bit position.
module tb_l2_bank_top #(
  parameter int unsigned LineBytes = 64,
  parameter int unsigned Sets      = 4,
  parameter int unsigned Ways      = 4,
  parameter int unsigned Banks     = 2,
  parameter int unsigned BankIndex = 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   req_valid_i,
  output logic                   req_ready_o,
  input  logic [1:0]             req_kind_i,
  input  logic [63:0]            req_addr_i,
  input  logic [LineBytes*8-1:0] req_wdata_i,
  input  logic [LineBytes-1:0]   req_wmask_i,
  input  logic [3:0]             req_fn_i,
  input  logic [2:0]             req_ty_i,
  input  logic [63:0]            req_a_i,
  input  logic [63:0]            req_b_i,
  input  logic [7:0]             req_tag_i,
  output logic                   rsp_valid_o,
  input  logic                   rsp_ready_i,
  output logic [7:0]             rsp_tag_o,
  output logic [LineBytes*8-1:0] rsp_rdata_o,
  output logic [63:0]            rsp_old_o,
  input  logic                   flush_i,
  output logic                   flush_done_o,
  output logic                   dram_req_valid_o,
  input  logic                   dram_req_ready_i,
  output logic                   dram_req_write_o,
  output logic [63:0]            dram_req_addr_o,
  output logic [LineBytes*8-1:0] dram_req_wdata_o,
  output logic [LineBytes-1:0]   dram_req_wstrb_o,
  input  logic                   dram_rsp_valid_i,
  input  logic [LineBytes*8-1:0] dram_rsp_rdata_i
);
  wf_soc_pkg::mem_req_t req;
  wf_soc_pkg::mem_rsp_t rsp;
  logic                 rsp_src;

  always_comb begin
    req = '0;
    req.kind = wf_soc_pkg::mem_kind_e'(req_kind_i);
    req.addr = req_addr_i;
    req.wdata[LineBytes*8-1:0] = req_wdata_i;
    req.wmask[LineBytes-1:0] = req_wmask_i;
    req.atom_fn = req_fn_i;
    req.atom_ty = req_ty_i;
    req.atom_a = req_a_i;
    req.atom_b = req_b_i;
    req.tag = req_tag_i;
  end

  wf_l2_bank #(
    .LineBytes(LineBytes), .SrcBits(1), .Sets(Sets), .Ways(Ways), .Banks(Banks),
    .BankIndex(BankIndex)
  ) u_bank (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .req_valid_i     (req_valid_i),
    .req_ready_o     (req_ready_o),
    .req_i           (req),
    .req_src_i       (1'b0),
    .rsp_valid_o     (rsp_valid_o),
    .rsp_ready_i     (rsp_ready_i),
    .rsp_o           (rsp),
    .rsp_src_o       (rsp_src),
    .flush_i         (flush_i),
    .flush_done_o    (flush_done_o),
    .dram_req_valid_o(dram_req_valid_o),
    .dram_req_ready_i(dram_req_ready_i),
    .dram_req_write_o(dram_req_write_o),
    .dram_req_addr_o (dram_req_addr_o),
    .dram_req_wdata_o(dram_req_wdata_o),
    .dram_req_wstrb_o(dram_req_wstrb_o),
    .dram_rsp_valid_i(dram_rsp_valid_i),
    .dram_rsp_rdata_i(dram_rsp_rdata_i)
  );

  assign rsp_tag_o   = rsp.tag;
  assign rsp_rdata_o = rsp.rdata[LineBytes*8-1:0];
  assign rsp_old_o   = rsp.atom_old;
  logic unused_rsp;
  assign unused_rsp = ^{rsp_src, rsp.rdata};
endmodule
