//===- TraceBuild.h - Building trace bodies ---------------------*- C++ -*-===//
//
// Writing token sequences and folded repeat structure as phaedrus IR; shared
// by the importer and the passes that rewrite traces.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_IR_TRACEBUILD_H
#define PHAEDRUS_DIALECT_PHAEDRUS_IR_TRACEBUILD_H

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Trace/RepeatFolder.h"

#include "mlir/IR/Builders.h"

namespace mlir::phaedrus {

/// Tokens as an i32 elements attribute: inline `dense` up to `inlineLimit`
/// tokens, otherwise a `dense_resource` blob named `blobName` (made unique
/// by the context if taken).
ElementsAttr makeTokensAttr(OpBuilder &builder, ArrayRef<uint32_t> tokens,
                            StringRef blobName, uint64_t inlineLimit);

/// Writes `run` (if not empty) as one phaedrus.tokens op at the builder's
/// insertion point, its blob (when longer than `inlineLimit`) named
/// `<blobPrefix>_<blobs>`, then counts the blob and clears `run`.
void flushTokenRun(OpBuilder &builder, Location loc, std::vector<uint32_t> &run,
                   StringRef blobPrefix, unsigned &blobs, uint64_t inlineLimit);

/// Appends `folder`'s items at the builder's insertion point: runs of tokens
/// as phaedrus.tokens (blobs named `<blobPrefix>_<n>`), repeats as
/// phaedrus.repeat with their bodies. `renumber`, if given, maps every token.
/// A repeat that stands for fewer than `minRepeatTokens` tokens is written
/// as those tokens instead: a `repeat 2` of one token is three IR objects
/// (op, region, block) and a tokens op for two tokens, which every later
/// pass, the verifier and the bytecode writer pay for.
void emitFoldedItems(OpBuilder &builder, Location loc,
                     const trace::RepeatFolder &folder, StringRef blobPrefix,
                     uint64_t inlineLimit,
                     function_ref<uint32_t(uint32_t)> renumber = {},
                     uint64_t minRepeatTokens = 0);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_IR_TRACEBUILD_H
