//===- Passes.h - phaedrus passes -------------------------------*- C++ -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PASSES_H
#define PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PASSES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.h"

namespace mlir::phaedrus {

/// What --phaedrus-instrument records.
enum class Granularity {
  /// Function entries, with the call site they came from.
  Function,
  /// Function entries and Ball-Larus acyclic paths.
  Path,
};

#define GEN_PASS_DECL
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"

/// Erases the phaedrus ops of `module` and the phaedrus.* discardable
/// attributes of every op in it, leaving only the program
/// (--phaedrus-strip). With `keepLoweredProfile`, the lowered profile that
/// phaedrus-translate --mlir-to-llvmir emits (phaedrus.indirectbr_weights)
/// stays.
void stripPhaedrusIR(ModuleOp module, bool keepLoweredProfile);

/// Registers the named pipelines of Phaedrus (e.g.
/// `phaedrus-measured-profile`).
void registerPhaedrusPipelines();

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PASSES_H
