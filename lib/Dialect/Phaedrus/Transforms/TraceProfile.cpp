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
      if (failed(addEntryCounts(trace, vocabulary, walker, entries)))
        return signalPassFailure();
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
