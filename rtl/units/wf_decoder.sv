// Instruction decoder, driven by the generated wf_isa_pkg: validity, format, execution unit and
// latency come from the package's functions; field positions from its localparams. Purely
// combinational (the issue stage registers it).
//
// Register operands: for each of rd/ra/rb/rc, whether the instruction reads or writes it and how
// many consecutive registers (1; 2 for an aligned pair; 4 for a quad). RZ is neither read nor
// written (it reads 0: the operand collector supplies 0 when *_re_o is low). Predicate operands:
// pd (write), pa/pb/pc (read, with their negation bit). Stores read their data from the rd field.
//
// The per-opcode operand table (which fields are registers, pairs or predicates, depending on
// modifiers for some opcodes) is below in op_operands(). wf_isa_pkg does not generate it yet;
// it is written with the package's enum names only, and is the one table in rtl/ that should move
// to the generator (see the report of the RTL flow).
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
  output logic [2:0]                      rd_cnt_o,     // registers written: 1, 2 or 4
  output logic                            rd_re_o,      // reads rd (store data)
  output logic                            ra_re_o,
  output logic [2:0]                      ra_cnt_o,
  output logic                            rb_re_o,
  output logic [2:0]                      rb_cnt_o,
  output logic                            rc_re_o,
  output logic [2:0]                      rc_cnt_o,

  output logic                            pd_we_o,      // writes predicate pd (not PT)
  output logic [3:0]                      pd_o,
  output logic                            pa_re_o,
  output logic [3:0]                      pa_o,
  output logic                            pb_re_o,
  output logic [3:0]                      pb_o,
  output logic                            pc_re_o,
  output logic [3:0]                      pc_o
);

  // Register counts.
  localparam logic [2:0] N0 = 3'd0;
  localparam logic [2:0] N1 = 3'd1;
  localparam logic [2:0] N2 = 3'd2;
  localparam logic [2:0] N4 = 3'd4;

  logic [7:0] op;
  logic [7:0] rd, ra, rb, rc;

  assign op  = inst_i[wf_isa_pkg::FmtROpLo +: wf_isa_pkg::FmtROpWidth];
  assign rd  = inst_i[wf_isa_pkg::FmtRRdLo +: wf_isa_pkg::FmtRRdWidth];
  assign ra  = inst_i[wf_isa_pkg::FmtRRaLo +: wf_isa_pkg::FmtRRaWidth];
  assign rb  = inst_i[wf_isa_pkg::FmtRRbLo +: wf_isa_pkg::FmtRRbWidth];
  assign rc  = inst_i[wf_isa_pkg::FmtRRcLo +: wf_isa_pkg::FmtRRcWidth];

  assign legal_o    = wf_isa_pkg::op_valid(op);
  assign op_o       = op;
  assign format_i_o = wf_isa_pkg::op_format(wf_isa_pkg::opcode_e'(op)) == wf_isa_pkg::FMT_I;
  assign unit_o     = wf_isa_pkg::op_unit(wf_isa_pkg::opcode_e'(op));
  assign latency_o  = 8'(wf_isa_pkg::op_latency(wf_isa_pkg::opcode_e'(op)));

  assign pg_o        = inst_i[wf_isa_pkg::FmtRPgLo +: wf_isa_pkg::FmtRPgWidth];
  assign pgn_o       = inst_i[wf_isa_pkg::FmtRPgnLo];
  assign pg_always_o = (pg_o == 4'(wf_isa_pkg::TruePred)) && !pgn_o;
  assign imm_o       = inst_i[wf_isa_pkg::FmtIImmLo +: wf_isa_pkg::FmtIImmWidth];

  assign rd_o = rd;
  assign ra_o = ra;
  assign rb_o = rb;
  assign rc_o = rc;

  function automatic logic is_int64(logic [2:0] t);   // wf_isa_pkg::inttype_e
    is_int64 = (t == wf_isa_pkg::INT_TYPE_U64) || (t == wf_isa_pkg::INT_TYPE_S64);
  endfunction

  // The operand table.
  logic [2:0] wd, rdr, rda, rdb, rdc;   // rd written, rd read, ra/rb/rc read (counts)
  logic       pd_w, pa_r, pb_r, pc_r;   // predicate operands present
  logic [4:0] pd_f, pa_f, pb_f, pc_f;   // their fields (PN: bit 4 is the negation)
  logic       b_imm;

  always_comb begin
    logic wide_s;   // a 64-bit modifier (types) for the opcodes that have one
    logic [2:0] size_cnt;

    wd    = N0;
    rdr   = N0;
    rda   = N0;
    rdb   = N0;
    rdc   = N0;
    pd_w  = 1'b0;
    pa_r  = 1'b0;
    pb_r  = 1'b0;
    pc_r  = 1'b0;
    pd_f  = '0;
    pa_f  = '0;
    pb_f  = '0;
    pc_f  = '0;
    b_imm = 1'b0;

    // Memory access size (every load and store has it in the same place): B64 pairs, B128
    // quads.
    unique case (inst_i[wf_isa_pkg::LdgSizeLo +: wf_isa_pkg::LdgSizeWidth])
      wf_isa_pkg::MEM_SIZE_B64:  size_cnt = N2;
      wf_isa_pkg::MEM_SIZE_B128: size_cnt = N4;
      default:                   size_cnt = N1;
    endcase
    wide_s = 1'b0;

    unique case (op)
      wf_isa_pkg::OP_NOP, wf_isa_pkg::OP_EXIT, wf_isa_pkg::OP_MEMBAR, wf_isa_pkg::OP_BRA,
      wf_isa_pkg::OP_TRAP, wf_isa_pkg::OP_BPT: ;
      wf_isa_pkg::OP_MOV, wf_isa_pkg::OP_IABS, wf_isa_pkg::OP_POPC, wf_isa_pkg::OP_CLZ,
      wf_isa_pkg::OP_BREV, wf_isa_pkg::OP_BFIND, wf_isa_pkg::OP_MUFU, wf_isa_pkg::OP_FSQRT,
      wf_isa_pkg::OP_REDUX: begin
        wd  = N1;
        rda = N1;
      end
      wf_isa_pkg::OP_MOV32I, wf_isa_pkg::OP_LEAPC: begin
        wd    = N1;
        b_imm = 1'b1;
      end
      wf_isa_pkg::OP_SEL: begin
        wd   = N1;
        rda  = N1;
        rdb  = N1;
        pc_r = 1'b1;
        pc_f = inst_i[wf_isa_pkg::SelPcLo +: wf_isa_pkg::SelPcWidth];
      end
      wf_isa_pkg::OP_IADD: begin
        wd   = N1;
        rda  = N1;
        rdb  = N1;
        pd_w = 1'b1;
        pd_f = 5'(inst_i[wf_isa_pkg::IaddPcoLo +: wf_isa_pkg::IaddPcoWidth]);
        pc_r = inst_i[wf_isa_pkg::IaddXLo];
        pc_f = inst_i[wf_isa_pkg::IaddPciLo +: wf_isa_pkg::IaddPciWidth];
      end
      wf_isa_pkg::OP_IADD_I, wf_isa_pkg::OP_IMNMX_I, wf_isa_pkg::OP_SHL_I, wf_isa_pkg::OP_SHR_I,
      wf_isa_pkg::OP_LOP_I, wf_isa_pkg::OP_IMUL_I, wf_isa_pkg::OP_FADD_I,
      wf_isa_pkg::OP_FMUL_I: begin
        wd    = N1;
        rda   = N1;
        b_imm = 1'b1;
      end
      wf_isa_pkg::OP_IMNMX, wf_isa_pkg::OP_SHL, wf_isa_pkg::OP_SHR, wf_isa_pkg::OP_BFE,
      wf_isa_pkg::OP_IMUL, wf_isa_pkg::OP_IMULHI, wf_isa_pkg::OP_FADD, wf_isa_pkg::OP_FMUL,
      wf_isa_pkg::OP_FMNMX, wf_isa_pkg::OP_FDIV: begin
        wd  = N1;
        rda = N1;
        rdb = N1;
      end
      wf_isa_pkg::OP_SHF, wf_isa_pkg::OP_LOP3, wf_isa_pkg::OP_BFI, wf_isa_pkg::OP_PRMT,
      wf_isa_pkg::OP_IMAD, wf_isa_pkg::OP_IMADHI, wf_isa_pkg::OP_FFMA: begin
        wd  = N1;
        rda = N1;
        rdb = N1;
        rdc = N1;
      end
      wf_isa_pkg::OP_ISETP: begin
        wide_s = (inst_i[wf_isa_pkg::IsetpTyLo +: wf_isa_pkg::IsetpTyWidth] ==
                  wf_isa_pkg::I_TY_S64) ||
                 (inst_i[wf_isa_pkg::IsetpTyLo +: wf_isa_pkg::IsetpTyWidth] ==
                  wf_isa_pkg::I_TY_U64);
        rda  = wide_s ? N2 : N1;
        rdb  = wide_s ? N2 : N1;
        pd_w = 1'b1;
        pd_f = 5'(inst_i[wf_isa_pkg::IsetpPdLo +: wf_isa_pkg::IsetpPdWidth]);
        pc_r = 1'b1;
        pc_f = inst_i[wf_isa_pkg::IsetpPcLo +: wf_isa_pkg::IsetpPcWidth];
      end
      wf_isa_pkg::OP_ISETP_I: begin
        rda   = N1;
        b_imm = 1'b1;
        pd_w  = 1'b1;
        pd_f  = 5'(inst_i[wf_isa_pkg::IsetpIPdLo +: wf_isa_pkg::IsetpIPdWidth]);
      end
      wf_isa_pkg::OP_PLOP3: begin
        pd_w = 1'b1;
        pd_f = 5'(inst_i[wf_isa_pkg::Plop3PdLo +: wf_isa_pkg::Plop3PdWidth]);
        pa_r = 1'b1;
        pa_f = inst_i[wf_isa_pkg::Plop3PaLo +: wf_isa_pkg::Plop3PaWidth];
        pb_r = 1'b1;
        pb_f = inst_i[wf_isa_pkg::Plop3PbLo +: wf_isa_pkg::Plop3PbWidth];
        pc_r = 1'b1;
        pc_f = inst_i[wf_isa_pkg::Plop3PcLo +: wf_isa_pkg::Plop3PcWidth];
      end
      wf_isa_pkg::OP_P2R: begin
        wd   = N1;
        pa_r = 1'b1;
        pa_f = inst_i[wf_isa_pkg::P2rPaLo +: wf_isa_pkg::P2rPaWidth];
      end
      wf_isa_pkg::OP_S2R: begin
        unique case (inst_i[wf_isa_pkg::S2rSrLo +: wf_isa_pkg::S2rSrWidth])
          wf_isa_pkg::SREG_GRIDID, wf_isa_pkg::SREG_CLOCK64, wf_isa_pkg::SREG_GLOBALTIMER,
          wf_isa_pkg::SREG_RTBUF: wd = N2;
          default: wd = N1;
        endcase
      end
      wf_isa_pkg::OP_CVTA: begin
        wide_s = inst_i[wf_isa_pkg::CvtaDirLo] == wf_isa_pkg::CVTA_DIR_FROMGEN;
        wd  = wide_s ? N1 : N2;
        rda = wide_s ? N2 : N1;
      end
      wf_isa_pkg::OP_ISSPACEP: begin
        rda  = N2;
        pd_w = 1'b1;
        pd_f = 5'(inst_i[wf_isa_pkg::IsspacepPdLo +: wf_isa_pkg::IsspacepPdWidth]);
      end
      wf_isa_pkg::OP_IMULWIDE: begin
        wd  = N2;
        rda = N1;
        rdb = N1;
      end
      wf_isa_pkg::OP_IMADWIDE: begin
        wd  = N2;
        rda = N1;
        rdb = N1;
        rdc = N2;
      end
      wf_isa_pkg::OP_IDIV, wf_isa_pkg::OP_IREM: begin
        wide_s = (op == wf_isa_pkg::OP_IDIV) ?
                 (inst_i[wf_isa_pkg::IdivTyLo +: wf_isa_pkg::IdivTyWidth] ==
                  wf_isa_pkg::I_TY_S64 ||
                  inst_i[wf_isa_pkg::IdivTyLo +: wf_isa_pkg::IdivTyWidth] ==
                  wf_isa_pkg::I_TY_U64) :
                 (inst_i[wf_isa_pkg::IremTyLo +: wf_isa_pkg::IremTyWidth] ==
                  wf_isa_pkg::I_TY_S64 ||
                  inst_i[wf_isa_pkg::IremTyLo +: wf_isa_pkg::IremTyWidth] ==
                  wf_isa_pkg::I_TY_U64);
        wd  = wide_s ? N2 : N1;
        rda = wide_s ? N2 : N1;
        rdb = wide_s ? N2 : N1;
      end
      wf_isa_pkg::OP_FSETP: begin
        rda  = N1;
        rdb  = N1;
        pd_w = 1'b1;
        pd_f = 5'(inst_i[wf_isa_pkg::FsetpPdLo +: wf_isa_pkg::FsetpPdWidth]);
        pc_r = 1'b1;
        pc_f = inst_i[wf_isa_pkg::FsetpPcLo +: wf_isa_pkg::FsetpPcWidth];
      end
      wf_isa_pkg::OP_F2F: begin
        wd  = (inst_i[wf_isa_pkg::F2fDstLo +: wf_isa_pkg::F2fDstWidth] ==
               wf_isa_pkg::FLT_TYPE_F64) ? N2 : N1;
        rda = (inst_i[wf_isa_pkg::F2fSrcLo +: wf_isa_pkg::F2fSrcWidth] ==
               wf_isa_pkg::FLT_TYPE_F64) ? N2 : N1;
      end
      wf_isa_pkg::OP_F2I: begin
        wd  = is_int64(inst_i[wf_isa_pkg::F2iDstLo +: wf_isa_pkg::F2iDstWidth]) ? N2 : N1;
        rda = (inst_i[wf_isa_pkg::F2iSrcLo +: wf_isa_pkg::F2iSrcWidth] ==
               wf_isa_pkg::FLT_TYPE_F64) ? N2 : N1;
      end
      wf_isa_pkg::OP_I2F: begin
        wd  = (inst_i[wf_isa_pkg::I2fDstLo +: wf_isa_pkg::I2fDstWidth] ==
               wf_isa_pkg::FLT_TYPE_F64) ? N2 : N1;
        rda = is_int64(inst_i[wf_isa_pkg::I2fSrcLo +: wf_isa_pkg::I2fSrcWidth]) ? N2 : N1;
      end
      wf_isa_pkg::OP_I2I: begin
        wd  = is_int64(inst_i[wf_isa_pkg::I2iDstLo +: wf_isa_pkg::I2iDstWidth]) ? N2 : N1;
        rda = is_int64(inst_i[wf_isa_pkg::I2iSrcLo +: wf_isa_pkg::I2iSrcWidth]) ? N2 : N1;
      end
      wf_isa_pkg::OP_DADD, wf_isa_pkg::OP_DMUL, wf_isa_pkg::OP_DMNMX, wf_isa_pkg::OP_DDIV: begin
        wd  = N2;
        rda = N2;
        rdb = N2;
      end
      wf_isa_pkg::OP_DFMA: begin
        wd  = N2;
        rda = N2;
        rdb = N2;
        rdc = N2;
      end
      wf_isa_pkg::OP_DSETP: begin
        rda  = N2;
        rdb  = N2;
        pd_w = 1'b1;
        pd_f = 5'(inst_i[wf_isa_pkg::DsetpPdLo +: wf_isa_pkg::DsetpPdWidth]);
        pc_r = 1'b1;
        pc_f = inst_i[wf_isa_pkg::DsetpPcLo +: wf_isa_pkg::DsetpPcWidth];
      end
      wf_isa_pkg::OP_DSQRT: begin
        wd  = N2;
        rda = N2;
      end
      wf_isa_pkg::OP_LDG, wf_isa_pkg::OP_LD: begin
        wd  = size_cnt;
        rda = N2;
      end
      wf_isa_pkg::OP_LDS, wf_isa_pkg::OP_LDL, wf_isa_pkg::OP_LDC, wf_isa_pkg::OP_LDP: begin
        wd  = size_cnt;
        rda = N1;
      end
      wf_isa_pkg::OP_STG, wf_isa_pkg::OP_ST: begin
        rdr = size_cnt;
        rda = N2;
      end
      wf_isa_pkg::OP_STS, wf_isa_pkg::OP_STL: begin
        rdr = size_cnt;
        rda = N1;
      end
      wf_isa_pkg::OP_ATOM: begin
        // 64-bit types (U64, S64, F64) use pairs for rd, rb, rc; generic and global addresses
        // are pairs.
        unique case (inst_i[wf_isa_pkg::AtomTyLo +: wf_isa_pkg::AtomTyWidth])
          wf_isa_pkg::ATOM_TYPE_U64, wf_isa_pkg::ATOM_TYPE_S64,
          wf_isa_pkg::ATOM_TYPE_F64: wide_s = 1'b1;
          default: wide_s = 1'b0;
        endcase
        wd  = wide_s ? N2 : N1;
        rdb = wide_s ? N2 : N1;
        rdc = (inst_i[wf_isa_pkg::AtomFnLo +: wf_isa_pkg::AtomFnWidth] ==
               wf_isa_pkg::ATOM_OP_CAS) ? (wide_s ? N2 : N1) : N0;
        rda = (inst_i[wf_isa_pkg::AtomSpaceLo +: wf_isa_pkg::AtomSpaceWidth] ==
               wf_isa_pkg::ATOM_SPACE_SHARED) ? N1 : N2;
      end
      wf_isa_pkg::OP_BRX, wf_isa_pkg::OP_RET, wf_isa_pkg::OP_R2B, wf_isa_pkg::OP_WARPSYNC,
      wf_isa_pkg::OP_NANOSLEEP: begin
        rda = N1;
      end
      wf_isa_pkg::OP_CALL, wf_isa_pkg::OP_B2R: begin
        wd = N1;
      end
      wf_isa_pkg::OP_CALLR: begin
        wd  = N1;
        rda = N1;
      end
      wf_isa_pkg::OP_BSSY, wf_isa_pkg::OP_BSYNC: ;
      wf_isa_pkg::OP_BAR: begin
        wd  = (inst_i[wf_isa_pkg::BarFnLo +: wf_isa_pkg::BarFnWidth] >=
               3'(wf_isa_pkg::BAR_OP_RED_POPC)) ? N1 : N0;
        rda  = N1;
        rdb  = N1;
        pc_r = 1'b1;
        pc_f = inst_i[wf_isa_pkg::BarPcLo +: wf_isa_pkg::BarPcWidth];
      end
      wf_isa_pkg::OP_VOTE: begin
        wd   = N1;
        pd_w = 1'b1;
        pd_f = 5'(inst_i[wf_isa_pkg::VotePdLo +: wf_isa_pkg::VotePdWidth]);
        pa_r = 1'b1;
        pa_f = inst_i[wf_isa_pkg::VotePaLo +: wf_isa_pkg::VotePaWidth];
      end
      wf_isa_pkg::OP_SHFL: begin
        wd   = N1;
        rda  = N1;
        rdb  = N1;
        rdc  = N1;
        pd_w = 1'b1;
        pd_f = 5'(inst_i[wf_isa_pkg::ShflPdLo +: wf_isa_pkg::ShflPdWidth]);
      end
      wf_isa_pkg::OP_MATCH: begin
        wd   = N1;
        rda  = (inst_i[wf_isa_pkg::MatchTyLo +: wf_isa_pkg::MatchTyWidth] ==
                wf_isa_pkg::WIDTH_B64) ? N2 : N1;
        pd_w = 1'b1;
        pd_f = 5'(inst_i[wf_isa_pkg::MatchPdLo +: wf_isa_pkg::MatchPdWidth]);
      end
      wf_isa_pkg::OP_TEX: begin
        wd  = N4;
        rda = N1;
        rdb = N2;
      end
      default: ;
    endcase
  end

  localparam logic [3:0] PT = 4'(wf_isa_pkg::TruePred);
  localparam logic [7:0] RZ = 8'(wf_isa_pkg::ZeroReg);

  // Only legal opcodes read or write anything; RZ and PT are never read or written.
  assign rd_we_o  = legal_o && (wd != N0) && (rd != RZ);
  assign rd_cnt_o = (wd != N0) ? wd : rdr;
  assign rd_re_o  = legal_o && (rdr != N0) && (rd != RZ);
  assign ra_re_o  = legal_o && (rda != N0) && (ra != RZ);
  assign ra_cnt_o = rda;
  assign rb_re_o  = legal_o && (rdb != N0) && (rb != RZ) && !b_imm;
  assign rb_cnt_o = rdb;
  assign rc_re_o  = legal_o && (rdc != N0) && (rc != RZ);
  assign rc_cnt_o = rdc;
  assign b_is_imm_o = legal_o && b_imm;

  assign pd_we_o = legal_o && pd_w && (pd_f[3:0] != PT);
  assign pd_o    = pd_f[3:0];
  assign pa_re_o = legal_o && pa_r && (pa_f[3:0] != PT);
  assign pa_o    = pa_f[3:0];
  assign pb_re_o = legal_o && pb_r && (pb_f[3:0] != PT);
  assign pb_o    = pb_f[3:0];
  assign pc_re_o = legal_o && pc_r && (pc_f[3:0] != PT);
  assign pc_o    = pc_f[3:0];

  logic unused_neg;
  assign unused_neg = ^{pd_f[4], pa_f[4], pb_f[4], pc_f[4]};   // negation: applied by the units

endmodule
