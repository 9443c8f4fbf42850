//===- TraceWalk.cpp - Walking compressed traces --------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"

#include "llvm/ADT/DenseSet.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::phaedrus;

static uint64_t saturatingMul(uint64_t a, uint64_t b) {
  uint64_t result;
  if (__builtin_mul_overflow(a, b, &result))
    return UINT64_MAX;
  return result;
}

static uint64_t saturatingAdd(uint64_t a, uint64_t b) {
  uint64_t result;
  if (__builtin_add_overflow(a, b, &result))
    return UINT64_MAX;
  return result;
}

/// The ids of `tokens`, each checked to be below `numEntries`.
static FailureOr<ArrayRef<int32_t>>
checkedTokens(TokensOp tokens, size_t numEntries,
              SmallVectorImpl<int32_t> &storage) {
  FailureOr<ArrayRef<int32_t>> array = tokens.readTokens(storage);
  if (failed(array))
    return failure();
  for (int32_t token : *array)
    if (token < 0 || static_cast<size_t>(token) >= numEntries)
      return tokens.emitOpError() << "token " << token
                                  << " is not an id of the vocabulary";
  return array;
}

FailureOr<RuleOp> TraceWalker::resolve(ApplyOp apply) {
  GrammarOp grammar = apply.getGrammar(symbolTable);
  Operation *rule =
      grammar ? symbolTable.lookupSymbolIn(grammar, apply.getRuleAttr())
              : nullptr;
  if (auto ruleOp = dyn_cast_or_null<RuleOp>(rule))
    return ruleOp;
  return apply.emitOpError() << "uses rule " << apply.getRuleAttr()
                             << ", which cannot be resolved";
}

FailureOr<uint64_t> TraceWalker::lengthOf(Region &body) {
  uint64_t length = 0;
  for (Operation &op : body.front()) {
    if (auto tokens = dyn_cast<TokensOp>(op)) {
      length = saturatingAdd(length, tokens.getTokens().getNumElements());
    } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      FailureOr<uint64_t> inner = lengthOf(repeat.getBody());
      if (failed(inner))
        return failure();
      length = saturatingAdd(length, saturatingMul(*inner, repeat.getCount()));
    } else if (auto apply = dyn_cast<ApplyOp>(op)) {
      FailureOr<RuleOp> rule = resolve(apply);
      if (failed(rule))
        return failure();
      auto it = ruleLength.find(*rule);
      if (it == ruleLength.end()) {
        FailureOr<uint64_t> inner = lengthOf(rule->getBody());
        if (failed(inner))
          return failure();
        it = ruleLength.try_emplace(*rule, *inner).first;
      }
      length = saturatingAdd(length, it->second);
    }
  }
  return length;
}

FailureOr<uint64_t> TraceWalker::getExpandedLength(TraceOp trace) {
  return lengthOf(trace.getBody());
}

LogicalResult
TraceWalker::expandRegion(Region &body,
                          function_ref<void(ArrayRef<int32_t>)> sink) {
  for (Operation &op : body.front()) {
    if (auto tokens = dyn_cast<TokensOp>(op)) {
      SmallVector<int32_t> storage;
      FailureOr<ArrayRef<int32_t>> array = tokens.readTokens(storage);
      if (failed(array))
        return failure();
      sink(*array);
    } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      for (int64_t i = 0, e = repeat.getCount(); i < e; ++i)
        if (failed(expandRegion(repeat.getBody(), sink)))
          return failure();
    } else if (auto apply = dyn_cast<ApplyOp>(op)) {
      FailureOr<RuleOp> rule = resolve(apply);
      if (failed(rule) || failed(expandRegion(rule->getBody(), sink)))
        return failure();
    }
  }
  return success();
}

LogicalResult
TraceWalker::expand(TraceOp trace,
                    function_ref<void(ArrayRef<int32_t>)> sink) {
  return expandRegion(trace.getBody(), sink);
}

LogicalResult TraceWalker::firstRegion(Region &body,
                                       SmallVectorImpl<int32_t> &order,
                                       SmallVectorImpl<bool> &seenTokens,
                                       llvm::DenseSet<Operation *> &seenRules) {
  // A repeat's later iterations and a rule's later uses add no new token.
  for (Operation &op : body.front()) {
    if (auto tokens = dyn_cast<TokensOp>(op)) {
      SmallVector<int32_t> storage;
      FailureOr<ArrayRef<int32_t>> array =
          checkedTokens(tokens, seenTokens.size(), storage);
      if (failed(array))
        return failure();
      for (int32_t token : *array) {
        if (!seenTokens[token]) {
          seenTokens[token] = true;
          order.push_back(token);
        }
      }
    } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      if (failed(firstRegion(repeat.getBody(), order, seenTokens, seenRules)))
        return failure();
    } else if (auto apply = dyn_cast<ApplyOp>(op)) {
      FailureOr<RuleOp> rule = resolve(apply);
      if (failed(rule))
        return failure();
      if (seenRules.insert(*rule).second &&
          failed(firstRegion(rule->getBody(), order, seenTokens, seenRules)))
        return failure();
    }
  }
  return success();
}

FailureOr<SmallVector<int32_t>>
TraceWalker::firstOccurrences(TraceOp trace, size_t numEntries) {
  SmallVector<int32_t> order;
  SmallVector<bool> seenTokens(numEntries, false);
  llvm::DenseSet<Operation *> seenRules;
  if (failed(firstRegion(trace.getBody(), order, seenTokens, seenRules)))
    return failure();
  return order;
}

LogicalResult TraceWalker::collectRules(Region &body,
                                        SmallVectorImpl<RuleOp> &postOrder,
                                        llvm::DenseSet<Operation *> &seen) {
  WalkResult result = body.walk([&](ApplyOp apply) {
    FailureOr<RuleOp> rule = resolve(apply);
    if (failed(rule))
      return WalkResult::interrupt();
    if (!seen.insert(*rule).second)
      return WalkResult::advance();
    if (failed(collectRules(rule->getBody(), postOrder, seen)))
      return WalkResult::interrupt();
    postOrder.push_back(*rule);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult
TraceWalker::countRegion(Region &body, uint64_t multiplier,
                         SmallVectorImpl<uint64_t> &counts,
                         llvm::DenseMap<Operation *, uint64_t> &ruleUses) {
  for (Operation &op : body.front()) {
    if (auto tokens = dyn_cast<TokensOp>(op)) {
      SmallVector<int32_t> storage;
      FailureOr<ArrayRef<int32_t>> array =
          checkedTokens(tokens, counts.size(), storage);
      if (failed(array))
        return failure();
      for (int32_t token : *array)
        counts[token] = saturatingAdd(counts[token], multiplier);
    } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      if (failed(countRegion(repeat.getBody(),
                             saturatingMul(multiplier, repeat.getCount()),
                             counts, ruleUses)))
        return failure();
    } else if (auto apply = dyn_cast<ApplyOp>(op)) {
      FailureOr<RuleOp> rule = resolve(apply);
      if (failed(rule))
        return failure();
      uint64_t &uses = ruleUses[*rule];
      uses = saturatingAdd(uses, multiplier);
    }
  }
  return success();
}

FailureOr<SmallVector<uint64_t>>
TraceWalker::countTokens(TraceOp trace, size_t numEntries) {
  // Rules in reverse post-order: every rule after all rules that use it, so
  // its number of uses is complete when its body is counted.
  SmallVector<RuleOp> postOrder;
  llvm::DenseSet<Operation *> seen;
  if (failed(collectRules(trace.getBody(), postOrder, seen)))
    return failure();

  SmallVector<uint64_t> counts(numEntries, 0);
  llvm::DenseMap<Operation *, uint64_t> ruleUses;
  if (failed(countRegion(trace.getBody(), 1, counts, ruleUses)))
    return failure();
  for (RuleOp rule : llvm::reverse(postOrder))
    if (failed(countRegion(rule.getBody(), ruleUses.lookup(rule), counts,
                           ruleUses)))
      return failure();
  if (llvm::is_contained(counts, UINT64_MAX))
    return trace.emitOpError("a token count does not fit in 64 bits");
  return counts;
}

LogicalResult mlir::phaedrus::addEntryCounts(VocabularyOp vocabulary,
                                             ArrayRef<uint64_t> tokenCounts,
                                             llvm::StringMap<uint64_t> &entries,
                                             Operation *diagnosticOp) {
  SmallVector<StringRef> enters(vocabulary.getNumEntries());
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
    if (entry.getKind() == EntryKind::Function)
      enters[entry.getId()] = entry.getSymbol();
    else if (entry.getKind() == EntryKind::CallSite)
      enters[entry.getId()] = *entry.getCallee();
    if (!enters[entry.getId()].empty())
      entries.try_emplace(enters[entry.getId()], 0);
  }
  if (tokenCounts.size() != enters.size())
    return diagnosticOp->emitOpError()
           << "has " << tokenCounts.size() << " token counts for a vocabulary of "
           << enters.size();
  for (auto [id, count] : llvm::enumerate(tokenCounts)) {
    if (!count || enters[id].empty())
      continue;
    uint64_t &total = entries[enters[id]];
    if (__builtin_add_overflow(total, count, &total))
      return diagnosticOp->emitOpError() << "entry count of @" << enters[id]
                                         << " does not fit in 64 bits";
  }
  return success();
}

unsigned mlir::phaedrus::attachEntryCounts(
    Operation *module, const llvm::StringMap<uint64_t> &entries,
    Provenance provenance, double confidence) {
  unsigned annotated = 0;
  module->walk([&](FunctionOpInterface function) {
    auto it = entries.find(SymbolTable::getSymbolName(function).getValue());
    if (it == entries.end())
      return;
    function->setAttr(PhaedrusDialect::getEntryCountAttrName(),
                      EntryCountAttr::get(function->getContext(), it->second,
                                          provenance, confidence));
    ++annotated;
  });
  return annotated;
}
