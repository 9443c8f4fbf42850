//===- ImportWpp.h - Trace files to phaedrus IR -----------------*- C++ -*-===//
#ifndef PHAEDRUS_TARGET_WPP_IMPORTWPP_H
#define PHAEDRUS_TARGET_WPP_IMPORTWPP_H

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Trace/RepeatFolder.h"
#include "phaedrus/Trace/TraceReader.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mlir::phaedrus {

/// Where a long read or pack of a trace file is (ImportWppOptions::progress).
struct WppProgress {
  enum Stage { Read, Code };
  Stage stage;
  /// Events read (Read) or body symbols coded (Code) so far, and how many
  /// there will be (0 when not known: the first read of a file).
  uint64_t done = 0, total = 0;
  /// The read or the coding is over (`done` is then its whole count).
  bool finished = false;
};

/// Events read (or symbols coded) between two calls of a progress callback.
constexpr uint64_t kProgressEvery = uint64_t(1) << 22;

/// Readers that tally a trace file's tokens before its vocabulary is known
/// (--wpp-trace-counts, --pack-wpp's first read of a function trace) take a
/// token from here on for damage: no vocabulary is that large, and a
/// damaged word must not size their tables.
constexpr uint32_t kMaxTraceToken = 1u << 24;

/// The error for a trace file that records `token` outside its vocabulary
/// of `entries` entries (--wpp-trace-counts, --pack-wpp); fails.
LogicalResult emitTokenOutsideVocabulary(Location loc, uint64_t token,
                                         uint64_t entries);

struct ImportWppOptions {
  /// Symbol name of the trace of the first thread; thread k > 0 gets
  /// "<name>_t<k>".
  std::string traceName = "run";
  /// Refuse a trace whose module fingerprint differs.
  std::optional<uint64_t> expectedFingerprint;
  /// Import the intact prefix of a corrupt trace instead of failing.
  bool keepCorruptPrefix = false;
  /// Longest block folded into a repeat on import wherever it repeats.
  unsigned maxPeriod = 8;
  /// Longest block folded where a hash finds it (RepeatFolder's long
  /// periods; 0: none).
  unsigned longPeriod = trace::RepeatFolder::kDefaultLongPeriod;
  /// Repeats that stand for fewer tokens are written as their tokens.
  uint64_t minRepeatTokens = 0;
  /// Longest token run written inline; longer runs become dense_resource.
  uint64_t inlineLimit = 1024;
  /// If set, called every kProgressEvery events read (and, by packWpp,
  /// body symbols coded) and at the end of each read of the file and of
  /// the coding.
  std::function<void(const WppProgress &)> progress;
  /// How many events a read will see, when an earlier read counted them
  /// (WppProgress::total); 0 if not known.
  uint64_t expectedEvents = 0;
};

/// Receives a thread's events in order: `token` repeated `length` times,
/// where `token` is a vocabulary id, or PHAEDRUS_PATH_MARK | k for the k-th
/// distinct (function, Ball-Larus path) of the file (its id is then
/// WppShell::entryId(token)).
using WppEventCallback =
    llvm::function_ref<void(uint32_t thread, uint32_t token, uint64_t length)>;
/// Receives `count` events of a thread at once, each a vocabulary id
/// (length 1): where a reader takes them (a function trace's tokens), it
/// costs no call per event.
using WppSpanCallback = llvm::function_ref<void(
    uint32_t thread, const uint32_t *tokens, size_t count)>;

/// What importWpp builds around the trace bodies: the module with the
/// vocabulary (path entries included) and a trace op per recording thread
/// whose body is an empty block.
struct WppShell {
  OwningOpRef<ModuleOp> module;
  VocabularyOp vocabulary;
  /// (thread index, its trace), in increasing thread order.
  std::vector<std::pair<uint32_t, TraceOp>> traces;
  /// Entries of the file's own vocabulary; the path entries follow.
  size_t staticEntries = 0;
  /// The events the file holds, all threads (a path run counts its length).
  uint64_t events = 0;

  /// The vocabulary id of an event token.
  uint32_t entryId(uint32_t token) const;
};

/// Reads a trace file, handing its events to `onEvent` as they are read and
/// the header to `onHeader` before the first event (or at the end, if there
/// is none). Diagnostics as importWpp.
///
/// With `onSpan`, stretches of a chunk that are plain vocabulary ids go to
/// it instead, one call per stretch; the other events (path runs, entry
/// paths) still go to `onEvent`, in order.
FailureOr<WppShell>
readWpp(StringRef bytes, MLIRContext *context, Location loc,
        const ImportWppOptions &options, WppEventCallback onEvent,
        llvm::function_ref<void(const trace::Header &)> onHeader = nullptr,
        WppSpanCallback onSpan = nullptr);

/// Hands the events of a file that readWpp read without error to `onEvent`
/// (and `onSpan`, as readWpp) again, in the same order and numbering,
/// without diagnostics (a second pass over the file).
void rereadWpp(StringRef bytes, Location loc, const ImportWppOptions &options,
               WppEventCallback onEvent, WppSpanCallback onSpan = nullptr);

/// Adds an event to a thread's folder as importWpp does (a run of a path at
/// once, in time independent of its length).
void foldEvent(trace::RepeatFolder &folder, uint32_t token, uint64_t length);

/// Turns the bytes of a trace file into a module with a phaedrus.vocabulary
/// and one phaedrus.trace per recording thread, folding immediate repeats.
/// Reports problems as diagnostics at `loc`: a trace cut short (a killed
/// run) imports with a warning that says how much was recovered; a corrupt
/// or mismatched one is an error.
OwningOpRef<ModuleOp> importWpp(StringRef bytes, MLIRContext *context,
                                Location loc, const ImportWppOptions &options);

/// One recording thread of a trace file, counted.
struct WppThreadCounts {
  /// The trace symbol importWpp would give the thread.
  std::string name;
  /// Occurrences of every vocabulary id (path entries included).
  std::vector<uint64_t> tokenCounts;
  /// The ids the thread records, in order of first occurrence.
  std::vector<int32_t> firstOccurrence;
};

/// A trace file's counts, and the vocabulary importWpp would build.
struct WppCounts {
  /// Holds `vocabulary` (symbol "vocab"), with the same entries as
  /// importWpp's, path entries included.
  OwningOpRef<ModuleOp> module;
  VocabularyOp vocabulary;
  std::vector<std::string> argv;
  /// The build's granularity as the file's header says: "function" or
  /// "path" (the two builds of one program share its fingerprint).
  std::string granularity;
  std::vector<WppThreadCounts> threads;
};

/// Counts the tokens of a trace file in one pass without building its
/// traces as IR: memory in the size of the vocabulary, not of the run.
/// Equal to the counts of importWpp's traces (TraceWalker::countTokens and
/// firstOccurrences); the same diagnostics as importWpp (the vocabulary is
/// verified as importWpp verifies its module), and an error for a recorded
/// token outside the vocabulary.
FailureOr<WppCounts> countWpp(StringRef bytes, MLIRContext *context,
                              Location loc, const ImportWppOptions &options);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_TARGET_WPP_IMPORTWPP_H
