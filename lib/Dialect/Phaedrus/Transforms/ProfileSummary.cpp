//===- ProfileSummary.cpp - LLVM-compatible profile summaries -------------===//

#include "phaedrus/Dialect/Phaedrus/Transforms/ProfileSummary.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir::phaedrus;

void ProfileSummaryBuilder::addCount(uint64_t count) {
  // Saturate as LLVM's summary builder does, so a huge profile cannot wrap.
  data.totalCount = llvm::SaturatingAdd(data.totalCount, count);
  data.maxCount = std::max(data.maxCount, count);
  ++data.numCounts;
  ++frequencies[count];
}

void ProfileSummaryBuilder::addEntryCount(uint64_t count) {
  addCount(count);
  ++data.numFunctions;
  data.maxFunctionCount = std::max(data.maxFunctionCount, count);
}

void ProfileSummaryBuilder::addInternalCount(uint64_t count) {
  addCount(count);
  data.maxInternalCount = std::max(data.maxInternalCount, count);
}

ProfileSummaryData ProfileSummaryBuilder::build() const {
  ProfileSummaryData result = data;
  result.detailed.clear();
  auto it = frequencies.begin();
  uint64_t sum = 0, countsSeen = 0, minCount = 0;
  for (uint32_t cutoff : defaultCutoffs) {
    // The share of the total this cutoff asks for, rounded down as LLVM
    // does (128-bit product, so no overflow).
    uint64_t desired = static_cast<uint64_t>(
        static_cast<unsigned __int128>(data.totalCount) * cutoff / 1000000);
    while (sum < desired && it != frequencies.end()) {
      minCount = it->first;
      unsigned __int128 add =
          static_cast<unsigned __int128>(it->first) * it->second;
      sum = add > UINT64_MAX - sum ? UINT64_MAX : sum + uint64_t(add);
      countsSeen += it->second;
      ++it;
    }
    result.detailed.push_back({cutoff, minCount, countsSeen});
  }
  return result;
}
