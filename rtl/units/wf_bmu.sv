// Bit-manipulation unit: POPC, CLZ, BFIND, BREV, BFE, BFI and PRMT, for `Lanes` lanes.
//
// These opcodes run at a quarter of the integer rate (CUDA's throughput table gives population
// count and leading-zero count 16 results per clock per multiprocessor against 64 for integer
// add, shift and logic), so a core gives this unit a quarter of its lanes (`lane_share` of the
// ISA's BMU entry) and keeps the full-rate `wf_alu` small.
//
// Pipeline (fixed latency, valid-in/valid-out, no back-pressure): op_latency(OP_POPC) register
// stages from the inputs to the outputs.
//   stage 1: a 64->32 right shifter for the bit fields (BFE: {0, a} >> pos; BFI: {a, 0} >>
//            32 - pos), the field mask, PRMT's byte selection, popc, clz/bfind and brev; the
//            results are brought to three operands x (shifted field), y (rb for BFI, else the
//            miscellaneous result) and z (the mask) and an 8-bit truth table per lane;
//   stage 2: res = lut[{x, y, z}] per bit (BFE: z ? x : sign; BFI: z ? x : y; others: y).
// Operands as the operand collector delivers them: a = ra, b = rb, c = rc.
module wf_bmu
#(
  parameter int unsigned Lanes = 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,

  input  logic                            valid_i,
  input  logic [wf_isa_pkg::InstBits-1:0] inst_i,
  input  logic [Lanes-1:0][31:0]          a_i,
  input  logic [Lanes-1:0][31:0]          b_i,
  input  logic [Lanes-1:0][31:0]          c_i,

  output logic                            valid_o,
  output logic [Lanes-1:0][31:0]          res_o
);

  localparam int unsigned Latency = wf_isa_pkg::op_latency(wf_isa_pkg::OP_POPC);
  localparam int unsigned CoreStages = 2;

  if (Latency < CoreStages) begin : gen_latency_check
    $error("wf_bmu: ISA latency %0d is shorter than the BMU's %0d stages", Latency, CoreStages);
  end

  typedef enum logic [2:0] {
    MiscPrmt,
    MiscPopc,
    MiscClz,
    MiscBfind,
    MiscBrev
  } misc_op_e;

  // Truth tables (x = F0, y = CC, z = AA).
  localparam logic [7:0] LutY      = 8'hCC;
  localparam logic [7:0] LutOnes   = 8'hFF;
  localparam logic [7:0] LutZeros  = 8'h00;
  localparam logic [7:0] LutZxY    = 8'hE4;  // z ? x : y
  localparam logic [7:0] LutZx0    = 8'hA0;  // z ? x : 0
  localparam logic [7:0] LutZx1    = 8'hF5;  // z ? x : 1

  logic [7:0] op;          // wf_isa_pkg::opcode_e (Yosys cannot cast to a package enum)
  logic       is_bfe, is_bfi, is_bfind;
  misc_op_e   misc_op;
  logic [7:0] lut_fixed;
  logic       bfe_signed;
  logic       bfind_signed;
  logic       bfind_shiftamt;
  logic [2:0] prmt_mode;     // wf_isa_pkg::prmtmode_e

  assign op = inst_i[wf_isa_pkg::FmtROpLo +: wf_isa_pkg::FmtROpWidth];

  always_comb begin
    is_bfe         = 1'b0;
    is_bfi         = 1'b0;
    is_bfind       = 1'b0;
    misc_op        = MiscPrmt;
    lut_fixed      = LutY;
    bfe_signed     = 1'b0;
    bfind_signed   = 1'b0;
    bfind_shiftamt = 1'b0;
    prmt_mode      = wf_isa_pkg::PRMT_MODE_IDX;

    unique case (op)
      wf_isa_pkg::OP_POPC: misc_op = MiscPopc;
      wf_isa_pkg::OP_CLZ:  misc_op = MiscClz;
      wf_isa_pkg::OP_BREV: misc_op = MiscBrev;
      wf_isa_pkg::OP_BFIND: begin
        misc_op        = MiscBfind;
        is_bfind       = 1'b1;
        bfind_signed   = inst_i[wf_isa_pkg::BfindTyLo +: wf_isa_pkg::BfindTyWidth] ==
                         wf_isa_pkg::I_TY32_S32;
        bfind_shiftamt = inst_i[wf_isa_pkg::BfindShiftamtLo];
      end
      wf_isa_pkg::OP_BFE: begin
        is_bfe     = 1'b1;
        bfe_signed = inst_i[wf_isa_pkg::BfeTyLo +: wf_isa_pkg::BfeTyWidth] ==
                     wf_isa_pkg::I_TY32_S32;
      end
      wf_isa_pkg::OP_BFI: begin
        is_bfi    = 1'b1;
        lut_fixed = LutZxY;
      end
      wf_isa_pkg::OP_PRMT: begin
        misc_op   = MiscPrmt;
        prmt_mode = inst_i[wf_isa_pkg::PrmtModeLo +: wf_isa_pkg::PrmtModeWidth];
      end
      default: begin
        // Opcodes of other units: zero result.
        lut_fixed = LutZeros;
      end
    endcase
  end

  ////////////////////////
  // Per-lane stage 1   //
  ////////////////////////

  logic [Lanes-1:0][31:0] x_d, y_d, z_d;
  logic [Lanes-1:0][7:0]  lut_d;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    logic [31:0] a, b, c;
    // bit-field shifter
    logic [15:0] bf;          // pos = bf[7:0], len = bf[15:8] (rb for BFE, rc for BFI)
    logic [5:0]  pos_c, len_c;
    logic [5:0]  sh_amt;
    logic [63:0] sh_win;
    logic [31:0] sh_out;
    logic [5:0]  m_lo, m_hi;  // mask = bits [m_lo, m_hi)
    logic [31:0] mask;
    logic        sbit;
    // misc
    logic [31:0] misc, prmt, clz_src, brev;
    logic [5:0]  clz, popc;

    assign a = a_i[l];
    assign b = b_i[l];
    assign c = c_i[l];

    assign bf    = is_bfi ? c[15:0] : b[15:0];
    assign pos_c = (bf[7:5] != '0) ? 6'd32 : {1'b0, bf[4:0]};
    assign len_c = (bf[15:13] != '0) ? 6'd32 : {1'b0, bf[12:8]};

    // BFE: {0, a} >> pos (pos = 32 leaves 0); BFI: {a, 0} >> 32 - pos.
    assign sh_amt = is_bfi ? 6'd32 - pos_c : pos_c;
    assign sh_win = is_bfi ? {a, 32'd0} : {32'd0, a};
    wf_funnel_shr u_shift (
      .win_i (sh_win),
      .amt_i (sh_amt),
      .out_o (sh_out)
    );

    // Bit-field mask = bits m_lo <= i < m_hi. BFE: [0, min(len, 32 - pos)); BFI: [pos,
    // min(pos + len, 32)). BFE's sign bit a[min(pos + len - 1, 31)] (0 for .U32 or len = 0).
    always_comb begin
      logic [6:0] end_bfi;
      logic [5:0] room;
      logic [8:0] sidx;
      end_bfi = {1'b0, pos_c} + {1'b0, len_c};
      room    = 6'd32 - pos_c;
      if (is_bfi) begin
        m_lo = pos_c;
        m_hi = (end_bfi > 7'd32) ? 6'd32 : end_bfi[5:0];
      end else begin
        m_lo = 6'd0;
        m_hi = (len_c < room) ? len_c : room;
      end
      for (int unsigned i = 0; i < 32; i++) begin
        mask[i] = (6'(i) < m_hi) && (6'(i) >= m_lo);
      end
      sidx = {1'b0, b[7:0]} + {1'b0, b[15:8]} - 9'd1;
      if (!bfe_signed || b[15:8] == 8'd0) begin
        sbit = 1'b0;
      end else if (sidx > 9'd31) begin
        sbit = a[31];
      end else begin
        sbit = a[sidx[4:0]];
      end
    end

    // PRMT: bytes of {b, a}; each result byte picks one (with sign replication in IDX mode).
    // The byte multiplexer is an AND-OR of a one-hot select: Yosys turns both a variable
    // part-select and a case statement here into a 64-bit shifter (four times the LUTs).
    function automatic logic [7:0] pick_byte(logic [31:0] lo, logic [31:0] hi, logic [2:0] sel);
      logic [7:0] oh;
      oh = 8'b1 << sel;
      pick_byte = ({8{oh[0]}} & lo[7:0])   | ({8{oh[1]}} & lo[15:8])  |
                  ({8{oh[2]}} & lo[23:16]) | ({8{oh[3]}} & lo[31:24]) |
                  ({8{oh[4]}} & hi[7:0])   | ({8{oh[5]}} & hi[15:8])  |
                  ({8{oh[6]}} & hi[23:16]) | ({8{oh[7]}} & hi[31:24]);
    endfunction

    always_comb begin
      logic [2:0] sel;
      logic       rep;
      logic [7:0] byte_v;
      prmt = 32'd0;
      for (int unsigned i = 0; i < 4; i++) begin
        rep = 1'b0;
        unique case (prmt_mode)
          wf_isa_pkg::PRMT_MODE_IDX: begin
            sel = c[4*i +: 3];
            rep = c[4*i + 3];
          end
          wf_isa_pkg::PRMT_MODE_F4E:  sel = 3'({1'b0, c[1:0]} + 3'(i));
          wf_isa_pkg::PRMT_MODE_B4E:  sel = 3'({1'b0, c[1:0]} - 3'(i));
          wf_isa_pkg::PRMT_MODE_RC8:  sel = {1'b0, c[1:0]};
          wf_isa_pkg::PRMT_MODE_ECL:  sel = (2'(i) > c[1:0]) ? 3'(i) : {1'b0, c[1:0]};
          wf_isa_pkg::PRMT_MODE_ECR:  sel = (2'(i) < c[1:0]) ? 3'(i) : {1'b0, c[1:0]};
          wf_isa_pkg::PRMT_MODE_RC16: sel = {1'b0, c[0], 1'(i)};
          default:                    sel = 3'(i);
        endcase
        byte_v = pick_byte(a, b, sel);
        prmt[8*i +: 8] = rep ? {8{byte_v[7]}} : byte_v;
      end
    end

    // POPC as an adder tree over nibbles. (Flat vectors: Yosys cannot size multi-dimensional
    // arrays declared inside generate blocks.)
    logic [23:0] p4;    // 8 x 3 bits
    logic [15:0] p8;    // 4 x 4 bits
    logic [9:0]  p16;   // 2 x 5 bits
    always_comb begin
      for (int unsigned k = 0; k < 8; k++) begin
        p4[3*k +: 3] = 3'(a[4*k]) + 3'(a[4*k+1]) + 3'(a[4*k+2]) + 3'(a[4*k+3]);
      end
      for (int unsigned k = 0; k < 4; k++) begin
        p8[4*k +: 4] = 4'(p4[6*k +: 3]) + 4'(p4[6*k+3 +: 3]);
      end
      for (int unsigned k = 0; k < 2; k++) begin
        p16[5*k +: 5] = 5'(p8[8*k +: 4]) + 5'(p8[8*k+4 +: 4]);
      end
      popc = 6'(p16[4:0]) + 6'(p16[9:5]);
    end

    // CLZ (and BFIND on ~a for negative signed inputs) over nibbles: the first nonzero nibble
    // from the top, then the leading zeros inside it.
    logic [7:0]  nz;
    logic [15:0] lz4;   // 8 x 2 bits
    assign clz_src = (bfind_signed && a[31]) ? ~a : a;
    always_comb begin
      for (int unsigned k = 0; k < 8; k++) begin
        nz[k] = clz_src[4*k +: 4] != 4'd0;
        lz4[2*k +: 2] = clz_src[4*k+3] ? 2'd0 : clz_src[4*k+2] ? 2'd1 :
                        clz_src[4*k+1] ? 2'd2 : 2'd3;
      end
      clz = 6'd32;
      for (int k = 0; k < 8; k++) begin
        if (nz[k]) clz = {1'b0, 3'(7 - k), lz4[2*k +: 2]};
      end
    end

    for (genvar i = 0; i < 32; i++) begin : gen_brev
      assign brev[i] = a[31 - i];
    end

    always_comb begin
      unique case (misc_op)
        MiscPopc:  misc = {26'd0, popc};
        MiscClz:   misc = {26'd0, clz};
        MiscBfind: misc = {27'd0, bfind_shiftamt ? clz[4:0] : ~clz[4:0]};
        MiscBrev:  misc = brev;
        default:   misc = prmt;
      endcase
    end

    // Stage-1 outputs.
    always_comb begin
      x_d[l] = sh_out;
      y_d[l] = is_bfi ? b : misc;
      z_d[l] = mask;
      if (is_bfe) begin
        lut_d[l] = sbit ? LutZx1 : LutZx0;
      end else if (is_bfind && clz[5]) begin
        lut_d[l] = LutOnes;    // no bit found
      end else begin
        lut_d[l] = lut_fixed;
      end
    end
  end

  //////////////////////////
  // Stage-1 registers    //
  //////////////////////////

  logic                   valid1_q;
  logic [Lanes-1:0][31:0] x_q, y_q, z_q;
  logic [Lanes-1:0][7:0]  lut_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid1_q <= 1'b0;
    end else begin
      valid1_q <= valid_i;
    end
  end

  always_ff @(posedge clk_i) begin
    x_q   <= x_d;
    y_q   <= y_d;
    z_q   <= z_d;
    lut_q <= lut_d;
  end

  ////////////////////////
  // Stage 2            //
  ////////////////////////

  logic [Lanes-1:0][31:0] res_d;

  for (genvar l = 0; l < Lanes; l++) begin : gen_lane2
    for (genvar i = 0; i < 32; i++) begin : gen_bit
      assign res_d[l][i] = lut_q[l][{x_q[l][i], y_q[l][i], z_q[l][i]}];
    end
  end

  wf_delay #(
    .Width  (Lanes * 32),
    .Stages (Latency - 1)
  ) u_out (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (valid1_q),
    .data_i  (res_d),
    .valid_o (valid_o),
    .data_o  (res_o)
  );

endmodule
