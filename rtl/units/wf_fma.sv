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
//   stage 1  unpack, flush, special cases, exponent arithmetic; ma, mb into the multiplier;
//            FMNMX/FSETP's comparison
//   stage 2  FMNMX's select, FSETP's compare table and boolean op;
//            product ma * mb (48 bits, DSP), addend aligned into a 77-bit window: bit 0 is the
//            sticky, bits [2:1] are guard room below the product (a subnormal factor leaves the
//            product unnormalized, and normalization must not move the sticky into the guard
//            position), the product sits at bits [50:3] and the addend's lsb at bit 53 - sh,
//            sh = clamp(27 + ea + eb - ec - bias, 0, 77) (unbiased exponents)
//   stage 3  add or subtract (both differences, pick the non-negative), leading zeros, and the
//            normalizing shift limited so the exponent does not go below the subnormal range
//            (a marker bit at the limit, set before the count)
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
    logic signed [11:0] sh_raw;          // addend right shift before the clamp (stage 2)
    // FMNMX / FSETP on the (flushed) raw operands; the selection and the compare table follow
    // in stage 2.
    logic [31:0] fa, fb;
    logic        fna, fnb;
    logic        k_lt, k_eq;

    function automatic logic [9:0] exp_of(logic [7:0] field);
      exp_of = {2'b0, field} | {9'd0, field == 8'd0};
    endfunction

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
      // Negation, abs and the flush leave the exponent field as it is (a flushed subnormal's is
      // 0 either way): the exponents come from the operands, not after those.
      ea = exp_of(a_i[l][30:23]);
      eb = b_one ? 10'd127 : exp_of(b_i[l][30:23]);
      ec = b_one ? exp_of(b_i[l][30:23]) : (c_pzero ? 10'd1 : exp_of(c_i[l][30:23]));
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

      // FMNMX and FSETP (hls fpMin/fpMax/fpCompare on flushed operands).
      fa  = flush(a_i[l], ftz);
      fb  = flush(b_i[l], ftz);
      fna = fa[30:23] == 8'hff && fa[22:0] != 23'd0;
      fnb = fb[30:23] == 8'hff && fb[22:0] != 23'd0;
      // One comparator on the order keys, plus bitwise equality (equal keys).
      k_lt = order_key(fa) < order_key(fb);
      k_eq = fa == fb;
    end

    // Stage-1 registers.
    logic [23:0] ma_q, mb_q, mc_q;
    logic signed [11:0] sh_raw_q;
    logic [9:0]  sum_ab_q, ec_q;
    logic        prod_zero_q, zc_q;
    logic        sp_q1, eff_sub_q1, special_q1;
    logic [31:0] special_val_q1;
    logic [31:0] fa_q, fb_q;
    logic        fna_q, fnb_q, k_lt_q, k_eq_q, mn_max_q, mn_nan_q, pc_q;
    logic [3:0]  fcmp_q;
    logic [1:0]  bop_q;

    always_ff @(posedge clk_i) begin
      ma_q           <= ma;
      mb_q           <= mb;
      mc_q           <= mc;
      sh_raw_q       <= sh_raw;
      sum_ab_q       <= sum_ab;
      ec_q           <= ec;
      prod_zero_q    <= prod_zero;
      zc_q           <= zc;
      sp_q1          <= sp;
      eff_sub_q1     <= eff_sub;
      special_q1     <= special;
      special_val_q1 <= special_val;
      fa_q           <= fa;
      fb_q           <= fb;
      fna_q          <= fna;
      fnb_q          <= fnb;
      k_lt_q         <= k_lt;
      k_eq_q         <= k_eq;
      mn_max_q       <= mn_max;
      mn_nan_q       <= mn_nan;
      pc_q           <= pc_i[l] ^ neg_pc;
      fcmp_q         <= fcmp;
      bop_q          <= bop;
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
    // The shift is min(leading zeros, limit), and 0 when limit < 0: stage 3 sets a marker bit
    // at 102 - limit (102 when limit < 0, none when limit > 102) before counting leading zeros,
    // so no comparison follows the count.
    logic signed [11:0] limit;
    logic               mark_en;
    logic [6:0]         mark_pos;
    // The alignment shift sh = clamp(sh_raw, 0, 77): frame_c when it is 0 (the window is
    // anchored at the addend), c_out when it is 77 (only the addend's sticky bit is left).
    logic               frame_c, c_out;

    assign frame_c = prod_zero_q || (!zc_q && sh_raw_q <= 0);
    assign c_out   = zc_q || sh_raw_q >= 12'(WinW);

    always_comb begin
      limit    = frame_c ? 12'(ec_q) + 12'sd25 : 12'(sum_ab_q) - 12'sd75;
      mark_en  = limit <= 12'sd102;
      mark_pos = (limit < 0) ? 7'd102 : 7'(12'sd102 - limit);
    end

    assign prod = ma_q * mb_q;

    // The addend {mc, 77 zeros} shifted right by sh_raw's low bits (used when 0 < sh_raw <
    // 77; the clamp picks after it), as explicit multiplexer layers by 64, 16s, 4s and 1s, one
    // LUT per bit each (Yosys maps a `>>` to several times the LUTs).
    localparam int unsigned AlW = WinW + 24;
    logic [AlW-1:0] al_x, al_1, al_2, al_3, full;

    assign al_x = {mc_q, {(AlW - 24){1'b0}}};

    always_comb begin
      logic [6:0] n;
      n = sh_raw_q[6:0];
      for (int unsigned i = 0; i < AlW; i++) begin
        al_1[i] = (n[6] && i + 64 < AlW) ? al_x[(i + 64) % AlW] : (!n[6] && al_x[i]);
      end
      for (int unsigned i = 0; i < AlW; i++) begin
        al_2[i] = 1'b0;
        for (int unsigned d = 0; d < 4; d++) begin
          if (n[5:4] == 2'(d) && i + 16 * d < AlW) al_2[i] = al_1[(i + 16 * d) % AlW];
        end
      end
      for (int unsigned i = 0; i < AlW; i++) begin
        al_3[i] = 1'b0;
        for (int unsigned d = 0; d < 4; d++) begin
          if (n[3:2] == 2'(d) && i + 4 * d < AlW) al_3[i] = al_2[(i + 4 * d) % AlW];
        end
      end
      for (int unsigned i = 0; i < AlW; i++) begin
        full[i] = 1'b0;
        for (int unsigned d = 0; d < 4; d++) begin
          if (n[1:0] == 2'(d) && i + d < AlW) full[i] = al_3[(i + d) % AlW];
        end
      end
    end

    always_comb begin
      // Window bits [76:1] are the addend's, bit 0 is the sticky of everything below bit 1.
      c_sticky = full[24:0] != 25'd0;
      if (frame_c) begin
        c_win = {mc_q, 53'd0};
      end else if (c_out) begin
        c_win = {{(WinW - 1){1'b0}}, mc_q != 24'd0};
      end else begin
        c_win = {full[WinW+23:25], c_sticky};
      end
    end

    // FMNMX and FSETP (hls fpMin/fpMax/fpCompare on flushed operands), from stage 1's compare.
    logic [31:0] side2;   // FMNMX result, or FSETP predicate in bit 0

    always_comb begin
      logic [31:0] mm_res;
      logic        setp_res, unord, eq, lt, gt, cmp;
      if (fna_q || fnb_q) begin
        mm_res = (mn_nan_q || (fna_q && fnb_q)) ? F32Nan : (fna_q ? fb_q : fa_q);
      end else if (mn_max_q) begin
        mm_res = k_lt_q ? fb_q : fa_q;
      end else begin
        mm_res = (!k_lt_q && !k_eq_q) ? fb_q : fa_q;
      end
      unord = fna_q | fnb_q;
      eq    = !unord && (k_eq_q || (fa_q[30:0] == 31'd0 && fb_q[30:0] == 31'd0));
      lt    = !unord && !eq && k_lt_q;
      gt    = !unord && !eq && !lt;
      unique case (fcmp_q)
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
      unique case (bop_q)
        wf_isa_pkg::BOOL_OP_AND: setp_res = cmp & pc_q;
        wf_isa_pkg::BOOL_OP_OR:  setp_res = cmp | pc_q;
        wf_isa_pkg::BOOL_OP_XOR: setp_res = cmp ^ pc_q;
        default:                 setp_res = 1'b0;
      endcase
      side2 = (kind_q1 == KindSetp) ? {31'd0, setp_res} : mm_res;
    end

    logic [47:0]        prod_q;
    logic [WinW-1:0]    c_win_q;
    logic signed [11:0] limit_q2;
    logic               mark_en_q;
    logic [6:0]         mark_pos_q;
    logic               sp_q2, eff_sub_q2, special_q2;
    logic [31:0]        special_val_q2, side_q2;

    always_ff @(posedge clk_i) begin
      prod_q         <= prod;
      c_win_q        <= c_win;
      limit_q2       <= limit;
      mark_en_q      <= mark_en;
      mark_pos_q     <= mark_pos;
      sp_q2          <= sp_q1;
      eff_sub_q2     <= eff_sub_q1;
      special_q2     <= special_q1;
      special_val_q2 <= special_val_q1;
      side_q2        <= side2;
    end

    ///////////////
    // Stage 3   //
    ///////////////

    // One adder does P + C and P - C (C inverted, carry in 1); when P - C is negative the result
    // is C - P from a second subtractor. Leading zeros of the 103-bit register with the limit's
    // marker give the normalizing shift, trailing zeros the sticky bit of stage 4.
    logic [WinW-1:0] p_win, sum, d2;
    logic [WinW:0]   s1;
    logic            d1_neg;
    logic [6:0]      tzc;
    logic            sum_zero, unused_tz_zero, unused_z_zero;
    logic [ZW-1:0]   marker;
    logic [6:0]      nshift;               // normalizing left shift of the 103-bit register
    logic            sign3;
    logic [WinW-1:0] sum_rev;

    assign p_win  = {26'd0, prod_q, 3'b0};
    assign s1     = {1'b0, p_win} + {1'b0, c_win_q ^ {WinW{eff_sub_q2}}} + {{WinW{1'b0}}, eff_sub_q2};
    assign d2     = c_win_q - p_win;
    assign d1_neg = eff_sub_q2 & !s1[WinW];
    assign sum    = d1_neg ? d2 : s1[WinW-1:0];
    assign sign3  = sp_q2 ^ d1_neg;

    assign sum_zero = sum == '0;

    for (genvar i = 0; i < ZW; i++) begin : gen_marker
      assign marker[i] = mark_en_q && (mark_pos_q == 7'(i));
    end

    wf_lzc #(
      .Width    (ZW),
      .CntWidth (7)
    ) u_lzc (
      .data_i ({{(ZW - WinW){1'b0}}, sum} | marker),
      .cnt_o  (nshift),
      .zero_o (unused_z_zero)
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

    // The normalizing shift {26 zeros, sum} << nshift, of which only the top 25 bits (mantissa
    // and guard) are used: explicit multiplexer layers by 64, 16s, 4s and 1s, each computed
    // only for the bits the next layer reads.
    logic [ZW-1:0] nz_x, nz_1, nz_2, nz_3, z_norm;

    assign nz_x = {{(ZW - WinW){1'b0}}, sum_q};

    always_comb begin
      nz_1   = '0;
      nz_2   = '0;
      nz_3   = '0;
      z_norm = '0;
      for (int unsigned i = ZW - 25 - 3 - 12 - 48; i < ZW; i++) begin
        nz_1[i] = (nshift_q[6] && i >= 64) ? nz_x[(i + ZW - 64) % ZW] : (!nshift_q[6] && nz_x[i]);
      end
      for (int unsigned i = ZW - 25 - 3 - 12; i < ZW; i++) begin
        for (int unsigned d = 0; d < 4; d++) begin
          if (nshift_q[5:4] == 2'(d)) nz_2[i] = nz_1[i - 16 * d];
        end
      end
      for (int unsigned i = ZW - 25 - 3; i < ZW; i++) begin
        for (int unsigned d = 0; d < 4; d++) begin
          if (nshift_q[3:2] == 2'(d)) nz_3[i] = nz_2[i - 4 * d];
        end
      end
      for (int unsigned i = ZW - 25; i < ZW; i++) begin
        for (int unsigned d = 0; d < 4; d++) begin
          if (nshift_q[1:0] == 2'(d)) z_norm[i] = nz_3[i - d];
        end
      end
    end

    always_comb begin
      logic [ZW-1:0]      z;
      logic [23:0]        mant;
      logic               guard, sticky, inc, to_inf, ovf, sub_after, sat_one;
      logic [31:0]        bits, r;
      logic signed [11:0] exp_field;       // biased exponent field, minus the hidden bit
      logic [7:0]         tz_sum;
      z      = z_norm;
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
      // SAT: clamp to [+0, 1.0]; NaN and negative values (including -0) give +0. Decided from
      // the inputs of r's selection rather than from r: an exact zero gives +0, an overflow
      // +0 or 1.0 by its sign.
      if (sat_q3) begin
        if (special_q3) begin
          if ((special_val_q3[30:23] == 8'hff && special_val_q3[22:0] != 23'd0) ||
              special_val_q3[31]) r = 32'd0;
          else if (special_val_q3[30:0] > F32One[30:0]) r = F32One;
        end else if (sum_zero_q) begin
          r = 32'd0;
        end else if (ovf) begin
          r = sign_q3 ? 32'd0 : F32One;
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
    assign unused_bits = ^{exp_field_hi, bits_msb, unused_tz_zero, unused_z_zero};
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
