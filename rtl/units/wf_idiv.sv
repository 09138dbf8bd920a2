// Integer divide and remainder: IDIV, IREM for .S32, .U32, .S64 and .U64, `Lanes` lanes in
// lockstep. Iterative, restoring radix-2 with two steps per cycle (64 quotient bits in 32 cycles,
// 32-bit operands run the same 64 steps zero-extended). The unit is busy for the ISA table's
// latency op_latency(OP_IDIV): an operation accepted in cycle t (valid_i && ready_o) has its
// result on res_o / res_hi_o with valid_o for exactly one cycle, cycle t + latency; ready_o is
// high again in that cycle (a new operation may be accepted while the old result is shown).
//
// Semantics (ISA): quotient truncated toward zero, remainder with the sign of the dividend;
// x / 0 = all ones (of the type's width), x % 0 = x; INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0.
// Operands: a / a_hi = ra (pair for 64-bit types), b / b_hi = rb.
module wf_idiv #(
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

  localparam int unsigned Latency = wf_isa_pkg::op_latency(wf_isa_pkg::OP_IDIV);
  localparam int unsigned Iters   = 32;          // cycles of two radix-2 steps
  localparam int unsigned CntW    = $clog2(Latency + 1);

  if (Latency < Iters + 2) begin : gen_latency_check
    $error("wf_idiv: ISA latency %0d is shorter than the divider's %0d cycles", Latency,
           Iters + 2);
  end

  typedef enum logic [1:0] {
    StIdle,
    StIter,   // two quotient bits per cycle
    StFix,    // signs, division by zero, result selection
    StHold    // result registered, waiting for cycle t + latency
  } state_e;

  // Decode.
  logic [7:0] op;
  logic [1:0] ty;          // wf_isa_pkg::ity_e
  logic       is_rem, is_signed, is_wide;

  assign op = inst_i[wf_isa_pkg::FmtROpLo +: wf_isa_pkg::FmtROpWidth];

  always_comb begin
    is_rem = op == wf_isa_pkg::OP_IREM;
    ty     = is_rem ? inst_i[wf_isa_pkg::IremTyLo +: wf_isa_pkg::IremTyWidth]
                    : inst_i[wf_isa_pkg::IdivTyLo +: wf_isa_pkg::IdivTyWidth];
    is_signed = (ty == wf_isa_pkg::I_TY_S32) || (ty == wf_isa_pkg::I_TY_S64);
    is_wide   = (ty == wf_isa_pkg::I_TY_S64) || (ty == wf_isa_pkg::I_TY_U64);
  end

  // Shared control.
  state_e        state_q, state_d;
  logic [CntW-1:0] cyc_q, cyc_d;     // cycles since the operation was accepted
  logic          rem_q, rem_d, wide_q, wide_d;
  logic          accept;

  assign accept  = valid_i && ready_o;
  assign valid_o = (state_q == StHold) && (cyc_q == CntW'(Latency));
  assign ready_o = (state_q == StIdle) || valid_o;

  always_comb begin
    state_d = state_q;
    cyc_d   = cyc_q + CntW'(1);
    rem_d   = rem_q;
    wide_d  = wide_q;
    unique case (state_q)
      StIdle: ;
      StIter: if (cyc_q == CntW'(Iters)) state_d = StFix;
      StFix:  state_d = StHold;
      StHold: if (valid_o) state_d = StIdle;
      default: state_d = StIdle;
    endcase
    if (accept) begin
      state_d = StIter;
      cyc_d   = CntW'(1);
      rem_d   = is_rem;
      wide_d  = is_wide;
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
    rem_q  <= rem_d;
    wide_q <= wide_d;
  end

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    logic [63:0] n_in, d_in;             // operands, sign-extended or zero-extended to 64 bits
    logic [64:0] r_q, r_d;               // partial remainder
    logic [63:0] nq_q, nq_d;             // dividend bits shifting out, quotient bits in
    logic [63:0] d_q, d_d;               // |divisor|
    logic [63:0] a_q, a_d;               // the dividend as given (x % 0 = x)
    logic        sq_q, sq_d, sr_q, sr_d; // quotient and remainder negative
    logic        dz_q, dz_d;             // divisor is zero
    logic [63:0] res_q, res_d;

    always_comb begin
      logic        sa, sb;
      logic [63:0] abs_a, abs_b;
      logic [64:0] r1, r2, t1, t2;
      logic [63:0] nq1;
      logic [63:0] q, r, v;

      n_in = is_wide ? {a_hi_i[l], a_i[l]} : {{32{is_signed & a_i[l][31]}}, a_i[l]};
      d_in = is_wide ? {b_hi_i[l], b_i[l]} : {{32{is_signed & b_i[l][31]}}, b_i[l]};
      sa    = is_signed & n_in[63];
      sb    = is_signed & d_in[63];
      abs_a = sa ? 64'd0 - n_in : n_in;
      abs_b = sb ? 64'd0 - d_in : d_in;

      r_d   = r_q;
      nq_d  = nq_q;
      d_d   = d_q;
      a_d   = a_q;
      sq_d  = sq_q;
      sr_d  = sr_q;
      dz_d  = dz_q;
      res_d = res_q;

      // Two restoring steps.
      r1  = {r_q[63:0], nq_q[63]};
      t1  = r1 - {1'b0, d_q};
      nq1 = {nq_q[62:0], !t1[64]};
      if (!t1[64]) r1 = t1;
      r2  = {r1[63:0], nq1[63]};
      t2  = r2 - {1'b0, d_q};
      if (!t2[64]) r2 = t2;

      // Result: quotient or remainder with its sign; division by zero as the ISA says.
      q = sq_q ? 64'd0 - nq_q : nq_q;
      r = sr_q ? 64'd0 - r_q[63:0] : r_q[63:0];
      if (dz_q) begin
        v = rem_q ? a_q : (wide_q ? 64'hffff_ffff_ffff_ffff : 64'h0000_0000_ffff_ffff);
      end else begin
        v = rem_q ? r : q;
      end

      if (accept) begin
        r_d  = '0;
        nq_d = abs_a;
        d_d  = abs_b;
        a_d  = n_in;
        sq_d = sa ^ sb;
        sr_d = sa;
        dz_d = d_in == 64'd0;
      end else if (state_q == StIter) begin
        r_d  = r2;
        nq_d = {nq1[62:0], !t2[64]};
      end else if (state_q == StFix) begin
        res_d = v;
      end
    end

    always_ff @(posedge clk_i) begin
      r_q   <= r_d;
      nq_q  <= nq_d;
      d_q   <= d_d;
      a_q   <= a_d;
      sq_q  <= sq_d;
      sr_q  <= sr_d;
      dz_q  <= dz_d;
      res_q <= res_d;
    end

    assign res_o[l]    = res_q[31:0];
    assign res_hi_o[l] = res_q[63:32];

    logic unused_bits;
    assign unused_bits = r_q[64];
  end

endmodule
