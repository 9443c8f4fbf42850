//===- ContextCoder.h - Context-mixing arithmetic coding --------*- C++ -*-===//
//
// Entropy coding for packed traces (docs/PackedTrace.md): a binary
// arithmetic coder driven by adaptive context models.
//
// * `BitCoder` codes one bit at a time with a 12-bit probability; the same
//   object encodes (bits in, bytes out) or decodes (bytes in, bits out), so
//   every model below is written once for both directions.
// * `SymbolModel` codes symbols of a fixed width. `Predicted` coding
//   (packed format version 3) first predicts the whole symbol: the next
//   symbol of a match model that follows the last occurrence of the current
//   order-12, else order-6, context, else the symbol last seen after the
//   current order-3, 2 or 1 context; one adaptive flag, mixed from counters
//   under small contexts and refined per probability, says whether it is
//   right. Only a miss is coded bit by bit, so repetitive traces cost about
//   one binary decision per symbol. With runs (version 5), a symbol deep in
//   an order-12 match costs less time too: its flag comes from one counter
//   under the previous and predicted symbols, and nothing else is updated,
//   unless that counter is unsure and the mixed flag decides. `Bitwise`
//   coding (versions 1 and 2) codes every symbol's bits. The bits go most
//   significant first, each predicted from the symbols before it: adaptive counters under the
//   orders 0, 1, 2, 3, 4 and 6 contexts (hashed; for 3, 4 and 6 after a
//   miss also with the failed prediction), and an expected symbol (bitwise:
//   the order-6 match's; predicted: the next guess after the failed one);
//   a gated linear mixer in the logistic domain combines them.
// * `NumberModel` codes unsigned 64-bit numbers (Elias-gamma shape, every
//   bit adaptive under a caller-given context) and single flags.
//
// Encoder and decoder must make the same calls in the same order with the
// same arguments; the arithmetic is all integer, so a file decodes the same
// on every machine. Time is linear in the number of bits coded (in
// predicted coding: flags plus the bits of the misses); memory is the model
// tables (fixed when the model is made) plus the symbol history.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TRACE_CONTEXTCODER_H
#define PHAEDRUS_TRACE_CONTEXTCODER_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace mlir::phaedrus::trace {

/// A binary arithmetic coder, 32-bit range, carry-less.
class BitCoder {
public:
  /// An encoder that appends to `out`.
  static BitCoder encoder(std::vector<uint8_t> &out) {
    return BitCoder(&out, nullptr, 0);
  }
  /// A decoder over `size` bytes at `data`.
  static BitCoder decoder(const uint8_t *data, size_t size) {
    return BitCoder(nullptr, data, size);
  }

  bool isEncoder() const { return out != nullptr; }

  /// Codes `bit` (ignored when decoding) with probability `p1` / 2^bits
  /// that it is 1 (1 <= p1 < 2^bits, bits 12 or 16); returns the bit coded.
  bool code(bool bit, uint32_t p1, unsigned bits = 12);

  /// Ends an encoding: writes what the decoder needs to decode every bit.
  void finish();

  /// True if decoding needed bytes past the end of its input: the input was
  /// truncated or corrupt, and bits decoded after that point are garbage.
  bool overran() const { return readPastEnd > 4; }
  /// How many bytes of its input a decoder has not read (after the last
  /// symbol of a whole stream: none, as finish() writes exactly what the
  /// decoder reads).
  size_t unread() const { return inSize - inPos; }

private:
  BitCoder(std::vector<uint8_t> *out, const uint8_t *in, size_t size);
  uint8_t nextByte();

  std::vector<uint8_t> *out;
  const uint8_t *in;
  size_t inSize, inPos = 0;
  size_t readPastEnd = 0;
  uint32_t low = 0, high = 0xffffffff, x = 0;
};

/// The symbols coded so far, in chunks of 2^20: growing never copies them
/// nor holds more than one chunk unused (a vector that doubles may hold
/// twice what it needs). With a window of 2^windowBits symbols (at least
/// one chunk), only the last 2^windowBits are kept: the chunks are reused
/// in turn, and older symbols must not be read.
class SymbolHistory {
public:
  static constexpr unsigned kChunkBits = 20;
  /// `windowBits` 0 keeps every symbol.
  explicit SymbolHistory(unsigned windowBits = 0)
      : chunkMask(windowBits ? (size_t(1) << (windowBits - kChunkBits)) - 1
                             : SIZE_MAX) {}
  size_t size() const { return count; }
  uint32_t operator[](size_t i) const {
    return chunks[(i >> kChunkBits) & chunkMask][i & (kChunk - 1)];
  }
  void push_back(uint32_t symbol) {
    size_t chunk = (count >> kChunkBits) & chunkMask;
    if (chunk == chunks.size())
      chunks.emplace_back(new uint32_t[kChunk]);
    chunks[chunk][count & (kChunk - 1)] = symbol;
    ++count;
  }

private:
  static constexpr size_t kChunk = size_t(1) << kChunkBits;
  size_t chunkMask;
  std::vector<std::unique_ptr<uint32_t[]>> chunks;
  size_t count = 0;
};

/// TableAllocator's memory (freed with std::free); aborts when out of
/// memory, as a std::vector does.
void *allocateTable(size_t bytes);

/// An allocator for large tables read at random: from 2 MiB on, the
/// memory is aligned to 2 MiB and asked to be backed by huge pages
/// (madvise; where the kernel leaves that to the program), before anything
/// touches it: one page fault and one TLB entry per 2 MiB instead of 512.
template <typename T> struct TableAllocator {
  using value_type = T;
  TableAllocator() = default;
  template <typename U> TableAllocator(const TableAllocator<U> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(allocateTable(n * sizeof(T)));
  }
  void deallocate(T *p, size_t) { std::free(p); }
  template <typename U> bool operator==(const TableAllocator<U> &) const {
    return true;
  }
  template <typename U> bool operator!=(const TableAllocator<U> &) const {
    return false;
  }
};
template <typename T> using Table = std::vector<T, TableAllocator<T>>;

/// Symbols of `symbolBits` bits (1 to 24), predicted from their history.
class SymbolModel {
public:
  /// How a symbol is coded. `Bitwise` (packed format versions 1 and 2):
  /// every bit through the mixer. `Predicted` (version 3): first a flag
  /// "the symbol is the predicted one", and only on a miss its bits.
  enum Coding { Bitwise, Predicted };

  /// The run lengths a model takes besides 0 (the order-12 match starts at
  /// 12 symbols; its length saturates at 65535).
  static constexpr unsigned kMinRunLength = 12, kMaxRunLength = 65535;

  /// `tableBits` (10 to 24) sets the size of each hashed context table:
  /// 2^tableBits counters of 4 bytes.
  ///
  /// `windowBits` (0, or 20 to 32) bounds the history the match models
  /// look back into to the last 2^windowBits symbols (packed format version
  /// 4), and so the model's memory; 0 keeps the whole history (versions 1
  /// to 3).
  ///
  /// `flagBits` (Predicted coding): the precision of the flag's
  /// probability, 12 bits (versions 3) or 16 (version 4: a predicted symbol
  /// then costs down to 1/45,000 of a bit instead of 1/2,800).
  ///
  /// `runLength` (Predicted coding; 0, or 12 to 65535): once the order-12
  /// match has followed this many symbols (counting the ones verified
  /// before it), a symbol is coded in a *run* (packed format version 5):
  /// its flag from one counter under the previous symbol and the predicted
  /// one, while that counter is sure (a miss at most 1 in 128), and no
  /// table, context hash or match position is updated until the match
  /// fails. 0 turns runs off (versions 3 and 4).
  ///
  /// `growTables` (Predicted coding; packed format version 6): the hashed
  /// tables start at a quarter of 2^tableBits counters, but at least
  /// 2^kGrowStartBits (or 2^tableBits if smaller), and double, up to
  /// 2^tableBits, whenever the symbols coded outside a run's sure hits
  /// (which touch no table) reach half the counters one table holds: a
  /// trace that is mostly runs then does not clear tables sized for all of
  /// its symbols.
  SymbolModel(unsigned symbolBits, unsigned tableBits,
              Coding coding = Bitwise, unsigned windowBits = 0,
              unsigned flagBits = 12, unsigned runLength = 0,
              bool growTables = false);

  /// Where growing tables start: 2^-kGrowStartShift of their limit, and
  /// at least 2^kGrowStartBits counters.
  static constexpr unsigned kGrowStartBits = 18, kGrowStartShift = 2;

  /// Codes `symbol` (must be below 2^symbolBits when encoding; ignored when
  /// decoding) and returns the symbol coded.
  uint32_t code(BitCoder &coder, uint32_t symbol);

  unsigned bits() const { return symbolBits; }

  /// (Predicted coding) how many symbols so far were the predicted symbol,
  /// coded by the flag alone.
  uint64_t predictionHits() const { return hits; }

  /// How many symbols were coded so far.
  uint64_t symbolsCoded() const { return history.size(); }

  /// The hashed tables' size now, and the most they may grow to: 2^bits
  /// counters each.
  unsigned currentTableBits() const { return tableBits; }
  unsigned tableBitsLimit() const { return maxTableBits; }

  /// (Runs) how many symbols so far were coded in a run, and of them how
  /// many by the run's own flag alone (hits it was sure of).
  uint64_t runSymbols() const { return inRuns; }
  uint64_t runSureHits() const { return sureHits; }

private:
  static constexpr unsigned kOrders = 5; // hashed orders 1, 2, 3, 4, 6
  static constexpr unsigned kInputs = kOrders + 3; // + order 0, match, bias
  static constexpr unsigned kSources = 6; // none, orders 1-3, two matches
  static constexpr unsigned kRefineContexts = 1024;
  static constexpr unsigned kFlagInputs = 6; // 5 counters and a bias
  static constexpr uint32_t kNoSymbol = UINT32_MAX;

  void beginSymbol();
  void endSymbol(uint32_t symbol);
  /// Appends `symbol` to the history and the recent symbols.
  void remember(uint32_t symbol);
  /// Codes the bits of `symbol`, which is not `excluded` (kNoSymbol for
  /// none). Predicted coding: `missState` picks the mixer weights, and
  /// `alternative` (kNoSymbol for none) is the match input's expected
  /// symbol, its confidence learned per `alternativeBucket`.
  uint32_t codeBits(BitCoder &coder, uint32_t symbol, uint32_t excluded,
                    unsigned missState, uint32_t alternative,
                    unsigned alternativeBucket);
  /// The predicted symbol (kNoSymbol if none) and where it came from
  /// (0 none, 1 to 3 the order 1 to 3 table, 4 the order-6 match, 5 the
  /// order-12 match).
  uint32_t predict(unsigned &source) const;
  bool codeFlag(BitCoder &coder, bool hit, uint32_t predicted,
                unsigned source);
  /// Codes `symbol`, which the flag said is not `predicted` (from
  /// `source`), bit by bit.
  uint32_t codeMiss(BitCoder &coder, uint32_t symbol, uint32_t predicted,
                    unsigned source);
  /// Codes `symbol` in a run (the order-12 match is at least runLength).
  uint32_t codeInRun(BitCoder &coder, uint32_t symbol);
  /// Brings the context hashes up to date after the symbols a run coded
  /// without them.
  void leaveRun();
  uint32_t lastAfterSlot(unsigned order) const;
  /// The slot of the order-`order` table that holds the counter of bit
  /// tree node `node` (1 is the root) under the current context.
  uint32_t tableIndex(unsigned order, uint32_t node) const;
  /// Asks the cache for the counters of `node` in every order table.
  void prefetchNode(uint32_t node) const;
  /// The symbol last seen after the previous 3, else 2, else 1 symbols that
  /// is not `excluded`, and its order in `order`; kNoSymbol (order 0) if
  /// none.
  uint32_t lastAfterOrder(uint32_t excluded, unsigned &order) const;
  /// The next symbol of the order-6 match, kNoSymbol when none is running.
  uint32_t matchSymbol() const {
    return matchLength > 0 && matchPtr < history.size() ? history[matchPtr]
                                                        : kNoSymbol;
  }
  void findMatch(Table<uint32_t> &positions, uint32_t hash,
                 unsigned minLength, size_t &ptr, uint32_t &length);
  /// Doubles the hashed tables (growTables), each context keeping what it
  /// had learned: a counter or position indexed by the top bits of a hash
  /// goes to both slots one more bit picks, one indexed by the low bits
  /// to the slot and the one in the new upper half.
  void grow();

  unsigned symbolBits, tableBits, maxTableBits;
  /// The count of symbols coded outside sure run hits at which the tables
  /// grow next (UINT64_MAX: at their size).
  uint64_t growAt = UINT64_MAX;
  Coding coding;
  /// How far back a match may start: 2^windowBits, or unbounded.
  uint64_t window;
  unsigned flagBits;
  std::vector<uint32_t> order0;                 // 2^symbolBits counters
  std::array<Table<uint32_t>, kOrders> tables;
  std::array<uint32_t, kOrders> contextHash{};
  SymbolHistory history;
  std::array<uint32_t, 6> recent{}; // the last 6 symbols, the last first
  // Match model: where the current order-6 context last occurred.
  Table<uint32_t> lastPosition;
  size_t matchPtr = 0;
  uint32_t matchLength = 0;
  std::vector<uint32_t> matchCounters; // by length bucket and expected bit
  // Mixer: one weight vector per (match state, bit position).
  std::vector<int32_t> weights;

  // Predicted coding only.
  std::array<uint32_t, 7> chain{}; // hashes of the previous 0 to 6 symbols
  uint32_t tableMask = 0;
  Table<uint32_t> lastAfter; // symbol + 1 last seen after orders 1-3
  Table<uint32_t> flagCounters;
  std::vector<int32_t> flagWeights; // per source, agreement, last flag
  std::vector<uint32_t> refine; // the flag's probability refined, 33 points
  uint32_t recentHits = 0;      // the last flags, one bit each
  uint64_t hits = 0;
  // A second match model, on order-12 contexts.
  std::array<uint32_t, 6> pastChain6{}; // chain[6] of the last 6 positions
  uint32_t longHash = 0;
  Table<uint32_t> longLastPosition;
  size_t longPtr = 0;
  uint32_t longLength = 0;
  // Runs: the flag's probability of a hit (32 bits) and update count, per
  // hashed previous and predicted symbol.
  struct RunCounter {
    uint32_t p = 1u << 31;
    uint32_t n = 0;
  };
  unsigned runLength = 0;
  bool inRun = false; // symbols were coded in a run since the last hashes
  uint64_t inRuns = 0, sureHits = 0;
  std::vector<RunCounter> runCounters;
};

/// Unsigned numbers and flags, each under a context the caller chooses.
class NumberModel {
public:
  explicit NumberModel(unsigned tableBits = 16);

  uint64_t code(BitCoder &coder, uint64_t value, uint32_t context);
  bool codeFlag(BitCoder &coder, bool flag, uint32_t context);

private:
  bool codeBit(BitCoder &coder, bool bit, uint32_t hash);

  uint32_t tableMask;
  std::vector<uint32_t> counters;
};

/// 32-bit mixing hash of two values (for building model contexts).
uint32_t hashCombine(uint32_t a, uint32_t b);

} // namespace mlir::phaedrus::trace

#endif // PHAEDRUS_TRACE_CONTEXTCODER_H
