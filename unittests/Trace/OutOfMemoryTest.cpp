//===- OutOfMemoryTest.cpp - When a trace structure cannot grow -----------===//
//
// A table the coder cannot allocate reaches outOfMemory: by default a
// message and abort, with a handler (the tools') the handler's end.
//
//===----------------------------------------------------------------------===//

#include "phaedrus/Trace/ContextCoder.h"
#include "phaedrus/Trace/OutOfMemory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

using namespace mlir::phaedrus::trace;

namespace {

// More than any machine can give (and than malloc accepts).
constexpr size_t kTooMuch = SIZE_MAX / 2;

TEST(OutOfMemory, DefaultNamesWhatAndAborts) {
  setOutOfMemoryHandler(nullptr);
  EXPECT_DEATH(allocateTable(kTooMuch),
               "phaedrus: out of memory for a coder table");
}

TEST(OutOfMemory, HandlerEndsTheProcess) {
  EXPECT_EXIT(
      {
        setOutOfMemoryHandler([](const char *what) {
          std::fprintf(stderr, "handled: %s\n", what);
          std::_Exit(3);
        });
        allocateTable(kTooMuch);
      },
      ::testing::ExitedWithCode(3), "handled: a coder table");
  setOutOfMemoryHandler(nullptr);
}

} // namespace
