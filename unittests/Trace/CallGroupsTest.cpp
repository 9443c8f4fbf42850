//===- CallGroupsTest.cpp - Call-group folding is exact -------------------===//

#include "phaedrus/Trace/CallGroups.h"

#include <gtest/gtest.h>

#include <random>

using namespace mlir::phaedrus::trace;

namespace {

struct Folded {
  std::vector<uint32_t> tokens;
  uint64_t dropped = 0;
};

/// Folds `trace` in pieces of `piece` tokens, expands the result, and checks
/// the expansion is `trace` again.
Folded foldAndCheck(const CallGroupTable &table,
                    const std::vector<uint32_t> &trace, size_t piece = 7) {
  CallGroupFolder folder(table);
  for (size_t i = 0; i < trace.size(); i += piece)
    folder.analyze(trace.data() + i, std::min(piece, trace.size() - i));
  folder.finishAnalysis();
  Folded result;
  for (size_t i = 0; i < trace.size(); i += piece)
    folder.rewrite(trace.data() + i, std::min(piece, trace.size() - i),
                   result.tokens);
  result.dropped = folder.numDropped();
  EXPECT_EQ(result.tokens.size() + result.dropped, trace.size());

  CallGroupExpander expander(table);
  std::vector<uint32_t> expanded;
  for (size_t i = 0; i < result.tokens.size(); i += piece)
    expander.push(result.tokens.data() + i,
                  std::min(piece, result.tokens.size() - i), expanded);
  expander.finish(expanded);
  EXPECT_EQ(expanded, trace);

  StreamDigest digest;
  for (uint32_t token : expanded)
    digest.add(token);
  EXPECT_TRUE(digest == folder.sourceDigest());
  return result;
}

// Functions: 0 main, 1 f, 2 g, 3 h. Tokens:
//   0 function main, 1 function h (indirect entry),
//   2 main->f, 3 main->g, 4 main->h   (group 0: 2, 3, 4)
//   5 f->g, 6 f->main                (no group)
//   7 path token (other)
//   8 = group 0 members 2..3, 9 = group 0 members 2..4
CallGroupTable smallTable() {
  CallGroupTable table(10);
  table.setEntry(0, 0);
  table.setEntry(1, 3);
  table.setCall(2, 0, 1);
  table.setCall(3, 0, 2);
  table.setCall(4, 0, 3);
  table.setCall(5, 1, 2);
  table.setCall(6, 1, 0);
  std::string error;
  EXPECT_EQ(table.addGroup({2, 3, 4}, error), 0u) << error;
  EXPECT_TRUE(table.setGroupToken(8, 0, 2, error)) << error;
  EXPECT_TRUE(table.setGroupToken(9, 0, 3, error)) << error;
  return table;
}

TEST(CallGroupsTest, AdjacentMembersFold) {
  CallGroupTable table = smallTable();
  Folded folded = foldAndCheck(table, {0, 2, 3, 4});
  EXPECT_EQ(folded.tokens, (std::vector<uint32_t>{0, 9}));
}

TEST(CallGroupsTest, MembersAfterACalleeSubtreeFold) {
  CallGroupTable table = smallTable();
  // main calls f, f calls g, then main calls g and h.
  Folded folded = foldAndCheck(table, {0, 2, 5, 3, 4});
  EXPECT_EQ(folded.tokens, (std::vector<uint32_t>{0, 9, 5}));
}

TEST(CallGroupsTest, AMemberThatDoesNotFollowEndsTheOccurrence) {
  CallGroupTable table = smallTable();
  // f never returned to main normally (longjmp): main's next call is h
  // from a new group occurrence... only f->g follows; g is not called.
  Folded folded = foldAndCheck(table, {0, 2, 5, 2, 3});
  EXPECT_EQ(folded.tokens, (std::vector<uint32_t>{0, 2, 5, 8}));
}

TEST(CallGroupsTest, AmbiguousRecursionStaysAsItIs) {
  CallGroupTable table = smallTable();
  // main -> f -> main (recursion) -> ... then main -> g: the greedy reading
  // gives g to the inner main, so the outer occurrence does not continue.
  std::vector<uint32_t> trace = {0, 2, 6, 3, 4};
  Folded folded = foldAndCheck(table, trace);
  EXPECT_EQ(folded.tokens.size() + folded.dropped, trace.size());
}

TEST(CallGroupsTest, AnIndirectEntryAfterTheSubtreeKeepsTheMember) {
  CallGroupTable table = smallTable();
  // After main -> g, an indirect entry: the expander could not tell where g
  // went, so it is kept.
  Folded folded = foldAndCheck(table, {0, 2, 3, 1, 7});
  EXPECT_EQ(folded.tokens, (std::vector<uint32_t>{0, 2, 3, 1, 7}));
}

TEST(CallGroupsTest, TableRefusesBadGroups) {
  CallGroupTable table = smallTable();
  std::string error;
  EXPECT_EQ(table.addGroup({5}, error), CallGroupTable::kNone);
  EXPECT_NE(error.find("2 to"), std::string::npos);
  EXPECT_EQ(table.addGroup({5, 3}, error), CallGroupTable::kNone);
  EXPECT_NE(error.find("another function"), std::string::npos);
  EXPECT_EQ(table.addGroup({5, 0}, error), CallGroupTable::kNone);
  EXPECT_NE(error.find("not a call site"), std::string::npos);
  EXPECT_EQ(table.addGroup({3, 4}, error), CallGroupTable::kNone);
  EXPECT_NE(error.find("two groups"), std::string::npos);
  EXPECT_FALSE(table.setGroupToken(7, 0, 4, error));
  EXPECT_FALSE(table.setGroupToken(7, 0, 2, error));
}

/// A random program: every function has a body of statements (a group of
/// call sites, one call site, an indirect call, a path token), run as a
/// real call tree, with loops, recursion, and callees that longjmp to an
/// ancestor or exit.
struct RandomProgram {
  struct Statement {
    std::vector<uint32_t> sites; // call-site tokens, run in order
    uint32_t indirect = CallGroupTable::kNone; // entry token
    uint32_t other = CallGroupTable::kNone;
  };
  std::vector<std::vector<Statement>> bodies;
  std::vector<uint32_t> calleeOf; // token -> callee function
  CallGroupTable table{0};
  uint32_t numCallTokens = 0;

  RandomProgram(std::mt19937 &rng, uint32_t numFunctions) {
    bodies.resize(numFunctions);
    struct Site { uint32_t caller, callee; };
    std::vector<Site> sites;
    std::vector<std::vector<uint32_t>> groups;
    std::vector<std::pair<uint32_t, uint32_t>> entries; // token, callee
    uint32_t next = numFunctions; // tokens 0..n-1: entries of each function
    for (uint32_t f = 0; f < numFunctions; ++f)
      entries.push_back({f, f});
    for (uint32_t f = 0; f < numFunctions; ++f) {
      unsigned statements = 1 + rng() % 5;
      for (unsigned s = 0; s < statements; ++s) {
        Statement statement;
        unsigned kind = rng() % 8;
        unsigned numSites = kind < 4 ? 2 + rng() % 3 : kind < 6 ? 1 : 0;
        for (unsigned i = 0; i < numSites; ++i) {
          statement.sites.push_back(next++);
          sites.push_back({f, static_cast<uint32_t>(rng() % numFunctions)});
        }
        if (numSites >= 2)
          groups.push_back(statement.sites);
        if (kind == 6)
          statement.indirect = static_cast<uint32_t>(rng() % numFunctions);
        if (kind == 7)
          statement.other = 0; // patched below
        bodies[f].push_back(statement);
      }
    }
    uint32_t otherToken = next++;
    size_t groupTokens = 0;
    for (const auto &group : groups)
      groupTokens += group.size() - 1;
    table = CallGroupTable(next + groupTokens);
    calleeOf.assign(next, 0);
    for (auto [token, callee] : entries) {
      table.setEntry(token, callee);
      calleeOf[token] = callee;
    }
    for (size_t i = 0; i < sites.size(); ++i) {
      uint32_t token = numFunctions + static_cast<uint32_t>(i);
      table.setCall(token, sites[i].caller, sites[i].callee);
      calleeOf[token] = sites[i].callee;
    }
    std::string error;
    uint32_t groupToken = next;
    for (const auto &members : groups) {
      uint32_t group = table.addGroup(members, error);
      EXPECT_NE(group, CallGroupTable::kNone) << error;
      for (uint32_t length = 2; length <= members.size(); ++length)
        EXPECT_TRUE(table.setGroupToken(groupToken++, group, length, error));
    }
    for (auto &body : bodies)
      for (Statement &statement : body)
        if (statement.other == 0)
          statement.other = otherToken;
  }

  /// Runs function 0; at most `budget` tokens.
  std::vector<uint32_t> run(std::mt19937 &rng, unsigned budget,
                            unsigned unwindPercent) {
    std::vector<uint32_t> trace = {0};
    unwindTo = SIZE_MAX;
    exited = false;
    execute(0, 1, rng, trace, budget, unwindPercent);
    return trace;
  }

private:
  size_t unwindTo = SIZE_MAX;
  bool exited = false;

  bool stopped(size_t depth) const {
    return exited || unwindTo < depth;
  }

  void enter(uint32_t token, size_t depth, std::mt19937 &rng,
             std::vector<uint32_t> &trace, unsigned budget,
             unsigned unwindPercent) {
    trace.push_back(token);
    execute(calleeOf[token], depth + 1, rng, trace, budget, unwindPercent);
    if (unwindTo == depth)
      unwindTo = SIZE_MAX; // setjmp returned here again
  }

  void execute(uint32_t function, size_t depth, std::mt19937 &rng,
               std::vector<uint32_t> &trace, unsigned budget,
               unsigned unwindPercent) {
    if (depth > 12)
      return;
    for (const Statement &statement : bodies[function]) {
      unsigned times = rng() % 4 == 0 ? rng() % 4 : 1; // a branch or loop
      for (unsigned t = 0; t < times; ++t) {
        for (uint32_t site : statement.sites) {
          if (stopped(depth) || trace.size() >= budget)
            return;
          enter(site, depth, rng, trace, budget, unwindPercent);
        }
        if (stopped(depth) || trace.size() >= budget)
          return;
        if (statement.indirect != CallGroupTable::kNone)
          enter(statement.indirect, depth, rng, trace, budget, unwindPercent);
        if (statement.other != CallGroupTable::kNone)
          trace.push_back(statement.other);
      }
      if (rng() % 100 < unwindPercent) {
        if (rng() % 8 == 0)
          exited = true;
        else
          unwindTo = rng() % depth;
        return;
      }
    }
  }
};

TEST(CallGroupsTest, GeneratedRunsFoldExactly) {
  std::mt19937 rng(20261121);
  uint64_t dropped = 0, total = 0;
  for (unsigned program = 0; program < 60; ++program) {
    RandomProgram generated(rng, 2 + rng() % 7);
    for (unsigned run = 0; run < 4; ++run) {
      std::vector<uint32_t> trace =
          generated.run(rng, 50 + rng() % 3000, run == 0 ? 0 : 3);
      Folded folded = foldAndCheck(generated.table, trace, 1 + rng() % 64);
      dropped += folded.dropped;
      total += trace.size();
    }
  }
  // Groups are a third of the statements, so plenty of tokens fold.
  EXPECT_GT(dropped * 10, total) << dropped << " of " << total;
}

TEST(CallGroupsTest, ArbitraryStreamsFoldExactly) {
  // Token streams that no program could make still round-trip.
  std::mt19937 rng(7);
  for (unsigned program = 0; program < 40; ++program) {
    RandomProgram generated(rng, 2 + rng() % 5);
    uint32_t alphabet = static_cast<uint32_t>(generated.calleeOf.size());
    for (unsigned run = 0; run < 5; ++run) {
      std::vector<uint32_t> trace(rng() % 400);
      for (uint32_t &token : trace)
        token = rng() % alphabet;
      foldAndCheck(generated.table, trace, 1 + rng() % 16);
    }
  }
}

} // namespace
