//===- ContextCoder.cpp - Context-mixing arithmetic coding ----------------===//

#include "phaedrus/Trace/ContextCoder.h"

#include <algorithm>

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

bool BitCoder::code(bool bit, uint32_t p1) {
  // [low, mid] codes a 1, (mid, high] a 0; both halves are non-empty.
  uint32_t mid =
      low + static_cast<uint32_t>((static_cast<uint64_t>(high - low) * p1) >> 12);
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

void updateCounter(uint32_t &counter, bool bit, uint32_t limit) {
  static const struct Reciprocals {
    int32_t values[1024];
    Reciprocals() {
      for (int n = 0; n < 1024; ++n)
        values[n] = 131072 / (2 * n + 3);
    }
  } reciprocals;
  uint32_t n = counter & 1023;
  int64_t p = counter >> 10;
  int64_t target = bit ? (1 << 22) - 1 : 0;
  p += ((target - p) * reciprocals.values[n]) >> 16;
  if (n < limit)
    ++n;
  counter = (static_cast<uint32_t>(p) << 10) | n;
}

constexpr int kLearningRate = 4;
constexpr unsigned kMaxSymbolBits = 24;
constexpr unsigned kMatchMinLength = 6;
constexpr uint32_t kOrderLengths[] = {1, 2, 3, 4, 6};

} // namespace

uint32_t mlir::phaedrus::trace::hashCombine(uint32_t a, uint32_t b) {
  uint32_t h = (a ^ 0x2545f491u) * 0x9e3779b1u;
  h ^= b + 0x7f4a7c15u + (h << 6) + (h >> 2);
  h *= 0x85ebca6bu;
  return h ^ (h >> 15);
}

//===----------------------------------------------------------------------===//
// SymbolModel
//===----------------------------------------------------------------------===//

SymbolModel::SymbolModel(unsigned symbolBits, unsigned tableBits)
    : symbolBits(std::clamp(symbolBits, 1u, kMaxSymbolBits)),
      tableBits(std::clamp(tableBits, 10u, 24u)) {
  order0.assign(size_t(1) << this->symbolBits, kCounterInit);
  for (auto &table : tables)
    table.assign(size_t(1) << this->tableBits, kCounterInit);
  lastPosition.assign(size_t(1) << (this->tableBits - 2), 0);
  matchCounters.assign(64, kCounterInit);
  weights.assign(size_t(4) * kMaxSymbolBits * kInputs, 1 << 14);
  beginSymbol();
}

void SymbolModel::beginSymbol() {
  // Context hashes of the orders, over the symbols before this one (a
  // missing symbol before the start counts as its own value).
  size_t n = history.size();
  for (unsigned k = 0; k < kOrders; ++k) {
    uint32_t h = hashCombine(0xc0de0000u + k, kOrderLengths[k]);
    for (uint32_t j = 1; j <= kOrderLengths[k]; ++j)
      h = hashCombine(h, j <= n ? history[n - j] + 1 : 0);
    contextHash[k] = h;
  }
}

void SymbolModel::endSymbol(uint32_t symbol) {
  if (matchLength > 0 && history[matchPtr] == symbol) {
    matchLength = std::min<uint32_t>(matchLength + 1, 65535);
    ++matchPtr;
  } else {
    matchLength = 0;
  }
  history.push_back(symbol);
  size_t n = history.size();
  if (n >= kMatchMinLength) {
    uint32_t h = 0x3a7c0000u;
    for (size_t j = n - kMatchMinLength; j < n; ++j)
      h = hashCombine(h, history[j]);
    uint32_t &slot = lastPosition[h >> (32 - (tableBits - 2))];
    if (matchLength == 0 && slot > 0) {
      // Verify the candidate: how many symbols before it equal ours.
      uint32_t length = 0;
      while (length < 32 && length < slot &&
             history[slot - 1 - length] == history[n - 1 - length])
        ++length;
      if (length >= kMatchMinLength) {
        matchLength = length;
        matchPtr = slot;
      }
    }
    slot = static_cast<uint32_t>(std::min<size_t>(n, UINT32_MAX));
  }
  beginSymbol();
}

uint32_t SymbolModel::code(BitCoder &coder, uint32_t symbol) {
  bool matchAlive = matchLength > 0 && matchPtr < history.size();
  uint32_t expected = matchAlive ? history[matchPtr] : 0;
  unsigned lengthBucket = std::min<uint32_t>(matchLength, 31);
  uint32_t node = 1;
  for (int i = static_cast<int>(symbolBits) - 1; i >= 0; --i) {
    int inputs[kInputs];
    uint32_t *counters[kOrders];
    uint32_t nodeHash = node * 0x9e3779b1u;
    for (unsigned k = 0; k < kOrders; ++k) {
      uint32_t index = ((contextHash[k] + nodeHash) * 0x2c1b3c6du) >> (32 - tableBits);
      counters[k] = &tables[k][index];
      inputs[k] = stretch(counterP(*counters[k]));
    }
    uint32_t &counter0 = order0[node];
    inputs[kOrders] = stretch(counterP(counter0));
    uint32_t *matchCounter = nullptr;
    unsigned matchState = 0;
    if (matchAlive && ((expected | (1u << symbolBits)) >> (i + 1)) == node) {
      bool expectedBit = (expected >> i) & 1;
      matchCounter = &matchCounters[lengthBucket * 2 + expectedBit];
      inputs[kOrders + 1] = stretch(counterP(*matchCounter));
      matchState = matchLength < 16 ? 1 : matchLength < 32 ? 2 : 3;
    } else {
      matchAlive = false;
      inputs[kOrders + 1] = 0;
    }
    inputs[kOrders + 2] = 256;

    int32_t *w = &weights[(matchState * kMaxSymbolBits + i) * kInputs];
    int64_t dot = 0;
    for (unsigned j = 0; j < kInputs; ++j)
      dot += static_cast<int64_t>(w[j]) * inputs[j];
    int p = std::clamp(squash(static_cast<int>(
                           std::clamp<int64_t>(dot >> 16, -2047, 2047))),
                       1, 4095);
    bool bit = coder.code((symbol >> i) & 1, static_cast<uint32_t>(p));

    int err = ((static_cast<int>(bit) << 12) - p) * kLearningRate;
    for (unsigned j = 0; j < kInputs; ++j)
      w[j] += (inputs[j] * err) >> 14;
    for (unsigned k = 0; k < kOrders; ++k)
      updateCounter(*counters[k], bit, 255);
    updateCounter(counter0, bit, 1023);
    if (matchCounter)
      updateCounter(*matchCounter, bit, 1023);
    node = (node << 1) | static_cast<uint32_t>(bit);
  }
  uint32_t coded = node - (1u << symbolBits);
  endSymbol(coded);
  return coded;
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
