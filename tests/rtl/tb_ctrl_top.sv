// Bench wrapper for wf_ctrl: the CTRL pass as flat ports (the bench gives the opcode and the
// fields the unit reads), the outputs flattened.
module tb_ctrl_top #(
  parameter int unsigned Warps          = 8,
  parameter int unsigned Lanes          = 8,
  parameter int unsigned YieldBackEdges = 4,
  parameter int unsigned Blocks         = 4,
  localparam int unsigned WarpBits      = $clog2(Warps),
  localparam int unsigned BlockBits     = $clog2(Blocks)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [31:0]             code_size_i,
  input  logic [Warps-1:0]        start_i,
  input  logic [Warps-1:0][31:0]  start_lanes_i,
  input  logic [28:0]             start_pc_i,
  input  logic [BlockBits-1:0]    start_block_i,
  input  logic                    pass_valid_i,
  input  logic [5:0]              pass_warp_i,
  input  logic                    pass_last_i,
  input  logic [28:0]             pass_pc_i,
  input  logic [31:0]             pass_exec_i,
  input  logic [7:0]              pass_op_i,
  input  logic [31:0]             pass_imm_i,
  input  logic [3:0]              pass_breg_i,
  input  logic [2:0]              pass_fn_i,
  input  logic [3:0]              pass_bar_id_i,
  input  logic [4:0]              pass_pass_i,
  input  logic [7:0]              pass_rd_i,
  input  logic [2:0]              pass_sb_i,
  input  logic                    ret_ready_i,
  input  logic [Lanes-1:0][31:0]  a_i,
  input  logic [Lanes-1:0][31:0]  b_i,
  input  logic [31:0]             pred_i,
  output logic                    resolve_o,
  output logic                    redirect_valid_o,
  output logic [5:0]              redirect_warp_o,
  output logic [28:0]             redirect_pc_o,
  output logic [Warps-1:0]        has_group_o,
  output logic [Warps-1:0][31:0]  group_o,
  output logic [Warps-1:0]        idle_o,
  output logic [Warps-1:0]        done_o,
  output logic                    fault_valid_o,
  output logic [31:0]             fault_kind_o,
  output logic [31:0]             fault_pc_o,
  output logic [31:0]             fault_code_o,
  output logic [15:0]             fault_detail_o,
  output logic [WarpBits-1:0]     fault_warp_o,
  output logic [4:0]              fault_lane_o,
  output logic                    ret_valid_o,
  output logic [5:0]              ret_warp_o,
  output logic [4:0]              ret_pass_o,
  output logic [7:0]              ret_rd_o,
  output logic                    ret_last_o,
  output logic [2:0]              ret_sb_o,
  output logic [Lanes-1:0]        ret_lanes_o,
  output logic [Lanes-1:0][31:0]  ret_data_o,
  output logic                    release_valid_o,
  output logic [5:0]              release_warp_o,
  output logic [2:0]              release_entry_o
);
  wf_core_pkg::ctrl_pass_t      pass;
  wf_core_pkg::fetch_redirect_t redirect;
  wf_core_pkg::sb_release_t     rel;
  wf_core_pkg::ret_wb_t         ret;
  wf_soc_pkg::fault_t           fault;

  always_comb begin
    pass         = '0;
    pass.valid   = pass_valid_i;
    pass.warp    = pass_warp_i;
    pass.last    = pass_last_i;
    pass.pass    = pass_pass_i;
    pass.rd      = pass_rd_i;
    pass.sb_reg  = pass_sb_i;
    pass.pc      = pass_pc_i;
    pass.exec    = pass_exec_i;
    pass.op.op   = pass_op_i;
    pass.op.imm  = pass_imm_i;
    pass.op.breg = pass_breg_i;
    pass.op.fn   = pass_fn_i;
    pass.op.bar_id = pass_bar_id_i;
  end

  wf_ctrl #(.Warps(Warps), .Lanes(Lanes), .YieldBackEdges(YieldBackEdges), .Blocks(Blocks)) u_ctrl (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .launch_start_i (1'b0),
    .code_size_i    (code_size_i),
    .start_i        (start_i),
    .start_lanes_i  (start_lanes_i),
    .start_pc_i     (start_pc_i),
    .start_block_i  (start_block_i),
    .pass_i         (pass),
    .a_i            (a_i),
    .b_i            (b_i),
    .c_i            ('0),
    .pred_i         (pred_i),
    .resolve_o      (resolve_o),
    .redirect_o     (redirect),
    .has_group_o    (has_group_o),
    .group_o        (group_o),
    .idle_o         (idle_o),
    .done_o         (done_o),
    .release_o      (rel),
    .ret_grant_i    (ret_ready_i),
    .ret_valid_o    (ret_valid_o),
    .ret_o          (ret),
    .ret_lanes_o    (ret_lanes_o),
    .ret_data_o     (ret_data_o),
    .fault_valid_o  (fault_valid_o),
    .fault_o        (fault),
    .fault_detail_o (fault_detail_o),
    .fault_warp_o   (fault_warp_o),
    .fault_lane_o   (fault_lane_o)
  );

  assign redirect_valid_o = redirect.valid;
  assign redirect_warp_o  = redirect.warp;
  assign redirect_pc_o    = redirect.pc;
  assign fault_kind_o     = fault.kind;
  assign fault_pc_o       = fault.pc;
  assign fault_code_o     = fault.code;

  assign ret_warp_o       = ret.warp;
  assign ret_pass_o       = ret.pass;
  assign ret_rd_o         = ret.rd;
  assign ret_last_o       = ret.release_sb;
  assign ret_sb_o         = ret.sb_entry;
  assign release_valid_o  = rel.valid;
  assign release_warp_o   = rel.warp;
  assign release_entry_o  = rel.entry;

  logic unused;
  assign unused = ^{ret.valid, fault.address, fault.block, fault.thread};
endmodule
