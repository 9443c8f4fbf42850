//===- TraceProfile.cpp - Measured entry counts from traces ---------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/BranchWeights.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Target/Wpp/ImportWpp.h"
#include "phaedrus/Trace/Format.h"

#include "mlir/Parser/Parser.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

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
    if (failed(checkNotInstrumented(module, module, "phaedrus-trace-profile")))
      return signalPassFailure();
    SymbolTableCollection symbolTable;
    TraceWalker walker(symbolTable);

    // Traces of other files are checked against this program's fingerprint.
    std::vector<OwningOpRef<ModuleOp>> files;
    std::optional<uint64_t> programFingerprint;
    std::optional<ProgramShape> shape;
    auto analyze = [&] {
      if (!shape)
        shape = analyzeProgram(module);
      programFingerprint = shape->fingerprint;
    };
    SmallVector<TraceOp> traces;
    auto select = [&](ModuleOp from) {
      for (TraceOp trace : from.getOps<TraceOp>())
        if (traceName.empty() || trace.getSymName() == traceName)
          traces.push_back(trace);
    };
    select(module);
    // A trace of another build attaches wrong counts wherever its ids happen
    // to exist in this one: the traces of the module itself are checked as
    // those of files are, where the module has function bodies (the
    // program; with none, no count is attached anyway).
    auto ofAnotherBuild = [&](TraceOp trace, StringRef where) {
      if (trace.getFingerprint() == *programFingerprint)
        return false;
      trace.emitError() << "phaedrus-trace-profile: trace @"
                        << trace.getSymName() << where
                        << " was recorded from a different build of the "
                           "program (its fingerprint is "
                        << trace.getFingerprint() << ", this module's is "
                        << *programFingerprint << ")";
      return true;
    };
    if (!traces.empty() &&
        llvm::any_of(module.getOps<FunctionOpInterface>(),
                     [](FunctionOpInterface f) { return !f.isExternal(); })) {
      analyze();
      for (TraceOp trace : traces)
        if (ofAnotherBuild(trace, ""))
          return signalPassFailure();
    }
    // Trace files as the runtime wrote them are counted without IR; files
    // of phaedrus IR are parsed.
    SmallVector<std::pair<VocabularyOp, std::vector<uint64_t>>> counted;
    std::vector<OwningOpRef<ModuleOp>> vocabularies;
    for (const std::string &path : traceFiles) {
      Location fileLoc = FileLineColLoc::get(&getContext(), path, 0, 0);
      // (Null-terminated: the IR parser needs it.)
      auto buffer = llvm::MemoryBuffer::getFile(path);
      if (!buffer) {
        mlir::emitError(fileLoc)
            << "phaedrus-trace-profile: cannot read traces from '" << path
            << "': " << buffer.getError().message();
        return signalPassFailure();
      }
      if ((*buffer)->getBuffer().empty()) {
        mlir::emitError(fileLoc)
            << "phaedrus-trace-profile: cannot read traces from '" << path
            << "': the file is empty (a trace file the runtime wrote starts "
               "with its header; was the run's trace written elsewhere?)";
        return signalPassFailure();
      }
      if (!programFingerprint)
        analyze();
      if ((*buffer)->getBuffer().starts_with(PHAEDRUS_TRACE_MAGIC)) {
        ImportWppOptions options;
        options.expectedFingerprint = *programFingerprint;
        FailureOr<WppCounts> file =
            countWpp((*buffer)->getBuffer(), &getContext(), fileLoc, options);
        if (failed(file))
          return signalPassFailure();
        for (WppThreadCounts &thread : file->threads)
          if (traceName.empty() || thread.name == traceName)
            counted.push_back({file->vocabulary, std::move(thread.tokenCounts)});
        vocabularies.push_back(std::move(file->module));
        continue;
      }
      if (failed(checkMlirFile((*buffer)->getBuffer(), path, fileLoc,
                                  "phaedrus-trace-profile")))
        return signalPassFailure();
      llvm::SourceMgr sourceMgr;
      sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
      ParserConfig config(&getContext());
      OwningOpRef<ModuleOp> file = parseSourceFile<ModuleOp>(sourceMgr, config);
      if (!file) {
        mlir::emitError(fileLoc)
            << "phaedrus-trace-profile: cannot read traces from '" << path
            << "': it is neither a trace file (it does not start with the "
               "trace magic) nor phaedrus IR (the parser's error above)";
        return signalPassFailure();
      }
      if (file->getOps<TraceOp>().empty()) {
        mlir::emitError(fileLoc)
            << "phaedrus-trace-profile: '" << path
            << "' holds no phaedrus.trace: give trace files as the runtime "
               "wrote them (.wpp) or their import (phaedrus-translate "
               "--import-wpp)";
        return signalPassFailure();
      }
      for (TraceOp trace : file->getOps<TraceOp>())
        if (ofAnotherBuild(trace, (" in '" + path + "'")))
          return signalPassFailure();
      select(*file);
      files.push_back(std::move(file));
    }
    if (traces.empty() && counted.empty()) {
      std::string what = traceName.empty() ? std::string("trace")
                                           : "trace named @" + traceName;
      if (traceFiles.empty())
        mlir::emitError(wholeModuleLoc(module))
            << "phaedrus-trace-profile: the module has no " << what;
      else
        mlir::emitError(wholeModuleLoc(module))
            << "phaedrus-trace-profile: neither the module nor its trace "
               "files have a "
            << what << " (a trace file's threads are @run, @run_t1, ...)";
      return signalPassFailure();
    }

    // Trace files name their threads alike (`run`, `run_t1`, ...): a name
    // that several traces share selects them all.
    if (!traceName.empty() && traces.size() + counted.size() > 1)
      mlir::emitWarning(wholeModuleLoc(module))
          << "phaedrus-trace-profile: " << traces.size() + counted.size()
          << " traces are named @" << traceName
          << " (each trace file names its first thread @run): their counts "
             "are summed";

    // Entry counts per function symbol and edge counts from Ball-Larus
    // paths, summed over traces.
    llvm::StringMap<uint64_t> entries;
    CallSiteCounts callSites;
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
          failed(addEntryCounts(vocabulary, *counts, entries, trace,
                                &callSites)) ||
          failed(branches.addPathCounts(vocabulary, *counts, trace)))
        return signalPassFailure();
    }
    for (auto &[vocabulary, counts] : counted)
      if (failed(addEntryCounts(vocabulary, counts, entries, vocabulary,
                                &callSites)) ||
          failed(branches.addPathCounts(vocabulary, counts, vocabulary)))
        return signalPassFailure();
    // Traces of both granularities (a function and a path recording of one
    // run, say) sum their entries, but only the paths weigh branches.
    if (branches.mixesGranularities())
      mlir::emitWarning(wholeModuleLoc(module))
          << "phaedrus-trace-profile: the traces mix function- and "
             "path-granularity recordings: their entry counts are summed, "
             "but only the path traces weigh branches, so the weights "
             "stand for fewer runs than the counts (two recordings of one "
             "run count it twice); give traces of one granularity";
    numBranchesAnnotated += branches.attach(Provenance::Measured, 1.0);

    numFunctionsAnnotated +=
        attachEntryCounts(module, entries, Provenance::Measured, 1.0);
    if (!callSites.empty()) {
      analyze();
      numBranchesAnnotated += attachCallSiteWeights(
          module, *shape, callSites, branches, Provenance::Measured, 1.0);
      numFunctionsAnnotated -= withholdMisleadingEntryCounts(
          module, *shape, callSites, "phaedrus-trace-profile");
    }
  }
};
} // namespace
