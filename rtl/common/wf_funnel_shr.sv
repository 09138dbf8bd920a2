// The low word of a 64-bit window shifted right by 0..32: out = (win >> amt)[31:0], amount 32
// giving the high word. Three explicit 4:1 multiplexer layers (by 8s, by 2s, then by 1 or the
// high word), each one LUT per bit; a 64-bit `>>` maps to about four times the LUTs.
module wf_funnel_shr (
  input  logic [63:0] win_i,
  input  logic [5:0]  amt_i,   // 0..32; larger amounts are not defined
  output logic [31:0] out_o
);

  logic [38:0] by8;
  logic [32:0] by2;

  always_comb begin
    for (int unsigned i = 0; i < 39; i++) begin
      by8[i] = amt_i[4] ? (amt_i[3] ? win_i[i + 24] : win_i[i + 16])
                        : (amt_i[3] ? win_i[i + 8] : win_i[i]);
    end
    for (int unsigned i = 0; i < 33; i++) begin
      by2[i] = amt_i[2] ? (amt_i[1] ? by8[i + 6] : by8[i + 4])
                        : (amt_i[1] ? by8[i + 2] : by8[i]);
    end
    for (int unsigned i = 0; i < 32; i++) begin
      out_o[i] = amt_i[5] ? win_i[32 + i] : (amt_i[0] ? by2[i + 1] : by2[i]);
    end
  end

  logic unused_win_msb;
  assign unused_win_msb = win_i[63];

endmodule
