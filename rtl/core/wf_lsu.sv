// The core's load/store unit (docs/microarchitecture.md, "Load/store unit" and "Faults").
//
// Ports (what the core wires to them):
//   launch_start_i / launch_cfg_i  the launch: local_base, local_bytes, const_base/const_size,
//                                  param_size and shared_bytes bound and place the accesses.
//   mem_issue_i / mem_issue_warp_i a one-cycle pulse when issue sends a memory instruction (unit
//                                  LSU) of a warp to a collector. With the LSU's own state it
//                                  makes mem_drained_o.
//   mem_drained_o[w]               warp w has no memory instruction issued and unfinished and no
//                                  store or atomic unacknowledged: MEMBAR may issue (wf_issue's
//                                  mem_drained_i).
//   pass_ready_o                   the LSU takes a pass this cycle (dispatch's unit_ready_i for
//                                  UNIT_LSU). One instruction is in the LSU at a time: its passes
//                                  are taken, checked, executed and written back before the next.
//   pass_i                         one pass (wf_core_pkg::lsu_pass_t; exec = the whole warp's exec
//                                  mask, the same in every pass); beside it, for lanes
//                                  pass*Lanes .. pass*Lanes+Lanes-1, the collector's operands:
//                                  ra_i[0..1]  the address register (pair for 64-bit addresses),
//                                  rb_i[0..1]  ATOM's operand b (CAS: the compare value),
//                                  rc_i[0..1]  ATOM's operand c (CAS: the new value),
//                                  rd_i[0..3]  store data (rd .. rd+3).
//                                  pass_smem_base_i: the byte offset of the warp's block in
//                                  shared memory (block admission's smem base).
//   ret_*                          the return buffer: one register row (ret_o.rd, lanes of pass
//                                  ret_o.pass) a cycle for loads and atomics; ret_lanes_o are the
//                                  lanes to write (the exec bits of that pass), ret_data_o the
//                                  values. A row is written when ret_grant_i (wf_exec_dispatch's
//                                  ret_grant_o[0]) is high with ret_valid_o; ret_valid_o does not
//                                  depend on ret_grant_i. The last row of an instruction has
//                                  release_sb (scoreboard port RelLsu, entry ret_o.sb_entry).
//                                  Pairs and quads come as one row per register and pass.
//   mem_req_* / mem_rsp_*          the core's memory port (wf_soc_pkg). The LSU uses tag bits 6:0
//                                  and leaves bit 7 zero, for the core to tell fetch's responses
//                                  from the LSU's: 7'b00_iiiii a line read (request i of the run),
//                                  7'b01_lllll an atomic of lane l, 7'b1_wwwwww a write of warp w
//                                  (its acknowledgement). Responses may come in any order; write
//                                  and atomic responses are always taken at once.
//   param_req_* / param_rsp_*      the command processor's param RAM (in-order line reads).
//   fault_valid_o / fault_o        a one-cycle pulse: the instruction faulted at the address stage
//                                  (wf_core_pkg::lsu_fault_t). Nothing of it was accessed.
//   idle_o                         nothing in the LSU and no write unacknowledged.
//
// Execution of one instruction, after all P passes passed their checks (address stage, one pass
// a cycle): the lanes are split by the space each resolves to, and served in this order:
//   1. global and const lanes: wf_coalescer line requests (READ or WRITE) on the memory port
//      (ATOM: one ATOMIC request a lane, in lane order);
//   2. local lanes, interleaved (word i of lane l at word i*32+l of the warp's local area): one
//      coalescer run per word of the access;
//   3. param lanes: coalescer line requests on the param-RAM port;
//   4. shared lanes: wf_bank_arbiter's conflict-free passes, one a cycle, on the wf_smem banks
//      (a load pass's words come back the next cycle through the lane crossbar); ATOM: one lane
//      at a time in lane order, a read and a write of its bank(s) (two cycles a lane), the new
//      value from wf_l2_atomic (hls/atomic.h's arithmetic; float ADD not built there).
// A line read's response is taken when the extractor is free and spread over P cycles (Lanes
// lanes a cycle) into the result buffer. A line write is assembled over P cycles, Lanes lanes a
// cycle in lane order (a later lane's bytes win, as in the emulator), then sent.
// Not built yet: the constant cache and the L1 data cache (every access goes to L2 / param RAM),
// 64-bit atomics on local memory (a generic ATOM whose address is local: its two
// words are not adjacent after the interleave; PTX leaves atomics on local memory undefined).
module wf_lsu #(
  parameter int unsigned CoreId     = 0,
  parameter int unsigned Lanes      = wf_config_pkg::ConfigDefaultLanes,
  parameter int unsigned Warps      = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned LineBytes  = wf_config_pkg::ConfigDefaultCacheLineBytes,
  parameter longint unsigned GlobalMemBytes =
      longint'(wf_config_pkg::ConfigDefaultGlobalMemMib) * 1024 * 1024,
  parameter int unsigned SharedBanks = wf_config_pkg::ConfigDefaultSharedBanks,
  parameter int unsigned SharedBytes = wf_config_pkg::ConfigDefaultSharedMemPerCore,
  localparam int unsigned WarpBits  = Warps > 1 ? $clog2(Warps) : 1
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,

  input  logic                                launch_start_i,
  input  wf_soc_pkg::launch_cfg_t             launch_cfg_i,

  input  logic                                mem_issue_i,
  input  logic [WarpBits-1:0]                 mem_issue_warp_i,
  output logic [Warps-1:0]                    mem_drained_o,

  output logic                                pass_ready_o,
  input  wf_core_pkg::lsu_pass_t              pass_i,
  input  logic [31:0]                         pass_smem_base_i,
  input  logic [1:0][Lanes-1:0][31:0]         ra_i,
  input  logic [1:0][Lanes-1:0][31:0]         rb_i,
  input  logic [1:0][Lanes-1:0][31:0]         rc_i,
  input  logic [3:0][Lanes-1:0][31:0]         rd_i,

  output logic                                ret_valid_o,
  input  logic                                ret_grant_i,
  output wf_core_pkg::ret_wb_t                ret_o,
  output logic [Lanes-1:0]                    ret_lanes_o,
  output logic [Lanes-1:0][31:0]              ret_data_o,

  output logic                                mem_req_valid_o,
  input  logic                                mem_req_ready_i,
  output wf_soc_pkg::mem_req_t                mem_req_o,
  input  logic                                mem_rsp_valid_i,
  output logic                                mem_rsp_ready_o,
  input  wf_soc_pkg::mem_rsp_t                mem_rsp_i,

  output logic                                param_req_valid_o,
  input  logic                                param_req_ready_i,
  output wf_soc_pkg::param_req_t              param_req_o,
  input  logic                                param_rsp_valid_i,
  input  wf_soc_pkg::param_rsp_t              param_rsp_i,

  output logic                                fault_valid_o,
  output wf_core_pkg::lsu_fault_t             fault_o,

  output logic                                idle_o
);

  localparam int unsigned WarpSize  = wf_isa_pkg::WarpSize;
  localparam int unsigned Passes    = WarpSize / Lanes;
  localparam int unsigned PassBits  = Passes > 1 ? $clog2(Passes) : 1;
  localparam int unsigned LineBits  = $clog2(LineBytes);
  localparam int unsigned AddrWidth = 48;   // device addresses below 2^48 (isa.md memory map)
  localparam int unsigned LineWidth = AddrWidth - LineBits;
  localparam int unsigned ReqSlots  = WarpSize;   // line requests of one run: at most one a lane

  if (Lanes * Passes != WarpSize) begin : gen_bad_lanes
    $error("wf_lsu: Lanes must divide the warp size");
  end
  if (LineBytes < 32 || LineBytes > wf_soc_pkg::LineBytesMax) begin : gen_bad_line
    $error("wf_lsu: LineBytes out of range");
  end

  // Lane classes: where an active lane's access goes.
  typedef enum logic [2:0] {
    ClsNone   = 3'd0,   // inactive lane
    ClsGlobal = 3'd1,   // device address (global, or const: const_base + offset)
    ClsLocal  = 3'd2,   // offset in the thread's local memory
    ClsParam  = 3'd3,   // offset in the param RAM
    ClsShared = 3'd4    // byte address in the core's shared memory (smem base + offset)
  } cls_e;

  typedef enum logic [3:0] {
    StIdle,       // waiting for pass 0
    StCollect,    // passes arriving
    StGlobal,     // global/const lanes: start a run (or the atomics)
    StLocal,      // local lanes: a run per word
    StParam,      // param lanes
    StShared,     // shared lanes: start the bank arbiter (or the atomics)
    StSPass,      // shared passes, one a cycle
    StSAtom,      // shared atomics, a lane every two cycles
    StDone,       // the last shared read's words arrive; then write-back or finish
    StRun,        // a coalescer run in flight
    StAtomic,     // per-lane atomics in flight
    StReturn,     // write-back rows
    StFault       // the fault leaves (nothing was accessed)
  } state_e;

  // ---------------------------------------------------------------------------------------------
  // The instruction in the LSU.
  state_e                           state_q, state_d;
  wf_core_pkg::lsu_pass_t           hdr_q, hdr_d;
  logic [WarpSize-1:0][2:0]         cls_q, cls_d;
  logic [WarpSize-1:0][AddrWidth-1:0] tgt_q, tgt_d;
  logic [3:0][WarpSize-1:0][31:0]   data_q, data_d;   // store data; atomics: b (0, 1), c (2, 3)
  logic [3:0][WarpSize-1:0][31:0]   res_q, res_d;     // load results / atomic old values
  logic                             flt_q, flt_d;
  wf_core_pkg::lsu_fault_t          flt_rec_q, flt_rec_d;
  logic [2:0]                       sl_q, sl_d;       // log2 of the access bytes (0..4)
  logic                             is_load, is_store, is_atomic;
  logic [3:0]                       nwords;           // registers a lane's result takes

  assign is_load   = hdr_q.op.access == 2'(wf_isa_pkg::ACCESS_LOAD);
  assign is_store  = hdr_q.op.access == 2'(wf_isa_pkg::ACCESS_STORE);
  assign is_atomic = hdr_q.op.access == 2'(wf_isa_pkg::ACCESS_ATOMIC);
  assign nwords    = sl_q >= 3'd3 ? 4'd1 << (sl_q - 3'd2) : 4'd1;

  function automatic logic [2:0] size_log2(logic [2:0] memsize);
    unique case (memsize)
      wf_isa_pkg::MemSizeU8, wf_isa_pkg::MemSizeS8:   size_log2 = 3'd0;
      wf_isa_pkg::MemSizeU16, wf_isa_pkg::MemSizeS16: size_log2 = 3'd1;
      wf_isa_pkg::MemSizeB32:                         size_log2 = 3'd2;
      wf_isa_pkg::MemSizeB64:                         size_log2 = 3'd3;
      default:                                        size_log2 = 3'd4;
    endcase
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Address stage: one pass a cycle (Lanes adders, window decode, alignment and bounds checks).
  logic                     pass_fire;
  logic [2:0]               pass_sl;
  logic [31:0]              pass_bytes;
  logic [Lanes-1:0]         lane_on;
  logic [Lanes-1:0][63:0]   lane_addr;
  logic [Lanes-1:0][2:0]    lane_space;
  logic [Lanes-1:0][2:0]    lane_cls;
  logic [Lanes-1:0][AddrWidth-1:0] lane_tgt;
  logic [Lanes-1:0][31:0]   lane_fkind;
  logic [Lanes-1:0][15:0]   lane_fdetail;

  assign pass_ready_o = state_q == StIdle || state_q == StCollect;
  assign pass_fire    = pass_i.valid && pass_ready_o;
  assign pass_sl      = size_log2(pass_i.op.size);
  assign pass_bytes   = 32'd1 << pass_sl;

  always_comb begin
    logic [31:0] off32, size, woff;
    logic [63:0] off64, goff;
    logic        write, narrow_ok, misaligned;
    for (int unsigned i = 0; i < Lanes; i++) begin
      lane_on[i] = pass_i.exec[pass_i.pass * Lanes + i];
      // ATOM has no address offset (the emulator adds none).
      off32 = pass_i.op.access == 2'(wf_isa_pkg::ACCESS_ATOMIC) ? 32'd0 : pass_i.op.offset;
      off64 = {{32{off32[31]}}, off32};
      if (pass_i.op.addr64) lane_addr[i] = {ra_i[1][i], ra_i[0][i]} + off64;
      else                  lane_addr[i] = {32'd0, ra_i[0][i] + off32};
      // The space: the opcode's, or the generic window's.
      lane_space[i] = pass_i.op.space;
      if (pass_i.op.generic) begin
        unique case (lane_addr[i][63:32])
          wf_config_pkg::SharedWindow[63:32]: lane_space[i] = wf_isa_pkg::SpaceShared;
          wf_config_pkg::LocalWindow[63:32]:  lane_space[i] = wf_isa_pkg::SpaceLocal;
          wf_config_pkg::ConstWindow[63:32]:  lane_space[i] = wf_isa_pkg::SpaceConst;
          wf_config_pkg::ParamWindow[63:32]:  lane_space[i] = wf_isa_pkg::SpaceParam;
          default:                            lane_space[i] = wf_isa_pkg::SpaceGlobal;
        endcase
      end
      woff = lane_addr[i][31:0];   // offset in a 4 GiB window (and the 32-bit spaces' address)
      unique case (lane_space[i])
        wf_isa_pkg::SpaceShared: size = launch_cfg_i.shared_bytes;
        wf_isa_pkg::SpaceLocal:  size = launch_cfg_i.local_bytes;
        wf_isa_pkg::SpaceConst:  size = launch_cfg_i.const_size;
        default:                 size = launch_cfg_i.param_size;
      endcase
      goff       = lane_addr[i] - wf_config_pkg::GlobalBase;
      narrow_ok  = {1'b0, woff} + {1'b0, pass_bytes} <= {1'b0, size};
      misaligned = (lane_addr[i][4:0] & 5'(pass_bytes - 32'd1)) != '0;
      write      = pass_i.op.access != 2'(wf_isa_pkg::ACCESS_LOAD);
      lane_fkind[i]   = wf_device_pkg::FAULT_NONE;
      lane_fdetail[i] = wf_device_pkg::DETAIL_NONE;
      if (misaligned) begin
        lane_fkind[i]   = wf_device_pkg::FAULT_MISALIGNED;
        lane_fdetail[i] = wf_device_pkg::DETAIL_MISALIGNED_ACCESS;
      end else if (lane_space[i] == wf_isa_pkg::SpaceGlobal ? goff >= 64'(GlobalMemBytes)
                                                             : !narrow_ok) begin
        lane_fkind[i]   = wf_device_pkg::FAULT_OUT_OF_BOUNDS;
        lane_fdetail[i] = wf_device_pkg::DETAIL_OUTSIDE_SPACE;
      end else if (write && (lane_space[i] == wf_isa_pkg::SpaceConst ||
                             lane_space[i] == wf_isa_pkg::SpaceParam)) begin
        lane_fkind[i]   = wf_device_pkg::FAULT_READ_ONLY_WRITE;
        lane_fdetail[i] = pass_i.op.access == 2'(wf_isa_pkg::ACCESS_ATOMIC)
                        ? wf_device_pkg::DETAIL_READ_ONLY_ATOMIC
                        : wf_device_pkg::DETAIL_READ_ONLY_STORE;
      end
      if (!lane_on[i]) begin
        lane_fkind[i]   = wf_device_pkg::FAULT_NONE;
        lane_fdetail[i] = wf_device_pkg::DETAIL_NONE;
      end
      // Where the access goes.
      unique case (lane_space[i])
        wf_isa_pkg::SpaceGlobal: begin
          lane_cls[i] = ClsGlobal;
          lane_tgt[i] = lane_addr[i][AddrWidth-1:0];
        end
        wf_isa_pkg::SpaceConst: begin
          lane_cls[i] = ClsGlobal;
          lane_tgt[i] = AddrWidth'(launch_cfg_i.const_base + {32'd0, woff});
        end
        wf_isa_pkg::SpaceLocal: begin
          lane_cls[i] = ClsLocal;
          lane_tgt[i] = AddrWidth'(woff);
        end
        wf_isa_pkg::SpaceShared: begin
          lane_cls[i] = ClsShared;
          lane_tgt[i] = AddrWidth'({16'd0, pass_smem_base_i + woff});
        end
        default: begin
          lane_cls[i] = ClsParam;
          lane_tgt[i] = AddrWidth'(woff);
        end
      endcase
      if (!lane_on[i]) lane_cls[i] = ClsNone;
    end
  end

  // The lowest faulting lane of this pass.
  logic                   pass_flt;
  wf_core_pkg::lsu_fault_t pass_flt_rec;
  always_comb begin
    pass_flt     = 1'b0;
    pass_flt_rec = '0;
    for (int i = Lanes - 1; i >= 0; i--) begin
      if (lane_fkind[i] != wf_device_pkg::FAULT_NONE) begin
        pass_flt             = 1'b1;
        pass_flt_rec.warp    = pass_i.warp;
        pass_flt_rec.pc      = pass_i.pc;
        pass_flt_rec.lane    = 5'(pass_i.pass * Lanes + i);
        pass_flt_rec.kind    = lane_fkind[i];
        pass_flt_rec.detail  = lane_fdetail[i];
        pass_flt_rec.address = lane_addr[i];
        pass_flt_rec.space   = 8'(lane_space[i]);
        pass_flt_rec.write   = pass_i.op.access != 2'(wf_isa_pkg::ACCESS_LOAD);
        pass_flt_rec.size    = pass_bytes;
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Line requests of a run: wf_coalescer's output written into slots (its requests come one a
  // cycle without back-pressure); a slot's index is the request's tag.
  logic                               coal_valid, coal_ready;
  logic [WarpSize-1:0]                coal_mask;
  logic [2:0]                         coal_size;
  logic [WarpSize-1:0][AddrWidth-1:0] coal_addr;
  logic                               coal_out_valid, coal_out_last;
  logic [WarpSize-1:0]                coal_out_lanes;
  logic [LineWidth-1:0]               coal_out_line;
  logic [LineBytes-1:0]               coal_out_bytes;

  wf_coalescer #(
    .LineBytes (LineBytes),
    .AddrWidth (AddrWidth)
  ) u_coalescer (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .valid_i     (coal_valid),
    .ready_o     (coal_ready),
    .mask_i      (coal_mask),
    .size_i      (coal_size),
    .addr_i      (coal_addr),
    .valid_o     (coal_out_valid),
    .last_o      (coal_out_last),
    .lanes_o     (coal_out_lanes),
    .line_o      (coal_out_line),
    .byte_mask_o (coal_out_bytes)
  );

  logic [ReqSlots-1:0][WarpSize-1:0]  slot_lanes_q, slot_lanes_d;
  logic [ReqSlots-1:0][LineWidth-1:0] slot_line_q, slot_line_d;
  logic [5:0]                         slots_q, slots_d;      // requests written
  logic                               slots_all_q, slots_all_d;  // the coalescer's last came
  logic [5:0]                         sent_q, sent_d;        // requests sent
  logic [5:0]                         recv_q, recv_d;        // read responses extracted
  logic [WarpSize-1:0][LineBits-1:0]  lo_q, lo_d;            // each lane's offset in its line
  // The run: which lanes, the port, its access size and the result word it fills.
  logic [2:0]                         run_cls_q, run_cls_d;
  logic [2:0]                         run_sl_q, run_sl_d;
  logic [1:0]                         run_word_q, run_word_d;
  logic [1:0]                         loc_words;             // local runs: words - 1

  assign loc_words = sl_q >= 3'd3 ? 2'((3'd1 << (sl_q - 3'd2)) - 3'd1) : 2'd0;

  // The warp's local area: local_base + (core's warp slot) * local_bytes * 32.
  logic [63:0] local_area;
  assign local_area = launch_cfg_i.local_base +
                      (64'(CoreId * Warps) + 64'(hdr_q.warp)) * {32'd0, launch_cfg_i.local_bytes} *
                      64'(WarpSize);

  // Lane l's device address for a run of class c, word k.
  function automatic logic [AddrWidth-1:0] run_addr(logic [2:0] c, logic [AddrWidth-1:0] tgt,
                                                    logic [1:0] k, logic [4:0] lane,
                                                    logic [63:0] area);
    logic [31:0] off;
    if (c != ClsLocal) return tgt;
    off = tgt[31:0] + {28'd0, k, 2'd0};
    // word i of the lane's stack at word i * 32 + lane of the warp's area
    return AddrWidth'(area + {27'd0, off[31:2], lane, off[1:0]});
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Responses being spread into the result buffer (one read line, P cycles).
  logic                        ext_q, ext_d;
  logic [PassBits-1:0]         ext_pass_q, ext_pass_d;
  logic [LineBytes*8-1:0]      ext_line_q, ext_line_d;
  logic [WarpSize-1:0]         ext_lanes_q, ext_lanes_d;
  // Line writes being assembled (P cycles, then sent).
  logic                        wb_full_q, wb_full_d;     // the line is assembled: send it
  logic [PassBits-1:0]         wb_pass_q, wb_pass_d;
  logic [LineBytes*8-1:0]      wb_line_q, wb_line_d;
  logic [LineBytes-1:0]        wb_mask_q, wb_mask_d;
  // Param responses come in order: requests sent and not answered.
  logic [5:0]                  psent_q, psent_d;
  // Atomics: lanes still to send, responses still to come.
  logic [WarpSize-1:0]         at_todo_q, at_todo_d;
  logic [5:0]                  at_wait_q, at_wait_d;
  // Return rows.
  logic [1:0]                  ret_word_q, ret_word_d;
  logic [PassBits-1:0]         ret_pass_q, ret_pass_d;
  // MEMBAR: per warp, memory instructions issued and not finished, writes/atomics unanswered.
  logic [Warps-1:0][3:0]       inst_cnt_q, inst_cnt_d;
  logic [Warps-1:0][7:0]       ack_cnt_q, ack_cnt_d;
  logic                        finish;                   // the instruction leaves the LSU

  // A load result word: the bytes at `off` of a line, extended to 32 bits.
  function automatic logic [31:0] line_word(logic [LineBytes*8-1:0] line, logic [LineBits-1:0] off,
                                            logic [2:0] sl, logic sign);
    logic [31:0] w;
    logic [LineBits-1:0] wo;
    wo = off & ~LineBits'(3);
    w  = line[32'(wo) * 8 +: 32];
    unique case (sl)
      3'd0: begin
        w = {24'd0, w[8 * off[1:0] +: 8]};
        if (sign) w[31:8] = {24{w[7]}};
      end
      3'd1: begin
        w = {16'd0, w[16 * off[1] +: 16]};
        if (sign) w[31:16] = {16{w[15]}};
      end
      default: ;
    endcase
    return w;
  endfunction

  logic signed_load;
  assign signed_load = hdr_q.op.size == wf_isa_pkg::MemSizeS8 ||
                       hdr_q.op.size == wf_isa_pkg::MemSizeS16;

  // Memory-port response routing.
  logic rsp_is_write, rsp_is_atomic, rsp_is_line;
  assign rsp_is_write  = mem_rsp_i.tag[6];
  assign rsp_is_atomic = !mem_rsp_i.tag[6] && mem_rsp_i.tag[5];
  assign rsp_is_line   = !mem_rsp_i.tag[6] && !mem_rsp_i.tag[5];

  logic ext_take_mem, ext_take_param;

  // ---------------------------------------------------------------------------------------------
  // Shared memory: the bank arbiter's passes on the banks.
  localparam int unsigned SmemBits = $clog2(SharedBytes);
  localparam int unsigned BankBits = $clog2(SharedBanks);
  localparam int unsigned RowBits  = SmemBits - 2 - BankBits;

  logic                                 sarb_valid, sarb_ready;
  logic [WarpSize-1:0][SmemBits-1:0]    sarb_addr;
  logic                                 sarb_out_valid, sarb_out_last;
  logic [WarpSize-1:0]                  sarb_out_lanes;
  logic [SharedBanks-1:0]               sarb_out_en;
  logic [SharedBanks-1:0][RowBits-1:0]  sarb_out_row;

  always_comb begin
    for (int unsigned ln = 0; ln < WarpSize; ln++) sarb_addr[ln] = tgt_q[ln][SmemBits-1:0];
  end

  wf_bank_arbiter #(
    .NumBanks  (SharedBanks),
    .AddrWidth (SmemBits)
  ) u_bank_arbiter (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .valid_i    (sarb_valid),
    .ready_o    (sarb_ready),
    .mask_i     (m_shared),
    .size_i     (sl_q),
    .addr_i     (sarb_addr),
    .valid_o    (sarb_out_valid),
    .last_o     (sarb_out_last),
    .lanes_o    (sarb_out_lanes),
    .bank_en_o  (sarb_out_en),
    .bank_row_o (sarb_out_row)
  );

  logic [SharedBanks-1:0]               sm_en, sm_we;
  logic [SharedBanks-1:0][RowBits-1:0]  sm_row;
  logic [SharedBanks-1:0][3:0]          sm_wbe;
  logic [SharedBanks-1:0][31:0]         sm_wdata, sm_rdata;

  wf_smem #(
    .Banks (SharedBanks),
    .Bytes (SharedBytes)
  ) u_smem (
    .clk_i   (clk_i),
    .en_i    (sm_en),
    .we_i    (sm_we),
    .row_i   (sm_row),
    .wbe_i   (sm_wbe),
    .wdata_i (sm_wdata),
    .rdata_o (sm_rdata)
  );

  // Each lane's first word: its bank and row.
  logic [WarpSize-1:0][BankBits-1:0] s_bank;
  logic [WarpSize-1:0][RowBits-1:0]  s_row;
  always_comb begin
    for (int unsigned ln = 0; ln < WarpSize; ln++) begin
      s_bank[ln] = tgt_q[ln][2 +: BankBits];
      s_row[ln]  = tgt_q[ln][2 + BankBits +: RowBits];
    end
  end

  // A shared read pass's lanes (their words arrive in the next cycle); the atomic in progress.
  logic                 sp_valid_q, sp_valid_d;
  logic [WarpSize-1:0]  sp_lanes_q, sp_lanes_d;
  logic                 sa_phase_q, sa_phase_d;   // 0: read the lane's word(s), 1: write
  logic [63:0]          sa_old, sa_new;
  logic                 sa_supported;
  logic [4:0]           sa_lane;
  logic [BankBits-1:0]  sa_bank1;

  always_comb begin
    sa_lane = '0;
    for (int k = WarpSize - 1; k >= 0; k--) if (at_todo_q[k]) sa_lane = 5'(k);
    sa_bank1 = s_bank[sa_lane] + BankBits'(1);
    sa_old   = {sl_q == 3'd3 ? sm_rdata[sa_bank1] : 32'd0, sm_rdata[s_bank[sa_lane]]};
  end

  wf_l2_atomic u_smem_atomic (
    .fn_i        (hdr_q.op.atom_fn),
    .ty_i        (hdr_q.op.atom_ty),
    .old_i       (sa_old),
    .b_i         ({sl_q == 3'd3 ? data_q[1][sa_lane] : 32'd0, data_q[0][sa_lane]}),
    .c_i         ({sl_q == 3'd3 ? data_q[3][sa_lane] : 32'd0, data_q[2][sa_lane]}),
    .new_o       (sa_new),
    .supported_o (sa_supported)
  );

  // The lanes of each class.
  logic [WarpSize-1:0] m_global, m_local, m_param, m_shared;
  always_comb begin
    for (int unsigned l = 0; l < WarpSize; l++) begin
      m_global[l] = cls_q[l] == ClsGlobal;
      m_local[l]  = cls_q[l] == ClsLocal;
      m_param[l]  = cls_q[l] == ClsParam;
      m_shared[l] = cls_q[l] == ClsShared;
    end
  end

  always_comb begin
    int unsigned  l;
    logic [127:0] v;
    logic [4:0]   n;
    l            = 0;
    v            = '0;
    n            = '0;
    state_d      = state_q;
    hdr_d        = hdr_q;
    cls_d        = cls_q;
    tgt_d        = tgt_q;
    data_d       = data_q;
    res_d        = res_q;
    flt_d        = flt_q;
    flt_rec_d    = flt_rec_q;
    sl_d         = sl_q;
    slot_lanes_d = slot_lanes_q;
    slot_line_d  = slot_line_q;
    slots_d      = slots_q;
    slots_all_d  = slots_all_q;
    sent_d       = sent_q;
    recv_d       = recv_q;
    lo_d         = lo_q;
    run_cls_d    = run_cls_q;
    run_sl_d     = run_sl_q;
    run_word_d   = run_word_q;
    ext_d        = ext_q;
    ext_pass_d   = ext_pass_q;
    ext_line_d   = ext_line_q;
    ext_lanes_d  = ext_lanes_q;
    wb_full_d    = wb_full_q;
    wb_pass_d    = wb_pass_q;
    wb_line_d    = wb_line_q;
    wb_mask_d    = wb_mask_q;
    psent_d      = psent_q;
    at_todo_d    = at_todo_q;
    at_wait_d    = at_wait_q;
    ret_word_d   = ret_word_q;
    ret_pass_d   = ret_pass_q;
    inst_cnt_d   = inst_cnt_q;
    ack_cnt_d    = ack_cnt_q;
    finish       = 1'b0;

    coal_valid   = 1'b0;
    coal_mask    = '0;
    coal_size    = '0;
    coal_addr    = '0;

    mem_req_valid_o   = 1'b0;
    mem_req_o         = '0;
    mem_rsp_ready_o   = 1'b0;
    param_req_valid_o = 1'b0;
    param_req_o       = '0;
    ret_valid_o       = 1'b0;
    ret_o             = '0;
    ret_lanes_o       = '0;
    ret_data_o        = '0;
    fault_valid_o     = 1'b0;
    fault_o           = flt_rec_q;
    ext_take_mem      = 1'b0;
    ext_take_param    = 1'b0;
    sarb_valid        = 1'b0;
    sm_en             = '0;
    sm_we             = '0;
    sm_row            = '0;
    sm_wbe            = '0;
    sm_wdata          = '0;
    sp_valid_d        = 1'b0;
    sp_lanes_d        = sp_lanes_q;
    sa_phase_d        = sa_phase_q;

    // --- Address stage: take a pass.
    if (pass_fire) begin
      if (state_q == StIdle) begin
        hdr_d     = pass_i;
        sl_d      = pass_sl;
        flt_d     = 1'b0;
        cls_d     = '0;
        run_cls_d = ClsNone;   // no run of this instruction yet
      end
      for (int unsigned i = 0; i < Lanes; i++) begin
        cls_d[pass_i.pass * Lanes + i] = lane_cls[i];
        tgt_d[pass_i.pass * Lanes + i] = lane_tgt[i];
        for (int unsigned k = 0; k < 4; k++) data_d[k][pass_i.pass * Lanes + i] = rd_i[k][i];
        if (pass_i.op.access == 2'(wf_isa_pkg::ACCESS_ATOMIC)) begin
          data_d[0][pass_i.pass * Lanes + i] = rb_i[0][i];
          data_d[1][pass_i.pass * Lanes + i] = rb_i[1][i];
          data_d[2][pass_i.pass * Lanes + i] = rc_i[0][i];
          data_d[3][pass_i.pass * Lanes + i] = rc_i[1][i];
        end
      end
      // The first faulting pass's lowest faulting lane.
      if (pass_flt && (state_q == StIdle || !flt_q)) begin
        flt_d     = 1'b1;
        flt_rec_d = pass_flt_rec;
      end
      state_d = StCollect;
      if (pass_i.last) begin
        // A faulting instruction accesses nothing and writes nothing back.
        state_d = pass_flt || (state_q == StCollect && flt_q) ? StFault : StGlobal;
      end
    end

    // --- Start the next group of lanes.
    unique case (state_q)
      StGlobal: begin
        if (m_global == '0) begin
          state_d = StLocal;
        end else if (is_atomic) begin
          at_todo_d = m_global;
          at_wait_d = 6'($countones(m_global));
          run_cls_d = ClsGlobal;
          state_d   = StAtomic;
        end else begin
          run_cls_d  = ClsGlobal;
          run_sl_d   = sl_q;
          run_word_d = 2'd0;
          state_d    = StRun;
        end
      end
      StLocal: begin
        if (m_local == '0 || (run_cls_q == ClsLocal && run_word_q == loc_words && !is_atomic)) begin
          state_d   = StParam;
          run_cls_d = ClsNone;
        end else if (is_atomic) begin
          at_todo_d = m_local;
          at_wait_d = 6'($countones(m_local));
          run_cls_d = ClsLocal;
          state_d   = StAtomic;
        end else begin
          run_word_d = run_cls_q == ClsLocal ? run_word_q + 2'd1 : 2'd0;
          run_cls_d  = ClsLocal;
          run_sl_d   = sl_q > 3'd2 ? 3'd2 : sl_q;
          state_d    = StRun;
        end
      end
      StParam: begin
        if (m_param == '0 || run_cls_q == ClsParam) begin
          state_d = StShared;
        end else begin
          run_cls_d  = ClsParam;
          run_sl_d   = sl_q;
          run_word_d = 2'd0;
          state_d    = StRun;
        end
      end
      StFault: begin
        fault_valid_o = 1'b1;
        finish        = 1'b1;
        state_d       = StIdle;
      end
      StShared: begin
        if (m_shared == '0) begin
          state_d = StDone;
        end else if (is_atomic) begin
          at_todo_d  = m_shared;
          sa_phase_d = 1'b0;
          state_d    = StSAtom;
        end else begin
          sarb_valid = 1'b1;
          state_d    = StSPass;
        end
      end
      StSPass: begin
        // One conflict-free pass: every enabled bank reads, or writes its served lanes' bytes
        // (lane order: a later lane's bytes win, as in the emulator).
        if (sarb_out_valid) begin
          sm_en  = sarb_out_en;
          sm_row = sarb_out_row;
          if (is_store) begin
            sm_we = sarb_out_en;
            for (int unsigned ln = 0; ln < WarpSize; ln++) begin
              if (sarb_out_lanes[ln]) begin
                for (int unsigned j = 0; j < 4; j++) begin
                  if (4'(j) < nwords) begin
                    logic [BankBits-1:0] b;
                    b = s_bank[ln] + BankBits'(j);
                    unique case (sl_q)
                      3'd0: begin
                        sm_wbe[b][tgt_q[ln][1:0]] = 1'b1;
                        sm_wdata[b][8 * tgt_q[ln][1:0] +: 8] = data_q[0][ln][7:0];
                      end
                      3'd1: begin
                        sm_wbe[b][2 * tgt_q[ln][1] +: 2] = 2'b11;
                        sm_wdata[b][16 * tgt_q[ln][1] +: 16] = data_q[0][ln][15:0];
                      end
                      default: begin
                        sm_wbe[b]   = 4'b1111;
                        sm_wdata[b] = data_q[j][ln];
                      end
                    endcase
                  end
                end
              end
            end
          end else begin
            sp_valid_d = 1'b1;
            sp_lanes_d = sarb_out_lanes;
          end
          if (sarb_out_last) state_d = StDone;
        end
      end
      StSAtom: begin
        if (at_todo_q == '0) begin
          state_d = StDone;
        end else begin
          sm_en[s_bank[sa_lane]] = 1'b1;
          sm_row[s_bank[sa_lane]] = s_row[sa_lane];
          if (sl_q == 3'd3) begin
            sm_en[sa_bank1]  = 1'b1;
            sm_row[sa_bank1] = s_row[sa_lane];
          end
          if (sa_phase_q) begin
            // The words read last cycle: write the new value, keep the old one.
            sm_we = sm_en;
            sm_wbe[s_bank[sa_lane]]   = 4'b1111;
            sm_wdata[s_bank[sa_lane]] = sa_new[31:0];
            if (sl_q == 3'd3) begin
              sm_wbe[sa_bank1]   = 4'b1111;
              sm_wdata[sa_bank1] = sa_new[63:32];
            end
            res_d[0][sa_lane] = sa_old[31:0];
            res_d[1][sa_lane] = sa_old[63:32];
            at_todo_d[sa_lane] = 1'b0;
          end
          sa_phase_d = !sa_phase_q;
        end
      end
      StDone: begin
        state_d = (is_load || is_atomic) ? StReturn : StIdle;
        if (!(is_load || is_atomic)) finish = 1'b1;
        ret_word_d = '0;
        ret_pass_d = '0;
      end
      default: ;
    endcase

    // Entering a run: start the coalescer on the run's lanes and addresses.
    if (state_q != StRun && state_d == StRun) begin
      coal_valid = 1'b1;
      coal_size  = run_sl_d;
      for (int unsigned ln = 0; ln < WarpSize; ln++) begin
        coal_mask[ln] = cls_q[ln] == run_cls_d;
        coal_addr[ln] = run_addr(run_cls_d, tgt_q[ln], run_word_d, 5'(ln), local_area);
        lo_d[ln]      = coal_addr[ln][LineBits-1:0];
      end
      slots_d     = '0;
      slots_all_d = 1'b0;
      sent_d      = '0;
      recv_d      = '0;
      psent_d     = '0;
      wb_full_d   = 1'b0;
      wb_pass_d   = '0;
      wb_line_d   = '0;
      wb_mask_d   = '0;
    end

    // --- A run: record the coalescer's requests.
    if (coal_out_valid) begin
      slot_lanes_d[slots_q[4:0]] = coal_out_lanes;
      slot_line_d[slots_q[4:0]]  = coal_out_line;
      slots_d = slots_q + 6'd1;
      if (coal_out_last) slots_all_d = 1'b1;
    end

    if (state_q == StRun) begin
      if (is_store) begin
        // Assemble the next line over P cycles, Lanes lanes a cycle, then send it.
        if (sent_q < slots_q && !wb_full_q) begin
          for (int unsigned i = 0; i < Lanes; i++) begin
            l = 32'(wb_pass_q) * Lanes + i;
            v = run_cls_q == ClsLocal ? {96'd0, data_q[run_word_q][l]}
                                      : {data_q[3][l], data_q[2][l], data_q[1][l], data_q[0][l]};
            n = 5'd1 << run_sl_q;
            if (slot_lanes_q[sent_q[4:0]][l]) begin
              for (int unsigned j = 0; j < 16; j++) begin
                if (5'(j) < n) begin
                  wb_line_d[(32'(lo_q[l]) + j) * 8 +: 8] = v[j * 8 +: 8];
                  wb_mask_d[32'(lo_q[l]) + j]            = 1'b1;
                end
              end
            end
          end
          wb_pass_d = wb_pass_q + PassBits'(1);
          if (32'(wb_pass_q) == Passes - 1) begin
            wb_full_d = 1'b1;
            wb_pass_d = '0;
          end
        end
        if (wb_full_q) begin
          mem_req_valid_o  = 1'b1;
          mem_req_o.kind   = wf_soc_pkg::MEM_WRITE;
          mem_req_o.addr   = 64'({slot_line_q[sent_q[4:0]], {LineBits{1'b0}}});
          mem_req_o.wdata  = wf_soc_pkg::LineBitsMax'(wb_line_q);
          mem_req_o.wmask  = wf_soc_pkg::LineBytesMax'(wb_mask_q);
          mem_req_o.tag    = {1'b0, 1'b1, 6'(hdr_q.warp)};
          if (mem_req_ready_i) begin
            sent_d    = sent_q + 6'd1;
            wb_full_d = 1'b0;
            wb_line_d = '0;
            wb_mask_d = '0;
            ack_cnt_d[hdr_q.warp] = ack_cnt_d[hdr_q.warp] + 8'd1;
          end
        end
        if (slots_all_q && sent_q == slots_q) state_d = StLocal;
      end else begin
        // Reads: send every request; responses are extracted as they come.
        if (sent_q < slots_q) begin
          if (run_cls_q == ClsParam) begin
            // One param read at a time: its response (which cannot wait) finds the extractor free.
            param_req_valid_o = psent_q == sent_q && !ext_q;
            param_req_o.addr  = 32'({slot_line_q[sent_q[4:0]], {LineBits{1'b0}}});
            if (param_req_ready_i && param_req_valid_o) sent_d = sent_q + 6'd1;
          end else begin
            mem_req_valid_o = 1'b1;
            mem_req_o.kind  = wf_soc_pkg::MEM_READ;
            mem_req_o.addr  = 64'({slot_line_q[sent_q[4:0]], {LineBits{1'b0}}});
            mem_req_o.tag   = {3'b000, sent_q[4:0]};
            if (mem_req_ready_i) sent_d = sent_q + 6'd1;
          end
        end
        if (slots_all_q && recv_q == slots_q) begin
          state_d = run_cls_q == ClsParam ? StParam : StLocal;
        end
      end
    end

    // --- A shared read pass's words: each served lane takes its bank(s)' words.
    if (sp_valid_q) begin
      for (int unsigned ln = 0; ln < WarpSize; ln++) begin
        if (sp_lanes_q[ln]) begin
          for (int unsigned j = 0; j < 4; j++) begin
            if (4'(j) < nwords) begin
              logic [31:0] w;
              w = sm_rdata[BankBits'(s_bank[ln] + BankBits'(j))];
              unique case (sl_q)
                3'd0: begin
                  w = {24'd0, w[8 * tgt_q[ln][1:0] +: 8]};
                  if (signed_load) w[31:8] = {24{w[7]}};
                end
                3'd1: begin
                  w = {16'd0, w[16 * tgt_q[ln][1] +: 16]};
                  if (signed_load) w[31:16] = {16{w[15]}};
                end
                default: ;
              endcase
              res_d[j][ln] = w;
            end
          end
        end
      end
    end

    // --- Response extraction (read runs): take a line when free, spread it over P cycles.
    if (ext_q) begin
      for (int unsigned i = 0; i < Lanes; i++) begin
        l = 32'(ext_pass_q) * Lanes + i;
        if (ext_lanes_q[l]) begin
          for (int unsigned j = 0; j < 4; j++) begin
            if (run_cls_q == ClsLocal) begin
              if (j == 0) res_d[run_word_q][l] = line_word(ext_line_q, lo_q[l], run_sl_q, signed_load);
            end else if (4'(j) < nwords) begin
              res_d[j][l] = line_word(ext_line_q, lo_q[l] + LineBits'(4 * j), run_sl_q, signed_load);
            end
          end
        end
      end
      ext_pass_d = ext_pass_q + PassBits'(1);
      if (32'(ext_pass_q) == Passes - 1) begin
        ext_d      = 1'b0;
        ext_pass_d = '0;
        recv_d     = recv_q + 6'd1;
      end
    end
    if (state_q == StRun && !is_store && (!ext_q || 32'(ext_pass_q) == Passes - 1)) begin
      if (run_cls_q == ClsParam) begin
        if (param_rsp_valid_i) begin
          ext_take_param = 1'b1;
          ext_d       = 1'b1;
          ext_pass_d  = '0;
          ext_line_d  = param_rsp_i.rdata[LineBytes*8-1:0];
          ext_lanes_d = slot_lanes_q[psent_q[4:0]];
          psent_d     = psent_q + 6'd1;
        end
      end else if (mem_rsp_valid_i && rsp_is_line) begin
        ext_take_mem = 1'b1;
        ext_d        = 1'b1;
        ext_pass_d   = '0;
        ext_line_d   = mem_rsp_i.rdata[LineBytes*8-1:0];
        ext_lanes_d  = slot_lanes_q[mem_rsp_i.tag[4:0]];
      end
    end

    // --- Atomics: one lane a cycle in lane order; old values as they come back.
    if (state_q == StAtomic) begin
      if (at_todo_q != '0) begin
        l = 0;
        for (int k = WarpSize - 1; k >= 0; k--) if (at_todo_q[k]) l = k;
        mem_req_valid_o  = 1'b1;
        mem_req_o.kind   = wf_soc_pkg::MEM_ATOMIC;
        mem_req_o.addr   = 64'(run_addr(run_cls_q, tgt_q[l], 2'd0, 5'(l), local_area));
        mem_req_o.atom_fn = hdr_q.op.atom_fn;
        mem_req_o.atom_ty = hdr_q.op.atom_ty;
        mem_req_o.atom_a = {data_q[1][l], data_q[0][l]};
        mem_req_o.atom_b = {data_q[3][l], data_q[2][l]};
        mem_req_o.tag    = {1'b0, 2'b01, 5'(l)};
        if (sl_q != 3'd3) begin   // 32-bit types: the low words
          mem_req_o.atom_a[63:32] = '0;
          mem_req_o.atom_b[63:32] = '0;
        end
        if (mem_req_ready_i) at_todo_d[l] = 1'b0;
      end
      if (at_todo_q == '0 && at_wait_q == '0) state_d = run_cls_q == ClsGlobal ? StLocal : StParam;
    end
    if (mem_rsp_valid_i && rsp_is_atomic) begin
      res_d[0][mem_rsp_i.tag[4:0]] = mem_rsp_i.atom_old[31:0];
      res_d[1][mem_rsp_i.tag[4:0]] = mem_rsp_i.atom_old[63:32];
      at_wait_d = at_wait_d - 6'd1;
    end
    if (mem_rsp_valid_i && rsp_is_write) begin
      ack_cnt_d[mem_rsp_i.tag[WarpBits-1:0]] = ack_cnt_d[mem_rsp_i.tag[WarpBits-1:0]] - 8'd1;
    end
    mem_rsp_ready_o = rsp_is_write || rsp_is_atomic || ext_take_mem;

    // --- Write-back: one row (register, pass) a cycle.
    if (state_q == StReturn) begin
      ret_valid_o        = 1'b1;
      ret_o.valid        = 1'b1;
      ret_o.warp         = hdr_q.warp;
      ret_o.pass         = 5'(ret_pass_q);
      ret_o.rd           = hdr_q.rd + 8'(ret_word_q);
      ret_o.sb_entry     = hdr_q.sb_reg;
      ret_o.release_sb   = 4'(ret_word_q) == nwords - 4'd1 && 32'(ret_pass_q) == Passes - 1;
      for (int unsigned i = 0; i < Lanes; i++) begin
        ret_lanes_o[i] = hdr_q.exec[32'(ret_pass_q) * Lanes + i];
        ret_data_o[i]  = res_q[ret_word_q][32'(ret_pass_q) * Lanes + i];
      end
      if (ret_grant_i) begin
        ret_pass_d = ret_pass_q + PassBits'(1);
        if (32'(ret_pass_q) == Passes - 1) begin
          ret_pass_d = '0;
          ret_word_d = ret_word_q + 2'd1;
        end
        if (ret_o.release_sb) begin
          state_d = StIdle;
          finish  = 1'b1;
        end
      end
    end

    // --- MEMBAR accounting.
    if (mem_issue_i) inst_cnt_d[mem_issue_warp_i] = inst_cnt_d[mem_issue_warp_i] + 4'd1;
    if (finish) inst_cnt_d[hdr_q.warp] = inst_cnt_d[hdr_q.warp] - 4'd1;
  end

  // The instruction's global atomics are unanswered writes too (MEMBAR waits for them): they are
  // in inst_cnt until the instruction finishes, which waits for every old value.
  always_comb begin
    for (int unsigned w = 0; w < Warps; w++) begin
      mem_drained_o[w] = inst_cnt_q[w] == '0 && ack_cnt_q[w] == '0;
    end
  end
  assign idle_o = state_q == StIdle && ack_cnt_q == '0;

  logic unused;
  assign unused = ^{coal_ready, sarb_ready, sa_supported, coal_out_bytes, launch_start_i, ext_take_param, is_load,
                    pass_i.rd_cnt, launch_cfg_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= StIdle;
      hdr_q        <= '0;
      cls_q        <= '0;
      tgt_q        <= '0;
      data_q       <= '0;
      res_q        <= '0;
      flt_q        <= 1'b0;
      flt_rec_q    <= '0;
      sl_q         <= '0;
      slot_lanes_q <= '0;
      slot_line_q  <= '0;
      slots_q      <= '0;
      slots_all_q  <= 1'b0;
      sent_q       <= '0;
      recv_q       <= '0;
      lo_q         <= '0;
      run_cls_q    <= '0;
      run_sl_q     <= '0;
      run_word_q   <= '0;
      ext_q        <= 1'b0;
      ext_pass_q   <= '0;
      ext_line_q   <= '0;
      ext_lanes_q  <= '0;
      wb_full_q    <= 1'b0;
      wb_pass_q    <= '0;
      wb_line_q    <= '0;
      wb_mask_q    <= '0;
      psent_q      <= '0;
      at_todo_q    <= '0;
      at_wait_q    <= '0;
      ret_word_q   <= '0;
      ret_pass_q   <= '0;
      inst_cnt_q   <= '0;
      ack_cnt_q    <= '0;
      sp_valid_q   <= 1'b0;
      sp_lanes_q   <= '0;
      sa_phase_q   <= 1'b0;
    end else begin
      state_q      <= state_d;
      hdr_q        <= hdr_d;
      cls_q        <= cls_d;
      tgt_q        <= tgt_d;
      data_q       <= data_d;
      res_q        <= res_d;
      flt_q        <= flt_d;
      flt_rec_q    <= flt_rec_d;
      sl_q         <= sl_d;
      slot_lanes_q <= slot_lanes_d;
      slot_line_q  <= slot_line_d;
      slots_q      <= slots_d;
      slots_all_q  <= slots_all_d;
      sent_q       <= sent_d;
      recv_q       <= recv_d;
      lo_q         <= lo_d;
      run_cls_q    <= run_cls_d;
      run_sl_q     <= run_sl_d;
      run_word_q   <= run_word_d;
      ext_q        <= ext_d;
      ext_pass_q   <= ext_pass_d;
      ext_line_q   <= ext_line_d;
      ext_lanes_q  <= ext_lanes_d;
      wb_full_q    <= wb_full_d;
      wb_pass_q    <= wb_pass_d;
      wb_line_q    <= wb_line_d;
      wb_mask_q    <= wb_mask_d;
      psent_q      <= psent_d;
      at_todo_q    <= at_todo_d;
      at_wait_q    <= at_wait_d;
      ret_word_q   <= ret_word_d;
      ret_pass_q   <= ret_pass_d;
      inst_cnt_q   <= inst_cnt_d;
      ack_cnt_q    <= ack_cnt_d;
      sp_valid_q   <= sp_valid_d;
      sp_lanes_q   <= sp_lanes_d;
      sa_phase_q   <= sa_phase_d;
    end
  end

endmodule
