//===- OutOfMemory.cpp - When a trace structure cannot grow ---------------===//

#include "phaedrus/Trace/OutOfMemory.h"

#include <cstdio>
#include <cstdlib>

using namespace mlir::phaedrus::trace;

static OutOfMemoryHandler handler = nullptr;

void mlir::phaedrus::trace::setOutOfMemoryHandler(OutOfMemoryHandler h) {
  handler = h;
}

void mlir::phaedrus::trace::outOfMemory(const char *what) {
  if (handler)
    handler(what);
  std::fprintf(stderr, "phaedrus: out of memory for %s\n", what);
  std::abort();
}
