//===- ContextCoder.cpp - Context-mixing arithmetic coding ----------------===//

#include "phaedrus/Trace/ContextCoder.h"
#include "phaedrus/Trace/OutOfMemory.h"

#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>

#include <algorithm>
#include <cassert>

using namespace mlir::phaedrus::trace;

//===----------------------------------------------------------------------===//
// Arithmetic coder
//===----------------------------------------------------------------------===//

BitCoder::BitCoder(std::vector<uint8_t> *out, const uint8_t *in, size_t size)
    : out(out), in(in), inSize(size) {
  if (!out)
    for (int i = 0; i < 4; ++i)
      x = (x << 8) | nextByte();
}

uint8_t BitCoder::nextByte() {
  if (inPos < inSize)
    return in[inPos++];
  ++readPastEnd;
  return 0;
}

bool BitCoder::code(bool bit, uint32_t p1, unsigned bits) {
  // [low, mid] codes a 1, (mid, high] a 0; both halves are non-empty.
  uint32_t mid = low + static_cast<uint32_t>(
                           (static_cast<uint64_t>(high - low) * p1) >> bits);
  if (!out)
    bit = x <= mid;
  if (bit)
    high = mid;
  else
    low = mid + 1;
  // Shift out the leading bytes that low and high now share.
  while (((low ^ high) & 0xff000000u) == 0) {
    if (out)
      out->push_back(static_cast<uint8_t>(high >> 24));
    else
      x = (x << 8) | nextByte();
    low <<= 8;
    high = (high << 8) | 0xffu;
  }
  return bit;
}

void BitCoder::finish() {
  // All four bytes of low: the decoder then reads exactly what was written.
  for (int shift = 24; shift >= 0; shift -= 8)
    out->push_back(static_cast<uint8_t>(low >> shift));
}

//===----------------------------------------------------------------------===//
// Shared arithmetic: logistic domain, adaptive counters
//===----------------------------------------------------------------------===//

namespace {

/// squash(d) = 4096 / (1 + e^(-d/256)), interpolated between 33 points
/// (the values of that function at d = -2048, -1920, ..., 2048, rounded).
int squash(int d) {
  static constexpr int points[33] = {
      1,    2,    4,    6,    10,   17,   27,   45,   74,   120,  194,
      311,  488,  747,  1102, 1546, 2048, 2550, 2994, 3349, 3608, 3785,
      3902, 3976, 4022, 4051, 4069, 4079, 4086, 4090, 4092, 4094, 4095};
  if (d > 2047)
    return 4095;
  if (d < -2047)
    return 1;
  int w = d & 127;
  int i = (d >> 7) + 16;
  return (points[i] * (128 - w) + points[i + 1] * w + 64) >> 7;
}

/// The inverse of squash, tabulated over 12-bit probabilities.
struct StretchTable {
  int16_t values[4096];
  StretchTable() {
    int pi = 0;
    for (int d = -2047; d <= 2047; ++d) {
      int v = squash(d);
      for (int p = pi; p <= v; ++p)
        values[p] = static_cast<int16_t>(d);
      pi = v + 1;
    }
    for (int p = pi; p < 4096; ++p)
      values[p] = 2047;
  }
};

int stretch(int p) {
  static const StretchTable table;
  return table.values[p];
}

/// Counters hold a 22-bit probability of a 1 and a 10-bit count of the
/// updates so far: the step is 1 / (count + 1.5), so a new context learns
/// fast and an old one averages, up to `limit` updates.
constexpr uint32_t kCounterInit = 1u << 31;

int counterP(uint32_t counter) {
  return std::clamp(static_cast<int>(counter >> 20), 1, 4095);
}

/// `p` moved toward `target` by 1 / (n + 1.5) of the error: the step of an
/// adaptive probability after n updates (n < 1024).
int64_t adapt(int64_t p, int64_t target, uint32_t n) {
  static const struct Reciprocals {
    int32_t values[1024];
    Reciprocals() {
      for (int n = 0; n < 1024; ++n)
        values[n] = 131072 / (2 * n + 3);
    }
  } reciprocals;
  return p + (((target - p) * reciprocals.values[n]) >> 16);
}

void updateCounter(uint32_t &counter, bool bit, uint32_t limit) {
  uint32_t n = counter & 1023;
  int64_t p = adapt(counter >> 10, bit ? (1 << 22) - 1 : 0, n);
  if (n < limit)
    ++n;
  counter = (static_cast<uint32_t>(p) << 10) | n;
}

constexpr int kLearningRate = 4;

/// The gated linear mixer: the probability (1 to 4095) that weights `w`
/// give the `n` stretched `inputs`.
int mix(const int32_t *w, const int *inputs, unsigned n) {
  int64_t dot = 0;
  for (unsigned j = 0; j < n; ++j)
    dot += static_cast<int64_t>(w[j]) * inputs[j];
  return std::clamp(
      squash(static_cast<int>(std::clamp<int64_t>(dot >> 16, -2047, 2047))), 1,
      4095);
}

/// Moves the mixer's weights toward the coded `bit` after it predicted `p`.
void learn(int32_t *w, const int *inputs, unsigned n, bool bit, int p) {
  int err = ((static_cast<int>(bit) << 12) - p) * kLearningRate;
  for (unsigned j = 0; j < n; ++j)
    w[j] += (inputs[j] * err) >> 14;
}
constexpr unsigned kMaxSymbolBits = 24;
constexpr unsigned kMatchMinLength = 6;
constexpr unsigned kLongMatchMinLength = 12; // predicted coding's second match
static_assert(kLongMatchMinLength == SymbolModel::kMinRunLength);
/// The start of the chain of context hashes (SymbolModel::beginSymbol).
constexpr uint32_t kChainSeed = 0x5eed0000u;
constexpr uint32_t kOrderLengths[] = {1, 2, 3, 4, 6};
/// Runs: 2^16 counters; a run's own flag is used while it gives a miss at
/// most 512 / 2^16 = 1/128. (Lua's strings.lua path trace: its own flag
/// alone made the bodies 8% larger than the mixed flag, most of it on the
/// misses, 1.70 against 1.25 bits each; deciding the unsure ones with the
/// mixed flag, 1.4% larger, and nearly as fast.)
constexpr unsigned kRunContextBits = 16;
constexpr uint32_t kRunSure = 65536 - 512;
constexpr uint32_t kRunCountLimit = 1023;

} // namespace

uint32_t mlir::phaedrus::trace::hashCombine(uint32_t a, uint32_t b) {
  uint32_t h = (a ^ 0x2545f491u) * 0x9e3779b1u;
  h ^= b + 0x7f4a7c15u + (h << 6) + (h >> 2);
  h *= 0x85ebca6bu;
  return h ^ (h >> 15);
}

namespace {
/// The chain of context hashes before a position: chain[j] covers the j
/// symbols before it, `before(j)` being the j-th symbol back plus 1 (0 for
/// one before the start).
template <typename Before>
void hashChain(std::array<uint32_t, 7> &chain, Before before) {
  chain[0] = kChainSeed;
  for (uint32_t j = 1; j <= 6; ++j)
    chain[j] = hashCombine(chain[j - 1], before(j));
}
} // namespace

void *mlir::phaedrus::trace::allocateTable(size_t bytes) {
  constexpr size_t kHugePage = size_t(1) << 21;
  void *memory = nullptr;
  if (bytes >= kHugePage) {
    size_t rounded = (bytes + kHugePage - 1) & ~(kHugePage - 1);
    if (posix_memalign(&memory, kHugePage, rounded) == 0) {
#ifdef MADV_HUGEPAGE
      (void)madvise(memory, rounded, MADV_HUGEPAGE); // a hint: may fail
#endif
      return memory;
    }
    memory = nullptr;
  } else {
    memory = std::malloc(bytes ? bytes : 1);
  }
  if (!memory)
    outOfMemory("a coder table");
  return memory;
}

//===----------------------------------------------------------------------===//
// SymbolModel
//===----------------------------------------------------------------------===//

SymbolModel::SymbolModel(unsigned symbolBits, unsigned tableBits,
                         Coding coding, unsigned windowBits, unsigned flagBits,
                         unsigned runLength, bool growTables)
    : symbolBits(std::clamp(symbolBits, 1u, kMaxSymbolBits)),
      tableBits(std::clamp(tableBits, 10u, 24u)),
      maxTableBits(this->tableBits), coding(coding),
      window(windowBits ? uint64_t(1) << windowBits : UINT64_MAX),
      flagBits(flagBits == 16 ? 16 : 12), history(windowBits) {
  assert((!growTables || coding == Predicted) &&
         "tables grow with predicted coding");
  if (growTables && coding == Predicted) {
    this->tableBits = std::min(
        this->tableBits,
        std::max(kGrowStartBits, this->tableBits - kGrowStartShift));
    if (this->tableBits < maxTableBits)
      growAt = uint64_t(1) << (this->tableBits - 1);
  }
  assert((windowBits == 0 ||
          (windowBits >= SymbolHistory::kChunkBits && windowBits <= 32)) &&
         "a window of 2^20 to 2^32 symbols");
  order0.assign(size_t(1) << this->symbolBits, kCounterInit);
  for (auto &table : tables)
    table.assign(size_t(1) << this->tableBits, kCounterInit);
  lastPosition.assign(size_t(1) << (this->tableBits - 2), 0);
  // Bitwise coding: 32 match length buckets. Predicted coding: the
  // alternative's bucket (its source and the miss state), 32 to 47.
  matchCounters.assign(2 * 48, kCounterInit);
  // Weight sets: 4 match states; predicted coding 4 miss states, each
  // with and without the alternative.
  weights.assign(size_t(8) * kMaxSymbolBits * kInputs, 1 << 14);
  if (coding == Predicted) {
    longLastPosition.assign(size_t(1) << (this->tableBits - 2), 0);
    tableMask = (1u << this->tableBits) - 1;
    lastAfter.assign(size_t(1) << this->tableBits, 0);
    flagCounters.assign(size_t(1) << this->tableBits, kCounterInit);
    flagWeights.assign(size_t(kSources) * 32 * kFlagInputs, 1 << 14);
    // The refinement starts as the identity: squash of each point.
    refine.resize(size_t(kRefineContexts) * 33);
    for (size_t c = 0; c < kRefineContexts; ++c)
      for (int j = 0; j < 33; ++j)
        refine[c * 33 + j] = static_cast<uint32_t>(squash((j - 16) * 128))
                             << 20;
    if (runLength) {
      // (The order-12 match starts at 12 symbols or more.)
      this->runLength = std::clamp(runLength, kMinRunLength, kMaxRunLength);
      runCounters.resize(size_t(1) << kRunContextBits);
    }
  }
  beginSymbol();
}

void SymbolModel::beginSymbol() {
  size_t n = history.size();
  if (coding == Predicted) {
    // One chain of hashes serves every order: chain[j] covers the previous
    // j symbols (a missing symbol before the start counts as its own
    // value). The order-12 hash joins chain[6] to chain[6] of 6 symbols
    // ago rather than extending the chain (a serial chain of hashes is
    // what this costs per symbol).
    hashChain(chain, [&](uint32_t j) { return j <= n ? recent[j - 1] + 1 : 0; });
    uint32_t &sixAgo = pastChain6[n % pastChain6.size()];
    longHash = hashCombine(chain[6], sixAgo);
    sixAgo = chain[6];
    return;
  }
  // Context hashes of the orders, over the symbols before this one (a
  // missing symbol before the start counts as its own value).
  for (unsigned k = 0; k < kOrders; ++k) {
    uint32_t h = hashCombine(0xc0de0000u + k, kOrderLengths[k]);
    for (uint32_t j = 1; j <= kOrderLengths[k]; ++j)
      h = hashCombine(h, j <= n ? recent[j - 1] + 1 : 0);
    contextHash[k] = h;
  }
}

uint32_t SymbolModel::lastAfterSlot(unsigned order) const {
  return ((chain[order] + order * 0x6a09e667u) * 0x2c1b3c6du >> 8) & tableMask;
}

uint32_t SymbolModel::lastAfterOrder(uint32_t excluded, unsigned &order) const {
  for (unsigned k = 3; k >= 1; --k) {
    uint32_t seen = lastAfter[lastAfterSlot(k)];
    if (seen && seen - 1 != excluded) {
      order = k;
      return seen - 1;
    }
  }
  order = 0;
  return kNoSymbol;
}

void SymbolModel::findMatch(Table<uint32_t> &positions, uint32_t hash,
                            unsigned minLength, size_t &ptr,
                            uint32_t &length) {
  size_t n = history.size();
  uint32_t &slot = positions[hash >> (32 - (tableBits - 2))];
  if (length == 0 && slot > 0) {
    // The candidate: with the whole history, the slot holds its position
    // (saturated at 2^32 - 1); with a window, the position modulo 2^32,
    // taken only if the symbols verified before it are still in the window
    // (a match then stays at that distance, so it never reads outside it
    // either).
    uint32_t limit = std::max(32u, minLength);
    size_t candidate = slot;
    if (window != UINT64_MAX) {
      uint64_t distance = static_cast<uint32_t>(static_cast<uint32_t>(n) - slot);
      candidate = distance > 0 && distance <= n && distance + limit <= window
                      ? n - distance
                      : 0;
    }
    // Verify it: how many symbols before it equal ours.
    uint32_t verified = 0;
    while (verified < limit && verified < candidate &&
           history[candidate - 1 - verified] == history[n - 1 - verified])
      ++verified;
    if (verified >= minLength) {
      length = verified;
      ptr = candidate;
    }
  }
  slot = window == UINT64_MAX
             ? static_cast<uint32_t>(std::min<size_t>(n, UINT32_MAX))
             : static_cast<uint32_t>(n);
}

namespace {
/// Follows a match past `symbol`, or ends it.
void followMatch(const SymbolHistory &history, uint32_t symbol,
                 size_t &ptr, uint32_t &length) {
  if (length > 0 && history[ptr] == symbol) {
    length = std::min<uint32_t>(length + 1, 65535);
    ++ptr;
  } else {
    length = 0;
  }
}
} // namespace

void SymbolModel::remember(uint32_t symbol) {
  history.push_back(symbol);
  for (size_t j = recent.size() - 1; j > 0; --j)
    recent[j] = recent[j - 1];
  recent[0] = symbol;
}

void SymbolModel::endSymbol(uint32_t symbol) {
  if (coding == Predicted)
    for (unsigned k = 1; k <= 3; ++k)
      lastAfter[lastAfterSlot(k)] = symbol + 1;
  followMatch(history, symbol, matchPtr, matchLength);
  if (coding == Predicted)
    followMatch(history, symbol, longPtr, longLength);
  remember(symbol);
  size_t n = history.size();
  if (coding == Bitwise) {
    if (n >= kMatchMinLength) {
      uint32_t h = 0x3a7c0000u;
      for (size_t j = n - kMatchMinLength; j < n; ++j)
        h = hashCombine(h, history[j]);
      findMatch(lastPosition, h, kMatchMinLength, matchPtr, matchLength);
    }
    beginSymbol();
    return;
  }
  beginSymbol(); // the matches below hash with the new chain
  if (n >= kMatchMinLength)
    findMatch(lastPosition, chain[kMatchMinLength], kMatchMinLength, matchPtr,
              matchLength);
  if (n >= kLongMatchMinLength)
    findMatch(longLastPosition, longHash, kLongMatchMinLength, longPtr,
              longLength);
}

uint32_t SymbolModel::predict(unsigned &source) const {
  // The longer match first: on bzip2's function trace it predicts 60% of
  // the symbols where the order-6 match alone predicts 55%.
  if (longLength > 0 && longPtr < history.size()) {
    source = 5;
    return history[longPtr];
  }
  if (uint32_t symbol = matchSymbol(); symbol != kNoSymbol) {
    source = 4;
    return symbol;
  }
  // (A seen symbol is never kNoSymbol, so nothing is excluded.)
  return lastAfterOrder(kNoSymbol, source);
}

bool SymbolModel::codeFlag(BitCoder &coder, bool hit, uint32_t predicted,
                           unsigned source) {
  // Which other predictions agree with this one, one bit each: the order
  // 1-3 tables, and the order-6 match when the long match predicted.
  uint32_t agree = 0;
  for (unsigned k = 1; k <= 3; ++k)
    agree = agree * 2 + (lastAfter[lastAfterSlot(k)] == predicted + 1);
  // (With source 5 `predicted` is a symbol, never kNoSymbol.)
  agree = agree * 2 + (source == 5 && matchSymbol() == predicted);
  uint32_t length = source == 5 ? longLength : matchLength;
  unsigned lengthBucket =
      length < 16 ? length : 16 + std::min(length / 16, 15u);
  // A small context of the prediction's state, then the predicted symbol
  // under the orders 1, 2, 6 and 4 contexts.
  uint32_t contexts[kFlagInputs - 1] = {
      hashCombine(0xf1a90000u + source * 64 + lengthBucket,
                  (recentHits & 7) + agree * 8),
      hashCombine(chain[1] + 0x1111u, predicted),
      hashCombine(chain[2] + 0x2222u, predicted),
      hashCombine(chain[6] + 0x6666u, predicted),
      hashCombine(chain[4] + 0x4444u, predicted),
  };
  int inputs[kFlagInputs];
  uint32_t *counters[kFlagInputs - 1];
  for (unsigned j = 0; j < kFlagInputs - 1; ++j) {
    counters[j] = &flagCounters[(contexts[j] * 0x2c1b3c6du >> 8) & tableMask];
    inputs[j] = stretch(counterP(*counters[j]));
  }
  inputs[kFlagInputs - 1] = 256;
  int32_t *w =
      &flagWeights[(source * 32 + agree * 2 + (recentHits & 1)) * kFlagInputs];
  int p = mix(w, inputs, kFlagInputs);

  // Refinement: the probability actually seen at this p (interpolated
  // between 33 points of the stretched domain) under the order-1 context
  // and the predicted symbol, weighted 3:1 against the mixer's (12-bit
  // flags), 15:1 (16-bit flags: the mixer's 12 bits cap a hit's cost at
  // 1/2,800 of a bit, where the refinement learns rates much closer to 1:
  // Lua's objects.lua path trace, 83.9M symbols, 99.98% predicted, packs
  // its bodies in 21,160 bytes with 12-bit flags, 15,588 with 16 bits at
  // 3:1, 14,836 at 15:1).
  int stretched = stretch(p) + 2048; // 1 to 4095
  int point = stretched >> 7, weight = stretched & 127;
  uint32_t *low = &refine[(hashCombine(chain[1], predicted) %
                           kRefineContexts) * 33 + point];
  uint32_t *high = low + 1;
  // (The points hold a probability times 2^32, of which flagBits are used.)
  unsigned shift = 32 - flagBits;
  int64_t refined = ((int64_t(*low >> shift) * (128 - weight) +
                      int64_t(*high >> shift) * weight) >> 7);
  int64_t top = (int64_t(1) << flagBits) - 1;
  int64_t mixed = int64_t(p) << (flagBits - 12);
  int64_t pFinal = std::clamp<int64_t>(
      flagBits == 16 ? (mixed + 15 * refined) / 16 : (mixed + 3 * refined) / 4,
      1, top);

  bool coded = coder.code(hit, static_cast<uint32_t>(pFinal), flagBits);
  int64_t target = coded ? top << shift : 0;
  *low = static_cast<uint32_t>(*low + (target - *low) * (128 - weight) / 8192);
  *high = static_cast<uint32_t>(*high + (target - *high) * weight / 8192);
  learn(w, inputs, kFlagInputs, coded, p);
  for (unsigned j = 0; j < kFlagInputs - 1; ++j)
    updateCounter(*counters[j], coded, j == 0 ? 1023 : 255);
  recentHits = (recentHits << 1) | static_cast<uint32_t>(coded);
  return coded;
}

void SymbolModel::grow() {
  auto spreadTop = [](Table<uint32_t> &table) {
    Table<uint32_t> grown(2 * table.size());
    for (size_t i = 0; i < table.size(); ++i)
      grown[2 * i] = grown[2 * i + 1] = table[i];
    table.swap(grown);
  };
  auto spreadLow = [](Table<uint32_t> &table) {
    size_t size = table.size();
    table.resize(2 * size);
    std::copy_n(table.begin(), size, table.begin() + size);
  };
  for (auto &table : tables)
    spreadTop(table);
  spreadTop(lastPosition);
  spreadTop(longLastPosition);
  spreadLow(lastAfter);
  spreadLow(flagCounters);
  ++tableBits;
  tableMask = (1u << tableBits) - 1;
  growAt =
      tableBits < maxTableBits ? uint64_t(1) << (tableBits - 1) : UINT64_MAX;
}

uint32_t SymbolModel::code(BitCoder &coder, uint32_t symbol) {
  if (history.size() - sureHits >= growAt)
    grow();
  if (coding == Bitwise) {
    uint32_t coded = codeBits(coder, symbol, kNoSymbol, 0, kNoSymbol, 0);
    endSymbol(coded);
    return coded;
  }
  if (runLength && longLength >= runLength)
    return codeInRun(coder, symbol);
  unsigned source;
  uint32_t predicted = predict(source);
  if (predicted != kNoSymbol &&
      codeFlag(coder, symbol == predicted, predicted, source)) {
    ++hits;
    endSymbol(predicted);
    return predicted;
  }
  return codeMiss(coder, symbol, predicted, source);
}

uint32_t SymbolModel::codeInRun(BitCoder &coder, uint32_t symbol) {
  uint32_t predicted = history[longPtr];
  RunCounter &counter = runCounters[hashCombine(predicted, recent[0]) >>
                                    (32 - kRunContextBits)];
  uint32_t p = std::clamp<uint32_t>(counter.p >> 16, 1, 65535);
  bool hit;
  ++inRuns;
  if (p >= kRunSure) {
    hit = coder.code(symbol == predicted, p, 16);
    recentHits = (recentHits << 1) | static_cast<uint32_t>(hit);
    sureHits += hit;
  } else {
    // Unsure: the mixed flag decides, under up-to-date context hashes.
    if (inRun)
      beginSymbol();
    hit = codeFlag(coder, symbol == predicted, predicted, 5);
  }
  counter.p = static_cast<uint32_t>(
      adapt(counter.p, hit ? int64_t(UINT32_MAX) : 0, counter.n));
  if (counter.n < kRunCountLimit)
    ++counter.n;
  if (!hit) {
    leaveRun();
    return codeMiss(coder, symbol, predicted, 5);
  }
  ++hits;
  followMatch(history, predicted, matchPtr, matchLength);
  followMatch(history, predicted, longPtr, longLength);
  remember(predicted);
  inRun = true;
  return predicted;
}

void SymbolModel::leaveRun() {
  if (!inRun)
    return;
  inRun = false;
  // The order-12 hash reads chain[6] of 6 symbols back from a ring of the
  // last 6 (a run is at least 12 symbols long, so all 6 are there).
  size_t n = history.size();
  std::array<uint32_t, 7> past;
  for (size_t m = n - pastChain6.size(); m < n; ++m) {
    hashChain(past, [&](uint32_t j) { return history[m - j] + 1; });
    pastChain6[m % pastChain6.size()] = past[6];
  }
  beginSymbol();
}

uint32_t SymbolModel::codeMiss(BitCoder &coder, uint32_t symbol,
                               uint32_t predicted, unsigned source) {
  // A miss: the bits, under contexts that include the failed prediction
  // for the orders 3, 4 and 6 (what follows a wrong guess in a context is
  // itself predictable), with a mixer weight set per prediction source.
  for (unsigned k = 0; k < kOrders; ++k)
    contextHash[k] =
        hashCombine(chain[kOrderLengths[k]],
                    0xc0de0000u + k + (k >= 2 ? predicted * 16 : 0));
  unsigned state = source >= 4 ? 3 : source == 3 ? 2 : source > 0 ? 1 : 0;
  // The next guess stands in for the match input: the order-6 match's
  // symbol when the long match failed, else the first order 3-1 table's.
  uint32_t alternative = kNoSymbol;
  unsigned alternativeSource = 0;
  if (source == 5 && matchSymbol() != kNoSymbol &&
      matchSymbol() != predicted) {
    alternative = matchSymbol();
  } else if (predicted != kNoSymbol) {
    alternative = lastAfterOrder(predicted, alternativeSource);
  }
  uint32_t coded = codeBits(coder, symbol, predicted, state, alternative,
                            32 + alternativeSource * 4 + state);
  endSymbol(coded);
  return coded;
}

uint32_t SymbolModel::tableIndex(unsigned order, uint32_t node) const {
  return ((contextHash[order] + node * 0x9e3779b1u) * 0x2c1b3c6du) >>
         (32 - tableBits);
}

void SymbolModel::prefetchNode(uint32_t node) const {
  for (unsigned k = 0; k < kOrders; ++k)
    __builtin_prefetch(&tables[k][tableIndex(k, node)]);
}

uint32_t SymbolModel::codeBits(BitCoder &coder, uint32_t symbol,
                               uint32_t excluded, unsigned missState,
                               uint32_t alternative,
                               unsigned alternativeBucket) {
  bool matchAlive, predictedCoding = coding == Predicted;
  uint32_t expected;
  unsigned lengthBucket;
  if (predictedCoding) {
    matchAlive = alternative != kNoSymbol;
    expected = alternative;
    lengthBucket = alternativeBucket;
  } else {
    expected = matchSymbol();
    matchAlive = expected != kNoSymbol;
    if (!matchAlive)
      expected = 0;
    lengthBucket = std::min<uint32_t>(matchLength, 31);
  }
  // The node whose last bit would give the excluded symbol (none is 0).
  uint32_t excludedNode =
      excluded == kNoSymbol ? 0 : (excluded | (1u << symbolBits)) >> 1;
  // The order tables are far larger than the caches and every bit's
  // counters lie at random in them. An encoder knows the symbol, so it asks
  // for every bit's counters at once and the misses overlap; a decoder asks
  // for both children of each node one bit ahead.
  if (coder.isEncoder()) {
    for (int i = static_cast<int>(symbolBits) - 1; i >= 0; --i)
      prefetchNode((symbol | (1u << symbolBits)) >> (i + 1));
  } else {
    prefetchNode(1);
  }
  uint32_t node = 1;
  for (int i = static_cast<int>(symbolBits) - 1; i >= 0; --i) {
    if (!coder.isEncoder() && i > 0) {
      prefetchNode(node << 1);
      prefetchNode((node << 1) | 1);
    }
    if (i == 0 && node == excludedNode) {
      node = (node << 1) | (~excluded & 1); // the one value left
      break;
    }
    int inputs[kInputs];
    uint32_t *counters[kOrders];
    for (unsigned k = 0; k < kOrders; ++k) {
      counters[k] = &tables[k][tableIndex(k, node)];
      inputs[k] = stretch(counterP(*counters[k]));
    }
    uint32_t &counter0 = order0[node];
    inputs[kOrders] = stretch(counterP(counter0));
    uint32_t *matchCounter = nullptr;
    unsigned matchState = missState;
    if (matchAlive && ((expected | (1u << symbolBits)) >> (i + 1)) == node) {
      bool expectedBit = (expected >> i) & 1;
      matchCounter = &matchCounters[lengthBucket * 2 + expectedBit];
      inputs[kOrders + 1] = stretch(counterP(*matchCounter));
      matchState = predictedCoding      ? 4 + missState
                   : matchLength < 16 ? 1
                   : matchLength < 32 ? 2
                                      : 3;
    } else {
      matchAlive = false;
      inputs[kOrders + 1] = 0;
    }
    inputs[kOrders + 2] = 256;

    int32_t *w = &weights[(matchState * kMaxSymbolBits + i) * kInputs];
    int p = mix(w, inputs, kInputs);
    bool bit = coder.code((symbol >> i) & 1, static_cast<uint32_t>(p));
    learn(w, inputs, kInputs, bit, p);
    for (unsigned k = 0; k < kOrders; ++k)
      updateCounter(*counters[k], bit, 255);
    updateCounter(counter0, bit, 1023);
    if (matchCounter)
      updateCounter(*matchCounter, bit, 1023);
    node = (node << 1) | static_cast<uint32_t>(bit);
  }
  return node - (1u << symbolBits);
}

//===----------------------------------------------------------------------===//
// NumberModel
//===----------------------------------------------------------------------===//

NumberModel::NumberModel(unsigned tableBits) {
  tableBits = std::clamp(tableBits, 8u, 24u);
  tableMask = (1u << tableBits) - 1;
  counters.assign(size_t(1) << tableBits, kCounterInit);
}

bool NumberModel::codeBit(BitCoder &coder, bool bit, uint32_t hash) {
  uint32_t &counter = counters[(hash * 0x2c1b3c6du >> 8) & tableMask];
  bool coded = coder.code(bit, static_cast<uint32_t>(counterP(counter)));
  updateCounter(counter, coded, 255);
  return coded;
}

bool NumberModel::codeFlag(BitCoder &coder, bool flag, uint32_t context) {
  return codeBit(coder, flag, hashCombine(context, 0xf1a60000u));
}

uint64_t NumberModel::code(BitCoder &coder, uint64_t value, uint32_t context) {
  // Width n (0 for value 0) in unary, then the n - 1 bits below the top one.
  unsigned width = 0;
  if (coder.isEncoder())
    width = value ? 64 - static_cast<unsigned>(__builtin_clzll(value)) : 0;
  unsigned n = 0;
  while (n < 64 && codeBit(coder, n < width, hashCombine(context, n)))
    ++n;
  if (n == 0)
    return 0;
  uint64_t result = 1;
  for (int j = static_cast<int>(n) - 2; j >= 0; --j) {
    // The leading bits of the mantissa under their prefix; the rest by
    // position only (they are close to uniform).
    uint32_t prefix = n - 2 - j < 3 ? static_cast<uint32_t>(result) : 0;
    uint32_t hash = hashCombine(hashCombine(context, 0x100 + n * 64 + j), prefix);
    bool bit = codeBit(coder, (value >> j) & 1, hash);
    result = (result << 1) | static_cast<uint64_t>(bit);
  }
  return result;
}
