//===- ImportWppTest.cpp - Importing path events and bad vocabularies ----===//
//
// The parts of --import-wpp that real programs exercise only on the happy
// path: path runs becoming vocabulary entries and repeats, and the
// diagnostics for path events and vocabularies that do not make sense.
//
//===----------------------------------------------------------------------===//

#include "TraceBuilder.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Target/Wpp/ImportWpp.h"
#include "phaedrus/Target/Wpp/PackedTrace.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

#include <random>

#include <tuple>

using namespace mlir;
using namespace mlir::phaedrus;
using mlir::phaedrus::testing::TraceBuilder;

namespace {

class ImportWppTest : public ::testing::Test {
protected:
  ImportWppTest()
      : handler(&context, [this](Diagnostic &d) {
          messages.push_back(d.str());
          return success();
        }) {}

  OwningOpRef<ModuleOp> import(const TraceBuilder &b) {
    return importWpp(b.bytes, &context, UnknownLoc::get(&context),
                     ImportWppOptions());
  }

  FailureOr<WppCounts> count(const TraceBuilder &b) {
    return countWpp(b.bytes, &context, UnknownLoc::get(&context),
                    ImportWppOptions());
  }

  /// Import and counting both refuse `b`, each saying `text`.
  void expectBothRefuse(const TraceBuilder &b, const std::string &text) {
    messages.clear();
    EXPECT_FALSE(import(b));
    EXPECT_TRUE(said(text)) << (messages.empty() ? "" : messages.front());
    messages.clear();
    EXPECT_TRUE(failed(count(b)));
    EXPECT_TRUE(said(text)) << (messages.empty() ? "" : messages.front());
  }

  /// As expectBothRefuse, and --pack-wpp refuses it with the same words.
  void expectAllThreeRefuse(const TraceBuilder &b, const std::string &text) {
    expectBothRefuse(b, text);
    messages.clear();
    EXPECT_FALSE(pack(b));
    EXPECT_TRUE(said(text)) << (messages.empty() ? "" : messages.front());
  }

  /// --pack-wpp of `b`; nullopt (and diagnostics) if it refuses.
  std::optional<std::string> pack(const TraceBuilder &b,
                                  uint64_t keepBytes = kPackKeepMiB << 20,
                                  PackedSizes *sizes = nullptr,
                                  uint64_t compactAbove = kPackCompactAbove) {
    std::string bytes;
    llvm::raw_string_ostream os(bytes);
    if (failed(packWpp(b.bytes, &context, UnknownLoc::get(&context),
                       ImportWppOptions(), os, sizes, keepBytes,
                       compactAbove)))
      return std::nullopt;
    return bytes;
  }

  /// --export-packed of what --import-wpp makes of `b`.
  std::string packImported(const TraceBuilder &b) {
    OwningOpRef<ModuleOp> module = import(b);
    std::string bytes;
    llvm::raw_string_ostream os(bytes);
    EXPECT_TRUE(module && succeeded(exportPacked(*module, os)));
    return bytes;
  }

  /// Each trace's name and recorded tokens (call groups expanded).
  static std::vector<std::pair<std::string, std::vector<int32_t>>>
  recorded(ModuleOp module) {
    SymbolTableCollection symbols;
    TraceWalker walker(symbols);
    std::vector<std::pair<std::string, std::vector<int32_t>>> traces;
    for (TraceOp trace : module.getOps<TraceOp>()) {
      std::vector<int32_t> tokens;
      EXPECT_TRUE(succeeded(walker.expandRecorded(
          trace, [&](ArrayRef<int32_t> piece) {
            tokens.insert(tokens.end(), piece.begin(), piece.end());
          })));
      traces.push_back({trace.getSymName().str(), tokens});
    }
    return traces;
  }

  bool said(const std::string &text) const {
    for (const std::string &m : messages)
      if (m.find(text) != std::string::npos)
        return true;
    return false;
  }

  /// (function, path id) of each `path` entry, in id order.
  static std::vector<std::pair<std::string, int64_t>>
  pathEntries(VocabularyOp vocabulary) {
    std::vector<std::pair<std::string, int64_t>> paths;
    for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>())
      if (entry.getKind() == EntryKind::Path)
        paths.push_back({entry.getSymbol().str(), *entry.getIndex()});
    return paths;
  }

  /// The first trace's tokens, every repeat expanded.
  static std::vector<int32_t> expandedTokens(ModuleOp module) {
    SymbolTableCollection symbols;
    TraceWalker walker(symbols);
    std::vector<int32_t> tokens;
    if (failed(walker.expand(*module.getOps<TraceOp>().begin(),
                             [&](ArrayRef<int32_t> piece) {
                               tokens.insert(tokens.end(), piece.begin(),
                                             piece.end());
                             })))
      return {-1};
    return tokens;
  }

  /// A trace of path granularity (its events may be path words) unless
  /// told otherwise.
  static TraceBuilder start(const std::string &vocabulary,
                            uint32_t granularity = PHAEDRUS_GRANULARITY_PATH) {
    TraceBuilder b;
    b.head(77, PHAEDRUS_TRACE_VERSION, granularity);
    b.record(PHAEDRUS_TAG_ARGV, 0, std::string("prog\0", 5));
    b.record(PHAEDRUS_TAG_VOCB, 0, vocabulary);
    return b;
  }

  MLIRContext context;
  std::vector<std::string> messages;
  ScopedDiagnosticHandler handler;
};

const char *kVocabulary = "0\tfunction\tmain\n1\tfunction\tf\n";

TEST_F(ImportWppTest, PathRunsBecomePathEntriesAndRepeats) {
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, PHAEDRUS_PATH_MARK | 1, 5, 3, PHAEDRUS_PATH_MARK | 1, 7, 1});
  b.end();
  OwningOpRef<ModuleOp> module = import(b);
  ASSERT_TRUE(module) << (messages.empty() ? "" : messages.front());
  EXPECT_TRUE(messages.empty());

  auto vocabulary = *module->getOps<VocabularyOp>().begin();
  ASSERT_EQ(vocabulary.getNumEntries(), 4u);
  EXPECT_EQ(pathEntries(vocabulary),
            (std::vector<std::pair<std::string, int64_t>>{{"f", 5}, {"f", 7}}));

  EXPECT_EQ(expandedTokens(*module), (std::vector<int32_t>{0, 2, 2, 2, 3}));
}

TEST_F(ImportWppTest, SpansCarryThePlainTokensInOrderBetweenPathEvents) {
  // Two threads; plain tokens around every kind of path word. Read with a
  // span callback, the events are those of a read event by event, in the
  // same order per thread, and the plain stretches come as a few spans.
  const char *vocabulary =
      "0\tfunction\tmain\n1\tfunction\tf\n2\tcall_site\tmain\t0\tf\n";
  TraceBuilder b = start(vocabulary);
  b.events(0, 0, {0, 1, 1, 0, PHAEDRUS_PATH_MARK | 1, 5, 3, 0, 1,
                  PHAEDRUS_PATH_ENTRY | 2u << 16 | 5, 1,
                  PHAEDRUS_PATH_SHORT | 1u << 16 | 7, 0, 0, 0});
  b.events(1, 0, {1, 1, 1, 0});
  b.events(0, 1, {PHAEDRUS_PATH_MARK | 1, 5, 2, 1, 0});
  b.end();
  using Event = std::tuple<uint32_t, uint32_t, uint64_t>;
  ImportWppOptions options;
  std::vector<Event> one, spans;
  size_t spanCalls = 0;
  ASSERT_TRUE(succeeded(readWpp(
      b.bytes, &context, UnknownLoc::get(&context), options,
      [&](uint32_t thread, uint32_t token, uint64_t length) {
        one.emplace_back(thread, token, length);
      })));
  FailureOr<WppShell> shell = readWpp(
      b.bytes, &context, UnknownLoc::get(&context), options,
      [&](uint32_t thread, uint32_t token, uint64_t length) {
        spans.emplace_back(thread, token, length);
      },
      nullptr,
      [&](uint32_t thread, const uint32_t *tokens, size_t count) {
        ++spanCalls;
        for (size_t i = 0; i < count; ++i)
          spans.emplace_back(thread, tokens[i], 1);
      });
  ASSERT_TRUE(succeeded(shell));
  EXPECT_EQ(spans, one);
  EXPECT_EQ(spanCalls, 6u);
  EXPECT_EQ(shell->events, 24u);
  std::vector<Event> again;
  rereadWpp(
      b.bytes, UnknownLoc::get(&context), options,
      [&](uint32_t thread, uint32_t token, uint64_t length) {
        again.emplace_back(thread, token, length);
      },
      [&](uint32_t thread, const uint32_t *tokens, size_t count) {
        for (size_t i = 0; i < count; ++i)
          again.emplace_back(thread, tokens[i], 1);
      });
  EXPECT_EQ(again, one);
}

TEST_F(ImportWppTest, OneWordPathRunsMeanLengthOne) {
  // f's path 5 as a one-word run, then as a three-word run of 2, then path 7
  // as one word: the same as three-word runs of 1, 2 and 1.
  uint32_t shortF = PHAEDRUS_PATH_SHORT | 1u << 16;
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, shortF | 5, PHAEDRUS_PATH_MARK | 1, 5, 2, shortF | 7});
  b.end();
  OwningOpRef<ModuleOp> module = import(b);
  ASSERT_TRUE(module) << (messages.empty() ? "" : messages.front());
  EXPECT_TRUE(messages.empty());
  auto vocabulary = *module->getOps<VocabularyOp>().begin();
  EXPECT_EQ(pathEntries(vocabulary),
            (std::vector<std::pair<std::string, int64_t>>{{"f", 5}, {"f", 7}}));
  EXPECT_EQ(expandedTokens(*module), (std::vector<int32_t>{0, 2, 2, 2, 3}));
}

TEST_F(ImportWppTest, EntryPathWordsAreTheEntryThenAOneWordRun) {
  // main calls f through call site 2 (f runs path 5), f is entered
  // indirectly (its own token 1; path 7), then f's path 5 as a plain
  // one-word run: the entry-path words read as their entry token followed
  // by a run of length 1 of the function that token enters.
  const char *vocabulary =
      "0\tfunction\tmain\n1\tfunction\tf\n2\tcall_site\tmain\t0\tf\n";
  TraceBuilder b = start(vocabulary);
  b.events(0, 0, {0, PHAEDRUS_PATH_ENTRY | 2u << 16 | 5,
                  PHAEDRUS_PATH_ENTRY | 1u << 16 | 7,
                  PHAEDRUS_PATH_SHORT | 1u << 16 | 5});
  b.end();
  OwningOpRef<ModuleOp> module = import(b);
  ASSERT_TRUE(module) << (messages.empty() ? "" : messages.front());
  EXPECT_TRUE(messages.empty());
  auto imported = *module->getOps<VocabularyOp>().begin();
  EXPECT_EQ(pathEntries(imported),
            (std::vector<std::pair<std::string, int64_t>>{{"f", 5}, {"f", 7}}));
  EXPECT_EQ(expandedTokens(*module), (std::vector<int32_t>{0, 2, 3, 1, 4, 3}));
  FailureOr<WppCounts> counts = count(b);
  ASSERT_TRUE(succeeded(counts));
  EXPECT_EQ(pathEntries(counts->vocabulary), pathEntries(imported));
}

TEST_F(ImportWppTest, EntryPathWordOfANonEntryIsCorrupt) {
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, PHAEDRUS_PATH_ENTRY | 9u << 16 | 1});
  b.end();
  expectBothRefuse(b, "corrupt trace: an entry-path word names token 9, which "
                      "is not a function or call site of the vocabulary");
}

// A function-granularity trace has no path words: all three readers say
// so with the word as the file holds it (not as the importer renumbers it).
TEST_F(ImportWppTest, PathWordInAFunctionTraceIsCorrupt) {
  for (uint32_t word : {PHAEDRUS_PATH_MARK, PHAEDRUS_PATH_ENTRY | 1u << 16,
                        PHAEDRUS_PATH_SHORT | 1u << 16 | 3}) {
    TraceBuilder b = start(kVocabulary, PHAEDRUS_GRANULARITY_FUNCTION);
    b.events(0, 0, {1, 2, word, 0, 2});
    b.end();
    std::string hex = llvm::formatv("{0:x8}", word).str();
    expectAllThreeRefuse(b, "corrupt trace: word " + hex +
                                " is a path event, in a trace of function "
                                "granularity");
  }
}

TEST_F(ImportWppTest, UnknownGranularityIsRefused) {
  TraceBuilder b = start(kVocabulary, 7);
  b.events(0, 0, {1, 2});
  b.end();
  expectAllThreeRefuse(b, "unknown granularity 7 (0 is function, 1 is path)");
}

TEST_F(ImportWppTest, OneWordPathRunOfANonFunctionIsCorrupt) {
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, PHAEDRUS_PATH_SHORT | 9u << 16 | 1});
  b.end();
  EXPECT_FALSE(import(b));
  EXPECT_TRUE(said("corrupt trace: a path event names token 9, which is not a "
                   "function of the vocabulary"));
}

TEST_F(ImportWppTest, PathEventCutShortIsDroppedWithAWarning) {
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, PHAEDRUS_PATH_MARK | 1, 5});
  b.end();
  OwningOpRef<ModuleOp> module = import(b);
  ASSERT_TRUE(module);
  EXPECT_TRUE(said("the trace ends inside a path event; 1 incomplete path "
                   "event(s) dropped"));
}

TEST_F(ImportWppTest, PathEventOfANonFunctionIsCorrupt) {
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, PHAEDRUS_PATH_MARK | 9, 1, 1});
  b.end();
  // Counting decodes alike and says the same.
  expectBothRefuse(b, "corrupt trace: a path event names token 9, which is "
                      "not a function of the vocabulary");
}

TEST_F(ImportWppTest, MalformedVocabularyIsRefused) {
  TraceBuilder b = start("0\tfunction\tmain\n1\tbogus\tf\n");
  b.events(0, 0, {0});
  b.end();
  EXPECT_FALSE(import(b));
  EXPECT_TRUE(said("cannot import trace: vocabulary line 2: unknown kind 'bogus'"));
}

TEST_F(ImportWppTest, MissingVocabularyIsRefused) {
  TraceBuilder b = start("");
  b.events(0, 0, {0});
  b.end();
  EXPECT_FALSE(import(b));
  EXPECT_TRUE(said("cannot import trace: it has no vocabulary"));
}

TEST_F(ImportWppTest, TokenOutsideTheVocabularyIsRefused) {
  // As the counting readers say it (the verifier of the IR built spoke of
  // a tokens op and a position in it).
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, 4});
  b.end();
  EXPECT_FALSE(import(b));
  EXPECT_TRUE(
      said("corrupt trace: it records token 4, outside its vocabulary of 2 "
           "entries"));
}

TEST_F(ImportWppTest, CountsEqualTheImportsCountsThreadByThread) {
  uint32_t shortF = PHAEDRUS_PATH_SHORT | 1u << 16;
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, shortF | 5, PHAEDRUS_PATH_MARK | 1, 9, 4, 1, 1, 1, 0});
  b.events(1, 0, {1, PHAEDRUS_PATH_MARK | 1, 5, 3, 1, shortF | 7});
  b.events(0, 1, {PHAEDRUS_PATH_MARK | 1, 9, 2, 0});
  b.end();
  OwningOpRef<ModuleOp> module = import(b);
  ASSERT_TRUE(module) << (messages.empty() ? "" : messages.front());
  FailureOr<WppCounts> counts = count(b);
  ASSERT_TRUE(succeeded(counts));
  EXPECT_TRUE(messages.empty());

  auto vocabulary = *module->getOps<VocabularyOp>().begin();
  EXPECT_EQ(pathEntries(counts->vocabulary), pathEntries(vocabulary));
  SymbolTableCollection symbols;
  TraceWalker walker(symbols);
  std::vector<std::string> names;
  size_t thread = 0;
  for (TraceOp trace : module->getOps<TraceOp>()) {
    ASSERT_LT(thread, counts->threads.size());
    const WppThreadCounts &counted = counts->threads[thread++];
    EXPECT_EQ(counted.name, trace.getSymName().str());
    FailureOr<SmallVector<uint64_t>> tokenCounts =
        walker.countTokens(trace, vocabulary.getNumEntries());
    FailureOr<SmallVector<int32_t>> order =
        walker.firstOccurrences(trace, vocabulary.getNumEntries());
    ASSERT_TRUE(succeeded(tokenCounts) && succeeded(order));
    EXPECT_EQ(counted.tokenCounts,
              std::vector<uint64_t>(tokenCounts->begin(), tokenCounts->end()));
    EXPECT_EQ(counted.firstOccurrence,
              std::vector<int32_t>(order->begin(), order->end()));
  }
  EXPECT_EQ(thread, 2u);
  // Thread 0: main and f three times each, f's path 5 once, path 9 six
  // times (a run of 4, then of 2), path 7 never; thread 1: f twice, path 5
  // three times, path 7 once.
  EXPECT_EQ(counts->threads[0].tokenCounts,
            (std::vector<uint64_t>{3, 3, 1, 6, 0}));
  EXPECT_EQ(counts->threads[1].tokenCounts,
            (std::vector<uint64_t>{0, 2, 3, 0, 1}));
  EXPECT_EQ(counts->threads[1].name, "run_t1");
  EXPECT_EQ(counts->argv, std::vector<std::string>{"prog"});
}

TEST_F(ImportWppTest, CountingRefusesTokensOutsideTheVocabulary) {
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, 4});
  b.end();
  EXPECT_TRUE(failed(count(b)));
  EXPECT_TRUE(said("corrupt trace: it records token 4, outside its vocabulary "
                   "of 2 entries"));
  // A wild word is refused without a table of its size.
  messages.clear();
  TraceBuilder wild = start(kVocabulary);
  wild.events(0, 0, {0, 0x3fffffffu});
  wild.end();
  EXPECT_TRUE(failed(count(wild)));
  EXPECT_TRUE(said("corrupt trace: it records token 1073741823, outside its "
                   "vocabulary of 2 entries"));
}

TEST_F(ImportWppTest, CountingVerifiesTheVocabularyAsImportDoes) {
  // Ids with a gap: counting would index entry 7 of a table of two.
  TraceBuilder b = start("0\tfunction\tmain\n7\tfunction\tf\n");
  b.events(0, 0, {0});
  b.end();
  expectBothRefuse(b, "id 7 is out of range");
}

// Function-granularity builds list their call groups in the vocabulary.
const char *kGroupVocabulary = "0\tfunction\tmain\n1\tfunction\tf\n"
                               "2\tcall_site\tmain\t0\tf\n"
                               "3\tcall_site\tmain\t1\tf\n"
                               "4\tgroup\tmain\t0\t2,3\n";

TEST_F(ImportWppTest, GroupEntriesKeepTheirMembers) {
  TraceBuilder b = start(kGroupVocabulary);
  b.events(0, 0, {1, 2, 3});
  b.end();
  OwningOpRef<ModuleOp> module = import(b);
  ASSERT_TRUE(module) << (messages.empty() ? "" : messages.front());
  VocabularyOp vocabulary = *module->getOps<VocabularyOp>().begin();
  EntryOp group;
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>())
    group = entry;
  ASSERT_TRUE(group);
  EXPECT_EQ(group.getKind(), EntryKind::Group);
  EXPECT_EQ(group.getSymbol(), "main");
  EXPECT_EQ(ArrayRef<int64_t>(group.getMembers().value_or(ArrayRef<int64_t>())),
            ArrayRef<int64_t>({2, 3}));
  // Recorded traces never hold a group token; counting sees none.
  FailureOr<WppCounts> counts = count(b);
  ASSERT_TRUE(succeeded(counts));
  EXPECT_EQ(counts->threads.front().tokenCounts,
            (std::vector<uint64_t>{0, 1, 1, 1, 0}));
}

TEST_F(ImportWppTest, GroupsOfOtherThanTheirCallSitesAreRefused) {
  const std::string sites = "0\tfunction\tmain\n1\tfunction\tf\n"
                            "2\tcall_site\tmain\t0\tf\n";
  const std::pair<std::string, std::string> cases[] = {
      // Member 1 is a function, not a call site of main.
      {sites + "3\tgroup\tmain\t0\t2,1\n", "member 1 is not a call site of @main"},
      // A member out of the vocabulary.
      {sites + "3\tgroup\tmain\t0\t2,9\n", "member 9 is not a call site of @main"},
      // No members (the text form before builds recorded groups).
      {"0\tfunction\tmain\n1\tgroup\tmain\t0\n",
       "vocabulary line 2: a group needs its index and members"},
  };
  for (const auto &[vocabulary, error] : cases) {
    TraceBuilder b = start(vocabulary);
    b.events(0, 0, {0});
    b.end();
    expectBothRefuse(b, error);
  }
}

// The runtime's runs count the paths taken, at least one. A run of length 0
// was once read as nothing, but it left its path in the vocabulary, as if
// the path had run: a writer's bug or a crafted file, refused.
TEST_F(ImportWppTest, PathRunsOfLengthZeroAreRefused) {
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, PHAEDRUS_PATH_MARK | 1, 5, 0, 1});
  b.end();
  expectAllThreeRefuse(b, "corrupt trace: a path run of length 0 (token 1, "
                          "path 5): runs count the paths taken, at least one");
}

} // namespace

namespace {
// --pack-wpp refuses what the import refuses, with the same words where the
// check is the import's (the vocabulary's verification) and its own where
// it codes the tokens.
TEST_F(ImportWppTest, PackingRefusesTokensOutsideTheVocabulary) {
  TraceBuilder b = start(kVocabulary);
  b.events(0, 0, {0, 4});
  b.end();
  EXPECT_FALSE(pack(b));
  EXPECT_TRUE(said("corrupt trace: it records token 4, outside its vocabulary "
                   "of 2 entries"));
}

// In a function trace over a vocabulary with call groups, the groups'
// analysis reads each token's entry: a token past the vocabulary is refused
// before it (a chunk damaged under an intact record checksum crashed
// --pack-wpp there), and a huge one without memory sized by it.
TEST_F(ImportWppTest, PackingRefusesTokensOutsideTheVocabularyBeforeGroups) {
  for (uint32_t bad : {5u, 0x3ffffff0u}) {
    TraceBuilder b = start(kGroupVocabulary);
    b.events(0, 0, {0, 2, 3, bad, 1});
    b.end();
    messages.clear();
    EXPECT_FALSE(pack(b));
    EXPECT_TRUE(said("corrupt trace: it records token " + std::to_string(bad) +
                     ", outside its vocabulary of 5 entries"))
        << (messages.empty() ? "(none)" : messages.front());
  }
}

TEST_F(ImportWppTest, PackingVerifiesTheVocabularyAsImportDoes) {
  TraceBuilder b = start("0\tfunction\tmain\n7\tfunction\tf\n");
  b.events(0, 0, {0});
  b.end();
  EXPECT_FALSE(pack(b));
  EXPECT_TRUE(said("id 7 is out of range"));
}

// Function traces without groups to fold with (a build instrumented before
// they were recorded), and traces that already hold group tokens, pack as
// imported: --phaedrus-call-groups would not fold them either.
TEST_F(ImportWppTest, TracesWithoutGroupsToFoldPackAsImported) {
  TraceBuilder noGroups = start("0\tfunction\tmain\n1\tfunction\tf\n"
                                "2\tcall_site\tmain\t0\tf\n"
                                "3\tcall_site\tmain\t1\tf\n");
  noGroups.events(0, 0, {0, 2, 3, 2, 3, 2, 3});
  noGroups.end();
  TraceBuilder folded = start(kGroupVocabulary);
  folded.events(0, 0, {0, 4, 2, 3});
  folded.end();
  for (const TraceBuilder *b : {&noGroups, &folded}) {
    messages.clear();
    std::optional<std::string> packed = pack(*b);
    ASSERT_TRUE(packed) << (messages.empty() ? "" : messages.front());
    // (Folding a trace with group tokens would not expand back: a warning.)
    EXPECT_TRUE(messages.empty()) << messages.front();
    EXPECT_EQ(*packed, packImported(*b));
  }
}

// Threads fold apart, each into its trace, whatever the order of their
// chunks: the call groups fold (token 4 for sites 2, 3) and every trace
// unpacks to what it recorded.
TEST_F(ImportWppTest, PackingFoldsEachThreadsCallGroups) {
  TraceBuilder b = start(kGroupVocabulary, PHAEDRUS_GRANULARITY_FUNCTION);
  b.events(0, 0, {0, 2, 3, 1});
  b.events(1, 0, {1, 2, 3});
  b.events(0, 1, {2, 3, 2});
  b.events(2, 0, {0});
  b.events(1, 1, {2, 3, 1});
  b.end();
  std::optional<std::string> packed = pack(b);
  ASSERT_TRUE(packed) << (messages.empty() ? "" : messages.front());
  OwningOpRef<ModuleOp> unpacked =
      importPacked(*packed, &context, UnknownLoc::get(&context));
  ASSERT_TRUE(unpacked) << (messages.empty() ? "" : messages.front());
  OwningOpRef<ModuleOp> imported = import(b);
  ASSERT_TRUE(imported);
  EXPECT_EQ(recorded(*unpacked), recorded(*imported));
  ASSERT_EQ(recorded(*unpacked).size(), 3u);
  // Folded: thread 0's second 2, 3 is the group token; its first stays,
  // because the token after it (1, an entry from an unknown site) does not
  // say where the call of site 2 ended (phaedrus-call-groups.test).
  EXPECT_EQ(expandedTokens(*unpacked), (std::vector<int32_t>{0, 2, 3, 1, 4, 2}));
  EXPECT_TRUE(messages.empty()) << messages.front();
}

// Past its budget of folded items, --pack-wpp folds each thread again
// while it codes it, and writes the same file: at function granularity
// with call groups, without, and at path granularity (runs included), with
// threads whose chunks interleave; whether the items were kept in the
// folders or compactly before.
TEST_F(ImportWppTest, PackingPastTheBudgetFoldsAgainToTheSameFile) {
  std::vector<TraceBuilder> traces;
  TraceBuilder grouped = start(kGroupVocabulary);
  TraceBuilder plain = start("0\tfunction\tmain\n1\tfunction\tf\n"
                             "2\tcall_site\tmain\t0\tf\n"
                             "3\tcall_site\tmain\t1\tf\n");
  for (TraceBuilder *b : {&grouped, &plain}) {
    // Long enough to seal items (more than RepeatFolder::kSealWindow), and
    // without a period (a seeded generator picks the events) for the
    // long-period rule to fold it into a few items.
    std::vector<uint32_t> events;
    std::mt19937 rng(2026);
    for (uint32_t i = 0; i < 30000; ++i) {
      uint32_t hash = rng();
      events.push_back(hash % 7 == 0 ? 0 : 1);
      if (hash % 3 == 0) {
        events.push_back(2);
        events.push_back(3);
      }
    }
    b->events(0, 0, events);
    b->events(1, 0, {1, 2, 3, 1});
    b->events(0, 1, {2, 3, 2});
    b->end();
    traces.push_back(*b);
  }
  TraceBuilder path;
  phaedrus_head head{PHAEDRUS_TRACE_VERSION, PHAEDRUS_GRANULARITY_PATH, 77, 42,
                     1, 7};
  path.record(PHAEDRUS_TAG_HEAD, 0, TraceBuilder::raw(head));
  path.record(PHAEDRUS_TAG_ARGV, 0, std::string("prog\0", 5));
  path.record(PHAEDRUS_TAG_VOCB, 0, kVocabulary);
  std::vector<uint32_t> runs{0};
  std::mt19937 rng(1127);
  for (uint32_t i = 0; i < 20000; ++i) { // runs of f's paths 1 to 40
    uint32_t hash = rng();
    runs.insert(runs.end(),
                {PHAEDRUS_PATH_MARK | 1, 1 + hash % 40, 1 + (hash >> 8) % 3});
  }
  path.events(0, 0, runs);
  path.events(1, 0, {0, PHAEDRUS_PATH_MARK | 1, 2, 4});
  path.end();
  traces.push_back(path);
  TraceBuilder empty = start(kGroupVocabulary); // no events at all
  empty.end();
  {
    std::optional<std::string> kept = pack(empty);
    ASSERT_TRUE(kept) << (messages.empty() ? "" : messages.front());
    EXPECT_EQ(pack(empty, 0), kept);
  }
  for (const TraceBuilder &b : traces) {
    messages.clear();
    std::optional<std::string> kept = pack(b);
    ASSERT_TRUE(kept) << (messages.empty() ? "" : messages.front());
    bool functionTrace = &b != &traces.back();
    for (uint64_t budget : {uint64_t(0), uint64_t(2000), uint64_t(60000)}) {
      // Kept in the folders until the budget (bytes) runs out, or compactly
      // from the first check on: with 60000 bytes, the function traces'
      // first check finds them within the budget, the end does not. A
      // budget under twice compactAbove keeps them compactly from half of
      // it on, so there that is the first check too.
      for (uint64_t compactAbove : {kPackCompactAbove, uint64_t(0)}) {
        PackedSizes sizes;
        std::optional<std::string> again = pack(b, budget, &sizes, compactAbove);
        ASSERT_TRUE(again) << (messages.empty() ? "" : messages.front());
        EXPECT_EQ(sizes.foldedAgain, 2u) << "budget " << budget; // two threads
        EXPECT_EQ(sizes.keptCompactly, functionTrace && budget == 60000)
            << "budget " << budget;
        EXPECT_EQ(*again, *kept) << "budget " << budget;
      }
    }
    // Compactly, within the budget: the same file, not folded again.
    PackedSizes sizes;
    std::optional<std::string> compact =
        pack(b, kPackKeepMiB << 20, &sizes, /*compactAbove=*/0);
    ASSERT_TRUE(compact) << (messages.empty() ? "" : messages.front());
    EXPECT_EQ(sizes.foldedAgain, 0u);
    EXPECT_TRUE(sizes.keptCompactly);
    EXPECT_EQ(*compact, *kept);
    EXPECT_TRUE(messages.empty()) << messages.front();
  }
}
} // namespace

namespace {
TEST_F(ImportWppTest, PackingReportsProgressOfEveryReadAndTheCoding) {
  // A function trace without call groups is read twice: a first read that
  // cannot know the total, a second that can.
  TraceBuilder b = start(kVocabulary, PHAEDRUS_GRANULARITY_FUNCTION);
  const uint64_t n = kProgressEvery + kProgressEvery / 2;
  b.events(0, 0, std::vector<uint32_t>(n, 1));
  b.end();
  std::vector<WppProgress> reports;
  ImportWppOptions options;
  options.progress = [&](const WppProgress &p) { reports.push_back(p); };
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  PackedSizes sizes;
  ASSERT_TRUE(succeeded(packWpp(b.bytes, &context, UnknownLoc::get(&context),
                                options, os, &sizes)));
  std::vector<std::pair<uint64_t, uint64_t>> reads, readsFinished;
  std::vector<WppProgress> coding;
  for (const WppProgress &p : reports) {
    if (p.stage == WppProgress::Code)
      coding.push_back(p);
    else
      (p.finished ? readsFinished : reads).push_back({p.done, p.total});
  }
  // One report a kProgressEvery events in each read, and its end.
  using Pair = std::pair<uint64_t, uint64_t>;
  EXPECT_EQ(reads, (std::vector<Pair>{{kProgressEvery, 0}, {kProgressEvery, n}}));
  EXPECT_EQ(readsFinished, (std::vector<Pair>{{n, 0}, {n, n}}));
  // The coding's end, with the symbols coded (a few: the trace folds).
  ASSERT_EQ(coding.size(), 1u);
  EXPECT_TRUE(coding[0].finished);
  EXPECT_EQ(coding[0].done, sizes.bodySymbols);
  EXPECT_EQ(coding[0].total, sizes.bodySymbols);
  EXPECT_EQ(bytes, packImported(b)); // and the same file
}
} // namespace
