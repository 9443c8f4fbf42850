//===- PairGrammar.cpp - Grammar compression by pair replacement ----------===//

#include "phaedrus/Trace/PairGrammar.h"

#include <algorithm>
#include <unordered_map>

using namespace mlir::phaedrus::trace;

void PairGrammar::expand(uint32_t symbol, std::vector<uint32_t> &out) const {
  // Iterative, so that deep rule chains cannot exhaust the stack.
  std::vector<uint32_t> stack{symbol};
  while (!stack.empty()) {
    uint32_t s = stack.back();
    stack.pop_back();
    if (s < firstRule) {
      out.push_back(s);
      continue;
    }
    const std::array<uint32_t, 2> &rule = rules[s - firstRule];
    stack.push_back(rule[1]);
    stack.push_back(rule[0]);
  }
}

static uint64_t pairKey(uint32_t a, uint32_t b) {
  return (static_cast<uint64_t>(a) << 32) | b;
}

PairGrammar mlir::phaedrus::trace::buildPairGrammar(
    std::vector<std::vector<uint32_t>> sequences, uint32_t firstRule,
    unsigned minCount, unsigned maxRounds) {
  PairGrammar grammar;
  grammar.firstRule = firstRule;
  for (unsigned round = 0; round < maxRounds; ++round) {
    // Count pairs; a run like "a a a" counts (a, a) once per two symbols,
    // as non-overlapping replacement will use it.
    std::unordered_map<uint64_t, uint32_t> counts;
    for (const std::vector<uint32_t> &seq : sequences) {
      for (size_t i = 0; i + 1 < seq.size(); ++i) {
        ++counts[pairKey(seq[i], seq[i + 1])];
        if (seq[i] == seq[i + 1] && i + 2 < seq.size() && seq[i + 2] == seq[i])
          ++i; // skip the overlapping occurrence
      }
    }
    // The qualifying pairs, most frequent first, become rules.
    std::vector<std::pair<uint32_t, uint64_t>> frequent;
    for (auto &[key, count] : counts)
      if (count >= minCount)
        frequent.push_back({count, key});
    if (frequent.empty())
      break;
    std::sort(frequent.begin(), frequent.end(),
              [](const auto &a, const auto &b) {
                return a.first != b.first ? a.first > b.first
                                          : a.second < b.second;
              });
    std::unordered_map<uint64_t, uint32_t> ruleOf; // pair -> rule symbol
    std::unordered_map<uint64_t, uint32_t> rank;   // pair -> priority
    for (size_t r = 0; r < frequent.size(); ++r) {
      uint64_t key = frequent[r].second;
      rank[key] = static_cast<uint32_t>(r);
    }
    // Replace left to right; where two chosen pairs overlap (a b c with
    // (a, b) and (b, c) both chosen) the higher-ranked one wins.
    bool changed = false;
    for (std::vector<uint32_t> &seq : sequences) {
      std::vector<uint32_t> out;
      out.reserve(seq.size());
      size_t i = 0;
      while (i < seq.size()) {
        if (i + 1 < seq.size()) {
          uint64_t here = pairKey(seq[i], seq[i + 1]);
          auto it = rank.find(here);
          if (it != rank.end()) {
            bool yield = false;
            if (i + 2 < seq.size()) {
              auto next = rank.find(pairKey(seq[i + 1], seq[i + 2]));
              yield = next != rank.end() && next->second < it->second;
            }
            if (!yield) {
              auto [rule, inserted] = ruleOf.try_emplace(
                  here, firstRule + static_cast<uint32_t>(grammar.rules.size()));
              if (inserted)
                grammar.rules.push_back({seq[i], seq[i + 1]});
              out.push_back(rule->second);
              i += 2;
              changed = true;
              continue;
            }
          }
        }
        out.push_back(seq[i]);
        ++i;
      }
      seq.swap(out);
    }
    if (!changed)
      break;
  }
  grammar.sequences = std::move(sequences);
  return grammar;
}
