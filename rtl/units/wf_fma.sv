// FP32 fused multiply-add unit: FADD, FADD_I, FMUL, FMUL_I, FFMA (all four rounding modes, .FTZ,
// .SAT, operand negate/abs), FMNMX and FSETP, for `Lanes` lanes. Fixed latency
// op_latency(OP_FFMA), valid-in/valid-out, no back-pressure. Bit-exact with hls ffma32, fadd32,
// fmul32, fsat32, fmin32/fmax32 and fcmp32: canonical NaN 0x7fffffff, FTZ flushes subnormal
// inputs and subnormal results (after rounding).
//
// FADD is a * 1.0 + b; FMUL is a * b + z with z the zero of the product's sign (so that a zero
// product keeps its sign in every rounding mode); one datapath does all three.
//
// Datapath (significands are 24-bit integers, ma = hidden bit and fraction):
//   stage 1  unpack, flush, special cases, exponent arithmetic; ma, mb into the multiplier
//   stage 2  product ma * mb (48 bits, DSP), addend aligned into a 77-bit window: bit 0 is the
//            sticky, bits [2:1] are guard room below the product (a subnormal factor leaves the
//            product unnormalized, and normalization must not move the sticky into the guard
//            position), the product sits at bits [50:3] and the addend's lsb at bit 53 - sh,
//            sh = clamp(27 + ea + eb - ec - bias, 0, 77) (unbiased exponents)
//   stage 3  add or subtract (both differences, pick the non-negative), leading zeros, and the
//            normalizing shift limited so the exponent does not go below the subnormal range
//   stage 4  normalize, round, pack; overflow, exact-zero sign, FTZ, SAT; result select
// The window's weight: bit i of the window is worth 2^(lw + i - 3) with lw = ea + eb - 46
// (unbiased), or ec - 73 when the addend dominates (sh clamped at 0) or the product is zero.
module wf_fma #(
  parameter int unsigned Lanes = 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,

  input  logic                            valid_i,
  input  logic [wf_isa_pkg::InstBits-1:0] inst_i,
  input  logic [Lanes-1:0][31:0]          a_i,     // ra
  input  logic [Lanes-1:0][31:0]          b_i,     // rb, or the immediate (FADD_I, FMUL_I)
  input  logic [Lanes-1:0][31:0]          c_i,     // rc (FFMA)
  input  logic [Lanes-1:0]                pc_i,    // FSETP: predicate pc as read (PT = 1)

  output logic                            valid_o,
  output logic [Lanes-1:0][31:0]          res_o,
  output logic [Lanes-1:0]                pred_o   // FSETP
);

  localparam int unsigned Latency = wf_isa_pkg::op_latency(wf_isa_pkg::OP_FFMA);
  localparam int unsigned CoreStages = 4;

  if (Latency < CoreStages) begin : gen_latency_check
    $error("wf_fma: ISA latency %0d is shorter than the FMA's %0d stages", Latency, CoreStages);
  end

  localparam logic [31:0] F32One = 32'h3f80_0000;
  localparam logic [31:0] F32Nan = 32'h7fff_ffff;
  localparam int unsigned WinW = 77;     // alignment window (bit 0: sticky)
  localparam int unsigned ZW   = 103;    // normalization register: 26 zero bits above the window

  // Result kinds of stage 4.
  typedef enum logic [1:0] {
    KindArith,   // the rounded datapath result (or a special value)
    KindMinMax,  // FMNMX
    KindSetp     // FSETP (predicate)
  } kind_e;

  //////////////
  // Decode   //
  //////////////

  logic [7:0] op;
  kind_e      kind;
  logic       b_one;     // FADD: b := 1.0, c := b
  logic       c_pzero;   // FMUL: c := zero with the product's sign
  logic       neg_a, neg_b, neg_c, abs_a, abs_b;
  logic [1:0] rnd;       // wf_isa_pkg::rnd_e
  logic       ftz, sat;
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
    ftz     = 1'b0;
    sat     = 1'b0;
    mn_max  = 1'b0;
    mn_nan  = 1'b0;
    fcmp    = wf_isa_pkg::F_CMP_EQ;
    bop     = wf_isa_pkg::BOOL_OP_AND;
    neg_pc  = 1'b0;
    unique case (op)
      wf_isa_pkg::OP_FADD: begin
        b_one = 1'b1;
        rnd   = inst_i[wf_isa_pkg::FaddRndLo +: wf_isa_pkg::FaddRndWidth];
        ftz   = inst_i[wf_isa_pkg::FaddFtzLo];
        sat   = inst_i[wf_isa_pkg::FaddSatLo];
        neg_a = inst_i[wf_isa_pkg::FaddNegaLo];
        neg_b = inst_i[wf_isa_pkg::FaddNegbLo];
        abs_a = inst_i[wf_isa_pkg::FaddAbsaLo];
        abs_b = inst_i[wf_isa_pkg::FaddAbsbLo];
      end
      wf_isa_pkg::OP_FADD_I: begin
        b_one = 1'b1;
        ftz   = inst_i[wf_isa_pkg::FaddIFtzLo];
      end
      wf_isa_pkg::OP_FMUL: begin
        c_pzero = 1'b1;
        rnd     = inst_i[wf_isa_pkg::FmulRndLo +: wf_isa_pkg::FmulRndWidth];
        ftz     = inst_i[wf_isa_pkg::FmulFtzLo];
        sat     = inst_i[wf_isa_pkg::FmulSatLo];
        neg_a   = inst_i[wf_isa_pkg::FmulNegaLo];
        neg_b   = inst_i[wf_isa_pkg::FmulNegbLo];
        abs_a   = inst_i[wf_isa_pkg::FmulAbsaLo];
        abs_b   = inst_i[wf_isa_pkg::FmulAbsbLo];
      end
      wf_isa_pkg::OP_FMUL_I: begin
        c_pzero = 1'b1;
        ftz     = inst_i[wf_isa_pkg::FmulIFtzLo];
      end
      wf_isa_pkg::OP_FFMA: begin
        rnd   = inst_i[wf_isa_pkg::FfmaRndLo +: wf_isa_pkg::FfmaRndWidth];
        ftz   = inst_i[wf_isa_pkg::FfmaFtzLo];
        sat   = inst_i[wf_isa_pkg::FfmaSatLo];
        neg_a = inst_i[wf_isa_pkg::FfmaNegaLo];
        neg_b = inst_i[wf_isa_pkg::FfmaNegbLo];
        neg_c = inst_i[wf_isa_pkg::FfmaNegcLo];
      end
      wf_isa_pkg::OP_FMNMX: begin
        kind   = KindMinMax;
        mn_max = inst_i[wf_isa_pkg::FmnmxFnLo +: wf_isa_pkg::FmnmxFnWidth] ==
                 wf_isa_pkg::MIN_MAX_MAX;
        ftz    = inst_i[wf_isa_pkg::FmnmxFtzLo];
        mn_nan = inst_i[wf_isa_pkg::FmnmxNanLo];
      end
      wf_isa_pkg::OP_FSETP: begin
        kind   = KindSetp;
        fcmp   = inst_i[wf_isa_pkg::FsetpCmpLo +: wf_isa_pkg::FsetpCmpWidth];
        ftz    = inst_i[wf_isa_pkg::FsetpFtzLo];
        bop    = inst_i[wf_isa_pkg::FsetpBopLo +: wf_isa_pkg::FsetpBopWidth];
        neg_pc = inst_i[wf_isa_pkg::FsetpPcLo + wf_isa_pkg::FsetpPcWidth - 1];
      end
      default: ;
    endcase
  end

  ///////////////////////////////////
  // Control pipeline (shared)     //
  ///////////////////////////////////

  // Stage registers: s1 = after stage 1, ... Control needed by stages 2..4.
  logic [2:0] valid_q, valid_d;
  logic [1:0] rnd_q1, rnd_q2, rnd_q3;
  logic       ftz_q1, ftz_q2, ftz_q3;
  logic       sat_q1, sat_q2, sat_q3;
  kind_e      kind_q1, kind_q2, kind_q3;

  assign valid_d = {valid_q[1:0], valid_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    rnd_q1  <= rnd;
    rnd_q2  <= rnd_q1;
    rnd_q3  <= rnd_q2;
    ftz_q1  <= ftz;
    ftz_q2  <= ftz_q1;
    ftz_q3  <= ftz_q2;
    sat_q1  <= sat;
    sat_q2  <= sat_q1;
    sat_q3  <= sat_q2;
    kind_q1 <= kind;
    kind_q2 <= kind_q1;
    kind_q3 <= kind_q2;
  end

  logic [Lanes-1:0][31:0] res_d;
  logic [Lanes-1:0]       pred_d;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane

    ///////////////
    // Stage 1   //
    ///////////////

    logic [31:0] a1, b1, c1;             // after negate/abs
    logic [31:0] xa, xb, xc;             // multiplier operands and addend, flushed
    logic        za, zb, zc;             // zero
    logic        ia, ib, ic;             // infinity
    logic        na, nb, nc;             // NaN
    logic [23:0] ma, mb, mc;             // significands
    logic [9:0]  ea, eb, ec;             // biased exponents, subnormals at 1
    logic        sp, eff_sub;
    logic        prod_zero;
    logic        special;                // the result is not the datapath's
    logic [31:0] special_val;
    logic [9:0]  sum_ab;                 // ea + eb
    logic signed [11:0] sh_raw;
    logic [6:0]  sh;                     // addend right shift, 0..77
    logic        frame_c;                // the window is anchored at the addend
    // FMNMX / FSETP on the (flushed) raw operands.
    logic [31:0] fa, fb;
    logic        fna, fnb;
    logic [31:0] mm_res;
    logic        k_lt, k_eq;
    logic        setp_res;

    function automatic logic [31:0] flush(logic [31:0] x, logic en);
      flush = (en && x[30:23] == 8'd0) ? {x[31], 31'd0} : x;
    endfunction

    function automatic logic [31:0] order_key(logic [31:0] x);
      order_key = x[31] ? ~x : {1'b1, x[30:0]};
    endfunction

    always_comb begin
      a1 = abs_a ? {1'b0, a_i[l][30:0]} : a_i[l];
      b1 = abs_b ? {1'b0, b_i[l][30:0]} : b_i[l];
      a1[31] = a1[31] ^ neg_a;
      b1[31] = b1[31] ^ neg_b;
      c1 = {c_i[l][31] ^ neg_c, c_i[l][30:0]};
      xa = flush(a1, ftz);
      if (b_one) begin
        xb = F32One;
        xc = flush(b1, ftz);
      end else begin
        xb = flush(b1, ftz);
        xc = c_pzero ? {a1[31] ^ b1[31], 31'd0} : flush(c1, ftz);
      end

      za = xa[30:0] == 31'd0;
      zb = xb[30:0] == 31'd0;
      zc = xc[30:0] == 31'd0;
      ia = xa[30:23] == 8'hff && xa[22:0] == 23'd0;
      ib = xb[30:23] == 8'hff && xb[22:0] == 23'd0;
      ic = xc[30:23] == 8'hff && xc[22:0] == 23'd0;
      na = xa[30:23] == 8'hff && xa[22:0] != 23'd0;
      nb = xb[30:23] == 8'hff && xb[22:0] != 23'd0;
      nc = xc[30:23] == 8'hff && xc[22:0] != 23'd0;
      ma = {xa[30:23] != 8'd0, xa[22:0]};
      mb = {xb[30:23] != 8'd0, xb[22:0]};
      mc = {xc[30:23] != 8'd0, xc[22:0]};
      ea = {2'b0, xa[30:23]} | {9'd0, xa[30:23] == 8'd0};
      eb = {2'b0, xb[30:23]} | {9'd0, xb[30:23] == 8'd0};
      ec = {2'b0, xc[30:23]} | {9'd0, xc[30:23] == 8'd0};
      sp        = xa[31] ^ xb[31];
      eff_sub   = sp ^ xc[31];
      prod_zero = za | zb;

      // Special results (hls fpFma order): NaN, inf * 0, inf - inf, infinities, zero + zero.
      special     = 1'b1;
      special_val = F32Nan;
      if (na || nb || nc) begin
        special_val = F32Nan;
      end else if (ia || ib) begin
        if (za || zb || (ic && eff_sub)) special_val = F32Nan;
        else special_val = {sp, 8'hff, 23'd0};
      end else if (ic) begin
        special_val = {xc[31], 8'hff, 23'd0};
      end else if (prod_zero && zc) begin
        special_val = {eff_sub ? (rnd == wf_isa_pkg::RND_RM) : sp, 31'd0};
      end else begin
        special = 1'b0;
      end

      // Alignment: sh = 27 + (ea - 127) + (eb - 127) - (ec - 127) = (ea + eb) - (ec + 100).
      sum_ab  = 10'(ea) + 10'(eb);
      sh_raw  = 12'(sum_ab) - (12'(ec) + 12'sd100);
      frame_c = prod_zero || (!zc && sh_raw <= 0);
      if (frame_c) begin
        sh = 7'd0;
      end else if (zc || sh_raw >= 12'(WinW)) begin
        sh = 7'(WinW);
      end else begin
        sh = sh_raw[6:0];
      end

      // FMNMX and FSETP (hls fpMin/fpMax/fpCompare on flushed operands).
      fa  = flush(a_i[l], ftz);
      fb  = flush(b_i[l], ftz);
      fna = fa[30:23] == 8'hff && fa[22:0] != 23'd0;
      fnb = fb[30:23] == 8'hff && fb[22:0] != 23'd0;
      // One comparator on the order keys, plus bitwise equality (equal keys).
      k_lt = order_key(fa) < order_key(fb);
      k_eq = fa == fb;
      if (fna || fnb) begin
        mm_res = (mn_nan || (fna && fnb)) ? F32Nan : (fna ? fb : fa);
      end else if (mn_max) begin
        mm_res = k_lt ? fb : fa;
      end else begin
        mm_res = (!k_lt && !k_eq) ? fb : fa;
      end
      begin
        logic unord, eq, lt, gt, cmp;
        unord = fna | fnb;
        eq    = !unord && (k_eq || (fa[30:0] == 31'd0 && fb[30:0] == 31'd0));
        lt    = !unord && !eq && k_lt;
        gt    = !unord && !eq && !lt;
        unique case (fcmp)
          wf_isa_pkg::F_CMP_EQ:  cmp = eq;
          wf_isa_pkg::F_CMP_NE:  cmp = !unord && !eq;
          wf_isa_pkg::F_CMP_LT:  cmp = lt;
          wf_isa_pkg::F_CMP_LE:  cmp = lt || eq;
          wf_isa_pkg::F_CMP_GT:  cmp = gt;
          wf_isa_pkg::F_CMP_GE:  cmp = gt || eq;
          wf_isa_pkg::F_CMP_EQU: cmp = unord || eq;
          wf_isa_pkg::F_CMP_NEU: cmp = unord || !eq;
          wf_isa_pkg::F_CMP_LTU: cmp = unord || lt;
          wf_isa_pkg::F_CMP_LEU: cmp = unord || lt || eq;
          wf_isa_pkg::F_CMP_GTU: cmp = unord || gt;
          wf_isa_pkg::F_CMP_GEU: cmp = unord || gt || eq;
          wf_isa_pkg::F_CMP_NUM: cmp = !unord;
          wf_isa_pkg::F_CMP_NAN: cmp = unord;
          default:               cmp = 1'b0;
        endcase
        unique case (bop)
          wf_isa_pkg::BOOL_OP_AND: setp_res = cmp & (pc_i[l] ^ neg_pc);
          wf_isa_pkg::BOOL_OP_OR:  setp_res = cmp | (pc_i[l] ^ neg_pc);
          wf_isa_pkg::BOOL_OP_XOR: setp_res = cmp ^ (pc_i[l] ^ neg_pc);
          default:                 setp_res = 1'b0;
        endcase
      end
    end

    // Stage-1 registers.
    logic [23:0] ma_q, mb_q, mc_q;
    logic [6:0]  sh_q;
    logic [9:0]  sum_ab_q, ec_q;
    logic        frame_c_q;
    logic        sp_q1, eff_sub_q1, special_q1;
    logic [31:0] special_val_q1, side_q1;   // side: FMNMX result, or FSETP predicate in bit 0

    always_ff @(posedge clk_i) begin
      ma_q           <= ma;
      mb_q           <= mb;
      mc_q           <= mc;
      sh_q           <= sh;
      sum_ab_q       <= sum_ab;
      ec_q           <= ec;
      frame_c_q      <= frame_c;
      sp_q1          <= sp;
      eff_sub_q1     <= eff_sub;
      special_q1     <= special;
      special_val_q1 <= special_val;
      side_q1        <= (kind == KindSetp) ? {31'd0, setp_res} : mm_res;
    end

    ///////////////
    // Stage 2   //
    ///////////////

    logic [47:0]     prod;
    logic [WinW-1:0] c_win;
    logic            c_sticky;
    // limit: the largest normalizing shift, the one that puts weight 2^-126 at the top of the
    // 103-bit register: lw + 225, with lw = ea + eb - 300 (product frame) or ec - 200 (addend
    // frame). The biased exponent field of the result is limit - shift (stage 4).
    logic signed [11:0] limit;
    logic               lim_neg, lim26_neg, lim26_big;
    logic [6:0]         lim26;             // limit - 26, where 0..127

    always_comb begin
      logic signed [11:0] l26;
      limit     = frame_c_q ? 12'(ec_q) + 12'sd25 : 12'(sum_ab_q) - 12'sd75;
      l26       = frame_c_q ? 12'(ec_q) - 12'sd1 : 12'(sum_ab_q) - 12'sd101;
      lim_neg   = limit < 0;
      lim26_neg = l26 < 0;
      lim26_big = l26 > 12'sd127;
      lim26     = l26[6:0];
    end

    assign prod = ma_q * mb_q;

    always_comb begin
      logic [WinW+23:0] full;     // the addend at [76:53] before shifting, with 24 bits below
      full     = {mc_q, 53'd0, 24'd0} >> sh_q;
      // Window bits [76:1] are the addend's, bit 0 is the sticky of everything below bit 1.
      c_win    = {full[WinW+23:25], 1'b0};
      c_sticky = full[24:0] != 25'd0;
      c_win[0] = c_sticky;
    end

    logic [47:0]        prod_q;
    logic [WinW-1:0]    c_win_q;
    logic signed [11:0] limit_q2;
    logic               lim_neg_q, lim26_neg_q, lim26_big_q;
    logic [6:0]         lim26_q;
    logic               sp_q2, eff_sub_q2, special_q2;
    logic [31:0]        special_val_q2, side_q2;

    always_ff @(posedge clk_i) begin
      prod_q         <= prod;
      c_win_q        <= c_win;
      limit_q2       <= limit;
      lim_neg_q      <= lim_neg;
      lim26_neg_q    <= lim26_neg;
      lim26_big_q    <= lim26_big;
      lim26_q        <= lim26;
      sp_q2          <= sp_q1;
      eff_sub_q2     <= eff_sub_q1;
      special_q2     <= special_q1;
      special_val_q2 <= special_val_q1;
      side_q2        <= side_q1;
    end

    ///////////////
    // Stage 3   //
    ///////////////

    // One adder does P + C and P - C (C inverted, carry in 1); when P - C is negative the result
    // is C - P from a second subtractor. Leading zeros give the normalizing shift, trailing
    // zeros the sticky bit of stage 4.
    logic [WinW-1:0] p_win, sum, d2;
    logic [WinW:0]   s1;
    logic            d1_neg;
    logic [6:0]      lzc, tzc;
    logic            sum_zero, unused_tz_zero;
    logic [6:0]      nshift;               // normalizing left shift of the 103-bit register
    logic            sign3;
    logic [WinW-1:0] sum_rev;

    assign p_win  = {26'd0, prod_q, 3'b0};
    assign s1     = {1'b0, p_win} + {1'b0, c_win_q ^ {WinW{eff_sub_q2}}} + {{WinW{1'b0}}, eff_sub_q2};
    assign d2     = c_win_q - p_win;
    assign d1_neg = eff_sub_q2 & !s1[WinW];
    assign sum    = d1_neg ? d2 : s1[WinW-1:0];
    assign sign3  = sp_q2 ^ d1_neg;

    wf_lzc #(
      .Width    (WinW),
      .CntWidth (7)
    ) u_lzc (
      .data_i (sum),
      .cnt_o  (lzc),
      .zero_o (sum_zero)
    );

    for (genvar i = 0; i < WinW; i++) begin : gen_rev
      assign sum_rev[i] = sum[WinW-1-i];
    end

    wf_lzc #(
      .Width    (WinW),
      .CntWidth (7)
    ) u_tzc (
      .data_i (sum_rev),
      .cnt_o  (tzc),
      .zero_o (unused_tz_zero)
    );

    // nshift = min(26 + lzc, limit), and 0 when limit < 0 (the whole window lies below the
    // subnormal range: only the sticky bit survives).
    always_comb begin
      if (lim_neg_q) begin
        nshift = 7'd0;
      end else if (lim26_neg_q || (!lim26_big_q && lzc > lim26_q)) begin
        nshift = limit_q2[6:0];
      end else begin
        nshift = lzc + 7'd26;
      end
    end

    logic [WinW-1:0]    sum_q;
    logic [6:0]         nshift_q, tzc_q;
    logic signed [11:0] limit_q3;
    logic               sign_q3, sum_zero_q, special_q3;
    logic [31:0]        special_val_q3, side_q3;

    always_ff @(posedge clk_i) begin
      sum_q          <= sum;
      nshift_q       <= nshift;
      tzc_q          <= tzc;
      limit_q3       <= limit_q2;
      sign_q3        <= sign3;
      sum_zero_q     <= sum_zero;
      special_q3     <= special_q2;
      special_val_q3 <= special_val_q2;
      side_q3        <= side_q2;
    end

    ///////////////
    // Stage 4   //
    ///////////////

    logic        bits_msb;
    logic [2:0]  exp_field_hi;  // bits of exp_field above the 9 the result uses

    always_comb begin
      logic [ZW-1:0]      z;
      logic [23:0]        mant;
      logic               guard, sticky, inc, to_inf, ovf, sub_after, sat_one;
      logic [31:0]        bits, r;
      logic signed [11:0] exp_field;       // biased exponent field, minus the hidden bit
      logic [7:0]         tz_sum;
      z      = {26'd0, sum_q} << nshift_q;
      mant   = z[ZW-1 -: 24];
      guard  = z[ZW-25];
      // Sticky: a one below the guard position, i.e. below sum bit 78 - nshift.
      tz_sum = {1'b0, tzc_q} + {1'b0, nshift_q};
      sticky = tz_sum <= 8'd77;
      exp_field = limit_q3 - 12'(nshift_q);
      unique case (rnd_q3)
        wf_isa_pkg::RND_RN: inc = guard & (sticky | mant[0]);
        wf_isa_pkg::RND_RZ: inc = 1'b0;
        wf_isa_pkg::RND_RM: inc = sign_q3 & (guard | sticky);
        wf_isa_pkg::RND_RP: inc = !sign_q3 & (guard | sticky);
        default:            inc = 1'b0;
      endcase
      to_inf = (rnd_q3 == wf_isa_pkg::RND_RN) || (rnd_q3 == wf_isa_pkg::RND_RP && !sign_q3) ||
               (rnd_q3 == wf_isa_pkg::RND_RM && sign_q3);
      // Subnormal results have exp_field 0 and mant[23] clear; the rounding carry moves into
      // the exponent field by itself. exp_field >= 254 only happens for normal results.
      bits      = ({exp_field[8:0] & {9{mant[23]}}, 23'd0}) + {8'd0, mant} + {31'd0, inc};
      ovf       = exp_field >= 12'sd254;
      sub_after = !mant[23] && !(inc && mant[22:0] == 23'h7f_ffff);
      // SAT of a positive finite result: above 1.0 (exp_field is the biased exponent - 1).
      sat_one   = (exp_field >= 12'sd127 && mant[23]) ||
                  (exp_field == 12'sd126 && mant[23] && (mant[22:0] != 23'd0 || inc)) ;
      if (special_q3) begin
        r = special_val_q3;
      end else if (sum_zero_q) begin
        r = {rnd_q3 == wf_isa_pkg::RND_RM, 31'd0};                  // exact cancellation
      end else if (ovf) begin
        r = {sign_q3, to_inf ? 31'h7f80_0000 : 31'h7f7f_ffff};      // overflow
      end else if (ftz_q3 && sub_after) begin
        r = {sign_q3, 31'd0};                                       // FTZ of the result
      end else begin
        r = {sign_q3, bits[30:0]};
      end
      // SAT: clamp to [+0, 1.0]; NaN and negative values (including -0) give +0.
      if (sat_q3) begin
        if (special_q3 || sum_zero_q || ovf) begin
          if ((r[30:23] == 8'hff && r[22:0] != 23'd0) || r[31]) r = 32'd0;
          else if (r[30:0] > F32One[30:0]) r = F32One;
        end else if (sign_q3) begin
          r = 32'd0;
        end else if (sat_one) begin
          r = F32One;
        end
      end
      unique case (kind_q3)
        KindMinMax: res_d[l] = side_q3;
        KindSetp:   res_d[l] = 32'd0;
        default:    res_d[l] = r;
      endcase
      pred_d[l]   = (kind_q3 == KindSetp) && side_q3[0];
      bits_msb    = bits[31];
      exp_field_hi = exp_field[11:9];
    end

    logic unused_bits;
    assign unused_bits = ^{exp_field_hi, bits_msb, unused_tz_zero};
  end

  wf_delay #(
    .Width  (Lanes * 33),
    .Stages (Latency - CoreStages + 1)
  ) u_out (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (valid_q[CoreStages-2]),
    .data_i  ({res_d, pred_d}),
    .valid_o (valid_o),
    .data_o  ({res_o, pred_o})
  );

endmodule
