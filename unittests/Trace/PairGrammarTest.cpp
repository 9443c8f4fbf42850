//===- PairGrammarTest.cpp - Pair grammars are lossless and compress -----===//

#include "phaedrus/Trace/PairGrammar.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir::phaedrus::trace;

namespace {

std::vector<uint32_t> expandAll(const PairGrammar &g, size_t i) {
  std::vector<uint32_t> out;
  for (uint32_t s : g.sequences[i])
    g.expand(s, out);
  return out;
}

TEST(PairGrammarTest, RepeatedPhraseBecomesRules) {
  std::vector<uint32_t> seq;
  for (int i = 0; i < 100; ++i)
    seq.insert(seq.end(), {1, 2, 3, 4, static_cast<uint32_t>(5 + i % 2)});
  PairGrammar g = buildPairGrammar({seq}, /*firstRule=*/10);
  EXPECT_EQ(expandAll(g, 0), seq);
  EXPECT_LT(g.sequences[0].size() + 2 * g.rules.size(), seq.size() / 10);
  for (const auto &rule : g.rules)
    for (uint32_t s : rule)
      EXPECT_LT(s, g.firstRule + g.rules.size());
}

TEST(PairGrammarTest, RulesAreSharedAcrossSequences) {
  std::vector<uint32_t> a, b;
  for (int i = 0; i < 50; ++i) {
    a.insert(a.end(), {7, 8, 9});
    b.insert(b.end(), {7, 8, 9, 1});
  }
  PairGrammar g = buildPairGrammar({a, b}, 10);
  EXPECT_EQ(expandAll(g, 0), a);
  EXPECT_EQ(expandAll(g, 1), b);
}

TEST(PairGrammarTest, NothingToShareLeavesTheSequence) {
  std::vector<uint32_t> seq = {1, 2, 3, 4, 5, 6};
  PairGrammar g = buildPairGrammar({seq}, 10);
  EXPECT_TRUE(g.rules.empty());
  EXPECT_EQ(g.sequences[0], seq);
}

// Property: lossless on random sequences with planted phrases, runs and
// noise, for any threshold; rules only reference earlier symbols.
TEST(PairGrammarTest, LosslessOnRandomSequences) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::vector<uint32_t>> phrases(rng() % 5 + 1);
    for (auto &p : phrases) {
      p.resize(rng() % 6 + 1);
      for (uint32_t &t : p)
        t = rng() % 6;
    }
    std::vector<std::vector<uint32_t>> seqs(rng() % 3 + 1);
    for (auto &s : seqs) {
      int pieces = rng() % 60;
      for (int i = 0; i < pieces; ++i) {
        if (rng() % 4 == 0)
          s.push_back(rng() % 6);
        else {
          auto &p = phrases[rng() % phrases.size()];
          s.insert(s.end(), p.begin(), p.end());
        }
      }
    }
    unsigned minCount = rng() % 4 + 2;
    PairGrammar g = buildPairGrammar(seqs, 6, minCount);
    for (size_t i = 0; i < seqs.size(); ++i)
      ASSERT_EQ(expandAll(g, i), seqs[i]) << "trial " << trial;
    for (size_t r = 0; r < g.rules.size(); ++r)
      for (uint32_t s : g.rules[r])
        EXPECT_LT(s, g.firstRule + r) << "rule " << r << " uses a later rule";
  }
}

} // namespace
