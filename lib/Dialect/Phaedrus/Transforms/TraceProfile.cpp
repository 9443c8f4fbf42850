//===- TraceProfile.cpp - Measured entry counts from traces ---------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/BranchWeights.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"

#include "mlir/Parser/Parser.h"

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

    // Traces of other files are checked against this program's fingerprint.
    std::vector<OwningOpRef<ModuleOp>> files;
    std::optional<uint64_t> programFingerprint;
    SmallVector<TraceOp> traces;
    auto select = [&](ModuleOp from) {
      for (TraceOp trace : from.getOps<TraceOp>())
        if (traceName.empty() || trace.getSymName() == traceName)
          traces.push_back(trace);
    };
    select(module);
    for (const std::string &path : traceFiles) {
      ParserConfig config(&getContext());
      OwningOpRef<ModuleOp> file = parseSourceFile<ModuleOp>(path, config);
      if (!file) {
        mlir::emitError(FileLineColLoc::get(&getContext(), path, 0, 0))
            << "phaedrus-trace-profile: cannot read traces from '" << path
            << "'";
        return signalPassFailure();
      }
      if (!programFingerprint)
        programFingerprint = analyzeProgram(module).fingerprint;
      for (TraceOp trace : file->getOps<TraceOp>())
        if (trace.getFingerprint() != *programFingerprint) {
          trace.emitError()
              << "phaedrus-trace-profile: trace @" << trace.getSymName()
              << " in '" << path << "' was recorded from a different build "
              << "of the program (its fingerprint is " << trace.getFingerprint()
              << ", this module's is " << *programFingerprint << ")";
          return signalPassFailure();
        }
      select(*file);
      files.push_back(std::move(file));
    }
    if (traces.empty()) {
      if (traceName.empty())
        module.emitError("phaedrus-trace-profile: the module has no trace");
      else
        module.emitError() << "phaedrus-trace-profile: the module has no trace named @"
                           << traceName;
      return signalPassFailure();
    }

    // Entry counts per function symbol and edge counts from Ball-Larus
    // paths, summed over traces.
    llvm::StringMap<uint64_t> entries;
    PathBranchCounts branches(module);
    for (TraceOp trace : traces) {
      auto vocabulary = symbolTable.lookupNearestSymbolFrom<VocabularyOp>(
          trace, trace.getVocabularyAttr());
      if (!vocabulary) {
        trace.emitOpError("has no vocabulary");
        return signalPassFailure();
      }
      FailureOr<SmallVector<uint64_t>> counts =
          walker.countTokens(trace, vocabulary.getNumEntries());
      if (failed(counts) ||
          failed(addEntryCounts(vocabulary, *counts, entries, trace)) ||
          failed(branches.addPathCounts(vocabulary, *counts, trace)))
        return signalPassFailure();
    }
    numBranchesAnnotated += branches.attach(Provenance::Measured, 1.0);

    numFunctionsAnnotated +=
        attachEntryCounts(module, entries, Provenance::Measured, 1.0);
  }
};
} // namespace
