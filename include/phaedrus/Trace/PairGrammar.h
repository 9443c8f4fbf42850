//===- PairGrammar.h - Grammar compression by pair replacement --*- C++ -*-===//
//
// A Re-Pair-class grammar compressor over symbol sequences: repeatedly
// replaces frequent adjacent pairs of symbols by new rule symbols (R -> a b).
// Each round counts all pairs in one pass and replaces, left to right, every
// non-overlapping occurrence of the pairs that occur at least `minCount`
// times, most frequent first; rounds continue until no pair qualifies. The
// result expands back to the input exactly. Time is linear per round and
// rounds are few (the sequence shrinks geometrically); memory is the
// sequence plus the pair counts.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TRACE_PAIRGRAMMAR_H
#define PHAEDRUS_TRACE_PAIRGRAMMAR_H

#include <array>
#include <cstdint>
#include <vector>

namespace mlir::phaedrus::trace {

struct PairGrammar {
  /// Symbols below `firstRule` are terminals; symbol firstRule + i is
  /// rules[i], which expands to its two symbols (terminals or earlier rules).
  uint32_t firstRule = 0;
  std::vector<std::array<uint32_t, 2>> rules;
  /// The compressed sequences, one per input sequence.
  std::vector<std::vector<uint32_t>> sequences;

  /// Appends the expansion of `symbol` to `out`.
  void expand(uint32_t symbol, std::vector<uint32_t> &out) const;
};

/// Compresses `sequences` (terminals must be below `firstRule`) with rules
/// shared by all of them. Pairs never span two sequences.
PairGrammar buildPairGrammar(std::vector<std::vector<uint32_t>> sequences,
                             uint32_t firstRule, unsigned minCount = 3,
                             unsigned maxRounds = 64);

} // namespace mlir::phaedrus::trace

#endif // PHAEDRUS_TRACE_PAIRGRAMMAR_H
