//===- ProfileSummaryTest.cpp - ProfileSummaryBuilder properties ----------===//

#include "phaedrus/Dialect/Phaedrus/Transforms/ProfileSummary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

using namespace mlir::phaedrus;

namespace {

/// Reference: sort all counts descending and take the shortest prefix whose
/// sum reaches floor(total * cutoff / 10^6).
ProfileSummaryEntry referenceEntry(std::vector<uint64_t> counts,
                                   uint32_t cutoff) {
  std::sort(counts.begin(), counts.end(), std::greater<>());
  unsigned __int128 total = 0;
  for (uint64_t c : counts)
    total += c;
  uint64_t desired = static_cast<uint64_t>(total * cutoff / 1000000);
  unsigned __int128 sum = 0;
  size_t taken = 0;
  uint64_t minCount = 0;
  // Counts of equal value are taken together, as LLVM does.
  while (sum < desired && taken < counts.size()) {
    uint64_t value = counts[taken];
    minCount = value;
    while (taken < counts.size() && counts[taken] == value) {
      sum += value;
      ++taken;
    }
  }
  return {cutoff, minCount, taken};
}

TEST(ProfileSummaryTest, EmptyProfileHasAllCutoffs) {
  ProfileSummaryData data = ProfileSummaryBuilder().build();
  ASSERT_EQ(data.detailed.size(), 16u);
  EXPECT_EQ(data.detailed.back().cutoff, 999999u);
  EXPECT_EQ(data.totalCount, 0u);
  for (const ProfileSummaryEntry &entry : data.detailed)
    EXPECT_EQ(entry.numCounts, 0u);
}

TEST(ProfileSummaryTest, SmallExample) {
  ProfileSummaryBuilder builder;
  builder.addEntryCount(100);
  builder.addEntryCount(1);
  builder.addInternalCount(899);
  ProfileSummaryData data = builder.build();
  EXPECT_EQ(data.totalCount, 1000u);
  EXPECT_EQ(data.maxCount, 899u);
  EXPECT_EQ(data.maxFunctionCount, 100u);
  EXPECT_EQ(data.maxInternalCount, 899u);
  EXPECT_EQ(data.numCounts, 3u);
  EXPECT_EQ(data.numFunctions, 2u);
  // 10% of 1000 = 100 is reached by the largest count alone.
  EXPECT_EQ(data.detailed[1].minCount, 899u);
  EXPECT_EQ(data.detailed[1].numCounts, 1u);
  // 99.9999% of 1000 rounds down to 999, reached by 899 + 100: the count
  // of 1 is below the coldest threshold, as in LLVM.
  EXPECT_EQ(data.detailed.back().minCount, 100u);
  EXPECT_EQ(data.detailed.back().numCounts, 2u);
}

TEST(ProfileSummaryTest, MatchesReferenceOnRandomProfiles) {
  std::mt19937_64 rng(1234);
  for (int trial = 0; trial < 200; ++trial) {
    ProfileSummaryBuilder builder;
    std::vector<uint64_t> counts;
    size_t n = rng() % 300;
    for (size_t i = 0; i < n; ++i) {
      // Heavy-tailed counts with many ties, like real profiles.
      uint64_t c = (rng() % 4 == 0) ? 0 : (uint64_t(1) << (rng() % 40)) + rng() % 3;
      counts.push_back(c);
      if (i % 5 == 0)
        builder.addEntryCount(c);
      else
        builder.addInternalCount(c);
    }
    ProfileSummaryData data = builder.build();
    ASSERT_EQ(data.numCounts, counts.size());
    uint64_t previousMin = UINT64_MAX, previousNum = 0;
    for (size_t i = 0; i < data.detailed.size(); ++i) {
      const ProfileSummaryEntry &entry = data.detailed[i];
      ProfileSummaryEntry expected =
          referenceEntry(counts, ProfileSummaryBuilder::defaultCutoffs[i]);
      EXPECT_EQ(entry.cutoff, expected.cutoff);
      EXPECT_EQ(entry.minCount, expected.minCount) << "trial " << trial;
      EXPECT_EQ(entry.numCounts, expected.numCounts) << "trial " << trial;
      // Higher cutoffs need more counts and smaller thresholds.
      if (entry.numCounts)
        EXPECT_LE(entry.minCount, previousMin);
      EXPECT_GE(entry.numCounts, previousNum);
      if (entry.numCounts) previousMin = entry.minCount;
      previousNum = entry.numCounts;
    }
  }
}

} // namespace
