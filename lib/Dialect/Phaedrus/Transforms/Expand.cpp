//===- Expand.cpp - Expand compressed traces ------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSEXPANDPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

namespace {
struct PhaedrusExpandPass
    : public phaedrus::impl::PhaedrusExpandPassBase<PhaedrusExpandPass> {
  using PhaedrusExpandPassBase::PhaedrusExpandPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbolTable;
    TraceWalker walker(symbolTable);
    bool anyFailed = false;

    for (TraceOp trace : llvm::to_vector(module.getOps<TraceOp>())) {
      FailureOr<uint64_t> length = walker.getRecordedLength(trace);
      if (failed(length)) {
        anyFailed = true;
        continue;
      }
      if (failed(checkMaxTokens(trace, *length, maxTokens,
                                "left compressed"))) {
        anyFailed = true;
        continue;
      }
      std::vector<int32_t> tokens;
      tokens.reserve(*length);
      if (failed(walker.expandRecorded(trace, [&](ArrayRef<int32_t> piece) {
            tokens.insert(tokens.end(), piece.begin(), piece.end());
          }))) {
        anyFailed = true;
        continue;
      }
      replaceBody(trace, tokens);
      ++numTracesExpanded;
      numTokensWritten += tokens.size();
    }

    // Grammars that no trace refers to any more have served their purpose.
    eraseUnusedGrammars(module);

    // Group entries stay: a function-granularity build records its call
    // groups in the vocabulary (--phaedrus-instrument), so they are part of
    // the recorded trace's vocabulary, and the expanded trace can be folded
    // again without the program.
    if (anyFailed)
      signalPassFailure();
  }

  void replaceBody(TraceOp trace, ArrayRef<int32_t> tokens) {
    Block &block = trace.getBody().front();
    block.clear();
    trace.removeGrammarAttr();
    if (tokens.empty())
      return;
    OpBuilder builder = OpBuilder::atBlockEnd(&block);
    ArrayRef<uint32_t> values(reinterpret_cast<const uint32_t *>(tokens.data()),
                              tokens.size());
    TokensOp::create(builder, trace.getLoc(),
                     makeTokensAttr(builder, values,
                                    (trace.getSymName() + "_tokens").str(),
                                    inlineLimit));
  }
};
} // namespace
