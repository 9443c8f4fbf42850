//===- MergeTraces.cpp - Traces of several files over one vocabulary ------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"

#include "mlir/Parser/Parser.h"

#include <map>
#include <tuple>

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSMERGETRACESPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

namespace {
/// What an entry stands for, its members as they read in this vocabulary.
using Meaning = std::tuple<int, std::string, int64_t, std::string,
                           std::vector<int64_t>>;

Meaning meaningOf(EntryOp entry, ArrayRef<int64_t> members) {
  return {static_cast<int>(entry.getKind()), entry.getSymbol().str(),
          entry.getIndex() ? static_cast<int64_t>(*entry.getIndex()) : -1,
          entry.getCallee() ? entry.getCallee()->str() : std::string(),
          std::vector<int64_t>(members.begin(), members.end())};
}

struct PhaedrusMergeTracesPass
    : public phaedrus::impl::PhaedrusMergeTracesPassBase<PhaedrusMergeTracesPass> {
  using PhaedrusMergeTracesPassBase::PhaedrusMergeTracesPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (const std::string &file : files)
      if (failed(mergeFile(module, file)))
        return signalPassFailure();
  }

  LogicalResult mergeFile(ModuleOp module, StringRef file) {
    MLIRContext *context = &getContext();
    auto loc = FileLineColLoc::get(context, file, 0, 0);
    OwningOpRef<ModuleOp> other =
        parseModuleFile(file, context, loc, "phaedrus-merge-traces");
    if (!other)
      return mlir::emitError(loc)
             << "phaedrus-merge-traces: cannot read '" << file << "'";
    for (TraceOp trace : other->getOps<TraceOp>()) {
      if (module.lookupSymbol(trace.getSymName()))
        return trace.emitError()
               << "phaedrus-merge-traces: this module has a trace @"
               << trace.getSymName() << " already (import runs with distinct "
                                        "--wpp-name)";
      auto theirs = SymbolTable::lookupNearestSymbolFrom<VocabularyOp>(
          trace, trace.getVocabularyAttr());
      FailureOr<VocabularyOp> ours = vocabularyFor(module, theirs);
      if (failed(ours))
        return failure();
      FailureOr<std::vector<uint32_t>> renumber = mapEntries(theirs, *ours);
      if (failed(renumber))
        return failure();

      if (trace.getGrammarAttr())
        return trace.emitError()
               << "phaedrus-merge-traces: trace @" << trace.getSymName()
               << " uses a grammar; merge traces before --phaedrus-grammar";

      // The body as it is (repeats stay), its tokens renumbered: time in
      // the size of the IR, not of the run.
      OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
      auto made = cast<TraceOp>(builder.clone(*trace));
      made.setVocabularyAttr(FlatSymbolRefAttr::get(ours->getSymNameAttr()));
      unsigned blobs = 0;
      SmallVector<int32_t> storage;
      WalkResult walked = made.walk([&](TokensOp tokens) {
        storage.clear();
        FailureOr<ArrayRef<int32_t>> read = tokens.readTokens(storage);
        if (failed(read))
          return WalkResult::interrupt();
        std::vector<uint32_t> mapped;
        mapped.reserve(read->size());
        for (int32_t token : *read)
          mapped.push_back((*renumber)[token]);
        std::string blob =
            (made.getSymName() + "_merged_" + Twine(blobs++)).str();
        tokens.setTokensAttr(makeTokensAttr(builder, mapped, blob, inlineLimit));
        return WalkResult::advance();
      });
      if (walked.wasInterrupted())
        return failure();
      ++numTracesMerged;
    }
    return success();
  }

  /// This module's vocabulary for `theirs`: the one with its fingerprint, or
  /// a new copy of it.
  FailureOr<VocabularyOp> vocabularyFor(ModuleOp module, VocabularyOp theirs) {
    for (VocabularyOp vocabulary : module.getOps<VocabularyOp>())
      if (vocabulary.getFingerprint() == theirs.getFingerprint())
        return vocabulary;
    if (module.lookupSymbol(theirs.getSymName()))
      return theirs.emitError()
             << "phaedrus-merge-traces: vocabulary @" << theirs.getSymName()
             << " is of another build (fingerprint " << theirs.getFingerprint()
             << ") than this module's of that name";
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    auto copy = cast<VocabularyOp>(builder.clone(*theirs));
    // Only static entries: the path entries are added as the traces need.
    for (EntryOp entry : llvm::to_vector(copy.getBody().getOps<EntryOp>()))
      if (entry.getKind() == EntryKind::Path)
        entry.erase();
    return copy;
  }

  /// Token ids of `theirs` in `ours`, appending the path entries `ours` lacks.
  FailureOr<std::vector<uint32_t>> mapEntries(VocabularyOp theirs,
                                              VocabularyOp ours) {
    std::map<Meaning, int64_t> known;
    for (EntryOp entry : ours.getBody().getOps<EntryOp>())
      known[meaningOf(entry, entry.getMembers() ? *entry.getMembers()
                                                : ArrayRef<int64_t>())] =
          entry.getId();
    SmallVector<EntryOp> entries(theirs.getBody().getOps<EntryOp>());
    llvm::sort(entries, [](EntryOp a, EntryOp b) { return a.getId() < b.getId(); });
    std::vector<uint32_t> renumber(theirs.getNumEntries(), 0);
    int64_t next = ours.getNumEntries();
    OpBuilder builder = OpBuilder::atBlockEnd(&ours.getBody().front());
    for (EntryOp entry : entries) {
      SmallVector<int64_t> members;
      if (entry.getMembers())
        for (int64_t member : entry.getMembers().value_or(ArrayRef<int64_t>()))
          members.push_back(renumber[member]);
      Meaning meaning = meaningOf(entry, members);
      auto it = known.find(meaning);
      if (it != known.end()) {
        renumber[entry.getId()] = it->second;
        continue;
      }
      if (entry.getKind() != EntryKind::Path)
        return entry.emitError()
               << "phaedrus-merge-traces: vocabulary @" << ours.getSymName()
               << " has no entry like " << entry.getId() << " of @"
               << theirs.getSymName()
               << (entry.getKind() == EntryKind::Group
                       ? " (its call groups differ: expand the traces first)"
                       : " (a vocabulary of the same build lacks it)");
      EntryOp::create(builder, entry.getLoc(), builder.getI64IntegerAttr(next),
                      entry.getKindAttr(), entry.getSymbolAttr(),
                      entry.getIndexAttr(), entry.getCalleeAttr(),
                      DenseI64ArrayAttr());
      known[meaning] = next;
      renumber[entry.getId()] = next++;
      ++numEntriesAdded;
    }
    return renumber;
  }
};
} // namespace
