// Fetch and the instruction cache (docs/microarchitecture.md, "Fetch and the instruction cache"):
// F1 picks a warp and reads the I-cache tag and data RAMs, F2 compares the tags, DE decodes
// (wf_decode) into the record written to the warp's instruction buffer at the end of DE.
//
// Per warp slot: fetch_pc (an instruction index: byte offset / 8 in the code segment), the
// fetch-stop bit and the miss-wait bit. A warp may fetch in cycle t when it has a group, neither
// bit is set, it has no fetch in F2, and its buffered instructions plus its fetches in F2 and DE
// are fewer than Depth; of those F1 takes the first after the warp that fetched last (round robin
// over slots). F2: a hit sends the word to DE and sets the fetch-stop bit for a fetch-stop opcode
// (isa.toml's fetch_stop); a miss drops the word, sets fetch_pc back and the miss-wait bit, and
// requests the line when no miss is outstanding (one at a time). A fill writes the line in the
// cycle its response arrives and clears every miss-wait bit; an F2 miss in that same cycle does
// not set its bit (its warp refetches from the next cycle). A pc at or past code_size does not
// access the cache: F2 passes an illegal-fetch marker to DE and stops the warp's fetch.
// redirect_i (from the CTRL unit or block admission) writes a warp's fetch_pc and clears its
// fetch-stop bit; launch_start_i invalidates the cache and clears every warp's state.
//
// Limit of this version: an I-cache line is one memory-port line (IcLineBytes == LineBytes).
module wf_fetch #(
  parameter int unsigned Warps       = wf_config_pkg::ConfigDefaultWarpsPerCore,
  parameter int unsigned Depth       = wf_config_pkg::ConfigDefaultIbufferDepth,
  parameter int unsigned IcBytes     = wf_config_pkg::ConfigDefaultIcacheBytes,
  parameter int unsigned IcLineBytes = wf_config_pkg::ConfigDefaultIcacheLineBytes,
  parameter int unsigned IcWays      = wf_config_pkg::ConfigDefaultIcacheWays,
  parameter int unsigned LineBytes   = wf_config_pkg::ConfigDefaultCacheLineBytes,
  localparam int unsigned WarpBits   = Warps > 1 ? $clog2(Warps) : 1,
  localparam int unsigned CountBits  = $clog2(Depth + 1),
  localparam int unsigned PcBits     = wf_core_pkg::PcBits,
  localparam int unsigned Words      = IcLineBytes / 8,
  localparam int unsigned WordBits   = $clog2(Words),
  localparam int unsigned Sets       = IcBytes / IcLineBytes / IcWays,
  localparam int unsigned SetBits    = Sets > 1 ? $clog2(Sets) : 1,
  localparam int unsigned WayBits    = $clog2(IcWays),
  localparam int unsigned LineAddrBits = PcBits - WordBits
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,

  input  logic                                launch_start_i,
  input  logic [63:0]                         code_base_i,
  input  logic [31:0]                         code_size_i,

  input  wf_core_pkg::fetch_redirect_t        redirect_i,
  input  logic [Warps-1:0]                    has_group_i,
  input  logic [Warps-1:0][CountBits-1:0]     ibuf_count_i,

  // DE: the record for the warp's instruction buffer (written at the end of this cycle).
  output logic                                de_valid_o,
  output logic [WarpBits-1:0]                 de_warp_o,
  output logic [PcBits-1:0]                   de_pc_o,
  output wf_core_pkg::dec_inst_t              de_inst_o,

  // Line requests for misses (device address of the line) and their responses.
  output logic                                ic_req_valid_o,
  input  logic                                ic_req_ready_i,
  output logic [63:0]                         ic_req_addr_o,
  input  logic                                ic_rsp_valid_i,
  input  logic [LineBytes*8-1:0]              ic_rsp_data_i
);

  if (IcLineBytes != LineBytes) begin : gen_bad_line
    $error("wf_fetch: an I-cache line must be one memory-port line");
  end

  // ---------------------------------------------------------------------------------------------
  // State
  logic [Warps-1:0][PcBits-1:0] pc_d, pc_q;
  logic [Warps-1:0]             stop_d, stop_q;
  logic [Warps-1:0]             wait_d, wait_q;
  logic [Warps-1:0]             after_d, after_q;   // round-robin window: slots after the last

  logic                         f2_valid_d, f2_valid_q;
  logic [WarpBits-1:0]          f2_warp_d, f2_warp_q;
  logic [PcBits-1:0]            f2_pc_d, f2_pc_q;
  logic                         f2_bad_d, f2_bad_q;

  logic                         de_valid_d, de_valid_q;
  logic [WarpBits-1:0]          de_warp_d, de_warp_q;
  logic [PcBits-1:0]            de_pc_d, de_pc_q;
  logic                         de_bad_d, de_bad_q;
  logic [63:0]                  de_word_d, de_word_q;

  logic                         miss_d, miss_q;         // a miss outstanding
  logic                         miss_sent_d, miss_sent_q;
  logic                         miss_stale_d, miss_stale_q;  // from before a launch start
  logic [LineAddrBits-1:0]      miss_line_d, miss_line_q;

  function automatic logic [Warps-1:0] lowest_one(logic [Warps-1:0] v);
    lowest_one = v & (~v + Warps'(1));
  endfunction

  function automatic logic [WarpBits-1:0] onehot_index(logic [Warps-1:0] v);
    onehot_index = '0;
    for (int unsigned w = 0; w < Warps; w++) begin
      if (v[w]) onehot_index = onehot_index | WarpBits'(w);
    end
  endfunction

  function automatic logic [Warps-1:0] above_onehot(logic [Warps-1:0] v);
    above_onehot = '0;
    for (int unsigned w = 1; w < Warps; w++) begin
      above_onehot[w] = above_onehot[w-1] | v[w-1];
    end
  endfunction

  // ---------------------------------------------------------------------------------------------
  // F1: pick a warp.
  logic [Warps-1:0]    can_fetch, pick;
  logic                f1_valid;
  logic [WarpBits-1:0] f1_warp;
  logic [PcBits-1:0]   f1_pc;
  logic                f1_bad;

  always_comb begin
    for (int unsigned w = 0; w < Warps; w++) begin
      logic [CountBits:0] used;
      used = {1'b0, ibuf_count_i[w]}
           + (CountBits+1)'(f2_valid_q && f2_warp_q == WarpBits'(w))
           + (CountBits+1)'(de_valid_q && de_warp_q == WarpBits'(w));
      can_fetch[w] = has_group_i[w] && !stop_q[w] && !wait_q[w] &&
                     !(f2_valid_q && f2_warp_q == WarpBits'(w)) && used < (CountBits+1)'(Depth);
    end
    pick = |(can_fetch & after_q) ? lowest_one(can_fetch & after_q) : lowest_one(can_fetch);
    f1_valid = |pick && !launch_start_i;
    f1_warp  = onehot_index(pick);
    f1_pc    = '0;
    for (int unsigned w = 0; w < Warps; w++) begin
      if (pick[w]) f1_pc = f1_pc | pc_q[w];
    end
    // Outside the code segment (byte offset pc * 8 at or past code_size).
    f1_bad = {f1_pc, 3'b000} >= code_size_i;
  end

  // ---------------------------------------------------------------------------------------------
  // The I-cache: tags (hls/cache_tags.h's rule) and data (one 64-bit word of every way read in F1).
  logic                    tag_hit;
  logic [WayBits-1:0]      tag_way, fill_way;
  logic                    tag_result_valid;
  logic                    fill;

  assign fill = ic_rsp_valid_i && miss_q && !miss_stale_q;

  wf_cache_tags #(
    .Sets         (Sets),
    .Ways         (IcWays),
    .LineAddrBits (LineAddrBits)
  ) u_tags (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .lookup_valid_i (f1_valid && !f1_bad),
    .lookup_line_i  (f1_pc[PcBits-1:WordBits]),
    .result_valid_o (tag_result_valid),
    .result_hit_o   (tag_hit),
    .result_way_o   (tag_way),
    .fill_valid_i   (fill),
    .fill_line_i    (miss_line_q),
    .fill_way_o     (fill_way),
    .invalidate_i   (launch_start_i)
  );

  logic unused_tag_result_valid;
  assign unused_tag_result_valid = tag_result_valid;

  logic [IcWays-1:0][63:0] data_mem [Sets * Words];
  logic [IcWays-1:0][63:0] f2_words_q;
  logic [SetBits-1:0]      f1_set, fill_set;

  assign f1_set   = Sets > 1 ? SetBits'(f1_pc[WordBits +: SetBits]) : '0;
  assign fill_set = Sets > 1 ? SetBits'(miss_line_q[0 +: SetBits]) : '0;

  always_ff @(posedge clk_i) begin
    if (fill) begin
      for (int unsigned k = 0; k < Words; k++) begin
        data_mem[{fill_set, WordBits'(k)}][fill_way] <= ic_rsp_data_i[64*k +: 64];
      end
    end
    f2_words_q <= data_mem[{f1_set, f1_pc[WordBits-1:0]}];
  end

  // ---------------------------------------------------------------------------------------------
  // F2: hit, miss or marker.
  logic        f2_hit, f2_miss, f2_deliver;
  logic [63:0] f2_word;

  always_comb begin
    f2_word = '0;
    for (int unsigned w = 0; w < IcWays; w++) begin
      if (tag_way == WayBits'(w)) f2_word = f2_words_q[w];
    end
  end
  assign f2_hit     = f2_valid_q && !f2_bad_q && tag_hit;
  assign f2_miss    = f2_valid_q && !f2_bad_q && !tag_hit;
  assign f2_deliver = f2_valid_q && (f2_bad_q || tag_hit);

  // ---------------------------------------------------------------------------------------------
  // Next state.
  always_comb begin
    pc_d         = pc_q;
    stop_d       = stop_q;
    wait_d       = wait_q;
    after_d      = after_q;
    miss_d       = miss_q;
    miss_sent_d  = miss_sent_q;
    miss_stale_d = miss_stale_q;
    miss_line_d  = miss_line_q;

    // F1: advance the picked warp's pc.
    if (f1_valid) begin
      pc_d[f1_warp] = f1_pc + PcBits'(1);
      after_d       = above_onehot(pick);
    end
    // F2.
    if (f2_hit && wf_isa_pkg::op_fetch_stop(f2_word[7:0])) stop_d[f2_warp_q] = 1'b1;
    if (f2_valid_q && f2_bad_q) stop_d[f2_warp_q] = 1'b1;
    // The fill: the line is in; every waiting warp may fetch again.
    if (ic_rsp_valid_i && miss_q) begin
      miss_d       = 1'b0;
      miss_sent_d  = 1'b0;
      miss_stale_d = 1'b0;
      wait_d       = '0;
    end
    if (ic_req_valid_o && ic_req_ready_i) miss_sent_d = 1'b1;
    if (f2_miss) begin
      pc_d[f2_warp_q] = f2_pc_q;
      if (!miss_q) begin
        miss_d      = 1'b1;
        miss_sent_d = 1'b0;
        miss_line_d = f2_pc_q[PcBits-1:WordBits];
        wait_d[f2_warp_q] = 1'b1;
      end else if (!(ic_rsp_valid_i && miss_q)) begin
        wait_d[f2_warp_q] = 1'b1;
      end
    end
    // Redirects (CTRL unit, admission) after the pipeline's own updates: a redirected warp has
    // no fetch in flight (it was stopped).
    if (redirect_i.valid) begin
      pc_d[redirect_i.warp[WarpBits-1:0]]   = redirect_i.pc;
      stop_d[redirect_i.warp[WarpBits-1:0]] = 1'b0;
    end
    if (launch_start_i) begin
      stop_d       = '0;
      wait_d       = '0;
      miss_stale_d = miss_d;
    end
  end

  assign ic_req_valid_o = miss_q && !miss_sent_q && !miss_stale_q;
  assign ic_req_addr_o  = code_base_i + {{(64-LineAddrBits-WordBits-3){1'b0}}, miss_line_q,
                                         {(WordBits+3){1'b0}}};

  assign f2_valid_d = f1_valid;
  assign f2_warp_d  = f1_warp;
  assign f2_pc_d    = f1_pc;
  assign f2_bad_d   = f1_bad;

  assign de_valid_d = f2_deliver && !launch_start_i;
  assign de_warp_d  = f2_warp_q;
  assign de_pc_d    = f2_pc_q;
  assign de_bad_d   = f2_bad_q;
  assign de_word_d  = f2_bad_q ? 64'd0 : f2_word;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pc_q         <= '0;
      stop_q       <= '0;
      wait_q       <= '0;
      after_q      <= '0;
      f2_valid_q   <= 1'b0;
      de_valid_q   <= 1'b0;
      miss_q       <= 1'b0;
      miss_sent_q  <= 1'b0;
      miss_stale_q <= 1'b0;
    end else begin
      pc_q         <= pc_d;
      stop_q       <= stop_d;
      wait_q       <= wait_d;
      after_q      <= after_d;
      f2_valid_q   <= f2_valid_d;
      de_valid_q   <= de_valid_d;
      miss_q       <= miss_d;
      miss_sent_q  <= miss_sent_d;
      miss_stale_q <= miss_stale_d;
    end
  end

  always_ff @(posedge clk_i) begin
    f2_warp_q   <= f2_warp_d;
    f2_pc_q     <= f2_pc_d;
    f2_bad_q    <= f2_bad_d;
    de_warp_q   <= de_warp_d;
    de_pc_q     <= de_pc_d;
    de_bad_q    <= de_bad_d;
    de_word_q   <= de_word_d;
    miss_line_q <= miss_line_d;
  end

  // ---------------------------------------------------------------------------------------------
  // DE.
  wf_decode u_decode (
    .inst_i      (de_word_q),
    .fetch_bad_i (de_bad_q),
    .dec_o       (de_inst_o)
  );

  assign de_valid_o = de_valid_q;
  assign de_warp_o  = de_warp_q;
  assign de_pc_o    = de_pc_q;

endmodule
