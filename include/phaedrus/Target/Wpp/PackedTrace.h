//===- PackedTrace.h - The packed trace format ------------------*- C++ -*-===//
//
// The compact serialization of compressed traces (docs/PackedTrace.md): a
// module's vocabularies, grammars and traces, structure included (token
// runs, counted repeats, rule uses), entropy coded with the context models
// of phaedrus/Trace/ContextCoder.h. Packing and unpacking keep every
// trace's expansion, its input descriptor, fingerprint and grammar; the ops
// may be regrouped (consecutive tokens ops merge) and vocabularies, their
// grammars and traces come back grouped in that order.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TARGET_WPP_PACKEDTRACE_H
#define PHAEDRUS_TARGET_WPP_PACKEDTRACE_H

#include "phaedrus/Target/Wpp/ImportWpp.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::phaedrus {

/// Where the bytes of a packed file go (the stream is one, so the parts are
/// measured as the coder's output grows; they add up to within a few bytes
/// of the payload).
struct PackedSizes {
  uint64_t total = 0;        // the file: header and payload
  uint64_t vocabularies = 0; // names, fingerprints, entries
  uint64_t grammars = 0;     // grammar and rule names, rule bodies
  uint64_t traces = 0;       // trace names, descriptors, bodies
};

/// Writes the vocabularies, grammars and traces of `module` as a packed
/// trace file. Fails (with a diagnostic) on any other op or attribute,
/// which the format would not keep. `sizes`, if given, receives where the
/// bytes went.
LogicalResult exportPacked(Operation *module, raw_ostream &os,
                           PackedSizes *sizes = nullptr);

/// Reads a packed trace file; emits a diagnostic at `loc` and returns null
/// on a file that is not one, is of another version, truncated or corrupt.
/// Token runs longer than `inlineLimit` become dense_resource blobs.
/// Packs a trace file written by libphaedrus_rt (docs/TraceFormat.md)
/// without building its events as IR: the file that --import-wpp (with
/// `options`), then --phaedrus-call-groups for a function-granularity trace
/// whose vocabulary has call groups, then --export-packed would write, byte
/// for byte (with any min-repeat-tokens up to 33: the packed file codes
/// repeats of at most 32 tokens as tokens). Memory is the folded trace and
/// the coder's tables; a function-granularity file is read three times.
/// Diagnostics as importWpp's.
LogicalResult packWpp(StringRef bytes, MLIRContext *context, Location loc,
                      const ImportWppOptions &options, raw_ostream &os,
                      PackedSizes *sizes = nullptr);

OwningOpRef<ModuleOp> importPacked(StringRef bytes, MLIRContext *context,
                                   Location loc, uint64_t inlineLimit = 1024);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_TARGET_WPP_PACKEDTRACE_H
