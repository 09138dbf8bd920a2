// The command processor (docs/microarchitecture.md, "Command processor"; docs/device-protocol.md):
// reads 64-byte commands from the ring in the DMA window and runs them one at a time, in order.
//
// Every data movement goes through one mover that copies a byte range from a source to a
// destination in 64-byte blocks (the destination's aligned blocks): sources are host memory (the
// DMA window, through the AXI4 master), device memory (through the memory port, i.e. the L2), the
// local 128-byte buffer, or a fill pattern; destinations are host memory, device memory, the
// local buffer or the param RAM. A block needs one or two source blocks (the last one read is
// kept for the next block), is shifted into place and written with a byte mask, and the write is
// acknowledged before the next block starts. So:
//   ring fetch   host -> buffer (64 bytes)          COPY    host/device -> host/device
//   LaunchDesc   host -> buffer (128 bytes)         FILL    pattern -> device
//   parameters   host -> param RAM                  TIMESTAMP, completion record: buffer -> host
// Record layouts (Command, LaunchDesc, Completion) come from wf_device_pkg's generated offsets.
// Completion records: every field is written (fault details 0 for now: NONE); the device speaks
// in fields, the host words them.
module wf_cmd_proc #(
  parameter int unsigned ConfigIndex = 32'(wf_config_pkg::CFG_DEFAULT),
  parameter int unsigned LineBytes = wf_config_pkg::ConfigDefaultCacheLineBytes
) (
  input  logic clk_i,
  input  logic rst_ni,

  // Control registers (wf_ctrl_regs).
  input  logic [31:0] dma_window_size_i,
  input  logic [63:0] queue_base_i,
  input  logic [31:0] queue_size_i,
  input  logic [31:0] queue_tail_i,
  input  logic        queue_clear_i,
  input  logic        reset_i,
  input  logic [31:0] watchdog_minsts_i,
  output logic [31:0] queue_head_o,
  output logic [63:0] completed_seq_o,
  output logic [63:0] cycles_o,
  output logic        idle_o,
  output logic        faulted_o,
  output logic [1:0]  irq_set_o,

  // AXI4 host-DMA master (single beats, one transaction at a time).
  output logic                                   m_axi_host_awvalid_o,
  input  logic                                   m_axi_host_awready_i,
  output logic [wf_soc_pkg::HostAddrBits-1:0]    m_axi_host_awaddr_o,
  output logic                                   m_axi_host_wvalid_o,
  input  logic                                   m_axi_host_wready_i,
  output logic [wf_soc_pkg::HostDataBytes*8-1:0] m_axi_host_wdata_o,
  output logic [wf_soc_pkg::HostDataBytes-1:0]   m_axi_host_wstrb_o,
  input  logic                                   m_axi_host_bvalid_i,
  output logic                                   m_axi_host_bready_o,
  input  logic [1:0]                             m_axi_host_bresp_i,
  output logic                                   m_axi_host_arvalid_o,
  input  logic                                   m_axi_host_arready_i,
  output logic [wf_soc_pkg::HostAddrBits-1:0]    m_axi_host_araddr_o,
  input  logic                                   m_axi_host_rvalid_i,
  output logic                                   m_axi_host_rready_o,
  input  logic [wf_soc_pkg::HostDataBytes*8-1:0] m_axi_host_rdata_i,
  input  logic [1:0]                             m_axi_host_rresp_i,

  // Memory port to the crossbar (one request outstanding).
  output logic                  mem_req_valid_o,
  input  logic                  mem_req_ready_i,
  output wf_soc_pkg::mem_req_t  mem_req_o,
  input  logic                  mem_rsp_valid_i,
  output logic                  mem_rsp_ready_o,
  input  wf_soc_pkg::mem_rsp_t  mem_rsp_i,

  // Param RAM write port (64-byte blocks with byte enables).
  output logic        param_we_o,
  output logic [31:0] param_waddr_o,   // 64-byte aligned byte offset
  output logic [511:0] param_wdata_o,
  output logic [63:0] param_wmask_o,

  // The launch: start pulse and constants to the dispatcher and the cores; the dispatcher says
  // when the grid is done (every block retired, every core idle); faults and issue counts come
  // from the cores (already reduced by the top); stop_o makes them stop issuing.
  output logic                      launch_start_o,
  output wf_soc_pkg::launch_cfg_t   launch_cfg_o,
  input  logic                      launch_done_i,
  input  logic                      fault_valid_i,
  input  wf_soc_pkg::fault_t        fault_i,
  input  logic [31:0]               warp_insts_i,    // this cycle, over all cores
  input  logic [31:0]               thread_insts_i,
  output logic                      stop_o,

  // FENCE: the L2 writes its dirty lines back to DRAM (l2_flush_o held until l2_flush_done_i).
  output logic                      l2_flush_o,
  input  logic                      l2_flush_done_i
);

  localparam wf_config_pkg::config_t Cfg =
      wf_config_pkg::get_config(wf_config_pkg::config_e'(ConfigIndex));
  localparam logic [63:0] GlobalBase = wf_config_pkg::GlobalBase;
  localparam logic [63:0] GlobalSize = 64'(Cfg.global_mem_mib) << 20;
  localparam int unsigned BlockBytes = 64;
  localparam int unsigned BufBytes = 128;
  localparam int unsigned LinePos = LineBytes / BlockBytes;  // 64-byte blocks in a line

  if (LineBytes < BlockBytes || LineBytes > wf_soc_pkg::LineBytesMax) begin : gen_bad_line
    $fatal(1, "wf_cmd_proc: the mover works in 64-byte blocks; lines must be 64 or 128 bytes");
  end

  typedef enum logic [2:0] {
    KindHost, KindDev, KindLocal, KindParam, KindPattern
  } kind_e;

  // ---------------------------------------------------------------------------------------------
  // Record fields in the local buffer.
  function automatic logic [63:0] get_field(logic [BufBytes*8-1:0] buf_v, int unsigned off,
                                            int unsigned size);
    get_field = '0;
    for (int unsigned i = 0; i < size; i++) begin
      get_field[8*i +: 8] = buf_v[8*(off+i) +: 8];
    end
  endfunction

  function automatic logic [BufBytes*8-1:0] put_field(logic [BufBytes*8-1:0] buf_v,
                                                      int unsigned off, int unsigned size,
                                                      logic [63:0] value);
    put_field = buf_v;
    for (int unsigned i = 0; i < size; i++) begin
      put_field[8*(off+i) +: 8] = value[8*i +: 8];
    end
  endfunction

  // Range checks (no overflow: the length is compared first).
  function automatic logic dev_range_ok(logic [63:0] addr, logic [63:0] len);
    dev_range_ok = addr >= GlobalBase && len <= GlobalSize && addr - GlobalBase <= GlobalSize - len;
  endfunction

  function automatic logic host_range_ok(logic [63:0] addr, logic [63:0] len, logic [31:0] win);
    host_range_ok = len <= 64'(win) && addr <= 64'(win) - len;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Command sequencer.
  typedef enum logic [3:0] {
    SIdle, SFetch, SDecode, SMove, SLaunchDesc, SParams, SRun, SDrain, SComplete, SRecord, SDone,
    SFlush
  } state_e;

  state_e state_d, state_q;
  logic [31:0] head_d, head_q;
  logic [63:0] completed_d, completed_q;
  logic [63:0] cycles_q;
  logic        faulted_d, faulted_q;
  logic        reset_pend_d, reset_pend_q;
  logic [BufBytes*8-1:0] buf_d, buf_q;
  // The command being run.
  logic [7:0]  op_d, op_q;
  logic [7:0]  flags_d, flags_q;
  logic [63:0] seq_d, seq_q, arg0_d, arg0_q, arg1_d, arg1_q, arg2_d, arg2_q;
  logic [63:0] compl_d, compl_q;
  logic [63:0] start_cycle_d, start_cycle_q;
  logic [31:0] status_d, status_q;
  // The launch.
  wf_soc_pkg::launch_cfg_t lcfg_d, lcfg_q;
  logic [63:0] warp_insts_d, warp_insts_q, thread_insts_d, thread_insts_q;
  logic [63:0] watchdog_limit_d, watchdog_limit_q;
  logic        fault_seen_d, fault_seen_q;
  wf_soc_pkg::fault_t fault_d, fault_q;
  logic [63:0] grid_count_d, grid_count_q;
  logic        launch_start_d, launch_start_q;  // registered: the cores start the cycle after

  // Mover control.
  logic        mv_start;
  kind_e       mv_src_kind, mv_dst_kind;
  logic [63:0] mv_src, mv_dst, mv_len;
  logic        mv_done, mv_error;
  logic        buf_we;
  logic [0:0]  buf_wblk;
  logic [511:0] buf_wdata;
  logic [63:0] buf_wmask;

  // Decoded LaunchDesc (from the buffer) and its checks.
  logic [63:0] ld_code_base, ld_const_base, ld_param_addr, ld_rtbuf, ld_grid_id;
  logic [31:0] ld_code_size, ld_entry_pc, ld_regs, ld_shared_static, ld_shared_dynamic;
  logic [31:0] ld_local_bytes, ld_const_size, ld_param_size;
  logic [2:0][31:0] ld_grid, ld_block;
  logic [63:0] ld_threads, ld_warps, ld_shared;
  logic        ld_invalid;

  always_comb begin
    ld_code_base = get_field(buf_q, wf_device_pkg::LaunchDescCodeBaseOff, 8);
    ld_code_size = 32'(get_field(buf_q, wf_device_pkg::LaunchDescCodeSizeOff, 4));
    ld_entry_pc = 32'(get_field(buf_q, wf_device_pkg::LaunchDescEntryPcOff, 4));
    ld_grid[0] = 32'(get_field(buf_q, wf_device_pkg::LaunchDescGridXOff, 4));
    ld_grid[1] = 32'(get_field(buf_q, wf_device_pkg::LaunchDescGridYOff, 4));
    ld_grid[2] = 32'(get_field(buf_q, wf_device_pkg::LaunchDescGridZOff, 4));
    ld_block[0] = 32'(get_field(buf_q, wf_device_pkg::LaunchDescBlockXOff, 4));
    ld_block[1] = 32'(get_field(buf_q, wf_device_pkg::LaunchDescBlockYOff, 4));
    ld_block[2] = 32'(get_field(buf_q, wf_device_pkg::LaunchDescBlockZOff, 4));
    ld_regs = 32'(get_field(buf_q, wf_device_pkg::LaunchDescRegsPerThreadOff, 4));
    ld_shared_static = 32'(get_field(buf_q, wf_device_pkg::LaunchDescSharedStaticOff, 4));
    ld_shared_dynamic = 32'(get_field(buf_q, wf_device_pkg::LaunchDescSharedDynamicOff, 4));
    ld_local_bytes = 32'(get_field(buf_q, wf_device_pkg::LaunchDescLocalBytesOff, 4));
    ld_const_base = get_field(buf_q, wf_device_pkg::LaunchDescConstBaseOff, 8);
    ld_const_size = 32'(get_field(buf_q, wf_device_pkg::LaunchDescConstSizeOff, 4));
    ld_param_size = 32'(get_field(buf_q, wf_device_pkg::LaunchDescParamSizeOff, 4));
    ld_param_addr = get_field(buf_q, wf_device_pkg::LaunchDescParamAddrOff, 8);
    ld_rtbuf = get_field(buf_q, wf_device_pkg::LaunchDescRtbufOff, 8);
    ld_grid_id = get_field(buf_q, wf_device_pkg::LaunchDescGridIdOff, 8);
    // Threads: each dimension is checked against the limit before the product is formed.
    ld_threads = 64'(ld_block[0]) * 64'(ld_block[1]) * 64'(ld_block[2]);
    ld_warps = (ld_threads + 64'(wf_isa_pkg::WarpSize) - 64'd1) / 64'(wf_isa_pkg::WarpSize);
    ld_shared = 64'(ld_shared_static) + 64'(ld_shared_dynamic);
    // The emulator's checkLaunch, in its order (any failure: INVALID_LAUNCH).
    ld_invalid = 1'b0;
    if (ld_grid[0] == 0 || ld_grid[1] == 0 || ld_grid[2] == 0 || ld_block[0] == 0 ||
        ld_block[1] == 0 || ld_block[2] == 0) begin
      ld_invalid = 1'b1;
    end
    if (ld_block[0] > Cfg.max_threads_per_block || ld_block[1] > Cfg.max_threads_per_block ||
        ld_block[2] > Cfg.max_threads_per_block || ld_threads > 64'(Cfg.max_threads_per_block)) begin
      ld_invalid = 1'b1;
    end
    if (ld_warps > 64'(Cfg.warps_per_core)) ld_invalid = 1'b1;
    if (ld_regs > Cfg.max_regs_per_thread) ld_invalid = 1'b1;
    if (64'(ld_regs) * ld_warps * 64'(wf_isa_pkg::WarpSize) > 64'(Cfg.regs_per_core)) begin
      ld_invalid = 1'b1;
    end
    if (ld_shared > 64'(Cfg.shared_mem_per_core)) ld_invalid = 1'b1;
    if (ld_local_bytes > Cfg.max_local_bytes_per_thread) ld_invalid = 1'b1;
    if (ld_code_size < wf_isa_pkg::InstBits / 8 || !dev_range_ok(ld_code_base, 64'(ld_code_size))) begin
      ld_invalid = 1'b1;
    end
    if (ld_entry_pc[2:0] != 3'd0 || ld_entry_pc >= ld_code_size) ld_invalid = 1'b1;
    if (ld_const_size > Cfg.const_mem_bytes) ld_invalid = 1'b1;
    if (ld_const_size != 0 && !dev_range_ok(ld_const_base, 64'(ld_const_size))) ld_invalid = 1'b1;
    // The param RAM's size (the emulator has no such limit; CUDA's is 32764 bytes).
    if (ld_param_size > wf_soc_pkg::ParamRamBytes) ld_invalid = 1'b1;
  end

  logic [31:0] ring_slot;
  assign ring_slot = head_q & (queue_size_i - 32'd1);

  always_comb begin
    state_d = state_q;
    head_d = head_q;
    completed_d = completed_q;
    faulted_d = faulted_q;
    reset_pend_d = reset_pend_q || reset_i;
    buf_d = buf_q;
    op_d = op_q;
    flags_d = flags_q;
    seq_d = seq_q;
    arg0_d = arg0_q;
    arg1_d = arg1_q;
    arg2_d = arg2_q;
    compl_d = compl_q;
    start_cycle_d = start_cycle_q;
    status_d = status_q;
    lcfg_d = lcfg_q;
    warp_insts_d = warp_insts_q;
    thread_insts_d = thread_insts_q;
    watchdog_limit_d = watchdog_limit_q;
    fault_seen_d = fault_seen_q;
    fault_d = fault_q;
    grid_count_d = grid_count_q;
    mv_start = 1'b0;
    mv_src_kind = KindHost;
    mv_dst_kind = KindLocal;
    mv_src = '0;
    mv_dst = '0;
    mv_len = '0;
    mv_fill = '0;
    irq_set_o = '0;
    launch_start_d = 1'b0;
    if (queue_clear_i) begin
      head_d = '0;
    end
    if (buf_we) begin
      for (int unsigned b = 0; b < BlockBytes; b++) begin
        if (buf_wmask[b]) buf_d[8*(BlockBytes*32'(buf_wblk) + b) +: 8] = buf_wdata[8*b +: 8];
      end
    end

    unique case (state_q)
      SFlush: if (l2_flush_done_i) state_d = SComplete;
      SIdle: begin
        if (reset_pend_q) begin
          // CONTROL.RESET takes effect between commands.
          reset_pend_d = reset_i;
          head_d = '0;
          completed_d = '0;
          faulted_d = 1'b0;
        end else if (queue_size_i != 0 && head_q != queue_tail_i) begin
          mv_start = 1'b1;
          mv_src_kind = KindHost;
          mv_src = queue_base_i + 64'(ring_slot) * 64'(wf_device_pkg::CommandBytes);
          mv_dst_kind = KindLocal;
          mv_dst = '0;
          mv_len = 64'(wf_device_pkg::CommandBytes);
          start_cycle_d = cycles_q;
          state_d = SFetch;
        end
      end
      SFetch: begin
        if (mv_done) begin
          head_d = head_q + 1;
          state_d = SDecode;
        end
      end
      SDecode: begin
        // The command was fetched into the buffer (or the fetch failed: the ring is outside the
        // window, and the command is reported as BAD_COMMAND with what was read).
        op_d = 8'(get_field(buf_q, wf_device_pkg::CommandOpcodeOff, 1));
        flags_d = 8'(get_field(buf_q, wf_device_pkg::CommandFlagsOff, 1));
        seq_d = get_field(buf_q, wf_device_pkg::CommandSeqOff, 8);
        arg0_d = get_field(buf_q, wf_device_pkg::CommandArg0Off, 8);
        arg1_d = get_field(buf_q, wf_device_pkg::CommandArg1Off, 8);
        arg2_d = get_field(buf_q, wf_device_pkg::CommandArg2Off, 8);
        compl_d = get_field(buf_q, wf_device_pkg::CommandCompletionOff, 8);
        status_d = wf_device_pkg::STATUS_OK;
        warp_insts_d = '0;
        thread_insts_d = '0;
        fault_seen_d = 1'b0;
        fault_d = '0;
        state_d = SComplete;
        if (mv_error) begin
          status_d = wf_device_pkg::STATUS_BAD_COMMAND;
        end else begin
          unique case (op_d)
            wf_device_pkg::CMD_NOP: ;
            // Every earlier command is complete (they run in order); the L2's dirty lines go to
            // DRAM, so that memory outside the L2's view (the DRAM itself) holds every write.
            wf_device_pkg::CMD_FENCE: state_d = SFlush;
            wf_device_pkg::CMD_TIMESTAMP: begin
              if (!host_range_ok(arg0_d, 64'd8, dma_window_size_i)) begin
                status_d = wf_device_pkg::STATUS_BAD_COMMAND;
              end else begin
                buf_d = put_field(buf_d, 0, 8, cycles_q);
                mv_start = 1'b1;
                mv_src_kind = KindLocal;
                mv_src = '0;
                mv_dst_kind = KindHost;
                mv_dst = arg0_d;
                mv_len = 64'd8;
                state_d = SMove;
              end
            end
            wf_device_pkg::CMD_COPY: begin
              mv_src_kind = flags_d[wf_device_pkg::CmdFlagSrcHostBit] ? KindHost : KindDev;
              mv_dst_kind = flags_d[wf_device_pkg::CmdFlagDstHostBit] ? KindHost : KindDev;
              if ((mv_src_kind == KindHost ? !host_range_ok(arg0_d, arg2_d, dma_window_size_i)
                                           : !dev_range_ok(arg0_d, arg2_d)) ||
                  (mv_dst_kind == KindHost ? !host_range_ok(arg1_d, arg2_d, dma_window_size_i)
                                           : !dev_range_ok(arg1_d, arg2_d))) begin
                status_d = wf_device_pkg::STATUS_BAD_COMMAND;
              end else if (arg2_d != 0) begin
                mv_start = 1'b1;
                mv_src = arg0_d;
                mv_dst = arg1_d;
                mv_len = arg2_d;
                state_d = SMove;
              end
            end
            wf_device_pkg::CMD_FILL: begin
              if (!dev_range_ok(arg0_d, arg2_d)) begin
                status_d = wf_device_pkg::STATUS_BAD_COMMAND;
              end else if (arg2_d != 0) begin
                mv_start = 1'b1;
                mv_src_kind = KindPattern;
                mv_src = '0;
                mv_fill = arg1_d[7:0];
                mv_dst_kind = KindDev;
                mv_dst = arg0_d;
                mv_len = arg2_d;
                state_d = SMove;
              end
            end
            wf_device_pkg::CMD_LAUNCH: begin
              if (!host_range_ok(arg0_d, 64'(wf_device_pkg::LaunchDescBytes),
                                 dma_window_size_i)) begin
                status_d = wf_device_pkg::STATUS_BAD_COMMAND;
              end else begin
                mv_start = 1'b1;
                mv_src_kind = KindHost;
                mv_src = arg0_d;
                mv_dst_kind = KindLocal;
                mv_dst = '0;
                mv_len = 64'(wf_device_pkg::LaunchDescBytes);
                state_d = SLaunchDesc;
              end
            end
            default: status_d = wf_device_pkg::STATUS_BAD_COMMAND;
          endcase
        end
      end
      SMove: begin
        if (mv_done) begin
          if (mv_error) status_d = wf_device_pkg::STATUS_BAD_COMMAND;
          state_d = SComplete;
        end
      end
      SLaunchDesc: begin
        if (mv_done) begin
          lcfg_d.code_base = ld_code_base;
          lcfg_d.code_size = ld_code_size;
          lcfg_d.entry_pc = ld_entry_pc;
          lcfg_d.grid = ld_grid;
          lcfg_d.block = ld_block;
          lcfg_d.threads_per_block = 32'(ld_threads);
          lcfg_d.warps_per_block = 32'(ld_warps);
          lcfg_d.regs_per_thread = 8'(ld_regs);
          lcfg_d.shared_bytes = 32'(ld_shared);
          lcfg_d.local_bytes = ld_local_bytes;
          lcfg_d.local_base = '0;
          lcfg_d.const_base = ld_const_base;
          lcfg_d.const_size = ld_const_size;
          lcfg_d.param_size = ld_param_size;
          lcfg_d.rtbuf = ld_rtbuf;
          // A grid id of 0 asks the device to number the grid.
          grid_count_d = grid_count_q + 64'(ld_grid_id == 0);
          lcfg_d.grid_id = ld_grid_id != 0 ? ld_grid_id : grid_count_d;
          lcfg_d.profile_addr = get_field(buf_q, wf_device_pkg::LaunchDescProfileAddrOff, 8);
          watchdog_limit_d = 64'(watchdog_minsts_i) * 64'd1000000;
          state_d = SComplete;
          if (mv_error || !host_range_ok(ld_param_addr, 64'(ld_param_size), dma_window_size_i)) begin
            status_d = wf_device_pkg::STATUS_BAD_COMMAND;
          end else if (ld_invalid) begin
            status_d = wf_device_pkg::STATUS_INVALID_LAUNCH;
            fault_d.kind = wf_device_pkg::FAULT_INVALID_LAUNCH;
            fault_d.pc = ld_entry_pc;
          end else if (ld_param_size != 0) begin
            mv_start = 1'b1;
            mv_src_kind = KindHost;
            mv_src = ld_param_addr;
            mv_dst_kind = KindParam;
            mv_dst = '0;
            mv_len = 64'(ld_param_size);
            state_d = SParams;
          end else begin
            launch_start_d = 1'b1;
            state_d = SRun;
          end
        end
      end
      SParams: begin
        if (mv_done) begin
          if (mv_error) begin
            status_d = wf_device_pkg::STATUS_BAD_COMMAND;
            state_d = SComplete;
          end else begin
            launch_start_d = 1'b1;
            state_d = SRun;
          end
        end
      end
      SRun: begin
        warp_insts_d = warp_insts_q + 64'(warp_insts_i);
        thread_insts_d = thread_insts_q + 64'(thread_insts_i);
        if (!fault_seen_q && fault_valid_i) begin
          fault_seen_d = 1'b1;
          fault_d = fault_i;
        end else if (!fault_seen_q && watchdog_limit_q != 0 && warp_insts_q >= watchdog_limit_q) begin
          fault_seen_d = 1'b1;
          fault_d = '0;
          fault_d.kind = wf_device_pkg::FAULT_WATCHDOG;
        end
        if (launch_done_i) begin
          status_d = fault_seen_d ? wf_device_pkg::STATUS_FAULT : wf_device_pkg::STATUS_OK;
          state_d = SComplete;
        end
      end
      SComplete: begin
        if (compl_q != '1) begin
          buf_d = '0;
          buf_d = put_field(buf_d, wf_device_pkg::CompletionSeqOff,
                            wf_device_pkg::CompletionSeqSize, seq_q);
          buf_d = put_field(buf_d, wf_device_pkg::CompletionStatusOff,
                            wf_device_pkg::CompletionStatusSize, 64'(status_q));
          buf_d = put_field(buf_d, wf_device_pkg::CompletionFaultKindOff,
                            wf_device_pkg::CompletionFaultKindSize, 64'(fault_q.kind));
          buf_d = put_field(buf_d, wf_device_pkg::CompletionCyclesOff,
                            wf_device_pkg::CompletionCyclesSize, cycles_q - start_cycle_q);
          buf_d = put_field(buf_d, wf_device_pkg::CompletionWarpInstsOff,
                            wf_device_pkg::CompletionWarpInstsSize, warp_insts_q);
          buf_d = put_field(buf_d, wf_device_pkg::CompletionThreadInstsOff,
                            wf_device_pkg::CompletionThreadInstsSize, thread_insts_q);
          buf_d = put_field(buf_d, wf_device_pkg::CompletionFaultPcOff,
                            wf_device_pkg::CompletionFaultPcSize, 64'(fault_q.pc));
          buf_d = put_field(buf_d, wf_device_pkg::CompletionFaultCodeOff,
                            wf_device_pkg::CompletionFaultCodeSize, 64'(fault_q.code));
          buf_d = put_field(buf_d, wf_device_pkg::CompletionFaultAddressOff,
                            wf_device_pkg::CompletionFaultAddressSize, fault_q.address);
          buf_d = put_field(buf_d, wf_device_pkg::CompletionFaultBlockXOff,
                            wf_device_pkg::CompletionFaultBlockXSize, 64'(fault_q.block[0]));
          buf_d = put_field(buf_d, wf_device_pkg::CompletionFaultBlockYOff,
                            wf_device_pkg::CompletionFaultBlockYSize, 64'(fault_q.block[1]));
          buf_d = put_field(buf_d, wf_device_pkg::CompletionFaultBlockZOff,
                            wf_device_pkg::CompletionFaultBlockZSize, 64'(fault_q.block[2]));
          buf_d = put_field(buf_d, wf_device_pkg::CompletionFaultThreadXOff,
                            wf_device_pkg::CompletionFaultThreadXSize, 64'(fault_q.thread[0]));
          buf_d = put_field(buf_d, wf_device_pkg::CompletionFaultThreadYOff,
                            wf_device_pkg::CompletionFaultThreadYSize, 64'(fault_q.thread[1]));
          buf_d = put_field(buf_d, wf_device_pkg::CompletionFaultThreadZOff,
                            wf_device_pkg::CompletionFaultThreadZSize, 64'(fault_q.thread[2]));
          // fault_detail, fault_values and reserved0 stay 0 (detail NONE).
          if (host_range_ok(compl_q, 64'(wf_device_pkg::CompletionBytes), dma_window_size_i)) begin
            mv_start = 1'b1;
            mv_src_kind = KindLocal;
            mv_src = '0;
            mv_dst_kind = KindHost;
            mv_dst = compl_q;
            mv_len = 64'(wf_device_pkg::CompletionBytes);
            state_d = SRecord;
          end else begin
            state_d = SDone;
          end
        end else begin
          state_d = SDone;
        end
      end
      SRecord: begin
        if (mv_done) state_d = SDone;
      end
      SDone: begin
        completed_d = seq_q;
        irq_set_o[0] = flags_q[wf_device_pkg::CmdFlagIrqBit];
        if (status_q == wf_device_pkg::STATUS_FAULT) begin
          faulted_d = 1'b1;
          irq_set_o[1] = 1'b1;
        end
        state_d = SIdle;
      end
      default: state_d = SIdle;
    endcase
  end

  // ---------------------------------------------------------------------------------------------
  // The mover.
  typedef enum logic [2:0] {
    MIdle, MPlan, MReadA, MReadB, MWrite, MWriteWait
  } mstate_e;

  mstate_e ms_d, ms_q;
  kind_e   src_kind_d, src_kind_q, dst_kind_d, dst_kind_q;
  logic [63:0] src_d, src_q, dst_d, dst_q, rem_d, rem_q;
  logic [7:0]  fill_d, fill_q;
  logic        err_d, err_q;
  logic        kept_valid_d, kept_valid_q;
  logic [63:0] kept_addr_d, kept_addr_q;
  logic [511:0] kept_d, kept_q, blk_a_d, blk_a_q, blk_b_d, blk_b_q;
  logic [6:0]  n_d, n_q;           // bytes of this block: 1..64
  logic        need_b_d, need_b_q;
  logic        req_sent_d, req_sent_q;   // the read or write request of this step was accepted
  logic        aw_done_d, aw_done_q, w_done_d, w_done_q;
  logic        done_d, done_q;       // the move ended last cycle (err_q says how)
  logic [7:0]  mv_fill;

  logic [5:0]  s_off, d_off;
  logic [63:0] a_addr, b_addr, rd_addr;
  logic [1023:0] pair;
  logic [511:0] out_data;
  logic [63:0] out_mask;
  logic [6:0]  room;
  logic [511:0] rd_blk;
  logic        rd_resp;   // a read response arrived this cycle (rd_blk valid)
  logic        rd_err;
  logic        wr_resp;
  logic        wr_err;
  logic [63:0] line_addr;
  logic        line_pos;   // which 64-byte half of a 128-byte line

  assign s_off = src_q[5:0];
  assign d_off = dst_q[5:0];
  assign a_addr = {src_q[63:6], 6'd0};
  assign b_addr = a_addr + 64'd64;
  assign rd_addr = ms_q == MReadB ? b_addr : a_addr;
  // Source bytes s_off .. s_off+n-1 of the block pair land at d_off .. d_off+n-1.
  assign pair = {blk_b_q, blk_a_q};
  assign out_data = 512'((pair >> (8 * 32'(s_off))) << (8 * 32'(d_off)));
  assign out_mask = 64'(~({65{1'b1}} << n_q)) << d_off;
  assign room = 7'd64 - {1'b0, d_off};

  // Where a 64-byte block sits in its cache line.
  always_comb begin
    line_addr = (ms_q == MReadA || ms_q == MReadB) ? rd_addr : {dst_q[63:6], 6'd0};
    line_pos = LinePos > 1 ? line_addr[6] : 1'b0;
  end

  // Memory port request.
  always_comb begin
    mem_req_o = '0;
    mem_req_valid_o = 1'b0;
    mem_req_o.addr = line_addr & ~(64'(LineBytes) - 64'd1);
    if ((ms_q == MReadA || ms_q == MReadB) && src_kind_q == KindDev && !req_sent_q) begin
      mem_req_valid_o = 1'b1;
      mem_req_o.kind = wf_soc_pkg::MEM_READ;
    end
    if (ms_q == MWrite && dst_kind_q == KindDev) begin
      mem_req_valid_o = 1'b1;
      mem_req_o.kind = wf_soc_pkg::MEM_WRITE;
      for (int unsigned p = 0; p < LinePos; p++) begin
        if (32'(line_pos) == p) begin
          mem_req_o.wdata[512*p +: 512] = out_data;
          mem_req_o.wmask[64*p +: 64] = out_mask;
        end
      end
    end
  end
  assign mem_rsp_ready_o = 1'b1;

  // Host AXI: reads and writes of one 64-byte beat.
  assign m_axi_host_arvalid_o = (ms_q == MReadA || ms_q == MReadB) && src_kind_q == KindHost &&
                                !req_sent_q;
  assign m_axi_host_araddr_o = rd_addr;
  assign m_axi_host_rready_o = 1'b1;
  assign m_axi_host_awvalid_o = ms_q == MWrite && dst_kind_q == KindHost && !aw_done_q;
  assign m_axi_host_awaddr_o = {dst_q[63:6], 6'd0};
  assign m_axi_host_wvalid_o = ms_q == MWrite && dst_kind_q == KindHost && !w_done_q;
  assign m_axi_host_wdata_o = out_data;
  assign m_axi_host_wstrb_o = out_mask;
  assign m_axi_host_bready_o = 1'b1;

  // Read responses (one outstanding read: whichever arrives is ours).
  always_comb begin
    rd_resp = 1'b0;
    rd_err = 1'b0;
    rd_blk = '0;
    if (src_kind_q == KindHost && m_axi_host_rvalid_i) begin
      rd_resp = 1'b1;
      rd_err = m_axi_host_rresp_i != 2'b00;
      rd_blk = m_axi_host_rdata_i;
    end
    if (src_kind_q == KindDev && mem_rsp_valid_i) begin
      rd_resp = 1'b1;
      for (int unsigned p = 0; p < LinePos; p++) begin
        if (32'(line_pos) == p) rd_blk = mem_rsp_i.rdata[512*p +: 512];
      end
    end
    wr_resp = (dst_kind_q == KindHost && m_axi_host_bvalid_i) ||
              (dst_kind_q == KindDev && mem_rsp_valid_i);
    wr_err = dst_kind_q == KindHost && m_axi_host_bresp_i != 2'b00;
  end

  // Local-buffer and param-RAM writes.
  assign buf_we = ms_q == MWrite && dst_kind_q == KindLocal;
  assign buf_wblk = dst_q[6];
  assign buf_wdata = out_data;
  assign buf_wmask = out_mask;
  assign param_we_o = ms_q == MWrite && dst_kind_q == KindParam;
  assign param_waddr_o = {dst_q[31:6], 6'd0};
  assign param_wdata_o = out_data;
  assign param_wmask_o = out_mask;

  always_comb begin
    ms_d = ms_q;
    src_kind_d = src_kind_q;
    dst_kind_d = dst_kind_q;
    src_d = src_q;
    dst_d = dst_q;
    rem_d = rem_q;
    fill_d = fill_q;
    err_d = err_q;
    kept_valid_d = kept_valid_q;
    kept_addr_d = kept_addr_q;
    kept_d = kept_q;
    blk_a_d = blk_a_q;
    blk_b_d = blk_b_q;
    n_d = n_q;
    need_b_d = need_b_q;
    req_sent_d = req_sent_q;
    aw_done_d = aw_done_q;
    w_done_d = w_done_q;
    done_d = 1'b0;

    unique case (ms_q)
      MIdle: begin
        if (mv_start) begin
          src_kind_d = mv_src_kind;
          dst_kind_d = mv_dst_kind;
          src_d = mv_src;
          dst_d = mv_dst;
          rem_d = mv_len;
          fill_d = mv_fill;
          err_d = 1'b0;
          kept_valid_d = 1'b0;
          ms_d = MPlan;
        end
      end
      MPlan: begin
        // This block: from d_off to the block's end or the range's end.
        n_d = rem_q < 64'(room) ? 7'(rem_q) : room;
        need_b_d = 7'(s_off) + n_d > 7'd64;
        req_sent_d = 1'b0;
        unique case (src_kind_q)
          KindPattern: begin
            blk_a_d = {64{fill_q}};
            blk_b_d = {64{fill_q}};
            ms_d = MWrite;
          end
          KindLocal: begin
            blk_a_d = buf_q[512*32'(src_q[6]) +: 512];
            blk_b_d = buf_q[512*32'(!src_q[6]) +: 512];
            ms_d = MWrite;
          end
          default: begin
            if (kept_valid_q && kept_addr_q == a_addr) begin
              blk_a_d = kept_q;
              ms_d = need_b_d ? MReadB : MWrite;
            end else begin
              ms_d = MReadA;
            end
          end
        endcase
        aw_done_d = 1'b0;
        w_done_d = 1'b0;
      end
      MReadA, MReadB: begin
        if ((src_kind_q == KindHost && m_axi_host_arready_i) ||
            (src_kind_q == KindDev && mem_req_ready_i)) begin
          req_sent_d = 1'b1;
        end
        if (rd_resp) begin
          err_d = err_q || rd_err;
          kept_valid_d = 1'b1;
          kept_addr_d = rd_addr;
          kept_d = rd_blk;
          req_sent_d = 1'b0;
          if (ms_q == MReadA) begin
            blk_a_d = rd_blk;
            ms_d = need_b_q ? MReadB : MWrite;
          end else begin
            blk_b_d = rd_blk;
            ms_d = MWrite;
          end
        end
      end
      MWrite: begin
        unique case (dst_kind_q)
          KindHost: begin
            aw_done_d = aw_done_q || m_axi_host_awready_i;
            w_done_d = w_done_q || m_axi_host_wready_i;
            if (aw_done_d && w_done_d) ms_d = MWriteWait;
          end
          KindDev: begin
            if (mem_req_ready_i) ms_d = MWriteWait;
          end
          default: ms_d = MWriteWait;  // local buffer, param RAM: written this cycle
        endcase
      end
      MWriteWait: begin
        if (wr_resp || dst_kind_q == KindLocal || dst_kind_q == KindParam) begin
          err_d = err_q || (wr_resp && wr_err);
          src_d = src_q + 64'(n_q);
          dst_d = dst_q + 64'(n_q);
          rem_d = rem_q - 64'(n_q);
          ms_d = rem_d == 0 ? MIdle : MPlan;
          done_d = rem_d == 0;
        end
      end
      default: ms_d = MIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      head_q <= '0;
      completed_q <= '0;
      cycles_q <= '0;
      faulted_q <= 1'b0;
      reset_pend_q <= 1'b0;
      buf_q <= '0;
      op_q <= '0;
      flags_q <= '0;
      seq_q <= '0;
      arg0_q <= '0;
      arg1_q <= '0;
      arg2_q <= '0;
      compl_q <= '1;
      start_cycle_q <= '0;
      status_q <= '0;
      lcfg_q <= '0;
      warp_insts_q <= '0;
      thread_insts_q <= '0;
      watchdog_limit_q <= '0;
      fault_seen_q <= 1'b0;
      fault_q <= '0;
      grid_count_q <= '0;
      launch_start_q <= 1'b0;
      ms_q <= MIdle;
      src_kind_q <= KindHost;
      dst_kind_q <= KindLocal;
      src_q <= '0;
      dst_q <= '0;
      rem_q <= '0;
      fill_q <= '0;
      err_q <= 1'b0;
      kept_valid_q <= 1'b0;
      kept_addr_q <= '0;
      kept_q <= '0;
      blk_a_q <= '0;
      blk_b_q <= '0;
      n_q <= '0;
      need_b_q <= 1'b0;
      req_sent_q <= 1'b0;
      aw_done_q <= 1'b0;
      w_done_q <= 1'b0;
      done_q <= 1'b0;
    end else begin
      state_q <= state_d;
      head_q <= head_d;
      completed_q <= completed_d;
      cycles_q <= cycles_q + 64'd1;
      faulted_q <= faulted_d;
      reset_pend_q <= reset_pend_d;
      buf_q <= buf_d;
      op_q <= op_d;
      flags_q <= flags_d;
      seq_q <= seq_d;
      arg0_q <= arg0_d;
      arg1_q <= arg1_d;
      arg2_q <= arg2_d;
      compl_q <= compl_d;
      start_cycle_q <= start_cycle_d;
      status_q <= status_d;
      lcfg_q <= lcfg_d;
      warp_insts_q <= warp_insts_d;
      thread_insts_q <= thread_insts_d;
      watchdog_limit_q <= watchdog_limit_d;
      fault_seen_q <= fault_seen_d;
      fault_q <= fault_d;
      grid_count_q <= grid_count_d;
      launch_start_q <= launch_start_d;
      ms_q <= ms_d;
      src_kind_q <= src_kind_d;
      dst_kind_q <= dst_kind_d;
      src_q <= src_d;
      dst_q <= dst_d;
      rem_q <= rem_d;
      fill_q <= fill_d;
      err_q <= err_d;
      kept_valid_q <= kept_valid_d;
      kept_addr_q <= kept_addr_d;
      kept_q <= kept_d;
      blk_a_q <= blk_a_d;
      blk_b_q <= blk_b_d;
      n_q <= n_d;
      need_b_q <= need_b_d;
      req_sent_q <= req_sent_d;
      aw_done_q <= aw_done_d;
      w_done_q <= w_done_d;
      done_q <= done_d;
    end
  end

  assign queue_head_o = head_q;
  assign completed_seq_o = completed_q;
  assign cycles_o = cycles_q;
  assign idle_o = state_q == SIdle;
  assign faulted_o = faulted_q;
  assign launch_cfg_o = lcfg_q;
  assign launch_start_o = launch_start_q;
  assign stop_o = fault_seen_q;
  assign l2_flush_o = state_q == SFlush;
  assign mv_done = done_q;
  assign mv_error = err_q;

  logic unused_rsp;
  assign unused_rsp = ^{mem_rsp_i.tag, mem_rsp_i.atom_old,
                        mem_rsp_i.rdata[wf_soc_pkg::LineBitsMax-1:LineBytes*8]};

endmodule
