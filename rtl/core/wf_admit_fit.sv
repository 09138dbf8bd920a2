// First fit for block admission (hls/block_dispatch.h, BlockResources): the lowest start of
// `need_i` consecutive free units of `free_i` (need 0: start 0). Combinational. Windows of 2^j
// free units are built in log2(Units) AND levels; the window for `need_i` is the AND of the
// windows of its set bits at increasing offsets; the start is the lowest position it holds at.
module wf_admit_fit #(
  parameter int unsigned Units     = 64,
  localparam int unsigned IdxBits  = Units > 1 ? $clog2(Units) : 1,
  localparam int unsigned Levels   = $clog2(Units + 1)
) (
  input  logic [Units-1:0]   free_i,
  input  logic [15:0]        need_i,
  output logic               found_o,
  output logic [IdxBits-1:0] start_o
);
  logic [Levels-1:0][Units-1:0] win;   // win[j][i]: units i .. i + 2^j - 1 are all free
  logic [Units-1:0]             fit;
  logic [15:0]                  off;

  for (genvar j = 0; j < Levels; j++) begin : gen_win
    logic [Units-1:0] w;
    if (j == 0) begin : gen_first
      assign w = free_i;
    end else begin : gen_next
      assign w = gen_win[j-1].w & (gen_win[j-1].w >> (1 << (j - 1)));
    end
    assign win[j] = w;
  end

  always_comb begin
    fit = '1;
    off = '0;
    for (int unsigned j = 0; j < Levels; j++) begin
      if (need_i[j]) begin
        fit = fit & (win[j] >> off);
        off = off + 16'(1 << j);
      end
    end
    found_o = need_i <= 16'(Units) && fit != '0;
    start_o = '0;
    for (int i = Units - 1; i >= 0; i--) begin
      if (fit[i]) start_o = IdxBits'(i);
    end
  end

endmodule
