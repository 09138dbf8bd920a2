// The CTRL unit (docs/microarchitecture.md, "Per-thread PCs and convergence"): per-lane pcs, the
// group of every warp, convergence barriers, the convergence pick and the CTRL-detected faults.
// Definition: hls/include/warpforge/hls/convergence.h (CtrlUnit); compared cycle by cycle by
// tests/rtl/tb_ctrl.cpp.
//
// Ports (for the core top):
//   launch_start_i   one-cycle pulse: every warp's state is cleared (as at reset).
//   code_size_i      the launch's code size in bytes (jump targets at or past it fault).
//   start_i          admission: warp slots made resident this cycle (a block's warps, one cycle);
//   start_lanes_i    per started warp the lanes that exist (a partial last warp has fewer);
//   start_pc_i       the kernel entry (instruction index). The started warps' groups are set at
//                    the end of the cycle; each then wants a fetch redirect (one a cycle, below).
//   start_block_i    the block slot of the warps started this cycle (wf_admit's admit_slot_o; one block a
//                    cycle): its CTA barriers are cleared.
//   pass_i, a_i/b_i/c_i  one pass of a CTRL instruction from dispatch (exec = group AND guard);
//                    the instruction resolves in the cycle after its last pass (pass_i.last).
//                    a_i carries BRX/CALLR/RET's per-lane targets (buffered over the passes);
//                    (and BAR's id, WARPSYNC's masks); b_i carries BAR's count (buffered
//                    likewise); c_i is for register-reading
//                    CTRL instructions not built yet.
//   resolve_o        the instruction of last cycle's last pass resolved this cycle (the CTRL
//                    unit is free again: issue's "CTRL idle" may be derived from it).
//   redirect_o       one a cycle: the warp's new fetch (and issue) pc. The resolution of a
//                    fetch-stop instruction whose group goes on redirects in its cycle; else the
//                    lowest warp slot wanting one (a group just formed by the pick, a started
//                    warp) gets it.
//   has_group_o      the warp has a group and its redirect has gone out: it may fetch and issue.
//   group_o          the warp's group mask (issue_t.active).
//   idle_o           no group, no runnable lane, no pick in flight (waits at barriers only, or
//                    finished, or not resident).
//   done_o           every lane of the warp exited (its slot can retire with its block).
//   fault_valid_o    a CTRL-detected fault in this cycle (a resolution's, else a block deadlock:
//                    BARRIER_DEADLOCK, level while it lasts, code = the BSYNC's b): fault_o has kind, pc
//                    (bytes), code (TRAP/BPT code; for a bad jump the target); fault_detail_o the
//                    device.toml detail; fault_warp_o/fault_lane_o the lowest exec lane of the
//                    warp, from which the core fills the block and thread fields. A faulting
//                    instruction changes no state.
//   ret_valid_o, ret_o, ret_lanes_o, ret_data_o, ret_grant_i  the return path of register
//                    results (CALL's and CALLR's link = the byte offset of pc + 1; B2R = the
//                    barrier mask), as the LSU's: from the cycle after the resolution, its P
//                    passes one a cycle (ret_o.pass, ret_o.rd; ret_lanes_o the pass's exec
//                    lanes to write, ret_data_o the same value in every lane), each held until
//                    ret_grant_i (wf_exec_dispatch's CTRL return grant); ret_valid_o does not
//                    depend on ret_grant_i. Written whatever the exec mask, so that the
//                    last pass (ret_o.release_sb) can release the scoreboard entry. The unit is
//                    busy while ret_valid_o is high: issue sends no CTRL instruction then.
//                    The same path carries BAR.RED results (below). Warp operations: not built.
//   pred_i           with each pass: the instruction's predicate source over the 32 lanes, its
//                    negation applied (BAR.RED's pc; the core takes it from the collector).
//   release_o        the scoreboard release (RelCtrl): in the cycle the last pass is taken.
//
// Built: BRA, CALL, BRX, RET, CALLR (jumps and link writes), EXIT, BSSY, BSYNC, B2R, R2B, the
// yield of a spinning group, the convergence pick, TRAP/BPT faults, bad jump targets, BAR.SYNC and
// BAR.ARRIVE (per block slot 16 barriers of {in use, count, arrivals}, per warp and barrier the
// arrived and waiting lanes; arrival, completion and release in the resolution's cycle; EXIT
// re-checks its block's count-0 barriers; ids above 15 fault), the block deadlock check, and
// WARPSYNC (masks a | imm per lane; the complete-group case goes on at once, otherwise the lanes
// wait and the release set is the fixed point of emulator.md's removal rule, its 32 rounds
// unrolled in the resolution's cycle (a deep path: docs/microarchitecture.md's one round a
// cycle is not built); EXIT re-checks the waiters the same way).
// BAR.RED: its exec lanes' predicate is added to the barrier's POPC count, AND and OR; per warp
// and barrier the last SYNC/RED's function, rd and scoreboard entry are kept (a later SYNC of the
// warp replaces a RED, the emulator's rule: the replaced RED's scoreboard entry then stays held,
// as does the lower one when one EXIT releases two RED barriers of a warp); a release queues per
// warp whose waiting lanes came by RED the result for rd of those lanes, which leave after any
// return in progress, lowest warp first, P passes each (ret_valid_o is high while any is queued);
// a RED with no exec lane returns no lanes, to release its entry.
// Every other CTRL opcode resolves as "continue at the
// next pc" (a redirect when it stops fetch) and is NOT yet what execution-model.md says:
// NANOSLEEP (no sleep), VOTE, SHFL, MATCH, REDUX (no result).
// BRX/CALLR/RET's minimum over 32 lane targets is one combinational tree (a depth to pipeline).
//
// Timing (hls CtrlUnit): pass in t, resolution in t + 1 (state written at its end). The pick: in
// each cycle the lowest warp with no group, no pick in flight and runnable lanes enters: its
// candidate lanes (the runnable lanes that did not yield, else all runnable ones, whose yielded
// flags clear) and their pcs, read from the lane-pc RAM, are registered; a minimum tree over the
// 32 keys {not candidate, pc} takes one level a cycle (five cycles), each node carrying the mask
// of its lanes at its minimum; six cycles after entry the root's mask becomes the group at the
// root's pc and the warp wants a redirect.
//
// Storage: lane pcs are a RAM of Warps rows x 32 lanes (per-lane write enables, two
// asynchronous reads: LUTRAM); the convergence barrier masks, BSYNC waiters and yielded-out
// masks of a warp are one RAM row (Warps x 1536 bits, one asynchronous read and one write a
// cycle: LUTRAM), cleared for a started warp by a per-warp valid bit. The group, runnable,
// exited and yielded masks are flip-flops (several warps change in one cycle). The CTA barrier
// table, its RED accumulators, the per-warp arrived/waiting masks, the per-warp RED function,
// rd and entry, and the queued RED results are flip-flops too (a release changes every warp of
// a block in one cycle; a LUTRAM form is to come).
module wf_ctrl #(
  parameter int unsigned Warps          = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned Lanes          = wf_config_pkg::ConfigDefaultLanes,
  parameter int unsigned YieldBackEdges = wf_isa_pkg::YieldBackEdges,
  parameter int unsigned Blocks         = wf_config_pkg::ConfigDefaultMaxBlocksPerCore,
  localparam int unsigned WarpBits      = Warps > 1 ? $clog2(Warps) : 1,
  localparam int unsigned BlockBits     = Blocks > 1 ? $clog2(Blocks) : 1,
  localparam int unsigned PcBits        = wf_core_pkg::PcBits,
  localparam int unsigned NumBars       = wf_isa_pkg::NumBarrierRegs,
  localparam int unsigned BackBits      = $clog2(YieldBackEdges + 1),
  localparam int unsigned Passes        = 32 / Lanes
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic                              launch_start_i,
  input  logic [31:0]                       code_size_i,
  // admission
  input  logic [Warps-1:0]                  start_i,
  input  logic [Warps-1:0][31:0]            start_lanes_i,
  input  logic [PcBits-1:0]                 start_pc_i,
  input  logic [BlockBits-1:0]              start_block_i,
  // dispatch
  input  wf_core_pkg::ctrl_pass_t           pass_i,
  input  logic [Lanes-1:0][31:0]            a_i,
  input  logic [Lanes-1:0][31:0]            b_i,
  input  logic [Lanes-1:0][31:0]            c_i,
  input  logic [31:0]                       pred_i,
  output logic                              resolve_o,
  // fetch and issue
  output wf_core_pkg::fetch_redirect_t      redirect_o,
  output logic [Warps-1:0]                  has_group_o,
  output logic [Warps-1:0][31:0]            group_o,
  output logic [Warps-1:0]                  idle_o,
  output logic [Warps-1:0]                  done_o,
  // scoreboard release and return write-back (not built yet)
  output wf_core_pkg::sb_release_t          release_o,
  input  logic                              ret_grant_i,
  output logic                              ret_valid_o,
  output wf_core_pkg::ret_wb_t              ret_o,
  output logic [Lanes-1:0]                  ret_lanes_o,
  output logic [Lanes-1:0][31:0]            ret_data_o,
  // faults
  output logic                              fault_valid_o,
  output wf_soc_pkg::fault_t                fault_o,
  output logic [15:0]                       fault_detail_o,
  output logic [WarpBits-1:0]               fault_warp_o,
  output logic [4:0]                        fault_lane_o
);
  import wf_isa_pkg::*;

  localparam int unsigned KeyBits  = PcBits + 1;          // {not a candidate, pc}
  localparam int unsigned RowBits  = 3 * NumBars * 32;     // conv, BSYNC waiters, yielded-out
  localparam int unsigned CtaBars  = 16;                   // CTA barrier ids per block

  // ---------------------------------------------------------------------------------------------
  // State
  logic [Warps-1:0][31:0]         group_d, group_q;
  logic [Warps-1:0][PcBits-1:0]   gpc_d, gpc_q;
  logic [Warps-1:0][31:0]         runnable_d, runnable_q;
  logic [Warps-1:0][31:0]         exited_d, exited_q;
  logic [Warps-1:0][31:0]         yielded_d, yielded_q;
  logic [Warps-1:0][BackBits-1:0] back_d, back_q;
  logic [Warps-1:0]               pend_d, pend_q;        // wants a redirect
  logic [Warps-1:0]               picking_d, picking_q;  // a pick in flight
  logic [Warps-1:0]               row_valid_d, row_valid_q;

  // The registered pass (resolves this cycle), and the per-lane targets of an indirect jump
  // (operand a of every pass, lane pass * Lanes + l).
  wf_core_pkg::ctrl_pass_t        res_q;
  logic [31:0][31:0]              tgt_d, tgt_q;
  logic [31:0][31:0]              bop_d, bop_q;          // operand b of every lane (BAR count)

  // CTA barriers: per block slot 16 of {in use, expected count, arrivals}; per warp and barrier
  // the lanes arrived and waiting; each warp's block slot.
  logic [Blocks-1:0][CtaBars-1:0]          cb_use_d, cb_use_q;
  logic [Blocks-1:0][CtaBars-1:0][31:0]    cb_exp_d, cb_exp_q;
  logic [Blocks-1:0][CtaBars-1:0][31:0]    cb_cnt_d, cb_cnt_q;
  logic [Warps-1:0][CtaBars-1:0][31:0]     arr_d, arr_q;
  logic [Warps-1:0][CtaBars-1:0][31:0]     wt_d, wt_q;
  logic [Warps-1:0][BlockBits-1:0]         blk_d, blk_q;
  // BAR.RED: per block slot and barrier the reduction over the RED arrivals' predicate lanes;
  // per warp and barrier the function, rd and scoreboard entry of its last SYNC/RED.
  logic [Blocks-1:0][CtaBars-1:0][31:0]    cb_popc_d, cb_popc_q;
  logic [Blocks-1:0][CtaBars-1:0]          cb_all_d, cb_all_q, cb_any_d, cb_any_q;
  logic [Warps-1:0][CtaBars-1:0][2:0]      rfn_d, rfn_q;
  logic [Warps-1:0][CtaBars-1:0][7:0]      rrd_d, rrd_q;
  logic [Warps-1:0][CtaBars-1:0][wf_core_pkg::SbEntryBits-1:0] rsb_d, rsb_q;
  // Per warp a queued BAR.RED result (set at a release; leaves through the return path).
  logic [Warps-1:0]                        rq_valid_d, rq_valid_q;
  logic [Warps-1:0][7:0]                   rq_rd_d, rq_rd_q;
  logic [Warps-1:0][wf_core_pkg::SbEntryBits-1:0] rq_sb_d, rq_sb_q;
  logic [Warps-1:0][31:0]                  rq_lanes_d, rq_lanes_q;
  logic [Warps-1:0][31:0]                  rq_value_d, rq_value_q;
  logic [31:0]                             pred_d, pred_q;  // the predicate source (BAR.RED)
  logic [Warps-1:0]                        resident_d, resident_q;
  // WARPSYNC: per warp the waiting lanes and each lane's mask (operand a | imm).
  logic [Warps-1:0][31:0]                  wsw_d, wsw_q;
  logic [Warps-1:0][31:0][31:0]            wsm_d, wsm_q;

  // The WARPSYNC release set (emulator.md): the largest subset of `waiters` in which every
  // waiter's non-exited mask lanes all wait; 32 unrolled removal rounds reach the fixed point.
  function automatic logic [31:0] warpsync_go(logic [31:0] waiters, logic [31:0][31:0] masks,
                                              logic [31:0] exited);
    logic [31:0] go, keep;
    go = waiters;
    for (int round = 0; round < 32; round++) begin
      keep = go;
      for (int l = 0; l < 32; l++) begin
        if (go[l] && (masks[l] & ~exited & ~go) != '0) keep[l] = 1'b0;
      end
      go = keep;
    end
    return go;
  endfunction

  // The return path: one register result (CALL/CALLR link, B2R), P passes.
  logic                           ret_valid_d, ret_valid_q;
  logic [WarpBits-1:0]            ret_warp_d, ret_warp_q;
  logic [4:0]                     ret_pass_d, ret_pass_q;
  logic [7:0]                     ret_rd_d, ret_rd_q;
  logic [wf_core_pkg::SbEntryBits-1:0] ret_sb_d, ret_sb_q;
  logic [31:0]                    ret_lanes_d, ret_lanes_q;
  logic [31:0]                    ret_value_d, ret_value_q;

  // The return offered this cycle: the one in progress, else the lowest queued RED result.
  logic                           cur_valid, cur_from_rq;
  logic [WarpBits-1:0]            cur_rq, cur_warp;
  logic [4:0]                     cur_pass;
  logic [7:0]                     cur_rd;
  logic [wf_core_pkg::SbEntryBits-1:0] cur_sb;
  logic [31:0]                    cur_lanes, cur_value;

  always_comb begin
    cur_rq = '0;
    for (int w = Warps - 1; w >= 0; w--) begin
      if (rq_valid_q[w]) cur_rq = WarpBits'(w);
    end
    cur_from_rq = !ret_valid_q && rq_valid_q != '0;
    cur_valid   = ret_valid_q || cur_from_rq;
    cur_warp    = ret_valid_q ? ret_warp_q : cur_rq;
    cur_pass    = ret_valid_q ? ret_pass_q : '0;
    cur_rd      = ret_valid_q ? ret_rd_q : rq_rd_q[cur_rq];
    cur_sb      = ret_valid_q ? ret_sb_q : rq_sb_q[cur_rq];
    cur_lanes   = ret_valid_q ? ret_lanes_q : rq_lanes_q[cur_rq];
    cur_value   = ret_valid_q ? ret_value_q : rq_value_q[cur_rq];
  end

  // Pick pipeline: stage 1 the 32 keys, stages 2..6 the tree levels (16, 8, 4, 2, 1 nodes).
  logic [5:0]                     pk_valid_q;
  logic [5:0][WarpBits-1:0]       pk_warp_q;
  logic [31:0][KeyBits-1:0]       pk_keys_d, pk_keys_q;
  logic [15:0][KeyBits-1:0]       pk_l1_d, pk_l1_q;
  logic [7:0][KeyBits-1:0]        pk_l2_d, pk_l2_q;
  logic [3:0][KeyBits-1:0]        pk_l3_d, pk_l3_q;
  logic [1:0][KeyBits-1:0]        pk_l4_d, pk_l4_q;
  logic [KeyBits-1:0]             pk_l5_d, pk_l5_q;
  // the lanes at each node's minimum (each level holds 32 bits: a node of 2^k lanes has 2^k)
  logic [31:0]                    pk_m1_d, pk_m1_q, pk_m2_d, pk_m2_q;
  logic [31:0]                    pk_m3_d, pk_m3_q, pk_m4_d, pk_m4_q, pk_m5_d, pk_m5_q;

  // RAMs
  logic [31:0][PcBits-1:0]        lpc_mem [Warps];
  logic [RowBits-1:0]             bar_mem [Warps];
  logic                           lpc_we;
  logic [WarpBits-1:0]            lpc_waddr;
  logic [31:0]                    lpc_wlane;
  logic [31:0][PcBits-1:0]        lpc_wdata;
  logic                           bar_we;
  logic [RowBits-1:0]             bar_wdata;

  // ---------------------------------------------------------------------------------------------
  // Resolution of the registered pass (warp r)
  logic                           res_go;
  logic [WarpBits-1:0]            r;
  logic [31:0]                    exec;
  logic [PcBits-1:0]              pc, next_pc, target;
  logic [31:0][PcBits-1:0]        r_lpc;
  logic [RowBits-1:0]             r_row;
  logic [NumBars-1:0][31:0]       conv, bwait, yout;
  logic [31:0]                    grp, run, ext, yld;
  logic [PcBits-1:0]              gpc;
  logic [BackBits-1:0]            back;
  logic                           fault;
  logic [31:0]                    fault_kind;
  logic [15:0]                    fault_detail;
  logic [4:0]                     exec_lane;
  logic                           is_bra, is_ind, is_exit, is_bssy, is_bsync, is_trap, is_bpt;
  logic                           is_b2r, is_r2b, is_link, ret_last;
  logic [4:0]                     fault_lane;
  logic [31:0]                    fault_code;
  logic                           bad_target;
  logic [3:0]                     breg;
  logic                           res_redirect;
  logic [31:0]                    r_wsw;   // warp r's WARPSYNC waiters after the resolution
  logic [31:0][31:0]              r_wsm;   // and its lanes' masks

  assign res_go   = res_q.valid && res_q.last;
  assign r        = WarpBits'(res_q.warp);
  assign exec     = res_q.exec;
  assign pc       = res_q.pc;
  assign next_pc  = res_q.pc + PcBits'(1);
  assign target   = res_q.op.imm[3 +: PcBits];
  assign breg     = res_q.op.breg;
  assign r_lpc    = lpc_mem[r];
  assign r_row    = row_valid_q[r] ? bar_mem[r] : '0;
  assign is_bra   = res_q.op.op == OpBra || res_q.op.op == OpCall;
  assign is_ind   = res_q.op.op == OpBrx || res_q.op.op == OpCallr || res_q.op.op == OpRet;
  assign is_exit  = res_q.op.op == OpExit;
  assign is_b2r   = res_q.op.op == OpB2r;
  assign is_r2b   = res_q.op.op == OpR2b;
  assign is_link  = res_q.op.op == OpCall || res_q.op.op == OpCallr;
  assign is_bssy  = res_q.op.op == OpBssy;
  assign is_bsync = res_q.op.op == OpBsync;
  assign is_trap  = res_q.op.op == OpTrap;
  assign is_bpt   = res_q.op.op == OpBpt;
  assign bad_target = res_q.op.imm[2:0] != 3'd0 || res_q.op.imm >= code_size_i;

  always_comb begin
    tgt_d  = tgt_q;
    bop_d  = bop_q;
    pred_d = pass_i.valid ? pred_i : pred_q;
    if (pass_i.valid) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        tgt_d[5'(32'(pass_i.pass) * Lanes + l)] = a_i[l];
        bop_d[5'(32'(pass_i.pass) * Lanes + l)] = b_i[l];
      end
    end
  end

  always_comb begin
    exec_lane = '0;
    for (int l = 31; l >= 0; l--) begin
      if (exec[l]) exec_lane = 5'(l);
    end
  end

  // ---------------------------------------------------------------------------------------------
  // CTA barriers: BAR's arrival, completion check and release; EXIT's re-check of its block's
  // count-0 barriers; admission clears the block slot's barriers and the started warps' masks.
  logic                    is_bar, is_warpsync, bar_bad, bar_done, bar_wait, bar_red;
  logic [Warps-1:0]        rel_rq;   // warps whose released lanes came by RED: a result queued
  logic [Warps-1:0][31:0]  rel_val;  // and its value
  logic [Warps-1:0][31:0]  rel_lanes; // and the lanes it writes (those released)
  logic [Warps-1:0][7:0]   rel_rd;    // its rd and scoreboard entry
  logic [Warps-1:0][wf_core_pkg::SbEntryBits-1:0] rel_sb;
  logic [31:0]             bar_id_full;
  logic [3:0]              bar_id;
  logic [Warps-1:0][31:0]  rel_run;  // lanes released per warp

  assign is_bar      = res_q.op.op == OpBar;
  assign is_warpsync = res_q.op.op == OpWarpsync;
  assign bar_id_full = tgt_q[exec_lane] + 32'(res_q.op.bar_id);
  assign bar_bad     = bar_id_full >= 32'(CtaBars);
  assign bar_id      = bar_id_full[3:0];
  assign bar_wait    = res_q.op.fn != BarOpArrive;
  assign bar_red     = res_q.op.fn != BarOpArrive && res_q.op.fn != BarOpSync;

  // The result of a RED arrival of function `fn` at a barrier with these accumulators.
  function automatic logic [31:0] red_value(logic [2:0] fn, logic [31:0] popc, logic all_set,
                                            logic any_set);
    return fn == BarOpRedPopc ? popc : fn == BarOpRedAnd ? 32'(all_set) : 32'(any_set);
  endfunction

  always_comb begin
    logic [BlockBits-1:0]   b;
    logic [Warps-1:0][31:0] ext_now;
    logic                   done;
    cb_use_d   = cb_use_q;
    cb_exp_d   = cb_exp_q;
    cb_cnt_d   = cb_cnt_q;
    arr_d      = arr_q;
    wt_d       = wt_q;
    blk_d      = blk_q;
    resident_d = resident_q;
    cb_popc_d  = cb_popc_q;
    cb_all_d   = cb_all_q;
    cb_any_d   = cb_any_q;
    rfn_d      = rfn_q;
    rrd_d      = rrd_q;
    rsb_d      = rsb_q;
    rel_rq     = '0;
    rel_val    = '0;
    rel_lanes  = '0;
    rel_rd     = '0;
    rel_sb     = '0;
    rel_run    = '0;
    bar_done   = 1'b0;
    done       = 1'b0;
    b          = blk_q[r];
    ext_now    = exited_q;
    if (res_go && is_exit) ext_now[r] = exited_q[r] | exec;

    if (res_go && is_bar && exec != '0 && !bar_bad) begin
      if (!cb_use_q[b][bar_id]) begin
        cb_use_d[b][bar_id] = 1'b1;
        cb_exp_d[b][bar_id] = bop_q[exec_lane];
        cb_cnt_d[b][bar_id] = '0;
        cb_popc_d[b][bar_id] = '0;
        cb_all_d[b][bar_id] = 1'b1;
        cb_any_d[b][bar_id] = 1'b0;
      end
      cb_cnt_d[b][bar_id] = cb_cnt_d[b][bar_id] + 32'($countones(exec));
      if (bar_red) begin
        cb_popc_d[b][bar_id] = cb_popc_d[b][bar_id] + 32'($countones(pred_q & exec));
        cb_all_d[b][bar_id]  = cb_all_d[b][bar_id] && (pred_q & exec) == exec;
        cb_any_d[b][bar_id]  = cb_any_d[b][bar_id] || (pred_q & exec) != '0;
      end
      arr_d[r][bar_id] = arr_d[r][bar_id] | exec;
      if (bar_wait) begin
        wt_d[r][bar_id]  = wt_d[r][bar_id] | exec;
        rfn_d[r][bar_id] = res_q.op.fn;
        rrd_d[r][bar_id] = res_q.rd;
        rsb_d[r][bar_id] = res_q.sb_reg;
      end
      if (cb_exp_d[b][bar_id] != '0) begin
        bar_done = cb_cnt_d[b][bar_id] >= cb_exp_d[b][bar_id];
      end else begin
        // count 0: every lane of every warp of the block arrived or exited
        bar_done = 1'b1;
        for (int v = 0; v < Warps; v++) begin
          if (resident_q[v] && blk_q[v] == b && (arr_d[v][bar_id] | ext_now[v]) != '1) begin
            bar_done = 1'b0;
          end
        end
      end
      if (bar_done) begin
        for (int v = 0; v < Warps; v++) begin
          if (resident_q[v] && blk_q[v] == b) begin
            if (wt_d[v][bar_id] != '0 && rfn_d[v][bar_id] != BarOpSync) begin
              rel_rq[v]  = 1'b1;
              rel_val[v] = red_value(rfn_d[v][bar_id], cb_popc_d[b][bar_id],
                                     cb_all_d[b][bar_id], cb_any_d[b][bar_id]);
              rel_lanes[v] = wt_d[v][bar_id];
              rel_rd[v]    = rrd_d[v][bar_id];
              rel_sb[v]    = rsb_d[v][bar_id];
            end
            rel_run[v] = rel_run[v] | wt_d[v][bar_id];
            wt_d[v][bar_id]  = '0;
            arr_d[v][bar_id] = '0;
          end
        end
        cb_use_d[b][bar_id] = 1'b0;
      end
    end

    if (res_go && is_exit && exec != '0) begin
      for (int id = 0; id < CtaBars; id++) begin
        if (cb_use_q[b][id] && cb_exp_q[b][id] == '0) begin
          done = 1'b1;
          for (int v = 0; v < Warps; v++) begin
            if (resident_q[v] && blk_q[v] == b && (arr_q[v][id] | ext_now[v]) != '1) done = 1'b0;
          end
          if (done) begin
            for (int v = 0; v < Warps; v++) begin
              if (resident_q[v] && blk_q[v] == b) begin
                if (wt_d[v][id] != '0 && rfn_q[v][id] != BarOpSync) begin
                  rel_rq[v]  = 1'b1;
                  rel_val[v] = red_value(rfn_q[v][id], cb_popc_q[b][id], cb_all_q[b][id],
                                         cb_any_q[b][id]);
                  rel_lanes[v] = wt_d[v][id];
                  rel_rd[v]    = rrd_q[v][id];
                  rel_sb[v]    = rsb_q[v][id];
                end
                rel_run[v] = rel_run[v] | wt_d[v][id];
                wt_d[v][id]  = '0;
                arr_d[v][id] = '0;
              end
            end
            cb_use_d[b][id] = 1'b0;
          end
        end
      end
    end

    if (start_i != '0) cb_use_d[start_block_i] = '0;
    for (int w = 0; w < Warps; w++) begin
      if (start_i[w]) begin
        blk_d[w]      = start_block_i;
        resident_d[w] = 1'b1;
        arr_d[w]      = '0;
        wt_d[w]       = '0;
      end
    end
    if (launch_start_i) begin
      resident_d = '0;
      cb_use_d   = '0;
    end
  end

  always_comb begin
    logic [31:0]       mask, fall, wait_lanes, earlier, arriving, missing, join_lanes, others;
    logic [PcBits-1:0] to, wait_pc, lowest;
    logic              lower, bad_any;
    logic [31:0][PcBits-1:0] new_pc;
    logic [31:0]       ws_wanted, ws_waiters, ws_go;
    logic [31:0][31:0] ws_masks;
    conv = r_row[0 +: NumBars*32];
    bwait = r_row[NumBars*32 +: NumBars*32];
    yout = r_row[2*NumBars*32 +: NumBars*32];
    grp  = group_q[r];
    run  = runnable_q[r];
    ext  = exited_q[r];
    yld  = yielded_q[r];
    back = back_q[r];
    gpc  = next_pc;
    lpc_wlane = '0;
    lpc_wdata = r_lpc;
    fault = 1'b0;
    fault_kind = 32'(wf_device_pkg::FAULT_NONE);
    fault_detail = 16'(wf_device_pkg::DETAIL_NONE);
    fault_lane = exec_lane;
    fault_code = res_q.op.imm;
    bad_any = 1'b0;
    lowest = '1;
    new_pc = '0;
    mask = '0; fall = '0; wait_lanes = '0; earlier = '0; arriving = '0; missing = '0;
    join_lanes = '0; others = '0; to = next_pc; wait_pc = next_pc; lower = 1'b0;
    r_wsw = wsw_q[r];
    ws_masks = wsm_q[r];
    ws_wanted = '0; ws_waiters = '0; ws_go = '0;

    if (is_bra) begin
      if (exec != '0 && bad_target) begin
        fault = 1'b1;
        fault_kind = 32'(wf_device_pkg::FAULT_ILLEGAL_INSTRUCTION);
        fault_detail = 16'(wf_device_pkg::DETAIL_BAD_JUMP);
      end else if (exec != '0) begin
        mask = grp;
        fall = grp & ~exec;
        lower = target < next_pc;
        if (fall == '0) begin
          to = target;
        end else if (target != next_pc) begin
          wait_lanes = lower ? fall : exec;
          wait_pc = lower ? next_pc : target;
          for (int l = 0; l < 32; l++) begin
            if (wait_lanes[l]) begin
              lpc_wlane[l] = 1'b1;
              lpc_wdata[l] = wait_pc;
            end
          end
          run |= wait_lanes;
          mask &= ~wait_lanes;
          to = lower ? target : next_pc;
        end
        if (to <= pc && mask != '0) begin
          if (back + BackBits'(1) >= BackBits'(YieldBackEdges)) begin
            others = run;
            for (int b = 0; b < NumBars; b++) others |= bwait[b];
            if (others != '0) begin
              // Yield: leave the barriers with waiting lanes, become runnable at `to`.
              for (int b = 0; b < NumBars; b++) begin
                if (bwait[b] != '0) begin
                  yout[b] |= conv[b] & mask;
                  conv[b] &= ~mask;
                end
              end
              for (int l = 0; l < 32; l++) begin
                if (mask[l]) begin
                  lpc_wlane[l] = 1'b1;
                  lpc_wdata[l] = to;
                end
              end
              yld |= mask;
              // the barriers it left may now be complete
              for (int b = 0; b < NumBars; b++) begin
                if (bwait[b] != '0 && (conv[b] & ~ext & ~bwait[b]) == '0) begin
                  run |= bwait[b];
                  bwait[b] = '0;
                end
              end
              run |= mask;
              mask = '0;
            end
            back = '0;
          end else begin
            back = back + BackBits'(1);
          end
        end
        grp = mask;
        gpc = to;
      end
    end else if (is_ind) begin
      if (exec != '0) begin
        // The lowest exec lane whose target is outside the code or misaligned faults.
        for (int l = 31; l >= 0; l--) begin
          if (exec[l] && (tgt_q[l][2:0] != 3'd0 || tgt_q[l] >= code_size_i)) begin
            bad_any = 1'b1;
            fault_lane = 5'(l);
            fault_code = tgt_q[l];
          end
        end
        if (bad_any) begin
          fault = 1'b1;
          fault_kind = 32'(wf_device_pkg::FAULT_ILLEGAL_INSTRUCTION);
          fault_detail = 16'(wf_device_pkg::DETAIL_BAD_JUMP);
        end else begin
          // Every group lane to its target (exec) or next; the lanes at the lowest stay.
          for (int l = 0; l < 32; l++) begin
            new_pc[l] = exec[l] ? tgt_q[l][3 +: PcBits] : next_pc;
            if (grp[l] && new_pc[l] < lowest) lowest = new_pc[l];
          end
          for (int l = 0; l < 32; l++) begin
            join_lanes[l] = grp[l] && new_pc[l] == lowest;
            if (grp[l]) begin
              lpc_wlane[l] = 1'b1;
              lpc_wdata[l] = new_pc[l];
            end
          end
          run |= grp & ~join_lanes;
          grp = join_lanes;
          gpc = lowest;
        end
      end
    end else if (is_exit) begin
      if (exec != '0) begin
        ext |= exec;
        for (int b = 0; b < NumBars; b++) conv[b] &= ~exec;
        // the barriers that waited only for them release
        for (int b = 0; b < NumBars; b++) begin
          if (bwait[b] != '0 && (conv[b] & ~ext & ~bwait[b]) == '0) begin
            run |= bwait[b];
            bwait[b] = '0;
          end
        end
        grp &= ~exec;
        run |= rel_run[r];
        // the WARPSYNC waiters that waited only for them go
        if (wsw_q[r] != '0) begin
          ws_go = warpsync_go(wsw_q[r], wsm_q[r], ext);
          r_wsw = wsw_q[r] & ~ws_go;
          run |= ws_go;
        end
      end
    end else if (is_warpsync) begin
      if (exec != '0) begin
        for (int l = 0; l < 32; l++) begin
          if (exec[l]) begin
            ws_masks[l] = tgt_q[l] | res_q.op.imm;
            ws_wanted |= ws_masks[l];
          end
        end
        if (wsw_q[r] != '0 || (ws_wanted & ~ext & ~exec) != '0) begin
          // the lanes wait; the release set goes: its lanes at next join the group
          for (int l = 0; l < 32; l++) begin
            if (exec[l]) begin
              lpc_wlane[l] = 1'b1;
              lpc_wdata[l] = next_pc;
            end
          end
          ws_waiters = wsw_q[r] | exec;
          ws_go = warpsync_go(ws_waiters, ws_masks, ext);
          r_wsw = ws_waiters & ~ws_go;
          for (int l = 0; l < 32; l++) join_lanes[l] = ws_go[l] && (exec[l] || r_lpc[l] == next_pc);
          run |= ws_go & ~join_lanes & ~exec;
          grp = (grp & ~exec) | join_lanes;
        end
      end
    end else if (is_bar) begin
      if (exec != '0 && bar_bad) begin
        fault = 1'b1;
        fault_kind = 32'(wf_device_pkg::FAULT_ILLEGAL_INSTRUCTION);
        fault_detail = 16'(wf_device_pkg::DETAIL_BARRIER_OUT_OF_RANGE);
        fault_code = bar_id_full;
      end else if (exec != '0) begin
        run |= rel_run[r];
        if (bar_wait) begin
          for (int l = 0; l < 32; l++) begin
            if (exec[l]) begin
              lpc_wlane[l] = 1'b1;
              lpc_wdata[l] = next_pc;
            end
          end
          if (bar_done) begin
            // complete on arrival: this warp's released lanes at next go on with the group
            for (int l = 0; l < 32; l++) join_lanes[l] = run[l] && (exec[l] || r_lpc[l] == next_pc);
            run &= ~join_lanes;
            grp |= join_lanes;
          end else begin
            grp &= ~exec;
          end
        end
      end
    end else if (is_bssy) begin
      if (exec != '0) begin
        conv[breg] = exec;
        yout[breg] &= ~exec;
      end
    end else if (is_bsync) begin
      if (exec != '0) begin
        arriving = exec & ~yout[breg];
        yout[breg] &= ~exec;
        if (arriving != '0) begin
          earlier = bwait[breg];
          missing = conv[breg] & ~ext & ~arriving & ~earlier;
          if (missing == '0) begin
            bwait[breg] = '0;
            for (int l = 0; l < 32; l++) join_lanes[l] = earlier[l] && r_lpc[l] == next_pc;
            run |= earlier & ~join_lanes;
            grp |= join_lanes;
          end else begin
            for (int l = 0; l < 32; l++) begin
              if (arriving[l]) begin
                lpc_wlane[l] = 1'b1;
                lpc_wdata[l] = next_pc;
              end
            end
            bwait[breg] = earlier | arriving;
            grp &= ~arriving;
          end
        end
      end
    end else if (is_r2b) begin
      if (exec != '0) conv[breg] = tgt_q[exec_lane];
    end else if (is_trap) begin
      if (exec != '0) begin
        fault = 1'b1;
        fault_kind = res_q.op.imm == 32'd1 ? 32'(wf_device_pkg::FAULT_ASSERT)
                                           : 32'(wf_device_pkg::FAULT_TRAP);
        fault_detail = res_q.op.imm == 32'd1 ? 16'(wf_device_pkg::DETAIL_ASSERT_RECORD)
                                             : 16'(wf_device_pkg::DETAIL_TRAP_CODE);
      end
    end else if (is_bpt) begin
      if (exec != '0) begin
        fault = 1'b1;
        fault_kind = 32'(wf_device_pkg::FAULT_BREAKPOINT);
        fault_detail = 16'(wf_device_pkg::DETAIL_BREAKPOINT_CODE);
      end
    end
    bar_wdata = {yout, bwait, conv};
    r_wsm = ws_masks;
  end

  assign res_redirect = res_go && !fault && op_fetch_stop(res_q.op.op) && grp != '0;

  // ---------------------------------------------------------------------------------------------
  // The pick: entry (lowest warp needing one), the tree, the group formed from the root.
  logic                    pk_in;
  logic [WarpBits-1:0]     pk_in_warp;
  logic [31:0]             pk_cand;
  logic                    pk_only_yielded;
  logic [31:0][PcBits-1:0] pk_lpc;
  logic                    pk_out;
  logic [WarpBits-1:0]     pk_out_warp;

  always_comb begin
    pk_in = 1'b0;
    pk_in_warp = '0;
    for (int w = Warps - 1; w >= 0; w--) begin
      if (group_q[w] == '0 && !picking_q[w] && runnable_q[w] != '0) begin
        pk_in = 1'b1;
        pk_in_warp = WarpBits'(w);
      end
    end
  end

  assign pk_lpc          = lpc_mem[pk_in_warp];
  assign pk_only_yielded = (runnable_q[pk_in_warp] & ~yielded_q[pk_in_warp]) == '0;
  assign pk_cand         = pk_only_yielded ? runnable_q[pk_in_warp]
                                           : runnable_q[pk_in_warp] & ~yielded_q[pk_in_warp];
  assign pk_out          = pk_valid_q[5];
  assign pk_out_warp     = pk_warp_q[5];

  // One tree level: node i of the next level from nodes 2i and 2i+1, its mask the lanes at the
  // minimum (the lower node's on a tie, both masks on equal keys).
  always_comb begin
    for (int l = 0; l < 32; l++) pk_keys_d[l] = {!pk_cand[l], pk_lpc[l]};
    for (int i = 0; i < 16; i++) begin
      pk_l1_d[i] = pk_keys_q[2*i] <= pk_keys_q[2*i+1] ? pk_keys_q[2*i] : pk_keys_q[2*i+1];
      pk_m1_d[2*i]   = pk_keys_q[2*i] <= pk_keys_q[2*i+1];
      pk_m1_d[2*i+1] = pk_keys_q[2*i+1] <= pk_keys_q[2*i];
    end
    for (int i = 0; i < 8; i++) begin
      pk_l2_d[i] = pk_l1_q[2*i] <= pk_l1_q[2*i+1] ? pk_l1_q[2*i] : pk_l1_q[2*i+1];
      pk_m2_d[4*i +: 2]   = pk_l1_q[2*i] <= pk_l1_q[2*i+1] ? pk_m1_q[4*i +: 2] : 2'b0;
      pk_m2_d[4*i+2 +: 2] = pk_l1_q[2*i+1] <= pk_l1_q[2*i] ? pk_m1_q[4*i+2 +: 2] : 2'b0;
    end
    for (int i = 0; i < 4; i++) begin
      pk_l3_d[i] = pk_l2_q[2*i] <= pk_l2_q[2*i+1] ? pk_l2_q[2*i] : pk_l2_q[2*i+1];
      pk_m3_d[8*i +: 4]   = pk_l2_q[2*i] <= pk_l2_q[2*i+1] ? pk_m2_q[8*i +: 4] : 4'b0;
      pk_m3_d[8*i+4 +: 4] = pk_l2_q[2*i+1] <= pk_l2_q[2*i] ? pk_m2_q[8*i+4 +: 4] : 4'b0;
    end
    for (int i = 0; i < 2; i++) begin
      pk_l4_d[i] = pk_l3_q[2*i] <= pk_l3_q[2*i+1] ? pk_l3_q[2*i] : pk_l3_q[2*i+1];
      pk_m4_d[16*i +: 8]   = pk_l3_q[2*i] <= pk_l3_q[2*i+1] ? pk_m3_q[16*i +: 8] : 8'b0;
      pk_m4_d[16*i+8 +: 8] = pk_l3_q[2*i+1] <= pk_l3_q[2*i] ? pk_m3_q[16*i+8 +: 8] : 8'b0;
    end
    pk_l5_d = pk_l4_q[0] <= pk_l4_q[1] ? pk_l4_q[0] : pk_l4_q[1];
    pk_m5_d[0 +: 16]  = pk_l4_q[0] <= pk_l4_q[1] ? pk_m4_q[0 +: 16] : 16'b0;
    pk_m5_d[16 +: 16] = pk_l4_q[1] <= pk_l4_q[0] ? pk_m4_q[16 +: 16] : 16'b0;
  end

  // ---------------------------------------------------------------------------------------------
  // Next state
  logic                redir;
  logic [WarpBits-1:0] redir_warp;
  logic [PcBits-1:0]   redir_pc;

  always_comb begin
    group_d     = group_q;
    gpc_d       = gpc_q;
    runnable_d  = runnable_q;
    exited_d    = exited_q;
    yielded_d   = yielded_q;
    back_d      = back_q;
    pend_d      = pend_q;
    picking_d   = picking_q;
    row_valid_d = row_valid_q;
    lpc_we      = 1'b0;
    lpc_waddr   = r;
    bar_we      = 1'b0;
    ret_valid_d = ret_valid_q;
    ret_warp_d  = ret_warp_q;
    ret_pass_d  = ret_pass_q;
    ret_rd_d    = ret_rd_q;
    ret_sb_d    = ret_sb_q;
    ret_lanes_d = ret_lanes_q;
    ret_value_d = ret_value_q;

    // Lanes of other warps released by a CTA barrier (the resolving warp's are in `run`).
    for (int w = 0; w < Warps; w++) begin
      if (WarpBits'(w) != r) runnable_d[w] = runnable_d[w] | rel_run[w];
    end

    // The return offered (cur_*): the one in progress, else the lowest warp's queued BAR.RED
    // result, which moves into the return registers. A pass taken; the last one ends it.
    rq_valid_d = rq_valid_q;
    rq_rd_d    = rq_rd_q;
    rq_sb_d    = rq_sb_q;
    rq_lanes_d = rq_lanes_q;
    rq_value_d = rq_value_q;
    if (cur_from_rq) begin
      rq_valid_d[cur_rq] = 1'b0;
      ret_valid_d = 1'b1;
      ret_warp_d  = cur_rq;
      ret_pass_d  = '0;
      ret_rd_d    = rq_rd_q[cur_rq];
      ret_sb_d    = rq_sb_q[cur_rq];
      ret_lanes_d = rq_lanes_q[cur_rq];
      ret_value_d = rq_value_q[cur_rq];
    end
    if (cur_valid && ret_grant_i) begin
      if (ret_last) ret_valid_d = 1'b0;
      else ret_pass_d = cur_pass + 5'd1;
    end
    // Results of the RED lanes released in this cycle.
    for (int w = 0; w < Warps; w++) begin
      if (rel_rq[w]) begin
        rq_valid_d[w] = 1'b1;
        rq_rd_d[w]    = rel_rd[w];
        rq_sb_d[w]    = rel_sb[w];
        rq_lanes_d[w] = rel_lanes[w];
        rq_value_d[w] = rel_val[w];
      end
    end

    wsw_d = wsw_q;
    wsm_d = wsm_q;
    if (res_go && !fault) begin
      wsw_d[r]      = r_wsw;
      wsm_d[r]      = r_wsm;
      group_d[r]    = grp;
      gpc_d[r]      = gpc;
      runnable_d[r] = run;
      exited_d[r]   = ext;
      yielded_d[r]  = yld;
      back_d[r]     = back;
      lpc_we        = lpc_wlane != '0;
      bar_we        = 1'b1;
      row_valid_d[r] = 1'b1;
      if (is_link || is_b2r || (is_bar && bar_red && exec == '0)) begin
        // (a RED with no exec lane arrives nowhere: a return with no lanes releases its entry)
        ret_valid_d = 1'b1;
        ret_warp_d  = r;
        ret_pass_d  = '0;
        ret_rd_d    = res_q.rd;
        ret_sb_d    = res_q.sb_reg;
        ret_lanes_d = exec;
        ret_value_d = is_link ? {next_pc, 3'b000} : is_b2r ? r_row[32 * breg +: 32] : '0;
      end
    end

    if (pk_out) begin
      group_d[pk_out_warp]    = pk_m5_q;
      gpc_d[pk_out_warp]      = pk_l5_q[PcBits-1:0];
      runnable_d[pk_out_warp] = runnable_d[pk_out_warp] & ~pk_m5_q;
      yielded_d[pk_out_warp]  = yielded_d[pk_out_warp] & ~pk_m5_q;
      back_d[pk_out_warp]     = '0;
      picking_d[pk_out_warp]  = 1'b0;
      pend_d[pk_out_warp]     = 1'b1;
    end

    if (pk_in) begin
      picking_d[pk_in_warp] = 1'b1;
      if (pk_only_yielded) yielded_d[pk_in_warp] = '0;
    end

    for (int w = 0; w < Warps; w++) begin
      if (start_i[w]) begin
        group_d[w]     = start_lanes_i[w];
        gpc_d[w]       = start_pc_i;
        runnable_d[w]  = '0;
        exited_d[w]    = ~start_lanes_i[w];
        yielded_d[w]   = '0;
        back_d[w]      = '0;
        row_valid_d[w] = 1'b0;
        wsw_d[w]       = '0;
        pend_d[w]      = 1'b1;
        picking_d[w]   = 1'b0;
      end
    end

    // One redirect a cycle.
    redir      = res_redirect;
    redir_warp = r;
    redir_pc   = gpc;
    if (!res_redirect) begin
      for (int w = Warps - 1; w >= 0; w--) begin
        if (pend_q[w] || (pk_out && pk_out_warp == WarpBits'(w))) begin
          redir      = 1'b1;
          redir_warp = WarpBits'(w);
          redir_pc   = (pk_out && pk_out_warp == WarpBits'(w)) ? pk_l5_q[PcBits-1:0] : gpc_q[w];
        end
      end
      if (redir && !start_i[redir_warp]) pend_d[redir_warp] = 1'b0;
    end

    if (launch_start_i) begin
      group_d     = '0;
      runnable_d  = '0;
      exited_d    = '0;
      yielded_d   = '0;
      back_d      = '0;
      pend_d      = '0;
      picking_d   = '0;
      row_valid_d = '0;
      wsw_d       = '0;
      ret_valid_d = 1'b0;
      rq_valid_d  = '0;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      group_q     <= '0;
      gpc_q       <= '0;
      runnable_q  <= '0;
      exited_q    <= '0;
      yielded_q   <= '0;
      back_q      <= '0;
      pend_q      <= '0;
      picking_q   <= '0;
      row_valid_q <= '0;
      res_q       <= '0;
      tgt_q       <= '0;
      bop_q       <= '0;
      cb_use_q    <= '0;
      blk_q       <= '0;
      resident_q  <= '0;
      wsw_q       <= '0;
      pk_valid_q  <= '0;
      pk_warp_q   <= '0;
      ret_valid_q <= 1'b0;
      rq_valid_q  <= '0;
      ret_warp_q  <= '0;
      ret_pass_q  <= '0;
      ret_rd_q    <= '0;
      ret_sb_q    <= '0;
      ret_lanes_q <= '0;
      ret_value_q <= '0;
    end else begin
      group_q     <= group_d;
      gpc_q       <= gpc_d;
      runnable_q  <= runnable_d;
      exited_q    <= exited_d;
      yielded_q   <= yielded_d;
      back_q      <= back_d;
      pend_q      <= pend_d;
      picking_q   <= picking_d;
      row_valid_q <= row_valid_d;
      res_q       <= launch_start_i ? '0 : pass_i;
      tgt_q       <= tgt_d;
      bop_q       <= bop_d;
      cb_use_q    <= cb_use_d;
      blk_q       <= blk_d;
      resident_q  <= resident_d;
      wsw_q       <= wsw_d;
      pk_valid_q  <= launch_start_i ? '0 : {pk_valid_q[4:0], pk_in};
      pk_warp_q   <= {pk_warp_q[4:0], pk_in_warp};
      ret_valid_q <= ret_valid_d;
      rq_valid_q  <= rq_valid_d;
      ret_warp_q  <= ret_warp_d;
      ret_pass_q  <= ret_pass_d;
      ret_rd_q    <= ret_rd_d;
      ret_sb_q    <= ret_sb_d;
      ret_lanes_q <= ret_lanes_d;
      ret_value_q <= ret_value_d;
    end
  end

  // The tree's data registers (no reset: guarded by pk_valid_q); the CTA barriers' counts (read
  // only while in use, set by the first arrival) and the per-warp arrived/waiting masks (read only
  // for resident warps, cleared at admission).
  always_ff @(posedge clk_i) begin
    cb_exp_q  <= cb_exp_d;
    cb_popc_q <= cb_popc_d;  // the reductions: set by the first arrival, like the count
    cb_all_q  <= cb_all_d;
    cb_any_q  <= cb_any_d;
    rfn_q     <= rfn_d;      // read only for waiting lanes, written by their arrival
    rrd_q     <= rrd_d;
    rsb_q     <= rsb_d;
    rq_rd_q    <= rq_rd_d;   // the queued results: read only while valid
    rq_sb_q    <= rq_sb_d;
    rq_lanes_q <= rq_lanes_d;
    rq_value_q <= rq_value_d;
    pred_q    <= pred_d;
    wsm_q     <= wsm_d;      // read only for waiting lanes
    cb_cnt_q  <= cb_cnt_d;
    arr_q     <= arr_d;
    wt_q      <= wt_d;
    pk_keys_q <= pk_keys_d;
    pk_l1_q   <= pk_l1_d;
    pk_m1_q   <= pk_m1_d;
    pk_l2_q   <= pk_l2_d;
    pk_m2_q   <= pk_m2_d;
    pk_l3_q   <= pk_l3_d;
    pk_m3_q   <= pk_m3_d;
    pk_l4_q   <= pk_l4_d;
    pk_m4_q   <= pk_m4_d;
    pk_l5_q   <= pk_l5_d;
    pk_m5_q   <= pk_m5_d;
  end

  // The RAM templates (write with per-lane enables, asynchronous reads): the one place here where
  // an always_ff holds more than `x_q <= x_d`, because that is the form RAM inference recognises.
  always_ff @(posedge clk_i) begin
    if (lpc_we) begin
      for (int l = 0; l < 32; l++) begin
        if (lpc_wlane[l]) lpc_mem[lpc_waddr][l] <= lpc_wdata[l];
      end
    end
    if (bar_we) bar_mem[r] <= bar_wdata;
  end

  // ---------------------------------------------------------------------------------------------
  // Outputs
  always_comb begin
    for (int w = 0; w < Warps; w++) begin
      has_group_o[w] = group_q[w] != '0 && !pend_q[w];
      idle_o[w]      = group_q[w] == '0 && runnable_q[w] == '0 && !picking_q[w];
      done_o[w]      = exited_q[w] == '1;
    end
  end
  assign group_o   = group_q;
  assign resolve_o = res_go;

  assign redirect_o.valid = redir;
  assign redirect_o.warp  = wf_core_pkg::WarpIdBits'(redir_warp);
  assign redirect_o.pc    = redir_pc;

  // Block deadlock, from the registered state: the lowest block slot whose resident warps are
  // all idle while one has a lane that did not exit; its lowest such warp and lane report.
  logic                    dl;
  logic [WarpBits-1:0]     dl_warp;
  logic [4:0]              dl_lane;
  logic [31:0][PcBits-1:0] dl_lpc;
  logic [RowBits-1:0]      dl_row;
  logic [31:0]             dl_barwait;
  logic [15:0]             dl_detail;
  logic [31:0]             dl_code;

  always_comb begin
    logic                live, all_idle;
    logic [WarpBits-1:0] first;
    dl = 1'b0;
    dl_warp = '0;
    for (int b = Blocks - 1; b >= 0; b--) begin
      live = 1'b0;
      all_idle = 1'b1;
      first = '0;
      for (int v = Warps - 1; v >= 0; v--) begin
        if (resident_q[v] && blk_q[v] == BlockBits'(b)) begin
          if (!idle_o[v]) all_idle = 1'b0;
          if (!done_o[v]) begin
            live = 1'b1;
            first = WarpBits'(v);
          end
        end
      end
      if (live && all_idle) begin
        dl = 1'b1;
        dl_warp = first;
      end
    end
  end

  assign dl_lpc = lpc_mem[dl_warp];
  assign dl_row = row_valid_q[dl_warp] ? bar_mem[dl_warp] : '0;

  always_comb begin
    dl_lane = '0;
    for (int l = 31; l >= 0; l--) begin
      if (!exited_q[dl_warp][l]) dl_lane = 5'(l);
    end
    dl_barwait = '0;
    for (int id = 0; id < CtaBars; id++) dl_barwait |= wt_q[dl_warp][id];
    dl_detail = 16'(wf_device_pkg::DETAIL_DEADLOCK_AT_BARRIER);
    dl_code = '0;
    if (dl_barwait[dl_lane]) begin
      dl_detail = 16'(wf_device_pkg::DETAIL_DEADLOCK_AT_BAR);
    end else if (wsw_q[dl_warp][dl_lane]) begin
      dl_detail = 16'(wf_device_pkg::DETAIL_DEADLOCK_AT_WARPSYNC);
    end else begin
      for (int c = 0; c < NumBars; c++) begin
        if (dl_row[NumBars*32 + 32*c + 32'(dl_lane)]) begin
          dl_detail = 16'(wf_device_pkg::DETAIL_DEADLOCK_AT_BSYNC);
          dl_code = 32'(c);
        end
      end
    end
  end

  // A resolution's fault first; else a block deadlock.
  logic res_fault;
  assign res_fault          = res_go && fault;
  assign fault_valid_o      = res_fault || dl;
  assign fault_o.kind       = res_fault ? fault_kind : 32'(wf_device_pkg::FAULT_BARRIER_DEADLOCK);
  assign fault_o.pc         = res_fault ? {res_q.pc, 3'b000}
                                        : {dl_lpc[dl_lane] - PcBits'(1), 3'b000};
  assign fault_o.code       = res_fault ? fault_code : dl_code;
  assign fault_o.address    = '0;
  assign fault_o.block      = '0;
  assign fault_o.thread     = '0;
  assign fault_detail_o     = res_fault ? fault_detail : dl_detail;
  assign fault_warp_o       = res_fault ? r : dl_warp;
  assign fault_lane_o       = res_fault ? fault_lane : dl_lane;

  assign ret_last           = cur_pass == 5'(Passes - 1);
  assign ret_valid_o        = cur_valid;
  assign ret_o.valid        = cur_valid;
  assign ret_o.warp         = wf_core_pkg::WarpIdBits'(cur_warp);
  assign ret_o.pass         = cur_pass;
  assign ret_o.rd           = cur_rd;
  assign ret_o.release_sb   = ret_last;
  assign ret_o.sb_entry     = cur_sb;
  assign ret_lanes_o        = cur_lanes[32'(cur_pass) * Lanes +: Lanes];
  assign ret_data_o         = {Lanes{cur_value}};
  assign release_o.valid    = cur_valid && ret_grant_i && ret_last;
  assign release_o.warp     = wf_core_pkg::WarpIdBits'(cur_warp);
  assign release_o.entry    = cur_sb;

  logic unused;
  assign unused = ^{c_i, res_q.coll, res_q.pass, res_q.sb_pred,
                    res_q.op.match_b64, res_q.op.scope,
                    pk_l5_q[PcBits]};  // the root is a candidate (its flag is 0)

endmodule
