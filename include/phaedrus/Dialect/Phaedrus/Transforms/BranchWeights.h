//===- BranchWeights.h - Branch weights from Ball-Larus path counts -*- C++ -*-===//
//
// Path-granularity traces (and predictions made from them) count Ball-Larus
// paths. Decoding each path id on the plain function gives the edges it
// took, so path counts determine edge counts, hence branch weights. Shared
// by --phaedrus-trace-profile (measured) and --phaedrus-predict (model).
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_BRANCHWEIGHTS_H
#define PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_BRANCHWEIGHTS_H

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>

namespace mlir::phaedrus {

struct PathNumbering;

/// Edge counts of a module's functions, accumulated from path counts.
class PathBranchCounts {
public:
  explicit PathBranchCounts(ModuleOp module);
  ~PathBranchCounts();

  /// Adds the path tokens of `vocabulary` with their counts (one per
  /// vocabulary id; other kinds of tokens are ignored). Fails with a
  /// diagnostic on `diagnosticOp` when a path names a function the module
  /// does not define or a path number its numbering does not have: the
  /// counts come from another program.
  LogicalResult addPathCounts(VocabularyOp vocabulary,
                              ArrayRef<uint64_t> tokenCounts,
                              Operation *diagnosticOp);

  /// Attaches `phaedrus.branch_weights` to every llvm.cond_br,
  /// llvm.switch and llvm.indirectbr whose out-edge counts the paths
  /// determine and that ran at least once. Returns how many terminators were annotated.
  unsigned attach(Provenance provenance, double confidence);

private:
  ModuleOp module;
  struct State;
  std::unique_ptr<State> state;
};

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_BRANCHWEIGHTS_H
