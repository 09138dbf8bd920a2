// Bench wrapper for wf_lsu: the pass comes in as an instruction word that goes through wf_decode
// and wf_core_pkg::lsu_op (as it does in the core); the launch, memory port, param port, return
// and fault as flat ports.
module tb_lsu_top #(
  parameter int unsigned CoreId    = 1,
  parameter int unsigned Lanes     = 16,
  parameter int unsigned Warps     = 4,
  parameter int unsigned LineBytes = 64,
  parameter longint unsigned GlobalMemBytes = 64'h100000,
  parameter int unsigned SharedBanks = 16,
  parameter int unsigned SharedBytes = 16384,
  localparam int unsigned WarpBits = $clog2(Warps)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  // launch
  input  logic [63:0]                  local_base_i,
  input  logic [31:0]                  local_bytes_i,
  input  logic [63:0]                  const_base_i,
  input  logic [31:0]                  const_size_i,
  input  logic [31:0]                  param_size_i,
  input  logic [31:0]                  shared_bytes_i,
  // issue
  input  logic                         mem_issue_i,
  input  logic [WarpBits-1:0]          mem_issue_warp_i,
  output logic [Warps-1:0]             mem_drained_o,
  // pass
  output logic                         pass_ready_o,
  input  logic                         pass_valid_i,
  input  logic [63:0]                  pass_word_i,
  input  logic [5:0]                   pass_warp_i,
  input  logic [4:0]                   pass_pass_i,
  input  logic                         pass_last_i,
  input  logic [28:0]                  pass_pc_i,
  input  logic [31:0]                  pass_exec_i,
  input  logic [2:0]                   pass_sb_i,
  input  logic [31:0]                  pass_smem_base_i,
  input  logic [1:0][Lanes-1:0][31:0]  ra_i,
  input  logic [1:0][Lanes-1:0][31:0]  rb_i,
  input  logic [1:0][Lanes-1:0][31:0]  rc_i,
  input  logic [3:0][Lanes-1:0][31:0] rd_i,
  // return
  output logic                         ret_valid_o,
  input  logic                         ret_grant_i,
  output logic [5:0]                   ret_warp_o,
  output logic [4:0]                   ret_pass_o,
  output logic [7:0]                   ret_rd_o,
  output logic                         ret_release_o,
  output logic [2:0]                   ret_sb_o,
  output logic [Lanes-1:0]             ret_lanes_o,
  output logic [Lanes-1:0][31:0]       ret_data_o,
  // memory port
  output logic                         mem_req_valid_o,
  input  logic                         mem_req_ready_i,
  output logic [1:0]                   mem_req_kind_o,
  output logic [63:0]                  mem_req_addr_o,
  output logic [LineBytes*8-1:0]       mem_req_wdata_o,
  output logic [LineBytes-1:0]         mem_req_wmask_o,
  output logic [3:0]                   mem_req_atom_fn_o,
  output logic [2:0]                   mem_req_atom_ty_o,
  output logic [63:0]                  mem_req_atom_a_o,
  output logic [63:0]                  mem_req_atom_b_o,
  output logic [7:0]                   mem_req_tag_o,
  input  logic                         mem_rsp_valid_i,
  output logic                         mem_rsp_ready_o,
  input  logic [7:0]                   mem_rsp_tag_i,
  input  logic [LineBytes*8-1:0]       mem_rsp_rdata_i,
  input  logic [63:0]                  mem_rsp_atom_old_i,
  // param RAM
  output logic                         param_req_valid_o,
  input  logic                         param_req_ready_i,
  output logic [31:0]                  param_req_addr_o,
  input  logic                         param_rsp_valid_i,
  input  logic [LineBytes*8-1:0]       param_rsp_rdata_i,
  // fault
  output logic                         fault_valid_o,
  output logic [5:0]                   fault_warp_o,
  output logic [28:0]                  fault_pc_o,
  output logic [4:0]                   fault_lane_o,
  output logic [31:0]                  fault_kind_o,
  output logic [63:0]                  fault_address_o,
  output logic [15:0]                  fault_detail_o,
  output logic [7:0]                   fault_space_o,
  output logic                         fault_write_o,
  output logic [31:0]                  fault_size_o,
  output logic                         idle_o
);
  wf_core_pkg::dec_inst_t   dec;
  wf_core_pkg::lsu_pass_t   pass;
  wf_soc_pkg::launch_cfg_t  cfg;
  wf_core_pkg::ret_wb_t     ret;
  wf_soc_pkg::mem_req_t     req;
  wf_soc_pkg::mem_rsp_t     rsp;
  wf_soc_pkg::param_req_t   preq;
  wf_soc_pkg::param_rsp_t   prsp;
  wf_core_pkg::lsu_fault_t  flt;

  wf_decode u_decode (.inst_i(pass_word_i), .fetch_bad_i(1'b0), .dec_o(dec));

  always_comb begin
    pass        = '0;
    pass.valid  = pass_valid_i;
    pass.warp   = pass_warp_i;
    pass.pass   = pass_pass_i;
    pass.last   = pass_last_i;
    pass.pc     = pass_pc_i;
    pass.exec   = pass_exec_i;
    pass.rd     = dec.rd.num;
    pass.rd_cnt = dec.rd.cnt;
    pass.sb_reg = pass_sb_i;
    pass.op     = wf_core_pkg::lsu_op(dec);
    cfg              = '0;
    cfg.local_base   = local_base_i;
    cfg.local_bytes  = local_bytes_i;
    cfg.const_base   = const_base_i;
    cfg.const_size   = const_size_i;
    cfg.param_size   = param_size_i;
    cfg.shared_bytes = shared_bytes_i;
    rsp          = '0;
    rsp.tag      = mem_rsp_tag_i;
    rsp.rdata    = wf_soc_pkg::LineBitsMax'(mem_rsp_rdata_i);
    rsp.atom_old = mem_rsp_atom_old_i;
    prsp         = '0;
    prsp.rdata   = wf_soc_pkg::LineBitsMax'(param_rsp_rdata_i);
  end

  wf_lsu #(
    .CoreId         (CoreId),
    .Lanes          (Lanes),
    .Warps          (Warps),
    .LineBytes      (LineBytes),
    .GlobalMemBytes (GlobalMemBytes),
    .SharedBanks    (SharedBanks),
    .SharedBytes    (SharedBytes)
  ) u_lsu (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .launch_start_i    (1'b0),
    .launch_cfg_i      (cfg),
    .mem_issue_i       (mem_issue_i),
    .mem_issue_warp_i  (mem_issue_warp_i),
    .mem_drained_o     (mem_drained_o),
    .pass_ready_o      (pass_ready_o),
    .pass_i            (pass),
    .pass_smem_base_i  (pass_smem_base_i),
    .ra_i              (ra_i),
    .rb_i              (rb_i),
    .rc_i              (rc_i),
    .rd_i              (rd_i),
    .ret_valid_o       (ret_valid_o),
    .ret_grant_i       (ret_grant_i),
    .ret_o             (ret),
    .ret_lanes_o       (ret_lanes_o),
    .ret_data_o        (ret_data_o),
    .mem_req_valid_o   (mem_req_valid_o),
    .mem_req_ready_i   (mem_req_ready_i),
    .mem_req_o         (req),
    .mem_rsp_valid_i   (mem_rsp_valid_i),
    .mem_rsp_ready_o   (mem_rsp_ready_o),
    .mem_rsp_i         (rsp),
    .param_req_valid_o (param_req_valid_o),
    .param_req_ready_i (param_req_ready_i),
    .param_req_o       (preq),
    .param_rsp_valid_i (param_rsp_valid_i),
    .param_rsp_i       (prsp),
    .fault_valid_o     (fault_valid_o),
    .fault_o           (flt),
    .idle_o            (idle_o)
  );

  assign ret_warp_o        = ret.warp;
  assign ret_pass_o        = ret.pass;
  assign ret_rd_o          = ret.rd;
  assign ret_release_o     = ret.release_sb;
  assign ret_sb_o          = ret.sb_entry;
  assign mem_req_kind_o    = req.kind;
  assign mem_req_addr_o    = req.addr;
  assign mem_req_wdata_o   = req.wdata[LineBytes*8-1:0];
  assign mem_req_wmask_o   = req.wmask[LineBytes-1:0];
  assign mem_req_atom_fn_o = req.atom_fn;
  assign mem_req_atom_ty_o = req.atom_ty;
  assign mem_req_atom_a_o  = req.atom_a;
  assign mem_req_atom_b_o  = req.atom_b;
  assign mem_req_tag_o     = req.tag;
  assign param_req_addr_o  = preq.addr;
  assign fault_warp_o      = flt.warp;
  assign fault_pc_o        = flt.pc;
  assign fault_lane_o      = flt.lane;
  assign fault_kind_o      = flt.kind;
  assign fault_address_o   = flt.address;
  assign fault_detail_o    = flt.detail;
  assign fault_space_o     = flt.space;
  assign fault_write_o     = flt.write;
  assign fault_size_o      = flt.size;

endmodule
