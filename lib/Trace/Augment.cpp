//===- Augment.cpp - Plausible traces of unseen inputs --------------------===//

#include "phaedrus/Trace/Augment.h"
#include "phaedrus/Trace/SplitMix64.h"

#include <cmath>

using namespace mlir::phaedrus;
using namespace mlir::phaedrus::trace;

using Kind = CallGroupTable::Kind;
using Verdict = CallTreeReader::Verdict;

//===----------------------------------------------------------------------===//
// CallTreeReader
//===----------------------------------------------------------------------===//

static uint64_t extend(uint64_t context, uint32_t token) {
  return phaedrus_fnv1a64(&token, sizeof(token), context ^ 0x9E3779B97F4A7C15ull);
}

bool CallTreeReader::popTo(uint32_t function) {
  size_t i = stack.size();
  while (i > 0 && stack[i - 1].function != function)
    --i;
  if (i == 0) {
    stack.clear();
    return false;
  }
  stack.resize(i);
  return true;
}

Verdict CallTreeReader::read(uint32_t token) {
  if (token >= table.size())
    return Verdict::Unknown;
  const CallGroupTable::Token &info = table[token];
  switch (info.kind) {
  case Kind::Other:
    return Verdict::Legal;
  case Kind::Group:
    return Verdict::GroupToken;
  case Kind::Entry: {
    uint64_t context = extend(this->context(), token);
    stack.push_back({info.callee, context});
    return info.callee < enterable.size() && enterable[info.callee]
               ? Verdict::Legal
               : Verdict::NotEnterable;
  }
  case Kind::Path:
    if (popTo(info.caller))
      return Verdict::Legal;
    stack.push_back({info.caller, extend(0, token)});
    return Verdict::NoFrame;
  case Kind::Call: {
    bool found = popTo(info.caller);
    if (!found)
      stack.push_back({info.caller, extend(0, token)});
    uint64_t context = extend(this->context(), token);
    stack.push_back({info.callee, context});
    return found ? Verdict::Legal : Verdict::NoFrame;
  }
  }
  return Verdict::Unknown;
}

std::string
CallTreeReader::explain(const CallGroupTable &table, Verdict verdict,
                        uint32_t token,
                        const std::vector<std::string> &functionNames) {
  auto name = [&](uint32_t function) {
    return function < functionNames.size() ? "@" + functionNames[function]
                                           : "function " + std::to_string(function);
  };
  std::string id = "token " + std::to_string(token);
  switch (verdict) {
  case Verdict::Legal:
    return id + " is legal";
  case Verdict::Unknown:
    return id + " is not in the vocabulary";
  case Verdict::GroupToken:
    return id + " is a call group (expand the trace first)";
  case Verdict::NotEnterable:
    return id + " enters " + name(table[token].callee) +
           " from an unknown site, but only its direct call sites call it";
  case Verdict::NoFrame:
    return id + (table[token].kind == Kind::Path ? " (a path of " : " (a call from ") +
           name(table[token].caller) + ") comes when " +
           name(table[token].caller) + " is not running";
  }
  return id;
}

//===----------------------------------------------------------------------===//
// StreamFacts
//===----------------------------------------------------------------------===//

StreamFacts::StreamFacts(const CallGroupTable &table, std::vector<bool> enterable,
                         uint64_t seed)
    : table(table), reader(table, std::move(enterable)), rng{seed},
      tokenCounts(table.size(), 0), withChild(table.size(), false) {}

void StreamFacts::push(const uint32_t *tokens, size_t count) {
  for (size_t i = 0; i < count; ++i, ++position) {
    uint32_t token = tokens[i];
    Verdict verdict = reader.read(token);
    if (verdict != Verdict::Legal && illegal == Verdict::Legal) {
      illegal = verdict;
      illegalAt = position;
      illegalToken = token;
    }
    if (verdict == Verdict::Unknown)
      continue;
    ++tokenCounts[token];
    const CallGroupTable::Token &info = table[token];
    // A leaf's frame is the innermost until a token pops it; a call from
    // its callee, or an entry pushed on it, is a child.
    if (openLeaf != CallGroupTable::kNone) {
      uint32_t callee = table[openLeaf].callee;
      bool child = (info.kind == Kind::Call && info.caller == callee) ||
                   info.kind == Kind::Entry;
      bool stays = info.kind == Kind::Path && info.caller == callee;
      if (child)
        withChild[openLeaf] = true;
      if (!stays || child)
        openLeaf = CallGroupTable::kNone;
    }
    if (info.kind == Kind::Call)
      openLeaf = token;
    if (info.kind != Kind::Call && info.kind != Kind::Entry)
      continue;
    // Remember one occurrence of each context, uniformly (reservoir of 1).
    uint64_t context = reader.context();
    auto it = seen.find(context);
    if (it == seen.end()) {
      if (seen.size() >= kMaxContexts)
        continue;
      it = seen.emplace(context, Seen()).first;
    }
    Seen &s = it->second;
    ++s.count;
    if (rng.below(s.count) == 0)
      s.position = position;
  }
}

void StreamFacts::finish() {
  contextAt.clear();
  contextAt.reserve(seen.size());
  for (const auto &[context, s] : seen)
    contextAt.emplace(context, s.position);
}

//===----------------------------------------------------------------------===//
// LeafDropper
//===----------------------------------------------------------------------===//

void LeafDropper::push(const uint32_t *tokens, size_t count,
                       std::vector<uint32_t> &out) {
  for (size_t i = 0; i < count; ++i) {
    uint32_t token = tokens[i];
    const CallGroupTable::Token &info = table[token];
    if (skipping != CallGroupTable::kNone) {
      if (info.kind == Kind::Path && info.caller == skipping) {
        ++droppedTokens;
        continue;
      }
      skipping = CallGroupTable::kNone;
    }
    if (info.kind == Kind::Call && dropped[token]) {
      skipping = info.callee;
      ++droppedTokens;
      continue;
    }
    out.push_back(token);
  }
}

//===----------------------------------------------------------------------===//
// CountBuckets
//===----------------------------------------------------------------------===//

unsigned CountBuckets::bucket(uint64_t count) const {
  if (count <= 1)
    return 0;
  return static_cast<unsigned>(
      std::floor(perOctave * std::log2(static_cast<double>(count))));
}

uint64_t CountBuckets::lowest(unsigned b) const {
  if (b == 0)
    return 1;
  double estimate = std::ceil(std::exp2(static_cast<double>(b) / perOctave));
  if (estimate >= 18446744073709549568.0) // the largest double below 2^64
    return UINT64_MAX;
  uint64_t n = static_cast<uint64_t>(estimate);
  while (n < UINT64_MAX && bucket(n) < b)
    ++n;
  while (n > 1 && bucket(n - 1) >= b)
    --n;
  return n;
}
