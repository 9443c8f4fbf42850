//===- TraceWalkTest.cpp - Properties of trace expansion and counting -----===//
//
// Builds random compressed traces (nested repeats, grammar rules that use
// other rules) together with their expected flat expansion, and checks that
// TraceWalker and --phaedrus-expand reproduce it exactly.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir;
using namespace mlir::phaedrus;

namespace {

constexpr int kVocabularySize = 12;

class RandomTraceBuilder {
public:
  RandomTraceBuilder(MLIRContext *context, uint64_t seed)
      : context(context), rng(seed) {}

  /// Builds a module with a vocabulary, a grammar and one trace; returns the
  /// expected expansion of the trace.
  std::vector<int32_t> build(ModuleOp module) {
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    Location loc = builder.getUnknownLoc();
    auto vocabulary = VocabularyOp::create(builder, loc, "v", 99);
    vocabulary.getBody().emplaceBlock();
    {
      OpBuilder inner = OpBuilder::atBlockEnd(&vocabulary.getBody().front());
      for (int id = 0; id < kVocabularySize; ++id)
        EntryOp::create(inner, loc, inner.getI64IntegerAttr(id),
                        EntryKindAttr::get(context, EntryKind::Function),
                        FlatSymbolRefAttr::get(context, "f" + std::to_string(id)),
                        IntegerAttr(), FlatSymbolRefAttr(), DenseI64ArrayAttr());
    }
    auto grammar = GrammarOp::create(builder, loc, builder.getStringAttr("g"),
                                     FlatSymbolRefAttr::get(context, "v"));
    grammar.getBody().emplaceBlock();
    // Rule i may use rules < i only, so the grammar is acyclic.
    int numRules = rng() % 5;
    for (int i = 0; i < numRules; ++i) {
      OpBuilder inner = OpBuilder::atBlockEnd(&grammar.getBody().front());
      auto rule = RuleOp::create(inner, loc, "r" + std::to_string(i));
      rule.getBody().emplaceBlock();
      std::vector<int32_t> expansion;
      fillBody(rule.getBody().front(), /*depth=*/0, /*maxRule=*/i, expansion,
               /*nonEmpty=*/true);
      rules.push_back(expansion);
    }
    auto input = InputDescriptorAttr::get(
        context, builder.getStrArrayAttr({"prog"}), ArrayAttr(), StringAttr(),
        DictionaryAttr());
    auto trace = TraceOp::create(
        builder, loc, builder.getStringAttr("t"),
        FlatSymbolRefAttr::get(context, "v"),
        builder.getIntegerAttr(builder.getIntegerType(64, false), 99), input,
        FlatSymbolRefAttr::get(context, "g"));
    trace.getBody().emplaceBlock();
    std::vector<int32_t> expansion;
    fillBody(trace.getBody().front(), 0, numRules, expansion, false);
    return expansion;
  }

private:
  void fillBody(Block &block, int depth, int maxRule,
                std::vector<int32_t> &expansion, bool nonEmpty) {
    OpBuilder builder = OpBuilder::atBlockEnd(&block);
    Location loc = builder.getUnknownLoc();
    int pieces = rng() % 4 + (nonEmpty ? 1 : 0);
    for (int p = 0; p < pieces; ++p) {
      int choice = rng() % 3;
      if (choice == 1 && depth < 3) {
        int64_t count = rng() % 5 + 1;
        auto repeat = RepeatOp::create(builder, loc, count);
        repeat.getBody().emplaceBlock();
        std::vector<int32_t> inner;
        fillBody(repeat.getBody().front(), depth + 1, maxRule, inner, true);
        for (int64_t i = 0; i < count; ++i)
          expansion.insert(expansion.end(), inner.begin(), inner.end());
      } else if (choice == 2 && maxRule > 0) {
        int rule = rng() % maxRule;
        ApplyOp::create(builder, loc,
                        FlatSymbolRefAttr::get(context, "r" + std::to_string(rule)));
        expansion.insert(expansion.end(), rules[rule].begin(), rules[rule].end());
      } else {
        std::vector<int32_t> tokens(rng() % 4 + 1);
        for (int32_t &t : tokens)
          t = rng() % kVocabularySize;
        auto type = RankedTensorType::get({int64_t(tokens.size())},
                                          builder.getI32Type());
        TokensOp::create(builder, loc, DenseIntElementsAttr::get(type, tokens));
        expansion.insert(expansion.end(), tokens.begin(), tokens.end());
      }
    }
  }

  MLIRContext *context;
  std::mt19937_64 rng;
  std::vector<std::vector<int32_t>> rules;
};

class TraceWalkTest : public ::testing::Test {
protected:
  TraceWalkTest() { context.loadDialect<PhaedrusDialect>(); }
  MLIRContext context;
};

TEST_F(TraceWalkTest, ExpandAndCountMatchReferenceOnRandomTraces) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
    std::vector<int32_t> expected = RandomTraceBuilder(&context, seed).build(*module);
    ASSERT_TRUE(succeeded(verify(*module))) << "seed " << seed;

    SymbolTableCollection symbolTable;
    TraceWalker walker(symbolTable);
    TraceOp trace = *module->getOps<TraceOp>().begin();

    FailureOr<uint64_t> length = walker.getExpandedLength(trace);
    ASSERT_TRUE(succeeded(length));
    EXPECT_EQ(*length, expected.size()) << "seed " << seed;

    std::vector<int32_t> expanded;
    ASSERT_TRUE(succeeded(walker.expand(trace, [&](ArrayRef<int32_t> piece) {
      expanded.insert(expanded.end(), piece.begin(), piece.end());
    })));
    EXPECT_EQ(expanded, expected) << "seed " << seed;

    FailureOr<SmallVector<uint64_t>> counts =
        walker.countTokens(trace, kVocabularySize);
    ASSERT_TRUE(succeeded(counts));
    std::vector<uint64_t> histogram(kVocabularySize, 0);
    for (int32_t t : expected)
      ++histogram[t];
    EXPECT_EQ(std::vector<uint64_t>(counts->begin(), counts->end()), histogram)
        << "seed " << seed;

    FailureOr<SmallVector<int32_t>> first =
        walker.firstOccurrences(trace, kVocabularySize);
    ASSERT_TRUE(succeeded(first));
    std::vector<int32_t> expectedFirst;
    std::vector<bool> seen(kVocabularySize, false);
    for (int32_t t : expected)
      if (!seen[t]) {
        seen[t] = true;
        expectedFirst.push_back(t);
      }
    EXPECT_EQ(std::vector<int32_t>(first->begin(), first->end()), expectedFirst)
        << "seed " << seed;
  }
}

TEST_F(TraceWalkTest, ExpandPassIsLosslessOnRandomTraces) {
  for (uint64_t seed = 1000; seed < 1100; ++seed) {
    OwningOpRef<ModuleOp> module = ModuleOp::create(UnknownLoc::get(&context));
    std::vector<int32_t> expected = RandomTraceBuilder(&context, seed).build(*module);

    PassManager pm(&context);
    PhaedrusExpandPassOptions options;
    options.inlineLimit = 8; // exercise both inline and blob output
    pm.addPass(createPhaedrusExpandPass(options));
    ASSERT_TRUE(succeeded(pm.run(*module))) << "seed " << seed;

    TraceOp trace = *module->getOps<TraceOp>().begin();
    EXPECT_FALSE(trace.getGrammarAttr());
    EXPECT_TRUE(module->getOps<GrammarOp>().empty());
    std::vector<int32_t> flat;
    for (TokensOp tokens : trace.getBody().getOps<TokensOp>()) {
      SmallVector<int32_t> storage;
      FailureOr<ArrayRef<int32_t>> array = tokens.getTokenArray(storage);
      ASSERT_TRUE(succeeded(array));
      flat.insert(flat.end(), array->begin(), array->end());
    }
    EXPECT_EQ(flat, expected) << "seed " << seed;
    EXPECT_LE(std::distance(trace.getBody().getOps<TokensOp>().begin(),
                            trace.getBody().getOps<TokensOp>().end()),
              1);
  }
}

} // namespace
