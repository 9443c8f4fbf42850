//===- ThreadCursor.cpp - The event cursor in registers -------------------===//
//
// Every record loads the thread's cursor, stores its words there and stores
// the advanced cursor back. Through the thread-local, consecutive records
// form a chain of store-to-load forwarding (about five cycles each on
// x86-64), and in call-heavy code that chain, not the stores, is what
// recording costs: Lua's tables.lua records an event every 2 ns of the
// uninstrumented program's time. Here each function keeps the cursor in a
// local (which LLVM promotes to a register), and functions entered only by
// direct calls from the module pass it along as an extra argument and
// result, so that the chain runs through registers. The thread-local is
// only current where control leaves the module's direct calls: around every
// other call (external functions, indirect calls, functions entered
// otherwise, the runtime's slow paths) and at the returns of functions
// entered from outside.
//
//===----------------------------------------------------------------------===//

#include "Recorder.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::phaedrus;

/// Results a function can return together with the cursor in registers
/// (x86-64: two integer registers, or an XMM and an integer register).
static bool carriesWithCursor(Type result) {
  if (isa<LLVM::LLVMVoidType, LLVM::LLVMPointerType, Float32Type, Float64Type>(result))
    return true;
  auto integer = dyn_cast<IntegerType>(result);
  return integer && integer.getWidth() <= 64;
}

/// `attrs` (per-argument dictionaries) without `llvm.returned`, which names
/// the argument a function returns: a function that returns the cursor too
/// returns a pair. With one empty dictionary appended if `append`.
static ArrayAttr withoutReturned(ArrayAttr attrs, bool append) {
  if (!attrs)
    return attrs;
  MLIRContext *context = attrs.getContext();
  SmallVector<Attribute> result;
  for (Attribute attr : attrs) {
    NamedAttrList list(cast<DictionaryAttr>(attr));
    list.erase(LLVM::LLVMDialect::getReturnedAttrName());
    result.push_back(list.getDictionary(context));
  }
  if (append)
    result.push_back(DictionaryAttr::get(context));
  return ArrayAttr::get(context, result);
}

/// Whether `function` returns a struct through an `sret` argument: LLVM
/// requires such a function to return void, so it cannot return the cursor
/// (a function returning a struct by value in C, on x86-64 when it is larger
/// than two registers: lz4's LZ4IO_createCResources).
static bool hasStructReturn(LLVM::LLVMFuncOp function) {
  for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i)
    if (function.getArgAttr(i, LLVM::LLVMDialect::getStructRetAttrName()))
      return true;
  return false;
}

static bool isMustTail(LLVM::CallOp call) {
  return call.getTailCallKind() == LLVM::tailcallkind::TailCallKind::MustTail;
}

/// Whether `function` is `naked` (its body is assembly that cannot take or
/// return the cursor, and LLVM forbids uses of its arguments).
static bool isNaked(LLVM::LLVMFuncOp function) {
  ArrayAttr passthrough = function.getPassthroughAttr();
  return passthrough && llvm::any_of(passthrough, [](Attribute attr) {
           auto name = dyn_cast<StringAttr>(attr);
           return name && name.getValue() == "naked";
         });
}

/// Whether a call cannot record events or read the cursor, so that the
/// thread-local need not be current around it: the callee is declared (not
/// in the module) and either writes no memory the module can reach (its
/// `memory_effects`, or the call's, say so; a callback into the module
/// would be among its effects), or is one of the C library's allocation
/// functions, which call no user code (the C standard; glibc has no malloc
/// hooks since 2.34).
static bool cannotRecord(LLVM::CallOp call, SymbolTableCollection &symbols) {
  std::optional<StringRef> name = call.getCallee();
  if (!name)
    return false;
  auto callee = symbols.lookupNearestSymbolFrom<LLVM::LLVMFuncOp>(
      call, call.getCalleeAttr());
  if (!callee || !callee.isExternal())
    return false;
  auto writesNothingReachable = [](LLVM::MemoryEffectsAttr effects) {
    return effects && (effects.getOther() == LLVM::ModRefInfo::NoModRef ||
                       effects.getOther() == LLVM::ModRefInfo::Ref);
  };
  if (writesNothingReachable(call.getMemoryEffectsAttr()) ||
      writesNothingReachable(callee.getMemoryEffectsAttr()))
    return true;
  return llvm::is_contained({"malloc", "calloc", "realloc", "free"}, *name);
}

unsigned Recorder::threadCursor(ModuleOp module, const llvm::StringSet<> &direct) {
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  StringRef cursorName = cursor.getSymName();
  SymbolTableCollection symbols;

  // Functions that carry the cursor: entered only by direct calls, with a
  // result that fits beside it, not naked, without an sret argument. Not with exceptions (an unwind
  // edge would need the cursor too), not through `musttail` (caller and
  // callee must match), and not with any use other than such a call.
  llvm::StringSet<> carrying, untouched;
  for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
    if (function.isExternal())
      continue;
    if (containsAny<LLVM::InvokeOp, LLVM::LandingpadOp>(function))
      untouched.insert(function.getName());
    else if (direct.contains(function.getName()) && !function.isVarArg() &&
             !isNaked(function) && !hasStructReturn(function) &&
             carriesWithCursor(function.getFunctionType().getReturnType()))
      carrying.insert(function.getName());
  }
  module.walk([&](Operation *op) {
    if (auto call = dyn_cast<LLVM::CallOp>(op)) {
      auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
      std::optional<StringRef> callee = call.getCallee();
      bool mustTail = isMustTail(call);
      if (callee && (mustTail || untouched.contains(caller.getName())))
        carrying.erase(*callee);
      if (mustTail)
        carrying.erase(caller.getName());
    } else if (auto invoke = dyn_cast<LLVM::InvokeOp>(op)) {
      if (std::optional<StringRef> callee = invoke.getCallee())
        carrying.erase(*callee);
    }
  });
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&module.getBodyRegion())) {
    for (const SymbolTable::SymbolUse &use : *uses) {
      StringRef name = use.getSymbolRef().getRootReference().getValue();
      if (!carrying.contains(name) ||
          use.getUser()->getName().getDialectNamespace() == "phaedrus")
        continue;
      auto call = dyn_cast<LLVM::CallOp>(use.getUser());
      if (!call || call.getCallee() != name)
        carrying.erase(name);
    }
  } else {
    carrying.clear();
  }

  // Their signatures: the cursor as the last argument, and a result of
  // {result, cursor}, or the cursor alone.
  for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
    if (!carrying.contains(function.getName()))
      continue;
    LLVM::LLVMFunctionType old = function.getFunctionType();
    SmallVector<Type> params(old.getParams());
    params.push_back(ptr);
    Type result = old.getReturnType();
    Type carried = isa<LLVM::LLVMVoidType>(result)
                       ? Type(ptr)
                       : LLVM::LLVMStructType::getLiteral(context, {result, ptr});
    function.setFunctionType(LLVM::LLVMFunctionType::get(carried, params));
    function.getBody().front().addArgument(ptr, function.getLoc());
    if (ArrayAttr argAttrs = function.getArgAttrsAttr())
      function.setArgAttrsAttr(withoutReturned(argAttrs, /*append=*/true));
    function.setResAttrsAttr({});
  }

  for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
    if (function.isExternal() || untouched.contains(function.getName()))
      continue;
    bool carries = carrying.contains(function.getName());
    SmallVector<LLVM::AddressOfOp> cursorAddresses;
    SmallVector<LLVM::CallOp> calls;
    SmallVector<LLVM::ReturnOp> returns;
    bool callsCarrier = false;
    function.walk([&](Operation *op) {
      if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
        if (address.getGlobalName() == cursorName)
          cursorAddresses.push_back(address);
      } else if (auto call = dyn_cast<LLVM::CallOp>(op)) {
        calls.push_back(call);
        std::optional<StringRef> callee = call.getCallee();
        callsCarrier |= callee && carrying.contains(*callee);
      } else if (auto ret = dyn_cast<LLVM::ReturnOp>(op)) {
        returns.push_back(ret);
      }
    });
    if (!carries && cursorAddresses.empty() && !callsCarrier)
      continue;

    // The local, first in the entry block, set from the argument or the
    // thread-local.
    Block &entry = function.getBody().front();
    Location loc = function.getLoc();
    OpBuilder builder = OpBuilder::atBlockBegin(&entry);
    Value one = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                         builder.getI64IntegerAttr(1));
    Value local = LLVM::AllocaOp::create(builder, loc, ptr, ptr, one, 8);
    auto threadLocal = [&](Location at) {
      return LLVM::AddressOfOp::create(builder, at, cursor);
    };
    auto loadLocal = [&](Location at) {
      return LLVM::LoadOp::create(builder, at, ptr, local, 8);
    };
    auto storeLocal = [&](Location at, Value value) {
      LLVM::StoreOp::create(builder, at, value, local, 8);
    };
    // The thread-local made current from the local, and the local from it.
    auto publish = [&](Location at) {
      tag(LLVM::StoreOp::create(builder, at, loadLocal(at), threadLocal(at), 8),
          Memory::Cursor);
    };
    auto reload = [&](Location at) {
      auto value = LLVM::LoadOp::create(builder, at, ptr, threadLocal(at), 8);
      tag(value, Memory::Cursor);
      storeLocal(at, value);
    };
    if (carries)
      storeLocal(loc, entry.getArguments().back());
    else
      reload(loc);
    for (LLVM::AddressOfOp address : cursorAddresses) {
      address.getResult().replaceAllUsesWith(local);
      address.erase();
    }

    for (LLVM::CallOp call : calls) {
      Location at = call.getLoc();
      builder.setInsertionPoint(call);
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || !carrying.contains(*callee)) {
        // The callee may record through the thread-local. After a
        // `musttail` call only the return follows: the callee's returns
        // leave the thread-local current; before it the thread-local must
        // be current even if the callee cannot record, since nothing after
        // the call stores it (below).
        bool mustTail = isMustTail(call);
        if (!mustTail && cannotRecord(call, symbols))
          continue;
        publish(at);
        if (mustTail)
          continue;
        builder.setInsertionPointAfter(call);
        reload(at);
        continue;
      }
      Value current = loadLocal(at);
      OperationState state(at, call->getName());
      state.addOperands(call->getOperands());
      state.addTypes(symbols.lookupNearestSymbolFrom<LLVM::LLVMFuncOp>(
                                call, call.getCalleeAttr())
                         .getFunctionType()
                         .getReturnType());
      state.addAttributes(llvm::to_vector(call->getDiscardableAttrs()));
      LLVM::CallOp::Properties properties = call.getProperties();
      state.useProperties(properties);
      auto carried = cast<LLVM::CallOp>(builder.create(state));
      carried.getCalleeOperandsMutable().append(current);
      carried.setArgAttrsAttr(withoutReturned(call.getArgAttrsAttr(), /*append=*/true));
      carried.setResAttrsAttr({});
      if (call.getNumResults() == 0) {
        storeLocal(at, carried.getResult());
      } else {
        Value result = LLVM::ExtractValueOp::create(builder, at, carried.getResult(),
                                                    ArrayRef<int64_t>{0});
        call.getResult().replaceAllUsesWith(result);
        storeLocal(at, LLVM::ExtractValueOp::create(builder, at, carried.getResult(),
                                                    ArrayRef<int64_t>{1}));
      }
      call.erase();
    }

    for (LLVM::ReturnOp ret : returns) {
      Location at = ret.getLoc();
      builder.setInsertionPoint(ret);
      if (!carries) {
        auto tail = dyn_cast_or_null<LLVM::CallOp>(ret->getPrevNode());
        if (!tail || !isMustTail(tail))
          publish(at);
        continue;
      }
      Value value = loadLocal(at);
      if (ret.getNumOperands() == 1) {
        Type pair = function.getFunctionType().getReturnType();
        Value undef = LLVM::UndefOp::create(builder, at, pair);
        Value first = LLVM::InsertValueOp::create(builder, at, undef, ret.getOperand(0),
                                                  ArrayRef<int64_t>{0});
        value = LLVM::InsertValueOp::create(builder, at, first, value,
                                            ArrayRef<int64_t>{1});
      }
      LLVM::ReturnOp::create(builder, at, value);
      ret.erase();
    }
  }
  return carrying.size();
}
