// Warp scheduler pick: which ready warps issue this cycle, one per issue slot
// (docs/microarchitecture.md, "Warp scheduler"). The reference is hls/warp_scheduler.h
// (WarpScheduler::step); tests/rtl/tb_warp_sched.cpp compares the two cycle by cycle.
//
// Policy (wf_config_pkg::scheduler_policy_e):
//   SCHEDULER_POLICY_LRR  loose round-robin: slot k takes the first ready warp after the warp
//                         issued last (by slot k-1 this cycle, else by an earlier cycle);
//   SCHEDULER_POLICY_GTO  greedy-then-oldest: slot 0 keeps the greedy warp while it is ready,
//                         else (and for slot 1) the oldest ready warp not yet taken.
// The picks are combinational from ready_i and registered state (the issue stage registers
// them). admit_i marks warp slots that become resident this cycle (a block's warps, all in one
// cycle): they are the youngest, the lower slot older, from the next cycle on.
module wf_warp_sched #(
  parameter int unsigned Warps      = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned IssueWidth = wf_config_pkg::ConfigDefaultIssueWidth,  // 1 or 2
  parameter int unsigned Policy     = wf_config_pkg::ConfigDefaultSchedulerPolicy,
  localparam int unsigned WarpBits  = Warps > 1 ? $clog2(Warps) : 1
) (
  input  logic                                 clk_i,
  input  logic                                 rst_ni,
  input  logic [Warps-1:0]                     ready_i,
  input  logic [Warps-1:0]                     admit_i,
  output logic [IssueWidth-1:0]                issue_valid_o,
  output logic [IssueWidth-1:0][WarpBits-1:0]  issue_warp_o
);

  localparam bit IsGto = Policy == wf_config_pkg::SCHEDULER_POLICY_GTO;

  // The lowest set bit of a vector, one-hot (zero when none).
  function automatic logic [Warps-1:0] lowest_one(logic [Warps-1:0] v);
    lowest_one = v & (~v + Warps'(1));
  endfunction

  // The index of a one-hot vector (OR of the indices of its set bits).
  function automatic logic [WarpBits-1:0] onehot_index(logic [Warps-1:0] v);
    onehot_index = '0;
    for (int unsigned w = 0; w < Warps; w++) begin
      if (v[w]) onehot_index = onehot_index | WarpBits'(w);
    end
  endfunction

  // Bits strictly above the one-hot position of v (the round-robin window after a pick).
  function automatic logic [Warps-1:0] above_onehot(logic [Warps-1:0] v);
    above_onehot = '0;
    for (int unsigned w = 1; w < Warps; w++) begin
      above_onehot[w] = above_onehot[w-1] | v[w-1];
    end
  endfunction

  // State: the round-robin window (warps after the last issued one), the greedy warp (one-hot),
  // and the age matrix: older_q[a][b] set when warp a became resident before warp b.
  logic [Warps-1:0]            after_d, after_q;
  logic [Warps-1:0]            greedy_d, greedy_q;
  logic [Warps-1:0][Warps-1:0] older_d, older_q;

  // The oldest warps of a set: those no other member is older than.
  function automatic logic [Warps-1:0] oldest_of(logic [Warps-1:0] v,
                                                 logic [Warps-1:0][Warps-1:0] older);
    logic any_older;
    for (int unsigned w = 0; w < Warps; w++) begin
      any_older = 1'b0;
      for (int unsigned j = 0; j < Warps; j++) begin
        any_older = any_older | (v[j] & older[j][w]);
      end
      oldest_of[w] = v[w] & ~any_older;
    end
  endfunction

  // Slot picks as one-hot vectors. Slot 1 (IssueWidth 2) picks from what slot 0 left, with the
  // round-robin window after slot 0's pick.
  logic [Warps-1:0] pick0, pick1;

  always_comb begin
    if (!IsGto) begin
      pick0 = |(ready_i & after_q) ? lowest_one(ready_i & after_q) : lowest_one(ready_i);
    end else if (|(greedy_q & ready_i)) begin
      pick0 = greedy_q;
    end else begin
      pick0 = lowest_one(oldest_of(ready_i, older_q));
    end
  end

  if (IssueWidth > 1) begin : gen_slot1
    logic [Warps-1:0] left1, window1;
    always_comb begin
      left1   = ready_i & ~pick0;
      window1 = above_onehot(pick0);
      if (!IsGto) begin
        pick1 = |(left1 & window1) ? lowest_one(left1 & window1) : lowest_one(left1);
      end else begin
        pick1 = lowest_one(oldest_of(left1, older_q));
      end
    end
  end else begin : gen_no_slot1
    assign pick1 = '0;
  end

  logic [1:0][Warps-1:0] pick;
  assign pick = {pick1, pick0};

  always_comb begin
    for (int unsigned k = 0; k < IssueWidth; k++) begin
      issue_valid_o[k] = |pick[k];
      issue_warp_o[k]  = onehot_index(pick[k]);
    end
  end

  // Next state.
  always_comb begin
    after_d  = after_q;
    greedy_d = greedy_q;
    if (|pick0) begin
      after_d  = above_onehot(pick0);
      greedy_d = pick0;
    end
    if (|pick1) after_d = above_onehot(pick1);
    for (int unsigned a = 0; a < Warps; a++) begin
      for (int unsigned b = 0; b < Warps; b++) begin
        if (admit_i[a]) begin
          older_d[a][b] = admit_i[b] && b > a;
        end else begin
          older_d[a][b] = older_q[a][b] | admit_i[b];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      after_q  <= '0;  // the pointer at the last warp: nothing after it, warp 0 comes first
      greedy_q <= '0;
      older_q  <= '0;
    end else begin
      after_q  <= after_d;
      greedy_q <= greedy_d;
      older_q  <= older_d;
    end
  end

endmodule
