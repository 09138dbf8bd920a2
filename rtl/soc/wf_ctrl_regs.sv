// The command processor's control registers on an AXI4-Lite slave: the register map of
// isa/device.toml (wf_device_pkg::Reg*), 32-bit. A write takes its address and data together
// (AWREADY and WREADY rise in the same cycle, when both are valid and no response is pending); a
// read answers one cycle after ARVALID. Unmapped reads return 0, writes to read-only or unmapped
// offsets are ignored; every response is OKAY.
module wf_ctrl_regs #(
  parameter int unsigned ConfigIndex = 32'(wf_config_pkg::CFG_DEFAULT),
  parameter logic [63:0] GlobalSize = 64'(wf_config_pkg::ConfigDefaultGlobalMemMib) << 20,
  parameter int unsigned ClockMhz = wf_config_pkg::ConfigDefaultClockMhz
) (
  input  logic clk_i,
  input  logic rst_ni,

  input  logic                                s_axil_awvalid_i,
  output logic                                s_axil_awready_o,
  input  logic [wf_soc_pkg::CtrlAddrBits-1:0] s_axil_awaddr_i,
  input  logic                                s_axil_wvalid_i,
  output logic                                s_axil_wready_o,
  input  logic [31:0]                         s_axil_wdata_i,
  input  logic [3:0]                          s_axil_wstrb_i,
  output logic                                s_axil_bvalid_o,
  input  logic                                s_axil_bready_i,
  output logic [1:0]                          s_axil_bresp_o,
  input  logic                                s_axil_arvalid_i,
  output logic                                s_axil_arready_o,
  input  logic [wf_soc_pkg::CtrlAddrBits-1:0] s_axil_araddr_i,
  output logic                                s_axil_rvalid_o,
  input  logic                                s_axil_rready_i,
  output logic [31:0]                         s_axil_rdata_o,
  output logic [1:0]                          s_axil_rresp_o,

  input  logic [31:0] dma_window_size_i,
  // State of the command processor.
  input  logic [31:0] queue_head_i,
  input  logic [63:0] completed_seq_i,
  input  logic [63:0] cycles_i,
  input  logic        idle_i,        // nothing runs (the queue may still hold commands)
  input  logic        faulted_i,     // STATUS.FAULTED
  input  logic [1:0]  irq_set_i,     // pulses: set IRQ_STATUS bits (COMPLETION, FAULT)
  // Registers the command processor reads.
  output logic [63:0] queue_base_o,
  output logic [31:0] queue_size_o,
  output logic [31:0] queue_tail_o,
  output logic        queue_clear_o,  // pulse: QUEUE_SIZE written (the queue empties)
  output logic        reset_o,        // pulse: CONTROL.RESET
  output logic        scrub_o,        // pulse: CONTROL.SCRUB
  output logic [31:0] watchdog_minsts_o,
  output logic        irq_o
);

  localparam logic [1:0] RespOkay = 2'b00;

  // ---------------------------------------------------------------------------------------------
  // Write channel.
  logic        bvalid_d, bvalid_q;
  logic [31:0] queue_base_lo_d, queue_base_lo_q, queue_base_hi_d, queue_base_hi_q;
  logic [31:0] queue_size_d, queue_size_q, queue_tail_d, queue_tail_q;
  logic [31:0] irq_status_d, irq_status_q, irq_enable_d, irq_enable_q;
  logic [31:0] watchdog_d, watchdog_q;
  logic        write;
  logic [31:0] wdata;

  assign write = s_axil_awvalid_i && s_axil_wvalid_i && !bvalid_q;
  // Byte strobes: a register takes the strobed bytes of the written word.
  function automatic logic [31:0] merge(logic [31:0] old, logic [31:0] data, logic [3:0] strb);
    for (int b = 0; b < 4; b++) begin
      merge[8*b +: 8] = strb[b] ? data[8*b +: 8] : old[8*b +: 8];
    end
  endfunction

  always_comb begin
    bvalid_d = bvalid_q;
    queue_base_lo_d = queue_base_lo_q;
    queue_base_hi_d = queue_base_hi_q;
    queue_size_d = queue_size_q;
    queue_tail_d = queue_tail_q;
    irq_status_d = irq_status_q;
    irq_enable_d = irq_enable_q;
    watchdog_d = watchdog_q;
    queue_clear_o = 1'b0;
    reset_o = 1'b0;
    scrub_o = 1'b0;
    wdata = s_axil_wdata_i;
    if (bvalid_q && s_axil_bready_i) begin
      bvalid_d = 1'b0;
    end
    // Interrupt sources set, then a write of 1 clears (a clear and a set in one cycle: set wins).
    if (write) begin
      bvalid_d = 1'b1;
      unique case (s_axil_awaddr_i)
        wf_device_pkg::RegQueueBaseLo:
          queue_base_lo_d = merge(queue_base_lo_q, wdata, s_axil_wstrb_i);
        wf_device_pkg::RegQueueBaseHi:
          queue_base_hi_d = merge(queue_base_hi_q, wdata, s_axil_wstrb_i);
        wf_device_pkg::RegQueueSize: begin
          queue_size_d = merge(queue_size_q, wdata, s_axil_wstrb_i);
          queue_tail_d = '0;
          queue_clear_o = 1'b1;
        end
        wf_device_pkg::RegQueueTail:
          queue_tail_d = merge(queue_tail_q, wdata, s_axil_wstrb_i);
        wf_device_pkg::RegIrqStatus:
          irq_status_d = irq_status_q & ~(wdata & {{8{s_axil_wstrb_i[3]}}, {8{s_axil_wstrb_i[2]}},
                                                   {8{s_axil_wstrb_i[1]}}, {8{s_axil_wstrb_i[0]}}});
        wf_device_pkg::RegIrqEnable:
          irq_enable_d = merge(irq_enable_q, wdata, s_axil_wstrb_i);
        wf_device_pkg::RegWatchdogMinsts:
          watchdog_d = merge(watchdog_q, wdata, s_axil_wstrb_i);
        wf_device_pkg::RegControl: begin
          if (s_axil_wstrb_i[0]) begin
            reset_o = wdata[wf_device_pkg::ControlResetLsb];
            scrub_o = wdata[wf_device_pkg::ControlScrubLsb];
          end
        end
        default: ;
      endcase
    end
    if (reset_o) begin
      irq_status_d = '0;
      queue_tail_d = '0;
      queue_clear_o = 1'b1;
    end
    irq_status_d[wf_device_pkg::IrqStatusCompletionLsb] =
        irq_status_d[wf_device_pkg::IrqStatusCompletionLsb] | irq_set_i[0];
    irq_status_d[wf_device_pkg::IrqStatusFaultLsb] =
        irq_status_d[wf_device_pkg::IrqStatusFaultLsb] | irq_set_i[1];
  end

  // ---------------------------------------------------------------------------------------------
  // Read channel. Reading a _LO half of a 64-bit counter latches its _HI half.
  logic        rvalid_d, rvalid_q;
  logic [31:0] rdata_d, rdata_q;
  logic [31:0] seq_hi_d, seq_hi_q, cycles_hi_d, cycles_hi_q;
  logic        read;

  assign read = s_axil_arvalid_i && !rvalid_q;

  always_comb begin
    rvalid_d = rvalid_q;
    rdata_d = rdata_q;
    seq_hi_d = seq_hi_q;
    cycles_hi_d = cycles_hi_q;
    if (rvalid_q && s_axil_rready_i) begin
      rvalid_d = 1'b0;
    end
    if (read) begin
      rvalid_d = 1'b1;
      rdata_d = '0;
      unique case (s_axil_araddr_i)
        wf_device_pkg::RegMagic: rdata_d = wf_device_pkg::Magic;
        wf_device_pkg::RegVersion: rdata_d = wf_device_pkg::Version;
        wf_device_pkg::RegConfig: rdata_d = ConfigIndex;
        wf_device_pkg::RegGlobalBaseLo: rdata_d = wf_config_pkg::GlobalBase[31:0];
        wf_device_pkg::RegGlobalBaseHi: rdata_d = wf_config_pkg::GlobalBase[63:32];
        wf_device_pkg::RegGlobalSizeLo: rdata_d = GlobalSize[31:0];
        wf_device_pkg::RegGlobalSizeHi: rdata_d = GlobalSize[63:32];
        wf_device_pkg::RegDmaWindowSize: rdata_d = dma_window_size_i;
        wf_device_pkg::RegStatus: begin
          rdata_d[wf_device_pkg::StatusIdleLsb] = idle_i && queue_head_i == queue_tail_q;
          rdata_d[wf_device_pkg::StatusFaultedLsb] = faulted_i;
        end
        wf_device_pkg::RegQueueBaseLo: rdata_d = queue_base_lo_q;
        wf_device_pkg::RegQueueBaseHi: rdata_d = queue_base_hi_q;
        wf_device_pkg::RegQueueSize: rdata_d = queue_size_q;
        wf_device_pkg::RegQueueHead: rdata_d = queue_head_i;
        wf_device_pkg::RegQueueTail: rdata_d = queue_tail_q;
        wf_device_pkg::RegCompletedSeqLo: begin
          rdata_d = completed_seq_i[31:0];
          seq_hi_d = completed_seq_i[63:32];
        end
        wf_device_pkg::RegCompletedSeqHi: rdata_d = seq_hi_q;
        wf_device_pkg::RegCyclesLo: begin
          rdata_d = cycles_i[31:0];
          cycles_hi_d = cycles_i[63:32];
        end
        wf_device_pkg::RegCyclesHi: rdata_d = cycles_hi_q;
        wf_device_pkg::RegIrqStatus: rdata_d = irq_status_q;
        wf_device_pkg::RegIrqEnable: rdata_d = irq_enable_q;
        wf_device_pkg::RegWatchdogMinsts: rdata_d = watchdog_q;
        wf_device_pkg::RegClockMhz: rdata_d = ClockMhz;
        // One hardware queue (wf_cmd_proc runs one ring): the host serializes its engines on it,
        // and the other queues' register blocks are unmapped.
        wf_device_pkg::RegQueueCount: rdata_d = 32'd1;
        default: ;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bvalid_q <= 1'b0;
      rvalid_q <= 1'b0;
      rdata_q <= '0;
      queue_base_lo_q <= '0;
      queue_base_hi_q <= '0;
      queue_size_q <= '0;
      queue_tail_q <= '0;
      irq_status_q <= '0;
      irq_enable_q <= '0;
      watchdog_q <= '0;
      seq_hi_q <= '0;
      cycles_hi_q <= '0;
    end else begin
      bvalid_q <= bvalid_d;
      rvalid_q <= rvalid_d;
      rdata_q <= rdata_d;
      queue_base_lo_q <= queue_base_lo_d;
      queue_base_hi_q <= queue_base_hi_d;
      queue_size_q <= queue_size_d;
      queue_tail_q <= queue_tail_d;
      irq_status_q <= irq_status_d;
      irq_enable_q <= irq_enable_d;
      watchdog_q <= watchdog_d;
      seq_hi_q <= seq_hi_d;
      cycles_hi_q <= cycles_hi_d;
    end
  end

  assign s_axil_awready_o = write;
  assign s_axil_wready_o = write;
  assign s_axil_bvalid_o = bvalid_q;
  assign s_axil_bresp_o = RespOkay;
  assign s_axil_arready_o = read;
  assign s_axil_rvalid_o = rvalid_q;
  assign s_axil_rdata_o = rdata_q;
  assign s_axil_rresp_o = RespOkay;

  assign queue_base_o = {queue_base_hi_q, queue_base_lo_q};
  assign queue_size_o = queue_size_q;
  assign queue_tail_o = queue_tail_q;
  assign watchdog_minsts_o = watchdog_q;
  assign irq_o = |(irq_status_q & irq_enable_q);

endmodule
