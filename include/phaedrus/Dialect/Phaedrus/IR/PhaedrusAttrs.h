//===- PhaedrusAttrs.h - phaedrus attributes and enums ----------*- C++ -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSATTRS_H
#define PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusEnums.h.inc"

namespace mlir::phaedrus {
/// Parses a confidence, a floating-point number in [0, 1].
FailureOr<llvm::APFloat> parseConfidence(AsmParser &parser);
/// Parses a count, a non-negative 64-bit integer (a minus sign is an error).
FailureOr<uint64_t> parseCount(AsmParser &parser);
/// Parses comma-separated counts (at least one).
FailureOr<SmallVector<uint64_t>> parseCounts(AsmParser &parser);
/// Prints a confidence so that it parses back to the same double.
void printConfidence(AsmPrinter &printer, const llvm::APFloat &confidence);
} // namespace mlir::phaedrus

#define GET_ATTRDEF_CLASSES
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusAttrDefs.h.inc"

#endif // PHAEDRUS_DIALECT_PHAEDRUS_IR_PHAEDRUSATTRS_H
