//===- PhaedrusToLLVMIRTranslation.cpp - phaedrus attributes to LLVM IR ---===//

#include "phaedrus/Target/LLVMIR/PhaedrusToLLVMIRTranslation.h"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Target/LLVMIR/LLVMTranslationInterface.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"

using namespace mlir;
using namespace mlir::phaedrus;

namespace {
struct PhaedrusToLLVMIRTranslationInterface
    : public LLVMTranslationDialectInterface {
  using LLVMTranslationDialectInterface::LLVMTranslationDialectInterface;

  LogicalResult
  amendOperation(Operation *op, ArrayRef<llvm::Instruction *> instructions,
                 NamedAttribute attribute,
                 LLVM::ModuleTranslation &moduleTranslation) const override {
    if (attribute.getName() == PhaedrusDialect::getIrrLoopWeightAttrName())
      return amendIrrLoopWeight(op, instructions, attribute);
    if (attribute.getName() != PhaedrusDialect::getIndirectBrWeightsAttrName())
      return success(); // other phaedrus attributes say nothing to LLVM
    // The dialect verifier checked the kind, the op and the count.
    auto weights = cast<DenseI32ArrayAttr>(attribute.getValue());
    llvm::IndirectBrInst *branch = nullptr;
    for (llvm::Instruction *inst : instructions)
      if (auto *candidate = dyn_cast<llvm::IndirectBrInst>(inst))
        branch = candidate;
    if (!branch || branch->getNumSuccessors() != weights.size())
      return op->emitOpError()
             << "'" << attribute.getName()
             << "' could not be attached: the translated instruction is not "
                "an indirectbr with one successor per weight";
    SmallVector<uint32_t> values;
    for (int32_t w : weights.asArrayRef())
      values.push_back(static_cast<uint32_t>(w));
    llvm::MDBuilder builder(branch->getContext());
    branch->setMetadata(llvm::LLVMContext::MD_prof,
                        builder.createBranchWeights(values));
    return success();
  }

  /// `phaedrus.irr_loop_weight` on a block's terminator: its !irr_loop.
  static LogicalResult
  amendIrrLoopWeight(Operation *op, ArrayRef<llvm::Instruction *> instructions,
                     NamedAttribute attribute) {
    // The dialect verifier checked the kind, the sign and the op.
    uint64_t weight = cast<IntegerAttr>(attribute.getValue()).getInt();
    llvm::Instruction *terminator = nullptr;
    for (llvm::Instruction *inst : instructions)
      if (inst->isTerminator())
        terminator = inst;
    if (!terminator)
      return op->emitOpError() << "'" << attribute.getName()
                               << "' could not be attached: the operation "
                                  "translated to no terminator";
    llvm::MDBuilder builder(terminator->getContext());
    terminator->setMetadata(llvm::LLVMContext::MD_irr_loop,
                            builder.createIrrLoopHeaderWeight(weight));
    return success();
  }
};
} // namespace

void mlir::phaedrus::registerPhaedrusDialectTranslation(
    DialectRegistry &registry) {
  registry.insert<PhaedrusDialect>();
  registry.addExtension(+[](MLIRContext *, PhaedrusDialect *dialect) {
    dialect->addInterfaces<PhaedrusToLLVMIRTranslationInterface>();
  });
}

/// Phaedrus IR has no LLVM IR form: a module must be lowered and stripped
/// first. Reports the first phaedrus op and the first profile annotation
/// left unlowered, by location (the op itself can be a vocabulary of
/// thousands of entries, too long to print).
static LogicalResult checkLowered(Operation *module) {
  MLIRContext *context = module->getContext();
  Dialect *phaedrus = context->getLoadedDialect<PhaedrusDialect>();
  bool failed = false;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getDialect() == phaedrus) {
      emitError(op->getLoc())
          << "'" << op->getName()
          << "' is phaedrus IR, which has no LLVM IR form: run phaedrus-opt "
             "--phaedrus-strip first (after --phaedrus-lower-profile, to keep "
             "the profile)";
      failed = true;
      return WalkResult::interrupt();
    }
    for (NamedAttribute attr : op->getDiscardableAttrs()) {
      if (attr.getNameDialect() != phaedrus ||
          PhaedrusDialect::isLoweredProfileAttrName(attr.getName()))
        continue;
      emitError(op->getLoc())
          << "'" << attr.getName().getValue() << "' on '" << op->getName()
          << "' is a phaedrus annotation, which LLVM does not read: run "
             "phaedrus-opt --phaedrus-lower-profile (to lower a profile) and "
             "--phaedrus-strip first";
      failed = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(failed);
}

llvm::StringRef mlir::phaedrus::registerMLIRToLLVMIRTranslation() {
  static constexpr llvm::StringLiteral name = "mlir-to-llvmir";
  TranslateFromMLIRRegistration registration(
      name,
      "Translate an LLVM-dialect module to LLVM IR, with the lowered profile "
      "the LLVM dialect cannot hold (indirectbr weights, loop header weights)",
      [](Operation *op, raw_ostream &output) {
        if (failed(checkLowered(op)))
          return failure();
        llvm::LLVMContext llvmContext;
        std::unique_ptr<llvm::Module> module =
            translateModuleToLLVMIR(op, llvmContext);
        if (!module)
          return failure();
        module->print(output, nullptr);
        return success();
      },
      [](DialectRegistry &registry) {
        registry.insert<DLTIDialect, LLVM::LLVMDialect>();
        registerBuiltinDialectTranslation(registry);
        registerLLVMDialectTranslation(registry);
        registerPhaedrusDialectTranslation(registry);
      });
  return name;
}
