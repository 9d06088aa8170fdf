// cass-cc's division guard: an LLVM pass plugin loaded into clang for every HIP compile.
//
// LLVM 15-17's AMDGPU back end divides 32- and 64-bit integers through float when it believes
// from the operands' sign bits that they fit in 24 bits (AMDGPUCodeGenPrepare::expandDivRem24,
// AMDGPUTargetLowering::LowerDIVREM24). For unsigned division that belief is wrong: 0xffffffff
// has 32 sign bits and becomes the float 2^32, so 0xffffffffu % 3 gave 28 (cass-data fuzz r2:1142;
// llvm-project #194829, fixed in LLVM 20 and later). Even inside 24 bits v_rcp_f32's error made
// 0xbf2758 / 0xbf2759 give 1 (llvm-project #202753). So the dividend of every integer division
// and remainder in AMDGPU code, and a divisor that is not a constant, pass through an empty inline
// asm the back end cannot see into: it then uses its exact integer expansion. A constant divisor
// stays visible, so division by a constant keeps its multiply-high form.
//
// Runs at the end of the optimisation pipeline (every -O level; before LTO's pre-link output too).
// Host code (any other target) is left alone.

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#if LLVM_VERSION_MAJOR >= 17
#include "llvm/TargetParser/Triple.h"
#else
#include "llvm/ADT/Triple.h"
#endif

using namespace llvm;

namespace {

bool isDivision(const Instruction &I) {
  switch (I.getOpcode()) {
  case Instruction::UDiv:
  case Instruction::URem:
  case Instruction::SDiv:
  case Instruction::SRem:
    return I.getType()->isIntegerTy(32) || I.getType()->isIntegerTy(64);
  default:
    return false;
  }
}

struct OpaqueDivision : PassInfoMixin<OpaqueDivision> {
  // required: -O0 marks functions optnone, and the pass manager skips optional passes on those
  static bool isRequired() { return true; }

  PreservedAnalyses run(Function &F, FunctionAnalysisManager &) {
    if (!Triple(F.getParent()->getTargetTriple()).isAMDGPU())
      return PreservedAnalyses::all();
    SmallVector<Instruction *, 8> Work;
    for (Instruction &I : instructions(F))
      if (isDivision(I))
        Work.push_back(&I);
    for (Instruction *I : Work) {
      IRBuilder<> Builder(I);
      Type *Ty = I->getType();
      FunctionType *FnTy = FunctionType::get(Ty, {Ty}, false);
      InlineAsm *Hide = InlineAsm::get(FnTy, "", "=v,0", /*hasSideEffects=*/false);
      for (unsigned Op = 0; Op < 2; ++Op) {
        Value *V = I->getOperand(Op);
        if (Op == 1 && isa<Constant>(V))
          continue;
        I->setOperand(Op, Builder.CreateCall(FnTy, Hide, {V}));
      }
    }
    return Work.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "cass-division-guard", "1", [](PassBuilder &PB) {
            PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
              MPM.addPass(createModuleToFunctionPassAdaptor(OpaqueDivision()));
            });
          }};
}
