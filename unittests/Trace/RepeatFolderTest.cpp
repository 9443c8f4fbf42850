//===- RepeatFolderTest.cpp - Folding is lossless and finds repeats -------===//

#include "phaedrus/Trace/RepeatFolder.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

using namespace mlir::phaedrus::trace;

namespace {

/// Folds `tokens`; checks that the folder's own expansion is exact.
RepeatFolder fold(const std::vector<uint32_t> &tokens, unsigned maxPeriod = 8,
                  unsigned longPeriod = RepeatFolder::kDefaultLongPeriod) {
  RepeatFolder folder(maxPeriod, longPeriod);
  folder.push(tokens.data(), tokens.size());
  folder.finish();
  EXPECT_EQ(folder.size(), tokens.size());
  return folder;
}

std::vector<uint32_t> expand(const RepeatFolder &folder) {
  std::vector<uint32_t> out;
  folder.expand(folder.items(), out);
  return out;
}

/// Independent expansion, not through RepeatFolder::expand.
void expandInto(const RepeatFolder &folder, RepeatFolder::Items items,
                std::vector<uint32_t> &out) {
  for (const RepeatFolder::Item &item : items) {
    if (item.isToken()) {
      out.push_back(item.token);
      continue;
    }
    for (uint64_t i = 0; i < item.count; ++i)
      expandInto(folder, folder.body(item.body), out);
  }
}

TEST(RepeatFolderTest, RunOfOneToken) {
  RepeatFolder folder = fold(std::vector<uint32_t>(1000, 7));
  auto items = folder.items();
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].count, 1000u);
  ASSERT_EQ(folder.body(items[0].body).size(), 1u);
  EXPECT_EQ(folder.body(items[0].body)[0].token, 7u);
}

TEST(RepeatFolderTest, PeriodicBlockWithPrefixAndSuffix) {
  std::vector<uint32_t> tokens = {1, 2};
  for (int i = 0; i < 50; ++i)
    tokens.insert(tokens.end(), {3, 4, 5});
  tokens.insert(tokens.end(), {3, 4, 9});
  RepeatFolder folder = fold(tokens);
  auto items = folder.items();
  ASSERT_EQ(items.size(), 6u); // 1 2 repeat(3 4 5)x50 3 4 9
  EXPECT_EQ(items[2].count, 50u);
  EXPECT_EQ(folder.body(items[2].body).size(), 3u);
  EXPECT_EQ(expand(folder), tokens);
}

// A block longer than maxPeriod folds by the long-period rule when it has
// kMinLongPeriod items or more and occurs kLongOccurrences times in a row,
// and stays literal without the rule, or past longPeriod.
TEST(RepeatFolderTest, BlocksLongerThanMaxPeriodFoldByTheLongRule) {
  for (uint32_t length : {10u, 32u, 40u}) {
    for (int times : {2, 3, 4}) {
      std::vector<uint32_t> tokens;
      for (int i = 0; i < times; ++i)
        for (uint32_t t = 0; t < length; ++t)
          tokens.push_back(t);
      EXPECT_EQ(fold(tokens, 8, /*longPeriod=*/0).items().size(),
                tokens.size());
      EXPECT_EQ(fold(tokens, 8, /*longPeriod=*/length - 1).items().size(),
                tokens.size());
      bool folds = length >= RepeatFolder::kMinLongPeriod &&
                   times >= int(RepeatFolder::kLongOccurrences);
      for (unsigned longPeriod : {length, RepeatFolder::kDefaultLongPeriod}) {
        RepeatFolder longer = fold(tokens, 8, longPeriod);
        if (!folds) {
          EXPECT_EQ(longer.items().size(), tokens.size());
          continue;
        }
        ASSERT_EQ(longer.items().size(), 1u) << length << " x " << times;
        EXPECT_EQ(longer.items()[0].count, uint64_t(times));
        EXPECT_EQ(longer.body(longer.items()[0].body).size(), length);
      }
    }
  }
  // A maxPeriod that covers the block folds it by the exhaustive rule.
  std::vector<uint32_t> tokens;
  for (int i = 0; i < 2; ++i)
    for (uint32_t t = 0; t < 10; ++t)
      tokens.push_back(t);
  EXPECT_EQ(fold(tokens, 10, 0).items().size(), 1u);
}

TEST(RepeatFolderTest, EmptyStream) { EXPECT_TRUE(fold({}).items().empty()); }

// Property: expanding the folded items gives back any stream exactly, for
// streams with runs, nested periodicity, and noise.
TEST(RepeatFolderTest, LosslessOnRandomStreams) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<uint32_t> tokens;
    int pieces = rng() % 30;
    for (int p = 0; p < pieces; ++p) {
      std::vector<uint32_t> block(rng() % 6 + 1);
      for (uint32_t &t : block)
        t = rng() % 4;
      int repeats = rng() % 3 == 0 ? rng() % 50 + 1 : 1;
      for (int r = 0; r < repeats; ++r)
        tokens.insert(tokens.end(), block.begin(), block.end());
    }
    unsigned maxPeriod = rng() % 10 + 1;
    unsigned longPeriod = trial % 2 ? 0 : RepeatFolder::kDefaultLongPeriod;
    RepeatFolder folder = fold(tokens, maxPeriod, longPeriod);
    std::vector<uint32_t> out;
    expandInto(folder, folder.items(), out);
    ASSERT_EQ(out, tokens) << "trial " << trial;
    for (const RepeatFolder::Item &item : folder.items())
      if (!item.isToken()) {
        EXPECT_GE(item.count, 2u);
        EXPECT_LE(folder.body(item.body).size(),
                  std::max(maxPeriod, longPeriod));
      }
  }
}

/// The folding rule written plainly (no sealing, nothing kept but text): an
/// open repeat before the last p items absorbs them, else the last p items
/// equal to the p before them become a repeat, the smallest p first; until
/// nothing changes. Items print as tokens and (body)xcount.
std::string referenceFold(const std::vector<uint32_t> &tokens,
                          unsigned maxPeriod) {
  struct Item {
    std::string text; // canonical form of a token or a repeat's body
    uint64_t count = 0; // 0 for a token
    bool operator==(const Item &o) const {
      return text == o.text && count == o.count;
    }
  };
  auto bodyText = [](const std::vector<Item> &items) {
    std::string s;
    for (const Item &item : items)
      s += item.count ? "(" + item.text + ")x" + std::to_string(item.count) + " "
                      : item.text + " ";
    return s;
  };
  std::vector<Item> out;
  std::map<std::string, size_t> bodySize;
  for (uint32_t token : tokens) {
    out.push_back({std::to_string(token), 0});
    for (bool changed = true; changed;) {
      changed = false;
      size_t n = out.size();
      for (size_t p = 1; p <= maxPeriod && p + 1 <= n && !changed; ++p) {
        Item &repeat = out[n - 1 - p];
        std::vector<Item> tail(out.end() - p, out.end());
        if (repeat.count && bodySize[repeat.text] == p &&
            bodyText(tail) == repeat.text) {
          ++repeat.count;
          out.resize(n - p);
          changed = true;
        }
      }
      for (size_t p = 1; p <= maxPeriod && 2 * p <= n && !changed; ++p) {
        if (std::equal(out.end() - p, out.end(), out.end() - 2 * p)) {
          std::vector<Item> body(out.end() - p, out.end());
          std::string text = bodyText(body);
          bodySize[text] = p;
          out.resize(n - 2 * p);
          out.push_back({text, 2});
          changed = true;
        }
      }
    }
  }
  return bodyText(out);
}

std::string canonical(const RepeatFolder &folder,
                      RepeatFolder::Items items) {
  std::string s;
  for (const RepeatFolder::Item &item : items)
    s += item.isToken() ? std::to_string(item.token) + " "
                        : "(" + canonical(folder, folder.body(item.body)) +
                              ")x" + std::to_string(item.count) + " ";
  return s;
}

// The folder makes what the rule written plainly makes, for short periods
// and for periods past 64 (without the long-period rule, which the plain
// rule does not have).
TEST(RepeatFolderTest, FoldsAsTheRuleWrittenPlainly) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<uint32_t> tokens;
    int pieces = rng() % 12;
    bool longBlocks = trial % 3 == 0;
    for (int p = 0; p < pieces; ++p) {
      // (Long blocks of many tokens: few squares inside them, so that
      // periods past 64 occur.)
      std::vector<uint32_t> block(longBlocks ? 62 + rng() % 6 : rng() % 6 + 1);
      for (uint32_t &t : block)
        t = rng() % (longBlocks ? 1000 : 4);
      int repeats = rng() % 2 == 0 ? rng() % 5 + 1 : 1;
      for (int r = 0; r < repeats; ++r)
        tokens.insert(tokens.end(), block.begin(), block.end());
    }
    unsigned maxPeriod = longBlocks ? 60 + rng() % 40 : rng() % 10 + 1;
    RepeatFolder folder = fold(tokens, maxPeriod, /*longPeriod=*/0);
    ASSERT_EQ(canonical(folder, folder.items()),
              referenceFold(tokens, maxPeriod))
        << "trial " << trial << ", max period " << maxPeriod;
  }
}

// Folding shrinks what loops produce: a loop body that itself repeats a
// call (1 2 2), run 10^5 times, becomes a repeat of a body holding a repeat.
TEST(RepeatFolderTest, NestedLoopsFoldToNestedRepeats) {
  std::vector<uint32_t> tokens = {0};
  for (int i = 0; i < 100000; ++i)
    tokens.insert(tokens.end(), {1, 2, 2});
  tokens.push_back(3);
  RepeatFolder folder = fold(tokens);
  auto items = folder.items();
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[1].count, 100000u);
  const auto &body = folder.body(items[1].body);
  ASSERT_EQ(body.size(), 2u); // 1, repeat(2)x2
  EXPECT_EQ(body[1].count, 2u);
  EXPECT_EQ(expand(folder), tokens);
}

} // namespace

namespace {
// Runs pushed whole (path runs) expand like the same tokens pushed one by
// one, and join neighbouring runs of the same token.
TEST(RepeatFolderTest, PushRunEqualsRepeatedPush) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    RepeatFolder folder;
    std::vector<uint32_t> expected;
    int pieces = rng() % 20;
    for (int p = 0; p < pieces; ++p) {
      uint32_t token = rng() % 3;
      uint64_t count = rng() % 4 == 0 ? rng() % 1000 + 1 : rng() % 3 + 1;
      if (rng() % 2)
        folder.pushRun(token, count);
      else
        for (uint64_t i = 0; i < count; ++i)
          folder.push(token);
      expected.insert(expected.end(), count, token);
    }
    folder.finish();
    EXPECT_EQ(folder.size(), expected.size());
    std::vector<uint32_t> out;
    folder.expand(folder.items(), out);
    ASSERT_EQ(out, expected) << "trial " << trial;
  }
  RepeatFolder folder;
  folder.pushRun(5, 1000000000);
  folder.pushRun(5, 3);
  ASSERT_EQ(folder.items().size(), 1u);
  EXPECT_EQ(folder.items()[0].count, 1000000003u);
}
} // namespace

namespace {
// length() is the size of an item's expansion (what packing and IR emission
// decide by), expand() of one item appends exactly that, and a length past
// 2^64 - 1 saturates instead of wrapping.
TEST(RepeatFolderTest, LengthIsTheExpansionSize) {
  std::mt19937_64 rng(11);
  std::vector<uint32_t> tokens;
  for (int i = 0; i < 2000; ++i)
    tokens.push_back(rng() % 4 == 0 ? rng() % 5 : 1 + i % 3);
  RepeatFolder folder = fold(tokens);
  std::vector<uint32_t> out;
  uint64_t total = 0;
  for (const RepeatFolder::Item &item : folder.items()) {
    size_t before = out.size();
    folder.expand(item, out);
    EXPECT_EQ(folder.length(item), out.size() - before);
    total += folder.length(item);
  }
  EXPECT_EQ(total, tokens.size());
  EXPECT_EQ(out, tokens);

  RepeatFolder huge;
  huge.pushRun(1, uint64_t(1) << 62);
  huge.pushRun(2, uint64_t(1) << 62);
  huge.pushRun(1, uint64_t(1) << 62);
  huge.pushRun(2, uint64_t(1) << 62);
  huge.pushRun(1, uint64_t(1) << 62);
  huge.pushRun(2, uint64_t(1) << 62);
  uint64_t saturated = 0;
  for (const RepeatFolder::Item &item : huge.items())
    saturated = std::max(saturated, huge.length(item));
  EXPECT_EQ(saturated, UINT64_MAX);
}
} // namespace

namespace {

// With a sink, the folder hands on the items a folder without one keeps,
// in order, while it holds no more than two windows of them: memory stays
// bounded however long the stream.
TEST(RepeatFolderTest, SinkGetsTheKeptItemsInBoundedMemory) {
  std::mt19937 rng(20261124);
  for (int round = 0; round < 4; ++round) {
    // Loops of random bodies (periods 1 to 12, so some are too long to
    // fold) with runs between them: far more items than the window.
    std::vector<uint32_t> tokens;
    while (tokens.size() < 40 * RepeatFolder::kSealWindow) {
      std::vector<uint32_t> body(1 + rng() % 12);
      for (uint32_t &t : body)
        t = rng() % 40;
      for (uint32_t i = 0, n = 1 + rng() % 6; i < n; ++i)
        tokens.insert(tokens.end(), body.begin(), body.end());
      tokens.push_back(40 + rng() % 1000); // a token that rarely recurs
    }
    // (Both with the long-period rule: what it compares must not depend
    // on which sealed items a sink has taken.)
    RepeatFolder kept(8), streamed(8);
    std::vector<RepeatFolder::Item> handed;
    streamed.setSink(
        [&](const RepeatFolder::Item &item) { handed.push_back(item); });
    size_t most = 0;
    for (uint32_t t : tokens) {
      kept.push(t);
      streamed.push(t);
      most = std::max(most, streamed.items().size());
    }
    kept.finish();
    streamed.finish();
    ASSERT_GT(kept.items().size(), 4 * RepeatFolder::kSealWindow);
    EXPECT_EQ(handed, std::vector<RepeatFolder::Item>(kept.items().begin(),
                                                       kept.items().end()));
    EXPECT_TRUE(streamed.items().empty());
    EXPECT_LE(most, 2 * RepeatFolder::kSealWindow + 1);
    std::vector<uint32_t> out;
    streamed.expand(handed, out);
    EXPECT_EQ(out, tokens);
  }
}

TEST(RepeatFolderTest, CompactItemsGiveBackWhatTheyKeep) {
  // Every field at the edges of its varint lengths, tokens with the top
  // bit set (path marks), and folded items of a random stream.
  std::vector<RepeatFolder::Item> items;
  for (uint32_t v : {0u, 1u, 63u, 64u, 127u, 128u, 16383u, 16384u,
                     0x7fffffffu, 0x80000000u, 0xfffffffeu}) {
    RepeatFolder::Item token;
    token.token = v;
    items.push_back(token);
    RepeatFolder::Item repeat;
    repeat.body = v;
    for (uint64_t count :
         {uint64_t(2), uint64_t(v) + 2, uint64_t(1) << 35, UINT64_MAX}) {
      repeat.count = count;
      items.push_back(repeat);
    }
  }
  std::mt19937 rng(20261126);
  std::vector<uint32_t> tokens;
  for (int i = 0; i < 5000; ++i)
    tokens.push_back(rng() % 3 ? rng() % 5 : rng());
  RepeatFolder folder = fold(tokens);
  items.insert(items.end(), folder.items().begin(), folder.items().end());
  CompactItems compact;
  for (const RepeatFolder::Item &item : items)
    compact.push_back(item);
  EXPECT_EQ(compact.size(), items.size());
  std::vector<RepeatFolder::Item> back;
  compact.forEach([&](const RepeatFolder::Item &item) { back.push_back(item); });
  EXPECT_EQ(back, items);
  // Small tokens take a byte or two, not an Item's 16.
  CompactItems small;
  for (uint32_t t = 0; t < 1000; ++t) {
    RepeatFolder::Item token;
    token.token = t;
    small.push_back(token);
  }
  EXPECT_EQ(small.bytes(), 64 + 2 * 936u);
  small.clear();
  EXPECT_EQ(small.size(), 0u);
  small.forEach([](const RepeatFolder::Item &) { ADD_FAILURE(); });
}

} // namespace

namespace {

// An interpreter's loop: an iteration of hundreds of tokens that holds a
// run and a nested loop of its own, repeated many times, folds to a repeat
// of a body that holds a repeat, by the long-period rule (found by hash,
// not by trying every period).
TEST(RepeatFolderTest, LongLoopsWithNestedLoopsFold) {
  std::mt19937 rng(20261127);
  std::vector<uint32_t> inner(40), before(300), after(200);
  for (std::vector<uint32_t> *part : {&inner, &before, &after})
    for (uint32_t &t : *part)
      t = rng() % 100000;
  std::vector<uint32_t> iteration = before;
  iteration.insert(iteration.end(), 5, 7); // a run
  for (int i = 0; i < 6; ++i)
    iteration.insert(iteration.end(), inner.begin(), inner.end());
  iteration.insert(iteration.end(), after.begin(), after.end());
  std::vector<uint32_t> tokens = {1, 2, 3};
  for (int i = 0; i < 1000; ++i)
    tokens.insert(tokens.end(), iteration.begin(), iteration.end());
  tokens.push_back(4);
  RepeatFolder folder = fold(tokens);
  EXPECT_EQ(expand(folder), tokens);
  // 1 2 3, the loop, 4 (the loop may begin with a few items folding only
  // from the second iteration on).
  ASSERT_LE(folder.items().size(), 6u);
  uint64_t most = 0;
  const RepeatFolder::Item *loop = nullptr;
  for (const RepeatFolder::Item &item : folder.items())
    if (!item.isToken() && item.count > most)
      most = item.count, loop = &item;
  ASSERT_TRUE(loop);
  EXPECT_GE(most, 998u);
  // The body holds the nested loop as one repeat item, six times its body.
  bool nested = false;
  for (const RepeatFolder::Item &item : folder.body(loop->body))
    nested |= !item.isToken() && item.count == 6 &&
              folder.body(item.body).size() == inner.size();
  EXPECT_TRUE(nested);
  // Without the rule, nothing past the run folds.
  EXPECT_GT(fold(tokens, 8, 0).items().size(), 1000 * 500u);
}

// Property, long periods: streams of blocks of 9 to 300 tokens repeated
// and nested, pushed as tokens and as runs, expand exactly; a folder with a
// sink hands on what one without keeps; no body exceeds the long period.
TEST(RepeatFolderTest, LongPeriodsLosslessAndAlikeWithASink) {
  std::mt19937_64 rng(1127);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint32_t> tokens;
    auto block = [&](size_t length) {
      std::vector<uint32_t> b(length);
      for (uint32_t &t : b)
        t = rng() % 5 == 0 ? rng() % 4 : rng() % 500; // some short squares
      return b;
    };
    while (tokens.size() < 3 * RepeatFolder::kSealWindow) {
      std::vector<uint32_t> outer = block(9 + rng() % 300);
      if (rng() % 2) { // a nested loop inside
        std::vector<uint32_t> inner = block(9 + rng() % 40);
        std::vector<uint32_t> nested;
        for (uint64_t i = 0, n = 1 + rng() % 4; i < n; ++i)
          nested.insert(nested.end(), inner.begin(), inner.end());
        outer.insert(outer.begin() + rng() % outer.size(), nested.begin(),
                     nested.end());
      }
      for (uint64_t i = 0, n = 1 + rng() % 8; i < n; ++i) {
        tokens.insert(tokens.end(), outer.begin(), outer.end());
        if (rng() % 8 == 0) // a break in the loop
          tokens.push_back(rng() % 500);
      }
    }
    unsigned maxPeriod = 1 + rng() % 8;
    unsigned longPeriod =
        rng() % 3 ? RepeatFolder::kDefaultLongPeriod : 9 + rng() % 200;
    RepeatFolder kept(maxPeriod, longPeriod), streamed(maxPeriod, longPeriod);
    std::vector<RepeatFolder::Item> handed;
    streamed.setSink(
        [&](const RepeatFolder::Item &item) { handed.push_back(item); });
    for (size_t i = 0; i < tokens.size();) {
      size_t j = i;
      while (j < tokens.size() && tokens[j] == tokens[i])
        ++j;
      if (rng() % 2) {
        kept.pushRun(tokens[i], j - i);
        streamed.pushRun(tokens[i], j - i);
      } else {
        for (size_t k = i; k < j; ++k) {
          kept.push(tokens[k]);
          streamed.push(tokens[k]);
        }
      }
      i = j;
    }
    kept.finish();
    streamed.finish();
    ASSERT_EQ(handed, std::vector<RepeatFolder::Item>(kept.items().begin(),
                                                       kept.items().end()))
        << "trial " << trial;
    std::vector<uint32_t> out;
    expandInto(kept, kept.items(), out);
    ASSERT_EQ(out, tokens) << "trial " << trial;
    for (const RepeatFolder::Item &item : kept.items())
      if (!item.isToken())
        EXPECT_LE(kept.body(item.body).size(), std::max(maxPeriod, longPeriod));
  }
}

// A block longer than kMaxLongPeriod items never folds (its occurrences
// must fit the window that may still fold), and a larger longPeriod is
// clamped to it.
TEST(RepeatFolderTest, LongPeriodIsBoundedByTheWindow) {
  std::vector<uint32_t> block(RepeatFolder::kMaxLongPeriod + 1);
  for (uint32_t i = 0; i < block.size(); ++i)
    block[i] = 100 + i;
  std::vector<uint32_t> tokens;
  for (int i = 0; i < 3; ++i)
    tokens.insert(tokens.end(), block.begin(), block.end());
  EXPECT_EQ(fold(tokens, 8, UINT32_MAX).items().size(), tokens.size());
  block.pop_back();
  tokens.clear();
  for (int i = 0; i < 3; ++i)
    tokens.insert(tokens.end(), block.begin(), block.end());
  EXPECT_EQ(fold(tokens, 8, UINT32_MAX).items().size(), 1u);
}

} // namespace

namespace {

// While the last item is a long repeat, pushes only compare tokens with its
// expansion: whole iterations add to the count, a run that crosses from one
// iteration into the next is split between them, and an iteration that
// breaks off is folded as usual from its first token on, as is the rest
// at finish(). Nothing is lost and size() counts every token once.
TEST(RepeatFolderTest, FastPushesGiveBackEveryToken) {
  std::mt19937 rng(1128);
  std::vector<uint32_t> iteration = {7};
  for (int i = 0; i < 40; ++i)
    iteration.push_back(100 + rng() % 1000);
  iteration.insert(iteration.end(), {7, 7}); // runs 7 7 7 between iterations
  for (bool runs : {false, true}) {
    for (size_t cut : {size_t(0), size_t(1), size_t(10), size_t(42)}) {
      std::vector<uint32_t> tokens;
      for (int i = 0; i < 100; ++i)
        tokens.insert(tokens.end(), iteration.begin(), iteration.end());
      // A last iteration broken off after `cut` tokens, then other tokens.
      tokens.insert(tokens.end(), iteration.begin(), iteration.begin() + cut);
      tokens.insert(tokens.end(), {5, 5, 5, 6});
      RepeatFolder folder;
      for (size_t i = 0; i < tokens.size();) {
        size_t j = i + 1;
        while (runs && j < tokens.size() && tokens[j] == tokens[i])
          ++j;
        folder.pushRun(tokens[i], j - i);
        i = j;
      }
      folder.finish();
      EXPECT_EQ(folder.size(), tokens.size());
      std::vector<uint32_t> out;
      expandInto(folder, folder.items(), out);
      ASSERT_EQ(out, tokens) << "runs " << runs << ", cut " << cut;
      uint64_t most = 0;
      for (const RepeatFolder::Item &item : folder.items())
        if (!item.isToken())
          most = std::max(most, item.count);
      EXPECT_GE(most, 98u) << "runs " << runs << ", cut " << cut;
      // At most the first iteration (which the loop's repeat may begin
      // after), the repeat, the broken iteration and the rest.
      EXPECT_LE(folder.items().size(), iteration.size() + 1 + cut + 4)
          << "runs " << runs << ", cut " << cut;
    }
  }
}

} // namespace
