// Chip-level types shared by the SIMT cores and the rest of the GPU (command processor, block
// dispatcher, crossbar, L2): launch constants, a block to admit, a core's memory port, the param-RAM
// port, a fault report and the per-cycle issue counts. docs/microarchitecture.md describes each.
// (Commit records leave a core in wf_core_pkg's commit_hdr_t / commit_wb_t: the core's types.)
//
// A package cannot take parameters, so types whose width depends on the configuration are sized for
// the largest value isa/config.toml allows (wf_config_pkg::ParamMax*); a module built for a smaller
// configuration uses the low bits and leaves the rest zero (synthesis removes them).
package wf_soc_pkg;

  // ---------------------------------------------------------------------------------------------
  // Sizes.

  // Cache lines: the widest line any configuration may have.
  localparam int unsigned LineBytesMax = wf_config_pkg::ParamMaxCacheLineBytes;
  localparam int unsigned LineBitsMax = LineBytesMax * 8;
  // Byte offsets into device memory (from wf_config_pkg::GlobalBase): this many bits hold the
  // largest device memory a configuration may have (the L2 and DRAM side use offsets).
  localparam int unsigned MemOffsetBits = $clog2(wf_config_pkg::ParamMaxGlobalMemMib) + 20;
  // A requester's tag on the memory port, returned with the response (the core decides its meaning).
  localparam int unsigned MemTagBits = 8;
  // The command processor's parameter RAM (LDP reads it through the core's constant cache).
  localparam int unsigned ParamRamBytes = 32768;
  localparam int unsigned ParamAddrBits = $clog2(ParamRamBytes);
  // Host-DMA AXI4 master: 64-bit DMA-window offsets, 512-bit data (one command a beat).
  localparam int unsigned HostAddrBits = 64;
  localparam int unsigned HostDataBytes = 64;
  localparam int unsigned HostIdBits = 4;
  // DRAM AXI4 masters: 64-bit byte offsets into device memory, one line a beat, 16 IDs.
  localparam int unsigned DramAddrBits = 64;
  localparam int unsigned DramIdBits = 4;
  // AXI4-Lite control slave: the register map's 12-bit offsets, 32-bit data.
  localparam int unsigned CtrlAddrBits = 12;
  // Per-cycle counts a core reports: at most issue_width warp instructions and 32 thread
  // instructions each.
  localparam int unsigned IssueCountBits = $clog2(wf_config_pkg::ParamMaxIssueWidth + 1);
  localparam int unsigned ThreadCountBits = $clog2(wf_config_pkg::ParamMaxIssueWidth * 32 + 1);

  // ---------------------------------------------------------------------------------------------
  // A launch, as the command processor hands it to every core with the launch-start pulse. Taken
  // from the LaunchDesc (device.toml) plus values the command processor derives once.
  typedef struct packed {
    logic [63:0] code_base;        // device address of the code segment
    logic [31:0] code_size;        // bytes of code
    logic [31:0] entry_pc;         // byte offset of the first instruction
    logic [2:0][31:0] grid;        // grid dimensions in blocks: [0] x, [1] y, [2] z
    logic [2:0][31:0] block;       // block dimensions in threads
    logic [31:0] threads_per_block;  // block_x * block_y * block_z (derived)
    logic [31:0] warps_per_block;    // ceil(threads_per_block / 32) (derived)
    logic [7:0] regs_per_thread;   // at most max_regs_per_thread (255)
    logic [31:0] shared_bytes;     // shared_static + shared_dynamic (derived)
    logic [31:0] local_bytes;      // local memory bytes per thread
    logic [63:0] local_base;       // device address of the local-memory area; 0 until the
                                   // LaunchDesc has a field for it (microarchitecture.md, Open items)
    logic [63:0] const_base;       // device address of the constant bank
    logic [31:0] const_size;
    logic [31:0] param_size;       // bytes of parameters in the param RAM
    logic [63:0] rtbuf;            // device address of the runtime area (SR_RTBUF)
    logic [63:0] grid_id;          // %gridid
    logic [63:0] profile_addr;     // per-instruction counters; 0: not counted
  } launch_cfg_t;

  // A block offered to a core by the block dispatcher: its index in the grid. Everything else a
  // core needs to admit it (warps, registers, shared memory) is the launch's.
  typedef struct packed {
    logic [2:0][31:0] idx;  // blockIdx: [0] x, [1] y, [2] z
  } block_t;

  // ---------------------------------------------------------------------------------------------
  // A core's memory port (and the command processor's): valid/ready requests to the crossbar, one
  // response per request, valid/ready, carrying the request's tag. Responses of one requester may
  // come back in any order (different L2 banks); the tag tells them apart.
  typedef enum logic [1:0] {
    MEM_READ = 2'd0,    // read a line: the response carries it
    MEM_WRITE = 2'd1,   // write the masked bytes of a line: the response acknowledges it (the
                        // write has reached the L2, the point of coherence)
    MEM_ATOMIC = 2'd2   // one lane's atomic at addr: the response carries the old value
  } mem_kind_e;

  typedef struct packed {
    mem_kind_e kind;
    // Device address (global memory, or the local-memory area in it). READ and WRITE: the line's
    // first byte (low bits zero); ATOMIC: the operand's address, aligned to its size.
    logic [63:0] addr;
    logic [LineBitsMax-1:0] wdata;   // WRITE: the line, byte i in bits 8i+7..8i
    logic [LineBytesMax-1:0] wmask;  // WRITE: the bytes to write
    // ATOMIC: operation and type as the ATOM instruction encodes them (wf_isa_pkg::atomop_e,
    // atomtype_e); a the operand (CAS: the compare value), b CAS's new value. 32-bit types use the
    // low words.
    logic [3:0] atom_fn;
    logic [2:0] atom_ty;
    logic [63:0] atom_a;
    logic [63:0] atom_b;
    logic [MemTagBits-1:0] tag;
  } mem_req_t;

  typedef struct packed {
    logic [MemTagBits-1:0] tag;
    logic [LineBitsMax-1:0] rdata;  // READ: the line
    logic [63:0] atom_old;          // ATOMIC: the old value (32-bit types zero-extended)
  } mem_rsp_t;

  // ---------------------------------------------------------------------------------------------
  // The param-RAM read port of a core (LDP misses of the constant cache): a line-aligned byte
  // offset in, valid/ready; the line comes back, valid only (the core always takes it), in order.
  typedef struct packed {
    logic [31:0] addr;  // below ParamRamBytes
  } param_req_t;

  typedef struct packed {
    logic [LineBitsMax-1:0] rdata;
  } param_rsp_t;

  // ---------------------------------------------------------------------------------------------
  // A fault, with the Completion record's fault fields (device.toml; microarchitecture.md, Faults).
  // The command processor writes them into the completion record at the generated offsets.
  typedef struct packed {
    logic [31:0] kind;      // a wf_device_pkg::fault_e value
    logic [31:0] pc;        // byte offset of the faulting instruction in the code segment
    logic [31:0] code;      // fault-specific detail (the access size for memory faults)
    logic [63:0] address;   // memory faults: the faulting address
    logic [2:0][31:0] block;   // the faulting thread's block index: [0] x, [1] y, [2] z
    logic [2:0][31:0] thread;  // the faulting thread's index in its block
  } fault_t;

  // Per cycle, what a core issued: counted by the command processor for the completion record
  // (warp_insts, thread_insts) and the watchdog.
  typedef struct packed {
    logic [IssueCountBits-1:0] warp_insts;
    logic [ThreadCountBits-1:0] thread_insts;
  } issue_count_t;

  // Widths of the records above for arrays of them (one per requester, bank, core): Yosys 0.55
  // drops the dimension of an array of structs, so such arrays are logic [N-1:0][<T>Bits-1:0] and
  // an element is copied into a struct variable to read its fields (rtl/README.md). $bits of a
  // constant, not of the type (Yosys does not parse $bits(type)).
  localparam mem_req_t MemReqZero = '0;
  localparam int unsigned MemReqBits = $bits(MemReqZero);
  localparam mem_rsp_t MemRspZero = '0;
  localparam int unsigned MemRspBits = $bits(MemRspZero);
  localparam param_req_t ParamReqZero = '0;
  localparam int unsigned ParamReqBits = $bits(ParamReqZero);
  localparam fault_t FaultZero = '0;
  localparam int unsigned FaultBits = $bits(FaultZero);
  localparam issue_count_t IssueCountZero = '0;
  localparam int unsigned IssueCountRecBits = $bits(IssueCountZero);

endpackage
