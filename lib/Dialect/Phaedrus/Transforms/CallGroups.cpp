//===- CallGroups.cpp - Input-consistent compression (Lemma 1) ------------===//
//
// Finds the call groups of the program from its CFG and folds each
// occurrence of a group in a function-granularity trace into one token
// (trace::CallGroupFolder). The static part is here; the run-time check
// that keeps folding exact is in lib/Trace/CallGroups.cpp.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/IR/TraceBuild.h"
#include "phaedrus/Dialect/Phaedrus/IR/TraceWalk.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Trace/RepeatFolder.h"

#include "mlir/Parser/Parser.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSCALLGROUPSPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;
using CallSite = ProgramShape::CallSite;

//===----------------------------------------------------------------------===//
// The groups of a program
//===----------------------------------------------------------------------===//

namespace {
/// Why a call site has no next member, for `explain`.
enum class NoLink {
  None,
  Exits,       // a path returns or reaches `unreachable` first
  Diverges,    // paths meet different recorded calls first
  Loops,       // a path comes back to the call first
  OtherEntry,  // the next call is reached on paths without this one
  OtherCall,   // ... or after another recorded call
  RunsTwice,   // ... or twice after this one
  Shared,      // the next call follows two calls
};

struct Link {
  const CallSite *next = nullptr;
  NoLink why = NoLink::None;
  const CallSite *other = nullptr;  // the call that would have been next
  const CallSite *second = nullptr; // Diverges: another first call
};

/// The recorded call sites of one function, by block, in program order.
class FunctionSites {
public:
  explicit FunctionSites(ArrayRef<const CallSite *> sites) {
    for (const CallSite *site : sites)
      inBlock[site->call->getBlock()].push_back(site);
  }

  /// The call site that always runs next after `site` in the same
  /// invocation, and only after it.
  Link next(const CallSite *site) const {
    Block *from = site->call->getBlock();
    const SmallVector<const CallSite *> &here = inBlock.find(from)->second;
    auto position = llvm::find(here, site);
    if (std::next(position) != here.end())
      return {*std::next(position)};

    // Every path out of `from` meets the same recorded call site first,
    // without coming back to `from`, returning or reaching `unreachable`
    // (after a call that does not return).
    const CallSite *candidate = nullptr;
    llvm::SmallPtrSet<Block *, 16> visited;
    SmallVector<Block *> worklist(from->getSuccessors().begin(),
                                  from->getSuccessors().end());
    if (worklist.empty())
      return {nullptr, NoLink::Exits};
    while (!worklist.empty()) {
      Block *block = worklist.pop_back_val();
      if (!visited.insert(block).second)
        continue;
      if (block == from)
        return {nullptr, NoLink::Loops};
      if (auto it = inBlock.find(block); it != inBlock.end()) {
        if (candidate && candidate != it->second.front())
          return {nullptr, NoLink::Diverges, candidate, it->second.front()};
        candidate = it->second.front();
        continue;
      }
      if (block->getNumSuccessors() == 0)
        return {nullptr, NoLink::Exits};
      worklist.append(block->getSuccessors().begin(),
                      block->getSuccessors().end());
    }

    // And every path into the candidate's block comes from `from` without
    // another recorded call, and does not pass the candidate twice.
    Block *to = candidate->call->getBlock();
    if (to->isEntryBlock())
      return {nullptr, NoLink::OtherEntry, candidate};
    visited.clear();
    worklist.assign(to->getPredecessors().begin(), to->getPredecessors().end());
    while (!worklist.empty()) {
      Block *block = worklist.pop_back_val();
      if (!visited.insert(block).second || block == from)
        continue;
      if (block == to)
        return {nullptr, NoLink::RunsTwice, candidate};
      if (inBlock.count(block))
        return {nullptr, NoLink::OtherCall, candidate};
      if (block->isEntryBlock())
        return {nullptr, NoLink::OtherEntry, candidate};
      worklist.append(block->getPredecessors().begin(),
                      block->getPredecessors().end());
    }
    return {candidate};
  }

private:
  llvm::DenseMap<Block *, SmallVector<const CallSite *>> inBlock;
};

/// What `explain` says of a call site without a next member.
std::string describe(const Link &link) {
  auto callee = [](const CallSite *site) { return "@" + site->callee.str(); };
  switch (link.why) {
  case NoLink::None:
    return "";
  case NoLink::Exits:
    return "a path from it returns or reaches 'unreachable' before another "
           "recorded call";
  case NoLink::Diverges:
    return "paths from it meet different recorded calls first (" +
           callee(link.other) + ", " + callee(link.second) + ")";
  case NoLink::Loops:
    return "a path from it comes back to it before another recorded call "
           "(it is in a loop)";
  case NoLink::OtherEntry:
    return "the call that follows it (" + callee(link.other) +
           ") also runs on paths that do not pass it";
  case NoLink::OtherCall:
    return "the call that follows it (" + callee(link.other) +
           ") can also follow another recorded call";
  case NoLink::RunsTwice:
    return "the call that follows it (" + callee(link.other) +
           ") can run again before it does (a loop)";
  case NoLink::Shared:
    return "the call that follows it (" + callee(link.other) +
           ") also follows another call";
  }
  return "";
}
} // namespace

std::vector<CallGroup> mlir::phaedrus::findCallGroups(
    const ProgramShape &shape, size_t maxMembers,
    function_ref<void(const CallSite &, StringRef why)> explain) {
  std::vector<CallGroup> groups;
  ArrayRef<CallSite> all = shape.sites;
  while (!all.empty()) {
    size_t count = 1;
    while (count < all.size() && all[count].caller == all.front().caller)
      ++count;
    SmallVector<const CallSite *> sites;
    for (const CallSite &site : all.take_front(count))
      sites.push_back(&site);
    all = all.drop_front(count);

    FunctionSites function(sites);
    llvm::DenseMap<const CallSite *, Link> links;
    llvm::DenseMap<const CallSite *, unsigned> incoming;
    for (const CallSite *site : sites) {
      Link link = function.next(site);
      if (link.next)
        ++incoming[link.next];
      links[site] = link;
    }
    // A site with two predecessors belongs to neither chain.
    for (const CallSite *site : sites) {
      Link &link = links[site];
      if (link.next && incoming.lookup(link.next) > 1)
        link = {nullptr, NoLink::Shared, link.next};
    }
    if (explain)
      for (const CallSite *site : sites)
        if (!links[site].next)
          explain(*site, describe(links[site]));
    llvm::SmallPtrSet<const CallSite *, 16> used;
    uint64_t index = 0;
    for (const CallSite *start : sites) {
      if (incoming.lookup(start) == 1 || !links[start].next)
        continue;
      std::vector<const CallSite *> chain;
      for (const CallSite *site = start; site && used.insert(site).second;
           site = links[site].next) {
        chain.push_back(site);
        if (chain.size() == maxMembers) {
          groups.push_back({index++, std::move(chain)});
          chain.clear();
        }
      }
      if (chain.size() >= 2)
        groups.push_back({index++, std::move(chain)});
    }
  }
  return groups;
}

std::vector<CallGroupEntry> mlir::phaedrus::callGroupEntries(
    ArrayRef<CallGroup> groups,
    function_ref<std::optional<int64_t>(StringRef, uint64_t)> siteToken) {
  std::vector<CallGroupEntry> entries;
  for (const CallGroup &group : groups) {
    std::vector<int64_t> members;
    for (const CallSite *site : group.sites) {
      std::optional<int64_t> token = siteToken(site->caller, site->index);
      if (!token)
        break;
      members.push_back(*token);
    }
    if (members.size() != group.sites.size())
      continue; // the vocabulary does not name them all
    for (size_t length = 2; length <= members.size(); ++length)
      entries.push_back({group.sites.front()->caller, group.index,
                         std::vector<int64_t>(members.begin(),
                                              members.begin() + length)});
  }
  return entries;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {
struct PhaedrusCallGroupsPass
    : public phaedrus::impl::PhaedrusCallGroupsPassBase<PhaedrusCallGroupsPass> {
  using PhaedrusCallGroupsPassBase::PhaedrusCallGroupsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (maxPeriod == 0) {
      mlir::emitError(wholeModuleLoc(module),
                      "phaedrus-call-groups: max-period must be at least 1");
      return signalPassFailure();
    }
    // Only function-granularity traces are folded: no program is needed
    // for others.
    if (llvm::none_of(module.getOps<TraceOp>(), [&](TraceOp trace) {
          auto vocabulary = SymbolTable::lookupNearestSymbolFrom<VocabularyOp>(
              trace, trace.getVocabularyAttr());
          return vocabulary && isFunctionGranularity(vocabulary);
        }))
      return;
    // Without a program, the groups the instrumented build put in the
    // vocabulary (function granularity: the entries this pass would add)
    // serve.
    std::optional<ProgramShape> shape;
    std::vector<CallGroup> groups;
    OwningOpRef<ModuleOp> programFile;
    if (!programPath.empty() ||
        llvm::any_of(module.getOps<LLVM::LLVMFuncOp>(), isRecordedFunction)) {
      FailureOr<ModuleOp> program =
          loadProgram(module, programPath, programFile, "phaedrus-call-groups");
      if (failed(program))
        return signalPassFailure();
      shape = analyzeProgram(*program);
      groups = findProgramGroups(*shape);
    }

    SymbolTableCollection symbolTable;
    TraceWalker walker(symbolTable);
    for (VocabularyOp vocabulary : module.getOps<VocabularyOp>()) {
      SmallVector<TraceOp> traces;
      for (TraceOp trace : module.getOps<TraceOp>())
        if (trace.getVocabulary() == vocabulary.getSymName())
          traces.push_back(trace);
      if (traces.empty() || !isFunctionGranularity(vocabulary))
        continue;
      if (shape) {
        if (failed(checkProgramFingerprint(vocabulary, vocabulary.getSymName(),
                                           vocabulary.getFingerprint(), *shape,
                                           "phaedrus-call-groups")) ||
            failed(addGroupEntries(vocabulary, groups)))
          return signalPassFailure();
      } else if (llvm::none_of(vocabulary.getBody().getOps<EntryOp>(),
                               [](EntryOp entry) {
                                 return entry.getKind() == EntryKind::Group;
                               })) {
        // A program may have no groups at all (every call conditional or
        // alone in its block), which a build records as none: not an error.
        vocabulary.emitWarning()
            << "phaedrus-call-groups: vocabulary @" << vocabulary.getSymName()
            << " has no call groups and this module has no function bodies "
               "to find them in, so its traces are not folded by call groups: "
               "the program has none, or its build was instrumented before "
               "--phaedrus-instrument recorded them (then give the plain "
               "program with program=FILE)";
        continue;
      }
      FailureOr<trace::CallGroupTable> table = buildCallGroupTable(vocabulary);
      if (failed(table))
        return signalPassFailure();
      for (TraceOp trace : traces)
        if (failed(foldTrace(walker, trace, *table, vocabulary)))
          return signalPassFailure();
    }
    // A trace folded again from its grammar's expansion uses it no more.
    eraseUnusedGrammars(module);
  }

  /// The program's groups; with `explain`, a remark per group and per call
  /// site that ends one or is in none.
  std::vector<CallGroup> findProgramGroups(const ProgramShape &shape) {
    auto why = [&](const CallSite &site, StringRef why) {
      LLVM::CallOp(site.call).emitRemark()
          << "phaedrus-call-groups: @" << site.caller << "'s call "
          << site.index << " (@" << site.callee
          << ") has no next group member: " << why;
    };
    std::vector<CallGroup> groups =
        findCallGroups(shape, trace::CallGroupTable::kMaxMembers,
                       explain ? function_ref<void(const CallSite &, StringRef)>(why)
                               : nullptr);
    numGroups = groups.size();
    if (explain) {
      for (const CallGroup &group : groups) {
        const CallSite *first = group.sites.front();
        InFlightDiagnostic remark = LLVM::CallOp(first->call).emitRemark();
        remark << "phaedrus-call-groups: group @" << first->caller << "["
               << group.index << "]: calls";
        for (const CallSite *site : group.sites)
          remark << " " << site->index << " (@" << site->callee << ")";
      }
    }
    return groups;
  }

  /// Appends an entry per group prefix to `vocabulary`, or checks that the
  /// entries it has are these.
  LogicalResult addGroupEntries(VocabularyOp vocabulary,
                                ArrayRef<CallGroup> groups) {
    std::map<std::pair<StringRef, uint64_t>, int64_t> siteIds;
    SmallVector<EntryOp> existing;
    for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>()) {
      if (entry.getKind() == EntryKind::CallSite)
        siteIds[{entry.getSymbol(), *entry.getIndex()}] = entry.getId();
      if (entry.getKind() == EntryKind::Group)
        existing.push_back(entry);
    }

    std::vector<CallGroupEntry> wanted =
        callGroupEntries(groups, [&](StringRef caller, uint64_t index)
                                     -> std::optional<int64_t> {
          auto it = siteIds.find({caller, index});
          if (it == siteIds.end())
            return std::nullopt;
          return it->second;
        });

    if (!existing.empty()) {
      llvm::sort(existing, [](EntryOp a, EntryOp b) {
        return a.getId() < b.getId();
      });
      bool same = existing.size() == wanted.size();
      for (size_t i = 0; same && i < wanted.size(); ++i)
        same = existing[i].getSymbol() == wanted[i].function &&
               *existing[i].getIndex() == wanted[i].index &&
               ArrayRef<int64_t>(*existing[i].getMembers()) ==
                   ArrayRef<int64_t>(wanted[i].members);
      if (!same)
        return vocabulary.emitError()
               << "phaedrus-call-groups: vocabulary @" << vocabulary.getSymName()
               << " has call groups that are not this program's; expand its "
                  "traces (--phaedrus-expand) and remove them first";
      return success();
    }

    MLIRContext *context = vocabulary.getContext();
    OpBuilder builder = OpBuilder::atBlockEnd(&vocabulary.getBody().front());
    int64_t id = vocabulary.getNumEntries();
    for (const CallGroupEntry &group : wanted)
      EntryOp::create(builder, vocabulary.getLoc(), builder.getI64IntegerAttr(id++),
                      EntryKindAttr::get(context, EntryKind::Group),
                      FlatSymbolRefAttr::get(context, group.function),
                      builder.getI64IntegerAttr(group.index),
                      FlatSymbolRefAttr(),
                      builder.getDenseI64ArrayAttr(group.members));
    numGroupTokens += wanted.size();
    return success();
  }

  LogicalResult foldTrace(TraceWalker &walker, TraceOp trace,
                          const trace::CallGroupTable &table,
                          VocabularyOp vocabulary) {
    FailureOr<SmallVector<uint64_t>> counts =
        walker.countTokens(trace, vocabulary.getNumEntries());
    if (failed(counts))
      return failure();
    for (EntryOp entry : vocabulary.getBody().getOps<EntryOp>())
      if (entry.getKind() == EntryKind::Group && (*counts)[entry.getId()])
        return success(); // folded before
    // (No group tokens: the counts add up to the trace's length.)
    if (failed(checkMaxTokens(trace, recordedLength(vocabulary, *counts),
                              maxTokens,
                              "left as it is (folding reads every token "
                              "twice)")))
      return failure();

    auto asTokens = [](ArrayRef<int32_t> piece) {
      return reinterpret_cast<const uint32_t *>(piece.data());
    };
    trace::CallGroupRepeatFolder folder(table, maxPeriod, longPeriod);
    if (failed(walker.expand(trace, [&](ArrayRef<int32_t> piece) {
          folder.analyze(asTokens(piece), piece.size());
        })) ||
        failed(walker.expand(trace, [&](ArrayRef<int32_t> piece) {
          folder.rewrite(asTokens(piece), piece.size());
        })))
      return failure();
    if (!folder.finish()) {
      trace.emitWarning()
          << "phaedrus-call-groups: folding would not expand back to the "
             "recorded trace (an internal error); the trace is left as it is";
      return success();
    }

    Block &body = trace.getBody().front();
    body.clear();
    trace.removeGrammarAttr();
    OpBuilder builder = OpBuilder::atBlockEnd(&body);
    emitFoldedItems(builder, trace.getLoc(), folder.folded(),
                    trace.getSymName(), inlineLimit, /*renumber=*/{},
                    minRepeatTokens);
    ++numTracesFolded;
    numTokensFolded += folder.numDropped();
    return success();
  }
};
} // namespace
