// Bench wrapper: wf_fetch feeding wf_ibuffer, as the core wires them, with the records shown as
// their rebuilt words (wf_core_pkg::dec_word) so that the C++ bench compares words.
module tb_fetch_top #(
  parameter int unsigned Warps       = 8,
  parameter int unsigned Depth       = 2,
  parameter int unsigned IcBytes     = 1024,
  parameter int unsigned IcLineBytes = 64,
  parameter int unsigned IcWays      = 2,
  localparam int unsigned WarpBits   = $clog2(Warps),
  localparam int unsigned CountBits  = $clog2(Depth + 1)
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            launch_start_i,
  input  logic [63:0]                     code_base_i,
  input  logic [31:0]                     code_size_i,
  input  logic                            redirect_valid_i,
  input  logic [WarpBits-1:0]             redirect_warp_i,
  input  logic [28:0]                     redirect_pc_i,
  input  logic [Warps-1:0]                has_group_i,
  input  logic [Warps-1:0]                pop_i,
  output logic                            de_valid_o,
  output logic [WarpBits-1:0]             de_warp_o,
  output logic [28:0]                     de_pc_o,
  output logic [63:0]                     de_word_o,
  output logic                            de_bad_o,
  output logic                            de_stop_o,
  output logic [Warps-1:0]                head_valid_o,
  output logic [Warps-1:0][63:0]          head_word_o,
  output logic [Warps-1:0]                head_bad_o,
  output logic [Warps-1:0][CountBits-1:0] count_o,
  output logic                            ic_req_valid_o,
  input  logic                            ic_req_ready_i,
  output logic [63:0]                     ic_req_addr_o,
  input  logic                            ic_rsp_valid_i,
  input  logic [IcLineBytes*8-1:0]        ic_rsp_data_i
);
  wf_core_pkg::fetch_redirect_t           redirect;
  wf_core_pkg::dec_inst_t                 de_inst;
  wf_core_pkg::dec_inst_t [Warps-1:0]     heads;
  logic [Warps-1:0][CountBits-1:0]        counts;

  always_comb begin
    redirect       = '0;
    redirect.valid = redirect_valid_i;
    redirect.warp  = wf_core_pkg::WarpIdBits'(redirect_warp_i);
    redirect.pc    = redirect_pc_i;
  end

  wf_fetch #(
    .Warps (Warps), .Depth (Depth), .IcBytes (IcBytes), .IcLineBytes (IcLineBytes),
    .IcWays (IcWays), .LineBytes (IcLineBytes)
  ) u_fetch (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .launch_start_i (launch_start_i),
    .code_base_i    (code_base_i),
    .code_size_i    (code_size_i),
    .redirect_i     (redirect),
    .has_group_i    (has_group_i),
    .ibuf_count_i   (counts),
    .de_valid_o     (de_valid_o),
    .de_warp_o      (de_warp_o),
    .de_pc_o        (de_pc_o),
    .de_inst_o      (de_inst),
    .ic_req_valid_o (ic_req_valid_o),
    .ic_req_ready_i (ic_req_ready_i),
    .ic_req_addr_o  (ic_req_addr_o),
    .ic_rsp_valid_i (ic_rsp_valid_i),
    .ic_rsp_data_i  (ic_rsp_data_i)
  );

  wf_ibuffer #(.Warps (Warps), .Depth (Depth)) u_ibuffer (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .wr_valid_i   (de_valid_o),
    .wr_warp_i    (de_warp_o),
    .wr_inst_i    (de_inst),
    .head_valid_o (head_valid_o),
    .head_o       (heads),
    .count_o      (counts),
    .pop_i        (pop_i),
    .flush_i      ({Warps{launch_start_i}})
  );

  assign de_word_o = wf_core_pkg::dec_word(de_inst);
  assign de_bad_o  = de_inst.fetch_bad;
  assign de_stop_o = de_inst.fetch_stop;
  assign count_o   = counts;
  always_comb begin
    for (int unsigned w = 0; w < Warps; w++) begin
      head_word_o[w] = wf_core_pkg::dec_word(heads[w]);
      head_bad_o[w]  = heads[w].fetch_bad;
    end
  end
endmodule
