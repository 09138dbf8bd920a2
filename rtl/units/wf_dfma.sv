// FP64 unit: DADD, DMUL, DFMA (all four rounding modes, operand negate/abs), DMNMX and DSETP, for
// `Lanes` lanes. Fixed latency op_latency(OP_DFMA), valid-in/valid-out. Bit-exact with hls
// fadd64, fmul64, ffma64, fmin64/fmax64 and fcmp64: canonical NaN 0x7fffffffffffffff, subnormal
// inputs and results exact (FP64 has no FTZ in PTX).
//
// Iterative = 0: fully pipelined, one operation per cycle, ready_o always high.
// Iterative = 1: the 53 x 53 product is made in three passes over two 26x17 DSP tiles (one
// 17-bit slice of mb a pass, accumulated as the DSP48E2's P + A*B), so a lane needs 2 DSPs
// instead of 6. An operation accepted in cycle t (valid_i && ready_o) holds the unit for three
// cycles: ready_o is low in t+1 and t+2. The latency is the same; the issue rate is a third.
//
// The structure is wf_fma's, widened to 53-bit significands (P = 53), with the 53 x 53 product
// split into DSP-sized tiles and the long stages cut in two:
//   DADD is a * 1.0 + b; DMUL is a * b + z with z the zero of the product's sign; one datapath.
//   stage 1  operand modifiers, unpack, special results, exponent arithmetic; DMNMX / DSETP
//   stage 2  partial products (six 26x17 tiles, one DSP48E2 each, plus the rows of the hidden
//            bits in fabric); addend aligned into the 164-bit window (see below)
//   stage 3  the two 77-bit rows of tiles summed
//   stage 4  the 106-bit product
//   stage 5  add or subtract the aligned addend (both differences, pick the non-negative)
//   stage 6  leading and trailing zeros, normalizing shift limited to the subnormal range
//   stage 7  normalize: significand, guard and sticky; exponent field
//   stage 8  round and pack, overflow, exact-zero sign, result select
// Window (3P+5 = 164 bits): bit 0 is the sticky, bits [2:1] guard room below the product (a
// subnormal factor leaves the product unnormalized), the product at [108:3], the addend's lsb at
// bit 111 - sh, sh = clamp(P + 3 + ea + eb - ec - bias, 0, 164) (biased exponents, subnormals 1).
// Bit i of the window weighs 2^(lw + i - 3), lw = ea + eb - 2*bias - 104, or ec - bias - 160 when
// the addend dominates (sh clamped at 0) or the product is zero.
module wf_dfma #(
  parameter int unsigned Lanes     = 1,
  parameter bit          Iterative = 1'b0
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,

  input  logic                            valid_i,
  output logic                            ready_o,
  input  logic [wf_isa_pkg::InstBits-1:0] inst_i,
  input  logic [Lanes-1:0][31:0]          a_i,      // ra (low word of the pair)
  input  logic [Lanes-1:0][31:0]          a_hi_i,   // ra+1
  input  logic [Lanes-1:0][31:0]          b_i,      // rb
  input  logic [Lanes-1:0][31:0]          b_hi_i,
  input  logic [Lanes-1:0][31:0]          c_i,      // rc (DFMA)
  input  logic [Lanes-1:0][31:0]          c_hi_i,
  input  logic [Lanes-1:0]                pc_i,     // DSETP: predicate pc as read (PT = 1)

  output logic                            valid_o,
  output logic [Lanes-1:0][31:0]          res_o,    // low word of the result pair
  output logic [Lanes-1:0][31:0]          res_hi_o,
  output logic [Lanes-1:0]                pred_o    // DSETP
);

  localparam int unsigned Latency = wf_isa_pkg::op_latency(wf_isa_pkg::OP_DFMA);
  localparam int unsigned CoreStages = 8;

  if (Latency < CoreStages) begin : gen_latency_check
    $error("wf_dfma: ISA latency %0d is shorter than the unit's %0d stages", Latency, CoreStages);
  end

  localparam logic [63:0] F64One = 64'h3ff0_0000_0000_0000;
  localparam logic [63:0] F64Nan = 64'h7fff_ffff_ffff_ffff;
  localparam int unsigned P    = 53;
  localparam int unsigned WinW = 3 * P + 5;   // 164: alignment window (bit 0: sticky)
  localparam int unsigned ZW   = WinW + P + 2; // 219: normalization register
  localparam int unsigned CntW = 8;            // counts and shifts over the window

  // Result kinds of stage 8.
  typedef enum logic [1:0] {
    KindArith,   // the rounded datapath result (or a special value)
    KindMinMax,  // DMNMX (carried as a special value)
    KindSetp     // DSETP (predicate in bit 0 of the special value)
  } kind_e;

  //////////////
  // Decode   //
  //////////////

  logic [7:0] op;
  kind_e      kind;
  logic       b_one;     // DADD: b := 1.0, c := b
  logic       c_pzero;   // DMUL: c := zero with the product's sign
  logic       neg_a, neg_b, neg_c, abs_a, abs_b;
  logic [1:0] rnd;       // wf_isa_pkg::rnd_e
  logic       mn_max, mn_nan;
  logic [3:0] fcmp;      // wf_isa_pkg::fcmp_e
  logic [1:0] bop;       // wf_isa_pkg::boolop_e
  logic       neg_pc;

  assign op = inst_i[wf_isa_pkg::FmtROpLo +: wf_isa_pkg::FmtROpWidth];

  always_comb begin
    kind    = KindArith;
    b_one   = 1'b0;
    c_pzero = 1'b0;
    neg_a   = 1'b0;
    neg_b   = 1'b0;
    neg_c   = 1'b0;
    abs_a   = 1'b0;
    abs_b   = 1'b0;
    rnd     = wf_isa_pkg::RND_RN;
    mn_max  = 1'b0;
    mn_nan  = 1'b0;
    fcmp    = wf_isa_pkg::F_CMP_EQ;
    bop     = wf_isa_pkg::BOOL_OP_AND;
    neg_pc  = 1'b0;
    unique case (op)
      wf_isa_pkg::OP_DADD: begin
        b_one = 1'b1;
        rnd   = inst_i[wf_isa_pkg::DaddRndLo +: wf_isa_pkg::DaddRndWidth];
        neg_a = inst_i[wf_isa_pkg::DaddNegaLo];
        neg_b = inst_i[wf_isa_pkg::DaddNegbLo];
        abs_a = inst_i[wf_isa_pkg::DaddAbsaLo];
        abs_b = inst_i[wf_isa_pkg::DaddAbsbLo];
      end
      wf_isa_pkg::OP_DMUL: begin
        c_pzero = 1'b1;
        rnd     = inst_i[wf_isa_pkg::DmulRndLo +: wf_isa_pkg::DmulRndWidth];
        neg_a   = inst_i[wf_isa_pkg::DmulNegaLo];
        neg_b   = inst_i[wf_isa_pkg::DmulNegbLo];
        abs_a   = inst_i[wf_isa_pkg::DmulAbsaLo];
        abs_b   = inst_i[wf_isa_pkg::DmulAbsbLo];
      end
      wf_isa_pkg::OP_DFMA: begin
        rnd   = inst_i[wf_isa_pkg::DfmaRndLo +: wf_isa_pkg::DfmaRndWidth];
        neg_a = inst_i[wf_isa_pkg::DfmaNegaLo];
        neg_b = inst_i[wf_isa_pkg::DfmaNegbLo];
        neg_c = inst_i[wf_isa_pkg::DfmaNegcLo];
      end
      wf_isa_pkg::OP_DMNMX: begin
        kind   = KindMinMax;
        mn_max = inst_i[wf_isa_pkg::DmnmxFnLo +: wf_isa_pkg::DmnmxFnWidth] ==
                 wf_isa_pkg::MIN_MAX_MAX;
        mn_nan = inst_i[wf_isa_pkg::DmnmxNanLo];
      end
      wf_isa_pkg::OP_DSETP: begin
        kind   = KindSetp;
        fcmp   = inst_i[wf_isa_pkg::DsetpCmpLo +: wf_isa_pkg::DsetpCmpWidth];
        bop    = inst_i[wf_isa_pkg::DsetpBopLo +: wf_isa_pkg::DsetpBopWidth];
        neg_pc = inst_i[wf_isa_pkg::DsetpPcLo + wf_isa_pkg::DsetpPcWidth - 1];
      end
      default: ;
    endcase
  end

  ///////////////////////////////////
  // Control pipeline (shared)     //
  ///////////////////////////////////

  // Element s of a control vector: the value registered after stage s + 1.
  logic [CoreStages-2:0]      valid_q, valid_d;
  logic [CoreStages-2:0][1:0] rnd_q, kind_q;
  logic                       accept;
  logic                       s1_load;   // the stage-1 registers take a new operation
  logic [1:0]                 pass_q, pass_d;   // Iterative: cycles since the accept (0: idle)

  assign accept  = valid_i && ready_o;
  assign s1_load = !Iterative || accept;
  assign valid_d = {valid_q[CoreStages-3:0], accept};

  if (Iterative) begin : gen_ready_iter
    assign ready_o = pass_q == 2'd0;
    always_comb begin
      unique case (pass_q)
        2'd0:    pass_d = accept ? 2'd1 : 2'd0;
        2'd1:    pass_d = 2'd2;
        default: pass_d = 2'd0;
      endcase
    end
  end else begin : gen_ready_pipe
    logic unused_pass;
    assign ready_o     = 1'b1;
    assign pass_d      = 2'd0;
    assign unused_pass = ^pass_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      pass_q  <= '0;
    end else begin
      valid_q <= valid_d;
      pass_q  <= pass_d;
    end
  end

  always_ff @(posedge clk_i) begin
    if (s1_load) begin
      rnd_q[0]  <= rnd;
      kind_q[0] <= kind;
    end
    rnd_q[CoreStages-2:1]  <= rnd_q[CoreStages-3:0];
    kind_q[CoreStages-2:1] <= kind_q[CoreStages-3:0];
  end

  logic [Lanes-1:0][63:0] res_d;
  logic [Lanes-1:0]       pred_d;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane

    ///////////////
    // Stage 1   //
    ///////////////

    logic [63:0] a1, b1, c1;             // after negate/abs
    logic [63:0] xa, xb, xc;             // multiplier operands and addend
    logic        za, zb, zc;             // zero
    logic        ia, ib, ic;             // infinity
    logic        na, nb, nc;             // NaN
    logic [52:0] ma, mb, mc;             // significands
    logic [10:0] ea, eb, ec;             // biased exponents, subnormals at 1
    logic        sp, eff_sub;
    logic        prod_zero;
    logic        special;                // the result is not the datapath's
    logic [63:0] special_val;
    logic [11:0] sum_ab;                 // ea + eb
    logic signed [13:0] sh_raw;
    logic [CntW-1:0] sh;                 // addend right shift, 0..164
    logic        frame_c;                // the window is anchored at the addend
    logic [63:0] mm_res;
    logic        k_lt, k_eq, setp_res;

    function automatic logic [63:0] order_key(logic [63:0] x);
      order_key = x[63] ? ~x : {1'b1, x[62:0]};
    endfunction

    always_comb begin
      a1 = {a_hi_i[l], a_i[l]};
      b1 = {b_hi_i[l], b_i[l]};
      if (abs_a) a1[63] = 1'b0;
      if (abs_b) b1[63] = 1'b0;
      a1[63] = a1[63] ^ neg_a;
      b1[63] = b1[63] ^ neg_b;
      c1 = {c_hi_i[l][31] ^ neg_c, c_hi_i[l][30:0], c_i[l]};
      xa = a1;
      if (b_one) begin
        xb = F64One;
        xc = b1;
      end else begin
        xb = b1;
        xc = c_pzero ? {a1[63] ^ b1[63], 63'd0} : c1;
      end

      za = xa[62:0] == 63'd0;
      zb = xb[62:0] == 63'd0;
      zc = xc[62:0] == 63'd0;
      ia = xa[62:52] == 11'h7ff && xa[51:0] == 52'd0;
      ib = xb[62:52] == 11'h7ff && xb[51:0] == 52'd0;
      ic = xc[62:52] == 11'h7ff && xc[51:0] == 52'd0;
      na = xa[62:52] == 11'h7ff && xa[51:0] != 52'd0;
      nb = xb[62:52] == 11'h7ff && xb[51:0] != 52'd0;
      nc = xc[62:52] == 11'h7ff && xc[51:0] != 52'd0;
      ma = {xa[62:52] != 11'd0, xa[51:0]};
      mb = {xb[62:52] != 11'd0, xb[51:0]};
      mc = {xc[62:52] != 11'd0, xc[51:0]};
      ea = xa[62:52] | {10'd0, xa[62:52] == 11'd0};
      eb = xb[62:52] | {10'd0, xb[62:52] == 11'd0};
      ec = xc[62:52] | {10'd0, xc[62:52] == 11'd0};
      sp        = xa[63] ^ xb[63];
      eff_sub   = sp ^ xc[63];
      prod_zero = za | zb;

      // Special results (hls fpFma order): NaN, inf * 0, inf - inf, infinities, zero + zero.
      special     = 1'b1;
      special_val = F64Nan;
      if (na || nb || nc) begin
        special_val = F64Nan;
      end else if (ia || ib) begin
        if (za || zb || (ic && eff_sub)) special_val = F64Nan;
        else special_val = {sp, 11'h7ff, 52'd0};
      end else if (ic) begin
        special_val = {xc[63], 11'h7ff, 52'd0};
      end else if (prod_zero && zc) begin
        special_val = {eff_sub ? (rnd == wf_isa_pkg::RND_RM) : sp, 63'd0};
      end else begin
        special = 1'b0;
      end

      // Alignment: sh = 56 + (ea - 1023) + (eb - 1023) - (ec - 1023) = (ea + eb) - (ec + 967).
      sum_ab  = 12'(ea) + 12'(eb);
      sh_raw  = 14'(sum_ab) - (14'(ec) + 14'sd967);
      frame_c = prod_zero || (!zc && sh_raw <= 0);
      if (frame_c) begin
        sh = '0;
      end else if (zc || sh_raw >= 14'(WinW)) begin
        sh = CntW'(WinW);
      end else begin
        sh = sh_raw[CntW-1:0];
      end

      // DMNMX and DSETP (hls fpMin/fpMax/fpCompare) on the raw operands (they have no modifiers).
      k_lt = order_key(a1) < order_key(b1);
      k_eq = a1 == b1;
      if (na || nb) begin
        mm_res = (mn_nan || (na && nb)) ? F64Nan : (na ? b1 : a1);
      end else if (mn_max) begin
        mm_res = k_lt ? b1 : a1;
      end else begin
        mm_res = (!k_lt && !k_eq) ? b1 : a1;
      end
      begin
        logic unord, eq, lt, gt, cmp;
        unord = na | nb;
        eq    = !unord && (k_eq || (za && zb));
        lt    = !unord && !eq && k_lt;
        gt    = !unord && !eq && !lt;
        cmp   = wf_isa_pkg::fcmp_holds(fcmp, lt, eq, gt, unord);
        unique case (bop)
          wf_isa_pkg::BOOL_OP_AND: setp_res = cmp & (pc_i[l] ^ neg_pc);
          wf_isa_pkg::BOOL_OP_OR:  setp_res = cmp | (pc_i[l] ^ neg_pc);
          wf_isa_pkg::BOOL_OP_XOR: setp_res = cmp ^ (pc_i[l] ^ neg_pc);
          default:                 setp_res = 1'b0;
        endcase
      end
    end

    // Stage-1 registers. DMNMX and DSETP results travel as special values.
    logic [52:0]     ma_q, mb_q, mc_q;
    logic [CntW-1:0] sh_q;
    logic [11:0]     sum_ab_q;
    logic [10:0]     ec_q;
    logic            frame_c_q;
    logic            sp_q1, eff_sub_q1, special_q1;
    logic [63:0]     special_val_q1;

    // Iterative: held while the multiplier makes its three passes.
    always_ff @(posedge clk_i) begin
      if (s1_load) begin
        ma_q           <= ma;
        mb_q           <= mb;
        mc_q           <= mc;
        sh_q           <= sh;
        sum_ab_q       <= sum_ab;
        ec_q           <= ec;
        frame_c_q      <= frame_c;
        sp_q1          <= sp;
        eff_sub_q1     <= eff_sub;
        special_q1     <= special || (kind != KindArith);
        unique case (kind)
          KindMinMax: special_val_q1 <= mm_res;
          KindSetp:   special_val_q1 <= {63'd0, setp_res};
          default:    special_val_q1 <= special_val;
        endcase
      end
    end

    ///////////////
    // Stage 2   //
    ///////////////

    // ma = ah * 2^52 + a1 * 2^26 + a0, mb = bh * 2^51 + b2 * 2^34 + b1 * 2^17 + b0:
    // ma * mb = sum(ai * bj * 2^(26i + 17j)) + (ma[51:0] * bh) * 2^51 + ah * mb * 2^52.
    logic [105:0] pp_x;                  // the hidden-bit rows

    always_comb begin
      logic [53:0] bh_row;               // ma[51:0] * bh, bh = mb[52:51]
      bh_row = ({2'd0, ma_q[51:0] & {52{mb_q[51]}}}) + ({1'b0, ma_q[51:0] & {52{mb_q[52]}}, 1'b0});
      pp_x   = ({53'd0, mb_q & {53{ma_q[52]}}} << 52) + ({52'd0, bh_row} << 51);
    end

    // limit: the largest normalizing shift, the one that puts weight 2^-1022 at the top of the
    // 219-bit register: lw + 1237, i.e. ea + eb - 913 (product frame) or ec + 54 (addend frame).
    // The biased exponent field of the result, minus one, is limit - shift (stage 7).
    logic signed [13:0] limit;
    logic               lim_neg, limp_neg, limp_big;
    logic [CntW-1:0]    limp;            // limit - (P + 2), where 0..255

    always_comb begin
      logic signed [13:0] lp;
      limit    = frame_c_q ? 14'(ec_q) + 14'sd54 : 14'(sum_ab_q) - 14'sd913;
      lp       = frame_c_q ? 14'(ec_q) - 14'sd1 : 14'(sum_ab_q) - 14'sd968;
      lim_neg  = limit < 0;
      limp_neg = lp < 0;
      limp_big = lp > 14'sd255;
      limp     = lp[CntW-1:0];
    end

    logic [WinW-1:0] c_win;

    always_comb begin
      logic [WinW+P-1:0] full;   // the addend at [216:164] before shifting, with P bits below
      full     = {mc_q, (WinW)'(0)} >> sh_q;
      // Window bits [163:1] are the addend's, bit 0 is the sticky of everything below bit 1.
      c_win    = {full[WinW+P-1:P+1], full[P:0] != '0};
    end

    logic [WinW-1:0]    c_win_q2;
    logic signed [13:0] limit_q2;
    logic               lim_neg_q2, limp_neg_q2, limp_big_q2;
    logic [CntW-1:0]    limp_q2;
    logic               sp_q2, eff_sub_q2, special_q2;
    logic [63:0]        special_val_q2;

    always_ff @(posedge clk_i) begin
      c_win_q2       <= c_win;
      limit_q2       <= limit;
      lim_neg_q2     <= lim_neg;
      limp_neg_q2    <= limp_neg;
      limp_big_q2    <= limp_big;
      limp_q2        <= limp;
      sp_q2          <= sp_q1;
      eff_sub_q2     <= eff_sub_q1;
      special_q2     <= special_q1;
      special_val_q2 <= special_val_q1;
    end

    ///////////////
    // Stage 3   //
    ///////////////

    logic [WinW-1:0]    c_win_q3;
    logic signed [13:0] limit_q3;
    logic               lim_neg_q3, limp_neg_q3, limp_big_q3;
    logic [CntW-1:0]    limp_q3;
    logic               sp_q3, eff_sub_q3, special_q3;
    logic [63:0]        special_val_q3;

    always_ff @(posedge clk_i) begin
      c_win_q3       <= c_win_q2;
      limit_q3       <= limit_q2;
      lim_neg_q3     <= lim_neg_q2;
      limp_neg_q3    <= limp_neg_q2;
      limp_big_q3    <= limp_big_q2;
      limp_q3        <= limp_q2;
      sp_q3          <= sp_q2;
      eff_sub_q3     <= eff_sub_q2;
      special_q3     <= special_q2;
      special_val_q3 <= special_val_q2;
    end

    ///////////////
    // Stage 4   //
    ///////////////

    logic [105:0]       prod_q;          // the product, registered after stage 4
    logic [WinW-1:0]    c_win_q4;
    logic signed [13:0] limit_q4;
    logic               lim_neg_q4, limp_neg_q4, limp_big_q4;
    logic [CntW-1:0]    limp_q4;
    logic               sp_q4, eff_sub_q4, special_q4;
    logic [63:0]        special_val_q4;

    always_ff @(posedge clk_i) begin
      c_win_q4       <= c_win_q3;
      limit_q4       <= limit_q3;
      lim_neg_q4     <= lim_neg_q3;
      limp_neg_q4    <= limp_neg_q3;
      limp_big_q4    <= limp_big_q3;
      limp_q4        <= limp_q3;
      sp_q4          <= sp_q3;
      eff_sub_q4     <= eff_sub_q3;
      special_q4     <= special_q3;
      special_val_q4 <= special_val_q3;
    end

    ///////////////////////////
    // Multiplier (2 - 4)    //
    ///////////////////////////

    if (!Iterative) begin : gen_mul_pipe
      // Stage 2: six tiles; stage 3: the rows a0 * mb[50:0] and a1 * mb[50:0]; stage 4: the sum.
      logic [42:0]  pp_00, pp_01, pp_02, pp_10, pp_11, pp_12;
      logic [42:0]  pp_00_q, pp_01_q, pp_02_q, pp_10_q, pp_11_q, pp_12_q;
      logic [105:0] pp_x_q, pp_x_q3;
      logic [76:0]  row_0, row_1, row_0_q, row_1_q;

      assign pp_00 = ma_q[25:0] * mb_q[16:0];
      assign pp_01 = ma_q[25:0] * mb_q[33:17];
      assign pp_02 = ma_q[25:0] * mb_q[50:34];
      assign pp_10 = ma_q[51:26] * mb_q[16:0];
      assign pp_11 = ma_q[51:26] * mb_q[33:17];
      assign pp_12 = ma_q[51:26] * mb_q[50:34];

      assign row_0 = {34'd0, pp_00_q} + {17'd0, pp_01_q, 17'd0} + {pp_02_q, 34'd0};
      assign row_1 = {34'd0, pp_10_q} + {17'd0, pp_11_q, 17'd0} + {pp_12_q, 34'd0};

      always_ff @(posedge clk_i) begin
        pp_00_q <= pp_00;
        pp_01_q <= pp_01;
        pp_02_q <= pp_02;
        pp_10_q <= pp_10;
        pp_11_q <= pp_11;
        pp_12_q <= pp_12;
        pp_x_q  <= pp_x;
        row_0_q <= row_0;
        row_1_q <= row_1;
        pp_x_q3 <= pp_x_q;
        prod_q  <= {29'd0, row_0_q} + {3'd0, row_1_q, 26'd0} + pp_x_q3;
      end
    end else begin : gen_mul_iter
      // Pass j (cycle t+1+j of an operation accepted in cycle t) multiplies a0 and a1 by the
      // slice bj of mb and accumulates into prod_q: hidden-bit rows + row 0, then rows 1 and 2.
      // prod_q holds the product in cycle t+4, as the pipelined form's stage-4 register does.
      logic [16:0]  b_slice;
      logic [42:0]  pp_0, pp_1;
      logic [69:0]  row;
      logic [105:0] acc;

      always_comb begin
        unique case (pass_q)
          2'd1:    b_slice = mb_q[16:0];
          2'd2:    b_slice = mb_q[33:17];
          default: b_slice = mb_q[50:34];
        endcase
      end

      assign pp_0 = ma_q[25:0] * b_slice;
      assign pp_1 = ma_q[51:26] * b_slice;
      assign row  = {27'd0, pp_0} + {1'b0, pp_1, 26'd0};

      always_comb begin
        unique case (pass_q)
          2'd1:    acc = pp_x + {36'd0, row};
          2'd2:    acc = prod_q + {19'd0, row, 17'd0};
          default: acc = prod_q + {2'd0, row, 34'd0};
        endcase
      end

      always_ff @(posedge clk_i) begin
        prod_q <= acc;
      end
    end

    ///////////////
    // Stage 5   //
    ///////////////

    // One adder does P + C and P - C (C inverted, carry in 1); when P - C is negative the result
    // is C - P from a second subtractor.
    logic [WinW-1:0] p_win, sum, d2;
    logic [WinW:0]   s1;
    logic            d1_neg;

    assign p_win  = {(WinW - 2 * P - 3)'(0), prod_q, 3'b0};
    assign s1     = {1'b0, p_win} + {1'b0, c_win_q4 ^ {WinW{eff_sub_q4}}} +
                    {{WinW{1'b0}}, eff_sub_q4};
    assign d2     = c_win_q4 - p_win;
    assign d1_neg = eff_sub_q4 & !s1[WinW];
    assign sum    = d1_neg ? d2 : s1[WinW-1:0];

    logic [WinW-1:0]    sum_q5;
    logic signed [13:0] limit_q5;
    logic               lim_neg_q5, limp_neg_q5, limp_big_q5;
    logic [CntW-1:0]    limp_q5;
    logic               sign_q5, special_q5;
    logic [63:0]        special_val_q5;

    always_ff @(posedge clk_i) begin
      sum_q5         <= sum;
      limit_q5       <= limit_q4;
      lim_neg_q5     <= lim_neg_q4;
      limp_neg_q5    <= limp_neg_q4;
      limp_big_q5    <= limp_big_q4;
      limp_q5        <= limp_q4;
      sign_q5        <= sp_q4 ^ d1_neg;
      special_q5     <= special_q4;
      special_val_q5 <= special_val_q4;
    end

    ///////////////
    // Stage 6   //
    ///////////////

    // Leading zeros give the normalizing shift, trailing zeros the sticky bit of stage 7.
    logic [CntW-1:0] lzc, tzc, nshift;
    logic            sum_zero, unused_tz_zero;
    logic [WinW-1:0] sum_rev;

    wf_lzc #(
      .Width    (WinW),
      .CntWidth (CntW)
    ) u_lzc (
      .data_i (sum_q5),
      .cnt_o  (lzc),
      .zero_o (sum_zero)
    );

    for (genvar i = 0; i < WinW; i++) begin : gen_rev
      assign sum_rev[i] = sum_q5[WinW-1-i];
    end

    wf_lzc #(
      .Width    (WinW),
      .CntWidth (CntW)
    ) u_tzc (
      .data_i (sum_rev),
      .cnt_o  (tzc),
      .zero_o (unused_tz_zero)
    );

    // nshift = min(P + 2 + lzc, limit), and 0 when limit < 0 (the whole window lies below the
    // subnormal range: only the sticky bit survives).
    always_comb begin
      if (lim_neg_q5) begin
        nshift = '0;
      end else if (limp_neg_q5 || (!limp_big_q5 && lzc > limp_q5)) begin
        nshift = limit_q5[CntW-1:0];
      end else begin
        nshift = lzc + CntW'(P + 2);
      end
    end

    logic [WinW-1:0]    sum_q6;
    logic [CntW-1:0]    nshift_q6, tzc_q6;
    logic signed [13:0] limit_q6;
    logic               sign_q6, sum_zero_q6, special_q6;
    logic [63:0]        special_val_q6;

    always_ff @(posedge clk_i) begin
      sum_q6         <= sum_q5;
      nshift_q6      <= nshift;
      tzc_q6         <= tzc;
      limit_q6       <= limit_q5;
      sign_q6        <= sign_q5;
      sum_zero_q6    <= sum_zero;
      special_q6     <= special_q5;
      special_val_q6 <= special_val_q5;
    end

    ///////////////
    // Stage 7   //
    ///////////////

    logic [P-1:0]       mant;
    logic               guard, sticky;
    logic signed [13:0] exp_field;       // biased exponent field, minus the hidden bit

    always_comb begin
      logic [ZW-1:0]   z;
      logic [CntW:0]   tz_sum;
      z         = {(P + 2)'(0), sum_q6} << nshift_q6;
      mant      = z[ZW-1 -: P];
      guard     = z[ZW-1-P];
      // Sticky: a one below the guard position, i.e. below sum bit 165 - nshift.
      tz_sum    = {1'b0, tzc_q6} + {1'b0, nshift_q6};
      sticky    = tz_sum <= (CntW + 1)'(WinW);
      exp_field = limit_q6 - 14'(nshift_q6);
    end

    logic [P-1:0]       mant_q7;
    logic               guard_q7, sticky_q7;
    logic signed [13:0] exp_field_q7;
    logic               sign_q7, sum_zero_q7, special_q7;
    logic [63:0]        special_val_q7;

    always_ff @(posedge clk_i) begin
      mant_q7        <= mant;
      guard_q7       <= guard;
      sticky_q7      <= sticky;
      exp_field_q7   <= exp_field;
      sign_q7        <= sign_q6;
      sum_zero_q7    <= sum_zero_q6;
      special_q7     <= special_q6;
      special_val_q7 <= special_val_q6;
    end

    ///////////////
    // Stage 8   //
    ///////////////

    logic bits_msb;
    logic exp_field_hi;                  // sign bit of exp_field, not needed by the result

    always_comb begin
      logic        inc, to_inf, ovf;
      logic [63:0] bits, r;
      logic [1:0]  rnd_s;
      rnd_s = rnd_q[CoreStages-2];
      unique case (rnd_s)
        wf_isa_pkg::RND_RN: inc = guard_q7 & (sticky_q7 | mant_q7[0]);
        wf_isa_pkg::RND_RZ: inc = 1'b0;
        wf_isa_pkg::RND_RM: inc = sign_q7 & (guard_q7 | sticky_q7);
        wf_isa_pkg::RND_RP: inc = !sign_q7 & (guard_q7 | sticky_q7);
        default:            inc = 1'b0;
      endcase
      to_inf = (rnd_s == wf_isa_pkg::RND_RN) || (rnd_s == wf_isa_pkg::RND_RP && !sign_q7) ||
               (rnd_s == wf_isa_pkg::RND_RM && sign_q7);
      // Subnormal results have exp_field 0 and mant[52] clear; the rounding carry moves into the
      // exponent field by itself. exp_field >= 2046 only happens for normal results.
      bits = {exp_field_q7[11:0] & {12{mant_q7[P-1]}}, 52'd0} + {11'd0, mant_q7} + {63'd0, inc};
      ovf  = exp_field_q7 >= 14'sd2046;
      if (special_q7) begin
        r = special_val_q7;
      end else if (sum_zero_q7) begin
        r = {rnd_s == wf_isa_pkg::RND_RM, 63'd0};                        // exact cancellation
      end else if (ovf) begin
        r = {sign_q7, to_inf ? 63'h7ff0_0000_0000_0000 : 63'h7fef_ffff_ffff_ffff};   // overflow
      end else begin
        r = {sign_q7, bits[62:0]};
      end
      unique case (kind_q[CoreStages-2])
        KindSetp: res_d[l] = 64'd0;
        default:  res_d[l] = r;
      endcase
      pred_d[l]    = (kind_q[CoreStages-2] == KindSetp) && special_val_q7[0];
      bits_msb     = bits[63];
      exp_field_hi = ^exp_field_q7[13:12];
    end

    logic unused_bits;
    assign unused_bits = ^{exp_field_hi, bits_msb, unused_tz_zero};
  end

  logic [Lanes-1:0][63:0] res_q;

  wf_delay #(
    .Width  (Lanes * 65),
    .Stages (Latency - CoreStages + 1)
  ) u_out (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (valid_q[CoreStages-2]),
    .data_i  ({res_d, pred_d}),
    .valid_o (valid_o),
    .data_o  ({res_q, pred_o})
  );

  for (genvar l = 0; l < Lanes; l++) begin : gen_out
    assign res_o[l]    = res_q[l][31:0];
    assign res_hi_o[l] = res_q[l][63:32];
  end

endmodule
