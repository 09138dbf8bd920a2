// A valid-qualified delay line: `Stages` register stages (0: a wire). The valid bits are reset,
// the data registers are not (datapath flops without reset map better onto FPGA slices).
module wf_delay #(
  parameter int unsigned Width  = 1,
  parameter int unsigned Stages = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,
  input  logic [Width-1:0] data_i,
  output logic             valid_o,
  output logic [Width-1:0] data_o
);

  if (Stages == 0) begin : gen_wire
    assign valid_o = valid_i;
    assign data_o  = data_i;
  end else begin : gen_regs
    // Stage s occupies bits [s*Width +: Width] of data_q; stage 0 takes the input.
    logic [Stages-1:0]       valid_d, valid_q;
    logic [Stages*Width-1:0] data_d, data_q;

    if (Stages == 1) begin : gen_one
      assign valid_d = valid_i;
      assign data_d  = data_i;
    end else begin : gen_many
      assign valid_d = {valid_q[Stages-2:0], valid_i};
      assign data_d  = {data_q[(Stages-1)*Width-1:0], data_i};
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= '0;
      end else begin
        valid_q <= valid_d;
      end
    end

    always_ff @(posedge clk_i) begin
      data_q <= data_d;
    end

    assign valid_o = valid_q[Stages-1];
    assign data_o  = data_q[(Stages-1)*Width +: Width];
  end

endmodule
