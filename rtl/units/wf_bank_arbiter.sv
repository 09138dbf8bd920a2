// Shared-memory bank-conflict arbiter: splits one warp's shared-memory access (32 lane byte
// offsets, the active mask, the access size) into conflict-free passes over NumBanks 4-byte banks,
// one pass a cycle. Word w lives in bank w % NumBanks, row w / NumBanks. In each pass every bank
// takes the row of the lowest-numbered pending lane that touches it, and a pending lane is served
// when every bank it touches took its row; lanes asking for the same word share a pass (a read is
// broadcast). The bit-exact reference is hls/include/warpforge/hls/bank_arbiter.h.
//
// A request is accepted with valid_i && ready_o; its passes come out on the following cycles,
// one a cycle, with last_o on the final one (a request with no active lane has none). ready_o is
// high when idle and during a last pass, so requests can follow each other without a gap.
// Addresses must be aligned to the access size (the LSU faults on others first); 8- and 16-byte
// accesses touch 2 or 4 consecutive banks of one row.
module wf_bank_arbiter #(
  parameter int unsigned NumBanks  = 32,   // wf_config_pkg Config*SharedBanks: 8, 16 or 32
  parameter int unsigned AddrWidth = 18    // byte offset bits of the shared window
) (
  input  logic                                               clk_i,
  input  logic                                               rst_ni,

  input  logic                                               valid_i,
  output logic                                               ready_o,
  input  logic [wf_isa_pkg::WarpSize-1:0]                    mask_i,
  input  logic [2:0]                                         size_i,  // log2 bytes: 0..4
  input  logic [wf_isa_pkg::WarpSize-1:0][AddrWidth-1:0]     addr_i,

  output logic                                               valid_o,
  output logic                                               last_o,
  output logic [wf_isa_pkg::WarpSize-1:0]                    lanes_o, // lanes served
  output logic [NumBanks-1:0]                                bank_en_o,
  output logic [NumBanks-1:0][AddrWidth-3-$clog2(NumBanks):0] bank_row_o
);

  localparam int unsigned Lanes    = wf_isa_pkg::WarpSize;
  localparam int unsigned BankBits = $clog2(NumBanks);
  localparam int unsigned RowWidth = AddrWidth - 2 - BankBits;

  // The request being served: its lanes' rows, which lanes share banks and rows (computed once
  // at acceptance: they do not change between passes) and the lanes left.
  logic [Lanes-1:0][RowWidth-1:0] row_q, row_d;
  logic [Lanes-1:0][Lanes-1:0]    same_bank_q, same_bank_d;  // [l][m]: l and m use the same banks
  logic [Lanes-1:0][Lanes-1:0]    same_row_q, same_row_d;    // ... and the same row there
  logic [NumBanks-1:0][Lanes-1:0] touch_q, touch_d;          // [b][l]: lane l uses bank b
  logic [Lanes-1:0]               pending_q, pending_d;

  // Lanes of an aligned 8- or 16-byte access use 2 or 4 banks that differ in the low index bits
  // only; lanes of one request either use the same banks or none in common.
  logic [BankBits-1:0]            group_mask;
  logic [Lanes-1:0][BankBits-1:0] in_bank;
  logic [Lanes-1:0][RowWidth-1:0] in_row;
  logic [Lanes-1:0][Lanes-1:0]    same_bank_in, same_row_in;
  logic [NumBanks-1:0][Lanes-1:0] touch_in;

  always_comb begin
    unique case (size_i)
      3'd3:    group_mask = ~BankBits'(1);
      3'd4:    group_mask = ~BankBits'(3);
      default: group_mask = '1;
    endcase
  end

  for (genvar l = 0; l < Lanes; l++) begin : g_in_lane
    assign in_bank[l] = addr_i[l][2 +: BankBits];
    assign in_row[l]  = addr_i[l][AddrWidth-1:2+BankBits];
    for (genvar m = 0; m < Lanes; m++) begin : g_pair
      assign same_bank_in[l][m] = (in_bank[l] & group_mask) == (in_bank[m] & group_mask);
      assign same_row_in[l][m]  = same_bank_in[l][m] && (in_row[l] == in_row[m]);
    end
    for (genvar b = 0; b < NumBanks; b++) begin : g_touch
      assign touch_in[b][l] = (in_bank[l] & group_mask) == (BankBits'(b) & group_mask);
    end
  end

  // A pass: every bank serves the row of its lowest pending lane (the leader of the lanes that
  // share the bank); a lane is served when its leader asks for the same row.
  logic [Lanes-1:0][Lanes-1:0] rivals;   // pending lanes sharing lane l's banks
  logic [Lanes-1:0][Lanes-1:0] leader;   // the lowest of them, one-hot
  logic [Lanes-1:0]            served;

  for (genvar l = 0; l < Lanes; l++) begin : g_serve
    assign rivals[l] = pending_q & same_bank_q[l];
    assign leader[l] = rivals[l] & (~rivals[l] + Lanes'(1));
    assign served[l] = pending_q[l] && |(leader[l] & same_row_q[l]);
  end

  // The served lanes of one bank all ask for the same row: OR their rows together.
  always_comb begin
    for (int unsigned b = 0; b < NumBanks; b++) begin
      bank_en_o[b]  = |(touch_q[b] & served);
      bank_row_o[b] = '0;
      for (int unsigned l = 0; l < Lanes; l++) begin
        bank_row_o[b] |= {RowWidth{touch_q[b][l] && served[l]}} & row_q[l];
      end
    end
  end

  assign valid_o = |pending_q;
  assign lanes_o = served;
  assign last_o  = valid_o && ((pending_q & ~served) == '0);
  assign ready_o = !valid_o || last_o;

  always_comb begin
    pending_d   = pending_q & ~served;
    row_d       = row_q;
    same_bank_d = same_bank_q;
    same_row_d  = same_row_q;
    touch_d     = touch_q;
    if (valid_i && ready_o) begin
      pending_d   = mask_i;
      row_d       = in_row;
      same_bank_d = same_bank_in;
      same_row_d  = same_row_in;
      touch_d     = touch_in;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pending_q   <= '0;
      row_q       <= '0;
      same_bank_q <= '0;
      same_row_q  <= '0;
      touch_q     <= '0;
    end else begin
      pending_q   <= pending_d;
      row_q       <= row_d;
      same_bank_q <= same_bank_d;
      same_row_q  <= same_row_d;
      touch_q     <= touch_d;
    end
  end

  // Byte offsets within a word select nothing here: the bank returns the whole word.
  logic unused_byte_offsets;
  always_comb begin
    unused_byte_offsets = 1'b0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      unused_byte_offsets ^= ^addr_i[l][1:0];
    end
  end

endmodule
