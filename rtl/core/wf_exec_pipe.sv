// Execution-unit wrapper of a pipelined integer unit (docs/microarchitecture.md, "Dispatch and
// write-back", "Execution units"): one pass from dispatch enters the unit as Share sub-passes of
// Lanes / Share lanes (cycles t .. t + Share - 1); each sub-pass's result is written into the
// register banks (and the predicate file) in the cycle the unit delivers it, which is the write
// slot dispatch reserved (t + lat + j); the last sub-pass of the last pass releases the
// scoreboard entries (RelPipe). Built for every pipelined unit: ALU, BMU, IMUL, FMA, CVT, FP64
// (wf_dfma's pipelined form; the iterative form `fp64_iterative` needs ready_o and is not wired)
// and SFU. A 64-bit result (the record's rd.cnt = 2: IMULWIDE, IMADWIDE, CVT to a 64-bit type,
// DADD/DMUL/DFMA/DMNMX) is written in one cycle into two banks: the low word into the bank of
// register p = rf_base + rd, the high word into the bank of p + 1 (consecutive registers are in
// consecutive banks, each at its own row).
//
// Operands come as wf_opcoll delivers them: six slots (ra's, rb's, rc's in that order, as many as
// each count), the 32-lane exec mask and the three predicate sources (raw; PT and absent: ones).
// The unit reads a = ra, b = rb or the immediate, c = rc, a_hi / b_hi / c_hi the pairs' high words
// (the slot after each: DFMA's 0-1 / 2-3 / 4-5, IMADWIDE's c in slots 2-3), and
// the predicate sources pa = pu0, pb = pu1, pc = pu2 for PLOP3 and pu0 otherwise (the one
// predicate source of SEL, IADD, ISETP, FSETP). S2R and LEAPC values (the core supplies them in a / b)
// are not wired here yet.
//
// Write ports have wf_opcoll's shape (one row a bank, per-lane enables): the core ORs the
// wrappers' ports, which the write-back reservation keeps apart. Two release outputs (register
// and predicate entry) because an instruction may write both (IADD carry, ISETP with rd).
module wf_exec_pipe #(
  parameter int unsigned Unit      = 32'(wf_isa_pkg::UNIT_ALU),
  parameter int unsigned Share     = 1,   // wf_isa_pkg::unit_lane_share(Unit); the record's share must match
  parameter int unsigned Lanes     = wf_config_pkg::ConfigDefaultLanes,
  parameter int unsigned Banks     = wf_config_pkg::ConfigDefaultRfBanks,
  parameter int unsigned Warps     = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned WarpRegs  = wf_config_pkg::ConfigDefaultRegsPerCore / 32,
  parameter int unsigned Depth     = 32,  // sub-passes in flight (at least the unit's latency + Share)
  localparam int unsigned Slots    = 6,
  localparam int unsigned UnitLanes = Lanes / Share,
  localparam int unsigned Passes   = 32 / Lanes,
  localparam int unsigned PassLog  = $clog2(Passes),
  localparam int unsigned PassBits = Passes > 1 ? PassLog : 1,
  localparam int unsigned BankLog  = $clog2(Banks),
  localparam int unsigned Rows     = WarpRegs / Banks * Passes,
  localparam int unsigned RowBits  = $clog2(Rows),
  localparam int unsigned PhysBits = $clog2(WarpRegs),
  localparam int unsigned WarpBits = Warps > 1 ? $clog2(Warps) : 1,
  localparam int unsigned SubBits  = Share > 1 ? $clog2(Share) : 1,
  localparam int unsigned PtrBits  = $clog2(Depth)
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,

  // A pass from dispatch (wf_opcoll's coll_* outputs of the dispatched collector).
  input  logic                                      valid_i,
  input  wf_core_pkg::issue_t                       issue_i,
  input  logic [PhysBits-1:0]                       rf_base_i,   // the warp's first warp register
  input  logic [PassBits-1:0]                       pass_i,
  input  logic                                      last_i,
  input  logic [31:0]                               exec_i,
  input  logic [2:0][31:0]                          pred_i,
  input  logic [Slots-1:0][Lanes-1:0][31:0]         opnd_i,
  output logic                                      busy_o,      // sub-passes 1 .. Share - 1 going in

  // Write-back: register banks and predicate file.
  output logic [Banks-1:0]                          rf_we_o,
  output logic [Banks-1:0][RowBits-1:0]             rf_wrow_o,
  output logic [Banks-1:0][Lanes-1:0]               rf_wlane_o,
  output logic [Banks-1:0][Lanes-1:0][31:0]         rf_wdata_o,
  output logic                                      pf_we_o,
  output logic [WarpBits-1:0]                       pf_warp_o,
  output logic [3:0]                                pf_pred_o,
  output logic [31:0]                               pf_mask_o,
  output logic [31:0]                               pf_data_o,

  // Scoreboard releases (RelPipe) of the register and the predicate destination.
  output wf_core_pkg::sb_release_t                  rel_reg_o,
  output wf_core_pkg::sb_release_t                  rel_pred_o
);

  if (Unit != 32'(wf_isa_pkg::UNIT_ALU) && Unit != 32'(wf_isa_pkg::UNIT_BMU) &&
      Unit != 32'(wf_isa_pkg::UNIT_IMUL) && Unit != 32'(wf_isa_pkg::UNIT_FMA) &&
      Unit != 32'(wf_isa_pkg::UNIT_CVT) && Unit != 32'(wf_isa_pkg::UNIT_FP64) &&
      Unit != 32'(wf_isa_pkg::UNIT_SFU)) begin : gen_bad_unit
    $error("wf_exec_pipe: a pipelined unit only (ALU, BMU, IMUL, FMA, CVT, FP64, SFU)");
  end
  if (Share * UnitLanes != Lanes || (1 << PassLog) != Passes || (1 << BankLog) != Banks ||
      Banks < 2 || (1 << PtrBits) != Depth) begin : gen_bad_params
    $error("wf_exec_pipe: Share must divide Lanes; Banks (at least 2), 32 / Lanes and Depth powers of two");
  end

  // ---------------------------------------------------------------------------------------------
  // Sub-passes: sub-pass 0 goes in with the dispatch, the others from the held pass.
  logic [SubBits-1:0]                      sub_d, sub_q;       // next sub-pass to feed (0: none)
  wf_core_pkg::issue_t                     hold_issue_d, hold_issue_q;
  logic [PhysBits-1:0]                     hold_base_d, hold_base_q;
  logic [PassBits-1:0]                     hold_pass_d, hold_pass_q;
  logic                                    hold_last_d, hold_last_q;
  logic [31:0]                             hold_exec_d, hold_exec_q;
  logic [2:0][31:0]                        hold_pred_d, hold_pred_q;
  logic [Slots-1:0][Lanes-1:0][31:0]       hold_opnd_d, hold_opnd_q;

  logic                                    in_valid;
  logic [SubBits-1:0]                      in_sub;
  wf_core_pkg::issue_t                     in_issue;
  logic [PhysBits-1:0]                     in_base;
  logic [PassBits-1:0]                     in_pass;
  logic                                    in_last;
  logic [31:0]                             in_exec;
  logic [2:0][31:0]                        in_pred;
  logic [Slots-1:0][Lanes-1:0][31:0]       in_opnd;

  always_comb begin
    hold_issue_d = hold_issue_q;
    hold_base_d  = hold_base_q;
    hold_pass_d  = hold_pass_q;
    hold_last_d  = hold_last_q;
    hold_exec_d  = hold_exec_q;
    hold_pred_d  = hold_pred_q;
    hold_opnd_d  = hold_opnd_q;
    sub_d        = sub_q;
    if (sub_q != '0) begin
      in_valid = 1'b1;
      in_sub   = sub_q;
      in_issue = hold_issue_q;
      in_base  = hold_base_q;
      in_pass  = hold_pass_q;
      in_last  = hold_last_q;
      in_exec  = hold_exec_q;
      in_pred  = hold_pred_q;
      in_opnd  = hold_opnd_q;
      sub_d    = sub_q == SubBits'(Share - 1) ? '0 : sub_q + SubBits'(1);
    end else begin
      in_valid = valid_i;
      in_sub   = '0;
      in_issue = issue_i;
      in_base  = rf_base_i;
      in_pass  = pass_i;
      in_last  = last_i;
      in_exec  = exec_i;
      in_pred  = pred_i;
      in_opnd  = opnd_i;
      if (valid_i && Share > 1) begin
        sub_d        = SubBits'(1);
        hold_issue_d = issue_i;
        hold_base_d  = rf_base_i;
        hold_pass_d  = pass_i;
        hold_last_d  = last_i;
        hold_exec_d  = exec_i;
        hold_pred_d  = pred_i;
        hold_opnd_d  = opnd_i;
      end
    end
  end
  assign busy_o = sub_q != '0;

  // The unit's operands: this sub-pass's lanes of the role slots.
  wf_core_pkg::dec_inst_t dec;
  assign dec = in_issue.inst;
  logic [2:0] slot_b, slot_bh, slot_c, slot_ch;
  assign slot_b  = dec.ra.cnt;
  assign slot_bh = dec.ra.cnt + 3'd1;
  assign slot_c  = dec.ra.cnt + dec.rb.cnt;
  assign slot_ch = dec.ra.cnt + dec.rb.cnt + 3'd1;
  // A slot past the last one (a high word the opcode does not have) reads as 0.
  function automatic logic [31:0] slot_word(logic [Slots-1:0][Lanes-1:0][31:0] opnd,
                                            logic [2:0] slot, int unsigned lane);
    return slot < 3'(Slots) ? opnd[slot][lane] : 32'd0;
  endfunction
  logic unused_issue;   // the pass's own fields (exec, pc) come beside the issue record
  assign unused_issue = ^{in_issue.valid, in_issue.coll, in_issue.pc, in_issue.active};

  logic [UnitLanes-1:0][31:0] u_a, u_b, u_c, u_a_hi, u_b_hi, u_c_hi;
  logic [UnitLanes-1:0]       u_pa, u_pb, u_pc;
  logic [4:0]                 lane_base;   // the sub-pass's first lane in the warp
  logic                       is_plop3;
  always_comb begin
    lane_base = 5'(in_pass) * 5'(Lanes) + 5'(in_sub) * 5'(UnitLanes);
    is_plop3  = dec.op == wf_isa_pkg::OpPlop3;
    for (int unsigned l = 0; l < UnitLanes; l++) begin
      u_a[l]    = in_opnd[0][in_sub * UnitLanes + l];
      u_a_hi[l] = in_opnd[1][in_sub * UnitLanes + l];
      u_b[l]    = dec.b_is_imm ? dec.hi : slot_word(in_opnd, slot_b, in_sub * UnitLanes + l);
      u_b_hi[l] = slot_word(in_opnd, slot_bh, in_sub * UnitLanes + l);
      u_c[l]    = slot_word(in_opnd, slot_c, in_sub * UnitLanes + l);
      u_c_hi[l] = slot_word(in_opnd, slot_ch, in_sub * UnitLanes + l);
      u_pa[l]   = in_pred[0][lane_base + 5'(l)];
      u_pb[l]   = in_pred[1][lane_base + 5'(l)];
      u_pc[l]   = is_plop3 ? in_pred[2][lane_base + 5'(l)] : in_pred[0][lane_base + 5'(l)];
    end
  end

  logic                       out_valid;
  logic [UnitLanes-1:0][31:0] out_res, out_res_hi;
  logic [UnitLanes-1:0]       out_pred;
  if (Unit == 32'(wf_isa_pkg::UNIT_ALU)) begin : gen_alu
    wf_alu #(.Lanes(UnitLanes)) u_unit (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .valid_i (in_valid),
      .inst_i  (wf_core_pkg::dec_word(dec)),
      .a_i     (u_a),
      .b_i     (u_b),
      .c_i     (u_c),
      .a_hi_i  (u_a_hi),
      .b_hi_i  (u_b_hi),
      .pa_i    (u_pa),
      .pb_i    (u_pb),
      .pc_i    (u_pc),
      .valid_o (out_valid),
      .res_o   (out_res),
      .pred_o  (out_pred)
    );
    assign out_res_hi = '0;
    logic unused_alu;
    assign unused_alu = ^u_c_hi;
  end else if (Unit == 32'(wf_isa_pkg::UNIT_FMA)) begin : gen_fma
    wf_fma #(.Lanes(UnitLanes)) u_unit (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .valid_i (in_valid),
      .inst_i  (wf_core_pkg::dec_word(dec)),
      .a_i     (u_a),
      .b_i     (u_b),
      .c_i     (u_c),
      .pc_i    (u_pc),
      .valid_o (out_valid),
      .res_o   (out_res),
      .pred_o  (out_pred)
    );
    assign out_res_hi = '0;
    logic unused_fma;
    assign unused_fma = ^{u_a_hi, u_b_hi, u_c_hi, u_pa, u_pb};
  end else if (Unit == 32'(wf_isa_pkg::UNIT_IMUL)) begin : gen_imul
    wf_imul #(.Lanes(UnitLanes)) u_unit (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .valid_i  (in_valid),
      .inst_i   (wf_core_pkg::dec_word(dec)),
      .a_i      (u_a),
      .b_i      (u_b),
      .c_i      (u_c),
      .c_hi_i   (u_c_hi),
      .valid_o  (out_valid),
      .res_o    (out_res),
      .res_hi_o (out_res_hi)
    );
    assign out_pred = '0;
    logic unused_imul;
    assign unused_imul = ^{u_a_hi, u_b_hi, u_pa, u_pb, u_pc};
  end else if (Unit == 32'(wf_isa_pkg::UNIT_CVT)) begin : gen_cvt
    wf_cvt #(.Lanes(UnitLanes)) u_unit (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .valid_i  (in_valid),
      .inst_i   (wf_core_pkg::dec_word(dec)),
      .a_i      (u_a),
      .a_hi_i   (u_a_hi),
      .valid_o  (out_valid),
      .res_o    (out_res),
      .res_hi_o (out_res_hi)
    );
    assign out_pred = '0;
    logic unused_cvt;
    assign unused_cvt = ^{u_b, u_c, u_b_hi, u_c_hi, u_pa, u_pb, u_pc};
  end else if (Unit == 32'(wf_isa_pkg::UNIT_FP64)) begin : gen_fp64
    logic unit_ready;   // always 1 in the pipelined form
    wf_dfma #(.Lanes(UnitLanes), .Iterative(1'b0)) u_unit (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .valid_i  (in_valid),
      .ready_o  (unit_ready),
      .inst_i   (wf_core_pkg::dec_word(dec)),
      .a_i      (u_a),
      .a_hi_i   (u_a_hi),
      .b_i      (u_b),
      .b_hi_i   (u_b_hi),
      .c_i      (u_c),
      .c_hi_i   (u_c_hi),
      .pc_i     (u_pc),
      .valid_o  (out_valid),
      .res_o    (out_res),
      .res_hi_o (out_res_hi),
      .pred_o   (out_pred)
    );
    logic unused_fp64;
    assign unused_fp64 = ^{unit_ready, u_pa, u_pb};
  end else if (Unit == 32'(wf_isa_pkg::UNIT_SFU)) begin : gen_sfu
    wf_sfu #(.Lanes(UnitLanes)) u_unit (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .valid_i (in_valid),
      .inst_i  (wf_core_pkg::dec_word(dec)),
      .a_i     (u_a),
      .valid_o (out_valid),
      .res_o   (out_res)
    );
    assign out_res_hi = '0;
    assign out_pred   = '0;
    logic unused_sfu;
    assign unused_sfu = ^{u_b, u_c, u_a_hi, u_b_hi, u_c_hi, u_pa, u_pb, u_pc};
  end else begin : gen_bmu
    wf_bmu #(.Lanes(UnitLanes)) u_unit (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .valid_i (in_valid),
      .inst_i  (wf_core_pkg::dec_word(dec)),
      .a_i     (u_a),
      .b_i     (u_b),
      .c_i     (u_c),
      .valid_o (out_valid),
      .res_o   (out_res)
    );
    assign out_res_hi = '0;
    assign out_pred   = '0;
    logic unused_bmu;
    assign unused_bmu = ^{u_a_hi, u_b_hi, u_c_hi, u_pa, u_pb, u_pc};
  end

  // ---------------------------------------------------------------------------------------------
  // What each sub-pass in the unit writes, in order (the unit keeps order; popped at valid_o).
  // Flat fields (Yosys keeps no packed arrays of structs).
  localparam int unsigned MetaBits = WarpBits + 2 * (BankLog + RowBits) + 5 + UnitLanes + 1 + 1 +
                                     1 + 4 + 1 + 1 + 1 + 2 * wf_core_pkg::SbEntryBits;
  logic [Depth-1:0][MetaBits-1:0] meta_d, meta_q;
  logic [PtrBits-1:0]             wr_q, rd_q;

  logic [PhysBits-1:0] in_phys, in_phys_hi;
  logic [RowBits-1:0]  in_row, in_row_hi;
  logic                in_wide;
  logic [UnitLanes-1:0] in_lanes;
  logic                in_release;
  logic [MetaBits-1:0] in_meta;
  always_comb begin
    in_phys = in_base + PhysBits'(dec.rd.num);
    in_row  = Passes > 1 ? RowBits'({in_phys[PhysBits-1:BankLog], in_pass})
                         : RowBits'(in_phys[PhysBits-1:BankLog]);
    in_phys_hi = in_phys + PhysBits'(1);
    in_row_hi  = Passes > 1 ? RowBits'({in_phys_hi[PhysBits-1:BankLog], in_pass})
                            : RowBits'(in_phys_hi[PhysBits-1:BankLog]);
    in_wide    = dec.rd.cnt == 3'd2;
    for (int unsigned l = 0; l < UnitLanes; l++) in_lanes[l] = in_exec[lane_base + 5'(l)];
    in_release = in_last && in_sub == SubBits'(Share - 1);
    in_meta = {WarpBits'(in_issue.warp), in_phys[BankLog-1:0], in_row, in_phys_hi[BankLog-1:0],
               in_row_hi, lane_base, in_lanes, dec.rd.we, in_wide, dec.pd_we, dec.pd, in_release, in_release && dec.rd.we,
               in_release && dec.pd_we, in_issue.sb_reg, in_issue.sb_pred};
  end

  logic [WarpBits-1:0]              o_warp;
  logic [BankLog-1:0]               o_bank, o_bank_hi;
  logic [RowBits-1:0]               o_row, o_row_hi;
  logic [4:0]                       o_lane_base;
  logic [UnitLanes-1:0]             o_lanes;
  logic                             o_rd_we, o_wide, o_pd_we, o_release, o_rel_reg, o_rel_pred;
  logic [3:0]                       o_pd;
  logic [wf_core_pkg::SbEntryBits-1:0] o_sb_reg, o_sb_pred;
  assign {o_warp, o_bank, o_row, o_bank_hi, o_row_hi, o_lane_base, o_lanes, o_rd_we, o_wide,
          o_pd_we, o_pd, o_release,
          o_rel_reg, o_rel_pred, o_sb_reg, o_sb_pred} = meta_q[rd_q];
  logic unused_release;
  assign unused_release = o_release;

  // Write-back of the delivered sub-pass.
  always_comb begin
    meta_d = meta_q;
    if (in_valid) meta_d[wr_q] = in_meta;
  end

  logic [SubBits-1:0] o_sub;
  assign o_sub = SubBits'((o_lane_base % 5'(Lanes)) / 5'(UnitLanes));
  always_comb begin
    rf_we_o    = '0;
    rf_wrow_o  = '0;
    rf_wlane_o = '0;
    rf_wdata_o = '0;
    for (int unsigned b = 0; b < Banks; b++) begin
      // Banks >= 2, so the two words of a pair never share a bank.
      if (out_valid && o_rd_we && o_bank == BankLog'(b)) begin
        rf_we_o[b]   = 1'b1;
        rf_wrow_o[b] = o_row;
        for (int unsigned l = 0; l < UnitLanes; l++) begin
          rf_wlane_o[b][o_sub * UnitLanes + l] = o_lanes[l];
          rf_wdata_o[b][o_sub * UnitLanes + l] = out_res[l];
        end
      end else if (out_valid && o_rd_we && o_wide && o_bank_hi == BankLog'(b)) begin
        rf_we_o[b]   = 1'b1;
        rf_wrow_o[b] = o_row_hi;
        for (int unsigned l = 0; l < UnitLanes; l++) begin
          rf_wlane_o[b][o_sub * UnitLanes + l] = o_lanes[l];
          rf_wdata_o[b][o_sub * UnitLanes + l] = out_res_hi[l];
        end
      end
    end
    pf_we_o   = out_valid && o_pd_we;
    pf_warp_o = o_warp;
    pf_pred_o = o_pd;
    pf_mask_o = '0;
    pf_data_o = '0;
    for (int unsigned l = 0; l < UnitLanes; l++) begin
      pf_mask_o[o_lane_base + 5'(l)] = o_lanes[l];
      pf_data_o[o_lane_base + 5'(l)] = out_pred[l];
    end
    rel_reg_o        = '0;
    rel_reg_o.valid  = out_valid && o_rel_reg;
    rel_reg_o.warp   = wf_core_pkg::WarpIdBits'(o_warp);
    rel_reg_o.entry  = o_sb_reg;
    rel_pred_o       = '0;
    rel_pred_o.valid = out_valid && o_rel_pred;
    rel_pred_o.warp  = wf_core_pkg::WarpIdBits'(o_warp);
    rel_pred_o.entry = o_sb_pred;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sub_q <= '0;
      wr_q  <= '0;
      rd_q  <= '0;
    end else begin
      sub_q <= sub_d;
      wr_q  <= in_valid ? wr_q + PtrBits'(1) : wr_q;
      rd_q  <= out_valid ? rd_q + PtrBits'(1) : rd_q;
    end
  end

  always_ff @(posedge clk_i) begin
    hold_issue_q <= hold_issue_d;
    hold_base_q  <= hold_base_d;
    hold_pass_q  <= hold_pass_d;
    hold_last_q  <= hold_last_d;
    hold_exec_q  <= hold_exec_d;
    hold_pred_q  <= hold_pred_d;
    hold_opnd_q  <= hold_opnd_d;
    meta_q       <= meta_d;
  end

endmodule
