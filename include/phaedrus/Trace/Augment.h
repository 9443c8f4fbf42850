//===- Augment.h - Plausible traces of unseen inputs -------------*- C++ -*-===//
//
// The stream side of --phaedrus-augment: reading a recorded token stream's
// call tree and checking it against the program's static call graph,
// collecting what the transformations need (token counts, leaves, call
// contexts), and dropping rare leaf calls. Token meanings come from a
// CallGroupTable (with `path` tokens); streams are the recorded ones (call
// groups expanded). No MLIR dependency.
//
// The call tree is read as CallGroups.h describes (greedily: a call from X
// belongs to the nearest open frame of X), strictly: a call site of X or a
// path of X with no open frame of X is illegal, as is a `function` token
// (an entry from an unknown or indirect site) of a function that only its
// recorded direct call sites can enter. A call-site token names a static
// call edge, so a stream that reads legally uses only edges of the static
// call graph, each from a caller that is running.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TRACE_AUGMENT_H
#define PHAEDRUS_TRACE_AUGMENT_H

#include "phaedrus/Trace/CallGroups.h"
#include "phaedrus/Trace/SplitMix64.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace mlir::phaedrus::trace {

class CallTreeReader {
public:
  enum class Verdict : uint8_t {
    Legal,
    NoFrame,      ///< a call site or path of a function that is not running
    NotEnterable, ///< a `function` token of a function only direct calls enter
    GroupToken,   ///< a call-group token (streams must be recorded ones)
    Unknown,      ///< not a token of the table
  };

  /// `enterable[f]`: function id `f` may be entered from an unknown site.
  CallTreeReader(const CallGroupTable &table, std::vector<bool> enterable)
      : table(table), enterable(std::move(enterable)) {}

  /// Reads one token. After an illegal one the reading goes on as the
  /// folding's does (the caller becomes the root).
  Verdict read(uint32_t token);

  /// After reading a call-site or function token: its call context, a hash
  /// of the tokens that entered every open frame, root first. Two positions
  /// with the same context have the same open frames, so a stream can
  /// continue at either (splicing).
  uint64_t context() const { return stack.empty() ? 0 : stack.back().context; }
  size_t depth() const { return stack.size(); }
  /// The function of the innermost open frame (kNone if none).
  uint32_t running() const {
    return stack.empty() ? CallGroupTable::kNone : stack.back().function;
  }

  /// Says what `verdict` means for `token` of `table`, with function ids
  /// as names.
  static std::string explain(const CallGroupTable &table, Verdict verdict,
                             uint32_t token,
                             const std::vector<std::string> &functionNames);

  void reset() { stack.clear(); }

private:
  struct Frame {
    uint32_t function;
    uint64_t context;
  };
  bool popTo(uint32_t function);

  const CallGroupTable &table;
  std::vector<bool> enterable;
  std::vector<Frame> stack;
};

/// What the transformations need to know of one stream, from one reading.
class StreamFacts {
public:
  /// Contexts kept for splicing (a run of deep distinct recursion could
  /// otherwise make one per event).
  static constexpr size_t kMaxContexts = 1 << 20;

  /// `seed` picks which occurrence of each context is remembered.
  StreamFacts(const CallGroupTable &table, std::vector<bool> enterable,
              uint64_t seed);

  void push(const uint32_t *tokens, size_t count);
  void finish();

  /// Occurrences of each token id.
  const std::vector<uint64_t> &counts() const { return tokenCounts; }
  /// Call-site token `token` entered a frame that had a child at least once
  /// (a call from its callee, or any `function` entry while it was the
  /// innermost frame). Other call sites are leaves wherever they run.
  bool hasChild(uint32_t token) const { return withChild[token]; }
  uint64_t length() const { return position; }

  /// Position of the first illegal token, its verdict, or Legal.
  uint64_t firstIllegalAt() const { return illegalAt; }
  CallTreeReader::Verdict firstIllegal() const { return illegal; }
  uint32_t firstIllegalToken() const { return illegalToken; }

  /// The call contexts of call-site and function tokens, each with the
  /// position of one of its occurrences (uniformly chosen by the seed).
  const std::unordered_map<uint64_t, uint64_t> &contexts() const {
    return contextAt;
  }

private:
  const CallGroupTable &table;
  CallTreeReader reader;
  SplitMix64 rng;
  std::vector<uint64_t> tokenCounts;
  std::vector<bool> withChild;
  struct Seen {
    uint64_t count = 0;
    uint64_t position = 0;
  };
  std::unordered_map<uint64_t, Seen> seen;
  std::unordered_map<uint64_t, uint64_t> contextAt;
  // Call-site token whose callee frame is the innermost, with no child yet.
  uint32_t openLeaf = CallGroupTable::kNone;
  uint64_t position = 0;
  uint64_t illegalAt = UINT64_MAX;
  uint32_t illegalToken = 0;
  CallTreeReader::Verdict illegal = CallTreeReader::Verdict::Legal;
};

/// Drops every occurrence of the call-site tokens in `dropped` (each must
/// be a leaf wherever it runs: StreamFacts::hasChild false) with the path
/// tokens of its callee that follow it: the callee's whole invocation. The
/// rest of the stream reads as before.
class LeafDropper {
public:
  LeafDropper(const CallGroupTable &table, std::vector<bool> dropped)
      : table(table), dropped(std::move(dropped)) {}
  void push(const uint32_t *tokens, size_t count, std::vector<uint32_t> &out);
  uint64_t numDropped() const { return droppedTokens; }

private:
  const CallGroupTable &table;
  std::vector<bool> dropped;
  uint32_t skipping = CallGroupTable::kNone; // callee whose paths are skipped
  uint64_t droppedTokens = 0;
};

/// Log-scale count buckets, as the models' token space has them
/// (docs/Model.md): count n >= 1 is in bucket floor(perOctave * log2 n).
class CountBuckets {
public:
  explicit CountBuckets(unsigned perOctave) : perOctave(perOctave) {}
  unsigned bucket(uint64_t count) const;
  /// The smallest and largest count of `bucket`; lo > hi when it holds no
  /// whole number.
  uint64_t lowest(unsigned bucket) const;
  uint64_t highest(unsigned bucket) const { return lowest(bucket + 1) - 1; }
  /// A count drawn uniformly from a bucket drawn uniformly among the
  /// non-empty buckets within `spread` of `count`'s (never below 1), with
  /// `rng` (a SplitMix64).
  template <typename Rng>
  uint64_t resample(uint64_t count, unsigned spread, Rng &rng) const {
    unsigned b = bucket(count);
    unsigned first = b > spread ? b - spread : 0;
    // (In 64 bits: b + spread wrapped for a spread near 2^32, and only the
    // buckets below the count's were drawn from.)
    uint64_t last = std::min<uint64_t>(uint64_t(b) + spread, maxBucket());
    std::vector<unsigned> candidates;
    for (unsigned c = first; c <= last; ++c)
      if (lowest(c) <= highest(c))
        candidates.push_back(c);
    if (candidates.empty())
      return count;
    unsigned chosen = candidates[rng.below(candidates.size())];
    uint64_t lo = lowest(chosen), hi = highest(chosen);
    return lo + rng.below(hi - lo + 1);
  }

private:
  /// The last bucket whose successor's lowest count fits in 64 bits.
  unsigned maxBucket() const { return 64 * perOctave - 2; }
  unsigned perOctave;
};

} // namespace mlir::phaedrus::trace

#endif // PHAEDRUS_TRACE_AUGMENT_H
