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

#include "phaedrus/Formats.h"
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
  /// Symbols of rule and trace bodies coded (tokens, repeat opens and
  /// closes, ends), and how many of them the model predicted (coded by one
  /// flag).
  uint64_t bodySymbols = 0;
  uint64_t predictedSymbols = 0;
  /// Of the body symbols, how many were coded in runs (deep in a long
  /// match: the fast path), and how many of those were hits its own flag
  /// alone coded.
  uint64_t runSymbols = 0;
  uint64_t runSureHits = 0;
  /// The body model's hashed tables at the end (2^tableBits counters
  /// each; the largest of the file's models) and the most they could grow
  /// to (packed format 6: they grow with the symbols coded outside runs).
  unsigned tableBits = 0, maxTableBits = 0;
  /// packWpp: traces folded again while coded (more folded items than it
  /// keeps).
  uint64_t foldedAgain = 0;
  /// packWpp: whether the folded items were kept compactly (more than
  /// `compactAbove` bytes of them in the folders) at some point.
  bool keptCompactly = false;
};

/// Writes the vocabularies, grammars and traces of `module` as a packed
/// trace file. Fails (with a diagnostic) on any other op or attribute,
/// which the format would not keep. `sizes`, if given, receives where the
/// bytes went.
LogicalResult exportPacked(Operation *module, raw_ostream &os,
                           PackedSizes *sizes = nullptr);

/// packWpp checks its budget of folded items every this many events (each
/// adds at most one item).
constexpr uint64_t kBudgetCheckEvents = 4096;
/// How much memory --pack-wpp gives the folded items it keeps by default,
/// in MiB (kept compactly, 2 to 3 bytes an item on Lua's and bzip2's
/// traces): a longer trace is folded again while it is coded. The coder's
/// tables and history (at most 192 MiB) come on top while it codes kept
/// items. 192: traces of 15-45M events (Lua tables.lua, gc.lua at path
/// granularity) fit and are not folded again (8-17% less time); a trace
/// that does not fit (objects.lua path, 85M events) folds further before it
/// finds out than it did under a budget of 2^24 items (5.29 -> 5.86 s) but
/// in less memory (324 -> 257 MB).
constexpr uint64_t kPackKeepMiB = 192;
/// --pack-wpp keeps the folded items in its folders (16 bytes each) up to
/// this many bytes, then compactly (trace::CompactItems: less memory, a
/// little more time to read them back).
constexpr uint64_t kPackCompactAbove = uint64_t(64) << 20;

/// Packs a trace file written by libphaedrus_rt (docs/TraceFormat.md)
/// without building its events as IR: the file that --import-wpp (with
/// `options`), then --phaedrus-call-groups for a function-granularity trace
/// whose vocabulary has call groups, then --export-packed would write, byte
/// for byte (with any min-repeat-tokens up to 33: the packed file codes
/// repeats of at most 32 tokens as tokens). The file is read once at path
/// granularity, twice at function granularity, three times with call
/// groups; the folded items are kept while they take at most `keepBytes`
/// (compactly past `compactAbove`, or half of `keepBytes` if that is less), else each thread is folded again (one more read per thread;
/// call groups from a copy of the first analysis) while it is coded. Memory is then at most
/// `keepBytes` of items, the repeat bodies, the coder's tables and its history
/// of coded symbols (4 bytes each, at most the last 2^24). Diagnostics as
/// importWpp's.
LogicalResult packWpp(StringRef bytes, MLIRContext *context, Location loc,
                      const ImportWppOptions &options, raw_ostream &os,
                      PackedSizes *sizes = nullptr,
                      uint64_t keepBytes = kPackKeepMiB << 20,
                      uint64_t compactAbove = kPackCompactAbove);

/// Reads a packed trace file; emits a diagnostic at `loc` and returns null
/// on a file that is not one, is of another version, truncated or corrupt.
/// Token runs longer than `inlineLimit` become dense_resource blobs. A file
/// whose bodies decode to more than `maxSymbols` symbols (tokens, rule uses
/// and repeat marks; 4 bytes each in memory) is refused: a few corrupt or
/// crafted bytes can decode to billions.
constexpr uint64_t kPackedMaxSymbols = uint64_t(1) << 28;
OwningOpRef<ModuleOp> importPacked(StringRef bytes, MLIRContext *context,
                                   Location loc, uint64_t inlineLimit = 1024,
                                   uint64_t maxSymbols = kPackedMaxSymbols);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_TARGET_WPP_PACKEDTRACE_H
