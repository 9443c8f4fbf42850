//===- Grammar.cpp - Grammar compression of traces ------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Trace/PairGrammar.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSGRAMMARPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

/// An exact key of a repeat's structure (count, tokens, nested repeats and
/// rule uses), for interning equal repeats as one symbol.
static LogicalResult appendKey(Region &body, std::string &key) {
  for (Operation &op : body.front()) {
    if (auto tokens = dyn_cast<TokensOp>(op)) {
      SmallVector<int32_t> storage;
      FailureOr<ArrayRef<int32_t>> array = tokens.readTokens(storage);
      if (failed(array))
        return failure();
      key += 'T';
      for (int32_t t : *array)
        key += std::to_string(t) + ',';
    } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
      key += 'R' + std::to_string(repeat.getCount()) + '{';
      if (failed(appendKey(repeat.getBody(), key)))
        return failure();
      key += '}';
    } else if (auto apply = dyn_cast<ApplyOp>(op)) {
      key += 'A' + apply.getRule().str() + ';';
    }
  }
  return success();
}

namespace {
struct PhaedrusGrammarPass
    : public phaedrus::impl::PhaedrusGrammarPassBase<PhaedrusGrammarPass> {
  using PhaedrusGrammarPassBase::PhaedrusGrammarPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (minCount < 2) {
      mlir::emitError(wholeModuleLoc(module),
                      "phaedrus-grammar: min-count must be at least 2");
      return signalPassFailure();
    }
    // Traces without a grammar, grouped by vocabulary.
    llvm::MapVector<StringAttr, SmallVector<TraceOp>> byVocabulary;
    for (TraceOp trace : module.getOps<TraceOp>())
      if (!trace.getGrammarAttr())
        byVocabulary[trace.getVocabularyAttr().getAttr()].push_back(trace);
    SymbolTable symbols(module);
    for (auto &[vocabularyName, traces] : byVocabulary) {
      auto vocabulary = symbols.lookup<VocabularyOp>(vocabularyName);
      if (!vocabulary) {
        traces.front().emitOpError("has no vocabulary");
        return signalPassFailure();
      }
      if (failed(compress(module, vocabulary, traces)))
        return signalPassFailure();
    }
  }

  LogicalResult compress(ModuleOp module, VocabularyOp vocabulary,
                         ArrayRef<TraceOp> traces) {
    uint32_t numTokens = vocabulary.getNumEntries();
    // Symbols: tokens are themselves; each distinct repeat (by its exact
    // structure) is one symbol after the tokens.
    std::map<std::string, uint32_t> repeatSymbol;
    std::vector<Operation *> repeatOf; // symbol - numTokens -> an instance
    std::vector<std::vector<uint32_t>> sequences;
    for (TraceOp trace : traces) {
      std::vector<uint32_t> seq;
      for (Operation &op : trace.getBody().front()) {
        if (auto tokens = dyn_cast<TokensOp>(op)) {
          SmallVector<int32_t> storage;
          FailureOr<ArrayRef<int32_t>> array = tokens.readTokens(storage);
          if (failed(array))
            return failure();
          seq.insert(seq.end(), array->begin(), array->end());
        } else if (auto repeat = dyn_cast<RepeatOp>(op)) {
          std::string key = std::to_string(repeat.getCount()) + '{';
          if (failed(appendKey(repeat.getBody(), key)))
            return failure();
          auto [it, inserted] = repeatSymbol.try_emplace(
              key, numTokens + static_cast<uint32_t>(repeatOf.size()));
          if (inserted)
            repeatOf.push_back(repeat);
          seq.push_back(it->second);
        } else {
          return op.emitOpError("cannot be grammar-compressed here");
        }
      }
      sequences.push_back(std::move(seq));
    }
    uint32_t firstRule = numTokens + static_cast<uint32_t>(repeatOf.size());
    trace::PairGrammar grammar =
        trace::buildPairGrammar(std::move(sequences), firstRule, minCount);
    if (grammar.rules.empty())
      return success();

    // Keep one copy of each repeat before the trace bodies are rewritten.
    std::vector<OwningOpRef<Operation *>> repeats;
    for (Operation *op : repeatOf)
      repeats.emplace_back(op->clone());

    OpBuilder builder(module.getContext()); // (no insertion point: detached)
    Location loc = vocabulary.getLoc();
    std::string name = (vocabulary.getSymName() + "_grammar").str();
    auto grammarOp = GrammarOp::create(builder, loc, builder.getStringAttr(name),
                                       FlatSymbolRefAttr::get(vocabulary));
    // Inserted after the vocabulary, its name uniqued if a grammar has it
    // (inserted first and then uniqued, two ops of one name made the
    // module's symbol table refuse it).
    SymbolTable(module).insert(grammarOp,
                               std::next(Block::iterator(vocabulary)));
    grammarOp.getBody().emplaceBlock();

    auto ruleName = [&](uint32_t symbol) {
      return "r" + std::to_string(symbol - firstRule);
    };
    // Writes symbols at the builder: token runs, repeat copies, rule uses.
    auto emitSymbols = [&](OpBuilder &b, ArrayRef<uint32_t> symbols,
                           StringRef blobPrefix) {
      std::vector<uint32_t> run;
      unsigned blobs = 0;
      auto flush = [&] {
        flushTokenRun(b, loc, run, blobPrefix, blobs, inlineLimit);
      };
      for (uint32_t s : symbols) {
        if (s < numTokens) {
          run.push_back(s);
        } else if (s < firstRule) {
          flush();
          b.clone(*repeats[s - numTokens].get());
        } else {
          flush();
          ApplyOp::create(b, loc, FlatSymbolRefAttr::get(b.getContext(), ruleName(s)));
        }
      }
      flush();
    };

    OpBuilder ruleBuilder = OpBuilder::atBlockEnd(&grammarOp.getBody().front());
    for (size_t r = 0; r < grammar.rules.size(); ++r) {
      auto rule = RuleOp::create(
          ruleBuilder, loc, ruleBuilder.getStringAttr(ruleName(firstRule + r)));
      OpBuilder body = OpBuilder::atBlockEnd(&rule.getBody().emplaceBlock());
      emitSymbols(body, grammar.rules[r], "rule");
      ++numRules;
    }
    for (auto [i, seq] : llvm::enumerate(grammar.sequences)) {
      TraceOp trace = traces[i];
      Block &block = trace.getBody().front();
      block.clear();
      OpBuilder body = OpBuilder::atBlockEnd(&block);
      emitSymbols(body, seq, trace.getSymName());
      trace.setGrammarAttr(FlatSymbolRefAttr::get(grammarOp));
    }
    return success();
  }
};
} // namespace
