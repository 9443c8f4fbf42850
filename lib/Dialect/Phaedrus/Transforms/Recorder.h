//===- Recorder.h - Inline event recording ----------------------*- C++ -*-===//
//
// Emits the inline fast path of event recording that libphaedrus_rt expects
// (see include/phaedrus/Runtime/Runtime.h): compare the thread's cursor with
// its buffer's limit, store the words and advance the cursor, or call the
// runtime's out-of-line path. Private to the instrument pass.
//
//===----------------------------------------------------------------------===//
#ifndef PHAEDRUS_LIB_TRANSFORMS_RECORDER_H
#define PHAEDRUS_LIB_TRANSFORMS_RECORDER_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"

#include <array>

namespace mlir::phaedrus {

/// The first operation of a function's entry block after its leading
/// constants and allocas: where instrumentation that runs once per call goes,
/// so that the function's allocas stay in the entry block, the only place
/// LLVM's SROA and mem2reg promote them from (an alloca left behind a split
/// would keep its variable in memory and become a dynamic stack allocation).
Block::iterator afterEntryAllocas(Block &entry);

/// Whether `function` contains an operation of one of the kinds `Ops`.
template <typename... Ops> bool containsAny(LLVM::LLVMFuncOp function) {
  return function
      .walk([](Operation *op) {
        return isa<Ops...>(op) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

class Recorder {
public:
  /// The thread-local a call site sets before a direct call; its presence
  /// marks a module as instrumented.
  static constexpr StringLiteral kSiteName = "__phaedrus_site";

  /// Declares the runtime's thread-locals and slow paths at the end of
  /// `module`. A narrow recorder stores single words as 16 bits (the module
  /// registers with PHAEDRUS_NARROW_EVENTS); it records no path runs.
  explicit Recorder(ModuleOp module, bool narrow = false);

  /// Records one word (32-bit, or 16-bit when narrow: the i32 value
  /// truncated), or a path run's three, at the builder's insertion point.
  /// The block is split there; afterwards the builder is at the start of the
  /// continuation, before the operations that followed the
  /// insertion point. A path run stores all three words and advances the
  /// cursor by `advance` (an i32 that is 1 when the first word is a one-word
  /// run, PHAEDRUS_PATH_SHORT) if given, else by three; its slow path decides
  /// the same from the first word.
  void emit(OpBuilder &builder, Location loc, ArrayRef<Value> words,
            Value advance = {});

  LLVM::GlobalOp getSiteGlobal() { return site; }

  /// Keeps each function's cursor in a local instead of the thread-local
  /// (ThreadCursor.cpp), once every record is emitted. Functions in `direct`
  /// (entered only by direct calls from the module) take it as an extra
  /// last argument and return it with their result, so that the cursor
  /// passes from record to record in registers; the others load it from the
  /// thread-local at entry and store it back at their returns. Around every
  /// other call the local is stored to the thread-local and reloaded after
  /// it. Returns the number of functions that carry the cursor.
  unsigned threadCursor(ModuleOp module, const llvm::StringSet<> &direct);

  /// Marks a load or store of the instrumentation's own memory (`what`: the
  /// pending call site, the cursor, or the event buffers) with a
  /// TBAA type of its own under the module's C/C++ root, when the module
  /// has TBAA. LLVM then knows the program's typed loads and stores never
  /// touch that memory, and keeps the program's values in registers across
  /// a record instead of reloading them after every event store.
  enum Memory { Site, Cursor, Events, NumMemories };
  void tag(Operation *access, Memory what);

private:
  /// By Memory; null without TBAA.
  std::array<LLVM::TBAATagAttr, NumMemories> tags;
  LLVM::GlobalOp site, cursor;
  LLVM::LLVMFuncOp slow1, slow3;
  bool narrow;
};

} // namespace mlir::phaedrus

#endif // PHAEDRUS_LIB_TRANSFORMS_RECORDER_H
