//===- RepeatFolderStressTest.cpp - Adversarial checks of RepeatFolder ----===//
//
// Adversarial tests, from a review of the long-period rule: randomized
// streams (pushed as tokens and runs, small and huge counts) must expand
// back exactly, size() must count every token, and a folder with a sink
// (from the start, or set mid-stream as --pack-wpp does) must hand on
// exactly what a folder without one keeps.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Trace/RepeatFolder.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <unordered_map>

using namespace mlir::phaedrus::trace;
using Item = RepeatFolder::Item;

namespace {

struct Run {
  uint32_t token;
  uint64_t count;
  bool operator==(const Run &o) const {
    return token == o.token && count == o.count;
  }
};
using RLE = std::vector<Run>;

void appendRun(RLE &r, uint32_t t, uint64_t c) {
  if (!c)
    return;
  if (!r.empty() && r.back().token == t)
    r.back().count += c;
  else
    r.push_back({t, c});
}

/// One call on the folder: push `count` tokens one by one, or pushRun.
struct Op {
  uint32_t token;
  uint64_t count;
  bool run;
};

struct Stream {
  std::vector<Op> ops;
  void tok(uint32_t t) { ops.push_back({t, 1, false}); }
  void run(uint32_t t, uint64_t c, bool asRun) {
    ops.push_back({t, c, asRun || c > 64});
  }
  RLE rle() const {
    RLE r;
    for (const Op &op : ops)
      appendRun(r, op.token, op.count);
    return r;
  }
  uint64_t tokens() const {
    uint64_t n = 0;
    for (const Op &op : ops)
      n += op.count;
    return n;
  }
};

/// Run-length expansion of folded items, independent of
/// RepeatFolder::expand; false if it grows past `limit` runs (a wrong count).
class Expander {
public:
  explicit Expander(const RepeatFolder &f) : f(f) {}
  bool expand(const Item &item, RLE &out, size_t limit) {
    if (item.isToken()) {
      appendRun(out, item.token, 1);
      return out.size() <= limit;
    }
    const RLE *body = bodyRLE(item.body, limit);
    if (!body)
      return false;
    if (body->size() == 1) {
      appendRun(out, (*body)[0].token, (*body)[0].count * item.count);
      return out.size() <= limit;
    }
    for (uint64_t k = 0; k < item.count; ++k) {
      for (const Run &r : *body)
        appendRun(out, r.token, r.count);
      if (out.size() > limit)
        return false;
    }
    return true;
  }

private:
  const RLE *bodyRLE(uint32_t id, size_t limit) {
    auto it = cache.find(id);
    if (it != cache.end())
      return &it->second;
    RLE r;
    for (const Item &i : f.body(id))
      if (!expand(i, r, limit))
        return nullptr;
    return &cache.emplace(id, std::move(r)).first->second;
  }
  const RepeatFolder &f;
  std::unordered_map<uint32_t, RLE> cache;
};

/// A structural hash of an item (bodies by content, not by id), so folders
/// that intern in another order still compare.
class Shape {
public:
  explicit Shape(const RepeatFolder &f) : f(f) {}
  uint64_t of(const Item &item) {
    if (item.isToken())
      return mix(0x1234 ^ item.token);
    return mix(body(item.body) ^ mix(item.count + 77));
  }

private:
  static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
  }
  uint64_t body(uint32_t id) {
    auto it = cache.find(id);
    if (it != cache.end())
      return it->second;
    uint64_t h = 0x9999;
    for (const Item &i : f.body(id))
      h = mix(h * 31 + of(i));
    cache[id] = h;
    return h;
  }
  const RepeatFolder &f;
  std::unordered_map<uint32_t, uint64_t> cache;
};

struct Outcome {
  std::vector<uint64_t> shapes;
  RLE rle;
  bool expandedOk = true;
  uint64_t size = 0;
  uint64_t items = 0;
  uint64_t maxBody = 0;
  bool sizeOk = true;
};

/// sinkAt: SIZE_MAX no sink, 0 from the start, else before op `sinkAt`.
Outcome runFolder(const Stream &s, unsigned maxPeriod, unsigned longPeriod,
                  size_t sinkAt, size_t limit) {
  RepeatFolder folder(maxPeriod, longPeriod);
  std::vector<Item> handed;
  auto sink = [&](const Item &item) { handed.push_back(item); };
  Outcome o;
  uint64_t pushed = 0;
  for (size_t i = 0; i < s.ops.size(); ++i) {
    if (i == sinkAt)
      folder.setSink(sink);
    const Op &op = s.ops[i];
    if (op.run)
      folder.pushRun(op.token, op.count);
    else
      for (uint64_t k = 0; k < op.count; ++k)
        folder.push(op.token);
    pushed += op.count;
    if (folder.size() != pushed)
      o.sizeOk = false;
  }
  if (sinkAt == s.ops.size())
    folder.setSink(sink);
  folder.finish();
  o.size = folder.size();
  std::vector<Item> items =
      sinkAt <= s.ops.size()
          ? handed
          : std::vector<Item>(folder.items().begin(), folder.items().end());
  o.items = items.size();
  Shape shape(folder);
  Expander ex(folder);
  for (const Item &item : items) {
    o.shapes.push_back(shape.of(item));
    if (o.expandedOk && !ex.expand(item, o.rle, limit))
      o.expandedOk = false;
    if (!item.isToken())
      o.maxBody = std::max<uint64_t>(o.maxBody, folder.body(item.body).size());
  }
  return o;
}

/// Checks losslessness, size(), and sink == no sink (from the start and
/// mid-stream); returns a message or "".
std::string check(const Stream &s, unsigned maxPeriod, unsigned longPeriod,
                  std::mt19937_64 &rng) {
  RLE want = s.rle();
  size_t limit = want.size() + 1;
  Outcome kept = runFolder(s, maxPeriod, longPeriod, SIZE_MAX, limit);
  if (!kept.sizeOk || kept.size != s.tokens())
    return "size() differs from the tokens pushed";
  if (!kept.expandedOk || !(kept.rle == want))
    return "expansion differs from the input";
  for (size_t sinkAt : {size_t(0), size_t(rng() % (s.ops.size() + 1)),
                        size_t(rng() % (s.ops.size() + 1))}) {
    Outcome streamed = runFolder(s, maxPeriod, longPeriod, sinkAt, limit);
    if (!streamed.expandedOk || !(streamed.rle == want))
      return "expansion with a sink differs from the input (sinkAt " +
             std::to_string(sinkAt) + ")";
    if (streamed.shapes != kept.shapes)
      return "sink (set before op " + std::to_string(sinkAt) + " of " +
             std::to_string(s.ops.size()) +
             ") hands on other items: " + std::to_string(streamed.items) +
             " vs " + std::to_string(kept.items);
  }
  if (kept.maxBody >
      std::max<uint64_t>(
          maxPeriod,
          std::min<unsigned>(longPeriod, RepeatFolder::kMaxLongPeriod)))
    return "a body exceeds the longest period";
  return "";
}

std::vector<uint32_t> randomBlock(std::mt19937_64 &rng, size_t n,
                                  uint32_t alphabet, uint32_t base = 0) {
  std::vector<uint32_t> b(n);
  for (uint32_t &t : b)
    t = base + rng() % alphabet;
  return b;
}

/// Pushes `tokens` into `s`, as tokens or as runs (randomly split).
void emit(Stream &s, const std::vector<uint32_t> &tokens, std::mt19937_64 &rng,
          int runMode) {
  for (size_t i = 0; i < tokens.size();) {
    size_t j = i;
    while (j < tokens.size() && tokens[j] == tokens[i])
      ++j;
    uint64_t c = j - i;
    bool asRun = runMode == 1 || (runMode == 2 && rng() % 2);
    if (asRun && c > 1 && rng() % 4 == 0) {
      uint64_t a = 1 + rng() % (c - 1);
      s.run(tokens[i], a, true);
      s.run(tokens[i], c - a, true);
    } else {
      s.run(tokens[i], c, asRun);
    }
    i = j;
  }
}

/// Nested loops: an outer loop whose iteration holds tokens, runs (small
/// and huge counts), and inner loops whose counts vary between iterations;
/// now and then an iteration breaks.
Stream genNested(std::mt19937_64 &rng, size_t target) {
  Stream s;
  int runMode = rng() % 3;
  while (s.ops.size() < target) {
    struct Seg {
      int kind; // 0 tokens, 1 run, 2 inner loop
      std::vector<uint32_t> tokens;
      uint64_t count;
      bool varies;
    };
    std::vector<Seg> segs;
    size_t nsegs = 1 + rng() % 8;
    uint32_t alphabet = rng() % 3 == 0 ? 6 : 100000;
    for (size_t k = 0; k < nsegs; ++k) {
      Seg seg;
      seg.kind = rng() % 3;
      seg.varies = rng() % 3 == 0;
      if (seg.kind == 0) {
        seg.tokens = randomBlock(rng, 1 + rng() % 300, alphabet);
      } else if (seg.kind == 1) {
        seg.tokens = {uint32_t(rng() % alphabet)};
        seg.count = rng() % 4 == 0
                        ? (uint64_t(1) << (20 + rng() % 20)) + rng() % 7
                        : 2 + rng() % 5;
      } else {
        seg.tokens = randomBlock(rng, 1 + rng() % 60, alphabet);
        seg.count = 1 + rng() % 6;
      }
      segs.push_back(seg);
    }
    uint64_t outer = 1 + rng() % 30;
    for (uint64_t it = 0; it < outer; ++it) {
      for (const Seg &seg : segs) {
        if (seg.kind == 0) {
          emit(s, seg.tokens, rng, runMode);
        } else if (seg.kind == 1) {
          uint64_t c = seg.count + (seg.varies ? rng() % 3 : 0);
          s.run(seg.tokens[0], c, runMode != 0 || c > 8);
        } else {
          uint64_t c = seg.count + (seg.varies ? rng() % 3 : 0);
          for (uint64_t r = 0; r < c; ++r)
            emit(s, seg.tokens, rng, runMode);
        }
      }
      if (rng() % 10 == 0)
        s.tok(rng() % alphabet); // a break
    }
  }
  return s;
}

/// Many distinct long bodies, each a few times in a row, some mutated.
Stream genDistinctLong(std::mt19937_64 &rng, size_t target) {
  Stream s;
  int runMode = rng() % 3;
  while (s.ops.size() < target) {
    size_t len = 9 + rng() % (rng() % 4 == 0 ? 2800 : 200);
    std::vector<uint32_t> b =
        randomBlock(rng, len, rng() % 4 == 0 ? 8 : 1000000);
    uint64_t times = 1 + rng() % 6;
    for (uint64_t t = 0; t < times; ++t) {
      std::vector<uint32_t> copy = b;
      if (rng() % 6 == 0)
        copy[rng() % copy.size()] = rng();
      if (rng() % 8 == 0)
        copy.resize(rng() % copy.size() + 1);
      emit(s, copy, rng, runMode);
    }
  }
  return s;
}

/// LZ77-like: copies of earlier segments at random distances (overlapping
/// copies make periodic stretches of every period), over a small alphabet.
Stream genCopies(std::mt19937_64 &rng, size_t target) {
  std::vector<uint32_t> tokens;
  uint32_t alphabet = 2 + rng() % 50;
  while (tokens.size() < target) {
    if (tokens.size() < 10 || rng() % 3 == 0) {
      for (int k = 0, n = 1 + rng() % 20; k < n; ++k)
        tokens.push_back(rng() % alphabet);
      continue;
    }
    size_t dist =
        1 + rng() % std::min<size_t>(tokens.size(), rng() % 2 ? 3000 : 200);
    size_t len = 1 + rng() % 6000;
    size_t from = tokens.size() - dist;
    for (size_t k = 0; k < len; ++k)
      tokens.push_back(tokens[from + k]);
  }
  Stream s;
  emit(s, tokens, rng, rng() % 3);
  return s;
}

std::string describe(int gen, int trial, unsigned mp, unsigned lp) {
  return "gen " + std::to_string(gen) + " trial " + std::to_string(trial) +
         " maxPeriod " + std::to_string(mp) + " longPeriod " +
         std::to_string(lp);
}

unsigned pickLong(std::mt19937_64 &rng) {
  unsigned r = rng() % 20;
  if (r < 2)
    return 0;
  if (r < 9)
    return RepeatFolder::kDefaultLongPeriod;
  if (r < 14)
    return UINT32_MAX; // clamped to kMaxLongPeriod
  if (r < 18)
    return 32 + rng() % 300;
  return 9 + rng() % 30;
}

TEST(RepeatFolderStress, RandomizedLosslessAndSinkIndependent) {
  std::mt19937_64 rng(20240601);
  int trials = 60;
  int failures = 0;
  for (int trial = 0; trial < trials && failures < 5; ++trial) {
    int gen = trial % 3;
    size_t scale = 1;
    Stream s = gen == 0   ? genNested(rng, scale * (2000 + rng() % 20000))
               : gen == 1 ? genDistinctLong(rng, scale * (5000 + rng() % 40000))
                          : genCopies(rng, scale * (5000 + rng() % 60000));
    unsigned mp = 1 + rng() % (rng() % 4 == 0 ? 16 : 8);
    unsigned lp = pickLong(rng);
    std::string msg = check(s, mp, lp, rng);
    if (!msg.empty()) {
      ++failures;
      ADD_FAILURE() << describe(gen, trial, mp, lp) << ": " << msg;
    }
  }
}

} // namespace

namespace {

size_t countItems(RepeatFolder &folder) { return folder.items().size(); }

// A loop absorbs every iteration into one long repeat, with the fast
// pushes and with a run of 40,000 in the body; every case expands
// back exactly.
TEST(RepeatFolderStress, LoopsAbsorbEveryIteration) {
  for (bool squareAtEnd : {false, true}) {
    for (uint64_t bigRun : {uint64_t(0), uint64_t(40000)}) {
      RepeatFolder folder;
      std::vector<uint32_t> tokens;
      auto push = [&](uint32_t t) {
        folder.push(t);
        tokens.push_back(t);
      };
      for (int it = 0; it < 31; ++it) {
        if (bigRun) {
          folder.pushRun(7, bigRun); // one run of the expansion
          tokens.insert(tokens.end(), bigRun, 7);
        }
        for (uint32_t t = 200; t < 240; ++t)
          push(t);
        if (squareAtEnd)
          for (uint32_t t : {1u, 2u, 1u, 2u})
            push(t); // (1 2)x2: "1 2 1" is one item too many
        else
          push(3);
      }
      folder.finish();
      std::vector<uint32_t> out;
      folder.expand(folder.items(), out);
      ASSERT_EQ(out, tokens);
      EXPECT_EQ(folder.size(), tokens.size());
      // (Not when it ends in a short repeat: the rule drops the open
      // repeat, and its candidate, at the push one item past its body,
      // before the short fold that would mend it.)
      if (squareAtEnd)
        continue;
      EXPECT_EQ(countItems(folder), 1u)
          << "a run of " << bigRun << " in the body";
    }
  }
}

// Huge runs in the fast pushes: a run that starts like the body's
// expansion and goes on for 2^62 tokens.
TEST(RepeatFolderStress, HugeRunInFastMode) {
  std::vector<uint32_t> block = {7, 7, 7};
  for (uint32_t t = 0; t < 40; ++t)
    block.push_back(1000 + t);
  for (uint64_t huge : {uint64_t(1) << 62, (uint64_t(1) << 62) + 5}) {
    RepeatFolder folder, streamed;
    std::vector<Item> handed;
    streamed.setSink([&](const Item &item) { handed.push_back(item); });
    RLE want;
    for (RepeatFolder *f : {&folder, &streamed}) {
      for (int i = 0; i < 5; ++i)
        f->push(block.data(), block.size());
      f->pushRun(7, huge); // starts like an iteration: fast, then a miss
      f->pushRun(1000, 3);
      f->push(block.data(), block.size());
      f->pushRun(7, 2);
      f->finish();
    }
    for (int i = 0; i < 5; ++i)
      for (uint32_t t : block)
        appendRun(want, t, 1);
    appendRun(want, 7, huge);
    appendRun(want, 1000, 3);
    for (uint32_t t : block)
      appendRun(want, t, 1);
    appendRun(want, 7, 2);
    RLE got;
    Expander ex(folder);
    for (const Item &item : folder.items())
      ASSERT_TRUE(ex.expand(item, got, want.size() + 1));
    EXPECT_EQ(got, want);
    uint64_t tokens = 0;
    for (const struct Run &r : want)
      tokens += r.count;
    EXPECT_EQ(folder.size(), tokens);
    EXPECT_EQ(handed,
              std::vector<Item>(folder.items().begin(), folder.items().end()));
  }
}

} // namespace

namespace {

// The window of items that may still fold collapses to 3 items right after
// a sink dropped every sealed item: the folder with the sink then holds
// fewer than kGram (4) items, the one without holds sealed items before
// them. findLongCandidate hashes no gram there (only unsealed items count),
// so both go on alike and hand on the same items.
TEST(RepeatFolderStress, WindowCollapsesBelowAGramAfterADrop) {
  const size_t p = RepeatFolder::kMaxLongPeriod; // 2730
  std::mt19937 rng(4); // (a seed whose gram slot survives until B' ends)
  std::vector<uint32_t> block(p - 1);
  for (uint32_t &t : block)
    t = 1000000 + rng() % 1000000;
  RepeatFolder kept(8, UINT32_MAX), streamed(8, UINT32_MAX);
  std::vector<Item> handed;
  streamed.setSink([&](const Item &item) { handed.push_back(item); });
  for (RepeatFolder *f : {&kept, &streamed}) {
    // 32,768 + 2 distinct tokens, then B B B' (B: p - 1 tokens and a run
    // of 4; B': its run only 2 so far): 40,960 items, so the sink has just
    // dropped every sealed item (handed reached 4 windows).
    for (uint32_t t = 0; t < 32768 + 2; ++t)
      f->push(10 + t);
    for (int k = 0; k < 3; ++k) {
      f->push(block.data(), block.size());
      f->pushRun(7, k < 2 ? 4 : 2);
    }
  }
  for (RepeatFolder *f : {&kept, &streamed})
    f->pushRun(7, 2); // B' complete: the three fold, nothing is pushed
  for (RepeatFolder *f : {&kept, &streamed}) {
    for (uint32_t t = 0; t < 100; ++t)
      f->push(5 + t % 3);
    f->finish();
  }
  EXPECT_EQ(handed,
            std::vector<Item>(kept.items().begin(), kept.items().end()));
}

} // namespace

