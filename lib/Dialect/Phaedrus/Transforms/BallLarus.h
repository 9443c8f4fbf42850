//===- BallLarus.h - Ball-Larus path numbering ------------------*- C++ -*-===//
//
// Ball-Larus acyclic path numbering of one LLVM-dialect function, and the
// instrumentation that records each completed path at back edges and exits.
// Private to the instrument pass.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_LIB_TRANSFORMS_BALLLARUS_H
#define PHAEDRUS_LIB_TRANSFORMS_BALLLARUS_H

#include "Recorder.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <optional>

namespace mlir::phaedrus {

/// Numbers the acyclic paths of `function` and inserts code that keeps the
/// path number in a local and records (PHAEDRUS_PATH_MARK | functionToken,
/// path id) through `recorder` when a path ends: on back edges, on edges into targets of indirect branches
/// (which cannot carry code) and before returns. Returns the number of
/// distinct path ids (a function with a single path gets no code: its
/// entry event already says which path ran), or std::nullopt (leaving the function unchanged) when
/// the function has more than 2^32 - 1 paths or a terminator the numbering
/// does not handle.
std::optional<uint64_t> instrumentPaths(LLVM::LLVMFuncOp function,
                                        uint32_t functionToken,
                                        Recorder &recorder);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_LIB_TRANSFORMS_BALLLARUS_H
