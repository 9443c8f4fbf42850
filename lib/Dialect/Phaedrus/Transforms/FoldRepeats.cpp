//===- FoldRepeats.cpp - Nested repeat folding of traces ------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSFOLDREPEATSPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

namespace {
struct PhaedrusFoldRepeatsPass
    : public phaedrus::impl::PhaedrusFoldRepeatsPassBase<PhaedrusFoldRepeatsPass> {
  using PhaedrusFoldRepeatsPassBase::PhaedrusFoldRepeatsPassBase;

  void runOnOperation() override {
    if (maxPeriod == 0) {
      mlir::emitError(wholeModuleLoc(getOperation()),
                      "phaedrus-fold-repeats: max-period must be at least 1");
      return signalPassFailure();
    }
    SymbolTableCollection symbolTable;
    TraceWalker walker(symbolTable);
    for (TraceOp trace : getOperation().getOps<TraceOp>()) {
      // Rules stay as they are: folding applies to grammar-free traces.
      if (trace.getGrammarAttr())
        continue;
      FailureOr<uint64_t> length = walker.getExpandedLength(trace);
      if (failed(length) ||
          failed(checkMaxTokens(trace, *length, maxTokens,
                                "left as it is (folding reads every token)")))
        return signalPassFailure();
      trace::RepeatFolder folder(maxPeriod, longPeriod);
      if (failed(walker.expand(trace, [&](ArrayRef<int32_t> piece) {
            folder.push(reinterpret_cast<const uint32_t *>(piece.data()),
                        piece.size());
          })))
        return signalPassFailure();
      folder.finish();
      Block &body = trace.getBody().front();
      body.clear();
      OpBuilder builder = OpBuilder::atBlockEnd(&body);
      emitFoldedItems(builder, trace.getLoc(), folder, trace.getSymName(),
                      inlineLimit, /*renumber=*/{}, minRepeatTokens);
      ++numTracesFolded;
    }
  }
};
} // namespace
