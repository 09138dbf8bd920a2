// The SIMT core (docs/microarchitecture.md, "The SIMT core"): fetch and I-cache, decode, the
// per-warp instruction buffers, issue, operand collectors, execution units, LSU and CTRL unit.
// The command processor's block dispatcher offers blocks; the core's memory port goes to the
// crossbar and L2; the param-RAM port serves LDP misses; faults and commit records go out.
//
// This file is the port list the GPU top instantiates (rtl-if.md point 3) and grows as the blocks
// behind it land; docs/microarchitecture.md's Status says what is wired. Until
// rtl/soc/wf_soc_pkg.sv (launch_cfg_t, block_t, mem_req_t, mem_rsp_t, fault_t) is on main the
// chip-level groups are flat ports with the same fields; they become those structs then.
module wf_core #(
  parameter int unsigned CoreId        = 0,
  parameter int unsigned Lanes         = wf_config_pkg::ConfigDefaultLanes,
  parameter int unsigned Warps         = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned MaxBlocks     = wf_config_pkg::ConfigDefaultMaxBlocksPerCore,
  parameter int unsigned LineBytes     = wf_config_pkg::ConfigDefaultCacheLineBytes,
  parameter int unsigned MemTagBits    = 8,
  localparam int unsigned LineBits     = LineBytes * 8
) (
  input  logic                               clk_i,
  input  logic                               rst_ni,

  // Launch: the LaunchDesc fields a core uses, valid from launch_start_i (a one-cycle pulse that
  // invalidates the caches and resets per-launch state) to the end of the launch.
  input  logic                               launch_start_i,
  input  logic [63:0]                        launch_code_base_i,
  input  logic [31:0]                        launch_code_size_i,
  input  logic [31:0]                        launch_entry_pc_i,
  input  logic [2:0][31:0]                   launch_grid_i,        // x, y, z in blocks
  input  logic [2:0][31:0]                   launch_block_i,       // x, y, z in threads
  input  logic [7:0]                         launch_regs_i,        // regs_per_thread
  input  logic [31:0]                        launch_smem_bytes_i,  // static + dynamic
  input  logic [31:0]                        launch_local_bytes_i,
  input  logic [63:0]                        launch_local_base_i,  // see the doc's Open items
  input  logic [63:0]                        launch_const_base_i,
  input  logic [31:0]                        launch_const_size_i,
  input  logic [31:0]                        launch_param_size_i,
  input  logic [63:0]                        launch_rtbuf_i,
  input  logic [63:0]                        launch_grid_id_i,

  // Block admission: the dispatcher offers one block; the core accepts it in the same cycle when
  // its resources allow (hls resource rule). Retire: a one-cycle pulse when a block's last warp
  // finished and its stores are acknowledged.
  input  logic                               block_valid_i,
  input  logic [2:0][31:0]                   block_index_i,        // blockIdx x, y, z
  output logic                               block_accept_o,
  output logic                               block_retire_o,

  // Memory port (to the crossbar / L2): line requests, responses by tag.
  output logic                               mem_req_valid_o,
  input  logic                               mem_req_ready_i,
  output logic [1:0]                         mem_req_kind_o,       // 0 read, 1 write, 2 atomic
  output logic [63:0]                        mem_req_addr_o,       // line-aligned device address
  output logic [LineBits-1:0]                mem_req_data_o,
  output logic [LineBytes-1:0]               mem_req_mask_o,
  output logic [3:0]                         mem_req_atom_fn_o,    // wf_isa_pkg::atomop_e
  output logic [2:0]                         mem_req_atom_ty_o,    // wf_isa_pkg::atomtype_e
  output logic [63:0]                        mem_req_atom_a_o,     // operand (CAS: compare)
  output logic [63:0]                        mem_req_atom_b_o,     // CAS: new value
  output logic [MemTagBits-1:0]              mem_req_tag_o,
  input  logic                               mem_rsp_valid_i,
  output logic                               mem_rsp_ready_o,
  input  logic [MemTagBits-1:0]              mem_rsp_tag_i,
  input  logic [LineBits-1:0]                mem_rsp_data_i,
  input  logic [63:0]                        mem_rsp_atom_old_i,

  // Param RAM (the command processor's copy of the parameter buffer): line reads.
  output logic                               param_req_valid_o,
  input  logic                               param_req_ready_i,
  output logic [31:0]                        param_req_addr_o,     // line-aligned byte offset
  input  logic                               param_rsp_valid_i,
  input  logic [LineBits-1:0]                param_rsp_data_i,

  // Faults: the core's first fault (Completion record fields); stop_i makes it stop issuing.
  output logic                               fault_valid_o,
  output logic [31:0]                        fault_kind_o,
  output logic [31:0]                        fault_pc_o,
  output logic [31:0]                        fault_code_o,
  output logic [63:0]                        fault_address_o,
  output logic [2:0][31:0]                   fault_block_o,
  output logic [2:0][31:0]                   fault_thread_o,
  input  logic                               stop_i,

  // No resident block, nothing in flight.
  output logic                               idle_o,

  // Commit records for lockstep (wf_core_pkg::commit_hdr_t; REG parts on the commit write port).
  output logic                               commit_valid_o,
  output wf_core_pkg::commit_hdr_t           commit_o,
  output logic                               commit_wb_valid_o,
  output wf_core_pkg::commit_wb_t            commit_wb_o,
  output logic [Lanes-1:0][31:0]             commit_wb_data_o
);

  // The fixed-width index fields of wf_core_pkg must hold this configuration.
  if (Warps > 2 ** wf_core_pkg::WarpIdBits) begin : gen_bad_warps
    $error("wf_core: Warps exceeds wf_core_pkg::WarpIdBits");
  end
  if (MaxBlocks > 2 ** wf_core_pkg::BlockIdBits) begin : gen_bad_blocks
    $error("wf_core: MaxBlocks exceeds wf_core_pkg::BlockIdBits");
  end

  // Nothing behind the ports yet: the core accepts no block and drives no request.
  assign block_accept_o     = 1'b0;
  assign block_retire_o     = 1'b0;
  assign mem_req_valid_o    = 1'b0;
  assign mem_req_kind_o     = '0;
  assign mem_req_addr_o     = '0;
  assign mem_req_data_o     = '0;
  assign mem_req_mask_o     = '0;
  assign mem_req_atom_fn_o  = '0;
  assign mem_req_atom_ty_o  = '0;
  assign mem_req_atom_a_o   = '0;
  assign mem_req_atom_b_o   = '0;
  assign mem_req_tag_o      = '0;
  assign mem_rsp_ready_o    = 1'b1;
  assign param_req_valid_o  = 1'b0;
  assign param_req_addr_o   = '0;
  assign fault_valid_o      = 1'b0;
  assign fault_kind_o       = '0;
  assign fault_pc_o         = '0;
  assign fault_code_o       = '0;
  assign fault_address_o    = '0;
  assign fault_block_o      = '0;
  assign fault_thread_o     = '0;
  assign idle_o             = 1'b1;
  assign commit_valid_o     = 1'b0;
  assign commit_o           = '0;
  assign commit_wb_valid_o  = 1'b0;
  assign commit_wb_o        = '0;
  assign commit_wb_data_o   = '0;

  logic unused_inputs;
  assign unused_inputs = ^{clk_i, rst_ni, launch_start_i, launch_code_base_i, launch_code_size_i,
                           launch_entry_pc_i, launch_grid_i, launch_block_i, launch_regs_i,
                           launch_smem_bytes_i, launch_local_bytes_i, launch_local_base_i,
                           launch_const_base_i, launch_const_size_i, launch_param_size_i,
                           launch_rtbuf_i, launch_grid_id_i, block_valid_i, block_index_i,
                           mem_req_ready_i, mem_rsp_valid_i, mem_rsp_tag_i, mem_rsp_data_i,
                           mem_rsp_atom_old_i, param_req_ready_i, param_rsp_valid_i,
                           param_rsp_data_i, stop_i, 32'(CoreId)};

endmodule
