//===- Printer.cpp - Print a Module back as PTX ---------------------------===//
//
// Part of Warpforge.
//
//===----------------------------------------------------------------------===//

#include "warpforge/ptx/Printer.h"

#include <cinttypes>
#include <cstdio>
#include <sstream>

namespace wf::ptx {

namespace {

std::string hex(uint64_t V, unsigned Digits) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%0*" PRIX64, static_cast<int>(Digits), V);
  return Buf;
}

std::string sregName(const SRegRef &R) {
  const SRegInfo &Info = sregInfo(R.reg);
  std::string S(Info.name);
  if (Info.count != 0) {
    S += std::to_string(R.index);
    S += Info.suffix;
  }
  if (R.component >= 0) {
    S += '.';
    S += static_cast<char>('x' + R.component);
  }
  return S;
}

void printOffset(std::ostream &OS, int64_t Off) {
  if (Off == 0)
    return;
  OS << '+' << Off;
}

class ModulePrinter {
public:
  ModulePrinter(std::ostream &OS, const Module &M) : OS(OS), M(M) {}

  void printOperand(const Function &F, const Operand &Op) {
    if (Op.negated)
      OS << '!';
    switch (Op.kind) {
    case OperandKind::Reg:
      OS << F.regName(Op.reg);
      if (Op.component >= 0)
        OS << '.' << "xyzw"[Op.component];
      break;
    case OperandKind::SpecialReg:
      OS << sregName(Op.sreg);
      break;
    case OperandKind::Imm:
      OS << Op.imm;
      break;
    case OperandKind::FImm:
      OS << (Op.fwidth == 32 ? "0f" + hex(Op.fbits, 8) : "0d" + hex(Op.fbits, 16));
      break;
    case OperandKind::Symbol:
      OS << Op.symbol;
      printOffset(OS, Op.imm);
      break;
    case OperandKind::Address:
      OS << '[';
      if (!Op.elems.empty()) {
        printOperand(F, Op.elems[0]);
        printOffset(OS, Op.imm);
      } else {
        OS << Op.imm;
      }
      OS << ']';
      break;
    case OperandKind::TexAddress:
      OS << '[';
      for (size_t I = 0; I < Op.elems.size(); ++I) {
        if (I)
          OS << ", ";
        printOperand(F, Op.elems[I]);
      }
      OS << ']';
      break;
    case OperandKind::Vector:
      OS << '{';
      for (size_t I = 0; I < Op.elems.size(); ++I) {
        if (I)
          OS << ", ";
        printOperand(F, Op.elems[I]);
      }
      OS << '}';
      break;
    case OperandKind::Sink:
      OS << '_';
      break;
    case OperandKind::Pair:
      printOperand(F, Op.elems[0]);
      OS << '|';
      printOperand(F, Op.elems[1]);
      break;
    case OperandKind::List:
      OS << '(';
      for (size_t I = 0; I < Op.elems.size(); ++I) {
        if (I)
          OS << ", ";
        printOperand(F, Op.elems[I]);
      }
      OS << ')';
      break;
    }
  }

  void printInstruction(const Function &F, const Instruction &I) {
    if (I.hasGuard)
      OS << '@' << (I.guardNegated ? "!" : "") << F.regName(I.guard) << ' ';
    OS << I.opcode;
    if (I.op == Op::Call && I.operands.size() >= 3) {
      const Operand &Rets = I.operands[0];
      const Operand &Args = I.operands[2];
      bool Extra = I.operands.size() == 4;
      OS << ' ';
      if (!Rets.elems.empty()) {
        printOperand(F, Rets);
        OS << ", ";
      }
      printOperand(F, I.operands[1]);
      if (!Args.elems.empty() || Extra) {
        OS << ", ";
        printOperand(F, Args);
      }
      if (Extra) {
        OS << ", ";
        printOperand(F, I.operands[3]);
      }
      OS << ';';
      return;
    }
    for (size_t K = 0; K < I.operands.size(); ++K) {
      OS << (K ? ", " : " ");
      printOperand(F, I.operands[K]);
    }
    OS << ';';
  }

  void printParam(const Param &P) {
    OS << (P.space == Space::Reg ? ".reg" : ".param");
    if (P.align)
      OS << " .align " << P.align;
    if (P.vecWidth > 1)
      OS << " .v" << unsigned(P.vecWidth);
    OS << " ." << spelling(P.type);
    if (P.isPtr) {
      OS << " .ptr";
      if (P.ptrSpace != Space::None)
        OS << " ." << spelling(P.ptrSpace);
      if (P.ptrAlign)
        OS << " .align " << P.ptrAlign;
    }
    OS << ' ' << P.name;
    if (P.isArray)
      OS << '[' << P.arraySize << ']';
  }

  void printParamList(const std::vector<Param> &Ps) {
    OS << '(';
    for (size_t I = 0; I < Ps.size(); ++I) {
      OS << (I ? ", " : "");
      printParam(Ps[I]);
    }
    OS << ')';
  }

  void printVariable(const Variable &V, const char *Indent) {
    OS << Indent;
    if (V.linkage != Linkage::Internal)
      OS << spelling(V.linkage) << ' ';
    OS << '.' << spelling(V.space);
    if (V.managed)
      OS << " .attribute(.managed)";
    if (V.align)
      OS << " .align " << V.align;
    if (V.vecWidth > 1)
      OS << " .v" << unsigned(V.vecWidth);
    OS << " ." << spelling(V.type) << ' ' << V.name;
    for (uint64_t D : V.dims) {
      OS << '[';
      if (D)
        OS << D;
      OS << ']';
    }
    if (V.hasInit) {
      OS << " = ";
      bool Braces = !V.dims.empty() || V.vecWidth > 1;
      if (Braces)
        OS << '{';
      for (size_t I = 0; I < V.init.size(); ++I) {
        const InitElem &E = V.init[I];
        if (I)
          OS << ", ";
        switch (E.kind) {
        case InitElem::Kind::Int:
          if (kind(V.type) == TypeKind::Signed && bitWidth(V.type) < 64 &&
              (E.value >> (bitWidth(V.type) - 1)) & 1)
            OS << static_cast<int64_t>(E.value | (~uint64_t(0) << bitWidth(V.type)));
          else if (kind(V.type) == TypeKind::Signed)
            OS << static_cast<int64_t>(E.value);
          else
            OS << E.value;
          break;
        case InitElem::Kind::Float:
          OS << (bitWidth(V.type) == 32 ? "0f" + hex(E.value, 8) : "0d" + hex(E.value, 16));
          break;
        case InitElem::Kind::Address:
          if (E.generic)
            OS << "generic(" << E.symbol << ')';
          else
            OS << E.symbol;
          if (E.value != 0)
            OS << '+' << static_cast<int64_t>(E.value);
          break;
        }
      }
      if (Braces)
        OS << '}';
    }
    OS << ";\n";
  }

  static bool isRegParam(const Function &F, const RegDecl &D) {
    if (D.count != 0)
      return false;
    for (const auto *Ps : {&F.params, &F.returns})
      for (const Param &P : *Ps)
        if (P.space == Space::Reg && P.reg == D.firstId)
          return true;
    return false;
  }

  void printDim3(const char *Name, const std::array<uint32_t, 3> &D) {
    if (D[0] == 0)
      return;
    OS << ' ' << Name << ' ' << D[0] << ", " << D[1] << ", " << D[2];
  }

  void printFunction(const Function &F) {
    if (F.linkage != Linkage::Internal)
      OS << spelling(F.linkage) << ' ';
    OS << (F.isKernel ? ".entry " : ".func ");
    if (!F.isKernel && !F.returns.empty()) {
      printParamList(F.returns);
      OS << ' ';
    }
    OS << F.name;
    if (F.isKernel || !F.params.empty())
      printParamList(F.params);
    const PerfDirectives &P = F.perf;
    printDim3(".maxntid", P.maxntid);
    printDim3(".reqntid", P.reqntid);
    printDim3(".reqnctapercluster", P.reqnctapercluster);
    if (P.minnctapersm)
      OS << " .minnctapersm " << P.minnctapersm;
    if (P.maxnctapersm)
      OS << " .maxnctapersm " << P.maxnctapersm;
    if (P.maxnreg)
      OS << " .maxnreg " << P.maxnreg;
    if (P.maxclusterrank)
      OS << " .maxclusterrank " << P.maxclusterrank;
    if (P.explicitCluster)
      OS << " .explicitcluster";
    if (P.noReturn)
      OS << " .noreturn";
    for (std::string_view Pr : P.pragmas)
      OS << " .pragma \"" << Pr << "\";";
    if (!F.hasBody) {
      OS << ";\n\n";
      return;
    }
    OS << "\n{\n";
    for (const RegDecl &D : F.regDecls) {
      if (isRegParam(F, D))
        continue; // declared by the parameter list
      OS << "\t.reg";
      if (D.vecWidth > 1)
        OS << " .v" << unsigned(D.vecWidth);
      OS << " ." << spelling(D.type) << ' ' << D.name;
      if (D.count)
        OS << '<' << D.count << '>';
      OS << ";\n";
    }
    for (const Variable &V : F.locals)
      printVariable(V, "\t");
    for (const Prototype &Pr : F.prototypes) {
      OS << '\t' << Pr.name << ": .callprototype ";
      if (!Pr.returns.empty()) {
        printParamList(Pr.returns);
        OS << ' ';
      }
      OS << '_';
      if (!Pr.params.empty()) {
        OS << ' ';
        printParamList(Pr.params);
      }
      if (Pr.noReturn)
        OS << " .noreturn";
      OS << ";\n";
    }
    DebugLoc Last;
    for (const Statement &S : F.body) {
      switch (S.kind) {
      case StmtKind::Label:
        OS << F.labels[S.label].name << ":\n";
        break;
      case StmtKind::Pragma:
        OS << "\t.pragma \"" << S.pragma << "\";\n";
        break;
      case StmtKind::Instr: {
        const DebugLoc &D = S.inst.dbg;
        if (D.isValid() &&
            (D.file != Last.file || D.line != Last.line || D.col != Last.col ||
             D.inlinedAtFile != Last.inlinedAtFile || D.inlinedAtLine != Last.inlinedAtLine ||
             D.inlinedAtCol != Last.inlinedAtCol)) {
          OS << "\t.loc " << D.file << ' ' << D.line << ' ' << D.col;
          if (D.inlinedAtFile)
            OS << ", inlined_at " << D.inlinedAtFile << ' ' << D.inlinedAtLine << ' '
               << D.inlinedAtCol;
          OS << '\n';
          Last = D;
        }
        OS << '\t';
        printInstruction(F, S.inst);
        OS << '\n';
        break;
      }
      }
    }
    for (const BranchTargets &BT : F.branchTargets) {
      OS << '\t' << BT.name << ": .branchtargets ";
      for (size_t I = 0; I < BT.labels.size(); ++I)
        OS << (I ? ", " : "") << F.labels[BT.labels[I]].name;
      OS << ";\n";
    }
    OS << "}\n\n";
  }

  void print() {
    OS << ".version " << M.versionMajor << '.' << M.versionMinor << '\n';
    if (!M.target.empty()) {
      OS << ".target " << M.target;
      for (std::string_view T : M.targetOptions)
        OS << ", " << T;
      OS << '\n';
    }
    OS << ".address_size " << M.addressSize << "\n\n";
    for (const auto &[Index, Path] : M.files)
      OS << ".file " << Index << " \"" << Path << "\"\n";
    for (std::string_view P : M.pragmas)
      OS << ".pragma \"" << P << "\";\n";
    // Declarations first, so every function can be named by the initializers.
    for (const Function &F : M.functions) {
      if (F.isKernel)
        continue;
      OS << (F.linkage == Linkage::Internal ? "" : std::string(spelling(F.linkage)) + " ")
         << ".func ";
      if (!F.returns.empty()) {
        printParamList(F.returns);
        OS << ' ';
      }
      OS << F.name;
      if (!F.params.empty())
        printParamList(F.params);
      if (F.perf.noReturn)
        OS << " .noreturn";
      OS << ";\n";
    }
    for (const Variable &V : M.globals)
      printVariable(V, "");
    OS << '\n';
    // Device functions before kernels: the order a reparse of this output has.
    for (const Function &F : M.functions)
      if (!F.isKernel && F.hasBody)
        printFunction(F);
    for (const Function &F : M.functions)
      if (F.isKernel)
        printFunction(F);
  }

private:
  std::ostream &OS;
  const Module &M;
};

} // namespace

void printModule(std::ostream &OS, const Module &M) { ModulePrinter(OS, M).print(); }

std::string toString(const Module &M) {
  std::ostringstream SS;
  printModule(SS, M);
  return SS.str();
}

std::string toString(const Function &F, const Instruction &I) {
  std::ostringstream SS;
  Module Dummy;
  ModulePrinter(SS, Dummy).printInstruction(F, I);
  return SS.str();
}

} // namespace wf::ptx
