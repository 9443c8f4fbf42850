//===- Pipelines.cpp - Named phaedrus pipelines ---------------------------===//

#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

void mlir::phaedrus::registerPhaedrusPipelines() {
  PassPipelineRegistration<>(
      "phaedrus-measured-profile",
      "Turn the module's traces into LLVM profile metadata: "
      "phaedrus-trace-profile, then phaedrus-lower-profile",
      [](OpPassManager &pm) {
        pm.addPass(createPhaedrusTraceProfilePass());
        pm.addPass(createPhaedrusLowerProfilePass());
      });
}
