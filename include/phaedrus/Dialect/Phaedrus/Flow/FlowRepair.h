//===- FlowRepair.h - Make a function's profile flow-consistent -*- C++ -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_FLOW_FLOWREPAIR_H
#define PHAEDRUS_DIALECT_PHAEDRUS_FLOW_FLOWREPAIR_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::phaedrus {

/// Makes the phaedrus.entry_count of `function` and the
/// phaedrus.branch_weights inside it one consistent flow (every block's
/// inflow equals its outflow, the entry block's equals the entry count),
/// with LLVM's profile inference (profi, min-cost flow), which changes the
/// given counts as little as possible. Only counts the profile gives are
/// written back: branches without weights stay without. A function whose
/// counts are all measured is left as it is (a run's counts are a flow,
/// unless the recording lost paths, and then no repair knows where they
/// went). Returns whether anything changed.
bool repairFlow(LLVM::LLVMFuncOp function);

/// How often each block of `function` ran, where its profile says: the
/// entry block the entry count; a block whose terminator has
/// phaedrus.branch_weights their sum; any other block the sum of its
/// incoming edges, when each of them is known. An edge is known when its
/// branch has weights, or when it leaves a block of known count that has no
/// other successor or that never ran. Blocks the profile leaves open (most of them in a
/// function-granularity profile) are absent. The counts agree with each
/// other only where the profile is a flow: repairFlow first.
llvm::DenseMap<Block *, uint64_t> knownBlockCounts(LLVM::LLVMFuncOp function);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_FLOW_FLOWREPAIR_H
