//===- TraceProfile.cpp - Measured entry counts from traces ---------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSTRACEPROFILEPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

namespace {
struct PhaedrusTraceProfilePass
    : public phaedrus::impl::PhaedrusTraceProfilePassBase<
          PhaedrusTraceProfilePass> {
  using PhaedrusTraceProfilePassBase::PhaedrusTraceProfilePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbolTable;
    TraceWalker walker(symbolTable);

    SmallVector<TraceOp> traces;
    for (TraceOp trace : module.getOps<TraceOp>())
      if (traceName.empty() || trace.getSymName() == traceName)
        traces.push_back(trace);
    if (traces.empty()) {
      if (traceName.empty())
        module.emitError("phaedrus-trace-profile: the module has no trace");
      else
        module.emitError() << "phaedrus-trace-profile: the module has no trace named @"
                           << traceName;
      return signalPassFailure();
    }

    // Entry counts per function symbol, summed over traces.
    llvm::StringMap<uint64_t> entries;
    for (TraceOp trace : traces) {
      auto vocabulary = symbolTable.lookupNearestSymbolFrom<VocabularyOp>(
          trace, trace.getVocabularyAttr());
      if (!vocabulary) {
        trace.emitOpError("has no vocabulary");
        return signalPassFailure();
      }
      SmallVector<EntryOp> byId(vocabulary.getNumEntries());
      for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
        byId[entry.getId()] = entry;
        // Every function the vocabulary knows is measured, even if cold.
        if (entry.getKind() == EntryKind::Function)
          entries.try_emplace(entry.getSymbol(), 0);
        else if (entry.getKind() == EntryKind::CallSite)
          entries.try_emplace(*entry.getCallee(), 0);
      }
      FailureOr<SmallVector<uint64_t>> counts =
          walker.countTokens(trace, byId.size());
      if (failed(counts))
        return signalPassFailure();
      for (auto [id, count] : llvm::enumerate(*counts)) {
        if (!count)
          continue;
        EntryOp entry = byId[id];
        std::optional<StringRef> function;
        if (entry.getKind() == EntryKind::Function)
          function = entry.getSymbol();
        else if (entry.getKind() == EntryKind::CallSite)
          function = *entry.getCallee();
        if (!function)
          continue;
        uint64_t &total = entries[*function];
        if (__builtin_add_overflow(total, count, &total)) {
          trace.emitOpError() << "entry count of @" << *function
                              << " does not fit in 64 bits";
          return signalPassFailure();
        }
      }
    }

    MLIRContext *context = module.getContext();
    module.walk([&](FunctionOpInterface function) {
      auto it = entries.find(SymbolTable::getSymbolName(function).getValue());
      if (it == entries.end())
        return;
      function->setAttr(
          PhaedrusDialect::getEntryCountAttrName(),
          EntryCountAttr::get(context, it->second, Provenance::Measured, 1.0));
      ++numFunctionsAnnotated;
    });
  }
};
} // namespace
