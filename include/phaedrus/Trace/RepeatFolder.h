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
// Only the last kSealWindow items of the output may still fold: an item
// further back is sealed, never part of a later repeat (whatever folds
// after it). A fold that reaches that far back needs thousands of items to
// collapse into a few, and folding is greedy, so sealing rarely changes
// anything; it makes the result the same whether the items are kept or
// handed on. With a sink (setSink), each sealed item goes to it in order
// and is forgotten, so memory is the window and the repeat bodies, not the
// length of the stream; without one, memory is the folded output.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TRACE_REPEATFOLDER_H
#define PHAEDRUS_TRACE_REPEATFOLDER_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
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

  /// Items that may still fold, at the end of the output.
  static constexpr size_t kSealWindow = 4096;

  explicit RepeatFolder(unsigned maxPeriod = 8) : maxPeriod(maxPeriod) {}

  /// Hands every sealed item to `sink` in order and drops it from items():
  /// those sealed so far at once, the others as they are sealed; finish()
  /// hands on the rest.
  void setSink(std::function<void(const Item &)> sink);

  void push(uint32_t token);
  void push(const uint32_t *tokens, size_t count) {
    for (size_t i = 0; i < count; ++i)
      push(tokens[i]);
  }
  /// `token`, `count` times in a row, in time independent of `count`.
  void pushRun(uint32_t token, uint64_t count);
  /// Ends the stream: with a sink, hands it the items left.
  void finish();

  /// The folded stream, in order (with a sink: the items not handed on).
  const std::vector<Item> &items() const { return output; }
  /// The items of repeat body `id`.
  const std::vector<Item> &body(uint32_t id) const { return bodies[id]; }
  /// Tokens pushed so far.
  uint64_t size() const { return pushed; }

  /// The number of tokens `item` expands to (at most 2^64 - 1: saturating).
  uint64_t length(const Item &item) const;

  /// Appends the expansion of `items` to `out` (for tests and checks).
  void expand(const std::vector<Item> &items, std::vector<uint32_t> &out) const;
  /// Appends the expansion of `item` to `out`.
  void expand(const Item &item, std::vector<uint32_t> &out) const;

private:
  bool fold();
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
  uint32_t intern(std::vector<Item> body);

  unsigned maxPeriod;
  uint64_t pushed = 0;
  std::vector<Item> output;
  /// output[0, sealed) can no longer fold.
  size_t sealed = 0;
  std::function<void(const Item &)> sink;
  std::vector<std::vector<Item>> bodies;
  std::map<std::vector<Item>, uint32_t> bodyIds;
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

} // namespace mlir::phaedrus::trace

#endif // PHAEDRUS_TRACE_REPEATFOLDER_H
