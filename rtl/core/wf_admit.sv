// Block admission and retire of a core (docs/microarchitecture.md, "Block dispatcher"): the
// resource rule of hls/block_dispatch.h (BlockResources) with the cycle behaviour of
// hls/block_admit.h (BlockAdmit); compared cycle by cycle by tests/rtl/tb_admit.cpp.
//
// Ports (for the core top):
//   launch_start_i, launch_cfg_i  a launch start drops every resident block (the launch before
//                    has ended); the launch's block shape (warps_per_block, threads_per_block,
//                    regs_per_thread, shared_bytes, entry_pc) holds for the launch.
//   block_valid_i, block_i, block_accept_o  the dispatcher's offer; accepted in the same cycle
//                    when the core has, all at once, the lowest free warp slots for the block's
//                    warps, a first-fit range of register units (RegUnitWarpRegs warp registers
//                    each: ceil(regs_per_thread x warps / RegUnitWarpRegs) of them), a first-fit
//                    range of shared units (SmemUnitBytes each) and a free block slot (lowest).
//   start_o, start_lanes_o, start_pc_o  to wf_ctrl's start ports: the accepted block's warp slots
//                    (combinational, in the accept cycle), their lanes (the last warp of a block
//                    whose thread count is not a multiple of 32 has fewer) and the entry pc
//                    (instruction index).
//   admit_slot_o, admit_reg_unit_o, admit_smem_unit_o  where the accepted block went.
//   warp_done_i      wf_ctrl's done_o (every lane of the warp exited).
//   block_retire_o, retire_slot_o  the lowest resident block whose warps are all done retires
//                    (one a cycle); its resources are free from the next cycle. The core gates
//                    its own retire-out with its memory drain (not here).
//   resident_o, warp_block_o, warp_index_o, rf_base_o  per warp slot: resident, its block slot,
//                    its warp number in the block, its first physical warp register (from the
//                    cycle after admission).
//   block_valid_o, block_idx_o, smem_base_o  per block slot: resident, blockIdx, and the byte
//                    offset of its shared memory.
module wf_admit #(
  parameter int unsigned Warps           = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned MaxBlocks       = wf_config_pkg::ConfigDefaultMaxBlocksPerCore,
  parameter int unsigned RegUnits        = 256,
  parameter int unsigned RegUnitWarpRegs = 8,
  parameter int unsigned SmemUnits       = 256,
  parameter int unsigned SmemUnitBytes   = 256,
  localparam int unsigned BlockBits      = MaxBlocks > 1 ? $clog2(MaxBlocks) : 1,
  localparam int unsigned RegIdxBits     = RegUnits > 1 ? $clog2(RegUnits) : 1,
  localparam int unsigned SmemIdxBits    = SmemUnits > 1 ? $clog2(SmemUnits) : 1,
  localparam int unsigned RfBaseBits     = $clog2(RegUnits * RegUnitWarpRegs + 1),
  localparam int unsigned PcBits         = wf_core_pkg::PcBits
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic                             launch_start_i,
  input  wf_soc_pkg::launch_cfg_t          launch_cfg_i,
  // the dispatcher's offer
  input  logic                             block_valid_i,
  input  wf_soc_pkg::block_t               block_i,
  output logic                             block_accept_o,
  output logic [BlockBits-1:0]             admit_slot_o,
  output logic [RegIdxBits-1:0]            admit_reg_unit_o,
  output logic [SmemIdxBits-1:0]           admit_smem_unit_o,
  // warp start (to wf_ctrl)
  output logic [Warps-1:0]                 start_o,
  output logic [Warps-1:0][31:0]           start_lanes_o,
  output logic [PcBits-1:0]                start_pc_o,
  // retire
  input  logic [Warps-1:0]                 warp_done_i,
  output logic                             block_retire_o,
  output logic [BlockBits-1:0]             retire_slot_o,
  // per warp slot and per block slot
  output logic [Warps-1:0]                 resident_o,
  output logic [Warps-1:0][BlockBits-1:0]  warp_block_o,
  output logic [Warps-1:0][5:0]            warp_index_o,
  output logic [Warps-1:0][RfBaseBits-1:0] rf_base_o,
  output logic [MaxBlocks-1:0]             block_valid_o,
  output logic [MaxBlocks-1:0][2:0][31:0]  block_idx_o,
  output logic [MaxBlocks-1:0][31:0]       smem_base_o
);

  // ---------------------------------------------------------------------------------------------
  // The launch's needs of one block.
  logic [6:0]  need_warps;
  logic [15:0] need_regs, need_smem;
  logic [19:0] warp_regs;
  logic [5:0]  last_lanes;    // lanes of the block's last warp, 1..32

  assign need_warps = launch_cfg_i.warps_per_block[6:0];
  assign warp_regs  = 20'(launch_cfg_i.regs_per_thread) * 20'(need_warps);
  assign need_regs  = 16'((warp_regs + 20'(RegUnitWarpRegs - 1)) / 20'(RegUnitWarpRegs));
  assign need_smem  = 16'((launch_cfg_i.shared_bytes + 32'(SmemUnitBytes - 1)) / 32'(SmemUnitBytes));
  assign last_lanes = 6'(launch_cfg_i.threads_per_block - 32'({need_warps - 7'd1, 5'd0}));

  // ---------------------------------------------------------------------------------------------
  // State
  logic [Warps-1:0]                 resident_d, resident_q;
  logic [Warps-1:0][BlockBits-1:0]  wblock_d, wblock_q;
  logic [Warps-1:0][5:0]            windex_d, windex_q;
  logic [Warps-1:0][RfBaseBits-1:0] rfbase_d, rfbase_q;
  logic [MaxBlocks-1:0]             bvalid_d, bvalid_q;
  logic [MaxBlocks-1:0][Warps-1:0]  bwarps_d, bwarps_q;
  logic [MaxBlocks-1:0][RegIdxBits-1:0]  breg_d, breg_q;
  logic [MaxBlocks-1:0][SmemIdxBits-1:0] bsmem_d, bsmem_q;
  logic [MaxBlocks-1:0][2:0][31:0]  bidx_d, bidx_q;
  logic [RegUnits-1:0]              reg_used_d, reg_used_q;
  logic [SmemUnits-1:0]             smem_used_d, smem_used_q;

  // ---------------------------------------------------------------------------------------------
  // Placement
  logic                   reg_found, smem_found, warps_found, slot_found;
  logic [RegIdxBits-1:0]  reg_start;
  logic [SmemIdxBits-1:0] smem_start;
  logic [BlockBits-1:0]   slot;
  logic [Warps-1:0]       chosen;
  logic [Warps-1:0][5:0]  rank;       // free warp slots below each slot
  logic [6:0]             free_warps;

  wf_admit_fit #(.Units(RegUnits)) u_reg_fit (
    .free_i  (~reg_used_q),
    .need_i  (need_regs),
    .found_o (reg_found),
    .start_o (reg_start)
  );

  wf_admit_fit #(.Units(SmemUnits)) u_smem_fit (
    .free_i  (~smem_used_q),
    .need_i  (need_smem),
    .found_o (smem_found),
    .start_o (smem_start)
  );

  always_comb begin
    logic [6:0] n;
    n = '0;
    for (int w = 0; w < Warps; w++) begin
      rank[w]   = n[5:0];
      chosen[w] = !resident_q[w] && n < need_warps;
      if (!resident_q[w]) n = n + 7'd1;
    end
    free_warps = n;
    warps_found = free_warps >= need_warps;
    slot_found = 1'b0;
    slot = '0;
    for (int b = MaxBlocks - 1; b >= 0; b--) begin
      if (!bvalid_q[b]) begin
        slot_found = 1'b1;
        slot = BlockBits'(b);
      end
    end
  end

  assign block_accept_o    = block_valid_i && reg_found && smem_found && warps_found && slot_found;
  assign admit_slot_o      = slot;
  assign admit_reg_unit_o  = reg_start;
  assign admit_smem_unit_o = smem_start;
  assign start_pc_o        = launch_cfg_i.entry_pc[3 +: PcBits];

  always_comb begin
    for (int w = 0; w < Warps; w++) begin
      start_o[w] = block_accept_o && chosen[w];
      start_lanes_o[w] = (7'(rank[w]) == need_warps - 7'd1 && last_lanes != 6'd32)
                         ? (32'd1 << last_lanes) - 32'd1 : '1;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Retire: the lowest resident block whose warps are all done.
  logic [BlockBits-1:0] retire_slot;
  logic                 retire;

  always_comb begin
    retire = 1'b0;
    retire_slot = '0;
    for (int b = MaxBlocks - 1; b >= 0; b--) begin
      if (bvalid_q[b] && (bwarps_q[b] & ~warp_done_i) == '0) begin
        retire = 1'b1;
        retire_slot = BlockBits'(b);
      end
    end
  end

  assign block_retire_o = retire;
  assign retire_slot_o  = retire_slot;

  // ---------------------------------------------------------------------------------------------
  // Next state
  function automatic logic [RegUnits-1:0] reg_range(logic [RegIdxBits-1:0] base, logic [15:0] n);
    logic [RegUnits:0] ones;
    ones = (RegUnits + 1)'(({(RegUnits + 1){1'b1}} << n) ^ {(RegUnits + 1){1'b1}});
    return RegUnits'(ones << base);
  endfunction

  function automatic logic [SmemUnits-1:0] smem_range(logic [SmemIdxBits-1:0] base,
                                                      logic [15:0] n);
    logic [SmemUnits:0] ones;
    ones = (SmemUnits + 1)'(({(SmemUnits + 1){1'b1}} << n) ^ {(SmemUnits + 1){1'b1}});
    return SmemUnits'(ones << base);
  endfunction

  always_comb begin
    resident_d  = resident_q;
    wblock_d    = wblock_q;
    windex_d    = windex_q;
    rfbase_d    = rfbase_q;
    bvalid_d    = bvalid_q;
    bwarps_d    = bwarps_q;
    breg_d      = breg_q;
    bsmem_d     = bsmem_q;
    bidx_d      = bidx_q;
    reg_used_d  = reg_used_q;
    smem_used_d = smem_used_q;

    if (retire) begin
      bvalid_d[retire_slot] = 1'b0;
      resident_d = resident_d & ~bwarps_q[retire_slot];
      bwarps_d[retire_slot] = '0;
      reg_used_d  = reg_used_d & ~reg_range(breg_q[retire_slot], need_regs);
      smem_used_d = smem_used_d & ~smem_range(bsmem_q[retire_slot], need_smem);
    end

    if (block_accept_o) begin
      bvalid_d[slot] = 1'b1;
      bwarps_d[slot] = chosen;
      breg_d[slot]   = reg_start;
      bsmem_d[slot]  = smem_start;
      bidx_d[slot]   = block_i.idx;
      reg_used_d     = reg_used_d | reg_range(reg_start, need_regs);
      smem_used_d    = smem_used_d | smem_range(smem_start, need_smem);
      for (int w = 0; w < Warps; w++) begin
        if (chosen[w]) begin
          resident_d[w] = 1'b1;
          wblock_d[w]   = slot;
          windex_d[w]   = rank[w];
          rfbase_d[w]   = RfBaseBits'(32'(reg_start) * RegUnitWarpRegs +
                                      32'(rank[w]) * 32'(launch_cfg_i.regs_per_thread));
        end
      end
    end

    if (launch_start_i) begin
      resident_d  = '0;
      bvalid_d    = '0;
      bwarps_d    = '0;
      reg_used_d  = '0;
      smem_used_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      resident_q  <= '0;
      wblock_q    <= '0;
      windex_q    <= '0;
      rfbase_q    <= '0;
      bvalid_q    <= '0;
      bwarps_q    <= '0;
      breg_q      <= '0;
      bsmem_q     <= '0;
      bidx_q      <= '0;
      reg_used_q  <= '0;
      smem_used_q <= '0;
    end else begin
      resident_q  <= resident_d;
      wblock_q    <= wblock_d;
      windex_q    <= windex_d;
      rfbase_q    <= rfbase_d;
      bvalid_q    <= bvalid_d;
      bwarps_q    <= bwarps_d;
      breg_q      <= breg_d;
      bsmem_q     <= bsmem_d;
      bidx_q      <= bidx_d;
      reg_used_q  <= reg_used_d;
      smem_used_q <= smem_used_d;
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Outputs
  assign resident_o    = resident_q;
  assign warp_block_o  = wblock_q;
  assign warp_index_o  = windex_q;
  assign rf_base_o     = rfbase_q;
  assign block_valid_o = bvalid_q;
  assign block_idx_o   = bidx_q;
  always_comb begin
    for (int b = 0; b < MaxBlocks; b++) smem_base_o[b] = 32'(bsmem_q[b]) * SmemUnitBytes;
  end

  logic unused;
  assign unused = ^{launch_cfg_i.code_base, launch_cfg_i.code_size, launch_cfg_i.entry_pc[2:0],
                    launch_cfg_i.grid, launch_cfg_i.block,
                    launch_cfg_i.warps_per_block[31:7], launch_cfg_i.local_bytes,
                    launch_cfg_i.local_base, launch_cfg_i.const_base, launch_cfg_i.const_size,
                    launch_cfg_i.param_size, launch_cfg_i.rtbuf, launch_cfg_i.grid_id,
                    launch_cfg_i.profile_addr, free_warps};

endmodule
