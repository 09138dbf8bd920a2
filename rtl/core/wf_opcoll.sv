// Operand collectors with the banked register file and the predicate file
// (docs/microarchitecture.md, "Register file and operand collectors"). The reference is
// hls/operand_collector.h (OperandCollectors::step); tests/rtl/tb_opcoll.cpp compares the two cycle
// by cycle and checks every dispatched operand against a reference register file.
//
// Contains: `Banks` x wf_regfile_bank (the register file), wf_predfile (IssueWidth x 4 read
// ports), wf_rf_read_arb, and `Collectors` collectors. Per collector: the issued instruction
// (wf_core_pkg::issue_t: decoded record, pc, scoreboard entries), one Lanes x 32-bit buffer per
// source slot (6), the exec mask and the three predicate sources (32 lanes each, read in the
// collector's first cycle).
//
// Interface for the core (types in wf_core_pkg; core-A's issue stage, core-B's dispatch):
//   issue_i        per issue slot: the issued instruction (issue_t). Its `coll` must be the
//                  lowest free collector (slot 1: the next), from coll_free_o. Roles ra, rb, rc
//                  and rd (store data, when rd.re) take slots in that order, each as many as its
//                  `cnt`, also for RZ (no read, the slots hold 0): FFMA a/b/c in slots 0/1/2, DFMA
//                  0-1/2-3/4-5, a store with a 64-bit address: address 0-1, data 2 ... At most 6.
//   issue_rf_base_i  the warp's first physical warp register (from the block dispatcher).
//   coll_state_o   per collector: busy, warp, and per source group (rd, ra, rb, rc) its base,
//                  count and whether it still has an unread slot (not yet granted for the last
//                  pass): the issue stage holds a head whose destination overlaps a pending group
//                  of a collector of its warp (write after read).
//   coll_ready_o   the collector's current pass is complete: coll_opnd_o holds its six slots
//                  (lanes coll_pass_o x Lanes ..), coll_exec_o the 32-lane exec mask (active and
//                  guard), coll_pred_o the three predicate sources (raw, PT and absent: all ones).
//   coll_older_o   [a][b]: collector a was allocated before b (dispatch takes the oldest first).
//   dispatch_i     the collector's current pass leaves this cycle (only when coll_ready_o): the
//                  unit registers the operands now. The last pass frees the collector.
//   rf_w*_i        one register-file write a bank a cycle (the write-back), per-lane enables.
//   pf_w*_i        one predicate-file write a cycle, per-lane mask.
//   bank_re_o / bank_row_o  each bank's read this cycle (statistics, benches).
// Records in arrays (issue_t, coll_state_t) travel as logic [N-1:0][<T>Bits-1:0], one struct each,
// read through a struct variable: Yosys 0.55 drops the dimension of an array of structs
// (rtl/README.md).
module wf_opcoll #(
  parameter int unsigned Collectors  = wf_config_pkg::ConfigDefaultOperandCollectors,
  parameter int unsigned Banks       = wf_config_pkg::ConfigDefaultRfBanks,
  parameter int unsigned Lanes       = wf_config_pkg::ConfigDefaultLanes,
  parameter int unsigned Warps       = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned WarpRegs    = wf_config_pkg::ConfigDefaultRegsPerCore / 32,
  parameter int unsigned IssueWidth  = wf_config_pkg::ConfigDefaultIssueWidth,
  localparam int unsigned Slots      = 6,
  localparam int unsigned Roles      = 4,
  localparam int unsigned Passes     = 32 / Lanes,
  localparam int unsigned PassLog    = $clog2(Passes),
  localparam int unsigned PassBits   = Passes > 1 ? PassLog : 1,
  localparam int unsigned BankLog    = $clog2(Banks),
  localparam int unsigned BankBits   = Banks > 1 ? BankLog : 1,
  localparam int unsigned Rows       = WarpRegs / Banks * Passes,
  localparam int unsigned RowBits    = $clog2(Rows),
  localparam int unsigned PhysBits   = $clog2(WarpRegs),
  localparam int unsigned CollBits   = Collectors > 1 ? $clog2(Collectors) : 1,
  localparam int unsigned WarpBits   = Warps > 1 ? $clog2(Warps) : 1,
  localparam int unsigned SlotBits   = $clog2(Slots)
) (
  input  logic                                              clk_i,
  input  logic                                              rst_ni,

  // Issue (one instruction per slot and cycle; issue_i[k].coll names a free collector).
  input  logic [IssueWidth-1:0][wf_core_pkg::IssueBits-1:0] issue_i,     // issue_t each
  input  logic [IssueWidth-1:0][PhysBits-1:0]               issue_rf_base_i,
  output logic [Collectors-1:0]                             coll_free_o,

  // Write-after-read information for the issue stage.
  output logic [Collectors-1:0][wf_core_pkg::CollStateBits-1:0] coll_state_o,  // coll_state_t each

  // Dispatch.
  output logic [Collectors-1:0]                             coll_ready_o,
  output logic [Collectors-1:0][Collectors-1:0]             coll_older_o,
  output logic [Collectors-1:0][wf_core_pkg::IssueBits-1:0] coll_issue_o,  // issue_t each
  output logic [Collectors-1:0][PassBits-1:0]               coll_pass_o,
  output logic [Collectors-1:0]                             coll_last_o,
  output logic [Collectors-1:0][31:0]                       coll_exec_o,
  output logic [Collectors-1:0][2:0][31:0]                  coll_pred_o,
  output logic [Collectors-1:0][Slots-1:0][Lanes-1:0][31:0] coll_opnd_o,
  input  logic [Collectors-1:0]                             dispatch_i,

  // Register-file write ports (one a bank) and the predicate-file write port.
  input  logic [Banks-1:0]                                  rf_we_i,
  input  logic [Banks-1:0][RowBits-1:0]                     rf_wrow_i,
  input  logic [Banks-1:0][Lanes-1:0]                       rf_wlane_i,
  input  logic [Banks-1:0][Lanes-1:0][31:0]                 rf_wdata_i,
  input  logic                                              pf_we_i,
  input  logic [WarpBits-1:0]                               pf_warp_i,
  input  logic [3:0]                                        pf_pred_i,
  input  logic [31:0]                                       pf_mask_i,
  input  logic [31:0]                                       pf_data_i,

  // Observation: each bank's read this cycle.
  output logic [Banks-1:0]                                  bank_re_o,
  output logic [Banks-1:0][RowBits-1:0]                     bank_row_o
);

  localparam int unsigned RowBaseBits = PhysBits - BankLog;
  localparam logic [3:0] PT = 4'(wf_isa_pkg::TruePred);

  if (Banks < 2 || (1 << BankLog) != Banks || (1 << PassLog) != Passes ||
      Passes * Lanes != 32 || IssueWidth > 2) begin : gen_bad_params
    $error("wf_opcoll: Banks and 32 / Lanes must be powers of two, IssueWidth 1 or 2");
  end

  // ---------------------------------------------------------------------------------------------
  // Collector state.
  logic [Collectors-1:0]                              valid_d, valid_q;
  logic [Collectors-1:0]                              first_d, first_q;
  logic [Collectors-1:0]                              inflight_d, inflight_q;
  logic [Collectors-1:0][PassBits-1:0]                pass_d, pass_q;
  logic [Collectors-1:0][Slots-1:0]                   need_d, need_q;
  logic [Collectors-1:0][Slots-1:0]                   got_d, got_q;
  logic [Collectors-1:0][Slots-1:0]                   dlv_d, dlv_q;   // granted last cycle
  logic [Collectors-1:0][Slots-1:0][BankBits-1:0]     bank_d, bank_q;
  logic [Collectors-1:0][Slots-1:0][RowBaseBits-1:0]  rowb_d, rowb_q;
  logic [Collectors-1:0][Roles-1:0][Slots-1:0]        rmask_d, rmask_q; // read slots of a role
  logic [Collectors-1:0][wf_core_pkg::IssueBits-1:0] issue_d, issue_q;  // issue_t each
  logic [Collectors-1:0][31:0]                        exec_d, exec_q;
  logic [Collectors-1:0][2:0][31:0]                   pred_d, pred_q;
  logic [Collectors-1:0][Slots-1:0][Lanes-1:0][31:0]  buf_d, buf_q;

  // ---------------------------------------------------------------------------------------------
  // Allocation: issue slot k takes the collector it names (the lowest free one).
  logic [IssueWidth-1:0][Collectors-1:0] alloc_oh;  // one-hot per slot
  logic [Collectors-1:0]                 alloc;
  wf_core_pkg::issue_t                   alloc_view;
  always_comb begin
    alloc      = '0;
    alloc_view = '0;
    for (int unsigned k = 0; k < IssueWidth; k++) begin
      alloc_oh[k] = '0;
      alloc_view  = issue_i[k];
      for (int unsigned c = 0; c < Collectors; c++) begin
        alloc_oh[k][c] = alloc_view.valid && alloc_view.coll == wf_core_pkg::CollIdBits'(c);
      end
      alloc = alloc | alloc_oh[k];
    end
  end
  assign coll_free_o = ~valid_q;

  // The four source roles of each issue slot in slot order: ra, rb, rc, rd (store data).
  logic [IssueWidth-1:0][Roles-1:0][7:0] issue_reg;
  logic [IssueWidth-1:0][Roles-1:0][2:0] issue_cnt;
  logic [IssueWidth-1:0][Roles-1:0]      issue_re;
  wf_core_pkg::issue_t                   role_view;
  always_comb begin
    role_view = '0;
    for (int unsigned k = 0; k < IssueWidth; k++) begin
      role_view    = issue_i[k];
      issue_reg[k] = {role_view.inst.rd.num, role_view.inst.rc.num, role_view.inst.rb.num,
                      role_view.inst.ra.num};
      issue_cnt[k] = {role_view.inst.rd.re ? role_view.inst.rd.cnt : 3'd0,
                      role_view.inst.rc.cnt, role_view.inst.rb.cnt, role_view.inst.ra.cnt};
      issue_re[k]  = {role_view.inst.rd.re, role_view.inst.rc.re, role_view.inst.rb.re,
                      role_view.inst.ra.re};
    end
  end

  // Slot layout of each issue slot's instruction: physical register (bank, row base) and
  // whether the slot is read. Role g's slots start after the slots of roles 0 .. g - 1.
  logic [IssueWidth-1:0][Slots-1:0][BankBits-1:0]    is_bank;
  logic [IssueWidth-1:0][Slots-1:0][RowBaseBits-1:0] is_rowb;
  logic [IssueWidth-1:0][Slots-1:0]                  is_need;
  logic [IssueWidth-1:0][Roles-1:0][Slots-1:0]       is_rmask;
  logic [3:0]          lay_first;
  logic [PhysBits-1:0] lay_phys;
  always_comb begin
    lay_first = '0;
    lay_phys  = '0;
    for (int unsigned k = 0; k < IssueWidth; k++) begin
      lay_first = '0;
      is_need[k]  = '0;
      is_rmask[k] = '0;
      is_bank[k]  = '0;
      is_rowb[k]  = '0;
      for (int unsigned g = 0; g < Roles; g++) begin
        for (int unsigned s = 0; s < Slots; s++) begin
          if (4'(s) >= lay_first && 4'(s) < lay_first + 4'(issue_cnt[k][g])) begin
            lay_phys = issue_rf_base_i[k] + PhysBits'(issue_reg[k][g]) +
                       PhysBits'(4'(4'(s) - lay_first));
            is_bank[k][s]     = lay_phys[BankBits-1:0];
            is_rowb[k][s]     = lay_phys[PhysBits-1:BankLog];
            is_need[k][s]     = issue_re[k][g];
            is_rmask[k][g][s] = issue_re[k][g];
          end
        end
        lay_first = lay_first + 4'(issue_cnt[k][g]);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Read requests and the arbiter.
  logic [Collectors-1:0]                       advance;   // a pass that is not the last leaves
  logic [Collectors-1:0]                       retire;    // the last pass leaves
  logic [Collectors-1:0][Slots-1:0]            req_valid;
  logic [Collectors-1:0][Slots-1:0][RowBits-1:0] req_row;
  logic [PassBits-1:0] rpass;
  always_comb begin
    rpass = '0;
    for (int unsigned c = 0; c < Collectors; c++) begin
      coll_ready_o[c] = valid_q[c] && !first_q[c] && !inflight_q[c] && got_q[c] == need_q[c];
      coll_last_o[c]  = pass_q[c] == PassBits'(Passes - 1);
      advance[c]      = valid_q[c] && dispatch_i[c] && !coll_last_o[c];
      retire[c]       = valid_q[c] && dispatch_i[c] && coll_last_o[c];
      if (!valid_q[c] || retire[c]) begin
        req_valid[c] = '0;
      end else if (advance[c]) begin
        req_valid[c] = need_q[c];
      end else if (dispatch_i[c]) begin
        req_valid[c] = '0;
      end else begin
        req_valid[c] = need_q[c] & ~got_q[c];
      end
      rpass = advance[c] ? pass_q[c] + PassBits'(1) : pass_q[c];
      for (int unsigned s = 0; s < Slots; s++) begin
        if (Passes > 1) begin
          req_row[c][s] = RowBits'({rowb_q[c][s], rpass[PassLog-1:0]});
        end else begin
          req_row[c][s] = RowBits'(rowb_q[c][s]);
        end
      end
    end
  end

  logic [Banks-1:0]                       grant_valid;
  logic [Banks-1:0][CollBits-1:0]         grant_coll;
  logic [Banks-1:0][SlotBits-1:0]         grant_slot;
  logic [Collectors-1:0][Slots-1:0]       slots_granted;

  wf_rf_read_arb #(
    .Collectors (Collectors),
    .Banks      (Banks),
    .Slots      (Slots)
  ) u_arb (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .req_valid_i     (req_valid),
    .req_bank_i      (bank_q),
    .alloc_i         (alloc),
    .grant_valid_o   (grant_valid),
    .grant_coll_o    (grant_coll),
    .grant_slot_o    (grant_slot),
    .slots_granted_o (slots_granted),
    .older_o         (coll_older_o)
  );

  // Each bank reads the row of its granted collector slot.
  logic [Banks-1:0][RowBits-1:0] bank_row;
  always_comb begin
    for (int unsigned b = 0; b < Banks; b++) begin
      bank_row[b] = '0;
      for (int unsigned c = 0; c < Collectors; c++) begin
        for (int unsigned s = 0; s < Slots; s++) begin
          if (grant_valid[b] && grant_coll[b] == CollBits'(c) && grant_slot[b] == SlotBits'(s)) begin
            bank_row[b] = bank_row[b] | req_row[c][s];
          end
        end
      end
    end
  end
  assign bank_re_o  = grant_valid;
  assign bank_row_o = bank_row;

  // ---------------------------------------------------------------------------------------------
  // The register file.
  logic [Banks-1:0][Lanes-1:0][31:0] rdata;
  for (genvar b = 0; b < Banks; b++) begin : gen_bank
    wf_regfile_bank #(
      .Lanes (Lanes),
      .Rows  (Rows)
    ) u_bank (
      .clk_i   (clk_i),
      .re_i    (grant_valid[b]),
      .raddr_i (bank_row[b]),
      .rdata_o (rdata[b]),
      .we_i    (rf_we_i[b]),
      .waddr_i (rf_wrow_i[b]),
      .wlane_i (rf_wlane_i[b]),
      .wdata_i (rf_wdata_i[b])
    );
  end

  // ---------------------------------------------------------------------------------------------
  // The predicate file: in the cycle after issue slot k allocated a collector, port 4k reads the
  // guard and ports 4k+1 .. 4k+3 the predicate sources (PT, also for absent sources: all ones).
  logic [IssueWidth-1:0]                  pr_valid_d, pr_valid_q;
  logic [IssueWidth-1:0][Collectors-1:0]  pr_coll_d, pr_coll_q;
  logic [IssueWidth-1:0][WarpBits-1:0]    pr_warp_d, pr_warp_q;
  logic [IssueWidth-1:0][3:0][3:0]        pr_pred_d, pr_pred_q;
  logic [IssueWidth-1:0]                  pr_pgn_d, pr_pgn_q;
  logic [IssueWidth-1:0][31:0]            pr_mask_d, pr_mask_q;
  wf_core_pkg::issue_t                    pr_view;
  always_comb begin
    pr_view = '0;
    for (int unsigned k = 0; k < IssueWidth; k++) begin
      pr_view         = issue_i[k];
      pr_valid_d[k]   = |alloc_oh[k];
      pr_coll_d[k]    = alloc_oh[k];
      pr_warp_d[k]    = WarpBits'(pr_view.warp);
      pr_pred_d[k][0] = pr_view.inst.pg;
      pr_pred_d[k][1] = pr_view.inst.pu0.re ? pr_view.inst.pu0.num : PT;
      pr_pred_d[k][2] = pr_view.inst.pu1.re ? pr_view.inst.pu1.num : PT;
      pr_pred_d[k][3] = pr_view.inst.pu2.re ? pr_view.inst.pu2.num : PT;
      pr_pgn_d[k]  = pr_view.inst.pgn;
      pr_mask_d[k] = pr_view.active;
    end
  end

  logic [IssueWidth*4-1:0][WarpBits-1:0] pf_rwarp;
  logic [IssueWidth*4-1:0][3:0]          pf_rpred;
  logic [IssueWidth*4-1:0][31:0]         pf_rdata;
  always_comb begin
    for (int unsigned k = 0; k < IssueWidth; k++) begin
      for (int unsigned i = 0; i < 4; i++) begin
        pf_rwarp[4*k + i] = pr_warp_q[k];
        pf_rpred[4*k + i] = pr_pred_q[k][i];
      end
    end
  end

  wf_predfile #(
    .Warps (Warps),
    .Reads (IssueWidth * 4)
  ) u_predfile (
    .clk_i   (clk_i),
    .rwarp_i (pf_rwarp),
    .rpred_i (pf_rpred),
    .rdata_o (pf_rdata),
    .we_i    (pf_we_i),
    .wwarp_i (pf_warp_i),
    .wpred_i (pf_pred_i),
    .wmask_i (pf_mask_i),
    .wdata_i (pf_data_i)
  );

  // ---------------------------------------------------------------------------------------------
  // Next state of every collector.
  always_comb begin
    valid_d    = valid_q;
    first_d    = first_q;
    inflight_d = inflight_q;
    pass_d     = pass_q;
    need_d     = need_q;
    got_d      = got_q;
    bank_d     = bank_q;
    rowb_d     = rowb_q;
    rmask_d    = rmask_q;
    issue_d    = issue_q;
    exec_d     = exec_q;
    pred_d     = pred_q;
    buf_d      = buf_q;
    dlv_d      = slots_granted;
    for (int unsigned c = 0; c < Collectors; c++) begin
      // Progress of a busy collector.
      if (retire[c]) begin
        valid_d[c] = 1'b0;
      end else if (advance[c]) begin
        pass_d[c]     = pass_q[c] + PassBits'(1);
        got_d[c]      = slots_granted[c];
        inflight_d[c] = 1'b1;
      end else begin
        got_d[c]      = got_q[c] | slots_granted[c];
        inflight_d[c] = |slots_granted[c];
      end
      first_d[c] = 1'b0;
      // Delivery: the rows granted last cycle, from the slot's bank.
      for (int unsigned s = 0; s < Slots; s++) begin
        if (dlv_q[c][s]) begin
          buf_d[c][s] = '0;
          for (int unsigned b = 0; b < Banks; b++) begin
            if (bank_q[c][s] == BankBits'(b)) buf_d[c][s] = buf_d[c][s] | rdata[b];
          end
        end
      end
      // The first cycle: exec mask and predicate sources.
      for (int unsigned k = 0; k < IssueWidth; k++) begin
        if (pr_valid_q[k] && pr_coll_q[k][c]) begin
          exec_d[c] = pr_mask_q[k] & (pr_pgn_q[k] ? ~pf_rdata[4*k] : pf_rdata[4*k]);
          for (int unsigned i = 0; i < 3; i++) pred_d[c][i] = pf_rdata[4*k + i + 1];
        end
      end
      // Allocation.
      for (int unsigned k = 0; k < IssueWidth; k++) begin
        if (alloc_oh[k][c]) begin
          valid_d[c]    = 1'b1;
          first_d[c]    = 1'b1;
          inflight_d[c] = 1'b0;
          pass_d[c]     = '0;
          need_d[c]     = is_need[k];
          got_d[c]      = '0;
          bank_d[c]     = is_bank[k];
          rowb_d[c]     = is_rowb[k];
          rmask_d[c]    = is_rmask[k];
          issue_d[c]    = issue_i[k];
          for (int unsigned s = 0; s < Slots; s++) begin
            if (!is_need[k][s]) buf_d[c][s] = '0;  // RZ and unused slots read 0
          end
        end
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Outputs. coll_state_o's groups are in wf_core_pkg's order: rd, ra, rb, rc.
  logic [Roles-1:0]         pend;  // ra, rb, rc, rd
  wf_core_pkg::issue_t      held_view;
  wf_core_pkg::coll_state_t state;
  always_comb begin
    pend      = '0;
    held_view = '0;
    state     = '0;
    for (int unsigned c = 0; c < Collectors; c++) begin
      for (int unsigned g = 0; g < Roles; g++) begin
        pend[g] = valid_q[c] && |rmask_q[c][g] && (!coll_last_o[c] || |(rmask_q[c][g] & ~got_q[c]));
      end
      held_view         = issue_q[c];
      state.busy        = valid_q[c];
      state.warp        = held_view.warp;
      state.src_pending = {pend[2], pend[1], pend[0], pend[3]};
      state.src_base    = {held_view.inst.rc.num, held_view.inst.rb.num,
                           held_view.inst.ra.num, held_view.inst.rd.num};
      state.src_cnt     = {held_view.inst.rc.cnt, held_view.inst.rb.cnt,
                           held_view.inst.ra.cnt, held_view.inst.rd.cnt};
      coll_state_o[c]   = state;
    end
  end
  assign coll_issue_o   = issue_q;
  assign coll_pass_o    = pass_q;
  assign coll_exec_o    = exec_q;
  assign coll_pred_o    = pred_q;
  assign coll_opnd_o    = buf_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q    <= '0;
      first_q    <= '0;
      inflight_q <= '0;
      pass_q     <= '0;
      got_q      <= '0;
      dlv_q      <= '0;
      pr_valid_q <= '0;
    end else begin
      valid_q    <= valid_d;
      first_q    <= first_d;
      inflight_q <= inflight_d;
      pass_q     <= pass_d;
      got_q      <= got_d;
      dlv_q      <= dlv_d;
      pr_valid_q <= pr_valid_d;
    end
  end

  // Datapath and per-instruction fields: no reset (valid bits guard them).
  always_ff @(posedge clk_i) begin
    need_q    <= need_d;
    bank_q    <= bank_d;
    rowb_q    <= rowb_d;
    rmask_q   <= rmask_d;
    issue_q   <= issue_d;
    exec_q    <= exec_d;
    pred_q    <= pred_d;
    buf_q     <= buf_d;
    pr_coll_q <= pr_coll_d;
    pr_warp_q <= pr_warp_d;
    pr_pred_q <= pr_pred_d;
    pr_pgn_q  <= pr_pgn_d;
    pr_mask_q <= pr_mask_d;
  end

endmodule
