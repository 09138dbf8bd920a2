// One L2 bank (docs/microarchitecture.md, "L2 and global atomics"): Sets x Ways lines of LineBytes,
// tree pseudo-LRU (the rule of hls/cache_tags.h, as the I-cache's wf_cache_tags), write-back with a
// dirty bit a line, write-allocate (a write of a whole line allocates without reading DRAM).
// Reads hit in the data array; a write or an atomic modifies the line in the array and marks it
// dirty; a miss evicts the victim (written to DRAM first when dirty) and reads the line from DRAM.
//
// This version is blocking: one request at a time, no MSHRs (a miss stalls the bank until DRAM
// has answered). Per request: tag read (t), compare and data read (t + 1), the line (t + 2), the
// modification and its write (t + 3), the response (t + 4); a miss adds the write-back of a dirty
// victim and the fill between the compare and the data. flush_i (held until flush_done_o) writes
// every dirty line back to DRAM and clears its dirty bit, in set and way order, between requests:
// after it DRAM holds everything written through the bank (the command processor's FENCE).
//
// Replacement, as hls::CacheTags: a hit marks its way most recently used; a fill takes the lowest
// invalid way, else the way the tree points to, and marks it most recently used.
module wf_l2_bank #(
  parameter int unsigned LineBytes = 64,
  parameter int unsigned SrcBits = 1,
  parameter int unsigned Sets = 256,   // a power of two, at least 2
  parameter int unsigned Ways = 4,     // a power of two, at least 2
  // Bank index and count: a bank holds the lines with line index mod Banks == its index, so the
  // set index comes from the line index / Banks.
  parameter int unsigned Banks = 1,
  parameter int unsigned BankIndex = 0,
  localparam int unsigned SetBits = Sets > 1 ? $clog2(Sets) : 1,
  localparam int unsigned WayBits = $clog2(Ways),
  localparam int unsigned LineAddrBits = wf_soc_pkg::MemOffsetBits - $clog2(LineBytes),
  localparam int unsigned TagBits = LineAddrBits - $clog2(Banks) - $clog2(Sets)
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

  // Write every dirty line back (held high until flush_done_o, one cycle).
  input  logic                  flush_i,
  output logic                  flush_done_o,

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
  localparam int unsigned BankBits = $clog2(Banks);
  localparam int unsigned LineBits = LineBytes * 8;

  if (Ways < 2 || (Ways & (Ways - 1)) != 0 || Sets < 2 || (Sets & (Sets - 1)) != 0 ||
      (Banks & (Banks - 1)) != 0) begin : gen_bad_params
    $error("wf_l2_bank: Sets, Ways and Banks must be powers of two, Ways at least 2");
  end

  typedef enum logic [3:0] {
    SIdle, STag, SData, SApply, SEvictRead, SEvict, SEvictWait, SFill, SFillWait, SRespond,
    SFlushTag, SFlushScan, SFlushRead, SFlush, SFlushWait
  } state_e;

  // The tree after using `way`: every node on its path points to the other half.
  function automatic logic [Ways-1:1] touched(logic [Ways-1:1] tree, logic [WayBits-1:0] way);
    int unsigned node;
    touched = tree;
    node    = int'(way) + Ways;
    for (int unsigned l = 0; l < WayBits; l++) begin
      touched[node >> 1] = !node[0];
      node = node >> 1;
    end
  endfunction

  // ---------------------------------------------------------------------------------------------
  // State.
  state_e                     state_d, state_q;
  wf_soc_pkg::mem_req_t       req_d, req_q;
  logic [SrcBits-1:0]         src_d, src_q;
  logic [LineBits-1:0]        line_d, line_q;      // the line being worked on
  logic [63:0]                old_d, old_q;        // an atomic's old value
  logic [WayBits-1:0]         way_d, way_q;        // the request's way (hit or filled)
  logic [SetBits-1:0]         fset_d, fset_q;      // the flush walk's set
  logic [Sets-1:0][Ways-1:0]  valid_d, valid_q, dirty_d, dirty_q;
  logic [Sets-1:0][Ways-1:1]  tree_d, tree_q;

  // Tag RAM (a set's ways in one word) and data RAM (one line a word, {set, way}); registered
  // reads, one write port each.
  logic [Ways-1:0][TagBits-1:0] tag_mem [Sets];
  logic [LineBits-1:0]          data_mem [Sets * Ways];
  logic                         tag_re, tag_we, data_re, data_we;
  logic [SetBits-1:0]           tag_raddr, tag_waddr;
  logic [WayBits-1:0]           tag_wway;
  logic [TagBits-1:0]           tag_wdata;
  logic [SetBits+WayBits-1:0]   data_raddr, data_waddr;
  logic [LineBits-1:0]          data_wdata, data_rdata_q;
  logic [Ways-1:0][TagBits-1:0] tags_q;

  always_ff @(posedge clk_i) begin
    if (tag_we) tag_mem[tag_waddr][tag_wway] <= tag_wdata;
    if (tag_re) tags_q <= tag_mem[tag_raddr];
  end

  always_ff @(posedge clk_i) begin
    if (data_we) data_mem[data_waddr] <= data_wdata;
    if (data_re) data_rdata_q <= data_mem[data_raddr];
  end

  // ---------------------------------------------------------------------------------------------
  // The request's line: set and tag.
  logic [LineAddrBits-1:0] req_line, in_line;
  logic [SetBits-1:0]      set, in_set;
  logic [TagBits-1:0]      tag;
  assign req_line = LineAddrBits'((req_q.addr - wf_config_pkg::GlobalBase) >> OffBits);
  assign in_line  = LineAddrBits'((req_i.addr - wf_config_pkg::GlobalBase) >> OffBits);
  assign set      = Sets > 1 ? SetBits'(req_line >> BankBits) : '0;
  assign in_set   = Sets > 1 ? SetBits'(in_line >> BankBits) : '0;
  assign tag      = TagBits'(req_line >> (BankBits + $clog2(Sets)));

  // The device-memory byte offset of line `t` of set `s` in this bank.
  function automatic logic [63:0] line_offset(logic [TagBits-1:0] t, logic [SetBits-1:0] s);
    logic [LineAddrBits-1:0] l;
    l = LineAddrBits'({t, s}) << BankBits | LineAddrBits'(BankIndex);
    line_offset = 64'(l) << OffBits;
  endfunction

  // Compare (STag): hit and way; the victim: the lowest invalid way, else the tree's pick.
  logic               hit;
  logic [WayBits-1:0] hit_way, victim;
  always_comb begin
    int unsigned node;
    logic        any_invalid;
    hit = 1'b0;
    hit_way = '0;
    for (int w = int'(Ways) - 1; w >= 0; w--) begin
      if (valid_q[set][w] && tags_q[w] == tag) begin
        hit = 1'b1;
        hit_way = WayBits'(w);
      end
    end
    any_invalid = 1'b0;
    victim = '0;
    for (int w = int'(Ways) - 1; w >= 0; w--) begin
      if (!valid_q[set][w]) begin
        any_invalid = 1'b1;
        victim = WayBits'(w);
      end
    end
    node = 1;
    if (!any_invalid) begin
      for (int unsigned l = 0; l < WayBits; l++) node = 2 * node + int'(tree_q[set][node]);
      victim = WayBits'(node - Ways);
    end
  end

  // The flush walk: the lowest dirty way of the set.
  logic               flush_any;
  logic [WayBits-1:0] flush_way;
  always_comb begin
    flush_any = 1'b0;
    flush_way = '0;
    for (int w = int'(Ways) - 1; w >= 0; w--) begin
      if (dirty_q[fset_q][w]) begin
        flush_any = 1'b1;
        flush_way = WayBits'(w);
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // The modification (SApply): a write's bytes, or an atomic's operand, in line_q.
  logic [OffBits-1:0]   off;
  logic                 wide, supported;
  logic [63:0]          old_val, new_val;
  logic [LineBits-1:0]  merged;
  logic                 full_write;

  assign off  = req_q.addr[OffBits-1:0];
  assign wide = req_q.atom_ty == wf_isa_pkg::ATOM_TYPE_U64 ||
                req_q.atom_ty == wf_isa_pkg::ATOM_TYPE_S64 ||
                req_q.atom_ty == wf_isa_pkg::ATOM_TYPE_F64;
  assign full_write = req_q.kind == wf_soc_pkg::MEM_WRITE && &req_q.wmask[LineBytes-1:0];

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
    merged = line_q;
    if (req_q.kind == wf_soc_pkg::MEM_ATOMIC) begin
      for (int unsigned i = 0; i < 8; i++) begin
        if ((wide || i < 4) && supported) begin
          merged[8*((32'(off) + i) % LineBytes) +: 8] = new_val[8*i +: 8];
        end
      end
    end else begin
      for (int unsigned b = 0; b < LineBytes; b++) begin
        if (req_q.wmask[b]) merged[8*b +: 8] = req_q.wdata[8*b +: 8];
      end
    end
  end

  // ---------------------------------------------------------------------------------------------
  // Control.
  always_comb begin
    state_d = state_q;
    req_d   = req_q;
    src_d   = src_q;
    line_d  = line_q;
    old_d   = old_q;
    way_d   = way_q;
    fset_d  = fset_q;
    valid_d = valid_q;
    dirty_d = dirty_q;
    tree_d  = tree_q;

    tag_re     = 1'b0;
    tag_raddr  = set;
    tag_we     = 1'b0;
    tag_waddr  = set;
    tag_wway   = way_q;
    tag_wdata  = tag;
    data_re    = 1'b0;
    data_raddr = {set, hit_way};
    data_we    = 1'b0;
    data_waddr = {set, way_q};
    data_wdata = merged;

    req_ready_o  = 1'b0;
    flush_done_o = 1'b0;
    dram_req_valid_o = 1'b0;
    dram_req_write_o = 1'b0;
    dram_req_addr_o  = line_offset(tag, set);
    dram_req_wdata_o = line_q;
    dram_req_wstrb_o = '1;

    unique case (state_q)
      SIdle: begin
        if (flush_i) begin
          fset_d  = '0;
          state_d = SFlushTag;
        end else begin
          req_ready_o = 1'b1;
          if (req_valid_i) begin
            req_d     = req_i;
            src_d     = req_src_i;
            tag_re    = 1'b1;
            tag_raddr = in_set;
            state_d   = STag;
          end
        end
      end
      STag: begin
        if (hit) begin
          way_d   = hit_way;
          data_re = 1'b1;
          tree_d[set] = touched(tree_q[set], hit_way);
          state_d = SData;
        end else begin
          way_d = victim;
          if (valid_q[set][victim] && dirty_q[set][victim]) begin
            data_re    = 1'b1;
            data_raddr = {set, victim};
            state_d    = SEvictRead;
          end else begin
            state_d = SFill;
          end
        end
      end
      SEvictRead: state_d = SEvict;   // the victim's data arrives
      SEvict: begin
        dram_req_valid_o = 1'b1;
        dram_req_write_o = 1'b1;
        dram_req_addr_o  = line_offset(tags_q[way_q], set);
        dram_req_wdata_o = data_rdata_q;
        if (dram_req_ready_i) state_d = SEvictWait;
      end
      SEvictWait: begin
        if (dram_rsp_valid_i) begin
          dirty_d[set][way_q] = 1'b0;
          state_d = SFill;
        end
      end
      SFill: begin
        // A whole-line write allocates without reading DRAM.
        if (full_write) begin
          line_d  = '0;
          state_d = SApply;
          valid_d[set][way_q] = 1'b1;
          tree_d[set] = touched(tree_q[set], way_q);
          tag_we  = 1'b1;
        end else begin
          dram_req_valid_o = 1'b1;
          if (dram_req_ready_i) state_d = SFillWait;
        end
      end
      SFillWait: begin
        if (dram_rsp_valid_i) begin
          line_d     = dram_rsp_rdata_i;
          data_we    = 1'b1;
          data_wdata = dram_rsp_rdata_i;
          tag_we     = 1'b1;
          valid_d[set][way_q] = 1'b1;
          dirty_d[set][way_q] = 1'b0;
          tree_d[set] = touched(tree_q[set], way_q);
          state_d = SApply;
        end
      end
      SData: begin
        line_d  = data_rdata_q;
        state_d = SApply;
      end
      SApply: begin
        if (req_q.kind != wf_soc_pkg::MEM_READ) begin
          data_we = 1'b1;
          line_d  = merged;
          dirty_d[set][way_q] = 1'b1;
        end
        if (req_q.kind == wf_soc_pkg::MEM_ATOMIC) old_d = old_val;
        state_d = SRespond;
      end
      SRespond: if (rsp_ready_i) state_d = SIdle;
      // Flush: per set, the tags, then each dirty way's line to DRAM.
      SFlushTag: begin
        tag_re    = 1'b1;
        tag_raddr = fset_q;
        state_d   = SFlushScan;
      end
      SFlushScan: begin
        if (flush_any) begin
          way_d      = flush_way;
          data_re    = 1'b1;
          data_raddr = {fset_q, flush_way};
          state_d    = SFlushRead;
        end else if (fset_q == SetBits'(Sets - 1)) begin
          flush_done_o = 1'b1;
          state_d = SIdle;
        end else begin
          fset_d  = fset_q + SetBits'(1);
          state_d = SFlushTag;
        end
      end
      SFlushRead: state_d = SFlush;
      SFlush: begin
        dram_req_valid_o = 1'b1;
        dram_req_write_o = 1'b1;
        dram_req_addr_o  = line_offset(tags_q[way_q], fset_q);
        dram_req_wdata_o = data_rdata_q;
        if (dram_req_ready_i) state_d = SFlushWait;
      end
      SFlushWait: begin
        if (dram_rsp_valid_i) begin
          dirty_d[fset_q][way_q] = 1'b0;
          state_d = SFlushScan;
        end
      end
      default: state_d = SIdle;
    endcase
  end

  always_comb begin
    rsp_valid_o = state_q == SRespond;
    rsp_o = '0;
    rsp_o.tag = req_q.tag;
    rsp_o.rdata[LineBits-1:0] = line_q;
    rsp_o.atom_old = old_q;
    rsp_src_o = src_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= SIdle;
      valid_q <= '0;
      dirty_q <= '0;
      tree_q  <= '0;
      fset_q  <= '0;
    end else begin
      state_q <= state_d;
      valid_q <= valid_d;
      dirty_q <= dirty_d;
      tree_q  <= tree_d;
      fset_q  <= fset_d;
    end
  end

  // Per-request fields and the line: no reset (the state guards them).
  always_ff @(posedge clk_i) begin
    req_q  <= req_d;
    src_q  <= src_d;
    line_q <= line_d;
    old_q  <= old_d;
    way_q  <= way_d;
  end

endmodule
