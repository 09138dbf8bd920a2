// Conversion unit: F2F, F2I, I2F and I2I between FP16, BF16, FP32, FP64 and the 8- to 64-bit
// integer types, every rounding mode, .FTZ and .SAT where the ISA has them, for `Lanes` lanes.
// Fixed latency op_latency(OP_F2F), valid-in/valid-out, no back-pressure. Bit-exact with hls
// cvtFloatToFloat, cvtFloatToInt, cvtIntToFloat and cvtIntToInt.
//
// Operands: a / a_hi = ra (the pair for F64 and 64-bit integer sources; F16 and BF16 sources use
// the low 16 bits). Results: {res_hi, res} = the hls result as a 64-bit value: the pair for F64
// and 64-bit integer destinations; for narrower integers the value sign- or zero-extended by its
// type; for FP16/BF16/FP32 the bits zero-extended.
//
// Every source becomes (class, sign, exponent, 64-bit significand) and every destination is one
// rounding of that significand at a shift amount `sa`: mant = sig >> sa, then guard, sticky and
// the rounding increment. For a float destination sa = 64 - P (P: its precision) plus the
// distance below its smallest normal exponent; for an integer destination sa = 63 - exponent.
//   stage 1  decode, unpack the float (FTZ of an FP32 source) or sign-extend and negate the
//            integer; I2I complete; F2F to an integral value (.RNI ..): the integer position in
//            the significand; a float's leading zeros (for stage 2's shift amount)
//   stage 2  normalize (leading zeros: integer sources and subnormal floats), or round to the
//            integer position (a carry out gives the next power of two); the shift amount sa
//   stage 3  shift right by sa with guard and sticky, round; exponent field of the destination
//   stage 4  pack: special values, overflow, FP32 FTZ of the result, .SAT; integer saturation
//            and negation; result select
// F2F to an integral value rounds twice, as PTX (and hls) define it: to an integral value with the
// instruction's mode, then to the destination format with round-to-nearest.
module wf_cvt #(
  parameter int unsigned Lanes = 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,

  input  logic                            valid_i,
  input  logic [wf_isa_pkg::InstBits-1:0] inst_i,
  input  logic [Lanes-1:0][31:0]          a_i,
  input  logic [Lanes-1:0][31:0]          a_hi_i,

  output logic                            valid_o,
  output logic [Lanes-1:0][31:0]          res_o,
  output logic [Lanes-1:0][31:0]          res_hi_o
);

  localparam int unsigned Latency = wf_isa_pkg::op_latency(wf_isa_pkg::OP_F2F);
  localparam int unsigned CoreStages = 4;

  if (Latency < CoreStages) begin : gen_latency_check
    $error("wf_cvt: ISA latency %0d is shorter than the unit's %0d stages", Latency, CoreStages);
  end
  if (wf_isa_pkg::op_latency(wf_isa_pkg::OP_F2I) != Latency ||
      wf_isa_pkg::op_latency(wf_isa_pkg::OP_I2F) != Latency ||
      wf_isa_pkg::op_latency(wf_isa_pkg::OP_I2I) != Latency) begin : gen_latency_same
    $error("wf_cvt: the CVT opcodes must share one latency");
  end

  typedef enum logic [1:0] {
    ModeF2F,
    ModeF2I,
    ModeI2F,
    ModeI2I
  } mode_e;

  typedef enum logic [1:0] {
    ClsZero,
    ClsFinite,
    ClsInf,
    ClsNan
  } cls_e;

  //////////////
  // Decode   //
  //////////////

  logic [7:0] op;
  logic [1:0] mode;
  logic [1:0] fsrc, fdst;    // wf_isa_pkg::flttype_e
  logic [2:0] isrc, idst;    // wf_isa_pkg::inttype_e
  logic [1:0] rm;            // wf_isa_pkg::rnd_e: the instruction's rounding
  logic       integral;      // F2F .RNI/.RZI/.RMI/.RPI
  logic       ftz, sat;

  assign op = inst_i[wf_isa_pkg::FmtROpLo +: wf_isa_pkg::FmtROpWidth];

  always_comb begin
    logic [2:0] rndf;
    logic [1:0] rndi;
    mode     = ModeI2I;
    fsrc     = wf_isa_pkg::FLT_TYPE_F32;
    fdst     = wf_isa_pkg::FLT_TYPE_F32;
    isrc     = wf_isa_pkg::INT_TYPE_S32;
    idst     = wf_isa_pkg::INT_TYPE_S32;
    rm       = wf_isa_pkg::RND_RN;
    integral = 1'b0;
    ftz      = 1'b0;
    sat      = 1'b0;
    rndf     = inst_i[wf_isa_pkg::F2fRndLo +: wf_isa_pkg::F2fRndWidth];
    rndi     = inst_i[wf_isa_pkg::F2iRndLo +: wf_isa_pkg::F2iRndWidth];
    unique case (op)
      wf_isa_pkg::OP_F2F: begin
        mode = ModeF2F;
        fdst = inst_i[wf_isa_pkg::F2fDstLo +: wf_isa_pkg::F2fDstWidth];
        fsrc = inst_i[wf_isa_pkg::F2fSrcLo +: wf_isa_pkg::F2fSrcWidth];
        ftz  = inst_i[wf_isa_pkg::F2fFtzLo];
        sat  = inst_i[wf_isa_pkg::F2fSatLo];
        unique case (rndf)
          wf_isa_pkg::RNDF_RZ:  rm = wf_isa_pkg::RND_RZ;
          wf_isa_pkg::RNDF_RM:  rm = wf_isa_pkg::RND_RM;
          wf_isa_pkg::RNDF_RP:  rm = wf_isa_pkg::RND_RP;
          wf_isa_pkg::RNDF_RNI: integral = 1'b1;
          wf_isa_pkg::RNDF_RZI: begin
            rm       = wf_isa_pkg::RND_RZ;
            integral = 1'b1;
          end
          wf_isa_pkg::RNDF_RMI: begin
            rm       = wf_isa_pkg::RND_RM;
            integral = 1'b1;
          end
          wf_isa_pkg::RNDF_RPI: begin
            rm       = wf_isa_pkg::RND_RP;
            integral = 1'b1;
          end
          default: ;
        endcase
      end
      wf_isa_pkg::OP_F2I: begin
        mode = ModeF2I;
        idst = inst_i[wf_isa_pkg::F2iDstLo +: wf_isa_pkg::F2iDstWidth];
        fsrc = inst_i[wf_isa_pkg::F2iSrcLo +: wf_isa_pkg::F2iSrcWidth];
        ftz  = inst_i[wf_isa_pkg::F2iFtzLo];
        unique case (rndi)
          wf_isa_pkg::RNDI_RZI: rm = wf_isa_pkg::RND_RZ;
          wf_isa_pkg::RNDI_RMI: rm = wf_isa_pkg::RND_RM;
          wf_isa_pkg::RNDI_RPI: rm = wf_isa_pkg::RND_RP;
          default:              rm = wf_isa_pkg::RND_RN;
        endcase
      end
      wf_isa_pkg::OP_I2F: begin
        mode = ModeI2F;
        fdst = inst_i[wf_isa_pkg::I2fDstLo +: wf_isa_pkg::I2fDstWidth];
        isrc = inst_i[wf_isa_pkg::I2fSrcLo +: wf_isa_pkg::I2fSrcWidth];
        rm   = inst_i[wf_isa_pkg::I2fRndLo +: wf_isa_pkg::I2fRndWidth];
      end
      wf_isa_pkg::OP_I2I: begin
        mode = ModeI2I;
        idst = inst_i[wf_isa_pkg::I2iDstLo +: wf_isa_pkg::I2iDstWidth];
        isrc = inst_i[wf_isa_pkg::I2iSrcLo +: wf_isa_pkg::I2iSrcWidth];
        sat  = inst_i[wf_isa_pkg::I2iSatLo];
      end
      default: ;
    endcase
  end

  // Integer types: width (8 << log2 bytes) and signedness, from the enum labels.
  function automatic logic int_signed(logic [2:0] t);
    int_signed = t == wf_isa_pkg::INT_TYPE_S8 || t == wf_isa_pkg::INT_TYPE_S16 ||
                 t == wf_isa_pkg::INT_TYPE_S32 || t == wf_isa_pkg::INT_TYPE_S64;
  endfunction

  // The value's low bits of type t, zero- or sign-extended to 64 bits (hls intTypeExtend).
  function automatic logic [63:0] int_extend(logic [63:0] v, logic [2:0] t);
    unique case (t)
      wf_isa_pkg::INT_TYPE_U8:  int_extend = {56'd0, v[7:0]};
      wf_isa_pkg::INT_TYPE_S8:  int_extend = {{56{v[7]}}, v[7:0]};
      wf_isa_pkg::INT_TYPE_U16: int_extend = {48'd0, v[15:0]};
      wf_isa_pkg::INT_TYPE_S16: int_extend = {{48{v[15]}}, v[15:0]};
      wf_isa_pkg::INT_TYPE_U32: int_extend = {32'd0, v[31:0]};
      wf_isa_pkg::INT_TYPE_S32: int_extend = {{32{v[31]}}, v[31:0]};
      default:                  int_extend = v;
    endcase
  endfunction

  // Bits above the largest value of type t (hls intTypeMax): x > max(t) iff x & mask != 0 for a
  // non-negative x.
  function automatic logic [63:0] int_over_mask(logic [2:0] t);
    unique case (t)
      wf_isa_pkg::INT_TYPE_U8:  int_over_mask = ~64'h0000_0000_0000_00ff;
      wf_isa_pkg::INT_TYPE_S8:  int_over_mask = ~64'h0000_0000_0000_007f;
      wf_isa_pkg::INT_TYPE_U16: int_over_mask = ~64'h0000_0000_0000_ffff;
      wf_isa_pkg::INT_TYPE_S16: int_over_mask = ~64'h0000_0000_0000_7fff;
      wf_isa_pkg::INT_TYPE_U32: int_over_mask = ~64'h0000_0000_ffff_ffff;
      wf_isa_pkg::INT_TYPE_S32: int_over_mask = ~64'h0000_0000_7fff_ffff;
      wf_isa_pkg::INT_TYPE_U64: int_over_mask = 64'd0;
      default:                  int_over_mask = 64'h8000_0000_0000_0000;
    endcase
  endfunction

  // Float formats: the constants of hls FpFormat, indexed by wf_isa_pkg::flttype_e.
  function automatic logic [10:0] flt_bias(logic [1:0] f);
    unique case (f)
      wf_isa_pkg::FLT_TYPE_F16: flt_bias = 11'd15;
      wf_isa_pkg::FLT_TYPE_F64: flt_bias = 11'd1023;
      default:                  flt_bias = 11'd127;
    endcase
  endfunction

  function automatic logic [5:0] flt_shift(logic [1:0] f);   // 64 - precision
    unique case (f)
      wf_isa_pkg::FLT_TYPE_F16:  flt_shift = 6'd53;
      wf_isa_pkg::FLT_TYPE_F32:  flt_shift = 6'd40;
      wf_isa_pkg::FLT_TYPE_F64:  flt_shift = 6'd11;
      default:                   flt_shift = 6'd56;
    endcase
  endfunction

  function automatic logic [63:0] flt_sign(logic [1:0] f);    // the sign bit
    unique case (f)
      wf_isa_pkg::FLT_TYPE_F32: flt_sign = 64'h0000_0000_8000_0000;
      wf_isa_pkg::FLT_TYPE_F64: flt_sign = 64'h8000_0000_0000_0000;
      default:                  flt_sign = 64'h0000_0000_0000_8000;
    endcase
  endfunction

  function automatic logic [63:0] flt_inf(logic [1:0] f);
    unique case (f)
      wf_isa_pkg::FLT_TYPE_F16: flt_inf = 64'h0000_0000_0000_7c00;
      wf_isa_pkg::FLT_TYPE_F32: flt_inf = 64'h0000_0000_7f80_0000;
      wf_isa_pkg::FLT_TYPE_F64: flt_inf = 64'h7ff0_0000_0000_0000;
      default:                  flt_inf = 64'h0000_0000_0000_7f80;
    endcase
  endfunction

  function automatic logic [63:0] flt_nan(logic [1:0] f);    // canonical NaN
    unique case (f)
      wf_isa_pkg::FLT_TYPE_F32: flt_nan = 64'h0000_0000_7fff_ffff;
      wf_isa_pkg::FLT_TYPE_F64: flt_nan = 64'h7fff_ffff_ffff_ffff;
      default:                  flt_nan = 64'h0000_0000_0000_7fff;
    endcase
  endfunction

  function automatic logic [63:0] flt_one(logic [1:0] f);
    unique case (f)
      wf_isa_pkg::FLT_TYPE_F16: flt_one = 64'h0000_0000_0000_3c00;
      wf_isa_pkg::FLT_TYPE_F32: flt_one = 64'h0000_0000_3f80_0000;
      wf_isa_pkg::FLT_TYPE_F64: flt_one = 64'h3ff0_0000_0000_0000;
      default:                  flt_one = 64'h0000_0000_0000_3f80;
    endcase
  endfunction

  function automatic logic round_inc(logic [1:0] r, logic sign, logic lsb, logic guard,
                                     logic sticky);
    unique case (r)
      wf_isa_pkg::RND_RN: round_inc = guard & (sticky | lsb);
      wf_isa_pkg::RND_RM: round_inc = sign & (guard | sticky);
      wf_isa_pkg::RND_RP: round_inc = !sign & (guard | sticky);
      default:            round_inc = 1'b0;
    endcase
  endfunction

  ///////////////////////////////////
  // Control pipeline (shared)     //
  ///////////////////////////////////

  // The rounding mode of the final rounding: round-to-nearest after an integral rounding.
  logic [1:0] rm_conv;
  assign rm_conv = integral ? wf_isa_pkg::RND_RN : rm;

  logic [CoreStages-2:0]      valid_q, valid_d;
  logic [CoreStages-2:0][1:0] mode_q, fdst_q, rmc_q;
  logic [CoreStages-2:0][2:0] idst_q;
  logic [CoreStages-2:0]      integral_q, ftz_out_q, sat_q;
  logic [1:0]                 rm_q1;   // the instruction's rounding, for the integral rounding

  assign valid_d = {valid_q[CoreStages-3:0], valid_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    mode_q     <= {mode_q[CoreStages-3:0], mode};
    fdst_q     <= {fdst_q[CoreStages-3:0], fdst};
    rmc_q      <= {rmc_q[CoreStages-3:0], rm_conv};
    idst_q     <= {idst_q[CoreStages-3:0], idst};
    integral_q <= {integral_q[CoreStages-3:0], integral};
    rm_q1      <= rm;
    // FTZ acts on an FP32 result of F2F only; SAT is F2F's clamp to [0, 1].
    ftz_out_q  <= {ftz_out_q[CoreStages-3:0],
                   ftz && mode == ModeF2F && fdst == wf_isa_pkg::FLT_TYPE_F32};
    sat_q      <= {sat_q[CoreStages-3:0], sat && mode == ModeF2F};
  end

  logic [Lanes-1:0][63:0] res_d;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane

    ///////////////
    // Stage 1   //
    ///////////////

    logic [63:0]        x;
    logic [1:0]         cls;             // cls_e
    logic               sign;
    logic signed [13:0] exp_base;        // value = sig0 * 2^(exp_base - 63)
    logic [63:0]        sig0;            // normalized, except for subnormal and integer sources
    logic [6:0]         k;               // integral rounding: the integer lsb's position in sig0
    logic signed [13:0] d_sub;           // F2F: emin(dst) - exp_base
    logic [6:0]         lz_f;            // leading zeros of a float's significand (subnormals)
    logic               unused_lz_f_zero;

    // The leading zeros of a float source, for stage 2's shift amount; stage 2 counts again for
    // the normalization itself (the same count for floats; integer sources need no shift amount
    // from it), which keeps the count off stage 2's path to the shift amount.
    wf_lzc #(
      .Width    (64),
      .CntWidth (7)
    ) u_lzc_f (
      .data_i (sig0),
      .cnt_o  (lz_f),
      .zero_o (unused_lz_f_zero)
    );

    always_comb begin
      logic [10:0] be, be_sub;           // biased exponent field
      logic [51:0] frac;                 // fraction, left-aligned
      logic        all_ones, flush;
      logic [63:0] ext, i2i;
      logic        neg;
      logic signed [13:0] emin_dst;
      x = {a_hi_i[l], a_i[l]};

      // Float source.
      unique case (fsrc)
        wf_isa_pkg::FLT_TYPE_F16: begin
          be       = {6'd0, x[14:10]};
          frac     = {x[9:0], 42'd0};
          sign     = x[15];
          all_ones = x[14:10] == 5'h1f;
        end
        wf_isa_pkg::FLT_TYPE_F32: begin
          be       = {3'd0, x[30:23]};
          frac     = {x[22:0], 29'd0};
          sign     = x[31];
          all_ones = x[30:23] == 8'hff;
        end
        wf_isa_pkg::FLT_TYPE_F64: begin
          be       = x[62:52];
          frac     = x[51:0];
          sign     = x[63];
          all_ones = x[62:52] == 11'h7ff;
        end
        default: begin
          be       = {3'd0, x[14:7]};
          frac     = {x[6:0], 45'd0};
          sign     = x[15];
          all_ones = x[14:7] == 8'hff;
        end
      endcase
      // FTZ of an FP32 source: a subnormal is read as the zero of its sign.
      flush = ftz && fsrc == wf_isa_pkg::FLT_TYPE_F32 && be == 11'd0;
      if (flush) frac = '0;
      if (all_ones) begin
        cls = frac != '0 ? ClsNan : ClsInf;
      end else if (be == 11'd0 && frac == '0) begin
        cls = ClsZero;
      end else begin
        cls = ClsFinite;
      end
      sig0     = {be != 11'd0, frac, 11'd0};
      be_sub   = be | {10'd0, be == 11'd0};   // subnormals at exponent field 1
      exp_base = 14'(be_sub) - 14'(flt_bias(fsrc));

      // Integer source (I2F) and I2I.
      ext = int_extend(x, isrc);
      neg = int_signed(isrc) && ext[63];
      if (!sat) begin
        i2i = int_extend(ext, idst);
      end else if (neg) begin
        // Negative: 0 for an unsigned destination, else clamp at the type's minimum.
        i2i = !int_signed(idst) ? 64'd0 :
              ((~ext & int_over_mask(idst)) != '0) ? int_over_mask(idst) : ext;
      end else begin
        i2i = (ext & int_over_mask(idst)) != '0 ? ~int_over_mask(idst) : ext;
      end
      if (mode == ModeI2F) begin
        sign     = neg;
        sig0     = neg ? 64'd0 - ext : ext;
        cls      = sig0 == '0 ? ClsZero : ClsFinite;
        exp_base = 14'sd63;
      end else if (mode == ModeI2I) begin
        sign     = 1'b0;
        sig0     = i2i;
        cls      = ClsFinite;
        exp_base = 14'sd63;
      end

      // Integral rounding at bit k = 63 - exp_base of sig0 (clamped to 0..65: k >= 64 leaves no
      // integer bit, k = 0 nothing to round); stage 2 rounds.
      if (exp_base >= 14'sd63) begin
        k = 7'd0;
      end else if (exp_base <= -14'sd2) begin
        k = 7'd65;
      end else begin
        k = 7'(14'sd63 - exp_base);
      end

      emin_dst = 14'sd1 - 14'(flt_bias(fdst));
      d_sub    = emin_dst - exp_base;
    end

    logic [1:0]         cls_q1;
    logic               sign_q1;
    logic signed [13:0] exp_q1, d_sub_q1;
    logic [63:0]        sig0_q1;
    logic [6:0]         k_q1, lz_f_q1;

    always_ff @(posedge clk_i) begin
      cls_q1     <= cls;
      sign_q1    <= sign;
      exp_q1     <= exp_base;
      d_sub_q1   <= d_sub;
      sig0_q1    <= sig0;
      k_q1       <= k;
      lz_f_q1    <= lz_f;
    end

    ///////////////
    // Stage 2   //
    ///////////////

    logic [6:0]  lzc;
    logic        unused_lz_zero;

    wf_lzc #(
      .Width    (64),
      .CntWidth (7)
    ) u_lzc (
      .data_i (sig0_q1),
      .cnt_o  (lzc),
      .zero_o (unused_lz_zero)
    );

    logic [1:0]         cls2;
    logic [63:0]        sig2;
    logic signed [13:0] exp2;
    logic [6:0]         sa;              // right shift of stage 3, 0..65

    always_comb begin
      logic [64:0]        rounded, up;
      logic [63:0]        kept;
      logic               lsb, guard, sticky, inc_int;
      logic signed [13:0] t;
      cls2 = cls_q1;
      // Integral rounding at bit k: the bits from k up (kept), plus one at k when the increment
      // says so ((sig0 | bits below k) + 1 carries exactly into bit k). The guard is bit k - 1.
      lsb    = 1'b0;
      guard  = 1'b0;
      sticky = 1'b0;
      for (int unsigned i = 0; i < 64; i++) begin
        kept[i] = 7'(i) >= k_q1;
        if (7'(i) == k_q1) lsb = lsb | sig0_q1[i];
        if (7'(i) + 7'd1 == k_q1) guard = guard | sig0_q1[i];
        if (7'(i) + 7'd1 < k_q1) sticky = sticky | sig0_q1[i];
      end
      inc_int = round_inc(rm_q1, sign_q1, lsb, guard, sticky);
      up      = {1'b0, sig0_q1 | ~kept} + 65'd1;
      rounded = inc_int ? up : {1'b0, sig0_q1 & kept};
      // Normalized significand and exponent.
      sig2 = sig0_q1 << lzc[5:0];
      exp2 = exp_q1 - 14'(lzc);
      if (mode_q[0] == ModeI2I) begin
        sig2 = sig0_q1;
        exp2 = exp_q1;
      end else if (mode_q[0] == ModeF2F && integral_q[0] && cls_q1 == ClsFinite) begin
        if (k_q1 >= 7'd64) begin
          // |x| < 1: zero, or one when rounded away from zero.
          cls2 = inc_int ? ClsFinite : ClsZero;
          sig2 = 64'h8000_0000_0000_0000;
          exp2 = '0;
        end else if (rounded[64]) begin
          sig2 = 64'h8000_0000_0000_0000;
          exp2 = exp_q1 + 14'sd1;
        end else begin
          sig2 = rounded[63:0];
          exp2 = exp_q1;
        end
      end

      // Shift amount.
      t = d_sub_q1 + 14'(lz_f_q1);         // emin(dst) - exponent, for F2F
      unique case (mode_q[0])
        ModeI2I: sa = 7'd0;
        ModeF2I: begin
          if (exp_q1 >= 14'sd63) sa = 7'd0;
          else if (exp_q1 <= -14'sd2) sa = 7'd65;
          else sa = 7'(14'sd63 - exp_q1);
        end
        ModeF2F: begin
          if (integral_q[0] || t <= 0) sa = 7'(flt_shift(fdst_q[0]));
          else if (t >= 14'sd65) sa = 7'd65;
          else sa = 7'(t) + 7'(flt_shift(fdst_q[0])) > 7'd65 ? 7'd65 :
                    7'(t) + 7'(flt_shift(fdst_q[0]));
        end
        default: sa = 7'(flt_shift(fdst_q[0]));
      endcase
    end

    logic [1:0]         cls_q2;
    logic               sign_q2, int_ovf_q2;
    logic signed [13:0] exp_q2;
    logic [63:0]        sig_q2;
    logic [6:0]         sa_q2;

    always_ff @(posedge clk_i) begin
      cls_q2     <= cls2;
      sign_q2    <= sign_q1;
      exp_q2     <= exp2;
      sig_q2     <= sig2;
      sa_q2      <= sa;
      // F2I: 2^64 or more (hls roundToIntegerMag overflow), or infinity.
      int_ovf_q2 <= cls_q1 == ClsInf || (cls_q1 == ClsFinite && exp_q1 >= 14'sd64);
    end

    logic unused_lz;
    assign unused_lz = unused_lz_zero ^ unused_lz_f_zero;

    ///////////////
    // Stage 3   //
    ///////////////

    logic [63:0] mant_r;                 // the rounded magnitude
    logic [63:0] ebits;                  // F2F/I2F: exponent field in place (minus hidden bit)
    logic        f_ovf;                  // F2F/I2F: beyond the largest finite exponent

    always_comb begin
      logic [129:0]       w;
      logic               guard, sticky, inc;
      logic               sub;
      logic signed [13:0] emin_dst, emax_dst;
      logic [10:0]        efield;
      w      = {sig_q2, 66'd0} >> sa_q2;
      guard  = w[65];
      sticky = w[64:0] != '0;
      inc    = mode_q[1] != ModeI2I &&
               round_inc(rmc_q[1], sign_q2, w[66], guard, sticky);
      mant_r = w[129:66] + {63'd0, inc};

      emin_dst = 14'sd1 - 14'(flt_bias(fdst_q[1]));
      emax_dst = 14'(flt_bias(fdst_q[1]));
      sub      = exp_q2 < emin_dst;
      f_ovf    = exp_q2 > emax_dst;
      efield   = sub ? 11'd0 : 11'(exp_q2 + 14'(flt_bias(fdst_q[1])) - 14'sd1);
      unique case (fdst_q[1])
        wf_isa_pkg::FLT_TYPE_F16: ebits = {49'd0, efield[4:0], 10'd0};
        wf_isa_pkg::FLT_TYPE_F32: ebits = {33'd0, efield[7:0], 23'd0};
        wf_isa_pkg::FLT_TYPE_F64: ebits = {1'b0, efield, 52'd0};
        default:                  ebits = {49'd0, efield[7:0], 7'd0};
      endcase
    end

    logic [1:0]  cls_q3;
    logic        sign_q3, int_ovf_q3, f_ovf_q3;
    logic [63:0] mant_q3, ebits_q3;

    always_ff @(posedge clk_i) begin
      cls_q3     <= cls_q2;
      sign_q3    <= sign_q2;
      int_ovf_q3 <= int_ovf_q2;
      f_ovf_q3   <= f_ovf;
      mant_q3    <= mant_r;
      ebits_q3   <= ebits;
    end

    ///////////////
    // Stage 4   //
    ///////////////

    always_comb begin
      logic [63:0] f, i, over, sgn_bit;
      logic [1:0]  fd;
      logic [2:0]  id;
      logic        to_inf, f_sub, gt_one;
      logic [63:0] f_mag;
      fd      = fdst_q[2];
      id      = idst_q[2];
      sgn_bit = sign_q3 ? flt_sign(fd) : 64'd0;
      // SAT compares the magnitude with 1.0 beside the result select, not after it.
      f_mag   = ebits_q3 + mant_q3;
      gt_one  = cls_q3 == ClsInf || (cls_q3 == ClsFinite && (f_ovf_q3 || f_mag > flt_one(fd)));

      // Float result.
      to_inf = rmc_q[2] == wf_isa_pkg::RND_RN || (rmc_q[2] == wf_isa_pkg::RND_RP && !sign_q3) ||
               (rmc_q[2] == wf_isa_pkg::RND_RM && sign_q3);
      unique case (cls_q3)
        ClsNan:  f = flt_nan(fd);
        ClsInf:  f = sgn_bit | flt_inf(fd);
        ClsZero: f = sgn_bit;
        default: begin
          if (f_ovf_q3) f = sgn_bit | (to_inf ? flt_inf(fd) : flt_inf(fd) - 64'd1);
          else f = sgn_bit | f_mag;
        end
      endcase
      // FTZ of an FP32 result (after rounding), then SAT (NaN and negatives give +0).
      f_sub = f[30:23] == 8'd0 && f[22:0] != 23'd0;
      if (ftz_out_q[2] && f_sub) f = {f[63:32], f[31], 31'd0};
      if (sat_q[2]) begin
        if (cls_q3 == ClsNan || sign_q3) f = 64'd0;
        else if (gt_one) f = flt_one(fd);
      end

      // Integer result: saturate, then negate.
      over = int_over_mask(id);
      if (cls_q3 == ClsNan || cls_q3 == ClsZero) begin
        i = 64'd0;
      end else if (!sign_q3) begin
        i = (int_ovf_q3 || (mant_q3 & over) != '0) ? ~over : mant_q3;
      end else if (!int_signed(id)) begin
        i = 64'd0;
      end else if (int_ovf_q3 || ((mant_q3 & over) != '0 && (mant_q3 & ~over) != '0) ||
                   (mant_q3 & over & (over << 1)) != '0) begin
        i = over;                        // below the minimum (sign-extended -2^(N-1))
      end else begin
        i = 64'd0 - mant_q3;
      end

      unique case (mode_q[2])
        ModeF2I: res_d[l] = i;
        ModeI2I: res_d[l] = mant_q3;
        default: res_d[l] = f;
      endcase
    end
  end

  logic [Lanes-1:0][63:0] res_q;
  logic                   unused_pipe;

  // The stage-4 result, registered (plus any extra latency of the ISA table).
  wf_delay #(
    .Width  (Lanes * 64),
    .Stages (Latency - CoreStages + 1)
  ) u_out (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (valid_q[CoreStages-2]),
    .data_i  (res_d),
    .valid_o (valid_o),
    .data_o  (res_q)
  );

  for (genvar l = 0; l < Lanes; l++) begin : gen_out
    assign res_o[l]    = res_q[l][31:0];
    assign res_hi_o[l] = res_q[l][63:32];
  end

  assign unused_pipe = ^{integral_q[2:1], ftz_out_q[1:0], sat_q[1:0], idst_q[1:0], fdst_q[2],
                         rmc_q[0]};

endmodule
