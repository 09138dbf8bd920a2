// Integer ALU: add/sub with carry, min/max, abs, shifts, funnel shift, LOP3, popc, clz, brev, bfind,
// bfe, bfi, prmt, ISETP (32 and 64 bit), SEL, PLOP3, P2R and moves, for `Lanes` lanes.
//
// Pipeline (fixed latency, valid-in/valid-out, no back-pressure): the ISA table's ALU latency,
// op_latency(OP_IADD) register stages from the inputs to the outputs (the ISA table's ALU latency).
//   stage 1: adder/comparator, one 64->32 funnel shifter shared by SHL/SHR/SHF/BFE/BFI, PRMT byte
//            selection, popc/clz; every result is brought to three operands x, y, z and an 8-bit
//            truth table per lane;
//   stage 2: one LOP3 per bit, res = lut[{x, y, z}], which is also the result multiplexer
//            (x alone: lut F0; y alone: CC; z ? x : y: E4 for SEL/min/max/BFE/BFI).
// Further stages, if the ISA table asks for more latency, delay the result.
//
// Operands as the operand collector delivers them (per lane): a = ra, b = rb, or the immediate for
// format I opcodes, c = rc; a_hi / b_hi: the high words of the pairs ra+1 / rb+1 (ISETP .S64/.U64).
// Predicate sources pa, pb, pc are the raw predicate-file values at the indices the decoder gives
// (PT reads 1); this unit applies the PN negation bit of each field.
//   pa: P2R pa, PLOP3 pa.  pb: PLOP3 pb.  pc: SEL pc, IADD pci, ISETP pc, PLOP3 pc.
// LEAPC and S2R: the issue stage supplies the value (target address in b, special register in a).
// CVTA and ISSPACEP are not handled here yet (res = 0).
module wf_alu
#(
  parameter int unsigned Lanes = 1
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,

  input  logic                        valid_i,
  input  logic [wf_isa_pkg::InstBits-1:0]         inst_i,
  input  logic [Lanes-1:0][31:0]      a_i,
  input  logic [Lanes-1:0][31:0]      b_i,
  input  logic [Lanes-1:0][31:0]      c_i,
  input  logic [Lanes-1:0][31:0]      a_hi_i,
  input  logic [Lanes-1:0][31:0]      b_hi_i,
  input  logic [Lanes-1:0]            pa_i,
  input  logic [Lanes-1:0]            pb_i,
  input  logic [Lanes-1:0]            pc_i,

  output logic                        valid_o,
  output logic [Lanes-1:0][31:0]      res_o,
  output logic [Lanes-1:0]            pred_o    // ISETP/PLOP3 pd, IADD carry out
);

  localparam int unsigned Latency = wf_isa_pkg::op_latency(wf_isa_pkg::OP_IADD);
  localparam int unsigned CoreStages = 2;

  if (Latency < CoreStages) begin : gen_latency_check
    $error("wf_alu: ISA latency %0d is shorter than the ALU's %0d stages", Latency, CoreStages);
  end


  ////////////////////////////
  // Shared decode (stage 1) //
  ////////////////////////////

  // Stage 2 computes lut[{x, y, z}] per bit; stage 1 fills the slots:
  //   x: the funnel shifter (which passes ra unshifted for the logic ops),
  //   y: the adder (which passes rb for the logic ops),
  //   z: rc, the bit-field mask, or the miscellaneous result (prmt, popc, clz, bfind, brev, p2r).
  typedef enum logic [2:0] {
    ShPass,      // x = a
    ShShl,
    ShShr,
    ShShf,
    ShBfe,
    ShBfi
  } sh_op_e;

  typedef enum logic [1:0] {
    AddPassB,    // y = b
    AddAdd,      // y = a + (invb ? ~b : b) + cin
    AddAbs       // y = |a|
  } add_op_e;

  typedef enum logic [1:0] {
    ZZero,
    ZC,
    ZMask,
    ZMisc
  } z_src_e;

  typedef enum logic [2:0] {
    MiscPrmt,
    MiscPopc,
    MiscClz,
    MiscBfind,
    MiscBrev,
    MiscP2r
  } misc_op_e;

  typedef enum logic [2:0] {
    LutFixed,    // lut_fixed
    LutSelPc,    // SEL: pc ? x : y
    LutMinMax,   // IMNMX: x or y from the comparison
    LutBfind,    // BFIND: z, or all ones when no bit is found
    LutBfe       // BFE: z ? x : sign bit
  } lut_mode_e;

  typedef enum logic [1:0] {
    PredNone,
    PredCmp,     // ISETP
    PredPlop,    // PLOP3
    PredCarry    // IADD carry out
  } pred_src_e;

  // Truth tables (x = F0, y = CC, z = AA).
  localparam logic [7:0] LutX      = 8'hF0;
  localparam logic [7:0] LutY      = 8'hCC;
  localparam logic [7:0] LutZ      = 8'hAA;
  localparam logic [7:0] LutOnes   = 8'hFF;
  localparam logic [7:0] LutZeros  = 8'h00;
  localparam logic [7:0] LutZxY    = 8'hE4;  // z ? x : y
  localparam logic [7:0] LutZx0    = 8'hA0;  // z ? x : 0
  localparam logic [7:0] LutZx1    = 8'hF5;  // z ? x : 1
  localparam logic [7:0] LutAnd    = 8'hC0;  // x & y
  localparam logic [7:0] LutOr     = 8'hFC;
  localparam logic [7:0] LutXor    = 8'h3C;

  logic [7:0] op;          // wf_isa_pkg::opcode_e (Yosys cannot cast to a package enum)
  sh_op_e     sh_op;
  add_op_e    add_op;
  z_src_e     z_src;
  misc_op_e   misc_op;
  lut_mode_e  lut_mode;
  logic [7:0] lut_fixed;
  pred_src_e  pred_src;
  logic       add_invb;      // adder: b inverted
  logic       add_cin_inv;   // adder: carry in = 1 (IADD .INVB without .X)
  logic       add_cin_pc;    // adder: carry in = pc (IADD .X)
  logic       cmp_signed;
  logic       cmp_wide;      // 64-bit compare (ISETP .S64/.U64)
  logic [2:0] cmp_op;        // wf_isa_pkg::icmp_e
  logic [1:0] bop;           // wf_isa_pkg::boolop_e
  logic       bop_en;
  logic       minmax_max;
  logic       shr_signed;
  logic       shf_right;
  logic       shf_wrap;
  logic       bfe_signed;
  logic       bfind_signed;
  logic       bfind_shiftamt;
  logic [2:0] prmt_mode;     // wf_isa_pkg::prmtmode_e
  logic [7:0] plop_lut;
  logic       neg_pa;
  logic       neg_pb;
  logic       neg_pc;

  assign op = inst_i[wf_isa_pkg::FmtROpLo +: wf_isa_pkg::FmtROpWidth];

  always_comb begin
    sh_op          = ShPass;
    add_op         = AddPassB;
    z_src          = ZZero;
    misc_op        = MiscPrmt;
    lut_mode       = LutFixed;
    lut_fixed      = LutZeros;
    pred_src       = PredNone;
    add_invb       = 1'b0;
    add_cin_inv    = 1'b0;
    add_cin_pc     = 1'b0;
    cmp_signed     = 1'b1;
    cmp_wide       = 1'b0;
    cmp_op         = wf_isa_pkg::I_CMP_EQ;
    bop            = wf_isa_pkg::BOOL_OP_AND;
    bop_en         = 1'b0;
    minmax_max     = 1'b0;
    shr_signed     = 1'b0;
    shf_right      = 1'b0;
    shf_wrap       = 1'b0;
    bfe_signed     = 1'b0;
    bfind_signed   = 1'b0;
    bfind_shiftamt = 1'b0;
    prmt_mode      = wf_isa_pkg::PRMT_MODE_IDX;
    plop_lut       = inst_i[wf_isa_pkg::Plop3LutLo +: wf_isa_pkg::Plop3LutWidth];
    neg_pa         = 1'b0;
    neg_pb         = 1'b0;
    neg_pc         = 1'b0;

    unique case (op)
      wf_isa_pkg::OP_MOV, wf_isa_pkg::OP_S2R: begin
        lut_fixed = LutX;
      end
      wf_isa_pkg::OP_MOV32I, wf_isa_pkg::OP_LEAPC: begin
        lut_fixed = LutY;
      end
      wf_isa_pkg::OP_SEL: begin
        lut_mode = LutSelPc;
        neg_pc   = inst_i[wf_isa_pkg::SelPcLo + wf_isa_pkg::SelPcWidth - 1];
      end
      wf_isa_pkg::OP_IADD: begin
        add_op      = AddAdd;
        lut_fixed   = LutY;
        pred_src    = PredCarry;
        add_invb    = inst_i[wf_isa_pkg::IaddInvbLo];
        add_cin_inv = inst_i[wf_isa_pkg::IaddInvbLo] & ~inst_i[wf_isa_pkg::IaddXLo];
        add_cin_pc  = inst_i[wf_isa_pkg::IaddXLo];
        neg_pc      = inst_i[wf_isa_pkg::IaddPciLo + wf_isa_pkg::IaddPciWidth - 1];
      end
      wf_isa_pkg::OP_IADD_I: begin
        add_op    = AddAdd;
        lut_fixed = LutY;
      end
      wf_isa_pkg::OP_IMNMX: begin
        lut_mode   = LutMinMax;
        minmax_max = inst_i[wf_isa_pkg::ImnmxFnLo +: wf_isa_pkg::ImnmxFnWidth] ==
                     wf_isa_pkg::MIN_MAX_MAX;
        cmp_signed = inst_i[wf_isa_pkg::ImnmxTyLo +: wf_isa_pkg::ImnmxTyWidth] ==
                     wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_IMNMX_I: begin
        lut_mode   = LutMinMax;
        minmax_max = inst_i[wf_isa_pkg::ImnmxIFnLo +: wf_isa_pkg::ImnmxIFnWidth] ==
                     wf_isa_pkg::MIN_MAX_MAX;
        cmp_signed = inst_i[wf_isa_pkg::ImnmxITyLo +: wf_isa_pkg::ImnmxITyWidth] ==
                     wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_IABS: begin
        add_op    = AddAbs;
        lut_fixed = LutY;
      end
      wf_isa_pkg::OP_SHL, wf_isa_pkg::OP_SHL_I: begin
        sh_op     = ShShl;
        lut_fixed = LutX;
      end
      wf_isa_pkg::OP_SHR: begin
        sh_op      = ShShr;
        lut_fixed  = LutX;
        shr_signed = inst_i[wf_isa_pkg::ShrTyLo +: wf_isa_pkg::ShrTyWidth] ==
                     wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_SHR_I: begin
        sh_op      = ShShr;
        lut_fixed  = LutX;
        shr_signed = inst_i[wf_isa_pkg::ShrITyLo +: wf_isa_pkg::ShrITyWidth] ==
                     wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_SHF: begin
        sh_op     = ShShf;
        lut_fixed = LutX;
        shf_right = inst_i[wf_isa_pkg::ShfDirLo +: wf_isa_pkg::ShfDirWidth] ==
                    wf_isa_pkg::SHF_DIR_R;
        shf_wrap  = inst_i[wf_isa_pkg::ShfModeLo +: wf_isa_pkg::ShfModeWidth] ==
                    wf_isa_pkg::SHF_MODE_WRAP;
      end
      wf_isa_pkg::OP_LOP3: begin
        z_src     = ZC;
        lut_fixed = inst_i[wf_isa_pkg::Lop3LutLo +: wf_isa_pkg::Lop3LutWidth];
      end
      wf_isa_pkg::OP_LOP_I: begin
        unique case (inst_i[wf_isa_pkg::LopIFnLo +: wf_isa_pkg::LopIFnWidth])
          wf_isa_pkg::LOGIC_OP_AND: lut_fixed = LutAnd;
          wf_isa_pkg::LOGIC_OP_OR:  lut_fixed = LutOr;
          wf_isa_pkg::LOGIC_OP_XOR: lut_fixed = LutXor;
          default:                  lut_fixed = LutZeros;
        endcase
      end
      wf_isa_pkg::OP_POPC: begin
        z_src     = ZMisc;
        misc_op   = MiscPopc;
        lut_fixed = LutZ;
      end
      wf_isa_pkg::OP_CLZ: begin
        z_src     = ZMisc;
        misc_op   = MiscClz;
        lut_fixed = LutZ;
      end
      wf_isa_pkg::OP_BREV: begin
        z_src     = ZMisc;
        misc_op   = MiscBrev;
        lut_fixed = LutZ;
      end
      wf_isa_pkg::OP_BFIND: begin
        z_src          = ZMisc;
        misc_op        = MiscBfind;
        lut_mode       = LutBfind;
        bfind_signed   = inst_i[wf_isa_pkg::BfindTyLo +: wf_isa_pkg::BfindTyWidth] ==
                         wf_isa_pkg::I_TY32_S32;
        bfind_shiftamt = inst_i[wf_isa_pkg::BfindShiftamtLo];
      end
      wf_isa_pkg::OP_BFE: begin
        sh_op      = ShBfe;
        z_src      = ZMask;
        lut_mode   = LutBfe;
        bfe_signed = inst_i[wf_isa_pkg::BfeTyLo +: wf_isa_pkg::BfeTyWidth] ==
                     wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_BFI: begin
        sh_op     = ShBfi;
        z_src     = ZMask;
        lut_fixed = LutZxY;
      end
      wf_isa_pkg::OP_PRMT: begin
        z_src     = ZMisc;
        misc_op   = MiscPrmt;
        lut_fixed = LutZ;
        prmt_mode = inst_i[wf_isa_pkg::PrmtModeLo +: wf_isa_pkg::PrmtModeWidth];
      end
      wf_isa_pkg::OP_ISETP: begin
        pred_src   = PredCmp;
        cmp_op     = inst_i[wf_isa_pkg::IsetpCmpLo +: wf_isa_pkg::IsetpCmpWidth];
        cmp_signed = (inst_i[wf_isa_pkg::IsetpTyLo +: wf_isa_pkg::IsetpTyWidth] ==
                      wf_isa_pkg::I_TY_S32) ||
                     (inst_i[wf_isa_pkg::IsetpTyLo +: wf_isa_pkg::IsetpTyWidth] ==
                      wf_isa_pkg::I_TY_S64);
        cmp_wide   = (inst_i[wf_isa_pkg::IsetpTyLo +: wf_isa_pkg::IsetpTyWidth] ==
                      wf_isa_pkg::I_TY_S64) ||
                     (inst_i[wf_isa_pkg::IsetpTyLo +: wf_isa_pkg::IsetpTyWidth] ==
                      wf_isa_pkg::I_TY_U64);
        bop        = inst_i[wf_isa_pkg::IsetpBopLo +: wf_isa_pkg::IsetpBopWidth];
        bop_en     = 1'b1;
        neg_pc     = inst_i[wf_isa_pkg::IsetpPcLo + wf_isa_pkg::IsetpPcWidth - 1];
      end
      wf_isa_pkg::OP_ISETP_I: begin
        pred_src   = PredCmp;
        cmp_op     = inst_i[wf_isa_pkg::IsetpICmpLo +: wf_isa_pkg::IsetpICmpWidth];
        cmp_signed = inst_i[wf_isa_pkg::IsetpITyLo +: wf_isa_pkg::IsetpITyWidth] ==
                     wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_PLOP3: begin
        pred_src = PredPlop;
        neg_pa   = inst_i[wf_isa_pkg::Plop3PaLo + wf_isa_pkg::Plop3PaWidth - 1];
        neg_pb   = inst_i[wf_isa_pkg::Plop3PbLo + wf_isa_pkg::Plop3PbWidth - 1];
        neg_pc   = inst_i[wf_isa_pkg::Plop3PcLo + wf_isa_pkg::Plop3PcWidth - 1];
      end
      wf_isa_pkg::OP_P2R: begin
        z_src     = ZMisc;
        misc_op   = MiscP2r;
        lut_fixed = LutZ;
        neg_pa    = inst_i[wf_isa_pkg::P2rPaLo + wf_isa_pkg::P2rPaWidth - 1];
      end
      default: begin
        // NOP, CVTA, ISSPACEP and opcodes of other units: zero result.
        lut_fixed = LutZeros;
      end
    endcase
  end

  // One-hot selects for the per-bit multiplexers (AND-OR form keeps them one LUT per bit).
  logic z_c, z_mask, z_misc;               // z slot
  logic m_prmt, m_brev, m_small;           // misc result
  logic hi_a, hi_b, hi_fill, lo_a;         // shifter inputs
  logic amt_b, amt_c, amt_pos, amt_neg;    // shift amount: min(rb,32), rc, bit-field pos; 32 - n

  assign z_c     = z_src == ZC;
  assign z_mask  = z_src == ZMask;
  assign z_misc  = z_src == ZMisc;
  assign m_prmt  = misc_op == MiscPrmt;
  assign m_brev  = misc_op == MiscBrev;
  assign m_small = (misc_op == MiscPopc) || (misc_op == MiscClz) || (misc_op == MiscBfind) ||
                   (misc_op == MiscP2r);
  assign hi_a    = (sh_op == ShShl) || (sh_op == ShBfi);
  assign hi_b    = sh_op == ShShf;
  assign hi_fill = (sh_op == ShShr) && shr_signed;
  assign lo_a    = (sh_op != ShShl) && (sh_op != ShBfi);
  assign amt_b   = (sh_op == ShShl) || (sh_op == ShShr);
  assign amt_c   = sh_op == ShShf;
  assign amt_pos = (sh_op == ShBfe) || (sh_op == ShBfi);
  assign amt_neg = (sh_op == ShShl) || (sh_op == ShBfi) || ((sh_op == ShShf) && !shf_right);

  ////////////////////////
  // Per-lane stage 1   //
  ////////////////////////

  logic [Lanes-1:0][31:0] x_d, y_d, z_d;
  logic [Lanes-1:0][7:0]  lut_d;
  logic [Lanes-1:0]       p1_d;   // stage-1 predicate: comparison, PLOP3 or carry
  logic [Lanes-1:0]       pc_d;   // negated pc for the ISETP boolean op

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    logic [31:0] a, b, c, a_hi, b_hi;
    logic        pa, pb, pc;
    // adder
    logic [31:0] add_x, add_y;
    logic        add_cin;
    logic [32:0] sum;
    // comparator: {a_hi, a} - {b_hi, b} with a separator bit that exposes the low borrow
    logic [65:0] cmp_diff;
    logic        lt_lo_u, lt_lo_s, eq_lo, eq_hi, lt, eq, cmp_res;
    // funnel shifter
    logic [31:0] sh_hi, sh_lo;
    logic [5:0]  sh_amt;
    logic [63:0] sh_win;
    logic [31:0] sh_out;
    logic [5:0]  n_b, n_c;    // min(b, 32), min(c, 32) or c mod 32
    // bit fields
    logic [15:0] bf;          // pos = bf[7:0], len = bf[15:8] (rb for BFE, rc for BFI)
    logic [5:0]  pos_c, len_c;
    logic [5:0]  m_lo, m_hi;  // mask = bits [m_lo, m_hi)
    logic [31:0] mask;
    logic        sbit;
    // misc
    logic [31:0] misc, prmt, clz_src, brev;
    logic [5:0]  clz, popc;

    assign a    = a_i[l];
    assign b    = b_i[l];
    assign c    = c_i[l];
    assign a_hi = a_hi_i[l];
    assign b_hi = b_hi_i[l];
    assign pa   = pa_i[l] ^ neg_pa;
    assign pb   = pb_i[l] ^ neg_pb;
    assign pc   = pc_i[l] ^ neg_pc;

    // Adder (y slot): IADD/IADD_I, IABS, and rb itself for the logic ops.
    always_comb begin
      unique case (add_op)
        AddAdd: begin
          add_x   = a;
          add_y   = add_invb ? ~b : b;
          add_cin = add_cin_pc ? pc : add_cin_inv;
        end
        AddAbs: begin
          add_x   = a[31] ? 32'd0 : a;
          add_y   = a[31] ? ~a : 32'd0;
          add_cin = a[31];
        end
        default: begin
          add_x   = 32'd0;
          add_y   = b;
          add_cin = 1'b0;
        end
      endcase
    end
    assign sum = {1'b0, add_x} + {1'b0, add_y} + {32'd0, add_cin};

    // Comparator. Bit 32 of cmp_diff is 0 + 1 + borrow-free carry: it reads ~carry(lo), and the
    // carry still propagates into the high word, so one chain serves 32- and 64-bit compares.
    assign cmp_diff = {1'b0, a_hi, 1'b0, a} + {1'b0, ~b_hi, 1'b1, ~b} + 66'd1;
    assign lt_lo_u  = cmp_diff[32];
    assign lt_lo_s  = (a[31] ^ b[31]) ? a[31] : cmp_diff[31];
    assign eq_lo    = a == b;
    assign eq_hi    = a_hi == b_hi;
    always_comb begin
      if (cmp_wide) begin
        // Unsigned 64-bit: borrow out of the whole chain; signed: the high words' signs decide.
        lt = (cmp_signed && (a_hi[31] ^ b_hi[31])) ? a_hi[31] : ~cmp_diff[65];
        eq = eq_hi & eq_lo;
      end else begin
        lt = cmp_signed ? lt_lo_s : lt_lo_u;
        eq = eq_lo;
      end
      unique case (cmp_op)
        wf_isa_pkg::I_CMP_EQ: cmp_res = eq;
        wf_isa_pkg::I_CMP_NE: cmp_res = ~eq;
        wf_isa_pkg::I_CMP_LT: cmp_res = lt;
        wf_isa_pkg::I_CMP_LE: cmp_res = lt | eq;
        wf_isa_pkg::I_CMP_GT: cmp_res = ~(lt | eq);
        wf_isa_pkg::I_CMP_GE: cmp_res = ~lt;
        default:              cmp_res = 1'b0;
      endcase
    end

    // Shift amounts: SHL/SHR clamp rb to 32; SHF clamps rc to 32 or wraps it mod 32.
    assign n_b = (b[31:5] != '0) ? 6'd32 : {1'b0, b[4:0]};
    assign n_c = (!shf_wrap && c[31:5] != '0) ? 6'd32 : {1'b0, c[4:0]};
    assign bf  = (sh_op == ShBfi) ? c[15:0] : b[15:0];
    assign pos_c = (bf[7:5] != '0) ? 6'd32 : {1'b0, bf[4:0]};
    assign len_c = (bf[15:13] != '0) ? 6'd32 : {1'b0, bf[12:8]};

    // x slot: sh_out = ({sh_hi, sh_lo} >> sh_amt)[31:0], sh_amt in 0..32.
    //   SHL: {a, 0} >> 32 - n   SHR: {fill, a} >> n   SHF.R: {b, a} >> n   SHF.L: {b, a} >> 32 - n
    //   BFE: {0, a} >> pos      BFI: {a, 0} >> 32 - pos                    others: {0, a} >> 0
    always_comb begin
      logic [5:0] n;
      n      = ({6{amt_b}} & n_b) | ({6{amt_c}} & n_c) | ({6{amt_pos}} & pos_c);
      sh_amt = amt_neg ? 6'd32 - n : n;
      sh_hi  = ({32{hi_a}} & a) | ({32{hi_b}} & b) | {32{hi_fill & a[31]}};
      sh_lo  = {32{lo_a}} & a;
    end
    // The funnel shifter as three explicit multiplexer layers (by 8s, by 2s, by 1), each one LUT
    // per bit; amount 32 selects sh_hi. (A 64-bit `>>` maps to about four times the LUTs.)
    logic [38:0] sh_w1;
    logic [32:0] sh_w2;
    assign sh_win = {sh_hi, sh_lo};
    always_comb begin
      for (int unsigned i = 0; i < 39; i++) begin
        unique case (sh_amt[4:3])
          2'd0:    sh_w1[i] = sh_win[i];
          2'd1:    sh_w1[i] = sh_win[i + 8];
          2'd2:    sh_w1[i] = sh_win[i + 16];
          default: sh_w1[i] = sh_win[i + 24];
        endcase
      end
      for (int unsigned i = 0; i < 33; i++) begin
        unique case (sh_amt[2:1])
          2'd0:    sh_w2[i] = sh_w1[i];
          2'd1:    sh_w2[i] = sh_w1[i + 2];
          2'd2:    sh_w2[i] = sh_w1[i + 4];
          default: sh_w2[i] = sh_w1[i + 6];
        endcase
      end
      for (int unsigned i = 0; i < 32; i++) begin
        sh_out[i] = sh_amt[5] ? sh_hi[i] : (sh_amt[0] ? sh_w2[i + 1] : sh_w2[i]);
      end
    end

    // Bit-field mask = bits m_lo <= i < m_hi. BFE: [0, min(len, 32 - pos)); BFI: [pos,
    // min(pos + len, 32)). BFE's sign bit a[min(pos + len - 1, 31)] (0 for .U32 or len = 0).
    always_comb begin
      logic [6:0] end_bfi;
      logic [5:0] room;
      logic [8:0] sidx;
      end_bfi = {1'b0, pos_c} + {1'b0, len_c};
      room    = 6'd32 - pos_c;
      if (sh_op == ShBfi) begin
        m_lo = pos_c;
        m_hi = (end_bfi > 7'd32) ? 6'd32 : end_bfi[5:0];
      end else begin
        m_lo = 6'd0;
        m_hi = (len_c < room) ? len_c : room;
      end
      for (int unsigned i = 0; i < 32; i++) begin
        mask[i] = (6'(i) < m_hi) && (6'(i) >= m_lo);
      end
      sidx = {1'b0, b[7:0]} + {1'b0, b[15:8]} - 9'd1;
      if (!bfe_signed || b[15:8] == 8'd0) begin
        sbit = 1'b0;
      end else if (sidx > 9'd31) begin
        sbit = a[31];
      end else begin
        sbit = a[sidx[4:0]];
      end
    end

    // PRMT: bytes of {b, a}; each result byte picks one (with sign replication in IDX mode).
    // The byte multiplexer is an AND-OR of a one-hot select: Yosys turns both a variable
    // part-select and a case statement here into a 64-bit shifter (four times the LUTs).
    function automatic logic [7:0] pick_byte(logic [31:0] lo, logic [31:0] hi, logic [2:0] sel);
      logic [7:0] oh;
      oh = 8'b1 << sel;
      pick_byte = ({8{oh[0]}} & lo[7:0])   | ({8{oh[1]}} & lo[15:8])  |
                  ({8{oh[2]}} & lo[23:16]) | ({8{oh[3]}} & lo[31:24]) |
                  ({8{oh[4]}} & hi[7:0])   | ({8{oh[5]}} & hi[15:8])  |
                  ({8{oh[6]}} & hi[23:16]) | ({8{oh[7]}} & hi[31:24]);
    endfunction

    always_comb begin
      logic [2:0] sel;
      logic       rep;
      logic [7:0] byte_v;
      prmt = 32'd0;
      for (int unsigned i = 0; i < 4; i++) begin
        rep = 1'b0;
        unique case (prmt_mode)
          wf_isa_pkg::PRMT_MODE_IDX: begin
            sel = c[4*i +: 3];
            rep = c[4*i + 3];
          end
          wf_isa_pkg::PRMT_MODE_F4E:  sel = 3'({1'b0, c[1:0]} + 3'(i));
          wf_isa_pkg::PRMT_MODE_B4E:  sel = 3'({1'b0, c[1:0]} - 3'(i));
          wf_isa_pkg::PRMT_MODE_RC8:  sel = {1'b0, c[1:0]};
          wf_isa_pkg::PRMT_MODE_ECL:  sel = (2'(i) > c[1:0]) ? 3'(i) : {1'b0, c[1:0]};
          wf_isa_pkg::PRMT_MODE_ECR:  sel = (2'(i) < c[1:0]) ? 3'(i) : {1'b0, c[1:0]};
          wf_isa_pkg::PRMT_MODE_RC16: sel = {1'b0, c[0], 1'(i)};
          default:                    sel = 3'(i);
        endcase
        byte_v = pick_byte(a, b, sel);
        prmt[8*i +: 8] = rep ? {8{byte_v[7]}} : byte_v;
      end
    end

    // POPC as an adder tree over nibbles. (Flat vectors: Yosys cannot size multi-dimensional
    // arrays declared inside generate blocks.)
    logic [23:0] p4;    // 8 x 3 bits
    logic [15:0] p8;    // 4 x 4 bits
    logic [9:0]  p16;   // 2 x 5 bits
    always_comb begin
      for (int unsigned k = 0; k < 8; k++) begin
        p4[3*k +: 3] = 3'(a[4*k]) + 3'(a[4*k+1]) + 3'(a[4*k+2]) + 3'(a[4*k+3]);
      end
      for (int unsigned k = 0; k < 4; k++) begin
        p8[4*k +: 4] = 4'(p4[6*k +: 3]) + 4'(p4[6*k+3 +: 3]);
      end
      for (int unsigned k = 0; k < 2; k++) begin
        p16[5*k +: 5] = 5'(p8[8*k +: 4]) + 5'(p8[8*k+4 +: 4]);
      end
      popc = 6'(p16[4:0]) + 6'(p16[9:5]);
    end

    // CLZ (and BFIND on ~a for negative signed inputs) over nibbles: the first nonzero nibble
    // from the top, then the leading zeros inside it.
    logic [7:0]  nz;
    logic [15:0] lz4;   // 8 x 2 bits
    assign clz_src = (bfind_signed && a[31]) ? ~a : a;
    always_comb begin
      for (int unsigned k = 0; k < 8; k++) begin
        nz[k] = clz_src[4*k +: 4] != 4'd0;
        lz4[2*k +: 2] = clz_src[4*k+3] ? 2'd0 : clz_src[4*k+2] ? 2'd1 :
                        clz_src[4*k+1] ? 2'd2 : 2'd3;
      end
      clz = 6'd32;
      for (int k = 0; k < 8; k++) begin
        if (nz[k]) clz = {1'b0, 3'(7 - k), lz4[2*k +: 2]};
      end
    end

    for (genvar i = 0; i < 32; i++) begin : gen_brev
      assign brev[i] = a[31 - i];
    end

    always_comb begin
      logic [5:0] small_v;
      unique case (misc_op)
        MiscPopc:  small_v = popc;
        MiscClz:   small_v = clz;
        MiscBfind: small_v = {1'b0, bfind_shiftamt ? clz[4:0] : ~clz[4:0]};
        default:   small_v = {5'd0, pa};  // P2R
      endcase
      misc = ({32{m_prmt}} & prmt) | ({32{m_brev}} & brev) | {26'd0, {6{m_small}} & small_v};
    end

    // Stage-1 outputs.
    always_comb begin
      x_d[l] = sh_out;
      y_d[l] = sum[31:0];
      z_d[l] = ({32{z_c}} & c) | ({32{z_mask}} & mask) | ({32{z_misc}} & misc);

      unique case (lut_mode)
        LutSelPc:  lut_d[l] = pc ? LutX : LutY;
        LutMinMax: lut_d[l] = (lt ^ minmax_max) ? LutX : LutY;
        LutBfind:  lut_d[l] = clz[5] ? LutOnes : LutZ;
        LutBfe:    lut_d[l] = sbit ? LutZx1 : LutZx0;
        default:   lut_d[l] = lut_fixed;
      endcase

      unique case (pred_src)
        PredCmp:   p1_d[l] = cmp_res;
        PredPlop:  p1_d[l] = plop_lut[{pa, pb, pc}];
        PredCarry: p1_d[l] = sum[32];
        default:   p1_d[l] = 1'b0;
      endcase
      pc_d[l] = pc;
    end

    logic unused_bits;
    assign unused_bits = ^{cmp_diff[64:33], cmp_diff[30:0], sh_win[63]};
  end

  //////////////////////////
  // Stage-1 registers    //
  //////////////////////////

  logic                   valid1_q;
  logic [Lanes-1:0][31:0] x_q, y_q, z_q;
  logic [Lanes-1:0][7:0]  lut_q;
  logic [Lanes-1:0]       p1_q, pc_q;
  logic [1:0]             bop_q;
  logic                   bop_en_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid1_q <= 1'b0;
    end else begin
      valid1_q <= valid_i;
    end
  end

  always_ff @(posedge clk_i) begin
    x_q      <= x_d;
    y_q      <= y_d;
    z_q      <= z_d;
    lut_q    <= lut_d;
    p1_q     <= p1_d;
    pc_q     <= pc_d;
    bop_q    <= bop;
    bop_en_q <= bop_en;
  end

  ////////////////////////
  // Stage 2: LOP3      //
  ////////////////////////

  logic [Lanes-1:0][31:0] res_d;
  logic [Lanes-1:0]       pred_d;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane2
    for (genvar i = 0; i < 32; i++) begin : gen_bit
      assign res_d[l][i] = lut_q[l][{x_q[l][i], y_q[l][i], z_q[l][i]}];
    end
    always_comb begin
      pred_d[l] = p1_q[l];
      if (bop_en_q) begin
        unique case (bop_q)
          wf_isa_pkg::BOOL_OP_AND: pred_d[l] = p1_q[l] & pc_q[l];
          wf_isa_pkg::BOOL_OP_OR:  pred_d[l] = p1_q[l] | pc_q[l];
          wf_isa_pkg::BOOL_OP_XOR: pred_d[l] = p1_q[l] ^ pc_q[l];
          default:     pred_d[l] = p1_q[l];
        endcase
      end
    end
  end

  wf_delay #(
    .Width  (Lanes * 33),
    .Stages (Latency - 1)
  ) u_out (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (valid1_q),
    .data_i  ({res_d, pred_d}),
    .valid_o (valid_o),
    .data_o  ({res_o, pred_o})
  );

endmodule
