// The block dispatcher (docs/microarchitecture.md, "Block dispatcher"): offers the grid's blocks in
// linear order (x fastest), one at a time, to one core a cycle. The offer moves to the next core
// every cycle (round robin, starting at core 0 at launch start): after a core takes a block the
// next block goes to the core after it; after a core declines, the same block goes to the next
// core. The core decides with the resource rule (hls/block_dispatch.h, written once there).
// The grid is done when every block was taken (or the launch was stopped by a fault) and every
// core is idle; a core must drop idle_i in the cycle after it takes a block.
module wf_dispatcher #(
  parameter int unsigned Cores = 1,
  localparam int unsigned CoreBits = Cores > 1 ? $clog2(Cores) : 1
) (
  input  logic clk_i,
  input  logic rst_ni,

  input  logic                     launch_start_i,
  input  logic [2:0][31:0]         grid_i,           // grid dimensions (from launch_cfg_t)
  input  logic                     stop_i,           // a fault: offer no more blocks

  output logic [Cores-1:0]         block_valid_o,
  output wf_soc_pkg::block_t       block_o,
  input  logic [Cores-1:0]         block_accept_i,
  input  logic [Cores-1:0]         core_idle_i,

  output logic                     done_o            // level, until the next launch start
);

  logic                running_d, running_q;
  logic                all_taken_d, all_taken_q;
  logic [2:0][31:0]    next_d, next_q;
  logic [CoreBits-1:0] offer_d, offer_q;
  logic                taken;

  assign taken = running_q && !all_taken_q && !stop_i && block_accept_i[offer_q];

  always_comb begin
    running_d = running_q;
    all_taken_d = all_taken_q;
    next_d = next_q;
    offer_d = offer_q;
    if (running_q) begin
      offer_d = CoreBits'((32'(offer_q) + 1) % Cores);
    end
    if (taken) begin
      // The next block in linear order; after the last one, the grid is all taken.
      if (next_q[0] + 1 < grid_i[0]) begin
        next_d[0] = next_q[0] + 1;
      end else begin
        next_d[0] = '0;
        if (next_q[1] + 1 < grid_i[1]) begin
          next_d[1] = next_q[1] + 1;
        end else begin
          next_d[1] = '0;
          if (next_q[2] + 1 < grid_i[2]) begin
            next_d[2] = next_q[2] + 1;
          end else begin
            all_taken_d = 1'b1;
          end
        end
      end
    end
    if (launch_start_i) begin
      running_d = 1'b1;
      all_taken_d = 1'b0;
      next_d = '0;
      offer_d = '0;
    end
  end

  always_comb begin
    block_valid_o = '0;
    if (running_q && !all_taken_q && !stop_i) block_valid_o[offer_q] = 1'b1;
    block_o.idx = next_q;
  end

  assign done_o = running_q && (all_taken_q || stop_i) && &core_idle_i && !taken &&
                  !launch_start_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q <= 1'b0;
      all_taken_q <= 1'b0;
      next_q <= '0;
      offer_q <= '0;
    end else begin
      running_q <= running_d;
      all_taken_q <= all_taken_d;
      next_q <= next_d;
      offer_q <= offer_d;
    end
  end

endmodule
