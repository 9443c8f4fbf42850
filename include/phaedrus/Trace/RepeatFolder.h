//===- RepeatFolder.h - Folding immediate repeats in one pass ---*- C++ -*-===//
//
// Folds immediate repeats of a token stream as it arrives: a block of up to
// `maxPeriod` tokens that occurs twice in a row becomes a counted repeat,
// which then absorbs every further occurrence. Memory is the size of the
// folded output; each token costs O(maxPeriod) in the worst case and O(1)
// inside a repeat. Expanding the items gives back the stream exactly.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TRACE_REPEATFOLDER_H
#define PHAEDRUS_TRACE_REPEATFOLDER_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mlir::phaedrus::trace {

class RepeatFolder {
public:
  /// `tokens` once (count 1: a literal run) or `count` times in a row.
  struct Item {
    std::vector<uint32_t> tokens;
    uint64_t count = 1;
  };

  explicit RepeatFolder(unsigned maxPeriod = 8) : maxPeriod(maxPeriod) {}

  void push(uint32_t token);
  void push(const uint32_t *tokens, size_t count) {
    for (size_t i = 0; i < count; ++i)
      push(tokens[i]);
  }
  /// Ends the stream; items() is complete afterwards.
  void finish();
  const std::vector<Item> &items() const { return output; }
  uint64_t size() const { return pushed; }

private:
  void step(uint32_t token);
  void pushLiteral(uint32_t token);
  void flushLiteral();

  unsigned maxPeriod;
  uint64_t pushed = 0;
  std::vector<uint32_t> literal;
  // The open repeat, if `inRepeat`: `block` seen `count` times, and the
  // first `match` tokens of the next occurrence.
  bool inRepeat = false;
  std::vector<uint32_t> block;
  uint64_t count = 0;
  size_t match = 0;
  std::vector<Item> output;
};

} // namespace mlir::phaedrus::trace

#endif // PHAEDRUS_TRACE_REPEATFOLDER_H
