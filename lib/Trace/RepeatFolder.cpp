//===- RepeatFolder.cpp - Folding repeats in one pass ---------------------===//

#include "phaedrus/Trace/RepeatFolder.h"
#include "phaedrus/Trace/OutOfMemory.h"

#include <algorithm>
#include <cstdio>

using namespace mlir::phaedrus::trace;

void RepeatFolder::ItemBuffer::resize(size_t n) {
  void *grown = n <= SIZE_MAX / sizeof(Item)
                    ? std::realloc(first, n * sizeof(Item))
                    : nullptr;
  if (!grown)
    outOfMemory("the folded items of a trace");
  first = static_cast<Item *>(grown);
  capacity = n;
}

void CompactItems::grow() {
  size_t n = capacity ? 2 * capacity : 4096;
  void *grown = std::realloc(first, n);
  if (!grown)
    outOfMemory("the folded items of a trace");
  first = static_cast<uint8_t *>(grown);
  capacity = n;
}

uint32_t RepeatFolder::intern(std::vector<Item> body) {
  uint64_t hash = body.size();
  for (const Item &item : body)
    hash = rotate(hash, 23) ^ hashItem(item);
  auto [first, last] = bodyIds.equal_range(hash);
  for (auto it = first; it != last; ++it)
    if (bodies[it->second] == body)
      return it->second;
  uint32_t id = static_cast<uint32_t>(bodies.size());
  bodyIds.emplace(hash, id);
  bodies.push_back(std::move(body));
  return id;
}

bool RepeatFolder::fold(bool absorb, bool square) {
  size_t n = output.size() - sealed; // positions below are relative to `sealed`
  // An open repeat right before the last p items absorbs them if they are
  // one more occurrence of its body.
  for (size_t p = 1; absorb && p <= maxPeriod && p + 1 <= n; ++p) {
    Item &repeat = output[sealed + n - 1 - p];
    if (repeat.isToken() || bodies[repeat.body].size() != p)
      continue;
    const std::vector<Item> &body = bodies[repeat.body];
    if (!std::equal(body.begin(), body.end(), output.end() - p))
      continue;
    ++repeat.count;
    output.truncate(sealed + n - p);
    touch(sealed + n - 1 - p);
    return true;
  }
  // A square: the last p items equal the p before them.
  for (size_t p = 1; square && p <= maxPeriod && 2 * p <= n; ++p) {
    if (!(output.back() == output[sealed + n - 1 - p]))
      continue;
    if (!std::equal(output.end() - p, output.end(), output.end() - 2 * p))
      continue;
    std::vector<Item> body(output.end() - p, output.end());
    output.truncate(sealed + n - 2 * p);
    touch(sealed + n - 2 * p);
    Item repeat;
    repeat.body = intern(std::move(body));
    repeat.count = 2;
    output.push_back(repeat);
    return true;
  }
  return false;
}

void RepeatFolder::seal() {
  if (output.size() - sealed <= kSealWindow)
    return;
  sealed = output.size() - kSealWindow;
  // Sealed items go to the sink a batch at a time (they never change), and
  // are dropped from the front when a few windows' worth have gone: each
  // item moves at most once, and a quarter of them at all.
  if (!sink || sealed - handed < kHandBatch)
    return;
  for (size_t i = handed; i < sealed; ++i)
    sink(output[i]);
  handed = sealed;
  if (handed >= 4 * kSealWindow) {
    output.dropFront(handed);
    dropped += handed;
    sealed -= handed;
    handed = 0;
  }
}

void RepeatFolder::setSink(std::function<void(const Item &)> newSink) {
  filterValid = false;
  sink = std::move(newSink);
  // (Items handed to an earlier sink are its own.)
  for (size_t i = handed; i < sealed; ++i)
    sink(output[i]);
  output.dropFront(sealed);
  dropped += sealed;
  sealed = handed = 0;
  // What was kept until now (all of the output, without a sink) is the
  // sink's: the buffer need only hold the window from here on.
  output.shrink();
}

void RepeatFolder::finish() {
  if (fastOn)
    leaveFast();
  filterValid = false;
  if (!sink)
    return;
  for (size_t i = handed; i < output.size(); ++i)
    sink(output[i]);
  dropped += output.size();
  output.clear();
  sealed = handed = 0;
  longDist = longRun = 0;
  numOpenLong = 0;
}

void RepeatFolder::rebuildFilter() {
  std::fill(std::begin(slotCounts), std::end(slotCounts), 0);
  openDue = 0;
  size_t next = output.size(); // where the next push lands
  size_t window = std::min<size_t>(maxPeriod, next);
  for (size_t i = next - window; i < next; ++i) {
    const Item &item = output[i];
    if (item.isToken()) {
      ++slotCounts[filterSlot(item.token)];
      continue;
    }
    // fold() lets this repeat absorb the last p items only when p is its
    // body's length: the push landing at i + p.
    size_t due = i + bodies[item.body].size();
    if (due >= next && due - next < 64)
      openDue |= uint64_t(1) << (due - next);
  }
  filterValid = true;
}

void RepeatFolder::slideFilter() {
  openDue >>= 1;
  ++slotCounts[filterSlot(output.back().token)];
  if (output.size() > maxPeriod) {
    const Item &left = output[output.size() - 1 - maxPeriod];
    if (left.isToken())
      --slotCounts[filterSlot(left.token)];
  }
}

void RepeatFolder::pushMiss(uint32_t token) {
  if (fastOn)
    leaveFast();
  pushSlow(token);
  if (numOpenLong)
    maybeFast();
}

void RepeatFolder::pushSlow(uint32_t token) {
  ++pushed;
  Item item;
  item.token = token;
  // Most pushes fold nothing. A token folds only with an equal token among
  // the last maxPeriod items, or into a repeat whose body it would end
  // (fold's two rules); the filter rules both out without looking at the
  // items (Lua's objects.lua function trace, 37.4M tokens: fold took 14 ns
  // a token).
  bool filtered = maxPeriod <= kFilterMaxPeriod;
  if (filtered && !filterValid)
    rebuildFilter();
  // The first step's rules: a repeat may absorb the pushed token only at
  // its due push, and a square needs an equal token among the last items.
  bool absorb = !filtered || (openDue & 1);
  bool square = !filtered || slotCounts[filterSlot(token)];
  output.push_back(item);
  bool folded = false;
  if ((absorb || square) && fold(absorb, square)) {
    folded = true;
    while (fold()) {
    }
  }
  // (Most pushes leave the long-period rule nothing to do: no fold to
  // follow up, no candidate or open repeat, and no anchor to record.)
  if (longPeriod &&
      (folded || longDist || numOpenLong || isAnchor(output.back())) &&
      foldLong())
    folded = true;
  if (filtered) {
    if (folded)
      filterValid = false;
    else
      slideFilter();
  }
  seal();
}

void RepeatFolder::pushRun(uint32_t token, uint64_t count) {
  while (fastOn && count && fastTokens[fastAt] == token) {
    // As many of the run as the expansion's run still holds.
    uint64_t taken = std::min(count, fastLengths[fastAt] - fastInRun);
    pushed += taken;
    count -= taken;
    fastInRun += taken;
    if (fastInRun == fastLengths[fastAt]) {
      fastInRun = 0;
      if (++fastAt == fastTokens.size())
        fastAbsorb();
    }
  }
  if (count == 0)
    return;
  if (fastOn)
    leaveFast();
  pushRunSlow(token, count);
  if (numOpenLong)
    maybeFast();
}

void RepeatFolder::pushRunSlow(uint32_t token, uint64_t count) {
  if (count == 1)
    return pushSlow(token);
  filterValid = false; // (the last item may change in place)
  pushed += count;
  Item tokenItem;
  tokenItem.token = token;
  uint32_t body = intern({tokenItem});
  // A run right after a run (or a single occurrence) of the same token joins it.
  if (output.size() > sealed) {
    Item &last = output.back();
    if (last.body == body) {
      last.count += count;
      touch(output.size() - 1);
      if (longPeriod)
        foldLong();
      return;
    }
    if (last == tokenItem) {
      last.body = body;
      last.token = 0;
      last.count = count + 1;
      touch(output.size() - 1);
      while (fold()) {
      }
      if (longPeriod)
        foldLong();
      seal();
      return;
    }
  }
  Item run;
  run.body = body;
  run.count = count;
  output.push_back(run);
  while (fold()) {
  }
  if (longPeriod)
    foldLong();
  seal();
}

bool RepeatFolder::expandFast(Items items, size_t &work) {
  for (const Item &item : items) {
    if (++work > kFastMaxRuns)
      return false;
    if (item.isToken() || (bodies[item.body].size() == 1 &&
                           bodies[item.body][0].isToken())) {
      // A token, or a run of one (in time independent of its count).
      uint32_t token = item.isToken() ? item.token : bodies[item.body][0].token;
      if (!fastTokens.empty() && fastTokens.back() == token) {
        // (A run past 2^64 - 1 tokens is not matched fast.)
        if (__builtin_add_overflow(fastLengths.back(), item.count,
                                   &fastLengths.back()))
          return false;
        continue;
      }
      fastTokens.push_back(token); // (runs <= work <= kFastMaxRuns)
      fastLengths.push_back(item.count);
      continue;
    }
    for (uint64_t i = 0; i < item.count; ++i)
      if (!expandFast(bodies[item.body], work))
        return false;
  }
  return true;
}

void RepeatFolder::maybeFast() {
  if (fastOn || !numOpenLong || output.size() == 0)
    return;
  const OpenRepeat &open = openLong[numOpenLong - 1];
  const Item &last = output.back();
  if (open.position != dropped + output.size() - 1 || last.isToken() ||
      last.body != open.body)
    return;
  if (fastBody != open.body) {
    fastTokens.clear();
    fastLengths.clear();
    size_t work = 0;
    fastBody = kToken;
    if (!expandFast(bodies[open.body], work))
      return;
    fastBody = open.body;
  }
  fastOn = true;
  fastAt = 0;
  fastInRun = 0;
}

void RepeatFolder::fastAbsorb() {
  ++output.back().count;
  touch(output.size() - 1);
  filterValid = false;
  fastAt = 0;
}

void RepeatFolder::leaveFast() {
  fastOn = false;
  size_t runs = fastAt;
  uint64_t part = fastInRun, matched = part;
  fastAt = 0;
  fastInRun = 0;
  for (size_t i = 0; i < runs; ++i)
    matched += fastLengths[i];
  pushed -= matched; // (counted again below)
  for (size_t i = 0; i < runs; ++i)
    pushRunSlow(fastTokens[i], fastLengths[i]);
  if (part)
    pushRunSlow(fastTokens[runs], part);
}

bool RepeatFolder::absorbLong() {
  size_t size = output.size();
  // The newest first; those that can no longer absorb are dropped.
  for (unsigned i = numOpenLong; i-- > 0;) {
    OpenRepeat open = openLong[i];
    bool gone = open.position < dropped + sealed ||
                open.position >= dropped + size;
    size_t index = open.position - dropped;
    if (!gone) {
      const Item &repeat = output[index];
      gone = repeat.isToken() || repeat.body != open.body;
    }
    const std::vector<Item> &body = bodies[open.body];
    size_t after = gone ? 0 : size - 1 - index;
    if (gone || after > body.size()) { // past the block it could absorb
      std::copy(openLong + i + 1, openLong + numOpenLong, openLong + i);
      --numOpenLong;
      continue;
    }
    if (after < body.size() || !(output.back() == body.back()) ||
        !std::equal(body.begin(), body.end(), output.end() - after))
      continue;
    ++output[index].count;
    output.truncate(index + 1);
    touch(index);
    numOpenLong = i + 1; // those after it were in what it absorbed
    return true;
  }
  return false;
}

void RepeatFolder::findLongCandidate() {
  size_t size = output.size();
  // (Only unsealed items: which sealed ones are still in memory depends on
  // the sink.)
  if (size - sealed < kGram)
    return;
  if (gramEnds.empty())
    gramEnds.assign(size_t(1) << kGramBits, 0);
  // Only grams that end in 1 of 2^kAnchorBits items are recorded and
  // looked up (which ones, the last item decides, so a block's anchors are
  // the same in each occurrence): a long block has a few, and most pushes
  // cost one product here.
  const Item *last = output.end() - kGram;
  if (!isAnchor(last[3]))
    return;
  uint64_t hash = hashItem(last[3]) ^ rotate(hashItem(last[2]), 17) ^
                  rotate(hashItem(last[1]), 31) ^ rotate(hashItem(last[0]), 47);
  uint32_t &slot = gramEnds[(hash >> 20) & ((size_t(1) << kGramBits) - 1)];
  uint64_t end = dropped + size;
  uint32_t previous = slot;
  slot = static_cast<uint32_t>(end);
  if (longDist || previous == 0)
    return;
  uint64_t distance = static_cast<uint32_t>(end - previous);
  if (distance <= maxPeriod || distance < kMinLongPeriod ||
      distance > longPeriod ||
      end - dropped - sealed < distance + 1)
    return;
  // How far back the items already match a period back: after a nested
  // repeat folds, its loop's candidate is found again with the run it has.
  // (Only items not sealed are compared: which sealed items are still in
  // memory depends on the sink, and the result must not.)
  uint64_t run = 0;
  while (run < (kLongOccurrences - 1) * distance &&
         end - 1 - run >= dropped + sealed + distance &&
         at(end - 1 - run) == at(end - 1 - run - distance))
    ++run;
  if (run == 0)
    return;
  longDist = distance;
  longRun = run;
  longVerified = end;
}

bool RepeatFolder::foldLong() {
  bool changed = false;
  for (;;) {
    uint64_t end = dropped + output.size();
    // What a fold changed must be compared again.
    if (touchedFrom < longVerified) {
      uint64_t lost = longVerified - touchedFrom;
      longRun = lost >= longRun ? 0 : longRun - lost;
      longVerified = touchedFrom;
    }
    touchedFrom = kNone;
    if (absorbLong()) {
      changed = true;
      while (fold()) {
      }
      continue;
    }
    if (longDist) {
      for (; longVerified < end; ++longVerified, ++longRun) {
        uint64_t j = longVerified;
        if (j < dropped + sealed + longDist ||
            !(at(j) == at(j - longDist))) {
          longDist = longRun = 0;
          break;
        }
      }
    }
    findLongCandidate();
    if (!longDist || longRun < (kLongOccurrences - 1) * longDist)
      return changed;
    // The last longDist items occur kLongOccurrences times in a row.
    size_t size = output.size(), p = longDist, n = kLongOccurrences;
    longDist = longRun = 0;
    if (size < sealed + n * p)
      return changed;
    for (size_t k = 2; k <= n; ++k)
      if (!std::equal(output.end() - p, output.end(), output.end() - k * p))
        return changed;
    std::vector<Item> body(output.end() - p, output.end());
    output.truncate(size - n * p);
    Item repeat;
    repeat.body = intern(std::move(body));
    repeat.count = n;
    output.push_back(repeat);
    touch(size - n * p);
    uint64_t position = dropped + size - n * p;
    while (numOpenLong && openLong[numOpenLong - 1].position >= position)
      --numOpenLong; // in what the new repeat holds
    if (numOpenLong == kMaxOpenLong) {
      std::copy(openLong + 1, openLong + kMaxOpenLong, openLong);
      --numOpenLong;
    }
    openLong[numOpenLong++] = {position, repeat.body};
    changed = true;
    while (fold()) {
    }
  }
}

uint64_t RepeatFolder::length(const Item &item) const {
  if (item.isToken())
    return 1;
  // Sized for every body at once: the recursion below never resizes, so
  // the reference stays valid.
  if (bodyLengths.size() < bodies.size())
    bodyLengths.resize(bodies.size(), 0);
  uint64_t &body = bodyLengths[item.body];
  if (!body) {
    uint64_t total = 0;
    for (const Item &inner : bodies[item.body])
      if (__builtin_add_overflow(total, length(inner), &total))
        total = UINT64_MAX;
    body = total; // a body holds at least one token, so never 0
  }
  uint64_t result;
  if (__builtin_mul_overflow(item.count, body, &result))
    return UINT64_MAX;
  return result;
}

void RepeatFolder::expand(const Item &item, std::vector<uint32_t> &out) const {
  if (item.isToken()) {
    out.push_back(item.token);
    return;
  }
  for (uint64_t i = 0; i < item.count; ++i)
    expand(bodies[item.body], out);
}

void RepeatFolder::expand(Items items, std::vector<uint32_t> &out) const {
  for (const Item &item : items)
    expand(item, out);
}
