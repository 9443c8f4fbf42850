//===- PackedTraceTest.cpp - Packed traces round-trip and refuse damage ---===//
//
// Properties of --export-packed / --import-packed over generated traces:
// every trace expands to the same tokens after a round trip, whatever its
// shape (random, periodic, nested loops, long runs), and a damaged payload
// (with a valid checksum, so the decoder itself sees it) gives a diagnostic
// or a verified module, never a crash.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Target/Wpp/PackedTrace.h"
#include "phaedrus/Trace/Format.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Endian.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

using namespace mlir;
using namespace mlir::phaedrus;

namespace {

/// Flips byte `at` of a packed file to another value.
void flipByte(std::string &bytes, size_t at, std::mt19937 &rng) {
  bytes[at] = static_cast<char>(bytes[at] ^ (1 + rng() % 255));
}

/// Makes the header agree with a damaged payload again (its size and
/// checksum), so that the damage reaches the decoder.
void reseal(std::string &bytes) {
  size_t size = bytes.size() - 24;
  llvm::support::endian::write64le(&bytes[8], size);
  llvm::support::endian::write64le(
      &bytes[16], phaedrus_fnv1a64(bytes.data() + 24, size, PHAEDRUS_FNV64_INIT));
}


class PackedTraceTest : public ::testing::Test {
protected:
  PackedTraceTest()
      : handler(&context, [this](Diagnostic &d) {
          messages.push_back(d.str());
          return success();
        }) {
    context.loadDialect<PhaedrusDialect>();
  }

  /// A module with one vocabulary of `numTokens` functions and one trace
  /// per sequence, folded as the importer folds.
  OwningOpRef<ModuleOp> build(const std::vector<std::vector<uint32_t>> &seqs,
                              uint32_t numTokens) {
    Location loc = UnknownLoc::get(&context);
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    OpBuilder b = OpBuilder::atBlockEnd(module->getBody());
    auto vocabulary = VocabularyOp::create(b, loc, "v", 99);
    OpBuilder entries = OpBuilder::atBlockEnd(&vocabulary.getBody().emplaceBlock());
    for (uint32_t i = 0; i < numTokens; ++i)
      EntryOp::create(entries, loc, i, EntryKind::Function,
                      "f" + std::to_string(i), nullptr, nullptr, nullptr);
    addTraces(b, seqs);
    return module;
  }

  /// One trace over vocabulary @v per sequence, at `b`, folded as the
  /// importer folds.
  void addTraces(OpBuilder &b, const std::vector<std::vector<uint32_t>> &seqs) {
    Location loc = UnknownLoc::get(&context);
    for (size_t t = 0; t < seqs.size(); ++t) {
      auto input = InputDescriptorAttr::get(
          &context, b.getArrayAttr({b.getStringAttr("prog"),
                                    b.getStringAttr(std::to_string(t))}),
          b.getArrayAttr({}), nullptr, nullptr);
      auto trace = TraceOp::create(b, loc, "t" + std::to_string(t), "v", 99,
                                   input, nullptr);
      OpBuilder body = OpBuilder::atBlockEnd(&trace.getBody().emplaceBlock());
      trace::RepeatFolder folder(8);
      folder.push(seqs[t].data(), seqs[t].size());
      emitFoldedItems(body, loc, folder, "t" + std::to_string(t), 64);
    }
  }

  std::string pack(ModuleOp module) {
    std::string bytes;
    llvm::raw_string_ostream os(bytes);
    EXPECT_TRUE(succeeded(exportPacked(module, os)));
    return bytes;
  }

  std::vector<std::vector<int32_t>> expand(ModuleOp module) {
    SymbolTableCollection symbols;
    TraceWalker walker(symbols);
    std::vector<std::vector<int32_t>> out;
    for (TraceOp trace : module.getOps<TraceOp>()) {
      out.emplace_back();
      EXPECT_TRUE(succeeded(walker.expand(trace, [&](ArrayRef<int32_t> piece) {
        out.back().insert(out.back().end(), piece.begin(), piece.end());
      })));
    }
    return out;
  }

  MLIRContext context;
  std::vector<std::string> messages;
  ScopedDiagnosticHandler handler;
};

/// Generated traces of several shapes over `numTokens` tokens.
std::vector<std::vector<uint32_t>> shapes(std::mt19937 &rng, uint32_t numTokens) {
  std::vector<std::vector<uint32_t>> seqs;
  auto token = [&] { return static_cast<uint32_t>(rng() % numTokens); };
  std::vector<uint32_t> random(3000);
  for (uint32_t &t : random)
    t = token();
  seqs.push_back(random);
  // Nested loops with data-dependent trip counts and an occasional branch.
  std::vector<uint32_t> loops;
  for (int outer = 0; outer < 50; ++outer) {
    loops.push_back(0);
    for (uint32_t inner = 0; inner < rng() % 70; ++inner) {
      loops.push_back(1 % numTokens);
      if (rng() % 5 == 0)
        loops.push_back(token());
      loops.push_back(2 % numTokens);
    }
  }
  seqs.push_back(loops);
  // A long run, and a period longer than the folder's maximum.
  std::vector<uint32_t> runs(100000, 3 % numTokens);
  for (int i = 0; i < 200; ++i)
    for (uint32_t t = 0; t < 12; ++t)
      runs.push_back(t % numTokens);
  seqs.push_back(runs);
  seqs.push_back({token()}); // one event
  return seqs;
}

TEST_F(PackedTraceTest, GeneratedTracesRoundTrip) {
  for (uint32_t numTokens : {1u, 2u, 13u, 300u, 5000u}) {
    std::mt19937 rng(numTokens);
    std::vector<std::vector<uint32_t>> seqs = shapes(rng, numTokens);
    OwningOpRef<ModuleOp> module = build(seqs, numTokens);
    std::string bytes = pack(*module);
    OwningOpRef<ModuleOp> back =
        importPacked(bytes, &context, UnknownLoc::get(&context));
    ASSERT_TRUE(back) << numTokens << " tokens: "
                      << (messages.empty() ? "" : messages.back());
    EXPECT_EQ(expand(*back), expand(*module)) << numTokens << " tokens";
    // The descriptors and names come back.
    auto traces = llvm::to_vector(back->getOps<TraceOp>());
    ASSERT_EQ(traces.size(), seqs.size());
    EXPECT_EQ(traces[1].getSymName(), "t1");
    EXPECT_EQ(cast<StringAttr>(traces[1].getInput().getArgv()[1]).getValue(), "1");
    // And packing again gives the same bytes.
    EXPECT_EQ(pack(*back), bytes);
  }
}

TEST_F(PackedTraceTest, DamagedPayloadIsRefusedOrStillValid) {
  std::mt19937 rng(5);
  OwningOpRef<ModuleOp> module = build(shapes(rng, 40), 40);
  std::string bytes = pack(*module);
  int refused = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::string damaged = bytes;
    size_t at = 24 + rng() % (damaged.size() - 24);
    flipByte(damaged, at, rng);
    if (trial % 4 == 0) // and sometimes shorter, with a matching header
      damaged.resize(24 + rng() % (damaged.size() - 24));
    reseal(damaged);
    messages.clear();
    OwningOpRef<ModuleOp> back =
        importPacked(damaged, &context, UnknownLoc::get(&context));
    if (!back) {
      ++refused;
      ASSERT_FALSE(messages.empty());
    }
  }
  // Almost every damaged stream is caught by its structure.
  EXPECT_GT(refused, 150);
}

TEST_F(PackedTraceTest, DamagedPayloadSaysItIsCorrupt) {
  // Every refusal of a damaged stream names the file as corrupt and what
  // was wrong, or is a verifier diagnostic of what it decoded.
  std::mt19937 rng(9);
  OwningOpRef<ModuleOp> module = build(shapes(rng, 40), 40);
  std::string bytes = pack(*module);
  std::map<std::string, int> reasons;
  for (int trial = 0; trial < 100; ++trial) {
    std::string damaged = bytes;
    size_t at = 24 + rng() % (damaged.size() - 24);
    flipByte(damaged, at, rng);
    reseal(damaged);
    messages.clear();
    if (importPacked(damaged, &context, UnknownLoc::get(&context)))
      continue;
    ASSERT_FALSE(messages.empty());
    const std::string &m = messages.front();
    const std::string prefix = "phaedrus-translate: corrupt packed trace: ";
    if (m.rfind(prefix, 0) == 0)
      ++reasons[m.substr(prefix.size())];
    else
      ++reasons["(verifier) " + m];
  }
  int named = 0;
  for (auto &[reason, n] : reasons)
    if (reason.rfind("(verifier)", 0) != 0)
      named += n;
  EXPECT_GT(named, 50);
  EXPECT_GE(reasons.size(), 2u); // more than one kind of damage is told apart
}

TEST_F(PackedTraceTest, CallGroupsRoundTripAndDamageIsCaught) {
  // A vocabulary of call sites with call-group entries (every prefix of
  // groups of consecutive sites, as --phaedrus-call-groups writes them),
  // and traces that use every token.
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder b = OpBuilder::atBlockEnd(module->getBody());
  auto vocabulary = VocabularyOp::create(b, loc, "v", 99);
  OpBuilder entries = OpBuilder::atBlockEnd(&vocabulary.getBody().emplaceBlock());
  constexpr int64_t kSites = 40;
  for (int64_t i = 0; i < kSites; ++i)
    EntryOp::create(entries, loc, i, EntryKind::CallSite,
                    "f" + std::to_string(i / 10), entries.getI64IntegerAttr(i % 10),
                    FlatSymbolRefAttr::get(&context, "g"), nullptr);
  int64_t id = kSites;
  for (int64_t first = 0; first < kSites; first += 10)
    for (int64_t length = 2; length <= 4; ++length) {
      SmallVector<int64_t> members;
      for (int64_t m = 0; m < length; ++m)
        members.push_back(first + m);
      EntryOp::create(entries, loc, id++, EntryKind::Group,
                      "f" + std::to_string(first / 10),
                      entries.getI64IntegerAttr(0), nullptr,
                      entries.getDenseI64ArrayAttr(members));
    }
  std::mt19937 rng(11);
  std::vector<std::vector<uint32_t>> seqs = shapes(rng, static_cast<uint32_t>(id));
  addTraces(b, seqs);
  ASSERT_TRUE(succeeded(verify(*module)));

  std::string bytes = pack(*module);
  OwningOpRef<ModuleOp> back = importPacked(bytes, &context, loc);
  ASSERT_TRUE(back) << (messages.empty() ? "" : messages.back());
  EXPECT_EQ(expand(*back), expand(*module));
  EXPECT_EQ(pack(*back), bytes);
  auto members = [](ModuleOp m) {
    std::vector<std::vector<int64_t>> all;
    for (auto v : m.getOps<VocabularyOp>())
      for (EntryOp entry : v.getBody().getOps<EntryOp>())
        if (entry.getMembers())
          all.emplace_back(entry.getMembers()->begin(), entry.getMembers()->end());
    return all;
  };
  EXPECT_EQ(members(*back), members(*module));
  EXPECT_EQ(members(*back).size(), 12u);

  // Damage to the vocabulary part (where the groups are) is refused or
  // decodes to valid IR, never a crash.
  int refused = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::string damaged = bytes;
    size_t at = 24 + rng() % std::min<size_t>(damaged.size() - 24, 200);
    flipByte(damaged, at, rng);
    reseal(damaged);
    messages.clear();
    if (!importPacked(damaged, &context, loc)) {
      ++refused;
      ASSERT_FALSE(messages.empty());
    }
  }
  EXPECT_GT(refused, 150);
}

TEST_F(PackedTraceTest, ProgramOpsAreRefused) {
  OwningOpRef<ModuleOp> module = build({{0, 1}}, 2);
  OpBuilder b = OpBuilder::atBlockEnd(module->getBody());
  ModuleOp::create(b, UnknownLoc::get(&context));
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  EXPECT_TRUE(failed(exportPacked(*module, os)));
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages.back().find("cannot be packed"), std::string::npos);
}

} // namespace

namespace {

// A long, repetitive argument codes in far fewer bits than it has
// characters; the reader once took that for a string longer than the file.
TEST_F(PackedTraceTest, LongRepetitiveStringsRoundTrip) {
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module = build({}, 3);
  OpBuilder b = OpBuilder::atBlockEnd(module->getBody());
  std::string argument(20000, 'x');
  auto input = InputDescriptorAttr::get(
      &context, b.getArrayAttr({b.getStringAttr("prog"), b.getStringAttr(argument)}),
      b.getArrayAttr({}), nullptr, nullptr);
  auto trace = TraceOp::create(b, loc, "t", "v", 99, input, nullptr);
  OpBuilder body = OpBuilder::atBlockEnd(&trace.getBody().emplaceBlock());
  trace::RepeatFolder folder(8);
  std::vector<uint32_t> tokens = {0, 1, 2};
  folder.push(tokens.data(), tokens.size());
  emitFoldedItems(body, loc, folder, "t", 64);
  std::string bytes = pack(*module);
  EXPECT_LT(bytes.size() * 8, argument.size()); // fewer bits than characters
  OwningOpRef<ModuleOp> back = importPacked(bytes, &context, loc);
  ASSERT_TRUE(back) << (messages.empty() ? "" : messages.front());
  auto argv = (*back->getOps<TraceOp>().begin()).getInput().getArgv();
  EXPECT_EQ(cast<StringAttr>(argv[1]).getValue(), argument);
}

// A few bytes can decode to billions of symbols: the reader stops at its
// limit and says which option raises it.
TEST_F(PackedTraceTest, SymbolsBeyondTheLimitAreRefused) {
  std::mt19937 rng(3);
  OwningOpRef<ModuleOp> module = build(shapes(rng, 20), 20);
  std::string bytes = pack(*module);
  Location loc = UnknownLoc::get(&context);
  EXPECT_TRUE(importPacked(bytes, &context, loc, 1024, 1u << 20));
  messages.clear();
  EXPECT_FALSE(importPacked(bytes, &context, loc, 1024, 100));
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages.front().find("decodes to more than 100 body symbols"),
            std::string::npos)
      << messages.front();
  EXPECT_NE(messages.front().find("--packed-max-symbols"), std::string::npos);
}

// The payload is one coded stream, read to its last byte: bytes after it
// (a header resealed over them) are refused.
TEST_F(PackedTraceTest, BytesAfterTheCodedStreamAreRefused) {
  std::mt19937 rng(4);
  OwningOpRef<ModuleOp> module = build(shapes(rng, 20), 20);
  std::string bytes = pack(*module);
  bytes.append("\x01\x02\x03", 3);
  reseal(bytes);
  EXPECT_FALSE(importPacked(bytes, &context, UnknownLoc::get(&context)));
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.front(), "phaedrus-translate: corrupt packed trace: 3 "
                              "bytes after the end of the coded stream");
}

} // namespace

namespace {

// What the format cannot hold is refused when writing, not left for the
// reader to refuse: a string over 16 MiB.
TEST_F(PackedTraceTest, StringsOver16MiBAreNotWritten) {
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  OpBuilder b = OpBuilder::atBlockEnd(module->getBody());
  auto vocabulary =
      VocabularyOp::create(b, loc, std::string((16u << 20) + 1, 'v'), 99);
  vocabulary.getBody().emplaceBlock();
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  EXPECT_TRUE(failed(exportPacked(*module, os)));
  ASSERT_FALSE(messages.empty());
  EXPECT_EQ(messages.front(), "cannot be packed: a string longer than 16 MiB");
}

} // namespace
