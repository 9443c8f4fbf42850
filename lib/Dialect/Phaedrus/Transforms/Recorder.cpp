//===- Recorder.cpp - Inline event recording ------------------------------===//

#include "Recorder.h"
#include "phaedrus/Trace/Format.h"

using namespace mlir;
using namespace mlir::phaedrus;

Block::iterator mlir::phaedrus::afterEntryAllocas(Block &entry) {
  auto point = entry.begin();
  while (point != entry.end() &&
         isa<LLVM::ConstantOp, LLVM::AllocaOp, LLVM::ZeroOp, LLVM::UndefOp,
             LLVM::PoisonOp, LLVM::AddressOfOp>(&*point))
    ++point;
  return point;
}

Recorder::Recorder(ModuleOp module, bool narrow) : narrow(narrow) {
  MLIRContext *context = module.getContext();
  // TBAA types of the instrumentation's memory, children of clang's
  // "omnipotent char" (so character accesses still alias them), when the
  // program carries clang's TBAA: under the same root LLVM tells them apart
  // from every other scalar type. Without it there is nothing to tell apart.
  auto root = LLVM::TBAARootAttr::get(context, StringAttr::get(context, "Simple C/C++ TBAA"));
  bool hasTbaa = module
                     .walk([&](LLVM::AliasAnalysisOpInterface access) {
                       ArrayAttr tags = access.getTBAATagsOrNull();
                       return tags && !tags.empty() ? WalkResult::interrupt()
                                                    : WalkResult::advance();
                     })
                     .wasInterrupted();
  if (hasTbaa) {
    auto omnipotentChar = LLVM::TBAATypeDescriptorAttr::get(
        context, "omnipotent char", {LLVM::TBAAMemberAttr::get(root, 0)});
    auto typeTag = [&](StringRef name) {
      auto type = LLVM::TBAATypeDescriptorAttr::get(
          context, name, {LLVM::TBAAMemberAttr::get(omnipotentChar, 0)});
      return LLVM::TBAATagAttr::get(type, type, 0);
    };
    tags[Site] = typeTag("phaedrus pending site");
    tags[Cursor] = typeTag("phaedrus cursor");
    tags[Events] = typeTag("phaedrus event");
  }
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  Location loc = module.getLoc();
  Type i32 = builder.getI32Type();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto voidType = LLVM::LLVMVoidType::get(context);
  // dso_local: the runtime is linked into the executable, so LLVM picks the
  // local-exec TLS model (%fs:offset on x86-64) instead of initial-exec,
  // which loads each offset into a register first. Lua's gc.lua at function
  // granularity: 4.073G -> 3.943G instructions (callgrind), 1.65 fewer per
  // event.
  auto threadLocal = [&](StringRef name, Type type, uint64_t align) {
    return LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/false,
                                  LLVM::Linkage::External, name, Attribute(),
                                  align, /*addrSpace=*/0, /*dsoLocal=*/true,
                                  /*thread_local_=*/true);
  };
  site = threadLocal(kSiteName, i32, 4);
  cursor = threadLocal("__phaedrus_cursor", ptr, 8);
  slow1 = LLVM::LLVMFuncOp::create(builder, loc, "__phaedrus_record_slow",
                                   LLVM::LLVMFunctionType::get(voidType, {i32}));
  slow3 = LLVM::LLVMFuncOp::create(
      builder, loc, "__phaedrus_record_path_slow",
      LLVM::LLVMFunctionType::get(voidType, {i32, i32, i32}));
  // The slow paths save every register they use, so that a small function's
  // fast path needs no stack frame of its own for them.
  auto preserveMost = LLVM::CConvAttr::get(context, LLVM::cconv::CConv::PreserveMost);
  slow1.setCConvAttr(preserveMost);
  slow3.setCConvAttr(preserveMost);
  // Recording should change LLVM's inlining decisions as little as it can
  // without letting inlining run away. The inliner's cost model reads these
  // attributes of a called function at each call it meets in a callee
  // (InlineCost.cpp, onCallBaseVisitStart): the slow call costs nothing and
  // raises the callee's threshold by the bonus. The model charges a record
  // 30 plus 5 per word past the first (`opt -passes='print<inline-cost>'
  // -print-instruction-comments`: mask, compare, branch, the event stores,
  // and the cursor's store and load, on the slow path or through the
  // thread-local), and the bonus gives back all of it but one instruction
  // (5). Without a bonus a function that calls a few others was no longer
  // inlined once instrumented (Lua's lua_geti into tinsert). With more than
  // the record's cost, a record made a callee cheaper: inlining brought in
  // records, which made the function cheaper to inline again, and
  // yaml-cpp's instrumented module did not compile in an hour (bonus 40
  // against a charge of 30: `opt -O2` ran past an hour, at 30 in 21 s, at
  // 25 in 13 s; the plain module 2.4 s). At exactly the cost, code that
  // folds away in the plain program but whose records stay (a tree of
  // calls of calls of a leaf, 14 deep, compiled from C) was inlined whole,
  // 98,287 slow paths; the instruction left to pay bounds that growth
  // (test/Dialect/Phaedrus/phaedrus-instrument-inline-bounded.mlir).
  auto inlineBonus = [&](int words) {
    int charged = 30 + 5 * (words - 1);
    return builder.getArrayAttr(
        {builder.getStrArrayAttr({"call-inline-cost", "0"}),
         builder.getStrArrayAttr(
             {"call-threshold-bonus", std::to_string(charged - 5)})});
  };
  slow1.setPassthroughAttr(inlineBonus(1));
  slow3.setPassthroughAttr(inlineBonus(3));
}

void Recorder::tag(Operation *access, Memory what) {
  if (LLVM::TBAATagAttr tag = tags[what])
    cast<LLVM::AliasAnalysisOpInterface>(access).setTBAATags(
        ArrayAttr::get(access->getContext(), {tag}));
}

void Recorder::emit(OpBuilder &builder, Location loc, ArrayRef<Value> words,
                    Value advance) {
  assert((words.size() == 1 || words.size() == 3) && "one or three words");
  assert((!advance || words.size() == 3) && "a variable advance is a path run's");
  assert((!narrow || words.size() == 1) && "a narrow recorder records single words");
  MLIRContext *context = builder.getContext();
  Type i32 = builder.getI32Type();
  auto ptr = LLVM::LLVMPointerType::get(context);

  Block *before = builder.getInsertionBlock();
  Block *cont = before->splitBlock(builder.getInsertionPoint());
  Region *region = before->getParent();
  Block *fast = new Block();
  Block *slow = new Block();
  region->getBlocks().insertAfter(Region::iterator(before), fast);
  region->getBlocks().insertAfter(Region::iterator(fast), slow);

  builder.setInsertionPointToEnd(before);
  Value cursorAddress = LLVM::AddressOfOp::create(builder, loc, cursor);
  auto current = LLVM::LoadOp::create(builder, loc, ptr, cursorAddress, 8);
  tag(current, Memory::Cursor);
  // Room is the cursor's offset in its buffer below the limit offset
  // (Format.h): no second load, and whatever buffer the cursor points into,
  // the stores stay inside it.
  Type i64 = builder.getI64Type();
  Value address = LLVM::PtrToIntOp::create(builder, loc, i64, current);
  Value mask = LLVM::ConstantOp::create(
      builder, loc, i64, builder.getI64IntegerAttr(PHAEDRUS_BUFFER_BYTES - 1));
  Value offset = LLVM::AndOp::create(builder, loc, address, mask);
  Value limit = LLVM::ConstantOp::create(
      builder, loc, i64,
      builder.getI64IntegerAttr(narrow ? PHAEDRUS_NARROW_LIMIT_BYTES
                                       : PHAEDRUS_WIDE_LIMIT_BYTES));
  Value room = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ult,
                                    offset, limit);
  // The slow path runs once per 64K events: tell block placement so.
  LLVM::CondBrOp::create(builder, loc, room, fast, ValueRange{}, slow,
                         ValueRange{}, std::make_pair(uint32_t(65535), uint32_t(1)));

  builder.setInsertionPointToEnd(fast);
  Type wordType = narrow ? builder.getI16Type() : i32;
  for (auto [i, word] : llvm::enumerate(words)) {
    Value slot = i == 0 ? Value(current)
                        : LLVM::GEPOp::create(builder, loc, ptr, i32, current,
                                              ArrayRef<LLVM::GEPArg>{int32_t(i)});
    Value stored = narrow ? LLVM::TruncOp::create(builder, loc, wordType, word)
                          : word;
    tag(LLVM::StoreOp::create(builder, loc, stored, slot, narrow ? 2 : 4),
        Memory::Events);
  }
  LLVM::GEPArg step = advance ? LLVM::GEPArg(advance)
                              : LLVM::GEPArg(static_cast<int32_t>(words.size()));
  Value next = LLVM::GEPOp::create(builder, loc, ptr, wordType, current,
                                   ArrayRef<LLVM::GEPArg>{step});
  tag(LLVM::StoreOp::create(builder, loc, next, cursorAddress, 8), Memory::Cursor);
  LLVM::BrOp::create(builder, loc, ValueRange{}, cont);

  builder.setInsertionPointToEnd(slow);
  auto call = LLVM::CallOp::create(builder, loc, words.size() == 1 ? slow1 : slow3,
                                   words);
  call.setCConv(LLVM::cconv::CConv::PreserveMost);
  LLVM::BrOp::create(builder, loc, ValueRange{}, cont);

  builder.setInsertionPointToStart(cont);
}
