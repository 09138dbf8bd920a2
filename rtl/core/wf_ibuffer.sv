// Per-warp instruction buffers (docs/microarchitecture.md, "Instruction buffers"): one FIFO of
// Depth decoded records (wf_core_pkg::dec_inst_t) per warp slot, in LUTRAM (one write port, read
// asynchronously at every warp's head). Written at the end of DE (one record a cycle); the head is
// what issue sees; popped when the head issues (up to IssueWidth warps a cycle, each once).
// flush_i empties a warp's buffer (a fault or the end of the launch); a write to a flushed warp in
// the same cycle is dropped.
// Records travel as logic [..][DecInstBits-1:0] (one dec_inst_t each): Yosys 0.55 drops the
// dimension of an array of structs, packed or unpacked (rtl/README.md).
module wf_ibuffer #(
  parameter int unsigned Warps = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned Depth = wf_config_pkg::ConfigDefaultIbufferDepth,
  localparam int unsigned WarpBits  = Warps > 1 ? $clog2(Warps) : 1,
  localparam int unsigned PtrBits   = Depth > 1 ? $clog2(Depth) : 1,
  localparam int unsigned CountBits = $clog2(Depth + 1)
) (
  input  logic                                  clk_i,
  input  logic                                  rst_ni,

  input  logic                                  wr_valid_i,
  input  logic [WarpBits-1:0]                   wr_warp_i,
  input  wf_core_pkg::dec_inst_t                wr_inst_i,

  output logic [Warps-1:0]                      head_valid_o,
  output logic [Warps-1:0][wf_core_pkg::DecInstBits-1:0] head_o,  // dec_inst_t each
  output logic [Warps-1:0][CountBits-1:0]       count_o,

  input  logic [Warps-1:0]                      pop_i,
  input  logic [Warps-1:0]                      flush_i
);

  logic [Warps-1:0][PtrBits-1:0]   rd_ptr_d, rd_ptr_q, wr_ptr_d, wr_ptr_q;
  logic [Warps-1:0][CountBits-1:0] count_d, count_q;
  logic [wf_core_pkg::DecInstBits-1:0] mem [Warps][Depth];

  function automatic logic [PtrBits-1:0] next_ptr(logic [PtrBits-1:0] p);
    next_ptr = (int'(p) == int'(Depth) - 1) ? '0 : p + PtrBits'(1);
  endfunction

  logic [Warps-1:0] push;

  always_comb begin
    rd_ptr_d = rd_ptr_q;
    wr_ptr_d = wr_ptr_q;
    count_d  = count_q;
    for (int unsigned w = 0; w < Warps; w++) begin
      push[w] = wr_valid_i && wr_warp_i == WarpBits'(w) && !flush_i[w];
      if (flush_i[w]) begin
        rd_ptr_d[w] = '0;
        wr_ptr_d[w] = '0;
        count_d[w]  = '0;
      end else begin
        if (push[w]) wr_ptr_d[w] = next_ptr(wr_ptr_q[w]);
        if (pop_i[w]) rd_ptr_d[w] = next_ptr(rd_ptr_q[w]);
        count_d[w] = count_q[w] + CountBits'(push[w]) - CountBits'(pop_i[w]);
      end
      head_valid_o[w] = count_q[w] != '0;
      head_o[w]       = mem[w][rd_ptr_q[w]];
      count_o[w]      = count_q[w];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_ptr_q <= '0;
      wr_ptr_q <= '0;
      count_q  <= '0;
    end else begin
      rd_ptr_q <= rd_ptr_d;
      wr_ptr_q <= wr_ptr_d;
      count_q  <= count_d;
    end
  end

  // LUTRAM: written without reset, read asynchronously (entries past count are never looked at).
  always_ff @(posedge clk_i) begin
    if (wr_valid_i && !flush_i[wr_warp_i]) begin
      mem[wr_warp_i][wr_ptr_q[wr_warp_i]] <= wr_inst_i;
    end
  end

endmodule
