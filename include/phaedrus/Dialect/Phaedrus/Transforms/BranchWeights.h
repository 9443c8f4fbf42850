//===- BranchWeights.h - Branch weights from trace counts -------*- C++ -*-===//
//
// Path-granularity traces (and predictions made from them) count Ball-Larus
// paths. Decoding each path id on the plain function gives the edges it
// took, so path counts determine edge counts, hence branch weights.
// Function-granularity traces count call sites, which fix the counts of
// their blocks and, with the entry count, some edges. Shared by
// --phaedrus-trace-profile (measured) and --phaedrus-predict (model).
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_BRANCHWEIGHTS_H
#define PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_BRANCHWEIGHTS_H

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"

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

  /// Whether a vocabulary given to addPathCounts has path entries (a
  /// path-granularity trace or model), whether or not they ran: its
  /// branches are weighed by paths, or left without weights on purpose.
  bool hasPathVocabulary() const;

  /// Whether vocabularies with and without path entries were both given.
  bool mixesGranularities() const;

private:
  ModuleOp module;
  struct State;
  std::unique_ptr<State> state;
};

/// Function granularity (nothing where `paths` had a path vocabulary):
/// attaches `phaedrus.branch_weights` to every
/// branch of a function whose edge counts its entry count and its call
/// sites' counts (`callSites`, from addEntryCounts) fix by flow
/// conservation, and that ran. A block's first call site (`shape`) runs as
/// often as the block. Functions that already have branch weights (a path
/// profile) or no entry count are left alone, and so is a function whose
/// counts are not one flow. Returns how many branches were annotated.
unsigned attachCallSiteWeights(ModuleOp module, const ProgramShape &shape,
                               const CallSiteCounts &callSites,
                               const PathBranchCounts &paths,
                               Provenance provenance, double confidence);

/// How many times its entry count a call site in a function may run before
/// the entry count misleads LLVM, which, without branch weights, estimates
/// the function's blocks from it and its static guess of about 32 turns a
/// loop: 32^2, two nested loops.
constexpr uint64_t kMaxCallsPerEntryWithoutWeights = 1024;

/// How many ways a branch in a loop must have to be taken for an
/// interpreter's dispatch (a `switch` over opcodes, a computed `goto`).
constexpr unsigned kMinDispatchSuccessors = 16;

/// Removes the entry count of each function of `module` with a call site
/// (`shape`) that ran more than kMaxCallsPerEntryWithoutWeights times its
/// entries (`callSites`, from addEntryCounts) in a loop some branch of
/// which ran (knownBlockCounts) and has no weights, with a remark naming `pass`: an interpreter's
/// loop, entered once and turning millions of times, would be estimated
/// from a count of 1 and compiled as cold; without a count LLVM optimises
/// it as it would without a profile. Also of each function (with counted
/// call sites) whose such loop holds a branch of kMinDispatchSuccessors or
/// more ways without weights that may have run: LLVM would spread the
/// count evenly over the ways and take every opcode's calls for hot (mujs's
/// jsR_run grew 3x with 7,300 inlined calls). Returns how many.
unsigned withholdMisleadingEntryCounts(ModuleOp module,
                                       const ProgramShape &shape,
                                       const CallSiteCounts &callSites,
                                       StringRef pass);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_BRANCHWEIGHTS_H
