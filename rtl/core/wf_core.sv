// The SIMT core (docs/microarchitecture.md, "The SIMT core"): fetch and I-cache, decode, the
// per-warp instruction buffers, issue, operand collectors, execution units, LSU and CTRL unit.
// The command processor's block dispatcher offers blocks; the core's memory port goes to the
// crossbar and L2; the param-RAM port serves LDP misses; faults and commit records go out.
//
// This file is the port list the GPU top instantiates (rtl-if.md point 3) and grows as the blocks
// behind it land; docs/microarchitecture.md's Status says what is wired. Chip-level types are
// wf_soc_pkg's; the core's own (commit records) are wf_core_pkg's.
module wf_core #(
  parameter int unsigned CoreId    = 0,
  parameter int unsigned Lanes     = wf_config_pkg::ConfigDefaultLanes,
  parameter int unsigned Warps     = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned MaxBlocks = wf_config_pkg::ConfigDefaultMaxBlocksPerCore,
  parameter int unsigned LineBytes = wf_config_pkg::ConfigDefaultCacheLineBytes
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,

  // Launch: launch_start_i is a one-cycle pulse (invalidate the caches, reset per-launch state);
  // launch_cfg_i holds from then to the end of the launch.
  input  logic                        launch_start_i,
  input  wf_soc_pkg::launch_cfg_t     launch_cfg_i,

  // Block admission: the dispatcher offers one block; the core accepts it in the same cycle when
  // its resources allow (the hls resource rule). Retire: a one-cycle pulse when a block's last
  // warp finished and its stores are acknowledged.
  input  logic                        block_valid_i,
  input  wf_soc_pkg::block_t          block_i,
  output logic                        block_accept_o,
  output logic                        block_retire_o,

  // Memory port (to the crossbar / L2): line requests, responses by tag (lines of LineBytes in
  // the low bytes of the LineBytesMax-wide fields).
  output logic                        mem_req_valid_o,
  input  logic                        mem_req_ready_i,
  output wf_soc_pkg::mem_req_t        mem_req_o,
  input  logic                        mem_rsp_valid_i,
  output logic                        mem_rsp_ready_o,
  input  wf_soc_pkg::mem_rsp_t        mem_rsp_i,

  // Param RAM (the command processor's copy of the parameter buffer): line reads.
  output logic                        param_req_valid_o,
  input  logic                        param_req_ready_i,
  output wf_soc_pkg::param_req_t      param_req_o,
  input  logic                        param_rsp_valid_i,
  input  wf_soc_pkg::param_rsp_t      param_rsp_i,

  // Faults: the core's first fault; stop_i makes it stop issuing (another core faulted).
  output logic                        fault_valid_o,
  output wf_soc_pkg::fault_t          fault_o,
  input  logic                        stop_i,

  // Warp and thread instructions issued this cycle (watchdog, Completion counts).
  output wf_soc_pkg::issue_count_t    issue_count_o,

  // No resident block, nothing in flight.
  output logic                        idle_o,

  // Commit records for lockstep (wf_core_pkg::commit_hdr_t; REG parts on the commit write port).
  output logic                        commit_valid_o,
  output wf_core_pkg::commit_hdr_t    commit_o,
  output logic                        commit_wb_valid_o,
  output wf_core_pkg::commit_wb_t     commit_wb_o,
  output logic [Lanes-1:0][31:0]      commit_wb_data_o
);

  // The fixed-width index fields of wf_core_pkg must hold this configuration.
  if (Warps > 2 ** wf_core_pkg::WarpIdBits) begin : gen_bad_warps
    $error("wf_core: Warps exceeds wf_core_pkg::WarpIdBits");
  end
  if (MaxBlocks > 2 ** wf_core_pkg::BlockIdBits) begin : gen_bad_blocks
    $error("wf_core: MaxBlocks exceeds wf_core_pkg::BlockIdBits");
  end
  if (LineBytes > wf_soc_pkg::LineBytesMax) begin : gen_bad_line
    $error("wf_core: LineBytes exceeds wf_soc_pkg::LineBytesMax");
  end

  // Nothing behind the ports yet: the core accepts no block and drives no request.
  assign block_accept_o    = 1'b0;
  assign block_retire_o    = 1'b0;
  assign mem_req_valid_o   = 1'b0;
  assign mem_req_o         = '0;
  assign mem_rsp_ready_o   = 1'b1;
  assign param_req_valid_o = 1'b0;
  assign param_req_o       = '0;
  assign fault_valid_o     = 1'b0;
  assign fault_o           = '0;
  assign issue_count_o     = '0;
  assign idle_o            = 1'b1;
  assign commit_valid_o    = 1'b0;
  assign commit_o          = '0;
  assign commit_wb_valid_o = 1'b0;
  assign commit_wb_o       = '0;
  assign commit_wb_data_o  = '0;

  logic unused_inputs;
  assign unused_inputs = ^{clk_i, rst_ni, launch_start_i, launch_cfg_i, block_valid_i, block_i,
                           mem_req_ready_i, mem_rsp_valid_i, mem_rsp_i, param_req_ready_i,
                           param_rsp_valid_i, param_rsp_i, stop_i, 32'(CoreId)};

endmodule
