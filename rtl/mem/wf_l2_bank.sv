// One L2 bank. First version, without storage: every request goes to DRAM (a read, a masked
// write, or for an atomic a read, the modification in the bank with wf_l2_atomic and a write of
// the operand's bytes), one request at a time; the response follows the DRAM's answer. This keeps
// the bank the point of coherence and the order of requests to a line, and gives the command
// processor and the cores the port they will keep when the cache (tags, ways, pseudo-LRU,
// write-back, MSHRs: docs/microarchitecture.md, "L2 and global atomics") replaces it.
module wf_l2_bank #(
  parameter int unsigned LineBytes = 64,
  parameter int unsigned SrcBits = 1
) (
  input  logic clk_i,
  input  logic rst_ni,

  input  logic                  req_valid_i,
  output logic                  req_ready_o,
  input  wf_soc_pkg::mem_req_t  req_i,
  input  logic [SrcBits-1:0]    req_src_i,
  output logic                  rsp_valid_o,
  input  logic                  rsp_ready_i,
  output wf_soc_pkg::mem_rsp_t  rsp_o,
  output logic [SrcBits-1:0]    rsp_src_o,

  // To DRAM: byte offsets into device memory, one line (reads) or masked line (writes); one
  // request outstanding; a write is answered when it is done.
  output logic                   dram_req_valid_o,
  input  logic                   dram_req_ready_i,
  output logic                   dram_req_write_o,
  output logic [63:0]            dram_req_addr_o,
  output logic [LineBytes*8-1:0] dram_req_wdata_o,
  output logic [LineBytes-1:0]   dram_req_wstrb_o,
  input  logic                   dram_rsp_valid_i,
  input  logic [LineBytes*8-1:0] dram_rsp_rdata_i
);

  localparam int unsigned OffBits = $clog2(LineBytes);

  typedef enum logic [2:0] {
    BIdle, BRead, BReadWait, BWrite, BWriteWait, BRespond
  } state_e;

  state_e state_d, state_q;
  wf_soc_pkg::mem_req_t req_d, req_q;
  logic [SrcBits-1:0] src_d, src_q;
  logic [LineBytes*8-1:0] line_d, line_q;
  logic [63:0] old_d, old_q;

  // The atomic's operand in the line.
  logic [OffBits-1:0] off;
  logic               wide;
  logic [63:0]        old_val, new_val;
  logic               supported;
  logic [LineBytes*8-1:0] atom_wdata;
  logic [LineBytes-1:0]   atom_wstrb;

  assign off = req_q.addr[OffBits-1:0];
  assign wide = req_q.atom_ty == wf_isa_pkg::ATOM_TYPE_U64 ||
                req_q.atom_ty == wf_isa_pkg::ATOM_TYPE_S64 ||
                req_q.atom_ty == wf_isa_pkg::ATOM_TYPE_F64;

  always_comb begin
    old_val = '0;
    for (int unsigned i = 0; i < 8; i++) begin
      if (wide || i < 4) old_val[8*i +: 8] = line_q[8*((32'(off) + i) % LineBytes) +: 8];
    end
  end

  wf_l2_atomic u_atomic (
    .fn_i       (req_q.atom_fn),
    .ty_i       (req_q.atom_ty),
    .old_i      (old_val),
    .b_i        (req_q.atom_a),
    .c_i        (req_q.atom_b),
    .new_o      (new_val),
    .supported_o(supported)
  );

  always_comb begin
    atom_wdata = '0;
    atom_wstrb = '0;
    for (int unsigned i = 0; i < 8; i++) begin
      if (wide || i < 4) begin
        atom_wdata[8*((32'(off) + i) % LineBytes) +: 8] = new_val[8*i +: 8];
        atom_wstrb[(32'(off) + i) % LineBytes] = supported;
      end
    end
  end

  always_comb begin
    state_d = state_q;
    req_d = req_q;
    src_d = src_q;
    line_d = line_q;
    old_d = old_q;
    req_ready_o = state_q == BIdle;
    unique case (state_q)
      BIdle: begin
        if (req_valid_i) begin
          req_d = req_i;
          src_d = req_src_i;
          state_d = req_i.kind == wf_soc_pkg::MEM_WRITE ? BWrite : BRead;
        end
      end
      BRead: if (dram_req_ready_i) state_d = BReadWait;
      BReadWait: begin
        if (dram_rsp_valid_i) begin
          line_d = dram_rsp_rdata_i;
          state_d = req_q.kind == wf_soc_pkg::MEM_ATOMIC ? BWrite : BRespond;
        end
      end
      BWrite: begin
        if (req_q.kind == wf_soc_pkg::MEM_ATOMIC) old_d = old_val;
        if (dram_req_ready_i) state_d = BWriteWait;
      end
      BWriteWait: if (dram_rsp_valid_i) state_d = BRespond;
      BRespond: if (rsp_ready_i) state_d = BIdle;
      default: state_d = BIdle;
    endcase
  end

  always_comb begin
    dram_req_valid_o = state_q == BRead || state_q == BWrite;
    dram_req_write_o = state_q == BWrite;
    dram_req_addr_o = (req_q.addr - wf_config_pkg::GlobalBase) & ~(64'(LineBytes) - 64'd1);
    dram_req_wdata_o = req_q.kind == wf_soc_pkg::MEM_ATOMIC ? atom_wdata
                                                              : req_q.wdata[LineBytes*8-1:0];
    dram_req_wstrb_o = req_q.kind == wf_soc_pkg::MEM_ATOMIC ? atom_wstrb
                                                              : req_q.wmask[LineBytes-1:0];
    rsp_valid_o = state_q == BRespond;
    rsp_o = '0;
    rsp_o.tag = req_q.tag;
    rsp_o.rdata[LineBytes*8-1:0] = line_q;
    rsp_o.atom_old = old_q;
    rsp_src_o = src_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= BIdle;
      req_q <= '0;
      src_q <= '0;
      line_q <= '0;
      old_q <= '0;
    end else begin
      state_q <= state_d;
      req_q <= req_d;
      src_q <= src_d;
      line_q <= line_d;
      old_q <= old_d;
    end
  end

  logic unused_req;
  assign unused_req = ^{req_q.wdata, req_q.wmask};

endmodule
