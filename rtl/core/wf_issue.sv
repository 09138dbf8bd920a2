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
// Records in arrays (heads, collector states, releases) travel as logic [N-1:0][<T>Bits-1:0], one
// wf_core_pkg struct each, read through a struct variable: Yosys 0.55 drops the dimension of an
// array of structs (rtl/README.md).
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
  input  logic [Warps-1:0][wf_core_pkg::DecInstBits-1:0] head_i,     // dec_inst_t each
  output logic [Warps-1:0]                              pop_o,

  input  logic [Warps-1:0]                              runnable_i,
  input  logic                                          ctrl_idle_i,
  input  logic [Warps-1:0]                              mem_drained_i,
  input  logic [Collectors-1:0][wf_core_pkg::CollStateBits-1:0] coll_i,  // coll_state_t each
  input  logic [wf_core_pkg::NumReleases-1:0][wf_core_pkg::SbReleaseBits-1:0] release_i,
                                                                       // sb_release_t each

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
  wf_core_pkg::dec_inst_t     sb_head_view;

  always_comb begin
    sb_head_view = '0;
    for (int unsigned w = 0; w < Warps; w++) begin
      sb_head_view           = head_i[w];
      sb_reg_valid[w]   = {sb_head_view.rc.re, sb_head_view.rb.re, sb_head_view.ra.re,
                           sb_head_view.rd.re | sb_head_view.rd.we};
      sb_reg_base[w]    = {sb_head_view.rc.num, sb_head_view.rb.num, sb_head_view.ra.num, sb_head_view.rd.num};
      sb_reg_cnt[w]     = {sb_head_view.rc.cnt, sb_head_view.rb.cnt, sb_head_view.ra.cnt, sb_head_view.rd.cnt};
      sb_pred_valid[w]  = {sb_head_view.pd_we, sb_head_view.pu2.re, sb_head_view.pu1.re, sb_head_view.pu0.re,
                           sb_head_view.legal && !sb_head_view.pg_always &&
                           sb_head_view.pg != 4'(wf_isa_pkg::TruePred)};
      sb_pred[w]        = {sb_head_view.pd, sb_head_view.pu2.num, sb_head_view.pu1.num, sb_head_view.pu0.num,
                           sb_head_view.pg};
      sb_writes_reg[w]  = sb_head_view.rd.we;
      sb_writes_pred[w] = sb_head_view.pd_we;
    end
  end

  // Readiness.
  logic                   any_free;
  logic [Collectors-1:0]  free;
  logic [Warps-1:0]       war, ready;
  wf_core_pkg::dec_inst_t rdy_head_view;
  wf_core_pkg::coll_state_t rdy_coll_view;

  always_comb begin
    rdy_head_view = '0;
    rdy_coll_view = '0;
    for (int unsigned c = 0; c < Collectors; c++) begin
      rdy_coll_view = coll_i[c];
      free[c]  = !rdy_coll_view.busy;
    end
    any_free = |free;
    for (int unsigned w = 0; w < Warps; w++) begin
      rdy_head_view = head_i[w];
      war[w] = 1'b0;
      for (int unsigned c = 0; c < Collectors; c++) begin
        rdy_coll_view = coll_i[c];
        for (int unsigned g = 0; g < 4; g++) begin
          war[w] = war[w] | (rdy_coll_view.busy && rdy_coll_view.warp == wf_core_pkg::WarpIdBits'(w) &&
                             rdy_coll_view.src_pending[g] && rdy_head_view.rd.we &&
                             overlaps(rdy_head_view.rd.num, rdy_head_view.rd.cnt,
                                      rdy_coll_view.src_base[g], rdy_coll_view.src_cnt[g]));
        end
      end
      ready[w] = head_valid_i[w] && sb_ready[w] && runnable_i[w] && any_free && !war[w] &&
                 !stop_i &&
                 (rdy_head_view.unit != 4'(wf_isa_pkg::UNIT_CTRL) || ctrl_idle_i) &&
                 (rdy_head_view.op != OpMembar || mem_drained_i[w]);
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
  wf_core_pkg::sb_release_t          rel_view;

  always_comb begin
    rel_view = '0;
    for (int unsigned r = 0; r < wf_core_pkg::NumReleases; r++) begin
      rel_view          = release_i[r];
      rel_valid[r] = rel_view.valid;
      rel_warp[r]  = WarpBits'(rel_view.warp);
      rel_entry[r] = EntryBits'(rel_view.entry);
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
