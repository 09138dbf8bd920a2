// The core's shared memory (docs/microarchitecture.md, "Load/store unit"): `Bytes` bytes in
// `Banks` banks of 4 bytes, word w in bank w % Banks at row w / Banks (the bank arbiter's
// mapping, hls/bank_arbiter.h). Each bank is a single-port RAM of 32-bit words with byte write
// enables, written so that synthesis infers block RAM (one BRAM column a bank).
//
// In cycle t each enabled bank (en_i) either writes the bytes of wbe_i (we_i) or reads its row;
// a read's word is on rdata_o in t + 1 and holds until the bank's next read. Contents are
// undefined after reset (a kernel's shared memory is uninitialised, as on a GPU).
module wf_smem #(
  parameter int unsigned Banks    = wf_config_pkg::ConfigDefaultSharedBanks,
  parameter int unsigned Bytes    = wf_config_pkg::ConfigDefaultSharedMemPerCore,
  localparam int unsigned Rows    = Bytes / (4 * Banks),
  localparam int unsigned RowBits = Rows > 1 ? $clog2(Rows) : 1
) (
  input  logic                            clk_i,
  input  logic [Banks-1:0]                en_i,
  input  logic [Banks-1:0]                we_i,
  input  logic [Banks-1:0][RowBits-1:0]   row_i,
  input  logic [Banks-1:0][3:0]           wbe_i,
  input  logic [Banks-1:0][31:0]          wdata_i,
  output logic [Banks-1:0][31:0]          rdata_o
);

  for (genvar b = 0; b < Banks; b++) begin : g_bank
    logic [31:0] mem_q [Rows];
    logic [31:0] rdata_q;

    // The RAM template (byte-enable write, registered read): the form RAM inference recognises.
    always_ff @(posedge clk_i) begin
      if (en_i[b] && we_i[b]) begin
        for (int unsigned by = 0; by < 4; by++) begin
          if (wbe_i[b][by]) mem_q[row_i[b]][8*by +: 8] <= wdata_i[b][8*by +: 8];
        end
      end
      if (en_i[b] && !we_i[b]) rdata_q <= mem_q[row_i[b]];
    end

    assign rdata_o[b] = rdata_q;
  end

endmodule
