//===- LoopHeaders.cpp - Headers of irreducible loops ---------------------===//
//
// LLVM's PGO gives the header blocks of irreducible loops a weight, their
// count (`!irr_loop !{!"loop_header_weight", i64 N}` on the terminator), as
// it applies a profile: block frequencies come from branch probabilities,
// and inside a loop that can be entered at several blocks the probabilities
// alone do not say how the flow divides among them. The lowering gives the
// same blocks the same weights; this finds them.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Dialect/Phaedrus/Flow/LoopHeaders.h"

#include "mlir/IR/Block.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;

namespace {
/// The CFG of a region by block index, reachable blocks only.
struct Graph {
  SmallVector<Block *> blocks;
  SmallVector<SmallVector<unsigned>> succs, preds;

  explicit Graph(Region &body) {
    llvm::DenseMap<Block *, unsigned> index;
    SmallVector<Block *> stack{&body.front()};
    index[&body.front()] = 0;
    blocks.push_back(&body.front());
    while (!stack.empty()) {
      Block *b = stack.pop_back_val();
      for (Block *s : b->getSuccessors())
        if (index.try_emplace(s, blocks.size()).second) {
          blocks.push_back(s);
          stack.push_back(s);
        }
    }
    succs.resize(blocks.size());
    preds.resize(blocks.size());
    for (auto [i, b] : llvm::enumerate(blocks))
      for (Block *s : b->getSuccessors()) {
        unsigned j = index.lookup(s);
        succs[i].push_back(j);
        preds[j].push_back(i);
      }
  }
};

/// Steensgaard's loop nesting forest of `g`: the loops of each level are
/// the strongly connected components of the level's blocks without the
/// edges into `cut` blocks (the headers of the loops around them); it
/// records the headers of the irreducible ones.
class Forest {
public:
  explicit Forest(const Graph &g)
      : g(g), cut(g.blocks.size()), irreducible(g.blocks.size()) {}

  void run() {
    SmallVector<unsigned> nodes;
    for (unsigned i = 0; i < g.blocks.size(); ++i)
      nodes.push_back(i);
    // Each level's components are analysed after the level: a worklist, so
    // that deep nesting does not deepen the stack.
    SmallVector<SmallVector<unsigned>> work{nodes};
    while (!work.empty()) {
      SmallVector<unsigned> set = work.pop_back_val();
      llvm::BitVector inSet(g.blocks.size());
      for (unsigned n : set)
        inSet.set(n);
      for (SmallVector<unsigned> &component : components(set, inSet))
        if (isLoop(component)) {
          markHeaders(component);
          work.push_back(std::move(component));
        }
    }
  }

  const llvm::BitVector &irreducibleHeaders() const { return irreducible; }

private:
  bool edge(unsigned to, const llvm::BitVector &inSet) const {
    return inSet.test(to) && !cut.test(to);
  }

  bool isLoop(ArrayRef<unsigned> component) const {
    if (component.size() > 1)
      return true;
    unsigned n = component.front();
    return !cut.test(n) && llvm::is_contained(g.succs[n], n);
  }

  /// The blocks of a loop entered from outside it (or the region's entry)
  /// are its headers: the edges into them are cut for the loops inside, and
  /// more than one makes the loop irreducible.
  void markHeaders(ArrayRef<unsigned> component) {
    llvm::BitVector inLoop(g.blocks.size());
    for (unsigned n : component)
      inLoop.set(n);
    SmallVector<unsigned> headers;
    for (unsigned n : component)
      if (n == 0 || llvm::any_of(g.preds[n],
                                 [&](unsigned p) { return !inLoop.test(p); }))
        headers.push_back(n);
    for (unsigned h : headers) {
      cut.set(h);
      if (headers.size() > 1)
        irreducible.set(h);
    }
  }

  /// Tarjan's strongly connected components of `set`, iteratively.
  SmallVector<SmallVector<unsigned>> components(ArrayRef<unsigned> set,
                                                const llvm::BitVector &inSet) {
    llvm::DenseMap<unsigned, unsigned> number, low;
    SmallVector<unsigned> stack;
    llvm::BitVector onStack(g.blocks.size());
    SmallVector<SmallVector<unsigned>> result;
    unsigned counter = 0;
    auto visited = [&](unsigned n) { return number.count(n) != 0; };
    for (unsigned root : set) {
      if (visited(root))
        continue;
      // (node, index of its next successor)
      SmallVector<std::pair<unsigned, unsigned>> dfs{{root, 0}};
      number[root] = low[root] = counter++;
      stack.push_back(root);
      onStack.set(root);
      while (!dfs.empty()) {
        auto &[n, next] = dfs.back();
        if (next < g.succs[n].size()) {
          unsigned s = g.succs[n][next++];
          if (!edge(s, inSet))
            continue;
          if (!visited(s)) {
            number[s] = low[s] = counter++;
            stack.push_back(s);
            onStack.set(s);
            dfs.push_back({s, 0});
          } else if (onStack.test(s)) {
            low[n] = std::min(low[n], number[s]);
          }
          continue;
        }
        unsigned done = n;
        dfs.pop_back();
        if (!dfs.empty())
          low[dfs.back().first] = std::min(low[dfs.back().first], low[done]);
        if (low[done] == number[done]) {
          SmallVector<unsigned> component;
          unsigned m;
          do {
            m = stack.pop_back_val();
            onStack.reset(m);
            component.push_back(m);
          } while (m != done);
          result.push_back(std::move(component));
        }
      }
    }
    return result;
  }

  const Graph &g;
  llvm::BitVector cut;
  llvm::BitVector irreducible;
};
} // namespace

SmallVector<Block *> mlir::phaedrus::irreducibleLoopHeaders(Region &body) {
  SmallVector<Block *> headers;
  if (body.empty())
    return headers;
  Graph g(body);
  Forest forest(g);
  forest.run();
  llvm::SmallPtrSet<Block *, 16> isHeader;
  for (unsigned i : forest.irreducibleHeaders().set_bits())
    isHeader.insert(g.blocks[i]);
  for (Block &b : body)
    if (isHeader.contains(&b))
      headers.push_back(&b);
  return headers;
}
