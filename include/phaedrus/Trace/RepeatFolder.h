//===- RepeatFolder.h - Folding repeats in one pass -------------*- C++ -*-===//
//
// Folds immediate repeats of a token stream as it arrives, into nested
// counted repeats: whenever the last p items (p <= maxPeriod) equal the p
// before them, they become one repeat item; a repeat absorbs every further
// occurrence of its body. Items are tokens or repeats, so a loop whose body
// itself holds a repeat (a call in an inner loop) folds as a repeat of a
// sequence that contains a repeat.
//
// Repeat bodies are interned, so comparing two items is O(1); each token
// costs O(maxPeriod) amortised, and O(1) when a filter of the last items
// (hashed tokens, and the one push at which each repeat could absorb what
// follows it) shows that it cannot fold: most tokens of a trace whose
// loops are longer than maxPeriod. Expanding the items gives back the
// stream exactly.
//
// Longer blocks, of kMinLongPeriod to longPeriod items, fold too, found
// without trying every period: a hash of the last few items names where
// they occurred before, that distance is a candidate period, and each push
// compares one item with the one a period back. When the items match for
// two whole periods, the last three occurrences become a repeat; that
// repeat absorbs the next block when it is one more occurrence of its body
// (checked once, at the push where the block would be complete). A loop
// whose iteration is longer than maxPeriod items, an interpreter's loop
// over bytecodes, folds so; a block whose candidate the hash misses (its
// last items also occur nearer) stays unfolded, which loses size, never
// tokens. A push costs O(1) for this rule, but at an anchor that finds a
// new candidate: the scan back that sizes its run reads up to two periods
// (after a nested loop folds, that is how its outer loop's candidate comes
// back with the run it has). (Three
// occurrences, not two, and 32 items at least: the packed coder predicts a
// block seen once before, or a short one, for less than a repeat of a new
// body costs. Lua's traces packed 2-10% smaller so than with squares of 9
// items and more.)
//
// While the last item is such a repeat, pushes skip the folding: each
// token is compared with the next token of the body's expansion, and a
// whole expansion adds one to the count (what folding those tokens and
// absorbing them would give). At the first token that differs, the tokens
// matched so far are folded as usual, then that token. A loop that runs
// the same iteration again and again so costs a comparison a token.
// Before finish(), items() leaves out the tokens matched so far (size()
// counts them).
//
// Known misses of the long rule (they cost size and time, never tokens): a
// mismatch that a short fold would mend a push later ("t" before "t t"
// folds) drops the candidate, which only an anchor further on finds again;
// and a long repeat stops absorbing at the push one item past its body, so
// a loop whose iteration ends in a short repeat pushed token by token
// folds into several repeats.
//
// Only the last kSealWindow items of the output may still fold: an item
// further back is sealed, never part of a later repeat (whatever folds
// after it). A fold that reaches that far back needs thousands of items to
// collapse into a few, and folding is greedy, so sealing rarely changes
// anything; it makes the result the same whether the items are kept or
// handed on. With a sink (setSink), sealed items go to it in order, a
// batch at a time, and are forgotten, so memory is a few windows and the
// repeat bodies, not the length of the stream; without one, memory is the
// folded output.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TRACE_REPEATFOLDER_H
#define PHAEDRUS_TRACE_REPEATFOLDER_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace mlir::phaedrus::trace {

class RepeatFolder {
public:
  static constexpr uint32_t kToken = UINT32_MAX;

  /// A token (`body == kToken`), or body number `body` repeated `count`
  /// times in a row.
  struct Item {
    uint32_t body = kToken;
    uint32_t token = 0;
    uint64_t count = 1;
    bool isToken() const { return body == kToken; }
    bool operator==(const Item &o) const {
      return body == o.body && token == o.token && count == o.count;
    }
    bool operator<(const Item &o) const {
      if (body != o.body)
        return body < o.body;
      if (token != o.token)
        return token < o.token;
      return count < o.count;
    }
  };

  /// Items in a row in memory (the output, a repeat's body), read only.
  class Items {
  public:
    Items(const Item *first, size_t count) : first(first), count(count) {}
    Items(const std::vector<Item> &items)
        : first(items.data()), count(items.size()) {}
    const Item *begin() const { return first; }
    const Item *end() const { return first + count; }
    size_t size() const { return count; }
    bool empty() const { return count == 0; }
    const Item &operator[](size_t i) const { return first[i]; }

  private:
    const Item *first;
    size_t count;
  };

  /// Items that may still fold, at the end of the output.
  static constexpr size_t kSealWindow = 8192;

  /// How many times in a row a long block occurs before it folds, and the
  /// shortest long block.
  static constexpr unsigned kLongOccurrences = 3;
  static constexpr unsigned kMinLongPeriod = 32;
  /// The longest long period: the occurrences must lie in the window of
  /// items that may still fold.
  static constexpr unsigned kMaxLongPeriod = kSealWindow / kLongOccurrences;
  static constexpr unsigned kDefaultLongPeriod = 2048;

  /// Folds blocks of up to `maxPeriod` items wherever they repeat, and
  /// longer ones, of kMinLongPeriod to `longPeriod` items (at most
  /// kMaxLongPeriod; 0 or at most maxPeriod: none), where the hash finds
  /// them.
  explicit RepeatFolder(unsigned maxPeriod = 8,
                        unsigned longPeriod = kDefaultLongPeriod)
      : maxPeriod(maxPeriod),
        longPeriod(longPeriod > maxPeriod
                       ? std::min<unsigned>(longPeriod, kMaxLongPeriod)
                       : 0) {}

  /// Hands every sealed item to `sink` in order and drops it from items():
  /// those sealed so far at once, the others as they are sealed; finish()
  /// hands on the rest.
  void setSink(std::function<void(const Item &)> sink);

  void push(uint32_t token) {
    if (fastOn && fastTokens[fastAt] == token) {
      ++pushed;
      if (++fastInRun == fastLengths[fastAt]) {
        fastInRun = 0;
        if (++fastAt == fastTokens.size())
          fastAbsorb();
      }
      return;
    }
    pushMiss(token);
  }
  void push(const uint32_t *tokens, size_t count) {
    for (size_t i = 0; i < count; ++i)
      push(tokens[i]);
  }
  /// `token`, `count` times in a row, in time independent of `count`.
  void pushRun(uint32_t token, uint64_t count);
  /// Ends the stream: with a sink, hands it the items left.
  void finish();

  /// The folded stream, in order (with a sink: the items not handed on).
  Items items() const {
    return {output.begin() + handed, output.size() - handed};
  }
  /// The items of repeat body `id`.
  const std::vector<Item> &body(uint32_t id) const { return bodies[id]; }
  /// Tokens pushed so far.
  uint64_t size() const { return pushed; }

  /// The number of tokens `item` expands to (at most 2^64 - 1: saturating).
  uint64_t length(const Item &item) const;

  /// Appends the expansion of `items` to `out` (for tests and checks).
  void expand(Items items, std::vector<uint32_t> &out) const;
  /// Appends the expansion of `item` to `out`.
  void expand(const Item &item, std::vector<uint32_t> &out) const;

private:
  /// push() when the fast pushes are off or `token` ends them.
  void pushMiss(uint32_t token);
  /// push() and pushRun() with the items folded as usual.
  void pushSlow(uint32_t token);
  void pushRunSlow(uint32_t token, uint64_t count);
  /// Pushes while the last item is an open long repeat compare with its
  /// body's expansion, kept as runs of equal tokens (at most kFastMaxRuns).
  static constexpr size_t kFastMaxRuns = size_t(1) << 15;
  /// Appends the expansion of `items` to the fast runs; false if that
  /// takes more than kFastMaxRuns runs, or as much work.
  bool expandFast(Items items, size_t &work);
  /// Starts the fast pushes if the last item is an open long repeat.
  void maybeFast();
  /// A whole expansion matched: the repeat's count grows by one.
  void fastAbsorb();
  /// Ends the fast pushes: the tokens matched so far are folded as usual.
  void leaveFast();
  /// One folding step at the end of the output; true if it changed
  /// anything. `absorb` and `square` say which of its two rules may apply
  /// (the filter rules one or both out for the first step after a push).
  bool fold(bool absorb = true, bool square = true);
  /// The candidate filter (maxPeriod <= kFilterMaxPeriod): what the last
  /// maxPeriod items of the output hold, enough to tell that a pushed token
  /// can fold with none of them.
  static constexpr unsigned kFilterMaxPeriod = 16;
  static unsigned filterSlot(uint32_t token) {
    return (token * 0x9e3779b1u) >> 24;
  }
  void rebuildFilter();
  /// After push() added a token without folding: the filter slides.
  void slideFilter();
  /// Seals what lies before the window, and hands it to the sink.
  void seal();
  /// The long-period rule, after the short ones have folded what they can;
  /// true if it changed the output.
  bool foldLong();
  /// True if the last long repeat absorbed the items after it.
  bool absorbLong();
  /// Looks for a long period ending at the last item.
  void findLongCandidate();
  /// Records that output[index] and what follows it changed.
  void touch(size_t index) {
    touchedFrom = std::min<uint64_t>(touchedFrom, dropped + index);
  }
  /// The item at absolute position `at` (dropped <= at < dropped + size).
  const Item &at(uint64_t position) const { return output[position - dropped]; }
  static uint64_t hashItem(const Item &item) {
    return ((uint64_t(item.body) << 32 | item.token) ^
            (item.count * 0x9e3779b97f4a7c15ull)) *
           0xc2b2ae3d27d4eb4full;
  }
  uint32_t intern(std::vector<Item> body);

  /// The output's storage: a vector of items that grows with realloc (they
  /// are trivially copyable), in place or by remapping its pages, where a
  /// std::vector copies into fresh memory the kernel must first clear (the
  /// page faults of the 5.4M items of a Lua path trace took a tenth of
  /// packing it).
  class ItemBuffer {
  public:
    ItemBuffer() = default;
    ItemBuffer(const ItemBuffer &other) { *this = other; }
    ItemBuffer &operator=(const ItemBuffer &other) {
      if (this != &other) {
        count = 0;
        reserve(other.count);
        std::copy(other.begin(), other.end(), first);
        count = other.count;
      }
      return *this;
    }
    ItemBuffer(ItemBuffer &&other) noexcept { swap(other); }
    ItemBuffer &operator=(ItemBuffer &&other) noexcept {
      swap(other);
      return *this;
    }
    ~ItemBuffer() { std::free(first); }

    Item *begin() { return first; }
    Item *end() { return first + count; }
    const Item *begin() const { return first; }
    const Item *end() const { return first + count; }
    size_t size() const { return count; }
    Item &operator[](size_t i) { return first[i]; }
    const Item &operator[](size_t i) const { return first[i]; }
    Item &back() { return first[count - 1]; }

    void push_back(const Item &item) {
      if (count == capacity)
        reserve(capacity ? 2 * capacity : 64);
      first[count++] = item;
    }
    /// Keeps the first `n` items (n <= size()).
    void truncate(size_t n) { count = n; }
    /// Drops the first `n` items (n <= size()).
    void dropFront(size_t n) {
      std::copy(first + n, first + count, first);
      count -= n;
    }
    void clear() { count = 0; }
    /// Gives back the memory past what the items need (and some room).
    void shrink() {
      if (capacity > 2 * count + 1024)
        resize(count + 1024);
    }

  private:
    static_assert(std::is_trivially_copyable_v<Item>);
    /// Room for `n` items; out of memory, aborts as a std::vector does.
    void reserve(size_t n) {
      if (n > capacity)
        resize(n);
    }
    /// Room for exactly `n` items (n >= count).
    void resize(size_t n);
    void swap(ItemBuffer &other) {
      std::swap(first, other.first);
      std::swap(count, other.count);
      std::swap(capacity, other.capacity);
    }
    Item *first = nullptr;
    size_t count = 0, capacity = 0;
  };

  unsigned maxPeriod;
  /// 0: no long periods.
  unsigned longPeriod;
  uint64_t pushed = 0;
  /// Items dropped from the front of `output` so far: output[i] is the
  /// item at absolute position dropped + i.
  uint64_t dropped = 0;
  /// The long-period rule's state, in absolute positions. The items in
  /// [longVerified - longRun, longVerified) each equal the item longDist
  /// before them (longDist 0: no candidate); touchedFrom is the first
  /// position a fold changed since the rule last looked.
  uint64_t longDist = 0, longRun = 0, longVerified = 0;
  uint64_t touchedFrom = UINT64_MAX;
  static constexpr uint64_t kNone = UINT64_MAX;
  /// The last long repeats that may absorb what follows them, oldest
  /// first: a loop's and those of loops nested in it, each the absolute
  /// position of the repeat and its body.
  struct OpenRepeat {
    uint64_t position;
    uint32_t body;
  };
  static constexpr unsigned kMaxOpenLong = 4;
  OpenRepeat openLong[kMaxOpenLong];
  unsigned numOpenLong = 0;
  /// Per hash of the last kGram items (those that end at an anchor item),
  /// the absolute position after them when they last ended the output,
  /// modulo 2^32 (0: none). A table small
  /// enough for the first-level cache: a slot two blocks share, or a
  /// position 2^32 back, makes a wrong candidate, which the comparisons
  /// reject.
  static constexpr unsigned kGram = 4;
  static constexpr unsigned kGramBits = 12;
  /// 1 in 2^kAnchorBits items is an anchor (kMinLongPeriod / 4 a block).
  static constexpr unsigned kAnchorBits = 2;
  static bool isAnchor(const Item &item) {
    return !(hashItem(item) >> (64 - kAnchorBits));
  }
  static uint64_t rotate(uint64_t v, unsigned bits) {
    return (v << bits) | (v >> (64 - bits));
  }
  std::vector<uint32_t> gramEnds;
  /// The fast pushes: on or not, the body whose expansion the runs hold
  /// (run i: fastLengths[i] times fastTokens[i]), the run being matched
  /// and how many of its tokens matched.
  bool fastOn = false;
  uint32_t fastBody = kToken;
  size_t fastAt = 0;
  uint64_t fastInRun = 0;
  std::vector<uint32_t> fastTokens;
  std::vector<uint64_t> fastLengths;
  ItemBuffer output;
  /// output[0, sealed) can no longer fold; with a sink, output[0, handed)
  /// has gone to it (handed <= sealed).
  size_t sealed = 0, handed = 0;
  /// Sealed items go to the sink this many at a time.
  static constexpr size_t kHandBatch = 1024;
  std::function<void(const Item &)> sink;
  std::vector<std::vector<Item>> bodies;
  /// Body numbers by a hash of their items (a body is kept once, in
  /// `bodies`; equal hashes are told apart by comparing the items).
  std::unordered_multimap<uint64_t, uint32_t> bodyIds;
  /// Expanded length of each body, computed when first asked (0: not yet).
  mutable std::vector<uint64_t> bodyLengths;
  /// The filter, valid until a fold: per hash slot, how many of the last
  /// maxPeriod items are tokens that fall in it; and bit k set if the
  /// (k+1)-th push from now lands right after a repeat's body length past
  /// the repeat (the one push at which that repeat may absorb what
  /// follows it).
  bool filterValid = false;
  uint64_t openDue = 0;
  uint8_t slotCounts[256] = {};
};

/// Folded items kept in order in little memory, for reading back once in
/// order (--pack-wpp keeps a trace's items so between folding and coding):
/// each item as LEB128 varints, a token as token << 1, a repeat as
/// body << 1 | 1 and then its count. 1 to 15 bytes an item where
/// RepeatFolder's Item takes 16; 2 to 3 on Lua's and bzip2's traces.
class CompactItems {
public:
  using Item = RepeatFolder::Item;

  CompactItems() = default;
  CompactItems(const CompactItems &) = delete;
  CompactItems &operator=(const CompactItems &) = delete;
  ~CompactItems() { std::free(first); }

  void push_back(const Item &item) {
    if (capacity - used < kMaxItemBytes)
      grow();
    uint8_t *at = first + used;
    if (item.isToken()) {
      at = putVarint(at, uint64_t(item.token) << 1);
    } else {
      at = putVarint(at, uint64_t(item.body) << 1 | 1);
      at = putVarint(at, item.count);
    }
    used = at - first;
    ++items;
  }
  /// Items kept.
  size_t size() const { return items; }
  /// Bytes they take.
  size_t bytes() const { return used; }
  void clear() {
    std::free(first);
    first = nullptr;
    used = capacity = items = 0;
  }
  /// Calls `f(item)` for every item kept, in order.
  template <typename F> void forEach(F &&f) const {
    const uint8_t *at = first, *end = first + used;
    while (at != end) {
      Item item;
      uint64_t head = getVarint(at);
      if (head & 1) {
        item.body = static_cast<uint32_t>(head >> 1);
        item.count = getVarint(at);
      } else {
        item.token = static_cast<uint32_t>(head >> 1);
      }
      f(static_cast<const Item &>(item));
    }
  }

private:
  /// A 33-bit head and a 64-bit count.
  static constexpr size_t kMaxItemBytes = 5 + 10;
  static uint8_t *putVarint(uint8_t *at, uint64_t value) {
    while (value >= 0x80) {
      *at++ = static_cast<uint8_t>(value) | 0x80;
      value >>= 7;
    }
    *at++ = static_cast<uint8_t>(value);
    return at;
  }
  static uint64_t getVarint(const uint8_t *&at) {
    uint64_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
      uint8_t byte = *at++;
      value |= uint64_t(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return value;
    }
  }
  /// Doubles the buffer with realloc (in place or by remapping its pages,
  /// as RepeatFolder's ItemBuffer does); out of memory, aborts.
  void grow();
  uint8_t *first = nullptr;
  size_t used = 0, capacity = 0, items = 0;
};

} // namespace mlir::phaedrus::trace

#endif // PHAEDRUS_TRACE_REPEATFOLDER_H
