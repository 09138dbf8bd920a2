// Instruction decoder, driven only by the generated wf_isa_pkg: validity, format, execution unit
// and latency come from the package's op_* functions, field positions from its localparams, and
// operand roles and widths (isa.toml's def/use, widths that follow a modifier or a special
// register, roles that hold only for some modifier values) from its *_regs and pred_* functions.
// Purely combinational (the issue stage registers it).
//
// Register operands: for each of rd/ra/rb/rc, whether the instruction reads or writes it and how
// many consecutive registers (1; 2 for an aligned pair; 4 for a quad). RZ is neither read nor
// written (it reads 0: the operand collector supplies 0 when *_re_o is low), and neither is a
// field whose width modifier has no valid value. Stores read their data through rd. Predicate
// operands: pd is the one written; pu0..pu2 are the ones read, in assembly operand order, with
// their negation bit. PT is never read or written.
module wf_decoder (
  input  logic [wf_isa_pkg::InstBits-1:0] inst_i,

  output logic                            legal_o,      // a defined opcode
  output logic [7:0]                      op_o,         // wf_isa_pkg::opcode_e
  output logic                            format_i_o,   // format I (32-bit immediate)
  output logic [3:0]                      unit_o,       // wf_isa_pkg::unit_e
  output logic [7:0]                      latency_o,

  output logic [3:0]                      pg_o,         // guard predicate
  output logic                            pgn_o,        // guard negated
  output logic                            pg_always_o,  // @PT: no guard to read

  output logic [31:0]                     imm_o,        // format I immediate
  output logic                            b_is_imm_o,   // the immediate is operand b (ALU/MUL/FMA)

  output logic [7:0]                      rd_o,
  output logic [7:0]                      ra_o,
  output logic [7:0]                      rb_o,
  output logic [7:0]                      rc_o,
  output logic                            rd_we_o,      // writes rd (not RZ)
  output logic [2:0]                      rd_cnt_o,     // registers written or read: 1, 2 or 4
  output logic                            rd_re_o,      // reads rd (store data)
  output logic                            ra_re_o,
  output logic [2:0]                      ra_cnt_o,
  output logic                            rb_re_o,
  output logic [2:0]                      rb_cnt_o,
  output logic                            rc_re_o,
  output logic [2:0]                      rc_cnt_o,

  output logic                            pd_we_o,      // writes predicate pd (not PT)
  output logic [3:0]                      pd_o,
  output logic                            pu0_re_o,     // reads predicate pu0 (not PT)
  output logic [3:0]                      pu0_o,
  output logic                            pu0_neg_o,
  output logic                            pu1_re_o,
  output logic [3:0]                      pu1_o,
  output logic                            pu1_neg_o,
  output logic                            pu2_re_o,
  output logic [3:0]                      pu2_o,
  output logic                            pu2_neg_o
);

  localparam logic [3:0] PT = 4'(wf_isa_pkg::TruePred);
  localparam logic [7:0] RZ = 8'(wf_isa_pkg::ZeroReg);

  logic [7:0] op;
  logic [7:0] rd, ra, rb, rc;

  assign op = inst_i[wf_isa_pkg::FmtROpLo +: wf_isa_pkg::FmtROpWidth];
  assign rd = inst_i[wf_isa_pkg::FmtRRdLo +: wf_isa_pkg::FmtRRdWidth];
  assign ra = inst_i[wf_isa_pkg::FmtRRaLo +: wf_isa_pkg::FmtRRaWidth];
  assign rb = inst_i[wf_isa_pkg::FmtRRbLo +: wf_isa_pkg::FmtRRbWidth];
  assign rc = inst_i[wf_isa_pkg::FmtRRcLo +: wf_isa_pkg::FmtRRcWidth];

  wf_isa_pkg::unit_e   unit;
  wf_isa_pkg::format_e format;

  assign unit       = wf_isa_pkg::op_unit(wf_isa_pkg::opcode_e'(op));
  assign format     = wf_isa_pkg::op_format(wf_isa_pkg::opcode_e'(op));
  assign legal_o    = wf_isa_pkg::op_valid(op);
  assign op_o       = op;
  assign format_i_o = format == wf_isa_pkg::FMT_I;
  assign unit_o     = 4'(unit);
  assign latency_o  = 8'(wf_isa_pkg::op_latency(wf_isa_pkg::opcode_e'(op)));

  assign pg_o        = inst_i[wf_isa_pkg::FmtRPgLo +: wf_isa_pkg::FmtRPgWidth];
  assign pgn_o       = inst_i[wf_isa_pkg::FmtRPgnLo];
  assign pg_always_o = (pg_o == PT) && !pgn_o;
  assign imm_o       = inst_i[wf_isa_pkg::FmtIImmLo +: wf_isa_pkg::FmtIImmWidth];

  // The arithmetic units take a format I immediate in place of source b; control and memory
  // instructions use it as a target, mask or address offset.
  assign b_is_imm_o = legal_o && format_i_o &&
                      (unit == wf_isa_pkg::UNIT_ALU || unit == wf_isa_pkg::UNIT_IMUL ||
                       unit == wf_isa_pkg::UNIT_FMA);

  assign rd_o = rd;
  assign ra_o = ra;
  assign rb_o = rb;
  assign rc_o = rc;

  // Registers per field, from the generated role functions (0: not accessed).
  logic [2:0] rd_def, rd_use, ra_use, rb_use, rc_use;

  assign rd_def = wf_isa_pkg::rd_def_regs(inst_i);
  assign rd_use = wf_isa_pkg::rd_use_regs(inst_i);
  assign ra_use = wf_isa_pkg::ra_use_regs(inst_i);
  assign rb_use = wf_isa_pkg::rb_use_regs(inst_i);
  assign rc_use = wf_isa_pkg::rc_use_regs(inst_i);

  // Only legal opcodes read or write anything (the functions give 0 for the others anyway).
  assign rd_we_o  = legal_o && (rd_def != '0) && (rd != RZ);
  assign rd_re_o  = legal_o && (rd_use != '0) && (rd != RZ);
  assign rd_cnt_o = (rd_def != '0) ? rd_def : rd_use;
  assign ra_re_o  = legal_o && (ra_use != '0) && (ra != RZ);
  assign ra_cnt_o = ra_use;
  assign rb_re_o  = legal_o && (rb_use != '0) && (rb != RZ);
  assign rb_cnt_o = rb_use;
  assign rc_re_o  = legal_o && (rc_use != '0) && (rc != RZ);
  assign rc_cnt_o = rc_use;

  // Predicates: {present, negated, number}.
  logic [5:0] pd, pu0, pu1, pu2;

  assign pd  = wf_isa_pkg::pred_def(inst_i);
  assign pu0 = wf_isa_pkg::pred_use0(inst_i);
  assign pu1 = wf_isa_pkg::pred_use1(inst_i);
  assign pu2 = wf_isa_pkg::pred_use2(inst_i);

  assign pd_we_o   = legal_o && pd[5] && (pd[3:0] != PT);
  assign pd_o      = pd[3:0];
  assign pu0_re_o  = legal_o && pu0[5] && (pu0[3:0] != PT);
  assign pu0_o     = pu0[3:0];
  assign pu0_neg_o = pu0[4];
  assign pu1_re_o  = legal_o && pu1[5] && (pu1[3:0] != PT);
  assign pu1_o     = pu1[3:0];
  assign pu1_neg_o = pu1[4];
  assign pu2_re_o  = legal_o && pu2[5] && (pu2[3:0] != PT);
  assign pu2_o     = pu2[3:0];
  assign pu2_neg_o = pu2[4];

  logic unused_pd_neg;
  assign unused_pd_neg = pd[4];   // P operands (written) have no negation bit

endmodule
