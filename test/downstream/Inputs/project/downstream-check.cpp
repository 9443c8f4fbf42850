// Parses a file of phaedrus IR with the installed dialect, runs the installed
// phaedrus-trace-profile pass on it and prints each function's entry count,
// on a thread with a large stack (phaedrus IR nests as deep as its data).

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Support/LargeStack.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

static int check(const char *path) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::phaedrus::PhaedrusDialect, mlir::LLVM::LLVMDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(path, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  pm.addPass(mlir::phaedrus::createPhaedrusTraceProfilePass());
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->walk([](mlir::LLVM::LLVMFuncOp function) {
    if (auto count = function->getAttrOfType<mlir::phaedrus::EntryCountAttr>(
            mlir::phaedrus::PhaedrusDialect::getEntryCountAttrName()))
      llvm::outs() << function.getName() << " " << count.getCount() << "\n";
  });
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    llvm::errs() << "usage: my-tool FILE.mlir\n";
    return 2;
  }
  return mlir::phaedrus::runWithLargeStack([&] { return check(argv[1]); });
}
