//===- SplitMix64.h - The project's seeded random numbers -------*- C++ -*-===//
//
// SplitMix64 (Steele, Lea, Flood 2014): the generator behind every seeded
// choice Phaedrus makes (model sampling, as python/phaedrus/model.py does it,
// and trace augmentation), so that a seed means the same everywhere and on
// every platform. Header only.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TRACE_SPLITMIX64_H
#define PHAEDRUS_TRACE_SPLITMIX64_H

#include <cstdint>

namespace mlir::phaedrus {

struct SplitMix64 {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1), from the top 53 bits.
  double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
  /// Uniform in [0, n) for n >= 1 (rejection sampling: no modulo bias).
  uint64_t below(uint64_t n) {
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
      x = next();
    while (x >= limit);
    return x % n;
  }
};

} // namespace mlir::phaedrus

#endif // PHAEDRUS_TRACE_SPLITMIX64_H
