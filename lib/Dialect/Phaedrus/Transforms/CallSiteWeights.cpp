//===- CallSiteWeights.cpp - Branch weights from call-site counts ---------===//
//
// A function-granularity trace counts how often each recorded call site ran,
// and a call runs exactly as often as its block: the first call of a block
// runs every time the block is entered. With the entry count, those block
// counts fix some edge counts by flow conservation (every block's inflow is
// its count and so is its outflow), as a spanning tree's edges fix the rest
// of a flow: a branch whose every edge the counts fix gets those counts as
// its weights, measured, not guessed. A branch they leave open keeps LLVM's
// static estimate.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/Transforms/BranchWeights.h"
#include "phaedrus/Dialect/Phaedrus/Flow/FlowRepair.h"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusDialect.h"

#include "mlir/IR/RegionGraphTraits.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::phaedrus;

namespace {
/// The flow of one function, solved from the counts it is given.
class FlowSolver {
public:
  /// `tolerant`: counts may contradict each other by the rounding of a
  /// blend of runs (within()); the first derivation stands. Beyond that, or
  /// when not tolerant, a contradiction fixes nothing in the function.
  FlowSolver(LLVM::LLVMFuncOp function, bool tolerant) : tolerant(tolerant) {
    for (Block &block : function.getBody()) {
      blockIndex[&block] = blocks.size();
      blocks.push_back({&block, {}, {}, std::nullopt});
    }
    for (auto [b, info] : llvm::enumerate(blocks))
      for (unsigned i = 0; i < info.block->getNumSuccessors(); ++i) {
        unsigned e = edges.size();
        edges.push_back({static_cast<unsigned>(b),
                         blockIndex[info.block->getSuccessor(i)], std::nullopt});
        info.out.push_back(e);
        blocks[edges.back().target].in.push_back(e);
      }
  }

  /// Sets a block's count; false if it had another.
  bool setBlock(Block *block, uint64_t count) {
    std::optional<uint64_t> &known = blocks[blockIndex[block]].count;
    if (known && *known != count)
      return within(*known, count);
    known = count;
    return true;
  }

  /// Derives every count the given ones fix. False if they contradict
  /// each other (more flow out of a block than into it): not a flow.
  bool solve() {
    // A block no edge enters, other than the entry, never ran.
    for (auto [b, info] : llvm::enumerate(blocks))
      if (b != 0 && info.in.empty() && !info.count)
        info.count = 0;
    // (The LLVM dialect's entry block has no in-edges: its inflow is the
    // entry count.)
    bool changed = true;
    while (changed) {
      changed = false;
      for (auto [b, info] : llvm::enumerate(blocks)) {
        if (!info.count) {
          if (auto in = sum(info.in); in && b != 0)
            info.count = *in;
          else if (auto out = sum(info.out); out && !info.out.empty())
            info.count = *out;
          else
            continue;
          changed = true;
        }
        // (A block without successors ends the flow: a return; the entry
        // block's inflow is the entry count.)
        int out = info.out.empty() ? 0 : fixOne(info.out, *info.count);
        int in = b == 0 ? 0 : fixOne(info.in, *info.count);
        if (out < 0 || in < 0)
          return false;
        changed |= out + in > 0;
      }
    }
    return true;
  }

  /// The counts of `block`'s successor edges, if all are fixed.
  std::optional<SmallVector<uint64_t>> outCounts(Block *block) const {
    SmallVector<uint64_t> counts;
    for (unsigned e : blocks[blockIndex.lookup(block)].out) {
      if (!edges[e].count)
        return std::nullopt;
      counts.push_back(*edges[e].count);
    }
    return counts;
  }

private:
  struct BlockInfo {
    Block *block;
    SmallVector<unsigned, 2> in, out; // edge numbers
    std::optional<uint64_t> count;
  };
  struct Edge {
    unsigned source, target;
    std::optional<uint64_t> count;
  };

  std::optional<uint64_t> sum(ArrayRef<unsigned> list) const {
    uint64_t total = 0;
    for (unsigned e : list) {
      if (!edges[e].count)
        return std::nullopt;
      total = llvm::SaturatingAdd(total, *edges[e].count);
    }
    return total;
  }

  /// With `total` known for the edges of `list`: a block that never ran
  /// took none of them, and when one edge is open it carries the rest.
  /// Returns how many edges it fixed, or -1 if the fixed ones cannot add
  /// up to `total` (more than it, or all fixed and less).
  int fixOne(ArrayRef<unsigned> list, uint64_t total) {
    uint64_t known = 0;
    SmallVector<unsigned, 4> open;
    for (unsigned e : list) {
      if (edges[e].count)
        known = llvm::SaturatingAdd(known, *edges[e].count);
      else
        open.push_back(e);
    }
    if (known > total || (open.empty() && known != total))
      if (!within(known, total))
        return -1;
    if (open.empty())
      return 0;
    if (known >= total) { // nothing left: every open edge carries 0
      for (unsigned e : open)
        edges[e].count = 0;
      return open.size();
    }
    if (open.size() != 1)
      return 0;
    edges[open.front()].count = total - known;
    return 1;
  }

  /// How far two counts of one flow may differ in tolerant mode: a
  /// blend's counts are rounded one token at a time, so a block's count and
  /// the sum of its edges' differ by a few (1 + 1/256 of the count).
  bool within(uint64_t a, uint64_t b) const {
    if (!tolerant)
      return a == b;
    uint64_t difference = a > b ? a - b : b - a;
    return difference <= 1 + std::max(a, b) / 256;
  }

  bool tolerant;
  SmallVector<BlockInfo> blocks;
  SmallVector<Edge> edges;
  llvm::DenseMap<Block *, unsigned> blockIndex;
};
} // namespace

/// Whether `block` may have run: the counts (knownBlockCounts) do not say
/// it never did.
static bool mayHaveRun(const llvm::DenseMap<Block *, uint64_t> &known,
                       Block *block) {
  auto count = known.find(block);
  return count == known.end() || count->second != 0;
}

/// The recorded call sites of each function, in index order.
static llvm::StringMap<SmallVector<const ProgramShape::CallSite *>>
sitesByCaller(const ProgramShape &shape) {
  llvm::StringMap<SmallVector<const ProgramShape::CallSite *>> byCaller;
  for (const ProgramShape::CallSite &site : shape.sites)
    byCaller[site.caller].push_back(&site);
  return byCaller;
}

/// A function with an entry count whose call sites the traces counted (a
/// function-granularity profile): its recorded call sites, in index
/// order, and their counts by index.
struct CountedFunction {
  LLVM::LLVMFuncOp function;
  EntryCountAttr entry;
  ArrayRef<const ProgramShape::CallSite *> sites;
  const llvm::DenseMap<uint64_t, uint64_t> &counts;
};

static void
forEachCountedFunction(ModuleOp module, const ProgramShape &shape,
                       const CallSiteCounts &callSites,
                       function_ref<void(const CountedFunction &)> fn) {
  auto byCaller = sitesByCaller(shape);
  for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
    auto entry = function->getAttrOfType<EntryCountAttr>(
        PhaedrusDialect::getEntryCountAttrName());
    auto counted = callSites.find(function.getName());
    auto sites = byCaller.find(function.getName());
    if (entry && counted != callSites.end() && sites != byCaller.end() &&
        !function.isExternal())
      fn({function, entry, sites->second, counted->second});
  }
}

unsigned mlir::phaedrus::attachCallSiteWeights(ModuleOp module,
                                               const ProgramShape &shape,
                                               const CallSiteCounts &callSites,
                                               const PathBranchCounts &paths,
                                               Provenance provenance,
                                               double confidence) {
  // Paths weigh what they determine, and leave without weights on purpose
  // what they do not (a path model's functions whose blended runs
  // disagree): call sites must not weigh those again.
  if (paths.hasPathVocabulary())
    return 0;
  StringRef weightsName = PhaedrusDialect::getBranchWeightsAttrName();
  unsigned annotated = 0;
  forEachCountedFunction(module, shape, callSites, [&](const CountedFunction &f) {
    LLVM::LLVMFuncOp function = f.function;
    // Only where no paths gave weights already.
    if (function
            .walk([&](Operation *op) {
              return op->hasAttr(weightsName) ? WalkResult::interrupt()
                                              : WalkResult::advance();
            })
            .wasInterrupted())
      return;
    // A measured profile is a flow; a predicted one is one up to rounding.
    FlowSolver flow(function, provenance != Provenance::Measured);
    bool consistent =
        flow.setBlock(&function.getBody().front(), f.entry.getCount());
    // A block's first recorded call runs as often as the block; a later
    // one as often or less (an earlier call that did not return).
    llvm::SmallPtrSet<Block *, 16> seen;
    for (const ProgramShape::CallSite *site : f.sites) {
      Block *block = site->call->getBlock();
      if (!seen.insert(block).second)
        continue;
      consistent &= flow.setBlock(block, f.counts.lookup(site->index));
    }
    // Measured counts that are not one flow (a longjmp out of a call) fix
    // nothing here; the lowering's flow repair deals with what the profile
    // does give.
    if (!consistent || !flow.solve())
      return;
    for (Block &block : function.getBody()) {
      Operation *term = block.getTerminator();
      if (!PhaedrusDialect::takesBranchWeights(term))
        continue;
      std::optional<SmallVector<uint64_t>> weights = flow.outCounts(&block);
      if (!weights)
        continue;
      uint64_t total = 0;
      for (uint64_t w : *weights)
        total = llvm::SaturatingAdd(total, w);
      if (!total)
        continue; // never ran: LLVM keeps its static estimate
      term->setAttr(weightsName, BranchWeightsAttr::get(term->getContext(),
                                                        *weights, provenance,
                                                        confidence));
      ++annotated;
    }
  });
  return annotated;
}

/// The loops of `function` (strongly connected blocks with a cycle) whose
/// branches do not all have weights: LLVM would guess their trip counts
/// (about 32). A branch the counts say never ran needs none (a path
/// profile's error check inside a loop has no weights).
static llvm::DenseSet<Block *>
blocksOfUnweighedLoops(LLVM::LLVMFuncOp function,
                       const llvm::DenseMap<Block *, uint64_t> &known) {
  StringRef weightsName = PhaedrusDialect::getBranchWeightsAttrName();
  llvm::DenseSet<Block *> unweighed;
  for (auto scc = llvm::scc_begin(&function.getBody()); !scc.isAtEnd(); ++scc) {
    if (!scc.hasCycle())
      continue;
    bool weighed = llvm::all_of(*scc, [&](Block *member) {
      Operation *term = member->getTerminator();
      return !PhaedrusDialect::takesBranchWeights(term) ||
             term->hasAttr(weightsName) || !mayHaveRun(known, member);
    });
    if (!weighed)
      unweighed.insert(scc->begin(), scc->end());
  }
  return unweighed;
}

unsigned mlir::phaedrus::withholdMisleadingEntryCounts(
    ModuleOp module, const ProgramShape &shape, const CallSiteCounts &callSites,
    StringRef pass) {
  StringRef weightsName = PhaedrusDialect::getBranchWeightsAttrName();
  unsigned withheld = 0;
  forEachCountedFunction(module, shape, callSites, [&](const CountedFunction &f) {
    LLVM::LLVMFuncOp function = f.function;
    EntryCountAttr entry = f.entry;
    llvm::DenseMap<Block *, uint64_t> known = knownBlockCounts(function);
    llvm::DenseSet<Block *> unweighed = blocksOfUnweighedLoops(function, known);
    if (unweighed.empty())
      return;
    // Every call that ran too often for its entries must sit in a loop
    // whose weights say how often it turns (the busiest such call is
    // named).
    uint64_t most = 0;
    for (const ProgramShape::CallSite *site : f.sites) {
      uint64_t count = f.counts.lookup(site->index);
      if (count / kMaxCallsPerEntryWithoutWeights > entry.getCount() &&
          count > most && unweighed.contains(site->call->getBlock()))
        most = count;
    }
    // An interpreter's dispatch: a multiway branch in such a loop, without
    // weights, that may have run.
    Operation *dispatch = nullptr;
    if (!most)
      for (Block *block : unweighed) {
        Operation *term = block->getTerminator();
        if (term->getNumSuccessors() >= kMinDispatchSuccessors &&
            !term->hasAttr(weightsName) && mayHaveRun(known, block) &&
            (!dispatch || term->getNumSuccessors() > dispatch->getNumSuccessors()))
          dispatch = term;
      }
    if (!most && !dispatch)
      return;
    function->removeAttr(PhaedrusDialect::getEntryCountAttrName());
    ++withheld;
    // (At the function's location, without printing the function.)
    InFlightDiagnostic remark = mlir::emitRemark(function->getLoc());
    remark << pass << ": @" << function.getName()
           << " is left without an entry count: ";
    if (most)
      remark << "it is entered " << entry.getCount()
             << " times, but a call in it ran " << most
             << " times, and without branch weights around that call LLVM "
                "would estimate its blocks from the entry count (about 32 "
                "turns a loop) and take its loops for cold";
    else
      remark << "a branch of " << dispatch->getNumSuccessors()
             << " ways in a loop has no weights (an interpreter's dispatch), "
                "and LLVM would spread the entry count evenly over its ways "
                "and take the calls of every one for as hot as the loop "
                "(and inline them)";
    remark << "; a path-granularity trace gives its branch weights";
  });
  return withheld;
}
