// Global-memory coalescer: turns one warp's global-memory access (32 lane byte addresses, the
// active mask, the access size) into its distinct cache-line requests, one a cycle. Each request
// is the line of the lowest-numbered pending lane and serves every pending lane in that line,
// with the bytes of the line they access. The bit-exact reference is
// hls/include/warpforge/hls/coalescer.h.
//
// A request is accepted with valid_i && ready_o; its line requests come out on the following
// cycles, one a cycle, with last_o on the final one (an access with no active lane has none).
// ready_o is high when idle and during a last request. Addresses must be aligned to the access
// size (the LSU faults on others first), so no access crosses a line.
module wf_coalescer #(
  parameter int unsigned LineBytes = 128,  // wf_config_pkg Config*CacheLineBytes: 32, 64 or 128
  parameter int unsigned AddrWidth = 48    // byte address bits
) (
  input  logic                                           clk_i,
  input  logic                                           rst_ni,

  input  logic                                           valid_i,
  output logic                                           ready_o,
  input  logic [wf_isa_pkg::WarpSize-1:0]                mask_i,
  input  logic [2:0]                                     size_i,  // log2 bytes: 0..4
  input  logic [wf_isa_pkg::WarpSize-1:0][AddrWidth-1:0] addr_i,

  output logic                                           valid_o,
  output logic                                           last_o,
  output logic [wf_isa_pkg::WarpSize-1:0]                lanes_o, // lanes served
  output logic [AddrWidth-1-$clog2(LineBytes):0]         line_o,  // address / LineBytes
  output logic [LineBytes-1:0]                           byte_mask_o
);

  localparam int unsigned Lanes    = wf_isa_pkg::WarpSize;
  localparam int unsigned LineBits = $clog2(LineBytes);
  localparam int unsigned TagWidth = AddrWidth - LineBits;

  logic [Lanes-1:0][AddrWidth-1:0] addr_q, addr_d;
  logic [2:0]                      size_q, size_d;
  logic [Lanes-1:0]                pending_q, pending_d;

  logic [Lanes-1:0]                leader;     // lowest pending lane, one-hot
  logic [TagWidth-1:0]             line;
  logic [Lanes-1:0]                match;
  logic [LineBytes-1:0]            starts;     // first bytes of the matched lanes' accesses
  logic [LineBits-1:0]             size_mask;  // offset bits below the access size

  assign leader = pending_q & (~pending_q + Lanes'(1));

  always_comb begin
    line = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      line |= {TagWidth{leader[l]}} & addr_q[l][AddrWidth-1:LineBits];
    end
  end

  for (genvar l = 0; l < Lanes; l++) begin : g_match
    assign match[l] = pending_q[l] && (addr_q[l][AddrWidth-1:LineBits] == line);
  end

  always_comb begin
    unique case (size_q)
      3'd0:    size_mask = '0;
      3'd1:    size_mask = LineBits'(1);
      3'd2:    size_mask = LineBits'(3);
      3'd3:    size_mask = LineBits'(7);
      default: size_mask = LineBits'(15);
    endcase
  end

  // Aligned accesses: byte j is accessed when the access starting at j with its low size bits
  // cleared belongs to a matched lane.
  for (genvar j = 0; j < LineBytes; j++) begin : g_byte
    always_comb begin
      starts[j] = 1'b0;
      for (int unsigned l = 0; l < Lanes; l++) begin
        starts[j] |= match[l] && (addr_q[l][LineBits-1:0] == LineBits'(j));
      end
    end
    assign byte_mask_o[j] = starts[LineBits'(j) & ~size_mask];
  end

  assign valid_o = |pending_q;
  assign lanes_o = match;
  assign line_o  = line;
  assign last_o  = valid_o && ((pending_q & ~match) == '0);
  assign ready_o = !valid_o || last_o;

  always_comb begin
    pending_d = pending_q & ~match;
    addr_d    = addr_q;
    size_d    = size_q;
    if (valid_i && ready_o) begin
      pending_d = mask_i;
      addr_d    = addr_i;
      size_d    = size_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pending_q <= '0;
      addr_q    <= '0;
      size_q    <= '0;
    end else begin
      pending_q <= pending_d;
      addr_q    <= addr_d;
      size_q    <= size_d;
    end
  end

endmodule
