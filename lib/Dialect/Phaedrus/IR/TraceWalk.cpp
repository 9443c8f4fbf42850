//===- TraceWalk.cpp - Walking compressed traces --------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"

#include "llvm/ADT/DenseSet.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::phaedrus;

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
      length = llvm::SaturatingAdd(
          length, uint64_t(tokens.getTokens().getNumElements()));
    } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      FailureOr<uint64_t> inner = lengthOf(repeat.getBody());
      if (failed(inner))
        return failure();
      length = llvm::SaturatingAdd(
          length, llvm::SaturatingMultiply(*inner, repeat.getCount()));
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
      length = llvm::SaturatingAdd(length, it->second);
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
    if (stopped)
      return success();
    if (auto tokens = dyn_cast<TokensOp>(op)) {
      SmallVector<int32_t> storage;
      FailureOr<ArrayRef<int32_t>> array = tokens.readTokens(storage);
      if (failed(array))
        return failure();
      sink(*array);
    } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      for (int64_t i = 0, e = repeat.getCount(); i < e && !stopped; ++i)
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
  stopped = false;
  return expandRegion(trace.getBody(), sink);
}

VocabularyOp TraceWalker::vocabularyOf(TraceOp trace) {
  return symbolTable.lookupNearestSymbolFrom<VocabularyOp>(
      trace, trace.getVocabularyAttr());
}

LogicalResult
TraceWalker::expandRecorded(TraceOp trace,
                            function_ref<void(ArrayRef<int32_t>)> sink) {
  VocabularyOp vocabulary = vocabularyOf(trace);
  FailureOr<trace::CallGroupTable> table = buildCallGroupTable(vocabulary);
  if (failed(table))
    return failure();
  if (!table->hasGroupTokens())
    return expand(trace, sink);
  trace::CallGroupExpander expander(*table);
  std::vector<uint32_t> out;
  auto flush = [&] {
    if (!stopped)
      sink(ArrayRef<int32_t>(reinterpret_cast<const int32_t *>(out.data()),
                             out.size()));
    out.clear();
  };
  if (failed(expand(trace, [&](ArrayRef<int32_t> piece) {
        expander.push(reinterpret_cast<const uint32_t *>(piece.data()),
                      piece.size(), out);
        if (out.size() >= 4096)
          flush();
      })))
    return failure();
  expander.finish(out);
  flush();
  return success();
}

FailureOr<uint64_t> TraceWalker::getRecordedLength(TraceOp trace) {
  VocabularyOp vocabulary = vocabularyOf(trace);
  if (llvm::none_of(vocabulary.getBody().getOps<EntryOp>(), [](EntryOp entry) {
        return entry.getKind() == EntryKind::Group;
      }))
    return getExpandedLength(trace);
  FailureOr<SmallVector<uint64_t>> counts =
      countTokens(trace, vocabulary.getNumEntries());
  if (failed(counts))
    return failure();
  return recordedLength(vocabulary, *counts);
}

std::string mlir::phaedrus::describeLength(uint64_t length) {
  return length == UINT64_MAX ? "2^64 - 1 or more" : std::to_string(length);
}

LogicalResult mlir::phaedrus::checkMaxTokens(TraceOp trace, uint64_t length,
                                             uint64_t maxTokens,
                                             StringRef consequence) {
  if (length <= maxTokens)
    return success();
  return trace.emitOpError()
         << "expands to " << describeLength(length)
         << " tokens, more than max-tokens=" << maxTokens << "; "
         << consequence;
}

uint64_t mlir::phaedrus::recordedLength(VocabularyOp vocabulary,
                                        ArrayRef<uint64_t> tokenCounts) {
  uint64_t total = 0;
  for (uint64_t count : tokenCounts)
    total = llvm::SaturatingAdd(total, count);
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>())
    if (entry.getKind() == EntryKind::Group)
      total = llvm::SaturatingAdd(
          total, llvm::SaturatingMultiply(tokenCounts[entry.getId()],
                               entry.getMembers()->size() - 1));
  return total;
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
        counts[token] = llvm::SaturatingAdd(counts[token], multiplier);
    } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      if (failed(countRegion(repeat.getBody(),
                             llvm::SaturatingMultiply(multiplier, repeat.getCount()),
                             counts, ruleUses)))
        return failure();
    } else if (auto apply = dyn_cast<ApplyOp>(op)) {
      FailureOr<RuleOp> rule = resolve(apply);
      if (failed(rule))
        return failure();
      uint64_t &uses = ruleUses[*rule];
      uses = llvm::SaturatingAdd(uses, multiplier);
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

bool mlir::phaedrus::isFunctionGranularity(VocabularyOp vocabulary) {
  bool calls = false;
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
    if (entry.getKind() == EntryKind::Path)
      return false;
    calls |= entry.getKind() == EntryKind::CallSite;
  }
  return calls;
}

FailureOr<trace::CallGroupTable>
mlir::phaedrus::buildCallGroupTable(VocabularyOp vocabulary,
                                    SmallVectorImpl<StringAttr> *functionNames) {
  using trace::CallGroupTable;
  size_t numEntries = vocabulary.getNumEntries();
  CallGroupTable table(numEntries);
  llvm::DenseMap<StringAttr, uint32_t> functions;
  auto functionId = [&](FlatSymbolRefAttr symbol) {
    auto [it, inserted] =
        functions.try_emplace(symbol.getAttr(), functions.size());
    if (inserted && functionNames)
      functionNames->push_back(symbol.getAttr());
    return it->second;
  };
  SmallVector<EntryOp> groups;
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
    uint32_t id = static_cast<uint32_t>(entry.getId());
    switch (entry.getKind()) {
    case EntryKind::Function:
      table.setEntry(id, functionId(entry.getSymbolAttr()));
      break;
    case EntryKind::CallSite:
      table.setCall(id, functionId(entry.getSymbolAttr()),
                    functionId(entry.getCalleeAttr()));
      break;
    case EntryKind::Group:
      groups.push_back(entry);
      break;
    case EntryKind::Path:
      table.setPath(id, functionId(entry.getSymbolAttr()));
      break;
    }
  }
  // Prefix entries share their group's members; the longest defines it.
  // (Stable, so a diagnostic names the same entry every time.)
  llvm::stable_sort(groups, [](EntryOp a, EntryOp b) {
    return a.getMembers()->size() > b.getMembers()->size();
  });
  llvm::DenseMap<int64_t, uint32_t> groupOfFirst;
  std::string error;
  for (EntryOp entry : groups) {
    ArrayRef<int64_t> members = *entry.getMembers();
    uint32_t group;
    auto it = groupOfFirst.find(members.front());
    if (it == groupOfFirst.end()) {
      std::vector<uint32_t> ids(members.begin(), members.end());
      group = table.addGroup(ids, error);
      if (group != CallGroupTable::kNone)
        groupOfFirst[members.front()] = group;
    } else {
      group = it->second;
      ArrayRef<uint32_t> longest = table.members(group);
      if (!std::equal(members.begin(), members.end(), longest.begin()))
        error = "its members are not a prefix of the group of the same first "
                "call site";
    }
    if (group == CallGroupTable::kNone || !error.empty() ||
        !table.setGroupToken(static_cast<uint32_t>(entry.getId()), group,
                             members.size(), error))
      return entry.emitOpError() << "is not a valid call group: " << error;
  }
  return table;
}

LogicalResult mlir::phaedrus::addEntryCounts(VocabularyOp vocabulary,
                                             ArrayRef<uint64_t> tokenCounts,
                                             llvm::StringMap<uint64_t> &entries,
                                             Operation *diagnosticOp,
                                             CallSiteCounts *callSites) {
  SmallVector<StringRef> enters(vocabulary.getNumEntries());
  SmallVector<EntryOp> sites(vocabulary.getNumEntries());
  SmallVector<EntryOp> groups;
  for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
    if (entry.getKind() == EntryKind::Function)
      enters[entry.getId()] = entry.getSymbol();
    else if (entry.getKind() == EntryKind::CallSite) {
      enters[entry.getId()] = *entry.getCallee();
      sites[entry.getId()] = entry;
    }
    else if (entry.getKind() == EntryKind::Group)
      groups.push_back(entry);
    if (!enters[entry.getId()].empty())
      entries.try_emplace(enters[entry.getId()], 0);
  }
  if (tokenCounts.size() != enters.size())
    return diagnosticOp->emitOpError()
           << "has " << tokenCounts.size() << " token counts for a vocabulary of "
           << enters.size();
  auto add = [&](StringRef function, uint64_t count) -> LogicalResult {
    uint64_t &total = entries[function];
    if (__builtin_add_overflow(total, count, &total))
      return diagnosticOp->emitOpError() << "entry count of @" << function
                                         << " does not fit in 64 bits";
    return success();
  };
  auto ran = [&](EntryOp site, uint64_t count) {
    if (callSites && site && count && site.getIndex()) {
      uint64_t &total = (*callSites)[site.getSymbol()][*site.getIndex()];
      total = llvm::SaturatingAdd(total, count);
    }
  };
  for (auto [id, count] : llvm::enumerate(tokenCounts)) {
    if (count && !enters[id].empty() && failed(add(enters[id], count)))
      return failure();
    ran(sites[id], count);
  }
  // A group token enters the callee of each of its members.
  for (EntryOp group : groups)
    if (uint64_t count = tokenCounts[group.getId()])
      for (int64_t member : group.getMembers().value_or(ArrayRef<int64_t>())) {
        if (failed(add(enters[member], count)))
          return failure();
        ran(sites[member], count);
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

void mlir::phaedrus::eraseUnusedGrammars(Operation *module) {
  llvm::DenseSet<StringAttr> used;
  Region &body = module->getRegion(0);
  for (TraceOp trace : body.getOps<TraceOp>())
    if (FlatSymbolRefAttr grammar = trace.getGrammarAttr())
      used.insert(grammar.getAttr());
  for (GrammarOp grammar : llvm::to_vector(body.getOps<GrammarOp>()))
    if (!used.contains(grammar.getSymNameAttr()))
      grammar.erase();
}
