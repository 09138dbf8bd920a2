// Special function unit: MUFU.RCP, .RSQ, .SQRT, .EX2, .LG2, .SIN, .COS (with .FTZ) and .TANH
// (which has no .FTZ in PTX: the flag is ignored) for `Lanes` lanes. Fixed latency
// op_latency(OP_MUFU), valid-in/valid-out, no back-pressure. Bit-exact with hls sfu32
// (frcpApprox32, frsqrtApprox32, fsqrtApprox32, fex2Approx32, flg2Approx32, fsinApprox32,
// fcosApprox32, ftanhApprox32): every fixed-point step below is the one of hls/sfu.h at the same
// width, and the segment tables come from wf_sfu_pkg, generated from hls/sfu_tables.h.
//
// Datapath per lane (comb stage k feeds register k; the last register is the output):
//   1      flush, classify, unpack (subnormals normalized): m (24 bits), e; tanh: the binade's
//          segment count and first segment
//   2      special results; trig: m * floor(2^256 / 2pi) as four 24 x 64 partial products;
//          rcp/rsq/lg2/tanh: segment index and t; ex2: x * 2^32
//   3      trig: the product summed, its 64 bits at 2^-64..2^-1 turns (shifter);
//          others: segment table lookup
//   4-7    rcp/rsq/ex2/lg2/tanh: Horner steps c_k + ((acc * t) >> 23 or 32) (lg2 and tanh use
//          all four);
//          trig: quadrant fold, u = (turns * pi) >> 61, u^2, u^4, u^3, exact divisions by 6,
//          24 and 120 (magic multipliers), normalization of the small-argument product
//   8      trig: cos(u), sin(u) series sums, table sin/cos at the segment midpoint;
//          others: magnitude and scale of the result
//   9-10   trig: sin(phi + u) = S cos(u) + C sin(u), or d * g for the first segment
//   2-10   sqrt: non-restoring square root of m << k, three result bits per stage, remainder
//          zero test (the correctly rounded square root, as hls fsqrt32)
//   10     leading zeros of the result magnitude
//   11     normalize; exponent, overflow, shift onto the subnormal grid; trailing zeros (sticky)
//   12     round to nearest even on the normal or subnormal grid, FTZ of the result, special
//          results
module wf_sfu #(
  parameter int unsigned Lanes = 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,

  input  logic                            valid_i,
  input  logic [wf_isa_pkg::InstBits-1:0] inst_i,
  input  logic [Lanes-1:0][31:0]          a_i,

  output logic                            valid_o,
  output logic [Lanes-1:0][31:0]          res_o
);

  localparam int unsigned Latency = wf_isa_pkg::op_latency(wf_isa_pkg::OP_MUFU);
  localparam int unsigned CoreStages = 12;

  if (Latency < CoreStages) begin : gen_latency_check
    $error("wf_sfu: ISA latency %0d is shorter than the SFU's %0d stages", Latency, CoreStages);
  end

  localparam logic [31:0] F32One = 32'h3f80_0000;
  localparam logic [31:0] F32Nan = 32'h7fff_ffff;
  localparam logic [30:0] F32Inf = 31'h7f80_0000;

  // Exact floor division by a constant d of an N-bit n (Granlund and Montgomery): with
  // l = ceil(log2 d), floor(n / d) = floor(n * ceil(2^(N+l) / d) / 2^(N+l)).
  localparam logic [57:0] Div6Num   = 58'd1 << 57;                          // N = 54
  localparam logic [54:0] Div6M     = 55'((Div6Num + 58'd5) / 58'd6);
  localparam logic [49:0] Div24Num  = 50'd1 << 49;                          // N = 44
  localparam logic [44:0] Div24M    = 45'((Div24Num + 50'd23) / 50'd24);
  localparam logic [51:0] Div120Num = 52'd1 << 51;                          // N = 44
  localparam logic [44:0] Div120M   = 45'((Div120Num + 52'd119) / 52'd120);

  localparam int unsigned AccW = 44;   // Horner accumulator (signed)
  localparam int unsigned TW   = 27;   // Horner argument t (signed)

  //////////////////////////////
  // Decode, control pipeline //
  //////////////////////////////

  logic [2:0] fn;                      // wf_isa_pkg::sfufn_e
  logic       ftz;

  assign fn  = inst_i[wf_isa_pkg::MufuFnLo +: wf_isa_pkg::MufuFnWidth];
  // tanh.approx has no .ftz: its subnormal operands pass through.
  assign ftz = inst_i[wf_isa_pkg::MufuFtzLo] && (fn != wf_isa_pkg::SFU_FN_TANH);

  // fn_q[k-1] / ftz_q[k-1]: the operation in register stage k.
  logic [CoreStages-2:0]      valid_q;
  logic [CoreStages-4:0][2:0] fn_q;     // used up to stage 10
  logic [CoreStages-2:0]      ftz_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= {valid_q[CoreStages-3:0], valid_i};
    end
  end

  always_ff @(posedge clk_i) begin
    fn_q  <= {fn_q[CoreStages-5:0], fn};
    ftz_q <= {ftz_q[CoreStages-3:0], ftz};
  end

  // One Horner step: c + q, c - q or q - c with q = (acc * t) >> 23 (>> 32 for ex2).
  function automatic logic signed [AccW-1:0] horner(logic signed [AccW-1:0] acc,
                                                    logic signed [TW-1:0] t,
                                                    logic signed [AccW-1:0] c,
                                                    logic sh32, logic c_minus_q,
                                                    logic q_minus_c);
    logic signed [AccW+TW-1:0] p;
    logic signed [AccW-1:0]    q;
    p = acc * t;
    q = sh32 ? AccW'(p >>> 32) : AccW'(p >>> 23);
    if (c_minus_q)      horner = c - q;
    else if (q_minus_c) horner = q - c;
    else                horner = c + q;
  endfunction

  logic [Lanes-1:0][31:0] res_d;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane

    logic unused_w, unused_win, unused_pr, unused_sq5, unused_acc, unused_tbin;   // sinks

    ////////////////////////////////////////////
    // Stage 1: flush, classify, unpack       //
    ////////////////////////////////////////////

    logic [31:0] x;
    logic        xs, xz, xi, xn;
    logic [4:0]  sub_lz;
    logic        unused_sub_zero;
    logic [23:0] m1;
    logic signed [9:0] e1;
    logic        big1, tiny1;                // ex2: x >= 128, x <= -200
    logic        lt87, lt97, lt115;          // exponent field below 87, 97, 115 (e < -40, -30, -12)
    logic        tbig1;                      // tanh: |x| >= 9.5
    logic [2*wf_sfu_pkg::TanhBinW-1:0] tbin1; // tanh: {segment count log2, first segment}

    assign x  = (ftz && a_i[l][30:23] == 8'd0) ? {a_i[l][31], 31'd0} : a_i[l];
    assign xs = x[31];
    assign xz = x[30:0] == 31'd0;
    assign xi = x[30:23] == 8'hff && x[22:0] == 23'd0;
    assign xn = x[30:23] == 8'hff && x[22:0] != 23'd0;
    assign big1  = !xs && x[30:0] >= 31'h4300_0000;
    assign tiny1 = xs && x[30:0] >= 31'h4348_0000;
    assign lt87  = x[30:23] < 8'd87;
    assign lt97  = x[30:23] < 8'd97;
    assign lt115 = x[30:23] < 8'd115;
    assign tbig1 = x[30:0] >= 31'h4118_0000;
    // Binade e - TanhMinExp from the exponent field (only e in [-12, 3] reaches the table).
    assign tbin1 = wf_sfu_pkg::tanh_bin(4'(x[26:23] - 4'(wf_sfu_pkg::TanhMinExp + 127)));

    wf_lzc #(
      .Width    (23),
      .CntWidth (5)
    ) u_sub_lzc (
      .data_i (a_i[l][22:0]),
      .cnt_o  (sub_lz),
      .zero_o (unused_sub_zero)
    );

    always_comb begin
      // x = m * 2^(e - 23), m with its top bit set (subnormals normalized). Unpacked from the
      // operand before the flush: a flushed subnormal is a zero, whose result is special.
      if (a_i[l][30:23] == 8'd0) begin
        m1 = 24'({a_i[l][22:0], 1'b0} << sub_lz);
        e1 = -10'sd127 - 10'(sub_lz);
      end else begin
        m1 = {1'b1, a_i[l][22:0]};
        e1 = 10'(a_i[l][30:23]) - 10'sd127;
      end
    end

    logic [23:0]       m_q1;
    logic signed [9:0] e_q1;
    logic              s_q1;
    logic [31:0]       x_q1;
    logic              xz_q1, xi_q1, xn_q1, big_q1, tiny_q1, lt87_q1, lt97_q1, lt115_q1;
    logic              tbig_q1;
    logic [2*wf_sfu_pkg::TanhBinW-1:0] tbin_q1;

    always_ff @(posedge clk_i) begin
      m_q1     <= m1;
      e_q1     <= e1;
      s_q1     <= xs;
      x_q1     <= x;
      xz_q1    <= xz;
      xi_q1    <= xi;
      xn_q1    <= xn;
      big_q1   <= big1;
      tiny_q1  <= tiny1;
      lt87_q1  <= lt87;
      lt97_q1  <= lt97;
      lt115_q1 <= lt115;
      tbig_q1  <= tbig1;
      tbin_q1  <= tbin1;
    end

    /////////////////////////////////////////////
    // Stage 2: special results                //
    /////////////////////////////////////////////

    logic        spec2;
    logic [31:0] specv2;

    always_comb begin
      // Special results, in the order of hls/sfu.h.
      spec2  = 1'b1;
      specv2 = F32Nan;
      unique case (fn_q[0])
        wf_isa_pkg::SFU_FN_RCP: begin
          if (xn_q1)      specv2 = F32Nan;
          else if (xz_q1) specv2 = {s_q1, F32Inf};
          else if (xi_q1) specv2 = {s_q1, 31'd0};
          else            spec2  = 1'b0;
        end
        wf_isa_pkg::SFU_FN_RSQ: begin
          if (xn_q1)      specv2 = F32Nan;
          else if (xz_q1) specv2 = {s_q1, F32Inf};
          else if (xi_q1) specv2 = s_q1 ? F32Nan : 32'd0;
          else if (s_q1)  specv2 = F32Nan;
          else            spec2  = 1'b0;
        end
        wf_isa_pkg::SFU_FN_SQRT: begin
          if (xn_q1)      specv2 = F32Nan;
          else if (xz_q1) specv2 = x_q1;
          else if (xi_q1) specv2 = s_q1 ? F32Nan : x_q1;
          else if (s_q1)  specv2 = F32Nan;
          else            spec2  = 1'b0;
        end
        wf_isa_pkg::SFU_FN_EX2: begin
          if (xn_q1)        specv2 = F32Nan;
          else if (xz_q1)   specv2 = F32One;
          else if (xi_q1)   specv2 = s_q1 ? 32'd0 : {1'b0, F32Inf};
          else if (big_q1)  specv2 = {1'b0, F32Inf};           // x >= 128
          else if (tiny_q1) specv2 = 32'd0;                     // x <= -200
          else if (lt87_q1) specv2 = F32One;                    // e < -40
          else              spec2  = 1'b0;
        end
        wf_isa_pkg::SFU_FN_LG2: begin
          if (xn_q1)      specv2 = F32Nan;
          else if (xz_q1) specv2 = {1'b1, F32Inf};
          else if (xi_q1) specv2 = s_q1 ? F32Nan : {1'b0, F32Inf};
          else if (s_q1)  specv2 = F32Nan;
          else            spec2  = 1'b0;
        end
        wf_isa_pkg::SFU_FN_SIN: begin
          if (xn_q1 || xi_q1) specv2 = F32Nan;
          else if (xz_q1)     specv2 = x_q1;
          else if (lt115_q1)  specv2 = x_q1;                    // e < -12: sin(x) rounds to x
          else                spec2  = 1'b0;
        end
        wf_isa_pkg::SFU_FN_COS: begin
          if (xn_q1 || xi_q1) specv2 = F32Nan;
          else if (xz_q1)     specv2 = F32One;
          else if (lt97_q1)   specv2 = F32One;                  // e < -30
          else                spec2  = 1'b0;
        end
        wf_isa_pkg::SFU_FN_TANH: begin
          if (xn_q1)                 specv2 = F32Nan;
          else if (xz_q1)            specv2 = x_q1;
          else if (xi_q1 || tbig_q1) specv2 = {s_q1, F32One[30:0]};  // |x| >= 9.5: +-1
          else if (lt115_q1)         specv2 = x_q1;                   // e < -12: rounds to x
          else                       spec2  = 1'b0;
        end
        default: ;
      endcase
    end

    // Special result, carried to stage 12: stage k at spec_q[k-2], specv_q[32*(k-2) +: 32].
    logic [CoreStages-3:0]      spec_q;
    logic [32*CoreStages-65:0]  specv_q;

    always_ff @(posedge clk_i) begin
      spec_q  <= {spec_q[CoreStages-4:0], spec2};
      specv_q <= {specv_q[32*CoreStages-97:0], specv2};
    end

    //////////////////////////////////////////////////////
    // Stage 2: reduction product, Horner arguments     //
    //////////////////////////////////////////////////////

    // Trig: p = m * floor(2^256 / 2pi); bit b of p weighs 2^(b + e - 279) turns. Four 24 x 64
    // partial products here (short DSP adder chains), their sum in stage 3; bits below 88 only
    // matter through the carry out of m * K[63:0].
    logic [4*88-1:0] pp2;                    // m * K[64k +: 64] at [88k +: 88]
    logic [7:0]   tsh2;                      // 127 - e: p bits [88 + tsh +: 64] are the turns
    // Horner: segment index ({odd exponent, segment} for rsq), argument t.
    logic [6:0]           idx2;
    logic signed [TW-1:0] t2;
    logic signed [8:0]    n2;                // ex2: integer part of x
    logic                 odd2;
    // tanh: segment first + f's top sb bits; t = f relative to the segment's midpoint.
    logic [6:0]           tidx2;
    logic signed [TW-1:0] tt2;

    always_comb begin
      logic [2:0]  sb;
      logic [6:0]  first;
      logic [22:0] f;
      sb    = tbin_q1[wf_sfu_pkg::TanhBinW +: 3];
      first = tbin_q1[6:0];
      f     = m_q1[22:0];
      unused_tbin = ^{tbin_q1[2*wf_sfu_pkg::TanhBinW-1:wf_sfu_pkg::TanhBinW+3],
                      tbin_q1[wf_sfu_pkg::TanhBinW-1:7]};
      unique case (sb)
        3'd0:    begin tidx2 = first;                   tt2 = TW'($signed({~f[22], f[21:0]})); end
        3'd1:    begin tidx2 = first + 7'(f[22]);       tt2 = TW'($signed({~f[21], f[20:0]})); end
        3'd2:    begin tidx2 = first + 7'(f[22:21]);    tt2 = TW'($signed({~f[20], f[19:0]})); end
        3'd3:    begin tidx2 = first + 7'(f[22:20]);    tt2 = TW'($signed({~f[19], f[18:0]})); end
        3'd4:    begin tidx2 = first + 7'(f[22:19]);    tt2 = TW'($signed({~f[18], f[17:0]})); end
        default: begin tidx2 = first + 7'(f[22:18]);    tt2 = TW'($signed({~f[17], f[16:0]})); end
      endcase
    end

    for (genvar k = 0; k < 4; k++) begin : gen_pp
      assign pp2[88*k +: 88] = 88'(m_q1) * 88'(wf_sfu_pkg::Inv2PiQ256[64*k +: 64]);
    end
    assign tsh2 = 8'(10'sd127 - e_q1);
    assign odd2 = e_q1[0];

    always_comb begin
      logic [5:0]  sh;
      logic [71:0] w;
      logic [40:0] mag;
      logic [40:0] xq;                       // ex2: x * 2^32 truncated toward zero (signed)
      sh   = 6'(e_q1 + 10'sd40);             // e in [-40, 7]: x * 2^32 = m * 2^(e + 9)
      w    = 72'(m_q1) << sh;
      mag  = w[71:31];
      unused_w = ^w[30:0];
      xq   = s_q1 ? -mag : mag;
      n2   = xq[40:32];
      idx2 = {1'b0, m_q1[22:17]};
      t2   = TW'($signed({~m_q1[16], m_q1[15:0]}));   // f[16:0] - 2^16
      if ((fn_q[0] == wf_isa_pkg::SFU_FN_TANH)) begin
        idx2 = tidx2;
        t2   = tt2;
      end else if ((fn_q[0] == wf_isa_pkg::SFU_FN_RSQ)) begin
        idx2 = {odd2, m_q1[22:17]};
      end else if ((fn_q[0] == wf_isa_pkg::SFU_FN_LG2)) begin
        t2 = TW'($signed({1'b0, m_q1[16:0]}));        // d = f[16:0]
      end else if ((fn_q[0] == wf_isa_pkg::SFU_FN_EX2)) begin
        idx2 = {1'b0, xq[31:26]};
        t2   = TW'($signed({~xq[25], xq[24:0]}));     // f[25:0] - 2^25
      end
    end

    logic [23:0]          pp0_q2;            // bits [87:64] of m * K[63:0]
    logic [87:0]          pp1_q2, pp2_q2, pp3_q2;
    logic [7:0]           tsh_q2;
    logic                 s_q2;
    logic [6:0]           idx_q2;
    logic signed [TW-1:0] t_q2;
    logic signed [8:0]    n_q2;
    logic signed [9:0]    e_q2;

    always_ff @(posedge clk_i) begin
      pp0_q2 <= pp2[87:64];
      pp1_q2 <= pp2[88 +: 88];
      pp2_q2 <= pp2[176 +: 88];
      pp3_q2 <= pp2[264 +: 88];
      tsh_q2 <= tsh2;
      s_q2   <= s_q1;
      idx_q2 <= idx2;
      t_q2   <= t2;
      n_q2   <= n2;
      e_q2   <= e_q1;
    end

    ///////////////////////////////////////////////////////
    // Stage 3: turns and quadrant; table lookup         //
    ///////////////////////////////////////////////////////

    logic [63:0] turns3;                     // frac(x / 2pi), Q0.64
    logic [5*AccW-1:0] c3;          // coefficient k at [k*AccW +: AccW]

    // The turns are p bits 88 and up shifted right by tsh, 64 bits kept: explicit 4:1
    // multiplexer layers (by 64s, 16s, 4s, 1s), each computed only for the bits the next layer
    // reads (a `>>` maps to a deeper and larger shifter).
    always_comb begin
      logic [215:0] psum;                    // p bits [279:64]
      logic [191:0] win;                     // p bits [279:88]
      logic [126:0] w1;
      logic [78:0]  w2;
      logic [66:0]  w3;
      psum   = (216'(pp0_q2) + 216'(pp1_q2)) + ((216'(pp2_q2) << 64) + (216'(pp3_q2) << 128));
      win    = psum[215:24];
      for (int unsigned i = 0; i < 127; i++) begin
        w1[i] = 1'b0;
        for (int unsigned d = 0; d < 4; d++) begin
          if (tsh_q2[7:6] == 2'(d) && i + 64 * d < 192) w1[i] = win[(i + 64 * d) % 192];
        end
      end
      for (int unsigned i = 0; i < 79; i++) begin
        w2[i] = 1'b0;
        for (int unsigned d = 0; d < 4; d++) begin
          if (tsh_q2[5:4] == 2'(d)) w2[i] = w1[i + 16 * d];
        end
      end
      for (int unsigned i = 0; i < 67; i++) begin
        w3[i] = 1'b0;
        for (int unsigned d = 0; d < 4; d++) begin
          if (tsh_q2[3:2] == 2'(d)) w3[i] = w2[i + 4 * d];
        end
      end
      for (int unsigned i = 0; i < 64; i++) begin
        turns3[i] = 1'b0;
        for (int unsigned d = 0; d < 4; d++) begin
          if (tsh_q2[1:0] == 2'(d)) turns3[i] = w3[i + d];
        end
      end
      unused_win = ^psum[23:0];
    end

    always_comb begin
      logic [4*wf_sfu_pkg::RcpW-1:0] rc;
      logic [4*wf_sfu_pkg::RsqW-1:0] rs;
      logic [4*wf_sfu_pkg::Ex2W-1:0] ex;
      logic [5*wf_sfu_pkg::Lg2W-1:0] lg;
      logic [5*wf_sfu_pkg::TanhW-1:0] th;
      th = wf_sfu_pkg::tanh_seg(idx_q2);
      rc = wf_sfu_pkg::rcp_seg(idx_q2[5:0]);
      rs = wf_sfu_pkg::rsq_seg(idx_q2);
      ex = wf_sfu_pkg::ex2_seg(idx_q2[5:0]);
      lg = wf_sfu_pkg::lg2_seg(idx_q2[5:0]);
      for (int k = 0; k < 5; k++) begin
        c3[k*AccW +: AccW] = AccW'($signed(lg[k*wf_sfu_pkg::Lg2W +: wf_sfu_pkg::Lg2W]));
      end
      if ((fn_q[1] == wf_isa_pkg::SFU_FN_TANH)) begin
        for (int k = 0; k < 5; k++) begin
          c3[k*AccW +: AccW] = AccW'($signed(th[k*wf_sfu_pkg::TanhW +: wf_sfu_pkg::TanhW]));
        end
      end else if ((fn_q[1] == wf_isa_pkg::SFU_FN_RCP)) begin
        for (int k = 0; k < 4; k++) begin
          c3[k*AccW +: AccW] = AccW'($signed(rc[k*wf_sfu_pkg::RcpW +: wf_sfu_pkg::RcpW]));
        end
      end else if ((fn_q[1] == wf_isa_pkg::SFU_FN_RSQ)) begin
        for (int k = 0; k < 4; k++) begin
          c3[k*AccW +: AccW] = AccW'($signed(rs[k*wf_sfu_pkg::RsqW +: wf_sfu_pkg::RsqW]));
        end
      end else if ((fn_q[1] == wf_isa_pkg::SFU_FN_EX2)) begin
        for (int k = 0; k < 4; k++) begin
          c3[k*AccW +: AccW] = AccW'($signed(ex[k*wf_sfu_pkg::Ex2W +: wf_sfu_pkg::Ex2W]));
        end
      end
    end

    logic [63:0]            turns_q3;
    logic [5*AccW-1:0]      c_q3;
    logic signed [TW-1:0]   t_q3;
    logic signed [8:0]      n_q3;
    logic signed [9:0]      e_q3;
    logic                   s_q3;

    always_ff @(posedge clk_i) begin
      turns_q3 <= turns3;
      c_q3   <= c3;
      t_q3   <= t_q2;
      n_q3   <= n_q2;
      e_q3   <= e_q2;
      s_q3   <= s_q2;
    end

    ////////////////////////////////////////////////
    // Stages 4-7: Horner steps; trig series      //
    ////////////////////////////////////////////////

    // Stage 4: lg2 and tanh only, c3 + ((c4 * t) >> 23); the others start from c3.
    logic signed [AccW-1:0] acc4;
    assign acc4 = (fn_q[2] == wf_isa_pkg::SFU_FN_LG2 || fn_q[2] == wf_isa_pkg::SFU_FN_TANH) ?
                  horner(c_q3[4*AccW +: AccW], t_q3, c_q3[3*AccW +: AccW], 1'b0, 1'b0, 1'b0) :
                  c_q3[3*AccW +: AccW];

    // Trig stage 4: quadrant fold, r = turns within the quadrant (Q.64, up to 2^62); j = segment; u = (turns relative to the segment midpoint) * pi, or for
    // segment 0 d = turns * pi; v = that >> 61 (Q.64 radians).
    logic [62:0]         r4;
    logic                neg4;
    logic                quarter4, rzero4, j04;
    logic [5:0]          j4;
    logic signed [59:0]  v4;
    logic [119:0]        dfull4;

    always_comb begin
      logic signed [56:0]  xt;
      logic signed [121:0] pr;
      logic [1:0]          q;
      logic                is_cos;
      is_cos   = (fn_q[2] == wf_isa_pkg::SFU_FN_COS);
      q        = turns_q3[63:62] + {1'b0, is_cos};   // cos(2 pi t) = sin(2 pi (t + 1/4))
      r4       = q[0] ? (63'd1 << 62) - {1'b0, turns_q3[61:0]} : {1'b0, turns_q3[61:0]};
      neg4     = q[1] ^ (!is_cos && s_q3);
      quarter4 = r4[62];
      rzero4   = r4 == 63'd0;
      j4       = r4[61:56];
      j04      = j4 == 6'd0;
      xt       = j04 ? $signed({1'b0, r4[55:0]}) : $signed({~r4[55], ~r4[55], r4[54:0]});
      pr       = xt * $signed({1'b0, wf_sfu_pkg::PiQ62});
      v4       = pr[120:61];
      unused_pr = pr[121];
      dfull4   = pr[119:0];
    end

    logic signed [AccW-1:0] acc_q4;
    logic [3*AccW-1:0]      c_q4;
    logic signed [TW-1:0]   t_q4;
    logic signed [8:0]      n_q4;
    logic signed [9:0]      e_q4;
    logic                   s_q4;
    logic                   quarter_q4, rzero_q4, j0_q4, neg_q4;
    logic [5:0]             j_q4;
    logic signed [59:0]     v_q4;
    logic [119:0]           dfull_q4;

    always_ff @(posedge clk_i) begin
      acc_q4     <= acc4;
      c_q4       <= c_q3[3*AccW-1:0];
      t_q4       <= t_q3;
      n_q4       <= n_q3;
      e_q4       <= e_q3;
      s_q4       <= s_q3;
      quarter_q4 <= quarter4;
      rzero_q4   <= rzero4;
      j0_q4      <= j04;
      neg_q4     <= neg4;
      j_q4       <= j4;
      v_q4       <= v4;
      dfull_q4   <= dfull4;
    end

    // Stage 5: Horner c2; trig u^2 and the normalization of d (segment 0).
    logic signed [AccW-1:0] acc5;
    logic                   rs5;             // rcp/rsq: alternating signs
    logic                   ex5;
    assign rs5  = (fn_q[3] == wf_isa_pkg::SFU_FN_RCP) || (fn_q[3] == wf_isa_pkg::SFU_FN_RSQ);
    assign ex5  = (fn_q[3] == wf_isa_pkg::SFU_FN_EX2);
    assign acc5 = horner(acc_q4, t_q4, c_q4[2*AccW +: AccW], ex5, rs5, 1'b0);

    logic [55:0]  v2_5;
    logic [6:0]   dlz5;                      // leading zeros of d * 2^61 in 120 bits
    logic         unused_dzero;
    logic [63:0]  dtop5;                     // normalized, lower bits jammed into bit 0

    always_comb begin
      logic signed [119:0] sq;
      sq   = v_q4 * v_q4;
      v2_5 = 56'(sq[119:64]);
      unused_sq5 = ^sq[63:0];
    end

    wf_lzc #(
      .Width    (120),
      .CntWidth (7)
    ) u_dlzc (
      .data_i (dfull_q4),
      .cnt_o  (dlz5),
      .zero_o (unused_dzero)
    );

    always_comb begin
      logic [119:0] dn;
      dn    = dfull_q4 << dlz5;
      dtop5 = dn[119:56] | {63'd0, dn[55:0] != 56'd0};
    end

    logic signed [AccW-1:0] acc_q5;
    logic [2*AccW-1:0]      c_q5;
    logic signed [TW-1:0]   t_q5;
    logic signed [8:0]      n_q5;
    logic signed [9:0]      e_q5;
    logic                   s_q5;
    logic                   quarter_q5, rzero_q5, j0_q5, neg_q5;
    logic [5:0]             j_q5;
    logic signed [59:0]     v_q5;
    logic [55:0]            v2_q5;
    logic [6:0]             dlz_q5;
    logic [63:0]            dtop_q5;

    always_ff @(posedge clk_i) begin
      acc_q5     <= acc5;
      c_q5       <= c_q4[2*AccW-1:0];
      t_q5       <= t_q4;
      n_q5       <= n_q4;
      e_q5       <= e_q4;
      s_q5       <= s_q4;
      quarter_q5 <= quarter_q4;
      rzero_q5   <= rzero_q4;
      j0_q5      <= j0_q4;
      neg_q5     <= neg_q4;
      j_q5       <= j_q4;
      v_q5       <= v_q4;
      v2_q5      <= v2_5;
      dlz_q5     <= dlz5;
      dtop_q5    <= dtop5;
    end

    // Stage 6: Horner c1; trig u^4 and u^3.
    logic signed [AccW-1:0] acc6;
    logic                   rs6, ex6;
    assign rs6  = (fn_q[4] == wf_isa_pkg::SFU_FN_RCP) || (fn_q[4] == wf_isa_pkg::SFU_FN_RSQ);
    assign ex6  = (fn_q[4] == wf_isa_pkg::SFU_FN_EX2);
    assign acc6 = horner(acc_q5, t_q5, c_q5[AccW +: AccW], ex6, 1'b0, rs6);

    logic [43:0]        v4_6;
    logic signed [52:0] v3_6;
    logic [5:0]         unused_v4_hi;

    always_comb begin
      logic [111:0]        p4;
      logic signed [116:0] p3;
      p4           = 112'(v2_q5) * 112'(v2_q5);
      p3           = $signed({1'b0, v2_q5}) * v_q5;
      v4_6         = p4[107:64];             // < 2^44
      unused_v4_hi = {p4[111:108], ^p4[63:0], ^p3[63:0]};
      v3_6         = p3[116:64];             // floor((u^2 * u) / 2^64)
    end

    logic signed [AccW-1:0] acc_q6;
    logic signed [AccW-1:0] c_q6;
    logic signed [TW-1:0]   t_q6;
    logic signed [8:0]      n_q6;
    logic signed [9:0]      e_q6;
    logic                   s_q6;
    logic                   quarter_q6, rzero_q6, j0_q6, neg_q6;
    logic [5:0]             j_q6;
    logic signed [59:0]     v_q6;
    logic [55:0]            v2_q6;
    logic [43:0]            v4_q6;
    logic signed [52:0]     v3_q6;
    logic [6:0]             dlz_q6;
    logic [63:0]            dtop_q6;

    always_ff @(posedge clk_i) begin
      acc_q6     <= acc6;
      c_q6       <= c_q5[AccW-1:0];
      t_q6       <= t_q5;
      n_q6       <= n_q5;
      e_q6       <= e_q5;
      s_q6       <= s_q5;
      quarter_q6 <= quarter_q5;
      rzero_q6   <= rzero_q5;
      j0_q6      <= j0_q5;
      neg_q6     <= neg_q5;
      j_q6       <= j_q5;
      v_q6       <= v_q5;
      v2_q6      <= v2_q5;
      v4_q6      <= v4_6;
      v3_q6      <= v3_6;
      dlz_q6     <= dlz_q5;
      dtop_q6    <= dtop_q5;
    end

    // Stage 7: Horner c0; trig exact quotients: segment 0 needs floor(u^2 / 6) and
    // floor(u^4 / 120), the others |u^3| / 6 (truncated) and floor(u^4 / 24).
    logic signed [AccW-1:0] acc7;
    assign acc7 = horner(acc_q6, t_q6, c_q6, (fn_q[5] == wf_isa_pkg::SFU_FN_EX2), 1'b0, 1'b0);

    logic [51:0] q6_7;                       // floor(xd / 6)
    logic [39:0] qy_7;                       // floor(u^4 / 120) or floor(u^4 / 24)
    logic        v3neg7;
    logic [56:0] unused_q6_lo;
    logic [48:0] unused_qy_lo;

    always_comb begin
      logic [53:0]  xd;
      logic [52:0]  v3abs;
      logic [108:0] pd;
      logic [88:0]  py;
      logic [44:0]  dm;
      v3neg7 = v3_q6[52];
      v3abs  = v3neg7 ? 53'(-v3_q6) : 53'(v3_q6);
      xd     = j0_q6 ? 54'(v2_q6) : 54'(v3abs);
      pd     = 109'(xd) * 109'(Div6M);
      q6_7   = pd[108:57];
      unused_q6_lo = pd[56:0];
      dm     = j0_q6 ? Div120M : Div24M;
      py     = 89'(v4_q6) * 89'(dm);
      qy_7   = j0_q6 ? {2'd0, py[88:51]} : py[88:49];
      unused_qy_lo = py[48:0];
    end

    logic signed [AccW-1:0] acc_q7;
    logic signed [8:0]      n_q7;
    logic signed [9:0]      e_q7;
    logic                   s_q7;
    logic                   quarter_q7, rzero_q7, j0_q7, neg_q7, v3neg_q7;
    logic [5:0]             j_q7;
    logic signed [59:0]     v_q7;
    logic [55:0]            v2_q7;
    logic [51:0]            q6_q7;
    logic [39:0]            qy_q7;
    logic [6:0]             dlz_q7;
    logic [63:0]            dtop_q7;

    always_ff @(posedge clk_i) begin
      acc_q7     <= acc7;
      n_q7       <= n_q6;
      e_q7       <= e_q6;
      s_q7       <= s_q6;
      quarter_q7 <= quarter_q6;
      rzero_q7   <= rzero_q6;
      j0_q7      <= j0_q6;
      neg_q7     <= neg_q6;
      v3neg_q7   <= v3neg7;
      j_q7       <= j_q6;
      v_q7       <= v_q6;
      v2_q7      <= v2_q6;
      q6_q7      <= q6_7;
      qy_q7      <= qy_7;
      dlz_q7     <= dlz_q6;
      dtop_q7    <= dtop_q6;
    end

    /////////////////////////////////////////////////////////
    // Stage 8: series sums; magnitude and scale of y       //
    /////////////////////////////////////////////////////////

    // Segment 0: g = 1 - d^2/6 + d^4/120 (Q.63). Others: cos(u) (Q.62) and sin(u) (Q.62).
    logic [63:0]        opa8, opb8;
    logic signed [57:0] su8;
    logic [62:0]        cosv8;

    always_comb begin
      logic [2*wf_sfu_pkg::SinCosW-1:0] sc;
      logic [63:0]        g, cu;
      logic signed [59:0] s6, sd;
      sc    = wf_sfu_pkg::sincos_seg(j_q7);
      g     = (64'd1 << 63) - {13'd0, q6_q7[51:1]} + {25'd0, qy_q7[39:1]};
      cu    = (64'd1 << 62) - {11'd0, v2_q7[55:3]} + {26'd0, qy_q7[39:2]};
      s6    = v3neg_q7 ? -$signed(60'(q6_q7)) : $signed(60'(q6_q7));
      sd    = v_q7 - s6;
      su8   = 58'(sd >>> 2);
      cosv8 = sc[wf_sfu_pkg::SinCosW +: 63];
      opa8  = j0_q7 ? dtop_q7 : {1'b0, sc[62:0]};
      opb8  = j0_q7 ? g : cu;
    end

    // rcp, rsq, ex2, lg2: result = mag * 2^scale.
    logic               ysign8;
    logic [63:0]        ymag8;
    logic signed [11:0] yscale8;

    always_comb begin
      logic signed [51:0] r, ra;
      r       = $signed({{2{e_q7[9]}}, e_q7, 40'd0}) + 52'(acc_q7);
      ra      = r[51] ? -r : r;      // lg2: e + log2(m), Q.40
      ysign8  = 1'b0;
      ymag8   = 64'(acc_q7);
      yscale8 = -12'sd40 - 12'(e_q7);                       // rcp
      unique case (fn_q[6])
        wf_isa_pkg::SFU_FN_RCP: ysign8 = s_q7;
        wf_isa_pkg::SFU_FN_RSQ: yscale8 = -12'sd40 - 12'($signed(e_q7[9:1]));
        wf_isa_pkg::SFU_FN_EX2: yscale8 = 12'(n_q7) - 12'sd34;
        wf_isa_pkg::SFU_FN_LG2: begin
          ysign8  = r[51];
          ymag8   = {12'd0, ra};
          yscale8 = -12'sd40;
        end
        wf_isa_pkg::SFU_FN_TANH: begin                      // tanh(|x|) / 2^e, Q.40
          ysign8  = s_q7;
          yscale8 = 12'(e_q7) - 12'sd40;
        end
        default: ;
      endcase
    end

    logic [63:0]        opa_q8, opb_q8;
    logic signed [57:0] su_q8;
    logic [62:0]        cosv_q8;
    logic               quarter_q8, rzero_q8, j0_q8, neg_q8;
    logic [6:0]         dlz_q8;
    logic               ysign_q8;
    logic [63:0]        ymag_q8;
    logic signed [11:0] yscale_q8;

    always_ff @(posedge clk_i) begin
      opa_q8     <= opa8;
      opb_q8     <= opb8;
      su_q8      <= su8;
      cosv_q8    <= cosv8;
      quarter_q8 <= quarter_q7;
      rzero_q8   <= rzero_q7;
      j0_q8      <= j0_q7;
      neg_q8     <= neg_q7;
      dlz_q8     <= dlz_q7;
      ysign_q8   <= ysign8;
      ymag_q8    <= ymag8;
      yscale_q8  <= yscale8;
    end

    ///////////////////////////////////////
    // Stage 9: the two final products   //
    ///////////////////////////////////////

    logic [127:0]        pa9;
    logic signed [121:0] pb9;

    assign pa9 = 128'(opa_q8) * 128'(opb_q8);
    assign pb9 = $signed({1'b0, cosv_q8}) * su_q8;

    logic [127:0]        pa_q9;
    logic signed [121:0] pb_q9;
    logic                quarter_q9, rzero_q9, j0_q9, neg_q9;
    logic [6:0]          dlz_q9;
    logic                ysign_q9;
    logic [63:0]         ymag_q9;
    logic signed [11:0]  yscale_q9;

    always_ff @(posedge clk_i) begin
      pa_q9      <= pa9;
      pb_q9      <= pb9;
      quarter_q9 <= quarter_q8;
      rzero_q9   <= rzero_q8;
      j0_q9      <= j0_q8;
      neg_q9     <= neg_q8;
      dlz_q9     <= dlz_q8;
      ysign_q9   <= ysign_q8;
      ymag_q9    <= ymag_q8;
      yscale_q9  <= yscale_q8;
    end

    ////////////////////////////////////////////////////
    // Stages 2-10: square root (non-restoring)       //
    ////////////////////////////////////////////////////

    // floor(sqrt(n)) of n = m << k (52 bits, k = 27 or 28 so that e - 23 - k is even), three
    // result bits per stage, 26 in all: r = 4r + digit -/+ (4q + 1 / 4q + 3), q = 2q + (r >= 0).
    localparam int unsigned SqStages = 9;

    for (genvar s = 0; s < SqStages; s++) begin : gen_sq
      localparam int Its = (26 - 3 * s < 3) ? 26 - 3 * s : 3;   // iterations in this stage
      logic signed [30:0] r_in, r_out, r_q;
      logic [25:0]        q_in, q_out, q_q;
      logic [23:0]        m_in, m_q;
      logic               k_in, k_q;         // k = 27 + k_q
      logic signed [11:0] sc_in, sc_q;       // result scale: (e - 23 - k) / 2 - 1

      if (s == 0) begin : gen_first
        assign r_in  = '0;
        assign q_in  = '0;
        assign m_in  = m_q1;
        assign k_in  = e_q1[0];
        assign sc_in = ($signed(12'(e_q1) - 12'sd50 - {11'd0, e_q1[0]}) >>> 1) - 12'sd1;
      end else begin : gen_next
        assign r_in  = gen_sq[s-1].r_q;
        assign q_in  = gen_sq[s-1].q_q;
        assign m_in  = gen_sq[s-1].m_q;
        assign k_in  = gen_sq[s-1].k_q;
        assign sc_in = gen_sq[s-1].sc_q;
      end

      always_comb begin
        logic [51:0]        n;
        logic signed [30:0] r, t;
        logic [25:0]        q;
        n = k_in ? {m_in, 28'd0} : {1'b0, m_in, 27'd0};
        r = r_in;
        q = q_in;
        for (int it = 0; it < Its; it++) begin
          t = {r[28:0], n[2 * (25 - 3 * s - it) +: 2]};
          if (!r[30]) r = t - 31'({q, 2'b01});
          else        r = t + 31'({q, 2'b11});
          q = {q[24:0], !r[30]};
        end
        r_out = r;
        q_out = q;
      end

      if (s < SqStages - 1) begin : gen_reg
        always_ff @(posedge clk_i) begin
          r_q  <= r_out;
          q_q  <= q_out;
          m_q  <= m_in;
          k_q  <= k_in;
          sc_q <= sc_in;
        end
      end else begin : gen_last
        assign r_q  = r_out;
        assign q_q  = q_out;
        assign m_q  = m_in;
        assign k_q  = k_in;
        assign sc_q = sc_in;
      end
    end

    //////////////////////////////////////////////////////
    // Stage 10: trig result; square root remainder     //
    //////////////////////////////////////////////////////

    // The result is (-1)^bsign * bmag * 2^bscale; blz: leading zeros of bmag.
    logic               bsign10;
    logic [63:0]        bmag10;
    logic signed [11:0] bscale10;
    logic [5:0]         blz10;
    logic               bzero10;
    logic [1:0]         unused_sq;

    // Other segments: S cos(u) + C sin(u), Q.124, at least sin(2 pi / 256) * 2^124.
    logic signed [127:0] acc10;
    logic [5:0]          alz10, ylz10;
    logic                unused_azero, yzero10;

    assign acc10 = $signed(pa_q9) + 128'(pb_q9);

    wf_lzc #(
      .Width    (64),
      .CntWidth (6)
    ) u_alzc (
      .data_i (acc10[125:62]),
      .cnt_o  (alz10),
      .zero_o (unused_azero)
    );

    wf_lzc #(
      .Width    (64),
      .CntWidth (6)
    ) u_ylzc (
      .data_i (ymag_q9),
      .cnt_o  (ylz10),
      .zero_o (yzero10)
    );

    always_comb begin
      logic [127:0]        pn;
      logic [63:0]         top;
      logic                lz2;              // the product d * g has 1 or 2 leading zeros
      logic signed [30:0]  rr;
      logic                exact;
      // Square root: the remainder of floor(sqrt(n)) is r, or r + 2q + 1 when r < 0.
      rr    = gen_sq[SqStages-1].r_q + 31'({gen_sq[SqStages-1].q_q, 1'b1});
      exact = gen_sq[SqStages-1].r_q[30] ? rr == 31'd0 : gen_sq[SqStages-1].r_q == 31'd0;
      unused_sq = {^gen_sq[SqStages-1].m_q, gen_sq[SqStages-1].k_q};
      // Segment 0: d * g normalized (its top bit is bit 126 or 125), lower half jammed.
      lz2 = !pa_q9[126];
      pn  = lz2 ? pa_q9 << 2 : pa_q9 << 1;
      top = pn[127:64] | {63'd0, pn[63:0] != 64'd0};
      unused_acc = ^{acc10[127:126], acc10[61:0], unused_azero};

      bsign10  = ysign_q9;
      bmag10   = ymag_q9;
      bscale10 = yscale_q9;
      blz10    = ylz10;
      bzero10  = yzero10;
      if ((fn_q[8] == wf_isa_pkg::SFU_FN_SQRT)) begin
        // 2^25 <= q < 2^26 (the radicand has 51 or 52 bits): {q, sticky} has 37 leading zeros.
        bsign10  = 1'b0;
        bmag10   = 64'({gen_sq[SqStages-1].q_q, !exact});
        bscale10 = gen_sq[SqStages-1].sc_q;
        blz10    = 6'd37;
        bzero10  = 1'b0;
      end else if ((fn_q[8] == wf_isa_pkg::SFU_FN_SIN) ||
                   (fn_q[8] == wf_isa_pkg::SFU_FN_COS)) begin
        bsign10 = neg_q9;
        bzero10 = rzero_q9;
        if (quarter_q9) begin
          bmag10   = 64'd1;
          bscale10 = 12'sd0;
          blz10    = 6'd63;
        end else if (j0_q9) begin
          bmag10   = top;                    // normalized
          // -124 - lz128 + 127 - (1 + lz2) - 63, lz128 = dlz + 8
          bscale10 = -12'sd69 - 12'(dlz_q9) - 12'(lz2);
          blz10    = 6'd0;
        end else begin
          bmag10   = acc10[125:62];          // (S cos(u) + C sin(u)) >> 62
          bscale10 = -12'sd62;
          blz10    = alz10;
        end
      end
    end

    logic               bsign_q10, bzero_q10;
    logic [63:0]        bmag_q10;
    logic signed [11:0] bscale_q10;
    logic [5:0]         blz_q10;

    always_ff @(posedge clk_i) begin
      bsign_q10  <= bsign10;
      bzero_q10  <= bzero10;
      bmag_q10   <= bmag10;
      bscale_q10 <= bscale10;
      blz_q10    <= blz10;
    end

    ////////////////////////////////////////
    // Stage 11: normalize                //
    ////////////////////////////////////////

    logic [63:0]        sig11;
    // From the exponent exp = scale + 63 - lz: overflow, the right shift k onto the subnormal
    // grid (25 and more leave only a sticky bit), the biased exponent field of a normal result.
    logic               ovf11, sub11;
    logic [4:0]         k11;
    logic [7:0]         expf11;
    // tz(sig) - 39 (tz: trailing zeros): the rounding's sticky bit is tz(sig) < 39 + k.
    logic [5:0]         btz11;
    logic               unused_tzero;
    logic signed [8:0]  tzs11;
    logic [63:0]        bmag_rev11;

    assign sig11 = bmag_q10 << blz_q10;

    for (genvar i = 0; i < 64; i++) begin : gen_rev
      assign bmag_rev11[i] = bmag_q10[63-i];
    end

    wf_lzc #(
      .Width    (64),
      .CntWidth (6)
    ) u_tzc (
      .data_i (bmag_rev11),
      .cnt_o  (btz11),
      .zero_o (unused_tzero)
    );

    assign tzs11 = 9'(btz11) + 9'(blz_q10) - 9'sd39;

    always_comb begin
      logic signed [11:0] ex, below;
      ex     = bscale_q10 + 12'sd63 - 12'(blz_q10);
      below  = -12'sd126 - ex;
      ovf11  = ex > 12'sd127;
      sub11  = below > 12'sd0;
      if (!sub11)                k11 = 5'd0;
      else if (below >= 12'sd25) k11 = 5'd25;
      else                       k11 = below[4:0];
      expf11 = 8'(ex + 12'sd126);
    end

    logic               sign_q11, zero_q11, ovf_q11, sub_q11;
    logic [24:0]        sig_q11;           // sig[63:39]: mantissa and guard before the shift
    logic [4:0]         k_q11;
    logic [7:0]         expf_q11;
    logic signed [8:0]  tzs_q11;

    always_ff @(posedge clk_i) begin
      sign_q11 <= bsign_q10;
      zero_q11 <= bzero_q10;
      tzs_q11  <= tzs11;
      sig_q11  <= sig11[63:39];
      ovf_q11  <= ovf11;
      sub_q11  <= sub11;
      k_q11    <= k11;
      expf_q11 <= expf11;
    end

    //////////////////////////////////////////////////
    // Stage 12: round to nearest even, pack        //
    //////////////////////////////////////////////////

    logic unused_bits;

    always_comb begin
      logic [24:0] sj;
      logic [23:0] mant;
      logic        guard, sticky, inc;
      logic [31:0] bits, r;
      // Rounding position: bit 40 + k of sig; sticky: any bit below 39 + k.
      sj     = sig_q11 >> k_q11;
      mant   = sj[24:1];
      guard  = sj[0];
      sticky = tzs_q11 < $signed({4'd0, k_q11});
      inc    = guard & (sticky | mant[0]);
      bits   = {1'b0, sub_q11 ? 8'd0 : expf_q11, 23'd0} + {8'd0, mant} + {31'd0, inc};
      if (ovf_q11) begin
        r = {sign_q11, F32Inf};
      end else if (zero_q11) begin
        r = {sign_q11, 31'd0};
      end else if (ftz_q[CoreStages-2] && sub_q11 && !(&mant[22:0] && inc)) begin
        r = {sign_q11, 31'd0};               // FTZ of a result that stays subnormal
      end else begin
        r = {sign_q11, bits[30:0]};
      end
      res_d[l]    = spec_q[CoreStages-3] ? specv_q[32*(CoreStages-3) +: 32] : r;
      unused_bits = bits[31];
    end

    logic unused_lane;
    assign unused_lane = ^{unused_sub_zero, unused_dzero, unused_v4_hi, unused_q6_lo,
                           unused_qy_lo, unused_sq, unused_bits, pp2[63:0], unused_w, unused_win, unused_pr,
                           unused_sq5, unused_acc, sig11[38:0], unused_tzero, v2_q7[2:0], qy_q7[0]};
  end

  wf_delay #(
    .Width  (Lanes * 32),
    .Stages (Latency - CoreStages + 1)
  ) u_out (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (valid_q[CoreStages-2]),
    .data_i  (res_d),
    .valid_o (valid_o),
    .data_o  (res_o)
  );

endmodule
