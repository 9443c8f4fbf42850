//===- OutOfMemory.h - When a trace structure cannot grow -------*- C++ -*-===//
//
// The trace library (no LLVM dependency) holds whole traces in memory where
// it imports them as IR, and large coder tables where it packs them. When
// one cannot grow, it calls outOfMemory. By default that prints "phaedrus:
// out of memory for WHAT" and aborts; the tools install a handler that
// ends the process cleanly (tools/ToolSupport.h.in: LLVM's fatal error,
// which removes the output files and exits with 1, without a crash report).
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_TRACE_OUTOFMEMORY_H
#define PHAEDRUS_TRACE_OUTOFMEMORY_H

namespace mlir::phaedrus::trace {

/// Must not return.
using OutOfMemoryHandler = void (*)(const char *what);

/// Sets the handler (nullptr: the default). Not thread-safe: set it once,
/// before any trace work.
void setOutOfMemoryHandler(OutOfMemoryHandler handler);

/// Reports that `what` (a phrase: "folded items") could not grow.
[[noreturn]] void outOfMemory(const char *what);

} // namespace mlir::phaedrus::trace

#endif // PHAEDRUS_TRACE_OUTOFMEMORY_H
