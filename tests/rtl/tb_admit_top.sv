// Bench wrapper for wf_admit: the launch's block shape and the offer as flat ports.
module tb_admit_top #(
  parameter int unsigned Warps           = 8,
  parameter int unsigned MaxBlocks       = 4,
  parameter int unsigned RegUnits        = 16,
  parameter int unsigned RegUnitWarpRegs = 8,
  parameter int unsigned SmemUnits       = 16,
  parameter int unsigned SmemUnitBytes   = 256,
  localparam int unsigned BlockBits      = MaxBlocks > 1 ? $clog2(MaxBlocks) : 1,
  localparam int unsigned RegIdxBits     = RegUnits > 1 ? $clog2(RegUnits) : 1,
  localparam int unsigned SmemIdxBits    = SmemUnits > 1 ? $clog2(SmemUnits) : 1,
  localparam int unsigned RfBaseBits     = $clog2(RegUnits * RegUnitWarpRegs + 1)
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic                             launch_start_i,
  input  logic [31:0]                      warps_per_block_i,
  input  logic [31:0]                      threads_per_block_i,
  input  logic [7:0]                       regs_per_thread_i,
  input  logic [31:0]                      shared_bytes_i,
  input  logic [31:0]                      entry_pc_i,
  input  logic                             block_valid_i,
  input  logic [2:0][31:0]                 block_idx_i,
  input  logic [Warps-1:0]                 warp_done_i,
  output logic                             block_accept_o,
  output logic [BlockBits-1:0]             admit_slot_o,
  output logic [RegIdxBits-1:0]            admit_reg_unit_o,
  output logic [SmemIdxBits-1:0]           admit_smem_unit_o,
  output logic [Warps-1:0]                 start_o,
  output logic [Warps-1:0][31:0]           start_lanes_o,
  output logic [28:0]                      start_pc_o,
  output logic                             block_retire_o,
  output logic [BlockBits-1:0]             retire_slot_o,
  output logic [Warps-1:0]                 resident_o,
  output logic [Warps-1:0][BlockBits-1:0]  warp_block_o,
  output logic [Warps-1:0][5:0]            warp_index_o,
  output logic [Warps-1:0][RfBaseBits-1:0] rf_base_o,
  output logic [MaxBlocks-1:0]             block_valid_o,
  output logic [MaxBlocks-1:0][2:0][31:0]  block_idx_o,
  output logic [MaxBlocks-1:0][31:0]       smem_base_o
);
  wf_soc_pkg::launch_cfg_t cfg;
  wf_soc_pkg::block_t      blk;

  always_comb begin
    cfg = '0;
    cfg.warps_per_block   = warps_per_block_i;
    cfg.threads_per_block = threads_per_block_i;
    cfg.regs_per_thread   = regs_per_thread_i;
    cfg.shared_bytes      = shared_bytes_i;
    cfg.entry_pc          = entry_pc_i;
    blk.idx               = block_idx_i;
  end

  wf_admit #(.Warps(Warps), .MaxBlocks(MaxBlocks), .RegUnits(RegUnits),
             .RegUnitWarpRegs(RegUnitWarpRegs), .SmemUnits(SmemUnits),
             .SmemUnitBytes(SmemUnitBytes)) u_admit (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .launch_start_i    (launch_start_i),
    .launch_cfg_i      (cfg),
    .block_valid_i     (block_valid_i),
    .block_i           (blk),
    .block_accept_o    (block_accept_o),
    .admit_slot_o      (admit_slot_o),
    .admit_reg_unit_o  (admit_reg_unit_o),
    .admit_smem_unit_o (admit_smem_unit_o),
    .start_o           (start_o),
    .start_lanes_o     (start_lanes_o),
    .start_pc_o        (start_pc_o),
    .warp_done_i       (warp_done_i),
    .block_retire_o    (block_retire_o),
    .retire_slot_o     (retire_slot_o),
    .resident_o        (resident_o),
    .warp_block_o      (warp_block_o),
    .warp_index_o      (warp_index_o),
    .rf_base_o         (rf_base_o),
    .block_valid_o     (block_valid_o),
    .block_idx_o       (block_idx_o),
    .smem_base_o       (smem_base_o)
  );
endmodule
