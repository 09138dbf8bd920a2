// Correctly rounded divide and square root: FDIV, FSQRT (FP32, with .ftz) and DDIV, DSQRT (FP64),
// every rounding mode, `Lanes` lanes in lockstep. Bit-exact with hls/'s fdiv32, fsqrt32, fdiv64
// and fsqrt64 (fp_arith.h fpDiv / fpSqrt, fp32.h FTZ wrappers).
//
// Iterative: both formats run the same datapath on 53-bit significands (FP32 significands are
// placed at its top). Restoring radix-2 recurrences, two steps per cycle: 54 quotient or root bits
// (the integer bit, 52 fraction bits and a guard bit for FP64; FP32 uses the top 25 and folds the
// rest into the sticky bit) in 27 cycles; the remainder gives the sticky bit exactly. Then a
// rounding step that follows hls's roundPack (subnormal results rounded on the subnormal grid,
// overflow to infinity or the largest finite value by direction).
//
// Cycle plan for an operation accepted in cycle t: t+1 normalise (leading-zero count of subnormal
// significands), t+2 set up the recurrence, t+3 .. t+29 iterate, t+30 subnormal alignment,
// t+31 round and pack; the result is held until t + op_latency(OP_FDIV), when valid_o is high for
// one cycle. ready_o is low while busy and high again in the valid_o cycle, as in wf_idiv.
//
// Special operands (ISA / hls): any NaN gives the canonical NaN (0x7fffffff,
// 0x7fff_ffff_ffff_ffff); inf/inf and 0/0 give NaN; x/inf = signed zero; x/0 = signed infinity;
// sqrt(+-0) = +-0; sqrt(+inf) = +inf; sqrt of a negative nonzero value = NaN. FTZ (FP32 only):
// subnormal inputs are flushed to the zero of their sign first, subnormal results after rounding.
// Operands: a / a_hi = ra (pair for FP64), b / b_hi = rb. For FP32 results res_hi_o is zero.
module wf_fdiv #(
  parameter int unsigned Lanes = 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,

  input  logic                            valid_i,
  output logic                            ready_o,
  input  logic [wf_isa_pkg::InstBits-1:0] inst_i,
  input  logic [Lanes-1:0][31:0]          a_i,
  input  logic [Lanes-1:0][31:0]          a_hi_i,
  input  logic [Lanes-1:0][31:0]          b_i,
  input  logic [Lanes-1:0][31:0]          b_hi_i,

  output logic                            valid_o,
  output logic [Lanes-1:0][31:0]          res_o,
  output logic [Lanes-1:0][31:0]          res_hi_o
);

  localparam int unsigned Latency = wf_isa_pkg::op_latency(wf_isa_pkg::OP_FDIV);
  localparam int unsigned Iters   = 27;          // cycles of two radix-2 steps
  localparam int unsigned IterEnd = Iters + 2;   // cyc value of the last iteration cycle
  localparam int unsigned CntW    = $clog2(Latency + 1);
  localparam int unsigned EW      = 14;          // signed exponents

  if (Latency < IterEnd + 3) begin : gen_latency_check
    $error("wf_fdiv: ISA latency %0d is shorter than the unit's %0d cycles", Latency,
           IterEnd + 3);
  end

  typedef enum logic [2:0] {
    StIdle,
    StNorm,   // normalise subnormal significands
    StPrep,   // recurrence set-up
    StIter,   // two quotient / root bits per cycle
    StAlign,  // subnormal-result alignment with sticky jamming
    StPack,   // rounding, packing, FTZ, special results
    StHold    // result registered, waiting for cycle t + latency
  } state_e;

  // Decode.
  logic [7:0] op;
  logic       is_sqrt, is_64, ftz;
  logic [1:0] rnd;         // wf_isa_pkg::rnd_e

  assign op = inst_i[wf_isa_pkg::FmtROpLo +: wf_isa_pkg::FmtROpWidth];

  always_comb begin
    is_sqrt = (op == wf_isa_pkg::OP_FSQRT) || (op == wf_isa_pkg::OP_DSQRT);
    is_64   = (op == wf_isa_pkg::OP_DDIV) || (op == wf_isa_pkg::OP_DSQRT);
    ftz     = 1'b0;
    rnd     = inst_i[wf_isa_pkg::FdivRndLo +: wf_isa_pkg::FdivRndWidth];
    unique case (op)
      wf_isa_pkg::OP_FSQRT: begin
        rnd = inst_i[wf_isa_pkg::FsqrtRndLo +: wf_isa_pkg::FsqrtRndWidth];
        ftz = inst_i[wf_isa_pkg::FsqrtFtzLo];
      end
      wf_isa_pkg::OP_DDIV: rnd = inst_i[wf_isa_pkg::DdivRndLo +: wf_isa_pkg::DdivRndWidth];
      wf_isa_pkg::OP_DSQRT: rnd = inst_i[wf_isa_pkg::DsqrtRndLo +: wf_isa_pkg::DsqrtRndWidth];
      default: ftz = inst_i[wf_isa_pkg::FdivFtzLo];   // OP_FDIV
    endcase
  end

  // Shared control.
  state_e          state_q, state_d;
  logic [CntW-1:0] cyc_q, cyc_d;     // cycles since the operation was accepted
  logic            sqrt_q, sqrt_d, d64_q, d64_d, ftz_q, ftz_d;
  logic [1:0]      rnd_q, rnd_d;
  logic            accept;

  assign accept  = valid_i && ready_o;
  assign valid_o = (state_q == StHold) && (cyc_q == CntW'(Latency));
  assign ready_o = (state_q == StIdle) || valid_o;

  always_comb begin
    state_d = state_q;
    cyc_d   = cyc_q + CntW'(1);
    sqrt_d  = sqrt_q;
    d64_d   = d64_q;
    ftz_d   = ftz_q;
    rnd_d   = rnd_q;
    unique case (state_q)
      StIdle:  ;
      StNorm:  state_d = StPrep;
      StPrep:  state_d = StIter;
      StIter:  if (cyc_q == CntW'(IterEnd)) state_d = StAlign;
      StAlign: state_d = StPack;
      StPack:  state_d = StHold;
      StHold:  if (valid_o) state_d = StIdle;
      default: state_d = StIdle;
    endcase
    if (accept) begin
      state_d = StNorm;
      cyc_d   = CntW'(1);
      sqrt_d  = is_sqrt;
      d64_d   = is_64;
      ftz_d   = ftz && !is_64;
      rnd_d   = rnd;
    end else if (state_q == StIdle) begin
      cyc_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      cyc_q   <= '0;
    end else begin
      state_q <= state_d;
      cyc_q   <= cyc_d;
    end
  end

  always_ff @(posedge clk_i) begin
    sqrt_q <= sqrt_d;
    d64_q  <= d64_d;
    ftz_q  <= ftz_d;
    rnd_q  <= rnd_d;
  end

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    logic [52:0]   ma_q, ma_d, mb_q, mb_d;   // significands (raw, then normalised: bit 52 set)
    logic [EW-1:0] ea_q, ea_d, eb_q, eb_d;   // unbiased exponents of bit 52
    logic          sign_q, sign_d;
    logic          spec_q, spec_d;           // special result (NaN, infinity, zero)
    logic [63:0]   sval_q, sval_d;
    logic [57:0]   r_q, r_d;                 // partial remainder
    logic [53:0]   q_q, q_d;                 // quotient or root bits
    logic [53:0]   n_q, n_d;                 // sqrt: radicand bits still to bring down
    logic [EW-1:0] e_q, e_d;                 // result exponent (of q's bit 53)
    logic [63:0]   sig_q, sig_d;             // aligned significand, sticky in bit 0
    logic          den_q, den_d, ovf_q, ovf_d;
    logic [5:0]    dsh_q, dsh_d;             // subnormal alignment shift, capped at 63
    logic [63:0]   res_q, res_d;
    logic [5:0]    lza, lzb;
    logic          unused_za, unused_zb;
    logic [63:0]   bits;                     // packed magnitude (rounding step)
    logic [EW-1:0] ef;                       // its exponent field

    wf_lzc #(.Width(53)) u_lzc_a (.data_i(ma_q), .cnt_o(lza), .zero_o(unused_za));
    wf_lzc #(.Width(53)) u_lzc_b (.data_i(mb_q), .cnt_o(lzb), .zero_o(unused_zb));

    always_comb begin
      logic [63:0]   xa, xb;
      logic [10:0]   exa, exb;
      logic [51:0]   fra, frb;
      logic          sa, sb, maxa, maxb, za, zb, nana, nanb, infa, infb;
      logic [EW-1:0] bias, emin, emax, dsh;
      logic [63:0]   cnan;
      logic          odd;
      logic [57:0]   w, t;
      logic [58:0]   diff;
      logic [63:0]   shifted;
      logic [5:0]    dcap;
      logic          lost, guard, sticky, lsb, inc;
      logic [52:0]   mant;

      ma_d   = ma_q;
      mb_d   = mb_q;
      ea_d   = ea_q;
      eb_d   = eb_q;
      sign_d = sign_q;
      spec_d = spec_q;
      sval_d = sval_q;
      r_d    = r_q;
      q_d    = q_q;
      n_d    = n_q;
      e_d    = e_q;
      sig_d  = sig_q;
      den_d  = den_q;
      ovf_d  = ovf_q;
      dsh_d  = dsh_q;
      res_d  = res_q;

      // Operand fields: FP64 pairs, or FP32 words with the fraction at the top of 52 bits.
      xa  = {a_hi_i[l], a_i[l]};
      xb  = {b_hi_i[l], b_i[l]};
      sa  = is_64 ? xa[63] : xa[31];
      sb  = is_64 ? xb[63] : xb[31];
      exa = is_64 ? xa[62:52] : {3'b000, xa[30:23]};
      exb = is_64 ? xb[62:52] : {3'b000, xb[30:23]};
      fra = is_64 ? xa[51:0] : {xa[22:0], 29'd0};
      frb = is_64 ? xb[51:0] : {xb[22:0], 29'd0};
      // FTZ: a subnormal input is the zero of its sign.
      if (ftz && !is_64 && exa == 11'd0) fra = '0;
      if (ftz && !is_64 && exb == 11'd0) frb = '0;
      maxa = is_64 ? (exa == 11'h7ff) : (exa == 11'h0ff);
      maxb = is_64 ? (exb == 11'h7ff) : (exb == 11'h0ff);
      nana = maxa && (fra != '0);
      nanb = maxb && (frb != '0);
      infa = maxa && (fra == '0);
      infb = maxb && (frb == '0);
      za   = (exa == 11'd0) && (fra == '0);
      zb   = (exb == 11'd0) && (frb == '0);
      bias = is_64 ? EW'(1023) : EW'(127);
      cnan = is_64 ? 64'h7fff_ffff_ffff_ffff : 64'h0000_0000_7fff_ffff;

      // Format constants of the operation in flight.
      emin = d64_q ? -EW'(1022) : -EW'(126);
      emax = d64_q ? EW'(1023) : EW'(127);

      dsh  = emin - e_q;   // subnormal result: alignment shift, capped at 63
      dcap = (dsh > EW'(63)) ? 6'd63 : dsh[5:0];
      odd = ea_q[0];   // sqrt: odd exponent, the radicand is doubled

      // Recurrence: two restoring steps (division or square root).
      w    = r_q;
      t    = '0;
      diff = '0;
      if (state_q == StIter) begin
        for (int s = 0; s < 2; s++) begin
          if (sqrt_q) begin
            w = {w[55:0], n_d[53:52]};
            n_d = {n_d[51:0], 2'b00};
            t = {2'b00, q_d, 2'b01};
          end else begin
            t = {5'd0, mb_q};
          end
          // One subtraction; its borrow is the comparison (no separate comparator).
          diff = {1'b0, w} - {1'b0, t};
          q_d  = {q_d[52:0], !diff[58]};
          if (!diff[58]) w = diff[57:0];
          if (!sqrt_q) w = {w[56:0], 1'b0};
        end
        r_d   = w;
        dsh_d = dcap;
        ovf_d = $signed(e_q) > $signed(emax);
        den_d = $signed(e_q) < $signed(emin);
      end

      // Subnormal alignment: sig * 2^(e - 63) shifted right by emin - e, sticky jammed.
      // The shift amount is registered during the iterations (e_q is fixed from StPrep on).
      shifted = {q_q, 10'd0} >> dsh_q;
      lost    = (shifted << dsh_q) != {q_q, 10'd0};

      // Rounding (hls roundPack): FP32 keeps sig[63:40], FP64 sig[63:11].
      if (d64_q) begin
        mant   = sig_q[63:11];
        guard  = sig_q[10];
        sticky = sig_q[9:0] != '0;
      end else begin
        mant   = {29'd0, sig_q[63:40]};
        guard  = sig_q[39];
        sticky = sig_q[38:0] != '0;
      end
      lsb = mant[0];
      unique case (rnd_q)
        wf_isa_pkg::RND_RZ: inc = 1'b0;
        wf_isa_pkg::RND_RM: inc = sign_q & (guard | sticky);
        wf_isa_pkg::RND_RP: inc = !sign_q & (guard | sticky);
        default:            inc = guard & (sticky | lsb);   // RND_RN
      endcase
      ef   = den_q ? '0 : e_q + (d64_q ? EW'(1022) : EW'(126));
      bits = d64_q ? ({ef[10:0], 52'd0} + {11'd0, mant} + 64'(inc))
                   : {32'd0, ({ef[7:0], 23'd0} + {8'd0, mant[23:0]} + 32'(inc))};

      unique case (state_q)
        StNorm: begin
          ma_d = ma_q << lza;
          mb_d = mb_q << lzb;
          ea_d = ea_q - EW'(lza);
          eb_d = eb_q - EW'(lzb);
        end
        StPrep: begin
          r_d = '0;
          q_d = '0;
          n_d = '0;
          if (sqrt_q) begin
            n_d = odd ? {ma_q, 1'b0} : {1'b0, ma_q};
            e_d = EW'($signed(ea_q - EW'(odd)) >>> 1);
          end else if (ma_q < mb_q) begin
            r_d = {4'd0, ma_q, 1'b0};
            e_d = ea_q - eb_q - EW'(1);
          end else begin
            r_d = {5'd0, ma_q};
            e_d = ea_q - eb_q;
          end
        end
        StAlign: begin
          sig_d = {q_q, 9'd0, r_q != '0};
          if (den_q) begin
            sig_d = {shifted[63:1], shifted[0] | lost | (r_q != '0)};
          end
        end
        StPack: begin
          if (ovf_q) begin
            // Infinity, or the largest finite value when rounding toward zero's side.
            if ((rnd_q == wf_isa_pkg::RND_RZ) || (rnd_q == wf_isa_pkg::RND_RP && sign_q) ||
                (rnd_q == wf_isa_pkg::RND_RM && !sign_q)) begin
              bits = d64_q ? 64'h7fef_ffff_ffff_ffff : 64'h0000_0000_7f7f_ffff;
            end else begin
              bits = d64_q ? 64'h7ff0_0000_0000_0000 : 64'h0000_0000_7f80_0000;
            end
          end
          // FTZ: a subnormal result is the zero of its sign.
          if (ftz_q && bits[30:23] == 8'd0) bits = '0;
          res_d = d64_q ? {sign_q, bits[62:0]} : {32'd0, sign_q, bits[30:0]};
          if (spec_q) res_d = sval_q;
        end
        default: ;
      endcase

      if (accept) begin
        ma_d   = {exa != 11'd0, fra};
        mb_d   = {exb != 11'd0, frb};
        ea_d   = {3'b000, (exa == 11'd0) ? 11'd1 : exa} - bias;
        eb_d   = {3'b000, (exb == 11'd0) ? 11'd1 : exb} - bias;
        sign_d = is_sqrt ? 1'b0 : sa ^ sb;
        spec_d = 1'b1;
        sval_d = cnan;
        if (is_sqrt) begin
          if (nana || (sa && !za)) begin
            sval_d = cnan;
          end else if (za || infa) begin
            // +-0 and +inf are their own square roots.
            sval_d = is_64 ? {sa, exa, fra} : {32'd0, sa, exa[7:0], fra[51:29]};
          end else begin
            spec_d = 1'b0;
          end
        end else if (nana || nanb || (infa && infb) || (za && zb)) begin
          sval_d = cnan;
        end else if (infa || zb) begin
          sval_d = is_64 ? {sa ^ sb, 63'h7ff0_0000_0000_0000} : {32'd0, sa ^ sb, 31'h7f80_0000};
        end else if (za || infb) begin
          sval_d = is_64 ? {sa ^ sb, 63'd0} : {32'd0, sa ^ sb, 31'd0};
        end else begin
          spec_d = 1'b0;
        end
      end
    end

    always_ff @(posedge clk_i) begin
      ma_q   <= ma_d;
      mb_q   <= mb_d;
      ea_q   <= ea_d;
      eb_q   <= eb_d;
      sign_q <= sign_d;
      spec_q <= spec_d;
      sval_q <= sval_d;
      r_q    <= r_d;
      q_q    <= q_d;
      n_q    <= n_d;
      e_q    <= e_d;
      sig_q  <= sig_d;
      den_q  <= den_d;
      ovf_q  <= ovf_d;
      dsh_q  <= dsh_d;
      res_q  <= res_d;
    end

    assign res_o[l]    = res_q[31:0];
    assign res_hi_o[l] = res_q[63:32];

    logic unused_bits;
    assign unused_bits = unused_za ^ unused_zb ^ bits[63] ^ (^ef[EW-1:11]);
  end

endmodule
