//===- Instrument.cpp - Record whole program paths ------------------------===//

#include "BallLarus.h"
#include "Recorder.h"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
#include "phaedrus/Trace/CallGroups.h"
#include "phaedrus/Trace/Format.h"
#include "phaedrus/Trace/TraceReader.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/StringSet.h"

#include <map>

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSINSTRUMENTPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

static constexpr StringLiteral kVocabularyGlobal = "__phaedrus_vocabulary_text";
static constexpr StringLiteral kInitName = "__phaedrus_module_init";
static constexpr StringLiteral kVocabularyOpName = "phaedrus_vocabulary";
static constexpr StringLiteral kDirectCopyPrefix = "__phaedrus_direct.";

/// `loc` without the debug scope (subprogram or lexical block) a location
/// from 'phaedrus ir -g' carries.
static Location withoutDebugScope(Location loc) {
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (isa_and_nonnull<LLVM::DILocalScopeAttr>(fused.getMetadata()))
      return FusedLoc::get(loc.getContext(), fused.getLocations());
  return loc;
}

namespace {
struct PhaedrusInstrumentPass
    : public phaedrus::impl::PhaedrusInstrumentPassBase<PhaedrusInstrumentPass> {
  using PhaedrusInstrumentPassBase::PhaedrusInstrumentPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (module.lookupSymbol(Recorder::kSiteName) || module.lookupSymbol(kVocabularyOpName)) {
      mlir::emitError(wholeModuleLoc(module),
                      "phaedrus-instrument: the module is already "
                      "instrumented (it declares __phaedrus_site)");
      return signalPassFailure();
    }

    ProgramShape shape = analyzeProgram(module);
    std::map<std::string, LLVM::LLVMFuncOp> &functions = shape.functions;
    std::vector<ProgramShape::CallSite> &sites = shape.sites;
    uint64_t fingerprint = shape.fingerprint;
    if (functions.empty()) {
      mlir::emitError(wholeModuleLoc(module),
                      "phaedrus-instrument: the module defines no function "
                      "to instrument");
      return signalPassFailure();
    }

    // Token ids: functions (sorted), then call sites (sorted by caller, index).
    std::map<std::string, uint32_t> functionToken;
    std::vector<trace::VocabularyEntry> entries;
    for (auto &[name, function] : functions) {
      functionToken[name] = entries.size();
      entries.push_back({static_cast<uint32_t>(entries.size()), "function",
                         name, std::nullopt, "", {}});
    }
    std::vector<uint32_t> siteToken;
    for (const ProgramShape::CallSite &site : sites) {
      siteToken.push_back(entries.size());
      entries.push_back({static_cast<uint32_t>(entries.size()), "call_site",
                         site.caller.str(), site.index, site.callee.str(), {}});
    }
    // Function granularity: the call groups of Lemma 1 (the entries
    // --phaedrus-call-groups would add), so that a trace carries what
    // folding it needs and the program need not be read again then.
    if (granularity == Granularity::Function) {
      std::map<std::pair<StringRef, uint64_t>, int64_t> siteIds;
      for (auto [site, token] : llvm::zip(sites, siteToken))
        siteIds[{site.caller, site.index}] = token;
      std::vector<CallGroup> groups =
          findCallGroups(shape, trace::CallGroupTable::kMaxMembers);
      for (CallGroupEntry &group : callGroupEntries(
               groups, [&](StringRef caller, uint64_t index) {
                 return std::optional<int64_t>(siteIds.at({caller, index}));
               })) {
        entries.push_back({static_cast<uint32_t>(entries.size()), "group",
                           group.function.str(), group.index, "",
                           std::move(group.members)});
        ++numGroupEntries;
      }
    }
    if (entries.size() >= UINT32_MAX) {
      mlir::emitError(wholeModuleLoc(module),
                      "phaedrus-instrument: too many functions and call "
                      "sites for 32-bit tokens");
      return signalPassFailure();
    }

    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    Location loc = module.getLoc();
    Type i32 = builder.getI32Type();
    Type i64 = builder.getI64Type();
    auto ptr = LLVM::LLVMPointerType::get(context);
    auto voidType = LLVM::LLVMVoidType::get(context);

    // Runtime declarations. 16-bit events when every token fits (function
    // granularity: a path run needs 32-bit words).
    bool narrow = narrowEvents && granularity == Granularity::Function &&
                  entries.size() <= PHAEDRUS_NARROW_TOKENS;
    Recorder recorder(module, narrow);
    LLVM::GlobalOp siteGlobal = recorder.getSiteGlobal();
    auto registerFn = LLVM::LLVMFuncOp::create(
        builder, loc, kRuntimeRegisterName,
        LLVM::LLVMFunctionType::get(voidType, {ptr, i64, i64, i32}));

    // Functions entered only by direct calls from recorded code (internal,
    // never address-taken, not a constructor): their callers record the
    // call-site token inline and they record nothing, which spares the
    // thread-local hand-over of the pending site.
    const llvm::StringSet<> &callerRecorded = shape.enteredOnlyByRecordedCalls;

    // Path granularity: a function without loops or calls runs one path
    // per call, recorded at its return; when every token fits, that word
    // also carries the entry token (PHAEDRUS_PATH_ENTRY), so the function
    // records nothing at entry and its direct callers pass the call-site
    // token as an argument instead of recording it: one record per call
    // instead of two. Not with `unreachable` (a path ending there records
    // nothing, and the entry would be lost with it) or varargs.
    llvm::StringSet<> entryWithPath;
    if (granularity == Granularity::Path &&
        entries.size() <= PHAEDRUS_PATH_SHORT_TOKENS)
      for (auto &[name, function] : functions)
        if (!function.isVarArg() && onlyReturns(function)) {
          std::optional<PathNumbering> numbering = numberPaths(function);
          if (numbering && recordsEntryWithPath(*numbering))
            entryWithPath.insert(name);
        }

    // Every direct call, with its call-site token (the copies' calls below
    // share their original's tokens).
    SmallVector<std::pair<LLVM::CallOp, uint32_t>> siteCalls;
    for (auto [site, token] : llvm::zip(sites, siteToken))
      siteCalls.push_back({site.call, token});

    // Direct-entry copies: a function that is also entered other than by
    // recorded direct calls (external, or address-taken) keeps its entry
    // hook for those entries, and its direct callers call an internal copy
    // without one instead, recording the call-site token themselves. A
    // direct call then costs one inline record in the caller instead of the
    // thread-local hand-over plus a record in the callee, and the copy is as
    // small as the uninstrumented function, so LLVM inlines it as it would
    // the original.
    std::map<std::string, LLVM::LLVMFuncOp> copies;
    if (directCopies) {
      llvm::StringSet<> directlyCalled;
      for (const ProgramShape::CallSite &site : sites)
        directlyCalled.insert(site.callee);
      // Each caller's sites, in program order, to pair with its copy's calls.
      std::map<StringRef, SmallVector<uint32_t>> tokensOfCaller;
      for (auto [site, token] : llvm::zip(sites, siteToken))
        tokensOfCaller[site.caller].push_back(token);
      for (auto &[name, function] : functions) {
        if (callerRecorded.contains(name) || !directlyCalled.contains(name) ||
            !canCopy(function))
          continue;
        std::string copyName = (Twine(kDirectCopyPrefix) + name).str();
        if (module.lookupSymbol(copyName)) {
          function.emitError() << "phaedrus-instrument: cannot make the direct-"
                                  "entry copy of @"
                               << name << ": @" << copyName << " exists";
          return signalPassFailure();
        }
        auto copy = cast<LLVM::LLVMFuncOp>(function->clone());
        // LLVM refuses a debug subprogram attached to two functions: the
        // copy's code goes without debug lines (the original keeps them).
        copy->setLoc(withoutDebugScope(copy->getLoc()));
        copy.walk([](Operation *op) { op->setLoc(withoutDebugScope(op->getLoc())); });
        copy.setSymName(copyName);
        copy.setLinkage(LLVM::Linkage::Internal);
        copy.setVisibility_(LLVM::Visibility::Default);
        copy.setComdatAttr({});
        module.getBody()->getOperations().insertAfter(function->getIterator(),
                                                      copy);
        copies[name] = copy;
        // Same body, so the same calls in the same order.
        SmallVector<LLVM::CallOp> calls;
        copy.walk([&](LLVM::CallOp call) {
          std::optional<StringRef> callee = call.getCallee();
          if (callee && functions.count(callee->str()))
            calls.push_back(call);
        });
        const SmallVector<uint32_t> &tokens = tokensOfCaller[function.getName()];
        assert(calls.size() == tokens.size() && "a copy has its original's calls");
        for (auto [call, token] : llvm::zip(calls, tokens))
          siteCalls.push_back({call, token});
        ++numDirectCopies;
      }
    }

    // The direct-entry version of each function that records its entry with
    // its path (its copy, or itself when only recorded direct calls enter
    // it) takes the call-site token as a last argument.
    llvm::StringSet<> takesSiteToken;
    for (auto &[name, function] : functions) {
      if (!entryWithPath.contains(name))
        continue;
      auto copy = copies.find(name);
      LLVM::LLVMFuncOp direct = copy != copies.end() ? copy->second
                                : callerRecorded.contains(name)
                                    ? function
                                    : LLVM::LLVMFuncOp();
      if (!direct)
        continue;
      addTrailingArgument(direct, i32);
      takesSiteToken.insert(direct.getName());
    }

    // Calls into functions entered only by recorded calls, and into copies,
    // record their token before the call; the others store the pending
    // token right before the call.
    SmallVector<std::pair<LLVM::CallOp, uint32_t>> recordAtCall;
    llvm::StringSet<> handedOver; // callees some call site stores a token for
    for (auto [call, token] : siteCalls) {
      StringRef callee = *call.getCallee();
      auto copy = copies.find(callee.str());
      if (copy != copies.end()) {
        call.setCallee(copy->second.getName());
        recordAtCall.push_back({call, token});
        continue;
      }
      if (callerRecorded.contains(callee)) {
        recordAtCall.push_back({call, token});
        continue;
      }
      handedOver.insert(callee);
      builder.setInsertionPoint(call);
      Location callLoc = call.getLoc();
      Value address = LLVM::AddressOfOp::create(builder, callLoc, siteGlobal);
      Value value = LLVM::ConstantOp::create(builder, callLoc, i32,
                                             builder.getI32IntegerAttr(token + 1));
      recorder.tag(LLVM::StoreOp::create(builder, callLoc, value, address),
                   Recorder::Memory::Site);
      ++numCallSites;
    }
    // Paths first: their code goes on edges, the entry hook then goes
    // before everything at the top of the entry block.
    // A copy records the paths of its original, under its original's token.
    // A function that records its entry with its path gets its entry token
    // computed first (the hook without its record, or the call-site token
    // argument) and records it at its returns.
    if (granularity == Granularity::Path) {
      for (auto &[name, function] : functions) {
        Value entryToken;
        if (entryWithPath.contains(name)) {
          entryToken = takesSiteToken.contains(function.getName())
                           ? function.getArguments().back()
                           : takeEntryToken(function, functionToken[name],
                                            handedOver.contains(name), recorder);
        }
        if (instrumentPaths(function, functionToken[name], recorder, entryToken)) {
          ++numPathFunctions;
          auto copy = copies.find(name);
          if (copy != copies.end())
            (void)instrumentPaths(copy->second, functionToken[name], recorder,
                                  entryToken ? copy->second.getArguments().back()
                                             : Value());
        } else if (entryToken) {
          // Cannot happen (the numbering succeeded when the function was
          // chosen), but its entries would go unrecorded.
          function.emitError() << "phaedrus-instrument: cannot number the "
                                  "paths of @"
                               << name << " a second time";
          return signalPassFailure();
        } else {
          // Its branches get no weights from the traces: a loss the user
          // sees (phaedrus instrument prints it).
          InFlightDiagnostic warning = function.emitWarning()
              << "phaedrus-instrument: recording only the entries of @" << name
              << ": ";
          UnnumberedReason why;
          if (Operation *term = unnumberedTerminator(function))
            warning << "the path numbering does not handle its '"
                    << term->getName() << "'";
          else if (!numberPaths(function, &why))
            warning << (why == UnnumberedReason::UnwindLoop
                            ? "a loop closes through the unwind edge of an "
                              "llvm.invoke, which can carry no code"
                            : "too many paths, even cut into segments");
          else
            warning << "its token, " << functionToken[name]
                    << ", is beyond what a path event can name";
          warning << "; its branches get no weights from its traces";
        }
      }
    }
    // Entries: after the entry block's leading constants and allocas (so
    // that the allocas stay in the entry block, where LLVM promotes them),
    // take the pending call-site token or else the function's own, and
    // record it. A function that no call site hands a token to (with
    // direct-entry copies, all but those that cannot be copied) is entered
    // only with none pending: it records its own token, a constant.
    for (auto &[name, function] : functions) {
      if (callerRecorded.contains(name))
        continue;
      ++numFunctions;
      if (entryWithPath.contains(name))
        continue;
      Value token = takeEntryToken(function, functionToken[name],
                                   handedOver.contains(name), recorder);
      builder.setInsertionPointAfterValue(token);
      recorder.emit(builder, function.getLoc(), {token});
    }
    // Call-site tokens recorded by the caller, right before the call (after
    // the path instrumentation, which numbers the unchanged CFG and records
    // an open path run before every call, so events stay in order).
    for (auto [call, token] : recordAtCall) {
      builder.setInsertionPoint(call);
      Value value = LLVM::ConstantOp::create(builder, call.getLoc(), i32,
                                             builder.getI32IntegerAttr(token));
      if (takesSiteToken.contains(*call.getCallee())) {
        call.getCalleeOperandsMutable().append(value);
        if (ArrayAttr argAttrs = call.getArgAttrsAttr())
          call.setArgAttrsAttr(withEmptyEntry(argAttrs));
        ++numCallSites;
        ++numEntriesWithPath;
        continue;
      }
      recorder.emit(builder, call.getLoc(), {value});
      ++numCallSites;
      ++numCallerRecorded;
    }

    // Recording writes memory: a function that records, or calls one that
    // does, may not keep a `memory_effects` that says otherwise (clang's
    // for `__attribute__((pure))` or `const`), nor may calls of it or
    // indirect calls, or LLVM could merge or drop calls and their events.
    for (auto &[name, function] : functions)
      function.setMemoryEffectsAttr({});
    for (auto &[name, copy] : copies)
      copy.setMemoryEffectsAttr({});
    module.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee || functions.count(callee->str()) ||
          callee->starts_with(kDirectCopyPrefix))
        call.setMemoryEffectsAttr({});
    });

    // The cursor in registers along direct calls (ThreadCursor.cpp): the
    // functions only direct calls enter carry it as an argument and result.
    if (threadCursor) {
      llvm::StringSet<> direct;
      for (const auto &name : callerRecorded)
        direct.insert(name.getKey());
      for (auto &[name, copy] : copies)
        direct.insert(copy.getName());
      numCursorCarriers += recorder.threadCursor(module, direct);
    }

    // Registration: the vocabulary text and a priority-0 constructor.
    std::string text;
    for (const trace::VocabularyEntry &entry : entries)
      trace::printVocabularyEntry(entry, text);
    builder.setInsertionPointToEnd(module.getBody());
    auto textType = LLVM::LLVMArrayType::get(builder.getI8Type(), text.size());
    auto textGlobal = LLVM::GlobalOp::create(
        builder, loc, textType, /*isConstant=*/true, LLVM::Linkage::Internal,
        kVocabularyGlobal, builder.getStringAttr(text));
    auto init = LLVM::LLVMFuncOp::create(
        builder, loc, kInitName, LLVM::LLVMFunctionType::get(voidType, {}),
        LLVM::Linkage::Internal);
    {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(init.addEntryBlock(builder));
      Value textAddress = LLVM::AddressOfOp::create(builder, loc, textGlobal);
      Value size = LLVM::ConstantOp::create(builder, loc, i64,
                                            builder.getI64IntegerAttr(text.size()));
      Value print = LLVM::ConstantOp::create(
          builder, loc, i64,
          builder.getI64IntegerAttr(static_cast<int64_t>(fingerprint)));
      uint32_t layout = granularity == Granularity::Path
                            ? PHAEDRUS_GRANULARITY_PATH
                            : PHAEDRUS_GRANULARITY_FUNCTION;
      if (narrow)
        layout |= PHAEDRUS_NARROW_EVENTS;
      Value granularityValue = LLVM::ConstantOp::create(
          builder, loc, i32, builder.getI32IntegerAttr(layout));
      LLVM::CallOp::create(builder, loc, registerFn,
                           ValueRange{textAddress, size, print, granularityValue});
      LLVM::ReturnOp::create(builder, loc, ValueRange{});
    }
    addConstructor(module, builder, init);

    // The vocabulary as IR.
    builder.setInsertionPointToStart(module.getBody());
    auto vocabulary = VocabularyOp::create(
        builder, loc, builder.getStringAttr(kVocabularyOpName),
        builder.getIntegerAttr(builder.getIntegerType(64, false), fingerprint));
    builder.setInsertionPointToStart(&vocabulary.getBody().emplaceBlock());
    for (const trace::VocabularyEntry &entry : entries) {
      bool isSite = entry.kind == "call_site";
      bool isGroup = entry.kind == "group";
      EntryOp::create(
          builder, loc, builder.getI64IntegerAttr(entry.id),
          EntryKindAttr::get(context, isSite    ? EntryKind::CallSite
                                      : isGroup ? EntryKind::Group
                                                : EntryKind::Function),
          FlatSymbolRefAttr::get(context, entry.symbol),
          entry.index ? builder.getI64IntegerAttr(*entry.index) : IntegerAttr(),
          isSite ? FlatSymbolRefAttr::get(context, entry.callee)
                 : FlatSymbolRefAttr(),
          isGroup ? builder.getDenseI64ArrayAttr(entry.members)
                  : DenseI64ArrayAttr());
    }
  }

  /// The token an entry into `function` records, computed at the top of its
  /// entry block (after its leading constants and allocas, so that the
  /// allocas stay in the entry block, where LLVM promotes them): its own
  /// token, or, when some call site hands it one (`handedOver`), the pending
  /// call-site token if there is one (clearing it) and else its own.
  Value takeEntryToken(LLVM::LLVMFuncOp function, uint32_t ownToken,
                       bool handedOver, Recorder &recorder) {
    Block &entry = function.getBody().front();
    OpBuilder builder(function.getContext());
    builder.setInsertionPoint(&entry, afterEntryAllocas(entry));
    Location loc = function.getLoc();
    Type i32 = builder.getI32Type();
    auto own = [&] {
      return LLVM::ConstantOp::create(builder, loc, i32,
                                      builder.getI32IntegerAttr(ownToken));
    };
    if (!handedOver)
      return own();
    Value siteAddress =
        LLVM::AddressOfOp::create(builder, loc, recorder.getSiteGlobal());
    auto site = LLVM::LoadOp::create(builder, loc, i32, siteAddress, 4);
    recorder.tag(site, Recorder::Memory::Site);
    Value zero =
        LLVM::ConstantOp::create(builder, loc, i32, builder.getI32IntegerAttr(0));
    recorder.tag(LLVM::StoreOp::create(builder, loc, zero, siteAddress, 4),
                 Recorder::Memory::Site);
    Value one =
        LLVM::ConstantOp::create(builder, loc, i32, builder.getI32IntegerAttr(1));
    Value fromSite = LLVM::SubOp::create(builder, loc, site, one);
    Value hasSite =
        LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ne, site, zero);
    return LLVM::SelectOp::create(builder, loc, hasSite, fromSite, own());
  }

  /// Appends an argument of type `type` to `function` (its type, its entry
  /// block, its argument attributes). FunctionOpInterface's insertArgument
  /// cannot: it gives an LLVM function without results no type.
  static void addTrailingArgument(LLVM::LLVMFuncOp function, Type type) {
    LLVM::LLVMFunctionType old = function.getFunctionType();
    SmallVector<Type> params(old.getParams());
    params.push_back(type);
    function.setFunctionType(
        LLVM::LLVMFunctionType::get(old.getReturnType(), params, old.isVarArg()));
    function.getBody().front().addArgument(type, function.getLoc());
    if (ArrayAttr argAttrs = function.getArgAttrsAttr())
      function.setArgAttrsAttr(withEmptyEntry(argAttrs));
  }

  /// Per-argument attributes with an empty dictionary appended, for an
  /// argument added last (to a function or to a call).
  static ArrayAttr withEmptyEntry(ArrayAttr argAttrs) {
    SmallVector<Attribute> extended(argAttrs.begin(), argAttrs.end());
    extended.push_back(DictionaryAttr::get(argAttrs.getContext()));
    return ArrayAttr::get(argAttrs.getContext(), extended);
  }

  /// Whether `function` leaves only by returning, with nothing recorded in
  /// between: no call of any kind (a callee or a callback could record
  /// events), no inline assembly, no `unreachable`.
  static bool onlyReturns(LLVM::LLVMFuncOp function) {
    return !containsAny<LLVM::CallOp, LLVM::InvokeOp, LLVM::InlineAsmOp,
                        LLVM::UnreachableOp>(function);
  }

  /// Whether `function` can have a direct-entry copy: not if it takes the
  /// address of its own blocks (a copy's `llvm.blockaddress` would still name
  /// the original's).
  static bool canCopy(LLVM::LLVMFuncOp function) {
    return !containsAny<LLVM::BlockAddressOp, LLVM::BlockTagOp>(function);
  }

  /// Adds `init` to the module's constructors with priority 0, extending an
  /// existing llvm.mlir.global_ctors if there is one.
  void addConstructor(ModuleOp module, OpBuilder &builder,
                      LLVM::LLVMFuncOp init) {
    MLIRContext *context = module.getContext();
    SmallVector<Attribute> ctors, priorities, data;
    auto existing = module.getOps<LLVM::GlobalCtorsOp>();
    if (!existing.empty()) {
      LLVM::GlobalCtorsOp old = *existing.begin();
      llvm::append_range(ctors, old.getCtors());
      llvm::append_range(priorities, old.getPriorities());
      llvm::append_range(data, old.getData());
      old.erase();
    }
    ctors.push_back(FlatSymbolRefAttr::get(init));
    priorities.push_back(builder.getI32IntegerAttr(0));
    data.push_back(LLVM::ZeroAttr::get(context));
    builder.setInsertionPointToEnd(module.getBody());
    LLVM::GlobalCtorsOp::create(builder, module.getLoc(),
                                builder.getArrayAttr(ctors),
                                builder.getArrayAttr(priorities),
                                builder.getArrayAttr(data));
  }
};
} // namespace
