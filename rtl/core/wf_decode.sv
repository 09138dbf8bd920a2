// The decode stage (DE, docs/microarchitecture.md "Decode into operation structs"): wf_decoder
// reads the raw word once and this block packs its outputs into the decoded record
// (wf_core_pkg::dec_inst_t) that the instruction buffer holds. Combinational; the instruction
// buffer's write at the end of DE is the stage register.
//
// fetch_bad_i is F2's marker of a fetch outside the code segment or of a misaligned pc: the word
// is not an instruction, so the record reads and writes nothing and faults when it issues
// (ILLEGAL_INSTRUCTION, regardless of the guard).
module wf_decode (
  input  logic [wf_isa_pkg::InstBits-1:0] inst_i,
  input  logic                            fetch_bad_i,
  output wf_core_pkg::dec_inst_t          dec_o
);

  logic       legal, format_i, b_is_imm, pg_always;
  logic [7:0] op, latency, rd, ra, rb, rc;
  logic [3:0] unit, pg, pd, pu0, pu1, pu2;
  logic       pgn, rd_we, rd_re, ra_re, rb_re, rc_re, pd_we;
  logic       pu0_re, pu1_re, pu2_re, pu0_neg, pu1_neg, pu2_neg;
  logic [2:0] rd_cnt, ra_cnt, rb_cnt, rc_cnt;
  logic [31:0] imm;

  wf_decoder u_decoder (
    .inst_i      (inst_i),
    .legal_o     (legal),
    .op_o        (op),
    .format_i_o  (format_i),
    .unit_o      (unit),
    .latency_o   (latency),
    .pg_o        (pg),
    .pgn_o       (pgn),
    .pg_always_o (pg_always),
    .imm_o       (imm),
    .b_is_imm_o  (b_is_imm),
    .rd_o        (rd),
    .ra_o        (ra),
    .rb_o        (rb),
    .rc_o        (rc),
    .rd_we_o     (rd_we),
    .rd_cnt_o    (rd_cnt),
    .rd_re_o     (rd_re),
    .ra_re_o     (ra_re),
    .ra_cnt_o    (ra_cnt),
    .rb_re_o     (rb_re),
    .rb_cnt_o    (rb_cnt),
    .rc_re_o     (rc_re),
    .rc_cnt_o    (rc_cnt),
    .pd_we_o     (pd_we),
    .pd_o        (pd),
    .pu0_re_o    (pu0_re),
    .pu0_o       (pu0),
    .pu0_neg_o   (pu0_neg),
    .pu1_re_o    (pu1_re),
    .pu1_o       (pu1),
    .pu1_neg_o   (pu1_neg),
    .pu2_re_o    (pu2_re),
    .pu2_o       (pu2),
    .pu2_neg_o   (pu2_neg)
  );

  logic ok;
  assign ok = !fetch_bad_i;

  always_comb begin
    dec_o            = '0;
    dec_o.legal      = legal && ok;
    dec_o.fetch_bad  = fetch_bad_i;
    dec_o.op         = op;
    dec_o.unit       = unit;
    dec_o.format_i   = format_i;
    dec_o.b_is_imm   = b_is_imm && ok;
    dec_o.fetch_stop = wf_isa_pkg::op_fetch_stop(op) && legal && ok;
    dec_o.lat        = latency;
    dec_o.share      = 3'(wf_isa_pkg::unit_lane_share(wf_isa_pkg::unit_e'(unit)));
    dec_o.pg         = pg;
    dec_o.pgn        = pgn;
    dec_o.pg_always  = pg_always;
    dec_o.rd.num     = rd;
    dec_o.rd.re      = rd_re && ok;
    dec_o.rd.we      = rd_we && ok;
    dec_o.rd.cnt     = rd_cnt;
    dec_o.ra.num     = ra;
    dec_o.ra.re      = ra_re && ok;
    dec_o.ra.cnt     = ra_cnt;
    dec_o.rb.num     = rb;
    dec_o.rb.re      = rb_re && ok;
    dec_o.rb.cnt     = rb_cnt;
    dec_o.rc.num     = rc;
    dec_o.rc.re      = rc_re && ok;
    dec_o.rc.cnt     = rc_cnt;
    dec_o.pd_we      = pd_we && ok;
    dec_o.pd         = pd;
    dec_o.pu0.re     = pu0_re && ok;
    dec_o.pu0.num    = pu0;
    dec_o.pu0.neg    = pu0_neg;
    dec_o.pu1.re     = pu1_re && ok;
    dec_o.pu1.num    = pu1;
    dec_o.pu1.neg    = pu1_neg;
    dec_o.pu2.re     = pu2_re && ok;
    dec_o.pu2.num    = pu2;
    dec_o.pu2.neg    = pu2_neg;
    dec_o.m0         = inst_i[wf_isa_pkg::FmtRM0Lo +: wf_isa_pkg::FmtRM0Width];
    dec_o.hi         = imm;   // word bits 63:32 in both formats
  end

endmodule
