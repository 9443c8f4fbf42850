//===- BallLarus.cpp - Ball-Larus path numbering --------------------------===//
//
// Ball and Larus, "Efficient Path Profiling" (MICRO 1996). The CFG becomes a
// DAG by turning every "break" edge u->v into two pseudo-edges ENTRY->v and
// u->EXIT. Break edges are back edges (found by DFS from the entry) and all
// edges into a target of llvm.indirectbr, since a computed goto jumps to its
// target directly and cannot run code on the edge; in a function with more
// than 2^32 - 1 paths, also edges into the blocks where paths multiply
// (numberPaths). Then, in reverse
// topological order, numPaths(v) = sum over v's out-edges of numPaths(w),
// and each out-edge gets the running sum of the edges before it as its
// value. The sum of the values along a path from ENTRY to EXIT is unique in
// [0, numPaths(ENTRY)).
//
// Code: r = 0 at entry; r += val(e) on real DAG edges with a non-zero value;
// on a break edge u->v: record(r + val(u->EXIT)), then r = val(ENTRY->v);
// before a return or resume in u: record(r + val(u->EXIT)). The unwind edge
// of an llvm.invoke, which can carry no code (its target must begin with
// its landing pad), takes the value 0 and is never a break edge. "Record" extends a run
// of identical consecutive paths kept in locals, or records the previous run
// and starts a new one; runs are also recorded before every call and at the
// return, so they keep their place among other events. Recording is the inline
// fast path of Recorder, which splits the block where it records; so all
// blocks and edges are collected before any code is inserted.
//
//===----------------------------------------------------------------------===//

#include "BallLarus.h"
#include "phaedrus/Trace/Format.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::phaedrus;

namespace {

struct Edge {
  Operation *terminator; // of the source block, before any splitting
  unsigned successor;    // index in the terminator's successors
  Block *from;
  Block *to;
};

} // namespace

Operation *mlir::phaedrus::unnumberedTerminator(LLVM::LLVMFuncOp function) {
  for (Block &block : function.getBody()) {
    Operation *term = block.getTerminator();
    if (!isa<LLVM::ReturnOp, LLVM::UnreachableOp, LLVM::ResumeOp, LLVM::BrOp,
             LLVM::CondBrOp, LLVM::SwitchOp, LLVM::IndirectBrOp,
             LLVM::InvokeOp>(term))
      return term;
  }
  return nullptr;
}

/// Whether a path can end at `block`: it returns, resumes unwinding or
/// cannot go on.
static bool isExitBlock(Block *block) {
  return isa<LLVM::ReturnOp, LLVM::UnreachableOp, LLVM::ResumeOp>(
      block->getTerminator());
}

/// Successor `index` of `block` is the unwind edge of an llvm.invoke: the
/// unwinder takes it to a landing pad, which must begin its block, so no
/// code can go on it. It comes first in its block's values (0: nothing to
/// add), and it is never a break edge.
static bool isUnwindEdge(Block *block, unsigned index) {
  // An invoke's successors: its normal destination, then its unwind one.
  return isa<LLVM::InvokeOp>(block->getTerminator()) && index == 1;
}

/// The order in which the out-edges of `block` take their values: the
/// successors in order, but an invoke's unwind edge first.
static SmallVector<unsigned, 4> valueOrder(Block *block) {
  SmallVector<unsigned, 4> order;
  for (unsigned i = 0; i < block->getNumSuccessors(); ++i)
    order.push_back(i);
  if (isa<LLVM::InvokeOp>(block->getTerminator()))
    std::swap(order[0], order[1]);
  return order;
}

std::optional<PathNumbering>
mlir::phaedrus::numberPaths(LLVM::LLVMFuncOp function, UnnumberedReason *why) {
  auto fail = [&](UnnumberedReason reason) -> std::optional<PathNumbering> {
    if (why)
      *why = reason;
    return std::nullopt;
  };
  if (function.getBody().empty())
    return fail(UnnumberedReason::Terminator);
  PathNumbering numbering;
  Region &body = function.getBody();
  Block *entry = numbering.entry = &body.front();
  auto &indirectTargets = numbering.indirectTargets;
  auto &breakEdges = numbering.breakEdges;
  auto &reachable = numbering.reachable;
  auto &breakTargets = numbering.breakTargets;
  auto &numPaths = numbering.numPaths;
  auto &edgeValue = numbering.edgeValue;
  auto &entryToTarget = numbering.entryToTarget;
  auto &toExit = numbering.toExit;

  // Only terminators whose successors we understand.
  if (unnumberedTerminator(function))
    return fail(UnnumberedReason::Terminator);

  for (Block &block : body)
    if (isa<LLVM::IndirectBrOp>(block.getTerminator()))
      for (Block *succ : block.getSuccessors())
        indirectTargets.insert(succ);

  // DFS from the entry: back edges and reachable blocks. Edges into
  // indirect targets are breaks anyway, so the search does not follow them:
  // it starts a new tree at each such target once the current tree is
  // done (in the order they were found). Following them would make the
  // block that holds a computed goto an ancestor of every target, and each
  // edge back into it a break: an interpreter would then record two paths
  // per instruction, its handler's and the dispatch block's own (always
  // the same one).
  {
    enum Colour { White, Grey, Black };
    llvm::DenseMap<Block *, Colour> colour;
    SmallVector<std::pair<Block *, unsigned>> stack;
    SmallVector<Block *> roots{entry};
    for (size_t root = 0; root < roots.size(); ++root) {
      if (colour.lookup(roots[root]) != White)
        continue;
      stack.push_back({roots[root], 0});
      colour[roots[root]] = Grey;
      reachable.insert(roots[root]);
      while (!stack.empty()) {
        auto &[block, next] = stack.back();
        if (next == block->getNumSuccessors()) {
          colour[block] = Black;
          stack.pop_back();
          continue;
        }
        unsigned index = next++;
        Block *succ = block->getSuccessor(index);
        Colour c = colour.lookup(succ);
        if (indirectTargets.contains(succ)) {
          breakEdges.insert({block, index});
          if (c == White)
            roots.push_back(succ);
        } else if (c == Grey) {
          breakEdges.insert({block, index});
        } else if (c == White) {
          colour[succ] = Grey;
          reachable.insert(succ);
          stack.push_back({succ, 0});
        }
      }
    }
  }

  // Reverse topological order of the DAG, from the last numbering.
  SmallVector<Block *> postOrder;
  auto number = [&] {
    breakTargets.clear();
    numPaths.clear();
    edgeValue.clear();
    entryToTarget.clear();
    toExit.clear();
    // Break targets get a pseudo-edge ENTRY->v; break sources a pseudo-edge u->EXIT.
    llvm::SetVector<Block *> breakSources;
    for (Block &block : body) {
      if (!reachable.contains(&block))
        continue;
      for (unsigned i = 0; i < block.getNumSuccessors(); ++i)
        if (breakEdges.contains({&block, i})) {
          breakTargets.insert(block.getSuccessor(i));
          breakSources.insert(&block);
        }
    }

    // Reverse topological order of the DAG (real non-break edges plus the
    // pseudo ENTRY->target edges) by DFS post-order from the entry.
    postOrder.clear();
    {
      llvm::DenseSet<Block *> visited;
      SmallVector<std::pair<Block *, unsigned>> stack;
      auto dagSuccessors = [&](Block *block) {
        SmallVector<Block *> succs;
        for (unsigned i = 0; i < block->getNumSuccessors(); ++i)
          if (!breakEdges.contains({block, i}))
            succs.push_back(block->getSuccessor(i));
        if (block == entry)
          succs.append(breakTargets.begin(), breakTargets.end());
        return succs;
      };
      llvm::DenseMap<Block *, SmallVector<Block *>> succCache;
      stack.push_back({entry, 0});
      visited.insert(entry);
      succCache[entry] = dagSuccessors(entry);
      while (!stack.empty()) {
        auto &[block, next] = stack.back();
        SmallVector<Block *> &succs = succCache[block];
        if (next == succs.size()) {
          postOrder.push_back(block);
          stack.pop_back();
          continue;
        }
        Block *succ = succs[next++];
        if (visited.insert(succ).second) {
          succCache[succ] = dagSuccessors(succ);
          stack.push_back({succ, 0});
        }
      }
    }

    // numPaths and edge values. Out-edges of a block, in order: its real
    // non-break successors, then (entry only) the pseudo-edges to break
    // targets, then its edge to EXIT (a return, or the pseudo-edge of a break
    // source).
    for (Block *block : postOrder) {
      uint64_t sum = 0;
      for (unsigned i : valueOrder(block)) {
        if (breakEdges.contains({block, i}))
          continue;
        edgeValue[{block, i}] = sum;
        sum = llvm::SaturatingAdd(sum, numPaths.lookup(block->getSuccessor(i)));
      }
      if (block == entry)
        for (Block *target : breakTargets) {
          entryToTarget[target] = sum;
          sum = llvm::SaturatingAdd(sum, numPaths.lookup(target));
        }
      if (isExitBlock(block) || breakSources.contains(block)) {
        toExit[block] = sum;
        sum = llvm::SaturatingAdd(sum, uint64_t(1));
      }
      numPaths[block] = sum;
    }
    return numPaths.lookup(entry);
  };

  // Loops are the break edges so far that are not edges into indirect
  // targets (back edges); cuts come later.
  numbering.hasLoops = llvm::any_of(breakEdges, [&](auto edge) {
    return !indirectTargets.contains(edge.first->getSuccessor(edge.second));
  });

  // A function with too many paths for 32-bit path ids (a large function
  // of straight-line branches: 2^k paths through k diamonds) is cut into
  // segments: edges into a block whose paths would exceed a threshold
  // become breaks too, like back edges, so that paths end before it and
  // start again at it. Edge counts stay exact (each edge is on one
  // segment); what is lost is only the correlation of branches across a
  // cut. Thresholds fall from 2^24 until the paths fit; a function that
  // fits keeps its plain numbering, and the cuts depend on the function
  // alone, so the profile passes find the same ones.
  numbering.total = number();
  if (numbering.total > UINT32_MAX) {
    // The real edges into each block, from reachable blocks.
    llvm::DenseMap<Block *, SmallVector<std::pair<Block *, unsigned>>> into;
    for (Block &block : body)
      if (reachable.contains(&block))
        for (unsigned i = 0; i < block.getNumSuccessors(); ++i)
          into[block.getSuccessor(i)].push_back({&block, i});
    // In reverse topological order (still one after more breaks: they only
    // remove DAG edges and add ENTRY->v ones), each block's paths with the
    // cuts made so far; a block above the threshold is cut at: its incoming
    // edges from blocks with one successor become breaks (first), or all of
    // them (if that is not enough). A block with one successor then has one
    // break edge out, which a path that ends there determines; one with
    // several break edges out leaves its branch to the counts of the paths
    // that start at their targets (BranchWeights.cpp).
    auto cut = [&](uint64_t threshold, bool anySource) {
      llvm::DenseMap<Block *, uint64_t> paths;
      for (Block *block : postOrder) {
        if (block == entry)
          continue;
        uint64_t sum = 0;
        bool breaks = false;
        for (unsigned i = 0; i < block->getNumSuccessors(); ++i) {
          if (breakEdges.contains({block, i}))
            breaks = true;
          else
            sum = llvm::SaturatingAdd(sum, paths.lookup(block->getSuccessor(i)));
        }
        if (breaks || isExitBlock(block))
          sum = llvm::SaturatingAdd(sum, uint64_t(1));
        paths[block] = sum;
        if (sum > threshold)
          for (std::pair<Block *, unsigned> edge : into.lookup(block))
            if ((anySource || edge.first->getNumSuccessors() == 1) &&
                !isUnwindEdge(edge.first, edge.second))
              breakEdges.insert(edge);
      }
    };
    for (bool anySource : {false, true})
      for (uint64_t threshold = uint64_t(1) << 24;
           numbering.total > UINT32_MAX && threshold > 0; threshold >>= 4) {
        cut(threshold, anySource);
        numbering.total = number();
      }
  }
  if (numbering.total == 0 || numbering.total > UINT32_MAX)
    return fail(UnnumberedReason::TooManyPaths);
  // An unwind edge that closes a loop (a landing pad that the code after it
  // reaches again) would need code on it.
  for (auto [block, index] : breakEdges)
    if (isUnwindEdge(block, index))
      return fail(UnnumberedReason::UnwindLoop);
  return numbering;
}

bool mlir::phaedrus::recordsEntryWithPath(const PathNumbering &numbering) {
  return numbering.breakEdges.empty() && numbering.total > 1 &&
         numbering.total <= PHAEDRUS_PATH_SHORT_PATHS;
}

std::optional<uint64_t>
mlir::phaedrus::instrumentPaths(LLVM::LLVMFuncOp function,
                                uint32_t functionToken,
                                Recorder &recorder, Value entryToken) {
  std::optional<PathNumbering> numbering = numberPaths(function);
  if (!numbering)
    return std::nullopt;
  assert((!entryToken || recordsEntryWithPath(*numbering)) &&
         "only a function without loops records its entry with its path");
  Region &body = function.getBody();
  Block *entry = numbering->entry;
  const auto &indirectTargets = numbering->indirectTargets;
  const auto &breakEdges = numbering->breakEdges;
  const auto &reachable = numbering->reachable;
  const auto &edgeValue = numbering->edgeValue;
  const auto &entryToTarget = numbering->entryToTarget;
  const auto &toExit = numbering->toExit;
  uint64_t total = numbering->total;
  // A function with a single path (no branch, no loop) says nothing a path
  // event would add to its entry event: record nothing.
  if (total == 1)
    return total;
  // The three-word form needs bit 30 of the mark word clear (a trace format
  // limit no real program reaches).
  if (functionToken >= (PHAEDRUS_PATH_KIND_MASK & ~PHAEDRUS_PATH_MARK))
    return std::nullopt;

  // The path register lives in an alloca at the entry; -O2 promotes it.
  OpBuilder builder(function.getContext());
  Location loc = function.getLoc();
  Type i32 = builder.getI32Type();
  auto ptrType = LLVM::LLVMPointerType::get(function.getContext());
  builder.setInsertionPointToStart(entry);
  Value one = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                       builder.getI64IntegerAttr(1));
  // A function with computed gotos (an interpreter's dispatch) records
  // each completed path as it ends, without runs: the path changes at
  // nearly every jump there, so the run's bookkeeping (compare with the open
  // run, then record it and open another) cost more than the occasional
  // repeat it saves. Consecutive equal runs of length 1 mean the same as
  // one longer run to every reader. A function without loops completes one
  // path per call (one per segment, if cut), recorded before its calls and
  // returns, so it has no runs to keep either.
  bool direct = !indirectTargets.empty() || !numbering->hasLoops;
  // Locals: the path register, and (unless direct) the open run of
  // completed paths (its path and length; length 0 means none).
  Value reg = LLVM::AllocaOp::create(builder, loc, ptrType, i32, one, 4);
  Value runPath, runLength;
  if (!direct) {
    runPath = LLVM::AllocaOp::create(builder, loc, ptrType, i32, one, 4);
    runLength = LLVM::AllocaOp::create(builder, loc, ptrType, i32, one, 4);
  }
  auto constant = [&](uint64_t value) -> Value {
    return LLVM::ConstantOp::create(
        builder, loc, i32,
        builder.getI32IntegerAttr(static_cast<int32_t>(static_cast<uint32_t>(value))));
  };
  // The stores go after the function's own allocas, which must stay in the
  // entry block (the entry event is recorded after them too).
  builder.setInsertionPoint(entry, afterEntryAllocas(*entry));
  LLVM::StoreOp::create(builder, loc, constant(0), reg);
  if (!direct)
    LLVM::StoreOp::create(builder, loc, constant(0), runLength);
  Value markValue = constant(PHAEDRUS_PATH_MARK | functionToken);

  // Splits the block at the insertion point into cond ? then : else; both
  // continue at the split point, where the builder is left.
  auto emitIfElse = [&](Value cond, function_ref<void()> thenBody,
                        function_ref<void()> elseBody) {
    Block *before = builder.getInsertionBlock();
    Block *cont = before->splitBlock(builder.getInsertionPoint());
    Block *thenBlock = builder.createBlock(cont);
    Block *elseBlock = builder.createBlock(cont);
    builder.setInsertionPointToEnd(before);
    LLVM::CondBrOp::create(builder, loc, cond, thenBlock, elseBlock);
    builder.setInsertionPointToEnd(thenBlock);
    thenBody();
    LLVM::BrOp::create(builder, loc, ValueRange{}, cont);
    builder.setInsertionPointToEnd(elseBlock);
    elseBody();
    LLVM::BrOp::create(builder, loc, ValueRange{}, cont);
    builder.setInsertionPointToStart(cont);
  };
  // Runs of length 1 (most, in loops whose path changes every iteration)
  // take one word when the token and path id fit (PHAEDRUS_PATH_SHORT):
  // all three words are stored either way and the cursor advances by 1 or 3,
  // without a branch.
  bool shortForm = functionToken < PHAEDRUS_PATH_SHORT_TOKENS;
  bool pathsFitShort = total <= PHAEDRUS_PATH_SHORT_PATHS;
  // Records a run of `length` completions of `path` (without runs, one
  // completion: then a single word when every path id fits it; with the
  // entry token, the entry-path word).
  auto emitRun = [&](Value path, Value length) {
    if (entryToken) {
      Value shifted = LLVM::ShlOp::create(builder, loc, entryToken, constant(16));
      Value base = LLVM::OrOp::create(builder, loc, shifted,
                                      constant(PHAEDRUS_PATH_ENTRY));
      recorder.emit(builder, loc, {LLVM::OrOp::create(builder, loc, path, base)});
      return;
    }
    if (!shortForm) {
      recorder.emit(builder, loc, {markValue, path, length});
      return;
    }
    Value shortBase = constant(PHAEDRUS_PATH_SHORT | functionToken << 16);
    if (direct && pathsFitShort) {
      recorder.emit(builder, loc, {LLVM::OrOp::create(builder, loc, path, shortBase)});
      return;
    }
    Value isShort = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                         length, constant(1));
    if (!pathsFitShort)
      isShort = LLVM::AndOp::create(
          builder, loc, isShort,
          LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ult, path,
                               constant(PHAEDRUS_PATH_SHORT_PATHS)));
    Value shortWord = LLVM::OrOp::create(builder, loc, path, shortBase);
    Value first =
        LLVM::SelectOp::create(builder, loc, isShort, shortWord, markValue);
    Value advance = LLVM::SelectOp::create(builder, loc, isShort, constant(1),
                                           constant(PHAEDRUS_PATH_RUN_WORDS));
    recorder.emit(builder, loc, {first, path, length}, advance);
  };
  // Records the open run, if any, and closes it.
  auto emitFlush = [&]() {
    if (direct)
      return;
    Value length = LLVM::LoadOp::create(builder, loc, i32, runLength);
    Value open = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ne,
                                      length, constant(0));
    emitIfElse(
        open,
        [&] {
          Value path = LLVM::LoadOp::create(builder, loc, i32, runPath);
          emitRun(path, length);
          LLVM::StoreOp::create(builder, loc, constant(0), runLength);
        },
        [] {});
  };
  // A path ends with number r + add: extend the open run if it is the same
  // path (and the length cannot overflow), else record the run and open a
  // new one.
  auto emitRecord = [&](uint64_t add) {
    Value r = LLVM::LoadOp::create(builder, loc, i32, reg);
    if (add)
      r = LLVM::AddOp::create(builder, loc, r, constant(add));
    if (direct)
      return emitRun(r, constant(1));
    Value length = LLVM::LoadOp::create(builder, loc, i32, runLength);
    Value path = LLVM::LoadOp::create(builder, loc, i32, runPath);
    Value samePath = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::eq,
                                          r, path);
    Value open = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ne,
                                      length, constant(0));
    Value room = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ne,
                                      length, constant(UINT32_MAX));
    Value extend = LLVM::AndOp::create(
        builder, loc, LLVM::AndOp::create(builder, loc, samePath, open), room);
    emitIfElse(
        extend,
        [&] {
          Value next = LLVM::AddOp::create(builder, loc, length, constant(1));
          LLVM::StoreOp::create(builder, loc, next, runLength);
        },
        [&] {
          emitFlush();
          LLVM::StoreOp::create(builder, loc, r, runPath);
          LLVM::StoreOp::create(builder, loc, constant(1), runLength);
        });
  };
  auto emitAdd = [&](uint64_t add) {
    Value r = LLVM::LoadOp::create(builder, loc, i32, reg);
    r = LLVM::AddOp::create(builder, loc, r, constant(add));
    LLVM::StoreOp::create(builder, loc, r, reg);
  };

  // Collect the edges and calls first: splitting adds blocks and calls.
  SmallVector<Edge> edges;
  SmallVector<Block *> exits, noReturnExits;
  SmallVector<Operation *> calls;
  function.walk([&](Operation *op) {
    if (isa<LLVM::CallOp, LLVM::InvokeOp>(op))
      calls.push_back(op);
  });
  for (Block &block : body) {
    if (!reachable.contains(&block))
      continue;
    for (unsigned i = 0; i < block.getNumSuccessors(); ++i)
      edges.push_back({block.getTerminator(), i, &block, block.getSuccessor(i)});
    if (isa<LLVM::ReturnOp, LLVM::ResumeOp>(block.getTerminator()))
      exits.push_back(&block);
    else if (isa<LLVM::UnreachableOp>(block.getTerminator()))
      noReturnExits.push_back(&block);
  }

  // A source of indirect branches records its path before it jumps. When
  // it makes no call (so no event can come between its incoming edges and
  // its jump), is entered only by edges that can be split and are not
  // breaks, the record goes on each incoming edge instead, with that edge's
  // value added: the same path ids, in the same order. This matters for
  // clang's computed goto, which it emits as one block holding the
  // indirectbr that every `goto *` branches to; LLVM copies that block into
  // each predecessor only while it is small (tail duplication), so a record
  // inside it would leave a single indirect jump for every dispatch of an
  // interpreter (Lua's luaV_execute: 3 indirect jumps instead of 32, and
  // each one predicted for all opcodes).
  llvm::DenseSet<Block *> recordedOnEntry;
  for (Block &block : body)
    if (reachable.contains(&block) && &block != entry &&
        isa<LLVM::IndirectBrOp>(block.getTerminator()) &&
        !indirectTargets.contains(&block) &&
        !block.walk([](LLVM::CallOp) { return WalkResult::interrupt(); })
             .wasInterrupted())
      recordedOnEntry.insert(&block);
  for (const Edge &edge : edges)
    if (isa<LLVM::IndirectBrOp>(edge.terminator) ||
        breakEdges.contains({edge.from, edge.successor}) ||
        isUnwindEdge(edge.from, edge.successor))
      recordedOnEntry.erase(edge.to);

  // Targets of indirect branches: every incoming edge is a break, so the
  // reset happens once at the top of the target.
  for (Block *target : indirectTargets) {
    if (!reachable.contains(target))
      continue;
    builder.setInsertionPointToStart(target);
    LLVM::StoreOp::create(builder, loc, constant(entryToTarget.lookup(target)), reg);
  }
  for (const Edge &edge : edges) {
    Operation *term = edge.terminator;
    if (isa<LLVM::IndirectBrOp>(term))
      continue; // recorded before the branch, below
    bool isBreak = breakEdges.contains({edge.from, edge.successor});
    uint64_t add = isBreak ? 0 : edgeValue.lookup({edge.from, edge.successor});
    bool endsPath = recordedOnEntry.contains(edge.to);
    if (!isBreak && add == 0 && !endsPath)
      continue;
    assert(!isUnwindEdge(edge.from, edge.successor) &&
           "an unwind edge is numbered so that it needs no code");
    // Split the edge with a block that forwards the successor's arguments.
    SmallVector<Location> argLocs(edge.to->getNumArguments(), loc);
    Block *split = builder.createBlock(edge.to, edge.to->getArgumentTypes(), argLocs);
    if (isBreak) {
      emitRecord(toExit.lookup(edge.from));
      if (!indirectTargets.contains(edge.to))
        LLVM::StoreOp::create(builder, loc, constant(entryToTarget.lookup(edge.to)),
                              reg);
    } else if (endsPath) {
      emitRecord(add + toExit.lookup(edge.to));
    } else {
      emitAdd(add);
    }
    LLVM::BrOp::create(builder, loc, split->getArguments(), edge.to);
    term->setSuccessor(split, edge.successor);
  }

  // Sources that end in an indirect branch record before jumping.
  SmallVector<Block *> indirectSources;
  for (Block &block : body)
    if (reachable.contains(&block) && isa<LLVM::IndirectBrOp>(block.getTerminator()) &&
        !recordedOnEntry.contains(&block))
      indirectSources.push_back(&block);
  for (Block *block : indirectSources) {
    builder.setInsertionPoint(block->getTerminator());
    emitRecord(toExit.lookup(block));
  }

  for (Block *block : exits) {
    builder.setInsertionPoint(block->getTerminator());
    emitRecord(toExit.lookup(block));
    emitFlush();
  }
  // A block that ends in `unreachable` is reached only to call what does
  // not return (exit, abort, longjmp, a noreturn function of the
  // program's): its path is complete on entry, and is recorded before the
  // first call, which never comes back to record it. Until 2026-11-28 such
  // paths were never counted: a taken error branch weighed 0, which LLVM
  // reads as never taken (found by a review).
  for (Block *block : noReturnExits) {
    Operation *first = block->getTerminator();
    for (Operation &op : *block)
      if (isa<LLVM::CallOp, LLVM::InvokeOp>(op)) {
        first = &op;
        break;
      }
    builder.setInsertionPoint(first);
    emitRecord(toExit.lookup(block));
    emitFlush();
  }
  // A call may record events (the callee's, or callbacks'): the open run is
  // recorded first so that events stay in order.
  for (Operation *call : calls) {
    builder.setInsertionPoint(call);
    emitFlush();
  }
  return total;
}

bool mlir::phaedrus::decodePath(const PathNumbering &numbering, uint64_t pathId,
                                SmallVectorImpl<PathStep> &steps) {
  steps.clear();
  if (pathId >= numbering.total)
    return false;
  // Out-edges are visited in the order their values were assigned, so the
  // one taken is the edge e with value(e) <= r < value(e) + paths(e).
  uint64_t r = pathId;
  Block *block = numbering.entry;
  for (size_t guard = 0; guard <= numbering.numPaths.size() + 1; ++guard) {
    bool moved = false;
    for (unsigned i = 0, e = block->getNumSuccessors(); i < e && !moved; ++i) {
      if (numbering.breakEdges.contains({block, i}))
        continue;
      uint64_t value = numbering.edgeValue.lookup({block, i});
      uint64_t paths = numbering.numPaths.lookup(block->getSuccessor(i));
      if (r >= value && r - value < paths) {
        steps.push_back({block, i});
        r -= value;
        block = block->getSuccessor(i);
        moved = true;
      }
    }
    if (moved)
      continue;
    if (block == numbering.entry)
      for (Block *target : numbering.breakTargets) {
        uint64_t value = numbering.entryToTarget.lookup(target);
        uint64_t paths = numbering.numPaths.lookup(target);
        if (r >= value && r - value < paths) {
          // The path starts at a break target, not at the entry.
          steps.push_back({target, PathStep::kStart});
          r -= value;
          block = target;
          moved = true;
          break;
        }
      }
    if (moved)
      continue;
    auto exit = numbering.toExit.find(block);
    if (exit != numbering.toExit.end() && r == exit->second) {
      steps.push_back({block, PathStep::kEnd});
      return true;
    }
    return false;
  }
  return false;
}
