//===- ManagedVars.cpp - __managed__ variables for clang's CUDA host code -===//
//
// Why this exists: clang (14) accepts __managed__ only for HIP. For CUDA, our headers declare a
// __managed__ variable as a __device__ variable whose host-side declaration carries the section
// kManagedSection (compiler/cuda/include/__wf_host_defines.h). clang's host code would read and
// write that variable's host shadow directly, at an address outside device memory, while a
// managed variable must be one object that host and kernels share. nvcc's host code reaches it
// through a pointer registered with __cudaRegisterManagedVar, which the runtime aims at the
// device copy (host-mapped at the same address). This pass, run on the host module through
// -fpass-plugin, gives clang's host code the same shape:
//
//  - each marked shadow gets a pointer variable, registered with __cudaRegisterManagedVar in
//    place of the __cudaRegisterVar call clang emitted for the shadow;
//  - every use of the shadow in host code (instructions, and constant expressions turned into
//    instructions) uses the address read through that pointer instead. The first read loads
//    the module (__cudaInitModule) when the pointer is still unset, as nvcc's code does;
//  - a global initializer that takes the shadow's address is reported: that address is known
//    only at run time.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

namespace {

/// The section our CUDA headers put a __managed__ variable's host shadow in.
constexpr const char *kManagedSection = ".warpforge.managed";

/// What clang's host code names the module handle __cudaRegisterFatBinary returned.
constexpr const char *kHandleName = "__cuda_gpubin_handle";

/// True when constant `C` is `Target` or is built from it.
bool refersTo(const Constant *C, const GlobalVariable *Target) {
  if (C == Target)
    return true;
  if (!isa<ConstantExpr>(C) && !isa<ConstantAggregate>(C))
    return false;
  for (const Use &Op : C->operands())
    if (refersTo(cast<Constant>(Op.get()), Target))
      return true;
  return false;
}

class ManagedVarRewriter {
public:
  explicit ManagedVarRewriter(Module &M)
      : M(M), Ctx(M.getContext()), BytePtr(Type::getInt8PtrTy(Ctx)) {}

  /// Rewrites every marked shadow; false when nothing changed.
  bool run();

private:
  bool rewrite(GlobalVariable &Shadow);
  CallInst *findRegistration(GlobalVariable &Shadow);
  Function *getAddressFunction();
  Value *addressAt(GlobalVariable &Slot, Type *ShadowType, Instruction *InsertBefore);
  Value *rebuild(Constant *C, GlobalVariable &Shadow, Value *Address, Instruction *InsertBefore);
  void error(const Twine &Message) { Ctx.emitError("warpforge: " + Message); }

  Module &M;
  LLVMContext &Ctx;
  PointerType *BytePtr;
  Function *AddressFn = nullptr;
};

bool ManagedVarRewriter::run() {
  SmallVector<GlobalVariable *, 8> Shadows;
  for (GlobalVariable &G : M.globals())
    if (G.hasSection() && G.getSection() == kManagedSection)
      Shadows.push_back(&G);
  bool Changed = false;
  for (GlobalVariable *Shadow : Shadows)
    Changed |= rewrite(*Shadow);
  return Changed;
}

/// The __cudaRegisterVar call clang emitted for `Shadow`, or null.
CallInst *ManagedVarRewriter::findRegistration(GlobalVariable &Shadow) {
  Function *RegisterVar = M.getFunction("__cudaRegisterVar");
  if (!RegisterVar)
    return nullptr;
  for (User *U : RegisterVar->users()) {
    auto *Call = dyn_cast<CallInst>(U);
    if (Call && Call->getCalledFunction() == RegisterVar && Call->arg_size() == 8 &&
        Call->getArgOperand(1)->stripPointerCasts() == &Shadow)
      return Call;
  }
  return nullptr;
}

/// `i8* @__warpforge_managed_address(i8** %slot)`: the pointer in `slot`, after loading the
/// module (which aims the registered pointers at the device copies) when it is still unset.
Function *ManagedVarRewriter::getAddressFunction() {
  if (AddressFn)
    return AddressFn;
  auto *HandleType = PointerType::getUnqual(BytePtr);
  auto *FnType = FunctionType::get(BytePtr, {PointerType::getUnqual(BytePtr)}, false);
  AddressFn =
      Function::Create(FnType, GlobalValue::InternalLinkage, "__warpforge_managed_address", M);
  FunctionCallee InitModule =
      M.getOrInsertFunction("__cudaInitModule", Type::getInt8Ty(Ctx), HandleType);
  GlobalVariable *Handle = M.getGlobalVariable(kHandleName, /*AllowInternal=*/true);

  auto *Entry = BasicBlock::Create(Ctx, "entry", AddressFn);
  auto *Load = BasicBlock::Create(Ctx, "load", AddressFn);
  auto *Done = BasicBlock::Create(Ctx, "done", AddressFn);
  Value *Slot = AddressFn->getArg(0);
  IRBuilder<> B(Entry);
  Value *Current = B.CreateLoad(BytePtr, Slot);
  B.CreateCondBr(B.CreateIsNull(Current), Load, Done);
  B.SetInsertPoint(Load);
  B.CreateCall(InitModule, {B.CreateLoad(HandleType, Handle)});
  Value *Loaded = B.CreateLoad(BytePtr, Slot);
  B.CreateBr(Done);
  B.SetInsertPoint(Done);
  PHINode *Result = B.CreatePHI(BytePtr, 2);
  Result->addIncoming(Current, Entry);
  Result->addIncoming(Loaded, Load);
  B.CreateRet(Result);
  return AddressFn;
}

/// The shadow's real address, computed just before `InsertBefore`, typed as the shadow.
Value *ManagedVarRewriter::addressAt(GlobalVariable &Slot, Type *ShadowType,
                                     Instruction *InsertBefore) {
  IRBuilder<> B(InsertBefore);
  Value *Address = B.CreateCall(getAddressFunction(), {&Slot});
  return B.CreatePointerCast(Address, ShadowType);
}

/// Constant `C` as instructions before `InsertBefore`, with `Shadow` replaced by `Address`.
Value *ManagedVarRewriter::rebuild(Constant *C, GlobalVariable &Shadow, Value *Address,
                                   Instruction *InsertBefore) {
  if (C == &Shadow)
    return Address;
  auto *Expr = dyn_cast<ConstantExpr>(C);
  if (!Expr || !refersTo(Expr, &Shadow))
    return C;
  // Operands first, so that each instruction comes after those it uses.
  Instruction *I = Expr->getAsInstruction();
  for (Use &Op : I->operands())
    Op.set(rebuild(cast<Constant>(Op.get()), Shadow, Address, InsertBefore));
  I->insertBefore(InsertBefore);
  return I;
}

bool ManagedVarRewriter::rewrite(GlobalVariable &Shadow) {
  // Who uses the shadow: instructions, directly or through constant expressions, and global
  // initializers. The llvm.* lists (llvm.used and the like) keep naming the shadow itself.
  SmallSetVector<Instruction *, 16> Users;
  SmallVector<Constant *, 8> Pending = {&Shadow};
  while (!Pending.empty()) {
    Constant *C = Pending.pop_back_val();
    for (User *U : C->users()) {
      if (auto *I = dyn_cast<Instruction>(U)) {
        Users.insert(I);
      } else if (auto *G = dyn_cast<GlobalVariable>(U)) {
        if (!G->getName().startswith("llvm.")) {
          error("the initializer of '" + G->getName() + "' uses the address of the __managed__ " +
                "variable '" + Shadow.getName() +
                "', which is known only at run time; assign it in code instead");
          return false;
        }
      } else if (auto *Const = dyn_cast<Constant>(U)) {
        Pending.push_back(Const);
      }
    }
  }

  CallInst *Registration = findRegistration(Shadow);
  if (!Registration) {
    if (Users.empty())
      return false;
    error("the __managed__ variable '" + Shadow.getName() +
          "' is used but not defined in this file; separately compiled device code is not "
          "supported");
    return false;
  }
  if (!M.getGlobalVariable(kHandleName, /*AllowInternal=*/true)) {
    error("clang's host code has no '" + Twine(kHandleName) +
          "' here; this clang version is not supported for __managed__ variables");
    return false;
  }

  // The pointer the runtime aims at the device copy.
  auto *Slot =
      new GlobalVariable(M, BytePtr, /*isConstant=*/false, GlobalValue::InternalLinkage,
                         ConstantPointerNull::get(BytePtr), Shadow.getName() + ".managed_ptr");
  Slot->setAlignment(M.getDataLayout().getPointerABIAlignment(0));

  // __cudaRegisterManagedVar takes the same arguments as __cudaRegisterVar, with the pointer's
  // address in place of the shadow's.
  SmallVector<Value *, 8> Args(Registration->args());
  SmallVector<Type *, 8> ArgTypes;
  for (Value *Arg : Args)
    ArgTypes.push_back(Arg->getType());
  ArgTypes[1] = PointerType::getUnqual(BytePtr);
  Args[1] = Slot;
  auto *RegisterType = FunctionType::get(Type::getVoidTy(Ctx), ArgTypes, false);
  // clang declares the name with HIP's parameters, unused in CUDA mode; ours are CUDA's.
  if (Function *Declared = M.getFunction("__cudaRegisterManagedVar");
      Declared && Declared->getFunctionType() != RegisterType && Declared->use_empty())
    Declared->eraseFromParent();
  FunctionCallee RegisterManaged = M.getOrInsertFunction("__cudaRegisterManagedVar", RegisterType);
  CallInst::Create(RegisterManaged, Args, "", Registration);
  Users.remove(Registration);
  Registration->eraseFromParent();

  // Every other use reads the address through the pointer. A phi's value is computed at the end
  // of the incoming block, once per block.
  for (Instruction *I : Users) {
    if (auto *Phi = dyn_cast<PHINode>(I)) {
      DenseMap<BasicBlock *, Value *> PerBlock;
      for (unsigned N = 0; N < Phi->getNumIncomingValues(); ++N) {
        auto *C = dyn_cast<Constant>(Phi->getIncomingValue(N));
        if (!C || !refersTo(C, &Shadow))
          continue;
        BasicBlock *From = Phi->getIncomingBlock(N);
        Value *&Rebuilt = PerBlock[From];
        if (!Rebuilt) {
          Instruction *At = From->getTerminator();
          Rebuilt = rebuild(C, Shadow, addressAt(*Slot, Shadow.getType(), At), At);
        }
        Phi->setIncomingValue(N, Rebuilt);
      }
      continue;
    }
    for (Use &Op : I->operands()) {
      auto *C = dyn_cast<Constant>(Op.get());
      if (!C || !refersTo(C, &Shadow))
        continue;
      if (!isa<ConstantExpr>(C) && C != &Shadow) {
        error("an aggregate constant in function '" + I->getFunction()->getName() +
              "' holds the address of the __managed__ variable '" + Shadow.getName() +
              "'; this form is not supported");
        return true;
      }
      Op.set(rebuild(C, Shadow, addressAt(*Slot, Shadow.getType(), I), I));
    }
  }

  // The shadow is left only for the llvm.* lists, if any.
  Shadow.removeDeadConstantUsers();
  if (Shadow.use_empty())
    Shadow.eraseFromParent();
  else
    Shadow.setSection("");
  return true;
}

struct ManagedVarsPass : PassInfoMixin<ManagedVarsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    return ManagedVarRewriter(M).run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "WarpforgeManagedVars", LLVM_VERSION_STRING,
          [](PassBuilder &PB) {
            // Before any optimization: the optimizer would otherwise fold loads of the shadow,
            // an internal variable clang leaves uninitialized.
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) { MPM.addPass(ManagedVarsPass()); });
          }};
}
