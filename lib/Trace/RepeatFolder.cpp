//===- RepeatFolder.cpp - Folding immediate repeats in one pass -----------===//

#include "phaedrus/Trace/RepeatFolder.h"

#include <algorithm>

using namespace mlir::phaedrus::trace;

void RepeatFolder::flushLiteral() {
  if (literal.empty())
    return;
  output.push_back({std::move(literal), 1});
  literal.clear();
}

void RepeatFolder::pushLiteral(uint32_t token) {
  literal.push_back(token);
  size_t n = literal.size();
  // Smallest period first, so a run of one token folds as period 1.
  for (size_t p = 1; p <= maxPeriod && 2 * p <= n; ++p) {
    if (literal[n - 1] != literal[n - 1 - p])
      continue;
    if (!std::equal(literal.end() - p, literal.end(), literal.end() - 2 * p))
      continue;
    block.assign(literal.end() - p, literal.end());
    literal.resize(n - 2 * p);
    flushLiteral();
    inRepeat = true;
    count = 2;
    match = 0;
    return;
  }
}

void RepeatFolder::push(uint32_t token) {
  ++pushed;
  step(token);
}

void RepeatFolder::step(uint32_t token) {
  if (!inRepeat)
    return pushLiteral(token);
  if (token == block[match]) {
    if (++match == block.size()) {
      ++count;
      match = 0;
    }
    return;
  }
  // The repeat ends; the partial occurrence and this token start afresh.
  output.push_back({block, count});
  inRepeat = false;
  std::vector<uint32_t> pending(block.begin(), block.begin() + match);
  pending.push_back(token);
  for (uint32_t t : pending)
    step(t);
}

void RepeatFolder::finish() {
  if (inRepeat) {
    output.push_back({block, count});
    inRepeat = false;
    for (size_t i = 0; i < match; ++i)
      literal.push_back(block[i]);
    match = 0;
  }
  flushLiteral();
}
