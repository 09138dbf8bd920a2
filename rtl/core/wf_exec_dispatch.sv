// Dispatch and the write-back reservation (docs/microarchitecture.md, "Dispatch and
// write-back"). The reference is hls/dispatch.h (Dispatcher::step); tests/rtl/tb_exec_dispatch.cpp
// compares the two cycle by cycle.
//
// Each cycle: every unit's candidate is its oldest complete collector (coll_older_i, the read
// arbiter's age order), if the unit can take a pass (unit_ready_i, and a lane-shared unit not
// still feeding its previous pass's sub-passes). Candidates are then taken oldest first: a
// fixed-latency pass dispatches when the write slots lat .. lat + s - 1 of each destination bank
// (and of the predicate file) are clear, and claims them; a variable-latency pass (LSU, CTRL,
// TEX) always dispatches. Return buffers (0: LSU, 1: CTRL) write in this cycle when bit 0 of
// their banks is clear, the LSU first. Every vector shifts one bit a cycle.
//
// Ports:
//   coll_ready_i / coll_older_i  from wf_opcoll (complete passes, age order)
//   coll_unit_i                  the collector's unit (wf_isa_pkg::unit_e)
//   coll_lat_i / coll_share_i    its opcode's latency (wf_isa_pkg::op_latency, the decoder's
//                                latency_o) and its unit's lane share (unit_lane_share), made at
//                                decode: dispatch decodes nothing (and Yosys cannot evaluate
//                                those package functions here)
//   coll_wbanks_i / coll_wpred_i destination banks of the register write (rd's one to four
//                                consecutive banks; 0 without a register write) and whether a
//                                predicate is written
//   unit_ready_i                 per unit (wf_isa_pkg::unit_e): can take a pass this cycle
//   dispatch_o                   to wf_opcoll's dispatch_i; unit_valid_o / unit_coll_o: which
//                                collector each unit takes
//   ret_*                        return-buffer write requests and grants
module wf_exec_dispatch #(
  parameter int unsigned Collectors = wf_config_pkg::ConfigDefaultOperandCollectors,
  parameter int unsigned Banks      = wf_config_pkg::ConfigDefaultRfBanks,
  // Cycles a reservation vector covers: at least the largest op_latency plus the largest
  // unit_lane_share (tb_exec_dispatch checks it against the ISA tables).
  parameter int unsigned Horizon    = 72,
  localparam int unsigned Units     = 12,
  localparam int unsigned Returns   = 2,
  localparam int unsigned CollBits  = Collectors > 1 ? $clog2(Collectors) : 1
) (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic [Collectors-1:0]                   coll_ready_i,
  input  logic [Collectors-1:0][Collectors-1:0]   coll_older_i,
  input  logic [Collectors-1:0][3:0]              coll_unit_i,
  input  logic [Collectors-1:0][7:0]              coll_lat_i,
  input  logic [Collectors-1:0][2:0]              coll_share_i,
  input  logic [Collectors-1:0][Banks-1:0]        coll_wbanks_i,
  input  logic [Collectors-1:0]                   coll_wpred_i,
  input  logic [Units-1:0]                        unit_ready_i,
  output logic [Collectors-1:0]                   dispatch_o,
  output logic [Units-1:0]                        unit_valid_o,
  output logic [Units-1:0][CollBits-1:0]          unit_coll_o,
  input  logic [Returns-1:0]                      ret_valid_i,
  input  logic [Returns-1:0][Banks-1:0]           ret_banks_i,
  input  logic [Returns-1:0]                      ret_pred_i,
  output logic [Returns-1:0]                      ret_grant_o
);

  // Reservation vectors: [Banks] is the predicate file.
  logic [Banks:0][Horizon-1:0] resv_d, resv_q;
  logic [Units-1:0][2:0]       busy_d, busy_q;

  // Per collector: latency, share, variable, write window.
  logic [Collectors-1:0][7:0]          lat;
  logic [Collectors-1:0][2:0]          share;
  logic [Collectors-1:0]               variable;
  logic [Collectors-1:0][Horizon-1:0]  win;
  logic [Collectors-1:0][Banks:0]      writes;
  always_comb begin
    for (int unsigned c = 0; c < Collectors; c++) begin
      lat[c]      = coll_lat_i[c];
      share[c]    = coll_share_i[c];
      variable[c] = coll_unit_i[c] == wf_isa_pkg::UNIT_LSU || coll_unit_i[c] == wf_isa_pkg::UNIT_CTRL ||
                    coll_unit_i[c] == wf_isa_pkg::UNIT_TEX;
      win[c]      = ((Horizon'(1) << share[c]) - Horizon'(1)) << lat[c];
      writes[c]   = {coll_wpred_i[c], coll_wbanks_i[c]};
    end
  end

  // 1. Candidates: the oldest complete collector of each unit, if the unit can take a pass.
  logic [Collectors-1:0]               cand;
  logic [Collectors-1:0][CollBits:0]   rank;   // candidates older than c
  always_comb begin
    for (int unsigned c = 0; c < Collectors; c++) begin
      cand[c] = coll_ready_i[c] && unit_ready_i[coll_unit_i[c]] && busy_q[coll_unit_i[c]] == '0;
      for (int unsigned j = 0; j < Collectors; j++) begin
        if (j != c && coll_ready_i[j] && coll_unit_i[j] == coll_unit_i[c] && coll_older_i[j][c]) begin
          cand[c] = 1'b0;
        end
      end
    end
    for (int unsigned c = 0; c < Collectors; c++) begin
      rank[c] = '0;
      for (int unsigned j = 0; j < Collectors; j++) begin
        if (j != c && cand[j] && coll_older_i[j][c]) rank[c] = rank[c] + (CollBits+1)'(1);
      end
    end
  end

  // 2. Oldest first: claim write slots. 3. Returns in this cycle's free slots.
  logic [Banks:0][Horizon-1:0] claimed;
  logic [Banks:0]              now;
  logic                        ok;
  always_comb begin
    claimed    = resv_q;
    dispatch_o = '0;
    ok         = 1'b0;
    for (int unsigned n = 0; n < Collectors; n++) begin
      for (int unsigned c = 0; c < Collectors; c++) begin
        if (cand[c] && rank[c] == (CollBits+1)'(n)) begin
          ok = 1'b1;
          for (int unsigned b = 0; b <= Banks; b++) begin
            if (!variable[c] && writes[c][b] && |(claimed[b] & win[c])) ok = 1'b0;
          end
          if (ok) begin
            dispatch_o[c] = 1'b1;
            for (int unsigned b = 0; b <= Banks; b++) begin
              if (!variable[c] && writes[c][b]) claimed[b] = claimed[b] | win[c];
            end
          end
        end
      end
    end
    for (int unsigned b = 0; b <= Banks; b++) now[b] = claimed[b][0];
    for (int unsigned r = 0; r < Returns; r++) begin
      ret_grant_o[r] = ret_valid_i[r] && !(|({ret_pred_i[r], ret_banks_i[r]} & now));
      if (ret_grant_o[r]) now = now | {ret_pred_i[r], ret_banks_i[r]};
    end
    for (int unsigned b = 0; b <= Banks; b++) resv_d[b] = claimed[b] >> 1;
  end

  always_comb begin
    unit_valid_o = '0;
    unit_coll_o  = '0;
    busy_d       = busy_q;
    for (int unsigned u = 0; u < Units; u++) begin
      if (busy_q[u] != '0) busy_d[u] = busy_q[u] - 3'd1;
    end
    for (int unsigned c = 0; c < Collectors; c++) begin
      if (dispatch_o[c]) begin
        unit_valid_o[coll_unit_i[c]] = 1'b1;
        unit_coll_o[coll_unit_i[c]]  = CollBits'(c);
        if (share[c] > 3'd1) busy_d[coll_unit_i[c]] = share[c] - 3'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      resv_q <= '0;
      busy_q <= '0;
    end else begin
      resv_q <= resv_d;
      busy_q <= busy_d;
    end
  end

endmodule
