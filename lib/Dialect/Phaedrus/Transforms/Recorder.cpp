//===- Recorder.cpp - Inline event recording ------------------------------===//

#include "Recorder.h"

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

Recorder::Recorder(ModuleOp module) {
  MLIRContext *context = module.getContext();
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
  limit = threadLocal("__phaedrus_limit", ptr, 8);
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
}

void Recorder::emit(OpBuilder &builder, Location loc, ArrayRef<Value> words,
                    Value advance) {
  assert((words.size() == 1 || words.size() == 3) && "one or three words");
  assert((!advance || words.size() == 3) && "a variable advance is a path run's");
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
  Value limitAddress = LLVM::AddressOfOp::create(builder, loc, limit);
  Value current = LLVM::LoadOp::create(builder, loc, ptr, cursorAddress, 8);
  Value end = LLVM::LoadOp::create(builder, loc, ptr, limitAddress, 8);
  Value room = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ult,
                                    current, end);
  // The slow path runs once per 64K events: tell block placement so.
  LLVM::CondBrOp::create(builder, loc, room, fast, ValueRange{}, slow,
                         ValueRange{}, std::make_pair(uint32_t(65535), uint32_t(1)));

  builder.setInsertionPointToEnd(fast);
  for (auto [i, word] : llvm::enumerate(words)) {
    Value slot = i == 0 ? current
                        : LLVM::GEPOp::create(builder, loc, ptr, i32, current,
                                              ArrayRef<LLVM::GEPArg>{int32_t(i)});
    LLVM::StoreOp::create(builder, loc, word, slot, 4);
  }
  LLVM::GEPArg step = advance ? LLVM::GEPArg(advance)
                              : LLVM::GEPArg(static_cast<int32_t>(words.size()));
  Value next = LLVM::GEPOp::create(builder, loc, ptr, i32, current,
                                   ArrayRef<LLVM::GEPArg>{step});
  LLVM::StoreOp::create(builder, loc, next, cursorAddress, 8);
  LLVM::BrOp::create(builder, loc, ValueRange{}, cont);

  builder.setInsertionPointToEnd(slow);
  auto call = LLVM::CallOp::create(builder, loc, words.size() == 1 ? slow1 : slow3,
                                   words);
  call.setCConv(LLVM::cconv::CConv::PreserveMost);
  LLVM::BrOp::create(builder, loc, ValueRange{}, cont);

  builder.setInsertionPointToStart(cont);
}
