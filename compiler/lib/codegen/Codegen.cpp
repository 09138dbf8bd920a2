//===- Codegen.cpp - The back end driver: PTX module to .wfx module -------===//

#include "warpforge/codegen/Codegen.h"

#include "EmitImpl.h"
#include "LowerImpl.h"
#include "warpforge/codegen/Passes.h"
#include "warpforge/isa/config.gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <map>
#include <set>

namespace wf::codegen {

namespace {

uint32_t alignUp(uint32_t V, uint32_t A) { return A ? (V + A - 1) / A * A : V; }
uint64_t alignUp64(uint64_t V, uint64_t A) { return A ? (V + A - 1) / A * A : V; }

/// The largest variable alignment a data segment or shared memory takes (the .wfx format's
/// largest load alignment).
constexpr uint64_t kMaxVariableAlign = 65536;
/// The largest data segment the .wfx format describes (its sizes and offsets are 32-bit).
constexpr uint64_t kMaxSegmentBytes = 0xfffffff8u;

/// A variable's alignment, or an error naming it when it is more than kMaxVariableAlign.
Expected<uint64_t> variableAlign(const ptx::Module &M, const ptx::Variable &V) {
  uint64_t A = std::max<uint64_t>(1, V.alignment());
  if (A > kMaxVariableAlign)
    return Error(fmt::format("alignment {} of '{}' is more than the largest supported, {}", A,
                             V.name, kMaxVariableAlign),
                 SourceLoc{M.fileName, V.loc.line, V.loc.col});
  return A;
}

/// Writes a variable's initializer into Image at Off; address elements become relocations.
void writeInit(const ptx::Module &M, const ptx::Variable &V, wfx::Segment Seg,
               std::vector<uint8_t> &Image, uint64_t Off, const ModuleLayout &L,
               std::vector<wfx::Reloc> &Relocs, const std::map<std::string_view, uint32_t> &Code) {
  unsigned ES = ptx::byteSize(V.type);
  if (V.type == ptx::Type::None || !ES)
    return;
  for (size_t K = 0; K < V.init.size(); ++K) {
    const ptx::InitElem &IE = V.init[K];
    uint64_t At = Off + uint64_t(K) * ES;
    if (At + ES > Image.size())
      break;
    if (IE.kind == ptx::InitElem::Kind::Address && Code.count(IE.symbol)) {
      // A function's address is its code offset (what LEAPC yields): no relocation.
      uint64_t Bits = Code.at(IE.symbol) + IE.value;
      std::memcpy(&Image[At], &Bits, std::min<unsigned>(ES, 8));
      continue;
    }
    if (IE.kind == ptx::InitElem::Kind::Address) {
      const ptx::Variable *G = M.findGlobal(IE.symbol);
      uint32_t GI = G ? uint32_t(G - M.globals.data()) : 0;
      if (G && L.symbolIndex.count(GI)) {
        wfx::Reloc R;
        R.segment = Seg;
        R.offset = At;
        R.kind = wfx::RelocKind::AbsLo32;
        R.symbol = L.symbolIndex.at(GI);
        R.target = G->space == ptx::Space::Const ? wfx::Segment::Const : wfx::Segment::Global;
        R.addend = int64_t(IE.value);
        Relocs.push_back(R);
        if (ES == 8) {
          R.offset = At + 4;
          R.kind = wfx::RelocKind::AbsHi32;
          Relocs.push_back(R);
        }
      }
      continue;
    }
    // An initializer value holds 64 bits; a wider element (.b128) takes it zero-extended.
    uint64_t Bits = IE.value;
    std::memcpy(&Image[At], &Bits, std::min<unsigned>(ES, sizeof Bits));
    std::fill(Image.begin() + At + std::min<unsigned>(ES, sizeof Bits), Image.begin() + At + ES, 0);
  }
}

/// Where the .const and .global variables go: offsets in their segments, segment sizes and load
/// alignments, computed in 64 bits and checked against the limits before any byte is allocated.
struct DataLayout {
  std::map<uint32_t, uint64_t> constOffset, globalOffset;
  uint64_t constSize = 0, globalSize = 0;
  uint64_t constAlign = 8, globalAlign = 8;
  uint64_t constInitEnd = 0, globalInitEnd = 0; ///< end of the last initialized variable
};

Expected<DataLayout> layoutData(const ptx::Module &M, const CodegenOptions &Opts) {
  const isa::Config *C = isa::findConfig(Opts.config);
  uint64_t GlobalLimit = Opts.maxGlobalBytes ? Opts.maxGlobalBytes
                         : C                 ? uint64_t(C->globalMemMib) << 20
                                             : kMaxSegmentBytes;
  GlobalLimit = std::min<uint64_t>(GlobalLimit, kMaxSegmentBytes);
  uint64_t ConstLimit = std::min<uint64_t>(C ? C->constMemBytes : kMaxSegmentBytes,
                                           kMaxSegmentBytes);
  DataLayout D;
  for (uint32_t K = 0; K < M.globals.size(); ++K) {
    const ptx::Variable &V = M.globals[K];
    bool IsConst = V.space == ptx::Space::Const;
    if (!IsConst && V.space != ptx::Space::Global)
      continue;
    auto A = variableAlign(M, V);
    if (!A)
      return A.error();
    uint64_t &Size = IsConst ? D.constSize : D.globalSize;
    uint64_t Limit = IsConst ? ConstLimit : GlobalLimit;
    uint64_t Off = alignUp64(Size, *A);
    // Element counts are at most 2^40 and elements at most 128 bytes: no overflow here.
    uint64_t End = Off + V.sizeInBytes();
    if (End > Limit)
      return Error(fmt::format("'{}' ({} bytes, .align {}) does not fit: the {} segment would "
                               "need {} bytes, more than its limit of {} ({})",
                               V.name, V.sizeInBytes(), *A, IsConst ? "constant" : "global", End,
                               Limit,
                               IsConst ? "the configuration's constant memory"
                               : Opts.maxGlobalBytes
                                   ? "CodegenOptions::maxGlobalBytes"
                                   : "the configuration's device memory"),
                   SourceLoc{M.fileName, V.loc.line, V.loc.col});
    (IsConst ? D.constOffset : D.globalOffset)[K] = Off;
    Size = End;
    uint64_t &Align = IsConst ? D.constAlign : D.globalAlign;
    Align = std::max(Align, *A);
    if (V.hasInit)
      (IsConst ? D.constInitEnd : D.globalInitEnd) = End;
  }
  return D;
}

/// A data segment of `Size` bytes: an image up to the end of the initialized variables (padded
/// to 8), the rest zero fill, which the module stores as a count and never as bytes.
wfx::DataSegment dataSegment(uint64_t Size, uint64_t InitEnd, uint64_t Align) {
  wfx::DataSegment Seg;
  uint64_t Total = alignUp64(Size, 8);
  uint64_t Image = std::min(alignUp64(InitEnd, 8), Total);
  Seg.image.assign(Image, 0);
  Seg.zeroFill = uint32_t(Total - Image);
  Seg.align = uint32_t(Align);
  return Seg;
}

Error withFile(Error E, const ptx::Module &M) {
  if (E.loc.file.empty())
    E.loc.file = M.fileName;
  return E;
}

void forEachSymbol(const ptx::Operand &O, const std::function<void(const ptx::Operand &)> &Fn) {
  if (O.kind == ptx::OperandKind::Symbol)
    Fn(O);
  for (const ptx::Operand &E : O.elems)
    forEachSymbol(E, Fn);
}

/// Places the `.shared` variables and returns the static shared bytes of each kernel (by PTX
/// function index). As ptxas does, a kernel reserves only the variables that its code and the
/// functions it may call name (module-scope and function-scope ones alike; an indirect call may
/// call any device function). The offsets are fixed for the module, because one device function
/// serves every kernel that calls it: variables of several kernels come first, at common offsets;
/// each kernel's own variables follow the last common one it uses, overlapping other kernels'
/// own ones (blocks of different kernels never share memory). `.extern` (dynamic) arrays start
/// at one offset, the largest static size among the kernels that reach them, and those kernels
/// reserve up to it.
Expected<std::map<uint32_t, uint32_t>> layoutShared(const ptx::Module &M,
                                                    const CodegenOptions &Opts, ModuleLayout &L) {
  size_t NF = M.functions.size();
  std::vector<std::set<uint32_t>> Named(NF), Callees(NF); // shared globals; functions
  std::vector<bool> Indirect(NF, false);
  for (uint32_t FI = 0; FI < NF; ++FI)
    for (const ptx::Statement &S : M.functions[FI].body) {
      if (S.kind != ptx::StmtKind::Instr)
        continue;
      for (const ptx::Operand &O : S.inst.operands) {
        if (S.inst.op == ptx::Op::Call && O.kind == ptx::OperandKind::Reg)
          Indirect[FI] = true;
        forEachSymbol(O, [&](const ptx::Operand &Sy) {
          if (Sy.symKind == ptx::SymbolKind::Global &&
              M.globals[Sy.index].space == ptx::Space::Shared)
            Named[FI].insert(Sy.index);
          else if (Sy.symKind == ptx::SymbolKind::Function)
            Callees[FI].insert(Sy.index);
        });
      }
    }
  // 64-bit offsets: a kernel's total is checked against the configuration's limit at the end.
  struct Var {
    uint64_t size, align;
    std::set<uint32_t> kernels; // the kernels that reach it
    uint64_t offset = 0;        // unreached: 0 (its code never runs)
  };
  std::vector<Var> Vars;
  std::map<uint32_t, uint32_t> GlobalVar;                     // global index -> Vars index
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> LocalVar; // (function, local) -> Vars index
  std::vector<uint32_t> Dynamic;
  uint64_t DynamicAlign = 16;
  for (uint32_t K = 0; K < M.globals.size(); ++K) {
    const ptx::Variable &V = M.globals[K];
    if (V.space != ptx::Space::Shared)
      continue;
    auto A = variableAlign(M, V);
    if (!A)
      return A.error();
    if (V.sizeInBytes() == 0) {
      Dynamic.push_back(K);
      DynamicAlign = std::max(DynamicAlign, *A);
      continue;
    }
    GlobalVar[K] = uint32_t(Vars.size());
    Vars.push_back({V.sizeInBytes(), *A, {}});
  }
  for (uint32_t FI = 0; FI < NF; ++FI)
    for (uint32_t K = 0; K < M.functions[FI].locals.size(); ++K) {
      const ptx::Variable &V = M.functions[FI].locals[K];
      if (V.space != ptx::Space::Shared)
        continue;
      auto A = variableAlign(M, V);
      if (!A)
        return A.error();
      LocalVar[{FI, K}] = uint32_t(Vars.size());
      Vars.push_back({V.sizeInBytes(), *A, {}});
    }
  std::vector<uint32_t> Kernels;
  std::set<uint32_t> DynamicKernels;
  for (uint32_t KI = 0; KI < NF; ++KI) {
    if (!M.functions[KI].isKernel || !M.functions[KI].hasBody)
      continue;
    Kernels.push_back(KI);
    std::vector<bool> Seen(NF, false);
    std::vector<uint32_t> Work{KI};
    Seen[KI] = true;
    while (!Work.empty()) {
      uint32_t F = Work.back();
      Work.pop_back();
      for (uint32_t G : Named[F]) {
        if (GlobalVar.count(G))
          Vars[GlobalVar[G]].kernels.insert(KI);
        else
          DynamicKernels.insert(KI);
      }
      for (uint32_t K = 0; K < M.functions[F].locals.size(); ++K)
        if (LocalVar.count({F, K}))
          Vars[LocalVar[{F, K}]].kernels.insert(KI);
      auto Reach = [&](uint32_t C) {
        if (C < NF && !Seen[C] && M.functions[C].hasBody) {
          Seen[C] = true;
          Work.push_back(C);
        }
      };
      for (uint32_t C : Callees[F])
        Reach(C);
      if (Indirect[F])
        for (uint32_t C = 0; C < NF; ++C)
          if (!M.functions[C].isKernel)
            Reach(C);
    }
  }
  uint64_t Common = 0;
  for (Var &V : Vars)
    if (V.kernels.size() > 1) {
      V.offset = alignUp64(Common, V.align);
      Common = V.offset + V.size;
    }
  std::map<uint32_t, uint64_t> Static;
  uint64_t DynamicBase = 0;
  for (uint32_t KI : Kernels) {
    uint64_t End = 0;
    for (const Var &V : Vars)
      if (V.kernels.size() > 1 && V.kernels.count(KI))
        End = std::max(End, V.offset + V.size);
    for (Var &V : Vars)
      if (V.kernels.size() == 1 && V.kernels.count(KI)) {
        V.offset = alignUp64(End, V.align);
        End = V.offset + V.size;
      }
    Static[KI] = alignUp64(End, 16);
    if (DynamicKernels.count(KI))
      DynamicBase = std::max(DynamicBase, alignUp64(End, DynamicAlign));
  }
  for (uint32_t KI : DynamicKernels)
    Static[KI] = DynamicBase;
  // As ptxas does ("uses too much shared data"): a kernel's static shared memory must fit a block.
  const isa::Config *C = isa::findConfig(Opts.config);
  uint64_t Limit = C ? C->sharedMemPerBlock : UINT32_MAX;
  std::map<uint32_t, uint32_t> Bytes;
  for (auto [KI, Size] : Static) {
    if (Size > Limit)
      return Error(fmt::format("kernel '{}' uses {} bytes of static shared memory, more than the "
                               "{} a block may use",
                               M.functions[KI].name, Size, Limit),
                   SourceLoc{M.fileName, M.functions[KI].loc.line, M.functions[KI].loc.col});
    Bytes[KI] = uint32_t(Size);
  }
  // Every reached variable lies below some kernel's checked total; unreached ones are at 0.
  auto Offset = [](uint64_t Off) { return uint32_t(std::min<uint64_t>(Off, UINT32_MAX)); };
  for (auto [K, V] : GlobalVar)
    L.sharedOffset[K] = Offset(Vars[V].offset);
  for (auto [FK, V] : LocalVar)
    L.localSharedOffset[FK] = Offset(Vars[V].offset);
  for (uint32_t K : Dynamic)
    L.sharedOffset[K] = Offset(DynamicBase);
  return Bytes;
}

/// Runs the back end on every function, callees before callers. Convergence barriers (and the
/// BSYNC wait state) belong to the warp, not to a thread: when part of a warp calls a function,
/// other thread groups of the warp may be parked at BSYNCs of the caller (or of its callers), and
/// a callee that reused those barrier registers would overwrite their masks and, at its own BSYNC,
/// release the parked groups early (a save/restore in the callee then reinstates a stale mask:
/// barrier deadlock). So each function prefers barriers above the ranges of all the functions it
/// may call (an indirect call may call any device function), and a barrier set across a call
/// always stays above the range of the functions called there (allocateRegisters). Recursive
/// functions (a cycle of the call graph) cannot have a disjoint range for each activation, so
/// they use no barriers at all (their threads meet again when the scheduler runs the groups at
/// one PC together, and at the caller's BSYNCs).
Status<> runBackendModule(WModule &W, const CodegenOptions &Opts) {
  size_t N = W.functions.size();
  std::vector<std::vector<uint32_t>> Callees(N);
  for (size_t FI = 0; FI < N; ++FI)
    for (const Block &B : W.functions[FI].blocks)
      for (const Inst &I : B.insts) {
        if (I.op == isa::Opcode::CALL && I.ops[1].kind == OpndKind::Func)
          Callees[FI].push_back(I.ops[1].target);
        else if (I.op == isa::Opcode::CALLR)
          for (uint32_t G = 0; G < N; ++G)
            if (!W.functions[G].isKernel)
              Callees[FI].push_back(G);
      }
  // Tarjan's strongly connected components: each is emitted after all the ones it reaches.
  std::vector<int> Index(N, -1), Low(N, 0);
  std::vector<bool> OnStack(N, false);
  std::vector<uint32_t> Stack;
  std::vector<std::vector<uint32_t>> Sccs;
  int Counter = 0;
  std::function<void(uint32_t)> Visit = [&](uint32_t V) {
    Index[V] = Low[V] = Counter++;
    Stack.push_back(V);
    OnStack[V] = true;
    for (uint32_t C : Callees[V]) {
      if (C >= N)
        continue;
      if (Index[C] < 0) {
        Visit(C);
        Low[V] = std::min(Low[V], Low[C]);
      } else if (OnStack[C]) {
        Low[V] = std::min(Low[V], Index[C]);
      }
    }
    if (Low[V] == Index[V]) {
      Sccs.emplace_back();
      uint32_t X;
      do {
        X = Stack.back();
        Stack.pop_back();
        OnStack[X] = false;
        Sccs.back().push_back(X);
      } while (X != V);
    }
  };
  for (uint32_t V = 0; V < N; ++V)
    if (Index[V] < 0)
      Visit(V);
  std::vector<uint32_t> Top(N, 0); // one past the highest barrier a function (and callees) use
  for (const auto &Scc : Sccs) {
    bool Recursive = Scc.size() > 1;
    uint32_t Base = 0;
    for (uint32_t F : Scc)
      for (uint32_t C : Callees[F]) {
        if (C == F)
          Recursive = true;
        if (C < N && std::find(Scc.begin(), Scc.end(), C) == Scc.end())
          Base = std::max(Base, Top[C]);
      }
    // Functions of this component use no barriers of their own when they call each other.
    std::vector<uint32_t> CalleeTop = Top;
    uint32_t IndirectTop = 0;
    for (uint32_t F : Scc)
      CalleeTop[F] = Base;
    for (uint32_t G = 0; G < N; ++G)
      if (!W.functions[G].isKernel)
        IndirectTop = std::max(IndirectTop, CalleeTop[G]);
    for (uint32_t FI : Scc) {
      Function &F = W.functions[FI];
      F.barrierBase = Base;
      F.calleeBarrierTop = CalleeTop;
      F.indirectBarrierTop = IndirectTop;
      F.noReconvergence = !F.isKernel && Recursive;
      if (auto S = runBackend(F, Opts); !S)
        return S;
    }
    for (uint32_t FI : Scc)
      for (uint32_t G : Scc)
        Top[FI] = std::max({Top[FI], Base, W.functions[G].numBarriers});
  }
  return {};
}

} // namespace

Status<> runBackend(Function &F, const CodegenOptions &Opts) {
  computeCFG(F);
  if (auto E = verify(F); !E.empty())
    return Error("WIR verification failed after lowering: " + E.front());
  if (Opts.optLevel > 0)
    optimize(F);
  if (!F.noReconvergence)
    if (auto S = insertReconvergence(F); !S)
      return S;
  if (auto E = verify(F); !E.empty())
    return Error("WIR verification failed before register allocation: " + E.front());
  if (auto S = allocateRegisters(F, F.maxRegs); !S)
    return S;
  if (Opts.schedule && Opts.optLevel > 0)
    scheduleBlocks(F);
  if (auto E = verify(F); !E.empty())
    return Error("WIR verification failed after register allocation: " + E.front());
  return {};
}

Expected<WModule> lowerModule(const ptx::Module &M, const CodegenOptions &Opts) {
  WModule W;
  ModuleLayout L;
  // Functions with bodies (vprintf and __assertfail are lowered inline).
  for (uint32_t K = 0; K < M.functions.size(); ++K)
    if (M.functions[K].hasBody) {
      L.funcIndex[K] = uint32_t(W.ptxIndex.size());
      W.ptxIndex.push_back(K);
    }
  // malloc/free and operator new/delete without a body: the device heap library, linked in.
  std::vector<HeapLink> Heap = planDeviceHeap(M, uint32_t(W.ptxIndex.size()), L);
  auto KernelShared = layoutShared(M, Opts, L);
  if (!KernelShared)
    return KernelShared.error();
  auto Data = layoutData(M, Opts);
  if (!Data)
    return Data.error();
  // layoutData bounds every offset by kMaxSegmentBytes: they fit the layout's 32 bits.
  for (auto [K, Off] : Data->constOffset)
    L.constOffset[K] = uint32_t(Off);
  for (auto [K, Off] : Data->globalOffset)
    L.globalOffset[K] = uint32_t(Off);
  uint32_t Sym = 0;
  for (uint32_t K = 0; K < M.globals.size(); ++K)
    if (M.globals[K].space == ptx::Space::Global || M.globals[K].space == ptx::Space::Const)
      L.symbolIndex[K] = Sym++;
  for (uint32_t K : W.ptxIndex) {
    W.sharedBytes.push_back(KernelShared->count(K) ? KernelShared->at(K) : 0);
    Function F;
    if (auto S = lowerFunction(M, K, L, Opts, F); !S)
      return S.error();
    W.functions.push_back(std::move(F));
  }
  if (auto S = lowerDeviceHeap(Heap, Opts, W); !S)
    return S.error();
  return W;
}

Expected<wfx::Module> compilePtx(const ptx::Module &M, const CodegenOptions &Opts) {
  if (!isa::findConfig(Opts.config))
    return Error(fmt::format("unknown configuration '{}'", Opts.config));
  auto WM = lowerModule(M, Opts);
  if (!WM)
    return WM.error();
  if (auto S = runBackendModule(*WM, Opts); !S)
    return withFile(S.error(), M);

  wfx::Module Out;
  if (WM->usesDeviceHeap)
    Out.flags |= wfx::kFlagDeviceHeap;
  Out.files.push_back(M.fileName.empty() ? "<input>" : M.fileName);
  // Data segments and symbols (same order as the layout's symbol indices).
  ModuleLayout L;
  auto Data = layoutData(M, Opts); // lowerModule checked it already
  if (!Data)
    return Data.error();
  for (auto [K, Off] : Data->constOffset)
    L.constOffset[K] = uint32_t(Off);
  for (auto [K, Off] : Data->globalOffset)
    L.globalOffset[K] = uint32_t(Off);
  Out.constant = dataSegment(Data->constSize, Data->constInitEnd, Data->constAlign);
  Out.global = dataSegment(Data->globalSize, Data->globalInitEnd, Data->globalAlign);
  uint32_t Sym = 0;
  for (uint32_t K = 0; K < M.globals.size(); ++K) {
    const ptx::Variable &V = M.globals[K];
    if (V.space != ptx::Space::Global && V.space != ptx::Space::Const)
      continue;
    L.symbolIndex[K] = Sym++;
    wfx::Symbol S;
    S.name = std::string(V.name);
    S.segment = V.space == ptx::Space::Const ? wfx::Segment::Const : wfx::Segment::Global;
    S.offset = V.space == ptx::Space::Const ? L.constOffset[K] : L.globalOffset[K];
    S.size = uint32_t(V.sizeInBytes()); // at most kMaxSegmentBytes (layoutData)
    Out.symbols.push_back(S);
  }
  // Code layout.
  std::vector<uint32_t> FuncAddr;
  std::vector<std::vector<uint32_t>> BlockAddr;
  uint32_t Pc = 0;
  for (const Function &F : WM->functions) {
    FuncAddr.push_back(Pc);
    BlockAddr.emplace_back();
    for (const Block &B : F.blocks) {
      BlockAddr.back().push_back(Pc);
      Pc += uint32_t(B.insts.size()) * isa::kInstBytes;
    }
  }
  std::map<std::string_view, uint32_t> CodeAddr;
  for (size_t FI = 0; FI < WM->functions.size(); ++FI)
    CodeAddr[M.functions[WM->ptxIndex[FI]].name] = FuncAddr[FI];
  for (uint32_t K = 0; K < M.globals.size(); ++K) {
    const ptx::Variable &V = M.globals[K];
    if (!V.hasInit)
      continue;
    if (V.space == ptx::Space::Const)
      writeInit(M, V, wfx::Segment::Const, Out.constant.image, L.constOffset[K], L, Out.relocs,
                CodeAddr);
    else if (V.space == ptx::Space::Global)
      writeInit(M, V, wfx::Segment::Global, Out.global.image, L.globalOffset[K], L, Out.relocs,
                CodeAddr);
  }

  uint32_t MaxCalleeRegs = 1;
  for (const Function &F : WM->functions)
    if (!F.isKernel)
      MaxCalleeRegs = std::max(MaxCalleeRegs, F.numGprs);
  Out.code.reserve(Pc);
  for (size_t FI = 0; FI < WM->functions.size(); ++FI) {
    const Function &F = WM->functions[FI];
    uint32_t Start = uint32_t(Out.code.size());
    for (const Block &B : F.blocks)
      for (const Inst &I : B.insts) {
        uint32_t At = uint32_t(Out.code.size());
        PendingReloc R;
        auto W = encodeInst(F, I, At, BlockAddr[FI], FuncAddr, &R);
        if (!W) {
          Error E = W.error();
          E.loc = {M.fileName, I.loc.line, I.loc.col};
          return E;
        }
        for (int K = 0; K < 8; ++K)
          Out.code.push_back(uint8_t(*W >> (8 * K)));
        if (R.valid) {
          wfx::Reloc X;
          X.segment = wfx::Segment::Code;
          X.offset = At + R.fieldByte;
          X.kind = R.hi ? wfx::RelocKind::AbsHi32 : wfx::RelocKind::AbsLo32;
          X.symbol = R.symbol;
          X.target = Out.symbols.at(R.symbol).segment;
          X.addend = R.addend;
          Out.relocs.push_back(X);
        }
        if (I.loc.line) {
          wfx::LineRow Row{At, 0, I.loc.line, I.loc.col};
          if (Out.lines.empty() || Out.lines.back().line != Row.line ||
              Out.lines.back().column != Row.column)
            Out.lines.push_back(Row);
        }
      }
    const ptx::Function &PF = M.functions[WM->ptxIndex[FI]];
    wfx::Symbol S;
    S.name = F.name;
    S.segment = wfx::Segment::Code;
    S.offset = Start;
    S.size = uint32_t(Out.code.size()) - Start;
    Out.symbols.push_back(S);
    if (!F.isKernel)
      continue;
    wfx::Kernel Kn;
    Kn.name = F.name;
    Kn.entry = Start;
    Kn.codeSize = S.size;
    Kn.regsPerThread = F.hasCalls ? std::max(F.numGprs, MaxCalleeRegs) : F.numGprs;
    Kn.regsPerThread = std::max<uint32_t>(Kn.regsPerThread, 1);
    Kn.sharedBytes = WM->sharedBytes[FI];
    Kn.localBytes = F.hasCalls ? std::max(std::min(Opts.stackBytes,
                                                    isa::findConfig(Opts.config)->maxLocalBytesPerThread),
                                           F.frame.size)
                               : F.frame.size;
    uint32_t End = 0;
    std::vector<uint32_t> Offs = layoutParams(PF.params, 0, &End);
    for (size_t K = 0; K < PF.params.size(); ++K) {
      wfx::ParamEntry P;
      P.offset = Offs[K];
      P.size = uint32_t(PF.params[K].sizeInBytes());
      P.align = uint32_t(std::max<uint64_t>(1, PF.params[K].alignment()));
      if (P.align & (P.align - 1))
        P.align = 1;
      Kn.params.push_back(P);
    }
    Kn.paramBytes = End;
    auto Dim = [](const std::array<uint32_t, 3> &D) {
      wfx::Dim3 R;
      if (D[0])
        R = {D[0], D[1] ? D[1] : 1, D[2] ? D[2] : 1};
      return R;
    };
    Kn.maxntid = Dim(PF.perf.maxntid);
    Kn.reqntid = Dim(PF.perf.reqntid);
    Kn.minCtasPerSm = PF.perf.minnctapersm;
    Out.kernels.push_back(Kn);
  }
  // Line rows must have strictly increasing offsets (one instruction each at least).
  if (auto S = wfx::validate(Out, M.fileName); !S)
    return S.error();
  return Out;
}

} // namespace wf::codegen
