// The crossbar between the requesters (the cores, then the command processor) and the L2 banks
// (docs/microarchitecture.md, "L2 and global atomics"). A request goes to bank
// (line index mod Banks). Each cycle each bank is granted to one requester that wants it: the
// first after the requester granted last (round robin; after reset requester 0 comes first).
// Responses go back the same way: each requester takes one response a cycle, from the first bank
// after the one it took last.
// Requests and responses travel as logic [N-1:0][MemReqBits-1:0] / [MemRspBits-1:0] (one
// wf_soc_pkg::mem_req_t / mem_rsp_t each): Yosys 0.55 drops the dimension of an array of structs
// (rtl/README.md).
module wf_mem_xbar #(
  parameter int unsigned Requesters = 2,
  parameter int unsigned Banks = 1,
  parameter int unsigned LineBytes = 64,
  localparam int unsigned SrcBits = Requesters > 1 ? $clog2(Requesters) : 1,
  localparam int unsigned BankBits = Banks > 1 ? $clog2(Banks) : 1
) (
  input  logic clk_i,
  input  logic rst_ni,

  input  logic [Requesters-1:0]                   req_valid_i,
  output logic [Requesters-1:0]                   req_ready_o,
  input  logic [Requesters-1:0][wf_soc_pkg::MemReqBits-1:0] req_i,
  output logic [Requesters-1:0]                   rsp_valid_o,
  input  logic [Requesters-1:0]                   rsp_ready_i,
  output logic [Requesters-1:0][wf_soc_pkg::MemRspBits-1:0] rsp_o,

  output logic [Banks-1:0]                        bank_req_valid_o,
  input  logic [Banks-1:0]                        bank_req_ready_i,
  output logic [Banks-1:0][wf_soc_pkg::MemReqBits-1:0] bank_req_o,
  output logic [Banks-1:0][SrcBits-1:0]           bank_req_src_o,
  input  logic [Banks-1:0]                        bank_rsp_valid_i,
  output logic [Banks-1:0]                        bank_rsp_ready_o,
  input  logic [Banks-1:0][wf_soc_pkg::MemRspBits-1:0] bank_rsp_i,
  input  logic [Banks-1:0][SrcBits-1:0]           bank_rsp_src_i
);

  localparam int unsigned LineShift = $clog2(LineBytes);

  // Which bank each request wants.
  logic [Requesters-1:0][BankBits-1:0] want_bank;
  wf_soc_pkg::mem_req_t                req_view;
  always_comb begin
    req_view = '0;
    for (int unsigned r = 0; r < Requesters; r++) begin
      req_view     = req_i[r];
      want_bank[r] = Banks > 1 ? BankBits'(req_view.addr >> LineShift) : '0;
    end
  end

  // Requests: per bank, round robin over the requesters.
  logic [Banks-1:0][SrcBits-1:0] last_req_d, last_req_q;
  logic [Banks-1:0]              req_grant_any;
  logic [Banks-1:0][SrcBits-1:0] req_grant;

  always_comb begin
    req_ready_o = '0;
    bank_req_valid_o = '0;
    bank_req_o = '0;
    bank_req_src_o = '0;
    last_req_d = last_req_q;
    req_grant_any = '0;
    req_grant = '0;
    for (int unsigned b = 0; b < Banks; b++) begin
      // Candidates in order last+1, last+2, ..., last (wrapping).
      for (int unsigned k = 1; k <= Requesters; k++) begin
        int unsigned r;
        r = (32'(last_req_q[b]) + k) % Requesters;
        if (!req_grant_any[b] && req_valid_i[r] && 32'(want_bank[r]) == b) begin
          req_grant_any[b] = 1'b1;
          req_grant[b] = SrcBits'(r);
        end
      end
      if (req_grant_any[b]) begin
        bank_req_valid_o[b] = 1'b1;
        bank_req_o[b] = req_i[req_grant[b]];
        bank_req_src_o[b] = req_grant[b];
        if (bank_req_ready_i[b]) begin
          req_ready_o[req_grant[b]] = 1'b1;
          last_req_d[b] = req_grant[b];
        end
      end
    end
  end

  // Responses: per requester, round robin over the banks.
  logic [Requesters-1:0][BankBits-1:0] last_rsp_d, last_rsp_q;
  logic [Requesters-1:0]               rsp_grant_any;
  logic [Requesters-1:0][BankBits-1:0] rsp_grant;

  always_comb begin
    rsp_valid_o = '0;
    rsp_o = '0;
    bank_rsp_ready_o = '0;
    last_rsp_d = last_rsp_q;
    rsp_grant_any = '0;
    rsp_grant = '0;
    for (int unsigned r = 0; r < Requesters; r++) begin
      for (int unsigned k = 1; k <= Banks; k++) begin
        int unsigned b;
        b = (32'(last_rsp_q[r]) + k) % Banks;
        if (!rsp_grant_any[r] && bank_rsp_valid_i[b] && 32'(bank_rsp_src_i[b]) == r) begin
          rsp_grant_any[r] = 1'b1;
          rsp_grant[r] = BankBits'(b);
        end
      end
      if (rsp_grant_any[r]) begin
        rsp_valid_o[r] = 1'b1;
        rsp_o[r] = bank_rsp_i[rsp_grant[r]];
        if (rsp_ready_i[r]) begin
          bank_rsp_ready_o[rsp_grant[r]] = 1'b1;
          last_rsp_d[r] = rsp_grant[r];
        end
      end
    end
  end

  // After reset the search starts at index 0: "last" is the highest index.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      last_req_q <= {Banks{SrcBits'(Requesters - 1)}};
      last_rsp_q <= {Requesters{BankBits'(Banks - 1)}};
    end else begin
      last_req_q <= last_req_d;
      last_rsp_q <= last_rsp_d;
    end
  end

endmodule
