// Leading-zero counter, log-depth tree: cnt_o = number of zeros above the most significant one of
// data_i (Width when data_i is zero; zero_o is then set).
//
// The input is padded at the bottom to Pad = 2^Levels bits. Level k has Pad >> k nodes; node i
// covers bits [i * 2^k +: 2^k] and holds whether it has a one (nz) and its leading zeros (k bits):
// the high child's count if that child has a one, else 2^(k-1) plus the low child's count.
module wf_lzc #(
  parameter int unsigned Width = 32,
  parameter int unsigned CntWidth = $clog2(Width + 1)
) (
  input  logic [Width-1:0]    data_i,
  output logic [CntWidth-1:0] cnt_o,
  output logic                zero_o
);

  localparam int unsigned Levels = (Width <= 1) ? 1 : $clog2(Width);
  localparam int unsigned Pad    = 1 << Levels;

  for (genvar k = 0; k <= Levels; k++) begin : gen_level
    localparam int unsigned N  = Pad >> k;
    localparam int unsigned LW = (k == 0) ? 1 : k;   // count width (level 0: unused, kept 1)
    logic [N-1:0]    nz;
    logic [N*LW-1:0] lz;
    if (k == 0) begin : gen_leaves
      assign nz = {data_i, {(Pad - Width){1'b0}}};
      assign lz = '0;
    end else begin : gen_nodes
      for (genvar i = 0; i < N; i++) begin : gen_node
        logic hi_nz;
        assign hi_nz = gen_level[k-1].nz[2*i+1];
        assign nz[i] = hi_nz | gen_level[k-1].nz[2*i];
        if (k == 1) begin : gen_first
          assign lz[i] = !hi_nz;
        end else begin : gen_inner
          assign lz[i*LW +: LW] = hi_nz ? {1'b0, gen_level[k-1].lz[(2*i+1)*(k-1) +: (k-1)]}
                                        : {1'b1, gen_level[k-1].lz[(2*i)*(k-1) +: (k-1)]};
        end
      end
    end
  end

  assign zero_o = !gen_level[Levels].nz[0];
  assign cnt_o  = zero_o ? CntWidth'(Width) : CntWidth'(gen_level[Levels].lz);

  logic unused_lz;
  assign unused_lz = ^gen_level[0].lz;

endmodule
