//===- FlowRepair.cpp - Make a function's profile flow-consistent ---------===//
//
// A predicted profile need not be a flow: the entry count, the branch
// weights of one block and the weights flowing into the blocks after it may
// disagree. LLVM's optimiser assumes they agree (block frequencies come from
// branch probabilities, scaled by the entry count), so the profile is
// repaired first with LLVM's own profile inference ("profi", the min-cost
// flow of SampleProfileInference), which changes the given counts as little
// as possible and fills in the blocks the profile says nothing about. A
// consistent profile comes out unchanged, and a measured one is not
// repaired at all.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/Flow/FlowRepair.h"

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Transforms/Utils/SampleProfileInference.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::phaedrus;

/// The blocks reachable from the entry, in the region's order (the entry
/// first), and those of them that reach no exit: a loop left only through
/// a call that does not return (exit, longjmp, abort in a callee not
/// marked noreturn), or one never left. profi needs every block on an
/// entry-to-exit path, so the repair gives the latter a way out of their
/// own (before 2026-11-28 they were left out, and the flow into such a
/// loop was pushed through the branch around it: a run's whole loop
/// weighed 0).
static SmallVector<Block *>
flowBlocks(Region &body, llvm::SmallPtrSetImpl<Block *> &noExit) {
  SmallVector<Block *> forward;
  llvm::SmallPtrSet<Block *, 32> seen;
  SmallVector<Block *> stack{&body.front()};
  seen.insert(&body.front());
  while (!stack.empty()) {
    Block *b = stack.pop_back_val();
    forward.push_back(b);
    for (Block *s : b->getSuccessors())
      if (seen.insert(s).second)
        stack.push_back(s);
  }
  llvm::SmallPtrSet<Block *, 32> reachesExit;
  for (Block *b : forward)
    if (b->getNumSuccessors() == 0) {
      reachesExit.insert(b);
      stack.push_back(b);
    }
  while (!stack.empty()) {
    Block *b = stack.pop_back_val();
    for (Block *p : b->getPredecessors())
      if (seen.contains(p) && reachesExit.insert(p).second)
        stack.push_back(p);
  }
  SmallVector<Block *> blocks;
  for (Block &b : body) // keep the region's order: the entry first
    if (seen.contains(&b)) {
      blocks.push_back(&b);
      if (!reachesExit.contains(&b))
        noExit.insert(&b);
    }
  return blocks;
}

/// The costs of changing counts. LLVM's defaults (for sample profiles)
/// trust the entry block least; here the entry count is the most reliable
/// number (every call is counted, and a model predicts it from the call
/// tokens), so moving it costs at least 100 times more than moving any
/// other block or jump. Increasing a count is cheaper than decreasing one,
/// and making a block that did not run run is dearer than either, as in
/// LLVM.
static const llvm::ProfiParams &profiParams() {
  static const llvm::ProfiParams params = [] {
    llvm::ProfiParams p;
    p.EvenFlowDistribution = true;
    p.RebalanceUnknown = true;
    p.JoinIslands = true;
    p.CostBlockInc = 10;
    p.CostBlockDec = 20;
    p.CostBlockZeroInc = 11;
    p.CostBlockEntryInc = 2000;
    p.CostBlockEntryDec = 2000;
    p.CostBlockUnknownInc = 0;
    p.CostJumpInc = 10;
    p.CostJumpFTInc = 10;
    p.CostJumpDec = 20;
    p.CostJumpFTDec = 20;
    p.CostJumpUnknownInc = 0;
    p.CostJumpUnknownFTInc = 0;
    return p;
  }();
  return params;
}

/// Splits `total`, the flow of one jump, over the parallel successors
/// `successors` of its block in proportion to their given `weights` (evenly
/// when they are unknown or all zero), into `out` (one slot per successor).
/// The shares add up to `total` exactly; the remainder of the rounding goes
/// to the first successors.
static void splitFlow(uint64_t total, ArrayRef<unsigned> successors,
                      ArrayRef<uint64_t> weights, MutableArrayRef<uint64_t> out) {
  unsigned __int128 given = 0;
  if (!weights.empty())
    for (unsigned i : successors)
      given += weights[i];
  uint64_t assigned = 0;
  for (unsigned i : successors) {
    uint64_t share =
        given ? uint64_t(static_cast<unsigned __int128>(total) * weights[i] / given)
              : total / successors.size();
    out[i] = share;
    assigned += share;
  }
  for (unsigned k = 0; assigned < total; k = (k + 1) % successors.size()) {
    unsigned i = successors[k];
    if (given && !weights[i])
      continue; // a successor the profile says is never taken stays so
    ++out[i];
    ++assigned;
  }
}

bool mlir::phaedrus::repairFlow(LLVM::LLVMFuncOp function) {
  if (function.isExternal())
    return false;
  StringRef entryName = PhaedrusDialect::getEntryCountAttrName();
  StringRef weightsName = PhaedrusDialect::getBranchWeightsAttrName();
  Region &body = function.getBody();
  // Weights sit on terminators. Without any, an entry count alone is a
  // flow already, and nothing else would be written back.
  if (llvm::none_of(body, [&](Block &b) {
        return b.getTerminator()->hasAttr(weightsName);
      }))
    return false;
  auto entryCount = function->getAttrOfType<EntryCountAttr>(entryName);
  // A function entered 0 times ran nothing: weights inside it (a blend of
  // runs in which it ran a little, rounded to no entry) would be a loop
  // turning with no way in, which no flow can be. LLVM keeps its static
  // estimate; the entry count says it is cold.
  if (entryCount && entryCount.getCount() == 0) {
    for (Block &b : body)
      b.getTerminator()->removeAttr(weightsName);
    return true;
  }

  // Counts all measured: a run's own counts are a flow, unless the
  // recording lost paths (cut by a longjmp or an exit in a callee), and
  // then no repair knows where the lost flow went. They are lowered as
  // recorded (before 2026-11-28 profi's arbitrary split was written back
  // as measured: Lua's coroutine resume weighed inverted).
  auto measured = [](Provenance p) { return p == Provenance::Measured; };
  if ((!entryCount || measured(entryCount.getProvenance())) &&
      llvm::all_of(body, [&](Block &b) {
        auto weights =
            b.getTerminator()->getAttrOfType<BranchWeightsAttr>(weightsName);
        return !weights || measured(weights.getProvenance());
      }))
    return false;

  llvm::SmallPtrSet<Block *, 8> noExit;
  SmallVector<Block *> blocks = flowBlocks(body, noExit);

  llvm::DenseMap<Block *, uint64_t> index;
  for (Block *b : blocks)
    index[b] = index.size();
  llvm::FlowFunction flow;
  flow.Entry = 0;
  flow.Blocks.resize(blocks.size());
  // One jump per distinct (block, successor block) pair: a switch whose
  // cases share a destination has parallel edges, which profi does not
  // expect (it reads a jump's adjustment off the pair of blocks, so each of
  // two parallel jumps would get the other's adjustment too, and a zero
  // weight minus one wraps to 2^64 - 1). The successor numbers of each jump
  // and their given weights are kept to split its flow back.
  struct JumpOrigin {
    Block *block;
    ArrayRef<uint64_t> weights; // empty: the branch carries none
    SmallVector<unsigned, 2> successors;
  };
  SmallVector<JumpOrigin> jumpOf;
  for (Block *b : blocks) {
    flow.Blocks[index[b]].Index = index[b];
    // One weight per successor: the dialect's attribute verifier checks it.
    auto weights = b->getTerminator()->getAttrOfType<BranchWeightsAttr>(weightsName);
    llvm::SmallDenseMap<Block *, size_t, 4> jumpTo;
    for (unsigned i = 0; i < b->getNumSuccessors(); ++i) {
      Block *s = b->getSuccessor(i);
      auto [it, inserted] = jumpTo.try_emplace(s, flow.Jumps.size());
      if (inserted) {
        llvm::FlowJump jump;
        jump.Source = index[b];
        jump.Target = index[s];
        if (weights) {
          jump.Weight = 0;
          jump.HasUnknownWeight = false;
        }
        flow.Jumps.push_back(jump);
        jumpOf.push_back(
            {b, weights ? weights.getWeights() : ArrayRef<uint64_t>(), {}});
      }
      llvm::FlowJump &jump = flow.Jumps[it->second];
      if (weights)
        jump.Weight = llvm::SaturatingAdd(jump.Weight, weights.getWeights()[i]);
      jumpOf[it->second].successors.push_back(i);
    }
  }
  // profi weighs blocks, not jumps: a block's count is what its weighted
  // terminator sends out, else what weighted jumps send in when all its
  // incoming jumps are weighted; the entry block's is the entry count.
  SmallVector<uint64_t> in(blocks.size(), 0), out(blocks.size(), 0);
  SmallVector<bool> inKnown(blocks.size(), true), outKnown(blocks.size(), false);
  SmallVector<bool> hasPred(blocks.size(), false);
  for (const llvm::FlowJump &jump : flow.Jumps) {
    hasPred[jump.Target] = true;
    if (jump.HasUnknownWeight) {
      inKnown[jump.Target] = false;
      continue;
    }
    outKnown[jump.Source] = true;
    out[jump.Source] += jump.Weight;
    in[jump.Target] += jump.Weight;
  }
  for (unsigned i = 0; i < blocks.size(); ++i) {
    llvm::FlowBlock &fb = flow.Blocks[i];
    if (outKnown[i]) {
      fb.Weight = out[i];
      fb.HasUnknownWeight = false;
    } else if (hasPred[i] && inKnown[i]) {
      fb.Weight = in[i];
      fb.HasUnknownWeight = false;
    }
  }
  // Blocks the given counts determine through unconditional edges too (a
  // block whose one predecessor falls through to it): profi would
  // otherwise take them for free to move, and rebalance a consistent
  // profile around them.
  llvm::DenseMap<Block *, uint64_t> known = knownBlockCounts(function);
  for (Block *b : blocks) {
    llvm::FlowBlock &fb = flow.Blocks[index[b]];
    auto count = known.find(b);
    if (fb.HasUnknownWeight && count != known.end()) {
      fb.Weight = count->second;
      fb.HasUnknownWeight = false;
    }
  }
  if (entryCount) {
    flow.Blocks[0].Weight = entryCount.getCount();
    flow.Blocks[0].HasUnknownWeight = false;
  }
  // The blocks that reach no exit leave, each, to one block of profi's own
  // that stands for the calls that do not return; jumps of unknown weight,
  // which profi may use at no cost.
  if (!noExit.empty()) {
    llvm::FlowBlock sink;
    sink.Index = flow.Blocks.size();
    flow.Blocks.push_back(sink);
    for (Block *b : blocks)
      if (noExit.contains(b)) {
        llvm::FlowJump jump;
        jump.Source = index[b];
        jump.Target = sink.Index;
        flow.Jumps.push_back(jump);
      }
  }
  for (llvm::FlowJump &jump : flow.Jumps) {
    flow.Blocks[jump.Source].SuccJumps.push_back(&jump);
    flow.Blocks[jump.Target].PredJumps.push_back(&jump);
  }
  // profi's entry is the one block without predecessors; a loop back to
  // the entry block cannot be expressed (clang never makes one).
  if (!flow.Blocks[0].PredJumps.empty())
    return false;

  llvm::applyFlowInference(profiParams(), flow);
  // profi works in signed 64-bit arithmetic: a count above INT64_MAX is a
  // negative flow, which no profile can have. Keep the given counts rather
  // than hand LLVM a wrapped one.
  auto negative = [](uint64_t f) { return f > uint64_t(INT64_MAX); };
  if (llvm::any_of(flow.Blocks, [&](auto &b) { return negative(b.Flow); }) ||
      llvm::any_of(flow.Jumps, [&](auto &j) { return negative(j.Flow); })) {
    function.emitWarning()
        << "profile inference gave a negative count; the function's counts "
           "are lowered as given, not repaired";
    return false;
  }

  // Write the flow back: the entry count and the branch weights.
  bool changed = false;
  MLIRContext *context = function.getContext();
  Provenance provenance = Provenance::Measured;
  double confidence = 1.0;
  if (entryCount) {
    provenance = entryCount.getProvenance();
    confidence = entryCount.getConfidenceValue();
  }
  // A function the profile gives no entry count (one left without it on
  // purpose: withholdMisleadingEntryCounts) gets none: the flow's entry is
  // what its weights imply, not a count.
  if (entryCount && entryCount.getCount() != flow.Blocks[0].Flow) {
    function->setAttr(entryName, EntryCountAttr::get(context, flow.Blocks[0].Flow,
                                                      provenance, confidence));
    changed = true;
  }
  llvm::DenseMap<Block *, SmallVector<uint64_t>> flows;
  // (The jumps to profi's own exit come after these.)
  for (auto [i, origin] : llvm::enumerate(jumpOf)) {
    SmallVector<uint64_t> &f = flows[origin.block];
    f.resize(origin.block->getNumSuccessors(), 0);
    splitFlow(flow.Jumps[i].Flow, origin.successors, origin.weights, f);
  }
  for (Block *b : blocks) {
    Operation *term = b->getTerminator();
    auto old = term->getAttrOfType<BranchWeightsAttr>(weightsName);
    // Only branches the profile weighs get weights: where it says nothing
    // (a function-granularity profile, a block measured ambiguously), the
    // inferred split would be a guess, and LLVM's static estimate is a
    // better one.
    if (!old)
      continue;
    SmallVector<uint64_t> weights = flows.lookup(b);
    weights.resize(b->getNumSuccessors(), 0);
    uint64_t total = 0;
    for (uint64_t w : weights)
      total += w;
    if (!total) {
      // No flow through this block: LLVM keeps its static estimate.
      term->removeAttr(weightsName);
      changed = true;
      continue;
    }
    if (ArrayRef<uint64_t>(weights) == old.getWeights())
      continue;
    term->setAttr(weightsName,
                  BranchWeightsAttr::get(context, weights, old.getProvenance(),
                                         old.getConfidenceValue()));
    changed = true;
  }
  return changed;
}

llvm::DenseMap<Block *, uint64_t>
mlir::phaedrus::knownBlockCounts(LLVM::LLVMFuncOp function) {
  llvm::DenseMap<Block *, uint64_t> counts;
  if (function.isExternal())
    return counts;
  StringRef weightsName = PhaedrusDialect::getBranchWeightsAttrName();
  Region &body = function.getBody();
  if (auto entry = function->getAttrOfType<EntryCountAttr>(
          PhaedrusDialect::getEntryCountAttrName()))
    counts[&body.front()] = entry.getCount();
  // Known edge flows into each block, and how many of its incoming edges
  // (one per successor slot that names it) are not known yet.
  llvm::DenseMap<Block *, uint64_t> inflow;
  llvm::DenseMap<Block *, unsigned> open;
  for (Block &b : body)
    for (Block *s : b.getSuccessors())
      ++open[s];
  SmallVector<Block *> ready; // blocks whose count just became known
  llvm::SmallPtrSet<Block *, 32> sent; // blocks whose edges were counted
  auto addEdge = [&](Block *to, uint64_t flow) {
    inflow[to] = llvm::SaturatingAdd(inflow[to], flow);
    if (--open[to] == 0 && !counts.count(to) && to != &body.front()) {
      counts[to] = inflow[to];
      ready.push_back(to);
    }
  };
  auto send = [&](Block *b) {
    if (!sent.insert(b).second)
      return;
    Operation *term = b->getTerminator();
    if (auto weights = term->getAttrOfType<BranchWeightsAttr>(weightsName)) {
      for (auto [i, w] : llvm::enumerate(weights.getWeights()))
        addEdge(b->getSuccessor(i), w);
    } else if (auto count = counts.find(b); count != counts.end()) {
      // One way out carries all of the count; a block that never ran sends
      // nothing down any of its ways.
      if (b->getNumSuccessors() == 1 || count->second == 0)
        for (Block *s : b->getSuccessors())
          addEdge(s, count->second);
    }
  };
  for (Block &b : body)
    if (auto weights = b.getTerminator()->getAttrOfType<BranchWeightsAttr>(
            weightsName)) {
      uint64_t total = 0;
      for (uint64_t w : weights.getWeights())
        total = llvm::SaturatingAdd(total, w);
      counts.try_emplace(&b, total);
      ready.push_back(&b);
    }
  if (counts.count(&body.front()))
    ready.push_back(&body.front());
  while (!ready.empty())
    send(ready.pop_back_val());
  // A block that no edge able to carry flow reaches from the entry did not
  // run (a loop behind a branch never taken: the repair drops the zero
  // weights of its blocks, which would leave them and all after it open).
  if (counts.count(&body.front())) {
    llvm::SmallPtrSet<Block *, 32> reached{&body.front()};
    SmallVector<Block *> stack{&body.front()};
    while (!stack.empty()) {
      Block *b = stack.pop_back_val();
      auto count = counts.find(b);
      if (count != counts.end() && count->second == 0)
        continue;
      auto weights =
          b->getTerminator()->getAttrOfType<BranchWeightsAttr>(weightsName);
      for (unsigned i = 0; i < b->getNumSuccessors(); ++i)
        if (!(weights && weights.getWeights()[i] == 0) &&
            reached.insert(b->getSuccessor(i)).second)
          stack.push_back(b->getSuccessor(i));
    }
    for (Block &b : body)
      if (!reached.contains(&b) && counts.try_emplace(&b, 0).second)
        ready.push_back(&b);
    while (!ready.empty())
      send(ready.pop_back_val());
  }
  return counts;
}
