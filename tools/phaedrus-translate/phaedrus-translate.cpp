//===- phaedrus-translate.cpp - Phaedrus import/export translations -------===//
//
// Translations between phaedrus IR and the formats around it. Each
// translation registers the dialects it reads.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::phaedrus;

static void registerProgramDialects(DialectRegistry &registry) {
  registry.insert<PhaedrusDialect, LLVM::LLVMDialect, func::FuncDialect,
                  cf::ControlFlowDialect, arith::ArithDialect, DLTIDialect>();
}

/// Exports the profile attributes of a module as JSON: one object per
/// function that has an entry count, and the number of annotated branches.
static LogicalResult exportProfileJson(Operation *op, raw_ostream &os) {
  llvm::json::Array functions;
  int64_t branches = 0;
  op->walk([&](Operation *nested) {
    if (auto count = nested->getAttrOfType<EntryCountAttr>(
            PhaedrusDialect::getEntryCountAttrName())) {
      functions.push_back(llvm::json::Object{
          {"name",
           cast<FunctionOpInterface>(nested).getNameAttr().getValue()},
          {"entry_count", static_cast<int64_t>(count.getCount())},
          {"provenance", stringifyProvenance(count.getProvenance())},
          {"confidence", count.getConfidenceValue()}});
    }
    if (nested->hasAttr(PhaedrusDialect::getBranchWeightsAttrName()))
      ++branches;
  });
  llvm::json::Object root{{"format", "phaedrus-profile"},
                          {"version", 1},
                          {"functions", std::move(functions)},
                          {"annotated_branches", branches}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return success();
}

int main(int argc, char **argv) {
  TranslateFromMLIRRegistration exportProfile(
      "export-profile-json",
      "Write the phaedrus profile attributes of a module as JSON",
      exportProfileJson, registerProgramDialects);
  return failed(mlirTranslateMain(argc, argv, "Phaedrus translations\n"));
}
