// Issue (docs/microarchitecture.md, "Warp scheduler" and "Scoreboard"): the instruction buffers'
// heads, the scoreboard (wf_scoreboard) and the scheduler pick (wf_warp_sched) wired with the
// readiness rules. A warp is ready when
//   - its buffer has a head and the scoreboard allows it;
//   - its group runs (runnable_i: not waiting, no convergence pick in flight);
//   - a CTRL head finds the CTRL unit idle, a MEMBAR head finds the warp's memory operations
//     drained;
//   - a collector is free;
//   - no older collector of the warp still has to read a register group the head writes (WAR);
//   - the core is not stopped (a fault).
// The picked head pops, reserves its scoreboard entries and goes to the lowest free collector
// (issue_o), with its pc: a per-warp issue pc, set by a redirect (the same one fetch takes) and
// advanced by every issue (fetch is in order and never speculates, so it is the head's pc).
// A head that is illegal (decoder's legal, the fetch marker, a register group at or above the
// launch's regs_per_thread or misaligned) issues under the same rules and goes to fault_o
// instead of a collector (ILLEGAL_INSTRUCTION, whatever its guard).
//
// Limit of this version: one issue slot (issue_width = 1); the scoreboard has one issue port.
module wf_issue #(
  parameter int unsigned Warps      = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned Entries    = wf_config_pkg::ConfigDefaultScoreboardEntries,
  parameter int unsigned Collectors = wf_config_pkg::ConfigDefaultOperandCollectors,
  parameter int unsigned Policy     = wf_config_pkg::ConfigDefaultSchedulerPolicy,
  localparam int unsigned WarpBits  = Warps > 1 ? $clog2(Warps) : 1,
  localparam int unsigned EntryBits = Entries > 1 ? $clog2(Entries) : 1,
  localparam int unsigned PcBits    = wf_core_pkg::PcBits
) (
  input  logic                                          clk_i,
  input  logic                                          rst_ni,

  input  logic [7:0]                                    regs_per_thread_i,
  input  logic                                          stop_i,
  input  logic [Warps-1:0]                              admit_i,      // warps made resident
  input  wf_core_pkg::fetch_redirect_t                  redirect_i,

  input  logic [Warps-1:0]                              head_valid_i,
  input  wf_core_pkg::dec_inst_t [Warps-1:0]            head_i,
  output logic [Warps-1:0]                              pop_o,

  input  logic [Warps-1:0]                              runnable_i,
  input  logic                                          ctrl_idle_i,
  input  logic [Warps-1:0]                              mem_drained_i,
  input  wf_core_pkg::coll_state_t [Collectors-1:0]     coll_i,
  input  wf_core_pkg::sb_release_t [wf_core_pkg::NumReleases-1:0] release_i,

  output wf_core_pkg::issue_t                           issue_o,
  output logic                                          fault_o,       // illegal head issued
  output logic [WarpBits-1:0]                           fault_warp_o,
  output logic [PcBits-1:0]                             fault_pc_o
);

  localparam logic [7:0] OpMembar = 8'h6c;  // wf_isa_pkg::OP_MEMBAR

  function automatic logic overlaps(logic [7:0] a, logic [2:0] ca, logic [7:0] b, logic [2:0] cb);
    logic [7:0] m;
    m = {5'd0, (ca - 3'd1) | (cb - 3'd1)};
    overlaps = (a & ~m) == (b & ~m);
  endfunction

  // A register operand beyond the allocation or misaligned.
  function automatic logic bad_group(wf_core_pkg::reg_opnd_t g, logic [7:0] regs);
    logic [8:0] last;
    last      = {1'b0, g.num} + {6'd0, g.cnt} - 9'd1;
    bad_group = (g.re || g.we) && (last >= {1'b0, regs} || (g.num & {5'd0, g.cnt - 3'd1}) != '0);
  endfunction

  // Scoreboard inputs from the heads. An illegal head faults whatever its guard, so its guard
  // is not a dependence.
  logic [Warps-1:0][3:0]      sb_reg_valid;
  logic [Warps-1:0][3:0][7:0] sb_reg_base;
  logic [Warps-1:0][3:0][2:0] sb_reg_cnt;
  logic [Warps-1:0][4:0]      sb_pred_valid;
  logic [Warps-1:0][4:0][3:0] sb_pred;
  logic [Warps-1:0]           sb_writes_reg, sb_writes_pred, sb_ready;

  always_comb begin
    for (int unsigned w = 0; w < Warps; w++) begin
      sb_reg_valid[w]   = {head_i[w].rc.re, head_i[w].rb.re, head_i[w].ra.re,
                           head_i[w].rd.re | head_i[w].rd.we};
      sb_reg_base[w]    = {head_i[w].rc.num, head_i[w].rb.num, head_i[w].ra.num,
                           head_i[w].rd.num};
      sb_reg_cnt[w]     = {head_i[w].rc.cnt, head_i[w].rb.cnt, head_i[w].ra.cnt,
                           head_i[w].rd.cnt};
      sb_pred_valid[w]  = {head_i[w].pd_we, head_i[w].pu2.re, head_i[w].pu1.re, head_i[w].pu0.re,
                           head_i[w].legal && !head_i[w].pg_always &&
                           head_i[w].pg != 4'(wf_isa_pkg::TruePred)};
      sb_pred[w]        = {head_i[w].pd, head_i[w].pu2.num, head_i[w].pu1.num, head_i[w].pu0.num,
                           head_i[w].pg};
      sb_writes_reg[w]  = head_i[w].rd.we;
      sb_writes_pred[w] = head_i[w].pd_we;
    end
  end

  // Readiness.
  logic                   any_free;
  logic [Collectors-1:0]  free;
  logic [Warps-1:0]       war, ready;

  always_comb begin
    for (int unsigned c = 0; c < Collectors; c++) free[c] = !coll_i[c].busy;
    any_free = |free;
    for (int unsigned w = 0; w < Warps; w++) begin
      war[w] = 1'b0;
      for (int unsigned c = 0; c < Collectors; c++) begin
        for (int unsigned g = 0; g < 4; g++) begin
          war[w] = war[w] | (coll_i[c].busy && coll_i[c].warp == wf_core_pkg::WarpIdBits'(w) &&
                             coll_i[c].src_pending[g] && head_i[w].rd.we &&
                             overlaps(head_i[w].rd.num, head_i[w].rd.cnt,
                                      coll_i[c].src_base[g], coll_i[c].src_cnt[g]));
        end
      end
      ready[w] = head_valid_i[w] && sb_ready[w] && runnable_i[w] && any_free && !war[w] &&
                 !stop_i &&
                 (head_i[w].unit != 4'(wf_isa_pkg::UNIT_CTRL) || ctrl_idle_i) &&
                 (head_i[w].op != OpMembar || mem_drained_i[w]);
    end
  end

  logic                issue_valid;
  logic [WarpBits-1:0] issue_warp;

  wf_warp_sched #(
    .Warps      (Warps),
    .IssueWidth (1),
    .Policy     (Policy)
  ) u_sched (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .ready_i       (ready),
    .admit_i       (admit_i),
    .issue_valid_o (issue_valid),
    .issue_warp_o  (issue_warp)
  );

  logic [wf_core_pkg::NumReleases-1:0]                 rel_valid;
  logic [wf_core_pkg::NumReleases-1:0][WarpBits-1:0]   rel_warp;
  logic [wf_core_pkg::NumReleases-1:0][EntryBits-1:0]  rel_entry;
  logic [EntryBits-1:0]              alloc_reg, alloc_pred;

  always_comb begin
    for (int unsigned r = 0; r < wf_core_pkg::NumReleases; r++) begin
      rel_valid[r] = release_i[r].valid;
      rel_warp[r]  = WarpBits'(release_i[r].warp);
      rel_entry[r] = EntryBits'(release_i[r].entry);
    end
  end

  wf_scoreboard #(
    .Warps    (Warps),
    .Entries  (Entries),
    .Releases (wf_core_pkg::NumReleases)
  ) u_scoreboard (
    .clk_i              (clk_i),
    .rst_ni             (rst_ni),
    .head_reg_valid_i   (sb_reg_valid),
    .head_reg_base_i    (sb_reg_base),
    .head_reg_cnt_i     (sb_reg_cnt),
    .head_pred_valid_i  (sb_pred_valid),
    .head_pred_i        (sb_pred),
    .head_writes_reg_i  (sb_writes_reg),
    .head_writes_pred_i (sb_writes_pred),
    .ready_o            (sb_ready),
    .issue_valid_i      (issue_valid),
    .issue_warp_i       (issue_warp),
    .alloc_reg_entry_o  (alloc_reg),
    .alloc_pred_entry_o (alloc_pred),
    .rel_valid_i        (rel_valid),
    .rel_warp_i         (rel_warp),
    .rel_entry_i        (rel_entry)
  );

  // The issued head, its pc and its collector.
  logic [Warps-1:0][PcBits-1:0] pc_d, pc_q;
  wf_core_pkg::dec_inst_t       inst;
  logic [PcBits-1:0]            pc;
  logic                         illegal;
  logic [Collectors-1:0]        coll_pick;
  logic [wf_core_pkg::CollIdBits-1:0] coll_idx;

  always_comb begin
    inst = '0;
    pc   = '0;
    for (int unsigned w = 0; w < Warps; w++) begin
      if (issue_warp == WarpBits'(w)) begin
        inst = head_i[w];
        pc   = pc_q[w];
      end
    end
    illegal = !inst.legal || bad_group(inst.rd, regs_per_thread_i) ||
              bad_group(inst.ra, regs_per_thread_i) || bad_group(inst.rb, regs_per_thread_i) ||
              bad_group(inst.rc, regs_per_thread_i);
    coll_pick = free & (~free + Collectors'(1));
    coll_idx  = '0;
    for (int unsigned c = 0; c < Collectors; c++) begin
      if (coll_pick[c]) coll_idx = coll_idx | wf_core_pkg::CollIdBits'(c);
    end

    issue_o         = '0;
    issue_o.valid   = issue_valid && !illegal;
    issue_o.warp    = wf_core_pkg::WarpIdBits'(issue_warp);
    issue_o.coll    = coll_idx;
    issue_o.pc      = pc;
    issue_o.sb_reg  = wf_core_pkg::SbEntryBits'(alloc_reg);
    issue_o.sb_pred = wf_core_pkg::SbEntryBits'(alloc_pred);
    issue_o.inst    = inst;
    fault_o         = issue_valid && illegal;
    fault_warp_o    = issue_warp;
    fault_pc_o      = pc;

    pop_o = '0;
    pc_d  = pc_q;
    if (issue_valid) begin
      pop_o[issue_warp] = 1'b1;
      pc_d[issue_warp]  = pc + PcBits'(1);
    end
    if (redirect_i.valid) pc_d[redirect_i.warp[WarpBits-1:0]] = redirect_i.pc;
  end

  // The group mask is the CTRL unit's: issue_o.active is filled where the core joins them.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q <= '0;
    end else begin
      pc_q <= pc_d;
    end
  end

endmodule
