//===- StaticEstimate.cpp - A profile from LLVM's static estimates --------===//
//
// The profile a compiler guesses without any run: LLVM's static branch
// probabilities (BranchProbabilityInfo's heuristics: loops, unreachable and
// cold code, pointer, zero and float comparisons) and the block
// frequencies they give (BlockFrequencyInfo), turned into counts and
// propagated over the call graph from its roots. It is the baseline a
// prediction must beat to be worth a training corpus (docs/Eval.md).
//
// The module is translated to LLVM IR to run LLVM's own analyses on it;
// the translation creates one LLVM block per MLIR block, in order, so the
// results map back by position (checked per function: a function whose
// blocks do not line up is left without an estimate).
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Target/LLVMIR/PhaedrusToLLVMIRTranslation.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Transforms/Scalar/LowerExpectIntrinsic.h"
#include "llvm/TargetParser/Triple.h"

#include <cmath>

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSSTATICESTIMATEPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

namespace {

/// What LLVM's analyses estimate for one function: each block's frequency
/// relative to the entry block's, and each conditional branch's or
/// switch's successor probabilities, by block position.
struct FunctionEstimate {
  std::vector<double> blockFrequency;
  std::vector<std::vector<double>> successorProbability;
};

/// No run measured or predicted a static estimate.
constexpr double kConfidence = 0.0;

/// Counts are kept in doubles until they are attached: a block deep in
/// loops can be estimated at 2^60 times its function's entry.
constexpr double kMaxCount = 0x1p62;

uint64_t toCount(double value) {
  if (!(value > 0))
    return 0;
  // A positive estimate is at least 1: 0 says "never ran", which the
  // lowering makes cold, and no static estimate knows that.
  return static_cast<uint64_t>(std::min(std::max(std::round(value), 1.0),
                                        kMaxCount));
}

struct PhaedrusStaticEstimatePass
    : public phaedrus::impl::PhaedrusStaticEstimatePassBase<
          PhaedrusStaticEstimatePass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<PhaedrusDialect, LLVM::LLVMDialect, DLTIDialect>();
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerPhaedrusDialectTranslation(registry);
  }

  void runOnOperation() override;
};

/// The module's program alone, translated to LLVM IR: a copy without
/// phaedrus ops and annotations (which have no LLVM IR form).
std::unique_ptr<llvm::Module> translateProgram(ModuleOp module,
                                               llvm::LLVMContext &context) {
  OwningOpRef<ModuleOp> copy = module.clone();
  stripPhaedrusIR(*copy, /*keepLoweredProfile=*/false);
  return translateModuleToLLVMIR(*copy, context);
}

/// LLVM's estimate for `function`, or std::nullopt when its blocks do not
/// line up with `mlirFunction`'s. (The translation appends a block for
/// each edge that repeats a successor with other arguments, so that LLVM's
/// phis can tell them apart; the module's blocks come first, in order, and
/// an edge's probability is by successor index either way.)
std::optional<FunctionEstimate> estimate(llvm::Function &function,
                                         LLVM::LLVMFuncOp mlirFunction,
                                         const llvm::TargetLibraryInfo &tli) {
  Region &body = mlirFunction.getBody();
  if (function.size() < body.getBlocks().size())
    return std::nullopt;
  llvm::DominatorTree dominators(function);
  llvm::PostDominatorTree postDominators(function);
  llvm::LoopInfo loops(dominators);
  llvm::BranchProbabilityInfo probabilities(function, loops, &tli, &dominators,
                                            &postDominators);
  llvm::BlockFrequencyInfo frequencies(function, probabilities, loops);
  double entry =
      static_cast<double>(frequencies.getEntryFreq().getFrequency());
  FunctionEstimate result;
  auto llvmBlock = function.begin();
  for (Block &mlirBlock : body) {
    llvm::BasicBlock &block = *llvmBlock++;
    Operation *terminator = mlirBlock.getTerminator();
    llvm::Instruction *llvmTerminator = block.getTerminator();
    if (!llvmTerminator ||
        terminator->getNumSuccessors() != llvmTerminator->getNumSuccessors())
      return std::nullopt;
    result.blockFrequency.push_back(
        entry > 0 ? static_cast<double>(
                        frequencies.getBlockFreq(&block).getFrequency()) /
                        entry
                  : 0.0);
    std::vector<double> successors;
    if (isa<LLVM::CondBrOp, LLVM::SwitchOp>(terminator)) {
      if (!isa<llvm::BranchInst, llvm::SwitchInst>(llvmTerminator))
        return std::nullopt;
      for (unsigned i = 0; i < llvmTerminator->getNumSuccessors(); ++i) {
        llvm::BranchProbability p = probabilities.getEdgeProbability(&block, i);
        successors.push_back(static_cast<double>(p.getNumerator()) /
                             p.getDenominator());
      }
    }
    result.successorProbability.push_back(std::move(successors));
  }
  return result;
}

/// Calls `visit(callee, frequency)` for each direct call of a defined
/// function in the blocks of `function` that `estimate` covers (the
/// module's own), with its block's frequency per entry.
template <typename Visit>
void forEachCall(llvm::Function &function, const FunctionEstimate &estimate,
                 Visit visit) {
  size_t position = 0;
  for (llvm::BasicBlock &block : function) {
    if (position == estimate.blockFrequency.size())
      break;
    double frequency = estimate.blockFrequency[position++];
    for (llvm::Instruction &inst : block)
      if (auto *call = dyn_cast<llvm::CallBase>(&inst))
        if (llvm::Function *callee = call->getCalledFunction())
          if (!callee->isDeclaration() && callee != &function)
            visit(callee, frequency);
  }
}

void PhaedrusStaticEstimatePass::runOnOperation() {
  ModuleOp module = getOperation();
  llvm::StringMap<LLVM::LLVMFuncOp> mlirFunctions;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>())
    if (!function.isExternal())
      mlirFunctions[function.getSymName()] = function;
  if (mlirFunctions.empty()) {
    mlir::emitError(wholeModuleLoc(module),
                    "phaedrus-static-estimate: the module defines no "
                    "llvm.func: give it the program (phaedrus ir)");
    return signalPassFailure();
  }
  if (entryCount == 0) {
    mlir::emitError(wholeModuleLoc(module),
                    "phaedrus-static-estimate: entry-count must be at least 1");
    return signalPassFailure();
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> program = translateProgram(module, llvmContext);
  if (!program) {
    mlir::emitError(wholeModuleLoc(module),
                    "phaedrus-static-estimate: the module does not translate "
                    "to LLVM IR (see the errors above)");
    return signalPassFailure();
  }
  llvm::TargetLibraryInfoImpl libraryInfo(
      llvm::Triple(program->getTargetTriple()));
  llvm::TargetLibraryInfo tli(libraryInfo);

  // __builtin_expect hints become branch weights first, as clang's
  // pipeline lowers them before anything estimates (BranchProbabilityInfo
  // reads the weights, not the intrinsic).
  llvm::FunctionAnalysisManager analyses;
  llvm::DenseMap<const llvm::Function *, FunctionEstimate> estimates;
  SmallVector<StringRef> misaligned;
  for (llvm::Function &function : *program) {
    if (function.isDeclaration())
      continue;
    auto it = mlirFunctions.find(function.getName());
    if (it == mlirFunctions.end())
      continue;
    llvm::LowerExpectIntrinsicPass().run(function, analyses);
    std::optional<FunctionEstimate> e = estimate(function, it->second, tli);
    if (!e) {
      misaligned.push_back(it->second.getSymName());
      continue;
    }
    estimates[&function] = std::move(*e);
  }

  // Entry counts over the call graph. Each root (main; a function whose
  // callers are unknown: address-taken, or externally visible and called
  // by no function here; not an available_externally copy, which the link
  // drops) is entered entryCount times; a direct call enters its callee as
  // often as its block runs. Strongly connected components (recursion) go
  // callers first: a component's members have all their entries from
  // outside before its calls are followed, calls within it are counted once
  // (from those entries, as LLVM's synthetic entry counts do), and then
  // its calls out. A function called by one that has no estimate has no
  // count: it is left without one.
  llvm::DenseMap<const llvm::Function *, double> entries;
  llvm::DenseSet<const llvm::Function *> called, unknown;
  for (llvm::Function &function : *program)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &inst : block)
        if (auto *call = dyn_cast<llvm::CallBase>(&inst))
          if (llvm::Function *callee = call->getCalledFunction())
            if (callee != &function) {
              called.insert(callee);
              if (!function.isDeclaration() && !estimates.count(&function))
                unknown.insert(callee);
            }
  for (llvm::Function &function : *program) {
    if (function.isDeclaration())
      continue;
    bool root = !function.hasAvailableExternallyLinkage() &&
                (function.getName() == "main" || function.hasAddressTaken() ||
                 (!function.hasLocalLinkage() && !called.contains(&function)));
    entries[&function] = root ? static_cast<double>(entryCount) : 0.0;
  }
  auto add = [&](const llvm::Function *callee, double runs) {
    double &target = entries[callee];
    target = std::min(target + runs, kMaxCount);
  };
  llvm::CallGraph callGraph(*program);
  std::vector<std::vector<llvm::Function *>> components;
  for (auto scc = llvm::scc_begin(&callGraph); !scc.isAtEnd(); ++scc) {
    std::vector<llvm::Function *> members;
    for (llvm::CallGraphNode *node : *scc)
      if (llvm::Function *f = node->getFunction())
        if (estimates.count(f))
          members.push_back(f);
    components.push_back(std::move(members));
  }
  // (scc_iterator gives callees first.)
  for (std::vector<llvm::Function *> &members : llvm::reverse(components)) {
    llvm::DenseSet<const llvm::Function *> inside(members.begin(),
                                                  members.end());
    llvm::DenseMap<const llvm::Function *, double> fromOutside;
    for (llvm::Function *f : members)
      fromOutside[f] = entries.lookup(f);
    // Calls within first, from the entries from outside; then calls out,
    // from all the entries.
    for (bool within : {true, false})
      for (llvm::Function *f : members)
        forEachCall(*f, estimates.find(f)->second,
                    [&](llvm::Function *callee, double frequency) {
                      if (inside.contains(callee) == within)
                        add(callee, (within ? fromOutside : entries).lookup(f) *
                                        frequency);
                    });
  }

  // Attach: each function's entry count, and each branch's successor
  // counts (its block's count split by LLVM's probabilities).
  llvm::StringMap<uint64_t> entryCounts;
  unsigned branches = 0;
  MLIRContext *context = &getContext();
  for (auto &[function, est] : estimates) {
    if (function->hasAvailableExternallyLinkage() || unknown.contains(function))
      continue;
    uint64_t functionEntries = toCount(entries.lookup(function));
    LLVM::LLVMFuncOp mlirFunction = mlirFunctions.lookup(function->getName());
    entryCounts[function->getName()] = functionEntries;
    if (!functionEntries)
      continue;
    double runs = static_cast<double>(functionEntries);
    unsigned position = 0;
    for (Block &block : mlirFunction.getBody()) {
      const std::vector<double> &probabilities =
          est.successorProbability[position];
      double blockRuns = runs * est.blockFrequency[position++];
      if (probabilities.empty() || !(blockRuns > 0) ||
          !PhaedrusDialect::takesBranchWeights(block.getTerminator()))
        continue;
      SmallVector<uint64_t> weights;
      for (double p : probabilities)
        weights.push_back(p > 0 ? toCount(blockRuns * p) : 0);
      block.getTerminator()->setAttr(
          PhaedrusDialect::getBranchWeightsAttrName(),
          BranchWeightsAttr::get(context, weights, Provenance::Static,
                                 kConfidence));
      ++branches;
    }
  }
  numFunctionsAnnotated =
      attachEntryCounts(module, entryCounts, Provenance::Static, kConfidence);
  numBranchesAnnotated = branches;
  if (!misaligned.empty()) {
    InFlightDiagnostic warning = mlir::emitWarning(wholeModuleLoc(module))
        << "phaedrus-static-estimate: " << misaligned.size()
        << " function(s) left without an estimate (their LLVM IR blocks do "
           "not line up with the module's), and the functions they call "
           "without a count: @"
        << misaligned.front();
    for (StringRef name : ArrayRef(misaligned).drop_front().take_front(4))
      warning << ", @" << name;
    if (misaligned.size() > 5)
      warning << ", ...";
  }
}

} // namespace
