// The param RAM (docs/microarchitecture.md, "Command processor"): wf_soc_pkg::ParamRamBytes of
// launch parameters, written by the command processor in 64-byte blocks with byte enables, read a
// line at a time by the cores' constant caches (LDP misses). One read a cycle: the first core
// after the one served last that asks (round robin); its line comes back in the next cycle.
module wf_param_ram #(
  parameter int unsigned Cores = 1,
  parameter int unsigned LineBytes = 64
) (
  input  logic clk_i,
  input  logic rst_ni,

  input  logic         we_i,
  input  logic [31:0]  waddr_i,   // 64-byte aligned byte offset
  input  logic [511:0] wdata_i,
  input  logic [63:0]  wmask_i,

  input  logic [Cores-1:0]                req_valid_i,
  output logic [Cores-1:0]                req_ready_o,
  input  logic [Cores-1:0][31:0]          req_addr_i,   // line-aligned byte offset
  output logic [Cores-1:0]                rsp_valid_o,
  output logic [LineBytes*8-1:0]          rsp_rdata_o   // for the core whose rsp_valid_o is set
);

  localparam int unsigned Entries = wf_soc_pkg::ParamRamBytes / LineBytes;
  localparam int unsigned EntryBits = $clog2(Entries);
  localparam int unsigned LineShift = $clog2(LineBytes);
  localparam int unsigned CoreBits = Cores > 1 ? $clog2(Cores) : 1;
  localparam int unsigned BlocksPerLine = LineBytes / 64;

  if (LineBytes != 64 && LineBytes != 128) begin : gen_bad_line
    $fatal(1, "wf_param_ram: lines of 64 or 128 bytes");
  end

  logic [LineBytes*8-1:0] mem_q [Entries];

  // Writes: the 64-byte block's place in its line.
  logic [EntryBits-1:0] wentry;
  logic [LineBytes*8-1:0] wline;
  logic [LineBytes-1:0]   wbytes;
  logic [LineBytes*8-1:0] wmerged;
  always_comb begin
    wentry = waddr_i[LineShift +: EntryBits];
    wline = '0;
    wbytes = '0;
    for (int unsigned p = 0; p < BlocksPerLine; p++) begin
      if (BlocksPerLine == 1 || 32'(waddr_i[6]) == p) begin
        wline[512*p +: 512] = wdata_i;
        wbytes[64*p +: 64] = wmask_i;
      end
    end
  end

  // Byte enables: the written bytes merged into the entry's line.
  always_comb begin
    wmerged = mem_q[wentry];
    for (int unsigned b = 0; b < LineBytes; b++) begin
      if (wbytes[b]) wmerged[8*b +: 8] = wline[8*b +: 8];
    end
  end

  always_ff @(posedge clk_i) begin
    if (we_i) mem_q[wentry] <= wmerged;
  end

  // Reads.
  logic [CoreBits-1:0] last_d, last_q, pick;
  logic                pick_any;
  logic [Cores-1:0]    rsp_valid_d, rsp_valid_q;
  logic [EntryBits-1:0] rentry;
  logic [LineBytes*8-1:0] rdata_q;

  always_comb begin
    pick_any = 1'b0;
    pick = '0;
    for (int unsigned k = 1; k <= Cores; k++) begin
      logic [CoreBits-1:0] c;
      c = CoreBits'((32'(last_q) + k) % Cores);
      if (!pick_any && req_valid_i[c]) begin
        pick_any = 1'b1;
        pick = c;
      end
    end
    req_ready_o = '0;
    rsp_valid_d = '0;
    last_d = last_q;
    if (pick_any) begin
      req_ready_o[pick] = 1'b1;
      rsp_valid_d[pick] = 1'b1;
      last_d = pick;
    end
    rentry = req_addr_i[pick][LineShift +: EntryBits];
  end

  always_ff @(posedge clk_i) begin
    rdata_q <= mem_q[rentry];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_q <= CoreBits'(Cores - 1);
      rsp_valid_q <= '0;
    end else begin
      last_q <= last_d;
      rsp_valid_q <= rsp_valid_d;
    end
  end

  assign rsp_valid_o = rsp_valid_q;

  // Offsets beyond the RAM wrap (the command processor checks param_size); the low bits of a
  // line-aligned offset are zero.
  logic unused_addr;
  assign unused_addr = ^{waddr_i, req_addr_i};
  assign rsp_rdata_o = rdata_q;

endmodule
