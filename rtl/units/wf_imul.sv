// Integer multiply and multiply-add: IMUL, IMUL_I, IMULHI, IMULWIDE, IMAD, IMADHI, IMADWIDE for
// `Lanes` lanes, fixed latency op_latency(OP_IMUL) (valid-in/valid-out, no back-pressure).
//
// Each lane multiplies 33-bit two's-complement operands (the 32-bit value, sign- or zero-extended
// by the type) as four 18x18 partial products, one DSP48E2 each:
//   a = aH * 2^17 + aL,  b = bH * 2^17 + bL   (aL, bL: 17 bits unsigned; aH, bH: 16 bits signed)
//   stage 1: operand registers (the DSPs' A/B registers)
//   stage 2: the partial products (M registers)
//   stage 3: pp0 and pp3 need no adder (their bits do not overlap); pp1 + pp2
//   stage 4: {pp3, pp0} + (pp1 + pp2) << 17 + addend, and the result selection
// The addend is rc (IMAD), rc << 32 (IMADHI) or the pair rc (IMADWIDE), 0 otherwise.
// Operands: a = ra, b = rb or the immediate (IMUL_I), c = rc, c_hi = rc+1 (IMADWIDE).
// Results: res = the 32-bit result, or the low word of the wide ones; res_hi = the high word.
module wf_imul #(
  parameter int unsigned Lanes = 1
) (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,

  input  logic                                 valid_i,
  input  logic [wf_isa_pkg::InstBits-1:0]      inst_i,
  input  logic [Lanes-1:0][31:0]               a_i,
  input  logic [Lanes-1:0][31:0]               b_i,
  input  logic [Lanes-1:0][31:0]               c_i,
  input  logic [Lanes-1:0][31:0]               c_hi_i,

  output logic                                 valid_o,
  output logic [Lanes-1:0][31:0]               res_o,
  output logic [Lanes-1:0][31:0]               res_hi_o
);

  localparam int unsigned Latency = wf_isa_pkg::op_latency(wf_isa_pkg::OP_IMUL);
  localparam int unsigned CoreStages = 4;

  if (Latency < CoreStages) begin : gen_latency_check
    $error("wf_imul: ISA latency %0d is shorter than the multiplier's %0d stages", Latency,
           CoreStages);
  end

  typedef enum logic [1:0] {
    AddNone,
    AddLo,     // + rc
    AddHi,     // + rc << 32
    AddWide    // + {rc_hi, rc}
  } add_e;

  logic [7:0] op;
  logic       is_signed;
  logic       sel_hi;      // the result is the high word
  add_e       add_sel;

  assign op = inst_i[wf_isa_pkg::FmtROpLo +: wf_isa_pkg::FmtROpWidth];

  always_comb begin
    is_signed = 1'b0;
    sel_hi    = 1'b0;
    add_sel   = AddNone;
    unique case (op)
      wf_isa_pkg::OP_IMULHI: begin
        is_signed = inst_i[wf_isa_pkg::ImulhiTyLo +: wf_isa_pkg::ImulhiTyWidth] ==
                    wf_isa_pkg::I_TY32_S32;
        sel_hi    = 1'b1;
      end
      wf_isa_pkg::OP_IMULWIDE: begin
        is_signed = inst_i[wf_isa_pkg::ImulwideTyLo +: wf_isa_pkg::ImulwideTyWidth] ==
                    wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_IMAD: begin
        add_sel = AddLo;
      end
      wf_isa_pkg::OP_IMADHI: begin
        is_signed = inst_i[wf_isa_pkg::ImadhiTyLo +: wf_isa_pkg::ImadhiTyWidth] ==
                    wf_isa_pkg::I_TY32_S32;
        sel_hi    = 1'b1;
        add_sel   = AddHi;
      end
      wf_isa_pkg::OP_IMADWIDE: begin
        is_signed = inst_i[wf_isa_pkg::ImadwideTyLo +: wf_isa_pkg::ImadwideTyWidth] ==
                    wf_isa_pkg::I_TY32_S32;
        add_sel   = AddWide;
      end
      default: ;  // IMUL, IMUL_I: low word, no addend (the sign does not matter)
    endcase
  end

  // Control pipeline (stage 1 .. 4).
  logic [2:0] valid_q, valid_d;
  logic [2:0] sel_hi_q, sel_hi_d;

  assign valid_d  = {valid_q[1:0], valid_i};
  assign sel_hi_d = {sel_hi_q[1:0], sel_hi};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    sel_hi_q <= sel_hi_d;
  end

  logic [Lanes-1:0][31:0] res_d, res_hi_d;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    // Stage 1: operands split into 17-bit unsigned low parts and 16-bit signed high parts.
    logic signed [17:0] al_d, bl_d, ah_d, bh_d;
    logic signed [17:0] al_q, bl_q, ah_q, bh_q;
    logic        [63:0] addend_d, addend1_q, addend2_q, addend3_q;
    // Stage 2: partial products.
    logic signed [35:0] pp0_d, pp1_d, pp2_d, pp3_d;
    logic signed [35:0] pp0_q, pp1_q, pp2_q, pp3_q;
    // Stage 3.
    logic        [63:0] p03_d, p03_q;
    logic signed [36:0] p12_d, p12_q;
    // Stage 4.
    logic        [63:0] sum;

    always_comb begin
      logic ext_a, ext_b;
      ext_a = is_signed & a_i[l][31];
      ext_b = is_signed & b_i[l][31];
      al_d  = {1'b0, a_i[l][16:0]};
      bl_d  = {1'b0, b_i[l][16:0]};
      ah_d  = {{3{ext_a}}, a_i[l][31:17]};
      bh_d  = {{3{ext_b}}, b_i[l][31:17]};
      unique case (add_sel)
        AddLo:   addend_d = {32'd0, c_i[l]};
        AddHi:   addend_d = {c_i[l], 32'd0};
        AddWide: addend_d = {c_hi_i[l], c_i[l]};
        default: addend_d = 64'd0;
      endcase
    end

    assign pp0_d = al_q * bl_q;
    assign pp1_d = al_q * bh_q;
    assign pp2_d = ah_q * bl_q;
    assign pp3_d = ah_q * bh_q;

    // pp0 < 2^34 is unsigned; pp3 (weight 2^34) fills the bits above it.
    assign p03_d = {pp3_q[29:0], pp0_q[33:0]};
    assign p12_d = 37'(pp1_q) + 37'(pp2_q);

    assign sum = p03_q + {{10{p12_q[36]}}, p12_q, 17'd0} + addend3_q;

    assign res_d[l]    = sel_hi_q[2] ? sum[63:32] : sum[31:0];
    assign res_hi_d[l] = sum[63:32];

    always_ff @(posedge clk_i) begin
      al_q      <= al_d;
      bl_q      <= bl_d;
      ah_q      <= ah_d;
      bh_q      <= bh_d;
      addend1_q <= addend_d;
      pp0_q     <= pp0_d;
      pp1_q     <= pp1_d;
      pp2_q     <= pp2_d;
      pp3_q     <= pp3_d;
      addend2_q <= addend1_q;
      addend3_q <= addend2_q;
      p03_q     <= p03_d;
      p12_q     <= p12_d;
    end

    logic unused_bits;
    assign unused_bits = ^{pp0_q[35:34], pp3_q[35:30]};
  end

  wf_delay #(
    .Width  (Lanes * 64),
    .Stages (Latency - CoreStages + 1)
  ) u_out (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (valid_q[CoreStages-2]),
    .data_i  ({res_d, res_hi_d}),
    .valid_o (valid_o),
    .data_o  ({res_o, res_hi_o})
  );

endmodule
