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
//   stage 2  FMNMX's select and FSETP's compare table and boolean op, into the special-value
//            path; product ma * mb (48 bits, DSP), addend aligned into a 77-bit window: bit 0
//            is the sticky, bits [2:1] are guard room below the product (a subnormal factor
//            leaves the product unnormalized, and normalization must not move the sticky into
//            the guard position), the product sits at bits [50:3] and the addend's lsb at bit
//            53 - sh, sh = clamp(27 + ea + eb - ec - bias, 0, 77) (unbiased exponents)
//   stage 3  one adder: t = P + C or P - C in two's complement (a negative t is not negated),
//            leading zeros of |t| (of ~t when t < 0), and the normalizing shift limited so the
//            exponent does not go below the subnormal range (the count compared with the limit)
//   stage 4  normalize t and negate after the shift (~(x << n) + 1, the +1 folded into the
//            rounding increment); the sticky from the shifter's layers (no trailing-zero
//            count); round, pack; overflow, exact-zero sign, FTZ, SAT
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
  kind_e      kind_q1;

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
    // FMNMX / FSETP: the comparison; the selection and the compare table follow in stage 2.
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

      // FMNMX and FSETP (hls fpMin/fpMax/fpCompare on flushed operands): their decode leaves
      // a and b unmodified, so xa and xb are those operands. One comparator on the order keys,
      // plus bitwise equality (equal keys).
      k_lt = order_key(xa) < order_key(xb);
      k_eq = xa == xb;
    end

    // Stage-1 registers.
    logic [23:0] ma_q, mb_q, mc_q;
    logic signed [11:0] sh_raw_q;
    logic [9:0]  sum_ab_q, ec_q;
    logic        prod_zero_q, zc_q;
    logic        sp_q1, eff_sub_q1, special_q1;
    logic [31:0] special_val_q1;
    logic [31:0] xa_q, xb_q;
    logic        na_q, nb_q, zab_q, k_lt_q, k_eq_q, mn_max_q, mn_nan_q, pc_q;
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
      xa_q           <= xa;
      xb_q           <= xb;
      na_q           <= na;
      nb_q           <= nb;
      zab_q          <= za & zb;
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
    // limit: the largest normalizing shift, the one that puts weight 2^-126 at the top of the
    // 103-bit register: lw + 225, with lw = ea + eb - 300 (product frame) or ec - 200 (addend
    // frame). The biased exponent field of the result is limit - shift (stage 4).
    // The shift is min(leading zeros, limit), and 0 when limit < 0: stage 3 compares the count
    // with cap = max(limit, 0) when cap_en (limit <= 102; the count is at most 103).
    logic signed [11:0] limit;
    logic               cap_en;
    logic [6:0]         cap;
    // The alignment shift sh = clamp(sh_raw, 0, 77): frame_c when it is 0 (the window is
    // anchored at the addend; the shift is 0 for a zero addend too, which leaves the window
    // zero), 77 when only the addend's sticky bit is left.
    logic               frame_c;
    logic [6:0]         sh;

    assign frame_c = prod_zero_q || (!zc_q && sh_raw_q <= 0);

    always_comb begin
      limit    = frame_c ? 12'(ec_q) + 12'sd25 : 12'(sum_ab_q) - 12'sd75;
      cap_en   = limit <= 12'sd102;
      cap      = (limit < 0) ? 7'd0 : 7'(limit);
      if (prod_zero_q || sh_raw_q <= 0) begin
        sh = 7'd0;
      end else if (sh_raw_q >= 12'(WinW)) begin
        sh = 7'(WinW);
      end else begin
        sh = sh_raw_q[6:0];
      end
    end

    assign prod = ma_q * mb_q;

    // The addend {mc, 77 zeros} shifted right by sh as explicit multiplexer layers, one LUT per
    // bit each (Yosys maps a `>>` to several times the LUTs): the small steps first, while the
    // value is narrow (1s: 27 bits, 4s: 39 bits), then 16 * sh[6:4] in one layer: sh <= 77
    // keeps sh[6:4] <= 4, and at most three of its five steps reach a given bit.
    localparam int unsigned AlW = WinW + 24;
    logic [AlW-1:0] al_x, al_1, al_2, full;

    assign al_x = {mc_q, {(AlW - 24){1'b0}}};

    always_comb begin
      al_1 = '0;
      al_2 = '0;
      full = '0;
      for (int unsigned i = AlW - 27; i < AlW; i++) begin
        for (int unsigned d = 0; d < 4; d++) begin
          if (sh[1:0] == 2'(d) && i + d < AlW) al_1[i] = al_x[(i + d) % AlW];
        end
      end
      for (int unsigned i = AlW - 39; i < AlW; i++) begin
        for (int unsigned d = 0; d < 4; d++) begin
          if (sh[3:2] == 2'(d) && i + 4 * d < AlW) al_2[i] = al_1[(i + 4 * d) % AlW];
        end
      end
      for (int unsigned i = 0; i < AlW; i++) begin
        for (int unsigned d = 0; d < 5; d++) begin
          if (sh[6:4] == 3'(d) && i + 16 * d < AlW && i + 16 * d >= AlW - 39) begin
            full[i] = al_2[(i + 16 * d) % AlW];
          end
        end
      end
    end

    // Window bits [76:1] are the addend's, bit 0 is the sticky of everything below bit 1.
    assign c_win = {full[AlW-1:25], |full[24:0]};

    // FMNMX and FSETP (hls fpMin/fpMax/fpCompare on flushed operands), from stage 1's compare.
    // Their results leave through the special-value path (FSETP's result register is zero, its
    // predicate a bit of its own).
    logic        special2, pred2;
    logic [31:0] special_val2;

    always_comb begin
      logic [31:0] mm_res;
      logic        setp_res, unord, eq, lt, gt, cmp;
      if (na_q || nb_q) begin
        mm_res = (mn_nan_q || (na_q && nb_q)) ? F32Nan : (na_q ? xb_q : xa_q);
      end else if (mn_max_q) begin
        mm_res = k_lt_q ? xb_q : xa_q;
      end else begin
        mm_res = (!k_lt_q && !k_eq_q) ? xb_q : xa_q;
      end
      unord = na_q | nb_q;
      eq    = !unord && (k_eq_q || zab_q);
      lt    = !unord && !eq && k_lt_q;
      gt    = !unord && !eq && !lt;
      cmp   = wf_isa_pkg::fcmp_holds(fcmp_q, lt, eq, gt, unord);
      unique case (bop_q)
        wf_isa_pkg::BOOL_OP_AND: setp_res = cmp & pc_q;
        wf_isa_pkg::BOOL_OP_OR:  setp_res = cmp | pc_q;
        wf_isa_pkg::BOOL_OP_XOR: setp_res = cmp ^ pc_q;
        default:                 setp_res = 1'b0;
      endcase
      special2     = special_q1;
      special_val2 = special_val_q1;
      if (kind_q1 == KindMinMax) begin
        special2     = 1'b1;
        special_val2 = mm_res;
      end else if (kind_q1 == KindSetp) begin
        special2     = 1'b1;
        special_val2 = 32'd0;
      end
      pred2 = (kind_q1 == KindSetp) && setp_res;
    end

    logic [47:0]        prod_q;
    logic [WinW-1:0]    c_win_q;
    logic signed [11:0] limit_q2;
    logic               cap_en_q;
    logic [6:0]         cap_q;
    logic               sp_q2, eff_sub_q2, special_q2, pred_q2;
    logic [31:0]        special_val_q2;

    always_ff @(posedge clk_i) begin
      prod_q         <= prod;
      c_win_q        <= c_win;
      limit_q2       <= limit;
      cap_en_q       <= cap_en;
      cap_q          <= cap;
      sp_q2          <= sp_q1;
      eff_sub_q2     <= eff_sub_q1;
      special_q2     <= special2;
      special_val_q2 <= special_val2;
      pred_q2        <= pred2;
    end

    ///////////////
    // Stage 3   //
    ///////////////

    // One adder does P + C and P - C (C inverted, carry in 1). A negative P - C is not negated
    // here: stage 4 shifts the two's complement value t and negates after the shift (negation
    // commutes with the shift), so no second subtractor or select is needed. The leading-zero
    // count runs on t's one's complement |t| - 1 when t < 0; it is one more than |t|'s only
    // when |t| is a power of two, which stage 4's rounding carry absorbs (see there). The
    // limit is a comparison after the count (a one-hot marker before it cost ~120 LUTs more).
    logic [WinW-1:0] p_win, t3, mag;
    logic [WinW:0]   s1;
    logic            neg3;
    logic            sum_zero, mag_zero;
    logic [6:0]      lzc_cnt;
    logic [6:0]      nshift;               // normalizing left shift of the 103-bit register
    logic            sign3;

    assign p_win    = {26'd0, prod_q, 3'b0};
    assign s1       = {1'b0, p_win} + {1'b0, c_win_q ^ {WinW{eff_sub_q2}}} +
                      {{WinW{1'b0}}, eff_sub_q2};
    assign neg3     = eff_sub_q2 & !s1[WinW];
    assign t3       = s1[WinW-1:0];
    assign mag      = t3 ^ {WinW{neg3}};
    assign sign3    = sp_q2 ^ neg3;
    assign sum_zero = mag_zero && !neg3;  // t = 0 (mag = 0 with neg3 is t = -1)

    assign nshift = (cap_en_q && lzc_cnt > cap_q) ? cap_q : lzc_cnt;

    wf_lzc #(
      .Width    (ZW),
      .CntWidth (7)
    ) u_lzc (
      .data_i ({{(ZW - WinW){1'b0}}, mag}),
      .cnt_o  (lzc_cnt),
      .zero_o (mag_zero)
    );

    logic [WinW-1:0]    t_q;
    logic [6:0]         nshift_q;
    logic signed [11:0] limit_q3;
    logic               neg_q3, sign_q3, sum_zero_q, special_q3, pred_q3;
    logic [31:0]        special_val_q3;

    always_ff @(posedge clk_i) begin
      t_q            <= t3;
      nshift_q       <= nshift;
      limit_q3       <= limit_q2;
      neg_q3         <= neg3;
      sign_q3        <= sign3;
      sum_zero_q     <= sum_zero;
      special_q3     <= special_q2;
      special_val_q3 <= special_val_q2;
      pred_q3        <= pred_q2;
    end

    ///////////////
    // Stage 4   //
    ///////////////

    logic        bits_msb;
    logic [2:0]  exp_field_hi;  // bits of exp_field above the 9 the result uses

    // The normalizing shift of x = t sign-extended to 103 bits, x << nshift: explicit
    // multiplexer layers by 64, 16s, 4s and 1s, each computed only for the bits the next layer
    // (or the sticky below) reads. Only the top 25 bits (mantissa and guard) are kept; the
    // sticky is whether x << nshift has a one below them (the same for t and -t: equal
    // trailing zeros), read off the layers rather than a trailing-zero count of the sum.
    logic [ZW-1:0] nz_x, nz_1, nz_2, nz_3, z_norm;
    logic          sticky;

    assign nz_x = {{(ZW - WinW){neg_q3}}, t_q};

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

    // Bits that end below the guard (bit 78): the bits of a layer's output under 78 - (the later
    // layers' shift) come from its input under that bound minus the layer's shift, so group d
    // of the input bits just under the bound stays below for layer shifts under d. x's bits
    // under 63 move only with the first layer (by 64, which takes them out of the region).
    always_comb begin
      logic [2:0] grp_16, grp_4;
      for (int unsigned d = 0; d < 3; d++) begin
        grp_16[d] = |nz_x[15 + 16 * d +: 16];
        grp_4[d]  = |nz_2[63 + 4 * d +: 4];
      end
      sticky = (!nshift_q[6] && (|nz_x[14:0] ||
                                 (nshift_q[5:4] <= 2'd2 && grp_16[0]) ||
                                 (nshift_q[5:4] <= 2'd1 && grp_16[1]) ||
                                 (nshift_q[5:4] == 2'd0 && grp_16[2]))) ||
               (nshift_q[3:2] <= 2'd2 && grp_4[0]) ||
               (nshift_q[3:2] <= 2'd1 && grp_4[1]) ||
               (nshift_q[3:2] == 2'd0 && grp_4[2]) ||
               (nshift_q[1:0] <= 2'd2 && nz_3[75]) ||
               (nshift_q[1:0] <= 2'd1 && nz_3[76]) ||
               (nshift_q[1:0] == 2'd0 && nz_3[77]);
    end

    always_comb begin
      logic [23:0]        mant;
      logic               guard, carry_in, inc, away, to_inf, ovf, sub_after, sat_one;
      logic [31:0]        bits, r;
      logic signed [11:0] exp_field;       // biased exponent field, minus the hidden bit
      // For t < 0 the magnitude is -(x << nshift) = ~(x << nshift) + 1: the complemented top
      // 25 bits, plus a carry into the guard when the bits below it are all zero (no sticky;
      // the sticky is the same for t and -t). When |t| is a power of two the count was one too
      // many: the complement is all ones and that carry makes the mantissa 2^24, which the
      // packing adds into the exponent field, as a rounding carry.
      mant     = z_norm[ZW-1 -: 24] ^ {24{neg_q3}};
      guard    = z_norm[ZW-25] ^ neg_q3;
      carry_in = neg_q3 && !sticky;
      exp_field = limit_q3 - 12'(nshift_q);
      away   = (rnd_q3 == wf_isa_pkg::RND_RP && !sign_q3) ||
               (rnd_q3 == wf_isa_pkg::RND_RM && sign_q3);
      // With the carry into the guard: a set guard carries into the mantissa (exact); a clear
      // one becomes a tie (sticky clear).
      unique case (rnd_q3)
        wf_isa_pkg::RND_RN: inc = carry_in ? (guard | mant[0]) : guard & (sticky | mant[0]);
        wf_isa_pkg::RND_RZ: inc = carry_in & guard;
        default:            inc = carry_in ? (guard | away) : away & (guard | sticky);
      endcase
      to_inf = (rnd_q3 == wf_isa_pkg::RND_RN) || away;
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
      // the inputs of r's selection rather than from r: a special value of the arithmetic ops
      // is the canonical NaN, an infinity or a zero, of which only +inf gives 1.0; an exact
      // zero gives +0, an overflow +0 or 1.0 by its sign.
      if (sat_q3) begin
        if (special_q3) begin
          r = (!special_val_q3[31] && special_val_q3[30] && !special_val_q3[22]) ? F32One : 32'd0;
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
      res_d[l]     = r;
      pred_d[l]    = pred_q3;
      bits_msb    = bits[31];
      exp_field_hi = exp_field[11:9];
    end

    logic unused_bits;
    assign unused_bits = ^{exp_field_hi, bits_msb};
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
