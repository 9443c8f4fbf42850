//===- phaedrus-opt.cpp - The phaedrus optimizer driver -------------------===//
//
// mlir-opt for Phaedrus: the phaedrus dialect and passes, plus the dialects
// that programs imported with `mlir-translate --import-llvm` use.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.h"
#include "phaedrus/Dialect/Phaedrus/Predict/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "ToolSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"

#include <vector>

static int optMain(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // DLTI carries the data layout of modules imported from LLVM IR.
  registry.insert<mlir::phaedrus::PhaedrusDialect, mlir::LLVM::LLVMDialect,
                  mlir::func::FuncDialect, mlir::cf::ControlFlowDialect,
                  mlir::arith::ArithDialect, mlir::DLTIDialect>();
  mlir::phaedrus::registerPhaedrusPasses();
  mlir::phaedrus::registerPhaedrusPredictPasses();
  mlir::phaedrus::registerPhaedrusPipelines();
  mlir::phaedrus::addPhaedrusVersionPrinter();
  mlir::phaedrus::installOutOfMemoryHandler();
  mlir::phaedrus::hideLibraryOptions({});
  mlir::phaedrus::noteReportedErrors(registry);
  std::vector<char *> args = mlir::phaedrus::withQuietDiagnostics(argc, argv);
  int count = static_cast<int>(args.size());
  auto [input, output] = mlir::registerAndParseCLIOptions(
      count, args.data(),
      "Phaedrus optimizer: WPP traces, models and profiles\n", registry);
  // A trace file is named as one, and a file cut short inside a string
  // literal (which crashes MLIR's parser when the string is long, a
  // model's weights) is refused before it is parsed.
  if (input != "-") {
    if (auto buffer = llvm::MemoryBuffer::getFile(input)) {
      std::string why =
          mlir::phaedrus::whyNotMlir(input, (*buffer)->getBuffer());
      if (!why.empty()) {
        llvm::WithColor::error(llvm::errs(), "phaedrus-opt") << why << "\n";
        return 1;
      }
    }
  }
  return mlir::phaedrus::sayIfSilent(
      mlir::asMainReturnCode(
          mlir::MlirOptMain(count, args.data(), input, output, registry)),
      "phaedrus-opt", input);
}

int main(int argc, char **argv) {
  return mlir::phaedrus::runWithLargeStack([&] { return optMain(argc, argv); });
}
