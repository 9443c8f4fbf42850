//===- Pipelines.cpp - Named phaedrus pipelines ---------------------------===//

#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct CompressOptions : public PassPipelineOptions<CompressOptions> {
  Option<std::string> program{
      *this, "program",
      llvm::cl::desc("The plain program whose CFG gives the call groups, "
                     "when the module holds only traces (default: the groups "
                     "in the traces' vocabularies)")};
  Option<bool> grammar{*this, "grammar",
                       llvm::cl::desc("Grammar-compress last (default true; "
                                      "=false before --export-packed: rules "
                                      "cut the contexts its model predicts "
                                      "from)"),
                       llvm::cl::init(true)};
  Option<uint64_t> maxTokens{
      *this, "max-tokens",
      llvm::cl::desc("Refuse to fold a trace of more tokens than this "
                     "(folding reads every token) (default: 2^30)"),
      llvm::cl::init(uint64_t(1) << 30)};
};
} // namespace

void mlir::phaedrus::registerPhaedrusPipelines() {
  PassPipelineRegistration<CompressOptions>(
      "phaedrus-compress",
      "Compress traces: phaedrus-call-groups (input-consistent compression, "
      "function traces), phaedrus-fold-repeats, then phaedrus-grammar",
      [](OpPassManager &pm, const CompressOptions &options) {
        PhaedrusCallGroupsPassOptions groups;
        groups.programPath = options.program;
        groups.maxTokens = options.maxTokens;
        pm.addPass(createPhaedrusCallGroupsPass(groups));
        PhaedrusFoldRepeatsPassOptions fold;
        fold.maxTokens = options.maxTokens;
        pm.addPass(createPhaedrusFoldRepeatsPass(fold));
        if (options.grammar)
          pm.addPass(createPhaedrusGrammarPass());
      });

  PassPipelineRegistration<>(
      "phaedrus-measured-profile",
      "Turn the module's traces into LLVM profile metadata: "
      "phaedrus-trace-profile, then phaedrus-lower-profile",
      [](OpPassManager &pm) {
        pm.addPass(createPhaedrusTraceProfilePass());
        pm.addPass(createPhaedrusLowerProfilePass());
      });
}
