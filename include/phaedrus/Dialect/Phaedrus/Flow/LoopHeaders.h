//===- LoopHeaders.h - Blocks that take a loop header weight ----*- C++ -*-===//
#ifndef PHAEDRUS_DIALECT_PHAEDRUS_FLOW_LOOPHEADERS_H
#define PHAEDRUS_DIALECT_PHAEDRUS_FLOW_LOOPHEADERS_H

#include "mlir/IR/Region.h"
#include "mlir/Support/LLVM.h"

namespace mlir::phaedrus {

/// The headers of the irreducible loops of `body`: the blocks by which a
/// cycle that has more than one such block is entered. Loops nest as in the
/// loop nesting forest of Steensgaard (1993): each strongly connected
/// component of the CFG reachable from the entry is a loop, its headers are
/// its blocks with a predecessor outside it (or the entry block), and the
/// loops inside it are the components left once the edges into its headers
/// are taken away. A loop with one header is reducible (a natural loop), one
/// with several is irreducible: LLVM's block frequencies cannot tell how
/// often each header is entered, which the header weights (`!irr_loop`) of
/// a profile say. In region order.
SmallVector<Block *> irreducibleLoopHeaders(Region &body);

} // namespace mlir::phaedrus

#endif // PHAEDRUS_DIALECT_PHAEDRUS_FLOW_LOOPHEADERS_H
