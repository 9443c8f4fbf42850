//===- TraceWalk.h - Walking compressed traces ------------------*- C++ -*-===//
//
// Expansion, length and token counts of a phaedrus.trace, computed on its
// compressed form: repeats multiply, rules are resolved through the trace's
// grammar. Shared by the passes and tools that read traces.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_IR_TRACEWALK_H
#define PHAEDRUS_DIALECT_PHAEDRUS_IR_TRACEWALK_H

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Trace/CallGroups.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::phaedrus {

/// Walks traces on verifier-valid IR. Results for rules are memoized, so one
/// walker should serve all traces of a module.
class TraceWalker {
public:
  explicit TraceWalker(SymbolTableCollection &symbolTable)
      : symbolTable(symbolTable) {}

  /// Number of tokens `trace` expands to, saturating at UINT64_MAX.
  FailureOr<uint64_t> getExpandedLength(TraceOp trace);

  /// Calls `sink` with consecutive pieces of the expansion of `trace`, in
  /// order. The pieces may point into the IR; they are valid during the call.
  LogicalResult expand(TraceOp trace,
                       function_ref<void(ArrayRef<int32_t>)> sink);

  /// Like expand, and also writes each call-group token (see
  /// --phaedrus-call-groups) as the call-site tokens it stands for: the
  /// token sequence the run recorded.
  LogicalResult expandRecorded(TraceOp trace,
                               function_ref<void(ArrayRef<int32_t>)> sink);

  /// Called from a sink: the expansion in progress ends after the current
  /// piece and the sink is not called again (for readers of a prefix).
  void stop() { stopped = true; }

  /// Number of tokens expandRecorded gives, saturating at UINT64_MAX.
  FailureOr<uint64_t> getRecordedLength(TraceOp trace);

  /// How often each token id occurs in the expansion of `trace`. Costs time
  /// in the size of the IR, not of the expanded trace. Fails (with a
  /// diagnostic) when a count does not fit in 64 bits.
  FailureOr<SmallVector<uint64_t>> countTokens(TraceOp trace,
                                               size_t numEntries);

  /// The distinct token ids of `trace` in the order of their first
  /// occurrence in its expansion. Costs time in the size of the IR: a
  /// repeat's body and a rule are visited once.
  FailureOr<SmallVector<int32_t>> firstOccurrences(TraceOp trace,
                                                   size_t numEntries);

private:
  VocabularyOp vocabularyOf(TraceOp trace);
  FailureOr<RuleOp> resolve(ApplyOp apply);
  LogicalResult firstRegion(Region &body, SmallVectorImpl<int32_t> &order,
                            SmallVectorImpl<bool> &seenTokens,
                            llvm::DenseSet<Operation *> &seenRules);
  FailureOr<uint64_t> lengthOf(Region &body);
  LogicalResult expandRegion(Region &body,
                             function_ref<void(ArrayRef<int32_t>)> sink);
  LogicalResult collectRules(Region &body, SmallVectorImpl<RuleOp> &postOrder,
                             llvm::DenseSet<Operation *> &seen);
  LogicalResult countRegion(Region &body, uint64_t multiplier,
                            SmallVectorImpl<uint64_t> &counts,
                            llvm::DenseMap<Operation *, uint64_t> &ruleUses);

  SymbolTableCollection &symbolTable;
  llvm::DenseMap<Operation *, uint64_t> ruleLength;
  bool stopped = false;
};

/// Whether traces over `vocabulary` are of function granularity: it has
/// call sites and no paths. (Path-granularity traces record a path token
/// before every call, so no two calls of a function are adjacent in them;
/// the path tokens already tell which calls ran: call groups fold function
/// traces only.)
bool isFunctionGranularity(VocabularyOp vocabulary);

/// How the call tree of a trace over `vocabulary` is read (call-group
/// folding, augmentation): function ids are the symbol names interned in
/// vocabulary order, and `functionNames`, if given, gets them by id. Fails
/// with a diagnostic if a group entry is malformed.
FailureOr<trace::CallGroupTable>
buildCallGroupTable(VocabularyOp vocabulary,
                    SmallVectorImpl<StringAttr> *functionNames = nullptr);

/// A token count for a diagnostic: the number, or for a saturated length
/// (UINT64_MAX) "2^64 - 1 or more".
std::string describeLength(uint64_t length);

/// Passes that read every token of a trace refuse one of more than
/// `maxTokens` (the pass's max-tokens): an error at `trace`, "expands to N
/// tokens, more than max-tokens=M; CONSEQUENCE". A trace of a few ops can
/// stand for 2^64 tokens.
LogicalResult checkMaxTokens(TraceOp trace, uint64_t length, uint64_t maxTokens,
                             StringRef consequence);

/// The number of recorded events that per-token counts (as countTokens
/// gives them) stand for: a group token counts once per member. Saturates
/// at UINT64_MAX.
uint64_t recordedLength(VocabularyOp vocabulary, ArrayRef<uint64_t> tokenCounts);

/// Erases the grammars of `module` that no trace refers to any more (after
/// a pass rewrote the traces that used them).
void eraseUnusedGrammars(Operation *module);

/// How often each call site ran, by caller and the site's index among the
/// caller's recorded call sites, summed over traces.
using CallSiteCounts = llvm::StringMap<llvm::DenseMap<uint64_t, uint64_t>>;

/// Function entries implied by per-token counts (one per vocabulary id, as
/// TraceWalker::countTokens gives them for a trace, or a model predicts
/// them): a `function` token enters its symbol, a `call_site` token its
/// callee, a `group` token the callee of each of its members. Every
/// function `vocabulary` names gets a count, 0 if never entered. Adds to
/// `entries`, so several traces can be summed; fails with a diagnostic on
/// `diagnosticOp` on 64-bit overflow. With `callSites`, also adds how often
/// each call site ran: its `call_site` token, and each group token it is a
/// member of.
LogicalResult addEntryCounts(VocabularyOp vocabulary,
                             ArrayRef<uint64_t> tokenCounts,
                             llvm::StringMap<uint64_t> &entries,
                             Operation *diagnosticOp,
                             CallSiteCounts *callSites = nullptr);

/// Attaches `phaedrus.entry_count` with `provenance` and `confidence` to
/// every function of `module` that `entries` names; returns how many.
unsigned attachEntryCounts(Operation *module,
                           const llvm::StringMap<uint64_t> &entries,
                           Provenance provenance, double confidence);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_IR_TRACEWALK_H
