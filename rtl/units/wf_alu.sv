// Integer ALU: add/sub with carry, min/max, abs, shifts, funnel shift, LOP3, ISETP (32 and 64 bit),
// SEL, PLOP3, P2R and moves, for `Lanes` lanes, at full rate. Bit counting, bit fields and byte
// permute (POPC, CLZ, BFIND, BREV, BFE, BFI, PRMT) are the BMU's (`wf_bmu`).
//
// Pipeline (fixed latency, valid-in/valid-out, no back-pressure): op_latency(OP_IADD) register
// stages from the inputs to the outputs (the ISA table's ALU latency).
//   stage 1: decode; one adder, a + (b or 0, inverted or not) + cin: IADD's sum, the a - b that
//            ISETP and IMNMX compare with (its carry chain continues into the high words for
//            ISETP .S64/.U64), a - 1 for IABS, and ra itself for LOP3 (the y slot); the comparison
//            and the predicate; the funnel shifter's 64-bit window and amount; z = rb or rc; an
//            8-bit truth table per lane;
//   stage 2: the 64->32 funnel shifter (SHL/SHR/SHF; it passes ra at amount 0 and the window's
//            high word, rb or the P2R bit, at amount 32: the x slot), then one LOP3 per bit,
//            res = lut[{x, y, z}], which is also the result multiplexer (x alone: F0, y alone:
//            CC, z alone: AA; SEL/IMNMX pick x or z per lane, IABS x or ~y).
// The shifter sits after the register so that its select logic (decode, clamp, 32 - n) is not
// on the same path as its multiplexers: in one stage the mapper folds the two into wide LUTs
// at about three times the area. LOP3 reads rb through x and ra through y, so its truth table
// enters with those two inputs swapped. Further stages, if the ISA table asks for more latency,
// delay the result.
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

  // Shift amount sources.
  typedef enum logic [2:0] {
    AmtZero,     // x = a
    AmtHigh,     // x = the high word (rb, or the P2R bit)
    AmtShl,      // 32 - min(rb, 32) over {a, 0}
    AmtShr,      // min(rb, 32) over {fill, a}
    AmtShfR,     // n over {b, a}, n = min(rc, 32) or rc mod 32
    AmtShfL      // 32 - n over {b, a}
  } amt_e;

  // Per-lane choice between two truth tables.
  typedef enum logic [1:0] {
    LutFixed,    // lut_fixed
    LutSelPc,    // SEL: pc ? x : z
    LutMinMax,   // IMNMX: x or z from the comparison
    LutAbs       // IABS: a < 0 ? ~y (a - 1 inverted) : x
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
  localparam logic [7:0] LutNotY   = 8'h33;
  localparam logic [7:0] LutZeros  = 8'h00;
  localparam logic [7:0] LutXAndZ  = 8'hA0;
  localparam logic [7:0] LutXOrZ   = 8'hFA;
  localparam logic [7:0] LutXXorZ  = 8'h5A;

  logic [7:0] op;          // wf_isa_pkg::opcode_e (Yosys cannot cast to a package enum)
  amt_e       amt_src;
  logic       hi_b;          // shifter high word: rb
  logic       hi_a;          // ra (SHL)
  logic       hi_fill;       // ra's sign (SHR .S32)
  logic       hi_p2r;        // the P2R bit in bit 0
  logic       lo_a;          // shifter low word: ra (else 0)
  logic       shf_wrap;
  logic       add_use_b;     // adder: b operand is rb (else 0)
  logic       add_inv_b;     // adder: b operand inverted
  logic       add_cin_one;   // adder: carry in = 1
  logic       add_cin_pc;    // adder: carry in = pc (IADD .X)
  logic       z_b;           // z = rb (else rc)
  lut_mode_e  lut_mode;
  logic [7:0] lut_fixed;
  pred_src_e  pred_src;
  logic       cmp_signed;
  logic       cmp_wide;      // 64-bit compare (ISETP .S64/.U64)
  logic [2:0] cmp_op;        // wf_isa_pkg::icmp_e
  logic [1:0] bop;           // wf_isa_pkg::boolop_e
  logic       bop_en;
  logic       minmax_max;
  logic [7:0] lop3_lut;
  logic [7:0] plop_lut;
  logic       neg_pa;
  logic       neg_pb;
  logic       neg_pc;

  assign op       = inst_i[wf_isa_pkg::FmtROpLo +: wf_isa_pkg::FmtROpWidth];
  assign lop3_lut = inst_i[wf_isa_pkg::Lop3LutLo +: wf_isa_pkg::Lop3LutWidth];
  assign plop_lut = inst_i[wf_isa_pkg::Plop3LutLo +: wf_isa_pkg::Plop3LutWidth];

  always_comb begin
    amt_src     = AmtZero;
    hi_b        = 1'b0;
    hi_a        = 1'b0;
    hi_fill     = 1'b0;
    hi_p2r      = 1'b0;
    lo_a        = 1'b1;
    shf_wrap    = 1'b0;
    add_use_b   = 1'b0;
    add_inv_b   = 1'b0;
    add_cin_one = 1'b0;
    add_cin_pc  = 1'b0;
    z_b         = 1'b0;
    lut_mode    = LutFixed;
    lut_fixed   = LutZeros;
    pred_src    = PredNone;
    cmp_signed  = 1'b1;
    cmp_wide    = 1'b0;
    cmp_op      = wf_isa_pkg::I_CMP_EQ;
    bop         = wf_isa_pkg::BOOL_OP_AND;
    bop_en      = 1'b0;
    minmax_max  = 1'b0;
    neg_pa      = 1'b0;
    neg_pb      = 1'b0;
    neg_pc      = 1'b0;

    unique case (op)
      wf_isa_pkg::OP_MOV, wf_isa_pkg::OP_S2R: begin
        lut_fixed = LutX;
      end
      wf_isa_pkg::OP_MOV32I, wf_isa_pkg::OP_LEAPC: begin
        z_b       = 1'b1;
        lut_fixed = LutZ;
      end
      wf_isa_pkg::OP_SEL: begin
        z_b      = 1'b1;
        lut_mode = LutSelPc;
        neg_pc   = inst_i[wf_isa_pkg::SelPcLo + wf_isa_pkg::SelPcWidth - 1];
      end
      wf_isa_pkg::OP_IADD: begin
        add_use_b   = 1'b1;
        add_inv_b   = inst_i[wf_isa_pkg::IaddInvbLo];
        add_cin_one = inst_i[wf_isa_pkg::IaddInvbLo] & ~inst_i[wf_isa_pkg::IaddXLo];
        add_cin_pc  = inst_i[wf_isa_pkg::IaddXLo];
        lut_fixed   = LutY;
        pred_src    = PredCarry;
        neg_pc      = inst_i[wf_isa_pkg::IaddPciLo + wf_isa_pkg::IaddPciWidth - 1];
      end
      wf_isa_pkg::OP_IADD_I: begin
        add_use_b = 1'b1;
        lut_fixed = LutY;
      end
      wf_isa_pkg::OP_IMNMX: begin
        add_use_b   = 1'b1;
        add_inv_b   = 1'b1;
        add_cin_one = 1'b1;
        z_b         = 1'b1;
        lut_mode    = LutMinMax;
        minmax_max  = inst_i[wf_isa_pkg::ImnmxFnLo +: wf_isa_pkg::ImnmxFnWidth] ==
                      wf_isa_pkg::MIN_MAX_MAX;
        cmp_signed  = inst_i[wf_isa_pkg::ImnmxTyLo +: wf_isa_pkg::ImnmxTyWidth] ==
                      wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_IMNMX_I: begin
        add_use_b   = 1'b1;
        add_inv_b   = 1'b1;
        add_cin_one = 1'b1;
        z_b         = 1'b1;
        lut_mode    = LutMinMax;
        minmax_max  = inst_i[wf_isa_pkg::ImnmxIFnLo +: wf_isa_pkg::ImnmxIFnWidth] ==
                      wf_isa_pkg::MIN_MAX_MAX;
        cmp_signed  = inst_i[wf_isa_pkg::ImnmxITyLo +: wf_isa_pkg::ImnmxITyWidth] ==
                      wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_IABS: begin
        add_inv_b = 1'b1;          // a + ~0 = a - 1; -a = ~(a - 1)
        lut_mode  = LutAbs;
      end
      wf_isa_pkg::OP_SHL, wf_isa_pkg::OP_SHL_I: begin
        amt_src   = AmtShl;
        hi_a      = 1'b1;
        lo_a      = 1'b0;
        lut_fixed = LutX;
      end
      wf_isa_pkg::OP_SHR: begin
        amt_src   = AmtShr;
        hi_fill   = inst_i[wf_isa_pkg::ShrTyLo +: wf_isa_pkg::ShrTyWidth] ==
                    wf_isa_pkg::I_TY32_S32;
        lut_fixed = LutX;
      end
      wf_isa_pkg::OP_SHR_I: begin
        amt_src   = AmtShr;
        hi_fill   = inst_i[wf_isa_pkg::ShrITyLo +: wf_isa_pkg::ShrITyWidth] ==
                    wf_isa_pkg::I_TY32_S32;
        lut_fixed = LutX;
      end
      wf_isa_pkg::OP_SHF: begin
        amt_src   = (inst_i[wf_isa_pkg::ShfDirLo +: wf_isa_pkg::ShfDirWidth] ==
                     wf_isa_pkg::SHF_DIR_R) ? AmtShfR : AmtShfL;
        hi_b      = 1'b1;
        shf_wrap  = inst_i[wf_isa_pkg::ShfModeLo +: wf_isa_pkg::ShfModeWidth] ==
                    wf_isa_pkg::SHF_MODE_WRAP;
        lut_fixed = LutX;
      end
      wf_isa_pkg::OP_LOP3: begin
        // x = rb (the shifter's high word), y = ra (the adder adds 0), z = rc.
        amt_src   = AmtHigh;
        hi_b      = 1'b1;
        lut_fixed = {lop3_lut[7], lop3_lut[6], lop3_lut[3], lop3_lut[2],
                     lop3_lut[5], lop3_lut[4], lop3_lut[1], lop3_lut[0]};
      end
      wf_isa_pkg::OP_LOP_I: begin
        z_b = 1'b1;
        unique case (inst_i[wf_isa_pkg::LopIFnLo +: wf_isa_pkg::LopIFnWidth])
          wf_isa_pkg::LOGIC_OP_AND: lut_fixed = LutXAndZ;
          wf_isa_pkg::LOGIC_OP_OR:  lut_fixed = LutXOrZ;
          wf_isa_pkg::LOGIC_OP_XOR: lut_fixed = LutXXorZ;
          default:                  lut_fixed = LutZeros;
        endcase
      end
      wf_isa_pkg::OP_ISETP: begin
        add_use_b   = 1'b1;
        add_inv_b   = 1'b1;
        add_cin_one = 1'b1;
        pred_src    = PredCmp;
        cmp_op      = inst_i[wf_isa_pkg::IsetpCmpLo +: wf_isa_pkg::IsetpCmpWidth];
        cmp_signed  = (inst_i[wf_isa_pkg::IsetpTyLo +: wf_isa_pkg::IsetpTyWidth] ==
                       wf_isa_pkg::I_TY_S32) ||
                      (inst_i[wf_isa_pkg::IsetpTyLo +: wf_isa_pkg::IsetpTyWidth] ==
                       wf_isa_pkg::I_TY_S64);
        cmp_wide    = (inst_i[wf_isa_pkg::IsetpTyLo +: wf_isa_pkg::IsetpTyWidth] ==
                       wf_isa_pkg::I_TY_S64) ||
                      (inst_i[wf_isa_pkg::IsetpTyLo +: wf_isa_pkg::IsetpTyWidth] ==
                       wf_isa_pkg::I_TY_U64);
        bop         = inst_i[wf_isa_pkg::IsetpBopLo +: wf_isa_pkg::IsetpBopWidth];
        bop_en      = 1'b1;
        neg_pc      = inst_i[wf_isa_pkg::IsetpPcLo + wf_isa_pkg::IsetpPcWidth - 1];
      end
      wf_isa_pkg::OP_ISETP_I: begin
        add_use_b   = 1'b1;
        add_inv_b   = 1'b1;
        add_cin_one = 1'b1;
        pred_src    = PredCmp;
        cmp_op      = inst_i[wf_isa_pkg::IsetpICmpLo +: wf_isa_pkg::IsetpICmpWidth];
        cmp_signed  = inst_i[wf_isa_pkg::IsetpITyLo +: wf_isa_pkg::IsetpITyWidth] ==
                      wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_PLOP3: begin
        pred_src = PredPlop;
        neg_pa   = inst_i[wf_isa_pkg::Plop3PaLo + wf_isa_pkg::Plop3PaWidth - 1];
        neg_pb   = inst_i[wf_isa_pkg::Plop3PbLo + wf_isa_pkg::Plop3PbWidth - 1];
        neg_pc   = inst_i[wf_isa_pkg::Plop3PcLo + wf_isa_pkg::Plop3PcWidth - 1];
      end
      wf_isa_pkg::OP_P2R: begin
        amt_src   = AmtHigh;
        hi_p2r    = 1'b1;
        lut_fixed = LutX;
        neg_pa    = inst_i[wf_isa_pkg::P2rPaLo + wf_isa_pkg::P2rPaWidth - 1];
      end
      default: begin
        // NOP, CVTA, ISSPACEP and opcodes of other units: zero result.
        lut_fixed = LutZeros;
      end
    endcase
  end

  // Which amount: the one-hot form keeps the per-lane selects one LUT deep.
  logic amt_b, amt_c, amt_neg, amt_32;
  assign amt_b   = (amt_src == AmtShl) || (amt_src == AmtShr);
  assign amt_c   = (amt_src == AmtShfR) || (amt_src == AmtShfL);
  assign amt_neg = (amt_src == AmtShl) || (amt_src == AmtShfL);
  assign amt_32  = amt_src == AmtHigh;

  // The per-lane truth table is one of two shared ones, chosen by a per-lane condition.
  logic [7:0] lut_true, lut_false;
  always_comb begin
    unique case (lut_mode)
      LutSelPc:  begin lut_true = LutX;    lut_false = LutZ; end
      LutMinMax: begin
        lut_true  = minmax_max ? LutZ : LutX;   // a < b: min is a (x), max is b (z)
        lut_false = minmax_max ? LutX : LutZ;
      end
      LutAbs:    begin lut_true = LutNotY; lut_false = LutX; end
      default:   begin lut_true = lut_fixed; lut_false = lut_fixed; end
    endcase
  end

  ////////////////////////
  // Per-lane stage 1   //
  ////////////////////////

  logic [Lanes-1:0][31:0] hi_d, lo_d, y_d, z_d;
  logic [Lanes-1:0][5:0]  amt_d;
  logic [Lanes-1:0][7:0]  lut_d;
  logic [Lanes-1:0]       p1_d;   // stage-1 predicate: comparison, PLOP3 or carry
  logic [Lanes-1:0]       pc_d;   // negated pc for the ISETP boolean op

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    logic [31:0] a, b, c, a_hi, b_hi;
    logic        pa, pb, pc;
    // adder and comparator
    logic [31:0] add_b;
    logic        add_cin;
    logic [32:0] sum;
    logic [32:0] diff_hi;
    logic        lt, eq, cmp_res, lane_cond;
    // funnel shifter window and amount
    logic [31:0] sh_hi, sh_lo;
    logic [5:0]  sh_amt;

    assign a    = a_i[l];
    assign b    = b_i[l];
    assign c    = c_i[l];
    assign a_hi = a_hi_i[l];
    assign b_hi = b_hi_i[l];
    assign pa   = pa_i[l] ^ neg_pa;
    assign pb   = pb_i[l] ^ neg_pb;
    assign pc   = pc_i[l] ^ neg_pc;

    // y slot: a + add_b + cin. For the comparisons it is a - b, and its carry continues into
    // a_hi - b_hi, so one borrow serves 32- and 64-bit compares.
    assign add_b   = ({32{add_use_b}} & b) ^ {32{add_inv_b}};
    assign add_cin = add_cin_pc ? pc : add_cin_one;
    assign sum     = {1'b0, a} + {1'b0, add_b} + {32'd0, add_cin};
    assign diff_hi = {1'b0, a_hi} + {1'b0, ~b_hi} + {32'd0, sum[32]};

    // a - b = 0 exactly when a = b; then the low carry is 1 and diff_hi is a_hi - b_hi.
    always_comb begin
      logic eq_lo, lt_lo;
      eq_lo = sum[31:0] == 32'd0;
      // Signed: the signs decide when they differ; else the difference's sign (no overflow).
      lt_lo = cmp_signed ? ((a[31] ^ b[31]) ? a[31] : sum[31]) : ~sum[32];
      if (cmp_wide) begin
        lt = (cmp_signed && (a_hi[31] ^ b_hi[31])) ? a_hi[31] : ~diff_hi[32];
        eq = eq_lo && (diff_hi[31:0] == 32'd0);
      end else begin
        lt = lt_lo;
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

    // The shifter's window and amount (stage 2 shifts): ({sh_hi, sh_lo} >> sh_amt)[31:0], 0..32.
    //   SHL: {a, 0} >> 32 - n   SHR: {fill, a} >> n   SHF.R: {b, a} >> n   SHF.L: {b, a} >> 32 - n
    //   LOP3: {b, a} >> 32      P2R: {pa, a} >> 32    others: {-, a} >> 0
    always_comb begin
      logic [5:0] n_b, n_c, n;
      n_b    = (b[31:5] != '0) ? 6'd32 : {1'b0, b[4:0]};
      n_c    = (!shf_wrap && c[31:5] != '0) ? 6'd32 : {1'b0, c[4:0]};
      n      = ({6{amt_b}} & n_b) | ({6{amt_c}} & n_c);
      sh_amt = amt_32 ? 6'd32 : amt_neg ? 6'd32 - n : n;
      sh_hi  = ({32{hi_a}} & a) | ({32{hi_b}} & b) | {32{hi_fill & a[31]}} |
               {31'd0, hi_p2r & pa};
      sh_lo  = {32{lo_a}} & a;
    end
    // Stage-1 outputs.
    always_comb begin
      hi_d[l] = sh_hi;
      lo_d[l] = sh_lo;
      amt_d[l] = sh_amt;
      y_d[l] = sum[31:0];
      z_d[l] = z_b ? b : c;

      unique case (lut_mode)
        LutSelPc:  lane_cond = pc;
        LutMinMax: lane_cond = lt;
        LutAbs:    lane_cond = a[31];
        default:   lane_cond = 1'b0;
      endcase
      lut_d[l] = lane_cond ? lut_true : lut_false;

      unique case (pred_src)
        PredCmp:   p1_d[l] = cmp_res;
        PredPlop:  p1_d[l] = plop_lut[{pa, pb, pc}];
        PredCarry: p1_d[l] = sum[32];
        default:   p1_d[l] = 1'b0;
      endcase
      pc_d[l] = pc;
    end
  end

  //////////////////////////
  // Stage-1 registers    //
  //////////////////////////

  logic                   valid1_q;
  logic [Lanes-1:0][31:0] hi_q, lo_q, y_q, z_q;
  logic [Lanes-1:0][5:0]  amt_q;
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
    hi_q     <= hi_d;
    lo_q     <= lo_d;
    amt_q    <= amt_d;
    y_q      <= y_d;
    z_q      <= z_d;
    lut_q    <= lut_d;
    p1_q     <= p1_d;
    pc_q     <= pc_d;
    bop_q    <= bop;
    bop_en_q <= bop_en;
  end

  ///////////////////////////////
  // Stage 2: shifter and LOP3 //
  ///////////////////////////////

  logic [Lanes-1:0][31:0] res_d;
  logic [Lanes-1:0]       pred_d;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane2
    logic [31:0] sh_out;   // the x slot
    wf_funnel_shr u_shift (
      .win_i ({hi_q[l], lo_q[l]}),
      .amt_i (amt_q[l]),
      .out_o (sh_out)
    );
    for (genvar i = 0; i < 32; i++) begin : gen_bit
      assign res_d[l][i] = lut_q[l][{sh_out[i], y_q[l][i], z_q[l][i]}];
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
