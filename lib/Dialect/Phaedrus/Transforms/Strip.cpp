//===- Strip.cpp - Remove phaedrus ops and attributes ---------------------===//
//
// Keeps `phaedrus.indirectbr_weights` and `phaedrus.irr_loop_weight`: they
// are lowered profile, not phaedrus IR, waiting for `phaedrus-translate
// --mlir-to-llvmir` to emit them as LLVM metadata (the LLVM dialect has no
// place for an indirectbr's weights or a loop header's).
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSSTRIPPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

void mlir::phaedrus::stripPhaedrusIR(ModuleOp module,
                                     bool keepLoweredProfile) {
  Dialect *phaedrus = module.getContext()->getLoadedDialect<PhaedrusDialect>();
  if (!phaedrus)
    return; // Nothing of the dialect can be in the module.
  for (Operation &op : llvm::make_early_inc_range(*module.getBody()))
    if (op.getDialect() == phaedrus)
      op.erase();
  module.walk([&](Operation *op) {
    SmallVector<StringAttr> names;
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (attr.getNameDialect() == phaedrus &&
          !(keepLoweredProfile &&
            PhaedrusDialect::isLoweredProfileAttrName(attr.getName())))
        names.push_back(attr.getName());
    for (StringAttr name : names)
      op->removeDiscardableAttr(name);
  });
}

namespace {
struct PhaedrusStripPass
    : public phaedrus::impl::PhaedrusStripPassBase<PhaedrusStripPass> {
  void runOnOperation() override {
    stripPhaedrusIR(getOperation(), /*keepLoweredProfile=*/true);
  }
};
} // namespace
