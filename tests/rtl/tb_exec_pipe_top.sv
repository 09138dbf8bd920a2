// Bench wrapper for wf_exec_pipe: the instruction word goes through wf_decode (the record the
// core's buffers hold), the pass and the write-back ports are flat so the C++ bench reads them
// by name.
module tb_exec_pipe_top #(
  parameter int unsigned Unit     = wf_isa_pkg::UNIT_ALU,
  parameter int unsigned Share    = 1,
  parameter int unsigned Lanes    = 8,
  parameter int unsigned Banks    = 4,
  parameter int unsigned Warps    = 4,
  parameter int unsigned WarpRegs = 64,
  localparam int unsigned Passes  = 32 / Lanes,
  localparam int unsigned PassBits = Passes > 1 ? $clog2(Passes) : 1,
  localparam int unsigned Rows    = WarpRegs / Banks * Passes,
  localparam int unsigned RowBits = $clog2(Rows),
  localparam int unsigned PhysBits = $clog2(WarpRegs),
  localparam int unsigned WarpBits = Warps > 1 ? $clog2(Warps) : 1
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic                              valid_i,
  input  logic [63:0]                       word_i,
  input  logic [5:0]                        warp_i,
  input  logic [PhysBits-1:0]               rf_base_i,
  input  logic [PassBits-1:0]               pass_i,
  input  logic                              last_i,
  input  logic [31:0]                       exec_i,
  input  logic [2:0][31:0]                  pred_i,
  input  logic [5:0][Lanes-1:0][31:0]       opnd_i,
  input  logic [2:0]                        sb_reg_i,
  input  logic [2:0]                        sb_pred_i,
  output logic [2:0]                        share_o,   // the record's lane share
  output logic [7:0]                        lat_o,     // the record's latency
  output logic                              busy_o,
  output logic [Banks-1:0]                  rf_we_o,
  output logic [Banks-1:0][RowBits-1:0]     rf_wrow_o,
  output logic [Banks-1:0][Lanes-1:0]       rf_wlane_o,
  output logic [Banks-1:0][Lanes-1:0][31:0] rf_wdata_o,
  output logic                              pf_we_o,
  output logic [WarpBits-1:0]               pf_warp_o,
  output logic [3:0]                        pf_pred_o,
  output logic [31:0]                       pf_mask_o,
  output logic [31:0]                       pf_data_o,
  output logic                              rel_reg_valid_o,
  output logic [5:0]                        rel_reg_warp_o,
  output logic [2:0]                        rel_reg_entry_o,
  output logic                              rel_pred_valid_o,
  output logic [5:0]                        rel_pred_warp_o,
  output logic [2:0]                        rel_pred_entry_o
);
  wf_core_pkg::dec_inst_t     dec;
  wf_core_pkg::issue_t        issue;
  wf_core_pkg::sb_release_t   rel_reg, rel_pred;

  wf_decode u_decode (.inst_i(word_i), .fetch_bad_i(1'b0), .dec_o(dec));

  always_comb begin
    issue         = '0;
    issue.valid   = valid_i;
    issue.warp    = warp_i;
    issue.sb_reg  = sb_reg_i;
    issue.sb_pred = sb_pred_i;
    issue.inst    = dec;
  end
  assign share_o = dec.share;
  assign lat_o   = dec.lat;

  wf_exec_pipe #(
    .Unit (Unit), .Share (Share), .Lanes (Lanes), .Banks (Banks), .Warps (Warps),
    .WarpRegs (WarpRegs)
  ) u_dut (
    .clk_i, .rst_ni, .valid_i, .issue_i (issue), .rf_base_i, .pass_i, .last_i, .exec_i, .pred_i,
    .opnd_i, .busy_o, .rf_we_o, .rf_wrow_o, .rf_wlane_o, .rf_wdata_o, .pf_we_o, .pf_warp_o,
    .pf_pred_o, .pf_mask_o, .pf_data_o, .rel_reg_o (rel_reg), .rel_pred_o (rel_pred)
  );
  assign rel_reg_valid_o  = rel_reg.valid;
  assign rel_reg_warp_o   = rel_reg.warp;
  assign rel_reg_entry_o  = rel_reg.entry;
  assign rel_pred_valid_o = rel_pred.valid;
  assign rel_pred_warp_o  = rel_pred.warp;
  assign rel_pred_entry_o = rel_pred.entry;
endmodule
