// Types shared by the blocks of the SIMT core (docs/microarchitecture.md): the decoded-instruction
// record that the decode stage writes into the instruction buffers, the per-unit operation structs
// made from it, and the interfaces between issue, the operand collectors, dispatch, the CTRL unit
// and the LSU. Hand-written (these are the core's own structures, not ISA facts): every opcode,
// field position and role comes from the generated wf_isa_pkg.
//
// Index fields have one fixed width, enough for every named configuration of isa/config.toml
// (warps_per_core <= 64, operand_collectors <= 8, scoreboard_entries <= 8,
// max_blocks_per_core <= 32); wf_core checks its parameters against them at elaboration.
// Lane data is never part of a struct here (its width is the core's Lanes parameter): it travels
// on [Lanes-1:0][31:0] ports beside the struct.
//
// Yosys 0.55 note (rtl/README.md): no enum-typed fields whose labels are needed inside this
// package's functions; opcodes are kept as logic [7:0] and compared with wf_isa_pkg's constants
// (OpBssy, SpaceGlobal, ...: the enum values as plain localparams).
package wf_core_pkg;

  localparam int unsigned WarpIdBits  = 6;   // warp slot
  localparam int unsigned CollIdBits  = 3;   // operand collector
  localparam int unsigned SbEntryBits = 3;   // scoreboard entry
  localparam int unsigned BlockIdBits = 5;   // block slot
  localparam int unsigned PcBits      = 29;  // code offset / 8 (an instruction index)

  // ---------------------------------------------------------------------------------------------
  // The decoded record (an instruction-buffer entry). Made once, by wf_decode from wf_decoder's
  // outputs; nothing downstream reads the raw word again except through dec_word() below (the
  // arithmetic units still take it; see "Per-unit operation structs").

  // One register operand field: its number, whether the instruction reads / writes it, and how
  // many consecutive registers (1, 2 or 4; 0 when the field is not an operand).
  typedef struct packed {
    logic [7:0] num;
    logic       re;   // read (for rd: store data)
    logic       we;   // written (rd only; always 0 for ra/rb/rc)
    logic [2:0] cnt;
  } reg_opnd_t;       // 13 bits

  // One predicate source: present (not PT), number, negation.
  typedef struct packed {
    logic       re;
    logic [3:0] num;
    logic       neg;
  } pred_src_t;       // 6 bits

  typedef struct packed {
    logic        legal;       // a defined opcode (else ILLEGAL_INSTRUCTION at issue)
    logic        fetch_bad;   // the fetch marker: pc outside the code segment (also illegal)
    logic [7:0]  op;          // wf_isa_pkg::opcode_e
    logic [3:0]  unit;        // wf_isa_pkg::unit_e
    logic        format_i;    // format I: hi is the immediate
    logic        b_is_imm;    // the immediate is operand b (ALU/IMUL/FMA format I)
    logic        fetch_stop;  // wf_isa_pkg::op_fetch_stop: the warp's fetch stops after it
    // dispatch: the opcode's latency (wf_isa_pkg::op_latency, the decoder's latency_o) and its
    // unit's lane share (wf_isa_pkg::unit_lane_share), made once here so that dispatch and the
    // unit wrappers look nothing up
    logic [7:0]  lat;
    logic [2:0]  share;
    // guard
    logic [3:0]  pg;
    logic        pgn;
    logic        pg_always;   // @PT: no guard read
    // register operands
    reg_opnd_t   rd;
    reg_opnd_t   ra;
    reg_opnd_t   rb;
    reg_opnd_t   rc;
    // predicate operands
    logic        pd_we;
    logic [3:0]  pd;
    pred_src_t   pu0;
    pred_src_t   pu1;
    pred_src_t   pu2;
    // the remaining bits of the word: m0 (bits 15:13) and bits 63:32 (format I: the immediate;
    // format R: {mod, rc, rb})
    logic [2:0]  m0;
    logic [31:0] hi;
  } dec_inst_t;

  // $bits of a value, not of the type: Yosys 0.55 does not parse $bits(type).
  localparam dec_inst_t DecInstZero = '0;
  localparam int unsigned DecInstBits = $bits(DecInstZero);

  // The instruction word, rebuilt bit for bit from the record (for the units that still decode
  // their modifier fields from inst_i). Format R and I agree below bit 32.
  function automatic logic [wf_isa_pkg::InstBits-1:0] dec_word(dec_inst_t d);
    dec_word = {d.hi, d.ra.num, d.rd.num, d.m0, d.pgn, d.pg, d.op};
  endfunction

  // The format R modifier field (word bits 63:48).
  function automatic logic [15:0] dec_mod(dec_inst_t d);
    dec_mod = d.hi[31:16];
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Per-unit operation structs: what a unit needs besides its operands, decoded once from the
  // record (wf_isa_pkg field positions). The pipelined arithmetic units (ALU, BMU, IMUL, FMA,
  // CVT, FP64, FDIV, IDIV, SFU) still take the word (dec_word) and decode their own modifiers;
  // structs for them replace that as the execution wrappers move over.

  // CTRL unit: branches, convergence, barriers, warp operations.
  typedef struct packed {
    logic [7:0]  op;          // BRA BRX CALL CALLR RET EXIT BSSY BSYNC B2R R2B WARPSYNC BAR
                              // MEMBAR TRAP BPT NANOSLEEP VOTE SHFL MATCH REDUX
    logic [31:0] imm;         // format I: branch target / WARPSYNC mask / TRAP code / sleep
    logic [3:0]  breg;        // convergence barrier register (BSSY, BSYNC, B2R, R2B)
    logic [2:0]  fn;          // BAR op / VOTE op / SHFL mode / MATCH op / REDUX op
    logic [3:0]  bar_id;      // BAR immediate id (added to ra)
    logic        match_b64;   // MATCH .b64
    logic [1:0]  scope;       // MEMBAR scope
  } ctrl_op_t;

  function automatic ctrl_op_t ctrl_op(dec_inst_t d);
    logic [63:0] w;
    w = dec_word(d);
    ctrl_op           = '0;
    ctrl_op.op        = d.op;
    ctrl_op.imm       = d.format_i ? d.hi : 32'd0;
    ctrl_op.bar_id    = w[wf_isa_pkg::BarIdLo +: wf_isa_pkg::BarIdWidth];
    ctrl_op.scope     = w[wf_isa_pkg::MembarScopeLo +: wf_isa_pkg::MembarScopeWidth];
    ctrl_op.match_b64 = w[wf_isa_pkg::MatchTyLo];
    // Field positions differ per opcode; select by opcode.
    unique case (d.op)
      wf_isa_pkg::OpBssy: ctrl_op.breg = w[wf_isa_pkg::BssyBLo +: wf_isa_pkg::BssyBWidth];
      wf_isa_pkg::OpBsync: ctrl_op.breg = w[wf_isa_pkg::BsyncBLo +: wf_isa_pkg::BsyncBWidth];
      wf_isa_pkg::OpB2r: ctrl_op.breg = w[wf_isa_pkg::B2rBLo +: wf_isa_pkg::B2rBWidth];
      wf_isa_pkg::OpR2b: ctrl_op.breg = w[wf_isa_pkg::R2bBLo +: wf_isa_pkg::R2bBWidth];
      default: ctrl_op.breg = '0;
    endcase
    unique case (d.op)
      wf_isa_pkg::OpBar: ctrl_op.fn = w[wf_isa_pkg::BarFnLo +: wf_isa_pkg::BarFnWidth];
      wf_isa_pkg::OpVote: ctrl_op.fn = 3'(w[wf_isa_pkg::VoteFnLo +: wf_isa_pkg::VoteFnWidth]);
      wf_isa_pkg::OpShfl: ctrl_op.fn = 3'(w[wf_isa_pkg::ShflFnLo +: wf_isa_pkg::ShflFnWidth]);
      wf_isa_pkg::OpMatch: ctrl_op.fn = 3'(w[wf_isa_pkg::MatchFnLo +: wf_isa_pkg::MatchFnWidth]);
      wf_isa_pkg::OpRedux: ctrl_op.fn = w[wf_isa_pkg::ReduxFnLo +: wf_isa_pkg::ReduxFnWidth];
      default: ctrl_op.fn = '0;
    endcase
  endfunction

  // LSU: loads, stores, atomics (global, shared, local, const, param, generic).
  typedef struct packed {
    logic [7:0]  op;
    logic [1:0]  access;      // wf_isa_pkg::mem_access_e
    logic [2:0]  space;       // wf_isa_pkg::space_e of the opcode (generic: LD/ST, ATOM generic)
    logic        generic;     // 64-bit generic address (LD, ST, ATOM generic)
    logic        addr64;      // the address operand is a register pair (global and generic)
    logic [2:0]  size;        // wf_isa_pkg::memsize_e (loads and stores)
    logic [3:0]  atom_fn;     // wf_isa_pkg::atomop_e
    logic [2:0]  atom_ty;     // wf_isa_pkg::atomtype_e
    logic [31:0] offset;      // format I address offset (0 for format R)
  } lsu_op_t;

  function automatic lsu_op_t lsu_op(dec_inst_t d);
    logic [63:0] w;
    logic [1:0]  atom_space;
    w = dec_word(d);
    lsu_op         = '0;
    lsu_op.op      = d.op;
    lsu_op.access  = 2'(wf_isa_pkg::op_mem_access(wf_isa_pkg::opcode_e'(d.op)));
    lsu_op.size    = d.m0;   // every load/store keeps its size in m0 (LdgSizeLo .. StSizeLo = 13)
    lsu_op.offset  = d.format_i ? d.hi : 32'd0;
    lsu_op.atom_fn = w[wf_isa_pkg::AtomFnLo +: wf_isa_pkg::AtomFnWidth];
    lsu_op.atom_ty = w[wf_isa_pkg::AtomTyLo +: wf_isa_pkg::AtomTyWidth];
    atom_space     = w[wf_isa_pkg::AtomSpaceLo +: wf_isa_pkg::AtomSpaceWidth];
    unique case (d.op)
      wf_isa_pkg::OpLdg, wf_isa_pkg::OpStg: begin lsu_op.space = wf_isa_pkg::SpaceGlobal; lsu_op.addr64 = 1'b1; end
      wf_isa_pkg::OpLds, wf_isa_pkg::OpSts: lsu_op.space = wf_isa_pkg::SpaceShared;
      wf_isa_pkg::OpLdl, wf_isa_pkg::OpStl: lsu_op.space = wf_isa_pkg::SpaceLocal;
      wf_isa_pkg::OpLdc: lsu_op.space = wf_isa_pkg::SpaceConst;
      wf_isa_pkg::OpLdp: lsu_op.space = wf_isa_pkg::SpaceParam;
      wf_isa_pkg::OpLd, wf_isa_pkg::OpSt: begin lsu_op.generic = 1'b1; lsu_op.addr64 = 1'b1; end
      wf_isa_pkg::OpAtom: begin
        // the 64-bit types move 8 bytes, the others 4
        lsu_op.size    = (lsu_op.atom_ty == wf_isa_pkg::AtomTypeU64 || lsu_op.atom_ty == wf_isa_pkg::AtomTypeS64 ||
                          lsu_op.atom_ty == wf_isa_pkg::AtomTypeF64) ? 3'd5 : 3'd4;
        lsu_op.generic = atom_space == wf_isa_pkg::AtomSpaceGeneric;
        lsu_op.space   = atom_space == wf_isa_pkg::AtomSpaceShared ? wf_isa_pkg::SpaceShared : wf_isa_pkg::SpaceGlobal;
        lsu_op.addr64  = atom_space == wf_isa_pkg::AtomSpaceGeneric || atom_space == wf_isa_pkg::AtomSpaceGlobal;
      end
      default: ;
    endcase
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Issue -> operand collectors (one a cycle per issue slot).
  typedef struct packed {
    logic                   valid;
    logic [WarpIdBits-1:0]  warp;
    logic [CollIdBits-1:0]  coll;       // the collector it goes to (lowest free)
    logic [PcBits-1:0]      pc;         // its pc (instruction index): LEAPC, faults, commits
    logic [31:0]            active;     // the warp's group mask when it issued
    logic [SbEntryBits-1:0] sb_reg;     // scoreboard entry of the register destination
    logic [SbEntryBits-1:0] sb_pred;    // scoreboard entry of the predicate destination
    dec_inst_t              inst;
  } issue_t;

  // Operand collectors -> issue, per collector: whether it is free, and for the WAR rule the
  // source groups it has not yet read for all passes (docs: "Write-after-read").
  typedef struct packed {
    logic                  busy;
    logic [WarpIdBits-1:0] warp;
    logic [3:0]            src_pending;  // [0] rd (store data), [1] ra, [2] rb, [3] rc
    logic [3:0][7:0]       src_base;
    logic [3:0][2:0]       src_cnt;
  } coll_state_t;

  // A scoreboard release (four ports: pipelined write-back, LSU, CTRL, iterative units).
  typedef struct packed {
    logic                   valid;
    logic [WarpIdBits-1:0]  warp;
    logic [SbEntryBits-1:0] entry;
  } sb_release_t;

  localparam int unsigned RelPipe = 0;
  localparam int unsigned RelLsu  = 1;
  localparam int unsigned RelCtrl = 2;
  localparam int unsigned RelIter = 3;
  localparam int unsigned NumReleases = 4;

  // Widths of the records that travel in arrays (one per warp, collector, release port): Yosys 0.55
  // drops the dimension of an array of structs, so such arrays are logic [N-1:0][<T>Bits-1:0] and
  // an element is copied into a struct variable to read its fields (rtl/README.md).
  localparam issue_t IssueZero = '0;
  localparam int unsigned IssueBits = $bits(IssueZero);
  localparam coll_state_t CollStateZero = '0;
  localparam int unsigned CollStateBits = $bits(CollStateZero);
  localparam sb_release_t SbReleaseZero = '0;
  localparam int unsigned SbReleaseBits = $bits(SbReleaseZero);

  // Dispatch -> CTRL unit: one pass of a CTRL instruction (operands on [Lanes-1:0][31:0] ports
  // a_i/b_i/c_i beside it). exec is the whole warp's exec mask (group and guard), read in the
  // collector's first cycle.
  typedef struct packed {
    logic                   valid;
    logic [WarpIdBits-1:0]  warp;
    logic [CollIdBits-1:0]  coll;
    logic [4:0]             pass;       // 0 .. P-1
    logic                   last;       // the last pass
    logic [PcBits-1:0]      pc;
    logic [31:0]            exec;
    logic [7:0]             rd;         // destination register (warp operations, B2R, BAR.RED)
    logic [SbEntryBits-1:0] sb_reg;
    logic [SbEntryBits-1:0] sb_pred;
    ctrl_op_t               op;
  } ctrl_pass_t;

  // Dispatch -> LSU: one pass of a memory instruction (address and data lanes beside it).
  typedef struct packed {
    logic                   valid;
    logic [WarpIdBits-1:0]  warp;
    logic [4:0]             pass;
    logic                   last;
    logic [PcBits-1:0]      pc;
    logic [31:0]            exec;
    logic [7:0]             rd;         // load destination / store data base
    logic [2:0]             rd_cnt;
    logic [SbEntryBits-1:0] sb_reg;
    lsu_op_t                op;
  } lsu_pass_t;

  // A write-back of one pass through the return buffer (LSU, CTRL): the lanes beside it.
  typedef struct packed {
    logic                   valid;
    logic [WarpIdBits-1:0]  warp;
    logic [4:0]             pass;
    logic [7:0]             rd;         // register (one row; pairs and quads: one return each)
    logic                   release_sb; // the last write of the instruction: release sb_entry
    logic [SbEntryBits-1:0] sb_entry;
  } ret_wb_t;

  // LSU -> core: a memory fault found at the LSU's address stage (docs/microarchitecture.md,
  // "Faults"): the lowest faulting lane of the first faulting pass. The core turns warp and lane
  // into the block and thread indices of wf_soc_pkg::fault_t; the rest are the Completion
  // record's fault fields as the emulator fills them (fault_code is 0 for memory faults).
  typedef struct packed {
    logic [WarpIdBits-1:0] warp;
    logic [PcBits-1:0]     pc;
    logic [4:0]            lane;     // lane of the warp (0..31)
    logic [31:0]           kind;     // wf_device_pkg::fault_e: OUT_OF_BOUNDS, MISALIGNED, READ_ONLY_WRITE
    logic [63:0]           address;  // the lane's address (32-bit spaces: the 32-bit value)
    logic [15:0]           detail;   // wf_device_pkg::fault_detail_e
    logic [7:0]            space;    // wf_isa_pkg::space_e of the resolved access
    logic                  write;    // a store or an atomic
    logic [31:0]           size;     // bytes of the access
  } lsu_fault_t;

  // CTRL unit -> fetch: the warp's new fetch pc after a CTRL instruction resolved (or a pick).
  typedef struct packed {
    logic                  valid;
    logic [WarpIdBits-1:0] warp;
    logic [PcBits-1:0]     pc;
  } fetch_redirect_t;

  // ---------------------------------------------------------------------------------------------
  // Commit records out of the core (isa/device.toml's CommitRecord; the harness packs the bytes).
  // One header a committed warp instruction, in commit order; its REG parts follow on the
  // commit write port (one row of L lanes a cycle, as the register file writes them).
  typedef struct packed {
    logic [7:0]             kind;       // wf_device_pkg::commit_kind_e
    logic [7:0]             opcode;
    logic [31:0]            pc;         // byte offset in the code segment
    logic [31:0]            active;
    logic [31:0]            exec;
    logic [31:0]            warp;       // warp within the block
    logic [BlockIdBits-1:0] slot;       // block slot (the harness maps it to the block index)
    logic [WarpIdBits-1:0]  warp_slot;
  } commit_hdr_t;

  typedef struct packed {
    logic [WarpIdBits-1:0]  warp_slot;
    logic [7:0]             reg_index;
    logic [4:0]             pass;       // lanes pass*L .. pass*L+L-1
    logic [31:0]            lanes;      // lanes written (whole-warp mask)
  } commit_wb_t;

  localparam commit_hdr_t CommitHdrZero = '0;
  localparam int unsigned CommitHdrBits = $bits(CommitHdrZero);
  localparam commit_wb_t CommitWbZero = '0;
  localparam int unsigned CommitWbBits = $bits(CommitWbZero);

endpackage
