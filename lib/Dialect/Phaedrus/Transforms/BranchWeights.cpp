//===- BranchWeights.cpp - Branch weights from Ball-Larus path counts -----===//
//
// A decoded path is a sequence of real edges, possibly starting at a break
// target and ending at a return or at a break edge out of its last block.
// Real edges get the path's count. A break edge is not in the path number
// (the path ends at its source); it is determined when its source has one
// break edge out, or when no other break edge enters its target (then the
// paths that start at the target count it), and otherwise the source's
// branch is left unannotated.
// The exception is llvm.indirectbr, whose every edge is a break: a path that
// ends there does not say where the jump went, but the path after it starts
// at the target, so an edge into a target that no other break edge enters
// counts the paths that start at that target. An interpreter's dispatch
// (Lua's luaV_execute jumps through a table of labels) is such a branch;
// without its weights LLVM takes every opcode as equally likely.
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
  /// Paths that start at each break target.
  llvm::DenseMap<Block *, uint64_t> starts;
  SmallVector<LLVM::LLVMFuncOp> functions;
  bool pathVocabulary = false, vocabularyWithoutPaths = false;
};

PathBranchCounts::PathBranchCounts(ModuleOp module)
    : module(module), state(std::make_unique<State>()) {}
PathBranchCounts::~PathBranchCounts() = default;

LogicalResult PathBranchCounts::addPathCounts(VocabularyOp vocabulary,
                                              ArrayRef<uint64_t> tokenCounts,
                                              Operation *diagnosticOp) {
  SmallVector<PathStep> steps;
  bool paths = false;
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
    if (entry.getKind() != EntryKind::Path)
      continue;
    paths = state->pathVocabulary = true;
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
      if (step.successor == PathStep::kStart) {
        uint64_t &started = state->starts[step.block];
        started = llvm::SaturatingAdd(started, count);
        continue;
      }
      if (step.successor != PathStep::kEnd) {
        uint64_t &edge = state->edgeCounts[{step.block, step.successor}];
        edge = llvm::SaturatingAdd(edge, count);
        continue;
      }
      Operation *term = step.block->getTerminator();
      if (isa<LLVM::ReturnOp, LLVM::UnreachableOp, LLVM::ResumeOp,
              LLVM::IndirectBrOp>(term))
        continue; // an indirectbr's edges are counted at their targets
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
  if (!paths)
    state->vocabularyWithoutPaths = true;
  return success();
}

/// The out-edge counts of a block with several break edges out (an
/// llvm.indirectbr, every edge of which is one; a branch with two back
/// edges, or with edges into the blocks a cut function is cut at): a path
/// that ends there does not say which it took, but the next path starts at
/// its target, so a break edge counts the paths that start at its target,
/// when it is the only break edge into it (`breaksInto`: break edges per
/// target); a real edge has its own count. Otherwise std::nullopt.
static std::optional<SmallVector<uint64_t>>
countsFromStarts(Block &block, const PathNumbering &numbering,
                 const llvm::DenseMap<Block *, unsigned> &breaksInto,
                 const llvm::DenseMap<Block *, uint64_t> &starts,
                 const llvm::DenseMap<std::pair<Block *, unsigned>, uint64_t> &edges) {
  SmallVector<uint64_t> weights;
  for (unsigned i = 0; i < block.getNumSuccessors(); ++i) {
    if (!numbering.breakEdges.contains({&block, i})) {
      weights.push_back(edges.lookup({&block, i}));
      continue;
    }
    Block *target = block.getSuccessor(i);
    if (breaksInto.lookup(target) != 1)
      return std::nullopt;
    weights.push_back(starts.lookup(target));
  }
  return weights;
}

bool PathBranchCounts::hasPathVocabulary() const { return state->pathVocabulary; }

bool PathBranchCounts::mixesGranularities() const {
  return state->pathVocabulary && state->vocabularyWithoutPaths;
}

unsigned PathBranchCounts::attach(Provenance provenance, double confidence) {
  unsigned annotated = 0;
  for (LLVM::LLVMFuncOp function : state->functions) {
    const std::optional<PathNumbering> &numbering =
        state->numberings.find(function.getSymName())->second;
    if (!numbering)
      continue;
    llvm::DenseMap<Block *, unsigned> breaksInto;
    for (auto [source, index] : numbering->breakEdges)
      ++breaksInto[source->getSuccessor(index)];
    for (Block &block : function.getBody()) {
      Operation *term = block.getTerminator();
      if (!PhaedrusDialect::takesBranchWeights(term))
        continue;
      SmallVector<uint64_t> weights;
      if (isa<LLVM::CondBrOp, LLVM::SwitchOp, LLVM::InvokeOp>(term) &&
          !state->ambiguous.contains(&block)) {
        for (unsigned i = 0; i < block.getNumSuccessors(); ++i)
          weights.push_back(state->edgeCounts.lookup({&block, i}));
      } else if ((isa<LLVM::CondBrOp, LLVM::SwitchOp, LLVM::InvokeOp>(term) ||
                  isa<LLVM::IndirectBrOp>(term)) &&
                 numbering->reachable.contains(&block)) {
        auto counts = countsFromStarts(block, *numbering, breaksInto,
                                       state->starts, state->edgeCounts);
        if (!counts)
          continue;
        weights = std::move(*counts);
      } else {
        continue;
      }
      uint64_t total = 0;
      for (uint64_t w : weights)
        total = llvm::SaturatingAdd(total, w);
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
