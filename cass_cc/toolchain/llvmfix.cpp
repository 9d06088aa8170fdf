// cass-cc's LLVM fixes plugin: an LLVM pass plugin loaded into clang for every HIP compile (and
// into the lifter's opt), working around miscompilations of LLVM 15-16's AMDGPU back end. Each
// part below says which, and the fuzz case that found it.
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
// The same belief spoils 64-bit multiplication (LLVM 15 to 19): the back end splits it into
// 32-bit halves, and AMDGPUTargetLowering::performMulLoHiCombine takes the unsigned low-word
// product (UMUL_LOHI) to v_mul_i32_i24/v_mul_hi_i32_i24 when both low words have 9 or more sign
// bits. Its high half is then signed: (u64)(x & 7) * 0xffffffffu had -1 where x - 1 was due, an
// index out of bounds (cass-data fuzz r3:1053), and (u64)(unsigned)(short)a * (u64)(short)b was
// wrong for a negative short (fixed by llvm-project #105831, August 2024). So a 64-bit multiply's
// operand whose low word may have its top bit set has that low word hidden the same way (a zero-
// or sign-extension stays outside, so the back end still knows the high word and the multiply
// keeps its short form). __builtin_mul_overflow's 64-bit intrinsics multiply the high words too:
// theirs are hidden alike. A constant like a hash multiplier with a clear top bit is left alone.
//
// LLVM 15-18's AMDGPU back end writes an element of a register vector (a private array that
// promote-alloca made a vector) at a non-constant index with v_movreld, the index in m0. An index
// it knows to be uniform but finds in a VGPR (made by an instruction with no scalar form, like the
// v_sad_u32 of __usad) goes through a waterfall loop, and that path (emitIndirectDst) drops the
// part of the index it folded into a subregister: a double's high word overwrote its low word, and
// a[u + 5] was written at a[u] (cass-data fuzz r3:1675; llvm-project #98907, fixed July 2024). So
// a uniform index of an insertelement passes through llvm.amdgcn.readfirstlane, the same value in
// an SGPR, and takes the exact path. A divergent index never reaches the loop: the back end
// expands its insert into selects.
//
// LLVM 15 and 16's AMDGPU back ends cannot select llvm.amdgcn.fcmp with an unordered or ordered predicate
// ("Cannot select: i32 = SETCC ..., setuo"), for any float type; InstCombine makes one of a vote on
// a NaN test, __ballot_sync/__any_sync/__all_sync(m, isnan(x)) with x a double or a half (its
// icmp ne 0 of the zero-extended fcmp uno x, 0.0). Per lane, x uno y is x une x or y une y, and
// x ord y is x oeq x and y oeq y, so such a vote is rewritten into the OR / AND of the lane masks
// of those selectable compares (a constant operand that is not a NaN drops its term).
//
// Runs at the end of the optimisation pipeline (every -O level; before LTO's pre-link output too).
// Host code (any other target) is left alone.

#include "llvm/Config/llvm-config.h"  // LLVM_VERSION_MAJOR, read by the #if below
#if LLVM_VERSION_MAJOR >= 17
#include "llvm/Analysis/UniformityAnalysis.h"
#else
#include "llvm/Analysis/DivergenceAnalysis.h"
#endif
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/KnownBits.h"
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

bool isWideMultiply(const Instruction &I) {
  return I.getOpcode() == Instruction::Mul && I.getType()->isIntegerTy(64);
}

// llvm.umul/smul.with.overflow.i64 (__builtin_mul_overflow): expanded into products of every
// 32-bit word of the operands, high words included.
bool isCheckedWideMultiply(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II &&
         (II->getIntrinsicID() == Intrinsic::umul_with_overflow ||
          II->getIntrinsicID() == Intrinsic::smul_with_overflow) &&
         II->getArgOperand(0)->getType()->isIntegerTy(64);
}

// A zext or sext from 32 bits or fewer: its low word is the source extended to 32 bits.
const CastInst *narrowExtension(const Value *V) {
  const auto *Ext = dyn_cast<CastInst>(V);
  if (Ext && (isa<ZExtInst>(Ext) || isa<SExtInst>(Ext)) &&
      Ext->getSrcTy()->getIntegerBitWidth() <= 32)
    return Ext;
  return nullptr;
}

// Whether a word of V may have its top bit set: the back end may then take it for a negative
// 24-bit number (when it finds 9 or more sign bits, which it can see in more places than IR
// analysis here), a large unsigned word. A word known to be non-negative is safe either way:
// with 9 sign bits it is below 2^23, where the signed and unsigned products agree.
bool lowWordMayBeNegative(const Value *V, const DataLayout &DL) {
  return !computeKnownBits(V, DL).trunc(32).isNonNegative();
}
bool highWordMayBeNegative(const Value *V, const DataLayout &DL) {
  return !computeKnownBits(V, DL).isNonNegative();
}

// V (an i64) with its low word, and where High its high word, passed through Hide (an i32 -> i32
// inline asm) before the multiply.
Value *hideWords(IRBuilder<> &Builder, Value *V, bool Low, bool High, FunctionType *HideTy,
                 InlineAsm *Hide) {
  Type *I32 = Builder.getInt32Ty(), *I64 = V->getType();
  auto hidden = [&](Value *W, bool Hidden) {
    return Hidden ? Builder.CreateCall(HideTy, Hide, {W}) : W;
  };
  if (!High) {
    if (const CastInst *Ext = narrowExtension(V)) {
      // extend the hidden word the same way: the back end still knows the high word
      Value *Word = Builder.CreateSExt(Ext->getOperand(0), I32); // a zext reaching here is from i32
      return Builder.CreateCast(Ext->getOpcode(), hidden(Word, Low), I64);
    }
    Value *Word = Builder.CreateZExt(hidden(Builder.CreateTrunc(V, I32), Low), I64);
    return Builder.CreateOr(Word, Builder.CreateAnd(V, ConstantInt::get(I64, ~0xffffffffull)));
  }
  Value *LowWord = Builder.CreateZExt(hidden(Builder.CreateTrunc(V, I32), Low), I64);
  Value *HighWord = hidden(Builder.CreateTrunc(Builder.CreateLShr(V, 32), I32), true);
  return Builder.CreateOr(LowWord, Builder.CreateShl(Builder.CreateZExt(HighWord, I64), 32));
}

// An insertelement at a non-constant index (LLVM 19 and later write those right).
bool isIndexedInsert(const Instruction &I) {
  return LLVM_VERSION_MAJOR < 19 && isa<InsertElementInst>(I) && !isa<Constant>(I.getOperand(2));
}

// The inserts in Inserts whose index is uniform, for scalarIndex.
SmallVector<Instruction *, 4> uniformIndexed(Function &F, FunctionAnalysisManager &FAM,
                                             ArrayRef<Instruction *> Inserts) {
  SmallVector<Instruction *, 4> Uniform;
  if (Inserts.empty())
    return Uniform;
#if LLVM_VERSION_MAJOR >= 17
  const auto &UI = FAM.getResult<UniformityInfoAnalysis>(F);
  auto divergent = [&](const Value *V) { return UI.isDivergent(V); };
#else
  const auto &DI = FAM.getResult<DivergenceAnalysis>(F);
  auto divergent = [&](const Value *V) { return DI.isDivergent(*V); };
#endif
  for (Instruction *I : Inserts)
    if (!divergent(I->getOperand(2)))
      Uniform.push_back(I);
  return Uniform;
}

// I's index (uniform) read from the first active lane: the same value, but in an SGPR.
void scalarIndex(Instruction *I) {
  IRBuilder<> Builder(I);
  Value *Index = I->getOperand(2);
  Value *Word = Builder.CreateZExtOrTrunc(Index, Builder.getInt32Ty()); // a wider one is out of range
  Word = Builder.CreateIntrinsic(Intrinsic::amdgcn_readfirstlane, {}, {Word});
  I->setOperand(2, Builder.CreateZExtOrTrunc(Word, Index->getType()));
}

// llvm.amdgcn.fcmp(x, y, uno or ord): a lane mask LLVM 15 and 16 cannot select.
bool isUnorderedVote(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II || II->getIntrinsicID() != Intrinsic::amdgcn_fcmp)
    return false;
  const auto *Pred = dyn_cast<ConstantInt>(II->getArgOperand(2));
  return Pred && (Pred->getZExtValue() == CmpInst::FCMP_UNO || Pred->getZExtValue() == CmpInst::FCMP_ORD);
}

// The vote I (isUnorderedVote) as the OR (uno) or AND (ord) of each operand's self-compare mask.
void splitUnorderedVote(Instruction *I) {
  auto *II = cast<IntrinsicInst>(I);
  bool Unordered = cast<ConstantInt>(II->getArgOperand(2))->getZExtValue() == CmpInst::FCMP_UNO;
  IRBuilder<> Builder(II);
  Value *Mask = nullptr;
  for (unsigned Op = 0; Op < 2; ++Op) {
    Value *V = II->getArgOperand(Op);
    const auto *C = dyn_cast<ConstantFP>(V);
    if (C && !C->isNaN())
      continue; // never NaN: false for uno, true for ord
    Value *Self = Builder.CreateCall(II->getCalledFunction(),
                                     {V, V, Builder.getInt32(Unordered ? CmpInst::FCMP_UNE : CmpInst::FCMP_OEQ)});
    Mask = !Mask ? Self : Unordered ? Builder.CreateOr(Mask, Self) : Builder.CreateAnd(Mask, Self);
  }
  if (!Mask) { // two constants, which InstCombine folds before this runs
    if (!Unordered)
      return;
    Mask = Constant::getNullValue(II->getType()); // no lane is unordered
  }
  II->replaceAllUsesWith(Mask);
  II->eraseFromParent();
}

// llvm.maxnum/minnum, whose operands the back end must quiet first in IEEE mode (V_MAX_F32 turns a
// signalling NaN into a NaN result, where maxnum ignores any NaN): LLVM 15 merged
// fmaxf(c, fmaxf(sNaN, x)) into one v_max3_f32 without quieting, and the signalling NaN came out
// (fuzz r3:1689: CUDA's 0x1b, cass-cc's NaN). An explicit llvm.canonicalize of each operand that
// is not a constant survives the merge; where the back end knows a value is quiet already (the
// result of arithmetic) it drops the canonicalize again.
bool isMinMax(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && (II->getIntrinsicID() == Intrinsic::maxnum || II->getIntrinsicID() == Intrinsic::minnum) &&
         II->getType()->isFloatingPointTy();
}

void quietOperands(Instruction *I) {
  auto *II = cast<IntrinsicInst>(I);
  IRBuilder<> Builder(II);
  for (unsigned Op = 0; Op < 2; ++Op) {
    Value *V = II->getArgOperand(Op);
    if (!isa<Constant>(V))
      II->setArgOperand(Op, Builder.CreateUnaryIntrinsic(Intrinsic::canonicalize, V));
  }
}

struct LlvmFixes : PassInfoMixin<LlvmFixes> {
  // required: -O0 marks functions optnone, and the pass manager skips optional passes on those
  static bool isRequired() { return true; }

  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    if (!Triple(F.getParent()->getTargetTriple()).isAMDGPU())
      return PreservedAnalyses::all();
    SmallVector<Instruction *, 8> Work, Multiplies, Inserts, Votes, MinMax;
    for (Instruction &I : instructions(F)) {
      if (isDivision(I))
        Work.push_back(&I);
      else if (isWideMultiply(I) || isCheckedWideMultiply(I))
        Multiplies.push_back(&I);
      else if (isIndexedInsert(I))
        Inserts.push_back(&I);
      else if (isUnorderedVote(I))
        Votes.push_back(&I);
      else if (isMinMax(I))
        MinMax.push_back(&I);
    }
    // before any change: the analysis describes the function as it came
    SmallVector<Instruction *, 4> UniformInserts = uniformIndexed(F, FAM, Inserts);
    for (Instruction *I : UniformInserts)
      scalarIndex(I);
    for (Instruction *I : Votes)
      splitUnorderedVote(I);
    for (Instruction *I : MinMax)
      quietOperands(I);
    const DataLayout &DL = F.getParent()->getDataLayout();
    bool Changed = !Work.empty() || !UniformInserts.empty() || !Votes.empty() || !MinMax.empty();
    for (Instruction *I : Multiplies) {
      IRBuilder<> Builder(I);
      FunctionType *HideTy = FunctionType::get(Builder.getInt32Ty(), {Builder.getInt32Ty()}, false);
      InlineAsm *Hide = InlineAsm::get(HideTy, "", "=v,0", /*hasSideEffects=*/false);
      bool Words = isCheckedWideMultiply(*I); // a plain multiply's high words are only multiplied low
      for (unsigned Op = 0; Op < 2; ++Op) {
        Value *V = I->getOperand(Op);
        bool Low = lowWordMayBeNegative(V, DL), High = Words && highWordMayBeNegative(V, DL);
        if (Low || High) {
          I->setOperand(Op, hideWords(Builder, V, Low, High, HideTy, Hide));
          Changed = true;
        }
      }
    }
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
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "cass-llvm-fixes", "1", [](PassBuilder &PB) {
            PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
              MPM.addPass(createModuleToFunctionPassAdaptor(LlvmFixes()));
            });
          }};
}
