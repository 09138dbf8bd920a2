// The new value of a global atomic (the L2 bank's read-modify-write): ATOM's operations and types
// as the emulator defines them (sim/func execute.cpp atomNew: PTX atom semantics; INC and DEC are
// U32 only). Combinational. Float ADD (F32, F64) is not built yet: `supported_o` is low for it
// and the bank then leaves memory unchanged (docs/microarchitecture.md, Status).
module wf_l2_atomic (
  input  logic [3:0]  fn_i,    // wf_isa_pkg::atomop_e
  input  logic [2:0]  ty_i,    // wf_isa_pkg::atomtype_e
  input  logic [63:0] old_i,   // 32-bit types: low word
  input  logic [63:0] b_i,
  input  logic [63:0] c_i,
  output logic [63:0] new_o,
  output logic        supported_o
);

  logic wide, is_signed, is_float;
  logic [31:0] old32, b32, c32, new32;
  logic [63:0] new64;
  logic lt32, lt64;

  always_comb begin
    wide = ty_i == wf_isa_pkg::ATOM_TYPE_U64 || ty_i == wf_isa_pkg::ATOM_TYPE_S64 ||
           ty_i == wf_isa_pkg::ATOM_TYPE_F64;
    is_signed = ty_i == wf_isa_pkg::ATOM_TYPE_S32 || ty_i == wf_isa_pkg::ATOM_TYPE_S64;
    is_float = ty_i == wf_isa_pkg::ATOM_TYPE_F32 || ty_i == wf_isa_pkg::ATOM_TYPE_F64;
    old32 = old_i[31:0];
    b32 = b_i[31:0];
    c32 = c_i[31:0];
    lt32 = is_signed ? $signed(old32) < $signed(b32) : old32 < b32;
    lt64 = is_signed ? $signed(old_i) < $signed(b_i) : old_i < b_i;
    supported_o = 1'b1;
    new32 = old32;
    new64 = old_i;
    unique case (fn_i)
      wf_isa_pkg::ATOM_OP_ADD: begin
        new32 = old32 + b32;
        new64 = old_i + b_i;
        supported_o = !is_float;
      end
      wf_isa_pkg::ATOM_OP_MIN: begin
        new32 = lt32 ? old32 : b32;
        new64 = lt64 ? old_i : b_i;
      end
      wf_isa_pkg::ATOM_OP_MAX: begin
        new32 = lt32 ? b32 : old32;
        new64 = lt64 ? b_i : old_i;
      end
      // PTX atom.inc: wrap to 0 at b; atom.dec: wrap to b at 0 or above b (U32 only).
      wf_isa_pkg::ATOM_OP_INC: new32 = old32 >= b32 ? 32'd0 : old32 + 32'd1;
      wf_isa_pkg::ATOM_OP_DEC: new32 = (old32 == 32'd0 || old32 > b32) ? b32 : old32 - 32'd1;
      wf_isa_pkg::ATOM_OP_AND: begin
        new32 = old32 & b32;
        new64 = old_i & b_i;
      end
      wf_isa_pkg::ATOM_OP_OR: begin
        new32 = old32 | b32;
        new64 = old_i | b_i;
      end
      wf_isa_pkg::ATOM_OP_XOR: begin
        new32 = old32 ^ b32;
        new64 = old_i ^ b_i;
      end
      wf_isa_pkg::ATOM_OP_EXCH: begin
        new32 = b32;
        new64 = b_i;
      end
      wf_isa_pkg::ATOM_OP_CAS: begin
        new32 = old32 == b32 ? c32 : old32;
        new64 = old_i == b_i ? c_i : old_i;
      end
      default: supported_o = 1'b0;
    endcase
    new_o = wide ? new64 : {32'd0, new32};
  end

endmodule
