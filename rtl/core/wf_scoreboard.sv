// Per-warp scoreboard of pending register and predicate writes
// (docs/microarchitecture.md, "Scoreboard"). The reference is hls/scoreboard.h (Scoreboard);
// tests/rtl/tb_scoreboard.cpp compares the two cycle by cycle.
//
// Every warp's head instruction is presented at once (the instruction buffers' heads, with the
// decoder's register groups and predicates); ready_o says which of them may issue. The warp that
// issues this cycle (issue_valid_i, issue_warp_i) takes the lowest entries free at the start of
// the cycle, the register destination first (alloc_*_o, carried down the pipeline). Releases
// free entries at the clock edge; an entry released in a cycle is not reallocated in that cycle.
//
// Register groups: [0] rd, [1] ra, [2] rb, [3] rc; counts 1, 2 or 4 (the decoder's r*_cnt_o).
// Predicates: [0] the guard, [1..3] pu0..pu2, [4] pd (the one written).
module wf_scoreboard #(
  parameter int unsigned Warps    = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned Entries  = wf_config_pkg::ConfigDefaultScoreboardEntries,
  parameter int unsigned Releases = 4,
  localparam int unsigned WarpBits  = Warps > 1 ? $clog2(Warps) : 1,
  localparam int unsigned EntryBits = Entries > 1 ? $clog2(Entries) : 1
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,

  // The head instruction of every warp.
  input  logic [Warps-1:0][3:0]               head_reg_valid_i,
  input  logic [Warps-1:0][3:0][7:0]          head_reg_base_i,
  input  logic [Warps-1:0][3:0][2:0]          head_reg_cnt_i,
  input  logic [Warps-1:0][4:0]               head_pred_valid_i,
  input  logic [Warps-1:0][4:0][3:0]          head_pred_i,
  input  logic [Warps-1:0]                    head_writes_reg_i,
  input  logic [Warps-1:0]                    head_writes_pred_i,
  output logic [Warps-1:0]                    ready_o,

  // The issued head (one warp a cycle).
  input  logic                                issue_valid_i,
  input  logic [WarpBits-1:0]                 issue_warp_i,
  output logic [EntryBits-1:0]                alloc_reg_entry_o,
  output logic [EntryBits-1:0]                alloc_pred_entry_o,

  // Write-backs.
  input  logic [Releases-1:0]                 rel_valid_i,
  input  logic [Releases-1:0][WarpBits-1:0]   rel_warp_i,
  input  logic [Releases-1:0][EntryBits-1:0]  rel_entry_i
);

  logic [Warps-1:0][Entries-1:0]      valid_d, valid_q;
  logic [Warps-1:0][Entries-1:0]      is_pred_d, is_pred_q;
  logic [Warps-1:0][Entries-1:0][7:0] base_d, base_q;
  logic [Warps-1:0][Entries-1:0][2:0] cnt_d, cnt_q;

  // Groups that share a register: equal above the larger group's alignment.
  function automatic logic overlaps(logic [7:0] a, logic [2:0] ca, logic [7:0] b, logic [2:0] cb);
    logic [7:0] m;
    m = {5'd0, (ca - 3'd1) | (cb - 3'd1)};
    overlaps = (a & ~m) == (b & ~m);
  endfunction

  function automatic logic [Entries-1:0] lowest_one(logic [Entries-1:0] v);
    lowest_one = v & (~v + Entries'(1));
  endfunction

  function automatic logic [EntryBits-1:0] onehot_index(logic [Entries-1:0] v);
    onehot_index = '0;
    for (int unsigned e = 0; e < Entries; e++) begin
      if (v[e]) onehot_index = onehot_index | EntryBits'(e);
    end
  endfunction

  // Readiness of every warp's head.
  logic [Warps-1:0]              hazard;
  logic [Warps-1:0][Entries-1:0] free;

  always_comb begin
    for (int unsigned w = 0; w < Warps; w++) begin
      hazard[w] = 1'b0;
      free[w]   = ~valid_q[w];
      for (int unsigned e = 0; e < Entries; e++) begin
        if (valid_q[w][e]) begin
          if (is_pred_q[w][e]) begin
            for (int unsigned p = 0; p < 5; p++) begin
              hazard[w] = hazard[w] |
                          (head_pred_valid_i[w][p] && head_pred_i[w][p] == base_q[w][e][3:0]);
            end
          end else begin
            for (int unsigned g = 0; g < 4; g++) begin
              hazard[w] = hazard[w] | (head_reg_valid_i[w][g] &&
                                       overlaps(head_reg_base_i[w][g], head_reg_cnt_i[w][g],
                                                base_q[w][e], cnt_q[w][e]));
            end
          end
        end
      end
      unique case ({head_writes_reg_i[w], head_writes_pred_i[w]})
        2'b00:        ready_o[w] = !hazard[w];
        2'b01, 2'b10: ready_o[w] = !hazard[w] && |free[w];
        // Two writes need two free entries: more than one bit set.
        2'b11:        ready_o[w] = !hazard[w] && |(free[w] & (free[w] - Entries'(1)));
        default:      ready_o[w] = 1'b0;
      endcase
    end
  end

  // Allocation for the issuing warp: the lowest free entry, and the next for a second write.
  // Selections by warp are AND-OR over a one-hot decode (no variable-index multiplexers).
  logic [Warps-1:0]   iss_sel;
  logic [Entries-1:0] iss_free, first_free, second_free, reg_pick, pred_pick;
  logic               iss_writes_reg, iss_writes_pred;
  logic [7:0]         iss_rd_base;
  logic [2:0]         iss_rd_cnt;
  logic [3:0]         iss_pd;

  always_comb begin
    iss_free        = '0;
    iss_writes_reg  = 1'b0;
    iss_writes_pred = 1'b0;
    iss_rd_base     = '0;
    iss_rd_cnt      = '0;
    iss_pd          = '0;
    for (int unsigned w = 0; w < Warps; w++) begin
      iss_sel[w] = issue_warp_i == WarpBits'(w);
      if (iss_sel[w]) begin
        iss_free        = iss_free | ~valid_q[w];
        iss_writes_reg  = iss_writes_reg | head_writes_reg_i[w];
        iss_writes_pred = iss_writes_pred | head_writes_pred_i[w];
        iss_rd_base     = iss_rd_base | head_reg_base_i[w][0];
        iss_rd_cnt      = iss_rd_cnt | head_reg_cnt_i[w][0];
        iss_pd          = iss_pd | head_pred_i[w][4];
      end
    end
  end
  assign first_free      = lowest_one(iss_free);
  assign second_free     = lowest_one(iss_free & ~first_free);
  assign reg_pick        = iss_writes_reg ? first_free : '0;
  assign pred_pick       = iss_writes_reg ? second_free : first_free;

  assign alloc_reg_entry_o  = onehot_index(reg_pick);
  assign alloc_pred_entry_o = onehot_index(pred_pick);

  // Next state: releases, then the issue's entries.
  always_comb begin
    valid_d   = valid_q;
    is_pred_d = is_pred_q;
    base_d    = base_q;
    cnt_d     = cnt_q;
    for (int unsigned w = 0; w < Warps; w++) begin
      for (int unsigned e = 0; e < Entries; e++) begin
        for (int unsigned r = 0; r < Releases; r++) begin
          if (rel_valid_i[r] && rel_warp_i[r] == WarpBits'(w) &&
              rel_entry_i[r] == EntryBits'(e)) begin
            valid_d[w][e] = 1'b0;
          end
        end
        if (issue_valid_i && iss_sel[w] && iss_writes_reg && reg_pick[e]) begin
          valid_d[w][e]   = 1'b1;
          is_pred_d[w][e] = 1'b0;
          base_d[w][e]    = iss_rd_base;
          cnt_d[w][e]     = iss_rd_cnt;
        end
        if (issue_valid_i && iss_sel[w] && iss_writes_pred && pred_pick[e]) begin
          valid_d[w][e]   = 1'b1;
          is_pred_d[w][e] = 1'b1;
          base_d[w][e]    = {4'd0, iss_pd};
          cnt_d[w][e]     = 3'd1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
    end else begin
      valid_q <= valid_d;
    end
  end

  // Entry contents are read only while valid: no reset (FPGA-friendly, like wf_delay's data).
  always_ff @(posedge clk_i) begin
    is_pred_q <= is_pred_d;
    base_q    <= base_d;
    cnt_q     <= cnt_d;
  end

endmodule
