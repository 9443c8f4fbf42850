//===- FlowRepair.h - Make a function's profile flow-consistent -*- C++ -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_FLOWREPAIR_H
#define PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_FLOWREPAIR_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Support/LLVM.h"

namespace mlir::phaedrus {

/// Makes the phaedrus.entry_count of `function` and the
/// phaedrus.branch_weights inside it one consistent flow (every block's
/// inflow equals its outflow, the entry block's equals the entry count),
/// with LLVM's profile inference (profi, min-cost flow), which changes the
/// given counts as little as possible. Only counts the profile gives are
/// written back: branches without weights stay without. Returns whether
/// anything changed.
bool repairFlow(LLVM::LLVMFuncOp function);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_FLOWREPAIR_H
