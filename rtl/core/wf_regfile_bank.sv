// One register-file bank (docs/microarchitecture.md, "Register file and operand collectors"): a
// simple dual-port RAM of `Rows` rows of `Lanes` x 32 bits, one read and one write a cycle, written
// so that synthesis infers block RAM (BRAM36 in 512 x 72 or UltraRAM when wide and deep).
//
// Read: `re_i` and `raddr_i` in cycle t; the row is on `rdata_o` in cycle t + 1 (the RAM's
// synchronous read; the operand collector registers it at the end of t + 1). Without `re_i` the
// output holds. A read and a write of the same row in one cycle return the old row (the core
// never does both: the scoreboard and the collectors' write-after-read rule keep them apart).
// Write: `we_i`, `waddr_i`, per-lane enables `wlane_i` (each lane's four byte enables) and the data
// in cycle t; lanes whose enable is low keep their value. Contents are undefined after reset.
module wf_regfile_bank #(
  parameter int unsigned Lanes    = wf_config_pkg::ConfigDefaultLanes,
  parameter int unsigned Rows     = 512,
  localparam int unsigned RowBits = Rows > 1 ? $clog2(Rows) : 1
) (
  input  logic                     clk_i,
  input  logic                     re_i,
  input  logic [RowBits-1:0]       raddr_i,
  output logic [Lanes-1:0][31:0]   rdata_o,
  input  logic                     we_i,
  input  logic [RowBits-1:0]       waddr_i,
  input  logic [Lanes-1:0]         wlane_i,
  input  logic [Lanes-1:0][31:0]   wdata_i
);

  logic [Lanes*32-1:0] mem_q [Rows];
  logic [Lanes*32-1:0] rdata_q;

  // The RAM template (write with byte enables, registered read): the one place in rtl/core where
  // an always_ff holds more than `x_q <= x_d`, because that is the form RAM inference recognises.
  always_ff @(posedge clk_i) begin
    if (we_i) begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        for (int unsigned by = 0; by < 4; by++) begin
          if (wlane_i[l]) mem_q[waddr_i][32*l + 8*by +: 8] <= wdata_i[l][8*by +: 8];
        end
      end
    end
    if (re_i) rdata_q <= mem_q[raddr_i];
  end

  assign rdata_o = rdata_q;

endmodule
