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
  auto [it, inserted] = bodyIds.try_emplace(body, bodies.size());
  if (inserted)
    bodies.push_back(std::move(body));
  return it->second;
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
  sealed = handed = 0;
  // What was kept until now (all of the output, without a sink) is the
  // sink's: the buffer need only hold the window from here on.
  output.shrink();
}

void RepeatFolder::finish() {
  filterValid = false;
  if (!sink)
    return;
  for (size_t i = handed; i < output.size(); ++i)
    sink(output[i]);
  output.clear();
  sealed = handed = 0;
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

void RepeatFolder::push(uint32_t token) {
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
  if (filtered) {
    if (folded)
      filterValid = false;
    else
      slideFilter();
  }
  seal();
}

void RepeatFolder::pushRun(uint32_t token, uint64_t count) {
  if (count == 0)
    return;
  if (count == 1)
    return push(token);
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
      return;
    }
    if (last == tokenItem) {
      last.body = body;
      last.token = 0;
      last.count = count + 1;
      while (fold()) {
      }
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
  seal();
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
