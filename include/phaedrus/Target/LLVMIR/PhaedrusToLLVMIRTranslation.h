//===- PhaedrusToLLVMIRTranslation.h - phaedrus attributes to LLVM IR -*- C++ -*-===//
//
// What the phaedrus dialect adds to the MLIR -> LLVM IR translation: the
// lowered profile that the LLVM dialect has no place for
// (`phaedrus.indirectbr_weights` on llvm.indirectbr becomes the
// instruction's !prof branch_weights).
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TARGET_LLVMIR_PHAEDRUSTOLLVMIRTRANSLATION_H
#define PHAEDRUS_TARGET_LLVMIR_PHAEDRUSTOLLVMIRTRANSLATION_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class DialectRegistry;

namespace phaedrus {

/// Registers the phaedrus dialect and its LLVM IR translation interface.
void registerPhaedrusDialectTranslation(DialectRegistry &registry);

/// Registers `--mlir-to-llvmir`: an LLVM-dialect module (with what
/// --phaedrus-lower-profile made of a profile) to textual LLVM IR, like
/// mlir-translate's translation of that name for the dialects a
/// whole-program module from clang uses (llvm, builtin) plus phaedrus.
/// Returns the translation's name.
llvm::StringRef registerMLIRToLLVMIRTranslation();

} // namespace phaedrus
} // namespace mlir

#endif // PHAEDRUS_TARGET_LLVMIR_PHAEDRUSTOLLVMIRTRANSLATION_H
