// Tag array of a set-associative cache with tree pseudo-LRU replacement
// (docs/microarchitecture.md, "Fetch and the instruction cache"). The reference is
// hls/cache_tags.h (CacheTags); tests/rtl/tb_cache_tags.cpp compares the two cycle by cycle.
//
// A line address maps to set line % Sets and tag line / Sets. Timing:
//   - a lookup in cycle t reads the set's tags (a RAM, registered read) and valid bits as they
//     are at the start of t; hit and way come out in t + 1 (F1 reads, F2 compares);
//   - a hit in t + 1 marks its way most recently used at the end of t + 1;
//   - a fill in t takes the set's victim (fill_way_o, combinational: the lowest invalid way, else
//     the tree's pick) and installs the line at the end of t, marked most recently used after any
//     hit update of the same cycle;
//   - invalidate_i clears every valid and tree bit at the end of the cycle, instead of that
//     cycle's hit update and fill.
// Tree pseudo-LRU: Ways - 1 bits a set, node 1 the root, node n's children 2n and 2n + 1, leaves
// Ways .. 2 Ways - 1; a bit points to the half holding the victim (0: the lower half).
module wf_cache_tags #(
  parameter int unsigned Sets         = 64,
  parameter int unsigned Ways         = 4,   // a power of two, at least 2
  parameter int unsigned LineAddrBits = 32,
  localparam int unsigned SetBits = Sets > 1 ? $clog2(Sets) : 1,
  localparam int unsigned WayBits = $clog2(Ways),
  localparam int unsigned TagBits = LineAddrBits - $clog2(Sets)
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,

  input  logic                    lookup_valid_i,
  input  logic [LineAddrBits-1:0] lookup_line_i,
  output logic                    result_valid_o,   // the lookup of the previous cycle
  output logic                    result_hit_o,
  output logic [WayBits-1:0]      result_way_o,

  input  logic                    fill_valid_i,
  input  logic [LineAddrBits-1:0] fill_line_i,
  output logic [WayBits-1:0]      fill_way_o,

  input  logic                    invalidate_i
);

  if (Ways < 2 || (Ways & (Ways - 1)) != 0) begin : gen_bad_ways
    $error("wf_cache_tags: Ways must be a power of two, at least 2");
  end
  if ((Sets & (Sets - 1)) != 0) begin : gen_bad_sets
    $error("wf_cache_tags: Sets must be a power of two");
  end

  function automatic logic [TagBits-1:0] tag_of(logic [LineAddrBits-1:0] line);
    tag_of = TagBits'(line >> $clog2(Sets));
  endfunction

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

  // State: valid and tree bits in flip-flops (one-cycle invalidate); tags in a RAM.
  logic [Sets-1:0][Ways-1:0] valid_d, valid_q;
  logic [Sets-1:0][Ways-1:1] tree_d, tree_q;
  logic [Ways-1:0][TagBits-1:0] tag_mem [Sets];

  // F1 -> F2 registers: the lookup, its set's tags (the RAM's output register) and valid bits.
  logic                         look_valid_d, look_valid_q;
  logic [SetBits-1:0]           look_set_d, look_set_q;
  logic [TagBits-1:0]           look_tag_d, look_tag_q;
  logic [Ways-1:0]              look_vbits_d, look_vbits_q;
  logic [Ways-1:0][TagBits-1:0] look_tags_q;

  assign look_valid_d = lookup_valid_i;
  assign look_set_d   = Sets > 1 ? lookup_line_i[SetBits-1:0] : '0;
  assign look_tag_d   = tag_of(lookup_line_i);
  assign look_vbits_d = valid_q[look_set_d];

  // F2: compare (the lowest matching way; a set never holds a line twice when fills follow
  // misses).
  always_comb begin
    result_hit_o = 1'b0;
    result_way_o = '0;
    for (int w = int'(Ways) - 1; w >= 0; w--) begin
      if (look_vbits_q[w] && look_tags_q[w] == look_tag_q) begin
        result_hit_o = 1'b1;
        result_way_o = WayBits'(w);
      end
    end
  end
  assign result_valid_o = look_valid_q;

  // Fill victim: the lowest invalid way, else walk the tree.
  logic [SetBits-1:0] fill_set;
  assign fill_set = Sets > 1 ? fill_line_i[SetBits-1:0] : '0;

  always_comb begin
    int unsigned node;
    logic        any_invalid;
    any_invalid = 1'b0;
    fill_way_o  = '0;
    node        = 1;
    for (int w = int'(Ways) - 1; w >= 0; w--) begin
      if (!valid_q[fill_set][w]) begin
        any_invalid = 1'b1;
        fill_way_o  = WayBits'(w);
      end
    end
    if (!any_invalid) begin
      for (int unsigned l = 0; l < WayBits; l++) begin
        node = 2 * node + int'(tree_q[fill_set][node]);
      end
      fill_way_o = WayBits'(node - Ways);
    end
  end

  // Next state: the hit update, then the fill; or the invalidate.
  always_comb begin
    valid_d = valid_q;
    tree_d  = tree_q;
    if (invalidate_i) begin
      valid_d = '0;
      tree_d  = '0;
    end else begin
      if (look_valid_q && result_hit_o) begin
        tree_d[look_set_q] = touched(tree_d[look_set_q], result_way_o);
      end
      if (fill_valid_i) begin
        valid_d[fill_set][fill_way_o] = 1'b1;
        tree_d[fill_set] = touched(tree_d[fill_set], fill_way_o);
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q      <= '0;
      tree_q       <= '0;
      look_valid_q <= 1'b0;
    end else begin
      valid_q      <= valid_d;
      tree_q       <= tree_d;
      look_valid_q <= look_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    look_set_q   <= look_set_d;
    look_tag_q   <= look_tag_d;
    look_vbits_q <= look_vbits_d;
  end

  // The tag RAM: one write port (fills; invalid ways are never compared, so an invalidate needs
  // no write), one registered read port (lookups), read-first.
  always_ff @(posedge clk_i) begin
    if (fill_valid_i && !invalidate_i) begin
      tag_mem[fill_set][fill_way_o] <= tag_of(fill_line_i);
    end
    look_tags_q <= tag_mem[look_set_d];
  end

endmodule
