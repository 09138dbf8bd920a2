// The predicate file (docs/microarchitecture.md, "Register file and operand collectors"): per warp
// slot the 15 predicates P0..P14 as 32-bit lane masks, in LUTRAM (Warps x 16 rows of 32 bits,
// row 15 of each warp unused; PT is not stored and reads as all ones).
//
// `Reads` asynchronous read ports: the predicate's 32 lanes in the same cycle. One write port with
// a per-lane write mask: the lanes of one pass (or all 32) of one predicate; the write is visible
// to reads from the next cycle. Contents are undefined after reset.
module wf_predfile #(
  parameter int unsigned Warps    = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned Reads    = 4,
  localparam int unsigned WarpBits = Warps > 1 ? $clog2(Warps) : 1
) (
  input  logic                             clk_i,
  input  logic [Reads-1:0][WarpBits-1:0]   rwarp_i,
  input  logic [Reads-1:0][3:0]            rpred_i,
  output logic [Reads-1:0][31:0]           rdata_o,
  input  logic                             we_i,
  input  logic [WarpBits-1:0]              wwarp_i,
  input  logic [3:0]                       wpred_i,
  input  logic [31:0]                      wmask_i,
  input  logic [31:0]                      wdata_i
);

  localparam logic [3:0] PT = 4'(wf_isa_pkg::TruePred);

  logic [31:0] mem_q [(2**WarpBits)*16];

  // LUTRAM template with per-bit write enables (one 1-bit-wide RAM a lane).
  always_ff @(posedge clk_i) begin
    if (we_i && wpred_i != PT) begin
      for (int unsigned l = 0; l < 32; l++) begin
        if (wmask_i[l]) mem_q[{wwarp_i, wpred_i}][l] <= wdata_i[l];
      end
    end
  end

  always_comb begin
    for (int unsigned r = 0; r < Reads; r++) begin
      rdata_o[r] = rpred_i[r] == PT ? '1 : mem_q[{rwarp_i[r], rpred_i[r]}];
    end
  end

endmodule
