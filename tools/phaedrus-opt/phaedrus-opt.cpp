//===- phaedrus-opt.cpp - The phaedrus optimizer driver -------------------===//
//
// mlir-opt for Phaedrus: the phaedrus dialect and passes, plus the dialects
// that programs imported with `mlir-translate --import-llvm` use.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // DLTI carries the data layout of modules imported from LLVM IR.
  registry.insert<mlir::phaedrus::PhaedrusDialect, mlir::LLVM::LLVMDialect,
                  mlir::func::FuncDialect, mlir::cf::ControlFlowDialect,
                  mlir::arith::ArithDialect, mlir::DLTIDialect>();
  mlir::phaedrus::registerPhaedrusPasses();
  mlir::phaedrus::registerPhaedrusPipelines();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "Phaedrus optimizer: WPP traces, models and profiles\n",
      registry));
}
