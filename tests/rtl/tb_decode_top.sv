// Bench wrapper for wf_decode: the record, the rebuilt word and the CTRL and LSU operation structs
// as flat ports, so that the C++ bench reads fields by name instead of by packed-struct offsets.
module tb_decode_top (
  input  logic [63:0] inst_i,
  input  logic        fetch_bad_i,
  output logic [63:0] word_o,
  output logic        legal_o,
  output logic        fetch_bad_o,
  output logic [7:0]  op_o,
  output logic [3:0]  unit_o,
  output logic        format_i_o,
  output logic        b_is_imm_o,
  output logic        fetch_stop_o,
  output logic [7:0]  lat_o,
  output logic [2:0]  share_o,
  output logic [3:0]  pg_o,
  output logic        pgn_o,
  output logic        pg_always_o,
  output logic [12:0] rd_o,       // {num, re, we, cnt}
  output logic [12:0] ra_o,
  output logic [12:0] rb_o,
  output logic [12:0] rc_o,
  output logic        pd_we_o,
  output logic [3:0]  pd_o,
  output logic [5:0]  pu0_o,      // {re, num, neg}
  output logic [5:0]  pu1_o,
  output logic [5:0]  pu2_o,
  output logic [31:0] ctrl_imm_o,
  output logic [3:0]  ctrl_breg_o,
  output logic [2:0]  ctrl_fn_o,
  output logic [3:0]  ctrl_bar_id_o,
  output logic        ctrl_match_b64_o,
  output logic [1:0]  ctrl_scope_o,
  output logic [1:0]  lsu_access_o,
  output logic [2:0]  lsu_space_o,
  output logic        lsu_generic_o,
  output logic        lsu_addr64_o,
  output logic [2:0]  lsu_size_o,
  output logic [3:0]  lsu_atom_fn_o,
  output logic [2:0]  lsu_atom_ty_o,
  output logic [31:0] lsu_offset_o
);
  wf_core_pkg::dec_inst_t dec;
  wf_core_pkg::ctrl_op_t  ctrl;
  wf_core_pkg::lsu_op_t   lsu;

  wf_decode u_decode (.inst_i(inst_i), .fetch_bad_i(fetch_bad_i), .dec_o(dec));

  assign ctrl = wf_core_pkg::ctrl_op(dec);
  assign lsu  = wf_core_pkg::lsu_op(dec);

  assign word_o       = wf_core_pkg::dec_word(dec);
  assign legal_o      = dec.legal;
  assign fetch_bad_o  = dec.fetch_bad;
  assign op_o         = dec.op;
  assign unit_o       = dec.unit;
  assign format_i_o   = dec.format_i;
  assign b_is_imm_o   = dec.b_is_imm;
  assign fetch_stop_o = dec.fetch_stop;
  assign lat_o        = dec.lat;
  assign share_o      = dec.share;
  assign pg_o         = dec.pg;
  assign pgn_o        = dec.pgn;
  assign pg_always_o  = dec.pg_always;
  assign rd_o         = dec.rd;
  assign ra_o         = dec.ra;
  assign rb_o         = dec.rb;
  assign rc_o         = dec.rc;
  assign pd_we_o      = dec.pd_we;
  assign pd_o         = dec.pd;
  assign pu0_o        = dec.pu0;
  assign pu1_o        = dec.pu1;
  assign pu2_o        = dec.pu2;

  assign ctrl_imm_o       = ctrl.imm;
  assign ctrl_breg_o      = ctrl.breg;
  assign ctrl_fn_o        = ctrl.fn;
  assign ctrl_bar_id_o    = ctrl.bar_id;
  assign ctrl_match_b64_o = ctrl.match_b64;
  assign ctrl_scope_o     = ctrl.scope;
  logic [7:0] unused_ctrl_op, unused_lsu_op;
  assign unused_ctrl_op = ctrl.op;
  assign unused_lsu_op  = lsu.op;

  assign lsu_access_o  = lsu.access;
  assign lsu_space_o   = lsu.space;
  assign lsu_generic_o = lsu.generic;
  assign lsu_addr64_o  = lsu.addr64;
  assign lsu_size_o    = lsu.size;
  assign lsu_atom_fn_o = lsu.atom_fn;
  assign lsu_atom_ty_o = lsu.atom_ty;
  assign lsu_offset_o  = lsu.offset;
endmodule
