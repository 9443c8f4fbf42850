//===- BallLarus.h - Ball-Larus path numbering ------------------*- C++ -*-===//
//
// Ball-Larus acyclic path numbering of one LLVM-dialect function, and the
// instrumentation that records each completed path at back edges and exits.
// Private to the instrument pass.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_LIB_TRANSFORMS_BALLLARUS_H
#define PHAEDRUS_LIB_TRANSFORMS_BALLLARUS_H

#include "Recorder.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <optional>

namespace mlir::phaedrus {

/// The Ball-Larus numbering of one function's acyclic paths, computed on
/// the function as it is (instrumentation numbers the plain function; the
/// profile passes recompute the same numbering on the plain program to
/// decode recorded path ids).
struct PathNumbering {
  Block *entry = nullptr;
  llvm::DenseSet<Block *> reachable, indirectTargets;
  /// (block, successor index) of back edges, edges into indirect targets,
  /// and the edges that cut a function of too many paths into segments.
  llvm::DenseSet<std::pair<Block *, unsigned>> breakEdges;
  /// Targets of break edges, in the order of their ENTRY->target values.
  llvm::SetVector<Block *> breakTargets;
  llvm::DenseMap<Block *, uint64_t> numPaths, entryToTarget, toExit;
  llvm::DenseMap<std::pair<Block *, unsigned>, uint64_t> edgeValue;
  uint64_t total = 0;
  /// Whether the function has a loop (a back edge), as opposed to break
  /// edges that only cut it into segments.
  bool hasLoops = false;
};

/// Why a function's paths have no numbering.
enum class UnnumberedReason {
  Terminator,   // a terminator the numbering does not handle
  TooManyPaths, // cut as far as the numbering cuts, still too many paths
  UnwindLoop,   // a loop closes through an invoke's unwind edge
};

/// Numbers the paths of `function`, or std::nullopt (and, with `why`, the
/// reason) when it has a terminator the numbering does not handle, when,
/// cut as far as the numbering cuts, it still has more than 2^32 - 1 paths,
/// or when an invoke's unwind edge, which can carry no code, would have to
/// end a path (it closes a loop). A function of more than 2^32 - 1 paths is
/// cut into segments at join blocks (their incoming edges become break
/// edges), deterministically, until its paths fit.
std::optional<PathNumbering> numberPaths(LLVM::LLVMFuncOp function,
                                         UnnumberedReason *why = nullptr);

/// The first terminator of `function` that the path numbering does not
/// handle (it handles returns, unreachable, resume, branches, switches,
/// invokes and indirect branches), or null.
Operation *unnumberedTerminator(LLVM::LLVMFuncOp function);

/// One step of a decoded path: the real edge `successor` out of `block`, or
/// (kStart) the path starts at `block` after a break edge, or (kEnd) it ends
/// at `block`: a return, or a break edge out of `block`.
struct PathStep {
  static constexpr unsigned kStart = ~0u, kEnd = ~0u - 1;
  Block *block;
  unsigned successor;
};

/// The steps of path `pathId`; false if no path has that number.
bool decodePath(const PathNumbering &numbering, uint64_t pathId,
                SmallVectorImpl<PathStep> &steps);

/// Numbers the acyclic paths of `function` and inserts code that keeps the
/// path number in a local and records (PHAEDRUS_PATH_MARK | functionToken,
/// path id) through `recorder` when a path ends: on back edges, on edges into targets of indirect branches
/// (which cannot carry code) and before returns. Returns the number of
/// distinct path ids (a function with a single path gets no code: its
/// entry event already says which path ran), or std::nullopt (leaving the
/// function unchanged) when numberPaths gives none.
///
/// With `entryToken` (an i32 available in the entry block: the entry's
/// call_site or function token), which needs recordsEntryWithPath, the
/// function records nothing at entry and its one path at each return as
/// PHAEDRUS_PATH_ENTRY | entryToken << 16 | path id.
std::optional<uint64_t> instrumentPaths(LLVM::LLVMFuncOp function,
                                        uint32_t functionToken,
                                        Recorder &recorder,
                                        Value entryToken = {});

/// Whether a function numbered so can record its entry token with its path
/// (PHAEDRUS_PATH_ENTRY): it has no loop or computed goto (one path per
/// call, completed at a return), more than one path, and path ids below
/// 2^16. The caller checks the rest: no calls (nothing is recorded between
/// entry and return), every token below 2^14.
bool recordsEntryWithPath(const PathNumbering &numbering);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_LIB_TRANSFORMS_BALLLARUS_H
