// Links the installed PhaedrusPredict library: registers --phaedrus-predict
// and builds a pipeline with it, as a tool that predicts would.

#include "phaedrus/Dialect/Phaedrus/Predict/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

int main() {
  mlir::phaedrus::registerPhaedrusPredictPasses();
  mlir::MLIRContext context;
  mlir::PassManager pm(&context);
  if (mlir::failed(mlir::parsePassPipeline("phaedrus-predict{temperature=1.0}", pm)))
    return 1;
  llvm::outs() << "pipeline: ";
  pm.printAsTextualPipeline(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
