// Register-file bank read arbiter: which operand collector reads each bank this cycle
// (docs/microarchitecture.md, "Register file and operand collectors"). The reference is
// hls/rf_arbiter.h (RfReadArbiter::step); tests/rtl/tb_rf_read_arb.cpp compares the two cycle by
// cycle.
//
// Every bank goes to the oldest collector requesting it (earliest allocated; collectors
// allocated in one cycle are ordered by index), and within that collector to its lowest
// requesting slot. The grants are combinational from the requests and the registered age order;
// alloc_i marks collectors allocated this cycle, the youngest from the next cycle on.
module wf_rf_read_arb #(
  parameter int unsigned Collectors = wf_config_pkg::ConfigDefaultOperandCollectors,
  parameter int unsigned Banks      = wf_config_pkg::ConfigDefaultRfBanks,
  parameter int unsigned Slots      = 6,  // source registers a collector reads for one pass
  localparam int unsigned CollBits  = Collectors > 1 ? $clog2(Collectors) : 1,
  localparam int unsigned BankBits  = Banks > 1 ? $clog2(Banks) : 1,
  localparam int unsigned SlotBits  = Slots > 1 ? $clog2(Slots) : 1
) (
  input  logic                                     clk_i,
  input  logic                                     rst_ni,
  input  logic [Collectors-1:0][Slots-1:0]         req_valid_i,
  input  logic [Collectors-1:0][Slots-1:0][BankBits-1:0] req_bank_i,
  input  logic [Collectors-1:0]                    alloc_i,
  output logic [Banks-1:0]                         grant_valid_o,
  output logic [Banks-1:0][CollBits-1:0]           grant_coll_o,
  output logic [Banks-1:0][SlotBits-1:0]           grant_slot_o,
  output logic [Collectors-1:0][Slots-1:0]         slots_granted_o,
  output logic [Collectors-1:0][Collectors-1:0]    older_o   // [a][b]: a allocated before b
);

  // older_q[a][b]: collector a was allocated before collector b.
  logic [Collectors-1:0][Collectors-1:0] older_d, older_q;

  // hit[b][c][s]: slot s of collector c requests bank b.
  logic [Banks-1:0][Collectors-1:0][Slots-1:0] hit;
  always_comb begin
    for (int unsigned b = 0; b < Banks; b++) begin
      for (int unsigned c = 0; c < Collectors; c++) begin
        for (int unsigned s = 0; s < Slots; s++) begin
          hit[b][c][s] = req_valid_i[c][s] && req_bank_i[c][s] == BankBits'(b);
        end
      end
    end
  end

  // Per bank: the winning collector (one-hot) and its slot (one-hot).
  logic [Banks-1:0][Collectors-1:0] wants, oldest, win_coll;
  logic [Banks-1:0][Slots-1:0]      win_slots, win_slot;
  always_comb begin
    for (int unsigned b = 0; b < Banks; b++) begin
      for (int unsigned c = 0; c < Collectors; c++) begin
        wants[b][c] = |hit[b][c];
      end
      for (int unsigned c = 0; c < Collectors; c++) begin
        oldest[b][c] = wants[b][c];
        for (int unsigned j = 0; j < Collectors; j++) begin
          if (wants[b][j] && older_q[j][c]) oldest[b][c] = 1'b0;
        end
      end
      win_coll[b]  = oldest[b] & (~oldest[b] + Collectors'(1));
      win_slots[b] = '0;
      for (int unsigned c = 0; c < Collectors; c++) begin
        if (win_coll[b][c]) win_slots[b] = win_slots[b] | hit[b][c];
      end
      win_slot[b] = win_slots[b] & (~win_slots[b] + Slots'(1));
    end
  end

  always_comb begin
    slots_granted_o = '0;
    for (int unsigned b = 0; b < Banks; b++) begin
      grant_valid_o[b] = |win_coll[b];
      grant_coll_o[b]  = '0;
      grant_slot_o[b]  = '0;
      for (int unsigned c = 0; c < Collectors; c++) begin
        if (win_coll[b][c]) begin
          grant_coll_o[b]    = grant_coll_o[b] | CollBits'(c);
          slots_granted_o[c] = slots_granted_o[c] | win_slot[b];
        end
      end
      for (int unsigned s = 0; s < Slots; s++) begin
        if (win_slot[b][s]) grant_slot_o[b] = grant_slot_o[b] | SlotBits'(s);
      end
    end
  end

  // Age order: allocated collectors become the youngest, lower index older.
  always_comb begin
    for (int unsigned a = 0; a < Collectors; a++) begin
      for (int unsigned b = 0; b < Collectors; b++) begin
        if (alloc_i[a]) begin
          older_d[a][b] = alloc_i[b] && b > a;
        end else begin
          older_d[a][b] = older_q[a][b] | alloc_i[b];
        end
      end
    end
  end

  assign older_o = older_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      older_q <= '0;
    end else begin
      older_q <= older_d;
    end
  end

endmodule
