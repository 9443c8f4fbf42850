//===- LowerProfile.cpp - Lower phaedrus profiles to LLVM -----------------===//

#include "phaedrus/Dialect/Phaedrus/IR/PhaedrusOps.h"
#include "phaedrus/Dialect/Phaedrus/Flow/FlowRepair.h"
#include "phaedrus/Dialect/Phaedrus/Flow/LoopHeaders.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h"
#include "phaedrus/Dialect/Phaedrus/Transforms/ProfileSummary.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::phaedrus {
#define GEN_PASS_DEF_PHAEDRUSLOWERPROFILEPASS
#include "phaedrus/Dialect/Phaedrus/Transforms/Passes.h.inc"
} // namespace mlir::phaedrus

using namespace mlir;
using namespace mlir::phaedrus;

/// Scales `weights` proportionally into 32 bits, the way LLVM's PGO
/// instrumentation does (divide by max / UINT32_MAX + 1).
static SmallVector<int32_t> scaleWeights(ArrayRef<uint64_t> weights) {
  uint64_t max = 0;
  for (uint64_t w : weights)
    max = std::max(max, w);
  uint64_t scale = max / UINT32_MAX + 1;
  SmallVector<int32_t> scaled;
  for (uint64_t w : weights)
    scaled.push_back(static_cast<int32_t>(static_cast<uint32_t>(w / scale)));
  return scaled;
}

namespace {
struct PhaedrusLowerProfilePass
    : public phaedrus::impl::PhaedrusLowerProfilePassBase<
          PhaedrusLowerProfilePass> {
  using PhaedrusLowerProfilePassBase::PhaedrusLowerProfilePassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    ProfileSummaryBuilder summary;
    bool anyFailed = false, anyLowered = false;
    StringRef entryName = PhaedrusDialect::getEntryCountAttrName();
    StringRef weightsName = PhaedrusDialect::getBranchWeightsAttrName();

    // Every count is checked before any is changed: profi computes in
    // signed 64-bit arithmetic, as LLVM's summary and entry counts are.
    module.walk([&](Operation *op) {
      if (auto count = op->getAttrOfType<EntryCountAttr>(entryName)) {
        if (!isa<LLVM::LLVMFuncOp>(op)) {
          op->emitOpError() << "has '" << entryName
                            << "', but only llvm.func can carry an LLVM "
                               "entry count; convert to the LLVM dialect first";
          anyFailed = true;
        } else if (count.getCount() > uint64_t(INT64_MAX)) {
          op->emitOpError() << "entry count " << count.getCount()
                            << " does not fit in LLVM's signed 64-bit field";
          anyFailed = true;
        }
      }
      if (auto weights = op->getAttrOfType<BranchWeightsAttr>(weightsName)) {
        if (!isa<WeightedBranchOpInterface, LLVM::IndirectBrOp>(op)) {
          op->emitOpError() << "has '" << weightsName
                            << "', but does not take branch weights";
          anyFailed = true;
          return;
        }
        uint64_t total = 0;
        for (uint64_t w : weights.getWeights())
          total = llvm::SaturatingAdd(total, w);
        if (total > uint64_t(INT64_MAX)) {
          op->emitOpError() << "branch weights total more than LLVM's signed "
                               "64-bit counts hold";
          anyFailed = true;
        }
      }
    });
    if (anyFailed)
      return signalPassFailure();

    if (repairFlow)
      for (auto function : module.getOps<LLVM::LLVMFuncOp>())
        if (phaedrus::repairFlow(function))
          ++numRepaired;

    // Before the counts leave their phaedrus attributes.
    if (loopHeaderWeights)
      for (auto function : module.getOps<LLVM::LLVMFuncOp>())
        numLoopHeaderWeights += setLoopHeaderWeights(function);

    // The largest count of each function whose profile gives every block
    // its count, for the hot/cold marking (coldCandidates).
    llvm::DenseMap<Operation *, uint64_t> maxCounts;
    if (markHotCold)
      maxCounts = coldCandidates(module);

    module.walk([&](Operation *op) {
      if (auto count = op->getAttrOfType<EntryCountAttr>(entryName)) {
        auto function = cast<LLVM::LLVMFuncOp>(op);
        function.setFunctionEntryCount(count.getCount());
        summary.addEntryCount(count.getCount());
        if (!keepAnnotations)
          op->removeAttr(entryName);
        anyLowered = true;
        ++numEntryCounts;
      }
      if (auto weights = op->getAttrOfType<BranchWeightsAttr>(weightsName)) {
        SmallVector<int32_t> scaled = scaleWeights(weights.getWeights());
        if (auto branch = dyn_cast<WeightedBranchOpInterface>(op))
          branch.setWeights(scaled);
        else // llvm.indirectbr: see getIndirectBrWeightsAttrName
          op->setAttr(PhaedrusDialect::getIndirectBrWeightsAttrName(),
                      DenseI32ArrayAttr::get(op->getContext(), scaled));
        for (uint64_t w : weights.getWeights())
          summary.addInternalCount(w);
        if (!keepAnnotations)
          op->removeAttr(weightsName);
        anyLowered = true;
        ++numBranchWeights;
      }
    });
    if (!anyLowered)
      return;
    ProfileSummaryData data = summary.build();
    if (emitSummary)
      setSummaryFlag(module, data);
    if (markHotCold)
      markFunctions(module, data, maxCounts);
  }

  /// What LLVM's PGO instrumentation does when it applies a profile
  /// (PGOUseFunc::annotateIrrLoopHeaderWeights): the headers of irreducible
  /// loops, and the targets of indirect branches (which tail duplication
  /// tends to make such headers), get their block's count as a loop header
  /// weight, where the profile determines it. Returns how many.
  unsigned setLoopHeaderWeights(LLVM::LLVMFuncOp function) {
    if (function.isExternal())
      return 0;
    llvm::DenseMap<Block *, uint64_t> counts = knownBlockCounts(function);
    Region &body = function.getBody();
    // A function that never ran gets none (LLVM's PGO leaves a function
    // whose counters are all zero without any weights).
    if (counts.lookup(&body.front()) == 0)
      return 0;
    llvm::SetVector<Block *> headers;
    for (Block *header : irreducibleLoopHeaders(body))
      headers.insert(header);
    for (Block &block : body)
      if (isa<LLVM::IndirectBrOp>(block.getTerminator()))
        for (Block *target : block.getSuccessors())
          headers.insert(target);
    Builder builder(function.getContext());
    unsigned set = 0;
    for (Block *header : headers) {
      auto count = counts.find(header);
      if (count == counts.end())
        continue;
      header->getTerminator()->setAttr(
          PhaedrusDialect::getIrrLoopWeightAttrName(),
          builder.getI64IntegerAttr(static_cast<int64_t>(count->second)));
      ++set;
    }
    return set;
  }

  /// The functions that may be marked cold, with their largest block
  /// count: those whose profile gives every block its count
  /// (knownBlockCounts), as a path-granularity profile does, and those
  /// entered 0 times. A function-granularity profile knows a function's
  /// entry count and the blocks its calls fix, not a loop that calls
  /// nothing: bzip2's generateMTFValues, entered once, whose loop runs 1.4M
  /// times, was marked cold by its entry count of 1 until 2026-11-28 (found
  /// by a review). LLVM's PGO, whose counters give every block a count,
  /// decides from all of them.
  llvm::DenseMap<Operation *, uint64_t> coldCandidates(ModuleOp module) {
    llvm::DenseMap<Operation *, uint64_t> candidates;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
      if (function.isExternal())
        continue;
      llvm::DenseMap<Block *, uint64_t> counts = knownBlockCounts(function);
      auto entry = counts.find(&function.getBody().front());
      if (entry == counts.end())
        continue;
      if (entry->second == 0) {
        candidates[function] = 0;
        continue;
      }
      if (counts.size() != function.getBody().getBlocks().size())
        continue;
      uint64_t max = 0;
      for (auto &[block, count] : counts)
        max = std::max(max, count);
      candidates[function] = max;
    }
    return candidates;
  }

  /// What LLVM's PGO instrumentation does when it applies a profile
  /// (PGOUseFunc::markFunctionAttributes): a function whose entry count is
  /// hot (at least the summary's minimum count at the 99% cutoff) gets
  /// `inlinehint`; otherwise, one whose largest block count is cold (at most
  /// the minimum count at the 99.9999% cutoff) gets `cold`, unless the
  /// source says `hot` (the user's word is kept and a warning given, as
  /// LLVM's PGO does). Only the coldCandidates may be cold. Without them a
  /// profile lowered by Phaedrus would steer the inliner and the code layout
  /// less than clang's own.
  void markFunctions(ModuleOp module, const ProfileSummaryData &data,
                     const llvm::DenseMap<Operation *, uint64_t> &maxCounts) {
    std::optional<uint64_t> hot, cold;
    for (const ProfileSummaryEntry &entry : data.detailed) {
      if (entry.cutoff == 990000)
        hot = entry.minCount;
      if (entry.cutoff == 999999)
        cold = entry.minCount;
    }
    if (!hot || !cold)
      return;
    MLIRContext *context = module.getContext();
    for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
      std::optional<uint64_t> entry = function.getFunctionEntryCount();
      if (!entry || function.isExternal())
        continue;
      auto candidate = maxCounts.find(function);
      if (*entry >= *hot) {
        function.setInlineHint(true);
        ++numHot;
      } else if (candidate != maxCounts.end() && candidate->second <= *cold) {
        SmallVector<Attribute> passthrough;
        if (ArrayAttr existing = function.getPassthroughAttr())
          passthrough.append(existing.begin(), existing.end());
        if (llvm::is_contained(passthrough, StringAttr::get(context, "hot"))) {
          function.emitWarning()
              << "phaedrus-lower-profile: function @" << function.getSymName()
              << " is annotated hot, but the profile says it is cold: the "
                 "annotation is kept, and the function is not marked cold";
          continue;
        }
        auto coldAttr = StringAttr::get(context, "cold");
        if (!llvm::is_contained(passthrough, coldAttr))
          passthrough.push_back(coldAttr);
        function.setPassthroughAttr(ArrayAttr::get(context, passthrough));
        ++numCold;
      }
    }
  }

  void setSummaryFlag(ModuleOp module, const ProfileSummaryData &data) {
    MLIRContext *context = module.getContext();
    SmallVector<LLVM::ModuleFlagProfileSummaryDetailedAttr> detailed;
    for (const ProfileSummaryEntry &entry : data.detailed)
      detailed.push_back(LLVM::ModuleFlagProfileSummaryDetailedAttr::get(
          context, entry.cutoff, entry.minCount,
          static_cast<uint32_t>(entry.numCounts)));
    auto summaryAttr = LLVM::ModuleFlagProfileSummaryAttr::get(
        context, LLVM::ProfileSummaryFormatKind::InstrProf, data.totalCount,
        data.maxCount, data.maxInternalCount, data.maxFunctionCount,
        data.numCounts, data.numFunctions, /*is_partial_profile=*/std::nullopt,
        /*partial_profile_ratio=*/FloatAttr(), detailed);
    StringAttr key = StringAttr::get(
        context, LLVM::LLVMDialect::getModuleFlagKeyProfileSummaryName());
    auto flag = LLVM::ModuleFlagAttr::get(context, LLVM::ModFlagBehavior::Error,
                                          key, summaryAttr);

    // Replace an existing summary in the first module_flags op, or add one.
    for (auto flags : module.getOps<LLVM::ModuleFlagsOp>()) {
      SmallVector<Attribute> entries;
      for (Attribute existing : flags.getFlags()) {
        auto existingFlag = dyn_cast<LLVM::ModuleFlagAttr>(existing);
        if (!existingFlag || existingFlag.getKey() != key)
          entries.push_back(existing);
      }
      entries.push_back(flag);
      flags.setFlagsAttr(ArrayAttr::get(context, entries));
      return;
    }
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    LLVM::ModuleFlagsOp::create(builder, module.getLoc(),
                                builder.getArrayAttr({flag}));
  }
};
} // namespace
