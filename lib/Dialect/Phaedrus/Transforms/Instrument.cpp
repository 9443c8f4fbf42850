//===- Instrument.cpp - Record whole program paths ------------------------===//

#include "BallLarus.h"
#include "Recorder.h"
#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProgramShape.h"
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

static constexpr StringLiteral kRegisterName = "__phaedrus_register";
static constexpr StringLiteral kVocabularyGlobal = "__phaedrus_vocabulary_text";
static constexpr StringLiteral kInitName = "__phaedrus_module_init";
static constexpr StringLiteral kVocabularyOpName = "phaedrus_vocabulary";

namespace {
struct PhaedrusInstrumentPass
    : public phaedrus::impl::PhaedrusInstrumentPassBase<PhaedrusInstrumentPass> {
  using PhaedrusInstrumentPassBase::PhaedrusInstrumentPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (module.lookupSymbol(Recorder::kSiteName) || module.lookupSymbol(kVocabularyOpName)) {
      module.emitError("phaedrus-instrument: the module is already "
                       "instrumented (it declares __phaedrus_site)");
      return signalPassFailure();
    }

    ProgramShape shape = analyzeProgram(module);
    std::map<std::string, LLVM::LLVMFuncOp> &functions = shape.functions;
    std::vector<ProgramShape::CallSite> &sites = shape.sites;
    uint64_t fingerprint = shape.fingerprint;
    if (functions.empty()) {
      module.emitError("phaedrus-instrument: the module defines no function "
                       "to instrument");
      return signalPassFailure();
    }

    // Token ids: functions (sorted), then call sites (sorted by caller, index).
    std::map<std::string, uint32_t> functionToken;
    std::vector<trace::VocabularyEntry> entries;
    for (auto &[name, function] : functions) {
      functionToken[name] = entries.size();
      entries.push_back({static_cast<uint32_t>(entries.size()), "function",
                         name, std::nullopt, ""});
    }
    std::vector<uint32_t> siteToken;
    for (const ProgramShape::CallSite &site : sites) {
      siteToken.push_back(entries.size());
      entries.push_back({static_cast<uint32_t>(entries.size()), "call_site",
                         site.caller.str(), site.index, site.callee.str()});
    }
    if (entries.size() >= UINT32_MAX) {
      module.emitError("phaedrus-instrument: too many functions and call "
                       "sites for 32-bit tokens");
      return signalPassFailure();
    }

    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    Location loc = module.getLoc();
    Type i32 = builder.getI32Type();
    Type i64 = builder.getI64Type();
    auto ptr = LLVM::LLVMPointerType::get(context);
    auto voidType = LLVM::LLVMVoidType::get(context);

    // Runtime declarations.
    Recorder recorder(module);
    LLVM::GlobalOp siteGlobal = recorder.getSiteGlobal();
    auto registerFn = LLVM::LLVMFuncOp::create(
        builder, loc, kRegisterName,
        LLVM::LLVMFunctionType::get(voidType, {ptr, i64, i64, i32}));

    // Functions entered only by direct calls from recorded code (internal,
    // never address-taken, not a constructor): their callers record the
    // call-site token inline and they record nothing, which spares the
    // thread-local hand-over of the pending site.
    const llvm::StringSet<> &callerRecorded = shape.enteredOnlyByRecordedCalls;

    // Call sites of the other functions: store the pending token right
    // before the call.
    SmallVector<std::pair<LLVM::CallOp, uint32_t>> recordAtCall;
    for (auto [site, token] : llvm::zip(sites, siteToken)) {
      if (callerRecorded.contains(site.callee)) {
        recordAtCall.push_back({site.call, token});
        continue;
      }
      builder.setInsertionPoint(site.call);
      Location callLoc = site.call.getLoc();
      Value address = LLVM::AddressOfOp::create(builder, callLoc, siteGlobal);
      Value value = LLVM::ConstantOp::create(builder, callLoc, i32,
                                             builder.getI32IntegerAttr(token + 1));
      LLVM::StoreOp::create(builder, callLoc, value, address);
      ++numCallSites;
    }
    // Paths first: their code goes on edges, the entry hook then goes
    // before everything at the top of the entry block.
    if (granularity == Granularity::Path) {
      for (auto &[name, function] : functions) {
        if (instrumentPaths(function, functionToken[name], recorder))
          ++numPathFunctions;
        else
          function.emitRemark()
              << "phaedrus-instrument: recording only the entries of @" << name
              << ": too many paths or an unsupported terminator";
      }
    }
    // Entries: after the entry block's leading constants and allocas (so
    // that the allocas stay in the entry block, where LLVM promotes them),
    // take the pending call-site token or else the function's own, and
    // record it.
    for (auto &[name, function] : functions) {
      if (callerRecorded.contains(name))
        continue;
      Block &entry = function.getBody().front();
      builder.setInsertionPoint(&entry, afterEntryAllocas(entry));
      Location entryLoc = function.getLoc();
      Value siteAddress = LLVM::AddressOfOp::create(builder, entryLoc, siteGlobal);
      Value site = LLVM::LoadOp::create(builder, entryLoc, i32, siteAddress, 4);
      Value zero = LLVM::ConstantOp::create(builder, entryLoc, i32,
                                            builder.getI32IntegerAttr(0));
      LLVM::StoreOp::create(builder, entryLoc, zero, siteAddress, 4);
      Value one = LLVM::ConstantOp::create(builder, entryLoc, i32,
                                           builder.getI32IntegerAttr(1));
      Value fromSite = LLVM::SubOp::create(builder, entryLoc, site, one);
      Value hasSite = LLVM::ICmpOp::create(builder, entryLoc,
                                           LLVM::ICmpPredicate::ne, site, zero);
      Value own = LLVM::ConstantOp::create(
          builder, entryLoc, i32, builder.getI32IntegerAttr(functionToken[name]));
      Value token = LLVM::SelectOp::create(builder, entryLoc, hasSite, fromSite, own);
      recorder.emit(builder, entryLoc, {token});
      ++numFunctions;
    }
    // Call-site tokens recorded by the caller, right before the call (after
    // the path instrumentation, which numbers the unchanged CFG and records
    // an open path run before every call, so events stay in order).
    for (auto [call, token] : recordAtCall) {
      builder.setInsertionPoint(call);
      Value value = LLVM::ConstantOp::create(builder, call.getLoc(), i32,
                                             builder.getI32IntegerAttr(token));
      recorder.emit(builder, call.getLoc(), {value});
      ++numCallSites;
      ++numCallerRecorded;
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
      Value granularityValue = LLVM::ConstantOp::create(
          builder, loc, i32,
          builder.getI32IntegerAttr(granularity == Granularity::Path
                                        ? PHAEDRUS_GRANULARITY_PATH
                                        : PHAEDRUS_GRANULARITY_FUNCTION));
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
      EntryOp::create(
          builder, loc, builder.getI64IntegerAttr(entry.id),
          EntryKindAttr::get(context,
                             isSite ? EntryKind::CallSite : EntryKind::Function),
          FlatSymbolRefAttr::get(context, entry.symbol),
          isSite ? builder.getI64IntegerAttr(*entry.index) : IntegerAttr(),
          isSite ? FlatSymbolRefAttr::get(context, entry.callee)
                 : FlatSymbolRefAttr(),
          DenseI64ArrayAttr());
    }
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
