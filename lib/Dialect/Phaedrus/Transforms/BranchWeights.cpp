//===- BranchWeights.cpp - Branch weights from Ball-Larus path counts -----===//
//
// A decoded path is a sequence of real edges, possibly starting at a break
// target and ending at a return or at a break edge out of its last block.
// Real edges get the path's count. A break edge is not in the path number
// (the path ends at its source); it is determined when its source has one
// break edge out, and otherwise the source's branch is left unannotated
// (e.g. an llvm.indirectbr, whose every edge is a break).
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/Transforms/BranchWeights.h"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.h"

#include "BallLarus.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::phaedrus;

struct PathBranchCounts::State {
  llvm::StringMap<std::optional<PathNumbering>> numberings;
  llvm::DenseMap<std::pair<Block *, unsigned>, uint64_t> edgeCounts;
  llvm::DenseSet<Block *> ambiguous;
  SmallVector<LLVM::LLVMFuncOp> functions;
};

PathBranchCounts::PathBranchCounts(ModuleOp module)
    : module(module), state(std::make_unique<State>()) {}
PathBranchCounts::~PathBranchCounts() = default;

LogicalResult PathBranchCounts::addPathCounts(VocabularyOp vocabulary,
                                              ArrayRef<uint64_t> tokenCounts,
                                              Operation *diagnosticOp) {
  SmallVector<PathStep> steps;
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
    if (entry.getKind() != EntryKind::Path)
      continue;
    uint64_t count = static_cast<size_t>(entry.getId()) < tokenCounts.size()
                         ? tokenCounts[entry.getId()]
                         : 0;
    if (!count)
      continue;
    StringRef name = entry.getSymbol();
    auto [it, inserted] = state->numberings.try_emplace(name);
    if (inserted) {
      auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!function || function.getBody().empty())
        return diagnosticOp->emitOpError()
               << "counts paths of @" << name
               << ", which this module does not define";
      it->second = numberPaths(function);
      state->functions.push_back(function);
    }
    if (!it->second || !decodePath(*it->second, *entry.getIndex(), steps))
      return diagnosticOp->emitOpError()
             << "counts path " << *entry.getIndex() << " of @" << name
             << ", which has no such Ball-Larus path in this module";
    for (const PathStep &step : steps) {
      if (step.successor == PathStep::kStart)
        continue;
      if (step.successor != PathStep::kEnd) {
        uint64_t &edge = state->edgeCounts[{step.block, step.successor}];
        edge = llvm::SaturatingAdd(edge, count);
        continue;
      }
      Operation *term = step.block->getTerminator();
      if (isa<LLVM::ReturnOp, LLVM::UnreachableOp>(term))
        continue;
      // The path ended on a break edge out of this block: which one?
      std::optional<unsigned> only;
      unsigned breaks = 0;
      for (unsigned i = 0; i < step.block->getNumSuccessors(); ++i)
        if (it->second->breakEdges.contains({step.block, i})) {
          only = i;
          ++breaks;
        }
      if (breaks == 1) {
        uint64_t &edge = state->edgeCounts[{step.block, *only}];
        edge = llvm::SaturatingAdd(edge, count);
      } else {
        state->ambiguous.insert(step.block);
      }
    }
  }
  return success();
}

unsigned PathBranchCounts::attach(Provenance provenance, double confidence) {
  unsigned annotated = 0;
  for (LLVM::LLVMFuncOp function : state->functions) {
    for (Block &block : function.getBody()) {
      Operation *term = block.getTerminator();
      if (!isa<LLVM::CondBrOp, LLVM::SwitchOp>(term) ||
          state->ambiguous.contains(&block))
        continue;
      SmallVector<uint64_t> weights;
      uint64_t total = 0;
      for (unsigned i = 0; i < block.getNumSuccessors(); ++i) {
        weights.push_back(state->edgeCounts.lookup({&block, i}));
        total = llvm::SaturatingAdd(total, weights.back());
      }
      if (!total)
        continue; // never ran: LLVM keeps its static estimate
      term->setAttr(PhaedrusDialect::getBranchWeightsAttrName(),
                    BranchWeightsAttr::get(term->getContext(), weights,
                                           provenance, confidence));
      ++annotated;
    }
  }
  return annotated;
}
