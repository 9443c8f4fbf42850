//===- AugmentTest.cpp - Call-tree legality, splicing, leaves, buckets ----===//

#include "phaedrus/Trace/Augment.h"

#include "gtest/gtest.h"

#include <random>

using namespace mlir::phaedrus;
using namespace mlir::phaedrus::trace;
using Verdict = CallTreeReader::Verdict;

namespace {

/// A random program with path tokens: function f has call sites to random
/// callees and two path tokens; runs are real call trees (loops, calls that
/// are sometimes skipped), recorded as path-granularity traces are: a call
/// site token at each call, a path token of the caller after it returns
/// and at the end.
struct PathProgram {
  uint32_t numFunctions;
  std::vector<std::vector<uint32_t>> sites; // per function: call-site tokens
  std::vector<uint32_t> callee;             // per token
  std::vector<uint32_t> firstPath;          // per function: 2 path tokens
  CallGroupTable table{0};

  PathProgram(std::mt19937 &rng, uint32_t n) : numFunctions(n), sites(n) {
    // Tokens: 0..n-1 function entries, then call sites, then paths.
    uint32_t next = n;
    std::vector<std::pair<uint32_t, uint32_t>> callSites; // caller, callee
    for (uint32_t f = 0; f < n; ++f)
      for (unsigned i = 0, k = rng() % 4; i < k; ++i) {
        sites[f].push_back(next++);
        callSites.push_back({f, static_cast<uint32_t>(rng() % n)});
      }
    for (uint32_t f = 0; f < n; ++f) {
      firstPath.push_back(next);
      next += 2;
    }
    table = CallGroupTable(next);
    callee.assign(next, 0);
    for (uint32_t f = 0; f < n; ++f) {
      table.setEntry(f, f);
      callee[f] = f;
      table.setPath(firstPath[f], f);
      table.setPath(firstPath[f] + 1, f);
    }
    for (size_t i = 0; i < callSites.size(); ++i) {
      table.setCall(n + i, callSites[i].first, callSites[i].second);
      callee[n + i] = callSites[i].second;
    }
  }

  std::vector<uint32_t> run(std::mt19937 &rng, size_t budget) {
    std::vector<uint32_t> out = {0};
    execute(0, 0, rng, out, budget);
    return out;
  }

  void execute(uint32_t f, unsigned depth, std::mt19937 &rng,
               std::vector<uint32_t> &out, size_t budget) {
    for (uint32_t site : sites[f]) {
      unsigned times = rng() % 3 == 0 ? rng() % 5 : 1;
      for (unsigned t = 0; t < times && out.size() < budget && depth < 10; ++t) {
        out.push_back(site);
        execute(callee[site], depth + 1, rng, out, budget);
        out.push_back(firstPath[f] + rng() % 2);
      }
    }
    out.push_back(firstPath[f] + rng() % 2);
  }
};

std::vector<Verdict> readAll(const CallGroupTable &table,
                             const std::vector<uint32_t> &stream,
                             std::vector<bool> enterable) {
  CallTreeReader reader(table, std::move(enterable));
  std::vector<Verdict> verdicts;
  for (uint32_t token : stream)
    verdicts.push_back(reader.read(token));
  return verdicts;
}

bool legal(const CallGroupTable &table, const std::vector<uint32_t> &stream,
           std::vector<bool> enterable) {
  for (Verdict v : readAll(table, stream, std::move(enterable)))
    if (v != Verdict::Legal)
      return false;
  return true;
}

/// main (0) calls f (1) at site 3 and g (2) at site 4; f calls g at site 5;
/// path tokens 6 (main), 7 (f), 8 (g); token 9 means nothing; 10 is a group.
CallGroupTable smallTable() {
  CallGroupTable table(11);
  for (uint32_t f = 0; f < 3; ++f)
    table.setEntry(f, f);
  table.setCall(3, 0, 1);
  table.setCall(4, 0, 2);
  table.setCall(5, 1, 2);
  table.setPath(6, 0);
  table.setPath(7, 1);
  table.setPath(8, 2);
  std::string error;
  uint32_t group = table.addGroup({3, 4}, error);
  EXPECT_TRUE(table.setGroupToken(10, group, 2, error)) << error;
  return table;
}

TEST(AugmentTest, ReaderFindsWhatBreaksTheCallGraph) {
  CallGroupTable table = smallTable();
  std::vector<bool> all(3, true);
  // main, f, g from f, back in f, g from main, main's path.
  EXPECT_TRUE(legal(table, {0, 3, 5, 8, 7, 4, 8, 6, 9}, all));
  // A call from f when f is not running (g was entered from main).
  EXPECT_EQ(readAll(table, {0, 4, 5}, all)[2], Verdict::NoFrame);
  // A path of f when f is not running.
  EXPECT_EQ(readAll(table, {0, 4, 7}, all)[2], Verdict::NoFrame);
  // Before anything runs, a call site has no caller.
  EXPECT_EQ(readAll(table, {3}, all)[0], Verdict::NoFrame);
  // f may only be entered from its call sites.
  EXPECT_EQ(readAll(table, {0, 1}, {true, false, true})[1], Verdict::NotEnterable);
  EXPECT_EQ(readAll(table, {0, 10}, all)[1], Verdict::GroupToken);
  EXPECT_EQ(readAll(table, {0, 11}, all)[1], Verdict::Unknown);
  // Returns are not recorded: a call from main pops f and g.
  EXPECT_TRUE(legal(table, {0, 3, 5, 4, 3, 5, 8, 7, 6}, all));

  std::vector<std::string> names = {"main", "f", "g"};
  EXPECT_EQ(CallTreeReader::explain(table, Verdict::NoFrame, 5, names),
            "token 5 (a call from @f) comes when @f is not running");
  EXPECT_EQ(CallTreeReader::explain(table, Verdict::NoFrame, 7, names),
            "token 7 (a path of @f) comes when @f is not running");
  EXPECT_EQ(CallTreeReader::explain(table, Verdict::NotEnterable, 1, names),
            "token 1 enters @f from an unknown site, but only its direct call "
            "sites call it");
}

TEST(AugmentTest, ContextsNameTheOpenFrames) {
  CallGroupTable table = smallTable();
  CallTreeReader a(table, {true, true, true}), b(table, {true, true, true});
  for (uint32_t token : {0, 3, 5, 8, 7})
    a.read(token);
  for (uint32_t token : {0, 4, 8, 3})
    b.read(token);
  // Both have main, then f entered from site 3, open.
  EXPECT_EQ(a.context(), b.context());
  a.read(5);
  b.read(4);
  EXPECT_NE(a.context(), b.context()); // g from f, g from main
}

TEST(AugmentTest, FactsCountTokensAndFindLeaves) {
  CallGroupTable table = smallTable();
  StreamFacts facts(table, {true, true, true}, 7);
  std::vector<uint32_t> stream = {0, 3, 5, 8, 7, 4, 8, 6};
  facts.push(stream.data(), stream.size());
  facts.finish();
  EXPECT_EQ(facts.firstIllegal(), Verdict::Legal);
  EXPECT_EQ(facts.length(), stream.size());
  EXPECT_EQ(facts.counts()[8], 2u);
  EXPECT_TRUE(facts.hasChild(3));  // f called g
  EXPECT_FALSE(facts.hasChild(4)); // g from main ran only its path
  EXPECT_FALSE(facts.hasChild(5));
  EXPECT_EQ(facts.contexts().size(), 4u); // main, f, g in f, g in main

  StreamFacts broken(table, {true, true, true}, 7);
  std::vector<uint32_t> bad = {0, 4, 5};
  broken.push(bad.data(), bad.size());
  EXPECT_EQ(broken.firstIllegal(), Verdict::NoFrame);
  EXPECT_EQ(broken.firstIllegalAt(), 2u);
  EXPECT_EQ(broken.firstIllegalToken(), 5u);
}

TEST(AugmentTest, DroppingALeafTakesItsCalleesPaths) {
  CallGroupTable table = smallTable();
  std::vector<bool> dropped(table.size(), false);
  dropped[4] = true; // g from main
  LeafDropper dropper(table, dropped);
  std::vector<uint32_t> stream = {0, 3, 5, 8, 7, 4, 8, 8, 6}, out;
  dropper.push(stream.data(), stream.size(), out);
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 3, 5, 8, 7, 6}));
  EXPECT_EQ(dropper.numDropped(), 3u);
}

TEST(AugmentTest, GeneratedRunsSpliceAndDropLegally) {
  std::mt19937 rng(20261121);
  unsigned splices = 0, drops = 0;
  for (unsigned p = 0; p < 80; ++p) {
    PathProgram program(rng, 2 + rng() % 6);
    std::vector<bool> all(program.numFunctions, true);
    std::vector<uint32_t> a = program.run(rng, 50 + rng() % 2000);
    std::vector<uint32_t> b = program.run(rng, 50 + rng() % 2000);
    ASSERT_TRUE(legal(program.table, a, all));
    StreamFacts fa(program.table, all, p), fb(program.table, all, p + 1);
    fa.push(a.data(), a.size());
    fb.push(b.data(), b.size());
    fa.finish();
    fb.finish();
    ASSERT_EQ(fa.firstIllegal(), Verdict::Legal);
    for (const auto &[context, cut] : fa.contexts()) {
      auto it = fb.contexts().find(context);
      if (it == fb.contexts().end())
        continue;
      std::vector<uint32_t> spliced(a.begin(), a.begin() + cut);
      spliced.insert(spliced.end(), b.begin() + it->second, b.end());
      EXPECT_EQ(a[cut], b[it->second]); // the same call, in the same context
      EXPECT_TRUE(legal(program.table, spliced, all)) << "program " << p;
      ++splices;
    }
    // Drop every leaf call site.
    std::vector<bool> dropped(program.table.size(), false);
    for (uint32_t token = 0; token < program.table.size(); ++token)
      if (program.table[token].kind == CallGroupTable::Kind::Call &&
          fa.counts()[token] && !fa.hasChild(token))
        dropped[token] = true;
    LeafDropper dropper(program.table, dropped);
    std::vector<uint32_t> out;
    dropper.push(a.data(), a.size(), out);
    EXPECT_TRUE(legal(program.table, out, all)) << "program " << p;
    for (uint32_t token : out)
      EXPECT_FALSE(dropped[token]);
    drops += dropper.numDropped() != 0;
  }
  EXPECT_GT(splices, 200u);
  EXPECT_GT(drops, 20u);
}

TEST(AugmentTest, BucketsAreTheModelsAndResamplingStaysNearby) {
  CountBuckets buckets(4);
  EXPECT_EQ(buckets.bucket(1), 0u);
  EXPECT_EQ(buckets.bucket(2), 4u);
  EXPECT_EQ(buckets.bucket(3), 6u);
  EXPECT_EQ(buckets.bucket(100), 26u); // floor(4 * 6.64)
  EXPECT_GT(buckets.lowest(1), buckets.highest(1)); // (1.19, 1.41): empty
  for (unsigned b = 0; b < 200; ++b) {
    if (buckets.lowest(b) > buckets.highest(b))
      continue;
    EXPECT_EQ(buckets.bucket(buckets.lowest(b)), b);
    EXPECT_EQ(buckets.bucket(buckets.highest(b)), b);
    if (b > 0)
      EXPECT_LT(buckets.bucket(buckets.lowest(b) - 1), b);
  }
  SplitMix64 rng{1};
  for (uint64_t count : {1ull, 2ull, 3ull, 100ull, 12345ull, 1ull << 40}) {
    for (unsigned spread : {0u, 1u, 3u}) {
      for (int i = 0; i < 200; ++i) {
        uint64_t r = buckets.resample(count, spread, rng);
        ASSERT_GE(r, 1u);
        unsigned from = buckets.bucket(count), to = buckets.bucket(r);
        EXPECT_LE(to > from ? to - from : from - to, spread)
            << count << " -> " << r;
      }
    }
  }
  // The largest counts stay in range.
  uint64_t big = buckets.resample(UINT64_MAX - 5, 1, rng);
  EXPECT_GE(big, 1u);
  // A spread near 2^32 reaches every bucket, above the count's too (b +
  // spread wrapped, and only smaller counts were drawn).
  bool above = false;
  for (int i = 0; i < 200; ++i)
    above |= buckets.resample(100, UINT32_MAX, rng) > 100;
  EXPECT_TRUE(above);
}

} // namespace
