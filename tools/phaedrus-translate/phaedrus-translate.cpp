//===- phaedrus-translate.cpp - Phaedrus import/export translations -------===//
//
// Translations between phaedrus IR and the formats around it. Each
// translation registers the dialects it reads.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Target/LLVMIR/PhaedrusToLLVMIRTranslation.h"
#include "phaedrus/Target/Wpp/ImportWpp.h"
#include "phaedrus/Target/Wpp/PackedTrace.h"
#include "SampleProfile.h"
#include "ToolSupport.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include <chrono>
#include <map>
#include <optional>
#include "llvm/Support/JSON.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::phaedrus;

/// --mlir-print-op-on-diagnostic given (translateMain).
static bool opsOnDiagnostics = false;

static void registerProgramDialects(DialectRegistry &registry) {
  registry.insert<PhaedrusDialect, LLVM::LLVMDialect, func::FuncDialect,
                  cf::ControlFlowDialect, arith::ArithDialect, DLTIDialect>();
  // A diagnostic does not print the op it is about, unless asked, as in
  // phaedrus-opt (ToolSupport.h, withQuietDiagnostics). mlir-translate's
  // main sets its context to print them whatever the option says; this
  // runs when the module's reading loads the dialect, after that. (A
  // verifier error in a trace nested 8,000 deep printed the whole trace
  // from a verifier thread, overran its stack and crashed.)
  registry.addExtension(+[](MLIRContext *context, PhaedrusDialect *) {
    if (!opsOnDiagnostics)
      context->printOpOnDiagnostic(false);
  });
  noteReportedErrors(registry);
}

/// Exports the profile attributes of a module as JSON: one object per
/// function that has an entry count, and the number of annotated branches.
static LogicalResult exportProfileJson(Operation *op, raw_ostream &os) {
  llvm::json::Array functions;
  int64_t branches = 0;
  op->walk([&](Operation *nested) {
    if (auto count = nested->getAttrOfType<EntryCountAttr>(
            PhaedrusDialect::getEntryCountAttrName())) {
      functions.push_back(llvm::json::Object{
          {"name",
           cast<FunctionOpInterface>(nested).getNameAttr().getValue()},
          {"entry_count", count.getCount()},
          {"provenance", stringifyProvenance(count.getProvenance())},
          {"confidence", count.getConfidenceValue()}});
    }
    if (nested->hasAttr(PhaedrusDialect::getBranchWeightsAttrName()))
      ++branches;
  });
  // (Valid JSON all the same: a profile of no functions.)
  if (functions.empty())
    mlir::emitWarning(wholeModuleLoc(op))
        << "phaedrus-translate: no function has a phaedrus.entry_count, so "
           "the profile is empty: "
        << kNoProfileAdvice;
  llvm::json::Object root{{"format", "phaedrus-profile"},
                          {"version", 1},
                          {"functions", std::move(functions)},
                          {"annotated_branches", branches}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return success();
}

/// Warns that the export `what` of a module without a phaedrus.trace holds
/// no trace (a program module given where its imported trace belongs): the
/// output is valid all the same.
static void warnIfNoTrace(Operation *op, StringRef what) {
  if (op->walk([](TraceOp) { return WalkResult::interrupt(); })
          .wasInterrupted())
    return;
  mlir::emitWarning(wholeModuleLoc(op))
      << "phaedrus-translate: the module holds no phaedrus.trace, so " << what
      << " is empty: import a recorded trace first (--import-wpp run.wpp), "
         "or read the trace file itself (--wpp-trace-counts, --pack-wpp)";
}

/// A vocabulary as JSON: its fingerprint and entries (see docs/Corpus.md).
static llvm::json::Object vocabularyJson(VocabularyOp vocabulary) {
  llvm::json::Array entries;
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
    llvm::json::Object object{{"id", entry.getId()},
                              {"kind", stringifyEntryKind(entry.getKind())},
                              {"symbol", entry.getSymbol()}};
    if (entry.getIndex())
      object["index"] = static_cast<int64_t>(*entry.getIndex());
    if (entry.getCallee())
      object["callee"] = *entry.getCallee();
    if (entry.getMembers())
      object["members"] = llvm::json::Array(*entry.getMembers());
    entries.push_back(std::move(object));
  }
  return llvm::json::Object{
      {"name", vocabulary.getSymName()},
      {"fingerprint", std::to_string(vocabulary.getFingerprint())},
      {"entries", std::move(entries)}};
}

/// The counts of one trace as --export-trace-counts writes them: its
/// length, the entry count of every function its vocabulary names, its
/// Ball-Larus path counts, and the count of every token it holds in the
/// order of first occurrence. Fails with a diagnostic on `diagnosticOp`.
static FailureOr<llvm::json::Object>
traceCountsJson(StringRef name, VocabularyOp vocabulary,
                ArrayRef<uint64_t> tokenCounts, ArrayRef<int32_t> order,
                llvm::json::Array argv, Operation *diagnosticOp) {
  llvm::StringMap<uint64_t> entries;
  if (failed(addEntryCounts(vocabulary, tokenCounts, entries, diagnosticOp)))
    return failure();
  llvm::json::Object counts;
  for (auto &entry : entries)
    counts[entry.getKey().str()] = entry.getValue();
  // Ball-Larus path counts (path granularity): function -> path id -> n.
  std::map<std::string, std::map<uint64_t, uint64_t>> paths;
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>())
    if (entry.getKind() == EntryKind::Path && tokenCounts[entry.getId()])
      paths[entry.getSymbol().str()][*entry.getIndex()] +=
          tokenCounts[entry.getId()];
  llvm::json::Object pathCounts;
  for (auto &[function, byPath] : paths) {
    llvm::json::Object perPath;
    for (auto [path, count] : byPath)
      perPath[std::to_string(path)] = count;
    pathCounts[function] = std::move(perPath);
  }
  llvm::json::Array tokens;
  for (int32_t id : order)
    tokens.push_back(
        llvm::json::Array{id, tokenCounts[id]});
  return llvm::json::Object{
      {"name", name},
      {"vocabulary", vocabulary.getSymName()},
      {"events",
       recordedLength(vocabulary, tokenCounts)},
      {"argv", std::move(argv)},
      {"entry_counts", std::move(counts)},
      {"path_counts", std::move(pathCounts)},
      {"tokens", std::move(tokens)}};
}

static void writeTraceCounts(llvm::json::Array vocabularies,
                             llvm::json::Array traces, raw_ostream &os) {
  llvm::json::Object root{{"format", "phaedrus-trace-counts"},
                          {"version", 2},
                          {"vocabularies", std::move(vocabularies)},
                          {"traces", std::move(traces)}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
}

/// Exports the counts of every trace of a module (traceCountsJson) and each
/// vocabulary the traces use.
static LogicalResult exportTraceCounts(Operation *op, raw_ostream &os) {
  SymbolTableCollection symbolTable;
  TraceWalker walker(symbolTable);
  llvm::json::Array traces;
  llvm::json::Array vocabularies;
  llvm::DenseSet<Operation *> vocabulariesSeen;
  bool failedAny = false;
  op->walk([&](TraceOp trace) {
    auto vocabulary = symbolTable.lookupNearestSymbolFrom<VocabularyOp>(
        trace, trace.getVocabularyAttr());
    if (!vocabulary) {
      failedAny = true;
      return;
    }
    FailureOr<SmallVector<uint64_t>> tokenCounts =
        walker.countTokens(trace, vocabulary.getNumEntries());
    FailureOr<SmallVector<int32_t>> order =
        succeeded(tokenCounts)
            ? walker.firstOccurrences(trace, vocabulary.getNumEntries())
            : FailureOr<SmallVector<int32_t>>(failure());
    if (failed(order)) {
      failedAny = true;
      return;
    }
    llvm::json::Array argv;
    for (Attribute arg : trace.getInput().getArgv())
      argv.push_back(cast<StringAttr>(arg).getValue());
    FailureOr<llvm::json::Object> counts =
        traceCountsJson(trace.getSymName(), vocabulary, *tokenCounts, *order,
                        std::move(argv), trace);
    if (failed(counts)) {
      failedAny = true;
      return;
    }
    if (vocabulariesSeen.insert(vocabulary).second)
      vocabularies.push_back(vocabularyJson(vocabulary));
    traces.push_back(std::move(*counts));
  });
  if (failedAny)
    return failure();
  warnIfNoTrace(op, "the list of traces");
  writeTraceCounts(std::move(vocabularies), std::move(traces), os);
  return success();
}

/// Writes the recorded token sequence of every trace (compression undone,
/// call groups too), in order, as little-endian 32-bit words: the raw
/// stream that general-purpose compressors are compared against.
static LogicalResult exportTokens(Operation *op, raw_ostream &os) {
  SymbolTableCollection symbolTable;
  TraceWalker walker(symbolTable);
  // Measured first (in the time of the IR's size): a trace of a few ops may
  // stand for 2^64 tokens, and one was written until the disk was full.
  constexpr uint64_t kMaxTokens = uint64_t(1) << 40; // 4 TiB of words
  uint64_t total = 0;
  WalkResult measured = op->walk([&](TraceOp trace) {
    FailureOr<uint64_t> length = walker.getRecordedLength(trace);
    if (failed(length))
      return WalkResult::interrupt();
    if (*length > kMaxTokens - total) {
      trace.emitError() << "phaedrus-translate: the traces expand to more "
                           "than 2^40 tokens (4 TiB as 32-bit words), more "
                           "than --export-tokens writes: a trace of a few ops "
                           "may stand for that many; --export-trace-counts "
                           "counts them without writing them out";
      return WalkResult::interrupt();
    }
    total += *length;
    return WalkResult::advance();
  });
  if (measured.wasInterrupted())
    return failure();
  bool failedAny = false;
  op->walk([&](TraceOp trace) {
    if (failed(walker.expandRecorded(trace, [&](ArrayRef<int32_t> piece) {
          os.write(reinterpret_cast<const char *>(piece.data()),
                   piece.size() * sizeof(int32_t));
        })))
      failedAny = true;
  });
  if (!failedAny)
    warnIfNoTrace(op, "the token stream");
  return failure(failedAny);
}

/// The options of phaedrus-translate that are not of one translation.
static llvm::cl::OptionCategory translateCategory("phaedrus-translate options");
static llvm::cl::OptionCategory sampleCategory("--export-sample-profile options");
static llvm::cl::opt<bool> sampleDiscriminators(
    "sample-discriminators",
    llvm::cl::desc("Tell apart the blocks of one line by discriminators, as "
                   "a build with -fdebug-info-for-profiling numbers them "
                   "(default); =false gives each line the count of its "
                   "hottest block, for builds without that flag"),
    llvm::cl::init(true), llvm::cl::cat(sampleCategory));

// (--help shows no defaults: each description says its own.)
static llvm::cl::OptionCategory
    wppCategory("--import-wpp, --pack-wpp and --wpp-trace-counts options");
static llvm::cl::opt<std::string>
    wppName("wpp-name",
            llvm::cl::desc("Symbol name of the imported trace (default run; "
                           "a process's thread k is NAME_tk)"),
            llvm::cl::init("run"), llvm::cl::cat(wppCategory));
static llvm::cl::opt<uint64_t> wppFingerprint(
    "wpp-fingerprint",
    llvm::cl::desc("Refuse a trace whose module fingerprint is not this one "
                   "(default 0: any)"),
    llvm::cl::init(0), llvm::cl::cat(wppCategory));
static llvm::cl::opt<bool> wppKeepPrefix(
    "wpp-keep-prefix",
    llvm::cl::desc("Import the intact prefix of a corrupt trace"),
    llvm::cl::init(false), llvm::cl::cat(wppCategory));
static llvm::cl::opt<uint64_t> wppMinRepeatTokens(
    "wpp-min-repeat-tokens",
    llvm::cl::desc("Write a repeat that stands for fewer tokens than this as "
                   "its tokens on import (fewer ops, the same trace; 33 is "
                   "what --export-packed keeps as tokens; default 0)"),
    llvm::cl::init(0), llvm::cl::cat(wppCategory));
static llvm::cl::opt<unsigned> wppMaxPeriod(
    "wpp-max-period",
    llvm::cl::desc("Longest block of items folded into a repeat on import "
                   "wherever it repeats (default 8)"),
    llvm::cl::init(8), llvm::cl::cat(wppCategory));
static_assert(trace::RepeatFolder::kDefaultLongPeriod == 2048,
              "--wpp-long-period's description gives its default");
static llvm::cl::opt<unsigned> wppLongPeriod(
    "wpp-long-period",
    llvm::cl::desc("Longest block of items folded into a repeat on import "
                   "where a hash of its last items finds it, when it has "
                   "at least 32 items and occurs three times in a row (an "
                   "interpreter's loop; at most 2730; 0: none; default "
                   "2048)"),
    llvm::cl::init(trace::RepeatFolder::kDefaultLongPeriod),
    llvm::cl::cat(wppCategory));

/// The bytes of a translation's input file, and a location naming it.
static std::pair<StringRef, Location> mainInput(const llvm::SourceMgr &sourceMgr,
                                                MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  return {buffer->getBuffer(),
          FileLineColLoc::get(context, buffer->getBufferIdentifier(), 0, 0)};
}

static llvm::cl::opt<llvm::cl::boolOrDefault> wppProgress(
    "wpp-progress",
    llvm::cl::desc("Report on stderr, at most once a second, how many "
                   "events of the trace file have been read (and how many "
                   "symbols --pack-wpp has coded), then each read's and the "
                   "coding's totals (=true|false; by default only when "
                   "stderr is a terminal and the work takes over a second)"),
    llvm::cl::cat(wppCategory));

/// The progress callback --wpp-progress asks for (none if it is off).
static std::function<void(const WppProgress &)> progressPrinter() {
  bool forced = wppProgress == llvm::cl::BOU_TRUE;
  if (wppProgress == llvm::cl::BOU_FALSE ||
      (!forced && !llvm::sys::Process::StandardErrIsDisplayed()))
    return nullptr;
  using Clock = std::chrono::steady_clock;
  struct State {
    Clock::time_point last = Clock::now();
    bool printed = false; // a line before the end: the work is long
    unsigned reads = 0;   // of the file, finished
  };
  auto state = std::make_shared<State>();
  return [state, forced](const WppProgress &progress) {
    Clock::time_point now = Clock::now();
    if (progress.finished ? !forced && !state->printed
                          : now - state->last < std::chrono::seconds(1))
      return;
    state->last = now;
    state->printed = true;
    bool read = progress.stage == WppProgress::Read;
    llvm::raw_ostream &os = llvm::errs();
    os << "phaedrus-translate: ";
    if (read)
      os << (progress.finished ? "read" : "reading") << " the trace (pass "
         << state->reads + 1 << "): ";
    else
      os << (progress.finished ? "coded " : "coding: ");
    os << progress.done;
    if (!progress.finished && progress.total)
      os << " of " << progress.total;
    os << (read ? " events" : " symbols");
    if (!progress.finished && progress.total)
      os << " (" << std::min<uint64_t>(100, progress.done * 100 / progress.total)
         << "%)";
    os << "\n";
    state->reads += read && progress.finished;
  };
}

static ImportWppOptions importWppOptions() {
  ImportWppOptions options;
  options.progress = progressPrinter();
  options.traceName = wppName;
  if (wppFingerprint.getNumOccurrences())
    options.expectedFingerprint = wppFingerprint;
  options.keepCorruptPrefix = wppKeepPrefix;
  options.maxPeriod = std::max(1u, wppMaxPeriod.getValue());
  options.longPeriod = wppLongPeriod;
  options.minRepeatTokens = wppMinRepeatTokens;
  return options;
}

static OwningOpRef<Operation *>
importWppTranslation(const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                     MLIRContext *context) {
  auto [bytes, loc] = mainInput(*sourceMgr, context);
  return importWpp(bytes, context, loc, importWppOptions());
}

/// --wpp-trace-counts: a trace file straight to the JSON of
/// --export-trace-counts, in one pass and without the trace as IR.
static LogicalResult
wppTraceCountsTranslation(const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                          raw_ostream &os, MLIRContext *context) {
  auto [bytes, loc] = mainInput(*sourceMgr, context);
  FailureOr<WppCounts> counts =
      countWpp(bytes, context, loc, importWppOptions());
  if (failed(counts))
    return failure();
  llvm::json::Array traces;
  for (const WppThreadCounts &thread : counts->threads) {
    llvm::json::Array argv;
    for (const std::string &arg : counts->argv)
      argv.push_back(arg);
    FailureOr<llvm::json::Object> json = traceCountsJson(
        thread.name, counts->vocabulary, thread.tokenCounts,
        thread.firstOccurrence, std::move(argv), counts->vocabulary);
    if (failed(json))
      return failure();
    // (The file's header says; imported IR does not keep it.)
    (*json)["granularity"] = counts->granularity;
    traces.push_back(std::move(*json));
  }
  llvm::json::Array vocabularies{vocabularyJson(counts->vocabulary)};
  writeTraceCounts(std::move(vocabularies), std::move(traces), os);
  return success();
}

static llvm::cl::opt<bool> packedSizes(
    "packed-sizes",
    llvm::cl::desc("--export-packed, --pack-wpp: print to stderr how many "
                   "bytes the vocabularies, grammars and traces take, how "
                   "many body symbols were coded, predicted and coded in "
                   "runs, the body model's table size (log2, at the end / "
                   "the most it may grow to), and whether --pack-wpp folded "
                   "a trace again"),
    llvm::cl::init(false),
    llvm::cl::cat(translateCategory));

static void printPackedSizes(const PackedSizes &sizes) {
  if (!packedSizes)
    return;
  llvm::errs() << "packed-sizes: total=" << sizes.total
               << " vocabularies=" << sizes.vocabularies
               << " grammars=" << sizes.grammars << " traces=" << sizes.traces
               << "\n";
  llvm::errs() << "packed-sizes: body-symbols=" << sizes.bodySymbols
               << " predicted=" << sizes.predictedSymbols
               << " in-runs=" << sizes.runSymbols
               << " run-sure-hits=" << sizes.runSureHits
               << " table-bits=" << sizes.tableBits << "/"
               << sizes.maxTableBits << "\n";
  if (sizes.keptCompactly)
    llvm::errs() << "packed-sizes: folded items kept compactly (more than "
                 << (kPackCompactAbove >> 20)
                 << " MiB of them, or half of --pack-keep-mib)\n";
  if (sizes.foldedAgain)
    llvm::errs() << "packed-sizes: " << sizes.foldedAgain
                 << " trace(s) folded again while coded (more folded items than "
                    "--pack-keep-mib holds)\n";
}

static LogicalResult exportPackedTranslation(Operation *op, raw_ostream &os) {
  PackedSizes sizes;
  if (failed(exportPacked(op, os, &sizes)))
    return failure();
  warnIfNoTrace(op, "the packed file's list of traces");
  printPackedSizes(sizes);
  return success();
}

static llvm::cl::opt<uint64_t> packKeepMiB(
    "pack-keep-mib",
    llvm::cl::desc("--pack-wpp: keep the folded items in at most this many "
                   "MiB of memory (compactly: 2-3 bytes an item on Lua's and "
                   "bzip2's traces); a longer trace is folded again while it "
                   "is coded, one more read of the file, the same output"),
    llvm::cl::init(kPackKeepMiB),
    llvm::cl::cat(translateCategory));

/// --pack-wpp: a trace file straight to a packed trace file, without the
/// trace as IR.
static LogicalResult
packWppTranslation(const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                   raw_ostream &os, MLIRContext *context) {
  auto [bytes, loc] = mainInput(*sourceMgr, context);
  PackedSizes sizes;
  uint64_t keepBytes = std::min<uint64_t>(packKeepMiB, UINT64_MAX >> 20) << 20;
  if (failed(packWpp(bytes, context, loc, importWppOptions(), os, &sizes,
                     keepBytes)))
    return failure();
  printPackedSizes(sizes);
  return success();
}

static llvm::cl::opt<uint64_t> packedMaxSymbols(
    "packed-max-symbols",
    llvm::cl::desc("--import-packed: refuse a file whose traces and rules "
                   "decode to more symbols than this (tokens, rule uses and "
                   "repeats, as folded; 4 bytes each in memory). A few corrupt "
                   "bytes can decode to billions; Lua's objects.lua, 85M "
                   "events at path granularity, is 84M"),
    llvm::cl::init(kPackedMaxSymbols),
    llvm::cl::cat(translateCategory));

static OwningOpRef<Operation *>
importPackedTranslation(const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
                        MLIRContext *context) {
  auto [bytes, loc] = mainInput(*sourceMgr, context);
  return importPacked(bytes, context, loc, /*inlineLimit=*/1024,
                      packedMaxSymbols);
}

static llvm::cl::opt<bool> emitBytecode(
    "emit-bytecode",
    llvm::cl::desc("Write the IR of --import-wpp and --import-packed as MLIR "
                   "bytecode, which phaedrus-opt reads back several times "
                   "faster than text (a Lua trace of 20M events: 3.8 MB "
                   "against 88 MB)"),
    llvm::cl::init(false),
    llvm::cl::cat(translateCategory));

/// What mlir-translate does with the module a translation to MLIR made
/// (verify it, print it), with bytecode as the other way to write it.
static LogicalResult writeImported(OwningOpRef<Operation *> op,
                                   raw_ostream &os) {
  if (!op || failed(verify(*op)))
    return failure();
  if (emitBytecode)
    return writeBytecodeToFile(*op, os);
  op.get()->print(os);
  return success();
}

/// Whether the command line names one of `translations` (or asks for help
/// or the version, or reads a response file, which LLVM expands later).
/// mlir-translate's own message for a command line without one is LLVM's
/// "must be specified at least once!", printed once per registered
/// translation (LLVM checks a required option once per name it goes by).
static bool namesTranslation(int argc, char **argv,
                             llvm::ArrayRef<StringRef> translations) {
  for (int i = 1; i < argc; ++i) {
    StringRef arg = argv[i];
    if (arg == "--")
      break;
    if (arg.starts_with("@"))
      return true;
    if (!arg.consume_front("-"))
      continue;
    arg.consume_front("-");
    arg = arg.split('=').first;
    if (llvm::is_contained(translations, arg) || arg.starts_with("help") ||
        arg == "version" || arg == "h")
      return true;
  }
  return false;
}

static int translateMain(int argc, char **argv) {
  mlir::phaedrus::addPhaedrusVersionPrinter();
  mlir::phaedrus::installOutOfMemoryHandler();
  mlir::phaedrus::hideLibraryOptions(
      {&translateCategory, &wppCategory, &sampleCategory});
  // The names of the translations, as registered below.
  std::vector<StringRef> translations;
  auto name = [&](StringRef translation) {
    translations.push_back(translation);
    return translation;
  };
  TranslateRegistration importWppRegistration(
      name("import-wpp"),
      "Import a trace file written by libphaedrus_rt as phaedrus IR",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &os,
         MLIRContext *context) {
        return writeImported(importWppTranslation(sourceMgr, context), os);
      });
  TranslateRegistration importPackedRegistration(
      name("import-packed"),
      "Read a packed trace file (docs/PackedTrace.md) as phaedrus IR",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &os,
         MLIRContext *context) {
        return writeImported(importPackedTranslation(sourceMgr, context), os);
      });
  TranslateFromMLIRRegistration exportPackedRegistration(
      name("export-packed"),
      "Write the vocabularies, grammars and traces of a module as a packed "
      "trace file (compressed structure, entropy coded; docs/PackedTrace.md)",
      exportPackedTranslation, registerProgramDialects);
  TranslateRegistration packWppRegistration(
      name("pack-wpp"),
      "Pack a trace file written by libphaedrus_rt without importing it as "
      "IR: the packed trace file that --import-wpp, --phaedrus-call-groups "
      "(function granularity) and --export-packed make, byte for byte, in one "
      "command (the --import-wpp options apply; memory: --pack-keep-mib)",
      packWppTranslation);
  TranslateFromMLIRRegistration exportTokensRegistration(
      name("export-tokens"),
      "Write every trace's expanded tokens as little-endian 32-bit words",
      exportTokens, registerProgramDialects);
  TranslateRegistration wppTraceCountsRegistration(
      name("wpp-trace-counts"),
      "Count a trace file written by libphaedrus_rt and write the JSON of "
      "--export-trace-counts, in one pass without importing it as IR "
      "(the --import-wpp options apply)",
      wppTraceCountsTranslation);
  TranslateFromMLIRRegistration exportCounts(
      name("export-trace-counts"),
      "Write each trace's length and function entry counts as JSON",
      exportTraceCounts, registerProgramDialects);
  TranslateFromMLIRRegistration exportSampleProfileRegistration(
      name("export-sample-profile"),
      "Write the phaedrus profile attributes as an LLVM text sample profile "
      "(clang -fprofile-sample-use)",
      [](Operation *op, raw_ostream &os) {
        return exportSampleProfile(op, os, sampleDiscriminators);
      },
      registerProgramDialects);
  TranslateFromMLIRRegistration exportProfile(
      name("export-profile-json"),
      "Write the phaedrus profile attributes of a module as JSON",
      exportProfileJson, registerProgramDialects);
  name(registerMLIRToLLVMIRTranslation());
  if (!namesTranslation(argc, argv, translations)) {
    llvm::errs() << "phaedrus-translate: no translation given; name one: --"
                 << llvm::join(translations, ", --")
                 << " (--help says what each does)\n";
    return 1;
  }
  opsOnDiagnostics = asksForOpsOnDiagnostics(argc, argv);
  // (The input: the one word that names a file, as mlir-translate takes it.)
  StringRef input;
  for (int i = 1; i < argc; ++i)
    if (argv[i][0] != '-' && llvm::sys::fs::is_regular_file(argv[i]) &&
        (i == 1 || StringRef(argv[i - 1]) != "-o"))
      input = argv[i];
  return sayIfSilent(failed(mlirTranslateMain(
      argc, argv,
      "Phaedrus translations\n\n"
      "Translations given together run in the order given, each reading what\n"
      "the one before wrote (--import-wpp --export-packed run.wpp packs a\n"
      "path trace as --pack-wpp does; a function trace without its call\n"
      "groups): a translation that writes JSON, tokens or LLVM IR ends such\n"
      "a chain.\n")), "phaedrus-translate", input);
}

int main(int argc, char **argv) {
  return mlir::phaedrus::runWithLargeStack(
      [&] { return translateMain(argc, argv); });
}
