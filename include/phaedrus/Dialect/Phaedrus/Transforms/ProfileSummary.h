//===- ProfileSummary.h - LLVM-compatible profile summaries -----*- C++ -*-===//
//
// Computes the numbers of LLVM's ProfileSummary (format InstrProf) from
// function entry counts and internal counts, with the same definitions as
// LLVM's InstrProfSummaryBuilder, so that LLVM's hot/cold thresholds come
// out as they would for a real instrumentation profile.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PROFILESUMMARY_H
#define PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PROFILESUMMARY_H

#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace mlir::phaedrus {

/// One entry of the detailed summary: to cover `cutoff` parts per million of
/// all counts, `numCounts` counts of at least `minCount` are needed.
struct ProfileSummaryEntry {
  uint32_t cutoff;
  uint64_t minCount;
  uint64_t numCounts;
};

struct ProfileSummaryData {
  uint64_t totalCount = 0;
  uint64_t maxCount = 0;
  uint64_t maxInternalCount = 0;
  uint64_t maxFunctionCount = 0;
  uint64_t numCounts = 0;
  uint64_t numFunctions = 0;
  std::vector<ProfileSummaryEntry> detailed;
};

class ProfileSummaryBuilder {
public:
  /// LLVM's ProfileSummaryBuilder::DefaultCutoffs, parts per million. The
  /// last (999999) must be present or LLVM aborts on cold queries.
  static constexpr std::array<uint32_t, 16> defaultCutoffs = {
      10000,  100000, 200000, 300000, 400000, 500000, 600000, 700000,
      800000, 900000, 950000, 990000, 999000, 999900, 999990, 999999};

  void addEntryCount(uint64_t count);
  void addInternalCount(uint64_t count);
  ProfileSummaryData build() const;

private:
  void addCount(uint64_t count);

  ProfileSummaryData data;
  /// count -> how many counters have it; iterated from the largest count.
  std::map<uint64_t, uint64_t, std::greater<uint64_t>> frequencies;
};

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_TRANSFORMS_PROFILESUMMARY_H
