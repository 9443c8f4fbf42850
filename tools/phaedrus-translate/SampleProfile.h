//===- SampleProfile.h - Export a profile as an LLVM sample profile -------===//
#ifndef PHAEDRUS_TOOLS_TRANSLATE_SAMPLEPROFILE_H
#define PHAEDRUS_TOOLS_TRANSLATE_SAMPLEPROFILE_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::phaedrus {

/// What the exports of a profile say to do for a module without one.
inline constexpr const char *kNoProfileAdvice =
    "annotate the program with --phaedrus-trace-profile or "
    "--phaedrus-predict first (--phaedrus-lower-profile turns the counts "
    "into LLVM's own: export before lowering)";

/// Writes the phaedrus profile attributes of a module (measured or
/// predicted) as an LLVM text sample profile (docs/SampleProfile.md), with
/// discriminators as clang's -fdebug-info-for-profiling assigns them, or,
/// without `discriminators`, one record per line.
LogicalResult exportSampleProfile(Operation *module, raw_ostream &os,
                                  bool discriminators);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_TOOLS_TRANSLATE_SAMPLEPROFILE_H
