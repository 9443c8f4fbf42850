//===- Augment.cpp - Plausible traces of unseen inputs --------------------===//
//
// --phaedrus-augment: splices recorded traces at a common call context, drops
// rare leaf calls and resamples repeat counts within their log-scale
// buckets; every result is checked against the program's static call graph
// (lib/Trace/Augment.cpp reads the streams).
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Trace/Augment.h"
#include "phaedrus/Trace/SplitMix64.h"

#include "llvm/Support/FormatVariadic.h"

#include <optional>

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSAUGMENTPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

static constexpr StringLiteral kAugmentedAttr =
    PhaedrusDialect::getAugmentedAttrName();
static constexpr StringLiteral kPass = "phaedrus-augment";
static constexpr unsigned kMaxCopies = 1000;

namespace {

/// A recorded trace that may be augmented, with the facts of its stream.
struct Source {
  TraceOp trace;
  std::unique_ptr<trace::StreamFacts> facts;
};

/// What every copy of a vocabulary's traces reads.
struct Shared {
  trace::CallGroupTable table;
  std::vector<bool> enterable;           // by function id
  std::vector<std::string> functionNames; // by function id
  std::vector<Source> sources;           // the legal recorded traces
  std::vector<bool> inEveryRun;          // by token: every source has it
};

/// Where an augmented copy's stream comes from: `first` up to (not
/// including) event `cut`, then `second` from event `resume`; or all of
/// `first`.
struct Recipe {
  Source *first = nullptr;
  Source *second = nullptr;
  uint64_t cut = UINT64_MAX;
  uint64_t resume = 0;
};

struct PhaedrusAugmentPass
    : public phaedrus::impl::PhaedrusAugmentPassBase<PhaedrusAugmentPass> {
  using PhaedrusAugmentPassBase::PhaedrusAugmentPassBase;

  bool doSplice = true, doDrop = true, doResample = true;

  LogicalResult checkOptions(ModuleOp module) {
    if (!transforms.empty()) {
      doSplice = doDrop = doResample = false;
      for (const std::string &name : transforms) {
        if (name == "splice")
          doSplice = true;
        else if (name == "drop-leaves")
          doDrop = true;
        else if (name == "resample")
          doResample = true;
        else
          return mlir::emitError(wholeModuleLoc(module))
                 << kPass << ": unknown transform '" << name
                 << "' (the transforms are splice, drop-leaves, resample)";
      }
    }
    auto rate = [&](double value, StringRef name) -> LogicalResult {
      if (value >= 0 && value <= 1)
        return success();
      return mlir::emitError(wholeModuleLoc(module))
             << kPass << ": " << name << " is "
             << llvm::formatv("{0}", value).str()
             << "; it is a probability, from 0 to 1";
    };
    if (failed(rate(spliceRate, "splice-rate")) ||
        failed(rate(dropRate, "drop-rate")))
      return failure();
    if (bucketsPerOctave == 0 || bucketsPerOctave > 64)
      return mlir::emitError(wholeModuleLoc(module))
             << kPass << ": buckets-per-octave must be from 1 to 64";
    if (maxPeriod == 0)
      return mlir::emitError(wholeModuleLoc(module))
             << kPass << ": max-period must be at least 1";
    // Every copy is a whole trace, held in memory with the others.
    if (copies > kMaxCopies)
      return mlir::emitError(wholeModuleLoc(module))
             << kPass << ": copies is " << static_cast<unsigned>(copies)
             << "; at most " << kMaxCopies
             << " (each copy is a whole trace, all of them in memory)";
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkOptions(module)))
      return signalPassFailure();
    auto recorded = [](TraceOp trace) {
      return !trace->hasAttr(kAugmentedAttr);
    };
    if (copies == 0 || llvm::none_of(module.getOps<TraceOp>(), recorded))
      return;

    OwningOpRef<ModuleOp> programFile;
    FailureOr<ModuleOp> program =
        loadProgram(module, programPath, programFile, kPass);
    if (failed(program))
      return signalPassFailure();
    ProgramShape shape = analyzeProgram(*program);

    SymbolTableCollection symbolTable;
    TraceWalker walker(symbolTable);
    for (VocabularyOp vocabulary :
         llvm::to_vector(module.getOps<VocabularyOp>())) {
      SmallVector<TraceOp> traces;
      for (TraceOp trace : module.getOps<TraceOp>())
        if (trace.getVocabulary() == vocabulary.getSymName() && recorded(trace))
          traces.push_back(trace);
      if (traces.empty())
        continue;
      if (failed(checkProgramFingerprint(vocabulary, vocabulary.getSymName(),
                                         vocabulary.getFingerprint(), shape,
                                         kPass)) ||
          failed(augmentVocabulary(walker, vocabulary, traces, shape)))
        return signalPassFailure();
    }
  }

  LogicalResult augmentVocabulary(TraceWalker &walker, VocabularyOp vocabulary,
                                  ArrayRef<TraceOp> traces,
                                  const ProgramShape &shape) {
    SmallVector<StringAttr> functionAttrs;
    FailureOr<trace::CallGroupTable> table =
        buildCallGroupTable(vocabulary, &functionAttrs);
    if (failed(table))
      return failure();
    Shared shared{std::move(*table), {}, {}, {}, {}};
    for (StringAttr name : functionAttrs) {
      shared.functionNames.push_back(name.str());
      shared.enterable.push_back(
          !shape.enteredOnlyByRecordedCalls.contains(name));
    }

    // Read every recorded trace once: legality, counts, leaves, contexts.
    for (TraceOp trace : traces) {
      FailureOr<uint64_t> length = walker.getRecordedLength(trace);
      if (failed(length))
        return failure();
      if (*length > maxEvents) {
        trace.emitWarning() << kPass << ": trace @" << trace.getSymName()
                            << " stands for " << describeLength(*length)
                            << " events, more than max-events="
                            << static_cast<uint64_t>(maxEvents)
                            << " (augmenting reads and writes every event); "
                               "it is not augmented";
        ++numSkipped;
        continue;
      }
      auto facts = std::make_unique<trace::StreamFacts>(
          shared.table, shared.enterable,
          streamSeed(trace.getSymName(), UINT64_MAX));
      if (failed(walker.expandRecorded(trace, [&](ArrayRef<int32_t> piece) {
            facts->push(asTokens(piece), piece.size());
          })))
        return failure();
      facts->finish();
      if (facts->firstIllegal() != trace::CallTreeReader::Verdict::Legal) {
        trace.emitWarning()
            << kPass << ": trace @" << trace.getSymName()
            << " does not read legally against the program's call graph at "
               "event "
            << facts->firstIllegalAt() << ": "
            << trace::CallTreeReader::explain(shared.table, facts->firstIllegal(),
                                              facts->firstIllegalToken(),
                                              shared.functionNames)
            << "; it is not augmented";
        ++numSkipped;
        continue;
      }
      shared.sources.push_back({trace, std::move(facts)});
    }
    shared.inEveryRun.assign(shared.table.size(), !shared.sources.empty());
    for (const Source &source : shared.sources)
      for (uint32_t token = 0; token < shared.table.size(); ++token)
        if (!source.facts->counts()[token])
          shared.inEveryRun[token] = false;

    for (Source &source : shared.sources) {
      Operation *insertAfter = source.trace;
      for (unsigned copy = 0; copy < copies; ++copy) {
        FailureOr<TraceOp> made =
            augmentOne(walker, shared, source, copy, insertAfter);
        if (failed(made))
          return failure();
        if (*made)
          insertAfter = *made;
      }
    }
    return success();
  }

  static const uint32_t *asTokens(ArrayRef<int32_t> piece) {
    return reinterpret_cast<const uint32_t *>(piece.data());
  }

  /// The seed of one copy: the pass's seed, the trace's name and the copy.
  uint64_t streamSeed(StringRef name, uint64_t copy) const {
    uint64_t hash = phaedrus_fnv1a64(name.data(), name.size(), PHAEDRUS_FNV64_INIT);
    SplitMix64 mix{seed ^ hash};
    mix.state ^= copy * 0xD1B54A32D192ED03ull;
    return mix.next();
  }

  /// Streams the recipe's recorded tokens to `sink`.
  LogicalResult stream(TraceWalker &walker, const Recipe &recipe,
                       function_ref<void(const uint32_t *, size_t)> sink) {
    uint64_t position = 0;
    if (failed(walker.expandRecorded(recipe.first->trace, [&](ArrayRef<int32_t> piece) {
          size_t take = std::min<uint64_t>(piece.size(), recipe.cut - position);
          sink(asTokens(piece), take);
          position += take;
          if (position == recipe.cut)
            walker.stop(); // the rest of the first trace is not needed
        })))
      return failure();
    if (!recipe.second)
      return success();
    position = 0;
    return walker.expandRecorded(recipe.second->trace, [&](ArrayRef<int32_t> piece) {
      uint64_t end = position + piece.size();
      if (end > recipe.resume) {
        size_t skip = position >= recipe.resume ? 0 : recipe.resume - position;
        sink(asTokens(piece) + skip, piece.size() - skip);
      }
      position = end;
    });
  }

  /// Makes copy `copy` of `source`; a null TraceOp if it was rejected.
  FailureOr<TraceOp> augmentOne(TraceWalker &walker, Shared &shared,
                                Source &source, unsigned copy,
                                Operation *insertAfter) {
    const trace::CallGroupTable &table = shared.table;
    TraceOp trace = source.trace;
    std::string name = (trace.getSymName() + "_aug" + Twine(copy)).str();
    ModuleOp module = getOperation();
    if (module.lookupSymbol(name))
      return trace.emitError()
             << kPass << ": @" << name
             << " exists already; augment the recorded traces once (or remove "
                "the augmented ones first)";
    SplitMix64 rng{streamSeed(trace.getSymName(), copy)};
    SmallVector<Attribute> applied;
    MLIRContext *context = &getContext();

    // Splice: a context both traces have, one occurrence of it in each.
    Recipe recipe;
    recipe.first = &source;
    SmallVector<Source *> partners;
    for (Source &other : shared.sources)
      if (&other != &source)
        partners.push_back(&other);
    if (doSplice && !partners.empty() && rng.uniform() < spliceRate) {
      Source *partner = partners[rng.below(partners.size())];
      std::vector<uint64_t> common;
      for (const auto &[ctx, position] : source.facts->contexts())
        if (partner->facts->contexts().count(ctx))
          common.push_back(ctx);
      llvm::sort(common);
      if (!common.empty()) {
        uint64_t chosen = common[rng.below(common.size())];
        recipe.second = partner;
        recipe.cut = source.facts->contexts().at(chosen);
        recipe.resume = partner->facts->contexts().at(chosen);
        applied.push_back(StringAttr::get(context, "splice"));
        ++numSpliced;
      }
    }

    // Drop rare leaves: read a spliced stream first, for its counts.
    std::vector<bool> dropped(table.size(), false);
    bool anyDropped = false;
    if (doDrop) {
      const trace::StreamFacts *facts = source.facts.get();
      std::optional<trace::StreamFacts> spliced;
      if (recipe.second) {
        spliced.emplace(table, shared.enterable, 0);
        if (failed(stream(walker, recipe, [&](const uint32_t *tokens, size_t n) {
              spliced->push(tokens, n);
            })))
          return failure();
        spliced->finish();
        facts = &*spliced;
      }
      // Rare: few runs here and none at all in some recorded run.
      for (uint32_t token = 0; token < table.size(); ++token) {
        uint64_t count = facts->counts()[token];
        if (table[token].kind != trace::CallGroupTable::Kind::Call ||
            count == 0 || count > rareCount || facts->hasChild(token) ||
            shared.inEveryRun[token])
          continue;
        if (rng.uniform() < dropRate)
          dropped[token] = anyDropped = true;
      }
      if (anyDropped)
        applied.push_back(StringAttr::get(context, "drop-leaves"));
    }

    trace::LeafDropper dropper(table, std::move(dropped));
    trace::RepeatFolder folder(maxPeriod, longPeriod);
    std::vector<uint32_t> kept;
    if (failed(stream(walker, recipe, [&](const uint32_t *tokens, size_t n) {
          kept.clear();
          dropper.push(tokens, n, kept);
          folder.push(kept.data(), kept.size());
        })))
      return failure();
    folder.finish();
    numLeavesDropped += dropper.numDropped();

    OpBuilder builder(context);
    builder.setInsertionPointAfter(insertAfter);
    auto made = TraceOp::create(builder, trace.getLoc(), builder.getStringAttr(name),
                                trace.getVocabularyAttr(), trace.getFingerprintAttr(),
                                trace.getInput(), FlatSymbolRefAttr());
    OpBuilder body = OpBuilder::atBlockEnd(&made.getBody().emplaceBlock());
    emitFoldedItems(body, trace.getLoc(), folder, name, inlineLimit);

    // Resample repeat counts, outer repeats first.
    if (doResample) {
      trace::CountBuckets buckets(bucketsPerOctave);
      bool changed = false;
      made.walk<WalkOrder::PreOrder>([&](RepeatOp repeat) {
        uint64_t count = repeat.getCount();
        uint64_t resampled = buckets.resample(count, spread, rng);
        if (resampled == count)
          return;
        repeat.setCount(resampled);
        changed = true;
        ++numCountsResampled;
      });
      if (changed)
        applied.push_back(StringAttr::get(context, "resample"));
    }

    SmallVector<Attribute> from = {FlatSymbolRefAttr::get(trace.getSymNameAttr())};
    if (recipe.second)
      from.push_back(FlatSymbolRefAttr::get(recipe.second->trace.getSymNameAttr()));
    made->setAttr(kAugmentedAttr,
                  builder.getDictionaryAttr({
                      builder.getNamedAttr("from", builder.getArrayAttr(from)),
                      builder.getNamedAttr("copy", builder.getI64IntegerAttr(copy)),
                      builder.getNamedAttr("seed", builder.getI64IntegerAttr(
                                                       static_cast<int64_t>(seed))),
                      builder.getNamedAttr("transforms", builder.getArrayAttr(applied)),
                  }));

    // Resampled counts may make a copy far longer than what it was made of
    // (a wide spread: counts up to 2^50, and the check below walked every
    // event): a copy beyond max-events is dropped, as a recorded trace
    // beyond it is not augmented.
    FailureOr<uint64_t> length = walker.getExpandedLength(made);
    if (failed(length))
      return failure();
    if (*length > maxEvents) {
      made.emitWarning() << kPass << ": augmented trace @" << name
                         << " stands for " << describeLength(*length)
                         << " events after resampling, more than max-events="
                         << static_cast<uint64_t>(maxEvents)
                         << "; it is dropped (a narrower spread makes copies "
                            "nearer the recorded trace's length)";
      made.erase();
      ++numSkipped;
      return TraceOp();
    }

    // The result must respect the call graph (by construction it does).
    using Verdict = trace::CallTreeReader::Verdict;
    trace::CallTreeReader reader(table, shared.enterable);
    Verdict verdict = Verdict::Legal;
    uint64_t at = 0;
    uint32_t offending = 0;
    if (failed(walker.expand(made, [&](ArrayRef<int32_t> piece) {
          for (uint32_t token : ArrayRef<uint32_t>(asTokens(piece), piece.size())) {
            verdict = reader.read(token);
            if (verdict != Verdict::Legal) {
              offending = token;
              walker.stop();
              return;
            }
            ++at;
          }
        })))
      return failure();
    if (verdict != Verdict::Legal) {
      made.emitWarning() << kPass << ": augmented trace @" << name
                         << " breaks the program's call graph at event " << at
                         << " (" << trace::CallTreeReader::explain(table, verdict, offending,
                                                           shared.functionNames)
                         << "); it is dropped (an internal error)";
      made.erase();
      ++numSkipped;
      return TraceOp();
    }
    ++numAugmented;
    return made;
  }
};
} // namespace
