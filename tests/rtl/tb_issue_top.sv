// Bench wrapper for wf_issue: the heads come in as instruction words and go through wf_decode
// (as they do in the core), collector state and releases as flat ports.
module tb_issue_top #(
  parameter int unsigned Warps      = 8,
  parameter int unsigned Entries    = 4,
  parameter int unsigned Collectors = 4,
  parameter int unsigned Policy     = 1,
  localparam int unsigned WarpBits  = $clog2(Warps)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [7:0]                    regs_per_thread_i,
  input  logic                          stop_i,
  input  logic [Warps-1:0]              admit_i,
  input  logic                          redirect_valid_i,
  input  logic [WarpBits-1:0]           redirect_warp_i,
  input  logic [28:0]                   redirect_pc_i,
  input  logic [Warps-1:0]              head_valid_i,
  input  logic [Warps-1:0][63:0]        head_word_i,
  input  logic [Warps-1:0]              runnable_i,
  input  logic                          ctrl_idle_i,
  input  logic [Warps-1:0]              mem_drained_i,
  input  logic [Collectors-1:0]         coll_busy_i,
  input  logic [Collectors-1:0][5:0]    coll_warp_i,
  input  logic [Collectors-1:0][3:0]    coll_pending_i,
  input  logic [Collectors-1:0][3:0][7:0] coll_base_i,
  input  logic [Collectors-1:0][3:0][2:0] coll_cnt_i,
  input  logic [3:0]                    rel_valid_i,
  input  logic [3:0][5:0]               rel_warp_i,
  input  logic [3:0][2:0]               rel_entry_i,
  output logic [Warps-1:0]              pop_o,
  output logic                          issue_valid_o,
  output logic [5:0]                    issue_warp_o,
  output logic [2:0]                    issue_coll_o,
  output logic [28:0]                   issue_pc_o,
  output logic [2:0]                    issue_sb_reg_o,
  output logic [2:0]                    issue_sb_pred_o,
  output logic [63:0]                   issue_word_o,
  output logic                          fault_o,
  output logic [WarpBits-1:0]           fault_warp_o,
  output logic [28:0]                   fault_pc_o
);
  wf_core_pkg::dec_inst_t [Warps-1:0]       heads;
  wf_core_pkg::coll_state_t [Collectors-1:0] coll;
  wf_core_pkg::sb_release_t [3:0]           rel;
  wf_core_pkg::fetch_redirect_t             redirect;
  wf_core_pkg::issue_t                      issue;

  for (genvar w = 0; w < Warps; w++) begin : gen_dec
    wf_decode u_decode (.inst_i(head_word_i[w]), .fetch_bad_i(1'b0), .dec_o(heads[w]));
  end

  always_comb begin
    for (int unsigned c = 0; c < Collectors; c++) begin
      coll[c].busy        = coll_busy_i[c];
      coll[c].warp        = coll_warp_i[c];
      coll[c].src_pending = coll_pending_i[c];
      coll[c].src_base    = coll_base_i[c];
      coll[c].src_cnt     = coll_cnt_i[c];
    end
    for (int unsigned r = 0; r < 4; r++) begin
      rel[r].valid = rel_valid_i[r];
      rel[r].warp  = rel_warp_i[r];
      rel[r].entry = rel_entry_i[r];
    end
    redirect       = '0;
    redirect.valid = redirect_valid_i;
    redirect.warp  = wf_core_pkg::WarpIdBits'(redirect_warp_i);
    redirect.pc    = redirect_pc_i;
  end

  wf_issue #(
    .Warps (Warps), .Entries (Entries), .Collectors (Collectors), .Policy (Policy)
  ) u_issue (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .regs_per_thread_i (regs_per_thread_i),
    .stop_i            (stop_i),
    .admit_i           (admit_i),
    .redirect_i        (redirect),
    .head_valid_i      (head_valid_i),
    .head_i            (heads),
    .pop_o             (pop_o),
    .runnable_i        (runnable_i),
    .ctrl_idle_i       (ctrl_idle_i),
    .mem_drained_i     (mem_drained_i),
    .coll_i            (coll),
    .release_i         (rel),
    .issue_o           (issue),
    .fault_o           (fault_o),
    .fault_warp_o      (fault_warp_o),
    .fault_pc_o        (fault_pc_o)
  );

  assign issue_valid_o   = issue.valid;
  assign issue_warp_o    = issue.warp;
  assign issue_coll_o    = issue.coll;
  assign issue_pc_o      = issue.pc;
  assign issue_sb_reg_o  = issue.sb_reg;
  assign issue_sb_pred_o = issue.sb_pred;
  assign issue_word_o    = wf_core_pkg::dec_word(issue.inst);
  logic [31:0] unused_active;
  assign unused_active = issue.active;
endmodule
