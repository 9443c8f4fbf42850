//===- LargeStack.h - Run MLIR on phaedrus IR with stack to spare -*- C++ -*-===//
//
// Phaedrus IR nests as deep as its data: a repeat in a repeat for every level
// of a trace's loops, a rule that applies a rule for every level of a
// grammar. MLIR's parser, printer, verifier and walks, and Phaedrus's trace
// walks, recurse once a level, and a main thread's 8 MiB of stack end near
// 4,000 nested repeats, where a packed trace may hold 4,096. A tool that
// parses, verifies or runs passes on phaedrus IR (the phaedrus tools, and a
// downstream compiler's own) runs its work on a thread with more stack:
//
//   int main(int argc, char **argv) {
//     return mlir::phaedrus::runWithLargeStack([&] {
//       return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, ...));
//     });
//   }
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_SUPPORT_LARGESTACK_H
#define PHAEDRUS_SUPPORT_LARGESTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/thread.h"

#include <optional>

namespace mlir::phaedrus {

/// The stack of runWithLargeStack's thread: reserved, not touched, so only
/// the pages a deep recursion uses are ever backed.
constexpr unsigned kLargeStackBytes = 512u << 20;

/// Runs `body` on a thread with kLargeStackBytes of stack and returns what it
/// returns (a tool's exit code).
inline int runWithLargeStack(llvm::function_ref<int()> body) {
  int code = 1;
  llvm::thread worker(std::optional<unsigned>(kLargeStackBytes),
                      [&] { code = body(); });
  worker.join();
  return code;
}

} // namespace mlir::phaedrus

#endif // PHAEDRUS_SUPPORT_LARGESTACK_H
