//===- ImportWpp.cpp - Trace files to phaedrus IR -------------------------===//

#include "phaedrus/Target/Wpp/ImportWpp.h"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"
#include "phaedrus/Trace/Format.h"
#include "phaedrus/Trace/RepeatFolder.h"
#include "phaedrus/Trace/TraceReader.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

using namespace mlir;
using namespace mlir::phaedrus;

static std::string describeRecovery(const trace::ReadStatus &status) {
  return "recovered " + std::to_string(status.events) + " events in " +
         std::to_string(status.eventRecords) + " chunks from " +
         std::to_string(status.threads) + " thread(s), " +
         std::to_string(status.validBytes) + " of " +
         std::to_string(status.totalBytes) + " bytes";
}

static EntryKind parseKind(StringRef kind) {
  if (kind == "call_site")
    return EntryKind::CallSite;
  if (kind == "path")
    return EntryKind::Path;
  if (kind == "group")
    return EntryKind::Group;
  return EntryKind::Function;
}

namespace {
/// A trace file read to its end: the header and the vocabulary, with an
/// entry appended for every distinct (function, Ball-Larus path) the events
/// name, numbered after the static entries in order of first appearance.
struct DecodedWpp {
  trace::Header header;
  std::vector<trace::VocabularyEntry> entries;
  /// How many entries the file's vocabulary has (the path entries follow).
  size_t staticEntries = 0;
  /// The recording threads, in increasing order of their index.
  std::vector<uint32_t> threads;
  /// The events of all threads (each path run counts its length).
  uint64_t events = 0;
};
} // namespace

/// Reads a trace file and hands each thread's events, in order, to
/// `deliver(thread, token, length)`: `token` repeated `length` times, where
/// `token` is a vocabulary id, or PHAEDRUS_PATH_MARK | k for the k-th
/// distinct (function, path) (its entry id is then the number of static
/// entries plus k). Reports problems at `loc` as importWpp documents them;
/// nullopt on an error. `reread`: the file was read before, so its
/// vocabulary is neither parsed nor checked again (the result has no
/// entries; a Lua vocabulary took a fifth of packing a short trace, parsed
/// once per read).
static std::optional<DecodedWpp>
decodeWpp(StringRef bytes, Location loc, const ImportWppOptions &options,
          WppEventCallback deliver,
          llvm::function_ref<void(const trace::Header &)> onHeader = nullptr,
          WppSpanCallback deliverSpan = nullptr, bool reread = false) {
  DecodedWpp decoded;
  // Every event goes through here, counted (for the progress callback too).
  uint64_t &events = decoded.events;
  uint64_t nextReport = kProgressEvery;
  auto report = [&](bool finished) {
    if (options.progress)
      options.progress(
          {WppProgress::Read, events, options.expectedEvents, finished});
  };
  auto counted = [&](uint64_t delivered) {
    events += delivered;
    if (events >= nextReport) {
      nextReport = events + kProgressEvery;
      report(false);
    }
  };
  auto onEvent = [&](uint32_t thread, uint32_t token, uint64_t length) {
    deliver(thread, token, length);
    counted(length);
  };
  // (Cut where a report falls due: reports come as they do event by event.)
  auto onSpan = [&](uint32_t thread, const uint32_t *tokens, size_t count) {
    while (count > 0) {
      size_t take = std::min<uint64_t>(count, nextReport - events);
      deliverSpan(thread, tokens, take);
      tokens += take;
      count -= take;
      counted(take);
    }
  };
  bool headerSeen = false;
  trace::Ending ending;
  // Path runs are three words (PHAEDRUS_PATH_MARK | function, path id,
  // length) or one (PHAEDRUS_PATH_SHORT | function << 16 | path id, length
  // 1); each distinct (function, path) becomes a vocabulary entry. An
  // entry-path word (PHAEDRUS_PATH_ENTRY | token << 16 | path id) is the
  // entry token, then a one-word run of the function it enters.
  struct PendingRun {
    unsigned words = 0; // of the current run read so far
    uint32_t function = 0, path = 0;
  };
  std::map<uint32_t, PendingRun> pendingPath; // per thread
  // (function << 32 | path) -> its number: a hash table, as every path
  // event looks it up (a std::map took 8% of --pack-wpp on a Lua path
  // trace).
  llvm::DenseMap<uint64_t, uint32_t> pathIds;
  std::vector<std::pair<uint32_t, uint32_t>> pathOrder;
  uint64_t danglingPathMarks = 0;
  // The function each token enters (its own for a function, the callee's
  // for a call site, kNone otherwise), from the vocabulary, which comes
  // before any event: made at the first entry-path word.
  constexpr uint32_t kNone = UINT32_MAX;
  std::optional<std::vector<uint32_t>> enteredFunction;
  std::optional<uint32_t> badEntryToken;
  // A function-granularity trace holds no path words.
  std::optional<uint32_t> pathWordInFunctionTrace;
  // A three-word run of length 0, which the runtime never writes (its runs
  // count the paths taken, at least one): function and path id.
  std::optional<std::pair<uint32_t, uint32_t>> emptyPathRun;
  auto functionEnteredBy = [&](uint32_t token) -> uint32_t {
    if (!enteredFunction) {
      enteredFunction.emplace();
      std::string error;
      if (auto entries =
              trace::parseVocabulary(decoded.header.vocabulary, error)) {
        std::map<std::string, uint32_t> functionIds;
        for (const trace::VocabularyEntry &entry : *entries)
          if (entry.kind == "function")
            functionIds.emplace(entry.symbol, entry.id);
        for (const trace::VocabularyEntry &entry : *entries) {
          uint32_t entered = kNone;
          if (entry.kind == "function")
            entered = entry.id;
          else if (entry.kind == "call_site" && functionIds.count(entry.callee))
            entered = functionIds.at(entry.callee);
          enteredFunction->push_back(entered);
        }
      }
    }
    return token < enteredFunction->size() ? (*enteredFunction)[token] : kNone;
  };
  trace::ReadStatus status = trace::readTrace(
      bytes.data(), bytes.size(), decoded.header, ending,
      [&](uint32_t thread, const uint32_t *tokens, size_t count) {
        if (!headerSeen) {
          headerSeen = true;
          if (onHeader)
            onHeader(decoded.header);
        }
        PendingRun &pending = pendingPath[thread];
        auto pushPath = [&](uint32_t function, uint32_t path, uint32_t length) {
          auto [it, inserted] = pathIds.try_emplace(
              uint64_t(function) << 32 | path, pathOrder.size());
          if (inserted)
            pathOrder.emplace_back(function, path);
          onEvent(thread, PHAEDRUS_PATH_MARK | it->second, length);
        };
        for (size_t i = 0; i < count; ++i) {
          if (deliverSpan && pending.words == 0) {
            size_t end = i;
            while (end < count && (tokens[end] & PHAEDRUS_PATH_KIND_MASK) == 0)
              ++end;
            if (end > i) {
              onSpan(thread, tokens + i, end - i);
              i = end - 1;
              continue;
            }
          }
          uint32_t word = tokens[i];
          if (pending.words == 0 && (word & PHAEDRUS_PATH_KIND_MASK) &&
              decoded.header.granularity == PHAEDRUS_GRANULARITY_FUNCTION) {
            if (!pathWordInFunctionTrace)
              pathWordInFunctionTrace = word;
            continue;
          }
          if (pending.words == 1) {
            pending.path = word;
            pending.words = 2;
          } else if (pending.words == 2) {
            if (word == 0 && !emptyPathRun)
              emptyPathRun.emplace(pending.function, pending.path);
            pushPath(pending.function, pending.path, word);
            pending.words = 0;
          } else if ((word & PHAEDRUS_PATH_KIND_MASK) == PHAEDRUS_PATH_SHORT) {
            pushPath((word & ~PHAEDRUS_PATH_KIND_MASK) >> 16, word & 0xffffu, 1);
          } else if ((word & PHAEDRUS_PATH_KIND_MASK) == PHAEDRUS_PATH_ENTRY) {
            uint32_t token = (word & ~PHAEDRUS_PATH_KIND_MASK) >> 16;
            uint32_t function = functionEnteredBy(token);
            if (function == kNone) {
              if (!badEntryToken)
                badEntryToken = token;
              continue;
            }
            onEvent(thread, token, 1);
            pushPath(function, word & 0xffffu, 1);
          } else if (word & PHAEDRUS_PATH_MARK) {
            pending.function = word & ~PHAEDRUS_PATH_MARK;
            pending.words = 1;
          } else {
            onEvent(thread, word, 1);
          }
        }
      });
  for (auto &[thread, pending] : pendingPath) {
    danglingPathMarks += pending.words != 0;
    decoded.threads.push_back(thread);
  }

  if (!status.headerValid) {
    emitError(loc) << "cannot import trace: " << status.problem
                   << "; nothing was recovered";
    return std::nullopt;
  }
  if (!headerSeen && onHeader)
    onHeader(decoded.header);
  if (options.expectedFingerprint &&
      *options.expectedFingerprint != decoded.header.fingerprint) {
    emitError(loc) << "trace fingerprint " << decoded.header.fingerprint
                   << " does not match the expected fingerprint "
                   << *options.expectedFingerprint
                   << ": it was recorded from a different build of the program";
    return std::nullopt;
  }
  if (!status.complete) {
    if (status.corrupt && !options.keepCorruptPrefix) {
      emitError(loc) << "trace is corrupt: " << status.problem
                     << "; the intact prefix has "
                     << describeRecovery(status)
                     << " (import it with --wpp-keep-prefix)";
      return std::nullopt;
    }
    emitWarning(loc) << "trace is incomplete: " << status.problem << "; "
                     << describeRecovery(status);
  }
  if (reread) {
    report(true);
    return decoded;
  }
  std::string vocabularyError;
  std::optional<std::vector<trace::VocabularyEntry>> entries =
      trace::parseVocabulary(decoded.header.vocabulary, vocabularyError);
  if (!entries) {
    emitError(loc) << "cannot import trace: " << vocabularyError;
    return std::nullopt;
  }
  if (entries->empty()) {
    emitError(loc) << "cannot import trace: it has no vocabulary";
    return std::nullopt;
  }
  if (pathWordInFunctionTrace) {
    emitError(loc) << "corrupt trace: word "
                   << llvm::formatv("{0:x8}", *pathWordInFunctionTrace).str()
                   << " is a path event, in a trace of function granularity";
    return std::nullopt;
  }
  if (emptyPathRun) {
    emitError(loc) << "corrupt trace: a path run of length 0 (token "
                   << emptyPathRun->first << ", path " << emptyPathRun->second
                   << "): runs count the paths taken, at least one";
    return std::nullopt;
  }
  if (badEntryToken) {
    emitError(loc) << "corrupt trace: an entry-path word names token "
                   << *badEntryToken
                   << ", which is not a function or call site of the vocabulary";
    return std::nullopt;
  }
  if (danglingPathMarks)
    emitWarning(loc) << "the trace ends inside a path event; "
                     << danglingPathMarks << " incomplete path event(s) dropped";
  // Path entries follow the static ones.
  size_t staticEntries = decoded.staticEntries = entries->size();
  for (auto [function, pathId] : pathOrder) {
    if (function >= staticEntries || (*entries)[function].kind != "function") {
      emitError(loc) << "corrupt trace: a path event names token " << function
                     << ", which is not a function of the vocabulary";
      return std::nullopt;
    }
    trace::VocabularyEntry path;
    path.id = entries->size();
    path.kind = "path";
    path.symbol = (*entries)[function].symbol;
    path.index = pathId;
    entries->push_back(std::move(path));
  }
  decoded.entries = std::move(*entries);
  // A run with no events at all still gets its (empty) trace.
  if (decoded.threads.empty())
    decoded.threads.push_back(0);
  report(true);
  return decoded;
}

/// The trace symbol of a recording thread.
static std::string threadTraceName(const ImportWppOptions &options,
                                   uint32_t thread) {
  return thread == 0 ? options.traceName
                     : options.traceName + "_t" + std::to_string(thread);
}

/// A module holding the decoded vocabulary (symbol "vocab"), built at the
/// end of `builder`'s block.
static VocabularyOp buildVocabulary(OpBuilder &builder, Location loc,
                                    const DecodedWpp &decoded) {
  MLIRContext *context = builder.getContext();
  auto fingerprint = builder.getIntegerAttr(
      builder.getIntegerType(64, /*isSigned=*/false), decoded.header.fingerprint);
  auto vocabulary = VocabularyOp::create(
      builder, loc, builder.getStringAttr("vocab"), fingerprint);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&vocabulary.getBody().emplaceBlock());
  for (const trace::VocabularyEntry &entry : decoded.entries)
    EntryOp::create(
        builder, loc, builder.getI64IntegerAttr(entry.id),
        EntryKindAttr::get(context, parseKind(entry.kind)),
        FlatSymbolRefAttr::get(context, entry.symbol),
        entry.index ? builder.getI64IntegerAttr(*entry.index) : IntegerAttr(),
        entry.callee.empty() ? FlatSymbolRefAttr()
                             : FlatSymbolRefAttr::get(context, entry.callee),
        entry.members.empty() ? DenseI64ArrayAttr()
                              : builder.getDenseI64ArrayAttr(entry.members));
  return vocabulary;
}

void mlir::phaedrus::foldEvent(trace::RepeatFolder &folder, uint32_t token,
                               uint64_t length) {
  if (length == 1 && !(token & PHAEDRUS_PATH_MARK))
    folder.push(token);
  else
    folder.pushRun(token, length);
}

/// A decoded event token as a vocabulary id.
static uint32_t entryIdOf(size_t staticEntries, uint32_t token) {
  return token & PHAEDRUS_PATH_MARK
             ? static_cast<uint32_t>(staticEntries) + (token & ~PHAEDRUS_PATH_MARK)
             : token;
}

uint32_t WppShell::entryId(uint32_t token) const {
  return entryIdOf(staticEntries, token);
}

FailureOr<WppShell> mlir::phaedrus::readWpp(
    StringRef bytes, MLIRContext *context, Location loc,
    const ImportWppOptions &options, WppEventCallback onEvent,
    llvm::function_ref<void(const trace::Header &)> onHeader,
    WppSpanCallback onSpan) {
  context->loadDialect<PhaedrusDialect>();
  std::optional<DecodedWpp> decoded =
      decodeWpp(bytes, loc, options, onEvent, onHeader, onSpan);
  if (!decoded)
    return failure();

  WppShell shell;
  shell.staticEntries = decoded->staticEntries;
  shell.events = decoded->events;
  shell.module = ModuleOp::create(loc);
  OpBuilder builder = OpBuilder::atBlockEnd(shell.module->getBody());
  shell.vocabulary = buildVocabulary(builder, loc, *decoded);

  SmallVector<Attribute> argv, files;
  for (const std::string &arg : decoded->header.argv)
    argv.push_back(builder.getStringAttr(arg));
  for (const trace::InputFile &file : decoded->header.files)
    files.push_back(InputFileAttr::get(context, file.path, file.size, file.digest));
  auto input = InputDescriptorAttr::get(
      context, builder.getArrayAttr(argv),
      files.empty() ? ArrayAttr() : builder.getArrayAttr(files), StringAttr(),
      DictionaryAttr());

  for (uint32_t thread : decoded->threads) {
    std::string name = threadTraceName(options, thread);
    auto traceOp = TraceOp::create(builder, loc, builder.getStringAttr(name),
                                   FlatSymbolRefAttr::get(shell.vocabulary),
                                   shell.vocabulary.getFingerprintAttr(), input,
                                   FlatSymbolRefAttr());
    traceOp.getBody().emplaceBlock();
    shell.traces.push_back({thread, traceOp});
  }
  return shell;
}

void mlir::phaedrus::rereadWpp(StringRef bytes, Location loc,
                               const ImportWppOptions &options,
                               WppEventCallback onEvent,
                               WppSpanCallback onSpan) {
  // The file read without error before; its diagnostics were given then.
  ScopedDiagnosticHandler quiet(loc->getContext(),
                                [](Diagnostic &) { return success(); });
  (void)decodeWpp(bytes, loc, options, onEvent, nullptr, onSpan,
                  /*reread=*/true);
}

OwningOpRef<ModuleOp> mlir::phaedrus::importWpp(StringRef bytes,
                                                MLIRContext *context,
                                                Location loc,
                                                const ImportWppOptions &options) {
  std::map<uint32_t, trace::RepeatFolder> folders;
  auto folderOf = [&](uint32_t thread) -> trace::RepeatFolder & {
    return folders
        .try_emplace(thread, options.maxPeriod, options.longPeriod)
        .first->second;
  };
  FailureOr<WppShell> shell = readWpp(
      bytes, context, loc, options,
      [&](uint32_t thread, uint32_t token, uint64_t length) {
        foldEvent(folderOf(thread), token, length);
      },
      nullptr,
      [&](uint32_t thread, const uint32_t *tokens, size_t count) {
        folderOf(thread).push(tokens, count);
      });
  if (failed(shell))
    return {};
  // The largest token outside the path range, seen as the folded items
  // are written (not per event), checked against the vocabulary as the
  // counting readers check it (the verifier's error spoke of a tokens op
  // and a position in it).
  std::optional<uint32_t> largest;
  for (auto [thread, traceOp] : shell->traces) {
    trace::RepeatFolder &folder = folderOf(thread);
    folder.finish();
    OpBuilder body = OpBuilder::atBlockEnd(&traceOp.getBody().front());
    emitFoldedItems(body, loc, folder, traceOp.getSymName(), options.inlineLimit,
                    [&](uint32_t token) {
                      if (!(token & PHAEDRUS_PATH_MARK) &&
                          (!largest || token > *largest))
                        largest = token;
                      return shell->entryId(token);
                    },
                    options.minRepeatTokens);
  }
  if (largest && *largest >= shell->staticEntries) {
    (void)emitTokenOutsideVocabulary(loc, *largest, shell->staticEntries);
    return {};
  }
  if (failed(verify(*shell->module)))
    return {};
  return std::move(shell->module);
}

LogicalResult mlir::phaedrus::emitTokenOutsideVocabulary(Location loc,
                                                         uint64_t token,
                                                         uint64_t entries) {
  return emitError(loc) << "corrupt trace: it records token " << token
                        << ", outside its vocabulary of " << entries
                        << " entries";
}

FailureOr<WppCounts> mlir::phaedrus::countWpp(StringRef bytes,
                                              MLIRContext *context,
                                              Location loc,
                                              const ImportWppOptions &options) {
  context->loadDialect<PhaedrusDialect>();
  // Per thread: counts of static tokens and of path runs (by order of
  // appearance), and the order in which tokens first occur (as decoded).
  struct Tally {
    std::vector<uint64_t> tokens, paths;
    std::vector<uint32_t> order;
  };
  std::map<uint32_t, Tally> tallies;
  bool overflow = false;
  // A corrupt word must not make the tally allocate without bound; the
  // vocabulary is only known once the whole file is read.
  std::optional<uint32_t> outOfRange;
  std::optional<DecodedWpp> decoded = decodeWpp(
      bytes, loc, options, [&](uint32_t thread, uint32_t token, uint64_t length) {
        if (length == 0) // as RepeatFolder::pushRun: nothing ran
          return;
        Tally &tally = tallies[thread];
        bool path = token & PHAEDRUS_PATH_MARK;
        std::vector<uint64_t> &counts = path ? tally.paths : tally.tokens;
        uint32_t index = token & ~PHAEDRUS_PATH_MARK;
        // Path indices are dense (one per distinct path the file names).
        if (!path && index >= kMaxTraceToken) {
          outOfRange = index;
          return;
        }
        if (index >= counts.size())
          counts.resize(std::max<size_t>(index + 1, counts.size() * 2), 0);
        if (!counts[index])
          tally.order.push_back(token);
        overflow |= __builtin_add_overflow(counts[index], length, &counts[index]);
      });
  if (!decoded)
    return failure();
  if (overflow) {
    emitError(loc) << "a token of the trace occurs more than 2^64 - 1 times";
    return failure();
  }
  size_t numEntries = decoded->entries.size();
  size_t staticEntries = decoded->staticEntries;
  auto tokenOutOfRange = [&](uint64_t token) {
    return emitTokenOutsideVocabulary(loc, token, staticEntries);
  };
  if (outOfRange)
    return tokenOutOfRange(*outOfRange);
  WppCounts result;
  result.module = ModuleOp::create(loc);
  OpBuilder builder = OpBuilder::atBlockEnd(result.module->getBody());
  result.vocabulary = buildVocabulary(builder, loc, *decoded);
  // The checks importWpp's verification makes of the vocabulary (dense
  // ids, the fields each kind needs): counting reads those fields.
  if (failed(verify(result.vocabulary)))
    return failure();
  result.argv = decoded->header.argv;
  result.granularity =
      decoded->header.functionGranularity() ? "function" : "path";
  for (uint32_t thread : decoded->threads) {
    Tally &tally = tallies[thread];
    WppThreadCounts counts;
    counts.name = threadTraceName(options, thread);
    counts.tokenCounts.assign(numEntries, 0);
    for (size_t i = 0; i < tally.tokens.size(); ++i) {
      if (tally.tokens[i] && i >= staticEntries)
        return tokenOutOfRange(i);
      if (i < staticEntries)
        counts.tokenCounts[i] = tally.tokens[i];
    }
    // The tallies grow by doubling: only paths that ran have entries.
    for (size_t k = 0; k < tally.paths.size(); ++k)
      if (tally.paths[k])
        counts.tokenCounts[staticEntries + k] = tally.paths[k];
    for (uint32_t token : tally.order)
      counts.firstOccurrence.push_back(
          static_cast<int32_t>(entryIdOf(staticEntries, token)));
    result.threads.push_back(std::move(counts));
  }
  return result;
}
