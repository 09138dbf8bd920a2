// Bench wrapper of wf_opcoll for tb_opcoll.cpp: flat ports in place of wf_core_pkg's issue_t and
// coll_state_t, so that the C++ bench sets fields by name here rather than by bit position (the
// structs' layout stays core-A's to change). The issue record's pc carries the bench's
// instruction id; its fields that the collectors do not read are 0.
module tb_opcoll_top #(
  parameter int unsigned Collectors = 4,
  parameter int unsigned Banks      = 8,
  parameter int unsigned Lanes      = 16,
  parameter int unsigned Warps      = 32,
  parameter int unsigned WarpRegs   = 2048,
  parameter int unsigned IssueWidth = 1,
  localparam int unsigned Passes    = 32 / Lanes,
  localparam int unsigned PassBits  = Passes > 1 ? $clog2(Passes) : 1,
  localparam int unsigned Rows      = WarpRegs / Banks * Passes,
  localparam int unsigned RowBits   = $clog2(Rows),
  localparam int unsigned PhysBits  = $clog2(WarpRegs),
  localparam int unsigned CollBits  = Collectors > 1 ? $clog2(Collectors) : 1,
  localparam int unsigned WarpBits  = Warps > 1 ? $clog2(Warps) : 1
) (
  input  logic                                         clk_i,
  input  logic                                         rst_ni,
  input  logic [IssueWidth-1:0]                        issue_valid_i,
  input  logic [IssueWidth-1:0][WarpBits-1:0]          issue_warp_i,
  input  logic [IssueWidth-1:0][CollBits-1:0]          issue_coll_i,
  input  logic [IssueWidth-1:0][PhysBits-1:0]          issue_rf_base_i,
  input  logic [IssueWidth-1:0][31:0]                  issue_mask_i,
  input  logic [IssueWidth-1:0][3:0][7:0]              issue_reg_i,   // ra, rb, rc, rd
  input  logic [IssueWidth-1:0][3:0][2:0]              issue_cnt_i,
  input  logic [IssueWidth-1:0][3:0]                   issue_re_i,
  input  logic [IssueWidth-1:0][3:0]                   issue_pg_i,
  input  logic [IssueWidth-1:0]                        issue_pgn_i,
  input  logic [IssueWidth-1:0][2:0]                   issue_pu_re_i,
  input  logic [IssueWidth-1:0][2:0][3:0]              issue_pu_i,
  input  logic [IssueWidth-1:0][15:0]                  issue_id_i,
  output logic [Collectors-1:0]                        coll_free_o,
  output logic [Collectors-1:0]                        pend_valid_o,
  output logic [Collectors-1:0][WarpBits-1:0]          pend_warp_o,
  output logic [Collectors-1:0][3:0][7:0]              pend_reg_o,    // ra, rb, rc, rd
  output logic [Collectors-1:0][3:0][2:0]              pend_cnt_o,
  output logic [Collectors-1:0][3:0]                   pend_role_o,
  output logic [Collectors-1:0]                        coll_ready_o,
  output logic [Collectors-1:0][Collectors-1:0]        coll_older_o,
  output logic [Collectors-1:0][WarpBits-1:0]          coll_warp_o,
  output logic [Collectors-1:0][PassBits-1:0]          coll_pass_o,
  output logic [Collectors-1:0]                        coll_last_o,
  output logic [Collectors-1:0][31:0]                  coll_exec_o,
  output logic [Collectors-1:0][2:0][31:0]             coll_pred_o,
  output logic [Collectors-1:0][5:0][Lanes-1:0][31:0]  coll_opnd_o,
  output logic [Collectors-1:0][15:0]                  coll_id_o,
  input  logic [Collectors-1:0]                        dispatch_i,
  input  logic [Banks-1:0]                             rf_we_i,
  input  logic [Banks-1:0][RowBits-1:0]                rf_wrow_i,
  input  logic [Banks-1:0][Lanes-1:0]                  rf_wlane_i,
  input  logic [Banks-1:0][Lanes-1:0][31:0]            rf_wdata_i,
  input  logic                                         pf_we_i,
  input  logic [WarpBits-1:0]                          pf_warp_i,
  input  logic [3:0]                                   pf_pred_i,
  input  logic [31:0]                                  pf_mask_i,
  input  logic [31:0]                                  pf_data_i,
  output logic [Banks-1:0]                             bank_re_o,
  output logic [Banks-1:0][RowBits-1:0]                bank_row_o
);

  wf_core_pkg::issue_t      [IssueWidth-1:0] issue;
  wf_core_pkg::issue_t      [Collectors-1:0] coll_issue;
  wf_core_pkg::coll_state_t [Collectors-1:0] coll_state;

  always_comb begin
    for (int unsigned k = 0; k < IssueWidth; k++) begin
      issue[k]              = '0;
      issue[k].valid        = issue_valid_i[k];
      issue[k].warp         = wf_core_pkg::WarpIdBits'(issue_warp_i[k]);
      issue[k].coll         = wf_core_pkg::CollIdBits'(issue_coll_i[k]);
      issue[k].pc           = wf_core_pkg::PcBits'(issue_id_i[k]);
      issue[k].active       = issue_mask_i[k];
      issue[k].inst.ra.num  = issue_reg_i[k][0];
      issue[k].inst.ra.cnt  = issue_cnt_i[k][0];
      issue[k].inst.ra.re   = issue_re_i[k][0];
      issue[k].inst.rb.num  = issue_reg_i[k][1];
      issue[k].inst.rb.cnt  = issue_cnt_i[k][1];
      issue[k].inst.rb.re   = issue_re_i[k][1];
      issue[k].inst.rc.num  = issue_reg_i[k][2];
      issue[k].inst.rc.cnt  = issue_cnt_i[k][2];
      issue[k].inst.rc.re   = issue_re_i[k][2];
      issue[k].inst.rd.num  = issue_reg_i[k][3];
      issue[k].inst.rd.cnt  = issue_cnt_i[k][3];
      issue[k].inst.rd.re   = issue_re_i[k][3];
      issue[k].inst.pg      = issue_pg_i[k];
      issue[k].inst.pgn     = issue_pgn_i[k];
      issue[k].inst.pu0.re  = issue_pu_re_i[k][0];
      issue[k].inst.pu0.num = issue_pu_i[k][0];
      issue[k].inst.pu1.re  = issue_pu_re_i[k][1];
      issue[k].inst.pu1.num = issue_pu_i[k][1];
      issue[k].inst.pu2.re  = issue_pu_re_i[k][2];
      issue[k].inst.pu2.num = issue_pu_i[k][2];
    end
  end

  wf_opcoll #(
    .Collectors (Collectors),
    .Banks      (Banks),
    .Lanes      (Lanes),
    .Warps      (Warps),
    .WarpRegs   (WarpRegs),
    .IssueWidth (IssueWidth)
  ) u_opcoll (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .issue_i         (issue),
    .issue_rf_base_i (issue_rf_base_i),
    .coll_free_o     (coll_free_o),
    .coll_state_o    (coll_state),
    .coll_ready_o    (coll_ready_o),
    .coll_older_o    (coll_older_o),
    .coll_issue_o    (coll_issue),
    .coll_pass_o     (coll_pass_o),
    .coll_last_o     (coll_last_o),
    .coll_exec_o     (coll_exec_o),
    .coll_pred_o     (coll_pred_o),
    .coll_opnd_o     (coll_opnd_o),
    .dispatch_i      (dispatch_i),
    .rf_we_i         (rf_we_i),
    .rf_wrow_i       (rf_wrow_i),
    .rf_wlane_i      (rf_wlane_i),
    .rf_wdata_i      (rf_wdata_i),
    .pf_we_i         (pf_we_i),
    .pf_warp_i       (pf_warp_i),
    .pf_pred_i       (pf_pred_i),
    .pf_mask_i       (pf_mask_i),
    .pf_data_i       (pf_data_i),
    .bank_re_o       (bank_re_o),
    .bank_row_o      (bank_row_o)
  );

  always_comb begin
    for (int unsigned c = 0; c < Collectors; c++) begin
      pend_valid_o[c]   = coll_state[c].busy;
      pend_warp_o[c]    = WarpBits'(coll_state[c].warp);
      // coll_state_t's groups are rd, ra, rb, rc.
      pend_reg_o[c]     = {coll_state[c].src_base[0], coll_state[c].src_base[3],
                           coll_state[c].src_base[2], coll_state[c].src_base[1]};
      pend_cnt_o[c]     = {coll_state[c].src_cnt[0], coll_state[c].src_cnt[3],
                           coll_state[c].src_cnt[2], coll_state[c].src_cnt[1]};
      pend_role_o[c]    = {coll_state[c].src_pending[0], coll_state[c].src_pending[3],
                           coll_state[c].src_pending[2], coll_state[c].src_pending[1]};
      coll_warp_o[c]    = WarpBits'(coll_issue[c].warp);
      coll_id_o[c]      = coll_issue[c].pc[15:0];
    end
  end

endmodule
